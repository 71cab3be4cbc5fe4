//! What a study plays and what one game leaves: shared by playing and tallying.

use super::shard::Shard;
use crate::runtime::Score;

/// What to play: games `0..games` of a seeded list (those of `shard`), each opening
/// with `opening_plies` random moves, then the engine at depth `level` for both sides.
#[derive(Clone, Debug)]
pub struct Study {
    pub games: u64,
    pub seed: u64,
    pub level: u32,
    pub opening_plies: u32,
    /// Games still going after this many plies are stopped and counted unfinished.
    pub max_plies: u32,
    pub shard: Shard,
    /// Threads to play on; the result does not depend on it.
    pub threads: usize,
}

impl Study {
    /// The default level: depth 2 plus captures, a few milliseconds a move.
    pub const LEVEL: u32 = 2;
    pub const OPENING_PLIES: u32 = 4;
    pub const MAX_PLIES: u32 = 1000;
    /// The most games a study may plan: a billion, years of play on any machine.
    pub const MAX_GAMES: u64 = 1_000_000_000;
    /// The most threads a study plays on.
    pub const MAX_THREADS: usize = 256;

    pub fn new(games: u64, seed: u64) -> Study {
        Study {
            games,
            seed,
            level: Study::LEVEL,
            opening_plies: Study::OPENING_PLIES,
            max_plies: Study::MAX_PLIES,
            shard: Shard::WHOLE,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Each player's share of the point; None when the game reached the ply limit.
    pub score: Option<Score>,
    /// The end rule that fired; None when the game reached the ply limit.
    pub rule: Option<usize>,
    pub plies: u32,
    /// The moves the computer chose, and the nodes its searches visited for them.
    pub searched: u32,
    pub nodes: u64,
}
