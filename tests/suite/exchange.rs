//! Static exchanges, worked by hand on chess and xiangqi positions with the textbook
//! values (pawn 1, knight and bishop 3, rook 5, queen 9; xiangqi's chariot 9, cannon
//! and horse 4.5, soldier 1): what a capture wins once both sides take back.

use crate::common::rules;
use std::sync::Arc;
use variantlab::{PieceId, Position, Rules, parse_move, parse_position};

/// What the move `text` wins in `position`, in tenths of a pawn.
fn exchange(r: &Arc<Rules>, worth: &[(&str, i32)], position: &str, text: &str) -> i32 {
    let pieces = &r.variant().pieces;
    let values: Vec<i32> = pieces
        .iter()
        .map(|p| {
            worth
                .iter()
                .find(|(c, _)| *c == p.code)
                .map_or(1000, |w| w.1)
        })
        .collect();
    let mut cheapest_first: Vec<PieceId> = (0..pieces.len() as u8).map(PieceId).collect();
    cheapest_first.sort_by_key(|k| values[k.0 as usize]);
    let setup = parse_position(r, position).unwrap_or_else(|e| panic!("{position}: {e}"));
    let pos = Position::from_setup(r, &setup).unwrap_or_else(|e| panic!("{position}: {e}"));
    let m = parse_move(r, &pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    pos.exchange(r, &m, &values, &cheapest_first)
}

const CHESS: &[(&str, i32)] = &[("P", 10), ("N", 30), ("B", 30), ("R", 50), ("Q", 90)];

#[test]
fn a_rook_taking_a_pawn_guarded_by_a_pawn_loses_the_difference() {
    let r = rules("chess.var");
    assert_eq!(
        exchange(&r, CHESS, "4k3/8/3p4/4p3/8/8/8/4R1K1 w - - 0 1", "e1e5"),
        -40
    );
}

#[test]
fn a_rook_behind_the_taker_takes_back_through_it() {
    let r = rules("chess.var");
    // Rxe5 Rxe5 Rxe5: a pawn up; without the second rook, a rook for a pawn.
    assert_eq!(
        exchange(&r, CHESS, "4r2k/8/8/4p3/8/8/4R3/4R2K w - - 0 1", "e2e5"),
        10
    );
    assert_eq!(
        exchange(&r, CHESS, "4r2k/8/8/4p3/8/8/4R3/7K w - - 0 1", "e2e5"),
        -40
    );
}

#[test]
fn a_king_takes_back_only_what_nothing_guards() {
    let r = rules("chess.var");
    // The bishop guards d5, so the king may not take the knight there.
    assert_eq!(
        exchange(&r, CHESS, "8/8/4k3/3p4/8/1B2N3/8/6K1 w - - 0 1", "e3d5"),
        10
    );
    assert_eq!(
        exchange(&r, CHESS, "8/8/4k3/3p4/8/4N3/8/6K1 w - - 0 1", "e3d5"),
        -20
    );
}

#[test]
fn the_cheapest_piece_takes_first_and_either_side_may_stop() {
    let r = rules("chess.var");
    // Nxd5: the pawn on e6 takes back (-3 +1); then the queen would take a pawn
    // guarded by the rook, so White stops there.
    assert_eq!(
        exchange(&r, CHESS, "3r2k1/8/4p3/3p4/8/2N5/3Q4/6K1 w - - 0 1", "c3d5"),
        -20
    );
    // A pawn taking a knight wins it whatever follows.
    assert_eq!(
        exchange(&r, CHESS, "6k1/8/4n3/3P4/8/8/8/6K1 w - - 0 1", "d5e6"),
        30
    );
}

const XIANGQI: &[(&str, i32)] = &[("P", 10), ("C", 45), ("N", 45), ("R", 90)];

#[test]
fn a_cannon_takes_back_over_a_screen_and_only_over_one() {
    let r = rules("xiangqi.var");
    // The horse on e7 is the cannon's screen for taking on e6.
    assert_eq!(
        exchange(
            &r,
            XIANGQI,
            "3k5/9/4c4/4n4/4p4/9/9/9/9/4RK3 w - - 0 1",
            "e1e6"
        ),
        -80
    );
    assert_eq!(
        exchange(
            &r,
            XIANGQI,
            "3k5/9/4c4/9/4p4/9/9/9/9/4RK3 w - - 0 1",
            "e1e6"
        ),
        10
    );
}

#[test]
fn a_quiet_move_onto_a_guarded_cell_loses_what_the_exchange_takes() {
    let r = rules("chess.var");
    // Nc3-d5 steps next to the pawn on e6: it takes the knight for nothing.
    assert_eq!(
        exchange(&r, CHESS, "6k1/8/4p3/8/8/2N5/8/6K1 w - - 0 1", "c3d5"),
        -30
    );
    // With the rook behind on d1, the pawn takes, the rook takes back: even.
    assert_eq!(
        exchange(&r, CHESS, "6k1/8/4p3/8/8/2N5/8/3R2K1 w - - 0 1", "c3d5"),
        -20
    );
    // Onto a cell nothing guards: nothing lost.
    assert_eq!(
        exchange(&r, CHESS, "6k1/8/4p3/8/8/2N5/8/6K1 w - - 0 1", "c3b5"),
        0
    );
}
