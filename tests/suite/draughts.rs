//! Captures by jumping, worked by hand, and the published perft counts of English
//! checkers and international draughts.
//!
//! Positions and moves are written in PDN, the dark squares numbered row by row from
//! the top (rank 8, or 10), left to right: English checkers has Black's men on squares
//! 1-12 (b8 is 1, a7 is 5) and White's on 21-32 (a1 is 29); international draughts
//! Black's on 1-20 (b10 is 1), White's on 31-50 (a1 is 46). The comments name the
//! squares by file and rank too.
//!
//! Perft sources: English checkers, Aart Bik's "Perft for Checkers" (7 49 302 1469 7361
//! 36768 179740 845931 3963680 18391564 85242128 388623673; his generator keeps captures
//! differing only in their order apart, which first matters at depth 12); international
//! draughts, Aart Bik's BikDam posts (9 81 658 4265 27117 167140 1049442 6483961
//! 41022423 258895763, captures with the same start, end and pieces taken one move); Brazilian draughts, Rein Halbersma's "Perft for all recognized draughts
//! variants" (first derived on the Russian shashki forum; 7 49 302 1469 7473 37628
//! 187302).

use crate::common;

use std::sync::Arc;
use variantlab::Rules;

const CHECKERS: &str = "B:B1,2,3,4,5,6,7,8,9,10,11,12:W21,22,23,24,25,26,27,28,29,30,31,32";

fn checkers() -> Arc<Rules> {
    common::rules("checkers.var")
}

fn international() -> Arc<Rules> {
    common::rules("international-draughts.var")
}

/// Square numbers joined by commas.
fn list(squares: std::ops::RangeInclusive<u32>) -> String {
    squares.map(|n| n.to_string()).collect::<Vec<_>>().join(",")
}

#[test]
fn checkers_perft_from_the_start_agrees_with_the_published_counts() {
    let r = checkers();
    assert_eq!(common::start_text(&r), CHECKERS);
    common::perft_counts(&r, CHECKERS, 1, &[7, 49, 302, 1469, 7361, 36768, 179740]);
}

#[test]
#[ignore]
fn checkers_perft_agrees_to_depth_12() {
    let r = checkers();
    // Bik's 388623673 at depth 12 counts captures that differ only in the order their
    // pieces are taken as several moves, 5674 more; with them kept apart, this
    // generator counted exactly his number.
    common::perft_counts(
        &r,
        CHECKERS,
        8,
        &[845931, 3963680, 18391564, 85242128, 388617999],
    );
}

#[test]
fn international_perft_from_the_start_agrees_with_the_published_counts() {
    let r = international();
    let text = common::start_text(&r);
    assert_eq!(text, format!("W:W{}:B{}", list(31..=50), list(1..=20)));
    common::perft_counts(&r, &text, 1, &[9, 81, 658, 4265, 27117, 167140]);
}

#[test]
#[ignore]
fn international_perft_agrees_to_depth_10() {
    let r = international();
    let text = common::start_text(&r);
    common::perft_counts(&r, &text, 7, &[1049442, 6483961, 41022423, 258895763]);
}

#[test]
fn brazilian_perft_from_the_start_agrees_with_the_published_counts() {
    let r = common::rules("brazilian-draughts.var");
    let text = common::start_text(&r);
    assert_eq!(text, format!("W:W{}:B{}", list(21..=32), list(1..=12)));
    common::perft_counts(&r, &text, 1, &[7, 49, 302, 1469, 7473, 37628, 187302]);
}

#[test]
fn a_capture_is_compulsory_and_takes_the_piece_jumped() {
    let r = checkers();
    // Black's man on e5 (15), White's on f4 (19) and a1 (29): the jump to g3 (24) is the
    // only move, though e5-d4 is open.
    assert_eq!(common::move_texts(&r, "B:W19,29:B15"), ["15x24"]);
    let (_, board) = common::after(&r, "B:W19,29:B15", &["15x24"]);
    assert_eq!(board, "W:B24:W29");
}

#[test]
fn a_chain_goes_on_while_it_can_and_is_one_move() {
    let r = checkers();
    // a7 (5) over b6 (9) to c5 (14), then over d4 (18) to e3 (23): stopping on c5 is no
    // move. The whole path may be written too.
    assert_eq!(common::move_texts(&r, "B:W9,18,29:B5"), ["5x23"]);
    let (g, board) = common::after(&r, "B:W9,18,29:B5", &["5x23"]);
    assert_eq!(board, "W:B23:W29");
    let (_, board) = common::after(&r, "B:W9,18,29:B5", &["5x14x23"]);
    assert_eq!(board, "W:B23:W29");
    let m = g.moves().last().copied().unwrap();
    assert!(
        matches!(m.special, variantlab::Special::Jump { count: 2, .. }),
        "{m:?}"
    );
}

#[test]
fn in_checkers_any_chain_may_be_chosen_and_crowning_ends_the_move() {
    let r = checkers();
    // From e5 (15): over d4 (18) and b2 (25) to a1 (29), two pieces, crowned there; or
    // over f4 (19) to g3 (24), one: English checkers has no majority rule.
    assert_eq!(
        common::move_texts(&r, "B:W18,19,25:B15"),
        ["15x24", "15x29"]
    );
    let (_, board) = common::after(&r, "B:W18,19,25:B15", &["15x29"]);
    assert_eq!(board, "W:BK29:W19");
    // The man crowned on e1 (31) stops there, though as a King it could jump f2 (27).
    assert_eq!(common::move_texts(&r, "B:W26,27:B22"), ["22x31"]);
}

#[test]
fn the_majority_rule_keeps_the_captures_taking_the_most() {
    let r = international();
    // a1 (46) over b2 (41) and d4 (32) to e5 (28) takes two; g1 (49) over h2 (44) takes
    // one: only the first is legal.
    assert_eq!(common::move_texts(&r, "W:W46,49:B32,41,44"), ["46x28"]);
}

#[test]
fn a_flying_king_lands_anywhere_beyond_unless_it_can_go_on() {
    let r = international();
    // The King on a1 (46) takes c3 (37) from afar and may stop on any of the seven
    // squares beyond: d4 e5 f6 g7 h8 i9 j10 (32 28 23 19 14 10 5).
    assert_eq!(
        common::move_texts(&r, "W:WK46:B37"),
        ["46x10", "46x14", "46x19", "46x23", "46x28", "46x32", "46x5"]
    );
    // With a man on g3 (39) too, only e5 goes on (over g3, to h2 or i1: 44, 50), and the
    // majority rule keeps those two.
    assert_eq!(common::move_texts(&r, "W:WK46:B37,39"), ["46x44", "46x50"]);
}

#[test]
fn a_man_crowns_only_where_the_move_ends() {
    let r = international();
    // f8 (13) over e9 (8) to d10 (2), the far row, then back over c9 (7) to b8 (11):
    // still a man.
    assert_eq!(common::move_texts(&r, "W:W13:B7,8"), ["13x11"]);
    let (g, board) = common::after(&r, "W:W13:B7,8", &["13x11"]);
    assert_eq!(board, "B:W11:B");
    // Black has no piece left, so no move: White wins.
    let end = g.ending().expect("no legal move ends the game");
    assert_eq!(g.variant().player(end.winner().unwrap()).name, "White");
    // Ending there, it crowns.
    let (_, board) = common::after(&r, "W:W13:B8", &["13x2"]);
    assert_eq!(board, "B:WK2:B");
}

#[test]
fn chains_with_the_same_end_and_pieces_taken_are_one_move() {
    let r = international();
    // Four men around the man on c3 (37), on b4 d4 b6 d6 (31 32 21 22): round either way
    // it takes all four and lands back on c3 (its start counts as empty): one move.
    assert_eq!(common::move_texts(&r, "W:W37:B21,22,31,32"), ["37x37"]);
    let (_, board) = common::after(&r, "W:W37:B21,22,31,32", &["37x37"]);
    assert_eq!(board, "B:W37:B");
}

#[test]
fn jumps_are_refused_where_they_cannot_be() {
    // A jump captures only over pieces, never friends; only such a capture goes on
    // again; and no game with a royal piece has one.
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
        assert_eq!(
            common::error_codes(&file),
            [format!("variantlab::{code}")],
            "{text}"
        );
    }
}

#[test]
fn pdn_positions_that_do_not_read_say_where_and_why() {
    let r = international();
    for (text, says) in [
        ("", "empty"),
        (
            "Q:W31:B1",
            "in the side to move: `Q` is not a player; write `W` or `B`",
        ),
        ("W:W31:X1", "in the board: `X` is not a player"),
        (
            "W:W31,51:B1",
            "`51` is no square: they are numbered 1 to 50",
        ),
        ("W:W31-1x:B2", "`1x` is no square"),
        ("W:W31:B31", "square 31 is given a piece twice"),
        ("W:WQ31:B1", "`Q` is not a piece code"),
        ("W:W18446744073709551617:B1", "is no square"),
    ] {
        let e = variantlab::parse_position(&r, text)
            .expect_err(text)
            .to_string();
        assert!(e.contains(says), "{text}: {e}");
    }
    // Ranges, kings and a final stop read.
    let setup = variantlab::parse_position(&r, "W:W31-33,K45:B1,2.").unwrap();
    assert_eq!(setup.cells.iter().flatten().count(), 6);
}
