//! The runtime: positions, legal moves from the compiled tables, game end, perft.

mod end;
mod game;
mod movegen;
mod notation;
mod perft;
mod position;
mod random;
mod score;

pub use end::{Verdict, perpetual_checker};
pub use game::{Ending, Game, PlayError};
pub use notation::{
    MoveError, castling_letter, parse_move, parse_position, rows, side_token, write_move,
    write_position,
};
pub use perft::{MAX_PERFT_DEPTH, divide, ends_by_capture, perft};
pub use position::{
    MAX_COUNTER, Move, Position, PositionError, PositionOf, Setup, Special, Undo, View,
};
pub use random::MAX_DRAWS;
pub use score::Score;
