//! The terminal game: one command a line, answered in text. Kept apart from the
//! terminal itself so a whole session can be tested.

mod save;
mod terminal;

pub use save::{MAX_SAVE_BYTES, SAVE_HEADER, SavedGame};
pub use terminal::{MAX_LINE_BYTES, output_closed, print_stderr, print_stdout, run};

use crate::diagrams::{board_diagram, hands_text, labelled_board};
use crate::files::{absolute, relative, text_hash, write_atomic};
use crate::grammar::reads_as_variant;
use crate::{
    Game, Limits, LoadError, MAX_PERFT_DEPTH, PlayerId, Rules, Session, Settings, Setup, Variant,
    describe_score, parse_position, read_limited, read_variant_text, side_token, write_position,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A game at the terminal: the session, and what is needed to save and reload it.
pub struct Console {
    session: Session,
    variant_path: PathBuf,
    /// [`text_hash`] of the variant file the rules were read from.
    variant_hash: String,
    /// The file last saved to or loaded from, and [`Console::snapshot`] then.
    file: Option<(PathBuf, String)>,
    /// Draw boards with ANSI colours.
    colour: bool,
}

/// What one line of input produced.
pub struct Reply {
    pub text: String,
    pub quit: bool,
    /// The line was refused; the game is exactly as it was.
    pub refused: bool,
}

impl Reply {
    fn ok(text: String) -> Reply {
        Reply {
            text,
            quit: false,
            refused: false,
        }
    }
    fn refused(why: String) -> Reply {
        Reply {
            text: format!("Refused: {why}"),
            quit: false,
            refused: true,
        }
    }
}

const COMMANDS: &str = "`moves`, `undo`, `board`, `position`, `save PATH` (`save --force PATH` replaces another file), `load PATH`, `help`, `quit`.";

/// Commands that take nothing after them.
const BARE: &[&str] = &[
    "quit", "exit", "help", "?", "board", "position", "moves", "undo",
];

/// Loads, checks and compiles a variant file with option settings. A file that does
/// not check is refused with its diagnostics.
pub fn load_rules(path: &Path, settings: &Settings) -> Result<Arc<Rules>, String> {
    let text = read_variant_text(path).map_err(|e| e.to_string())?;
    rules_from_text(path, &text, settings, true)
}

/// Checks and compiles a variant's text; `quote` shows the diagnostics on failure.
fn rules_from_text(
    path: &Path,
    text: &str,
    settings: &Settings,
    quote: bool,
) -> Result<Arc<Rules>, String> {
    match Rules::from_named_text(&path.display().to_string(), text, settings) {
        Ok(r) => Ok(Arc::new(r)),
        Err(LoadError::Diagnostics(_)) if !quote => Err(format!(
            "{} is not a valid variant file (`variantlab check {}` says why)",
            path.display(),
            path.display()
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// A player named in full (any case) or by the token position strings use (`o`).
pub fn find_player(v: &Variant, text: &str) -> Result<PlayerId, String> {
    let t = text.trim();
    let ids = (0..v.players.len()).map(|p| PlayerId(p as u8));
    ids.clone()
        .find(|p| v.player(*p).name.eq_ignore_ascii_case(t))
        .or_else(|| {
            ids.clone()
                .find(|p| side_token(v, *p).eq_ignore_ascii_case(t))
        })
        .ok_or_else(|| {
            let known: Vec<String> = ids
                .map(|p| format!("{} ({})", v.player(p).name, side_token(v, p)))
                .collect();
            format!(
                "there is no player `{t}`; the players are {}",
                known.join(", ")
            )
        })
}

/// Reads a perft depth, refusing depths past [`MAX_PERFT_DEPTH`].
pub fn parse_depth(text: &str) -> Result<u32, String> {
    let too_deep = || format!("the depth is at most {MAX_PERFT_DEPTH}");
    let digits = text.trim();
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return match digits.parse::<u32>() {
            Ok(d) if d <= MAX_PERFT_DEPTH => Ok(d),
            _ => Err(too_deep()),
        };
    }
    Err(format!(
        "write the depth as a whole number from 0 to {MAX_PERFT_DEPTH}"
    ))
}

/// A start position: `start` (or nothing) for the variant's own, any random setup
/// drawn with seed 0; else a position string.
pub fn start_setup(rules: &Rules, position: Option<&str>) -> Result<Setup, String> {
    start_setup_seeded(rules, position, 0)
}

/// [`start_setup`] with a random setup drawn from `seed`.
pub fn start_setup_seeded(
    rules: &Rules,
    position: Option<&str>,
    seed: u64,
) -> Result<Setup, String> {
    match position.map(str::trim) {
        None | Some("start") => {
            Setup::seeded(rules, seed).map_err(|e| format!("cannot set up: {e}"))
        }
        Some(p) => parse_position(rules, p).map_err(|e| format!("bad position: {e}")),
    }
}

/// A seed from the clock, for games started without one.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
}

/// The start position's string on the first line, then its diagram.
pub fn setup_text(rules: &Rules, seed: u64) -> Result<String, String> {
    let setup = start_setup_seeded(rules, None, seed)?;
    Ok(format!(
        "{}\n{}{}",
        write_position(rules, &setup),
        board_diagram(&rules.variant, &setup.placed()),
        hands_text(&rules.variant, &setup.hands)
    ))
}

impl Console {
    /// A game of the variant in `variant_path`, which the rules were compiled from.
    pub fn new(variant_path: &Path, rules: Arc<Rules>, start: Setup) -> Result<Console, String> {
        let text = read_variant_text(variant_path).map_err(|e| e.to_string())?;
        Console::from_parts(variant_path, &text, rules, start)
    }

    /// Reads a variant file once, for the rules and for the hash a save records.
    pub fn open(
        variant_path: &Path,
        settings: &Settings,
        position: Option<&str>,
    ) -> Result<Console, String> {
        Console::open_seeded(variant_path, settings, position, 0)
    }

    /// [`Console::open`] with a random setup drawn from `seed`.
    pub fn open_seeded(
        variant_path: &Path,
        settings: &Settings,
        position: Option<&str>,
        seed: u64,
    ) -> Result<Console, String> {
        let text = read_variant_text(variant_path).map_err(|e| e.to_string())?;
        let rules = rules_from_text(variant_path, &text, settings, true)?;
        let start = start_setup_seeded(&rules, position, seed)?;
        Console::from_parts(variant_path, &text, rules, start)
    }

    fn from_parts(
        path: &Path,
        text: &str,
        rules: Arc<Rules>,
        start: Setup,
    ) -> Result<Console, String> {
        let game = Game::new(rules, start).map_err(|e| format!("bad position: {e}"))?;
        Ok(Console {
            session: Session::new(game),
            variant_path: path.to_path_buf(),
            variant_hash: text_hash(text),
            file: None,
            colour: false,
        })
    }

    /// The computer plays `side`, within `limits`; it answers each move at once.
    pub fn with_computer(mut self, side: PlayerId, limits: Limits) -> Console {
        self.session.set_computer(&[side], limits);
        self
    }

    /// Boards drawn in colour (for a terminal that shows it).
    pub fn with_colour(mut self, on: bool) -> Console {
        self.colour = on;
        self
    }

    /// What a player sees: the board and whose move it is, or how the game ended.
    pub fn status(&self) -> String {
        let game = self.session.game();
        let v = game.variant();
        let pos = game.position();
        let pieces = pos.placed(v);
        let last = game.moves().last();
        let walls = pos.walls();
        let mut s = labelled_board(
            v,
            &pieces,
            &walls,
            last.map(|m| (m.from, m.to)),
            self.colour,
        );
        s += &hands_text(v, &pos.to_setup(game.rules()).hands);
        if let Some(text) = last.and_then(|_| game.written_moves().pop()) {
            s += &format!("Last move: {text}.\n");
        }
        match game.ending() {
            Some(e) => s += &format!("Game over: {}: {}.\n", e.result(v), e.reason),
            None if game.in_check() => {
                s += &format!("{} to move, in check.\n", v.player(pos.to_move()).name)
            }
            None => s += &format!("{} to move.\n", v.player(pos.to_move()).name),
        }
        s
    }

    /// Handles one line of input. Nothing a player types loses the game in progress:
    /// a refused line leaves it exactly as it was.
    pub fn handle(&mut self, line: &str) -> Reply {
        let line = line.trim();
        let (cmd, arg) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, a)| (c, a.trim()));
        if BARE.contains(&cmd) && !arg.is_empty() {
            return Reply::refused(format!(
                "`{line}`: `{cmd}` takes nothing after it; type just `{cmd}`"
            ));
        }
        match cmd {
            "" => Reply::ok(String::new()),
            "quit" | "exit" => Reply {
                text: String::new(),
                quit: true,
                refused: false,
            },
            "help" | "?" => Reply::ok(self.help()),
            "board" => Reply::ok(self.status()),
            "position" => Reply::ok(self.session.game().position_string()),
            "moves" => {
                let game = self.session.game();
                let moves: Vec<String> = game
                    .legal_moves()
                    .iter()
                    .map(|m| crate::write_move_at(game.rules(), game.position(), m))
                    .collect();
                Reply::ok(if moves.is_empty() {
                    "No legal moves.".to_string()
                } else {
                    moves.join(" ")
                })
            }
            "undo" => {
                if self.session.undo() > 0 {
                    Reply::ok(self.status())
                } else if self.session.game().move_count() > 0 {
                    Reply::refused("there is no move to undo: only the computer has moved".into())
                } else {
                    Reply::refused("there is no move to undo".to_string())
                }
            }
            "save" => self.save_command(arg),
            "load" if !arg.is_empty() => self.load(Path::new(arg)),
            "load" => Reply::refused("`load` needs a file name, e.g. `load game.txt`".into()),
            _ => match self.session.play_text(line) {
                Ok(_) => {
                    let answer = self.computer_turn();
                    Reply::ok(match answer.is_empty() {
                        true => self.status(),
                        false => answer,
                    })
                }
                Err(e) => Reply::refused(format!("{e}. {}", self.help())),
            },
        }
    }

    /// The computer's moves, when it is its turn, each followed by the board; empty
    /// when it is a person's turn. When the computer has no legal move and no rule
    /// ends the game, it says so.
    pub fn computer_turn(&mut self) -> String {
        let mut said = vec![];
        let replies = self.session.computer_replies();
        // The replies are the last moves played, each written as it reads back.
        let written = self.session.game().written_moves();
        let texts = &written[written.len().saturating_sub(replies.len())..];
        for (m, text) in replies.iter().zip(texts) {
            said.push(format!(
                "Computer plays {text} ({}).",
                describe_score(m.thought.score)
            ));
            said.push(self.status());
        }
        if self.session.computer_to_move() {
            let game = self.session.game();
            said.push(format!(
                "The computer ({}) has no legal move, and no rule of this variant ends the game: it cannot go on. `undo` takes back the last move.",
                game.variant().player(game.to_move()).name
            ));
        }
        said.join("\n")
    }

    /// What to say when the input ends without `quit`.
    pub fn end_of_input(&self) -> String {
        match &self.file {
            Some((path, saved)) if *saved == self.snapshot() => {
                format!("End of input; the game is saved in {}.", path.display())
            }
            _ => "End of input: the game was not saved.".to_string(),
        }
    }

    /// The whole game as text: variant, options, start, moves and the position now.
    /// Two sessions with the same snapshot are the same game.
    pub fn snapshot(&self) -> String {
        self.record(self.variant_path.display().to_string())
            .to_text()
    }

    fn record(&self, variant: String) -> SavedGame {
        let game = self.session.game();
        SavedGame {
            variant,
            rules: self.variant_hash.clone(),
            options: game.rules().option_settings(),
            start: game.start_string(),
            moves: game.written_moves(),
            end: game.position_string(),
        }
    }

    /// `save PATH` or `save --force PATH`.
    /// The commands, with one of the game's legal moves as the example, written as
    /// this game writes moves.
    fn help(&self) -> String {
        let game = self.session.game();
        let example = game.example_move().unwrap_or_else(|| "e2-e4".to_string());
        let tag = (game.variant().tags.first())
            .map(|t| format!(" (add `:{}` for a tagged move)", t.mark))
            .unwrap_or_default();
        format!("Commands: a move such as `{example}`{tag}, {COMMANDS}")
    }

    fn save_command(&mut self, arg: &str) -> Reply {
        let usage = "write `save PATH`, or `save --force PATH` to replace another file";
        let (force, path) = match arg.split_once(char::is_whitespace) {
            Some(("--force", p)) => (true, p.trim()),
            _ if arg == "--force" => (true, ""),
            _ => (false, arg),
        };
        if path.is_empty() {
            return Reply::refused(format!("`save` needs a file name; {usage}"));
        }
        if path.starts_with("--") {
            return Reply::refused(format!("`{path}` is not a flag of `save`; {usage}"));
        }
        match self.save(Path::new(path), force) {
            Ok(text) => Reply::ok(text),
            Err(e) => Reply::refused(format!("not saved: {e}")),
        }
    }

    fn save(&mut self, path: &Path, force: bool) -> Result<String, String> {
        let shown = path.display();
        let target = absolute(path).map_err(|e| format!("cannot save to {shown}: {e}"))?;
        if self.is_variant_file(path, &target) {
            return Err(format!(
                "{shown} is a variant file or a draft of one; a game is never saved over one (try another name, e.g. game.txt)"
            ));
        }
        if let Ok(meta) = std::fs::symlink_metadata(path) {
            if meta.is_dir() {
                return Err(format!("{shown} is a folder"));
            }
            let ours = self.file.as_ref().is_some_and(|(p, _)| *p == target);
            if !force && !ours {
                return Err(format!(
                    "{shown} already exists; `save --force {shown}` replaces it"
                ));
            }
        }
        let dir = target.parent().unwrap_or(Path::new("/"));
        let variant = absolute(&self.variant_path)
            .map(|v| relative(dir, &v))
            .map_err(|e| format!("cannot find the variant file: {e}"))?;
        let text = self.record(variant.display().to_string()).to_text();
        write_atomic(path, &text).map_err(|e| format!("cannot write {shown}: {e}"))?;
        self.file = Some((target, self.snapshot()));
        Ok(format!("Saved to {shown}."))
    }

    /// Whether saving to `path` would destroy a variant file: this game's, any `.var`
    /// file, or an existing file that reads as a variant or a draft of one (see
    /// [`reads_as_variant`]), syntax errors and all.
    fn is_variant_file(&self, path: &Path, target: &Path) -> bool {
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("var"))
            || absolute(&self.variant_path).is_ok_and(|v| v == target)
        {
            return true;
        }
        let Ok(text) = read_variant_text(path) else {
            return false;
        };
        if text.trim_start().starts_with(SAVE_HEADER) {
            return false;
        }
        reads_as_variant(&text)
    }

    fn load(&mut self, path: &Path) -> Reply {
        match Console::restore(path) {
            Ok((s, warning)) => {
                self.session.replace_game(s.session.game().clone());
                self.variant_path = s.variant_path;
                self.variant_hash = s.variant_hash;
                self.file = s.file;
                let note = warning.map(|w| format!("\n{w}")).unwrap_or_default();
                Reply::ok(format!(
                    "Loaded {}.{note}\n{}",
                    path.display(),
                    self.status()
                ))
            }
            Err(e) => Reply {
                refused: true,
                ..Reply::ok(format!(
                    "Could not load {}: {e}. The current game goes on.",
                    path.display()
                ))
            },
        }
    }

    /// Rebuilds a session from a saved game file, replaying its moves; with a warning
    /// when the variant file has changed since the game was saved.
    pub fn restore(path: &Path) -> Result<(Console, Option<String>), String> {
        let bytes = read_limited(path, MAX_SAVE_BYTES, "saved game").map_err(|e| e.to_string())?;
        let text = String::from_utf8(bytes)
            .map_err(|_| "it is not a saved game (it is not UTF-8 text)".to_string())?;
        let saved = SavedGame::parse(&text)?;
        let file = absolute(path).map_err(|e| e.to_string())?;
        let variant = file.parent().unwrap_or(Path::new("/")).join(&saved.variant);
        let variant = absolute(&variant).unwrap_or(variant);
        let vtext =
            read_variant_text(&variant).map_err(|e| format!("the variant file it names: {e}"))?;
        let settings: Settings = saved.options.iter().cloned().collect();
        let rules = rules_from_text(&variant, &vtext, &settings, false)?;
        let hash = text_hash(&vtext);
        let changed = (hash != saved.rules).then(|| {
            format!(
                "Warning: the rules differ: {} has changed since the game was saved (rules {} then, {hash} now).",
                variant.display(),
                saved.rules
            )
        });
        let because = || {
            changed
                .as_ref()
                .map(|_| " (the variant file has changed since the game was saved)")
                .unwrap_or_default()
        };
        let start = start_setup(&rules, Some(&saved.start))?;
        let mut console = Console::from_parts(&variant, &vtext, rules, start)?;
        for (i, m) in saved.moves.iter().enumerate() {
            console
                .session
                .play_text(m)
                .map_err(|e| format!("move {} (`{m}`): {e}{}", i + 1, because()))?;
        }
        if console.session.game().position_string() != saved.end {
            return Err(format!(
                "the moves do not lead to the position on the `end` line: the file was cut short or altered{}",
                because()
            ));
        }
        console.file = Some((file, console.snapshot()));
        Ok((console, changed))
    }

    /// Whether the computer plays this side.
    pub fn computer_plays(&self, p: PlayerId) -> bool {
        self.session.computer_plays(p)
    }

    pub fn game(&self) -> &Game {
        self.session.game()
    }
    pub fn rules(&self) -> &Arc<Rules> {
        self.session.game().rules()
    }
}
