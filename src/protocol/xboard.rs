//! XBoard's protocol (CECP, version 2), for GUIs such as XBoard and WinBoard: the
//! engine keeps the game, plays the side it is given, and says how the game ended.
//! Moves are written as in UCI (`e2e4`, `e7e8q`, `P@e5`); the variant is offered under
//! its name, as `variant NAME` asks for it.

use super::lines::{Line, MAX_LINE, lines, shorten};
use super::{Clock, budget, load, notation, say, start_game, switch_option, variant_name, whole};
use super::{Dialect, HASH_MB, MAX_HASH_MB, OVERHEAD_MS, Output};
use crate::{
    Game, Limits, MAX_LEVEL, PlayerId, Rules, Searcher, Settings, Thought, parse_position,
    parse_switch, table_bits, think_in_game_reporting,
};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// A search under way: `stop` ends it with a move, `discard` without one.
struct Thinking {
    stop: Arc<AtomicBool>,
    discard: Arc<AtomicBool>,
    /// The searcher back, and the game with the move played if it was announced.
    thread: JoinHandle<(Searcher, Option<Game>)>,
}

/// The clocks as `level`, `st`, `time` and `otim` set them.
#[derive(Clone, Copy, Debug, Default)]
struct Control {
    /// Moves a control lasts (0: the whole game), and the time added each move.
    moves: u32,
    increment: Duration,
    /// `st`: exactly this long a move.
    per_move: Option<Duration>,
    /// `sd`: at most this deep.
    depth: Option<u32>,
    mine: Duration,
}

/// One engine speaking XBoard's protocol.
pub struct Board {
    path: PathBuf,
    settings: Settings,
    rules: Arc<Rules>,
    game: Game,
    searcher: Option<Searcher>,
    thinking: Option<Thinking>,
    /// The side the engine plays; none in force mode.
    engine: Option<PlayerId>,
    post: bool,
    control: Control,
    hash_mb: usize,
    out: Output,
}

/// Speaks XBoard's protocol for the variant in `path` until `quit` or the end of
/// `input`. Only a variant that cannot be loaded is an error.
pub fn run(
    path: &Path,
    settings: Settings,
    input: impl BufRead,
    out: Box<dyn Write + Send>,
) -> Result<(), String> {
    let rules = load(path, &settings)?;
    let mut board = Board {
        path: path.to_path_buf(),
        settings,
        game: start_game(&rules)?,
        searcher: Some(Searcher::new(rules.clone(), table_bits(HASH_MB << 20))),
        rules,
        thinking: None,
        engine: None,
        post: false,
        control: Control::default(),
        hash_mb: HASH_MB,
        out: Arc::new(Mutex::new(out)),
    };
    for line in lines(input) {
        let go_on = match line {
            Line::Text(line) => board.handle(&line),
            Line::TooLong => {
                board.say(&format!("Error (line of over {MAX_LINE} bytes): ignored"));
                true
            }
        };
        if !go_on {
            return Ok(());
        }
    }
    board.halt(true);
    Ok(())
}

/// `1-0 {reason}`, `0-1 {...}` or `1/2-1/2 {...}` once the game has ended.
fn result(game: &Game) -> Option<String> {
    let end = game.ending()?;
    let score = match end.winner() {
        Some(PlayerId(0)) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    };
    Some(format!("{score} {{{}}}", end.reason))
}

impl Board {
    fn say(&self, text: &str) {
        say(&self.out, text);
    }

    /// Handles one command; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return true;
        };
        let number = |i: usize| args.get(i).and_then(|w| w.parse::<u64>().ok());
        match command {
            "protover" => self.features(),
            "new" => {
                self.halt(true);
                match start_game(&self.rules) {
                    Ok(g) => self.game = g,
                    Err(e) => self.say(&format!("tellusererror {e}")),
                }
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.engine = Some(PlayerId(1));
                self.control.depth = None;
            }
            "variant" => {
                let own = variant_name(&self.rules.variant().name);
                let name = args.first().copied().unwrap_or("");
                let stem = self.path.file_stem().and_then(|s| s.to_str());
                if !name.eq_ignore_ascii_case(&own) && Some(name) != stem {
                    self.say(&format!("Error (unsupported variant): {}", shorten(name)));
                }
            }
            "force" => {
                self.halt(true);
                self.engine = None;
            }
            "go" => {
                self.halt(true);
                self.engine = Some(self.game.to_move());
                self.think();
            }
            "playother" => {
                self.halt(true);
                self.engine = Some(PlayerId(1 - self.game.to_move().0.min(1)));
            }
            "usermove" => {
                self.halt(false);
                self.user_move(args.first().copied().unwrap_or(""));
            }
            "?" => self.halt(false),
            "setboard" => {
                self.halt(true);
                let text = args.join(" ");
                let game = parse_position(&self.rules, &text)
                    .map_err(|e| e.to_string())
                    .and_then(|s| Game::new(self.rules.clone(), s).map_err(|e| e.to_string()));
                match game {
                    Ok(g) => self.game = g,
                    Err(e) => self.say(&format!("tellusererror Illegal position: {e}")),
                }
            }
            "undo" | "remove" => {
                self.halt(true);
                for _ in 0..if command == "undo" { 1 } else { 2 } {
                    self.game.undo();
                }
            }
            "ping" => self.say(&format!("pong {}", args.first().copied().unwrap_or(""))),
            "level" => match level(args) {
                Some((moves, base, inc)) => {
                    self.control.moves = moves;
                    self.control.mine = base;
                    self.control.increment = inc;
                    self.control.per_move = None;
                }
                None => self.say(&format!(
                    "Error (bad time control): level {}",
                    shorten(&args.join(" "))
                )),
            },
            "st" => match number(0) {
                Some(s) => self.control.per_move = Some(Duration::from_secs(s.min(86_400))),
                None => self.say("Error (st needs whole seconds): st"),
            },
            "sd" => match number(0) {
                Some(d) => self.control.depth = Some(d.clamp(1, MAX_LEVEL.into()) as u32),
                None => self.say("Error (sd needs a depth): sd"),
            },
            "time" => match args.first().and_then(|w| whole(w)) {
                Some(cs) => self.control.mine = Duration::from_millis(cs.saturating_mul(10)),
                None => self.say("Error (time needs centiseconds): time"),
            },
            "memory" => match number(0) {
                Some(mb) => {
                    self.halt(true);
                    self.hash_mb = (mb as usize).clamp(1, MAX_HASH_MB);
                    self.searcher = Some(Searcher::new(
                        self.rules.clone(),
                        table_bits(self.hash_mb << 20),
                    ));
                }
                None => self.say("Error (memory needs megabytes): memory"),
            },
            "option" => {
                self.halt(true);
                if let Err(e) = self.set_option(&args.join(" ")) {
                    self.say(&format!("Error ({e}): option"));
                }
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "result" => {
                self.halt(true);
                self.engine = None;
            }
            "quit" => {
                self.halt(true);
                return false;
            }
            // Nothing to do: no pondering, no draw offers taken, one thread.
            "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "otim" | "draw" | "cores" | "." | "bk" | "hint" => {}
            other => self.say(&format!("Error (unknown command): {}", shorten(other))),
        }
        true
    }

    fn features(&self) {
        let v = self.rules.variant();
        let name = variant_name(&v.name);
        let mut options = String::new();
        for o in &v.options {
            options += &format!(" option=\"{} -check {}\"", o.name, o.default as u8);
        }
        self.say("feature done=0");
        self.say(&format!(
            "feature myname=\"variantlab {} ({})\" variants=\"{name}\" setboard=1 usermove=1 \
             ping=1 playother=1 san=0 colors=0 time=1 reuse=1 sigint=0 sigterm=0 analyze=0 \
             memory=1{options}",
            env!("CARGO_PKG_VERSION"),
            v.name
        ));
        self.say("feature done=1");
    }

    /// `option NAME=VALUE` for one of the variant's options: the rules recompile and
    /// the game starts afresh.
    fn set_option(&mut self, text: &str) -> Result<(), String> {
        let (name, value) = text.split_once('=').unwrap_or((text, "1"));
        let on = || match value.trim() {
            "1" => Ok(true),
            "0" => Ok(false),
            other => parse_switch(other).ok_or_else(|| format!("`{other}` is not 0 or 1")),
        };
        let (settings, rules, game, searcher) = switch_option(
            &self.path,
            &self.settings,
            &self.rules,
            name.trim(),
            on,
            self.hash_mb,
        )?;
        (self.settings, self.rules, self.game) = (settings, rules, game);
        self.searcher = Some(searcher);
        Ok(())
    }

    fn user_move(&mut self, text: &str) {
        if self.game.ending().is_some() {
            self.say(&format!("Illegal move (the game is over): {text}"));
            return;
        }
        if let Err(e) = self.game.play_text(&notation::readable(text)) {
            self.say(&format!("Illegal move ({e}): {text}"));
            return;
        }
        if let Some(r) = result(&self.game) {
            self.say(&r);
        } else if self.engine == Some(self.game.to_move()) {
            self.think();
        }
    }

    /// The search's limits from the time control.
    fn limits(&self) -> Limits {
        let c = &self.control;
        let overhead = Duration::from_millis(OVERHEAD_MS);
        let mut limits = Limits::infinite();
        if let Some(t) = c.per_move {
            limits.time = Some(t.saturating_sub(overhead).max(Duration::from_millis(1)));
        } else if !c.mine.is_zero() {
            let made = (self.game.move_count() / 2) as u32;
            let clock = Clock {
                left: c.mine,
                increment: c.increment,
                moves_to_go: (c.moves > 0).then(|| c.moves - made % c.moves),
                byoyomi: Duration::ZERO,
            };
            let (soft, hard) = budget(&clock, overhead);
            limits.soft = Some(soft);
            limits.time = Some(hard);
        } else if c.depth.is_none() {
            limits.time = Some(Duration::from_secs(1));
        }
        if let Some(d) = c.depth {
            limits.depth = d;
        }
        limits
    }

    /// Thinks on a thread of its own; announces and plays its move when done.
    fn think(&mut self) {
        if self.game.ending().is_some() {
            return;
        }
        let Some(mut searcher) = self.searcher.take() else {
            return;
        };
        let (stop, discard) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
        );
        searcher.set_stop(stop.clone());
        let limits = self.limits();
        let mut game = self.game.clone();
        let (out, rules, post, dropped) = (
            self.out.clone(),
            self.rules.clone(),
            self.post,
            discard.clone(),
        );
        let thread = std::thread::spawn(move || {
            let t = think_in_game_reporting(&mut searcher, &game, &limits, &mut |t| {
                if post {
                    say(&out, &thinking(&rules, t));
                }
            });
            let Some(m) = t.best else {
                return (searcher, None);
            };
            // Held while deciding, so that a move is either announced and played or
            // neither.
            let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
            if dropped.load(Ordering::Relaxed) {
                return (searcher, None);
            }
            let _ = writeln!(o, "move {}", notation::write(&rules, Dialect::Uci, &m));
            let _ = game.play(m);
            if let Some(r) = result(&game) {
                let _ = writeln!(o, "{r}");
            }
            let _ = o.flush();
            drop(o);
            (searcher, Some(game))
        });
        self.thinking = Some(Thinking {
            stop,
            discard,
            thread,
        });
    }

    /// Ends the search under way: with its move, or (`discard`) without one unless it
    /// was already announced.
    fn halt(&mut self, discard: bool) {
        let Some(t) = self.thinking.take() else {
            return;
        };
        if discard {
            let _held = self.out.lock().unwrap_or_else(|e| e.into_inner());
            t.discard.store(true, Ordering::Relaxed);
        }
        t.stop.store(true, Ordering::Relaxed);
        match t.thread.join() {
            Ok((s, played)) => {
                self.searcher = Some(s);
                if let Some(g) = played {
                    self.game = g;
                }
            }
            Err(_) => {
                self.say("tellusererror the search failed; starting it afresh");
                self.searcher = Some(Searcher::new(
                    self.rules.clone(),
                    table_bits(self.hash_mb << 20),
                ));
            }
        }
    }
}

/// `level MOVES BASE INC`: the base in minutes or `minutes:seconds`, the increment in
/// seconds. A base past 64 bits of seconds is refused; one past 30 days is cut there.
fn level(args: &[&str]) -> Option<(u32, Duration, Duration)> {
    let [moves, base, inc] = args else {
        return None;
    };
    let moves = moves.parse::<u32>().ok()?;
    let (minutes, seconds) = base.split_once(':').unwrap_or((base, "0"));
    let base = minutes
        .parse::<u64>()
        .ok()?
        .checked_mul(60)?
        .checked_add(seconds.parse::<u64>().ok()?)?;
    let inc = inc
        .parse::<f64>()
        .ok()
        .filter(|i| (0.0..86_400.0).contains(i))?;
    Some((
        moves,
        Duration::from_secs(base.min(86_400 * 30)),
        Duration::from_secs_f64(inc),
    ))
}

/// A thinking line: depth, score in centipawns, time in centiseconds, nodes, the line.
fn thinking(rules: &Rules, t: &Thought) -> String {
    let pv: Vec<String> =
        t.pv.iter()
            .map(|m| notation::write(rules, Dialect::Uci, m))
            .collect();
    let score = match notation::score(Dialect::Uci, t.score).split_once(' ') {
        // Mates as XBoard writes them: 100000 + moves.
        Some(("mate", n)) => {
            let n: i32 = n.parse().unwrap_or(0);
            n.signum() * 100_000 + n
        }
        _ => t.score,
    };
    format!(
        "{} {score} {} {} {}",
        t.depth.max(1),
        t.elapsed.as_millis() / 10,
        t.nodes,
        pv.join(" ")
    )
}
