//! The error index, docs/errors.md: one entry per diagnostic code the source can emit,
//! each with a summary, an example from a file of `variants/invalid/` that reports
//! exactly that code, and a fix; `variantlab explain CODE` prints the entry, and every
//! help line points to it.

use crate::common;
use crate::docs::{blocks_of, quoted_run, read, run};

use common::root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use variantlab::load::check_all as check;

/// The index's entries: each code with its text, heading included.
fn entries() -> Vec<(String, String)> {
    let text = read(&root().join("docs/errors.md"));
    let mut out = Vec::new();
    for part in text.split("\n## ").skip(1) {
        let code = part
            .strip_prefix('`')
            .and_then(|p| p.split('`').next())
            .unwrap_or_else(|| panic!("an entry heading is not a code: {part:.40}"));
        out.push((code.to_string(), format!("## {}", part.trim_end())));
    }
    out
}

/// Every `"variantlab::CODE"` written in src/, with how it is written: `warning` after
/// `Diagnostic::warning(`, `error` after `Diagnostic::error(`, else `elsewhere` (passed
/// to a helper, or tested).
fn source_kinds() -> BTreeMap<String, BTreeSet<&'static str>> {
    fn walk(dir: &Path, found: &mut BTreeMap<String, BTreeSet<&'static str>>) {
        for entry in std::fs::read_dir(dir).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let text = read(&path);
                let parts: Vec<&str> = text.split("\"variantlab::").collect();
                for pair in parts.windows(2) {
                    let (before, part) = (pair[0], pair[1]);
                    let code: String = part
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                        .collect();
                    // `"variantlab::unknown_"` is a prefix the checker tests, not a code.
                    if part[code.len()..].starts_with('"')
                        && !code.is_empty()
                        && !code.ends_with('_')
                    {
                        let made = before.trim_end();
                        let kind = if made.ends_with("Diagnostic::warning(") {
                            "warning"
                        } else if made.ends_with("Diagnostic::error(") {
                            "error"
                        } else {
                            "elsewhere"
                        };
                        found.entry(code).or_default().insert(kind);
                    }
                }
            }
        }
    }
    let mut found = BTreeMap::new();
    walk(&root().join("src"), &mut found);
    found
}

/// Every `"variantlab::CODE"` written in src/.
fn source_codes() -> BTreeSet<String> {
    source_kinds().into_keys().collect()
}

/// The codes a file reports, once each.
fn codes_of(path: &Path) -> BTreeSet<String> {
    check("file", &read(path))
        .report
        .diagnostics
        .iter()
        .map(|d| d.short_code().to_string())
        .collect()
}

#[test]
fn the_index_has_one_entry_per_code_of_the_source() {
    let indexed: Vec<String> = entries().into_iter().map(|(c, _)| c).collect();
    let unique: BTreeSet<String> = indexed.iter().cloned().collect();
    assert_eq!(unique.len(), indexed.len(), "a code has two entries");
    let source = source_codes();
    assert!(
        source.len() >= 45,
        "only {} codes found in src/",
        source.len()
    );
    let missing: Vec<_> = source.difference(&unique).collect();
    let stale: Vec<_> = unique.difference(&source).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "codes without an entry: {missing:?}; entries of no code: {stale:?}"
    );
}

/// How a summary may start, and whether the code is then made both as an error and as
/// a warning.
const KINDS: &[(&str, bool)] = &[
    ("Error. ", false),
    ("Warning. ", false),
    ("Error, or warning when ", true),
    ("Warning, or error when ", true),
];

/// The text of the entry's block with this info string.
fn block<'a>(entry: &'a str, info: &str) -> Option<&'a str> {
    let rest = entry.split(&format!("```{info}\n")).nth(1)?;
    Some(rest.split("\n```").next().unwrap_or(rest))
}

/// The file of mistakes an entry's example is taken from.
fn fixture_of(code: &str, entry: &str) -> String {
    entry
        .split("```variant excerpt ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .unwrap_or_else(|| panic!("{code}: no example"))
        .to_string()
}

#[test]
fn each_entry_has_a_summary_an_example_that_reports_only_its_code_and_a_fix() {
    let blocks = blocks_of(&root().join("docs/errors.md"));
    let made = source_kinds();
    for (code, entry) in entries() {
        let summary = entry.lines().nth(2).unwrap_or("");
        let Some(&(_, mixed)) = KINDS.iter().find(|(k, _)| summary.starts_with(k)) else {
            panic!("{code}: the summary says error or warning first: {summary}");
        };
        let kinds = made.get(&code).cloned().unwrap_or_default();
        let warns = kinds.contains("warning");
        let errs = kinds.contains("error") || !warns;
        assert_eq!(
            mixed,
            warns && errs,
            "{code}: the summary says otherwise than the source ({kinds:?}): {summary}"
        );
        if !mixed {
            assert_eq!(warns, summary.starts_with("Warning"), "{code}: {summary}");
        }
        assert!(entry.contains("\nFix: "), "{code}: no fix");
        let fixture = fixture_of(&code, &entry);
        assert!(
            fixture.starts_with("variants/invalid/"),
            "{code}: {fixture} is not a file of mistakes"
        );
        assert!(
            blocks
                .iter()
                .any(|b| b.info == format!("variant excerpt {fixture}")),
            "{code}: the example block is not read as one"
        );
        let (examples, corrections) = (
            entry.matches("```variant excerpt ").count(),
            entry.matches("```variant corrected ").count(),
        );
        assert!(
            examples == 1 && corrections == 1,
            "{code}: one example and one correction"
        );
        assert!(
            block(&entry, &format!("variant corrected {fixture}")).is_some(),
            "{code}: no ```variant corrected {fixture}``` block after the example"
        );
        let found = codes_of(&root().join(&fixture));
        assert_eq!(
            found,
            BTreeSet::from([code.clone()]),
            "{code}: {fixture} reports other codes"
        );
        let warning = !check("f", &read(&root().join(&fixture)))
            .report
            .has_errors();
        assert_eq!(
            warning,
            summary.starts_with("Warning"),
            "{code}: the summary says the wrong kind"
        );
    }
}

#[test]
fn each_example_shows_every_line_its_report_points_at() {
    for (code, entry) in entries() {
        let fixture = fixture_of(&code, &entry);
        let example = block(&entry, &format!("variant excerpt {fixture}")).expect("an example");
        let file = read(&root().join(&fixture));
        let run = quoted_run(&file, example).unwrap_or_else(|e| panic!("{code}: {e}"));
        for d in check(&fixture, &file).report.diagnostics {
            for span in std::iter::once(d.span).chain(d.also.iter().map(|(s, _)| *s)) {
                // An empty span at the start is about the whole file.
                if span.start == 0 && span.is_empty() {
                    continue;
                }
                let line = file[..span.start].matches('\n').count();
                assert!(
                    run.contains(&line),
                    "{code}: the example leaves out line {} of {fixture}, which the report points at",
                    line + 1
                );
            }
        }
    }
}

#[test]
fn every_file_of_mistakes_reports_codes_of_the_index() {
    let indexed: BTreeSet<String> = entries().into_iter().map(|(c, _)| c).collect();
    let dir = root().join("variants/invalid");
    for entry in std::fs::read_dir(&dir).expect("variants/invalid") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|x| x == "var") {
            let unknown: Vec<String> = codes_of(&path).difference(&indexed).cloned().collect();
            assert!(unknown.is_empty(), "{}: {unknown:?}", path.display());
        }
    }
}

#[test]
fn explain_prints_each_entry() {
    for (code, entry) in entries() {
        let out = run(&format!("explain {code}"));
        let fix = entry
            .lines()
            .find(|l| l.starts_with("Fix: "))
            .expect("a fix");
        let summary = entry.lines().nth(2).expect("a summary");
        // Links print as their text; compare up to the first.
        let (summary, fix) = (
            summary.split('[').next().unwrap(),
            fix.split('[').next().unwrap(),
        );
        assert!(
            out.starts_with(&format!("`{code}`\n")) && out.contains(summary) && out.contains(fix),
            "`variantlab explain {code}` prints\n{out}"
        );
        assert!(!out.contains("```"), "{code}: fences are left out\n{out}");
        let fixture = fixture_of(&code, &entry);
        let corrected = block(&entry, &format!("variant corrected {fixture}")).expect("one");
        assert!(
            corrected.lines().all(|l| out.contains(l)),
            "{code}: the correction is not printed\n{out}"
        );
    }
    let prefixed = run("explain variantlab::unknown_piece");
    assert!(prefixed.starts_with("`unknown_piece`"), "{prefixed}");
    let listed = run("explain");
    assert_eq!(listed.lines().count(), entries().len(), "{listed}");
}

#[test]
fn explain_suggests_the_code_meant() {
    let out = run("explain unknown_peice");
    assert!(
        out.contains("there is no diagnostic code `unknown_peice`; did you mean `unknown_piece`?"),
        "{out}"
    );
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["explain", "nothing_like_it_at_all"])
        .output()
        .expect("runs")
        .status;
    assert!(!status.success());
}

#[test]
fn every_help_line_names_the_entry_of_its_code() {
    let dir = root().join("variants/invalid");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("variants/invalid") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|x| x != "var") {
            continue;
        }
        let report = check("file", &read(&path)).report;
        let shown = report.render(80, false);
        let flat = shown.split_whitespace().collect::<Vec<_>>().join(" ");
        for d in &report.diagnostics {
            let pointer = format!("`variantlab explain {}`", d.short_code());
            assert!(
                d.shown_help().ends_with(&format!("{pointer})"))
                    || d.shown_help().ends_with(&pointer)
            );
            assert!(
                flat.contains(&pointer),
                "{}: no {pointer} in\n{shown}",
                path.display()
            );
            seen += 1;
        }
    }
    assert!(seen > 60);
}
