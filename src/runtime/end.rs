//! The end rules, judged in one place for games and searches alike.

use super::position::{Move, Position, PositionOf, Special, View};
use crate::compile::{Rules, Width, by_width};
use crate::geometry::CellSet;
use crate::model::{Event, Outcome, PieceId, PlayerId, Reach, holds};

/// An end rule that applies: its index in the variant's list and what it decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub rule: usize,
    pub outcome: Outcome,
    /// The player the rule names: who checked on every move of a repetition, for a
    /// perpetual-check rule; whom the event happened to, for an event about a player
    /// (the player to move, when `that player` names one for an event about none).
    pub named: Option<PlayerId>,
}

impl Position {
    /// Whether `m`, capturing nothing, may end the game at once or start its end: a
    /// pass where passing ends games, or a piece entering a zone an end rule is
    /// about. Asked before `m` is made.
    pub fn may_end_quietly(&self, rules: &Rules, m: &Move) -> bool {
        if m.special == Special::Pass {
            return rules.pass_ends;
        }
        let kind = m.promotion.unwrap_or(m.piece);
        let me = self.to_move().0 as usize;
        rules.goals.iter().any(|&(piece, zone)| {
            piece == kind && rules.variant.zones[zone].cells[me].contains(&m.to)
        })
    }

    /// The first end rule (in the file's order) that applies now, `last` having just
    /// been played. `occurrences` counts how often this position has stood on the
    /// board, this time included. `has_move` tells whether the side to move has a
    /// legal move; it is asked only when a rule needs to know. `perpetual(n)` names the
    /// one player who gave check on every move since the position stood `n` times ago,
    /// if one did; callers that do not track checks answer `None`.
    pub fn verdict(
        &self,
        rules: &Rules,
        last: Option<&Move>,
        occurrences: u32,
        mut has_move: impl FnMut() -> bool,
        mut perpetual: impl FnMut(u32) -> Option<PlayerId>,
    ) -> Option<Verdict> {
        let mut moves: Option<bool> = None;
        let mut named = None;
        for (i, rule) in rules.variant.end_rules.iter().enumerate() {
            if !holds(rule.guard, &rules.options) {
                continue;
            }
            let applies = match rule.event {
                Event::Captured { piece, by } => last.is_some_and(|m| {
                    m.captured.is_some_and(|(_, k)| k == piece) && by.is_none_or(|b| b == m.piece)
                }),
                Event::NoLegalMove => !*moves.get_or_insert_with(&mut has_move),
                Event::Checkmate => {
                    !*moves.get_or_insert_with(&mut has_move) && self.in_check(rules)
                }
                Event::CheckmateOnlyBy(kinds) => {
                    !*moves.get_or_insert_with(&mut has_move)
                        && self.in_check(rules)
                        && self.checked_only_by(rules, kinds)
                }
                Event::CheckmateRunWithout(kinds) => {
                    !*moves.get_or_insert_with(&mut has_move)
                        && self.in_check(rules)
                        && self.run(self.last_mover()) & kinds == 0
                }
                Event::Stalemate => {
                    !*moves.get_or_insert_with(&mut has_move) && !self.in_check(rules)
                }
                Event::Repetition(n, false) => occurrences >= n,
                Event::Repetition(n, true) => {
                    occurrences >= n && {
                        named = perpetual(n);
                        named.is_some()
                    }
                }
                e if e.names_a_player() => {
                    named = self.happens_to(rules, e);
                    named.is_some()
                }
                Event::PliesWithoutCapture(n, ..) => self.quiet_plies() >= n,
                Event::AllPassed => self.all_passed(),
                Event::BoardFull => self.board_full(rules),
                Event::CountRanOut => self.count_ran_out(),
                Event::OnlyPromotions => self.only_promotions_left(rules),
                Event::Facing { piece, enemy } => self.standoff_kept(rules, &[(piece, enemy)]),
                _ => false,
            };
            if applies {
                if rule.by_points {
                    return Some(
                        match self.points_leader(rules, rule.fewest, rule.by_pieces) {
                            Some(p) => Verdict {
                                rule: i,
                                outcome: Outcome::ThatWins,
                                named: Some(p),
                            },
                            None => Verdict {
                                rule: i,
                                outcome: Outcome::Draw,
                                named: None,
                            },
                        },
                    );
                }
                if named.is_none() && matches!(rule.outcome, Outcome::ThatWins | Outcome::ThatLoses)
                {
                    named = Some(self.to_move());
                }
                return Some(Verdict {
                    rule: i,
                    outcome: rule.outcome,
                    named,
                });
            }
        }
        None
    }

    /// The player an event about one player happens to, if it happens: the player who
    /// just moved is asked first, then the others in turn.
    pub fn happens_to(&self, rules: &Rules, event: Event) -> Option<PlayerId> {
        by_width!(self.view(), View, p => p.happens_to(rules, event))
    }

    /// Whether pieces of one of the `pairs` faced each other on an open file before a
    /// pass that was the last move.
    pub fn standoff_kept(
        &self,
        rules: &Rules,
        pairs: &[(crate::model::PieceId, crate::model::PieceId)],
    ) -> bool {
        by_width!(self.view(), View, p => p.standoff_kept(rules, pairs))
    }

    /// Each player's points (pieces on the board and in hand, and its bonus), in
    /// tenths; empty when the game counts none. `by_pieces`: instead ten for each of
    /// its pieces on the board (`more pieces win`).
    pub fn points(&self, rules: &Rules, by_pieces: bool) -> Vec<u64> {
        by_width!(self.view(), View, p => if by_pieces {
            (0..p.players()).map(|i| 10 * p.of_player(PlayerId(i)).len() as u64).collect()
        } else {
            p.points(rules)
        })
    }

    /// The one player with the most points (`fewest`: the fewest), if one has more
    /// (fewer) than every other.
    pub fn points_leader(&self, rules: &Rules, fewest: bool, by_pieces: bool) -> Option<PlayerId> {
        let points = self.points(rules, by_pieces);
        let best = if fewest {
            *points.iter().min()?
        } else {
            *points.iter().max()?
        };
        let mut top = (0..points.len()).filter(|&i| points[i] == best);
        match (top.next(), top.next()) {
            (Some(p), None) => Some(PlayerId(p as u8)),
            _ => None,
        }
    }

    /// Whether every piece attacking a royal piece of the side to move is of a kind in
    /// `kinds`.
    pub fn checked_only_by(&self, rules: &Rules, kinds: u64) -> bool {
        by_width!(self.view(), View, p => p.royals(rules, p.to_move())
            .iter()
            .all(|c| p.attackers(rules, c, !kinds) == 0))
    }

    /// Whether every cell of the board holds a piece.
    pub fn board_full(&self, rules: &Rules) -> bool {
        by_width!(self.view(), View, p => p.board_full(rules))
    }

    /// Whether the side to move, not in check, has legal moves and each of them is a
    /// promotion. Moves are generated only when a piece of its may promote standing.
    pub fn only_promotions_left(&self, rules: &Rules) -> bool {
        by_width!(self.view(), View, p => p.only_promotions_left(rules))
    }

    /// Whether an end rule in force about one player holds here: the game is over
    /// whatever the last move was.
    pub fn ended_in_place(&self, rules: &Rules) -> bool {
        by_width!(self.view(), View, p => p.ended_in_place(rules))
    }
}

impl<S: Width> PositionOf<S> {
    /// See [`Position::happens_to`].
    pub(super) fn happens_to(&self, rules: &Rules, event: Event) -> Option<PlayerId> {
        let n = self.players();
        (1..=n)
            .map(|i| PlayerId((self.to_move().0 + n - 2 + i) % n))
            .find(|&p| self.holds_for(rules, event, p))
    }

    /// See [`Position::points`].
    pub(super) fn points(&self, rules: &Rules) -> Vec<u64> {
        let Some(points) = &rules.variant.points else {
            return vec![];
        };
        (0..self.players())
            .map(|p| {
                let p = PlayerId(p);
                let pieces: u64 = (0..rules.variant.pieces.len())
                    .map(|k| {
                        let kind = crate::model::PieceId(k as u8);
                        let n = self.pieces_of(p, kind).len() as u64 + self.in_hand(p, kind) as u64;
                        n * points.worth[k] as u64
                    })
                    .sum();
                pieces + points.bonus[p.0 as usize] as u64
            })
            .collect()
    }

    /// See [`Position::ended_in_place`].
    pub(super) fn ended_in_place(&self, rules: &Rules) -> bool {
        rules.ends_in_place
            && rules.variant.end_rules.iter().any(|r| {
                holds(r.guard, &rules.options)
                    && match r.event {
                        Event::BoardFull => self.board_full(rules),
                        e => e.names_a_player() && self.happens_to(rules, e).is_some(),
                    }
            })
    }

    /// Whether every cell of the board holds a piece.
    pub(super) fn board_full(&self, rules: &Rules) -> bool {
        self.occupied().len() == rules.variant.board.len()
    }

    /// See [`Position::only_promotions_left`].
    pub(super) fn only_promotions_left(&self, rules: &Rules) -> bool {
        let me = self.to_move();
        let standing = self.of_player(me).iter().any(|c| {
            self.at(c).is_some_and(|(_, k)| {
                rules.promotion(me, k).is_some_and(|p| {
                    p.when.standing
                        && (p.zone[c.index()] || (p.alone && self.pieces_of(me, k).len() == 1))
                })
            })
        });
        if !standing || self.in_check(rules) {
            return false;
        }
        let mut moves = Vec::new();
        self.legal_moves(rules, &mut moves);
        !moves.is_empty() && moves.iter().all(|m| m.promotion.is_some())
    }

    /// How many non-royal pieces the players other than `p` have, on the board and in
    /// hand.
    fn others_non_royal(&self, rules: &Rules, p: PlayerId) -> usize {
        let kinds = (0..rules.variant.pieces.len() as u8)
            .map(crate::model::PieceId)
            .filter(|k| rules.royal & (1 << k.0) == 0);
        let others = (0..self.players()).map(PlayerId).filter(|&q| q != p);
        others
            .flat_map(|q| kinds.clone().map(move |k| (q, k)))
            .map(|(q, k)| self.pieces_of(q, k).len() + self.in_hand(q, k) as usize)
            .sum()
    }

    fn holds_for(&self, rules: &Rules, event: Event, p: PlayerId) -> bool {
        let held = || {
            (0..rules.variant.pieces.len())
                .filter(|&k| {
                    let k = crate::model::PieceId(k as u8);
                    !self.pieces_of(p, k).is_empty() || self.in_hand(p, k) > 0
                })
                .fold(0u64, |m, k| m | 1 << k)
        };
        match event {
            Event::Extinct(kinds, 1) => kinds & !held() != 0,
            Event::Extinct(kinds, fewer) => (0..rules.variant.pieces.len())
                .filter(|k| kinds & (1 << k) != 0)
                .map(|k| crate::model::PieceId(k as u8))
                .any(|k| {
                    self.pieces_of(p, k).len() + (self.in_hand(p, k) as usize) < fewer as usize
                }),
            Event::OnlyRoyal(back) => {
                let h = held();
                let bare = h != 0 && h & !rules.royal == 0;
                // Baring back: the others must keep a non-royal piece, and one more
                // when the bared player moves next and could take the last.
                let need = if p == self.to_move() { 2 } else { 1 };
                bare && (!back || self.others_non_royal(rules, p) >= need)
            }
            Event::NoPieces => held() == 0,
            Event::ChecksGiven(n) => self.checks_given(p) as u32 >= n,
            Event::Reaches {
                piece,
                zone,
                how,
                safe,
            } => {
                let there = |q: PlayerId| {
                    rules.variant.zones[zone].cells[q.0 as usize]
                        .iter()
                        .any(|&c| {
                            self.at(c) == Some((q, piece))
                                && !(safe && self.attackers(rules, c, u64::MAX) > 0)
                        })
                };
                match how {
                    Reach::Plain => there(p),
                    Reach::Every => (0..self.players()).map(PlayerId).all(there),
                    Reach::Kept => p == self.to_move() && there(p),
                    Reach::Answered => {
                        there(p) && !(p.0 < self.to_move().0 && self.may_answer(rules, piece, zone))
                    }
                }
            }
            _ => false,
        }
    }

    /// Whether the player to move, not in check, has a legal move of a piece of the
    /// kind onto its part of the zone.
    fn may_answer(&self, rules: &Rules, piece: PieceId, zone: usize) -> bool {
        let me = self.to_move();
        if self.in_check(rules) {
            return false;
        }
        let goal = &rules.variant.zones[zone].cells[me.0 as usize];
        let mut moves = Vec::new();
        self.legal_moves(rules, &mut moves);
        moves
            .iter()
            .any(|m| m.promotion.unwrap_or(m.piece) == piece && goal.contains(&m.to))
    }
}

/// The one player who gave check with every move they made after position `first`, if
/// exactly one did. `checked[i]` tells whether the side to move in position `i` was in
/// check; the last entry is the current position, where `to_move` is to move.
pub fn perpetual_checker(
    checked: &[bool],
    first: usize,
    to_move: PlayerId,
    players: u8,
) -> Option<PlayerId> {
    let now = checked.len().checked_sub(1)?;
    let players = players as usize;
    // Position `i` was reached by a move of the player before its side to move.
    let mover_of =
        |i: usize| (to_move.0 as usize + players * 2 - 1 - (now - i) % players) % players;
    let mut always = [true; crate::compile::MAX_PLAYERS];
    for (i, &check) in checked.iter().enumerate().skip(first + 1) {
        always[mover_of(i)] &= check;
    }
    let mut who = (0..players).filter(|p| always[*p]);
    match (who.next(), who.next()) {
        (Some(p), None) => Some(PlayerId(p as u8)),
        _ => None,
    }
}
