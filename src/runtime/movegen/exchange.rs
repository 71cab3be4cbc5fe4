//! Static exchange: what a capture wins once both sides have taken back on its cell
//! with their cheapest pieces for as long as that pays, found without playing a move.

use super::super::position::{Move, PositionOf, Special};
use crate::compile::{Rules, SetTables, Width};
use crate::geometry::Cell;
use crate::model::{PieceId, PlayerId};

/// Exchanges longer than this are cut short (each step takes a piece off the board).
const MAX_STEPS: usize = 64;

impl<S: Width> PositionOf<S> {
    /// What the move `m` wins for the mover, in the units of `values` (one per kind),
    /// when the two sides then take turns capturing on its destination with their
    /// least valuable piece (`cheapest_first` lists every kind by rising value), each
    /// free to stop: for a quiet move, what the piece that moved may lose there. Pins
    /// are not seen; a royal piece takes only where nothing could take it back. Where
    /// the move is not a plain one (landing on the cell of its victim, if any), captures
    /// explode or more than two play, it is the victim's value alone.
    pub fn exchange(
        &self,
        rules: &Rules,
        m: &Move,
        values: &[i32],
        cheapest_first: &[PieceId],
    ) -> i32 {
        let worth = |k: PieceId| values[k.0 as usize];
        let now = m.promotion.unwrap_or(m.piece);
        let mut gains = [0i32; MAX_STEPS];
        gains[0] = m.captured.map_or(0, |(_, v)| worth(v)) + worth(now) - worth(m.piece);
        let plain = matches!(m.special, Special::Plain | Special::Passing(_));
        if !plain
            || rules.explosion.is_some()
            || m.gate.is_some()
            || m.wall.is_some()
            || self.players() != 2
        {
            return gains[0];
        }
        let sets = rules.sets();
        let mover = self.to_move();
        let owner = PlayerId(1 - mover.0);
        let mut occupied = *self.occupied();
        occupied.remove(m.from);
        let (mut standing, mut side, mut d) = (now, owner, 0);
        while d + 1 < MAX_STEPS {
            // What taking `standing` would win if nothing took back, the most taking
            // can win: where stopping does as well, the side to take stops.
            let gain = worth(standing) - gains[d];
            if gain <= -gains[d] {
                break;
            }
            let Some((from, k)) =
                self.cheapest_taker(rules, sets, side, m.to, standing, &occupied, cheapest_first)
            else {
                break;
            };
            let other = if side == mover { owner } else { mover };
            if rules.royal & (1 << k.0) != 0 {
                let mut after = occupied;
                after.remove(from);
                if self
                    .cheapest_taker(rules, sets, other, m.to, k, &after, cheapest_first)
                    .is_some()
                {
                    break;
                }
            }
            d += 1;
            gains[d] = gain;
            occupied.remove(from);
            standing = k;
            side = other;
        }
        while d > 0 {
            gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
            d -= 1;
        }
        gains[0]
    }

    /// The cell and kind of `side`'s least valuable piece on `occupied` that could
    /// capture a piece of kind `standing` on `target`.
    #[allow(clippy::too_many_arguments)]
    fn cheapest_taker(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        side: PlayerId,
        target: Cell,
        standing: PieceId,
        occupied: &S,
        cheapest_first: &[PieceId],
    ) -> Option<(Cell, PieceId)> {
        let allowed = rules.capturable_by[standing.0 as usize];
        let used = self.used_bits(side);
        for &k in cheapest_first {
            if allowed & (1 << k.0) == 0 {
                continue;
            }
            let near = self.pieces_of(side, k).intersection(occupied);
            if near.is_empty() || !sets.attackers_among(rules.run(side, k, target), &near) {
                continue;
            }
            for from in near.iter() {
                let takes = rules.captures_between(side, k, from, target).any(|e| {
                    e.target.is_none_or(|t| t == standing)
                        && rules
                            .once_bit(k, e.tag)
                            .is_none_or(|b| used & (1 << b) == 0)
                        && self.open(rules, sets, e, occupied)
                });
                if takes {
                    return Some((from, k));
                }
            }
        }
        None
    }
}
