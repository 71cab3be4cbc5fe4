//! Promotion: for each player and kind, where and into what a piece promotes, and which
//! moves the tables mark as promoting.

use super::*;

/// What a piece may become when a move touches its zone.
#[derive(Clone, Debug)]
pub struct PromotionRule {
    /// Per cell: whether it lies in the zone (of any statement in force).
    pub zone: Vec<bool>,
    pub to: Vec<PieceId>,
    /// Per kind of `to`: the most of it the player may have on the board for a
    /// promotion to it (as many as the setup gives, with `only to kinds the player has
    /// lost`; otherwise no limit).
    pub limit: Vec<u32>,
    pub optional: bool,
    /// Forced where the piece could never move again.
    pub forced_if_stuck: bool,
    /// A chain of captures entering the zone promotes there and goes on as `to[0]`.
    pub at_once: bool,
    /// With `when.standing`: also anywhere while the player has no other piece of the
    /// kind on the board.
    pub alone: bool,
    /// Not made where the move gives check or the new piece attacks an enemy piece.
    pub quiet: bool,
    pub when: crate::model::Trigger,
    /// Every statement in force for the player, the first included: its zone's cells
    /// and the moves it promotes.
    pub ways: Vec<(Vec<bool>, crate::model::Trigger)>,
    /// Whether a way promotes on moving `through` its zone.
    pub through: bool,
}

impl PromotionRule {
    /// How a move from `from` to `to` promotes: allowed when it starts in, ends in or
    /// passes the zone as a way says (`passes` tells whether its path meets the zone of
    /// the way of that index);
    /// forced when declared so, or (when the rule says so) where the piece is `stuck`,
    /// with no move from `to`. One of [`NO_PROMOTION`], [`MAY_PROMOTE`] and
    /// [`MUST_PROMOTE`], with [`ON_CAPTURE`] where only a capture promotes.
    pub fn mark(
        &self,
        from: Cell,
        to: Cell,
        passes: impl Fn(usize, &[bool]) -> bool,
        stuck: bool,
    ) -> u8 {
        // The ways that apply: any at all, and any for a move that captures nothing.
        let (mut applies, mut quietly) = (false, false);
        for (i, (zone, when)) in self.ways.iter().enumerate() {
            let z = |c: Cell| zone[c.index()];
            let way = (when.from && z(from))
                || (when.into && z(to))
                || (when.entering && z(to) && !z(from))
                || (when.through && passes(i, zone));
            applies |= way;
            quietly |= way && !when.capturing;
        }
        let stuck = self.forced_if_stuck && stuck;
        let on_capture = if quietly { 0 } else { ON_CAPTURE };
        match applies {
            false => NO_PROMOTION,
            true if self.optional && !stuck => MAY_PROMOTE | on_capture,
            true => MUST_PROMOTE | on_capture,
        }
    }
}

/// Each (player, piece)'s promotion: the first statement in force for the player (those
/// naming the player before those naming none), with the ways the others add (the
/// checker makes sure they offer the same).
pub(super) fn promotion_rules(
    v: &Variant,
    options: &[bool],
    royal: u64,
) -> Vec<Option<PromotionRule>> {
    let mut out = Vec::new();
    for pl in 0..v.players.len() {
        for (pi, piece) in v.pieces.iter().enumerate() {
            // The statements for this player, or where none is, those for every player.
            let own = piece
                .promotion
                .iter()
                .any(|p| holds(p.guard, options) && p.player.is_some_and(|q| q.0 as usize == pl));
            let in_force = || {
                piece.promotion.iter().filter(move |p| {
                    holds(p.guard, options)
                        && match p.player {
                            Some(q) => q.0 as usize == pl,
                            None => !own,
                        }
                })
            };
            let zone_of = |p: &crate::model::Promotion| {
                let mut zone = vec![false; v.board.len()];
                for c in &v.zones[p.zone].cells[pl] {
                    zone[c.index()] = true;
                }
                zone
            };
            let ways: Vec<_> = in_force().map(|p| (zone_of(p), p.when)).collect();
            out.push(in_force().next().map(|p| {
                // Every cell some way promotes in.
                let mut zone = zone_of(p);
                for (z, _) in &ways {
                    zone.iter_mut().zip(z).for_each(|(a, b)| *a |= b);
                }
                let to: Vec<PieceId> = if p.to.is_empty() {
                    (0..v.pieces.len())
                        .filter(|&k| k != pi && royal & (1 << k) == 0)
                        .map(|k| PieceId(k as u8))
                        .collect()
                } else {
                    p.to.clone()
                };
                let limit = to
                    .iter()
                    .map(|k| {
                        let lost = match p.lost_only {
                            true => start_count(v, PlayerId(pl as u8), *k),
                            false => u32::MAX,
                        };
                        p.most
                            .iter()
                            .filter(|(m, _)| m == k)
                            .fold(lost, |l, (_, n)| l.min(*n))
                    })
                    .collect();
                PromotionRule {
                    zone,
                    to,
                    limit,
                    optional: p.optional,
                    forced_if_stuck: p.forced_if_stuck,
                    at_once: p.at_once,
                    alone: p.alone,
                    quiet: p.quiet,
                    when: p.when,
                    ways: ways.clone(),
                    through: ways.iter().any(|(_, w)| w.through),
                }
            }));
        }
    }
    out
}

/// How many pieces of a kind the setup gives a player, fixed and drawn at random.
pub(super) fn start_count(v: &Variant, player: PlayerId, kind: PieceId) -> u32 {
    let fixed = v
        .setup
        .iter()
        .filter(|p| p.player == player && p.piece == kind)
        .count();
    let drawn = v
        .random
        .iter()
        .flat_map(|r| &r.pools)
        .filter(|p| p.player == player);
    (fixed
        + drawn
            .flat_map(|p| &p.pieces)
            .filter(|k| **k == kind)
            .count()) as u32
}

/// Sets each entry's promotion: allowed when the move starts in, ends in or passes the
/// zone as the rule says; forced when declared so, or (when the rule says so) where
/// the piece could never move again from where it lands.
pub(super) fn mark_promotions<S: Width>(rules: &mut Rules) {
    let marks = promotion_marks::<S>(rules, &rules.entries, &rules.offsets);
    let jump_marks = promotion_marks::<S>(rules, &rules.jump_entries, &rules.jump_offsets);
    for (e, m) in rules.entries.iter_mut().zip(marks) {
        e.promote = m;
    }
    for (e, m) in rules.jump_entries.iter_mut().zip(jump_marks) {
        e.promote = m;
    }
}

/// The promotion of each of `entries`, in runs as `offsets` gives them (see
/// [`mark_promotions`]).
fn promotion_marks<S: Width>(rules: &Rules, entries: &[MoveEntry], offsets: &[u32]) -> Vec<u8> {
    let v = &rules.variant;
    let (players, pieces, cells) = (v.players.len(), v.pieces.len(), v.board.len());
    let mut marks = vec![NO_PROMOTION; entries.len()];
    for pl in 0..players {
        for pc in 0..pieces {
            let Some(p) = &rules.promotions[pl * pieces + pc] else {
                continue;
            };
            let base = (pl * pieces + pc) * cells;
            for from in 0..cells {
                let run = base + from;
                for i in offsets[run]..offsets[run + 1] {
                    let e = entries[i as usize];
                    let to = base + e.to.index();
                    let stuck = rules.offsets[to] == rules.offsets[to + 1];
                    let passes = |_, zone: &[bool]| {
                        rules
                            .sets::<S>()
                            .paths(&e)
                            .any(|m| m.iter().any(|c| zone[c.index()]))
                    };
                    marks[i as usize] = p.mark(Cell(from as u16), e.to, passes, stuck);
                }
            }
        }
    }
    marks
}

/// Per piece without a `+` code: the first kind declared that promotes to it.
pub(super) fn promotion_base(
    promotions: &[Option<PromotionRule>],
    demote: &[PieceId],
) -> Vec<Option<PieceId>> {
    let pieces = demote.len();
    let mut promotion_base = vec![None; pieces];
    for (i, rule) in promotions.iter().enumerate() {
        let base = PieceId((i % pieces) as u8);
        // Turning back to its own unpromoted side is no promotion to remember.
        for k in rule
            .iter()
            .flat_map(|r| &r.to)
            .filter(|k| demote[base.0 as usize] != **k)
        {
            let slot = &mut promotion_base[k.0 as usize];
            if demote[k.0 as usize] == *k && slot.is_none_or(|b: PieceId| b > base) {
                *slot = Some(base);
            }
        }
    }
    promotion_base
}
