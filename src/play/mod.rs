//! The terminal game: one command a line, answered in text. Kept apart from the
//! terminal itself so a whole session can be tested.

mod files;
mod save;
mod terminal;

pub use files::{
    MAX_SAVE_BYTES, MAX_VARIANT_BYTES, absolute, read_limited, read_variant_text, relative,
    text_hash, write_atomic,
};
pub use save::{SAVE_HEADER, SavedGame};
pub use terminal::{MAX_LINE_BYTES, print_stdout, run, run_with};

use crate::check::check;
use crate::compile::{Rules, compile_tables};
use crate::model::{Placed, PlayerId, Variant};
use crate::render::hands_text;
use crate::render::text::labelled_board;
use crate::runtime::{
    Game, MAX_PERFT_DEPTH, Position, Setup, parse_position, side_token, write_move,
};
use std::path::{Path, PathBuf};

/// A game being played, with what is needed to save and reload it.
pub struct Session {
    rules: Rules,
    game: Game,
    variant_path: PathBuf,
    /// [`text_hash`] of the variant file the rules were read from.
    variant_hash: String,
    /// The file last saved to or loaded from, and [`Session::snapshot`] then.
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

const HELP: &str = "Commands: a move such as `e2-e4` (add `:e` for a tagged move), `moves`, `undo`, `board`, `position`, `save PATH` (`save --force PATH` replaces another file), `load PATH`, `help`, `quit`.";

/// Commands that take nothing after them.
const BARE: &[&str] = &[
    "quit", "exit", "help", "?", "board", "position", "moves", "undo",
];

/// Loads, checks and compiles a variant file with option settings (`NAME`, on/off).
/// A file that does not check is refused with its diagnostics.
pub fn load_rules(path: &Path, settings: &[(String, bool)]) -> Result<Rules, String> {
    let text = read_variant_text(path)?;
    rules_from_text(path, &text, settings, true)
}

/// Checks and compiles a variant's text; `quote` shows the diagnostics on failure.
fn rules_from_text(
    path: &Path,
    text: &str,
    settings: &[(String, bool)],
    quote: bool,
) -> Result<Rules, String> {
    let checked = check(&path.display().to_string(), text);
    let Some(v) = checked.variant else {
        return Err(if quote {
            format!(
                "{} does not check:\n{}",
                path.display(),
                checked.report.render(100, false)
            )
        } else {
            format!(
                "{} is not a valid variant file (`variantlab check {}` says why)",
                path.display(),
                path.display()
            )
        });
    };
    let mut values = v.default_options();
    for (name, on) in settings {
        let id = v.find_option(name).ok_or_else(|| {
            let known: Vec<&str> = v.options.iter().map(|o| o.name.as_str()).collect();
            format!(
                "there is no option `{name}`; this variant has: {}",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )
        })?;
        values[id.0 as usize] = *on;
    }
    compile_tables(&v, &values).map_err(|e| e.to_string())
}

/// An option's value: `on`, `off`, `yes`, `no`, `true` or `false`, in any case.
pub fn parse_switch(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Some(true),
        "off" | "no" | "false" => Some(false),
        _ => None,
    }
}

/// Reads `NAME=VALUE` settings (see [`parse_switch`]); each name at most once.
pub fn parse_settings(settings: &[String]) -> Result<Vec<(String, bool)>, String> {
    let mut out: Vec<(String, bool)> = Vec::new();
    for s in settings {
        let (name, value) = s
            .split_once('=')
            .ok_or_else(|| format!("`{s}`: write an option as NAME=on or NAME=off"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("`{s}`: the option's name is missing before `=`"));
        }
        let on = parse_switch(value).ok_or_else(|| {
            format!(
                "`{s}`: `{}` is not a value for an option; write on or off (yes/no and true/false also work, in any case)",
                value.trim()
            )
        })?;
        if out.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            return Err(format!("`{s}`: the option `{name}` is set twice"));
        }
        out.push((name.to_string(), on));
    }
    Ok(out)
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
        crate::runtime::write_position(rules, &setup),
        crate::render::board_diagram(&rules.variant, &setup_pieces(&setup)),
        hands_text(&rules.variant, &setup.hands)
    ))
}

/// The pieces of a setup, as placements.
pub fn setup_pieces(setup: &Setup) -> Vec<Placed> {
    setup
        .cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            c.map(|(player, piece)| Placed {
                cell: crate::geometry::Cell(i as u16),
                player,
                piece,
            })
        })
        .collect()
}

impl Session {
    /// A game of the variant in `variant_path`, which the rules were compiled from.
    pub fn new(variant_path: &Path, rules: Rules, start: Setup) -> Result<Session, String> {
        let text = read_variant_text(variant_path)?;
        Session::from_parts(variant_path, &text, rules, start)
    }

    /// Reads a variant file once, for the rules and for the hash a save records.
    pub fn open(
        variant_path: &Path,
        settings: &[(String, bool)],
        position: Option<&str>,
    ) -> Result<Session, String> {
        Session::open_seeded(variant_path, settings, position, 0)
    }

    /// [`Session::open`] with a random setup drawn from `seed`.
    pub fn open_seeded(
        variant_path: &Path,
        settings: &[(String, bool)],
        position: Option<&str>,
        seed: u64,
    ) -> Result<Session, String> {
        let text = read_variant_text(variant_path)?;
        let rules = rules_from_text(variant_path, &text, settings, true)?;
        let start = start_setup_seeded(&rules, position, seed)?;
        Session::from_parts(variant_path, &text, rules, start)
    }

    fn from_parts(path: &Path, text: &str, rules: Rules, start: Setup) -> Result<Session, String> {
        let game = Game::new(&rules, start).map_err(|e| format!("bad position: {e}"))?;
        Ok(Session {
            rules,
            game,
            variant_path: path.to_path_buf(),
            variant_hash: text_hash(text),
            file: None,
            colour: false,
        })
    }

    /// Boards drawn in colour (for a terminal that shows it).
    pub fn with_colour(mut self, on: bool) -> Session {
        self.colour = on;
        self
    }

    /// What a player sees: the board and whose move it is, or how the game ended.
    pub fn status(&self) -> String {
        let v = &self.rules.variant;
        let pos = self.game.position();
        let pieces = placed(v, pos);
        let last = self.game.moves().last();
        let mut s = labelled_board(v, &pieces, last.map(|m| (m.from, m.to)), self.colour);
        s += &hands_text(v, &pos.to_setup(&self.rules).hands);
        if let Some(m) = last {
            s += &format!("Last move: {}.\n", write_move(v, m));
        }
        match self.game.ending() {
            Some(e) => s += &format!("Game over: {}: {}.\n", e.result(v), e.reason),
            None if pos.in_check(&self.rules) => {
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
            "help" | "?" => Reply::ok(HELP.to_string()),
            "board" => Reply::ok(self.status()),
            "position" => Reply::ok(self.game.position_string(&self.rules)),
            "moves" => {
                let v = &self.rules.variant;
                let moves: Vec<String> = self
                    .game
                    .legal_moves(&self.rules)
                    .iter()
                    .map(|m| write_move(v, m))
                    .collect();
                Reply::ok(if moves.is_empty() {
                    "No legal moves.".to_string()
                } else {
                    moves.join(" ")
                })
            }
            "undo" => {
                if self.game.undo(&self.rules) {
                    Reply::ok(self.status())
                } else {
                    Reply::refused("there is no move to undo".to_string())
                }
            }
            "save" => self.save_command(arg),
            "load" if !arg.is_empty() => self.load(Path::new(arg)),
            "load" => Reply::refused("`load` needs a file name, e.g. `load game.txt`".into()),
            _ => match self.game.play_text(&self.rules, line) {
                Ok(_) => Reply::ok(self.status()),
                Err(e) => Reply::refused(format!("{e}. {HELP}")),
            },
        }
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
        let (rules, game) = (&self.rules, &self.game);
        let v = &rules.variant;
        SavedGame {
            variant,
            rules: self.variant_hash.clone(),
            options: rules.option_settings(),
            start: crate::runtime::write_position(rules, game.start()),
            moves: game.moves().map(|m| write_move(v, m)).collect(),
            end: game.position_string(rules),
        }
    }

    /// `save PATH` or `save --force PATH`.
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
                "{shown} is a variant file; a game is never saved over one (try another name, e.g. game.txt)"
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
    /// file, or an existing file that reads as a variant.
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
        let (file, diagnostics) = crate::syntax::parse(&text);
        !file.statements.is_empty() && !diagnostics.iter().any(|d| d.is_error())
    }

    fn load(&mut self, path: &Path) -> Reply {
        match Session::restore(path) {
            Ok((s, warning)) => {
                *self = s.with_colour(self.colour);
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
    pub fn restore(path: &Path) -> Result<(Session, Option<String>), String> {
        let bytes = read_limited(path, MAX_SAVE_BYTES, "saved game")?;
        let text = String::from_utf8(bytes)
            .map_err(|_| "it is not a saved game (it is not UTF-8 text)".to_string())?;
        let saved = SavedGame::parse(&text)?;
        let file = absolute(path).map_err(|e| e.to_string())?;
        let variant = file.parent().unwrap_or(Path::new("/")).join(&saved.variant);
        let variant = absolute(&variant).unwrap_or(variant);
        let vtext =
            read_variant_text(&variant).map_err(|e| format!("the variant file it names: {e}"))?;
        let rules = rules_from_text(&variant, &vtext, &saved.options, false)?;
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
        let mut session = Session::from_parts(&variant, &vtext, rules, start)?;
        for (i, m) in saved.moves.iter().enumerate() {
            session
                .game
                .play_text(&session.rules, m)
                .map_err(|e| format!("move {} (`{m}`): {e}{}", i + 1, because()))?;
        }
        if session.game.position_string(&session.rules) != saved.end {
            return Err(format!(
                "the moves do not lead to the position on the `end` line: the file was cut short or altered{}",
                because()
            ));
        }
        session.file = Some((file, session.snapshot()));
        Ok((session, changed))
    }

    pub fn game(&self) -> &Game {
        &self.game
    }
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

/// What stands on the board in a position, cell by cell.
pub fn placed(variant: &Variant, pos: &Position) -> Vec<Placed> {
    variant
        .board
        .cells()
        .filter_map(|c| {
            pos.at(c).map(|(player, piece)| Placed {
                cell: c,
                player,
                piece,
            })
        })
        .collect()
}
