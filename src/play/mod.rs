//! The terminal game: one command a line, answered in text. Kept apart from the
//! terminal itself so a whole session can be tested.

use crate::check::{Placed, Variant, check};
use crate::compile::{Rules, compile_tables};
use crate::render::hands_text;
use crate::render::text::labelled_board;
use crate::runtime::{Game, Position, SavedGame, Setup, parse_position, write_move};
use std::path::{Path, PathBuf};

/// A game being played, with what is needed to save and reload it.
pub struct Session {
    rules: Rules,
    game: Game,
    variant_path: PathBuf,
    /// Draw boards with ANSI colours.
    colour: bool,
}

/// What one line of input produced.
pub struct Reply {
    pub text: String,
    pub quit: bool,
}

const HELP: &str = "Commands: a move such as `e2-e4` (add `:e` for a tagged move), `moves`, `undo`, `board`, `position`, `save PATH`, `load PATH`, `help`, `quit`.";

/// Loads, checks and compiles a variant file with option settings (`NAME`, on/off).
pub fn load_rules(path: &Path, settings: &[(String, bool)]) -> Result<Rules, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let checked = check(&path.display().to_string(), &text);
    let v = checked.variant.ok_or_else(|| {
        format!(
            "{} does not check:\n{}",
            path.display(),
            checked.report.render(100, false)
        )
    })?;
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

/// Reads `NAME=on|off` settings.
pub fn parse_settings(settings: &[String]) -> Result<Vec<(String, bool)>, String> {
    settings
        .iter()
        .map(|s| {
            let (name, value) = s
                .split_once('=')
                .ok_or_else(|| format!("`{s}`: write an option as NAME=on or NAME=off"))?;
            let on = match value.trim() {
                "on" | "true" | "yes" => true,
                "off" | "false" | "no" => false,
                other => return Err(format!("`{other}`: an option is `on` or `off`")),
            };
            Ok((name.trim().to_string(), on))
        })
        .collect()
}

/// A start position: `start` (or nothing) for the variant's own, with any random
/// setup drawn from `seed`; else a position string.
pub fn start_setup(rules: &Rules, position: Option<&str>, seed: u64) -> Result<Setup, String> {
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
    let setup = start_setup(rules, None, seed)?;
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
    pub fn new(variant_path: &Path, rules: Rules, start: Setup) -> Result<Session, String> {
        let game = Game::new(&rules, start).map_err(|e| format!("bad position: {e}"))?;
        Ok(Session {
            rules,
            game,
            variant_path: variant_path.to_path_buf(),
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
            Some(e) => {
                let result = e.result(v);
                s += &format!("Game over: {result}: {}.\n", e.reason);
            }
            None if pos.in_check(&self.rules) => {
                s += &format!("{} to move, in check.\n", v.player(pos.to_move()).name)
            }
            None => s += &format!("{} to move.\n", v.player(pos.to_move()).name),
        }
        s
    }

    /// Handles one line of input. Nothing a player types loses the game in progress.
    pub fn handle(&mut self, line: &str) -> Reply {
        let line = line.trim();
        let (cmd, arg) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, a)| (c, a.trim()));
        let text = match cmd {
            "" => String::new(),
            "quit" | "exit" => {
                return Reply {
                    text: String::new(),
                    quit: true,
                };
            }
            "help" | "?" => HELP.to_string(),
            "board" => self.status(),
            "position" => self.game.position_string(&self.rules),
            "moves" => {
                let v = &self.rules.variant;
                let moves: Vec<String> = self
                    .game
                    .legal_moves(&self.rules)
                    .iter()
                    .map(|m| write_move(v, m))
                    .collect();
                if moves.is_empty() {
                    "No legal moves.".to_string()
                } else {
                    moves.join(" ")
                }
            }
            "undo" => {
                if self.game.undo(&self.rules) {
                    self.status()
                } else {
                    "Nothing to undo.".to_string()
                }
            }
            "save" if !arg.is_empty() => self.save(Path::new(arg)),
            "load" if !arg.is_empty() => self.load(Path::new(arg)),
            "save" | "load" => format!("`{cmd}` needs a file name, e.g. `{cmd} game.txt`"),
            _ => match self.game.play_text(&self.rules, line) {
                Ok(_) => self.status(),
                Err(e) => format!("Refused: {e}. {HELP}"),
            },
        };
        Reply { text, quit: false }
    }

    fn save(&self, path: &Path) -> String {
        let saved = SavedGame::of(
            &self.game,
            &self.rules,
            &self.variant_path.display().to_string(),
        );
        match std::fs::write(path, saved.to_text()) {
            Ok(()) => format!("Saved to {}.", path.display()),
            Err(e) => format!("Could not save to {}: {e}", path.display()),
        }
    }

    fn load(&mut self, path: &Path) -> String {
        match Session::restore(path) {
            Ok(s) => {
                *self = s.with_colour(self.colour);
                format!("Loaded {}.\n{}", path.display(), self.status())
            }
            Err(e) => format!(
                "Could not load {}: {e}. The current game goes on.",
                path.display()
            ),
        }
    }

    /// Rebuilds a session from a saved game file, replaying its moves.
    pub fn restore(path: &Path) -> Result<Session, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let saved = SavedGame::parse(&text)?;
        let mut variant = PathBuf::from(&saved.variant);
        if !variant.exists()
            && let Some(dir) = path.parent()
        {
            variant = dir.join(&saved.variant);
        }
        let rules = load_rules(&variant, &saved.options)?;
        let start = start_setup(
            &rules,
            (!saved.start.is_empty()).then_some(saved.start.as_str()),
            0,
        )?;
        let mut session = Session::new(&variant, rules, start)?;
        for (i, m) in saved.moves.iter().enumerate() {
            session
                .game
                .play_text(&session.rules, m)
                .map_err(|e| format!("move {} (`{m}`): {e}", i + 1))?;
        }
        Ok(session)
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
