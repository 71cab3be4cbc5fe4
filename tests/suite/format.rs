//! `variantlab fmt`, run as a user would: every shipped file is laid out already, a
//! careless layout is put right without changing the game, and a broken file is left
//! as it is.

use crate::common;
use std::path::Path;
use std::process::{Command, Output};

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs")
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

/// The lines of a file indented with tabs, their blanks tripled and trailing blanks
/// added, outside quotes and comments: what hurried editing leaves.
fn hurried(text: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    for line in text.lines() {
        let quotes = line.matches("\"\"\"").count();
        if in_string || quotes > 0 || line.contains(['"', '#']) {
            out.push_str(line);
        } else {
            out.push('\t');
            out.push_str(&line.trim_start().replace(' ', "   "));
            out.push_str("   ");
        }
        out.push('\n');
        in_string ^= quotes % 2 == 1;
    }
    out
}

#[test]
fn every_shipped_file_is_already_laid_out() {
    let root = common::root();
    let mut args = vec!["fmt".to_string(), "--check".to_string()];
    for dir in ["variants", "docs/tutorial"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "var") {
                args.push(path.display().to_string());
            }
        }
    }
    assert!(args.len() > 120, "{} files", args.len());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&root, &args);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn a_careless_layout_is_put_right_and_the_game_is_unchanged() {
    let dir = common::scratch("fmt-careless", &["chess.var", "shogi.var"]);
    for name in ["chess.var", "shogi.var"] {
        let original = std::fs::read_to_string(dir.join(name)).unwrap();
        let messy = hurried(&original);
        assert_ne!(messy, original);
        std::fs::write(dir.join(name), &messy).unwrap();
        let perft = |dir: &Path| text(&run(dir, &["perft", name, "--depth", "3"]).stdout);
        let before = perft(&dir);
        assert!(before.contains("nodes"), "{before}");
        // `--check` names the file, fails, and changes nothing.
        let out = run(&dir, &["fmt", "--check", name]);
        assert!(!out.status.success());
        assert_eq!(text(&out.stdout), format!("would change: {name}\n"));
        assert_eq!(std::fs::read_to_string(dir.join(name)).unwrap(), messy);
        // Formatting gives back the file as shipped, and the same perft.
        let out = run(&dir, &["fmt", name]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(std::fs::read_to_string(dir.join(name)).unwrap(), original);
        assert_eq!(perft(&dir), before);
        // A second run has nothing to do.
        let out = run(&dir, &["fmt", name]);
        assert!(out.status.success());
        assert_eq!(text(&out.stdout), "");
    }
}

#[test]
fn a_file_that_does_not_parse_or_read_is_left_as_it_is() {
    let dir = common::scratch("fmt-broken", &[]);
    let broken = "name \"B\"\npiece  King (K) {\n    stpe 1 any\n}\n";
    std::fs::write(dir.join("broken.var"), broken).unwrap();
    std::fs::write(dir.join("latin1.var"), b"name   \"Caf\xe9\"\n").unwrap();
    let out = run(&dir, &["fmt", "broken.var", "latin1.var", "missing.var"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("did you mean `step`"), "{err}");
    assert!(
        err.contains("broken.var: not formatted: it has syntax errors"),
        "{err}"
    );
    assert!(err.contains("missing.var"), "{err}");
    assert!(
        err.contains("latin1.var: not formatted: it is not UTF-8 text"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("broken.var")).unwrap(),
        broken
    );
    assert_eq!(
        std::fs::read(dir.join("latin1.var")).unwrap(),
        b"name   \"Caf\xe9\"\n"
    );
}
