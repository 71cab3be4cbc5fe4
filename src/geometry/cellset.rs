//! Sets of cells as bit sets sized to the board: one machine word for boards of up to
//! 64 cells, two for up to 128, and [`Wide`] beyond. The move tables and positions are
//! generic over [`CellSet`]; the width is chosen once, when a variant is compiled.

use super::Cell;
use std::fmt::Debug;

/// A set of cells, one bit per cell index.
pub trait CellSet: Copy + Ord + Debug + Send + Sync + 'static {
    /// How many cells the set can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;
    /// A must-be-empty set as move tables store it: the set itself for one or two
    /// words; for wide sets, a run of [`MaskWord`]s naming only the words in use.
    type Mask: Copy + Debug + PartialEq;
    /// One `u16` per cell, holding what stands there.
    type Slots: AsRef<[u16]> + AsMut<[u16]> + Copy + Debug + Eq;

    /// Every slot empty.
    fn slots() -> Self::Slots;
    fn contains(&self, c: Cell) -> bool;
    fn insert(&mut self, c: Cell);
    fn remove(&mut self, c: Cell);
    fn is_empty(&self) -> bool;
    fn len(&self) -> usize;
    fn union(&self, other: &Self) -> Self;
    fn intersection(&self, other: &Self) -> Self;
    fn difference(&self, other: &Self) -> Self;
    /// Removes and returns the lowest cell.
    fn pop_first(&mut self) -> Option<Cell>;
    /// [`CellSet::pop_first`] for a set with no cell below word `*word`, which it
    /// moves up to the word of the cell returned.
    #[inline]
    fn pop_first_from(&mut self, word: &mut usize) -> Option<Cell> {
        let _ = word;
        self.pop_first()
    }
    /// Stores a set in move tables; wide sets append their words to `pool`.
    fn pack(&self, pool: &mut Vec<MaskWord>) -> Self::Mask;
    /// Whether no cell of a stored mask is in this set.
    fn misses(&self, mask: &Self::Mask, pool: &[MaskWord]) -> bool;
    /// The set a stored mask holds.
    fn unpack(mask: &Self::Mask, pool: &[MaskWord]) -> Self;
    /// This set's cells that a stored mask holds.
    fn within(&self, mask: &Self::Mask, pool: &[MaskWord]) -> Self;
    /// How many of this set's cells a stored mask holds.
    fn count_within(&self, mask: &Self::Mask, pool: &[MaskWord]) -> usize;
    /// This set, a line of cells, up to and including its first cell in `occupied`,
    /// going up the cell numbers (or down, with `falling`): what a piece sliding along
    /// the line reaches.
    fn reach_along(&self, occupied: &Self, falling: bool) -> Self;
    /// Each cell moved `by` cell numbers up (down when negative); those that leave the
    /// set's capacity are dropped.
    fn shifted(&self, by: i32) -> Self;

    fn single(c: Cell) -> Self {
        let mut s = Self::EMPTY;
        s.insert(c);
        s
    }
    fn intersects(&self, other: &Self) -> bool {
        !self.intersection(other).is_empty()
    }
    fn is_subset(&self, other: &Self) -> bool {
        self.difference(other).is_empty()
    }
    /// The cells in index order, without allocating.
    fn iter(&self) -> Cells<Self> {
        Cells(*self, 0)
    }
    fn from_cells(cells: impl IntoIterator<Item = Cell>) -> Self {
        let mut s = Self::EMPTY;
        for c in cells {
            s.insert(c);
        }
        s
    }
}

/// Iterator over a set's cells, lowest first (with the word it has reached).
#[derive(Clone, Debug)]
pub struct Cells<S>(S, usize);

impl<S: CellSet> Iterator for Cells<S> {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        self.0.pop_first_from(&mut self.1)
    }
}

/// One 64-cell word of a stored wide mask: the word's index and its bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaskWord {
    pub index: u32,
    pub bits: u64,
}

macro_rules! word_set {
    ($t:ty, $cap:expr) => {
        impl CellSet for $t {
            const CAPACITY: usize = $cap;
            const EMPTY: Self = 0;
            type Mask = $t;
            type Slots = [u16; $cap];

            #[inline]
            fn slots() -> Self::Slots {
                [0; $cap]
            }
            #[inline]
            fn contains(&self, c: Cell) -> bool {
                self >> c.0 & 1 != 0
            }
            #[inline]
            fn insert(&mut self, c: Cell) {
                *self |= 1 << c.0;
            }
            #[inline]
            fn remove(&mut self, c: Cell) {
                *self &= !(1 << c.0);
            }
            #[inline]
            fn is_empty(&self) -> bool {
                *self == 0
            }
            #[inline]
            fn len(&self) -> usize {
                self.count_ones() as usize
            }
            #[inline]
            fn union(&self, other: &Self) -> Self {
                self | other
            }
            #[inline]
            fn intersection(&self, other: &Self) -> Self {
                self & other
            }
            #[inline]
            fn difference(&self, other: &Self) -> Self {
                self & !other
            }
            #[inline]
            fn pop_first(&mut self) -> Option<Cell> {
                if *self == 0 {
                    return None;
                }
                let c = Cell(self.trailing_zeros() as u16);
                *self &= *self - 1;
                Some(c)
            }
            #[inline]
            fn pack(&self, _: &mut Vec<MaskWord>) -> Self::Mask {
                *self
            }
            #[inline]
            fn misses(&self, mask: &Self::Mask, _: &[MaskWord]) -> bool {
                self & mask == 0
            }
            #[inline]
            fn unpack(mask: &Self::Mask, _: &[MaskWord]) -> Self {
                *mask
            }
            #[inline]
            fn within(&self, mask: &Self::Mask, _: &[MaskWord]) -> Self {
                self & mask
            }
            #[inline]
            fn count_within(&self, mask: &Self::Mask, _: &[MaskWord]) -> usize {
                match self & mask {
                    0 => 0,
                    x => x.count_ones() as usize,
                }
            }
            #[inline]
            fn shifted(&self, by: i32) -> Self {
                let n = by.unsigned_abs();
                if n >= <$t>::BITS {
                    0
                } else if by >= 0 {
                    self << n
                } else {
                    self >> n
                }
            }
            #[inline]
            fn reach_along(&self, occupied: &Self, falling: bool) -> Self {
                let stops = self & occupied;
                if stops == 0 {
                    *self
                } else if falling {
                    let high = (1 as $t) << (<$t>::BITS - 1 - stops.leading_zeros());
                    self & !(high - 1)
                } else {
                    let low = stops & stops.wrapping_neg();
                    self & (low | (low - 1))
                }
            }
        }
    };
}

word_set!(u64, 64);
word_set!(u128, 128);

/// A set of up to `64 * W` cells, for boards of more than 128: `Wide<8>` up to 512
/// cells, `Wide<16>` up to 1,024.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Wide<const W: usize>(pub [u64; W]);

/// Where a wide mask's words lie in the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaskRun {
    pub start: u32,
    pub len: u32,
}

macro_rules! wide_set {
    ($w:literal) => {
        impl CellSet for Wide<$w> {
            const CAPACITY: usize = 64 * $w;
            const EMPTY: Self = Wide([0; $w]);
            type Mask = MaskRun;
            type Slots = [u16; 64 * $w];

            fn slots() -> Self::Slots {
                [0; 64 * $w]
            }
            #[inline]
            fn contains(&self, c: Cell) -> bool {
                self.0[c.index() >> 6] >> (c.0 & 63) & 1 != 0
            }
            #[inline]
            fn insert(&mut self, c: Cell) {
                self.0[c.index() >> 6] |= 1 << (c.0 & 63);
            }
            #[inline]
            fn remove(&mut self, c: Cell) {
                self.0[c.index() >> 6] &= !(1 << (c.0 & 63));
            }
            #[inline]
            fn is_empty(&self) -> bool {
                self.0.iter().all(|w| *w == 0)
            }
            fn len(&self) -> usize {
                self.0.iter().map(|w| w.count_ones() as usize).sum()
            }
            #[inline]
            fn union(&self, other: &Self) -> Self {
                Wide(std::array::from_fn(|i| self.0[i] | other.0[i]))
            }
            #[inline]
            fn intersection(&self, other: &Self) -> Self {
                Wide(std::array::from_fn(|i| self.0[i] & other.0[i]))
            }
            #[inline]
            fn difference(&self, other: &Self) -> Self {
                Wide(std::array::from_fn(|i| self.0[i] & !other.0[i]))
            }
            #[inline]
            fn intersects(&self, other: &Self) -> bool {
                self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
            }
            #[inline]
            fn pop_first(&mut self) -> Option<Cell> {
                self.pop_first_from(&mut 0)
            }
            #[inline]
            fn pop_first_from(&mut self, word: &mut usize) -> Option<Cell> {
                while let Some(w) = self.0.get_mut(*word) {
                    if *w != 0 {
                        let c = Cell((*word * 64) as u16 + w.trailing_zeros() as u16);
                        *w &= *w - 1;
                        return Some(c);
                    }
                    *word += 1;
                }
                None
            }
            fn pack(&self, pool: &mut Vec<MaskWord>) -> MaskRun {
                let start = pool.len() as u32;
                for (i, w) in self.0.iter().enumerate().filter(|(_, w)| **w != 0) {
                    pool.push(MaskWord {
                        index: i as u32,
                        bits: *w,
                    });
                }
                MaskRun {
                    start,
                    len: pool.len() as u32 - start,
                }
            }
            #[inline]
            fn misses(&self, mask: &MaskRun, pool: &[MaskWord]) -> bool {
                pool[mask.start as usize..(mask.start + mask.len) as usize]
                    .iter()
                    .all(|w| self.0[w.index as usize & ($w - 1)] & w.bits == 0)
            }
            fn unpack(mask: &MaskRun, pool: &[MaskWord]) -> Self {
                let mut s = Self::EMPTY;
                for w in &pool[mask.start as usize..(mask.start + mask.len) as usize] {
                    s.0[w.index as usize & ($w - 1)] |= w.bits;
                }
                s
            }
            #[inline]
            fn within(&self, mask: &MaskRun, pool: &[MaskWord]) -> Self {
                let mut s = Self::EMPTY;
                for w in &pool[mask.start as usize..(mask.start + mask.len) as usize] {
                    let i = w.index as usize & ($w - 1);
                    s.0[i] = self.0[i] & w.bits;
                }
                s
            }
            #[inline]
            fn count_within(&self, mask: &MaskRun, pool: &[MaskWord]) -> usize {
                // Most words share no cell: they need no count.
                pool[mask.start as usize..(mask.start + mask.len) as usize]
                    .iter()
                    .map(|w| self.0[w.index as usize & ($w - 1)] & w.bits)
                    .filter(|x| *x != 0)
                    .map(|x| x.count_ones() as usize)
                    .sum()
            }
            fn shifted(&self, by: i32) -> Self {
                let (words, bits) = (by.unsigned_abs() as usize / 64, by.unsigned_abs() % 64);
                let word = |i: usize, back: usize| -> u64 {
                    let j = if by >= 0 {
                        i.checked_sub(back)
                    } else {
                        Some(i + back)
                    };
                    j.and_then(|j| self.0.get(j)).copied().unwrap_or(0)
                };
                Wide(std::array::from_fn(|i| {
                    let (near, far) = (word(i, words), word(i, words + 1));
                    match (by >= 0, bits) {
                        (_, 0) => near,
                        (true, b) => near << b | far >> (64 - b),
                        (false, b) => near >> b | far << (64 - b),
                    }
                }))
            }
            fn reach_along(&self, occupied: &Self, falling: bool) -> Self {
                let mut out = Self::EMPTY;
                for k in 0..$w {
                    let i = if falling { $w - 1 - k } else { k };
                    let stops = self.0[i] & occupied.0[i];
                    out.0[i] = self.0[i].reach_along(&stops, falling);
                    if stops != 0 {
                        break;
                    }
                }
                out
            }
        }
    };
}

wide_set!(8);
wide_set!(16);

#[cfg(test)]
mod tests;
