//! Every cell-set width against a plain `BTreeSet` model, on random sets.

use super::{CellSet, MaskWord, Wide};
use crate::geometry::Cell;
use std::collections::BTreeSet;

/// A small generator of its own, so that the sets stay those the test was written with.
struct Lcg(u64);

impl Lcg {
    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize % n
    }
}

fn random_cells(rng: &mut Lcg, capacity: usize) -> BTreeSet<u16> {
    let n = rng.below(12);
    (0..n).map(|_| rng.below(capacity) as u16).collect()
}

fn agrees<S: CellSet>(seed: u64) {
    let mut rng = Lcg(seed);
    for _ in 0..300 {
        let (a, b) = (
            random_cells(&mut rng, S::CAPACITY),
            random_cells(&mut rng, S::CAPACITY),
        );
        let set = |m: &BTreeSet<u16>| S::from_cells(m.iter().map(|c| Cell(*c)));
        let (sa, sb) = (set(&a), set(&b));
        let cells = |s: S| s.iter().map(|c| c.0).collect::<Vec<u16>>();
        assert_eq!(cells(sa), a.iter().copied().collect::<Vec<_>>());
        assert_eq!(sa.len(), a.len());
        assert_eq!(sa.is_empty(), a.is_empty());
        assert_eq!(
            cells(sa.union(&sb)),
            a.union(&b).copied().collect::<Vec<_>>()
        );
        assert_eq!(
            cells(sa.intersection(&sb)),
            a.intersection(&b).copied().collect::<Vec<_>>()
        );
        assert_eq!(
            cells(sa.difference(&sb)),
            a.difference(&b).copied().collect::<Vec<_>>()
        );
        assert_eq!(sa.intersects(&sb), !a.is_disjoint(&b));
        assert_eq!(sa.is_subset(&sb), a.is_subset(&b));
        let probe = rng.below(S::CAPACITY) as u16;
        assert_eq!(sa.contains(Cell(probe)), a.contains(&probe));
        let mut removed = sa;
        removed.remove(Cell(probe));
        assert!(!removed.contains(Cell(probe)));
        // A stored mask misses exactly the sets it does not meet.
        let mut pool: Vec<MaskWord> = vec![];
        let mask = sb.pack(&mut pool);
        assert_eq!(sa.misses(&mask, &pool), a.is_disjoint(&b));
        // Read through a stored mask (after another in the pool), the cells in common.
        let mut pool: Vec<MaskWord> = vec![];
        sa.pack(&mut pool);
        let mask = sb.pack(&mut pool);
        let common: Vec<u16> = a.intersection(&b).copied().collect();
        assert_eq!(cells(sa.within(&mask, &pool)), common);
        assert_eq!(sa.count_within(&mask, &pool), common.len());
        // Moved by a number of cells, those still on the board.
        let by = rng.below(2 * S::CAPACITY) as i32 - S::CAPACITY as i32;
        for by in [by, 1, -1, 63, -63, 64, -64, 65] {
            let moved: Vec<u16> = a
                .iter()
                .map(|c| *c as i32 + by)
                .filter(|c| (0..S::CAPACITY as i32).contains(c))
                .map(|c| c as u16)
                .collect();
            assert_eq!(cells(sa.shifted(by)), moved, "by {by}");
        }
        // Along a line, the cells before the first occupied one, and that one.
        // (Big sets rarely meet at random: the stops are tried with a cell of the line.)
        let mut met = b.clone();
        if !a.is_empty() {
            met.insert(*a.iter().nth(rng.below(a.len())).unwrap());
        }
        for (stops, falling) in [(&b, false), (&b, true), (&met, false), (&met, true)] {
            let mut along: Vec<u16> = a.iter().copied().collect();
            if falling {
                along.reverse();
            }
            let stop = along.iter().position(|c| stops.contains(c));
            let mut reached: Vec<u16> = along[..stop.map_or(along.len(), |i| i + 1)].to_vec();
            reached.sort();
            assert_eq!(cells(sa.reach_along(&set(stops), falling)), reached);
        }
    }
}

#[test]
fn every_width_agrees_with_the_model() {
    agrees::<u64>(1);
    agrees::<u128>(2);
    agrees::<Wide<8>>(3);
    agrees::<Wide<16>>(4);
}

#[test]
fn the_last_cell_of_each_width_fits() {
    fn last<S: CellSet>() {
        let c = Cell(S::CAPACITY as u16 - 1);
        assert_eq!(S::single(c).iter().collect::<Vec<_>>(), [c]);
    }
    last::<u64>();
    last::<u128>();
    last::<Wide<8>>();
    last::<Wide<16>>();
}
