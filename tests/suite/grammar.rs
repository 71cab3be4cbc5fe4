//! Single grammar rules; src/syntax/tests.rs checks that layout leaves the syntax
//! tree alone.

use variantlab::grammar::parses_as;

fn accepts(rule: &str, texts: &[&str]) {
    for text in texts {
        assert!(parses_as(rule, text), "{rule:?} should accept {text:?}");
    }
}

fn rejects(rule: &str, texts: &[&str]) {
    for text in texts {
        assert!(!parses_as(rule, text), "{rule:?} should reject {text:?}");
    }
}

#[test]
fn words() {
    // A keyword only stops a name when the whole word is the keyword.
    accepts(
        "ident",
        &["Panthan", "last-resort", "Chief_2", "stepper", "anyone"],
    );
    rejects("ident", &["step", "any", "2nd", "-x", "diagonal"]);
    accepts("number", &["0", "3", "100"]);
    rejects("number", &["3a", "-1", "1.5"]);
    accepts("cell", &["e5", "g13", "8b", "aa10"]);
    rejects("cell", &["e", "55", "e5x", "e-5"]);
    accepts(
        "string",
        &["\"Iss Jetan\"", "\"\"", "\"\"\"two\nlines\"\"\""],
    );
    rejects("string", &["\"no end", "\"one\nline\""]);
}

#[test]
fn directions() {
    accepts(
        "directions",
        &[
            "any",
            "any except straight backward",
            "forward orthogonal or sideways diagonal",
            "any except backward orthogonal",
            "outward diagonal",
            "N or NE or west",
            // Which compass names exist is up to the board, not the grammar.
            "NNE",
            "forward",
            "straight forward or straight backward",
            "orthogonal except N or S",
        ],
    );
    rejects(
        "directions",
        &[
            "",
            "except N",
            "orthogonal except",
            "orthogonal or",
            "or diagonal",
            "straight",
            "any except N except S",
        ],
    );
    accepts(
        "qualifier",
        &[
            "straight forward",
            "straight backward",
            "sideways",
            "outward",
        ],
    );
    rejects("qualifier", &["straight", "straight sideways", "north"]);
}

#[test]
fn counts() {
    accepts("count", &["3", "2 or more", "1 to 4", "0 to 2"]);
    rejects(
        "count",
        &[
            "",
            "or more",
            "up to",
            "up to 3",
            "2 or",
            "to 4",
            "1 to",
            "up 3",
            "three",
            "2 or less",
        ],
    );
}

#[test]
fn legs() {
    accepts(
        "first_leg",
        &[
            "step 1 any",
            "slide orthogonal",
            "leap 3 direct any",
            "leap 4 or more direct any",
            "step 1 to 3 diagonal",
        ],
    );
    // The first leg must say how the piece travels; later legs inherit it.
    rejects(
        "first_leg",
        &[
            "1 diagonal",
            "any",
            "step",
            "step 1",
            "step direct 2 any",
            "hop 1 any",
        ],
    );
    accepts(
        "next_leg",
        &["1 diagonal", "diagonal", "slide orthogonal", "2 direct any"],
    );
    rejects("next_leg", &["", "1", "direct"]);
}

#[test]
fn moves_with_clauses() {
    accepts(
        "move_stmt",
        &[
            "step 1 orthogonal then 1 diagonal",
            "step 1 orthogonal then 1 diagonal, end not adjacent to start",
            "step 2 diagonal, end not diagonally adjacent to start",
            "step 3 orthogonal, each new cell adjacent only to the cell just left",
            "leap 3 diagonal, each new cell diagonally adjacent only to the cell just left",
            "step 3 orthogonal, never reversing",
            "slide any, to enemy Princess",
            "leap 3 direct any, to empty, tagged m",
            "step 1 any then outward diagonal then slide orthogonal",
            "step 1 forward orthogonal, to empty, from start, unless an enemy is 1 step forward orthogonal",
            "step 1 N, to empty, only if a friend is 2 steps W or E",
            "step 1 N, to empty, unless a piece is 1 step any except straight backward",
            "step 1 forward orthogonal, to empty, not from start",
            "step 1 N, not from b2 c2",
        ],
    );
    rejects(
        "move_stmt",
        &[
            "step 1 any,",
            "step 1 any, to",
            "step 1 any, to friend",
            "step 1 any, tagged",
            "step 1 any, tagged mm",
            "step 1 any then",
            "step 1 any, never reverse",
            "step 1 any, end adjacent to start",
            // The count, the holder and the `is` are all needed.
            "step 1 N, to empty, unless an enemy is step W",
            "step 1 N, to empty, unless enemy is 1 step W",
            "step 1 N, to empty, only a friend is 1 step W",
            "step 1 N, to empty, unless an enemy 1 step W",
            "step 1 N, not start",
        ],
    );
    accepts(
        "piece_item",
        &[
            "if last-resort: slide any",
            "unless last-resort: captured only by Chief",
            "may not end on an attacked cell",
            "captured only by Chief or Princess",
        ],
    );
    rejects(
        "piece_item",
        &[
            "if: step 1 any",
            "if last-resort step 1 any",
            "captured only by",
            "may not end on an attacked square",
        ],
    );
}

#[test]
fn pieces() {
    accepts(
        "piece_stmt",
        &[
            "piece Panthan (PN) {\n  step 1 any except backward orthogonal\n}",
            "piece Wall (W) { }",
            "piece Chief (CH) { step 3 direct any slide any, to enemy Princess }",
            // A move ending in a bare qualifier is not followed by a compass name
            // taken from the next rule.
            "piece Elephant (S) {\n  step 1 straight forward\n  drop only on home\n}",
            "piece Pawn (P) { step 1 forward\n no drop on back }",
            "piece Pawn (P) { step 1 straight forward may promote on standing in far or anywhere as the last of its kind to Queen, at most 1 Queen, giving no check and attacking no enemy }",
        ],
    );
    rejects(
        "piece_stmt",
        &[
            "piece Panthan { step 1 any }",
            "piece Panthan (PAN) { }",
            "piece Panthan (P1) { }",
            "piece step (ST) { }",
            "piece Panthan (PN) { step 1 any",
            "piece Panthan (PN) { stpe 1 any }",
            // `anywhere as the last of its kind` belongs to `standing in` only.
            "piece Pawn (P) { promotes on entering far or anywhere as the last of its kind to Queen }",
            "piece Pawn (P) { may promote on standing in far to Queen, giving no check }",
        ],
    );
}

#[test]
fn player_statements() {
    accepts(
        "player_stmt",
        &[
            "player Black: forward north, capitals",
            "player Orange: lowercase",
            "player Red: forward NE",
            "player White: capitals, forward north",
        ],
    );
    rejects(
        "player_stmt",
        &[
            "player Black",
            "player Black:",
            "player Black: forward north capitals",
            "player Black: forward",
            "player Black: uppercase",
            "player any: capitals",
        ],
    );
}

#[test]
fn board_statements() {
    accepts(
        "board_stmt",
        &[
            "board square 10 by 10",
            "board hexagon side 7 flat-topped",
            "board hexagon side 6 pointy-topped",
            "board parallelogram 12 by 8 pointy-topped, leaning NW",
            "board parallelogram 9 by 9 flat-topped leaning SE",
        ],
    );
    rejects(
        "board_stmt",
        &[
            "board square 10",
            "board square 10 by",
            "board square ten by ten",
            "board hexagon side 7",
            "board hexagon 7 flat-topped",
            "board circle 8",
            "board square 8 x 8",
            "board parallelogram 9 by 9 pointy-topped",
            "board parallelogram 9 by 9, leaning NW",
            "board parallelogram 9 pointy-topped, leaning NW",
            "board",
        ],
    );
    accepts(
        "coordinates_stmt",
        &[
            "coordinates files lettered from the left, ranks numbered from the bottom",
            "coordinates files lettered skipping j from the left, ranks numbered from the bottom of each file",
            "coordinates files lettered from the left, lines along NE numbered from the bottom",
            "coordinates lines along NE numbered from the right, ranks lettered from the top",
        ],
    );
    rejects(
        "coordinates_stmt",
        &[
            "coordinates glinski",
            "coordinates files lettered from the left",
            "coordinates files from the left, ranks numbered from the bottom",
            "coordinates files lettered skipping from the left, ranks numbered from the bottom",
        ],
    );
    accepts("holes_stmt", &["holes d4", "holes d4 e5 f6"]);
    rejects("holes_stmt", &["holes", "holes d", "holes 4"]);
    accepts(
        "option_stmt",
        &["option last-resort = off", "option x = on \"about\""],
    );
    rejects(
        "option_stmt",
        &[
            "option last-resort",
            "option last-resort = maybe",
            "option = on",
        ],
    );
    accepts(
        "tag_stmt",
        &[
            "tag e",
            "tag e \"escape\"",
            "tag e \"escape\" once per game",
            "tag e once per game",
        ],
    );
    rejects("tag_stmt", &["tag", "tag ee", "tag e once"]);
}

#[test]
fn setup_blocks() {
    accepts(
        "setup_stmt",
        &[
            "setup { }",
            "setup { Black: Chief e1 }",
            "setup {\n  Black: Warrior a1 j1, Padwar b1 i1\n  Orange: Warrior a10 j10\n}",
            "setup diagram \"\"\"\n[WA][  ]\n\"\"\"",
        ],
    );
    rejects(
        "setup_stmt",
        &[
            "setup",
            "setup { Black: }",
            "setup { Black: Chief }",
            "setup { Chief e1 }",
            "setup { Black: Chief e1, }",
            "setup diagram \"[WA]\"",
            "setup diagram \"\"\"[WA]",
        ],
    );
}

#[test]
fn game_end_rules() {
    accepts(
        "end_stmt",
        &[
            "game ends { }",
            "game ends {\n  Princess captured: mover wins\n}",
            "game ends { Chief captured by Chief: mover wins }",
            "game ends { if last-resort: Chief captured: draw }",
            "game ends { no legal move: mover loses position repeated 3 times: draw 100 plies without capture: draw }",
            "game ends { only promotions left: draw a player has only royal pieces: that player loses }",
            "game ends { no legal move and in check: mover wins no legal move and not in check: draw }",
            "game ends { a player has no pieces: that player loses }",
            "game ends { White has at least 2 Queen on the board: White wins }",
            "game ends { a player has fewer than 3 King or Queen: that player loses }",
            "game ends { a player has a Knight in centre and not (in check or board full): draw }",
            "game ends { a player has more than 4 non-royal pieces in hand: draw }",
            "game ends { Queen extinct or (Rook captured and stalemate): draw }",
        ],
    );
    rejects(
        "end_stmt",
        &[
            "game ends",
            "game { }",
            "game ends { Princess captured }",
            "game ends { Princess captured: mover }",
            "game ends { Princess captured: mover win }",
            "game ends { Princess taken: draw }",
            "game ends { position repeated 3: draw }",
            "game ends { no legal moves: draw }",
            "game ends { no pieces left: that player loses }",
            "game ends { fewer than 3 King pieces left: that player loses }",
            "game ends { a player has pieces: draw }",
            "game ends { a player has no King in: draw }",
            "game ends { (checkmate: mover wins }",
            "game ends { not: draw }",
            "game ends { checkmate and: draw }",
        ],
    );
}

#[test]
fn whole_files() {
    accepts(
        "file",
        &[
            "",
            "# nothing but a comment",
            "name \"x\" board square 8 by 8",
        ],
    );
    rejects("file", &["nmae \"x\"", "board square 8 by 8 }"]);
}

/// The grammar's rules that no parse tree shows: silent ones (`_{`), and those used only
/// to look ahead (`!keyword`), which test the text without taking it.
fn unseen_rules() -> Vec<String> {
    let grammar =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/variant.pest"))
            .unwrap();
    let code: Vec<&str> = grammar
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    let defined: Vec<(String, bool)> = code
        .iter()
        .filter_map(|l| {
            let (name, rest) = l.split_once('=')?;
            let name = name.trim();
            (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .then(|| (name.to_string(), rest.trim_start().starts_with("_{")))
        })
        .collect();
    let bodies: String = code
        .iter()
        .map(|l| l.split_once('=').map_or(*l, |(_, b)| b))
        .collect::<Vec<_>>()
        .join("\n");
    let only_looked_ahead = |name: &str| {
        let b = bodies.as_bytes();
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let uses: Vec<usize> = bodies
            .match_indices(name)
            .map(|(i, _)| i)
            .filter(|&i| {
                (i == 0 || !word(b[i - 1])) && b.get(i + name.len()).is_none_or(|&c| !word(c))
            })
            .collect();
        !uses.is_empty()
            && uses
                .iter()
                .all(|&i| bodies[..i].trim_end().ends_with(['!', '&']))
    };
    defined
        .into_iter()
        .filter(|(name, silent)| *silent || only_looked_ahead(name))
        .map(|(name, _)| name)
        .collect()
}

/// For each rule a parse tree can show, the shipped files whose tree holds it.
fn rule_use() -> std::collections::BTreeMap<String, Vec<String>> {
    let unseen = unseen_rules();
    let mut uses: std::collections::BTreeMap<String, Vec<String>> =
        variantlab::grammar::rule_names()
            .into_iter()
            .filter(|r| !unseen.contains(r) && r != "EOI")
            .map(|r| (r, vec![]))
            .collect();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/variants");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "var"))
    {
        let text = std::fs::read_to_string(f).unwrap();
        let used = variantlab::grammar::rules_used(&text).unwrap_or_else(|| panic!("{f:?} parses"));
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        for r in used {
            uses.entry(r).or_default().push(name.clone());
        }
    }
    uses
}

/// The most grammar rules (keywords included) that two shipped files or fewer use: a
/// rule so rare is a phrase for one game unless it names a concept other games need.
const MOST_RARE_RULES: usize = 53;

#[test]
fn few_rules_serve_only_one_or_two_games() {
    let uses = rule_use();
    let rare: Vec<_> = uses.iter().filter(|(_, f)| f.len() <= 2).collect();
    let list: Vec<String> = rare
        .iter()
        .map(|(r, f)| format!("{r}: {}", f.join(" ")))
        .collect();
    println!("{}", list.join("\n"));
    println!(
        "{} of {} rules used by at most two files ({} by none)",
        rare.len(),
        uses.len(),
        rare.iter().filter(|(_, f)| f.is_empty()).count()
    );
    assert!(
        rare.len() <= MOST_RARE_RULES,
        "{} rules serve at most two shipped files; at most {MOST_RARE_RULES} may",
        rare.len()
    );
}
