//! The rules that tell the draughts family apart, worked by hand: crowning in the middle
//! of a chain (Russian against pool checkers), a flying king landing where it goes on,
//! pieces taken at once and no turning back (Turkish); and the published perft counts
//! of Russian, pool and Turkish draughts.
//!
//! Positions of the diagonal games list the dark squares row by row from rank 8, four
//! to a row (b8 d8 f8 h8, then a7 c7 e7 g7, ...); Turkish draughts lists all 64.
//!
//! Perft sources: Russian and pool checkers, the tables in Rein Halbersma's dctl tests
//! (from the "standard validation generator moves" thread of the Russian shashki forum;
//! captures with the same start, end and pieces taken one move): Russian 7 49 302 1469
//! 7482 37986 190146 929899 4570586 22444032 110917189, pool 7 49 302 1469 7482 37986
//! 190146 929896 4570534 22435955 110833952. Turkish draughts, the perft table published
//! with the kish crate (8 64 708 7538 85090 931312 10782382 123290300); it counts
//! captures differing only in the order of the pieces taken as separate moves, which
//! first happens at depth 7.

use crate::common;

#[test]
fn russian_perft_from_the_start_agrees_with_the_published_counts() {
    let r = common::rules("russian-draughts.var");
    let counts = [7, 49, 302, 1469, 7482, 37986, 190146, 929899];
    common::perft_counts(&r, &common::start_text(&r), 1, &counts);
}

#[test]
#[ignore = "about a minute: cargo test --release -- --ignored russian_perft"]
fn russian_perft_agrees_to_depth_11() {
    let r = common::rules("russian-draughts.var");
    common::perft_counts(
        &r,
        &common::start_text(&r),
        9,
        &[4570586, 22444032, 110917189],
    );
}

#[test]
fn pool_perft_from_the_start_agrees_with_the_published_counts() {
    let r = common::rules("pool-checkers.var");
    let counts = [7, 49, 302, 1469, 7482, 37986, 190146, 929896];
    common::perft_counts(&r, &common::start_text(&r), 1, &counts);
}

#[test]
#[ignore = "about a minute: cargo test --release -- --ignored pool_perft"]
fn pool_perft_agrees_to_depth_11() {
    let r = common::rules("pool-checkers.var");
    common::perft_counts(
        &r,
        &common::start_text(&r),
        9,
        &[4570534, 22435955, 110833952],
    );
}

#[test]
fn turkish_perft_from_the_start_agrees_with_the_published_counts() {
    let r = common::rules("turkish-draughts.var");
    assert_eq!(
        common::start_text(&r),
        "8/mmmmmmmm/mmmmmmmm/8/8/MMMMMMMM/MMMMMMMM/8 w 0 1"
    );
    common::perft_counts(
        &r,
        &common::start_text(&r),
        1,
        &[8, 64, 708, 7538, 85090, 931312],
    );
}

#[test]
fn a_man_crowned_in_the_middle_of_a_chain_goes_on_as_a_king_in_russian_draughts() {
    // White's man on b6 jumps c7 to d8, the far row. In Russian draughts it is a king at
    // once and flies on over f6 to g5 or h4; in pool checkers it stays a man there, and
    // a man cannot take f6 from two squares away: it stops, crowned.
    let text = "4/1m2/M1m1/4/4/4/4/4 w 0 1";
    let russian = common::rules("russian-draughts.var");
    assert_eq!(common::move_texts(&russian, text), ["b6xg5=K", "b6xh4=K"]);
    let (_, board) = common::after(&russian, text, &["b6xh4"]);
    assert_eq!(board, "4/4/4/4/3K/4/4/4");
    let (_, board) = common::after(&russian, text, &["b6xd8xg5"]);
    assert_eq!(board, "4/4/4/3K/4/4/4/4");
    // Pool checkers writes positions and moves in PDN: b6 is 9, c7 6, f6 11, d8 2.
    let pool = common::rules("pool-checkers.var");
    assert_eq!(common::move_texts(&pool, "W:W9:B6,11"), ["9x2"]);
    let (_, board) = common::after(&pool, "W:W9:B6,11", &["9x2"]);
    assert_eq!(board, "B:B11:WK2");
}

#[test]
fn a_flying_king_must_land_where_its_chain_goes_on() {
    // The King on a1 takes c3 and may land on d4, e5, f6, g7 or h8; only from e5 can it
    // go on, over f4, so it must land there: the captures end on g3 or h2. No majority
    // rule is needed for that.
    let r = common::rules("russian-draughts.var");
    assert_eq!(
        common::move_texts(&r, "4/4/4/4/2m1/1m2/4/K3 w 0 1"),
        ["a1xg3", "a1xh2"]
    );
    // The same in PDN: a1 is 29, c3 22, f4 19, g3 24, h2 28.
    let r = common::rules("pool-checkers.var");
    assert_eq!(common::move_texts(&r, "W:WK29:B19,22"), ["29x24", "29x28"]);
}

#[test]
fn turkish_pieces_taken_at_once_leave_their_squares_free() {
    // The King on c1 takes c3 going north (landing on c6, the only square it goes on
    // from), e6 going east (to g6), g4 going south (to g3), and e3 going west: c3 is
    // already gone, so it may land on d3, c3, b3 or a3. Taken at the end of the move,
    // c3 would stop it on d3.
    let r = common::rules("turkish-draughts.var");
    let text = "8/8/4m3/8/6m1/2m1m3/8/2K5 w 0 1";
    assert_eq!(
        common::move_texts(&r, text),
        ["c1xa3", "c1xb3", "c1xc3", "c1xd3"]
    );
    let (_, board) = common::after(&r, text, &["c1xc3"]);
    assert_eq!(board, "8/8/8/8/8/2K5/8/8");
    let (_, board) = common::after(&r, text, &["c1xc6xg6xg3xc3"]);
    assert_eq!(board, "8/8/8/8/8/2K5/8/8");
}

#[test]
fn a_turkish_chain_never_turns_straight_back() {
    // The King on d5 takes d3 (landing on d2 or d1) or d7 (landing on d8); turning back
    // from either would fly over the empty start to take the other, which the rule
    // forbids, so each capture takes one piece and the other man stays.
    let r = common::rules("turkish-draughts.var");
    let text = "8/3m4/8/3K4/8/3m4/8/8 w 0 1";
    assert_eq!(common::move_texts(&r, text), ["d5xd1", "d5xd2", "d5xd8"]);
    let (_, board) = common::after(&r, text, &["d5xd8"]);
    assert_eq!(board, "3K4/8/8/8/8/3m4/8/8");
}

#[test]
fn a_turkish_man_crowns_where_its_chain_ends_on_the_far_row() {
    // b6 over b7 to b8, the far row, then along it over c8 to d8: the chain started off
    // the row and ends on it, so the man is crowned, though its last capture began there.
    let r = common::rules("turkish-draughts.var");
    let text = "2m5/1m6/1M6/8/8/8/8/8 w 0 1";
    assert_eq!(common::move_texts(&r, text), ["b6xd8=K"]);
    let (_, board) = common::after(&r, text, &["b6xd8=K"]);
    assert_eq!(board, "3K4/8/8/8/8/8/8/8");
}

#[test]
fn chain_words_are_refused_where_they_mean_nothing() {
    // `at once` needs a chain; a promotion at once must be forced, to one kind, of a
    // piece that makes chains.
    let jump = "slide 2 diagonal, over 1 enemy, capturing the piece jumped";
    for (man, code) in [
        (format!("{jump} at once"), "bad_jump"),
        (
            format!("{jump}, again while it can\n  may promote on entering far to King, at once"),
            "bad_jump",
        ),
        (
            format!(
                "{jump}, again while it can\n  promotes on entering far to King or Man, at once"
            ),
            "bad_jump",
        ),
        (
            format!("{jump}\n  promotes on entering far to King, at once"),
            "bad_jump",
        ),
    ] {
        let file = format!(
            "name \"J\"\nboard square 6 by 6\nplayer White: forward north, capitals\n\
             player Black: forward south, lowercase\nzone far: far 1 ranks\n\
             piece Man (M) {{\n  step 1 forward diagonal, to empty\n  {man}\n}}\n\
             piece King (K) {{\n  slide diagonal, to empty\n}}\n\
             setup {{\n  White: Man a1\n  Black: Man f6\n}}\ngame ends {{\n  no legal move: mover wins\n}}\n"
        );
        assert_eq!(
            common::error_codes(&file),
            [format!("variantlab::{code}")],
            "{man}"
        );
    }
}
