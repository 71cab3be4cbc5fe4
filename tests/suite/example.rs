//! The embedding example in `examples/` builds with the tests and says what the rules
//! say: counted by hand on the 4x4 board.

use std::process::Command;

#[test]
fn the_embedding_example_runs() {
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
    let text = String::from_utf8(out.stdout).unwrap();
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
