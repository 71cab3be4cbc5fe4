//! A game in progress: moves played, undo, and the end rules applied after each move.

use super::notation::{MoveError, parse_move, write_move, write_position};
use super::position::{Move, Position, PositionError, Setup, Undo};
use crate::compile::Rules;
use crate::model::{Event, Outcome, PlayerId, Variant};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Outcome,
    /// The winner, when the rule names one and there are two players.
    pub winner: Option<PlayerId>,
    /// The player who made the last move, whom `mover wins`/`mover loses` name.
    pub mover: PlayerId,
    /// The rule that ended the game, in words.
    pub reason: String,
    /// Its index among the variant's end rules.
    pub rule: usize,
}

impl Ending {
    /// The result as declared: `Orange wins`, `draw`, each player's score for
    /// `mover scores`, or with one player or more than two, `Solo loses` for
    /// `mover loses`.
    pub fn result(&self, v: &Variant) -> String {
        match (self.outcome, self.winner) {
            (_, Some(w)) => format!("{} wins", v.player(w).name),
            (Outcome::Draw, None) => "draw".to_string(),
            (Outcome::MoverWins, None) => format!("{} wins", v.player(self.mover).name),
            (Outcome::MoverLoses, None) => format!("{} loses", v.player(self.mover).name),
            (Outcome::MoverScores(a, b), None) if v.players.len() == 2 => {
                let other = PlayerId((self.mover.0 + 1) % 2);
                format!(
                    "{} scores {a}/{b}, {} scores {}/{b}",
                    v.player(self.mover).name,
                    v.player(other).name,
                    b.saturating_sub(a)
                )
            }
            (Outcome::MoverScores(a, b), None) => {
                format!("{} scores {a}/{b}", v.player(self.mover).name)
            }
            (Outcome::CheckerLoses, None) => "the side that checked loses".to_string(),
        }
    }
}

/// A game: the start, the moves since, and the ending once there is one.
#[derive(Clone, Debug)]
pub struct Game {
    start: Setup,
    position: Position,
    history: Vec<(Move, Undo)>,
    /// Repetition keys of every position so far, the start included.
    keys: Vec<u64>,
    /// For each position so far: whether its side to move is in check.
    checked: Vec<bool>,
    ending: Option<Ending>,
}

impl Game {
    pub fn new(rules: &Rules, start: Setup) -> Result<Game, PositionError> {
        let position = Position::from_setup(rules, &start)?;
        position.check_playable(rules)?;
        let keys = vec![position.key()];
        let checked = vec![position.in_check(rules)];
        let mut g = Game {
            start,
            position,
            history: vec![],
            keys,
            checked,
            ending: None,
        };
        g.ending = g.judge(rules);
        Ok(g)
    }

    pub fn position(&self) -> &Position {
        &self.position
    }
    pub fn start(&self) -> &Setup {
        &self.start
    }
    pub fn moves(&self) -> impl Iterator<Item = &Move> {
        self.history.iter().map(|(m, _)| m)
    }
    /// The number of moves played since the start.
    pub fn move_count(&self) -> usize {
        self.history.len()
    }
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The legal moves now; none once the game has ended.
    pub fn legal_moves(&self, rules: &Rules) -> Vec<Move> {
        let mut out = Vec::new();
        if self.ending.is_none() {
            self.position.legal_moves(rules, &mut out);
        }
        out
    }

    /// Plays a move given in notation. A refused move leaves the game as it was.
    pub fn play_text(&mut self, rules: &Rules, text: &str) -> Result<Move, MoveError> {
        if let Some(e) = &self.ending {
            return Err(MoveError::GameOver(e.reason.clone()));
        }
        let m = parse_move(rules, &self.position, text)?;
        self.play(rules, m);
        Ok(m)
    }

    /// Plays a move that must be one of [`Game::legal_moves`].
    pub fn play(&mut self, rules: &Rules, m: Move) {
        let undo = self.position.make(rules, &m);
        self.history.push((m, undo));
        self.keys.push(self.position.key());
        self.checked.push(self.position.in_check(rules));
        self.ending = self.judge(rules);
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self, rules: &Rules) -> bool {
        let Some((m, undo)) = self.history.pop() else {
            return false;
        };
        self.position.unmake(rules, &m, undo);
        self.keys.pop();
        self.checked.pop();
        self.ending = None;
        true
    }

    /// The current position as a position string.
    pub fn position_string(&self, rules: &Rules) -> String {
        write_position(rules, &self.position.to_setup(rules))
    }

    /// How many times the current position has occurred, this time included.
    pub fn occurrences(&self) -> u32 {
        let key = self.position.key();
        self.keys.iter().filter(|k| **k == key).count() as u32
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
    fn judge(&self, rules: &Rules) -> Option<Ending> {
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
        let reason = match v.end_rules[verdict.rule].event {
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
            Event::NoLegalMove => format!(
                "{} has no legal move",
                v.player(self.position.to_move()).name
            ),
            Event::Checkmate => format!("{} is checkmated", v.player(self.position.to_move()).name),
            Event::Stalemate => format!("{} is stalemated", v.player(self.position.to_move()).name),
            Event::Repetition(n, false) => format!("the position occurred {n} times"),
            Event::Repetition(n, true) => format!(
                "the position occurred {n} times, {} checking on every move",
                v.player(verdict.checker.unwrap_or(mover)).name
            ),
            Event::PliesWithoutCapture(n, kinds) => {
                let names: Vec<&str> = (0..v.pieces.len())
                    .filter(|k| kinds & (1 << k) != 0)
                    .map(|k| v.pieces[k].name.as_str())
                    .collect();
                if names.is_empty() {
                    format!("{n} plies without a capture")
                } else {
                    format!(
                        "{n} plies without a capture or a {} move",
                        names.join(" or ")
                    )
                }
            }
        };
        Some(Ending {
            outcome: verdict.outcome,
            winner: verdict.winner(mover, players),
            mover,
            reason,
            rule: verdict.rule,
        })
    }
}
