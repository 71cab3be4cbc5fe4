//! The transposition table: what earlier searches learnt about a position, by key.

use crate::runtime::Move;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is at least this (a cut-off).
    Lower,
    /// The score is at most this (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub best: Option<Move>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// The size of one slot.
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Option<Entry>>();

    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        let n = 1usize << bits;
        Table {
            slots: vec![None; n],
            mask: n - 1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(None);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry> {
        self.slots[key as usize & self.mask]
            .as_ref()
            .filter(|e| e.key == key)
    }

    /// Asks the processor to bring a key's slot near, so that a probe made after other
    /// work (generating the moves) does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.slots[key as usize & self.mask]);
    }

    /// Keeps the deeper of two results for the same position; a new position replaces.
    #[inline]
    pub fn store(&mut self, e: Entry) {
        let slot = &mut self.slots[e.key as usize & self.mask];
        if slot.is_none_or(|old| old.key != e.key || old.depth <= e.depth) {
            *slot = Some(e);
        }
    }
}

/// Asks the processor to bring `item` near: a hint, with no effect on what runs.
#[inline]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch only hints and never faults; every x86-64 has SSE.
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast())
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
