//! A game's result as each player's share of the point: the one answer that play,
//! the page and self-play statistics all read.

use crate::compile::MAX_PLAYERS;
use crate::model::{Outcome, PlayerId, Variant};
use std::fmt::Write;

/// Each player's share of the point, `points[p] / out_of`; the shares add up to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    points: [u32; MAX_PLAYERS],
    out_of: u32,
    players: u8,
}

impl Score {
    /// What an outcome gives. `mover` made the last move; `named` is the player the
    /// rule names (see `Verdict::named`), for `checker` and `that player`. What a named player
    /// does not get is shared equally by the others.
    pub fn of(outcome: Outcome, mover: PlayerId, named: Option<PlayerId>, players: u8) -> Score {
        let n = (players as u32).clamp(1, MAX_PLAYERS as u32);
        let Some((who, num, den)) = outcome.scored(mover, named) else {
            return Score::shared(n, None, 0, 1);
        };
        Score::shared(n, Some(who), num, den)
    }

    /// `who` gets `num/den`; every other player an equal part of the rest.
    fn shared(n: u32, who: Option<PlayerId>, num: u32, den: u32) -> Score {
        let mut points = [0; MAX_PLAYERS];
        let (out_of, mine, each) = match who {
            None => (n, 0, 1),
            Some(_) if n == 1 => (den, num, 0),
            Some(_) => (den * (n - 1), num * (n - 1), den - num),
        };
        for (p, slot) in points.iter_mut().enumerate().take(n as usize) {
            *slot = if who.is_some_and(|w| w.0 as usize == p) {
                mine
            } else {
                each
            };
        }
        Score {
            points,
            out_of,
            players: n as u8,
        }
    }

    pub fn players(&self) -> u8 {
        self.players
    }

    /// A player's share as a fraction in lowest terms.
    pub fn fraction(&self, p: PlayerId) -> (u32, u32) {
        let (a, b) = (self.points[p.0 as usize], self.out_of);
        let g = gcd(a, b).max(1);
        (a / g, b / g)
    }

    /// A player's share, from 0 to 1.
    pub fn share(&self, p: PlayerId) -> f64 {
        self.points[p.0 as usize] as f64 / self.out_of as f64
    }

    /// The player who takes the whole point, when there are two players or more.
    pub fn winner(&self) -> Option<PlayerId> {
        let all = (0..self.players).find(|p| self.points[*p as usize] == self.out_of)?;
        (self.players > 1).then_some(PlayerId(all))
    }

    /// Whether every player has the same share.
    pub fn is_draw(&self) -> bool {
        self.players > 1
            && self
                .ids()
                .all(|p| self.points[p.0 as usize] == self.points[0])
    }

    fn ids(&self) -> impl Iterator<Item = PlayerId> + use<> {
        (0..self.players).map(PlayerId)
    }

    /// The result in words: `Orange wins`, `draw`, `Solo loses`, or each player's
    /// score, `White scores 3/4, Black scores 1/4`.
    pub fn describe(&self, v: &Variant) -> String {
        let name = |p: PlayerId| v.player(p).name.as_str();
        if let Some(w) = self.winner() {
            return format!("{} wins", name(w));
        }
        if self.is_draw() {
            return "draw".to_string();
        }
        let points = |p: &PlayerId| self.points[p.0 as usize];
        let zero: Vec<PlayerId> = self.ids().filter(|p| points(p) == 0).collect();
        let rest: Vec<u32> = self
            .ids()
            .filter(|p| points(p) != 0)
            .map(|p| points(&p))
            .collect();
        if self.players > 1 && zero.len() == 1 && rest.windows(2).all(|w| w[0] == w[1]) {
            return format!("{} loses", name(zero[0]));
        }
        if self.players == 1 && zero.len() == 1 {
            return format!("{} loses", name(zero[0]));
        }
        if self.players == 1 && self.points[0] == self.out_of {
            return format!("{} wins", name(PlayerId(0)));
        }
        let mut s = String::new();
        for p in self.ids() {
            let (a, b) = self.fraction(p);
            let sep = if s.is_empty() { "" } else { ", " };
            let _ = write!(s, "{sep}{} scores {a}/{b}", name(p));
        }
        s
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(o: Outcome, mover: u8, players: u8) -> Score {
        Score::of(o, PlayerId(mover), None, players)
    }

    #[test]
    fn two_players() {
        let s = of(Outcome::scores(crate::model::Who::Mover, 3, 4), 0, 2);
        assert_eq!(s.fraction(PlayerId(0)), (3, 4));
        assert_eq!(s.fraction(PlayerId(1)), (1, 4));
        assert_eq!((s.winner(), s.is_draw()), (None, false));
        assert_eq!(of(Outcome::MOVER_LOSES, 1, 2).winner(), Some(PlayerId(0)));
        assert_eq!(
            of(Outcome::scores(crate::model::Who::Mover, 0, 4), 1, 2).winner(),
            Some(PlayerId(0))
        );
        assert!(of(Outcome::scores(crate::model::Who::Mover, 2, 4), 1, 2).is_draw());
        assert_eq!(of(Outcome::Draw, 1, 2).share(PlayerId(1)), 0.5);
    }

    #[test]
    fn one_and_three_players() {
        let solo = of(Outcome::MOVER_LOSES, 0, 1);
        assert_eq!(
            (solo.winner(), solo.is_draw(), solo.share(PlayerId(0))),
            (None, false, 0.0)
        );
        let three = of(Outcome::MOVER_LOSES, 2, 3);
        assert_eq!(three.fraction(PlayerId(0)), (1, 2));
        assert_eq!(three.fraction(PlayerId(2)), (0, 1));
        let three = of(Outcome::scores(crate::model::Who::Mover, 1, 4), 0, 3);
        assert_eq!(three.fraction(PlayerId(0)), (1, 4));
        assert_eq!(three.fraction(PlayerId(1)), (3, 8));
    }

    #[test]
    fn checker_loses() {
        let s = Score::of(Outcome::CHECKER_LOSES, PlayerId(0), Some(PlayerId(1)), 2);
        assert_eq!(s.winner(), Some(PlayerId(0)));
    }
}
