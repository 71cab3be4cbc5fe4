//! Coordinate schemes described in the language, checked against the schemes the rule
//! pages use (as set out in shared/rules-notes.md).

use std::collections::BTreeSet;
use variantlab::check;
use variantlab::variant::Board;

fn board(shape: &str, coordinates: &str) -> Board {
    let text = format!("board {shape}\ncoordinates {coordinates}\nplayer A: capitals\n");
    let checked = check("test.var", &text);
    match checked.variant {
        Some(v) => v.board,
        None => panic!("{text}\n{}", checked.report.render(100, false)),
    }
}

fn names(b: &Board) -> BTreeSet<String> {
    b.cells().map(|c| b.name(c).to_string()).collect()
}

/// The name of the cell one step from `from` in a compass direction.
fn step(b: &Board, from: &str, dir: &str) -> String {
    let c = b.parse_cell(from).unwrap();
    let p = b.shift(b.point(c), b.parse_direction(dir).unwrap());
    b.at(p).map(|c| b.name(c).to_string()).unwrap_or_default()
}

#[test]
fn algebraic() {
    let b = board(
        "square 10 by 10",
        "files lettered from the left, ranks numbered from the bottom",
    );
    assert_eq!(
        b.name(b.cells().next().unwrap()),
        "a10",
        "reading order starts top left"
    );
    assert_eq!(step(&b, "e5", "N"), "e6");
    assert_eq!(step(&b, "e5", "E"), "f5");
    assert_eq!(b.name(b.centre()), "e5");
}

#[test]
fn glinski() {
    // Files a-l without j; rank k is the k-th cell from the bottom of its file.
    let b = board(
        "hexagon side 6 flat-topped",
        "files lettered skipping j from the left, ranks numbered from the bottom of each file",
    );
    let mut want = BTreeSet::new();
    for (i, f) in "abcdefghikl".chars().enumerate() {
        let len = 11 - (i as i32 - 5).abs();
        for r in 1..=len {
            want.insert(format!("{f}{r}"));
        }
    }
    assert_eq!(names(&b), want);
    assert_eq!(b.name(b.centre()), "f6");
    // McCooey's White: King g1 beside the Queen e1 across the f file's bottom cell f1.
    assert_eq!(step(&b, "f1", "NE"), "g1");
    assert_eq!(step(&b, "f1", "NW"), "e1");
    assert_eq!(step(&b, "f1", "N"), "f2");
}

#[test]
fn game_courier() {
    // Cell (F, R), F = 0 for file a, exists when 1 <= R <= 11 and 6 <= F + R <= 16;
    // N is (0, 1) and NE (1, 0) in (F, R).
    let b = board(
        "hexagon side 6 flat-topped",
        "files lettered from the left, lines along NE numbered from the bottom",
    );
    let mut want = BTreeSet::new();
    for (f, letter) in "abcdefghijk".chars().enumerate() {
        for r in 1..=11 {
            if (6..=16).contains(&(f + r)) {
                want.insert(format!("{letter}{r}"));
            }
        }
    }
    assert_eq!(names(&b), want);
    assert_eq!(step(&b, "f6", "N"), "f7");
    assert_eq!(step(&b, "f6", "NE"), "g6");
    assert_eq!(step(&b, "f6", "SE"), "g5");
    assert_eq!(step(&b, "f6", "E"), "h5", "diagonal E is (2, -1)");
    // White's home row runs along the two lower edges.
    let home = [
        "a6", "b5", "c4", "d3", "e2", "f1", "g1", "h1", "i1", "j1", "k1",
    ];
    for (a, b2) in home.iter().zip(home.iter().skip(1)) {
        let dir = if a.as_bytes()[0] < b'f' { "SE" } else { "NE" };
        assert_eq!(step(&b, a, dir), *b2);
    }
}

#[test]
fn hex_shogi() {
    // Ranks a (top, 6 cells) to k; files numbered 1-11 from the right along the lines
    // rising to the right; a cell is file then rank.
    let b = board(
        "hexagon side 6 pointy-topped",
        "lines along NE numbered from the right, ranks lettered from the top",
    );
    let row = |rank: char| -> Vec<String> {
        let mut cells: Vec<_> = b.cells().filter(|c| b.name(*c).ends_with(rank)).collect();
        cells.sort_by_key(|c| b.point(*c).0);
        cells.iter().map(|c| b.name(*c).to_string()).collect()
    };
    assert_eq!(row('a'), ["11a", "10a", "9a", "8a", "7a", "6a"]);
    assert_eq!(row('f').first().map(String::as_str), Some("11f"));
    assert_eq!(row('f').last().map(String::as_str), Some("1f"));
    assert_eq!(row('k'), ["6k", "5k", "4k", "3k", "2k", "1k"]);
    assert_eq!(b.name(b.centre()), "6f");
    assert_eq!(step(&b, "6f", "NE"), "6e", "a file rises to the right");
}

#[test]
fn schemes_that_cannot_name_cells_are_reported() {
    for (coordinates, want) in [
        (
            "files numbered from the bottom, ranks numbered from the left",
            "bad_scheme",
        ),
        (
            "files lettered from the left, lines along NNE numbered from the bottom",
            "unknown_direction",
        ),
        (
            "files lettered from the left of each rank, ranks numbered from the bottom of each file",
            "bad_scheme",
        ),
    ] {
        let text = format!("board square 8 by 8\ncoordinates {coordinates}\nplayer A: capitals\n");
        let r = check("t.var", &text).report;
        assert!(
            r.diagnostics
                .iter()
                .any(|d| d.code == format!("variantlab::{want}")),
            "{coordinates}:\n{}",
            r.render(100, false)
        );
    }
    // File 1 rank 11 and file 11 rank 1 would both be `111`.
    let text = "board square 11 by 11\ncoordinates files numbered from the left, ranks numbered from the bottom\nplayer A: capitals\n";
    let r = check("t.var", text).report;
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.code == "variantlab::bad_scheme" && d.message.contains("`111`"))
    );
    // Past z the files are lettered in pairs; they run out only past `zz` (702 lines).
    let r = check("t.var", "board square 27 by 2\nplayer A: capitals\n");
    let v = r.variant.expect("27 files check");
    assert_eq!(v.board.point(v.board.parse_cell("aa1").unwrap()), (26, 1));
    let r = check(
        "t.var",
        "board square 27 by 2\ncoordinates files lettered skipping a b c d e f g h i j k l m n o p q r s t u v from the left, ranks numbered from the bottom\nplayer A: capitals\n",
    )
    .report;
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.code == "variantlab::bad_scheme")
    );
}

/// The cells of a board with these `holes` lines, by name.
fn holed(shape: &str, coordinates: &str, holes: &str) -> BTreeSet<String> {
    let text = format!("board {shape}\ncoordinates {coordinates}\n{holes}\nplayer A: capitals\n");
    let checked = check("test.var", &text);
    match checked.variant {
        Some(v) => names(&v.board),
        None => panic!("{text}\n{}", checked.report.render(100, false)),
    }
}

#[test]
fn a_range_of_holes_runs_along_one_line_of_the_board() {
    let square = "square 8 by 8";
    let algebraic = "files lettered from the left, ranks numbered from the bottom";
    for (ranges, cells) in [
        ("holes a1 to a4", "holes a1 a2 a3 a4"),
        ("holes h8 to e8", "holes e8 f8 g8 h8"),
        ("holes b2 to d4 h1 to h1", "holes b2 c3 d4 h1"),
    ] {
        assert_eq!(
            holed(square, algebraic, ranges),
            holed(square, algebraic, cells),
            "{ranges}"
        );
    }
    // Glinski's hexagon: along a file, and along a line of orthogonal neighbours
    // that crosses the files (a1, b2 ... f6 on the rule page's diagram).
    let hexagon = "hexagon side 6 flat-topped";
    let glinski =
        "files lettered skipping j from the left, ranks numbered from the bottom of each file";
    assert_eq!(
        holed(hexagon, glinski, "holes f7 to f9 a1 to f6"),
        holed(hexagon, glinski, "holes f7 f8 f9 a1 b2 c3 d4 e5 f6"),
    );
}

#[test]
fn a_range_of_holes_off_any_line_is_refused_where_it_is_written() {
    let text = "name \"T\"\nboard square 8 by 8\nholes a1 to a4 c1 to d3\nplayer A: capitals\n";
    let checked = check("test.var", text);
    let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["variantlab::hole_range"]);
    let d = &checked.report.diagnostics[0];
    assert_eq!(&text[d.span.start..d.span.end], "c1 to d3");
}

/// Omega Chess's cells: files a to j, ranks from 0, and four named cells beyond the
/// corners (the rule page's diagram).
#[test]
fn ranks_from_zero_and_named_extra_cells() {
    let v = crate::common::variant("omega.var");
    let b = &v.board;
    assert_eq!(b.len(), 104);
    for name in ["a0", "j0", "a9", "j9", "w1", "w2", "w3", "w4"] {
        assert!(b.parse_cell(name).is_some(), "{name}");
    }
    assert!(b.parse_cell("a10").is_none());
    assert_eq!(step(b, "w1", "NE"), "a0");
    assert_eq!(step(b, "w2", "NW"), "j0");
    assert_eq!(step(b, "j9", "NE"), "w4");
    assert_eq!(
        step(b, "w1", "N"),
        "",
        "nothing beside an extra cell but its own corner"
    );
    assert_eq!(
        b.name(b.cells().next().unwrap()),
        "w3",
        "reading order starts top left"
    );
}

/// Hand-worked: from the start each side has 30 Pawn moves (one, two or three cells),
/// two a Knight, two a Champion (`a2`, `c2` from `a0`) and one a Wizard (its Camel leap
/// from `w1` to `a2`), and no move of one side changes the other's.
#[test]
fn omega_chess_start_as_worked_by_hand() {
    use variantlab::{parse_position, write_position};
    let r = crate::common::rules("omega.var");
    let start = "ww/crnbqkbnrc/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/CRNBQKBNRC/WW w KQkq - 0 1";
    crate::common::perft_counts(&r, start, 1, &[40, 1600]);
    let setup = parse_position(&r, start).unwrap();
    assert_eq!(write_position(&r, &setup), start);
    // A Bishop on c2 slides through a0 to w1 and through j9 to w4: 3 + 2 + 2 + 8
    // cells, and the King on f0 has 5.
    crate::common::perft_counts(
        &r,
        "2/5k4/10/10/10/10/10/10/2B7/10/5K4/2 w - - 0 1",
        1,
        &[20],
    );
}

#[test]
fn extra_cells_and_first_numbers_are_refused_where_they_cannot_be() {
    for (line, code) in [
        (
            "extra cells w1 SW of a1, w2 NE of e5",
            "variantlab::extra_cell",
        ),
        ("extra cells a2 SW of a1", "variantlab::extra_cell"),
        (
            "extra cells w1 SW of a1, w2 SW of a1",
            "variantlab::extra_cell",
        ),
        ("extra cells w1 SW of z9", "variantlab::cell_off_board"),
        (
            "extra cells w1 SW of a1, w2 SW of w1",
            "variantlab::extra_cell",
        ),
        (
            "extra cells w1 SW of a1\nholes w1",
            "variantlab::cell_off_board",
        ),
        ("extra cells w1 SQ of a1", "variantlab::unknown_direction"),
        (
            "coordinates files lettered from the left starting at 0, ranks numbered from the bottom",
            "variantlab::bad_scheme",
        ),
    ] {
        let text = format!("board square 6 by 6\n{line}\nplayer A: capitals\n");
        let codes: Vec<String> = check("t.var", &text)
            .report
            .diagnostics
            .iter()
            .map(|d| d.code.to_string())
            .collect();
        assert!(codes.iter().any(|c| c == code), "{line}: {codes:?}");
    }
    // An extra cell named where a cell of the shape must be is told as one, with no
    // nearest cell of the shape suggested.
    for line in [
        "extra cells w1 SW of a1, w2 SW of w1",
        "extra cells w1 SW of a1\nholes w1",
    ] {
        let text = format!("board square 6 by 6\n{line}\nplayer A: capitals\n");
        let report = check("t.var", &text).report;
        let d = report
            .diagnostics
            .iter()
            .find(|d| d.message.contains("`w1` is an extra cell"))
            .unwrap_or_else(|| panic!("{line}: {:?}", report.diagnostics));
        assert!(
            !d.help.as_deref().unwrap_or("").contains("nearest"),
            "{line}"
        );
    }
}
