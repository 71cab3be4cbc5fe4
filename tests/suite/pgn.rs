//! Games as PGN: SAN for the chess family, checked against hand-worked cases, and
//! files that python-chess (written outside this project) reads back and replays.

use crate::common;
use std::process::Command;
use variantlab::{Position, parse_move, parse_position, write_short, writes_san};

fn san(fen: &str, uci: &str) -> String {
    let r = common::rules("chess.var");
    let pos = Position::from_setup(&r, &parse_position(&r, fen).unwrap()).unwrap();
    let m = parse_move(&r, &pos, uci).unwrap();
    write_short(&r, &pos, &m)
}

#[test]
fn san_writes_the_chess_family_as_chess_players_do() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(san(start, "g1f3"), "Nf3");
    assert_eq!(san(start, "e2e4"), "e4");
    let corners = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(san(corners, "e1g1"), "O-O");
    assert_eq!(san(corners, "e1c1"), "O-O-O");
    assert_eq!(san(corners, "a1a8"), "Rxa8+");
    let rooks = "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1";
    assert_eq!(san(rooks, "a1d1"), "Rad1");
    assert_eq!(san(rooks, "f1d1"), "Rfd1");
    assert_eq!(san(rooks, "f1f5"), "Rf5");
    let file = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
    assert_eq!(san(file, "a1a3"), "R1a3");
    assert_eq!(san(file, "a5a3"), "R5a3");
    let queens = "4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1";
    assert_eq!(san(queens, "a3b2"), "Qa3b2");
    assert_eq!(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
    assert_eq!(san("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q"), "e8=Q");
    assert_eq!(san("5r1k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7f8n"), "exf8=N");
    assert_eq!(san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), "Ra8#");
}

#[test]
fn san_is_used_only_where_it_can_be_read() {
    assert!(writes_san(common::rules("chess.var").variant()));
    assert!(writes_san(common::rules("glinski-chess.var").variant()));
    // Hands (drops) and two-letter codes keep the variant's own move text.
    assert!(!writes_san(common::rules("shogi.var").variant()));
    assert!(!writes_san(common::rules("iss-jetan.var").variant()));
}

fn python_chess(test: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok && common::tools_required() {
        panic!("CI must have python-chess (.ci/run installs it)");
    }
    if !ok {
        common::skip(
            test,
            "python-chess is not installed (python3 -m pip install --user chess)",
        );
    }
    ok
}

fn read_back(pgn: &std::path::Path) -> String {
    let out = Command::new("python3")
        .args(["scripts/pgn_check.py", pgn.to_str().unwrap()])
        .current_dir(common::root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn python_chess_reads_selfplay_games_back() {
    if !python_chess("pgn::python_chess_reads_selfplay_games_back") {
        return;
    }
    let dir = crate::common::scratch("pgn", &[]);
    let pgn = dir.join("games.pgn");
    let status = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args([
            "selfplay",
            "variants/chess.var",
            "--games",
            "6",
            "--level",
            "1",
        ])
        .arg("--pgn")
        .arg(&pgn)
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(status.status.success());
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"Chess\"]").count(), 6, "{text}");
    assert_eq!(read_back(&pgn), "games 6 read\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_played_from_a_position_is_written_with_its_fen() {
    if !python_chess("pgn::a_game_played_from_a_position_is_written_with_its_fen") {
        return;
    }
    let dir = crate::common::scratch("pgn-fen", &[]);
    let pgn = dir.join("game.pgn");
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["play", "variants/chess.var", "--position", fen, "--pgn"])
        .arg(&pgn)
        .current_dir(common::root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"e1g1\ne8c8\nf1f8\nquit\n")
        .unwrap();
    assert!(child.wait().unwrap().success());
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
    assert!(text.ends_with("\n1. O-O O-O-O 2. Rf8 *\n\n"), "{text}");
    assert_eq!(read_back(&pgn), "games 1 read\n");
    std::fs::remove_dir_all(&dir).unwrap();
}
