//! The syntax tree: what the layout of a file changes in it, and what it does not.

use super::{layout, parse};

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

/// A variant file laid out carelessly: indentation of tabs and blanks, blanks doubled
/// and added at line ends, blank lines doubled; nothing in quotes or comments touched.
fn careless(text: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    for (n, line) in text.lines().enumerate() {
        let quotes = line.matches("\"\"\"").count();
        if in_string || quotes > 0 {
            out.push_str(line);
        } else if line.trim().is_empty() {
            out.push_str(" \t\n");
        } else {
            let (code, comment) = match line.find('#') {
                Some(i) if !line.contains('"') => line.split_at(i),
                _ if line.contains('"') => ("", line),
                _ => (line, ""),
            };
            let indent = if n % 2 == 0 { "\t" } else { "     " };
            out.push_str(indent);
            out.push_str(&code.trim_start().replace(' ', "   "));
            out.push_str(comment);
            out.push_str("  ");
        }
        out.push('\n');
        in_string ^= quotes % 2 == 1;
    }
    out
}

#[test]
fn every_shipped_file_is_laid_out_and_layout_changes_no_tree() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = 0;
    for dir in ["variants", "docs/tutorial", "tests/fixtures"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("a folder of files") {
            let path = entry.expect("an entry").path();
            if path.extension().is_none_or(|e| e != "var") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).expect("variant file");
            assert_eq!(layout(&text).as_deref(), Some(text.as_str()), "{path:?}");
            let messy = careless(&text);
            assert_ne!(messy, text, "{path:?}");
            let laid = layout(&messy).expect("a careless layout parses");
            assert_eq!(parse(&messy).0, parse(&laid).0, "{path:?}");
            assert_eq!(laid, text, "{path:?}");
        }
    }
    assert!(files > 100, "only {files} files");
}

#[test]
fn layout_indents_by_block_and_continues_entries() {
    let messy = "\n\nname   \"Two  Kings\"   # keep  this\nboard square 5 by 5\n\n\n\
        player White :forward north\nplayer Black: forward south\npiece King (K){\n\n\
        \t step 1 any ,to empty   \n\n  step 1 any,\n to enemy\n\n}\nsetup {\n White: King a1 ,\n\
        King b1\n  Black: King e5\n}\ngame ends {\n\n # the end\n no legal move: mover loses# why\n}\n\n";
    let laid = "name \"Two  Kings\" # keep  this\nboard square 5 by 5\n\n\
        player White: forward north\nplayer Black: forward south\npiece King (K) {\n\
        \x20 step 1 any, to empty\n\n  step 1 any,\n    to enemy\n}\nsetup {\n  White: King a1,\n\
        \x20        King b1\n  Black: King e5\n}\ngame ends {\n  # the end\n  no legal move: mover loses # why\n}\n";
    assert_eq!(layout(messy).as_deref(), Some(laid));
    assert_eq!(layout(laid).as_deref(), Some(laid));
    assert_eq!(parse(messy).0, parse(laid).0);
    // Diagrams and long descriptions keep every byte, trailing blanks included.
    let diagram = "name \"D\"\ndescription \"\"\"  two  \n   lines \"\"\"\n";
    assert_eq!(layout(diagram).as_deref(), Some(diagram));
    // Statements sharing a line, and a block written on one line, are spread out.
    let one_line =
        "name \"A\" board square 5 by 5\npiece King (K) { step 1 any  step 2 any } # end\n";
    let spread =
        "name \"A\"\nboard square 5 by 5\npiece King (K) {\n  step 1 any\n  step 2 any\n} # end\n";
    assert_eq!(layout(one_line).as_deref(), Some(spread));
    assert_eq!(parse(one_line).0, parse(spread).0);
    // A block's `{` joins its heading; no blanks inside parentheses; a line after a
    // closing `"""` is laid out; a byte-order mark stays where it is.
    let loose = "\u{FEFF}name \"A\"\ndescription \"\"\"x\n\"\"\"   # note  kept\nboard  square 5 by 5\npiece King ( K )\n{\n step 1 any\n}\n";
    let tight = "\u{FEFF}name \"A\"\ndescription \"\"\"x\n\"\"\" # note  kept\nboard square 5 by 5\npiece King (K) {\n  step 1 any\n}\n";
    assert_eq!(layout(loose).as_deref(), Some(tight));
    assert_eq!(layout(tight).as_deref(), Some(tight));
    // CR LF files keep CR LF everywhere, inside quotes too.
    let crlf = spread.replace('\n', "\r\n") + "description \"\"\"\r\n two \r\n\"\"\"\r\n";
    assert_eq!(layout(&crlf).as_deref(), Some(crlf.as_str()));
    // A file that does not parse has no layout.
    assert_eq!(layout("piece King (K) {\n  stpe 1 any\n}\n"), None);
}

#[test]
fn a_block_line_at_the_margin_that_starts_with_a_statement_word_is_no_place_to_cut() {
    // `royal` at the margin inside a block, just past the first window of parsing.
    let text = format!(
        "#{}\npiece K (K) {{\nroyal\nstep 1 any\n}}\n",
        "x".repeat(4080)
    );
    assert_eq!(parse(&text).1, vec![]);
    // Every shipped file with its indentation taken away parses as it did.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    for entry in std::fs::read_dir(&dir).expect("the variants folder") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "var") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("variant file");
        // Lines inside triple quotes (pasted diagrams) keep their blanks.
        let mut quoted = false;
        let flat: String = text
            .lines()
            .map(|l| {
                let kept = if quoted { l } else { l.trim_start() };
                quoted ^= l.matches("\"\"\"").count() % 2 == 1;
                kept.to_string() + "\n"
            })
            .collect();
        let (tree, errors) = parse(&flat);
        assert!(errors.is_empty(), "{path:?}: {errors:?}");
        assert_eq!(tree, parse(&text).0, "{path:?}");
    }
}
