//! The documentation, under test: every fenced block of README.md and docs/ says what it
//! holds; every variant block checks (a complete file clean, a fragment inside the
//! context it names, an excerpt inside its file); every quoted output and every count
//! in a command's comment is what the binary prints; links lead somewhere; and every
//! command's `--help` says what it does, with an example.
//!
//! Info strings of fenced blocks:
//!
//! - `variant`: a complete file, which must check without any diagnostic;
//! - `variant file PATH`: a complete file kept at PATH (from the repository's root),
//!   word for word, which must check without any diagnostic;
//! - `variant fragment CONTEXT`: statements checked inside one of [`CONTEXTS`];
//! - `variant excerpt PATH`: lines of the variant file at PATH, in its order (lines
//!   between them may be left out), indentation aside;
//! - `variant corrected PATH`: lines that, put in place of those of the `variant excerpt
//!   PATH` block before it (which must then be consecutive lines of the file), make the
//!   file check without any error and without any code it reported before;
//! - `rust file PATH`: the Rust file at PATH, word for word (tests/suite/example.rs);
//! - `text`, `sh`, `bash`, `toml`, `yaml`: not variant text. A `text` block right after
//!   a line `<!-- output: ARGS -->` is what `variantlab ARGS` prints, run from the
//!   repository's root (diagnostics, then the rest).

use crate::common;

use common::{normalize, root};
use std::path::{Path, PathBuf};
use std::process::Command;
use variantlab::check;

/// One fenced block of a markdown file.
#[derive(Clone)]
pub struct Block {
    pub file: String,
    pub line: usize,
    pub info: String,
    pub text: String,
    /// The arguments of a `<!-- output: ARGS -->` line just before the block.
    pub output_of: Option<String>,
}

impl Block {
    pub fn place(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
    /// The info string's words after the first.
    pub fn args(&self) -> Vec<&str> {
        self.info.split_whitespace().skip(1).collect()
    }
    pub fn kind(&self) -> &str {
        self.info.split_whitespace().next().unwrap_or("")
    }
}

/// README.md and every markdown file in docs/.
pub fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fenced blocks of one markdown file.
pub fn blocks_of(path: &Path) -> Vec<Block> {
    let text = read(path);
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].trim_start().strip_prefix("```") else {
            i += 1;
            continue;
        };
        let indent = lines[i].len() - lines[i].trim_start().len();
        let output_of = lines[..i]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .and_then(|l| l.trim().strip_prefix("<!-- output: "))
            .and_then(|l| l.strip_suffix(" -->"))
            .map(str::to_string);
        let start = i;
        i += 1;
        let mut body = Vec::new();
        while i < lines.len() && lines[i].trim() != "```" {
            body.push(lines[i].get(indent..).unwrap_or(lines[i].trim_start()));
            i += 1;
        }
        assert!(
            i < lines.len(),
            "{}:{}: a block never closed",
            relative(path),
            start + 1
        );
        blocks.push(Block {
            file: relative(path),
            line: start + 1,
            info: info.trim().to_string(),
            text: body.join("\n"),
            output_of,
        });
        i += 1;
    }
    blocks
}

pub fn all_blocks() -> Vec<Block> {
    markdown_files().iter().flat_map(|f| blocks_of(f)).collect()
}

/// Checks variant text; the report when it has any diagnostic.
fn diagnostics(name: &str, text: &str) -> Option<String> {
    let checked = check(name, text);
    (checked.variant.is_none() || !checked.report.diagnostics.is_empty())
        .then(|| checked.report.render(100, false))
}

#[test]
fn every_block_says_what_it_holds() {
    let mut wrong = Vec::new();
    for b in all_blocks() {
        let args = b.args();
        let ok = match (b.kind(), args.as_slice()) {
            ("variant", []) => true,
            ("variant", ["file" | "excerpt" | "corrected", path]) => root().join(path).is_file(),
            ("variant", ["fragment", context]) => CONTEXTS.iter().any(|(n, _)| n == context),
            ("text" | "sh" | "bash" | "toml" | "yaml", []) => true,
            ("rust", ["file", path]) => root().join(path).is_file(),
            // Run by the editor tests (tests/suite/editor.rs).
            ("lua", ["editor", "neovim"]) => true,
            _ => false,
        };
        if !ok {
            wrong.push(format!("{} ```{}", b.place(), b.info));
        }
        if b.output_of.is_some() && b.kind() != "text" {
            wrong.push(format!("{}: an output must be a `text` block", b.place()));
        }
    }
    assert!(
        wrong.is_empty(),
        "blocks without a known info string:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn complete_variant_files_check_clean() {
    let mut checked = 0;
    for b in all_blocks().iter().filter(|b| b.kind() == "variant") {
        let args = b.args();
        match args.as_slice() {
            [] => {}
            ["file", path] => {
                let kept = read(&root().join(path));
                assert_eq!(
                    b.text.trim_end(),
                    kept.trim_end(),
                    "{}: the block differs from {path}",
                    b.place()
                );
            }
            _ => continue,
        }
        if let Some(report) = diagnostics(&b.place(), &b.text) {
            panic!("{} does not check clean:\n{report}", b.place());
        }
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} complete files in the docs");
}

/// The contexts fragments are checked in: small complete files that a fragment is added
/// to. A fragment with its own `name`, `board`, `player` or `game ends` statements
/// replaces the context's.
pub const CONTEXTS: &[(&str, &str)] = &[
    (
        // Top-level statements of a square game without pieces.
        "square",
        "name \"Context\"\nboard square 8 by 8\n\
         player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
         @\n\
         game ends {\n  no legal move: draw\n}\n",
    ),
    (
        // Statements about a flat-topped hexagonal board.
        "hexagon",
        "name \"Context\"\nboard hexagon side 6 flat-topped\n\
         player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
         @\n\
         game ends {\n  no legal move: draw\n}\n",
    ),
    (
        // Statements about a pointy-topped hexagonal board.
        "pointy",
        "name \"Context\"\nboard hexagon side 6 pointy-topped\n\
         player White: forward N, capitals\nplayer Black: forward S, lowercase\n\
         @\n\
         game ends {\n  no legal move: draw\n}\n",
    ),
    (
        // Top-level statements of a chess-like game whose pieces are declared and placed
        // by the fragment or drawn at random: King (royal), Queen, Rook, Bishop, Knight, Pawn.
        "chess",
        "name \"Context\"\nboard square 8 by 8\n\
         player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
         piece King (K) {\n  royal\n  step 1 any\n}\n\
         piece Queen (Q) {\n  slide any\n}\n\
         piece Rook (R) {\n  slide orthogonal\n}\n\
         piece Bishop (B) {\n  slide diagonal\n}\n\
         piece Knight (N) {\n  leap 1 orthogonal then 1 outward diagonal\n}\n\
         piece Pawn (P) {\n  step 1 straight forward, to empty\n  step 1 forward diagonal, to enemy\n}\n\
         @\n\
         game ends {\n  checkmate: mover wins\n  stalemate: draw\n}\n",
    ),
    (
        // What goes inside the braces of a piece: the Pawn of a chess-like game with
        // the zones `far` (the last rank) and `camp` (the last three ranks), and the
        // pieces Queen, Rook, Bishop, Knight and Tokin (+P).
        "piece-body",
        "name \"Context\"\nboard square 8 by 8\n\
         player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
         zone far: last cell of each file\nzone camp: far 3 ranks\n\
         option variant-rule = off\n\
         tag m \"a marked move\"\n\
         piece Pawn (P) {\n  step 1 straight forward, to empty\n@\n}\n\
         piece Queen (Q) {\n  slide any\n}\n\
         piece Rook (R) {\n  slide orthogonal\n}\n\
         piece Bishop (B) {\n  slide diagonal\n}\n\
         piece Knight (N) {\n  leap 1 orthogonal then 1 outward diagonal\n}\n\
         piece Tokin (+P) {\n  step 1 orthogonal\n}\n\
         game ends {\n  no legal move: draw\n}\n",
    ),
];

/// The context's text with the fragment in it.
pub fn in_context(context: &str, fragment: &str) -> String {
    let (_, template) = CONTEXTS
        .iter()
        .find(|(n, _)| *n == context)
        .unwrap_or_else(|| panic!("no context `{context}`"));
    let has = |word: &str| {
        fragment
            .lines()
            .any(|l| l.starts_with(word) && l[word.len()..].starts_with([' ', '{']))
    };
    let mut out = String::new();
    let mut skipping = false;
    for line in template.lines() {
        let replaced = ["name", "board", "player", "game ends"]
            .iter()
            .any(|w| line.starts_with(w) && has(w));
        if replaced && line.starts_with("game ends") {
            skipping = true;
        }
        if skipping {
            skipping = line != "}";
            continue;
        }
        if replaced {
            continue;
        }
        if line == "@" {
            out.push_str(fragment);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

#[test]
fn fragments_check_in_their_context() {
    let mut checked = 0;
    for b in all_blocks() {
        let args = b.args();
        let ("variant", ["fragment", context]) = (b.kind(), args.as_slice()) else {
            continue;
        };
        let text = in_context(context, &b.text);
        if let Some(report) = diagnostics(&b.place(), &text) {
            panic!(
                "{} does not check in the context `{context}`:\n{text}\n{report}",
                b.place()
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} fragments in the docs");
}

#[test]
fn a_fragment_with_a_mistake_fails_in_its_context() {
    let text = in_context(
        "square",
        "piece Rook (R) {\n  slide orthogonal, to enemy Kingg\n}",
    );
    assert!(diagnostics("test", &text).is_some());
    let replaced = in_context("square", "board square 3 by 3\nname \"Own\"");
    assert_eq!(replaced.matches("board").count(), 1, "{replaced}");
    assert!(diagnostics("test", &replaced).is_none(), "{replaced}");
}

/// Whether every non-blank line of `excerpt` is a line of `file`, in the same order,
/// indentation and trailing blanks aside.
pub fn is_excerpt_of(excerpt: &str, file: &str) -> bool {
    let mut lines = file.lines().map(str::trim);
    excerpt
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .all(|want| lines.any(|l| l == want))
}

#[test]
fn excerpts_are_taken_from_their_files() {
    let mut checked = 0;
    for b in all_blocks() {
        let args = b.args();
        let ("variant", ["excerpt", path]) = (b.kind(), args.as_slice()) else {
            continue;
        };
        let file = read(&root().join(path));
        assert!(
            is_excerpt_of(&b.text, &file),
            "{}: not an excerpt of {path}:\n{}",
            b.place(),
            b.text
        );
        // Files of mistakes are the error index's to test.
        if !path.starts_with("variants/invalid/")
            && let Some(report) = diagnostics(path, &file)
        {
            panic!(
                "{path}, quoted at {}, does not check clean:\n{report}",
                b.place()
            );
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} excerpts in the docs");
    assert!(!is_excerpt_of("b\na", "a\nb"), "the order counts");
}

/// The lines of `file` an excerpt quotes, as a range of line indices: they must be
/// consecutive (indentation aside) and found once.
pub fn quoted_run(file: &str, excerpt: &str) -> Result<std::ops::Range<usize>, String> {
    let lines: Vec<&str> = file.lines().map(str::trim).collect();
    let want: Vec<&str> = excerpt.trim_matches('\n').lines().map(str::trim).collect();
    let starts: Vec<usize> = (0..(lines.len() + 1).saturating_sub(want.len()))
        .filter(|&i| lines[i..i + want.len()] == want[..])
        .collect();
    match starts[..] {
        [at] => Ok(at..at + want.len()),
        _ => Err(format!(
            "the excerpt is found {} times as consecutive lines",
            starts.len()
        )),
    }
}

/// `file` with the lines `excerpt` quotes replaced by `corrected`.
pub fn corrected_file(file: &str, excerpt: &str, corrected: &str) -> Result<String, String> {
    let run = quoted_run(file, excerpt)?;
    let lines: Vec<&str> = file.lines().collect();
    let mut out: Vec<&str> = lines[..run.start].to_vec();
    out.extend(corrected.trim_matches('\n').lines());
    out.extend(&lines[run.end..]);
    Ok(out.join("\n") + "\n")
}

/// Each `variant corrected PATH` block with the corrected file it makes.
pub fn corrections() -> Vec<(Block, String)> {
    let mut out = Vec::new();
    for path in markdown_files() {
        let blocks = blocks_of(&path);
        for (i, b) in blocks.iter().enumerate() {
            let args = b.args();
            let ("variant", ["corrected", file]) = (b.kind(), args.as_slice()) else {
                continue;
            };
            let example = blocks[..i]
                .iter()
                .rev()
                .find(|e| e.kind() == "variant")
                .filter(|e| e.info == format!("variant excerpt {file}"))
                .unwrap_or_else(|| panic!("{}: no excerpt of {file} just before", b.place()));
            let text = corrected_file(&read(&root().join(file)), &example.text, &b.text)
                .unwrap_or_else(|e| panic!("{}: {e}", example.place()));
            out.push((b.clone(), text));
        }
    }
    out
}

/// What stays wrong in the file at `path` once `text` replaces it: its errors, and its
/// diagnostics of a code the file reports. Checked under the file's own path, so
/// pictures are looked for beside it.
pub fn still_wrong(path: &str, text: &str) -> Option<String> {
    let name = root().join(path).display().to_string();
    let before = check(&name, &read(&root().join(path))).report.diagnostics;
    let after = check(&name, text).report;
    let wrong = after
        .diagnostics
        .iter()
        .any(|d| d.is_error() || before.iter().any(|b| b.code == d.code));
    wrong.then(|| after.render(100, false))
}

#[test]
fn corrections_fix_their_files() {
    let found = corrections();
    for (b, text) in &found {
        let path = b.args()[1];
        if let Some(report) = still_wrong(path, text) {
            panic!(
                "{}: {path}, corrected, is still wrong:\n{text}\n{report}",
                b.place()
            );
        }
    }
    assert!(!found.is_empty(), "no corrections in the docs");
}

#[test]
fn a_correction_that_fixes_nothing_fails() {
    let path = "variants/invalid/unknown-piece.var";
    let file = read(&root().join(path));
    let example = "  Black: Thoot a1 f1, Chief c1";
    let same = corrected_file(&file, example, example).expect("found once");
    assert_eq!(same, file);
    assert!(still_wrong(path, &same).is_some());
    let fixed = corrected_file(&file, example, "  Black: Thoat a1 f1, Chief c1").expect("found");
    assert!(still_wrong(path, &fixed).is_none(), "{fixed}");
    // Lines left out between those of an example leave no place to put a correction.
    assert!(corrected_file(&file, "setup {\n  Orange: Thoat a6 f6, Chief c6", "").is_err());
}

/// Words of a command line, double quotes grouping.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, any) = (!quoted, true),
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            _ => (word, any) = (word + &c.to_string(), true),
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// What `variantlab ARGS` prints, run from the root: diagnostics, then the rest.
pub fn run(args: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(words(args))
        .current_dir(root())
        .env("COLUMNS", "80")
        .env_remove("NO_COLOR")
        .output()
        .expect("runs");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    )
}

#[test]
fn quoted_outputs_are_the_binarys() {
    let mut checked = 0;
    for b in all_blocks() {
        let Some(args) = &b.output_of else { continue };
        assert_eq!(
            normalize(&b.text),
            normalize(&run(args)),
            "{}: `variantlab {args}` prints otherwise",
            b.place()
        );
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} quoted outputs");
}

/// `variantlab ARGS ... # ... nodes N` lines of the docs' command blocks.
fn counted_commands() -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for b in all_blocks() {
        if !matches!(b.kind(), "sh" | "bash") {
            continue;
        }
        for line in b.text.lines() {
            let Some((command, comment)) = line.split_once('#') else {
                continue;
            };
            let Some(args) = command.trim().strip_prefix("variantlab ") else {
                continue;
            };
            let Some(at) = comment.find("nodes ") else {
                continue;
            };
            let count: String = comment[at + 6..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            found.push((b.place(), args.trim().to_string(), format!("nodes {count}")));
        }
    }
    found
}

#[test]
fn counts_in_command_comments_are_the_binarys() {
    let commands = counted_commands();
    assert!(
        commands.len() >= 8,
        "only {} counted commands",
        commands.len()
    );
    for (place, args, want) in commands {
        let out = run(&args);
        assert_eq!(
            out.lines().last(),
            Some(want.as_str()),
            "{place}: `variantlab {args}` prints\n{out}"
        );
    }
}

#[test]
fn commands_are_written_for_the_installed_binary() {
    let mut wrong = Vec::new();
    for path in markdown_files() {
        let blocks = blocks_of(&path);
        for b in &blocks {
            // The README's first block holds what runs before anything is installed.
            let first_of_readme = b.file == "README.md" && std::ptr::eq(b, &blocks[0]);
            if b.text.contains("cargo run --release --") && !first_of_readme {
                wrong.push(b.place());
            }
        }
        // The README says once how to run it without installing.
        if read(&path).contains("`cargo run --release --") && !path.ends_with("README.md") {
            wrong.push(relative(&path));
        }
    }
    assert!(
        wrong.is_empty(),
        "`cargo run` instead of `variantlab`: {wrong:?}"
    );
    let readme = read(&root().join("README.md"));
    assert!(
        readme.contains("cargo install --path ."),
        "the README says how to install"
    );
}

/// The anchors GitHub gives a markdown file's headings.
pub fn anchors(text: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    let mut slugs: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        }
        if inside || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim().to_lowercase();
        let slug: String = title
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        // A heading met again gets `-1`, `-2` ... after its anchor.
        let seen = slugs.iter().filter(|s| **s == slug).count();
        slugs.push(slug.clone());
        out.push(if seen == 0 {
            slug
        } else {
            format!("{slug}-{seen}")
        });
    }
    out
}

#[test]
fn links_between_the_docs_lead_somewhere() {
    let mut broken = Vec::new();
    for path in markdown_files() {
        let text = read(&path);
        let dir = path.parent().expect("a folder");
        for part in text.split("](").skip(1) {
            let Some(target) = part.split(')').next() else {
                continue;
            };
            if target.starts_with("http") || target.contains(' ') {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let linked = if file.is_empty() {
                path.clone()
            } else {
                dir.join(file)
            };
            if !linked.exists() {
                broken.push(format!("{}: {target}", relative(&path)));
                continue;
            }
            if !anchor.is_empty() && !anchors(&read(&linked)).iter().any(|a| a == anchor) {
                broken.push(format!("{}: {target} (no such heading)", relative(&path)));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(
        anchors("## 16a. The chess family: royal pieces\n")
            .contains(&"16a-the-chess-family-royal-pieces".to_string())
    );
    assert_eq!(anchors("## Notes\n### Notes\n"), ["notes", "notes-1"]);
}

#[test]
fn every_command_says_what_it_does_with_an_example() {
    let top = run("--help");
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 12, "{top}");
    for c in commands {
        let help = run(&format!("{c} --help"));
        let about = help.lines().next().unwrap_or("");
        assert!(about.split_whitespace().count() >= 4, "{c}: {about}");
        assert!(
            help.contains("Example:\n  variantlab ") && help.contains(&format!("variantlab {c}")),
            "`variantlab {c} --help` shows no example:\n{help}"
        );
    }
}
