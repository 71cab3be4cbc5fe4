//! The computer opponent: one search for every variant, reading nothing but the
//! compiled rules. Iterative-deepening alpha-beta over the runtime's legal moves, with
//! a transposition table, quiescence on captures and the usual move ordering. Every
//! end rule is judged by the runtime's own [`crate::runtime::Position::verdict`], so
//! the search plays towards whatever the file declares a win and respects its draws,
//! repetition included. Scores are for two players: each side's gain is the other's loss.

mod engine;
mod groups;
mod promise;
mod reaches;
mod report;
mod table;
mod values;

pub use engine::{Limits, MATE, MAX_LEVEL, Searcher, Thought, WON, describe_score};
pub use report::{describe_thought, think_in_game, think_in_game_reporting, values_table};
pub use values::{Evaluator, PieceValue, piece_values};

/// The most table bits a size in bytes holds (at least 10, at most 32): the `Hash`
/// option of the engine protocols.
pub fn table_bits(bytes: usize) -> u32 {
    let entries = (bytes / table::Table::ENTRY_BYTES).max(1);
    (usize::BITS - 1 - entries.leading_zeros()).clamp(10, 32)
}
