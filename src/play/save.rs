//! The saved-game file format.
//!
//! ```text
//! # variantlab saved game
//! variant ../variants/my-game.var
//! rules 5c1f0e2b9a774d13
//! option some-rule=off
//! start <position string>
//! moves e2-e3 f9-f8
//! end 2 <position string after the moves>
//! ```
//!
//! The header comes first and `end` last; the lines between may come in any order,
//! `option` may repeat and other `#` lines are comments. `end` proves the file whole:
//! a save cut anywhere lacks it or disagrees with it.

use super::parse_switch;

/// The first line of every saved game.
pub const SAVE_HEADER: &str = "# variantlab saved game";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// The variant file, relative to the saved game's folder (or absolute).
    pub variant: String,
    /// [`super::text_hash`] of the variant file's text when the game was saved.
    pub rules: String,
    pub options: Vec<(String, bool)>,
    pub start: String,
    pub moves: Vec<String>,
    /// The position after the moves.
    pub end: String,
}

/// At most this much of a line is quoted back in an error.
const QUOTE: usize = 40;

fn quote(s: &str) -> String {
    match s.char_indices().nth(QUOTE) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

impl SavedGame {
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{SAVE_HEADER}\nvariant {}\nrules {}\n",
            self.variant, self.rules
        );
        for (name, on) in &self.options {
            s += &format!("option {name}={}\n", if *on { "on" } else { "off" });
        }
        s += &format!(
            "start {}\nmoves {}\nend {} {}\n",
            self.start,
            self.moves.join(" "),
            self.moves.len(),
            self.end
        );
        s
    }

    /// Reads a saved game. Text that is not one is refused without being quoted.
    pub fn parse(text: &str) -> Result<SavedGame, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty());
        match lines.next() {
            Some((_, SAVE_HEADER)) => {}
            Some((_, first)) if first.starts_with("variant ") => {
                return Err(
                    "it is a saved game of an earlier format, without the `end` line \
                     that proves it complete; it cannot be loaded"
                        .into(),
                );
            }
            _ => {
                return Err(format!(
                    "it is not a saved game (it does not begin with `{SAVE_HEADER}`)"
                ));
            }
        }
        let mut variant = None;
        let mut rules = None;
        let mut start = None;
        let mut moves: Option<Vec<String>> = None;
        let mut end: Option<(usize, String)> = None;
        let mut options = Vec::new();
        for (n, line) in lines {
            if line.starts_with('#') {
                continue;
            }
            if end.is_some() {
                return Err(format!("line {n}: nothing may follow the `end` line"));
            }
            let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            let once = |seen: bool| match seen {
                true => Err(format!("line {n}: a second `{key}` line")),
                false => Ok(()),
            };
            match key {
                "variant" => {
                    once(variant.is_some())?;
                    variant = Some(rest.to_string());
                }
                "rules" => {
                    once(rules.is_some())?;
                    rules = Some(rest.to_string());
                }
                "start" => {
                    once(start.is_some())?;
                    start = Some(rest.to_string());
                }
                "moves" => {
                    once(moves.is_some())?;
                    moves = Some(rest.split_whitespace().map(String::from).collect());
                }
                "option" => {
                    let (name, value) = rest.split_once('=').ok_or_else(|| {
                        format!("line {n}: `{}`: write `option NAME=on`", quote(rest))
                    })?;
                    let on = parse_switch(value).ok_or_else(|| {
                        format!("line {n}: `{}` is not on or off", quote(value.trim()))
                    })?;
                    options.push((name.trim().to_string(), on));
                }
                "end" => {
                    let (count, position) =
                        rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                    let count = count.parse().map_err(|_| {
                        format!("line {n}: the `end` line should start with the number of moves, not `{}`", quote(count))
                    })?;
                    if position.trim().is_empty() {
                        return Err(format!(
                            "line {n}: the `end` line lacks the final position; the file was cut short"
                        ));
                    }
                    end = Some((count, position.trim().to_string()));
                }
                other => return Err(format!("line {n}: unknown field `{}`", quote(other))),
            }
        }
        let missing: Vec<&str> = [
            ("variant", variant.is_none()),
            ("rules", rules.is_none()),
            ("start", start.is_none()),
            ("moves", moves.is_none()),
            ("end", end.is_none()),
        ]
        .iter()
        .filter(|(_, m)| *m)
        .map(|(k, _)| *k)
        .collect();
        if !missing.is_empty() {
            let what = if end.is_none() {
                "it is incomplete (cut short?)"
            } else {
                "it is damaged"
            };
            let names: Vec<String> = missing.iter().map(|k| format!("`{k}`")).collect();
            let list = match names.split_last() {
                Some((last, [])) => format!("the {last} line is"),
                Some((last, rest)) => format!("the {} and {last} lines are", rest.join(", ")),
                None => unreachable!("missing is not empty"),
            };
            return Err(format!("{what}: {list} missing"));
        }
        let (count, end) = end.expect("checked above");
        let moves = moves.expect("checked above");
        if count != moves.len() {
            return Err(format!(
                "it is damaged: the `end` line counts {count} moves, the `moves` line has {}",
                moves.len()
            ));
        }
        Ok(SavedGame {
            variant: variant.expect("checked above"),
            rules: rules.expect("checked above"),
            options,
            start: start.expect("checked above"),
            moves,
            end,
        })
    }
}
