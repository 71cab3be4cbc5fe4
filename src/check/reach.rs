//! Warnings that need the moves worked out: patterns that can never be made.

use super::model::*;
use super::walk::destinations;
use crate::diagnostic::Diagnostic;
use crate::geometry::{Board, Cell, Dir, Wide};

/// Warns about each pattern that reaches no cell from any cell for any player.
pub(super) fn check_reach(variant: &Variant, out: &mut Vec<Diagnostic>) {
    for piece in &variant.pieces {
        for pat in &piece.moves {
            let reaches = (0..variant.players.len()).any(|pl| {
                let forward = variant.players[pl].forward;
                variant
                    .board
                    .cells()
                    .any(|c| reaches(&variant.board, pat, forward, c))
            });
            if !reaches {
                out.push(
                    Diagnostic::warning(
                        "variantlab::unreachable_move",
                        pat.span,
                        "this move can never be made",
                    )
                    .label("its conditions exclude every cell")
                    .help("check the directions, counts and conditions of this move"),
                );
            }
        }
    }
}

/// Whether a pattern reaches some cell from `from`.
fn reaches(board: &Board, pat: &Pattern, forward: Option<Dir>, from: Cell) -> bool {
    if board.len() <= 128 {
        !destinations::<u128>(board, pat, forward, from).is_empty()
    } else {
        !destinations::<Wide<16>>(board, pat, forward, from).is_empty()
    }
}
