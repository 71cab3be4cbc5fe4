//! Playtesting: the computer plays a variant against itself many times and the games
//! are tallied: who wins, how games end, how long they last. A study is a list of
//! seeded games; any slice of it can run anywhere, and the tallies of the slices add
//! up to exactly those of one run.

mod report;
mod run;
mod shard;
mod study;
mod tally;

pub use report::{compare_report, compared_settings, printable, progress_line, text_report};
pub use run::{game_start, play_game, run_study, run_study_recording};
pub use shard::{Shard, shard_from_env};
pub use study::{GameRecord, Study, parse_games, parse_threads};
pub use tally::{MergeError, Tallies, merge};
