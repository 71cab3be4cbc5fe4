//! The search on hand-made positions, its keys, and the values it derives.

use crate::common;

use common::rules;
use std::sync::Arc;
use variantlab::compile::Rules;
use variantlab::runtime::{Game, Position, parse_position, write_move};
use variantlab::search::{Limits, MATE, Searcher, piece_values, think_in_game};

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
    let g = Game::new(r.clone(), variantlab::runtime::Setup::start(&r)).expect("start");
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

#[test]
fn values_come_from_the_moves() {
    let r = rules("iss-jetan.var");
    let v = &r.variant();
    let values = piece_values(&r);
    let of = |name: &str| &values[v.find_piece(name).unwrap().0 as usize];
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
