//! Promotions made as moves of their own (Sittuyin's Pawns), worked out by hand from
//! the rules in docs/language.md, "Promotion as a move of its own".

use crate::common;

use common::rules;
use std::sync::Arc;
use variantlab::{Game, Position, Rules, parse_move, parse_position, write_move, write_short};

fn position(rules: &Arc<Rules>, text: &str) -> Position {
    let setup = parse_position(rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Position::from_setup(rules, &setup).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The promotions among the legal moves, as the game writes them, sorted.
fn promotions(rules: &Arc<Rules>, text: &str) -> Vec<String> {
    let mut moves = Vec::new();
    position(rules, text).legal_moves(rules, &mut moves);
    let mut out: Vec<String> = moves
        .iter()
        .filter(|m| m.promotion.is_some())
        .map(|m| write_move(rules.variant(), m))
        .collect();
    out.sort();
    out
}

#[test]
fn a_pawn_on_a_promotion_cell_becomes_a_general_in_place_or_by_a_generals_step() {
    let r = rules("sittuyin.var");
    // d5 and e5 are White's promotion cells. A General on c6 would attack the King on
    // b7, so d5c6f is refused; every other diagonal step and both places are allowed.
    assert_eq!(
        promotions(&r, "8/1k6/8/3PP3/8/8/8/4K3[] w - - 0 1"),
        [
            "d5c4f", "d5d5f", "d5e4f", "d5e6f", "e5d4f", "e5d6f", "e5e5f", "e5f4f", "e5f6f"
        ]
    );
    // The Pawns' ordinary steps stay ordinary: d5d6 and e5e6 promote nothing.
    let mut moves = Vec::new();
    let pos = position(&r, "8/1k6/8/3PP3/8/8/8/4K3[] w - - 0 1");
    pos.legal_moves(&r, &mut moves);
    let texts: Vec<String> = moves.iter().map(|m| write_move(r.variant(), m)).collect();
    assert!(texts.contains(&"d5d6".to_string()) && texts.contains(&"e5e6".to_string()));
    // Short text: `=F` in place, the step written out otherwise.
    let short = |t: &str| {
        let m = parse_move(&r, &pos, t).unwrap();
        write_short(&r, &pos, &m)
    };
    assert_eq!(short("e5e5f"), "e5=F");
    assert_eq!(short("d5e6f"), "d5-e6=F");
}

#[test]
fn no_second_general_and_no_promotion_outside_the_zone_but_for_the_last_pawn() {
    let r = rules("sittuyin.var");
    // A General on d1 already: no promotion at all.
    assert!(promotions(&r, "8/1k6/8/3PP3/8/8/8/3FK3[] w - - 0 1").is_empty());
    // a2 lies outside the zone; only d5 promotes.
    let p = promotions(&r, "8/1k6/8/3P4/8/8/P7/4K3[] w - - 0 1");
    assert!(
        !p.is_empty() && p.iter().all(|m| m.starts_with("d5")),
        "{p:?}"
    );
    // The last Pawn promotes anywhere: on e4, where a General on d5 or f5 would check
    // the King on e6.
    assert_eq!(
        promotions(&r, "8/8/4k3/8/4P3/8/8/4K3[] w - - 0 1"),
        ["e4d3f", "e4e4f", "e4f3f"]
    );
    // A General may not attack any enemy piece from its new cell: the Rook on c6.
    let p = promotions(&r, "8/1k6/2r5/3P4/8/8/8/4K3[] w - - 0 1");
    assert!(!p.iter().any(|m| m == "d5d5f"), "{p:?}");
    assert!(p.contains(&"d5e6f".to_string()), "{p:?}");
}

#[test]
fn a_misspelt_kind_in_a_promotion_is_one_error_not_also_a_limit_outside_the_choice() {
    let text = std::fs::read_to_string(common::root().join("variants/sittuyin.var"))
        .unwrap()
        .replace(
            "to General, at most 1 General",
            "to Genral, at most 1 General",
        );
    let checked = variantlab::check("sittuyin.var", &text);
    let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["variantlab::unknown_piece"]);
}

#[test]
fn a_player_left_with_only_promotions_has_a_draw() {
    let r = rules("sittuyin.var");
    let start = parse_position(&r, "8/8/8/7p/7P/8/2k1n3/K7[] b - - 0 1").unwrap();
    let mut g = Game::new(r.clone(), start).unwrap();
    // After Ne2-c1 White's King has no cell (a2, b1, b2 are covered), its Pawn is
    // blocked, and it is not in check: only h4's promotions are left.
    let m = parse_move(&r, g.position(), "e2c1").unwrap();
    g.play(m).unwrap();
    let e = g.ending().expect("the game is over");
    assert_eq!(e.reason, "White has only promotions left");
    assert_eq!(e.winner(), None);
    assert_eq!(
        promotions(&r, &g.position_string()),
        ["h4g3f", "h4g5f", "h4h4f"]
    );
    // With another move at hand the game goes on: the King on a1 may step to b1.
    let start = parse_position(&r, "8/8/8/7p/7P/8/3k4/K1n5[] b - - 0 1").unwrap();
    let mut g = Game::new(r.clone(), start).unwrap();
    let m = parse_move(&r, g.position(), "d2d3").unwrap();
    g.play(m).unwrap();
    assert!(g.ending().is_none());
}
