//! Several promotion statements for one piece: each adds moves that promote, and they
//! must offer the same.

use crate::common;
use variantlab::{Game, check, write_move};

const TWO_WAYS: &str = r#"
name "Two ways"
board square 5 by 5
player White: forward north, capitals
player Black: forward south, lowercase
zone camp: far 2 ranks
piece King (K) {
  royal
  step 1 any
}
piece Soldier (S) {
  step 1 orthogonal
  may promote on entering camp to Gold
  may promote on capturing in camp to Gold
}
piece Gold (G) {
  step 1 any
}
setup {
  White: King a1, Soldier c4 e3
  Black: King a5, Soldier c5
}
game ends {
  checkmate: mover wins
  stalemate: draw
}
"#;

fn soldier_moves(text: &str) -> Vec<String> {
    let rules = common::from_text(text);
    let game = Game::new(rules.clone(), variantlab::Setup::seeded(&rules, 0).unwrap()).unwrap();
    let mut moves: Vec<String> = game
        .legal_moves()
        .iter()
        .filter(|m| !write_move(rules.variant(), m).starts_with("a1"))
        .map(|m| write_move(rules.variant(), m))
        .collect();
    moves.sort();
    moves
}

#[test]
fn a_second_statement_adds_the_moves_it_promotes() {
    // Worked by hand: the camp is ranks 4 and 5. c4 stands in it already, so its step
    // to c5 promotes only by the second statement, as a capture; its quiet steps in
    // the camp (b4, d4) and out of it (c3) never promote. e3-e4 enters the camp.
    let mut want = vec![
        "c4-b4", "c4-c3", "c4-d4", "c4xc5", "c4xc5=G", "e3-d3", "e3-e2", "e3-e4", "e3-e4=G",
    ];
    want.sort();
    assert_eq!(soldier_moves(TWO_WAYS), want);
    // With the first statement alone, the capture in the camp does not promote.
    let one = TWO_WAYS.replace("  may promote on capturing in camp to Gold\n", "");
    assert!(!soldier_moves(&one).contains(&"c4xc5=G".to_string()));
}

#[test]
fn statements_that_offer_otherwise_are_refused() {
    for second in [
        "  promotes on capturing in camp to Gold\n",
        "  may promote on capturing in camp to Gold or Soldier\n",
    ] {
        let text = TWO_WAYS.replace("  may promote on capturing in camp to Gold\n", second);
        let checked = check("t.var", &text);
        let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["variantlab::promotions_disagree"], "{second}");
    }
    // Statements for different players never meet (one for every player meets all).
    let text = TWO_WAYS
        .replace(
            "  may promote on entering camp to Gold\n",
            "  may promote on entering camp to Gold for White\n",
        )
        .replace(
            "  may promote on capturing in camp to Gold\n",
            "  promotes on capturing in camp to Gold for Black\n",
        );
    let checked = check("t.var", &text);
    assert!(
        checked.variant.is_some(),
        "{}",
        checked.report.render(100, false)
    );
}
