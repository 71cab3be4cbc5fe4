//! What a piece that promotes is worth on its way to the zone: the nearer it stands,
//! the more of what it would gain it already holds, and more still when no enemy
//! piece of its own kind stands in its way or beside it (a passed Pawn).

use crate::compile::{Rules, Width};
use crate::geometry::Cell;
use crate::model::{PieceId, PlayerId};
use crate::runtime::PositionOf;

/// Moves from the zone beyond which the way there is worth nothing yet.
const FAR: u8 = 6;
/// The share of the gain held one move from the zone (halved per move further);
/// a piece with enemies of its kind in its way holds a quarter of that.
const NEAR_SHARE: i32 = 4;
const BLOCKED: i32 = 4;

/// Per (player, kind, cell): what the piece there holds of its promotion, and the
/// cells where an enemy piece of its kind would stand in its way.
#[derive(Clone, Debug)]
pub(super) struct Promise {
    kinds: usize,
    cells: usize,
    /// Per player: the kinds with a worth on the way, as a bit set.
    promoting: Vec<u64>,
    worth: Vec<i32>,
    /// Per (player, kind, cell) with a worth: where its stoppers start in `stoppers`.
    first: Vec<u32>,
    /// The stopper cells of each, as a bit set of `words` words.
    stoppers: Vec<u64>,
    words: usize,
}

impl Promise {
    /// None where nothing gains by promoting.
    pub(super) fn new(rules: &Rules, values: &[i32]) -> Option<Promise> {
        let v = &rules.variant;
        let (players, kinds, cells) = (v.players.len(), v.pieces.len(), v.board.len());
        let mut promise = Promise {
            kinds,
            cells,
            promoting: vec![0; players],
            worth: vec![0; players * kinds * cells],
            first: vec![0; players * kinds * cells],
            stoppers: vec![],
            words: cells.div_ceil(64),
        };
        for p in (0..players).map(|p| PlayerId(p as u8)) {
            for k in (0..kinds).map(|k| PieceId(k as u8)) {
                let Some(rule) = rules.promotion(p, k) else {
                    continue;
                };
                let gain = rule
                    .to
                    .iter()
                    .map(|t| values[t.0 as usize])
                    .max()
                    .unwrap_or(0)
                    - values[k.0 as usize];
                if gain <= 0 || rules.royal & (1 << k.0) != 0 {
                    continue;
                }
                promise.promoting[p.0 as usize] |= 1 << k.0;
                promise.fill(rules, p, k, gain, &rule.zone);
            }
        }
        promise.promoting.iter().any(|m| *m != 0).then_some(promise)
    }

    fn at(&self, p: PlayerId, k: PieceId, c: Cell) -> usize {
        (p.0 as usize * self.kinds + k.0 as usize) * self.cells + c.index()
    }

    fn fill(&mut self, rules: &Rules, p: PlayerId, k: PieceId, gain: i32, zone: &[bool]) {
        let v = &rules.variant;
        let n = self.cells;
        let mut next = vec![Vec::new(); n];
        let mut back = vec![Vec::new(); n];
        for c in v.board.cells() {
            for e in rules.moves(p, k, c) {
                next[c.index()].push(e.to.index());
                back[e.to.index()].push(c.index());
            }
        }
        let goal: Vec<usize> = (0..n).filter(|&c| zone[c]).collect();
        let steps = distances(&back, &goal);
        // Cells from which an enemy piece of the kind moves onto each cell.
        let mut reached_from = vec![Vec::new(); n];
        for q in (0..v.players.len()).map(|q| PlayerId(q as u8)) {
            if q == p {
                continue;
            }
            for z in v.board.cells() {
                for e in rules.moves(q, k, z) {
                    reached_from[e.to.index()].push(z.index() as u16);
                }
            }
        }
        for c in v.board.cells() {
            let d = steps[c.index()];
            if d > FAR {
                continue;
            }
            let i = self.at(p, k, c);
            self.worth[i] = (gain / NEAR_SHARE) >> d.saturating_sub(1);
            // The cells on the shortest ways to the zone, and those next to them.
            let mut way = vec![c.index()];
            let mut seen = vec![false; n];
            let mut stop = vec![];
            let mut head = 0;
            while head < way.len() {
                let y = way[head];
                head += 1;
                for &t in &next[y] {
                    if steps[t] + 1 == steps[y] && !seen[t] {
                        seen[t] = true;
                        way.push(t);
                        stop.push(t as u16);
                        stop.extend_from_slice(&reached_from[t]);
                    }
                }
            }
            let first = self.stoppers.len();
            self.first[i] = first as u32;
            self.stoppers.resize(first + self.words, 0);
            for z in stop
                .into_iter()
                .map(usize::from)
                .filter(|z| *z != c.index())
            {
                self.stoppers[first + z / 64] |= 1 << (z % 64);
            }
        }
    }

    /// What the player's promoting pieces hold of their promotions.
    pub(super) fn worth<S: Width>(&self, pos: &PositionOf<S>, p: PlayerId) -> i32 {
        let mut s = 0;
        let mut kinds = self.promoting[p.0 as usize];
        while kinds != 0 {
            let k = PieceId(kinds.trailing_zeros() as u8);
            kinds &= kinds - 1;
            let mine = pos.pieces_of(p, k);
            if mine.is_empty() {
                continue;
            }
            let theirs = (0..pos.players())
                .map(PlayerId)
                .filter(|q| *q != p)
                .fold(S::EMPTY, |acc, q| acc.union(&pos.pieces_of(q, k)));
            for c in mine.iter() {
                let i = self.at(p, k, c);
                let w = self.worth[i];
                if w == 0 {
                    continue;
                }
                let stop = &self.stoppers[self.first[i] as usize..][..self.words];
                let free = theirs
                    .iter()
                    .all(|z| stop[z.index() / 64] & (1 << (z.index() % 64)) == 0);
                s += if free { w } else { w / BLOCKED };
            }
        }
        s
    }
}

/// Steps from the nearest of `from` to every cell along `next` (`u8::MAX`: never, or
/// too far).
pub(super) fn distances(next: &[Vec<usize>], from: &[usize]) -> Vec<u8> {
    let mut d = vec![u8::MAX; next.len()];
    let mut queue = std::collections::VecDeque::new();
    for c in from {
        d[*c] = 0;
        queue.push_back(*c);
    }
    while let Some(c) = queue.pop_front() {
        for t in &next[c] {
            if d[*t] == u8::MAX && d[c] < u8::MAX - 1 {
                d[*t] = d[c] + 1;
                queue.push_back(*t);
            }
        }
    }
    d
}
