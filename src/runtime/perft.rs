//! Perft: counting move sequences, the standard check of a move generator.

use super::position::{Move, Position, PositionOf, ViewMut, Whole};
use crate::compile::{Rules, SetTables};
use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest perft the command line runs. Counts that deep would take ages on any
/// board; the limit keeps the recursion, and the move buffers it needs, small.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Whether a move ends the game by what it captures.
#[inline]
pub fn ends_by_capture(rules: &Rules, m: &Move) -> bool {
    m.captured
        .is_some_and(|(_, k)| rules.ends.capture_ends[k.0 as usize] & (1 << m.piece.0) != 0)
}

/// Whether `m`, a capture, may end the game with other conditions of a rule: the
/// position after it must then be judged.
fn capture_judged(rules: &Rules, m: &Move) -> bool {
    m.captured
        .is_some_and(|(_, k)| rules.ends.capture_judged[k.0 as usize] & (1 << m.piece.0) != 0)
}

/// Whether `m`, just made, ended the game by the pieces it captured by enclosure
/// (`enclosed`, a bit per kind); `judged` judges the position after it when a rule
/// joins such a capture with other conditions.
fn ends_by_enclosure(rules: &Rules, enclosed: u64, m: &Move, judged: impl Fn() -> bool) -> bool {
    let by = 1 << m.piece.0;
    let mut kinds = enclosed;
    let mut judge = false;
    while kinds != 0 {
        let k = kinds.trailing_zeros() as usize;
        kinds &= kinds - 1;
        if rules.ends.capture_ends[k] & by != 0 {
            return true;
        }
        judge |= rules.ends.capture_judged[k] & by != 0;
    }
    judge && judged()
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
    count(
        rules,
        pos,
        depth,
        &mut buffers(depth),
        &AtomicBool::new(false),
    )
}

/// Perft below each root move, in generation order.
pub fn divide(rules: &Rules, pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut rows = Vec::new();
    divide_until(rules, pos, depth, &AtomicBool::new(false), |m, n| {
        rows.push((m, n))
    });
    rows
}

/// [`divide`], each root move's count given to `each` as it is found, until `stop` is
/// set: then false, the move being counted left out. The position is left as it was.
pub fn divide_until(
    rules: &Rules,
    pos: &mut Position,
    depth: u32,
    stop: &AtomicBool,
    mut each: impl FnMut(Move, u64),
) -> bool {
    let mut moves = Vec::new();
    if pos.ended_in_place(rules) {
        return true;
    }
    pos.legal_moves(rules, &mut moves);
    let mut buffers = buffers(depth);
    for m in moves {
        let n = if depth <= 1 {
            1
        } else {
            let undo = pos.make(rules, &m);
            let n = if ends_by_capture(rules, &m)
                || capture_judged(rules, &m) && pos.ends_after_capture(rules, &m)
                || ends_by_enclosure(rules, pos.enclosed_kinds(), &m, || {
                    pos.ends_after_capture(rules, &m)
                }) {
                0
            } else {
                count(rules, pos, depth - 1, &mut buffers, stop)
            };
            pos.unmake(rules, &m, undo);
            n
        };
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        each(m, n);
    }
    true
}

/// Perft below a position, at its width; 0 once `stop` is set.
fn count(
    rules: &Rules,
    pos: &mut Position,
    depth: u32,
    buffers: &mut [Vec<Move>],
    stop: &AtomicBool,
) -> u64 {
    match pos.view_mut() {
        ViewMut::One(p) => walk(rules, rules.sets(), p, depth, buffers, stop),
        ViewMut::Two(p) => walk(rules, rules.sets(), p, depth, buffers, stop),
        ViewMut::Wide8(p) => walk(rules, rules.sets(), p, depth, buffers, stop),
        ViewMut::Wide16(p) => walk(rules, rules.sets(), p, depth, buffers, stop),
    }
}

/// Perft at one width: the tables are looked up once, not at every node.
fn walk<S: Whole>(
    rules: &Rules,
    sets: &SetTables<S>,
    pos: &mut PositionOf<S>,
    depth: u32,
    buffers: &mut [Vec<Move>],
    stop: &AtomicBool,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Not at the last level, which only generates moves: there it would cost time.
    if depth > 1 && stop.load(Ordering::Relaxed) {
        return 0;
    }
    if rules.ends.ends_in_place && pos.ended_in_place(rules) {
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
        // Rare: a rule joins a capture with other conditions; the whole is judged.
        let over = capture_judged(rules, m) && S::whole(pos.clone()).ends_after_capture(rules, m)
            || pos.enclosed_kinds() != 0
                && ends_by_enclosure(rules, pos.enclosed_kinds(), m, || {
                    S::whole(pos.clone()).ends_after_capture(rules, m)
                });
        if !over {
            total = total.saturating_add(walk(rules, sets, pos, depth - 1, rest, stop));
        }
        pos.unmake(rules, m, undo);
    }
    total
}
