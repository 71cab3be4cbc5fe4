//! The embedding example in `examples/` builds with the tests and says what the rules
//! say: counted by hand on the 4x4 board. The docs quote it word for word, and what it
//! prints.

use crate::common::root;
use crate::docs::{all_blocks, blocks_of, read};
use std::process::Command;

/// What the example prints.
fn example_output() -> String {
    // Integration tests live in target/<profile>/deps; examples in target/<profile>/examples.
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(|d| d.parent()).unwrap();
    let example = profile
        .join("examples")
        .join(format!("embed{}", std::env::consts::EXE_SUFFIX));
    let out = Command::new(&example)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", example.display()));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_embedding_example_runs() {
    let text = example_output();
    let lines: Vec<&str> = text.lines().collect();
    // King a1: a2, b1; Rook b2: b1, b3, b4, a2, c2, d2.
    assert_eq!(lines[0], "White has 8 legal moves");
    // After Rc2 the c-file is the Rook's: the King may not step onto c3.
    assert!(lines[1].starts_with("refused: "), "{text}");
    assert!(lines[1].contains("c3"), "{text}");
    // c3, c4 and the c-file are covered: d3 is the only move.
    assert_eq!(lines[2], "Black answers d4-d3");
    assert_eq!(lines[3], "position 4/3k/2R1/K3 w 2 2");
}

#[test]
fn rust_blocks_of_the_docs_are_their_files() {
    let mut checked = 0;
    for b in all_blocks().iter().filter(|b| b.kind() == "rust") {
        let args = b.args();
        let ["file", path] = args.as_slice() else {
            panic!("{}: a Rust block names its file", b.place());
        };
        assert_eq!(
            b.text.trim_end(),
            read(&root().join(path)).trim_end(),
            "{}: the block differs from {path}",
            b.place()
        );
        checked += 1;
    }
    assert!(checked >= 1, "no Rust block in the docs");
}

#[test]
fn the_library_guide_quotes_what_the_example_prints() {
    let blocks = blocks_of(&root().join("docs/library.md"));
    let at = blocks
        .iter()
        .position(|b| b.info == "rust file examples/embed.rs")
        .expect("docs/library.md shows examples/embed.rs");
    let printed = blocks[at + 1..]
        .iter()
        .find(|b| b.kind() == "text")
        .expect("what it prints, after it");
    assert_eq!(printed.text.trim_end(), example_output().trim_end());
}
