//! Where a move's wall may go: one statement, `then places a wall ...`, with its
//! narrowings combined, counted by hand on a board small enough to list.

use crate::common;

use variantlab::{Position, Setup};

/// White's legal moves (each with its wall) on a 3 by 3 board, a White Amazon on a1
/// and a Black one on c3, the Amazon's wall rule as given.
fn white_moves(wall: &str) -> usize {
    let r = common::from_text(&format!(
        "name \"Walls\"\nboard square 3 by 3\n\
         coordinates files lettered from the left, ranks numbered from the bottom\n\
         player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
         piece Amazon (Q) {{\n  slide any, to empty\n  {wall}\n}}\n\
         setup {{\n  White: Amazon a1\n  Black: Amazon c3\n}}\n\
         game ends {{\n  no legal move: mover wins\n}}\n"
    ));
    let pos = Position::from_setup(&r, &Setup::start(&r)).unwrap();
    let mut list = vec![];
    pos.legal_moves(&r, &mut list);
    assert!(list.iter().all(|m| m.wall.is_some()), "{wall}");
    list.len()
}

#[test]
fn a_wall_goes_where_the_statement_says_and_its_narrowings_combine() {
    // The Amazon goes to a2, a3, b1, c1 or b2 (c3 is taken), so 5 moves before walls.
    // Where it was: a1 each time.
    assert_eq!(white_moves("then places a wall where it was"), 5);
    // Any empty cell: 7 of the 9 are empty after each move.
    assert_eq!(white_moves("then places a wall on any empty cell"), 35);
    // Less b2, which is empty after four of the five moves.
    assert_eq!(
        white_moves("then places a wall on any empty cell except b2"),
        31
    );
    // An arrow moving as the Amazon from where it landed, a1 now empty, c3 blocking:
    // from a2 six cells (a1 a3 b2 c2 b3 b1), from a3 five (a2 a1 b3 b2 c1), from b1
    // six (a1 c1 b2 b3 a2 c2), from c1 five (b1 a1 c2 b2 a3), from b2 seven (a2 c2 b1
    // b3 a1 c1 a3): 29.
    let arrow = "then places a wall on any empty cell it reaches moving as Amazon";
    assert_eq!(white_moves(arrow), 29);
    // The arrow never hitting b2 takes one from each landing but b2: 25.
    assert_eq!(white_moves(&format!("{arrow} except b2")), 25);
}

#[test]
fn a_misplaced_narrowing_is_a_syntax_error_not_an_old_wording() {
    // `it reaches` inside a wall rule once matched the retired `KIND reaches ZONE`.
    for wall in [
        "then places a wall on any empty cell except a1 it reaches moving as Amazon",
        "then places a wall on any empty cell it reaches moving as Amazon, except a1",
        "then places a wall on any empty cell it reaches as Amazon",
    ] {
        let text = format!(
            "name \"Walls\"\nboard square 3 by 3\n\
             player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
             piece Amazon (Q) {{\n  slide any, to empty\n  {wall}\n}}\n\
             setup {{\n  White: Amazon a1\n  Black: Amazon c3\n}}\n"
        );
        let checked = variantlab::load::check_all("t.var", &text);
        let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["variantlab::syntax"], "{wall}");
        // Found on the wall rule's own line.
        let at = checked.report.diagnostics[0].span.start;
        let line = text.find(wall).unwrap();
        assert!((line..line + wall.len()).contains(&at), "{wall}");
    }
}
