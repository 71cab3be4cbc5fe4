//! Draughts families that choose among captures by more than their number: Italian
//! draughts' quality rules, Spanish draughts' most kings, Czech draughts' king first;
//! worked by hand, and the published perft counts.
//!
//! Italian and Spanish boards lie with a dark square in each player's right-hand corner:
//! the dark squares are numbered from a8 (1), c8, e8, g8, then b7 (5) ... to h1 (32).
//! Czech draughts lies as English checkers does: b8 is 1, a7 is 5, a1 is 29.
//!
//! Perft sources: the tables in Rein Halbersma's dctl tests, from the "alternative game
//! rules" thread of the FMJD forum (captures with the same start, end and pieces taken
//! one move): Italian 7 49 302 1469 7361 36473 177532 828783 3860875 17761384
//! 81647058; Spanish 7 49 302 1469 7361 36473 177532 828783 3860866 17743464 81383200;
//! Czech 7 49 302 1469 7361 36768 179740 845931 3963671 18368918 84967210.

use crate::common;

#[test]
fn italian_perft_from_the_start_agrees_with_the_published_counts() {
    let r = common::rules("italian-draughts.var");
    assert_eq!(
        common::start_text(&r),
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let counts = [7, 49, 302, 1469, 7361, 36473, 177532, 828783];
    common::perft_counts(&r, &common::start_text(&r), 1, &counts);
}

#[test]
fn spanish_perft_from_the_start_agrees_with_the_published_counts() {
    let r = common::rules("spanish-draughts.var");
    let counts = [7, 49, 302, 1469, 7361, 36473, 177532, 828783];
    common::perft_counts(&r, &common::start_text(&r), 1, &counts);
}

#[test]
fn czech_perft_from_the_start_agrees_with_the_published_counts() {
    let r = common::rules("czech-draughts.var");
    let counts = [7, 49, 302, 1469, 7361, 36768, 179740, 845931];
    common::perft_counts(&r, &common::start_text(&r), 1, &counts);
}

#[test]
#[ignore = "about a minute: cargo test --release -- --ignored choosing_perft"]
fn choosing_perft_agrees_to_depth_11() {
    for (file, counts) in [
        ("italian-draughts.var", [3860875, 17761384, 81647058]),
        ("spanish-draughts.var", [3860866, 17743464, 81383200]),
        ("czech-draughts.var", [3963671, 18368918, 84967210]),
    ] {
        let r = common::rules(file);
        common::perft_counts(&r, &common::start_text(&r), 9, &counts);
    }
}

#[test]
fn italian_captures_take_the_most_pieces_then_use_a_king() {
    let r = common::rules("italian-draughts.var");
    // The man on d3 (22) may take c4 (18), landing on b5 (13); the King on h5 (16) may
    // take g6 (12), landing on f7 (7). One piece each: the King must capture.
    assert_eq!(common::move_texts(&r, "W:W22,K16:B12,18"), ["16x7"]);
    // With c6 (10) behind c4, the man goes on from b5 to d7 (6): two pieces beat one,
    // whoever takes them.
    assert_eq!(common::move_texts(&r, "W:W22,K16:B10,12,18"), ["22x6"]);
}

#[test]
fn italian_captures_then_take_the_most_kings_and_meet_them_first() {
    let r = common::rules("italian-draughts.var");
    // Two Kings, one piece each: the King on d1 (30) takes the King on e2 (27), landing
    // on f3 (23); the King on h5 takes a man. Taking a king is preferred.
    assert_eq!(common::move_texts(&r, "W:WK16,K30:B12,K27"), ["30x23"]);
    // The King on d1 may take c2 (26, a man) then c4 (18, a king), ending on d5 (14);
    // or e2 (27, a king) then g4 (20, a man), ending on h5 (16). Two pieces and one
    // king each: the chain meeting its king first is the one left.
    assert_eq!(common::move_texts(&r, "W:WK30:B20,26,K18,K27"), ["30x16"]);
    let (_, board) = common::after(&r, "W:WK30:B20,26,K18,K27", &["30x16"]);
    assert_eq!(board, "B:WK16:BK18,26");
}

#[test]
fn an_italian_man_may_not_take_a_king() {
    let r = common::rules("italian-draughts.var");
    // The man on d3 (22) faces a king on c4 (18) and a man on e4 (19): it may take
    // only the man, landing on f5 (15).
    assert_eq!(common::move_texts(&r, "W:W22:B19,K18"), ["22x15"]);
}

#[test]
fn spanish_captures_take_the_most_pieces_then_the_most_kings() {
    let r = common::rules("spanish-draughts.var");
    // The man on b3 (21) may take the king on c4 (18), landing on d5 (14); the man on
    // f3 (23) the man on g4 (20), landing on h5 (16). One piece each: the king is taken.
    assert_eq!(common::move_texts(&r, "W:W21,23:B20,K18"), ["21x14"]);
    // With a man on e6 (11), the man taking the king goes on from d5 over e6 to f7 (7):
    // two pieces.
    assert_eq!(common::move_texts(&r, "W:W21,23:B11,20,K18"), ["21x7"]);
}

#[test]
fn czech_captures_are_made_by_a_king_where_one_can() {
    let r = common::rules("czech-draughts.var");
    // The man on c3 (22) may take d4 (18) and f6 (11), ending on g7 (8); the King on g1
    // (32) may take d4 and land on c5 (14), b6 (9) or a7 (5). Any capture may be
    // chosen, not only the longest, but a king must make it.
    assert_eq!(
        common::move_texts(&r, "W:W22,K32:B11,18"),
        ["32x14", "32x5", "32x9"]
    );
    // With no king able to capture, the man's chain is the move.
    assert_eq!(common::move_texts(&r, "W:W22,K29:B11,18"), ["22x8"]);
}

#[test]
fn preferences_are_refused_where_they_mean_nothing() {
    let file = |line: &str| {
        format!(
            "name \"J\"\nboard square 6 by 6\nplayer White: forward north, capitals\n\
             player Black: forward south, lowercase\n\
             piece Man (M) {{\n  step 1 forward diagonal\n}}\n\
             piece King (K) {{\n  slide diagonal\n}}\n\
             setup {{\n  White: Man a1\n  Black: Man f6\n}}\n{line}\n\
             game ends {{\n  no legal move: mover wins\n}}\n"
        )
    };
    assert_eq!(
        common::error_codes(&file("captures are compulsory, by a Kng")),
        ["variantlab::unknown_piece"]
    );
    assert_eq!(
        common::error_codes(&file("drops are compulsory, taking the most King")),
        ["variantlab::most_taken"]
    );
    assert!(
        common::error_codes(&file(
            "captures are compulsory, taking the most pieces, then by a King or Man, then taking King earliest"
        ))
        .is_empty()
    );
}
