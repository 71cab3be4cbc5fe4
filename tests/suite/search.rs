//! The search on hand-made positions, its keys, and the values it derives.

use crate::common;

use common::rules;
use std::sync::Arc;
use variantlab::{
    Game, Limits, MATE, PieceValue, Position, Rules, Searcher, parse_position, piece_values,
    think_in_game, write_move,
};

fn game(rules: &Arc<Rules>, position: &str) -> Game {
    Game::new(
        rules.clone(),
        parse_position(rules, position).expect("position"),
    )
    .expect("playable")
}

fn best(rules: &Arc<Rules>, g: &Game, depth: u32) -> (String, i32) {
    let t = think_in_game(
        &mut Searcher::new(rules.clone(), 16),
        g,
        &Limits::depth(depth),
    );
    let m = t.best.expect("a move");
    (write_move(rules.variant(), &m), t.score)
}

// Black's Warrior on e4 reaches e6 (two orthogonal steps, e5 empty), where Orange's
// Princess stands.
const PRINCESS_EN_PRISE: &str = "4ch5/10/10/10/4pr5/10/4WA5/10/10/4CHPR4 b - 0 1";

#[test]
fn takes_a_princess_left_en_prise() {
    let r = rules("iss-jetan.var");
    let g = game(&r, PRINCESS_EN_PRISE);
    for depth in 1..=4 {
        assert_eq!(
            best(&r, &g, depth),
            ("e4xe6".to_string(), MATE - 1),
            "depth {depth}"
        );
    }
}

#[test]
fn parries_a_threat_on_its_princess() {
    // Orange's Warrior on f3 attacks the Black Princess on f1 through f2.
    let r = rules("iss-jetan.var");
    let mut g = game(&r, "4ch5/10/10/10/4pr5/10/10/5wa4/10/4CHPR4 b - 0 1");
    let (m, score) = best(&r, &g, 3);
    assert!(score > -MATE / 2, "{m} loses: {score}");
    g.play_text(&m).expect("legal");
    for reply in g.legal_moves() {
        let mut after = g.clone();
        after.play(reply).unwrap();
        let lost = after.ending().is_some_and(|e| e.winner().is_some());
        assert!(!lost, "after {m}, {} wins", write_move(r.variant(), &reply));
    }
}

#[test]
fn a_time_limit_still_gives_a_move() {
    let r = rules("hexagonal-iss-jetan.var");
    let g = Game::new(r.clone(), variantlab::Setup::start(&r)).expect("start");
    let t = think_in_game(
        &mut Searcher::new(r.clone(), 16),
        &g,
        &Limits::time(std::time::Duration::from_millis(200)),
    );
    assert!(t.best.is_some() && t.depth >= 1 && t.pv.first() == t.best.as_ref());
}

#[test]
fn avoids_a_repetition_draw_when_ahead() {
    // Black has two Dwars and a Flier more; Orange can do nothing.
    let r = rules("iss-jetan.var");
    let start = "4ch5/10/4pr5/10/10/10/10/2DW2DW4/10/3FLCHPR4 b - 0 1";
    let pos = Position::from_setup(&r, &parse_position(&r, start).unwrap()).unwrap();
    let mut s = Searcher::new(r.clone(), 16);
    let first = s.think(&pos, &[], &Limits::depth(3));
    assert!(first.score > 200, "ahead: {}", first.score);
    let m = first.best.unwrap();
    // Say the position after that move has stood twice already: playing it again draws.
    let mut after = pos.clone();
    after.make_unchecked(&r, &m);
    let key = after.key();
    s.clear();
    let second = s.think(&pos, &[key, key], &Limits::depth(3));
    assert_ne!(second.best, Some(m), "repeats into a draw");
    assert!(second.score > 200);
}

/// The estimated value of the piece named `name`.
fn value_of<'a>(r: &Rules, values: &'a [PieceValue], name: &str) -> &'a PieceValue {
    &values[r.variant().find_piece(name).unwrap().0 as usize]
}

#[test]
fn values_come_from_the_moves() {
    let r = rules("iss-jetan.var");
    let values = piece_values(&r);
    let of = |name: &str| value_of(&r, &values, name);
    // One step in 7 of the 8 directions on 10x10: 90 cells have a neighbour
    // orthogonally, 81 diagonally; (3 * 90 + 4 * 81) / 100 = 5.94 on average.
    assert!((of("Panthan").reach - 5.94).abs() < 1e-9);
    // A step of one cell is never blocked, so nothing is lost weighing it.
    assert!((of("Panthan").weighed - 5.94).abs() < 1e-9);
    // Whose capture decides the game, as the file says.
    assert!(of("Princess").decides && of("Chief").decides && !of("Dwar").decides);
    // The weakest ordinary piece is the unit.
    let least = values.iter().filter(|p| !p.decides).map(|p| p.value).min();
    assert_eq!(least, Some(100));
}

/// Thirty Queens a side, every one able to take another: captures without end for a
/// capture search that follows them all.
const QUEENS: &str = "qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1";

/// Runs `f` on another thread; fails the test if it takes longer than `limit`.
fn within<T: Send + 'static>(
    limit: std::time::Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("did not finish within {limit:?}"))
}

#[test]
fn the_capture_search_ends_on_a_board_full_of_queens() {
    let r = rules("chess.var");
    let g = game(&r, QUEENS);
    let t = within(std::time::Duration::from_secs(30), move || {
        think_in_game(&mut Searcher::new(r.clone(), 16), &g, &Limits::depth(1))
    });
    assert!(t.best.is_some() && t.depth == 1);
    // Each capture is followed a bounded number of plies; without the bound depth 1
    // did not finish in two minutes.
    assert!(t.nodes < 100_000, "{} nodes", t.nodes);
}

#[test]
fn a_timed_search_always_returns_a_legal_move() {
    let r = rules("chess.var");
    let g = game(&r, QUEENS);
    let legal = g.legal_moves();
    assert_eq!(legal.len(), 83);
    for limits in [
        Limits::time(std::time::Duration::from_millis(1)),
        Limits::time(std::time::Duration::from_nanos(1)),
        // A node limit may cut even the first iteration short: the first legal move.
        Limits {
            nodes: Some(1),
            ..Limits::depth(5)
        },
    ] {
        let t = think_in_game(&mut Searcher::new(r.clone(), 16), &g, &limits);
        let m = t.best.unwrap_or_else(|| panic!("{limits:?}: no move"));
        assert!(legal.contains(&m), "{limits:?}");
        assert_eq!(t.pv.first(), Some(&m), "{limits:?}");
    }
}

#[test]
fn the_computer_always_moves_when_it_has_a_move() {
    use variantlab::{PlayerId, Session};
    let r = rules("chess.var");
    let limits = Limits {
        nodes: Some(1),
        ..Limits::depth(5)
    };
    let mut s = Session::new(game(&r, QUEENS)).with_computer(&[PlayerId(0)], limits);
    let played = s.computer_move().expect("a move");
    assert_eq!(s.game().move_count(), 1);
    assert_eq!(s.game().moves().next(), Some(&played.played));
}

#[test]
fn material_is_a_burden_where_the_checkmated_player_wins() {
    let chess = std::fs::read_to_string(common::root().join("variants/chess.var")).unwrap();
    let misere = chess.replace("checkmate: mover wins", "checkmate: mover loses");
    assert_ne!(chess, misere);
    let r = common::from_text(&chess);
    assert!(!r.mate_is_a_goal() && !r.material_is_a_burden());
    let r = common::from_text(&misere);
    assert!(r.mate_is_a_goal() && r.material_is_a_burden());
    // In Antichess material is a burden, but being checkmated means nothing.
    let r = rules("antichess.var");
    assert!(!r.mate_is_a_goal() && r.material_is_a_burden());
}

/// The evaluation of a position string, for the side to move.
fn worth(r: &Arc<Rules>, eval: &variantlab::Evaluator, text: &str) -> i32 {
    let pos = Position::from_setup(r, &parse_position(r, text).unwrap()).unwrap();
    eval.evaluate(r, &pos)
}

#[test]
fn a_piece_in_hand_counts_as_material() {
    // Black has taken White's 1c Pawn: with it in hand Black stands a Pawn better than
    // with it gone from the game.
    let r = rules("shogi.var");
    let eval = variantlab::Evaluator::new(&r);
    let worth = |text: &str| worth(&r, &eval, text);
    let held = worth("lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1");
    let gone = worth("lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    let pawn = eval.value(r.variant().find_piece("Pawn").unwrap());
    assert_eq!(held - gone, pawn);
}

#[test]
fn a_piece_kept_in_a_palace_is_judged_there() {
    // The Advisor moves one step diagonally inside the palace only: from its centre to
    // four cells, from each corner to the centre, (4 + 4 * 1) / 5 = 1.6 on average.
    let r = rules("xiangqi.var");
    let values = piece_values(&r);
    let of = |name: &str| value_of(&r, &values, name);
    assert!(
        (of("Advisor").reach - 1.6).abs() < 1e-9,
        "{}",
        of("Advisor").reach
    );
    // A Chariot is worth more than a Horse, a Horse more than an Advisor, and the
    // Advisor and the Elephant stay within a factor of two of a Soldier.
    assert!(of("Chariot").value > of("Horse").value && of("Horse").value > of("Advisor").value);
    let soldier = of("Soldier").value;
    for name in ["Advisor", "Elephant"] {
        assert!(2 * of(name).value > soldier, "{name}: {}", of(name).value);
    }
}

#[test]
fn a_passed_pawn_is_worth_more_the_nearer_it_stands() {
    let r = rules("chess.var");
    let eval = variantlab::Evaluator::new(&r);
    let worth = |text: &str| worth(&r, &eval, text);
    // White to move each time, kings alike; only the Pawn's rank changes.
    let ranks: Vec<i32> = [
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
        "4k3/8/8/8/P7/8/8/4K3 w - - 0 1",
        "4k3/8/8/P7/8/8/8/4K3 w - - 0 1",
        "4k3/8/P7/8/8/8/8/4K3 w - - 0 1",
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
    ]
    .iter()
    .map(|t| worth(t))
    .collect();
    assert!(ranks.windows(2).all(|w| w[0] < w[1]), "{ranks:?}");
    // With an enemy Pawn that can take on its way (b7 guards a6), a Pawn on a5 holds
    // less than with the enemy Pawn far off on h7.
    let free = worth("4k3/7p/8/P7/8/8/8/4K3 w - - 0 1");
    let blocked = worth("4k3/1p6/8/P7/8/8/8/4K3 w - - 0 1");
    assert!(blocked < free, "{blocked} vs {free}");
}
