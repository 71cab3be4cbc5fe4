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

#[test]
fn capturing_and_standing_take_the_whole_word_in() {
    // `into` once matched `in` and the error landed elsewhere; now it is told at the word.
    for (trigger, shown) in [
        ("capturing inside", "inside"),
        ("standing inside", "inside"),
    ] {
        let text = format!(
            "name \"T\"\nboard square 3 by 4\nplayer White: forward north, capitals\n\
             player Black: forward south, lowercase\nzone mid: b2 c2\n\
             piece General (F) {{\n  step 1 diagonal\n}}\n\
             piece Pawn (P) {{\n  step 1 straight forward\n  may promote on {trigger} mid to General\n}}\n\
             setup {{\n  White: Pawn a1\n  Black: Pawn c4\n}}\n"
        );
        let checked = variantlab::load::check_all("t.var", &text);
        let d = &checked.report.diagnostics[0];
        assert_eq!(d.code, "variantlab::syntax", "{trigger}");
        let at = text.find(shown).unwrap();
        assert_eq!(d.span.start, at, "{trigger}: {}", d.message);
        assert!(d.message.contains(&format!("`{shown}`")), "{}", d.message);
    }
}

#[test]
fn the_limits_and_forced_where_stuck_read_the_same_in_any_order() {
    // Grand Chess with its two clauses swapped plays the same.
    let text = std::fs::read_to_string(common::root().join("variants/grand.var")).unwrap();
    let old = "only to kinds the player has lost, forced where it could never move again";
    assert!(text.contains(old));
    let swapped = text.replace(
        old,
        "forced where it could never move again, only to kinds the player has lost",
    );
    let (a, b) = (common::from_text(&text), common::from_text(&swapped));
    let pawn = variantlab::PieceId(7);
    assert_eq!(a.variant().piece(pawn).name, "Pawn");
    for player in [variantlab::PlayerId(0), variantlab::PlayerId(1)] {
        let (pa, pb) = (
            a.promotion(player, pawn).unwrap(),
            b.promotion(player, pawn).unwrap(),
        );
        assert!(pa.forced_if_stuck && pb.forced_if_stuck);
        assert_eq!((&pa.to, &pa.limit), (&pb.to, &pb.limit));
        // Only to kinds lost: as many as the setup gives of each.
        assert_eq!(pa.limit, [1, 1, 1, 2, 2, 2]);
    }
}
