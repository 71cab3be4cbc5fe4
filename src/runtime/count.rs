//! Counts of moves to a draw: when one starts, and how it runs (see
//! [`crate::model::Count`] and docs/language.md, "Counting moves to a draw").

use super::position::{Position, PositionOf, View};
use crate::compile::{Rules, Width, by_width};
use crate::model::{PieceId, PlayerId};

/// A count that holds for a player: whether it is for a player with only royal
/// pieces, whether it starts from the pieces on the board, and its limit in moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Holding {
    bare: bool,
    from_pieces: bool,
    moves: u32,
}

impl Position {
    /// The running count of moves to a draw: its limit in plies and the plies counted.
    pub fn count(&self) -> Option<(u32, u32)> {
        by_width!(self.view(), View, p => p.count())
    }

    /// Whether the running count has passed its limit.
    pub fn count_ran_out(&self) -> bool {
        self.count().is_some_and(|(limit, ply)| ply > limit)
    }
}

impl<S: Width> PositionOf<S> {
    /// See [`Position::count`].
    pub fn count(&self) -> Option<(u32, u32)> {
        (self.count_limit > 0).then_some((self.count_limit, self.count_ply))
    }

    /// The first count that holds for `p` now; with `bare_only`, only a count for a
    /// player with only royal pieces (the others are not asked).
    fn holding(&self, rules: &Rules, p: PlayerId, bare_only: bool) -> Option<Holding> {
        let v = &rules.variant;
        if self.of_player(p).is_empty() {
            return None;
        }
        let non_royal = |q: PlayerId| {
            (0..v.pieces.len() as u8)
                .map(PieceId)
                .filter(|k| rules.royal & (1 << k.0) == 0)
                .any(|k| !self.pieces_of(q, k).is_empty())
        };
        let bare = !non_royal(p);
        if bare_only && !bare {
            return None;
        }
        // Each line of the player's sort is asked once, in order.
        let ruled_out = &rules.ends.count_ruled_out;
        let mut open = v
            .counts
            .iter()
            .zip(ruled_out)
            .filter(|(c, out)| c.bare == bare && !self.any_of_kinds(**out))
            .map(|(c, _)| c)
            .filter(|c| self.holds_in_place(rules, &c.condition, Some(p)))
            .peekable();
        open.peek()?;
        let others = || (0..self.players()).map(PlayerId).filter(move |&q| q != p);
        if !others().any(non_royal) {
            return None;
        }
        open.find_map(|c| {
            let limit = c.limits.iter().find(|l| {
                l.against.is_none_or(|(n, k)| {
                    let theirs: usize = others().map(|q| self.pieces_of(q, k).len()).sum();
                    theirs >= n as usize
                })
            })?;
            Some(Holding {
                bare,
                from_pieces: c.from_pieces,
                moves: limit.moves,
            })
        })
    }

    /// Whether a count for a player with only royal pieces holds, for the player to
    /// move and for the next one: asked before a move, for [`PositionOf::recount`].
    pub(super) fn bare_counts(&self, rules: &Rules) -> (bool, bool) {
        let me = self.to_move();
        let next = PlayerId((me.0 + 1) % self.players());
        let bare = |p| self.holding(rules, p, true).is_some();
        (bare(me), bare(next))
    }

    /// Moves the count on after `mover`'s move, `before` being what
    /// [`PositionOf::bare_counts`] said before it.
    pub(super) fn recount(&mut self, rules: &Rules, mover: PlayerId, before: (bool, bool)) {
        if self.count_limit > 0 {
            self.count_ply = self.count_ply.saturating_add(1);
        }
        let pieces = (self.occupied().len() - self.walls().len()) as u32;
        // The mover's own move took what stopped its count: it starts at once.
        if let Some(h) = self.holding(rules, mover, true)
            && h.from_pieces
            && !before.0
        {
            self.count_limit = 2 * h.moves;
            self.count_ply = (2 * pieces).saturating_sub(1);
        }
        if let Some(h) = self.holding(rules, self.to_move(), self.count_limit > 0)
            && (self.count_limit == 0 || !before.1)
        {
            self.count_limit = 2 * h.moves;
            self.count_ply = if h.from_pieces { 2 * pieces } else { 0 };
        }
    }
}
