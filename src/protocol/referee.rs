//! A match between two engines that speak UCI or USI, for any variant: the runtime is
//! the referee, so a game ends, and an illegal move loses, by the variant file's rules.
//! Each opening (random legal moves from a seed) is played twice, the engines swapping
//! sides.

use super::lines::{self, Line};
use super::{Dialect, notation};
use crate::{Game, PlayerId, PositionError, Rng, Rules, write_pgn};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long an engine may take to start, or to answer `isready`.
const STARTUP: Duration = Duration::from_secs(30);
/// How long past its move time an engine may take before it is told to stop, and then
/// before it loses on time.
const GRACE: Duration = Duration::from_secs(5);
/// How long a search to a fixed depth may take before it is told to stop.
const DEPTH_TIME: Duration = Duration::from_secs(120);
/// Openings drawn before the match gives up on finding one where the game goes on.
const OPENING_TRIES: u32 = 1000;

/// One engine of a match: the program and its arguments, the options to set, and
/// the depth it searches each move to instead of the match's move time.
#[derive(Clone, Debug)]
pub struct Contender {
    pub command: Vec<String>,
    pub options: Vec<(String, String)>,
    pub depth: Option<u32>,
}

/// What a match plays.
#[derive(Clone, Debug)]
pub struct Plan {
    pub games: u32,
    pub movetime: Duration,
    /// Random legal moves played before the engines take over.
    pub opening_plies: u32,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    pub seed: u64,
}

/// Why a match could not go on.
#[derive(Debug)]
pub enum MatchError {
    /// The program could not be started, or its pipes broke.
    Io {
        engine: String,
        error: std::io::Error,
    },
    /// It did not answer as the protocol asks within the time it had.
    Silent { engine: String, waiting_for: String },
    /// It ended (or closed its output) while an answer was awaited.
    Ended { engine: String, waiting_for: String },
    /// The variant's start cannot be set up.
    Start(PositionError),
    /// The game is over at the start, by the reason given.
    OverAtStart(String),
    /// Every opening drawn ended the game before the engines could play.
    NoOpening { tries: u32, plies: u32 },
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::Io { engine, error } => write!(f, "engine `{engine}`: {error}"),
            MatchError::Silent {
                engine,
                waiting_for,
            } => write!(
                f,
                "engine `{engine}` did not answer `{waiting_for}` in time"
            ),
            MatchError::Ended {
                engine,
                waiting_for,
            } => write!(
                f,
                "engine `{engine}` ended before answering `{waiting_for}`"
            ),
            MatchError::Start(e) => write!(f, "the variant's start cannot be set up: {e}"),
            MatchError::OverAtStart(reason) => write!(
                f,
                "the game is over at the start ({reason}): there is nothing to play"
            ),
            MatchError::NoOpening { tries, plies } => write!(
                f,
                "each of {tries} openings of {plies} random moves ended the game \
                 before the engines could play"
            ),
        }
    }
}

impl std::error::Error for MatchError {}

/// One game played: the game as the referee saw it, the first engine's side, its
/// points (1, ½ or 0), and why it ended.
pub struct Played {
    pub game: Game,
    pub first_plays: PlayerId,
    pub points: f64,
    pub reason: String,
}

/// A running engine process, its lines read on a thread of their own.
struct Process {
    name: String,
    depth: Option<u32>,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn start(c: &Contender, dialect: Dialect) -> Result<Process, MatchError> {
        let name = c.command.join(" ");
        let io = |error| MatchError::Io {
            engine: name.clone(),
            error,
        };
        let (program, args) = c
            .command
            .split_first()
            .ok_or_else(|| io(std::io::Error::other("no program named")))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(io)?;
        let input = child.stdin.take().expect("piped");
        let output = child.stdout.take().expect("piped");
        let (send, lines) = channel();
        // Read as bytes: a stray byte that is not UTF-8 shows as U+FFFD, and a line too
        // long to be an answer is dropped.
        std::thread::spawn(move || {
            for line in lines::lines(BufReader::new(output)) {
                let Line::Text(line) = line else { continue };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = Process {
            name,
            depth: c.depth,
            child,
            input,
            lines,
        };
        let (hello, ok) = match dialect {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Usi => ("usi", "usiok"),
        };
        p.send(hello)?;
        p.expect(ok, STARTUP)?;
        for (name, value) in &c.options {
            p.send(&format!("setoption name {name} value {value}"))?;
        }
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), MatchError> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|error| match error.kind() {
                std::io::ErrorKind::BrokenPipe => MatchError::Ended {
                    engine: self.name.clone(),
                    waiting_for: line.to_string(),
                },
                _ => MatchError::Io {
                    engine: self.name.clone(),
                    error,
                },
            })
    }

    /// Waits for a line beginning with `word`, and returns it.
    fn expect(&mut self, word: &str, within: Duration) -> Result<String, MatchError> {
        let until = Instant::now() + within;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.split_whitespace().next() == Some(word) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(MatchError::Silent {
                        engine: self.name.clone(),
                        waiting_for: word.into(),
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(MatchError::Ended {
                        engine: self.name.clone(),
                        waiting_for: word.into(),
                    });
                }
            }
        }
    }

    fn ready(&mut self) -> Result<(), MatchError> {
        self.send("isready")?;
        self.expect("readyok", STARTUP).map(|_| ())
    }

    /// The engine's move from the start after `moves`, or None when it resigns.
    fn best_move(
        &mut self,
        moves: &[String],
        movetime: Duration,
    ) -> Result<Option<String>, MatchError> {
        let mut line = String::from("position startpos");
        if !moves.is_empty() {
            line += " moves ";
            line += &moves.join(" ");
        }
        self.send(&line)?;
        let within = match self.depth {
            Some(d) => {
                self.send(&format!("go depth {d}"))?;
                DEPTH_TIME
            }
            None => {
                self.send(&format!("go movetime {}", movetime.as_millis()))?;
                movetime + GRACE
            }
        };
        let answer = match self.expect("bestmove", within) {
            Ok(a) => a,
            Err(MatchError::Silent { .. }) => {
                self.send("stop")?;
                self.expect("bestmove", GRACE)?
            }
            Err(e) => return Err(e),
        };
        Ok(answer
            .split_whitespace()
            .nth(1)
            .filter(|m| !matches!(*m, "resign" | "(none)" | "0000" | "win"))
            .map(str::to_string))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A position after random legal moves from the start, the same for a seed; one where
/// the game goes on, drawn again at most [`OPENING_TRIES`] times.
fn opening(rules: &Arc<Rules>, plies: u32, seed: u64) -> Result<Game, MatchError> {
    let start = Game::start(rules.clone(), 0).map_err(MatchError::Start)?;
    if let Some(end) = start.ending() {
        return Err(MatchError::OverAtStart(end.reason.clone()));
    }
    let mut rng = Rng::new(seed);
    for _ in 0..OPENING_TRIES {
        let mut game = start.clone();
        for _ in 0..plies {
            let moves = game.legal_moves();
            if game.ending().is_some() || moves.is_empty() {
                break;
            }
            game.play(moves[rng.below(moves.len())])
                .expect("a legal move");
        }
        if game.ending().is_none() {
            return Ok(game);
        }
    }
    Err(MatchError::NoOpening {
        tries: OPENING_TRIES,
        plies,
    })
}

/// Plays the match, calling `each` after every game; the games played.
pub fn play_match(
    rules: &Arc<Rules>,
    dialect: Dialect,
    plan: &Plan,
    contenders: [&Contender; 2],
    mut each: impl FnMut(u32, &Played),
) -> Result<Vec<Played>, MatchError> {
    let seed = |g: u32| plan.seed.wrapping_mul(100_003).wrapping_add(g as u64 / 2);
    // A variant with no opening to play is refused before any engine starts.
    opening(rules, plan.opening_plies, seed(0))?;
    let mut engines = [
        Process::start(contenders[0], dialect)?,
        Process::start(contenders[1], dialect)?,
    ];
    let mut played = Vec::new();
    for g in 0..plan.games {
        let mut game = opening(rules, plan.opening_plies, seed(g))?;
        let first_plays = PlayerId((g % 2) as u8);
        for e in engines.iter_mut() {
            e.send(match dialect {
                Dialect::Uci => "ucinewgame",
                Dialect::Usi => "usinewgame",
            })?;
            e.ready()?;
        }
        let mut moves: Vec<String> = game
            .moves()
            .map(|m| notation::write(rules, dialect, m))
            .collect();
        let mut forfeit = None;
        while game.ending().is_none() && game.move_count() < plan.max_plies {
            let mover = game.to_move();
            let e = &mut engines[(mover != first_plays) as usize];
            let Some(text) = e.best_move(&moves, plan.movetime)? else {
                forfeit = Some((mover, "resigned".to_string()));
                break;
            };
            if let Err(err) = game.play_text(&notation::readable(&text)) {
                forfeit = Some((mover, format!("played `{text}`, refused: {err}")));
                break;
            }
            moves.push(text);
        }
        let first = first_plays;
        let (points, reason) = match (&forfeit, game.ending()) {
            (Some((loser, why)), _) => (if *loser == first { 0.0 } else { 1.0 }, why.clone()),
            (None, Some(end)) => {
                let points = match end.winner() {
                    Some(w) if w == first => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                (points, end.reason.clone())
            }
            (None, None) => (0.5, format!("no result in {} plies", plan.max_plies)),
        };
        let p = Played {
            game,
            first_plays,
            points,
            reason,
        };
        each(g, &p);
        played.push(p);
    }
    Ok(played)
}

/// The PGN of a played game, the engines named by their commands.
pub fn pgn(p: &Played, names: [&str; 2]) -> String {
    let players = match p.first_plays {
        PlayerId(0) => names,
        _ => [names[1], names[0]],
    };
    write_pgn(&p.game, "variantlab match", players)
}

/// The first engine's mean score and its 95% interval (Wilson's, which stays honest
/// when every game went one way), and the Elo differences they mean (infinite at a
/// score of 0 or 1).
pub fn summary(points: &[f64]) -> (f64, [f64; 2], [f64; 3]) {
    let n = points.len().max(1) as f64;
    let mean = points.iter().sum::<f64>() / n;
    let z2 = 1.96f64 * 1.96;
    let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = 1.96 / (1.0 + z2 / n) * (mean * (1.0 - mean) / n + z2 / (4.0 * n * n)).sqrt();
    let (low, high) = ((centre - half).max(0.0), (centre + half).min(1.0));
    let elo = |s: f64| match s {
        s if s <= 0.0 => f64::NEG_INFINITY,
        s if s >= 1.0 => f64::INFINITY,
        // Rounded here, so that no -0 is printed.
        s => (-400.0 * (1.0 / s - 1.0).log10()).round() + 0.0,
    };
    (mean, [low, high], [elo(mean), elo(low), elo(high)])
}
