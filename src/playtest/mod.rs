//! Playtesting: the computer plays a variant against itself many times and the games
//! are tallied: who wins, how games end, how long they last. A study is a list of
//! seeded games; any slice of it can run anywhere, and the tallies of the slices add
//! up to exactly those of one run.

mod report;
mod run;
mod shard;
mod study;
mod tally;

pub use report::{compare_report, compared_settings, progress_line, text_report};
pub use run::{game_start, run_study, run_study_recording};
pub use shard::{Shard, shard_from_env};
pub use study::{GameRecord, Study};
pub use tally::{MergeError, Tallies, merge};

use std::borrow::Cow;

/// Text read from a file as a terminal may be shown it: each control character (C0,
/// DEL and C1, escape among them) written `\u{1b}`, so that no name can move the
/// cursor, recolour or retitle the terminal, or start a line of its own.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}
