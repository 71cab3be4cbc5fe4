//! Perft: counting move sequences, the standard check of a move generator.

use super::position::{Move, Position, PositionOf, ViewMut};
use crate::compile::{Rules, SetTables, Width};

/// The deepest perft the command line runs. Counts that deep would take ages on any
/// board; the limit keeps the recursion, and the move buffers it needs, small.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Whether a move ends the game by what it captures.
#[inline]
pub fn ends_by_capture(rules: &Rules, m: &Move) -> bool {
    m.captured
        .is_some_and(|(_, k)| rules.capture_ends[k.0 as usize] & (1 << m.piece.0) != 0)
}

/// One empty move buffer per level, for at most [`MAX_PERFT_DEPTH`] levels: each grows
/// on first use, so memory follows the depth the game reaches, not the depth asked for.
fn buffers(depth: u32) -> Vec<Vec<Move>> {
    (0..depth.min(MAX_PERFT_DEPTH))
        .map(|_| Vec::new())
        .collect()
}

/// Counts the legal move sequences of length `depth`. A game that ends early (by a
/// deciding capture, a side without moves, or a rule that holds from the position
/// alone, such as a kind extinct) ends its sequences there, uncounted.
/// Repetition and move-count draws are not applied, as in published perft counts.
/// Counts saturate at `u64::MAX` instead of wrapping.
pub fn perft(rules: &Rules, pos: &mut Position, depth: u32) -> u64 {
    count(rules, pos, depth, &mut buffers(depth))
}

/// Perft below each root move, in generation order.
pub fn divide(rules: &Rules, pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    if pos.ended_in_place(rules) {
        return vec![];
    }
    pos.legal_moves(rules, &mut moves);
    let mut buffers = buffers(depth);
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
                    count(rules, pos, depth - 1, &mut buffers)
                };
                pos.unmake(rules, &m, undo);
                n
            };
            (m, n)
        })
        .collect()
}

/// Perft below a position, at its width.
fn count(rules: &Rules, pos: &mut Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    match pos.view_mut() {
        ViewMut::One(p) => walk(rules, rules.sets(), p, depth, buffers),
        ViewMut::Two(p) => walk(rules, rules.sets(), p, depth, buffers),
        ViewMut::Wide8(p) => walk(rules, rules.sets(), p, depth, buffers),
        ViewMut::Wide16(p) => walk(rules, rules.sets(), p, depth, buffers),
    }
}

/// Perft at one width: the tables are looked up once, not at every node.
fn walk<S: Width>(
    rules: &Rules,
    sets: &SetTables<S>,
    pos: &mut PositionOf<S>,
    depth: u32,
    buffers: &mut [Vec<Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if rules.ends_in_place && pos.ended_in_place(rules) {
        return 0;
    }
    // Past the buffers made in advance (only when asked deeper than the limit), each
    // level has its own.
    let mut own = Vec::new();
    let (mine, rest) = match buffers.split_first_mut() {
        Some((mine, rest)) => (mine, rest),
        None => (&mut own, &mut [][..]),
    };
    pos.legal_moves_in(rules, sets, mine);
    if depth == 1 {
        return mine.len() as u64;
    }
    let mut total: u64 = 0;
    for m in mine.iter() {
        if ends_by_capture(rules, m) {
            continue;
        }
        let undo = pos.make(rules, m);
        total = total.saturating_add(walk(rules, sets, pos, depth - 1, rest));
        pos.unmake(rules, m, undo);
    }
    total
}
