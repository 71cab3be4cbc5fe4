//! The word index, docs/words.md, generated from the grammar's `///` comments: every
//! fixed word of the language, where it may appear, what the rule using it means and
//! the section of the reference that tells more. `VARIANTLAB_WRITE_DOCS=1` rewrites the
//! file; otherwise a stale or incomplete index fails.

use crate::common;
use crate::docs::{anchors, read};

use common::root;
use std::collections::{BTreeMap, BTreeSet};

/// A rule of the grammar: its name, its `///` comment and its body.
struct GrammarRule {
    name: String,
    doc: String,
    body: String,
}

fn grammar_rules() -> Vec<GrammarRule> {
    let text = read(&root().join("grammar/variant.pest"));
    let mut rules: Vec<GrammarRule> = Vec::new();
    let mut doc: Vec<String> = Vec::new();
    for line in text.lines() {
        if let Some(d) = line.strip_prefix("///") {
            doc.push(d.trim().to_string());
            continue;
        }
        let is_rule = line.split_once(" = ").is_some_and(|(n, _)| {
            !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_')
        });
        if is_rule {
            let (name, body) = line.split_once(" = ").expect("a rule");
            rules.push(GrammarRule {
                name: name.to_string(),
                doc: doc.join(" "),
                body: body.to_string(),
            });
        } else if let Some(last) = rules.last_mut()
            && !line.trim_start().starts_with("//")
        {
            last.body.push('\n');
            last.body.push_str(line);
        }
        doc.clear();
    }
    rules
}

/// Whether a quoted literal is a word of the language.
fn is_word(w: &str) -> bool {
    !w.is_empty()
        && w.starts_with(|c: char| c.is_ascii_lowercase())
        && w.chars().all(|c| c.is_ascii_lowercase() || c == '-')
}

/// The quoted literals and the rule names a body uses.
fn tokens(body: &str) -> (Vec<String>, Vec<String>) {
    let literals: Vec<String> = body
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    let unquoted: String = body.split('"').step_by(2).collect::<Vec<_>>().join(" ");
    let names = unquoted
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    (literals, names)
}

/// The section of docs/language.md each rule is told about in; a rule not listed is in
/// the section of the first rule found using it.
const SECTIONS: &[(&str, &str)] = &[
    ("name_stmt", "3-name-inventor-description"),
    ("inventor_stmt", "3-name-inventor-description"),
    ("description_stmt", "3-name-inventor-description"),
    ("board_stmt", "4-the-board"),
    ("coordinates_stmt", "5-coordinates"),
    ("holes_stmt", "6-holes"),
    ("player_stmt", "8-players"),
    ("option_stmt", "9-options-and-guards"),
    ("guard", "9-options-and-guards"),
    ("tag_stmt", "10-tags"),
    ("once_per_game", "10-tags"),
    ("piece_stmt", "11-pieces"),
    ("move_stmt", "12-moves"),
    ("mode", "modes"),
    ("count", "counts"),
    ("direct", "direct"),
    ("directions", "directions"),
    ("qualifier", "qualifiers"),
    ("clause", "clauses"),
    ("captured_only_by", "14-capture-restrictions-and-safety"),
    ("not_attacked", "14-capture-restrictions-and-safety"),
    ("royal", "royal-pieces-and-check"),
    ("from_cells", "initial-moves"),
    ("en_passant", "en-passant"),
    ("moves_as", "compounds-bent-riders-and-equal-legs"),
    ("equal_legs", "compounds-bent-riders-and-equal-legs"),
    ("promotion", "promotion-zones"),
    ("no_drop", "drop-restrictions"),
    ("setup_stmt", "15-the-setup"),
    ("setup_block", "by-coordinates"),
    ("setup_diagram", "by-diagram"),
    ("setup_random", "random-setups"),
    ("end_stmt", "16-how-the-game-ends"),
    ("perpetual", "endings"),
    ("checker_loses", "endings"),
    ("zone_stmt", "zones"),
    ("castling_stmt", "castling"),
    ("hand_stmt", "hands"),
    ("over_pieces", "hurdles"),
    ("right_behind", "hurdles"),
    ("within_zone", "moves-within-a-zone"),
    ("from_zone", "moves-within-a-zone"),
    ("zone_near", "moves-within-a-zone"),
    ("facing", "facing-pieces"),
    ("fen_stmt", "fens-fields"),
    ("pass_stmt", "passing"),
    ("passes_event", "passing"),
    ("drawing_stmt", "drawing-pieces"),
    ("drawn", "drawing-pieces"),
    ("explode_stmt", "explosions"),
    ("checks_stmt", "forbidden-checks"),
    ("clock_stmt", "fens-fields"),
    ("check_bound", "royal-pieces-and-check"),
    ("flip_stmt", "pieces-that-change-sides"),
    ("drop_enclosing", "placing-stones"),
    ("drop_first", "placing-stones"),
    ("leaving_copy", "moves-leaving-a-copy"),
    ("pass_if_stuck", "passing-when-stuck"),
    ("board_full_event", "counting-stones"),
    ("mate_by_event", "mates-judged-by-their-checks"),
    ("mate_run_event", "mates-judged-by-their-checks"),
    ("more_pieces", "counting-stones"),
    ("walling", "16e-walls-trails-removed-cells-and-arrows"),
    ("moved_wall_stmt", "a-wall-that-moves"),
];

/// What each top-level statement is called in the index's `where` column.
const STATEMENTS: &[(&str, &str)] = &[
    ("name_stmt", "`name`"),
    ("inventor_stmt", "`inventor`"),
    ("description_stmt", "`description`"),
    ("board_stmt", "`board`"),
    ("coordinates_stmt", "`coordinates`"),
    ("holes_stmt", "`holes`"),
    ("player_stmt", "`player`"),
    ("option_stmt", "`option`"),
    ("tag_stmt", "`tag`"),
    ("piece_stmt", "`piece { }`"),
    ("setup_stmt", "`setup`"),
    ("end_stmt", "`game ends { }`"),
    ("zone_stmt", "`zone`"),
    ("castling_stmt", "`castling`"),
    ("hand_stmt", "`captured pieces go to hand`"),
    ("fen_stmt", "`position strings as in FEN`"),
    ("pass_stmt", "`players may pass`"),
    ("compulsory_stmt", "`captures are compulsory`"),
    ("drawing_stmt", "`pieces drawn as`"),
    ("explode_stmt", "`captures explode`"),
    ("checks_stmt", "`checks are forbidden`"),
    ("clock_stmt", "`position strings count plies since`"),
    ("flip_stmt", "`... change sides`"),
    (
        "moved_wall_stmt",
        "`after each move, the mover moves the wall`",
    ),
];

/// The first sentence of a rule's comment.
fn first_sentence(doc: &str) -> String {
    let end = doc
        .match_indices(". ")
        .map(|(i, _)| i + 1)
        .find(|i| doc[..*i].matches('`').count().is_multiple_of(2))
        .unwrap_or(doc.len());
    let s = doc[..end].trim().replace('|', "\\|");
    if s.ends_with('.') || s.ends_with(':') {
        s
    } else {
        format!("{s}.")
    }
}

/// The index as docs/words.md holds it.
fn generate() -> String {
    let rules = grammar_rules();
    let by_name: BTreeMap<&str, &GrammarRule> =
        rules.iter().map(|r| (r.name.as_str(), r)).collect();
    // Who uses whom, in grammar order.
    let mut users: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for r in &rules {
        for n in tokens(&r.body).1 {
            if let Some(used) = by_name.get(n.as_str()) {
                let list = users.entry(used.name.as_str()).or_default();
                if !list.contains(&r.name.as_str()) {
                    list.push(r.name.as_str());
                }
            }
        }
    }
    let ancestors = |start: &str| -> Vec<String> {
        let mut seen: Vec<String> = vec![start.to_string()];
        let mut i = 0;
        while i < seen.len() {
            for u in users.get(seen[i].as_str()).into_iter().flatten() {
                if !seen.iter().any(|s| s == u) {
                    seen.push(u.to_string());
                }
            }
            i += 1;
        }
        seen
    };
    let reserved: BTreeSet<String> = tokens(&by_name["keyword"].body).0.into_iter().collect();
    // word -> rules using it
    let mut uses: BTreeMap<String, Vec<&GrammarRule>> = BTreeMap::new();
    for r in &rules {
        // `rule_start` only names words a compass name may not be, as `keyword` does.
        if r.name.starts_with("kw_") || r.name == "keyword" || r.name == "rule_start" {
            continue;
        }
        let (literals, names) = tokens(&r.body);
        let mut words: Vec<String> = literals.into_iter().filter(|w| is_word(w)).collect();
        words.extend(
            names
                .iter()
                .filter_map(|n| n.strip_prefix("kw_"))
                .map(|w| w.replace('_', "-")),
        );
        for w in words {
            let list = uses.entry(w).or_default();
            if !list.iter().any(|u| u.name == r.name) {
                list.push(r);
            }
        }
    }
    let mut out = String::from(
        "# Word index\n\n\
         Every fixed word of the variant language: where it may appear, what it means there,\n\
         and the section of the [language reference](language.md) that tells more. Words\n\
         marked *reserved* can never name a piece, player or option; the others can, but\n\
         are better left to the language.\n\n\
         This page is generated from the `///` comments of `grammar/variant.pest`, one row\n\
         for each rule that uses the word; the tests fail when it is out of date\n\
         (`VARIANTLAB_WRITE_DOCS=1 cargo test --release --test suite word_index::` writes\n\
         it anew). A word's meaning is the rule's: where a rule holds several words, read\n\
         the row as the meaning of the phrase.\n\n\
         | word | where | meaning | more |\n| --- | --- | --- | --- |\n",
    );
    for (word, rules_using) in &uses {
        for r in rules_using {
            let up = ancestors(&r.name);
            let mut places: Vec<&str> = up
                .iter()
                .filter_map(|a| STATEMENTS.iter().find(|(n, _)| n == a).map(|(_, s)| *s))
                .collect();
            places.dedup();
            let section = up
                .iter()
                .find_map(|a| SECTIONS.iter().find(|(n, _)| n == a).map(|(_, s)| *s))
                .unwrap_or("2-how-a-file-is-written");
            let mark = if reserved.contains(word) {
                " (reserved)"
            } else {
                ""
            };
            out.push_str(&format!(
                "| `{word}`{mark} | {} (`{}`) | {} | [§](language.md#{section}) |\n",
                if places.is_empty() {
                    "anywhere".to_string()
                } else {
                    places.join(", ")
                },
                r.name,
                first_sentence(&r.doc),
            ));
        }
    }
    out
}

#[test]
fn the_word_index_is_generated_from_the_grammar() {
    let path = root().join("docs/words.md");
    let generated = generate();
    if std::env::var_os("VARIANTLAB_WRITE_DOCS").is_some() {
        std::fs::write(&path, &generated).expect("writes docs/words.md");
    }
    assert!(
        read(&path) == generated,
        "docs/words.md is out of date; `VARIANTLAB_WRITE_DOCS=1 cargo test --release --test suite word_index::` writes it"
    );
}

#[test]
fn every_word_of_the_grammar_has_an_entry() {
    let index = read(&root().join("docs/words.md"));
    let mut words: BTreeSet<String> = variantlab::syntax::words()
        .iter()
        .map(|w| w.to_string())
        .collect();
    words.extend(
        grammar_rules()
            .iter()
            .filter_map(|r| r.name.strip_prefix("kw_"))
            .map(|w| w.replace('_', "-")),
    );
    assert!(words.len() >= 140, "only {} words", words.len());
    let missing: Vec<&String> = words
        .iter()
        .filter(|w| {
            !index.contains(&format!("\n| `{w}` "))
                && !index.contains(&format!("\n| `{w}` (reserved) "))
        })
        .collect();
    assert!(missing.is_empty(), "words without an entry: {missing:?}");
}

#[test]
fn every_rule_that_uses_a_word_is_documented_and_placed() {
    let rules = grammar_rules();
    let language = anchors(&read(&root().join("docs/language.md")));
    for (rule, section) in SECTIONS {
        assert!(rules.iter().any(|r| r.name == *rule), "no rule {rule}");
        assert!(
            language.iter().any(|a| a == section),
            "no section #{section}"
        );
    }
    for r in &rules {
        if !r.name.starts_with("kw_") && (r.body.contains('"') || r.body.contains("kw_")) {
            assert!(
                !r.doc.is_empty(),
                "the rule {} has no `///` comment",
                r.name
            );
        }
    }
}

#[test]
fn the_reserved_words_of_the_reference_are_the_grammars() {
    let rules = grammar_rules();
    let keyword = rules
        .iter()
        .find(|r| r.name == "keyword")
        .expect("the keyword rule");
    let grammar: BTreeSet<String> = tokens(&keyword.body).0.into_iter().collect();
    let language = read(&root().join("docs/language.md"));
    let list = language
        .split("cannot be used as names")
        .nth(1)
        .and_then(|rest| rest.split("```text\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .expect("the reserved list in section 2");
    let listed: BTreeSet<String> = list.split_whitespace().map(str::to_string).collect();
    assert_eq!(
        listed, grammar,
        "section 2's reserved words differ from the grammar's"
    );
}
