//! Walking the runtime's cell sets, kept in one place.

use crate::geometry::Cell;

/// Calls `f` on each cell of the set, lowest index first.
#[inline]
pub fn each_cell(mut set: u128, mut f: impl FnMut(Cell)) {
    while set != 0 {
        f(Cell(set.trailing_zeros() as u8));
        set &= set - 1;
    }
}

/// How many cells the set holds.
#[inline]
pub fn count(set: u128) -> u32 {
    set.count_ones()
}
