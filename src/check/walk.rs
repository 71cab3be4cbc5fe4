//! Walking a pattern from one cell: every path, and the cells each must find empty.

use crate::geometry::{Board, Cell, CellSet, Dir, DirSet, Point};
use crate::model::{Leg, Pattern};
use std::collections::HashMap;

/// A cell a pattern reaches, with the alternative sets of cells that must be empty
/// (one empty set suffices; none of the sets contains another).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach<S> {
    pub to: Cell,
    pub paths: Vec<S>,
}

/// Every destination of a pattern from `from`, for a player whose forward is `forward`;
/// the set type must hold every cell of the board.
pub fn destinations<S: CellSet>(
    board: &Board,
    pattern: &Pattern,
    forward: Option<Dir>,
    from: Cell,
) -> Vec<Reach<S>> {
    debug_assert!(board.len() <= S::CAPACITY);
    let start = board.point(from);
    let mut w = Walker {
        board,
        pattern,
        forward,
        start,
        path: vec![(start, false)],
        dirs: vec![],
        leg_steps: vec![],
        found: Vec::new(),
        counts: Counts::new(board, pattern, forward, start),
    };
    w.leg(0, None);
    w.found.sort_unstable();
    w.found.dedup();
    let mut out: Vec<Reach<S>> = Vec::new();
    for (to, mask) in w.found {
        match out.last_mut() {
            Some(r) if r.to == to => r.paths.push(mask),
            _ => out.push(Reach {
                to,
                paths: vec![mask],
            }),
        }
    }
    for r in &mut out {
        r.paths = minimal(std::mem::take(&mut r.paths));
    }
    out
}

/// Drops duplicate sets and every set that contains another.
pub fn minimal<S: CellSet>(mut sets: Vec<S>) -> Vec<S> {
    if sets.len() < 2 {
        return sets;
    }
    sets.sort_by_key(|m| (m.len(), *m));
    sets.dedup();
    let mut kept: Vec<S> = Vec::new();
    for m in sets {
        if !kept.iter().any(|k| k.is_subset(&m)) {
            kept.push(m);
        }
    }
    kept
}

struct Walker<'a, S> {
    board: &'a Board,
    pattern: &'a Pattern,
    forward: Option<Dir>,
    start: Point,
    /// Points visited, with whether the step that reached it must find it empty.
    path: Vec<(Point, bool)>,
    dirs: Vec<Dir>,
    /// Steps taken by each finished leg.
    leg_steps: Vec<u32>,
    /// Each path's end and must-be-empty set.
    found: Vec<(Cell, S)>,
    /// How many paths go on from each state: steps into states none finishes from are
    /// never taken, so a leg that can never be made costs nothing before it.
    counts: Counts<'a>,
}

impl<S: CellSet> Walker<'_, S> {
    /// Begins leg `li`; `prev` is the last step taken before it.
    fn leg(&mut self, li: usize, prev: Option<Dir>) {
        let Some(leg) = self.pattern.legs.get(li) else {
            self.finish();
            return;
        };
        if leg.min == 0 {
            self.leg_steps.push(0);
            self.leg(li + 1, prev);
            self.leg_steps.pop();
        }
        let set = leg.directions.resolve(self.board, self.forward, prev);
        let here = self.path.last().expect("path starts at the start").0;
        let state = State {
            leg: li,
            taken: 0,
            at: here,
            set,
            last: prev,
        };
        if self.counts.paths_from_state(state) > 0 {
            self.steps(li, leg, set, 0);
        }
    }

    /// Takes single steps within a leg: `taken` so far, from the directions in `set`.
    fn steps(&mut self, li: usize, leg: &Leg, set: DirSet, taken: u32) {
        if taken > 0 && taken >= leg.min {
            self.leg_steps.push(taken);
            self.leg(li + 1, self.dirs.last().copied());
            self.leg_steps.pop();
        }
        if leg.max.is_some_and(|m| taken >= m) {
            return;
        }
        let choices = match (leg.direct, taken) {
            (true, t) if t > 0 => DirSet::EMPTY.with(*self.dirs.last().expect("a step was taken")),
            _ => set,
        };
        for d in choices.iter() {
            let here = self.path.last().expect("path starts at the start").0;
            let p = self.board.shift(here, d);
            if !self.allowed(p, d, leg) {
                continue;
            }
            let next = State {
                leg: li,
                taken: taken + 1,
                at: p,
                set,
                last: Some(d),
            };
            if self.counts.paths_from_state(next) == 0 {
                continue;
            }
            self.path.push((p, !leg.leap));
            self.dirs.push(d);
            self.steps(li, leg, set, taken + 1);
            self.path.pop();
            self.dirs.pop();
        }
    }

    fn allowed(&self, p: Point, d: Dir, leg: &Leg) -> bool {
        if !on_board(self.board, p, leg) {
            return false;
        }
        if self.pattern.never_reversing {
            let back = self.board.opposite(d);
            if self.dirs.contains(&back) {
                return false;
            }
        }
        if let Some(kind) = self.pattern.trail {
            let (last, earlier) = self.path.split_last().expect("path is never empty");
            if p == last.0 {
                return false;
            }
            if earlier
                .iter()
                .any(|(e, _)| *e == p || self.board.adjacent(*e, p, kind))
            {
                return false;
            }
        }
        true
    }

    fn finish(&mut self) {
        let (end, _) = *self.path.last().expect("path is never empty");
        if (end == self.start) != self.pattern.to_start {
            return;
        }
        if self.pattern.equal_legs && self.leg_steps.windows(2).any(|w| w[0] != w[1]) {
            return;
        }
        let Some(to) = self.board.at(end) else { return };
        if self
            .pattern
            .end_not_adjacent
            .iter()
            .any(|k| self.board.adjacent(self.start, end, *k))
        {
            return;
        }
        let mut mask = S::EMPTY;
        for &(p, must_be_empty) in &self.path[1..self.path.len() - 1] {
            if must_be_empty
                && p != self.start
                && let Some(c) = self.board.at(p)
            {
                mask.insert(c);
            }
        }
        self.found.push((to, mask));
        if self.pattern.repeated {
            self.repeat(end, to, mask);
        }
    }

    /// The same steps again from each end reached, while every step lands where its
    /// leg allows and each end is a cell of the board; the ends passed must be empty.
    fn repeat(&mut self, mut end: Point, mut to: Cell, mut mask: S) {
        'again: loop {
            mask.insert(to);
            let mut at = end;
            for (i, &d) in self.dirs.iter().enumerate() {
                at = self.board.shift(at, d);
                let must_be_empty = self.path[i + 1].1;
                if i + 1 < self.dirs.len() && must_be_empty {
                    match self.board.at(at) {
                        Some(c) if at != self.start => mask.insert(c),
                        Some(_) => {}
                        None => break 'again,
                    }
                }
            }
            let Some(next) = self.board.at(at) else { break };
            if at == self.start
                || self
                    .pattern
                    .end_not_adjacent
                    .iter()
                    .any(|k| self.board.adjacent(self.start, at, *k))
            {
                break;
            }
            (end, to) = (at, next);
            self.found.push((to, mask));
        }
    }
}

/// How many paths a pattern may take from `from`, counted over the states a walk passes
/// through (leg, steps taken, point, directions, last step) rather than path by path,
/// so it is quick however many there are. Conditions on the whole trail (`never
/// reversing`, trail adjacency) are left out: the count is an upper bound, exact
/// without them. Saturates at `u64::MAX`.
pub fn path_count(board: &Board, pattern: &Pattern, forward: Option<Dir>, from: Cell) -> u64 {
    let start = board.point(from);
    Counts::new(board, pattern, forward, start).paths_from_leg(0, None, start)
}

/// Where a walk is, as far as the rest of it is concerned.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    leg: usize,
    taken: u32,
    at: Point,
    /// The directions the current leg may take.
    set: DirSet,
    last: Option<Dir>,
}

/// Path counts by state, worked out when first asked.
struct Counts<'a> {
    board: &'a Board,
    pattern: &'a Pattern,
    forward: Option<Dir>,
    start: Point,
    known: HashMap<State, u64>,
}

impl<'a> Counts<'a> {
    fn new(board: &'a Board, pattern: &'a Pattern, forward: Option<Dir>, start: Point) -> Self {
        Counts {
            board,
            pattern,
            forward,
            start,
            known: HashMap::new(),
        }
    }

    /// Paths from the start of leg `li` at `at`, after a last step `prev`.
    fn paths_from_leg(&mut self, li: usize, prev: Option<Dir>, at: Point) -> u64 {
        let Some(leg) = self.pattern.legs.get(li) else {
            return u64::from(self.may_end(at));
        };
        let skip = if leg.min == 0 {
            self.paths_from_leg(li + 1, prev, at)
        } else {
            0
        };
        let set = leg.directions.resolve(self.board, self.forward, prev);
        let state = State {
            leg: li,
            taken: 0,
            at,
            set,
            last: prev,
        };
        skip.saturating_add(self.paths_from_state(state))
    }

    /// Paths from within a leg.
    fn paths_from_state(&mut self, s: State) -> u64 {
        if let Some(n) = self.known.get(&s) {
            return *n;
        }
        let leg = &self.pattern.legs[s.leg];
        let mut total = 0u64;
        if s.taken > 0 && s.taken >= leg.min {
            total = self.paths_from_leg(s.leg + 1, s.last, s.at);
        }
        if leg.max.is_none_or(|m| s.taken < m) {
            let choices = match (leg.direct, s.last) {
                (true, Some(d)) if s.taken > 0 => DirSet::EMPTY.with(d),
                _ => s.set,
            };
            for d in choices.iter() {
                let p = self.board.shift(s.at, d);
                if !on_board(self.board, p, leg) {
                    continue;
                }
                let next = State {
                    taken: s.taken + 1,
                    at: p,
                    last: Some(d),
                    ..s
                };
                total = total.saturating_add(self.paths_from_state(next));
            }
        }
        self.known.insert(s, total);
        total
    }

    /// Whether a path may end at `end`.
    fn may_end(&self, end: Point) -> bool {
        (end == self.start) == self.pattern.to_start
            && self.board.at(end).is_some()
            && !self
                .pattern
                .end_not_adjacent
                .iter()
                .any(|k| self.board.adjacent(self.start, end, *k))
    }
}

/// Whether a step of `leg` may land on `p`. Steps need real cells. Leaps may pass
/// outside the board, but a straight leg stops once it leaves the board's bounds: a
/// straight line never comes back.
fn on_board(board: &Board, p: Point, leg: &Leg) -> bool {
    board.at(p).is_some() || (leg.leap && (!leg.direct || board.within_bounds(p)))
}

#[cfg(test)]
mod tests;
