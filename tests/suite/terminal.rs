//! Boards for the terminal: labels along the edges in each board's scheme, the last
//! move marked, colour only when asked for.

use crate::common;

use common::{root, rules};
use std::sync::Arc;
use variantlab::diagrams::{board_diagram, labelled_board};
use variantlab::{Placed, Setup, check, compile_tables};

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(root().join("snapshots").join("terminal"));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

fn pointy() -> variantlab::Variant {
    let text = std::fs::read_to_string(root().join("tests/fixtures/pointy-hexagon.var")).unwrap();
    check("pointy-hexagon.var", &text).variant.expect("checks")
}

#[test]
fn boards_carry_their_coordinates_along_the_edges() {
    let square = rules("iss-jetan.var").variant().clone();
    let drawn = labelled_board(&square, &square.setup, &[], None, false);
    let lines: Vec<&str> = drawn.lines().collect();
    assert_eq!(lines.len(), 11);
    assert_eq!(lines[0], "10 [wa][pd][dw][fl][ch][pr][fl][dw][pd][wa]");
    assert!(lines[9].starts_with("1  [WA]"));
    assert_eq!(lines[10], "    a   b   c   d   e   f   g   h   i   j");
    // Without labels the drawing is the page's own, unchanged.
    let plain = board_diagram(&square, &square.setup);
    let stripped: Vec<String> = lines[..10].iter().map(|l| l[3..].to_string()).collect();
    assert_eq!(stripped.join("\n") + "\n", plain);
    let hex = rules("hexagonal-iss-jetan.var").variant().clone();
    let p = pointy();
    for (name, v) in [
        ("iss-jetan", &square),
        ("hexagonal-iss-jetan", &hex),
        ("pointy-hexagon", &p),
    ] {
        let drawn = labelled_board(v, &v.setup, &[], None, false);
        // Every label of the scheme appears: each file letter and rank number.
        for c in v.board.cells() {
            let n = v.board.name(c);
            let (a, b) = n.split_at(n.find(|ch: char| ch.is_ascii_digit()).unwrap_or(1).max(1));
            for part in [a, b] {
                assert!(
                    drawn
                        .split(|ch: char| !ch.is_ascii_alphanumeric())
                        .any(|w| w == part),
                    "{name}: no label `{part}`:\n{drawn}"
                );
            }
        }
        settings().bind(|| insta::assert_snapshot!(name, drawn));
    }
}

#[test]
fn the_last_move_is_marked_and_colour_is_optional() {
    let r = rules("iss-jetan.var");
    let v = &r.variant();
    let (e2, e3) = (
        v.board.parse_cell("e2").unwrap(),
        v.board.parse_cell("e3").unwrap(),
    );
    let mut pieces: Vec<Placed> = v.setup.clone();
    pieces
        .iter_mut()
        .filter(|p| p.cell == e2)
        .for_each(|p| p.cell = e3);
    let drawn = labelled_board(v, &pieces, &[], Some((e2, e3)), false);
    assert!(drawn.contains("2  [TH][PN][PN][PN][..][PN]"), "{drawn}");
    assert!(!drawn.contains('\x1b'));
    let coloured = labelled_board(v, &pieces, &[], Some((e2, e3)), true);
    assert!(coloured.contains("\x1b[43;30m..\x1b[0m"), "{coloured:?}");
    assert!(coloured.contains("\x1b[43;30mPN\x1b[0m"));
    let plain: String = strip_ansi(&coloured);
    assert_eq!(plain, drawn);
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn play_shows_coordinates_and_the_last_move() {
    let file = root().join("variants/iss-jetan.var");
    let r = rules("iss-jetan.var");
    let v = Arc::new(compile_tables(r.variant(), r.options()).unwrap());
    let mut s = variantlab::play::Console::new(&file, v, Setup::start(&r)).unwrap();
    let reply = s.handle("e2-e3");
    assert!(reply.text.contains("Last move: e2-e3."), "{}", reply.text);
    assert!(reply.text.contains("    a   b   c"));
    assert!(reply.text.contains("[..]"));
    assert!(!reply.text.contains('\x1b'));
}

#[test]
fn the_command_line_colours_only_a_terminal() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .args(args)
            .current_dir(root())
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let labelled = run(&["board", "variants/iss-jetan.var", "--coordinates"]);
    assert!(!labelled.contains('\x1b') && labelled.contains(" a   b"));
    let plain = run(&["board", "variants/iss-jetan.var"]);
    let v = rules("iss-jetan.var").variant().clone();
    assert_eq!(plain, board_diagram(&v, &v.setup));
    let svg = run(&["board", "variants/iss-jetan.var", "--svg"]);
    roxmltree::Document::parse(&svg).expect("well-formed");
    let fp = run(&["footprint", "variants/hexagonal-iss-jetan.var", "chief"]);
    assert!(fp.contains(variantlab::diagrams::CAPTURE_NOTE));
    let fp = run(&[
        "footprint",
        "variants/hexagonal-iss-jetan.var",
        "chief",
        "--captures",
    ]);
    assert!(fp.contains("* = capture only") && fp.contains("**"));
    let fp = run(&["footprint", "variants/iss-jetan.var", "thoat", "--svg"]);
    assert_eq!(fp.matches("data-mark=").count(), 12);
}

/// Runs the command line on a pseudo-terminal (util-linux `script`), with extra
/// environment; None when `script` is missing.
fn on_terminal(args: &str, env: &[(&str, &str)]) -> Option<String> {
    let cmd = format!("{} {args}", env!("CARGO_BIN_EXE_variantlab"));
    let mut c = std::process::Command::new("script");
    c.args(["-qec", &cmd, "/dev/null"])
        .current_dir(root())
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_terminal_gets_colour_unless_no_color_is_set() {
    let args = "board variants/iss-jetan.var --coordinates";
    let Some(coloured) = on_terminal(args, &[]) else {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED a_terminal_gets_colour_unless_no_color_is_set: no `script` to make a terminal"
        );
        return;
    };
    assert!(coloured.contains("\x1b[1;31mwa\x1b[0m"), "{coloured:?}");
    let plain = on_terminal(args, &[("NO_COLOR", "1")]).expect("runs");
    assert!(!plain.contains('\x1b'), "{plain:?}");
    assert!(plain.contains("10 [wa]"));
}

#[test]
fn ranks_from_zero_long_numbers_and_extra_cells_are_labelled_as_named() {
    let omega = rules("omega.var").variant().clone();
    let drawn = labelled_board(&omega, &omega.setup, &[], None, false);
    let lines: Vec<&str> = drawn.lines().collect();
    // The Wizards' rows carry no rank; ranks 9 to 0 label the ten rows between.
    assert_eq!(lines[0], "[w ]                                        [w ]");
    for (i, rank) in (0..=9).rev().enumerate() {
        assert!(lines[i + 1].starts_with(&format!(" {rank}  [")), "{drawn}");
    }
    assert_eq!(
        lines[11],
        "[W ] a   b   c   d   e   f   g   h   i   j  [W ]"
    );
    assert_eq!(lines.len(), 12, "{drawn}");
    let text = "name \"Big\"\nboard square 3 by 3\ncoordinates files lettered from the left, \
                ranks numbered from the bottom starting at 99998\nplayer White: capitals\n";
    let big = check("big.var", text).variant.expect("checks");
    let drawn = labelled_board(&big, &[], &[], None, false);
    for rank in ["99998", "99999", "100000"] {
        assert!(
            drawn.lines().any(|l| l.starts_with(rank)),
            "{rank}:\n{drawn}"
        );
    }
}

#[test]
fn play_draws_walls_where_moves_left_them() {
    // Joust: the Knight leaving d4 walls it off; the wall shows instead of `..`.
    let file = root().join("variants/joust.var");
    let r = rules("joust.var");
    let v = Arc::new(compile_tables(r.variant(), r.options()).unwrap());
    let mut s = variantlab::play::Console::new(&file, v, Setup::start(&r)).unwrap();
    let reply = s.handle("d4-c6,d4");
    assert_eq!(reply.text.matches("[##]").count(), 1, "{}", reply.text);
    let rank4 = reply
        .text
        .lines()
        .find(|l| l.trim_start().starts_with("4 "))
        .unwrap_or_else(|| panic!("{}", reply.text));
    assert!(rank4.contains("[  ][  ][  ][##][  ]"), "{rank4}");
    assert!(!reply.text.contains("[..]"), "{}", reply.text);
}

#[test]
fn help_gives_a_move_as_the_game_writes_moves() {
    // International draughts writes moves in PDN: White's first moves start on 31-35.
    let file = root().join("variants/international-draughts.var");
    let r = rules("international-draughts.var");
    let mut s = variantlab::play::Console::new(&file, r.clone(), Setup::start(&r)).unwrap();
    let help = s.handle("help").text;
    assert!(help.contains("a move such as `31-26`"), "{help}");
    assert!(!help.contains("tagged"), "{help}");
    let refused = s.handle("e2-e4").text;
    assert!(refused.contains("a move such as `31-26`"), "{refused}");
}

#[test]
fn a_lions_moves_are_listed_and_shown_as_they_are_typed() {
    // Chu shogi: the Lion on 6f may take the Pawn on 6e and stay, or go on to 6d.
    let file = root().join("variants/chu-shogi.var");
    let r = rules("chu-shogi.var");
    let text = "k11/12/12/6g5/6p5/6N5/12/12/12/12/12/11K b - 1";
    let setup = variantlab::parse_position(&r, text).unwrap();
    let mut s = variantlab::play::Console::new(&file, r.clone(), setup).unwrap();
    let moves = s.handle("moves").text;
    for m in ["6f6e6f", "6f6e6d", "6f6d"] {
        assert!(
            moves.split_whitespace().any(|w| w.trim_matches(',') == m),
            "{m}: {moves}"
        );
    }
    let after = s.handle("6f6e6d").text;
    assert!(after.contains("Last move: 6f6e6d."), "{after}");
}
