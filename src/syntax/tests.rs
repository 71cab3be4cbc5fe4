//! The syntax tree: what the layout of a file changes in it, and what it does not.

use super::parse;

/// A variant file with its layout changed but nothing else: every line outside a
/// triple-quoted string indented further and followed by a comment, blanks doubled
/// where there is no quoted text, and blank lines between.
fn relaid(text: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    for line in text.lines() {
        let quotes = line.matches("\"\"\"").count();
        if in_string || quotes > 0 {
            out.push_str(line);
        } else if line.contains('"') {
            out.push_str(&format!("\t  {line}   # layout only\n"));
        } else {
            out.push_str(&format!(
                "\t  {}   # layout only\n",
                line.replace(' ', "  ")
            ));
        }
        out.push('\n');
        in_string ^= quotes % 2 == 1;
    }
    out
}

#[test]
fn layout_and_comments_do_not_change_the_tree() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("the variants folder") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "var") {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&path).expect("variant file");
        let other = relaid(&text);
        assert_ne!(text, other);
        let (a, da) = parse(&text);
        let (b, db) = parse(&other);
        assert!(da.is_empty() && db.is_empty(), "{path:?}: {da:?} {db:?}");
        assert_eq!(a, b, "{path:?}");
    }
    assert!(files > 0, "no variant files in {dir:?}");
    let (a, _) = parse("piece Jumper (JU) {\n  step 1 orthogonal then 1 diagonal\n}\n");
    let (b, _) = parse("piece Jumper(JU){step 1 # first\n orthogonal\nthen 1 diagonal}");
    assert_eq!(a, b);
}

#[test]
fn content_changes_do_change_the_tree() {
    let (a, _) = parse("piece Jumper (JU) { step 1 orthogonal then 1 diagonal }");
    for changed in [
        "piece Jumper (JU) { step 1 orthogonal then 2 diagonal }",
        "piece Jumper (JT) { step 1 orthogonal then 1 diagonal }",
        "piece Jumper (JU) { leap 1 orthogonal then 1 diagonal }",
        "piece Jumper (JU) { step 1 orthogonal then 1 diagonal, to empty }",
        "piece Jumper (JU) { step 1 diagonal then 1 orthogonal }",
    ] {
        assert_ne!(a, parse(changed).0, "{changed}");
    }
}

#[test]
fn each_form_of_a_count_reads_its_least_and_most_steps() {
    use super::{PieceItemKind, Statement};
    for (text, min, max) in [
        ("3", 3, Some(3)),
        ("1 to 4", 1, Some(4)),
        ("2 or more", 2, None),
    ] {
        let (file, _) = parse(&format!("piece Slider (S) {{ slide {text} orthogonal }}"));
        let Statement::Piece(piece) = &file.statements[0] else {
            panic!("{text}: a piece")
        };
        let PieceItemKind::Move(m) = &piece.items[0].kind else {
            panic!("{text}: a move")
        };
        let count = &m.legs[0].count.as_ref().unwrap().node;
        assert_eq!((count.min, count.max), (min, max), "{text}");
    }
}
