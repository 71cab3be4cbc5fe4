//! The engine's commands, run as a user would: think, values, play against the
//! computer, selfplay and merge.

use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("writes");
    child.wait_with_output().expect("finishes")
}

fn ok(args: &[&str], stdin: &str) -> String {
    let o = run(args, stdin);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn fails(args: &[&str]) -> String {
    let o = run(args, "");
    assert!(!o.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

// Black's Warrior on e4 can take Orange's Princess on e6.
const PRINCESS_EN_PRISE: &str = "4ch5/10/10/10/4pr5/10/4WA5/10/10/4CHPR4 b - 0 1";

#[test]
fn think_prints_the_move_its_score_and_the_line() {
    let out = ok(
        &[
            "think",
            "variants/iss-jetan.var",
            "--position",
            PRINCESS_EN_PRISE,
            "--level",
            "3",
        ],
        "",
    );
    assert!(out.contains("best move e4xe6\n"), "{out}");
    assert!(out.contains("score win in 1 plies\n"), "{out}");
    assert!(out.contains("pv e4xe6\n"), "{out}");
    let timed = ok(
        &[
            "think",
            "variants/hexagonal-iss-jetan.var",
            "--time",
            "300ms",
        ],
        "",
    );
    assert!(timed.starts_with("best move "), "{timed}");
    assert!(fails(&["think", "variants/iss-jetan.var", "--time", "soon"]).contains("not a time"));
}

#[test]
fn values_lists_every_piece() {
    let out = ok(&["values", "variants/hexagonal-iss-jetan.var"], "");
    for piece in [
        "Panthan", "Thoat", "Warrior", "Padwar", "Dwar", "Flier", "Chief", "Princess",
    ] {
        assert!(out.lines().any(|l| l.starts_with(piece)), "{piece}: {out}");
    }
    assert_eq!(out.matches("decides the game").count(), 2, "{out}");
}

#[test]
fn the_computer_answers_each_move() {
    let out = ok(
        &[
            "play",
            "variants/iss-jetan.var",
            "--vs",
            "computer",
            "--level",
            "1",
        ],
        "b2-b3\nquit\n",
    );
    assert_eq!(out.matches("Computer plays ").count(), 1, "{out}");
    // Undo takes back the computer's answer and the move before it.
    let out = ok(
        &[
            "play",
            "variants/iss-jetan.var",
            "--vs",
            "computer",
            "--level",
            "1",
        ],
        "b2-b3\nundo\nposition\nc2-c3\nquit\n",
    );
    assert_eq!(out.matches("Computer plays ").count(), 2, "{out}");
    let start = "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b - 0 1";
    assert!(out.lines().any(|l| l == start), "{out}");
    // Playing Black's side, the computer moves first.
    let out = ok(
        &[
            "play",
            "variants/iss-jetan.var",
            "--vs",
            "computer",
            "--level",
            "1",
            "--computer-plays",
            "black",
        ],
        "quit\n",
    );
    assert_eq!(out.matches("Computer plays ").count(), 1, "{out}");
    assert!(fails(&["play", "variants/iss-jetan.var", "--vs", "robot"]).contains("--vs computer"));
}

#[test]
fn selfplay_compares_an_option_and_refuses_bad_settings() {
    let out = ok(
        &[
            "selfplay",
            "variants/hexagonal-iss-jetan.var",
            "--games",
            "2",
            "--level",
            "1",
            "--max-plies",
            "40",
            "--compare",
            "last-resort=on,off",
        ],
        "",
    );
    assert!(out.contains("==== last-resort=on\n"), "{out}");
    assert!(
        out.contains("==== last-resort=off minus last-resort=on\n"),
        "{out}"
    );
    assert!(out.contains("draw rate:"), "{out}");
    let file = "variants/iss-jetan.var";
    assert!(fails(&["selfplay", file, "--shard", "4/3"]).contains("K/N"));
    assert!(
        fails(&["selfplay", file, "--compare", "chief-takes-princess"]).contains("NAME=on,off")
    );
    assert!(fails(&["selfplay", file, "--compare", "nothing=on,off"]).contains("no option"));
    assert!(fails(&["merge", "Cargo.toml"]).contains("not selfplay tallies"));
}

const QUEENS: &str = "qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1";

#[test]
fn a_short_time_still_finds_a_move_among_many_captures() {
    let out = ok(
        &[
            "think",
            "variants/chess.var",
            "--position",
            QUEENS,
            "--time",
            "100ms",
        ],
        "",
    );
    assert!(out.starts_with("best move "), "{out}");
    // Against the computer, it answers at once, never skipping its turn.
    let play = ok(
        &[
            "play",
            "variants/chess.var",
            "--position",
            QUEENS,
            "--vs",
            "computer",
            "--computer-plays",
            "white",
            "--time",
            "1ms",
        ],
        "quit\n",
    );
    assert!(play.contains("Computer plays "), "{play}");
    assert!(play.contains("Black to move"), "{play}");
}

#[test]
fn engine_limits_are_refused_with_the_limit_named() {
    for (args, says) in [
        (
            &["think", "variants/iss-jetan.var", "--level", "100"][..],
            "the level is at most 32 plies",
        ),
        (
            &["think", "variants/iss-jetan.var", "--time", "1e300"][..],
            "at most 24 hours",
        ),
        (
            &["think", "variants/iss-jetan.var", "--time", "1e19"][..],
            "at most 24 hours",
        ),
        (
            &[
                "play",
                "variants/iss-jetan.var",
                "--vs",
                "computer",
                "--time",
                "1e300",
            ][..],
            "at most 24 hours",
        ),
        (
            &["selfplay", "variants/iss-jetan.var", "--threads", "100000"][..],
            "at most 256 threads",
        ),
        (
            &[
                "selfplay",
                "variants/iss-jetan.var",
                "--games",
                "1000000000000",
            ][..],
            "at most 1000000000 games",
        ),
        (
            &["selfplay", "variants/iss-jetan.var", "--level", "33"][..],
            "the level is at most 32 plies",
        ),
    ] {
        let e = fails(args);
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    }
}

#[test]
fn the_computer_says_so_when_it_cannot_move() {
    // Two Pawns face each other on a file: neither side can ever move, and no rule
    // ends the game for it.
    let dir = crate::common::scratch("stuck", &[]);
    let file = dir.join("stuck.var");
    std::fs::write(
        &file,
        r#"name "Stuck"
board square 3 by 3
player White: forward north, capitals
player Black: forward south, lowercase
piece Pawn (P) {
  step 1 straight forward, to empty
}
setup {
  White: Pawn a1
  Black: Pawn a2
}
game ends {
  Pawn captured: mover wins
}
"#,
    )
    .unwrap();
    let out = ok(
        &[
            "play",
            file.to_str().unwrap(),
            "--vs",
            "computer",
            "--computer-plays",
            "white",
        ],
        "moves\nquit\n",
    );
    assert!(
        out.contains(
            "The computer (White) has no legal move, and no rule of this variant ends the game"
        ),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
