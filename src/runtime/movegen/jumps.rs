//! Captures by jumping: moves over enemy pieces that take them, and chains of such
//! moves made in one turn (`again while it can`).
//!
//! A chain is walked depth first in a fixed order, so the chain a move names is found
//! again by its index: a move stays small however many pieces it takes. Pieces jumped
//! stay on the board until the move ends, so they block, and none is jumped twice;
//! those taken `at once` leave the board as they are jumped.

use super::super::position::{Move, PositionOf, Special};
use crate::compile::{
    JUMP_AGAIN, JUMP_AT_ONCE, JUMP_CAPTURES, JUMP_FRIEND, JUMP_NO_BACK, JUMP_SHARED, MoveEntry,
    NO_PROMOTION, Rules, SetTables, Width,
};
use crate::geometry::Cell;
use crate::model::Dest;
use crate::model::{PieceId, PlayerId};

use crate::compile::MOST_JUMPED;

/// Where a chain ends: the cell the piece lands on, the pieces it jumped, and the last
/// move of the chain (whose tag the whole move takes).
#[derive(Clone, Copy)]
pub(crate) struct Landing<'r, S> {
    pub to: Cell,
    pub jumped: S,
    pub last: &'r MoveEntry,
    /// How the whole chain promotes, judged as one move from its start to its end (see
    /// `PromotionRule::mark`), by the rule of the kind it ends as.
    pub promote: u8,
    /// The kind the piece became in the middle of the chain (a promotion `at once`).
    pub became: Option<PieceId>,
    /// The cells landed on before `to`, in order: the first `hops`.
    pub path: [Cell; MOST_JUMPED],
    pub hops: u8,
    /// The cells of the pieces jumped, in the order they were jumped: the first
    /// `jumped.len()`.
    pub order: [Cell; MOST_JUMPED],
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
            rules,
            me,
            piece,
            became: None,
            start: from,
            occupied,
            index: 0,
            path: [Cell(0); MOST_JUMPED],
            passed: 0,
            hops: 0,
            order: [Cell(0); MOST_JUMPED],
            taken: 0,
        };
        self.jump_from(rules.sets(), &mut walk, from, None, S::EMPTY, false, end);
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
    /// where none can be made, and `must_go_on` (a capture that could have landed
    /// where it goes on) lets it end nowhere. Returns true once `end` asks to stop.
    #[allow(clippy::too_many_arguments)]
    fn jump_from<'r>(
        &self,
        sets: &SetTables<S>,
        walk: &mut Walk<'r, S>,
        at: Cell,
        last: Option<&'r MoveEntry>,
        jumped: S,
        must_go_on: bool,
        end: &mut impl FnMut(u16, &Landing<'r, S>) -> bool,
    ) -> bool {
        let rules = walk.rules;
        let (moves, shared) = rules.jump_moves_shared(walk.me, walk.piece, at);
        let mut went = false;
        if jumped.len() < MOST_JUMPED {
            let going_on = shared.then(|| self.going_on(sets, walk, at, last, moves, &jumped));
            for e in moves {
                // A move with several paths may take other pieces by each.
                let mut nth = 0;
                while let Some(taken) = self.link(sets, walk, at, last, e, &jumped, nth) {
                    nth += 1;
                    went = true;
                    let jumped = jumped.union(&taken);
                    let stop = if e.jump & JUMP_AGAIN != 0 {
                        let must = e.jump & JUMP_SHARED != 0
                            && going_on.as_ref().is_some_and(|g| g.contains(&taken));
                        let saved = walk.enter(sets, e, &taken);
                        let stop = self.jump_from(sets, walk, e.to, Some(e), jumped, must, end);
                        walk.leave(e, &taken, saved);
                        stop
                    } else {
                        let before = walk.taken;
                        walk.note_taken(at, &taken);
                        let stop = walk.end(sets, e.to, e, jumped, end);
                        walk.taken = before;
                        stop
                    };
                    if stop {
                        return true;
                    }
                }
            }
        }
        match last {
            Some(e) if !went && !must_go_on => walk.end(sets, at, e, jumped, end),
            _ => false,
        }
    }

    /// The `nth` set of pieces (counting from 0, each set once) that `e`, made from `at`
    /// after `last`, may jump and capture, one set a path: a link of a chain goes on
    /// only with a move that says so.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn link(
        &self,
        sets: &SetTables<S>,
        walk: &Walk<'_, S>,
        at: Cell,
        last: Option<&MoveEntry>,
        e: &MoveEntry,
        jumped: &S,
        nth: usize,
    ) -> Option<S> {
        // Paths come in pairs (cells to pass, cells jumped): one pair, one set.
        if nth > 0 && e.path_count <= 2
            || last.is_some()
                && (e.jump & JUMP_AGAIN == 0
                    || (e.jump & JUMP_NO_BACK != 0 && walk.turns_back(at, e.to)))
        {
            return None;
        }
        // The rare entries, set apart by one test: see `tables::build`.
        if e.dest != Dest::Empty {
            return self.odd_link(sets, walk, e, jumped, nth);
        }
        if walk.occupied.contains(e.to) {
            return None;
        }
        self.nth_taken(sets, walk, e, jumped, nth)
    }

    /// [`Self::link`] for the rarer entries: a move back to its start taking nothing
    /// (made alone, never a link), and a capture `to enemy`, which takes the piece it
    /// lands on too.
    #[cold]
    #[inline(never)]
    fn odd_link(
        &self,
        sets: &SetTables<S>,
        walk: &Walk<'_, S>,
        e: &MoveEntry,
        jumped: &S,
        nth: usize,
    ) -> Option<S> {
        if e.jump & JUMP_CAPTURES == 0 {
            return (nth == 0 && sets.open(e, &walk.occupied)).then_some(S::EMPTY);
        }
        match self.at(e.to) {
            Some((pl, k))
                if pl != walk.me
                    && walk.occupied.contains(e.to)
                    && !jumped.contains(e.to)
                    && super::may_take(walk.rules, e, walk.piece, k) => {}
            _ => return None,
        }
        let mut taken = self.nth_taken(sets, walk, e, jumped, nth)?;
        taken.insert(e.to);
        Some(taken)
    }

    /// The `nth` distinct set of pieces `e`'s paths may jump and capture.
    #[inline(always)]
    fn nth_taken(
        &self,
        sets: &SetTables<S>,
        walk: &Walk<'_, S>,
        e: &MoveEntry,
        jumped: &S,
        nth: usize,
    ) -> Option<S> {
        let mut k = 0;
        for (i, over) in sets.jumped(e, &walk.occupied).enumerate() {
            if !self.takes(e, walk, jumped, &over) {
                continue;
            }
            if nth == 0 {
                return Some(over);
            }
            // Each set once, however many paths jump it.
            let again = (sets.jumped(e, &walk.occupied).take(i))
                .any(|t| t == over && self.takes(e, walk, jumped, &t));
            if !again {
                if k == nth {
                    return Some(over);
                }
                k += 1;
            }
        }
        None
    }

    /// The pieces whose capture from `at` could land on a cell from which the chain
    /// goes on: such a capture must land on one. Only captures that share their pieces
    /// with others (a flying piece's landings beyond one piece) are looked at.
    fn going_on<'r>(
        &self,
        sets: &SetTables<S>,
        walk: &mut Walk<'r, S>,
        at: Cell,
        last: Option<&MoveEntry>,
        moves: &'r [MoveEntry],
        jumped: &S,
    ) -> Taken<S> {
        let mut on = Taken::default();
        for e in moves {
            if e.jump & (JUMP_SHARED | JUMP_AGAIN) != JUMP_SHARED | JUMP_AGAIN {
                continue;
            }
            let mut nth = 0;
            while let Some(taken) = self.link(sets, walk, at, last, e, jumped, nth) {
                nth += 1;
                if on.contains(&taken) {
                    continue;
                }
                let all = jumped.union(&taken);
                let saved = walk.enter(sets, e, &taken);
                let onward = walk.rules.jump_moves(walk.me, walk.piece, e.to);
                let goes = all.len() < MOST_JUMPED
                    && onward
                        .iter()
                        .any(|n| self.link(sets, walk, e.to, Some(e), n, &all, 0).is_some());
                walk.leave(e, &taken, saved);
                if goes {
                    on.insert(taken);
                }
            }
        }
        on
    }

    /// Whether `e` may jump and capture the pieces `over`, those on the hurdle cells of
    /// a path whose cells to pass are empty: exactly its count of pieces, each of the
    /// side it jumps, of a kind it may take, and not jumped yet.
    #[inline(always)]
    fn takes(&self, e: &MoveEntry, walk: &Walk<'_, S>, jumped: &S, over: &S) -> bool {
        let rules = walk.rules;
        let barred = match e.barred {
            0 => 0,
            b => rules.barred[b as usize - 1],
        };
        over.len() == e.hurdle as usize
            && !over.intersects(jumped)
            && over.iter().all(|c| {
                self.at(c).is_some_and(|(pl, k)| {
                    (pl == walk.me) == (e.jump & JUMP_FRIEND != 0)
                        && barred & (1 << k.0) == 0
                        && super::may_take(rules, e, walk.piece, k)
                })
            })
    }

    /// Adds the moves capturing by jumping of `me`'s `piece` on `from`: one per chain,
    /// but one for chains with the same end and the same pieces taken; and, unless
    /// only `captures` are asked for, its moves back to its start taking nothing.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_jumps(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        piece: PieceId,
        from: Cell,
        captures: bool,
        royals: &S,
        out: &mut Vec<Move>,
    ) {
        // Chains told apart by their end and a hash of what they take; the first few
        // are kept without allocating.
        let mut near = [(Cell(0), 0u64); 16];
        let mut kept = 0;
        let mut far: Vec<(Cell, u64)> = Vec::new();
        let promotion = rules.promotion(me, piece);
        self.walk_jumps(rules, me, piece, from, &mut |index, l| {
            // Seeded, so that no set hashes as the empty one (a move taking nothing).
            let hash = l.jumped.iter().fold(0x51ed_u64, |h, c| {
                (h ^ c.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            });
            // Chains that promote differently stay apart, and so do those taking the
            // kinds a preference watches at different places in their order.
            let promotes = l.promote as u64 | l.became.map_or(0, |k| k.0 as u64 + 1) << 8;
            let order = match rules.earliest_kinds {
                0 => 0,
                kinds => self.places_of(kinds, l).wrapping_mul(0x2545_F491_4F6C_DD1D),
            };
            let key = (l.to, hash ^ promotes ^ order);
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
            let first = l.jumped.iter().next();
            if first.is_none() && captures {
                return false;
            }
            let m = Move {
                from,
                to: l.to,
                piece,
                captured: first.and_then(|c| self.at(c)),
                tag: l.last.tag,
                promotion: None,
                // Back to its start taking nothing, the move is a plain one.
                special: match first {
                    Some(_) => Special::Jump {
                        index,
                        count: l.jumped.len().min(u8::MAX as usize) as u8,
                    },
                    None => Special::Plain,
                },
                wall: None,
                gate: None,
            };
            // A pass changes no cell, but may not be made in check.
            if first.is_none() && !royals.is_empty() && self.exposes(rules, sets, &m, royals) {
                return false;
            }
            match l.became {
                Some(k) => out.push(Move {
                    promotion: Some(k),
                    ..m
                }),
                None => {
                    let last = MoveEntry {
                        promote: l.promote,
                        ..*l.last
                    };
                    self.push_promoting(rules, sets, promotion, &last, m, &S::EMPTY, out);
                }
            }
            false
        });
    }
}

impl<S: Width> PositionOf<S> {
    /// The places in a chain's order (a bit each, from the lowest) at which it takes a
    /// piece of the kinds (a bit per kind).
    fn places_of(&self, kinds: u64, l: &Landing<'_, S>) -> u64 {
        let n = l.jumped.len().min(MOST_JUMPED);
        (l.order[..n].iter().enumerate())
            .filter(|(_, c)| self.at(**c).is_some_and(|(_, k)| kinds >> k.0 & 1 != 0))
            .fold(0, |b, (i, _)| b | 1 << i)
    }

    /// The kinds a capture takes, in the order it takes them: the first of the count.
    pub(super) fn kinds_taken(&self, rules: &Rules, m: &Move) -> ([PieceId; MOST_JUMPED], usize) {
        let mut kinds = [PieceId(0); MOST_JUMPED];
        let mut n = 0;
        match m.special {
            Special::Jump { index, .. } => {
                if let Some(l) = self.jump_chain(rules, m.from, index) {
                    for c in &l.order[..l.jumped.len().min(MOST_JUMPED)] {
                        if let Some((_, k)) = self.at(*c) {
                            kinds[n] = k;
                            n += 1;
                        }
                    }
                }
            }
            _ => {
                if let Some((_, k)) = m.captured {
                    kinds[0] = k;
                    n = 1;
                }
            }
        }
        (kinds, n)
    }
}

/// The state of one walk over a piece's chains.
struct Walk<'r, S> {
    rules: &'r Rules,
    me: PlayerId,
    /// The kind moving: the piece's own, or the one it became at once.
    piece: PieceId,
    became: Option<PieceId>,
    /// Where the chain started.
    start: Cell,
    /// The board's pieces, less the one moving and those taken at once.
    occupied: S,
    /// The next chain's index.
    index: u32,
    /// The cells landed on so far, as [`Landing::path`].
    path: [Cell; MOST_JUMPED],
    /// The ways of the moving kind's promotion whose zone the chain so far passed, as
    /// bits by their index (for promotions `through` a zone).
    passed: u32,
    hops: u8,
    /// The pieces jumped by the links entered so far, in order: the first `taken`.
    order: [Cell; MOST_JUMPED],
    taken: u8,
}

/// What [`Walk::enter`] changes, for [`Walk::leave`] to put back.
struct Saved {
    piece: PieceId,
    became: Option<PieceId>,
    passed: u32,
    taken: u8,
}

/// Sets of pieces taken by one capture, few enough to keep on the stack.
struct Taken<S> {
    near: [Option<S>; 8],
    far: Vec<S>,
}

impl<S: Width> Default for Taken<S> {
    fn default() -> Self {
        Taken {
            near: [None; 8],
            far: Vec::new(),
        }
    }
}

impl<S: Width> Taken<S> {
    fn contains(&self, s: &S) -> bool {
        self.near.iter().flatten().chain(&self.far).any(|t| t == s)
    }

    fn insert(&mut self, s: S) {
        match self.near.iter_mut().find(|t| t.is_none()) {
            Some(slot) => *slot = Some(s),
            None => self.far.push(s),
        }
    }
}

impl<'r, S: Width> Walk<'r, S> {
    /// Lands with link `e`, which took `taken`: the chain goes on from its end.
    fn enter(&mut self, sets: &SetTables<S>, e: &MoveEntry, taken: &S) -> Saved {
        let saved = Saved {
            piece: self.piece,
            became: self.became,
            passed: self.passed,
            taken: self.taken,
        };
        let from = match self.hops {
            0 => self.start,
            h => self.path[h as usize - 1],
        };
        self.path[self.hops as usize] = e.to;
        self.hops += 1;
        self.note_taken(from, taken);
        if e.jump & JUMP_AT_ONCE != 0 {
            self.occupied = self.occupied.difference(taken);
        }
        self.passed = self.passing(sets, e);
        self.promote_at_once(e.to);
        saved
    }

    /// Takes back [`Walk::enter`].
    fn leave(&mut self, e: &MoveEntry, taken: &S, saved: Saved) {
        if e.jump & JUMP_AT_ONCE != 0 {
            self.occupied = self.occupied.union(taken);
        }
        self.hops -= 1;
        self.taken = saved.taken;
        (self.piece, self.became, self.passed) = (saved.piece, saved.became, saved.passed);
    }

    /// Adds the pieces a link from `from` jumped to the order, nearest first, as far
    /// as it has room.
    fn note_taken(&mut self, from: Cell, taken: &S) {
        let start = self.taken as usize;
        for c in taken.iter() {
            if let Some(slot) = self.order.get_mut(self.taken as usize) {
                *slot = c;
                self.taken += 1;
            }
        }
        let placed = &mut self.order[start..self.taken as usize];
        if placed.len() > 1 {
            let board = &self.rules.variant.board;
            let o = board.point(from);
            placed.sort_by_key(|c| {
                let p = board.point(*c);
                (p.0 - o.0).pow(2) + (p.1 - o.1).pow(2)
            });
        }
    }

    /// Whether a link from `at` to `to` goes opposite to the one that landed on `at`.
    fn turns_back(&self, at: Cell, to: Cell) -> bool {
        let came = match self.hops {
            0 | 1 => self.start,
            h => self.path[h as usize - 2],
        };
        let board = &self.rules.variant.board;
        let (a, b, c) = (board.point(came), board.point(at), board.point(to));
        let (d, e) = ((b.0 - a.0, b.1 - a.1), (c.0 - b.0, c.1 - b.1));
        d.0 * e.1 == d.1 * e.0 && d.0 * e.0 + d.1 * e.1 < 0
    }

    /// [`Walk::passed`] once link `e` is made: the zones it passes or lands in, for the
    /// ways that promote `through` them.
    fn passing(&self, sets: &SetTables<S>, e: &MoveEntry) -> u32 {
        let Some(p) = self.rules.promotion(self.me, self.piece) else {
            return 0;
        };
        if !p.through {
            return 0;
        }
        let mut passed = self.passed;
        for (i, (zone, when)) in p.ways.iter().enumerate().take(32) {
            if when.through
                && (zone[e.to.index()] || sets.paths(e).any(|m| m.iter().any(|c| zone[c.index()])))
            {
                passed |= 1 << i;
            }
        }
        passed
    }

    /// How the chain from its start to `to`, its last link `last`, promotes the kind
    /// moving.
    fn promotion(&self, sets: &SetTables<S>, to: Cell, last: &MoveEntry) -> u8 {
        let Some(p) = self.rules.promotion(self.me, self.piece) else {
            return NO_PROMOTION;
        };
        let passed = self.passing(sets, last);
        let stuck = p.forced_if_stuck && self.rules.moves(self.me, self.piece, to).is_empty();
        p.mark(self.start, to, |i, _| passed & (1 << i) != 0, stuck)
    }

    /// A piece whose promotion is made at once becomes its new kind on landing where
    /// the chain so far promotes it.
    fn promote_at_once(&mut self, to: Cell) {
        let Some(p) = self.rules.promotion(self.me, self.piece) else {
            return;
        };
        if p.at_once
            && p.mark(self.start, to, |i, _| self.passed & (1 << i) != 0, false) != NO_PROMOTION
        {
            self.piece = p.to[0];
            self.became = Some(p.to[0]);
            self.passed = 0;
        }
    }

    /// Tells `end` of a chain; stops the walk when asked, or when the index would
    /// overflow the move's field.
    fn end(
        &mut self,
        sets: &SetTables<S>,
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
        let promote = match self.became {
            Some(_) => NO_PROMOTION,
            None => self.promotion(sets, to, last),
        };
        let landing = Landing {
            to,
            jumped,
            last,
            promote,
            became: self.became,
            path: self.path,
            hops,
            order: self.order,
        };
        end(index, &landing)
    }
}
