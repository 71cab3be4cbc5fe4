//! variantlab: chess variants written as plain text, checked, drawn and played.
//!
//! The pipeline runs one way: a file's text is parsed and [`check`]ed into a
//! [`Variant`] (reporting every mistake), [`compile_tables`] turns that into per-cell
//! move tables ([`Rules`]), and a [`Position`] is played from them. A [`Searcher`] is
//! the computer opponent, [`study`] its self-play. [`Rules::from_text`] runs the first
//! three; a [`Game`] owns its rules and plays only legal moves; a [`Session`] adds a
//! computer opponent that remembers what it learnt between moves.
//!
//! ```
//! use std::sync::Arc;
//! use variantlab::{Game, Limits, Rules, Session, Settings};
//!
//! let text = std::fs::read_to_string("variants/chess.var").unwrap();
//! let rules = Arc::new(Rules::from_text(&text, &Settings::new()).unwrap());
//! let mut game = Game::start(rules, 0).unwrap();
//! assert_eq!(game.legal_moves().len(), 20);
//! game.play_text("e2e4").unwrap();
//! let black = game.to_move();
//! let mut session = Session::new(game).with_computer(&[black], Limits::depth(2));
//! let reply = session.computer_move().unwrap();
//! assert_eq!(session.game().move_count(), 2);
//! assert!(session.game().moves().last() == Some(&reply.played));
//! ```
//!
//! Everything public is re-exported here or in a few modules: [`variant`] (the parts
//! of a resolved variant), [`grammar`], [`diagrams`], [`study`], and the facades
//! [`load`], [`session`] and [`files`]. The terminal game, the web server, the
//! engine protocols and the editors' language server ([`play`], [`serve`],
//! [`protocol`], [`editor`]) are front ends behind the
//! default feature `front-ends`; without it the library needs no command-line or HTTP
//! crates. They use only this public API.

// The stages of the pipeline and the tools they share: internal.
pub(crate) mod check;
pub(crate) mod compile;
pub(crate) mod diagnostic;
pub(crate) mod geometry;
pub(crate) mod model;
pub(crate) mod playtest;
pub(crate) mod render;
pub(crate) mod rng;
pub(crate) mod runtime;
pub(crate) mod search;
pub(crate) mod suggest;
pub(crate) mod syntax;
pub(crate) mod terms;

// The public modules.
pub mod diagrams;
pub mod files;
pub mod grammar;
pub mod load;
pub mod session;
pub mod study;
pub mod variant;

#[cfg(feature = "front-ends")]
pub mod editor;
#[cfg(feature = "front-ends")]
pub mod play;
#[cfg(feature = "front-ends")]
pub mod protocol;
#[cfg(feature = "front-ends")]
pub mod serve;

// Reading and checking a file: every mistake reported, with its place.
pub use check::{Checked, check};
pub use diagnostic::{Diagnostic, Report, Span};
pub use load::{
    LoadError, MAX_VARIANT_BYTES, ReadError, Settings, SettingsError, check_all, parse_switch,
    read_limited, read_variant_text,
};

// The resolved variant; its parts are in `variant`.
pub use model::{Outcome, PieceId, Placed, PlayerId, TagId, Variant, Who};

// Compiling: a variant and its option values to move tables.
pub use compile::{CompileError, Rules, compile_tables};

// Playing: positions, legal moves, games and how they end.
pub use runtime::{
    Ending, Game, MAX_COUNTER, MAX_DRAWS, Move, MoveError, PlayError, Position, PositionError,
    Score, Setup, Special, ends_by_capture,
};

// Counting moves.
pub use runtime::{MAX_PERFT_DEPTH, divide, divide_until, perft};

// Notation: positions and moves as text.
pub use runtime::{
    PositionField, PositionTextError, named_cells, parse_move, parse_position, side_token,
    write_move, write_move_at, write_pgn, write_position, write_short, write_short_moves,
    writes_san,
};

// The computer opponent.
pub use search::{
    Evaluator, Limits, MATE, MAX_LEVEL, PieceValue, Searcher, Thought, WON, describe_score,
    describe_thought, piece_values, table_bits, think_in_game, think_in_game_reporting,
    values_table,
};
pub use session::{ComputerMove, Session};

// Small tools: the seeded generator every random choice uses; "did you mean".
pub use rng::Rng;
pub use suggest::closest;
