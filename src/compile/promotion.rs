//! Promotion: for each player and kind, where and into what a piece promotes, and which
//! moves the tables mark as promoting.

use super::*;

/// What a piece may become when a move touches its zone.
#[derive(Clone, Debug)]
pub struct PromotionRule {
    /// Per cell: whether it lies in the zone.
    pub zone: Vec<bool>,
    pub to: Vec<PieceId>,
    /// Per kind of `to`: the most of it the player may have on the board for a
    /// promotion to it (as many as the setup gives, with `only to kinds the player has
    /// lost`; otherwise no limit).
    pub limit: Vec<u32>,
    pub optional: bool,
    /// Forced where the piece could never move again.
    pub forced_if_stuck: bool,
    /// With `when.standing`: also anywhere while the player has no other piece of the
    /// kind on the board.
    pub alone: bool,
    /// Not made where the move gives check or the new piece attacks an enemy piece.
    pub quiet: bool,
    pub when: crate::model::Trigger,
}

/// Each (player, piece)'s promotion: the first rule for the player whose guard holds.
pub(super) fn promotion_rules(
    v: &Variant,
    options: &[bool],
    royal: u64,
) -> Vec<Option<PromotionRule>> {
    let mut out = Vec::new();
    for pl in 0..v.players.len() {
        for (pi, piece) in v.pieces.iter().enumerate() {
            out.push(
                piece
                    .promotion
                    .iter()
                    .find(|p| {
                        holds(p.guard, options) && p.player.is_none_or(|q| q.0 as usize == pl)
                    })
                    .map(|p| {
                        let mut zone = vec![false; v.board.len()];
                        for c in &v.zones[p.zone].cells[pl] {
                            zone[c.index()] = true;
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
                            alone: p.alone,
                            quiet: p.quiet,
                            when: p.when,
                        }
                    }),
            );
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
    let v = &rules.variant;
    let (players, pieces, cells) = (v.players.len(), v.pieces.len(), v.board.len());
    for pl in 0..players {
        for pc in 0..pieces {
            let Some(p) = rules.promotions[pl * pieces + pc].clone() else {
                continue;
            };
            let z = |c: Cell| p.zone[c.index()];
            let base = (pl * pieces + pc) * cells;
            for from in 0..cells {
                let run = base + from;
                for i in rules.offsets[run]..rules.offsets[run + 1] {
                    let e = rules.entries[i as usize];
                    let passes = || rules.sets::<S>().paths(&e).any(|m| m.iter().any(z));
                    let applies = (p.when.from && z(Cell(from as u16)))
                        || (p.when.into && z(e.to))
                        || (p.when.entering && z(e.to) && !z(Cell(from as u16)))
                        || (p.when.through && passes());
                    let to = base + e.to.index();
                    let stuck = p.forced_if_stuck && rules.offsets[to] == rules.offsets[to + 1];
                    rules.entries[i as usize].promote = match applies {
                        false => NO_PROMOTION,
                        true if p.optional && !stuck => MAY_PROMOTE,
                        true => MUST_PROMOTE,
                    };
                }
            }
        }
    }
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
