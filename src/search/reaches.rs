//! What each piece's moves add to its side's worth (mobility and threats), kept from
//! one evaluation to the next: a piece's share is worked out again only when it moved
//! or a cell its moves look at changed, so after a move most pieces cost a comparison.

use crate::compile::Width;
use std::any::Any;

/// A piece's share, with the run it was found for and the cells its moves look at as
/// they stood then (occupied, and occupied by its own side).
#[derive(Clone, Copy)]
pub(super) struct Slot<S> {
    run: u32,
    occupied: S,
    own: S,
    worth: i32,
}

/// Per cell, the last share found for a piece there; sized to the board on first use.
#[derive(Default)]
pub(super) struct Reaches {
    slots: Option<Box<dyn Any + Send>>,
}

impl Reaches {
    /// Forgets every share.
    pub(super) fn clear(&mut self) {
        self.slots = None;
    }

    /// The slots for a board of `cells` cells at width `S`.
    pub(super) fn slots<S: Width>(&mut self, cells: usize) -> &mut [Slot<S>] {
        let fits = |b: &Box<dyn Any + Send>| {
            b.downcast_ref::<Vec<Slot<S>>>()
                .is_some_and(|v| v.len() == cells)
        };
        if !self.slots.as_ref().is_some_and(fits) {
            let empty = Slot {
                run: u32::MAX,
                occupied: S::EMPTY,
                own: S::EMPTY,
                worth: 0,
            };
            self.slots = Some(Box::new(vec![empty; cells]));
        }
        match self
            .slots
            .as_mut()
            .and_then(|b| b.downcast_mut::<Vec<Slot<S>>>())
        {
            Some(v) => v,
            None => &mut [],
        }
    }
}

impl<S: Width> Slot<S> {
    /// The share of the piece of `run` standing here: the one kept if `occupied` and
    /// `own` (already cut to the cells its moves look at) are as they were, else
    /// `work`'s, kept in turn.
    #[inline]
    pub(super) fn share(
        &mut self,
        run: usize,
        occupied: S,
        own: S,
        work: impl FnOnce() -> i32,
    ) -> i32 {
        if self.run == run as u32 && self.occupied == occupied && self.own == own {
            return self.worth;
        }
        *self = Slot {
            run: run as u32,
            occupied,
            own,
            worth: work(),
        };
        self.worth
    }
}
