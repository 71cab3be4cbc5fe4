//! Legal move generation from the compiled tables, written once for every set width.

use super::position::{Move, PositionOf};
use crate::check::{PieceId, PlayerId};
use crate::compile::{Rules, SetTables, Width};

impl<S: Width> PositionOf<S> {
    /// Fills `out` with the legal moves of the side to move. `out` is cleared first and
    /// keeps its capacity, so a reused buffer never allocates.
    pub fn legal_moves(&self, rules: &Rules, out: &mut Vec<Move>) {
        self.legal_moves_in(rules, rules.sets(), out)
    }

    /// [`PositionOf::legal_moves`] with the rules' set tables already looked up.
    pub(super) fn legal_moves_in(&self, rules: &Rules, sets: &SetTables<S>, out: &mut Vec<Move>) {
        out.clear();
        let me = self.to_move();
        let used = self.used_bits(me);
        let occupied = self.occupied();
        for from in self.of_player(me).iter() {
            let Some((_, piece)) = self.at(from) else {
                continue;
            };
            let avoids = rules.avoids_attack[piece.0 as usize];
            let start = out.len();
            for e in rules.moves(me, piece, from) {
                let captured = match self.at(e.to) {
                    None if e.dest.allows_empty() => None,
                    None => continue,
                    Some((pl, _)) if pl == me => continue,
                    Some((pl, k)) => {
                        if !e.dest.allows_enemy()
                            || e.target.is_some_and(|t| t != k)
                            || rules.capturable_by[k.0 as usize] & (1 << piece.0) == 0
                        {
                            continue;
                        }
                        Some((pl, k))
                    }
                };
                if rules
                    .once_bit(piece, e.tag)
                    .is_some_and(|b| used & (1 << b) != 0)
                {
                    continue;
                }
                // Entries sharing (to, tag) are adjacent: keep the first that works.
                if out.len() > start && out.last().is_some_and(|m| m.to == e.to && m.tag == e.tag) {
                    continue;
                }
                if !sets.open(e, occupied) {
                    continue;
                }
                let m = Move {
                    from,
                    to: e.to,
                    piece,
                    captured,
                    tag: e.tag,
                };
                if avoids && self.attacked_after(rules, sets, &m) {
                    continue;
                }
                out.push(m);
            }
        }
    }

    /// Whether, after `m`, another player could capture the moved piece where it lands.
    fn attacked_after(&self, rules: &Rules, sets: &SetTables<S>, m: &Move) -> bool {
        let mut occupied = *self.occupied();
        occupied.remove(m.from);
        occupied.insert(m.to);
        let me = self.to_move();
        let allowed = rules.capturable_by[m.piece.0 as usize];
        let kinds = rules.variant.pieces.len();
        for p in 0..self.players() {
            let p = PlayerId(p);
            if p == me {
                continue;
            }
            let used = self.used_bits(p);
            for k in 0..kinds {
                let k = PieceId(k as u8);
                if allowed & (1 << k.0) == 0 {
                    continue;
                }
                // A piece captured by `m` no longer attacks.
                let mut near = self.pieces_of(p, k);
                near.remove(m.to);
                if near.is_empty() || !sets.attackers_among(rules.run(p, k, m.to), &near) {
                    continue;
                }
                for (from, e) in rules.attacks_on(p, k, m.to) {
                    if !near.contains(from)
                        || e.target.is_some_and(|t| t != m.piece)
                        || rules
                            .once_bit(k, e.tag)
                            .is_some_and(|b| used & (1 << b) != 0)
                    {
                        continue;
                    }
                    if sets.open(e, &occupied) {
                        return true;
                    }
                }
            }
        }
        false
    }
}
