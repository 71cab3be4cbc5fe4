//! A game in progress: it owns its rules, plays only legal moves, undoes, and applies
//! the end rules after each move.

use super::move_text::{MoveError, parse_move, write_move};
use super::position::{Move, Position, PositionError, Setup, Undo};
use super::position_text::write_position;
use super::score::Score;
use crate::compile::Rules;
use crate::model::{Outcome, PlayerId, Variant};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Outcome,
    /// Each player's share of the point.
    pub score: Score,
    /// The player who made the last move, whom `mover wins`/`mover loses` name.
    pub mover: PlayerId,
    /// The rule that ended the game, in words.
    pub reason: String,
    /// Its index among the variant's end rules.
    pub rule: usize,
}

impl Ending {
    /// The player who takes the whole point, if one does.
    pub fn winner(&self) -> Option<PlayerId> {
        self.score.winner()
    }

    /// The result in words (see [`Score::describe`]).
    pub fn result(&self, v: &Variant) -> String {
        self.score.describe(v)
    }
}

/// Why a move was not played. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game has ended; why.
    Over(String),
    /// The move is not one of the legal moves now.
    NotLegal(String),
    /// The text names no legal move; why.
    Text(MoveError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Over(reason) => write!(f, "the game is over: {reason}"),
            PlayError::NotLegal(m) => write!(f, "{m} is not a legal move here"),
            PlayError::Text(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

/// A game: its rules, the start, the moves since, and the ending once there is one.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Arc<Rules>,
    start: Setup,
    position: Position,
    history: Vec<(Move, Undo)>,
    /// Repetition keys of every position so far, the start included.
    keys: Vec<u64>,
    /// How often each key occurs in `keys`: repetition is counted without going
    /// through the whole game after each move.
    counts: HashMap<u64, u32>,
    /// For each position so far: whether its side to move is in check.
    checked: Vec<bool>,
    ending: Option<Ending>,
}

impl Game {
    /// A game of these rules from `start`, which must be a position the rules allow.
    pub fn new(rules: Arc<Rules>, start: Setup) -> Result<Game, PositionError> {
        let position = Position::from_setup(&rules, &start)?;
        position.check_playable(&rules)?;
        let keys = vec![position.key()];
        let counts = HashMap::from([(position.key(), 1)]);
        let checked = vec![position.in_check(&rules)];
        let mut g = Game {
            rules,
            start,
            position,
            history: vec![],
            keys,
            counts,
            checked,
            ending: None,
        };
        g.ending = g.judge();
        Ok(g)
    }

    /// A game from the variant's own start (a random setup drawn from `seed`).
    pub fn start(rules: Arc<Rules>, seed: u64) -> Result<Game, PositionError> {
        let start = Setup::seeded(&rules, seed)?;
        Game::new(rules, start)
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn variant(&self) -> &Variant {
        &self.rules.variant
    }
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The position the game started from.
    pub fn start_setup(&self) -> &Setup {
        &self.start
    }
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = &Move> + ExactSizeIterator {
        self.history.iter().map(|(m, _)| m)
    }
    /// The number of moves played since the start.
    pub fn move_count(&self) -> usize {
        self.history.len()
    }
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }
    /// The side to move.
    pub fn to_move(&self) -> PlayerId {
        self.position.to_move()
    }
    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.checked.last().copied().unwrap_or(false)
    }

    /// The legal moves now; none once the game has ended.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.ending.is_none() {
            self.position.legal_moves(&self.rules, &mut out);
        }
        out
    }

    /// A move in the game's notation.
    pub fn write_move(&self, m: &Move) -> String {
        write_move(&self.rules.variant, m)
    }

    /// A legal move to show as an example, written as it is typed; none once the game
    /// has ended.
    pub fn example_move(&self) -> Option<String> {
        self.ending
            .is_none()
            .then(|| super::move_text::example(&self.rules, &self.position))?
    }

    /// The moves played, each written as it is read back where it was made (a capture
    /// on the way or a pass in USI names the cell it steps through, a jump shared with
    /// another its path): what saves and lists of moves keep.
    pub fn written_moves(&self) -> Vec<String> {
        let moves: Vec<Move> = self.moves().copied().collect();
        let Ok(mut pos) = Position::from_setup(&self.rules, &self.start) else {
            return moves.iter().map(|m| self.write_move(m)).collect();
        };
        let mut out = Vec::with_capacity(moves.len());
        for m in &moves {
            out.push(super::move_text::write_move_at(&self.rules, &pos, m));
            pos.make(&self.rules, m);
        }
        out
    }

    /// Finds the legal move a text names, without playing it.
    pub fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        if let Some(e) = &self.ending {
            return Err(PlayError::Over(e.reason.clone()));
        }
        parse_move(&self.rules, &self.position, text).map_err(PlayError::Text)
    }

    /// Plays a move given in notation. A refused move leaves the game as it was.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        let m = self.parse_move(text)?;
        self.play_unchecked(m);
        Ok(m)
    }

    /// Plays a move, which must be one of [`Game::legal_moves`]; any other is refused
    /// and the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        if let Some(e) = &self.ending {
            return Err(PlayError::Over(e.reason.clone()));
        }
        if !self.legal_moves().contains(&m) {
            // A move of another game may name cells or kinds this one lacks.
            let board = &self.rules.variant.board;
            let on_board = |c: crate::geometry::Cell| c.index() < board.len();
            let named = match on_board(m.from) && on_board(m.to) {
                true => format!("{}-{}", board.name(m.from), board.name(m.to)),
                false => "a move off this board".to_string(),
            };
            return Err(PlayError::NotLegal(named));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move known to be legal here, as a search's best move is.
    pub(crate) fn play_unchecked(&mut self, m: Move) {
        let undo = self.position.make(&self.rules, &m);
        self.history.push((m, undo));
        self.keys.push(self.position.key());
        *self.counts.entry(self.position.key()).or_default() += 1;
        self.checked.push(self.position.in_check(&self.rules));
        self.ending = self.judge();
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some((m, undo)) = self.history.pop() else {
            return false;
        };
        if let Some(key) = self.keys.pop()
            && let Some(n) = self.counts.get_mut(&key)
        {
            *n -= 1;
            if *n == 0 {
                self.counts.remove(&key);
            }
        }
        self.position.unmake(&self.rules, &m, undo);
        self.checked.pop();
        self.ending = None;
        true
    }

    /// The moves played, in the game's short notation (SAN for the chess family).
    pub fn short_moves(&self) -> Vec<String> {
        let moves: Vec<Move> = self.moves().copied().collect();
        match Position::from_setup(&self.rules, &self.start) {
            Ok(start) => super::short_text::write_short_line(&self.rules, &start, &moves),
            Err(_) => moves.iter().map(|m| self.write_move(m)).collect(),
        }
    }

    /// The cells of the side to move's royal pieces that stand attacked.
    pub fn checked_royals(&self) -> Vec<crate::geometry::Cell> {
        if !self.in_check() {
            return Vec::new();
        }
        let me = self.position.to_move();
        let v = &self.rules.variant;
        v.board
            .cells()
            .filter(|&c| {
                self.position.at(c).is_some_and(|(p, k)| {
                    p == me
                        && self.rules.royal & (1 << k.0) != 0
                        && self.position.attackers(&self.rules, c, u64::MAX) > 0
                })
            })
            .collect()
    }

    /// The current position as a position string.
    pub fn position_string(&self) -> String {
        write_position(&self.rules, &self.position.to_setup(&self.rules))
    }

    /// The start as a position string.
    pub fn start_string(&self) -> String {
        write_position(&self.rules, &self.start)
    }

    /// How many times the current position has occurred, this time included.
    pub fn occurrences(&self) -> u32 {
        self.counts.get(&self.position.key()).copied().unwrap_or(0)
    }

    /// The keys of every position of the game so far, the start first and the current
    /// one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Whether the side to move was in check in each position of the game so far, the
    /// current one last.
    pub fn checks(&self) -> &[bool] {
        &self.checked
    }

    /// The first end rule (in the file's order) that applies now, with its reason.
    fn judge(&self) -> Option<Ending> {
        let rules = &*self.rules;
        let v = &rules.variant;
        let last = self.history.last().map(|(m, _)| m);
        let players = v.players.len() as u8;
        let mover = PlayerId((self.position.to_move().0 + players - 1) % players);
        let verdict = self.position.verdict(
            rules,
            last,
            self.occurrences(),
            || {
                let mut moves = Vec::new();
                self.position.legal_moves(rules, &mut moves);
                !moves.is_empty()
            },
            |n| {
                let key = self.position.key();
                let seen: Vec<usize> = (0..self.keys.len())
                    .filter(|i| self.keys[*i] == key)
                    .collect();
                let first = *seen.get(seen.len().checked_sub(n as usize)?)?;
                super::end::perpetual_checker(
                    &self.checked,
                    first,
                    self.position.to_move(),
                    players,
                )
            },
        )?;
        let reason = self.position.reason(rules, &verdict, last);
        Some(Ending {
            outcome: verdict.outcome,
            score: Score::of(verdict.outcome, mover, verdict.named, players),
            mover,
            reason,
            rule: verdict.rule,
        })
    }
}
