//! Where every move captures, no piece ever moves onto an empty cell and the occupied
//! cells only ever shrink: the pieces split for good into groups linked by moves, and
//! a group of one side alone never moves again, nor is taken.

use crate::compile::{Rules, Width};
use crate::geometry::{Cell, MAX_CELLS};
use crate::model::{PieceId, PlayerId};
use crate::runtime::PositionOf;

/// Per cell, the cells some move of some piece links it with, either way.
#[derive(Clone, Debug)]
pub(super) struct Links {
    ranges: Vec<(u32, u32)>,
    to: Vec<u16>,
}

impl Links {
    pub(super) fn new(rules: &Rules) -> Links {
        let v = &rules.variant;
        let mut next = vec![Vec::new(); v.board.len()];
        for p in (0..v.players.len()).map(|p| PlayerId(p as u8)) {
            for k in (0..v.pieces.len()).map(|k| PieceId(k as u8)) {
                for c in v.board.cells() {
                    for e in rules.moves(p, k, c) {
                        next[c.index()].push(e.to.index() as u16);
                        next[e.to.index()].push(c.index() as u16);
                    }
                }
            }
        }
        let mut ranges = Vec::with_capacity(next.len());
        let mut to = Vec::new();
        for mut t in next {
            t.sort_unstable();
            t.dedup();
            let first = to.len() as u32;
            to.extend(t);
            ranges.push((first, to.len() as u32));
        }
        Links { ranges, to }
    }

    fn of(&self, c: usize) -> &[u16] {
        let (a, b) = self.ranges[c];
        &self.to[a as usize..b as usize]
    }

    /// Adds to `out[p % 8]` the value of player `p`'s pieces that share a group with
    /// another player's.
    pub(super) fn live<S: Width>(&self, pos: &PositionOf<S>, values: &[i32], out: &mut [i32; 8]) {
        let occupied = pos.occupied();
        let mut seen = [false; MAX_CELLS];
        let mut queue = [0u16; MAX_CELLS];
        for start in occupied.iter() {
            if seen[start.index()] {
                continue;
            }
            let mut sums = [0i32; 8];
            let mut owners = 0u8;
            let (mut head, mut tail) = (0, 1);
            queue[0] = start.index() as u16;
            seen[start.index()] = true;
            while head < tail {
                let c = queue[head];
                head += 1;
                if let Some((p, k)) = pos.at(Cell(c)) {
                    sums[p.0 as usize % 8] += values[k.0 as usize];
                    owners |= 1 << (p.0 % 8);
                }
                for &t in self.of(c as usize) {
                    if !seen[t as usize] && occupied.contains(Cell(t)) {
                        seen[t as usize] = true;
                        queue[tail] = t;
                        tail += 1;
                    }
                }
            }
            if owners.count_ones() > 1 {
                for (o, s) in out.iter_mut().zip(sums) {
                    *o += s;
                }
            }
        }
    }
}
