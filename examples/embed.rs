//! Embedding variantlab: rules from a variant file, a game through the checked API, and
//! the engine's answer. Run with `cargo run --example embed`.

use std::path::Path;
use std::sync::Arc;
use variantlab::{Game, Limits, Rules, Session, Settings};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Any variant file; this one is a Rook and a King against a King on a 4 by 4 board.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/rook-and-king.var");
    let rules = Arc::new(Rules::from_file(&path, &Settings::new())?);
    let mut game = Game::start(rules, 0)?;
    println!("White has {} legal moves", game.legal_moves().len());
    game.play_text("b2-c2")?;
    // A move that is not legal is refused, and the game stays as it was.
    if let Err(refused) = game.play_text("d4-c3") {
        println!("refused: {refused}");
    }
    let black = game.to_move();
    let mut session = Session::new(game).with_computer(&[black], Limits::depth(3));
    let reply = session.computer_move().ok_or("the computer has no move")?;
    println!("Black answers {}", session.game().write_move(&reply.played));
    println!("position {}", session.game().position_string());
    Ok(())
}
