//! A game in progress: moves played, undo, and the end rules applied after each move.

use super::notation::{MoveError, parse_move, write_move, write_position};
use super::position::{Move, Position, PositionError, Setup, Undo};
use crate::check::{Event, Outcome, PlayerId};
use crate::compile::Rules;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Outcome,
    /// The winner, when the rule names one and there are two players.
    pub winner: Option<PlayerId>,
    /// The rule that ended the game, in words.
    pub reason: String,
    /// Its index among the variant's end rules.
    pub rule: usize,
}

/// A game: the start, the moves since, and the ending once there is one.
#[derive(Clone, Debug)]
pub struct Game {
    start: Setup,
    position: Position,
    history: Vec<(Move, Undo)>,
    /// Repetition keys of every position so far, the start included.
    keys: Vec<u64>,
    ending: Option<Ending>,
}

impl Game {
    pub fn new(rules: &Rules, start: Setup) -> Result<Game, PositionError> {
        let position = Position::from_setup(rules, &start)?;
        position.check_playable(rules)?;
        let keys = vec![position.repetition_key()];
        let mut g = Game {
            start,
            position,
            history: vec![],
            keys,
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
        self.keys.push(self.position.repetition_key());
        self.ending = self.judge(rules);
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some((m, undo)) = self.history.pop() else {
            return false;
        };
        self.position.unmake(&m, undo);
        self.keys.pop();
        self.ending = None;
        true
    }

    /// The current position as a position string.
    pub fn position_string(&self, rules: &Rules) -> String {
        write_position(rules, &self.position.to_setup(rules))
    }

    /// How many times the current position has occurred, this time included.
    pub fn occurrences(&self) -> u32 {
        let key = self.position.repetition_key();
        self.keys.iter().filter(|k| **k == key).count() as u32
    }

    /// The first end rule (in the file's order) that applies now, with its reason.
    fn judge(&self, rules: &Rules) -> Option<Ending> {
        let v = &rules.variant;
        let last = self.history.last().map(|(m, _)| m);
        let players = v.players.len() as u8;
        let mover = PlayerId((self.position.to_move().0 + players - 1) % players);
        let verdict = self.position.verdict(rules, last, self.occurrences(), || {
            let mut moves = Vec::new();
            self.position.legal_moves(rules, &mut moves);
            !moves.is_empty()
        })?;
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
            Event::Repetition(n) => format!("the position occurred {n} times"),
            Event::PliesWithoutCapture(n) => format!("{n} plies without a capture"),
        };
        Some(Ending {
            outcome: verdict.outcome,
            winner: verdict.winner(mover, players),
            reason,
            rule: verdict.rule,
        })
    }
}

/// A saved game as text:
///
/// ```text
/// variant variants/my-game.var
/// option some-rule=off
/// start <position string>
/// moves e2-e3 f9-f8 ...
/// ```
///
/// Lines may come in any order; `option` may repeat; `#` starts a comment line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    pub variant: String,
    pub options: Vec<(String, bool)>,
    pub start: String,
    pub moves: Vec<String>,
}

impl SavedGame {
    pub fn of(game: &Game, rules: &Rules, variant_path: &str) -> SavedGame {
        let v = &rules.variant;
        SavedGame {
            variant: variant_path.to_string(),
            options: v
                .options
                .iter()
                .zip(&rules.options)
                .map(|(o, on)| (o.name.clone(), *on))
                .collect(),
            start: write_position(rules, &game.start),
            moves: game.moves().map(|m| write_move(v, m)).collect(),
        }
    }

    pub fn to_text(&self) -> String {
        let mut s = format!("variant {}\n", self.variant);
        for (name, on) in &self.options {
            s += &format!("option {name}={}\n", if *on { "on" } else { "off" });
        }
        s += &format!("start {}\nmoves {}\n", self.start, self.moves.join(" "));
        s
    }

    pub fn parse(text: &str) -> Result<SavedGame, String> {
        let mut g = SavedGame {
            variant: String::new(),
            options: vec![],
            start: String::new(),
            moves: vec![],
        };
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            match key {
                "variant" => g.variant = rest.to_string(),
                "start" => g.start = rest.to_string(),
                "moves" => g.moves = rest.split_whitespace().map(String::from).collect(),
                "option" => {
                    let (n, v) = rest
                        .split_once('=')
                        .ok_or_else(|| format!("line {}: write `option NAME=on`", i + 1))?;
                    let on = match v.trim() {
                        "on" => true,
                        "off" => false,
                        other => return Err(format!("line {}: `{other}` is not on or off", i + 1)),
                    };
                    g.options.push((n.trim().to_string(), on));
                }
                other => return Err(format!("line {}: unknown field `{other}`", i + 1)),
            }
        }
        if g.variant.is_empty() {
            return Err("the saved game names no variant file".into());
        }
        Ok(g)
    }
}
