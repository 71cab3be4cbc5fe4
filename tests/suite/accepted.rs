//! "ok" means ok: every file `check` accepts is accepted by every other command; and
//! pathological files get their diagnostics quickly.

use crate::common;

use common::{Size, root};
use std::path::PathBuf;
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;
use variantlab::load::check_all as check;
use variantlab::variant::OptionDef;

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

/// Every setting of the options worth trying: all of them when there are few, else
/// the defaults with each option flipped in turn; as `--option` arguments.
fn option_settings(options: &[OptionDef]) -> Vec<Vec<String>> {
    let arg = |o: &OptionDef, on: bool| format!("{}={}", o.name, if on { "on" } else { "off" });
    if options.len() <= 4 {
        (0..1usize << options.len())
            .map(|bits| {
                let on = |i: usize| bits >> i & 1 == 1;
                options
                    .iter()
                    .enumerate()
                    .map(|(i, o)| arg(o, on(i)))
                    .collect()
            })
            .collect()
    } else {
        options.iter().map(|o| vec![arg(o, !o.default)]).collect()
    }
}

/// Runs every command that reads a variant on `file`, and the ones that play it under
/// every option setting.
/// At [`Size::Small`], the footprints of only some pieces and only some settings of
/// the options are drawn.
fn every_command_accepts(file: &str, pieces: &[String], options: &[OptionDef], size: Size) {
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["board", file],
        vec!["perft", file, "--depth", "1"],
        vec!["moves", file],
        vec!["play", file],
    ];
    let some = |n: usize| if size == Size::Full { n } else { n.min(2) };
    for p in &pieces[..some(pieces.len())] {
        commands.push(vec!["footprint", file, p]);
    }
    let settings = option_settings(options);
    for setting in &settings[..some(settings.len())] {
        for command in [vec!["perft", file, "--depth", "1"], vec!["play", file]] {
            let mut c = command;
            for s in setting {
                c.extend(["--option", s.as_str()]);
            }
            commands.push(c);
        }
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
fn every_accepted_file_is_accepted_by_every_command_in_brief() {
    every_accepted_file_is_accepted_by_every_command(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn every_accepted_file_is_accepted_by_every_command_in_full() {
    every_accepted_file_is_accepted_by_every_command(Size::Full);
}

fn every_accepted_file_is_accepted_by_every_command(size: Size) {
    let mut accepted = 0;
    // In brief, every file with mistakes that is still accepted (warnings only) and
    // every fourth shipped game.
    let stride = if size == Size::Full { 1 } else { 4 };
    for path in var_files("variants")
        .into_iter()
        .step_by(stride)
        .chain(var_files("variants/invalid"))
    {
        let text = std::fs::read_to_string(&path).expect("readable");
        let Some(v) = check("case.var", &text).variant else {
            continue;
        };
        accepted += 1;
        let file = path.strip_prefix(root()).expect("in the repository");
        let pieces: Vec<String> = v.pieces.iter().map(|p| p.name.clone()).collect();
        every_command_accepts(&file.to_string_lossy(), &pieces, &v.options, size);
    }
    assert!(accepted >= 4, "only {accepted} files are accepted");
}

/// Checks and renders `text` on another thread; fails on a panic or past [`LIMIT`].
/// Returns the rendered report.
fn checked_in_time(what: &str, text: String) -> (variantlab::Report, String) {
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
        variantlab::grammar::MAX_SYNTAX_ERRORS + 1,
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

/// A file over the parser's window size whose blocks hold left-margin lines starting
/// with statement words: a player named `game`, a piece named `board`.
fn long_file_with_statement_words_in_blocks(end_rule: &str) -> String {
    let mut text = String::from(
        "name \"Long\"\nboard square 6 by 6\nplayer White: forward north, capitals\n\
         player game: forward south, lowercase\npiece Runner (RU) {\n  step 1 any\n}\n\
         piece board (BO) {\n  step 1 orthogonal\n}\nsetup {\n",
    );
    while text.len() < 5000 {
        text.push_str("# a long comment inside the setup, so the file is parsed in windows\n");
    }
    text.push_str("White: Runner a1, board b1\ngame: Runner a6, board b6\n}\n");
    text.push_str(&format!(
        "game ends {{\n{end_rule}\nno legal move: mover loses\n}}\n"
    ));
    text
}

#[test]
fn a_long_file_is_never_cut_inside_a_block() {
    let text = long_file_with_statement_words_in_blocks("board captured: mover wins");
    assert!(text.len() > 4096);
    let checked = check("long.var", &text);
    assert!(
        checked.variant.is_some() && checked.report.diagnostics.is_empty(),
        "{}",
        checked.report.render(100, false)
    );
}

#[test]
fn a_long_file_reports_its_one_syntax_error_where_it_is() {
    let text = long_file_with_statement_words_in_blocks("board capturd: mover wins");
    let report = check("long.var", &text).report;
    let at = text.find("capturd").expect("the misspelling");
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.span.start, d.span.end))
        .collect();
    assert_eq!(
        found,
        [("variantlab::syntax", at, at + "capturd".len())],
        "{}",
        report.render(100, false)
    );
    let help = report.diagnostics[0].help.as_deref().unwrap_or("");
    assert_eq!(help, "did you mean `captured`?");
}

#[test]
fn sixteen_thousand_unclosed_braces_are_reported_quickly() {
    let mut text = little("");
    for i in 0..16_000 {
        text.push_str(&format!("piece P{i} (PQ) {{ stpe 1 any\n"));
    }
    let (report, _) = checked_in_time("16,000 unclosed braces", text);
    assert_eq!(
        report.diagnostics.len(),
        variantlab::grammar::MAX_SYNTAX_ERRORS + 1
    );
}
