//! "ok" means ok: every file `check` accepts is accepted by every other command; and
//! pathological files get their diagnostics quickly.

mod common;

use common::root;
use std::path::PathBuf;
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;
use variantlab::check::check;

/// Far above what any case needs; only a real blow-up trips it.
const LIMIT: Duration = Duration::from_secs(20);

fn var_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .expect("a folder of variants")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "var"))
        .collect();
    files.sort();
    files
}

/// Runs the command line; the error output when it fails.
fn run(args: &[&str]) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Runs every command that reads a variant on `file`.
fn every_command_accepts(file: &str, pieces: &[String]) {
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["board", file],
        vec!["perft", file, "--depth", "1"],
        vec!["moves", file],
        vec!["play", file],
    ];
    for p in pieces {
        commands.push(vec!["footprint", file, p]);
    }
    for args in commands {
        if let Err(e) = run(&args) {
            panic!(
                "`check` accepts {file}, but `{}` fails:\n{e}",
                args.join(" ")
            );
        }
    }
}

#[test]
fn every_accepted_file_is_accepted_by_every_command() {
    let mut accepted = 0;
    for path in var_files("variants")
        .into_iter()
        .chain(var_files("variants/invalid"))
    {
        let text = std::fs::read_to_string(&path).expect("readable");
        let Some(v) = check("case.var", &text).variant else {
            continue;
        };
        accepted += 1;
        let file = path.strip_prefix(root()).expect("in the repository");
        let pieces: Vec<String> = v.pieces.iter().map(|p| p.name.clone()).collect();
        every_command_accepts(&file.to_string_lossy(), &pieces);
    }
    assert!(accepted >= 4, "only {accepted} files are accepted");
}

/// Checks and renders `text` on another thread; fails on a panic or past [`LIMIT`].
/// Returns the rendered report.
fn checked_in_time(what: &str, text: String) -> (variantlab::diagnostic::Report, String) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let report = check("case.var", &text).report;
        let shown = report.render(100, false);
        let _ = tx.send((report, shown));
    });
    match rx.recv_timeout(LIMIT) {
        Ok(done) => done,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: no report within {LIMIT:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: check panicked"),
    }
}

fn little(pieces: &str) -> String {
    format!(
        "name \"Little\"\nboard square 6 by 6\nplayer White: forward north, capitals\n\
         player Black: forward south, lowercase\n{pieces}\ngame ends {{\n  no legal move: mover loses\n}}\n"
    )
}

#[test]
fn sixteen_thousand_syntax_errors_show_the_first_hundred() {
    let mut text = little("");
    for i in 0..16_000 {
        text.push_str(&format!("piece P{i} (PQ) {{ stpe 1 any }}\n"));
    }
    let (report, _) = checked_in_time("16,000 syntax errors", text);
    let n = report.diagnostics.len();
    assert_eq!(
        n,
        variantlab::syntax::MAX_SYNTAX_ERRORS + 1,
        "{n} diagnostics"
    );
    let last = report.diagnostics.last().expect("diagnostics");
    assert!(
        last.message.starts_with("15900 more syntax errors"),
        "{}",
        last.message
    );
}

#[test]
fn a_hundred_thousand_letter_misspelt_name_is_reported_quickly() {
    let long = "Q".repeat(100_000);
    let text = little(&format!(
        "piece Runner (RU) {{\n  step 1 any\n}}\nsetup {{\n  White: {long} a1\n}}"
    ));
    let (report, shown) = checked_in_time("a long misspelt name", text);
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.code == "variantlab::unknown_piece")
    );
    assert!(shown.len() < 20_000, "{} bytes of report", shown.len());
}

#[test]
fn a_ten_megabyte_word_is_never_echoed_whole() {
    let word = "w".repeat(10 << 20);
    let text = little(&format!("piece Runner (RU) {{\n  step 1 {word}\n}}"));
    let (report, shown) = checked_in_time("a 10 MB word", text);
    assert!(report.has_errors());
    assert!(shown.len() < 20_000, "{} bytes of report", shown.len());
}

#[test]
fn a_long_thin_board_with_holes_is_refused_or_checked_quickly() {
    // 4,096 cells: more than a board may have; the error points at the board.
    let holes: Vec<String> = (1..=4096).step_by(7).map(|r| format!("a{r}")).collect();
    let text = format!(
        "name \"Thin\"\nboard square 1 by 4096\nholes {}\n{}",
        holes.join(" "),
        little("")
            .split_once('\n')
            .expect("lines")
            .1
            .replace("board square 6 by 6\n", "")
    );
    let board_line = text.find("board").expect("board line");
    let (report, _) = checked_in_time("a 1 by 4096 board", text);
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.is_error() && d.span.start >= board_line && d.span.start < board_line + 25),
        "no error on the board statement"
    );
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let text = std::fs::read_to_string(root().join("variants/iss-jetan.var")).expect("variant");
    let checked = check("bom.var", &format!("\u{feff}{text}"));
    assert!(
        checked.variant.is_some() && checked.report.diagnostics.is_empty(),
        "{}",
        checked.report.render(100, false)
    );
}
