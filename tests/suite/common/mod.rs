//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod server;
pub mod webdriver;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use variantlab::{Rules, Settings, Variant, check};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Loads and checks a variant file under `variants/`, failing the test on any error.
pub fn variant(file: &str) -> Variant {
    let path = root().join("variants").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let checked = check(file, &text);
    match checked.variant {
        Some(v) => v,
        None => panic!(
            "{file} does not check:\n{}",
            checked.report.render(100, false)
        ),
    }
}

/// A variant given as text, compiled with its default options; fails the test with
/// the report when it does not check.
pub fn from_text(text: &str) -> Arc<Rules> {
    Arc::new(
        Rules::from_named_text("test.var", text, &Settings::new())
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

/// The variant compiled with its default options.
pub fn rules(file: &str) -> Arc<Rules> {
    let path = root().join("variants").join(file);
    Arc::new(Rules::from_file(&path, &Settings::new()).unwrap_or_else(|e| panic!("{e}")))
}

/// The variant compiled with options set by name.
pub fn rules_with(file: &str, options: &[(&str, bool)]) -> Arc<Rules> {
    let path = root().join("variants").join(file);
    let settings = options
        .iter()
        .fold(Settings::new(), |s, (name, on)| s.with(name, *on));
    Arc::new(Rules::from_file(&path, &settings).unwrap_or_else(|e| panic!("{e}")))
}

pub fn fixture(path: &str) -> String {
    let p = root().join("tests/fixtures").join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A diagram without trailing spaces, surrounding blank lines or common indentation.
pub fn normalize(text: &str) -> String {
    let lines: Vec<&str> = variantlab::diagrams::trim_blank_lines(text);
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A small deterministic random sequence (a 64-bit LCG), for random play.
pub struct Lcg(pub u64);

impl Lcg {
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize % n
    }
}

/// A fresh folder named after `name` with copies of the given files of `variants/`.
pub fn scratch(name: &str, files: &[&str]) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("variantlab-{name}-"))
        .tempdir()
        .expect("a temporary folder");
    for f in files {
        std::fs::copy(root().join("variants").join(f), dir.path().join(f)).unwrap();
    }
    Scratch(dir)
}

/// A test's own folder, removed with everything in it when the test ends.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// Asserts perft from the position string `text` at each depth from `first` on, one
/// count a depth.
pub fn perft_counts(r: &Arc<Rules>, text: &str, first: u32, counts: &[u64]) {
    for (depth, want) in (first..).zip(counts) {
        let setup = variantlab::parse_position(r, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut pos =
            variantlab::Position::from_setup(r, &setup).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            variantlab::perft(r, &mut pos, depth),
            *want,
            "{text} depth {depth}"
        );
    }
}

/// How much of a long check runs. The README's test command runs each at `Small`,
/// enough to cover every behaviour; the same check at `Full` is an ignored test that
/// the long checks (`cargo test --release -- --ignored`) run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    Small,
    Full,
}

impl Size {
    /// A count written for the full check (games, seeds, positions, thresholds), as
    /// this size takes it: a quarter when small, never below one.
    pub fn of(self, full: usize) -> usize {
        match self {
            Size::Full => full,
            Size::Small => full.div_ceil(4),
        }
    }

    /// [`Size::of`] for seeds and other `u64` counts.
    pub fn of_u64(self, full: u64) -> u64 {
        self.of(full as usize) as u64
    }
}

/// Says past the test harness's capture that a test was skipped, and why.
pub fn skip(test: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// Whether a test whose tool is missing must fail rather than be skipped: under CI,
/// which installs every tool the tests use.
pub fn tools_required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The game from the position string `text`.
pub fn game(r: &Arc<Rules>, text: &str) -> variantlab::Game {
    let setup = variantlab::parse_position(r, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    variantlab::Game::new(r.clone(), setup).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The game after `moves`, played from `text`, and its position string's first field.
pub fn after(r: &Arc<Rules>, text: &str, moves: &[&str]) -> (variantlab::Game, String) {
    let mut g = game(r, text);
    for m in moves {
        g.play_text(m).unwrap_or_else(|e| panic!("{text} {m}: {e}"));
    }
    let board = g.position_string().split(' ').next().unwrap().to_string();
    (g, board)
}

/// The legal moves from `text`, written as the game writes them, sorted.
pub fn move_texts(r: &Arc<Rules>, text: &str) -> Vec<String> {
    let g = game(r, text);
    let mut list: Vec<String> = (g.legal_moves().iter())
        .map(|m| variantlab::write_move(r.variant(), m))
        .collect();
    list.sort();
    list
}

/// The start position's string.
pub fn start_text(r: &Arc<Rules>) -> String {
    variantlab::write_position(r, &variantlab::Setup::start(r))
}

/// The codes of the errors the checker finds in a variant file's text, in order.
pub fn error_codes(text: &str) -> Vec<&'static str> {
    let checked = variantlab::load::check_all("test.var", text);
    (checked.report.diagnostics.iter())
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect()
}
