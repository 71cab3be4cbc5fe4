//! The word index, docs/words.md, generated from the grammar's `///` comments: every
//! fixed word of the language, where it may appear, what the rule using it means and
//! the section of the reference that tells more. `VARIANTLAB_WRITE_DOCS=1` rewrites the
//! file; otherwise a stale or incomplete index fails. Each row links to the section of
//! docs/language.md holding the rule's example phrases (unless [`SECTIONS`] says
//! otherwise), and that section must name the word. docs/statements.md shows every
//! top-level statement of the grammar.

use crate::common;
use crate::docs::{Block, anchors, blocks_of, read};

use common::root;
use std::collections::{BTreeMap, BTreeSet};
use variantlab::grammar::parses_as;

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

/// Sections chosen by hand where [`section_of`] would choose another: for a rule and
/// every rule under it that has no example phrase of its own.
const SECTIONS: &[(&str, &str)] = &[
    ("fort", "forts"),
    ("obligation_stmt", "compulsory-capture"),
    ("preference", "16g-captures-by-jumping-draughts"),
    ("preferred_kinds", "16g-captures-by-jumping-draughts"),
    ("board_stmt", "4-the-board"),
    ("square_shape", "square-boards"),
    ("hexagon_shape", "hexagonal-boards"),
    ("orientation", "hexagonal-boards"),
    ("parallelogram_shape", "parallelograms-of-hexagons"),
    ("coordinates_stmt", "5-coordinates"),
    ("line_family", "5-coordinates"),
    ("guard", "9-options-and-guards"),
    ("move_stmt", "12-moves"),
    ("direct", "direct"),
    ("directions", "directions"),
    ("direction_union", "directions"),
    ("qualifier", "qualifiers"),
    ("tagged", "clauses"),
    ("nearby", "clauses"),
    ("piece_word", "hurdles"),
    ("within_zone", "moves-within-a-zone"),
    ("setup_stmt", "15-the-setup"),
    ("setup_diagram", "by-diagram"),
    ("setup_random", "random-setups"),
    ("hand_pieces", "hands"),
    ("hand_option", "hands"),
    ("wall_then", "16e-walls-trails-removed-cells-and-arrows"),
    ("checkmate", "16-how-the-game-ends"),
    ("count_bare", "counting-moves-to-a-draw"),
    ("zone_far", "zones"),
    ("castle_part", "castling"),
    ("check_word", "drop-restrictions"),
    ("drops_stmt", "rules-on-every-drop"),
    ("gates_stmt", "gates"),
    ("promotion_limit", "promotion"),
    ("explode_except", "explosions"),
    ("counterstrike_stmt", "the-lion-trading-rules"),
    ("guarded_capture", "14-capture-restrictions-and-safety"),
];

/// A piece of code in a section of docs/language.md, and how it stands there.
struct Code {
    text: String,
    /// In the first cell of a table row: the row is about it.
    lead: bool,
    /// A line of a fenced block, not a span in the prose.
    block: bool,
    /// The sections the prose around it links to.
    links: Vec<String>,
}

/// A section of docs/language.md, from its heading to the next heading.
pub struct Section {
    pub anchor: String,
    level: usize,
    code: Vec<Code>,
}

/// The code spans of a markdown text, blanks collapsed.
fn spans(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The local links (`](#anchor)`) of a markdown text.
fn links(text: &str) -> Vec<String> {
    text.split("](#")
        .skip(1)
        .filter_map(|t| t.split(')').next())
        .map(str::to_string)
        .collect()
}

/// The cells of a table row, `|` inside code spans aside.
fn cells(row: &str) -> Vec<String> {
    let (mut out, mut cell, mut code) = (Vec::new(), String::new(), false);
    for c in row.trim().trim_matches('|').chars() {
        match c {
            '`' => (code, cell) = (!code, cell + "`"),
            '|' if !code => out.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
    }
    out.push(cell);
    out
}

/// The sections of a markdown text, each with the code it holds.
pub fn sections(text: &str) -> Vec<Section> {
    let mut names = anchors(text).into_iter();
    let mut out: Vec<Section> = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let mut fenced = false;
    let flush = |paragraph: &mut Vec<&str>, out: &mut Vec<Section>| {
        let text = paragraph.join(" ");
        paragraph.clear();
        if let Some(s) = out.last_mut() {
            let links = links(&text);
            s.code.extend(spans(&text).into_iter().map(|text| Code {
                text,
                lead: false,
                block: false,
                links: links.clone(),
            }));
        }
    };
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            flush(&mut paragraph, &mut out);
            fenced = !fenced;
        } else if fenced {
            if let Some(s) = out.last_mut() {
                s.code.push(Code {
                    text: t.to_string(),
                    lead: false,
                    block: true,
                    links: Vec::new(),
                });
            }
        } else if line.starts_with('#') {
            flush(&mut paragraph, &mut out);
            out.push(Section {
                anchor: names.next().expect("an anchor a heading"),
                level: line.len() - line.trim_start_matches('#').len(),
                code: Vec::new(),
            });
        } else if t.starts_with('|') {
            flush(&mut paragraph, &mut out);
            let links = links(t);
            for (i, cell) in cells(t).iter().enumerate() {
                for text in spans(cell) {
                    let lead = i == 0;
                    if let Some(s) = out.last_mut() {
                        s.code.push(Code {
                            text,
                            lead,
                            block: false,
                            links: links.clone(),
                        });
                    }
                }
            }
        } else {
            if t.is_empty() || t.starts_with("- ") {
                flush(&mut paragraph, &mut out);
            }
            paragraph.push(t);
        }
    }
    flush(&mut paragraph, &mut out);
    out
}

/// Whether `word` stands in `text` as a word of its own.
fn has_word(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    text.match_indices(word)
        .any(|(i, _)| !text[..i].ends_with(part) && !text[i + word.len()..].starts_with(part))
}

/// Whether a section names `word` in its code: a code span, a phrase quoted in one, or
/// a line of an example.
pub fn mentions(section: &Section, word: &str) -> bool {
    section.code.iter().any(|c| has_word(&c.text, word))
}

/// The example phrases of a rule's comment: its code spans, cut at `...`.
fn phrases(doc: &str) -> Vec<String> {
    spans(doc)
        .iter()
        .flat_map(|s| {
            s.split("...")
                .map(|p| p.trim_matches([' ', ',', ':']).to_string())
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// The words of a rule made of fixed words only (`no legal move`), in order.
fn fixed_words(body: &str) -> Option<String> {
    let (literals, names) = tokens(body);
    let fixed = names
        .iter()
        .all(|n| n.starts_with("kw_") || n == "word_char")
        && literals.iter().all(|l| is_word(l));
    let mut words = Vec::new();
    for (i, part) in body.split('"').enumerate() {
        if i % 2 == 1 {
            words.push(part.to_string());
        } else {
            words.extend(
                tokens(part)
                    .1
                    .iter()
                    .filter_map(|n| n.strip_prefix("kw_"))
                    .map(|w| w.replace('_', "-")),
            );
        }
    }
    (fixed && !words.is_empty()).then(|| words.join(" "))
}

/// The section that tells most about some of `phrases` and names every one of `words`:
/// where a phrase leads a table row or is linked from one (3), or else stands in the
/// prose and in an example (1 each); then the deeper section, then the earlier.
fn best_section(sections: &[Section], phrases: &[String], words: &[&str]) -> Option<String> {
    // (section, phrase) -> (leads a row or is linked from one, in prose, in an example)
    let mut found: BTreeMap<(usize, &str), (bool, bool, bool)> = BTreeMap::new();
    for (i, s) in sections.iter().enumerate() {
        for phrase in phrases {
            for c in s.code.iter().filter(|c| c.text.contains(phrase.as_str())) {
                let targets: Vec<usize> = c
                    .links
                    .iter()
                    .filter_map(|l| sections.iter().position(|t| t.anchor == *l))
                    .collect();
                for &t in &targets {
                    found.entry((t, phrase)).or_default().0 = true;
                }
                if targets.is_empty() {
                    let f = found.entry((i, phrase)).or_default();
                    f.0 |= c.lead;
                    f.1 |= !c.block;
                    f.2 |= c.block;
                }
            }
        }
    }
    let mut score: BTreeMap<usize, usize> = BTreeMap::new();
    for ((i, _), (lead, prose, block)) in found {
        *score.entry(i).or_default() += if lead {
            3
        } else {
            usize::from(prose) + usize::from(block)
        };
    }
    score
        .into_iter()
        .filter(|(i, _)| words.iter().all(|w| mentions(&sections[*i], w)))
        .max_by_key(|&(i, v)| (v, sections[i].level, std::cmp::Reverse(i)))
        .map(|(i, _)| sections[i].anchor.clone())
}

/// The section of docs/language.md that tells about `rule`'s `words`: an entry of
/// [`SECTIONS`] or the section holding the example phrases, of the rule or else of the
/// nearest rule using it; failing those, the section holding the rule's own words, when
/// it is made of fixed words only.
fn section_of(
    rule: &str,
    words: &[&str],
    ancestors: &[String],
    by_name: &BTreeMap<&str, &GrammarRule>,
    sections: &[Section],
) -> Option<String> {
    for a in ancestors {
        if let Some((_, s)) = SECTIONS.iter().find(|(n, _)| n == a) {
            return Some(s.to_string());
        }
        if let Some(s) = best_section(sections, &phrases(&by_name[a.as_str()].doc), words) {
            return Some(s);
        }
    }
    let own: Vec<String> = fixed_words(&by_name[rule].body).into_iter().collect();
    best_section(sections, &own, words)
}

/// What top-level statements are called in the index's `where` column where their
/// comment's first example would not do.
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
    (
        "counterstrike_stmt",
        "`after a Lion is captured by another kind`",
    ),
    ("checks_stmt", "`checks are forbidden`"),
    ("clock_stmt", "`position strings count plies since`"),
    ("flip_stmt", "`... change sides` or `... are captured`"),
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
    let language = sections(&read(&root().join("docs/language.md")));
    let statements = statement_rules(&rules);
    // rule -> the words it has rows for
    let mut words_of: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (word, rules_using) in &uses {
        for r in rules_using {
            words_of.entry(&r.name).or_default().push(word);
        }
    }
    for (word, rules_using) in &uses {
        for r in rules_using {
            let up = ancestors(&r.name);
            let mut places: Vec<String> = up
                .iter()
                .filter(|a| statements.contains(a))
                .map(|a| statement_label(by_name[a.as_str()]))
                .collect();
            places.dedup();
            let section = section_of(
                &r.name,
                &words_of[r.name.as_str()],
                &up,
                &by_name,
                &language,
            )
            .unwrap_or_else(|| panic!("no section of docs/language.md tells about `{}`", r.name));
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

/// The top-level statements: the alternatives of the grammar's `statement` rule.
fn statement_rules(rules: &[GrammarRule]) -> Vec<String> {
    let statement = rules
        .iter()
        .find(|r| r.name == "statement")
        .expect("the statement rule");
    tokens(&statement.body)
        .1
        .into_iter()
        .filter(|n| rules.iter().any(|r| r.name == *n))
        .collect()
}

/// What a statement is called in the index's `where` column: its entry in
/// [`STATEMENTS`], or its comment's first example up to a colon, or its first word.
fn statement_label(rule: &GrammarRule) -> String {
    if let Some((_, label)) = STATEMENTS.iter().find(|(n, _)| *n == rule.name) {
        return label.to_string();
    }
    match spans(&rule.doc).first() {
        Some(example) => format!("`{}`", example.split(':').next().unwrap_or(example)),
        None => format!("`{} ...`", rule.name.trim_end_matches("_stmt")),
    }
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
    let mut words: BTreeSet<String> = variantlab::grammar::words()
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

/// The rows of docs/words.md: the word and the anchor its link leads to.
fn index_rows() -> Vec<(String, String)> {
    read(&root().join("docs/words.md"))
        .lines()
        .filter_map(|l| {
            let word = l.strip_prefix("| `")?.split('`').next()?;
            let anchor = l.split("](language.md#").nth(1)?.split(')').next()?;
            Some((word.to_string(), anchor.to_string()))
        })
        .collect()
}

#[test]
fn every_link_of_the_index_leads_to_a_section_that_names_the_word() {
    let language = sections(&read(&root().join("docs/language.md")));
    let rows = index_rows();
    assert!(rows.len() >= 500, "only {} rows", rows.len());
    let mut wrong = Vec::new();
    for (word, anchor) in &rows {
        match language.iter().find(|s| s.anchor == *anchor) {
            None => wrong.push(format!("`{word}`: no section #{anchor}")),
            Some(s) if !mentions(s, word) => {
                wrong.push(format!("`{word}`: #{anchor} does not name it"))
            }
            Some(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // A section ends at the next heading, whatever its level.
    let two = sections("## A\n`x`\n### B\ntext\n");
    assert!(mentions(&two[0], "x") && !mentions(&two[1], "x"));
    assert!(!has_word("checkmate", "check") && has_word("no drop giving check", "check"));
}

/// The examples of docs/statements.md, one statement a block, each with the link the
/// text before it gives.
fn statement_examples() -> Vec<(Block, Option<String>)> {
    let path = root().join("docs/statements.md");
    let text = read(&path);
    let lines: Vec<&str> = text.lines().collect();
    blocks_of(&path)
        .into_iter()
        .filter(|b| b.kind() == "variant")
        .map(|b| {
            let link = lines[..b.line - 1]
                .iter()
                .rev()
                .find(|l| l.contains("](language.md#"))
                .and_then(|l| l.split("](language.md#").nth(1))
                .and_then(|l| l.split(')').next())
                .map(str::to_string);
            (b, link)
        })
        .collect()
}

#[test]
fn the_statement_page_shows_every_statement_with_its_section() {
    let statements = statement_rules(&grammar_rules());
    assert!(statements.len() >= 25, "{statements:?}");
    let examples = statement_examples();
    let language = sections(&read(&root().join("docs/language.md")));
    let missing: Vec<&String> = statements
        .iter()
        .filter(|s| !examples.iter().any(|(b, _)| parses_as(s, &b.text)))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/statements.md shows no {missing:?}"
    );
    for (b, link) in &examples {
        let first = b.text.split_whitespace().next().unwrap_or("");
        let section = link
            .as_ref()
            .and_then(|a| language.iter().find(|s| s.anchor == *a));
        assert!(
            statements.iter().any(|s| parses_as(s, &b.text)),
            "{}: not one whole statement",
            b.place()
        );
        assert!(
            section.is_some_and(|s| mentions(s, first)),
            "{}: its link {link:?} leads to no section of language.md naming `{first}`",
            b.place()
        );
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
