//! The runtime: positions, legal moves from the compiled tables, game end, perft.

mod count;
mod end;
mod game;
mod move_text;
mod movegen;
mod pdn;
mod perft;
mod pgn;
mod position;
mod position_text;
mod random;
mod score;
mod short_text;

pub use end::{Verdict, perpetual_checker};
pub use game::{Ending, Game, PlayError};
pub use move_text::{MoveError, named_cells, parse_move, write_move, write_move_at};
pub use perft::{MAX_PERFT_DEPTH, divide, divide_until, ends_by_capture, perft};
pub use pgn::{write_pgn, writes_san};
pub use position::{MAX_COUNTER, Move, Position, PositionError, PositionOf, Setup, Special, View};
pub use position_text::{
    PositionField, PositionTextError, parse_position, side_token, write_position,
};
pub use random::MAX_DRAWS;
pub use score::Score;
pub use short_text::{write_short, write_short_moves};
