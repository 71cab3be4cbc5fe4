//! Self-play studies: the computer plays a variant against itself many times, and the
//! games are tallied and reported.

pub use crate::playtest::{
    GameRecord, MergeError, Shard, Study, Tallies, compare_report, compared_settings, game_start,
    merge, printable, progress_line, run_study, run_study_recording, shard_from_env, text_report,
};
