//! The engine protocols: UCI for any variant, USI for the shogi family. The variant
//! file is the game; its options are the engine's options. The search runs on a thread
//! of its own, as does `go perft`, so that `stop`, `isready` and `quit` are read while
//! it thinks; it keeps its table from one move to the next.

mod clock;
mod lines;
mod notation;
pub mod referee;
pub mod xboard;

pub use clock::{Clock, budget};

use crate::{
    Game, Limits, MAX_LEVEL, MAX_PERFT_DEPTH, PlayError, Rules, Searcher, Settings, Setup, Thought,
    divide_until, parse_position, parse_switch, table_bits, think_in_game_reporting,
};
use lines::{Line, MAX_LINE, lines, shorten};
use std::io::{BufRead, Write};
use std::num::IntErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Which protocol is spoken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI: `wtime` is the first player's clock, drops are `P@e5`.
    Uci,
    /// USI: `btime` is the first player's (sente's), positions are `sfen`, drops `P*5e`.
    Usi,
}

/// Where the engine writes; shared with the search thread.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// The table's default size, in MiB (the `Hash` option).
const HASH_MB: usize = 64;
const MAX_HASH_MB: usize = 4096;
/// Time kept back from every move for the answer to reach the other side (`Move
/// Overhead`, in milliseconds).
const OVERHEAD_MS: u64 = 10;
const MAX_OVERHEAD_MS: u64 = 5000;

/// A search or a perft under way on its thread.
struct Running {
    stop: Arc<AtomicBool>,
    /// The searcher back; a perft takes none.
    thread: JoinHandle<Option<Searcher>>,
}

/// One engine: the variant, the game the other side set up, and the searcher.
pub struct Engine {
    dialect: Dialect,
    path: PathBuf,
    settings: Settings,
    rules: Arc<Rules>,
    game: Game,
    /// None while a search holds it.
    searcher: Option<Searcher>,
    running: Option<Running>,
    hash_mb: usize,
    overhead: Duration,
    out: Output,
}

/// Speaks `dialect` for the variant in `path`, reading commands from `input` until
/// `quit` or its end. Only a variant that cannot be loaded is an error; a bad command
/// is answered with `info string` and ignored.
pub fn run(
    dialect: Dialect,
    path: &Path,
    settings: Settings,
    input: impl BufRead,
    out: Box<dyn Write + Send>,
) -> Result<(), String> {
    let mut engine = Engine::new(dialect, path, settings, Arc::new(Mutex::new(out)))?;
    for line in lines(input) {
        let go_on = match line {
            Line::Text(line) => engine.handle(&line),
            Line::TooLong => {
                engine.tell(&format!("a line of over {MAX_LINE} bytes, ignored"));
                true
            }
        };
        if !go_on {
            return Ok(());
        }
    }
    engine.halt();
    Ok(())
}

/// Writes a line; a reader gone is not an error here, since `quit` or the end of the
/// input follows.
fn say(out: &Output, text: &str) {
    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(o, "{text}");
    let _ = o.flush();
}

/// A whole number sent as a clock or a limit: a negative one (a clock already run out
/// may be sent so) reads as 0, one past 64 bits as the largest.
fn whole(text: &str) -> Option<u64> {
    match text.parse::<i64>() {
        Ok(n) => Some(n.max(0).unsigned_abs()),
        Err(e) => match e.kind() {
            IntErrorKind::PosOverflow => Some(u64::MAX),
            IntErrorKind::NegOverflow => Some(0),
            _ => None,
        },
    }
}

fn load(path: &Path, settings: &Settings) -> Result<Arc<Rules>, String> {
    Rules::from_file(path, settings)
        .map(Arc::new)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The variant in `path` with its option `name` switched to what `on` reads: the
/// settings, the rules recompiled, the start, and a fresh searcher with a table of
/// `hash_mb` MiB.
fn switch_option(
    path: &Path,
    settings: &Settings,
    rules: &Rules,
    name: &str,
    on: impl FnOnce() -> Result<bool, String>,
    hash_mb: usize,
) -> Result<(Settings, Arc<Rules>, Game, Searcher), String> {
    let v = rules.variant();
    let option = v
        .find_option(name)
        .ok_or_else(|| format!("there is no option `{}`", shorten(name)))?;
    let settings = settings
        .clone()
        .with(&v.options[option.0 as usize].name, on()?);
    let rules = load(path, &settings)?;
    let game = start_game(&rules)?;
    let searcher = Searcher::new(rules.clone(), table_bits(hash_mb << 20));
    Ok((settings, rules, game, searcher))
}

fn start_game(rules: &Arc<Rules>) -> Result<Game, String> {
    Game::start(rules.clone(), 0).map_err(|e| format!("cannot set up the start: {e}"))
}

impl Engine {
    pub fn new(
        dialect: Dialect,
        path: &Path,
        settings: Settings,
        out: Output,
    ) -> Result<Engine, String> {
        let rules = load(path, &settings)?;
        let game = start_game(&rules)?;
        Ok(Engine {
            dialect,
            path: path.to_path_buf(),
            settings,
            searcher: Some(Searcher::new(rules.clone(), table_bits(HASH_MB << 20))),
            rules,
            game,
            running: None,
            hash_mb: HASH_MB,
            overhead: Duration::from_millis(OVERHEAD_MS),
            out,
        })
    }

    fn say(&self, text: &str) {
        say(&self.out, text);
    }

    fn tell(&self, text: &str) {
        self.say(&format!("info string {text}"));
    }

    /// Handles one command; false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return true;
        };
        match command {
            "uci" | "usi" => self.identify(),
            "isready" => self.say("readyok"),
            "setoption" => {
                self.halt();
                if let Err(e) = self.set_option(args) {
                    self.tell(&e);
                }
            }
            "ucinewgame" | "usinewgame" => {
                self.halt();
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                match start_game(&self.rules) {
                    Ok(g) => self.game = g,
                    Err(e) => self.tell(&e),
                }
            }
            "position" => {
                self.halt();
                if let Err(e) = self.set_position(args) {
                    self.tell(&e);
                }
            }
            "go" => {
                self.halt();
                if let Err(e) = self.go(args) {
                    self.tell(&e);
                }
            }
            "stop" | "gameover" => self.halt(),
            // No pondering is offered, so there is nothing to switch over.
            "ponderhit" | "debug" | "register" => {}
            "d" => self.say(&self.game.position_string()),
            "quit" => {
                self.halt();
                return false;
            }
            other => self.tell(&format!("unknown command `{}`", shorten(other))),
        }
        true
    }

    fn identify(&self) {
        let v = self.rules.variant();
        let (ok, variant) = match self.dialect {
            Dialect::Uci => ("uciok", "UCI_Variant"),
            Dialect::Usi => ("usiok", "USI_Variant"),
        };
        let name = variant_name(&v.name);
        self.say(&format!(
            "id name variantlab {} ({})",
            env!("CARGO_PKG_VERSION"),
            v.name
        ));
        self.say("id author the variantlab authors");
        self.say(&format!(
            "option name Hash type spin default {HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        self.say(&format!(
            "option name Move Overhead type spin default {OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
        ));
        self.say(&format!(
            "option name {variant} type combo default {name} var {name}"
        ));
        for o in &v.options {
            self.say(&format!(
                "option name {} type check default {}",
                o.name, o.default
            ));
        }
        self.say(ok);
    }

    /// `setoption name NAME [value VALUE]`: the variant's options recompile the rules.
    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        let text = args.join(" ");
        let rest = text.strip_prefix("name ").ok_or_else(|| {
            format!(
                "`setoption {}`: write `setoption name NAME value VALUE`",
                shorten(&text)
            )
        })?;
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        let number = |max: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or_else(|| {
                    format!(
                        "option {name}: `{}` is not a number from 0 to {max}",
                        shorten(value)
                    )
                })
        };
        if name.eq_ignore_ascii_case("Hash") {
            self.hash_mb = (number(MAX_HASH_MB as u64)? as usize).max(1);
            self.searcher = Some(Searcher::new(
                self.rules.clone(),
                table_bits(self.hash_mb << 20),
            ));
            return Ok(());
        }
        if name.eq_ignore_ascii_case("Move Overhead") {
            self.overhead = Duration::from_millis(number(MAX_OVERHEAD_MS)?);
            return Ok(());
        }
        if name.eq_ignore_ascii_case("UCI_Variant") || name.eq_ignore_ascii_case("USI_Variant") {
            let own = variant_name(&self.rules.variant().name);
            return match value.eq_ignore_ascii_case(&own) {
                true => Ok(()),
                false => Err(format!(
                    "this engine plays only `{own}` (the variant of {}), not `{}`",
                    self.path.display(),
                    shorten(value)
                )),
            };
        }
        let on = || {
            parse_switch(value).ok_or_else(|| {
                format!(
                    "option {}: `{}` is not true or false",
                    shorten(name),
                    shorten(value)
                )
            })
        };
        let (settings, rules, game, searcher) = switch_option(
            &self.path,
            &self.settings,
            &self.rules,
            name,
            on,
            self.hash_mb,
        )?;
        (self.settings, self.rules, self.game) = (settings, rules, game);
        self.searcher = Some(searcher);
        Ok(())
    }

    /// `position startpos|fen FEN|sfen SFEN [moves M...]`. A refused position leaves the
    /// game as it was.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let (setup, rest) = match args.split_first() {
            Some((&"startpos", rest)) => (Setup::seeded(&self.rules, 0).map_err(|e| e.to_string())?, rest),
            Some((&kind, rest)) if kind == "fen" || kind == "sfen" => {
                let end = rest.iter().position(|w| *w == "moves").unwrap_or(rest.len());
                let text = rest[..end].join(" ");
                let setup = parse_position(&self.rules, &text)
                    .map_err(|e| format!("bad position `{}`: {e}", shorten(&text)))?;
                (setup, &rest[end..])
            }
            _ => return Err("write `position startpos`, `position fen FEN` or `position sfen SFEN`, then `moves` and the moves".into()),
        };
        let mut game =
            Game::new(self.rules.clone(), setup).map_err(|e| format!("bad position: {e}"))?;
        let moves = match rest.split_first() {
            None => &[][..],
            Some((&"moves", moves)) => moves,
            Some((other, _)) => return Err(format!("`{}`: expected `moves`", shorten(other))),
        };
        for text in moves {
            let text = notation::readable(text);
            match game.play_text(&text) {
                Ok(_) => {}
                // The other side may play on past an end this variant's rules declare
                // (a repetition it does not count): the game goes on from here.
                Err(PlayError::Over(_)) => {
                    let setup = game.position().to_setup(&self.rules);
                    game = Game::new(self.rules.clone(), setup).map_err(|e| e.to_string())?;
                    game.play_text(&text)
                        .map_err(|e| format!("move `{}`: {e}", shorten(&text)))?;
                }
                Err(e) => return Err(format!("move `{}`: {e}", shorten(&text))),
            }
        }
        self.game = game;
        Ok(())
    }

    /// `go` with its limits; `go perft N` counts instead.
    fn go(&mut self, args: &[&str]) -> Result<(), String> {
        let mut limits = Limits::infinite();
        let mut clocks = [Clock::default(), Clock::default()];
        let mut timed = false;
        let mut wait = false;
        let first = match self.dialect {
            Dialect::Uci => 'w',
            Dialect::Usi => 'b',
        };
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            let value = || -> Result<u64, String> {
                let text = args
                    .get(i + 1)
                    .ok_or_else(|| format!("`go {}` needs a number", shorten(word)))?;
                whole(text)
                    .ok_or_else(|| format!("`go {word} {}`: not a whole number", shorten(text)))
            };
            let at_most_u32 = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
            let ms = |n: u64| Duration::from_millis(n);
            let side = |c: char| if c == first { 0 } else { 1 };
            match word {
                "infinite" | "ponder" => wait = true,
                "perft" => return self.perft(value()?),
                "depth" => limits.depth = at_most_u32(value()?).clamp(1, MAX_LEVEL),
                "nodes" => limits.nodes = Some(value()?.max(1)),
                "movetime" => {
                    let t = ms(value()?);
                    limits.time = Some(t.saturating_sub(self.overhead).max(ms(1)));
                }
                "wtime" | "btime" => {
                    clocks[side(word.as_bytes()[0] as char)].left = ms(value()?);
                    timed = true;
                }
                "winc" | "binc" => {
                    clocks[side(word.as_bytes()[0] as char)].increment = ms(value()?)
                }
                "movestogo" => {
                    let n = at_most_u32(value()?);
                    clocks.iter_mut().for_each(|c| c.moves_to_go = Some(n));
                }
                "byoyomi" => {
                    let b = ms(value()?);
                    clocks.iter_mut().for_each(|c| c.byoyomi = b);
                    timed = true;
                }
                // `searchmoves` and `mate` are not offered; their words are skipped.
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += if matches!(word, "infinite" | "ponder") {
                1
            } else {
                2
            };
        }
        if timed && limits.time.is_none() && !wait {
            let me = (self.game.to_move().0 as usize).min(1);
            let (soft, hard) = budget(&clocks[me], self.overhead);
            limits.soft = Some(soft);
            limits.time = Some(hard);
        }
        self.search(limits, wait);
        Ok(())
    }

    /// Counts on a thread of its own, each root move's count as it is found; `stop`
    /// abandons the count, saying so.
    fn perft(&mut self, depth: u64) -> Result<(), String> {
        let max = MAX_PERFT_DEPTH as u64;
        if depth > max {
            return Err(format!("perft depth {depth}: at most {max}"));
        }
        let mut pos = self.game.position().clone();
        let stop = Arc::new(AtomicBool::new(false));
        let (out, rules, dialect, flag) = (
            self.out.clone(),
            self.rules.clone(),
            self.dialect,
            stop.clone(),
        );
        let thread = std::thread::spawn(move || {
            let before = pos.clone();
            let mut total = u64::from(depth == 0);
            let done = depth == 0
                || divide_until(&rules, &mut pos, depth as u32, &flag, |m, n| {
                    say(
                        &out,
                        &format!("{}: {n}", notation::write_at(&rules, dialect, &before, &m)),
                    );
                    total = total.saturating_add(n);
                });
            match done {
                true => say(&out, &format!("\nNodes searched: {total}")),
                false => say(&out, "info string perft stopped; its count is incomplete"),
            }
            None
        });
        self.running = Some(Running { stop, thread });
        Ok(())
    }

    /// Starts the search on its thread; it prints `info` lines, then `bestmove` (after
    /// `stop` when `wait`, as `go infinite` asks).
    fn search(&mut self, limits: Limits, wait: bool) {
        let Some(mut searcher) = self.searcher.take() else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        searcher.set_stop(stop.clone());
        let game = self.game.clone();
        let out = self.out.clone();
        let (rules, dialect) = (self.rules.clone(), self.dialect);
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let t = think_in_game_reporting(&mut searcher, &game, &limits, &mut |t| {
                say(&out, &info(&rules, dialect, game.position(), t));
            });
            while wait && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let best = match (t.best, dialect) {
                (Some(m), _) => notation::write_at(&rules, dialect, game.position(), &m),
                (None, Dialect::Uci) => "(none)".into(),
                (None, Dialect::Usi) => "resign".into(),
            };
            say(&out, &format!("bestmove {best}"));
            Some(searcher)
        });
        self.running = Some(Running { stop, thread });
    }

    /// Ends the search or perft under way, if any (a search prints its `bestmove`), and
    /// takes the searcher back.
    fn halt(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            match r.thread.join() {
                Ok(Some(s)) => self.searcher = Some(s),
                Ok(None) => {}
                Err(_) if self.searcher.is_some() => self.tell("the count failed"),
                Err(_) => {
                    self.tell("the search failed; starting afresh");
                    self.searcher = Some(Searcher::new(
                        self.rules.clone(),
                        table_bits(self.hash_mb << 20),
                    ));
                }
            }
        }
    }
}

/// An iteration's report: `info depth D score cp S nodes N nps N time MS pv ...`.
fn info(rules: &Rules, dialect: Dialect, pos: &crate::Position, t: &Thought) -> String {
    let ms = t.elapsed.as_millis().max(1);
    let pv = notation::write_line(rules, dialect, pos, &t.pv);
    format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        t.depth.max(1),
        notation::score(dialect, t.score),
        t.nodes,
        t.nodes as u128 * 1000 / ms,
        ms,
        pv.join(" ")
    )
}

/// The name the variant is offered under: its own, in lower case, spaces as `-`.
fn variant_name(name: &str) -> String {
    name.to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
}
