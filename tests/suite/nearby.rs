//! Parallelograms of hexagons, conditions on cells near the start and `not from`,
//! worked out by hand from docs/language.md (sections 4, 12 and 16a) and Brusky's
//! rule page.

use crate::common;

use common::{from_text, rules};
use std::sync::Arc;
use variantlab::{Position, Rules, parse_position, write_move};

fn position(rules: &Arc<Rules>, text: &str) -> Position {
    let setup = parse_position(rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Position::from_setup(rules, &setup).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves from `from`, as the game writes them, sorted.
fn moves_from(rules: &Arc<Rules>, text: &str, from: &str) -> Vec<String> {
    let mut moves = Vec::new();
    position(rules, text).legal_moves(rules, &mut moves);
    let b = &rules.variant().board;
    let mut out: Vec<String> = moves
        .iter()
        .filter(|m| b.name(m.from) == from)
        .map(|m| write_move(rules.variant(), m))
        .collect();
    out.sort();
    out
}

/// A King alone with its enemy on a board, for naming tests.
fn kings(board: &str, white: &str, black: &str) -> Arc<Rules> {
    from_text(&format!(
        "name \"Kings\"\nboard {board}\nplayer White: forward north, capitals\n\
         player Black: forward south, lowercase\npiece King (K) {{\n  royal\n  step 1 any\n}}\n\
         setup {{\n  White: King {white}\n  Black: King {black}\n}}\n\
         game ends {{\n  checkmate: mover wins\n  stalemate: draw\n}}\n"
    ))
}

#[test]
fn a_pointy_parallelogram_names_its_slanting_lines_as_files_from_the_bottom_left_corner() {
    // a1 is the bottom-left corner; the file a1-a2 climbs north-west, the line
    // a1-b2-c3 north-east. Its neighbours: a2 (NW), b2 (NE), b1 (E); its diagonals b3
    // (N, two ranks up) and c2 (ENE).
    let r = kings(
        "parallelogram 12 by 8 pointy-topped, leaning NW",
        "a1",
        "l8",
    );
    assert_eq!(r.variant().board.len(), 96);
    let a1 = r.variant().board.parse_cell("a1").expect("a1 is a cell");
    assert!(
        position(&r, &setup(&r)).at(a1).is_some(),
        "the King stands on a1"
    );
    assert_eq!(
        moves_from(&r, &setup(&r), "a1"),
        ["a1-a2", "a1-b1", "a1-b2", "a1-b3", "a1-c2"]
    );
}

#[test]
fn a_flat_parallelogram_numbers_each_file_from_its_bottom() {
    // Five files of three cells, each file half a cell higher than the one on its left:
    // a1's neighbours are a2 (N) and b1 (NE); b2 is one diagonal step away (NNE).
    let r = kings("parallelogram 5 by 3 flat-topped, leaning NE", "a1", "e3");
    assert_eq!(r.variant().board.len(), 15);
    assert_eq!(
        moves_from(&r, &setup(&r), "a1"),
        ["a1-a2", "a1-b1", "a1-b2"]
    );
}

fn setup(r: &Arc<Rules>) -> String {
    variantlab::write_position(r, &variantlab::Setup::start(r))
}

#[test]
fn brusky_opens_with_61_moves_40_of_them_by_pawns() {
    // Every Pawn may step one or two cells along either forward edge (40); each
    // Knight has four leaps, each Bishop and the Queen three diagonal moves (the last
    // taking a Pawn on rank 7), the King one diagonal step to g3.
    let r = rules("brusky.var");
    let start = setup(&r);
    let mut moves = Vec::new();
    position(&r, &start).legal_moves(&r, &mut moves);
    assert_eq!(moves.len(), 61);
    assert_eq!(
        moves_from(&r, &start, "a2"),
        ["a2-a3", "a2-a4", "a2-b3", "a2-c4"]
    );
    assert_eq!(
        moves_from(&r, &start, "j2"),
        ["j2-j3", "j2-j4", "j2-k3", "j2-l4"]
    );
    assert_eq!(moves_from(&r, &start, "c1"), ["c1-d3", "c1-e5", "c1xf7"]);
}

#[test]
fn an_enemy_beside_a_pawn_on_its_start_cell_blocks_both_ways_a_friend_only_its_own() {
    let r = rules("brusky.var");
    // Black Pawns attack only away from White, so no position below is check.
    // A Black Pawn on f3, next to the e2 Pawn's north-east edge: no advance at all,
    // though e3 is empty.
    assert!(moves_from(&r, "3k5/10/11/12/12/5p5/4P5/5K3 w - - 0 1", "e2").is_empty());
    // On e3, the other edge: the same.
    assert!(moves_from(&r, "3k5/10/11/12/12/4p6/4P5/5K3 w - - 0 1", "e2").is_empty());
    // A White Knight on f3 blocks only its own cell: e3 and e4 stay open.
    assert_eq!(
        moves_from(&r, "3k5/10/11/12/12/5N5/4P5/5K3 w - - 0 1", "e2"),
        ["e2-e3", "e2-e4"]
    );
    // An enemy two cells away (g4) is no block; the Pawn only cannot step onto it.
    assert_eq!(
        moves_from(&r, "3k5/10/11/12/6p5/11/4P5/5K3 w - - 0 1", "e2"),
        ["e2-e3", "e2-e4", "e2-f3"]
    );
}

#[test]
fn a_pawn_off_its_start_cell_advances_one_cell_past_an_enemy_beside_it() {
    let r = rules("brusky.var");
    // e4 is no start cell: with a Black Knight on f5 the Pawn still steps to e5, and
    // never two cells.
    assert_eq!(
        moves_from(&r, "3k5/10/11/5n6/4P7/11/10/5K3 w - - 0 1", "e4"),
        ["e4-e5"]
    );
    assert_eq!(
        moves_from(&r, "3k5/10/11/12/4P7/11/10/5K3 w - - 0 1", "e4"),
        ["e4-e5", "e4-f5"]
    );
}

/// A square board whose Wazir steps north only beside a friend and east only when
/// nothing stands two cells east.
fn square_conditions() -> Arc<Rules> {
    from_text(
        "name \"Neighbours\"\nboard square 5 by 5\n\
         player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
         piece King (K) {\n  royal\n  step 1 any\n}\n\
         piece Wazir (W) {\n  step 1 straight forward, to empty, only if a friend is 1 step sideways\n\
         \x20 step 1 E, to empty, unless a piece is 2 steps E\n}\n\
         setup {\n  White: King a1, Wazir b2\n  Black: King e5\n}\n\
         game ends {\n  checkmate: mover wins\n  stalemate: draw\n}\n",
    )
}

#[test]
fn only_if_a_friend_needs_one_and_unless_a_piece_looks_past_the_cell_between() {
    let r = square_conditions();
    // Alone, the Wazir on b2 may go east (nothing on d2) but not north.
    assert_eq!(moves_from(&r, "4k/5/5/1W3/K4 w 0 1", "b2"), ["b2-c2"]);
    // A friendly King on a2 beside it opens north.
    assert_eq!(
        moves_from(&r, "4k/5/5/KW3/5 w 0 1", "b2"),
        ["b2-b3", "b2-c2"]
    );
    // An enemy on a2 is no friend; a piece of either side on d2 shuts east.
    assert!(moves_from(&r, "5/5/5/kW1K1/5 w 0 1", "b2").is_empty());
}
