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

pub use engine::{
    Limits, MATE, MAX_LEVEL, QUIESCENCE_PLIES, Searcher, Thought, WON, describe_score,
};
pub use report::{describe_thought, think_in_game, think_in_game_reporting, values_table};
pub use values::{Evaluator, PieceValue, piece_values};

use std::time::Duration;

/// The longest time a move may be given: a day.
pub const MAX_TIME: Duration = Duration::from_secs(24 * 60 * 60);

/// Reads a time such as `2s`, `500ms`, `1m` or `1.5` (seconds): more than nothing and
/// at most [`MAX_TIME`].
pub fn parse_time(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    let secs = match number.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => x * scale,
        _ => {
            return Err(format!(
                "`{text}` is not a time; write e.g. `2s`, `500ms` or `1m`"
            ));
        }
    };
    if secs > MAX_TIME.as_secs_f64() {
        return Err(format!(
            "`{text}` is too long: a move may take at most 24 hours (`1440m`)"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Reads a search depth (`--level`): a whole number from 1 to [`MAX_LEVEL`].
pub fn parse_level(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u64>() {
        Ok(l) if (1..=MAX_LEVEL as u64).contains(&l) => Ok(l as u32),
        Ok(0) => Err(format!("the level is from 1 to {MAX_LEVEL} plies, not 0")),
        Ok(_) => Err(format!(
            "the level is at most {MAX_LEVEL} plies: a deeper search would not finish"
        )),
        Err(_) if !text.trim().is_empty() && text.trim().bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!(
                "the level is at most {MAX_LEVEL} plies: a deeper search would not finish"
            ))
        }
        Err(_) => Err(format!(
            "`{text}` is not a level; write a whole number of plies from 1 to {MAX_LEVEL}"
        )),
    }
}

/// The most table bits a size in bytes holds (at least 10, at most 32): the `Hash`
/// option of the engine protocols.
pub fn table_bits(bytes: usize) -> u32 {
    let entries = (bytes / table::Table::ENTRY_BYTES).max(1);
    (usize::BITS - 1 - entries.leading_zeros()).clamp(10, 32)
}
