//! The end rules, judged in one place for games and searches alike.

use super::move_text::write_move;
use super::position::{Move, Position, PositionOf, Special, View};
use crate::compile::{Rules, Width, by_width};
use crate::geometry::CellSet;
use crate::model::{
    Condition, Event, Kinds, Outcome, Owner, PieceId, Place, PlayerId, State, Who, holds,
};

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
    /// Whether `m`, capturing nothing where it lands, may end the game at once or start
    /// its end: a pass where passing ends games, a piece entering a zone an end rule is
    /// about, or a move that captures by enclosure. Asked before `m` is made.
    pub fn may_end_quietly(&self, rules: &Rules, m: &Move) -> bool {
        if m.special == Special::Pass {
            return rules.ends.pass_ends;
        }
        let kind = m.promotion.unwrap_or(m.piece);
        let me = self.to_move().0 as usize;
        rules.ends.goals.iter().any(|&(piece, zone)| {
            piece == kind && rules.variant.zones[zone].cells[me].contains(&m.to)
        }) || self.captures_by_enclosure(rules, m)
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
        let mut judge = Judge {
            pos: self,
            rules,
            last,
            occurrences,
            moves: None,
            has_move: &mut has_move,
            perpetual: &mut perpetual,
        };
        for (i, rule) in rules.variant.end_rules.iter().enumerate() {
            if !holds(rule.guard, &rules.options) {
                continue;
            }
            let mut named = None;
            let applies = judge.holds(&rule.condition, &mut named);
            if applies {
                if rule.by_points {
                    return Some(
                        match self.points_leader(rules, rule.fewest, rule.by_pieces) {
                            Some(p) => Verdict {
                                rule: i,
                                outcome: Outcome::THAT_WINS,
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
                if named.is_none() && matches!(rule.outcome, Outcome::Scores { who: Who::That, .. })
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

    /// Why the game ended by `verdict`, `last` having just been played.
    pub fn reason(&self, rules: &Rules, verdict: &Verdict, last: Option<&Move>) -> String {
        let v = &rules.variant;
        let players = v.players.len() as u8;
        let rule = &v.end_rules[verdict.rule];
        let reason = match rule.event() {
            None => {
                let text = v.condition_text(&rule.condition, false);
                match verdict.named {
                    Some(p) => format!("{}: {text}", v.player(p).name),
                    None => text,
                }
            }
            Some(event) => self.event_reason(rules, event, verdict, last),
        };
        if v.end_rules[verdict.rule].by_points {
            let rule = &v.end_rules[verdict.rule];
            let points = self.points(rules, rule.by_pieces);
            let each: Vec<String> = (0..players)
                .map(|p| {
                    let n = points.get(p as usize).copied().unwrap_or(0);
                    let name = &v.player(PlayerId(p)).name;
                    if n % 10 == 0 {
                        format!("{name} {}", n / 10)
                    } else {
                        format!("{name} {}.{}", n / 10, n % 10)
                    }
                })
                .collect();
            let word = if rule.by_pieces { "pieces" } else { "points" };
            format!("{reason}; {word}: {}", each.join(", "))
        } else {
            reason
        }
    }

    /// Why a game ended by a rule whose condition is the single `event`.
    fn event_reason(
        &self,
        rules: &Rules,
        event: Event,
        verdict: &Verdict,
        last: Option<&Move>,
    ) -> String {
        let v = &rules.variant;
        let players = v.players.len() as u8;
        let mover = PlayerId((self.to_move().0 + players - 1) % players);
        let rule = &v.end_rules[verdict.rule];
        match event {
            Event::Captured { piece, .. } => {
                let m = last.expect("a capture rule applies only after a move");
                format!(
                    "{}'s {} captured the {} ({})",
                    v.player(mover).name,
                    v.piece(m.piece).name,
                    v.piece(piece).name,
                    write_move(v, m)
                )
            }
            Event::NoLegalMove => format!("{} has no legal move", v.player(self.to_move()).name),
            Event::Checkmate => format!("{} is checkmated", v.player(self.to_move()).name),
            Event::Stalemate => format!("{} is stalemated", v.player(self.to_move()).name),
            Event::OnlyPromotions => {
                format!("{} has only promotions left", v.player(self.to_move()).name)
            }
            Event::CheckmateOnlyBy(kinds) => format!(
                "{} gave checkmate with {} alone",
                v.player(mover).name,
                v.kind_names(kinds).join(" or ")
            ),
            Event::CheckmateRunWithout(kinds) => format!(
                "{} gave checkmate without a check by {} in its run",
                v.player(mover).name,
                v.kind_names(kinds).join(" or ")
            ),
            Event::AllPassed => "every player passed in turn".to_string(),
            Event::CountRanOut => "the count of moves ran out".to_string(),
            Event::BoardFull => "the board is full".to_string(),
            Event::Facing { piece, enemy } => format!(
                "{} passed with its {} facing the enemy {}",
                v.player(mover).name,
                v.piece(piece).name,
                v.piece(enemy).name
            ),
            Event::Repetition(n, false) => format!("the position occurred {n} times"),
            Event::InCheck => format!("{} is in check", v.player(self.to_move()).name),
            event if event.names_a_player() => {
                let named = verdict.named.unwrap_or(mover);
                let who = &v.player(named).name;
                match event {
                    Event::Extinct(kinds) => {
                        let gone = (0..v.pieces.len())
                            .map(|k| crate::model::PieceId(k as u8))
                            .filter(|&k| {
                                kinds & (1 << k.0) != 0 && self.cells_of(named, k).is_empty()
                            })
                            .fold(0, |m, k| m | 1 << k.0);
                        format!("{who} has no {} left", v.kind_names(gone).join(" or "))
                    }
                    Event::Has { .. } | Event::Can { .. } => {
                        let text = v.condition_text(&rule.condition, false);
                        match text.strip_prefix("every player") {
                            Some(rest) => format!("every player{rest}"),
                            None => text.replacen("a player", who, 1).replacen(
                                "the player to move",
                                who,
                                1,
                            ),
                        }
                    }
                    Event::ChecksGiven(n) => format!("{who} gave check {n} times"),
                    _ => unreachable!("an event about a player"),
                }
            }
            Event::Repetition(n, true) => format!(
                "the position occurred {n} times, {} checking on every move",
                v.player(verdict.named.unwrap_or(mover)).name
            ),
            Event::Extinct(..) | Event::Has { .. } | Event::Can { .. } | Event::ChecksGiven(_) => {
                unreachable!("an event about a player")
            }
            Event::PliesWithoutCapture(n, kinds, drops) => {
                let mut names: Vec<String> = v
                    .kind_names(kinds & !v.forward_moves)
                    .into_iter()
                    .map(|k| format!("a {k} move"))
                    .chain(
                        v.kind_names(kinds & v.forward_moves)
                            .into_iter()
                            .map(|k| format!("a forward {k} move")),
                    )
                    .collect();
                if drops {
                    names.push("a drop".into());
                }
                if names.is_empty() {
                    format!("{n} plies without a capture")
                } else {
                    format!("{n} plies without a capture or {}", names.join(" or "))
                }
            }
        }
    }

    /// Whether `c` holds here, whatever move led here (a capture never does).
    pub(crate) fn holds_now(&self, rules: &Rules, c: &Condition) -> bool {
        self.any_holds(rules, None, std::iter::once(c))
    }

    /// Whether one of `conditions` holds, `last` having just been played; the legal
    /// moves are asked for at most once.
    fn any_holds<'a>(
        &self,
        rules: &Rules,
        last: Option<&Move>,
        mut conditions: impl Iterator<Item = &'a Condition>,
    ) -> bool {
        let mut has_move = || {
            let mut moves = Vec::new();
            self.legal_moves(rules, &mut moves);
            !moves.is_empty()
        };
        let mut judge = Judge {
            pos: self,
            rules,
            last,
            occurrences: 1,
            moves: None,
            has_move: &mut has_move,
            perpetual: &mut |_| None,
        };
        conditions.any(|c| judge.holds(c, &mut None))
    }

    /// Whether a rule that joins a capture with other conditions holds after `last`,
    /// the capture just made: perft counts nothing below it.
    pub(crate) fn ends_after_capture(&self, rules: &Rules, last: &Move) -> bool {
        let rules_in = rules.variant.end_rules.iter().filter(|r| {
            holds(r.guard, &rules.options)
                && r.condition
                    .mentions(&|e| matches!(e, Event::Captured { .. }))
        });
        self.any_holds(rules, Some(last), rules_in.map(|r| &r.condition))
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

/// Judges the conditions of end rules, asking for legal moves at most once.
struct Judge<'a, H, P> {
    pos: &'a Position,
    rules: &'a Rules,
    last: Option<&'a Move>,
    occurrences: u32,
    moves: Option<bool>,
    has_move: &'a mut H,
    perpetual: &'a mut P,
}

impl<H: FnMut() -> bool, P: FnMut(u32) -> Option<PlayerId>> Judge<'_, H, P> {
    /// Whether `c` holds; `named` takes the player it names, if it names one.
    fn holds(&mut self, c: &Condition, named: &mut Option<PlayerId>) -> bool {
        match c {
            Condition::Is(e) => self.event(*e, named),
            Condition::Not(c) => !self.holds(c, &mut None),
            Condition::All(cs) => {
                let mut first = None;
                let all = cs.iter().all(|c| {
                    let mut n = None;
                    let held = self.holds(c, &mut n);
                    first = first.or(n);
                    held
                });
                if all && named.is_none() {
                    *named = first;
                }
                all
            }
            Condition::Any(cs) => cs.iter().any(|c| {
                let mut n = None;
                let held = self.holds(c, &mut n);
                if held && named.is_none() {
                    *named = n;
                }
                held
            }),
        }
    }

    fn no_move(&mut self) -> bool {
        !*self.moves.get_or_insert_with(&mut *self.has_move)
    }

    fn event(&mut self, e: Event, named: &mut Option<PlayerId>) -> bool {
        let (pos, rules) = (self.pos, self.rules);
        match e {
            Event::Captured { piece, by } => self.last.is_some_and(|m| {
                (m.captured.is_some_and(|(_, k)| k == piece)
                    || pos.enclosed_kinds() & (1 << piece.0) != 0)
                    && by.is_none_or(|b| b == m.piece)
            }),
            Event::NoLegalMove => self.no_move(),
            Event::InCheck => pos.in_check(rules),
            Event::Checkmate => self.no_move() && pos.in_check(rules),
            Event::CheckmateOnlyBy(kinds) => {
                self.no_move() && pos.in_check(rules) && pos.checked_only_by(rules, kinds)
            }
            Event::CheckmateRunWithout(kinds) => {
                self.no_move() && pos.in_check(rules) && pos.run(pos.last_mover()) & kinds == 0
            }
            Event::Stalemate => self.no_move() && !pos.in_check(rules),
            Event::Repetition(n, false) => self.occurrences >= n,
            Event::Repetition(n, true) => {
                self.occurrences >= n && {
                    *named = (self.perpetual)(n);
                    named.is_some()
                }
            }
            e if e.names_a_player() => {
                *named = pos.happens_to(rules, e);
                named.is_some()
            }
            Event::PliesWithoutCapture(n, ..) => pos.quiet_plies() >= n,
            Event::AllPassed => pos.all_passed(),
            Event::BoardFull => pos.board_full(rules),
            Event::CountRanOut => pos.count_ran_out(),
            Event::OnlyPromotions => pos.only_promotions_left(rules),
            Event::Facing { piece, enemy } => pos.standoff_kept(rules, &[(piece, enemy)]),
            _ => false,
        }
    }
}

impl<S: Width> PositionOf<S> {
    /// See [`Position::happens_to`].
    pub(super) fn happens_to(&self, rules: &Rules, event: Event) -> Option<PlayerId> {
        self.happens_to_that(rules, event, None)
    }

    /// [`PositionOf::happens_to`], with `that player` naming `that`.
    fn happens_to_that(
        &self,
        rules: &Rules,
        event: Event,
        that: Option<PlayerId>,
    ) -> Option<PlayerId> {
        let n = self.players();
        // The player who just moved first, then the others in turn.
        let mut order = (1..=n).map(|i| PlayerId((self.to_move().0 + n - 2 + i) % n));
        match event {
            Event::Has { owner, .. } | Event::Can { owner, .. } => match owner {
                Owner::Player(p) => self.holds_for(rules, event, p).then_some(p),
                Owner::ToMove => {
                    let p = self.to_move();
                    self.holds_for(rules, event, p).then_some(p)
                }
                Owner::Every => {
                    let first = order.next()?;
                    (self.holds_for(rules, event, first)
                        && order.all(|p| self.holds_for(rules, event, p)))
                    .then_some(first)
                }
                Owner::AnyPlayer => order.find(|&p| self.holds_for(rules, event, p)),
                Owner::That => that.filter(|&p| self.holds_for(rules, event, p)),
            },
            _ => order.find(|&p| self.holds_for(rules, event, p)),
        }
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
        rules
            .ends
            .in_place_rules
            .iter()
            .any(|&i| self.holds_in_place(rules, &rules.variant.end_rules[i].condition, None))
    }

    /// Whether `c`, made of events that hold from the position alone, holds, `that`
    /// being the player `that player` names.
    pub(super) fn holds_in_place(
        &self,
        rules: &Rules,
        c: &Condition,
        that: Option<PlayerId>,
    ) -> bool {
        match c {
            Condition::Is(Event::BoardFull) => self.board_full(rules),
            Condition::Is(Event::InCheck) => self.in_check(rules),
            Condition::Is(e) => self.happens_to_that(rules, *e, that).is_some(),
            Condition::Not(c) => !self.holds_in_place(rules, c, that),
            Condition::All(cs) => cs.iter().all(|c| self.holds_in_place(rules, c, that)),
            Condition::Any(cs) => cs.iter().any(|c| self.holds_in_place(rules, c, that)),
        }
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
            Event::Extinct(kinds) => kinds & !held() != 0,
            Event::Has {
                kinds,
                least,
                most,
                only,
                place,
                state,
                ..
            } => {
                let all = u64::MAX >> (64 - rules.variant.pieces.len());
                let mask = kind_mask(rules, kinds);
                let range = least as u64..=most as u64;
                let fits = |n: u64| range.contains(&n);
                let kinds_in = |mut mask: u64| {
                    std::iter::from_fn(move || {
                        let k = (mask != 0).then(|| PieceId(mask.trailing_zeros() as u8))?;
                        mask &= mask - 1;
                        Some(k)
                    })
                };
                let on_board = |mask: u64| {
                    let mut cells = S::EMPTY;
                    for k in kinds_in(mask) {
                        cells = cells.union(&self.pieces_of(p, k));
                    }
                    match state {
                        Some(state) => {
                            S::from_cells(cells.iter().filter(|&c| self.stands(rules, c, state)))
                        }
                        None => cells,
                    }
                };
                let count = |mask: u64| -> u64 {
                    let board = || match state {
                        None if mask == all => self.of_player(p).len() as u64,
                        // The kinds' pieces stand apart: no union is needed to count them.
                        None => kinds_in(mask)
                            .map(|k| self.pieces_of(p, k).len() as u64)
                            .sum(),
                        Some(_) => on_board(mask).len() as u64,
                    };
                    // A piece in hand is neither attacked nor defended.
                    let hand = || {
                        if matches!(state, Some(State::Attacked | State::Defended)) {
                            return 0;
                        }
                        kinds_in(mask)
                            .map(|k| self.in_hand(p, k) as u64)
                            .sum::<u64>()
                    };
                    match place {
                        Place::Zone(z) => {
                            // Only the pieces in the zone have their state judged.
                            let zone = S::from_cells(
                                rules.variant.zones[z].cells[p.0 as usize].iter().copied(),
                            );
                            let mut cells = S::EMPTY;
                            for k in kinds_in(mask) {
                                cells = cells.union(&self.pieces_of(p, k));
                            }
                            (cells.intersection(&zone).iter())
                                .filter(|&c| state.is_none_or(|s| self.stands(rules, c, s)))
                                .count() as u64
                        }
                        Place::Connected(z) => {
                            let open = self.connected(rules, p, z);
                            on_board(mask).intersection(&open).len() as u64
                        }
                        Place::Fort(z) => {
                            let zone = &rules.variant.zones[z].cells[p.0 as usize];
                            (on_board(mask).iter())
                                .filter(|c| zone.contains(c) && self.in_fort(rules, p, *c))
                                .count() as u64
                        }
                        Place::Between(outer) => {
                            let ends = self.pieces_of(p, outer);
                            on_board(mask)
                                .iter()
                                .filter(|&c| self.between(rules, c, &ends))
                                .count() as u64
                        }
                        Place::Board | Place::OneColour => board(),
                        Place::Hand => hand(),
                        Place::Owned => board() + hand(),
                    }
                };
                if place == Place::OneColour {
                    let board = &rules.variant.board;
                    let cells = on_board(mask);
                    return (0..board.colours()).any(|colour| {
                        fits(cells.iter().filter(|&c| board.colour(c) == colour).count() as u64)
                    }) && !(only && count(all & !mask) > 0);
                }
                fits(count(mask)) && !(only && count(all & !mask) > 0)
            }
            Event::Can {
                capture,
                kinds,
                state,
                into,
                ..
            } => {
                p == self.to_move()
                    && self.can(rules, capture, kind_mask(rules, kinds), state, into)
            }
            Event::ChecksGiven(n) => self.checks_given(p) as u32 >= n,
            _ => false,
        }
    }

    /// Whether the player to move has a legal move that captures a piece of the kinds
    /// in the state, or (`capture` false) that moves one into its part of the zone.
    fn can(
        &self,
        rules: &Rules,
        capture: bool,
        kinds: u64,
        state: Option<State>,
        into: Option<usize>,
    ) -> bool {
        let me = self.to_move();
        let mut moves = Vec::new();
        self.legal_moves(rules, &mut moves);
        moves.iter().any(|m| {
            if capture {
                m.captured.is_some_and(|(_, k)| kinds & (1 << k.0) != 0)
                    && state
                        .is_none_or(|s| m.capture_cell().is_some_and(|c| self.stands(rules, c, s)))
            } else {
                let kind = m.promotion.unwrap_or(m.piece);
                kinds & (1 << kind.0) != 0
                    && state.is_none_or(|s| match m.special {
                        // From the hand, where nothing attacks or defends it.
                        Special::Drop => matches!(s, State::Unattacked | State::Undefended),
                        _ => self.stands(rules, m.from, s),
                    })
                    && into
                        .is_none_or(|z| rules.variant.zones[z].cells[me.0 as usize].contains(&m.to))
            }
        })
    }

    /// The cells from which a path of orthogonally adjacent cells, none holding a piece
    /// of another player than `p` or a wall, reaches `p`'s part of zone `z`.
    fn connected(&self, rules: &Rules, p: PlayerId, z: usize) -> S {
        let blocked = self.walls().union(&self.others(p));
        let zone = S::from_cells(rules.variant.zones[z].cells[p.0 as usize].iter().copied());
        reach(rules, zone.difference(&blocked), &blocked)
    }

    /// The pieces of every player but `p`.
    fn others(&self, p: PlayerId) -> S {
        let mut pieces = S::EMPTY;
        for q in (0..self.players()).map(PlayerId).filter(|q| *q != p) {
            pieces = pieces.union(self.of_player(q));
        }
        pieces
    }

    /// Whether `p`'s piece on `at` is in a fort: it has an empty cell beside it, and
    /// `p`'s other pieces wall it in so that no enemy can reach it or break the wall.
    /// The wall starts as all of them; a wall piece with both cells of a line through
    /// it (along the enclosure's lines) outside the fort and the wall could be captured,
    /// so it leaves the wall, and the fort is looked for again, until the wall holds.
    fn in_fort(&self, rules: &Rules, p: PlayerId, at: crate::geometry::Cell) -> bool {
        let walls = *self.walls();
        let free = |c: crate::geometry::Cell| self.at(c).is_none() && !walls.contains(c);
        if !rules.beside[at.index()].iter().any(|&c| free(c)) {
            return false;
        }
        let enemies = self.others(p);
        let mut wall = *self.of_player(p);
        wall.remove(at);
        loop {
            let blocked = wall.union(&walls);
            let inside = reach(rules, S::from_cells([at]), &blocked);
            if !inside.intersection(&enemies).is_empty() {
                return false;
            }
            let open = |c: crate::geometry::Cell| !inside.contains(c) && !blocked.contains(c);
            let breakable = S::from_cells(wall.iter().filter(|w| {
                (rules.lines_through.get(w.index()))
                    .is_some_and(|pairs| pairs.iter().any(|&(a, b)| open(a) && open(b)))
            }));
            if breakable.is_empty() {
                return true;
            }
            wall = wall.difference(&breakable);
        }
    }

    /// Whether the piece on `cell` stands in the state.
    fn stands(&self, rules: &Rules, cell: crate::geometry::Cell, state: State) -> bool {
        match state {
            State::Attacked => self.attackers(rules, cell, u64::MAX) > 0,
            State::Unattacked => self.attackers(rules, cell, u64::MAX) == 0,
            State::Defended => self.defenders(rules, cell) > 0,
            State::Undefended => self.defenders(rules, cell) == 0,
        }
    }

    /// Whether `cell` lies on a straight line between two of the cells `ends`.
    fn between(&self, rules: &Rules, cell: crate::geometry::Cell, ends: &S) -> bool {
        let board = &rules.variant.board;
        let (x, y) = board.point(cell);
        ends.iter().any(|a| {
            ends.iter().any(|b| {
                let ((ax, ay), (bx, by)) = (board.point(a), board.point(b));
                let (u, v) = ((ax - x, ay - y), (bx - x, by - y));
                u.0 * v.1 == u.1 * v.0 && u.0 * v.0 + u.1 * v.1 < 0
            })
        })
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

/// The kinds `kinds` names, as a bit set.
fn kind_mask(rules: &Rules, kinds: Kinds) -> u64 {
    let all = u64::MAX >> (64 - rules.variant.pieces.len());
    match kinds {
        Kinds::All => all,
        Kinds::Royal => rules.royal,
        Kinds::NonRoyal => all & !rules.royal,
        Kinds::Named(m) => m,
    }
}

/// The cells reached from `from` by steps to a cell beside (across a side), never onto
/// a cell of `blocked`.
fn reach<S: CellSet>(rules: &Rules, from: S, blocked: &S) -> S {
    let mut reached = from;
    let mut frontier = from;
    while !frontier.is_empty() {
        let mut next = S::EMPTY;
        for c in frontier.iter() {
            for &n in &rules.beside[c.index()] {
                if !reached.contains(n) && !blocked.contains(n) {
                    next.insert(n);
                }
            }
        }
        reached = reached.union(&next);
        frontier = next;
    }
    reached
}
