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

use crate::parse_switch;

/// The largest saved game read (16 MiB: some two million moves).
pub const MAX_SAVE_BYTES: u64 = 16 << 20;

/// The first line of every saved game.
pub const SAVE_HEADER: &str = "# variantlab saved game";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// The variant file, relative to the saved game's folder (or absolute).
    pub variant: String,
    /// [`crate::files::text_hash`] of the variant file's text when the game was saved.
    pub rules: String,
    pub options: Vec<(String, bool)>,
    pub start: String,
    pub moves: Vec<String>,
    /// The position after the moves.
    pub end: String,
}

/// The lines every save has, in the order written.
const FIELDS: [&str; 5] = ["variant", "rules", "start", "moves", "end"];

/// `the `moves` and `end` lines are missing`.
fn missing_list(missing: &[&str]) -> String {
    let names: Vec<String> = missing.iter().map(|k| format!("`{k}`")).collect();
    match names.split_last() {
        Some((last, [])) => format!("the {last} line is missing"),
        Some((last, rest)) => format!("the {} and {last} lines are missing", rest.join(", ")),
        None => "nothing is missing".to_string(),
    }
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
        let header = match lines.next() {
            Some((n, SAVE_HEADER)) => n,
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
        };
        // Without a complete `end` line the file was cut short; its last line may be
        // cut too, so it is not read as a field.
        let complete: Vec<(usize, &str)> = if text.ends_with('\n') {
            lines.collect()
        } else {
            let mut all: Vec<_> = lines.collect();
            all.pop();
            all
        };
        let key = |l: &str| l.split_whitespace().next().unwrap_or("").to_string();
        let seen: Vec<String> = complete.iter().map(|(_, l)| key(l)).collect();
        if !text.lines().any(|l| key(l) == "end") {
            let missing: Vec<&str> = FIELDS
                .into_iter()
                .filter(|f| *f == "end" || !seen.iter().any(|s| s == f))
                .collect();
            return Err(format!(
                "it is incomplete (cut short?): {}",
                missing_list(&missing)
            ));
        }
        let mut variant = None;
        let mut rules = None;
        let mut start = None;
        let mut moves: Option<Vec<String>> = None;
        let mut end: Option<(usize, String)> = None;
        let mut options = Vec::new();
        for (n, line) in text.lines().enumerate().skip(header) {
            let (n, line) = (n + 1, line.trim());
            if line.is_empty() || line.starts_with('#') {
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
                    if rest.is_empty() {
                        return Err(format!(
                            "line {n}: the `end` line lacks the move count and final position; the file was cut short"
                        ));
                    }
                    let (count, position) =
                        rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                    let count = count.parse().map_err(|_| {
                        format!(
                            "line {n}: the `end` line should start with the number of moves, not `{}`; the file was cut short or altered",
                            quote(count)
                        )
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
        let found = [
            variant.is_some(),
            rules.is_some(),
            start.is_some(),
            moves.is_some(),
            end.is_some(),
        ];
        let (Some(variant), Some(rules), Some(start), Some(moves), Some((count, end))) =
            (variant, rules, start, moves, end)
        else {
            let missing: Vec<&str> = FIELDS
                .into_iter()
                .zip(found)
                .filter(|(_, f)| !f)
                .map(|(k, _)| k)
                .collect();
            return Err(format!("it is damaged: {}", missing_list(&missing)));
        };
        if count != moves.len() {
            return Err(format!(
                "it is damaged: the `end` line counts {count} moves, the `moves` line has {}",
                moves.len()
            ));
        }
        Ok(SavedGame {
            variant,
            rules,
            options,
            start,
            moves,
            end,
        })
    }
}
