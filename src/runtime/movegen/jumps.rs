//! Captures by jumping: moves over enemy pieces that take them, and chains of such
//! moves made in one turn (`again while it can`).
//!
//! A chain is walked depth first in a fixed order, so the chain a move names is found
//! again by its index: a move stays small however many pieces it takes. Pieces jumped
//! stay on the board until the move ends, so they block, and none is jumped twice.

use super::super::position::{Move, PositionOf, Special};
use crate::compile::{JUMP_AGAIN, JUMP_FRIEND, MoveEntry, Rules, SetTables, Width};
use crate::geometry::Cell;
use crate::model::{PieceId, PlayerId};

use crate::compile::MOST_JUMPED;

/// Where a chain ends: the cell the piece lands on, the pieces it jumped, and the last
/// move of the chain (whose promotion and tag the whole move takes).
#[derive(Clone, Copy)]
pub(crate) struct Landing<'r, S> {
    pub to: Cell,
    pub jumped: S,
    pub last: &'r MoveEntry,
    /// The cells landed on before `to`, in order: the first `hops`.
    pub path: [Cell; MOST_JUMPED],
    pub hops: u8,
}

impl<S: Width> PositionOf<S> {
    /// Calls `end` with each capture chain of `me`'s `piece` on `from` and its index,
    /// in a fixed order, until `end` returns true.
    pub(crate) fn walk_jumps<'r>(
        &self,
        rules: &'r Rules,
        me: PlayerId,
        piece: PieceId,
        from: Cell,
        end: &mut impl FnMut(u16, &Landing<'r, S>) -> bool,
    ) {
        let mut occupied = *self.occupied();
        occupied.remove(from);
        let mut walk = Walk {
            me,
            piece,
            occupied,
            index: 0,
            path: [Cell(0); MOST_JUMPED],
            hops: 0,
        };
        self.jump_from(rules, rules.sets(), &mut walk, from, None, S::EMPTY, end);
    }

    /// The chain of index `index` of the piece on `from`.
    pub(crate) fn jump_chain<'r>(
        &self,
        rules: &'r Rules,
        from: Cell,
        index: u16,
    ) -> Option<Landing<'r, S>> {
        let (me, piece) = self.at(from)?;
        let mut found = None;
        self.walk_jumps(rules, me, piece, from, &mut |i, l| {
            if i == index {
                found = Some(*l);
            }
            i >= index
        });
        found
    }

    /// Goes on from `at` with every capture the piece can make there; a chain ends
    /// where none can be made. Returns true once `end` asks to stop.
    #[allow(clippy::too_many_arguments)]
    fn jump_from<'r>(
        &self,
        rules: &'r Rules,
        sets: &SetTables<S>,
        walk: &mut Walk<S>,
        at: Cell,
        last: Option<&'r MoveEntry>,
        jumped: S,
        end: &mut impl FnMut(u16, &Landing<'r, S>) -> bool,
    ) -> bool {
        let mut went = false;
        if jumped.len() < MOST_JUMPED {
            for e in rules.jump_moves(walk.me, walk.piece, at) {
                if (last.is_some() && e.jump & JUMP_AGAIN == 0) || walk.occupied.contains(e.to) {
                    continue;
                }
                let Some(taken) = self.jumped_by(rules, sets, e, walk, &jumped) else {
                    continue;
                };
                went = true;
                let jumped = jumped.union(&taken);
                let stop = if e.jump & JUMP_AGAIN != 0 {
                    // Only a chain's links land more than once.
                    walk.path[walk.hops as usize] = e.to;
                    walk.hops += 1;
                    let stop = self.jump_from(rules, sets, walk, e.to, Some(e), jumped, end);
                    walk.hops -= 1;
                    stop
                } else {
                    walk.end(e.to, e, jumped, end)
                };
                if stop {
                    return true;
                }
            }
        }
        match last {
            Some(e) if !went => walk.end(at, e, jumped, end),
            _ => false,
        }
    }

    /// The pieces entry `e` jumps and captures, if it can be made: on one of its paths
    /// the cells to pass are empty and its hurdle cells hold exactly its count of
    /// pieces, each of the side it jumps, of a kind it may take, and not jumped yet.
    fn jumped_by(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        e: &MoveEntry,
        walk: &Walk<S>,
        jumped: &S,
    ) -> Option<S> {
        let barred = match e.barred {
            0 => 0,
            b => rules.barred[b as usize - 1],
        };
        sets.jumped(e, &walk.occupied).find(|over| {
            over.len() == e.hurdle as usize
                && !over.intersects(jumped)
                && over.iter().all(|c| {
                    self.at(c).is_some_and(|(pl, k)| {
                        (pl == walk.me) == (e.jump & JUMP_FRIEND != 0)
                            && barred & (1 << k.0) == 0
                            && super::may_take(rules, e, walk.piece, k)
                    })
                })
        })
    }

    /// Adds the moves capturing by jumping of `me`'s `piece` on `from`: one per chain,
    /// but one for chains with the same end and the same pieces taken.
    #[inline(never)]
    pub(super) fn add_jumps(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        piece: PieceId,
        from: Cell,
        out: &mut Vec<Move>,
    ) {
        // Chains told apart by their end and a hash of what they take; the first few
        // are kept without allocating.
        let mut near = [(Cell(0), 0u64); 16];
        let mut kept = 0;
        let mut far: Vec<(Cell, u64)> = Vec::new();
        let promotion = rules.promotion(me, piece);
        self.walk_jumps(rules, me, piece, from, &mut |index, l| {
            let hash = l.jumped.iter().fold(0u64, |h, c| {
                (h ^ c.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            });
            // Chains whose last captures promote differently stay apart.
            let key = (l.to, hash ^ l.last.promote as u64);
            if near[..kept].contains(&key) || far.contains(&key) {
                return false;
            }
            match near.get_mut(kept) {
                Some(slot) => {
                    *slot = key;
                    kept += 1;
                }
                None => far.push(key),
            }
            let Some(first) = l.jumped.iter().next() else {
                return false;
            };
            let m = Move {
                from,
                to: l.to,
                piece,
                captured: self.at(first),
                tag: l.last.tag,
                promotion: None,
                special: Special::Jump {
                    index,
                    count: l.jumped.len().min(u8::MAX as usize) as u8,
                },
                wall: None,
                gate: None,
            };
            self.push_promoting(rules, sets, promotion, l.last, m, &S::EMPTY, out);
            false
        });
    }
}

/// The state of one walk over a piece's chains.
struct Walk<S> {
    me: PlayerId,
    piece: PieceId,
    /// The board's pieces, less the one moving: those jumped stay.
    occupied: S,
    /// The next chain's index.
    index: u32,
    /// The cells landed on so far, as [`Landing::path`].
    path: [Cell; MOST_JUMPED],
    hops: u8,
}

impl<S: Width> Walk<S> {
    /// Tells `end` of a chain; stops the walk when asked, or when the index would
    /// overflow the move's field.
    fn end<'r>(
        &mut self,
        to: Cell,
        last: &'r MoveEntry,
        jumped: S,
        end: &mut impl FnMut(u16, &Landing<'r, S>) -> bool,
    ) -> bool {
        let Ok(index) = u16::try_from(self.index) else {
            return true;
        };
        self.index += 1;
        // A chain's end is the last cell its links landed on.
        let hops = match self.hops.checked_sub(1) {
            Some(h) if self.path[h as usize] == to => h,
            _ => self.hops,
        };
        let landing = Landing {
            to,
            jumped,
            last,
            path: self.path,
            hops,
        };
        end(index, &landing)
    }
}
