//! The computer opponent: one search for every variant, reading nothing but the
//! compiled rules. Iterative-deepening alpha-beta over the runtime's legal moves, with
//! a transposition table, quiescence on captures and the usual move ordering. Every
//! end rule is judged by the runtime's own [`crate::runtime::Position::verdict`], so
//! the search plays towards whatever the file declares a win and respects its draws,
//! repetition included. Scores are for two players: each side's gain is the other's loss.

mod engine;
mod report;
mod table;
mod values;

pub use engine::{Limits, MATE, Searcher, Thought, describe_score};
pub use report::{describe_thought, think_in_game, values_table};
pub use values::{Evaluator, PieceValue, piece_values};

/// Reads a time such as `2s`, `500ms`, `1m` or `1.5` (seconds).
pub fn parse_time(text: &str) -> Result<std::time::Duration, String> {
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
    match number.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(std::time::Duration::from_secs_f64(x * scale)),
        _ => Err(format!(
            "`{text}` is not a time; write e.g. `2s`, `500ms` or `1m`"
        )),
    }
}
