//! Legal moves of small hand-worked positions.

use crate::check::check;
use crate::compile::compile_tables;
use crate::runtime::{Game, write_move};
use std::sync::Arc;

const RULES: &str = "board square 3 by 3
player White: forward north, capitals
player Black: forward south, lowercase
piece King (K) {
  royal
  step 1 any
}
piece Tower (T) {
  slide orthogonal
}
game ends {
  checkmate: mover wins
  stalemate: draw
}
";

fn moves(setup: &str) -> Vec<String> {
    let text = format!("{RULES}setup {{\n{setup}\n}}\n");
    let v = check("test.var", &text)
        .variant
        .expect("the test variant checks");
    let rules = Arc::new(compile_tables(&v, &v.default_options()).expect("it compiles"));
    let game = Game::start(rules, 0).unwrap();
    let mut out: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|m| write_move(game.variant(), m))
        .collect();
    out.sort();
    out
}

#[test]
fn a_royal_piece_never_steps_onto_an_attacked_cell() {
    // The Tower on b3 holds the b-file, the King on c3 touches b2: only a2 is safe.
    assert_eq!(
        moves("  White: King a1\n  Black: King c3, Tower b3"),
        ["a1-a2"]
    );
}

#[test]
fn a_piece_that_shields_the_royal_may_move_only_along_the_line() {
    // The White Tower on a2 stands between its King and the Tower on a3: it may take it,
    // and no other Tower move keeps the file closed. The King may step to b1; b2 touches
    // the Black King.
    let got = moves("  White: King a1, Tower a2\n  Black: King c3, Tower a3");
    assert_eq!(got, ["a1-b1", "a2xa3"]);
}
