//! Legal move generation from the compiled tables.
//!
//! Moves are generated from the tables, then those that could leave a royal piece
//! attacked are tested. A move needs the test only when its side is in check, when
//! it moves a royal piece, castles or captures in passing, or when it leaves a cell
//! on some open path of an enemy attack on a royal piece.

use super::position::{Move, Position, Special};
use crate::check::{PieceId, PlayerId};
use crate::compile::{MAY_PROMOTE, MoveEntry, NO_PROMOTION, Rules};
use crate::geometry::Cell;

/// Iterates the cells of a set.
#[inline]
fn cells(mut set: u128) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = Cell(set.trailing_zeros() as u8);
            set &= set - 1;
            c
        })
    })
}

impl Position {
    /// Fills `out` with the legal moves of the side to move. `out` is cleared first and
    /// keeps its capacity, so a reused buffer never allocates.
    pub fn legal_moves(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        let me = self.to_move();
        let used = self.used_bits(me);
        let occupied = self.occupied();
        let (passed, passed_by, victim) = self.passed();
        let royals = self.royals(rules, me);
        // Cells whose leaving may expose a royal piece, and whether one is attacked.
        let (danger, in_check) = if royals == 0 {
            (0, false)
        } else {
            self.danger(rules, me, royals, occupied)
        };
        for from in cells(self.of_player(me)) {
            let Some((_, piece)) = self.at(from) else {
                continue;
            };
            let avoids = rules.avoids_attack[piece.0 as usize];
            let promotion = rules.promotion(me, piece);
            let careful = royals != 0
                && (in_check || danger & from.bit() != 0 || rules.royal & (1 << piece.0) != 0);
            let start = out.len();
            for e in rules.moves(me, piece, from) {
                let mut special = if e.passing != 0 {
                    Special::Passing(e.passing)
                } else {
                    Special::Plain
                };
                let captured = match self.at(e.to) {
                    None if passed & e.to.bit() != 0
                        && e.dest == crate::check::Dest::Enemy
                        && passed_by & (1 << piece.0) != 0 =>
                    {
                        let Some((pl, k)) = self.at(victim) else {
                            continue;
                        };
                        if !self.may_take(rules, e, piece, k) {
                            continue;
                        }
                        special = Special::InPassing(victim);
                        Some((pl, k))
                    }
                    None if e.dest.allows_empty() => None,
                    None => continue,
                    Some((pl, _)) if pl == me => continue,
                    Some((pl, k)) => {
                        if !e.dest.allows_enemy() || !self.may_take(rules, e, piece, k) {
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
                if out.len() > start
                    && out
                        .last()
                        .is_some_and(|m| m.to == e.to && m.tag == e.tag && m.from == from)
                {
                    continue;
                }
                if !rules.open(e, occupied) {
                    continue;
                }
                let m = Move {
                    from,
                    to: e.to,
                    piece,
                    captured,
                    tag: e.tag,
                    promotion: None,
                    special,
                };
                if avoids && self.attacked_after(rules, &m) {
                    continue;
                }
                if (careful || matches!(special, Special::InPassing(_)))
                    && royals != 0
                    && self.exposes(rules, &m, royals)
                {
                    continue;
                }
                match promotion {
                    Some(p) if e.promote != NO_PROMOTION => {
                        if e.promote == MAY_PROMOTE {
                            out.push(m);
                        }
                        for &k in &p.to {
                            out.push(Move {
                                promotion: Some(k),
                                ..m
                            });
                        }
                    }
                    _ => out.push(m),
                }
            }
        }
        if self.rights() != 0 {
            self.castling_moves(rules, me, royals, out);
        }
        if self.hand_kinds(me) != 0 {
            let block = if in_check {
                self.blocking_cells(rules, me, royals, occupied)
            } else {
                u128::MAX
            };
            self.drops(rules, me, block, out);
        }
    }

    /// The cells on which a new piece would close every open attack on `me`'s royal
    /// pieces: those on every open path of each.
    fn blocking_cells(&self, rules: &Rules, me: PlayerId, royals: u128, occupied: u128) -> u128 {
        let mut block = u128::MAX;
        for r in cells(royals) {
            let Some((_, royal)) = self.at(r) else {
                continue;
            };
            self.each_attack(rules, me, r, royal, 0, |e, _| {
                for m in rules.paths(e) {
                    if m & occupied == 0 {
                        block &= m;
                    }
                }
                block == 0
            });
        }
        block
    }

    /// Drops from `me`'s hand on empty cells within `allowed`, less what each kind's
    /// drop rules forbid.
    fn drops(&self, rules: &Rules, me: PlayerId, allowed: u128, out: &mut Vec<Move>) {
        let occupied = self.occupied();
        let empty = rules.variant.board.all() & !occupied & allowed;
        let mut kinds = self.hand_kinds(me);
        while kinds != 0 {
            let piece = PieceId(kinds.trailing_zeros() as u8);
            kinds &= kinds - 1;
            let rule = rules.drop_rules[piece.0 as usize];
            let mut to = empty & rules.drop_cells(me, piece);
            let mut near = rule.file_with;
            while near != 0 && to != 0 {
                let k = PieceId(near.trailing_zeros() as u8);
                near &= near - 1;
                for c in cells(self.pieces_of(me, k)) {
                    to &= !rules.file_of(me, c);
                }
            }
            let mut near = rule.attacked_by;
            while near != 0 && to != 0 {
                let k = PieceId(near.trailing_zeros() as u8);
                near &= near - 1;
                for c in cells(self.pieces_of(me, k)) {
                    for e in rules.moves(me, k, c) {
                        if e.dest.allows_enemy() && rules.open(e, occupied) {
                            to &= !e.to.bit();
                        }
                    }
                }
            }
            let checking = if rule.no_check || rule.no_mate {
                self.checking_drops(rules, me, piece, to)
            } else {
                0
            };
            if rule.no_check {
                to &= !checking;
            }
            let avoids = rules.avoids_attack[piece.0 as usize];
            for c in cells(to) {
                let m = Move {
                    from: c,
                    to: c,
                    piece,
                    captured: None,
                    tag: None,
                    promotion: None,
                    special: Special::Drop,
                };
                if avoids && self.attacked_after(rules, &m) {
                    continue;
                }
                if rule.no_mate && checking & c.bit() != 0 && self.mates(rules, &m) {
                    continue;
                }
                out.push(m);
            }
        }
    }

    /// Of the cells `to`, those from which `me`'s `piece` would attack an enemy royal.
    fn checking_drops(&self, rules: &Rules, me: PlayerId, piece: PieceId, to: u128) -> u128 {
        let mut out = 0;
        for p in (0..self.players()).map(PlayerId).filter(|p| *p != me) {
            for r in cells(self.royals(rules, p)) {
                let Some((_, royal)) = self.at(r) else {
                    continue;
                };
                if rules.capturable_by[royal.0 as usize] & (1 << piece.0) == 0 {
                    continue;
                }
                for (from, e) in rules.attacks_on(me, piece, r) {
                    if to & from.bit() != 0
                        && e.target.is_none_or(|t| t == royal)
                        && rules.open(e, self.occupied() | from.bit())
                    {
                        out |= from.bit();
                    }
                }
            }
        }
        out
    }

    /// Whether after `m` the next player has no legal move.
    fn mates(&self, rules: &Rules, m: &Move) -> bool {
        let mut after = self.clone();
        after.make(rules, m);
        let mut replies = Vec::new();
        after.legal_moves(rules, &mut replies);
        replies.is_empty()
    }

    /// Whether the piece of kind `mover` may take one of kind `victim` by entry `e`.
    #[inline]
    fn may_take(&self, rules: &Rules, e: &MoveEntry, mover: PieceId, victim: PieceId) -> bool {
        e.target.is_none_or(|t| t == victim)
            && rules.capturable_by[victim.0 as usize] & (1 << mover.0) != 0
    }

    /// The cells of `me`'s royal pieces.
    #[inline]
    fn royals(&self, rules: &Rules, me: PlayerId) -> u128 {
        let mut set = 0;
        let mut kinds = rules.royal;
        while kinds != 0 {
            let k = kinds.trailing_zeros();
            kinds &= kinds - 1;
            set |= self.pieces_of(me, PieceId(k as u8));
        }
        set
    }

    /// Whether any of `me`'s royal pieces is attacked now.
    pub fn in_check(&self, rules: &Rules) -> bool {
        let me = self.to_move();
        let royals = self.royals(rules, me);
        royals != 0 && self.danger(rules, me, royals, self.occupied()).1
    }

    /// The cells on open or blocked paths of enemy attacks on `me`'s royal pieces,
    /// and whether one such attack is open now.
    fn danger(&self, rules: &Rules, me: PlayerId, royals: u128, occupied: u128) -> (u128, bool) {
        let mut zone = 0;
        let mut check = false;
        for r in cells(royals) {
            let Some((_, royal)) = self.at(r) else {
                continue;
            };
            self.each_attack(rules, me, r, royal, 0, |e, _| {
                for m in rules.paths(e) {
                    zone |= m;
                    check |= m & occupied == 0;
                }
                false
            });
        }
        (zone, check)
    }

    /// Calls `f` on each capturing entry of another player's piece (not on `gone`)
    /// that could take `victim` on `target` if its path were open; stops when `f`
    /// answers true, and says whether it did.
    #[inline]
    fn each_attack(
        &self,
        rules: &Rules,
        me: PlayerId,
        target: Cell,
        victim: PieceId,
        gone: u128,
        mut f: impl FnMut(&MoveEntry, Cell) -> bool,
    ) -> bool {
        let allowed = rules.capturable_by[victim.0 as usize];
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
                let near = self.pieces_of(p, k) & rules.attackers_of(p, k, target) & !gone;
                for from in cells(near) {
                    for e in rules.between(p, k, from, target) {
                        if !e.dest.allows_enemy()
                            || e.target.is_some_and(|t| t != victim)
                            || rules
                                .once_bit(k, e.tag)
                                .is_some_and(|b| used & (1 << b) != 0)
                        {
                            continue;
                        }
                        if f(e, from) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether a cell would be attacked by another player on the given occupancy,
    /// with the pieces on `gone` removed, for a piece of kind `victim` standing there.
    #[inline]
    fn attacked(
        &self,
        rules: &Rules,
        me: PlayerId,
        target: Cell,
        victim: PieceId,
        occupied: u128,
        gone: u128,
    ) -> bool {
        self.each_attack(rules, me, target, victim, gone, |e, _| {
            rules.open(e, occupied)
        })
    }

    /// Whether `m` leaves one of the mover's royal pieces attacked.
    fn exposes(&self, rules: &Rules, m: &Move, royals: u128) -> bool {
        let me = self.to_move();
        let mut occupied = self.occupied();
        let mut royals = royals;
        let mut kinds: [(Cell, PieceId); 4] = [(Cell(0), PieceId(0)); 4];
        let mut moved = 0;
        let gone = m.capture_cell().map_or(0, Cell::bit);
        if let Special::Castle(i) = m.special {
            for (k, from, _) in &rules.castlings[i as usize].parts {
                occupied &= !from.bit();
                royals &= !from.bit();
                let _ = k;
            }
            for (k, _, to) in &rules.castlings[i as usize].parts {
                occupied |= to.bit();
                if rules.royal & (1 << k.0) != 0 && moved < kinds.len() {
                    royals |= to.bit();
                    kinds[moved] = (*to, *k);
                    moved += 1;
                }
            }
        } else {
            occupied = (occupied & !m.from.bit() & !gone) | m.to.bit();
            let now = m.promotion.unwrap_or(m.piece);
            royals &= !m.from.bit();
            if rules.royal & (1 << now.0) != 0 {
                royals |= m.to.bit();
                kinds[0] = (m.to, now);
                moved = 1;
            }
        }
        for r in cells(royals) {
            let kind = kinds[..moved]
                .iter()
                .find(|(c, _)| *c == r)
                .map(|(_, k)| *k)
                .or_else(|| self.at(r).map(|(_, k)| k));
            let Some(kind) = kind else { continue };
            if self.attacked(rules, me, r, kind, occupied, gone) {
                return true;
            }
        }
        false
    }

    /// Castling moves whose pieces are in place, cells empty and safe, and which leave
    /// no royal piece attacked.
    fn castling_moves(&self, rules: &Rules, me: PlayerId, royals: u128, out: &mut Vec<Move>) {
        let occupied = self.occupied();
        for (i, c) in rules.castlings.iter().enumerate() {
            if c.player != me || self.rights() & (1 << i) == 0 {
                continue;
            }
            if c.parts
                .iter()
                .any(|(k, from, _)| self.at(*from) != Some((me, *k)))
            {
                continue;
            }
            let moving = c.parts.iter().fold(0u128, |m, (_, f, _)| m | f.bit());
            if c.empty & occupied & !moving != 0 {
                continue;
            }
            let (first, from, to) = c.parts[0];
            if c.safe
                .iter()
                .any(|s| self.attacked(rules, me, *s, first, occupied, 0))
            {
                continue;
            }
            let m = Move {
                from,
                to,
                piece: first,
                captured: None,
                tag: None,
                promotion: None,
                special: Special::Castle(i as u8),
            };
            if royals != 0 && self.exposes(rules, &m, royals) {
                continue;
            }
            out.push(m);
        }
    }

    /// Whether, after `m`, another player could capture the moved piece where it lands.
    fn attacked_after(&self, rules: &Rules, m: &Move) -> bool {
        let occupied = (self.occupied() & !m.from.bit()) | m.to.bit();
        let gone = m.capture_cell().map_or(0, Cell::bit);
        self.attacked(rules, self.to_move(), m.to, m.piece, occupied, gone)
    }
}
