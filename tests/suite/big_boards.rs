//! Boards past 128 cells: the size limit, names past the letter z, and the side-12
//! Hexagonal Iss Jetan, whose perft counts come from the reference generator.

use crate::common;
use crate::reference;

use common::{rules, variant};
use variantlab::{Game, Position, Setup, check, compile_tables, perft};

/// Perft of the side-12 game from its start, depths 1 to 3, as counted by the
/// reference generator (`reference_counts_the_side_12_start` recounts them).
const SIDE_12_PERFT: [u64; 3] = [111, 12_430, 1_358_855];

/// About a minute: a long check.
#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn reference_counts_the_side_12_start() {
    let v = variant("hexagonal-iss-jetan-12.var");
    let start = reference::start(&v);
    let options = v.default_options();
    let counts: Vec<u64> = (1..=3)
        .map(|d| reference::perft(&v, &options, &start, d))
        .collect();
    assert_eq!(counts, SIDE_12_PERFT);
}

#[test]
fn side_12_perft_matches_the_reference_counts() {
    let rules = rules("hexagonal-iss-jetan-12.var");
    let mut pos = Position::start(&rules).unwrap();
    for (depth, want) in (1..=3).zip(SIDE_12_PERFT) {
        assert_eq!(perft(&rules, &mut pos, depth), want, "depth {depth}");
    }
    // The shallow counts are cheap enough to recount with the reference every run.
    let v = &rules.variant();
    let start = reference::start(v);
    for depth in 1..=2 {
        assert_eq!(
            reference::perft(v, rules.options(), &start, depth),
            SIDE_12_PERFT[depth as usize - 1]
        );
    }
}

/// A two-player game of a King and a Rook a side on the given board.
fn king_and_rook(board: &str, setup: &str) -> String {
    format!(
        "name \"Big\"\n{board}\nplayer White: forward north, capitals\nplayer Black: forward south, lowercase\n\
         piece King (K) {{ step 1 any }}\npiece Rook (R) {{ slide orthogonal }}\n\
         setup {{\n{setup}\n}}\ngame ends {{\n  King captured: mover wins\n  no legal move: draw\n}}\n"
    )
}

#[test]
fn a_board_of_1025_cells_is_refused_at_its_board_statement() {
    let text = king_and_rook("board square 41 by 25", "White: King a1\nBlack: King b25");
    let checked = check("big.var", &text);
    assert!(checked.variant.is_none());
    let d = checked
        .report
        .diagnostics
        .iter()
        .find(|d| d.code == "variantlab::board_size")
        .expect("a board_size error");
    assert_eq!(&text[d.span.start..d.span.end], "board square 41 by 25");
    assert!(d.message.contains("1025 cells"), "{}", d.message);
    assert!(d.message.contains("at most 1024"), "{}", d.message);
    // A hole brings it to the limit.
    let text = text.replace("41 by 25", "41 by 25\nholes ao25");
    assert!(check("big.var", &text).variant.is_some());
}

#[test]
fn a_board_of_1024_cells_checks_and_plays() {
    // Files a-z then aa-af; af32 is the top right corner.
    let text = king_and_rook(
        "board square 32 by 32",
        "White: King p2, Rook a1\nBlack: King q31, Rook af32",
    );
    let checked = check("big.var", &text);
    let v = checked
        .variant
        .unwrap_or_else(|| panic!("{}", checked.report.render(100, false)));
    assert_eq!(v.board.len(), 1024);
    assert_eq!(v.board.name(v.board.cells().last().unwrap()), "af1");
    assert_eq!(v.board.point(v.board.parse_cell("AA1").unwrap()), (26, 31));
    let rules = std::sync::Arc::new(compile_tables(&v, &v.default_options()).unwrap());
    // By hand: the King has 8 steps; the Rook 31 along rank 1 and 31 up file a.
    // Whatever White plays, Black has the same: 8 King steps and 31 + 31 Rook moves
    // (a White Rook on a32 or af1 is captured instead of passed over).
    let mut pos = Position::start(&rules).unwrap();
    assert_eq!(perft(&rules, &mut pos, 1), 70);
    assert_eq!(perft(&rules, &mut pos, 2), 70 * 70);
    let mut game = Game::new(rules.clone(), Setup::start(&rules)).unwrap();
    game.play_text("a1-af1").unwrap();
    let m = game.play_text("af32xaf1").unwrap();
    assert!(m.captured.is_some());
    assert!(game.play_text("p2-p4").is_err());
    let saved = game.position_string();
    assert!(saved.starts_with("32/16k15/"), "{saved}");
}

#[test]
fn letters_run_out_only_past_their_pairs() {
    // With one letter left there are two labels: `z` and `zz`.
    let text = |w: u32| {
        king_and_rook(
            &format!(
                "board square {w} by 2\ncoordinates files lettered skipping a b c d e f g h i j k l m n o p q r s t u v w x y from the left, ranks numbered from the bottom"
            ),
            "White: King z1\nBlack: King zz2",
        )
    };
    assert!(check("ok.var", &text(2)).variant.is_some());
    // Numbered files and lettered ranks: number then letters.
    let numbered = king_and_rook(
        "board square 30 by 30\ncoordinates files numbered from the left, ranks lettered from the bottom",
        "White: King 1a\nBlack: King 30ad",
    );
    let v = check("numbered.var", &numbered).variant.expect("checks");
    assert_eq!(v.board.point(v.board.parse_cell("30ad").unwrap()), (29, 0));
    let checked = check("bad.var", &text(3));
    assert!(
        checked
            .report
            .diagnostics
            .iter()
            .any(|d| d.code == "variantlab::bad_scheme"),
        "{}",
        checked.report.render(100, false)
    );
}
