//! Perft: counting move sequences, the standard check of a move generator.

use super::position::{Move, Position};
use crate::compile::Rules;

/// The deepest perft the command line runs. Counts that deep would take ages on any
/// board; the limit keeps the recursion, and the move buffers it needs, small.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Whether a move ends the game by what it captures.
#[inline]
pub fn ends_by_capture(rules: &Rules, m: &Move) -> bool {
    m.captured
        .is_some_and(|(_, k)| rules.capture_ends[k.0 as usize] & (1 << m.piece.0) != 0)
}

/// Counts the legal move sequences of length `depth`. A game that ends early (by a
/// deciding capture, or a side without moves) ends its sequences there, uncounted.
/// Repetition and move-count draws are not applied, as in published perft counts.
/// Counts saturate at `u64::MAX` instead of wrapping. One move buffer is kept per
/// level actually reached, so memory follows the game, not the depth asked for.
pub fn perft(rules: &Rules, pos: &mut Position, depth: u32) -> u64 {
    walk(rules, pos, depth, 0, &mut Vec::new())
}

/// Perft below each root move, in generation order.
pub fn divide(rules: &Rules, pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(rules, &mut moves);
    let mut buffers = Vec::new();
    moves
        .into_iter()
        .map(|m| {
            let n = if depth <= 1 {
                1
            } else {
                let undo = pos.make(rules, &m);
                let n = if ends_by_capture(rules, &m) {
                    0
                } else {
                    walk(rules, pos, depth - 1, 0, &mut buffers)
                };
                pos.unmake(&m, undo);
                n
            };
            (m, n)
        })
        .collect()
}

/// `buffers[level]` is this level's move list; deeper levels' are created on first use.
fn walk(
    rules: &Rules,
    pos: &mut Position,
    depth: u32,
    level: usize,
    buffers: &mut Vec<Vec<Move>>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if buffers.len() <= level {
        buffers.push(Vec::with_capacity(256));
    }
    // Taken out while the deeper levels use the rest; moving a Vec does not allocate.
    let mut mine = std::mem::take(&mut buffers[level]);
    pos.legal_moves(rules, &mut mine);
    let mut total: u64 = 0;
    if depth == 1 {
        total = mine.len() as u64;
    } else {
        for m in mine.iter() {
            if ends_by_capture(rules, m) {
                continue;
            }
            let undo = pos.make(rules, m);
            total = total.saturating_add(walk(rules, pos, depth - 1, level + 1, buffers));
            pos.unmake(m, undo);
        }
    }
    buffers[level] = mine;
    total
}
