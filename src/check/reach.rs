//! Checks that need the moves worked out: patterns with too many paths to walk, and
//! patterns that can never be made.

use super::pattern::MAX_PATHS;
use super::walk::{destinations, path_count};
use crate::diagnostic::Diagnostic;
use crate::geometry::{Board, Cell, Dir, Wide};
use crate::model::*;

/// Paths all moves together may take, summed over every cell and player: compiling
/// walks each one, so this bounds the work every command does before it starts.
pub const MAX_TOTAL_PATHS: u64 = 1 << 22;

/// Refuses each pattern that may take more than [`MAX_PATHS`] paths from some cell, and
/// warns about each pattern that reaches no cell from any cell for any player.
pub(super) fn check_reach(variant: &Variant, out: &mut Vec<Diagnostic>) {
    let board = &variant.board;
    let mut total = 0u64;
    for piece in &variant.pieces {
        for pat in &piece.moves {
            let forwards = variant.players.iter().map(|p| p.forward);
            // Stops counting at the first cell past a limit: the move is refused anyway.
            let before = total;
            let mut most = 0u64;
            for (f, c) in forwards
                .clone()
                .flat_map(|f| board.cells().map(move |c| (f, c)))
            {
                let n = path_count(board, pat, f, c);
                most = most.max(n);
                total = total.saturating_add(n);
                if most > MAX_PATHS || total > MAX_TOTAL_PATHS {
                    break;
                }
            }
            if most > MAX_PATHS {
                let shown = if most == u64::MAX {
                    "more than 10^19".to_string()
                } else {
                    most.to_string()
                };
                out.push(
                    Diagnostic::error(
                        "variantlab::too_many_paths",
                        pat.span,
                        format!(
                            "this move may take {shown} paths from one cell; at most {MAX_PATHS} are supported"
                        ),
                    )
                    .label("too many ways to make this move")
                    .help("use fewer legs, or smaller counts on the straight ones"),
                );
                continue;
            }
            if total > MAX_TOTAL_PATHS && before <= MAX_TOTAL_PATHS {
                out.push(
                    Diagnostic::error(
                        "variantlab::too_many_paths",
                        pat.span,
                        format!(
                            "with this move, the moves of this file take at least {total} paths over all cells and players; at most {MAX_TOTAL_PATHS} are supported"
                        ),
                    )
                    .label("the move that crosses the limit")
                    .help("use fewer legs, or smaller counts on the straight ones, here or in the moves before"),
                );
                continue;
            }
            let reaches = most > 0
                && forwards
                    .clone()
                    .any(|f| board.cells().any(|c| reaches(board, pat, f, c)));
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

/// Whether a pattern reaches `to` from `from` on an empty board.
pub(super) fn reaches_cell(
    board: &Board,
    pat: &Pattern,
    forward: Option<Dir>,
    from: Cell,
    to: Cell,
) -> bool {
    if board.len() <= 128 {
        destinations::<u128>(board, pat, forward, from)
            .iter()
            .any(|r| r.to == to)
    } else {
        destinations::<Wide<16>>(board, pat, forward, from)
            .iter()
            .any(|r| r.to == to)
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
