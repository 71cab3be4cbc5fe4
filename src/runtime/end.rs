//! The end rules, judged in one place for games and searches alike.

use super::position::{Move, Position};
use crate::compile::Rules;
use crate::model::{Event, Outcome, PlayerId, holds};

/// An end rule that applies: its index in the variant's list and what it decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub rule: usize,
    pub outcome: Outcome,
    /// Who checked on every move of a repetition, for a perpetual-check rule.
    pub checker: Option<PlayerId>,
}

impl Position {
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
        let mut checker = None;
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
                Event::Stalemate => {
                    !*moves.get_or_insert_with(&mut has_move) && !self.in_check(rules)
                }
                Event::Repetition(n, false) => occurrences >= n,
                Event::Repetition(n, true) => {
                    occurrences >= n && {
                        checker = perpetual(n);
                        checker.is_some()
                    }
                }
                Event::PliesWithoutCapture(n, _) => self.quiet_plies() >= n,
                Event::AllPassed => self.all_passed(),
            };
            if applies {
                return Some(Verdict {
                    rule: i,
                    outcome: rule.outcome,
                    checker,
                });
            }
        }
        None
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
