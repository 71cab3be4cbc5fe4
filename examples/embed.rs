//! Embedding variantlab: rules from text, a game through the checked API, and the
//! engine's answer. Run with `cargo run --example embed`.

use std::sync::Arc;
use variantlab::{Game, Limits, Rules, Session, Settings};

const RULES: &str = r#"
name "Rook and King"
board square 4 by 4
player White: forward north, capitals
player Black: forward south, lowercase
piece King (K) {
  royal
  step 1 any
}
piece Rook (R) {
  slide orthogonal
}
setup {
  White: King a1, Rook b2
  Black: King d4
}
game ends {
  checkmate: mover wins
  stalemate: draw
}
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rules = Arc::new(Rules::from_text(RULES, &Settings::new())?);
    let mut game = Game::start(rules, 0)?;
    println!("White has {} legal moves", game.legal_moves().len());
    game.play_text("b2-c2")?;
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
