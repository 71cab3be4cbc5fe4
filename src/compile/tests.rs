//! Compiled tables of small hand-worked boards.

use crate::check::check;
use crate::compile::{Rules, Sets, compile_tables};
use crate::geometry::{Cell, CellSet};
use crate::model::{Dest, PieceId, PlayerId};

const PLAYERS: &str = "board square 3 by 3
player White: forward north, capitals
player Black: forward south, lowercase
";

fn rules(pieces: &str) -> Rules {
    let text = format!(
        "{PLAYERS}{pieces}\nsetup {{\n  White: King a1\n  Black: King c3\n}}\ngame ends {{\n  King captured: mover wins\n}}\n"
    );
    let v = check("test.var", &text)
        .variant
        .expect("the test variant checks");
    compile_tables(&v, &v.default_options()).expect("it compiles")
}

fn cell(r: &Rules, name: &str) -> Cell {
    r.variant().board.parse_cell(name).unwrap()
}

/// Each destination with the cells that must be empty on the way, by name.
fn entries(r: &Rules, piece: u8, from: &str) -> Vec<(String, Vec<String>, Dest)> {
    let b = &r.variant().board;
    let mut out: Vec<_> = r
        .moves(PlayerId(0), PieceId(piece), cell(r, from))
        .iter()
        .map(|e| {
            let mut path: Vec<String> = r
                .sets::<u64>()
                .paths(e)
                .flat_map(|s| s.iter().collect::<Vec<_>>())
                .map(|c| b.name(c).to_string())
                .collect();
            path.sort();
            (b.name(e.to).to_string(), path, e.dest)
        })
        .collect();
    out.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    out
}

#[test]
fn a_slide_needs_the_cells_it_passes_empty() {
    let r = rules("piece King (K) {\n  slide orthogonal\n}\n");
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        entries(&r, 0, "a1"),
        vec![
            ("a2".into(), s(&[]), Dest::Either),
            ("a3".into(), s(&["a2"]), Dest::Either),
            ("b1".into(), s(&[]), Dest::Either),
            ("c1".into(), s(&["b1"]), Dest::Either),
        ]
    );
}

#[test]
fn a_winding_leap_reaches_round_corners() {
    // Two orthogonal steps that may turn: from b2 the four corners (and not b2 itself).
    let r = rules("piece King (K) {\n  leap 2 orthogonal\n}\n");
    let to: Vec<String> = entries(&r, 0, "b2").into_iter().map(|e| e.0).collect();
    assert_eq!(to, ["a1", "a3", "c1", "c3"]);
}

#[test]
fn a_leap_passes_nothing_and_capture_modes_are_kept() {
    let r = rules(
        "piece King (K) {\n  leap 2 direct orthogonal, to empty\n  step 1 diagonal, to enemy\n}\n",
    );
    let got = entries(&r, 0, "b2");
    // From the centre a straight 2-cell leap leaves the 3x3 board; the diagonal steps
    // capture only.
    assert!(
        got.iter()
            .all(|(to, path, _)| path.is_empty() && to != "b2")
    );
    assert_eq!(got.iter().filter(|e| e.2 == Dest::Enemy).count(), 4);
    assert_eq!(got.iter().filter(|e| e.2 == Dest::Empty).count(), 0);
    let corner = entries(&r, 0, "a1");
    assert_eq!(
        corner.iter().filter(|e| e.2 == Dest::Empty).count(),
        2,
        "{corner:?}"
    );
}

/// The run in table order: each destination with how many entries it shades.
fn shadows(r: &Rules, piece: u8, from: &str) -> Vec<(String, u16)> {
    let b = &r.variant().board;
    r.moves(PlayerId(0), PieceId(piece), cell(r, from))
        .iter()
        .map(|e| (b.name(e.to).to_string(), e.shadow))
        .collect()
}

#[test]
fn a_slides_farther_cells_follow_the_nearer_that_shades_them() {
    // From a1 sideways: a3 is closed whenever a2 holds a piece, c1 whenever b1 does.
    let r = rules("piece King (K) {\n  slide orthogonal\n}\n");
    let named = |v: &[(&str, u16)]| {
        v.iter()
            .map(|(c, n)| (c.to_string(), *n))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        shadows(&r, 0, "a1"),
        named(&[("a2", 1), ("a3", 0), ("b1", 1), ("c1", 0)])
    );
    // From the centre every ray is one cell long: nothing shades anything.
    assert!(shadows(&r, 0, "b2").iter().all(|(_, n)| *n == 0));
    // A leap passes nothing, so it shades nothing; a lame leap's path is not a step's.
    let r = rules(
        "piece King (K) {\n  leap 1 orthogonal then 1 outward diagonal\n  step 1 orthogonal\n}\n",
    );
    assert!(shadows(&r, 0, "a1").iter().all(|(_, n)| *n == 0));
}

/// Boards past 128 cells take wide tables: eight words up to 512 cells, sixteen up to
/// 1,024.
#[test]
fn big_boards_take_wide_tables() {
    let compiled = |text: &str| {
        let v = check("big.var", text).variant.expect("the variant checks");
        compile_tables(&v, &v.default_options()).expect("it compiles")
    };
    // A hexagon of side 12 has 397 cells.
    let side_12 = "name \"Big\"\nboard hexagon side 12 flat-topped\n\
        player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
        piece King (K) { step 1 any }\nsetup {\n  White: King f1\n  Black: King f11\n}\n\
        game ends {\n  King captured: mover wins\n  no legal move: draw\n}\n";
    let side_12 = compiled(side_12);
    assert_eq!(side_12.variant.board.len(), 397);
    assert!(matches!(side_12.sets, Sets::Wide8(_)));
    let square_32 = PLAYERS.replace("3 by 3", "32 by 32")
        + "piece King (K) { step 1 any }\nsetup {\n  White: King a1\n  Black: King af32\n}\ngame ends {\n  King captured: mover wins\n}\n";
    assert!(matches!(compiled(&square_32).sets, Sets::Wide16(_)));
}

/// A piece that walks forward and takes forward diagonally, on a 3 by 3 board, worked
/// by hand: from the first rank it steps one or two
/// (the double step is walked apart, as it may be taken in passing); from the second
/// it steps one, to an empty cell, or takes forward diagonally; on the last it has no
/// move. Its moves from the first two ranks are shifts, by a rank (3 cells) and by a
/// rank and a file either way.
#[test]
fn a_walkers_plain_moves_are_shifts_and_its_double_step_is_walked() {
    let r = rules(
        "piece King (K) {\n  royal\n  step 1 any\n}\npiece Walker (W) {\n  step 1 straight forward, to empty\n  step 2 straight forward, to empty, from a1 b1 c1, en passant by Walker\n  step 1 forward diagonal, to enemy\n}\n",
    );
    let names = |s: u64| -> Vec<String> {
        s.iter()
            .map(|c| r.variant().board.name(c).to_string())
            .collect()
    };
    let sets = r.sets::<u64>();
    let ((starts, walked), list) = sets.shifts(0, 1, 2);
    let mut starts = names(*starts);
    starts.sort();
    assert_eq!(starts, ["a1", "a2", "b1", "b2", "c1", "c2"]);
    let mut walked = names(*walked);
    walked.sort();
    assert_eq!(walked, ["a1", "b1", "c1"]);
    // Cells are numbered from the top left, so White's forward is 3 cells down.
    let mut found: Vec<(i32, Dest, Vec<String>)> = list
        .map(|(from, by, dest)| {
            let mut from = names(from);
            from.sort();
            (by, dest, from)
        })
        .collect();
    found.sort_by_key(|(by, _, _)| *by);
    let list = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        found,
        [
            (-4, Dest::Enemy, list(&["b1", "b2", "c1", "c2"])),
            (-3, Dest::Empty, list(&["a1", "a2", "b1", "b2", "c1", "c2"])),
            (-2, Dest::Enemy, list(&["a1", "a2", "b1", "b2"])),
        ]
    );
    let double = r.run(PlayerId(0), PieceId(1), cell(&r, "b1"));
    assert_eq!(r.specials(double).len(), 1);
    assert_eq!(r.variant().board.name(r.specials(double)[0].to), "b3");
}
