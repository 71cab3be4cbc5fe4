//! Captures by jumping, worked by hand, and the published perft counts of English
//! checkers and international draughts.
//!
//! Position strings list the dark squares row by row from the top (rank 8, or 10),
//! left to right: English checkers has Black's men `m` on squares 1-12 and White's `M`
//! on 21-32; international draughts Black's on 1-20, White's on 31-50.
//!
//! Perft sources: English checkers, Aart Bik's "Perft for Checkers" (moves with every
//! capture chain completed, 7 49 302 1469 7361 36768 179740 845931 3963680 18391564
//! 85242128 388623673); international draughts, the counts published with the
//! draughts engines' perft tables (9 81 658 4265 27117 167140 1049442 6483961
//! 41022423 258895763), where captures with the same start, end and pieces taken are
//! one move.

use crate::common;

use std::sync::Arc;
use variantlab::{Game, Rules, parse_position, write_move};

const CHECKERS: &str = "mmmm/mmmm/mmmm/4/4/MMMM/MMMM/MMMM b";

fn checkers() -> Arc<Rules> {
    common::rules("checkers.var")
}

fn international() -> Arc<Rules> {
    common::rules("international-draughts.var")
}

fn game(r: &Arc<Rules>, text: &str) -> Game {
    let setup = parse_position(r, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Game::new(r.clone(), setup).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves as text, sorted.
fn moves(r: &Arc<Rules>, text: &str) -> Vec<String> {
    let g = game(r, text);
    let mut list: Vec<String> = g
        .legal_moves()
        .iter()
        .map(|m| write_move(r.variant(), m))
        .collect();
    list.sort();
    list
}

/// The position string's board after `moves`, played from `text`.
fn after(r: &Arc<Rules>, text: &str, moves: &[&str]) -> (Game, String) {
    let mut g = game(r, text);
    for m in moves {
        g.play_text(m).unwrap_or_else(|e| panic!("{text} {m}: {e}"));
    }
    let board = g.position_string().split(' ').next().unwrap().to_string();
    (g, board)
}

fn start(r: &Arc<Rules>) -> String {
    variantlab::write_position(r, &variantlab::Setup::start(r))
}

#[test]
fn checkers_perft_from_the_start_agrees_with_the_published_counts() {
    let r = checkers();
    assert!(start(&r).starts_with(CHECKERS), "{}", start(&r));
    common::perft_counts(&r, CHECKERS, 1, &[7, 49, 302, 1469, 7361, 36768, 179740]);
}

#[test]
#[ignore]
fn checkers_perft_agrees_to_depth_12() {
    let r = checkers();
    common::perft_counts(
        &r,
        CHECKERS,
        8,
        &[845931, 3963680, 18391564, 85242128, 388623673],
    );
}

#[test]
fn international_perft_from_the_start_agrees_with_the_published_counts() {
    let r = international();
    let text = start(&r);
    assert!(
        text.starts_with("mmmmm/mmmmm/mmmmm/mmmmm/5/5/MMMMM/MMMMM/MMMMM/MMMMM w"),
        "{text}"
    );
    common::perft_counts(&r, &text, 1, &[9, 81, 658, 4265, 27117, 167140]);
}

#[test]
#[ignore]
fn international_perft_agrees_to_depth_10() {
    let r = international();
    let text = start(&r);
    common::perft_counts(&r, &text, 7, &[1049442, 6483961, 41022423, 258895763]);
}

#[test]
fn a_capture_is_compulsory_and_takes_the_piece_jumped() {
    let r = checkers();
    // Black's man on e5, White's on f4: the jump to g3 is the only move, though e5-d4
    // is open.
    assert_eq!(moves(&r, "4/4/4/2m1/2M1/4/4/M3 b"), ["e5xg3"]);
    let (_, board) = after(&r, "4/4/4/2m1/2M1/4/4/M3 b", &["e5xg3"]);
    assert_eq!(board, "4/4/4/4/4/3m/4/M3");
}

#[test]
fn a_chain_goes_on_while_it_can_and_is_one_move() {
    let r = checkers();
    // a7 over b6 to c5, then over d4 to e3: stopping on c5 is no move.
    assert_eq!(moves(&r, "4/m3/M3/4/1M2/4/4/M3 b"), ["a7xe3"]);
    let (g, board) = after(&r, "4/m3/M3/4/1M2/4/4/M3 b", &["a7xe3"]);
    assert_eq!(board, "4/4/4/4/4/2m1/4/M3");
    let m = g.moves().last().copied().unwrap();
    assert!(
        matches!(m.special, variantlab::Special::Jump { count: 2, .. }),
        "{m:?}"
    );
}

#[test]
fn in_checkers_any_chain_may_be_chosen_and_crowning_ends_the_move() {
    let r = checkers();
    // From e5: over d4 and b2 to a1 (two pieces, crowned there), or over f4 to g3 (one):
    // English checkers has no majority rule.
    assert_eq!(moves(&r, "4/4/4/2m1/1MM1/4/M3/4 b"), ["e5xa1=K", "e5xg3"]);
    // The man crowned on e1 stops there, though as a King it could jump f2.
    assert_eq!(moves(&r, "4/4/4/4/4/1m2/1MM1/4 b"), ["c3xe1=K"]);
}

#[test]
fn the_majority_rule_keeps_the_captures_taking_the_most() {
    let r = international();
    // a1 over b2 and d4 takes two; g1 over h2 takes one: only the first is legal.
    assert_eq!(moves(&r, "5/5/5/5/5/5/1m3/5/m2m1/M2M1 w"), ["a1xe5"]);
}

#[test]
fn a_flying_king_lands_anywhere_beyond_unless_it_can_go_on() {
    let r = international();
    // The King on a1 takes c3 from afar and may stop on any of the seven squares beyond.
    assert_eq!(
        moves(&r, "5/5/5/5/5/5/5/1m3/5/K4 w"),
        [
            "a1xd4", "a1xe5", "a1xf6", "a1xg7", "a1xh8", "a1xi9", "a1xj10"
        ]
    );
    // With a man on g3 too, only e5 goes on (over g3, to h2 or i1), and the majority
    // rule keeps those two.
    assert_eq!(moves(&r, "5/5/5/5/5/5/5/1m1m1/5/K4 w"), ["a1xh2", "a1xi1"]);
}

#[test]
fn a_man_crowns_only_where_the_move_ends() {
    let r = international();
    // f8 over e9 to d10, the far row, then back over c9 to b8: still a man.
    assert_eq!(moves(&r, "5/1mm2/2M2/5/5/5/5/5/5/5 w"), ["f8xb8"]);
    let (g, board) = after(&r, "5/1mm2/2M2/5/5/5/5/5/5/5 w", &["f8xb8"]);
    assert_eq!(board, "5/5/M4/5/5/5/5/5/5/5");
    // Black has no piece left, so no move: White wins.
    let end = g.ending().expect("no legal move ends the game");
    assert_eq!(g.variant().player(end.winner().unwrap()).name, "White");
    // Ending there, it crowns.
    assert_eq!(moves(&r, "5/2m2/2M2/5/5/5/5/5/5/5 w"), ["f8xd10=K"]);
}

#[test]
fn chains_with_the_same_end_and_pieces_taken_are_one_move() {
    let r = international();
    // Four men around the man on c3: round either way it takes all four and lands back
    // on c3 (its start counts as empty): one move.
    assert_eq!(moves(&r, "5/5/5/5/mm3/5/mm3/1M3/5/5 w"), ["c3xc3"]);
    let (_, board) = after(&r, "5/5/5/5/mm3/5/mm3/1M3/5/5 w", &["c3xc3"]);
    assert_eq!(board, "5/5/5/5/5/5/5/1M3/5/5");
}

#[test]
fn jumps_are_refused_where_they_cannot_be() {
    // A jump captures only over pieces, never friends, and lands on an empty cell; only
    // such a capture goes on again; and no game with a royal piece has one.
    for (text, code) in [
        (
            "slide 2 forward diagonal, capturing the piece jumped",
            "bad_jump",
        ),
        (
            "slide 2 forward diagonal, over 1 friend, capturing the piece jumped",
            "bad_jump",
        ),
        (
            "slide 2 forward diagonal, over 1 enemy, to enemy, capturing the piece jumped",
            "bad_jump",
        ),
        (
            "slide 2 forward diagonal, over 1 enemy, again while it can",
            "bad_jump",
        ),
        (
            "slide 2 forward diagonal, over 1 enemy, capturing the piece jumped\n}\npiece Queen (Q) {\n  royal\n  step 1 any",
            "bad_jump",
        ),
    ] {
        let file = format!(
            "name \"J\"\nboard square 6 by 6\nplayer White: forward north, capitals\n\
             player Black: forward south, lowercase\npiece Man (M) {{\n  step 1 forward diagonal, to empty\n  {text}\n}}\n\
             setup {{\n  White: Man a1\n  Black: Man f6\n}}\ngame ends {{\n  no legal move: mover wins\n}}\n"
        );
        let checked = variantlab::load::check_all("j.var", &file);
        let codes: Vec<&str> = (checked.report.diagnostics.iter())
            .filter(|d| d.is_error())
            .map(|d| d.code)
            .collect();
        assert_eq!(codes, [format!("variantlab::{code}")], "{text}");
    }
}
