//! variantlab: chess variants written as plain text, checked, drawn and played.
//!
//! The pipeline runs one way: [`syntax`] parses a file, [`check`] resolves it into a
//! [`model::Variant`] (reporting every mistake), [`compile`] turns that into per-cell
//! move tables ([`Rules`]), and [`runtime`] plays positions from them. [`search`] is
//! the computer opponent, [`playtest`] its studies. [`Rules::from_text`] runs the
//! first three; a [`Game`] owns its rules and plays only legal moves; a [`Session`]
//! adds a computer opponent that remembers what it learnt between moves.
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
//! The terminal game and the web server ([`play`], [`serve`]) are front ends behind
//! the default feature `front-ends`; without it the library needs no command-line or
//! HTTP crates.

pub mod check;
pub mod compile;
pub mod diagnostic;
pub mod files;
pub mod geometry;
pub mod load;
pub mod model;
#[cfg(feature = "front-ends")]
pub mod play;
pub mod playtest;
#[cfg(feature = "front-ends")]
pub mod protocol;
pub mod render;
pub mod rng;
pub mod runtime;
pub mod search;
#[cfg(feature = "front-ends")]
pub mod serve;
pub mod session;
pub mod suggest;
pub mod syntax;

pub use compile::Rules;
pub use load::{LoadError, Settings};
pub use model::{PieceId, PlayerId, Variant};
pub use runtime::{Ending, Game, Move, PlayError, Score, Setup};
pub use search::{Limits, Thought};
pub use session::{ComputerMove, Session};
