//! Legal move generation from the compiled tables, written once for every set width.
//!
//! Moves are generated from the tables, then those that could leave a royal piece
//! attacked are tested. A move needs the test only when its side is in check, when
//! it moves a royal piece, castles or captures in passing, or when it leaves a cell
//! on some path of an enemy attack on a royal piece.

use super::position::{Move, PositionOf, Special};
use crate::compile::{
    JUMP_ENEMY, JUMP_FRIEND, MAY_PROMOTE, MOST_JUMPED, MoveEntry, NO_PROMOTION, ON_CAPTURE, Plain,
    PromotionRule, Rules, SetTables, Width,
};
use crate::geometry::Cell;
use crate::model::{Dest, Explosion, MoveKind, PieceId, PlayerId, Preference, Preferring, Walling};

mod exchange;
mod jumps;

impl<S: Width> PositionOf<S> {
    /// Fills `out` with the legal moves of the side to move. `out` is cleared first and
    /// keeps its capacity, so a reused buffer never allocates.
    pub fn legal_moves(&self, rules: &Rules, out: &mut Vec<Move>) {
        self.legal_moves_in(rules, rules.sets(), out)
    }

    /// [`PositionOf::legal_moves`] kept to those that pass `keep`, which is asked before
    /// a move gets its wall: where walls multiply moves, the others cost nothing.
    /// Returns whether the side to move has any legal move, kept or not.
    pub fn legal_moves_where(
        &self,
        rules: &Rules,
        out: &mut Vec<Move>,
        keep: impl Fn(&Move) -> bool,
    ) -> bool {
        let sets = rules.sets();
        self.moves_before_walls(rules, sets, false, out);
        let any = out.iter().any(|m| match self.wall_rule(rules, m) {
            Some(w) => !self.wall_cells(rules, sets, m, w).is_empty(),
            None => true,
        });
        out.retain(keep);
        if rules.walls {
            self.add_walls(rules, sets, out);
        }
        any
    }

    /// [`PositionOf::legal_moves`] with the rules' set tables already looked up.
    pub(super) fn legal_moves_in(&self, rules: &Rules, sets: &SetTables<S>, out: &mut Vec<Move>) {
        self.moves_before_walls(rules, sets, false, out);
        if rules.walls {
            self.add_walls(rules, sets, out);
        }
    }

    /// The legal moves that capture, and only those: cheaper than all the legal moves
    /// where few capture. Where a drop must be made when one can, as the rules allow.
    pub fn legal_captures(&self, rules: &Rules, out: &mut Vec<Move>) {
        let sets = rules.sets();
        // A compulsory kind of move other than captures may take the place of them.
        let wider = rules.variant.obligations.iter().any(|o| {
            o.compulsory
                && match o.kind {
                    MoveKind::Capture => false,
                    MoveKind::Drop => self.hand_kinds(self.to_move()) != 0,
                    MoveKind::Check | MoveKind::Promotion => true,
                }
        });
        if wider {
            self.legal_moves_in(rules, sets, out);
            out.retain(|m| m.captured.is_some());
            return;
        }
        self.moves_before_walls(rules, sets, true, out);
        if rules.walls {
            self.add_walls(rules, sets, out);
        }
    }

    /// The legal moves, but that none has its wall yet (see [`PositionOf::add_walls`]);
    /// with `captures`, only those that capture.
    fn moves_before_walls(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        captures: bool,
        out: &mut Vec<Move>,
    ) {
        out.clear();
        // Once every player has passed in turn the game is over.
        if self.all_passed() {
            return;
        }
        let me = self.to_move();
        let used = self.used_bits(me);
        let occupied = self.occupied();
        let (passed, victim) = self.passed_cells();
        let passed_by = self.passed_by(rules);
        let royals = self.royals(rules, me);
        // Cells whose leaving (or, on a hurdle's line, entering) may expose a royal
        // piece, and whether one is attacked.
        let Danger {
            leaving: danger,
            entering,
            check: in_check,
        } = if royals.is_empty() {
            Danger::default()
        } else {
            self.danger(rules, sets, me, &royals, occupied)
        };
        let between = if rules.facing.is_empty() {
            S::EMPTY
        } else {
            self.facing_lines(rules, sets, occupied)
        };
        // Pieces facing in a standoff: the player passes, even in check, or breaks it.
        let standoff = self.standing_off(rules, &rules.ends.standoffs);
        if standoff && self.passed_last() {
            return;
        }
        // Cells a copy already lands on: copies made from two cells are one move.
        let mut copied = S::EMPTY;
        // The cells a capture may end on: a piece whose moves look at none has none.
        let mut targets = occupied.difference(self.of_player(me));
        if passed_by != 0 {
            targets = targets.union(passed);
        }
        let empty = if captures {
            S::EMPTY
        } else {
            sets.all().difference(occupied)
        };
        let enemies = occupied.difference(self.of_player(me));
        // Where a move to any cell may end: an empty one, or one an enemy holds.
        let open_or_enemy = empty.union(&enemies);
        // Where nothing but a piece's own table decides its moves, plain leaps are
        // listed straight from it (see below).
        let plain_leaps = !rules.walls && !standoff;
        // A capture that explodes may blow up a royal piece of the mover's.
        let blasts = rules.explosion.is_some() && !royals.is_empty();
        // Pieces whose plain moves are shifts are moved a kind at a time; those left
        // with specials to walk stay in the loop below.
        let (shifted, walked) = if plain_leaps && (royals.is_empty() || !in_check) {
            self.shift_moves(
                rules, sets, &royals, &danger, &entering, &between, &empty, &enemies, blasts, out,
            )
        } else {
            (S::EMPTY, S::EMPTY)
        };
        for from in self
            .of_player(me)
            .difference(&shifted.difference(&walked))
            .iter()
        {
            let Some((_, piece)) = self.at(from) else {
                continue;
            };
            let jumps = rules.jump_kinds & (1 << piece.0) != 0;
            if captures && !jumps && !sets.looks_among(rules.run(me, piece, from), &targets) {
                continue;
            }
            if jumps {
                self.add_jumps(rules, sets, me, piece, from, captures, &royals, out);
            }
            // A piece whose every move ends on its own side's pieces (a pawn in a
            // crowd) has none: its table is not walked.
            let run = rules.run(me, piece, from);
            if !sets.may_land(run, &empty, &targets) {
                continue;
            }
            let avoids = rules.avoids_attack[piece.0 as usize];
            let promotion = rules.promotion(me, piece);
            let careful = !royals.is_empty()
                && (in_check
                    || danger.contains(from)
                    || rules.royal & (1 << piece.0) != 0
                    || rules.enclosure_captures);
            // Plain moves by a piece that takes anything and risks nothing by moving:
            // its moves are the cells it reaches that its own side does not hold; then
            // only the run's other entries are walked.
            let mut only: &[MoveEntry] = &[];
            let plain = if plain_leaps {
                rules.plain(run)
            } else {
                Plain::No
            };
            if shifted.contains(from) {
                only = rules.specials(run);
            } else if plain != Plain::No
                && !careful
                && !avoids
                && rules.captures_every & (1 << piece.0) != 0
                && rules.facing_kinds & (1 << piece.0) == 0
                && passed_by & (1 << piece.0) == 0
                && !between.contains(from)
            {
                let ends = if plain == Plain::Leaps {
                    sets.landings_in(run, &open_or_enemy)
                } else {
                    let [any, quiet, taking] = sets.reach(run, occupied);
                    any.intersection(&open_or_enemy)
                        .union(&taking.intersection(&enemies))
                        .union(&quiet.intersection(&empty))
                };
                for to in ends.iter() {
                    self.push_plain(
                        rules,
                        sets,
                        (from, to, piece),
                        &entering,
                        blasts,
                        &royals,
                        out,
                    );
                }
                if plain == Plain::Leaps {
                    continue;
                }
                only = rules.specials(run);
                if only.is_empty() {
                    continue;
                }
            }
            let start = out.len();
            let entries = if only.is_empty() {
                rules.moves(me, piece, from)
            } else {
                only
            };
            let mut next = 0;
            while let Some(e) = entries.get(next) {
                next += 1;
                // A piece on the entry's cell or path closes the entries it shades; a
                // closed path closes the entry too (unless its kinds decide that).
                let (skip, open) = sets.shade(e, occupied);
                next += skip;
                if open == Some(false) && e.barred == 0 {
                    continue;
                }
                let known_open = open == Some(true) && e.barred == 0;
                if rules.walls && self.walls().contains(e.to) {
                    continue;
                }
                let mut special = if e.copy() {
                    if copied.contains(e.to) {
                        continue;
                    }
                    Special::Copy
                } else if e.passing != 0 {
                    Special::Passing(e.passing)
                } else {
                    Special::Plain
                };
                let captured = match self.at(e.to) {
                    None if passed_by & (1 << piece.0) != 0
                        && e.dest == Dest::Enemy
                        && passed.contains(e.to) =>
                    {
                        let Some((pl, k)) = self.at(victim) else {
                            continue;
                        };
                        if pl == me || !may_take(rules, e, piece, k) {
                            continue;
                        }
                        special = Special::InPassing(victim);
                        Some((pl, k))
                    }
                    None if e.dest.allows_empty() && !captures => None,
                    None => continue,
                    Some((pl, _)) if pl == me => continue,
                    Some((pl, k)) => {
                        if !e.dest.allows_enemy() || !may_take(rules, e, piece, k) {
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
                if !(known_open || self.open(rules, sets, e, occupied))
                    || !self.near_allows(sets, e, me)
                {
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
                    wall: None,
                    gate: None,
                };
                if avoids && self.attacked_after(rules, sets, &m) {
                    continue;
                }
                let explodes = captured.is_some() && rules.explosion.is_some();
                if (careful
                    || explodes
                    || matches!(special, Special::InPassing(_))
                    || entering.contains(e.to))
                    && !royals.is_empty()
                    && self.exposes(rules, sets, &m, &royals)
                {
                    continue;
                }
                if (rules.facing_kinds & (1 << piece.0) != 0 || between.contains(from))
                    && self.faces_after(rules, &rules.facing, &m)
                {
                    continue;
                }
                if standoff && self.faces_after(rules, &rules.ends.standoffs, &m) {
                    continue;
                }
                if e.copy() {
                    copied.insert(e.to);
                }
                match promotion {
                    Some(_) if e.promote != NO_PROMOTION => {
                        self.push_promoting(rules, sets, promotion, e, m, &royals, out)
                    }
                    _ => out.push(m),
                }
            }
        }
        if rules.standing_promotions && !captures {
            self.standing_promotions(rules, sets, &royals, in_check, &danger, out);
        }
        if self.rights() != 0 && !captures {
            self.castling_moves(rules, sets, me, &royals, out);
        }
        let pass = match rules.variant.pass.filter(|_| !captures) {
            Some(except_in_check) if !(except_in_check && in_check && !standoff) => royals
                .iter()
                .next()
                .or_else(|| self.of_player(me).iter().next())
                .and_then(|at| self.at(at).map(|(_, piece)| (at, piece))),
            _ => None,
        }
        .map(|(at, piece)| Move {
            from: at,
            to: at,
            piece,
            captured: None,
            tag: None,
            promotion: None,
            special: Special::Pass,
            wall: None,
            gate: None,
        });
        let last_resort = rules.variant.pass_if_stuck;
        if let Some(m) = pass.filter(|_| !last_resort) {
            out.push(m);
        }
        if self.hand_kinds(me) != 0 && !captures && !rules.variant.gates.is_some_and(|g| g.only) {
            // A drop that captures by enclosure may take the checker, or open a line.
            let judged = rules.enclosure_captures && !royals.is_empty();
            let block = if in_check && !rules.royal_together && !judged {
                self.blocking_cells(rules, sets, me, &royals, occupied)
            } else {
                *sets.all()
            };
            let first = out.len();
            self.drops(rules, sets, me, &block, out);
            if in_check && rules.royal_together || judged {
                // A drop that shields any one royal piece ends the check.
                let mut kept = first;
                for i in first..out.len() {
                    let m = out[i];
                    if !self.exposes(rules, sets, &m, &royals) {
                        out[kept] = m;
                        kept += 1;
                    }
                }
                out.truncate(kept);
            }
        }
        if self.open_gates() != 0 {
            self.add_gatings(rules, sets, me, out);
        }
        if rules.quiet_promotions {
            out.retain(|m| !self.loud_promotion(rules, sets, m));
        }
        if in_check && rules.check_bound != 0 {
            let lone = self.lone_checker(rules, sets, me, &royals, occupied);
            out.retain(|m| {
                rules.check_bound & (1 << m.piece.0) == 0
                    || (m.captured.is_some() && Some(m.capture_cell().unwrap_or(m.to)) == lone)
            });
        }
        if rules.guarding != 0 || self.struck().is_some() {
            out.retain(|m| self.guards_allow(rules, m));
        }
        if !rules.variant.obligations.is_empty() {
            self.oblige(rules, out);
        }
        // Where walls are still to come, a move may yet find no wall: the pass waits
        // in the list, and `add_walls` takes it out if another move stays.
        if let Some(m) = pass.filter(|_| last_resort && (out.is_empty() || rules.walls)) {
            out.push(m);
        }
    }

    /// Adds the plain move `(from, to, piece)` unless it leaves a royal piece attacked:
    /// tested when it enters a cell of `entering` or, with `blasts`, captures.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn push_plain(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        (from, to, piece): (Cell, Cell, PieceId),
        entering: &S,
        blasts: bool,
        royals: &S,
        out: &mut Vec<Move>,
    ) {
        let m = Move {
            from,
            to,
            piece,
            captured: self.at(to),
            tag: None,
            promotion: None,
            special: Special::Plain,
            wall: None,
            gate: None,
        };
        if (entering.contains(to) || blasts && m.captured.is_some())
            && self.exposes(rules, sets, &m, royals)
        {
            return;
        }
        out.push(m);
    }

    /// Adds the plain moves of the side to move's kinds that move by shifts (see
    /// [`SetTables::shifts`]), a kind at a time, for the pieces that risk nothing by
    /// moving (off `danger` and `between`; with `blasts`, a capture is tested, as its
    /// explosion may take a royal piece); returns the cells of those pieces, and those
    /// of them with specials still to walk.
    #[allow(clippy::too_many_arguments)]
    fn shift_moves(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        royals: &S,
        danger: &S,
        entering: &S,
        between: &S,
        empty: &S,
        enemies: &S,
        blasts: bool,
        out: &mut Vec<Move>,
    ) -> (S, S) {
        let me = self.to_move();
        let pieces = rules.variant.pieces.len();
        let mut kinds = sets.shift_kinds(me.0 as usize)
            & !rules.royal
            & !self.passed_by(rules)
            & rules.captures_every
            & !rules.facing_kinds;
        if !royals.is_empty() && rules.enclosure_captures {
            kinds = 0;
        }
        let (mut shifted, mut walked) = (S::EMPTY, S::EMPTY);
        let open_or_enemy = empty.union(enemies);
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            if rules.avoids_attack[k] {
                continue;
            }
            let piece = PieceId(k as u8);
            let ((starts, walks), list) = sets.shifts(me.0 as usize, k, pieces);
            let movers = self
                .pieces_of(me, piece)
                .intersection(starts)
                .difference(danger)
                .difference(between);
            if movers.is_empty() {
                continue;
            }
            shifted = shifted.union(&movers);
            walked = walked.union(&movers.intersection(walks));
            for (from, by, dest) in list {
                let ends = match dest {
                    Dest::Either => &open_or_enemy,
                    Dest::Empty => empty,
                    Dest::Enemy => enemies,
                };
                for to in movers
                    .intersection(&from)
                    .shifted(by)
                    .intersection(ends)
                    .iter()
                {
                    let from = Cell((to.0 as i32 - by) as u16);
                    self.push_plain(
                        rules,
                        sets,
                        (from, to, piece),
                        entering,
                        blasts,
                        royals,
                        out,
                    );
                }
            }
        }
        (shifted, walked)
    }

    /// Adds `m`, made by entry `e`, once for each promotion it may or must make; kept
    /// out of line, as few moves promote.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn push_promoting(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        promotion: Option<&PromotionRule>,
        e: &MoveEntry,
        m: Move,
        royals: &S,
        out: &mut Vec<Move>,
    ) {
        let me = self.to_move();
        match promotion {
            Some(p)
                if e.promote != NO_PROMOTION
                    && (e.promote & ON_CAPTURE == 0 || m.captured.is_some()) =>
            {
                if e.promote & !ON_CAPTURE == MAY_PROMOTE {
                    out.push(m);
                }
                for (&k, &most) in p.to.iter().zip(&p.limit) {
                    if most != u32::MAX && self.pieces_of(me, k).len() as u32 >= most {
                        continue;
                    }
                    let promoted = Move {
                        promotion: Some(k),
                        ..m
                    };
                    // A piece made royal must be as safe as any royal piece, where
                    // each royal piece may be in check on its own.
                    if !rules.royal_together
                        && !rules.royal_alone
                        && rules.royal & (1 << k.0) != 0
                        && rules.royal & (1 << m.piece.0) == 0
                        && self.exposes(rules, sets, &promoted, royals)
                    {
                        continue;
                    }
                    out.push(promoted);
                }
            }
            _ => out.push(m),
        }
    }

    /// Whether the guards of the pieces `m` captures allow it (`captured by Lion from
    /// afar only when undefended`, judged on the position the move leaves), and the
    /// counter-strike rule.
    fn guards_allow(&self, rules: &Rules, m: &Move) -> bool {
        let kinds = rules.variant.counterstrike;
        let struck = self.struck().filter(|_| kinds & (1 << m.piece.0) == 0);
        if rules.guarding & (1 << m.piece.0) == 0 && struck.is_none() || m.captured.is_none() {
            return true;
        }
        let taken = match m.special {
            Special::Jump { index, .. } => match self.jump_chain(rules, m.from, index) {
                Some(l) => l.jumped,
                None => return true,
            },
            _ => S::from_cells([m.capture_cell().unwrap_or(m.to)]),
        };
        let board = &rules.variant.board;
        let kind_at = |c: Cell| self.at(c).map(|(_, k)| k);
        if let Some(s) = struck
            && taken
                .iter()
                .any(|c| c != s && kind_at(c).is_some_and(|k| kinds & (1 << k.0) != 0))
        {
            return false;
        }
        for (victim, by, other_than) in &rules.guarded {
            if by & (1 << m.piece.0) == 0 {
                continue;
            }
            for c in taken.iter() {
                if kind_at(c) != Some(*victim) || board.next_to(m.from, c) {
                    continue;
                }
                // Another capture of a kind not spared lifts the rule.
                let lifted = other_than.is_some_and(|spared| {
                    taken
                        .iter()
                        .any(|o| o != c && kind_at(o).is_some_and(|k| spared & (1 << k.0) == 0))
                });
                if !lifted && self.defended_after(rules, m, c, &taken) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether, once `m` is made, a piece of another player than the mover could
    /// capture on `cell`; the pieces `m` took on its way (`taken`) still count, as the
    /// rule pages read it (a Pawn guarding a Lion guards it though taken first). Rare
    /// enough to be worked out on a copy.
    fn defended_after(&self, rules: &Rules, m: &Move, cell: Cell, taken: &S) -> bool {
        let mut after = self.clone();
        after.make(rules, m);
        let Some((_, now)) = after.at(cell) else {
            return false;
        };
        if after.attackers(rules, cell, u64::MAX) > 0 {
            return true;
        }
        let sets: &SetTables<S> = rules.sets();
        taken.iter().filter(|&c| c != cell).any(|c| {
            self.at(c).is_some_and(|(p, k)| {
                rules.capturable_by[now.0 as usize] & (1 << k.0) != 0
                    && rules.captures_between(p, k, c, cell).any(|e| {
                        e.target.is_none_or(|t| t == now) && sets.open(e, after.occupied())
                    })
            })
        })
    }

    /// Takes out the moves of forbidden kinds, then, for each compulsory kind in turn,
    /// the moves not of it, where some move is.
    #[inline(never)]
    fn oblige(&self, rules: &Rules, out: &mut Vec<Move>) {
        let obligations = &rules.variant.obligations;
        let watch = obligations
            .iter()
            .any(|o| o.kind == MoveKind::Check)
            .then(|| self.check_watch(rules))
            .flatten();
        let of = |m: &Move, kind: MoveKind| match kind {
            MoveKind::Capture => {
                m.captured.is_some()
                    || (rules.enclosure_captures && self.captures_by_enclosure(rules, m))
            }
            MoveKind::Drop => m.special == Special::Drop,
            MoveKind::Check => {
                !watch
                    .as_ref()
                    .is_some_and(|w| self.surely_no_check(rules, w, m))
                    && self.gives_check(rules, m)
            }
            MoveKind::Promotion => m.promotion.is_some(),
        };
        for o in obligations.iter().filter(|o| !o.compulsory) {
            out.retain(|m| !of(m, o.kind));
        }
        for o in obligations.iter().filter(|o| o.compulsory) {
            if out.iter().any(|m| of(m, o.kind)) {
                out.retain(|m| of(m, o.kind));
                if !o.prefer.is_empty() {
                    self.prefer(rules, &o.prefer, out);
                }
            }
        }
    }

    /// Narrows compulsory captures by each preference in turn to those it ranks best.
    #[inline(never)]
    fn prefer(&self, rules: &Rules, prefer: &[Preference], out: &mut Vec<Move>) {
        let taken = |m: &Move| match m.special {
            Special::Jump { count, .. } => count as usize,
            _ => 1,
        };
        // The majority rule alone reads the count each move carries.
        if let [
            Preference {
                how: Preferring::Most,
                kinds: u64::MAX,
            },
        ] = prefer
        {
            let most = out.iter().map(taken).max().unwrap_or(0);
            out.retain(|m| taken(m) == most);
            return;
        }
        let mut scored: Vec<_> = (out.drain(..))
            .map(|m| (m, self.kinds_taken(rules, &m)))
            .collect();
        for p in prefer {
            let of = |k: &PieceId| p.kinds >> k.0 & 1 != 0;
            let rank = |(m, (kinds, n)): &(Move, ([PieceId; MOST_JUMPED], usize))| match p.how {
                Preferring::Most if p.kinds == u64::MAX => taken(m) as u64,
                Preferring::Most => kinds[..*n].iter().filter(|k| of(k)).count() as u64,
                Preferring::By => of(&m.piece) as u64,
                // A piece of the kinds at the first place where two orders differ wins.
                Preferring::Earliest => (kinds[..*n].iter().enumerate())
                    .filter(|(_, k)| of(k))
                    .fold(0, |b, (i, _)| b | 1 << (63 - i)),
            };
            let best = scored.iter().map(rank).max().unwrap_or(0);
            scored.retain(|s| rank(s) == best);
        }
        out.extend(scored.into_iter().map(|(m, _)| m));
    }

    /// Adds the promotions made as moves of their own: each piece standing in its
    /// rule's zone (or anywhere, as the player's last of its kind) becomes each kind it
    /// may, where it stands or by a non-capturing move of the new kind to an empty cell.
    fn standing_promotions(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        royals: &S,
        in_check: bool,
        danger: &S,
        out: &mut Vec<Move>,
    ) {
        let me = self.to_move();
        let occupied = self.occupied();
        for from in self.of_player(me).iter() {
            let Some((_, piece)) = self.at(from) else {
                continue;
            };
            let Some(p) = rules.promotion(me, piece).filter(|p| p.when.standing) else {
                continue;
            };
            let last = p.alone && self.pieces_of(me, piece).len() == 1;
            if !p.zone[from.index()] && !last {
                continue;
            }
            let careful = !royals.is_empty()
                && (in_check || danger.contains(from) || rules.enclosure_captures);
            for (&k, &most) in p.to.iter().zip(&p.limit) {
                if most != u32::MAX && self.pieces_of(me, k).len() as u32 >= most {
                    continue;
                }
                let stay = std::iter::once(from);
                let steps = rules
                    .moves(me, k, from)
                    .iter()
                    .filter(|e| {
                        e.dest.allows_empty()
                            && e.tag.is_none()
                            && !e.copy()
                            && !occupied.contains(e.to)
                            && !(rules.walls && self.walls().contains(e.to))
                            && self.open(rules, sets, e, occupied)
                            && self.near_allows(sets, e, me)
                    })
                    .map(|e| e.to);
                let mut last = None;
                for to in stay.chain(steps) {
                    if last == Some(to) {
                        continue;
                    }
                    last = Some(to);
                    let m = Move {
                        from,
                        to,
                        piece,
                        captured: None,
                        tag: None,
                        promotion: Some(k),
                        special: Special::Plain,
                        wall: None,
                        gate: None,
                    };
                    if rules.avoids_attack[k.0 as usize] && self.attacked_after(rules, sets, &m) {
                        continue;
                    }
                    if careful && self.exposes(rules, sets, &m, royals) {
                        continue;
                    }
                    out.push(m);
                }
            }
        }
    }

    /// Whether `m` promotes under a rule that forbids giving check or attacking an
    /// enemy piece with the new one, and does either.
    fn loud_promotion(&self, rules: &Rules, sets: &SetTables<S>, m: &Move) -> bool {
        let Some(k) = m.promotion.filter(|_| m.special != Special::Drop) else {
            return false;
        };
        if !rules
            .promotion(self.to_move(), m.piece)
            .is_some_and(|p| p.quiet)
        {
            return false;
        }
        let me = self.to_move();
        let mut after = *self.occupied();
        after.remove(m.from);
        if let Some(c) = m.capture_cell() {
            after.remove(c);
        }
        after.insert(m.to);
        let attacks = rules.moves(me, k, m.to).iter().any(|e| {
            e.dest.allows_enemy()
                && self.at(e.to).is_some_and(|(q, victim)| {
                    q != me && Some(e.to) != m.capture_cell() && may_take(rules, e, k, victim)
                })
                && self.open(rules, sets, e, &after)
        });
        attacks || self.gives_check(rules, m)
    }

    /// Adds, for each move leaving one of `me`'s open gates (for a castling, any of its
    /// starts that no piece lands on), a copy for each kind in hand that may be dropped
    /// there, bringing it in through the gate. The plain moves are legal already, and
    /// a piece brought in only adds an own piece behind the mover.
    fn add_gatings(&self, rules: &Rules, sets: &SetTables<S>, me: PlayerId, out: &mut Vec<Move>) {
        let open = self.open_gates() & rules.player_gates[me.0 as usize];
        let kinds = self.hand_kinds(me);
        if open == 0 || kinds == 0 {
            return;
        }
        let pieces = rules.variant.pieces.len();
        for i in 0..out.len() {
            let m = out[i];
            let mut cells = [m.from; 4];
            let n = match m.special {
                Special::Drop | Special::Pass | Special::Copy => 0,
                Special::Castle(c) => {
                    let parts = &rules.castling.castlings[c as usize].parts;
                    let mut n = 0;
                    for (_, from, _) in parts.iter().take(4) {
                        if !parts.iter().any(|p| p.2 == *from) {
                            cells[n] = *from;
                            n += 1;
                        }
                    }
                    n
                }
                _ => 1,
            };
            for &c in &cells[..n] {
                if rules.gates_at(c) & open == 0 {
                    continue;
                }
                let mut held = kinds;
                while held != 0 {
                    let k = PieceId(held.trailing_zeros() as u8);
                    held &= held - 1;
                    if sets
                        .drop_cells(me.0 as usize, k.0 as usize, pieces)
                        .contains(c)
                    {
                        out.push(Move {
                            gate: Some((k, c)),
                            ..m
                        });
                    }
                }
            }
        }
    }

    /// Replaces each move of a piece whose moves leave a wall by one move per cell the
    /// wall may go to (none where it has nowhere to go). Reuses `out`'s room.
    fn add_walls(&self, rules: &Rules, sets: &SetTables<S>, out: &mut Vec<Move>) {
        let n = out.len();
        for i in 0..n {
            let m = out[i];
            let Some(walling) = self.wall_rule(rules, &m) else {
                out.push(m);
                continue;
            };
            for c in self.wall_cells(rules, sets, &m, walling).iter() {
                out.push(Move { wall: Some(c), ..m });
            }
        }
        out.drain(..n);
        if rules.variant.pass_if_stuck && out.len() > 1 {
            out.retain(|m| m.special != Special::Pass);
        }
    }

    /// The wall rule of a move, if it leaves one (a pass never does, nor a move that
    /// captures nothing of a piece whose captures petrify it).
    fn wall_rule<'r>(&self, rules: &'r Rules, m: &Move) -> Option<&'r Walling> {
        let w = rules.walling[m.piece.0 as usize].as_ref()?;
        let capturing = *w == Walling::Capturing;
        (m.special != Special::Pass && (!capturing || m.captured.is_some())).then_some(w)
    }

    /// The cells a move's wall may go to, judged on the board as the move leaves it.
    fn wall_cells(&self, rules: &Rules, sets: &SetTables<S>, m: &Move, walling: &Walling) -> S {
        let mut occupied = *self.occupied();
        if let Special::Castle(c) = m.special {
            let parts = &rules.castling.castlings[c as usize].parts;
            for (_, from, _) in parts {
                occupied.remove(*from);
            }
            for (_, _, to) in parts {
                occupied.insert(*to);
            }
        } else {
            if m.special != Special::Copy {
                occupied.remove(m.from);
            }
            if let Some(g) = m.capture_cell() {
                occupied.remove(g);
            }
            occupied.insert(m.to);
        }
        match walling {
            Walling::Left if m.from != m.to && !occupied.contains(m.from) => {
                S::from_cells([m.from])
            }
            Walling::Left => S::EMPTY,
            Walling::Capturing => S::from_cells([m.to]),
            // The moved wall's old cell is still in `occupied`: it must move.
            Walling::Moved => sets.all().difference(&occupied),
            Walling::Placed { reach, except } => {
                let mut cells = match *reach {
                    None => sets.all().difference(&occupied),
                    Some(kind) => {
                        let mut cells = S::EMPTY;
                        for e in rules.moves(self.to_move(), kind, m.to) {
                            if e.dest.allows_empty()
                                && !occupied.contains(e.to)
                                && !cells.contains(e.to)
                                && self.open(rules, sets, e, &occupied)
                            {
                                cells.insert(e.to);
                            }
                        }
                        cells
                    }
                };
                for c in except {
                    cells.remove(*c);
                }
                cells
            }
        }
    }

    /// The cell of the one enemy piece attacking `me`'s royal pieces, if only one does.
    fn lone_checker(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        royals: &S,
        occupied: &S,
    ) -> Option<Cell> {
        let (mut lone, mut many) = (None, false);
        for r in royals.iter() {
            let Some((_, royal)) = self.at(r) else {
                continue;
            };
            self.each_attack(rules, sets, me, r, royal, u64::MAX, None, |from, e| {
                if lone != Some(from) && self.open(rules, sets, e, occupied) {
                    many = lone.is_some();
                    lone = Some(from);
                }
                many
            });
        }
        if many { None } else { lone }
    }

    /// The cells on which a new piece would close every open attack on `me`'s royal
    /// pieces: those on every open path of each.
    fn blocking_cells(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        royals: &S,
        occupied: &S,
    ) -> S {
        let mut block = *sets.all();
        for r in royals.iter() {
            let Some((_, royal)) = self.at(r) else {
                continue;
            };
            self.each_attack(rules, sets, me, r, royal, u64::MAX, None, |_, e| {
                for (i, m) in sets.paths(e).enumerate() {
                    if sets.path_open(e, i, occupied) {
                        block = block.intersection(&m);
                    }
                }
                block.is_empty()
            });
        }
        block
    }

    /// Drops from `me`'s hand on empty cells within `allowed`, less what each kind's
    /// drop rules forbid.
    fn drops(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        allowed: &S,
        out: &mut Vec<Move>,
    ) {
        let occupied = self.occupied();
        let (pieces, cells) = (rules.variant.pieces.len(), rules.variant.board.len());
        let empty = allowed.difference(occupied);
        let mut kinds = self.hand_kinds(me);
        while kinds != 0 {
            let held = PieceId(kinds.trailing_zeros() as u8);
            kinds &= kinds - 1;
            // The kind it lands as: itself, or a promoted form dropped face up.
            let mut faces = 1u64 << held.0 | rules.drop_faces[held.0 as usize];
            while faces != 0 {
                let piece = PieceId(faces.trailing_zeros() as u8);
                faces &= faces - 1;
                let rule = rules.drop_rules[piece.0 as usize];
                let mut to =
                    empty.intersection(sets.drop_cells(me.0 as usize, piece.0 as usize, pieces));
                let mut near = rule.file_with;
                while near != 0 && !to.is_empty() {
                    let k = PieceId(near.trailing_zeros() as u8);
                    near &= near - 1;
                    for c in self.pieces_of(me, k).iter() {
                        to = to.difference(sets.file(me.0 as usize, c, cells));
                    }
                }
                if let Some((k, n)) = rule.file_full {
                    let own = self.pieces_of(me, k);
                    for c in own.iter() {
                        let file = sets.file(me.0 as usize, c, cells);
                        if own.intersection(file).len() >= n as usize {
                            to = to.difference(file);
                        }
                    }
                }
                let mut near = rule.attacked_by;
                while near != 0 && !to.is_empty() {
                    let k = PieceId(near.trailing_zeros() as u8);
                    near &= near - 1;
                    for c in self.pieces_of(me, k).iter() {
                        for e in rules.moves(me, k, c) {
                            if e.dest.allows_enemy() && self.open(rules, sets, e, occupied) {
                                to.remove(e.to);
                            }
                        }
                    }
                }
                let checking = if rule.no_check || rule.no_mate {
                    self.checking_drops(rules, sets, me, piece, &to)
                } else {
                    S::EMPTY
                };
                if rule.no_check {
                    to = to.difference(&checking);
                }
                if rules.variant.drops.spread != 0 {
                    to = self.spread_cells(rules, sets, me, piece, &to);
                }
                let opening = rule.first_on.map(|z| {
                    S::from_cells(rules.variant.zones[z].cells[me.0 as usize].iter().copied())
                        .difference(occupied)
                });
                match opening {
                    Some(z) if !z.is_empty() => to = to.intersection(&z),
                    _ if rule.enclosing => {
                        // Only a cell beside an enemy piece can enclose one.
                        let mut beside = S::EMPTY;
                        for c in occupied.difference(self.of_player(me)).iter() {
                            beside = beside.union(sets.around(c));
                        }
                        to = to.intersection(&beside);
                        for c in to.iter() {
                            if !self.encloses(rules, me, c) {
                                to.remove(c);
                            }
                        }
                    }
                    _ => {}
                }
                // A royal piece is never dropped where it stands attacked.
                let avoids = rules.avoids_attack[piece.0 as usize]
                    || (rules.royal & (1 << piece.0) != 0 && !rules.royal_together);
                for c in to.iter() {
                    let m = Move {
                        from: c,
                        to: c,
                        piece: held,
                        captured: None,
                        tag: None,
                        promotion: (piece != held).then_some(piece),
                        special: Special::Drop,
                        wall: None,
                        gate: None,
                    };
                    if avoids && self.attacked_after(rules, sets, &m) {
                        continue;
                    }
                    if rule.no_mate && checking.contains(c) && self.mates(rules, sets, &m) {
                        continue;
                    }
                    // A drop may screen a hurdle's line to a royal piece.
                    if rules.hurdles && self.exposes(rules, sets, &m, &self.royals(rules, me)) {
                        continue;
                    }
                    out.push(m);
                }
            }
        }
    }

    /// Of the cells `to`, those where a drop of `piece` leaves `me`'s pieces of the
    /// spread kinds, on the board and in hand, room to stand at most an even share
    /// (rounded up) on cells of each colour, counting the empty cells they may still be
    /// dropped on (`drops keep each player's KIND pieces on different colours`).
    fn spread_cells(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        piece: PieceId,
        to: &S,
    ) -> S {
        let board = &rules.variant.board;
        let (pieces, colours) = (rules.variant.pieces.len(), board.colours() as usize);
        let (mut placed, mut free, mut total) = ([0u32; 3], [0u32; 3], 0);
        let mut room = S::EMPTY;
        let mut kinds = rules.variant.drops.spread;
        while kinds != 0 {
            let k = PieceId(kinds.trailing_zeros() as u8);
            kinds &= kinds - 1;
            for c in self.pieces_of(me, k).iter() {
                placed[board.colour(c) as usize] += 1;
                total += 1;
            }
            total += self.in_hand(me, k) as u32;
            room = room.union(sets.drop_cells(me.0 as usize, k.0 as usize, pieces));
        }
        let room = room.difference(self.occupied());
        for c in room.iter() {
            free[board.colour(c) as usize] += 1;
        }
        let share = total.div_ceil(colours as u32);
        let spread = rules.variant.drops.spread & (1 << piece.0) != 0;
        let mut out = S::EMPTY;
        for c in to.iter() {
            let (mut placed, mut free) = (placed, free);
            let colour = board.colour(c) as usize;
            if room.contains(c) {
                free[colour] -= 1;
            }
            if spread {
                placed[colour] += 1;
            }
            let reach: u32 = (0..colours).map(|i| share.min(placed[i] + free[i])).sum();
            if placed.iter().all(|&p| p <= share) && reach >= total {
                out.insert(c);
            }
        }
        out
    }

    /// Of the cells `to`, those from which `me`'s `piece` would attack an enemy royal.
    fn checking_drops(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        piece: PieceId,
        to: &S,
    ) -> S {
        let mut out = S::EMPTY;
        for p in (0..self.players()).map(PlayerId).filter(|p| *p != me) {
            for r in self.royals(rules, p).iter() {
                let Some((_, royal)) = self.at(r) else {
                    continue;
                };
                if rules.capturable_by[royal.0 as usize] & (1 << piece.0) == 0 {
                    continue;
                }
                for (from, e) in rules.attacks_on(me, piece, r) {
                    if !to.contains(from) || e.target.is_some_and(|t| t != royal) {
                        continue;
                    }
                    let mut occupied = *self.occupied();
                    occupied.insert(from);
                    if sets.open(e, &occupied) {
                        out.insert(from);
                    }
                }
            }
        }
        out
    }

    /// Where the other players' royal pieces may be reached, for telling most moves
    /// that give no check without making them; `None` where a move may change more
    /// than its own two cells (explosions, enclosures, gates) or a royal piece is
    /// attacked already.
    fn check_watch(&self, rules: &Rules) -> Option<CheckWatch<S>> {
        if rules.explosion.is_some() || rules.enclosure.is_some() || self.open_gates() != 0 {
            return None;
        }
        let sets = rules.sets();
        let me = self.to_move();
        let mut w = CheckWatch {
            royals: S::EMPTY,
            danger: Danger::default(),
        };
        for q in (0..self.players()).map(PlayerId).filter(|&q| q != me) {
            let royals = self.royals(rules, q);
            let d = self.danger(rules, sets, q, &royals, self.occupied());
            if d.check {
                return None;
            }
            w.royals = w.royals.union(&royals);
            w.danger.leaving = w.danger.leaving.union(&d.leaving);
            w.danger.entering = w.danger.entering.union(&d.entering);
        }
        Some(w)
    }

    /// Whether `m` surely attacks no royal piece of another player: a plain move that
    /// opens no line to one, puts no piece on a hurdle's line, takes no royal piece,
    /// and lands where its piece reaches none. `false` means "make it and see".
    fn surely_no_check(&self, rules: &Rules, w: &CheckWatch<S>, m: &Move) -> bool {
        if m.special != Special::Plain
            || m.wall.is_some()
            || m.gate.is_some()
            || w.danger.leaving.contains(m.from)
            || w.danger.entering.contains(m.to)
            || m.captured
                .is_some_and(|(_, k)| rules.royal & (1 << k.0) != 0)
        {
            return false;
        }
        let sets = rules.sets();
        let me = self.to_move();
        let now = m.promotion.unwrap_or(m.piece);
        let mut after = *self.occupied();
        after.remove(m.from);
        after.insert(m.to);
        w.royals.iter().all(|r| {
            let Some((_, royal)) = self.at(r) else {
                return true;
            };
            rules.capturable_by[royal.0 as usize] & (1 << now.0) == 0
                || !sets.attackers_among(rules.run(me, now, r), &S::single(m.to))
                || rules.captures_between(me, now, m.to, r).all(|e| {
                    e.target.is_some_and(|t| t != royal) || (e.barred == 0 && !sets.open(e, &after))
                })
        })
    }

    /// Whether `m` leaves a royal piece of another player attacked. Out of line, as
    /// [`PositionOf::mates`].
    #[inline(never)]
    fn gives_check(&self, rules: &Rules, m: &Move) -> bool {
        let me = self.to_move();
        let mut after = self.clone();
        after.make(rules, m);
        (0..self.players())
            .map(PlayerId)
            .any(|q| q != me && after.royal_attacked(rules, q))
    }

    /// Whether after `m` the next player has no legal move. Kept out of line: rare,
    /// and it would bring a whole `make` into the move loop.
    #[inline(never)]
    fn mates(&self, rules: &Rules, sets: &SetTables<S>, m: &Move) -> bool {
        let mut after = self.clone();
        after.make(rules, m);
        let mut replies = Vec::new();
        after.legal_moves_in(rules, sets, &mut replies);
        replies.is_empty()
    }

    /// The cells of `me`'s royal pieces.
    #[inline]
    pub(super) fn royals(&self, rules: &Rules, me: PlayerId) -> S {
        let mut set = S::EMPTY;
        let mut kinds = rules.royal;
        while kinds != 0 {
            let k = kinds.trailing_zeros();
            kinds &= kinds - 1;
            set = set.union(&self.pieces_of(me, PieceId(k as u8)));
        }
        // In check only when alone: with two or more, none is royal.
        if rules.royal_alone && set.len() > 1 {
            return S::EMPTY;
        }
        set
    }

    /// Whether any of the side to move's royal pieces is attacked now.
    pub fn in_check(&self, rules: &Rules) -> bool {
        self.royal_attacked(rules, self.to_move())
    }

    /// Whether any of `p`'s royal pieces is attacked now by another player. With
    /// explosions, a capture that would blow up the capturer's own royal piece is no
    /// attack.
    pub fn royal_attacked(&self, rules: &Rules, p: PlayerId) -> bool {
        let royals = self.royals(rules, p);
        if royals.is_empty() {
            return false;
        }
        let sets = rules.sets();
        let Some(x) = rules.explosion else {
            return self.danger(rules, sets, p, &royals, self.occupied()).check;
        };
        let hit = |r: Cell| {
            let Some((_, royal)) = self.at(r) else {
                return false;
            };
            self.each_attack(rules, sets, p, r, royal, u64::MAX, None, |from, e| {
                self.open(rules, sets, e, self.occupied()) && !self.blows_up_own(rules, x, from, r)
            })
        };
        if rules.royal_together {
            royals.iter().all(hit)
        } else {
            royals.iter().any(hit)
        }
    }

    /// Whether the piece on `from` capturing on `target` would blow up a royal piece of
    /// its own: itself, or one on a cell around `target`.
    fn blows_up_own(&self, rules: &Rules, x: Explosion, from: Cell, target: Cell) -> bool {
        let Some((owner, kind)) = self.at(from) else {
            return false;
        };
        let doomed = |k: PieceId| rules.royal & (1 << k.0) != 0;
        (doomed(kind) && x.spared & (1 << kind.0) == 0)
            || rules.around[target.index()].iter().any(|&c| {
                self.at(c).is_some_and(|(pl, k)| {
                    pl == owner && doomed(k) && (x.spared | x.spared_around) & (1 << k.0) == 0
                })
            })
    }

    /// With explosions: whether `m` blows up one of the mover's royal pieces, or, when
    /// it blows up none of another player's, leaves one attacked.
    #[inline(never)]
    fn exposes_exploding(&self, rules: &Rules, m: &Move) -> bool {
        let me = self.to_move();
        let mut after = self.clone();
        after.make(rules, m);
        let count = |p: &Self, pl: PlayerId| p.royals(rules, pl).iter().count();
        if count(&after, me) < count(self, me) {
            return true;
        }
        let others = |p: &Self| {
            (0..p.players())
                .map(PlayerId)
                .filter(|q| *q != me)
                .map(|q| count(p, q))
                .sum::<usize>()
        };
        others(&after) == others(self) && after.royal_attacked(rules, me)
    }

    /// The cells on open or blocked paths of enemy attacks on `me`'s royal pieces,
    /// and whether one such attack is open now.
    fn danger(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        royals: &S,
        occupied: &S,
    ) -> Danger<S> {
        let mut d = Danger::<S>::default();
        // Royal pieces in check together: check only when every one is attacked.
        let mut all = !royals.is_empty();
        for r in royals.iter() {
            let Some((_, royal)) = self.at(r) else {
                continue;
            };
            let mut hit = false;
            self.each_attack(rules, sets, me, r, royal, u64::MAX, None, |_, e| {
                for m in sets.paths(e) {
                    d.leaving = d.leaving.union(&m);
                    if e.hurdle != 0 {
                        d.entering = d.entering.union(&m);
                    }
                }
                hit |= self.open(rules, sets, e, occupied);
                false
            });
            d.check |= hit;
            all &= hit;
        }
        if rules.royal_together {
            d.check = all;
        }
        d
    }

    /// Whether an entry's path is open on `occupied`, the position's pieces standing
    /// where they are (for moves over pieces that may not jump some kinds).
    #[inline(always)]
    fn open(&self, rules: &Rules, sets: &SetTables<S>, e: &MoveEntry, occupied: &S) -> bool {
        match e.barred {
            0 => sets.open(e, occupied),
            _ => self.open_over(rules, sets, e, occupied),
        }
    }

    /// [`PositionOf::open`] for a move over pieces that may not jump some.
    #[inline(never)]
    fn open_over(&self, rules: &Rules, sets: &SetTables<S>, e: &MoveEntry, occupied: &S) -> bool {
        let mut barred = match e.barred {
            0 => S::EMPTY,
            b => self.kinds_at(rules.barred[b as usize - 1]),
        };
        // A move over one side's pieces only: those of the other side bar it. The
        // mover is whoever stands on the entry's run; the side to move generates.
        let mine = self.of_player(self.to_move());
        if e.jump & JUMP_ENEMY != 0 {
            barred = barred.union(mine);
        } else if e.jump & JUMP_FRIEND != 0 {
            barred = barred.union(&occupied.difference(mine));
        }
        sets.over(e, occupied, &barred)
    }

    /// Whether an entry's condition on nearby cells, if any, holds for `me` moving.
    #[inline]
    fn near_allows(&self, sets: &SetTables<S>, e: &MoveEntry, me: PlayerId) -> bool {
        if e.near_rule == 0 {
            return true;
        }
        let mine = self.of_player(me);
        let holders = match e.near_rule & 3 {
            1 => self.occupied().difference(mine),
            2 => *mine,
            _ => *self.occupied(),
        };
        sets.near(e).intersects(&holders) == (e.near_rule & 4 != 0)
    }

    /// The cells holding pieces of the kinds in the set, of any player.
    fn kinds_at(&self, kinds: u64) -> S {
        let mut set = S::EMPTY;
        for p in 0..self.players() {
            let mut k = kinds;
            while k != 0 {
                set = set.union(&self.pieces_of(PlayerId(p), PieceId(k.trailing_zeros() as u8)));
                k &= k - 1;
            }
        }
        set
    }

    /// The cells between each pair of pieces that may not face each other and stand
    /// on one file: moving from one of them may open the file.
    /// Every cell when two such pieces already face each other.
    fn facing_lines(&self, rules: &Rules, sets: &SetTables<S>, occupied: &S) -> S {
        let mut out = S::EMPTY;
        let open = self.each_facing(rules, &rules.facing, occupied, None, |between, open| {
            out = out.union(&between);
            open
        });
        if open { *sets.all() } else { out }
    }

    /// Whether two pieces of one of the `pairs` face each other on an open file now.
    pub(super) fn standing_off(&self, rules: &Rules, pairs: &[(PieceId, PieceId)]) -> bool {
        !pairs.is_empty() && self.each_facing(rules, pairs, self.occupied(), None, |_, open| open)
    }

    /// Whether a standoff of `pairs` was answered by a pass: the game is over.
    pub(super) fn standoff_kept(&self, rules: &Rules, pairs: &[(PieceId, PieceId)]) -> bool {
        self.passed_last() && self.standing_off(rules, pairs)
    }

    /// Whether after `m` two pieces of one of the `pairs` face each other.
    fn faces_after(&self, rules: &Rules, pairs: &[(PieceId, PieceId)], m: &Move) -> bool {
        let mut occupied = *self.occupied();
        occupied.remove(m.from);
        if let Some(g) = m.capture_cell() {
            occupied.remove(g);
        }
        occupied.insert(m.to);
        self.each_facing(rules, pairs, &occupied, Some(m), |_, open| open)
    }

    /// Calls `f` with the cells between each two pieces of one of the `pairs` that
    /// share a file, and whether those cells are all empty, on `occupied` and after
    /// `m` if given. Stops when `f` answers true, and says whether it did.
    fn each_facing(
        &self,
        rules: &Rules,
        pairs: &[(PieceId, PieceId)],
        occupied: &S,
        m: Option<&Move>,
        mut f: impl FnMut(S, bool) -> bool,
    ) -> bool {
        let b = &rules.variant.board;
        let cells_of = |p: PlayerId, k: PieceId| {
            let mut set = self.pieces_of(p, k);
            if let Some(m) = m {
                set.remove(m.from);
                if let Some(g) = m.capture_cell() {
                    set.remove(g);
                }
                if self.to_move() == p && m.promotion.unwrap_or(m.piece) == k {
                    set.insert(m.to);
                }
            }
            set
        };
        for &(a, k) in pairs {
            for p in (0..self.players()).map(PlayerId) {
                let Some(fwd) = rules.variant.player(p).forward else {
                    continue;
                };
                for from in cells_of(p, a).iter() {
                    for q in (0..self.players()).map(PlayerId).filter(|q| *q != p) {
                        let targets = cells_of(q, k);
                        if targets.is_empty() {
                            continue;
                        }
                        for d in [fwd, b.opposite(fwd)] {
                            let mut between = S::EMPTY;
                            let mut at = b.point(from);
                            loop {
                                at = b.shift(at, d);
                                if !b.within_bounds(at) {
                                    break;
                                }
                                let Some(c) = b.at(at) else { continue };
                                if targets.contains(c) {
                                    if f(between, !between.intersects(occupied)) {
                                        return true;
                                    }
                                    break;
                                }
                                between.insert(c);
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// Calls `f` on each capturing entry, with its start cell, of another player's
    /// piece of the kinds in `kinds` (not on `gone`) that could take `me`'s piece of
    /// kind `victim` on `target` if its path were open; entries from one cell come
    /// together. Stops when `f` answers true, and says whether it did.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn each_attack(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        target: Cell,
        victim: PieceId,
        kinds: u64,
        gone: Option<Cell>,
        mut f: impl FnMut(Cell, &MoveEntry) -> bool,
    ) -> bool {
        (0..self.players())
            .map(PlayerId)
            .filter(|&p| p != me)
            .any(|p| self.each_attack_by(rules, sets, p, target, victim, kinds, gone, &mut f))
    }

    /// [`Self::each_attack`] by the pieces of the one player `p`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn each_attack_by(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        p: PlayerId,
        target: Cell,
        victim: PieceId,
        kinds: u64,
        gone: Option<Cell>,
        f: &mut impl FnMut(Cell, &MoveEntry) -> bool,
    ) -> bool {
        let allowed = rules.capturable_by[victim.0 as usize] & kinds;
        let kinds = rules.variant.pieces.len();
        let used = self.used_bits(p);
        for k in 0..kinds {
            let k = PieceId(k as u8);
            if allowed & (1 << k.0) == 0 {
                continue;
            }
            let mut near = self.pieces_of(p, k);
            if let Some(g) = gone {
                near.remove(g);
            }
            if near.is_empty() || !sets.attackers_among(rules.run(p, k, target), &near) {
                continue;
            }
            for from in near.iter() {
                for e in rules.captures_between(p, k, from, target) {
                    if e.target.is_some_and(|t| t != victim)
                        || rules
                            .once_bit(k, e.tag)
                            .is_some_and(|b| used & (1 << b) != 0)
                    {
                        continue;
                    }
                    if f(from, e) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether a cell would be attacked by another player on the given occupancy,
    /// without the piece on `gone`, for a piece of kind `victim` standing there.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn attacked(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        target: Cell,
        victim: PieceId,
        occupied: &S,
        gone: Option<Cell>,
        arrived: Option<(Cell, PieceId)>,
    ) -> bool {
        self.each_attack(
            rules,
            sets,
            me,
            target,
            victim,
            u64::MAX,
            gone,
            |_, e| match e.barred {
                0 => sets.open(e, occupied),
                b => {
                    let kinds = rules.barred[b as usize - 1];
                    let mut cells = self.kinds_at(kinds).intersection(occupied);
                    if let Some((c, k)) = arrived {
                        if kinds & (1 << k.0) != 0 {
                            cells.insert(c);
                        } else {
                            cells.remove(c);
                        }
                    }
                    sets.over(e, occupied, &cells)
                }
            },
        )
    }

    /// How many pieces of other players, of the kinds in `kinds`, could capture the
    /// piece on `cell` now (0 when the cell is empty).
    pub fn attackers(&self, rules: &Rules, cell: Cell, kinds: u64) -> u32 {
        let Some((owner, victim)) = self.at(cell) else {
            return 0;
        };
        let sets = rules.sets();
        let occupied = self.occupied();
        let (mut n, mut last) = (0, None);
        self.each_attack(rules, sets, owner, cell, victim, kinds, None, |from, e| {
            if last != Some(from) && self.open(rules, sets, e, occupied) {
                last = Some(from);
                n += 1;
            }
            false
        });
        n
    }

    /// How many other pieces of its own player could capture on the cell of the piece on
    /// `cell`, were an enemy piece of its kind there (0 when the cell is empty).
    pub fn defenders(&self, rules: &Rules, cell: Cell) -> u32 {
        let Some((owner, victim)) = self.at(cell) else {
            return 0;
        };
        let sets = rules.sets();
        let occupied = self.occupied();
        let (mut n, mut last) = (0, None);
        let mut count = |from: Cell, e: &MoveEntry| {
            if last != Some(from) && self.open(rules, sets, e, occupied) {
                last = Some(from);
                n += 1;
            }
            false
        };
        self.each_attack_by(rules, sets, owner, cell, victim, u64::MAX, None, &mut count);
        n
    }

    /// Whether `m` leaves one of the mover's royal pieces attacked.
    fn exposes(&self, rules: &Rules, sets: &SetTables<S>, m: &Move, royals: &S) -> bool {
        if rules.explosion.is_some() {
            return self.exposes_exploding(rules, m);
        }
        if rules.enclosure.as_ref().is_some_and(|e| e.captures) {
            // Taking an enemy piece off a line may open another enemy's attack.
            let mut after = self.clone();
            after.make(rules, m);
            return after.royal_attacked(rules, self.to_move());
        }
        let me = self.to_move();
        let mut occupied = *self.occupied();
        let mut royals = *royals;
        // Royal pieces that moved, with their kinds (a castling moves a few at most).
        let mut moved: [(Cell, PieceId); 4] = [(Cell(0), PieceId(0)); 4];
        let mut n = 0;
        let gone = m.capture_cell();
        let mut arrived = None;
        if let Special::Castle(i) = m.special {
            let parts = &rules.castling.castlings[i as usize].parts;
            for (_, from, _) in parts {
                occupied.remove(*from);
                royals.remove(*from);
            }
            for (k, _, to) in parts {
                occupied.insert(*to);
                if rules.royal & (1 << k.0) != 0 && n < moved.len() {
                    royals.insert(*to);
                    moved[n] = (*to, *k);
                    n += 1;
                }
            }
        } else {
            occupied.remove(m.from);
            if let Some(g) = gone {
                occupied.remove(g);
            }
            occupied.insert(m.to);
            royals.remove(m.from);
            let now = m.promotion.unwrap_or(m.piece);
            arrived = Some((m.to, now));
            if rules.royal & (1 << now.0) != 0 {
                royals.insert(m.to);
                moved[0] = (m.to, now);
                n = 1;
            }
        }
        let hit = |r: Cell| {
            let kind = moved[..n]
                .iter()
                .find(|(c, _)| *c == r)
                .map(|(_, k)| *k)
                .or_else(|| self.at(r).map(|(_, k)| k));
            kind.is_some_and(|k| self.attacked(rules, sets, me, r, k, &occupied, gone, arrived))
        };
        if rules.royal_together {
            !royals.is_empty() && royals.iter().all(hit)
        } else {
            royals.iter().any(hit)
        }
    }

    /// Castling moves whose pieces are in place, cells empty and safe, and which leave
    /// no royal piece attacked.
    fn castling_moves(
        &self,
        rules: &Rules,
        sets: &SetTables<S>,
        me: PlayerId,
        royals: &S,
        out: &mut Vec<Move>,
    ) {
        let occupied = self.occupied();
        let mut held = self.rights();
        // Only the castlings whose right is held; those sharing a right differ in
        // where their first piece starts, so at most one of them is in place.
        let open = std::iter::from_fn(|| {
            (held != 0).then(|| {
                let bit = held.trailing_zeros() as usize;
                held &= held - 1;
                bit
            })
        });
        for i in open.flat_map(|bit| {
            rules.castling.castles_by_right[bit]
                .iter()
                .map(|&i| i as usize)
        }) {
            let c = &rules.castling.castlings[i];
            if c.player != me || !self.in_place(c) {
                continue;
            }
            let moving = |cell: &Cell| c.parts.iter().any(|(_, f, _)| f == cell);
            if c.empty.iter().any(|e| occupied.contains(*e) && !moving(e)) {
                continue;
            }
            let (first, from, to) = c.parts[0];
            // With explosions, no enemy captures on a cell next to its own royal piece.
            let shielded = |s: Cell| {
                rules.explosion.is_some()
                    && rules.around[s.index()].iter().any(|&a| {
                        self.at(a)
                            .is_some_and(|(pl, k)| pl != me && rules.royal & (1 << k.0) != 0)
                    })
            };
            if c.safe.iter().any(|s| {
                !shielded(*s) && self.attacked(rules, sets, me, *s, first, occupied, None, None)
            }) {
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
                wall: None,
                gate: None,
            };
            if !royals.is_empty() && self.exposes(rules, sets, &m, royals) {
                continue;
            }
            out.push(m);
        }
    }

    /// Whether, after `m`, another player could capture the moved piece where it lands.
    fn attacked_after(&self, rules: &Rules, sets: &SetTables<S>, m: &Move) -> bool {
        let mut occupied = *self.occupied();
        occupied.remove(m.from);
        occupied.insert(m.to);
        let me = self.to_move();
        let now = m.promotion.unwrap_or(m.piece);
        let arrived = Some((m.to, now));
        self.attacked(
            rules,
            sets,
            me,
            m.to,
            now,
            &occupied,
            m.capture_cell(),
            arrived,
        )
    }
}

/// Where enemy attacks on the royal pieces run: cells whose leaving may open one,
/// cells on a hurdle's line whose entering may, and whether one is open now.
#[derive(Clone, Copy)]
struct Danger<S> {
    leaving: S,
    entering: S,
    check: bool,
}

impl<S: Width> Default for Danger<S> {
    fn default() -> Self {
        Danger {
            leaving: S::EMPTY,
            entering: S::EMPTY,
            check: false,
        }
    }
}

/// What [`PositionOf::surely_no_check`] reads: the other players' royal pieces, and
/// the cells on their attackers' lines.
struct CheckWatch<S> {
    royals: S,
    danger: Danger<S>,
}

/// Whether the piece of kind `mover` may take one of kind `victim` by entry `e`.
#[inline]
fn may_take(rules: &Rules, e: &MoveEntry, mover: PieceId, victim: PieceId) -> bool {
    e.target.is_none_or(|t| t == victim)
        && rules.capturable_by[victim.0 as usize] & (1 << mover.0) != 0
}

#[cfg(test)]
mod tests;
