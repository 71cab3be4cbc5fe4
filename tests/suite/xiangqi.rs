//! The xiangqi family, and Grasshopper chess: moves over pieces, moves within zones,
//! blocked legs and facing Generals, with published perft counts; Fairy-Stockfish's counts for these games
//! are checked with the others' (tests/suite/fsf.rs).

use crate::common;

use common::rules;
use std::sync::Arc;
use variantlab::{
    Game, Outcome, Position, Rules, Setup, parse_position, perft, write_move, write_position,
};

const XIANGQI: &str = "xiangqi.var";
const JANGGI: &str = "janggicasual.var";
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn position(rules: &Arc<Rules>, text: &str) -> Position {
    let setup = parse_position(rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Position::from_setup(rules, &setup).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(rules: &Arc<Rules>, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    position(rules, text).legal_moves(rules, &mut out);
    let mut names: Vec<String> = out.iter().map(|m| write_move(rules.variant(), m)).collect();
    names.sort();
    names
}

/// The moves of the piece on `from`, as destination names.
fn destinations(rules: &Arc<Rules>, text: &str, from: &str) -> Vec<String> {
    let v = rules.variant();
    let from = v.board.parse_cell(from).expect("a cell");
    let mut out = Vec::new();
    position(rules, text).legal_moves(rules, &mut out);
    let mut names: Vec<String> = out
        .iter()
        .filter(|m| m.from == from)
        .map(|m| v.board.name(m.to).to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn xiangqi_start_is_fairy_stockfish_s_fen() {
    let r = rules(XIANGQI);
    assert_eq!(write_position(&r, &Setup::start(&r)), START);
    assert_eq!(parse_position(&r, START).unwrap(), Setup::start(&r));
}

#[test]
fn xiangqi_perft_matches_published_counts() {
    let r = rules(XIANGQI);
    let mut pos = position(&r, START);
    for (depth, nodes) in [(1, 44), (2, 1_920), (3, 79_666), (4, 3_290_240)] {
        assert_eq!(perft(&r, &mut pos, depth), nodes, "depth {depth}");
    }
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn xiangqi_perft_5_matches_the_published_count() {
    let r = rules(XIANGQI);
    assert_eq!(perft(&r, &mut position(&r, START), 5), 133_312_995);
}

#[test]
fn moves_are_read_as_fairy_stockfish_writes_them() {
    let r = rules(XIANGQI);
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    for m in ["h3e3", "a10a9", "h1g3", "b10c8"] {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    // Fairy-Stockfish's `d` after the same moves.
    assert_eq!(
        g.position_string(),
        "2bakabnr/r8/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3"
    );
}

#[test]
fn the_generals_may_not_face_each_other_on_an_open_file() {
    let r = rules(XIANGQI);
    // d1 would face the General on d10; an Advisor on the file keeps it closed.
    assert_eq!(
        moves(&r, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
        ["e1-e2", "e1-f1"]
    );
    assert_eq!(
        moves(&r, "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1"),
        ["d1-d2", "d1-e1", "e2-d3", "e2-f1", "e2-f3"]
    );
    // The Advisor on e2 is pinned by the facing rule alone.
    assert_eq!(
        destinations(&r, "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "e2"),
        Vec::<String>::new()
    );
}

#[test]
fn the_cannon_checks_and_captures_over_exactly_one_piece() {
    let r = rules(XIANGQI);
    // The Cannon on e8 checks over the Soldier on e5; moving the Soldier up keeps the
    // screen, so only the General's sideways steps answer.
    assert_eq!(
        moves(&r, "4k4/9/4c4/9/9/4P4/9/9/9/4K4 w - - 0 1"),
        ["e1-d1", "e1-f1"]
    );
    // Black's Cannon on b8 moves along empty points and takes only over one piece.
    let text = "4k4/9/1c5R1/9/9/9/1P7/9/9/1R1K5 b - - 0 1";
    let to = destinations(&r, text, "b8");
    assert!(to.contains(&"b1".to_string()), "{to:?}");
    assert!(
        !to.contains(&"b4".to_string()) && !to.contains(&"h8".to_string()),
        "{to:?}"
    );
    assert!(
        to.contains(&"g8".to_string()) && to.contains(&"b5".to_string()),
        "{to:?}"
    );
}

#[test]
fn a_horse_or_elephant_with_a_blocked_leg_cannot_move_that_way() {
    let r = rules(XIANGQI);
    // The Horse on b1 with a piece on b2: no move through b2 (to a3 or c3).
    let text = "3k5/9/9/9/9/9/9/9/1P7/1N2K4 w - - 0 1";
    assert_eq!(destinations(&r, text, "b1"), ["d2"]);
    // The Elephant on c1 with its eye d2 filled: only a3 is left.
    let text = "3k5/9/9/9/9/9/9/9/3P5/2B1K4 w - - 0 1";
    assert_eq!(destinations(&r, text, "c1"), ["a3"]);
}

#[test]
fn elephants_stay_home_and_soldiers_turn_only_across_the_river() {
    let r = rules(XIANGQI);
    let text = "3k5/9/9/9/9/2B6/P8/9/9/4K4 w - - 0 1";
    assert_eq!(destinations(&r, text, "c5"), ["a3", "e3"]);
    assert_eq!(destinations(&r, text, "a4"), ["a5"]);
    let text = "3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(destinations(&r, text, "e6"), ["d6", "e7", "f6"]);
}

#[test]
fn a_side_without_a_move_loses_even_when_not_in_check() {
    let r = rules(XIANGQI);
    // Black's General on d10 is not in check, but d9 is covered by the Chariot on c9
    // and e10 would face the White General on e1 (Fairy-Stockfish: perft 1 is 0).
    let g = Game::new(
        r.clone(),
        parse_position(&r, "3k5/2R6/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap(),
    )
    .unwrap();
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.ending().map(|e| e.outcome), Some(Outcome::MOVER_WINS));
}

#[test]
fn a_janggi_player_may_pass_except_in_check_and_two_passes_draw() {
    let r = rules(JANGGI);
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    g.play_text("e2e2").unwrap();
    assert!(g.ending().is_none());
    g.play_text("pass").unwrap();
    let end = g.ending().expect("two passes end the game");
    assert_eq!(end.outcome, Outcome::Draw);
    // In check (the Chariot on e5 sees the General on e2), no pass.
    let text = "3k5/9/9/9/4r4/9/9/9/4K4/9 w - - 0 1";
    assert!(!moves(&r, text).iter().any(|m| m == "e2-e2"));
    assert!(moves(&r, "3k5/9/9/9/3r5/9/9/9/4K4/9 w - - 0 1").contains(&"e2-e2".to_string()));
}

#[test]
fn janggi_cannons_jump_no_cannon_and_take_no_cannon() {
    let r = rules(JANGGI);
    // White's Cannon on b3: over the Soldier on b4 along the file, never over the
    // Cannon on e3 along the rank, never onto the Cannon on b8 (over b4).
    let text = "3k5/9/1c7/9/9/9/1P7/1C2C4/4K4/9 w - - 0 1";
    let to = destinations(&r, text, "b3");
    assert_eq!(to, ["b5", "b6", "b7"]);
    // Along the palace's diagonal: from d1 over e2 to f3.
    let text = "3k5/9/9/9/9/9/9/9/4K4/3C5 w - - 0 1";
    assert_eq!(destinations(&r, text, "d1"), ["f3"]);
}

/// A game from a position string.
fn game_at(r: &Arc<Rules>, text: &str) -> Game {
    Game::new(r.clone(), parse_position(r, text).unwrap()).unwrap()
}

#[test]
fn bikjang_must_be_broken_and_a_pass_answering_it_ends_the_game() {
    // White's General steps onto the d file the Black General looks down.
    let text = "3k5/9/9/9/9/9/9/9/3AK4/9 w - - 0 1";
    for (file, winner) in [
        // Traditional rules: a kept standoff is a draw.
        ("janggitraditional.var", None),
        // Counting: White's Advisor (3) against Black's 1.5 points.
        ("janggi.var", Some(variantlab::PlayerId(0))),
    ] {
        let r = rules(file);
        let mut g = game_at(&r, text);
        g.play_text("e2d3").unwrap();
        // Black must leave the file or pass; d9 keeps the Generals facing.
        let after = g.position_string();
        assert_eq!(
            destinations(&r, &after, "d10"),
            ["d10", "e10", "e9"],
            "{file}"
        );
        g.play_text("d10d10").unwrap();
        let end = g.ending().expect("the pass ends the game");
        assert_eq!(end.winner(), winner, "{file}: {}", end.reason);
        assert!(g.legal_moves().is_empty());
    }
    // Casual rules: no bikjang, the pass is an ordinary move.
    let r = rules(JANGGI);
    let mut g = game_at(&r, text);
    g.play_text("e2d3").unwrap();
    g.play_text("d10d10").unwrap();
    assert!(g.ending().is_none());
}

#[test]
fn in_bikjang_a_player_in_check_may_pass() {
    // The Black Chariot on a2 checks the General, which faces the other General.
    let text = "4k4/9/9/9/9/9/9/9/r3K4/9 w - - 0 1";
    assert!(moves(&rules("janggi.var"), text).contains(&"e2-e2".to_string()));
    assert!(!moves(&rules(JANGGI), text).contains(&"e2-e2".to_string()));
    // The game that pass ends is written, and read back, with the General still in check.
    let r = rules("janggi.var");
    let mut g = game_at(&r, text);
    g.play_text("e2e2").unwrap();
    let after = g.position_string();
    assert_eq!(
        write_position(&r, &position(&r, &after).to_setup(&r)),
        after
    );
    // Without the standoff, a General left in check with the other side to move is refused.
    let broken = "3k5/9/9/9/9/9/9/9/r3K4/9 b - - 0 1";
    let setup = parse_position(&r, broken).unwrap();
    assert!(Position::from_setup(&r, &setup).is_err(), "{broken}");
}

#[test]
fn counting_decides_two_passes_with_a_bonus_for_the_second_player() {
    for file in ["janggi.var", "janggimodern.var"] {
        let r = rules(file);
        let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
        g.play_text("e2e2").unwrap();
        g.play_text("e9e9").unwrap();
        let end = g.ending().expect("two passes end the game");
        // Equal material: Black's 1.5 points decide.
        assert_eq!(end.winner(), Some(variantlab::PlayerId(1)), "{file}");
        assert!(
            end.reason.contains("White 72, Black 73.5"),
            "{}",
            end.reason
        );
    }
    // One Soldier (2 points) up, White wins the count.
    let r = rules("janggi.var");
    let mut g = game_at(
        &r,
        "rnba1abnr/4k4/1c5c1/p1p1p1p2/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    );
    g.play_text("e2e2").unwrap();
    g.play_text("e9e9").unwrap();
    assert_eq!(g.ending().unwrap().winner(), Some(variantlab::PlayerId(0)));
}

#[test]
fn the_grasshopper_lands_right_behind_the_first_piece_on_its_line() {
    let r = rules("grasshopper.var");
    // From d4: over e5 to f6 (an enemy: captured), over d6 to d7, over b4 to a4; no
    // other line has a piece to jump.
    let text = "4k3/3p4/3P1p2/4p3/1P1G4/8/8/4K3 w - - 0 1";
    assert_eq!(destinations(&r, text, "d4"), ["a4", "d7", "f6"]);
}

#[test]
fn points_too_large_are_refused_where_they_are_written() {
    let text = std::fs::read_to_string(common::root().join("variants/janggi.var")).unwrap();
    let text = text.replace("Chariot 13,", "Chariot 99999999999,");
    let checked = variantlab::check("janggi.var", &text);
    let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
    // One error, where the number is; no cascade about points deciding nothing.
    assert_eq!(codes, ["variantlab::number_too_large"]);
    let at = text.find("99999999999").unwrap();
    assert_eq!(checked.report.diagnostics[0].span.start, at);
}

#[test]
fn a_misspelt_statement_brings_no_cascade_about_what_it_would_have_said() {
    // A worth line and a counting line that fail to parse: one syntax error each, and
    // no error saying that nothing is worth points or that no count runs.
    let janggi = std::fs::read_to_string(common::root().join("variants/janggi.var")).unwrap();
    let makruk = std::fs::read_to_string(common::root().join("variants/makruk.var")).unwrap();
    for (file, text) in [
        ("janggi.var", janggi.replace("Chariot 13,", "Chariot five,")),
        (
            "makruk.var",
            makruk.replace("royal pieces counts once", "royal pieces count once"),
        ),
    ] {
        let checked = variantlab::check(file, &text);
        let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["variantlab::syntax"], "{file}");
    }
}
