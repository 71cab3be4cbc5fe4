//! The runtime: positions, legal moves from the compiled tables, game end, perft.

mod movegen;
mod perft;
mod position;

pub use perft::{divide, ends_by_capture, perft};
pub use position::{Move, Position, PositionError, Setup, Undo};
