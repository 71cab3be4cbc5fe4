//! Turns pest's errors into diagnostics that say what was expected in words.

use super::Rule;
use super::Span;
use super::VariantParser;
use crate::diagnostic::Diagnostic;
use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};

/// Words that begin a top-level statement; parsing resumes at a line starting with one.
const TOP_LEVEL: &[&str] = &[
    "name",
    "inventor",
    "description",
    "board",
    "coordinates",
    "holes",
    "player",
    "option",
    "tag",
    "piece",
    "setup",
    "game",
    "zone",
    "castling",
    "captured",
    "captures",
    "checks",
    "royal",
    "position",
    "players",
    "pieces",
    "enclosed",
    "enemy",
    "after",
    "counting",
];

/// Longest part of a found word quoted in a message; a longer one is cut.
const QUOTED: usize = 40;

/// A word as messages quote it: whole when short, cut with `...` when long.
pub(super) fn shown(word: &str) -> String {
    match word.char_indices().nth(QUOTED) {
        Some((i, _)) => format!("{}...", &word[..i]),
        None => word.to_string(),
    }
}

/// Where a pest error really is: the furthest of where a rule failed and where a token
/// was last tried, unless that token was cut out of the middle of a word.
fn error_position(e: &pest::error::Error<Rule>) -> usize {
    let at = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    at.max(e.parse_attempts().map_or(0, |a| a.max_position))
}

/// Describes the syntax error `e`, found parsing `text` from `offset` on.
pub(super) fn describe(e: &pest::error::Error<Rule>, text: &str, offset: usize) -> Diagnostic {
    let at = offset
        + match e.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((s, _)) => s,
        };
    if let Some(d) = retired(text, at) {
        return d;
    }
    let mut pos = offset
        + match e.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((s, _)) => s,
        };
    // Pest places the error where a rule last failed; a missing `)` or `:`, or a word
    // after one that was taken, is further on.
    let (further, marks, words) = furthest(e);
    let further = further + offset;
    let inside_word = |at: usize| {
        let b = text.as_bytes();
        at > 0 && at < b.len() && is_word_byte(b[at - 1]) && is_word_byte(b[at])
    };
    let mut rules_expected = true;
    if further > pos && !(marks.is_empty() && words.is_empty()) && !inside_word(further) {
        pos = further;
        rules_expected = false;
    }
    let found = found_at(text, pos);
    // Inside a word: the parser took a keyword's letters and stopped, as in `stepp`.
    let word_start = text[..pos]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word_char(*c))
        .last()
        .map_or(pos, |(i, _)| i);
    let (found, span) = if word_start < pos && found.starts_with(is_word_char) {
        let end = pos + found.len();
        (
            text[word_start..end].to_string(),
            Span::new(word_start, end),
        )
    } else {
        (found.clone(), Span::new(pos, pos + found.len()))
    };
    let marks_here: Vec<String> = if pos == further {
        marks.clone()
    } else {
        vec![]
    };
    let (message, label) = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut wanted: Vec<String> = marks_here.clone();
            if pos == further {
                wanted.extend(words.iter().map(|w| format!("`{w}`")));
            }
            let mut described: Vec<String> = if rules_expected {
                positives.iter().map(|r| expected(*r)).collect()
            } else {
                vec![]
            };
            described.sort();
            for w in described {
                if !wanted.contains(&w) && !covered(&w, &wanted) {
                    wanted.push(w);
                }
            }
            // Rules with no words of their own add nothing to a list of what fits.
            let mut wanted: Vec<&str> = wanted.iter().map(String::as_str).collect();
            if wanted.len() > 1 {
                wanted.retain(|w| *w != SOMETHING_ELSE);
            }
            let wanted = join_or(&wanted);
            if found.is_empty() {
                (
                    format!("expected {wanted}, but the file ends here"),
                    "the file ends here",
                )
            } else {
                (
                    format!("expected {wanted}, found `{}`", shown(&found)),
                    "not expected here",
                )
            }
        }
        ErrorVariant::CustomError { message } => (message.clone(), ""),
    };
    let mut d = Diagnostic::error("variantlab::syntax", span, message).label(label);
    let region_start =
        statement_start_before(text, offset, span.start.saturating_sub(1)).unwrap_or(offset);
    let region_end = resume_point(text, region_start, span.start).unwrap_or(text.len());
    let open = unclosed(text, region_start, region_end);
    if let Some((opened, what)) = open {
        // The parser stops at the opening quotes themselves: nothing else is wrong.
        if what == "`\"\"\"`" && (opened.start..opened.end).contains(&span.start) {
            return Diagnostic::error(
                "variantlab::syntax",
                opened,
                "this text in `\"\"\"` is never closed",
            )
            .label("opened here")
            .help("end the text with `\"\"\"`");
        }
        if what == "`{`"
            && let Some(better) = unclosed_block(text, region_start, region_end, opened, span)
        {
            return better;
        }
        d = d.also(opened, format!("this {what} is never closed"));
    }
    if let Some(better) = comma_between_entries(text, region_start, span.start) {
        return better;
    }
    if let Some(better) = dangling_comma(text, span.start) {
        return better;
    }
    // Where a new statement is what fits, a `,` tries to add a clause to a complete one.
    let new_statement = words
        .iter()
        .filter(|w| TOP_LEVEL.contains(&w.as_str()))
        .count()
        > TOP_LEVEL.len() / 2;
    if found.starts_with(',') && new_statement {
        return Diagnostic::error(
            "variantlab::syntax",
            span,
            "the statement is already complete before this `,`",
        )
        .label("nothing more fits here")
        .help("this form of the statement takes no more clauses: remove what follows, or start a new statement on its own line");
    }
    if let Some(better) = joined_cells(text, region_start, region_end, span) {
        return better;
    }
    // A near spelling of a word that fits reads better than a mark inserted after it
    // (`an unatacked King`: not `unatacked: King`).
    if let Some(mut better) = misspelt(
        text,
        region_start,
        region_end,
        span,
        offset + error_position(e),
    ) {
        better.also = d.also;
        return better;
    }
    if span.start == pos
        && let Some(mut better) = missing_mark(text, region_start, region_end, span, &marks_here)
    {
        better.also = d.also;
        return better;
    }
    if !found.is_empty() && at_line_start(text, span.start) && words.is_empty() && open.is_none() {
        let word = found.as_str();
        if brace_depth(&text[region_start..span.start]) == 0 && !TOP_LEVEL.contains(&word) {
            d = d.help(format!(
                "a statement starts with one of `{}`",
                TOP_LEVEL.join("`, `")
            ));
        }
    }
    d
}

/// Whether a description of what fits (`` `entering` or `moving ...` ``) only repeats
/// words the list already names: each of its quoted examples starts with one of them.
fn covered(description: &str, listed: &[String]) -> bool {
    let examples: Vec<&str> = description.split('`').skip(1).step_by(2).collect();
    !examples.is_empty()
        && examples.iter().all(|x| {
            let first = x.split_whitespace().next().unwrap_or("");
            listed.iter().any(|l| l.trim_matches('`') == first)
        })
}

/// Line and column (from 1, in characters) of a byte offset.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// A block whose `{` is still open where the next statement starts, or where the file
/// ends: names the block and where it opened.
fn unclosed_block(
    text: &str,
    statement: usize,
    end: usize,
    opened: Span,
    at: Span,
) -> Option<Diagnostic> {
    // Where `}` goes: before the first statement line past the `{`, or at the end.
    let close = if at.start >= text.len() {
        text.len()
    } else {
        statement_lines(text, opened.end)
            .map(|(line, _)| line)
            .find(|line| *line <= at.start)?
    };
    let next = word_at(text, close);
    if !reads_past(text, statement, end, close, "} ", at.end.max(next.end)) {
        return None;
    }
    // The block's heading as written, such as `piece Panthan (PN)` or `game ends`.
    let heading: Vec<&str> = text[statement..opened.start]
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let (line, column) = line_column(text, opened.start);
    let (label, before) = if next.is_empty() {
        ("the file ends here", "at the end of the file".to_string())
    } else {
        (
            "`}` expected before this",
            format!("before line {}", line_column(text, close).0),
        )
    };
    Some(
        Diagnostic::error(
            "variantlab::syntax",
            next,
            format!(
                "the block of `{}` is never closed",
                shown(&heading.join(" "))
            ),
        )
        .label(label)
        .also(opened, "opened here")
        .help(format!(
            "add `}}` to close the block opened at {line}:{column}, {before}"
        )),
    )
}

/// A mark the grammar expects at the error (`,`, `:`, `)` ...) that, written before the
/// word found there, lets the statement read on past it.
fn missing_mark(
    text: &str,
    start: usize,
    end: usize,
    at: Span,
    marks: &[String],
) -> Option<Diagnostic> {
    if at.is_empty() {
        return None;
    }
    let found = &text[at.start..at.end];
    // A mark that opens something (`(`, `"`) would need its partner too.
    let opens = |m: &str| m.starts_with(['(', '{', '[', '"']);
    let mark = marks
        .iter()
        .map(|m| m.trim_matches('`'))
        .filter(|m| !m.is_empty() && !opens(m))
        .find(|m| reads_past(text, start, end, at.start, &format!("{m} "), at.end))?;
    // Commas, colons and closing marks follow a word directly; others stand apart.
    let gap = if mark.starts_with([',', ':', ';', ')', '}', ']']) {
        ""
    } else {
        " "
    };
    let fixed = match word_before(text, at.start) {
        Some(w) if text[w.end..at.start].trim().is_empty() => {
            format!("`{}{gap}{mark} {}`", &text[w.start..w.end], shown(found))
        }
        _ => format!("`{mark} {}`", shown(found)),
    };
    Some(
        Diagnostic::error(
            "variantlab::syntax",
            at,
            format!("missing `{mark}` before `{}`", shown(found)),
        )
        .label(format!("add `{mark}` before this"))
        .help(format!("write {fixed}")),
    )
}

/// Whether the statement between `start` and `end`, with `insert` written at `at`,
/// parses past `past`.
fn reads_past(text: &str, start: usize, end: usize, at: usize, insert: &str, past: usize) -> bool {
    let changed = format!("{}{insert}{}", &text[start..at], &text[at..end]);
    match VariantParser::parse(Rule::file, &changed) {
        Ok(_) => true,
        Err(e) => error_position(&e) > past + insert.len() - start,
    }
}

/// Whether a word is a cell name, as the grammar reads one.
fn is_cell(word: &str) -> bool {
    VariantParser::parse(Rule::cell, word)
        .is_ok_and(|mut p| p.next().is_some_and(|p| p.as_str() == word))
}

/// A word between two cells (`a2 to g2`) where the grammar lists cells one by one:
/// says so, and lists the cells between when their names make that plain.
fn joined_cells(text: &str, start: usize, end: usize, at: Span) -> Option<Diagnostic> {
    if at.start >= text.len() {
        return None;
    }
    // The error may stand just past the word, where the parser tried to read on.
    let w = match word_at(text, at.start) {
        w if !w.is_empty() => w,
        _ => word_before(text, at.start)?,
    };
    let first = word_before(text, w.start)?;
    let rest = &text[w.end..];
    let second = word_at(
        text,
        w.end + rest.len() - rest.trim_start_matches([' ', '\t']).len(),
    );
    let (a, b) = (
        &text[first.start..first.end],
        &text[second.start..second.end],
    );
    if w.is_empty() || !is_cell(a) || !is_cell(b) || !text[first.end..w.start].trim().is_empty() {
        return None;
    }
    // Without the word, the cells read on.
    if !fits(text, start, end, w, "", second.end) {
        return None;
    }
    let word = &text[w.start..w.end];
    let help = match cells_between(a, b) {
        Some(cells) => format!("list every cell: `{}`", cells.join(" ")),
        None => format!("list every cell from `{a}` to `{b}`, one after another"),
    };
    Some(
        Diagnostic::error(
            "variantlab::syntax",
            w,
            format!(
                "`{}` does not join cells here: cells are listed one by one",
                shown(word)
            ),
        )
        .label("not a range of cells")
        .help(help),
    )
}

/// The most cells [`cells_between`] lists.
const LONGEST_RUN: usize = 26;

/// The cells from `a` to `b` when both names share their letters or their number and
/// the other part counts along (`a2` to `e2`, `c1` to `c4`).
fn cells_between(a: &str, b: &str) -> Option<Vec<String>> {
    let split = |c: &str| {
        let digits_first = c.starts_with(|ch: char| ch.is_ascii_digit());
        let cut = c
            .find(|ch: char| ch.is_ascii_digit() != digits_first)
            .unwrap_or(c.len());
        let (x, y) = c.split_at(cut);
        if digits_first {
            (y.to_string(), x.to_string(), true)
        } else {
            (x.to_string(), y.to_string(), false)
        }
    };
    let (la, na, fa) = split(a);
    let (lb, nb, fb) = split(b);
    if fa != fb {
        return None;
    }
    let join = |l: &str, n: &str| {
        if fa {
            format!("{n}{l}")
        } else {
            format!("{l}{n}")
        }
    };
    let run = |from: u32, to: u32| -> Vec<u32> {
        if from <= to {
            (from..=to).collect()
        } else {
            (to..=from).rev().collect()
        }
    };
    let cells: Vec<String> = if la == lb {
        let (x, y) = (na.parse::<u32>().ok()?, nb.parse::<u32>().ok()?);
        run(x, y)
            .into_iter()
            .map(|n| join(&la, &n.to_string()))
            .collect()
    } else if na == nb && la.len() == 1 && lb.len() == 1 {
        let (x, y) = (u32::from(la.as_bytes()[0]), u32::from(lb.as_bytes()[0]));
        run(x, y)
            .into_iter()
            .filter_map(char::from_u32)
            .map(|c| join(&c.to_string(), &na))
            .collect()
    } else {
        return None;
    };
    (cells.len() >= 2 && cells.len() <= LONGEST_RUN).then_some(cells)
}

/// A comma written between two players' entries of a `setup` or `zone` block (`White:
/// King e1, Black: King e8`), where commas only separate one player's pieces or cells.
fn comma_between_entries(text: &str, statement: usize, at: usize) -> Option<Diagnostic> {
    let keyword = word_at(text, statement);
    let block = &text[keyword.start..keyword.end];
    if !matches!(block, "setup" | "zone") || at >= text.len() {
        return None;
    }
    let before = text[..at].trim_end();
    let (comma, entry) = if before.ends_with(',') {
        (before.len() - 1, at)
    } else {
        let w = word_at(text, at);
        if !text[w.end..].starts_with(',') {
            return None;
        }
        let rest = &text[w.end + 1..];
        (w.end, w.end + 1 + rest.len() - rest.trim_start().len())
    };
    let name = word_at(text, entry);
    let after = text[name.end..].trim_start();
    if name.is_empty() || !text[entry..].starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    if !after.starts_with(':') || block_depth_at(text, statement, comma) == 0 {
        return None;
    }
    let player = &text[name.start..name.end];
    let (what, example) = if block == "zone" {
        ("cells", "`White: a8 b8` then `Black: a1 b1`")
    } else {
        ("pieces", "`White: King e1, Tower h1` then `Black: King e8`")
    };
    Some(
        Diagnostic::error(
            "variantlab::syntax",
            Span::new(comma, comma + 1),
            format!("a comma cannot come before `{}:`, another player's entry", shown(player)),
        )
        .label("remove this comma")
        .help(format!(
            "commas separate one player's {what}; players' entries follow one another with nothing between them, usually one a line: {example}"
        )),
    )
}

/// A `,` at the end of a line followed by a new statement (the error at `at` is on that
/// statement's line): the comma asks for one more clause that never comes.
fn dangling_comma(text: &str, at: usize) -> Option<Diagnostic> {
    let line_start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    if !starts_statement(&text[line_start..]) {
        return None;
    }
    let before = text[..line_start].trim_end();
    let comma = before.strip_suffix(',')?.len();
    Some(
        Diagnostic::error(
            "variantlab::syntax",
            Span::new(comma, comma + 1),
            "a `,` here must be followed by another clause of the statement",
        )
        .label("no clause follows this comma")
        .help("remove the `,` if the statement ends here, or write its next clause after it"),
    )
}

/// How many `{` are open at `at`, counted from `from`.
fn block_depth_at(text: &str, from: usize, at: usize) -> i32 {
    brace_depth(&text[from..at])
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_'
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b >= 0x80
}

fn at_line_start(text: &str, pos: usize) -> bool {
    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..pos].trim().is_empty()
}

/// The word of `text` that starts at `start`.
fn word_at(text: &str, start: usize) -> Span {
    let len = text[start..]
        .char_indices()
        .find(|(_, c)| !is_word_char(*c))
        .map_or(text.len() - start, |(i, _)| i);
    Span::new(start, start + len)
}

/// The word before `pos`, skipping blanks only.
fn word_before(text: &str, pos: usize) -> Option<Span> {
    let before = text[..pos].trim_end_matches([' ', '\t', '\r', '\n']);
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word_char(*c))
        .last()?
        .0;
    Some(Span::new(start, before.len()))
}

/// A misspelt word at the error, or just before it: a word with look-alike letters, or
/// one a grammar word would replace so that the parse gets further. The diagnostic
/// points at that word.
fn misspelt(
    text: &str,
    start: usize,
    end: usize,
    at: Span,
    failed_at: usize,
) -> Option<Diagnostic> {
    let here = (at.start < text.len()).then(|| word_at(text, at.start));
    let targets = here.into_iter().chain(word_before(text, at.start));
    for (i, w) in targets.enumerate() {
        if w.start < start || w.end > end || w.end == w.start {
            continue;
        }
        let word = &text[w.start..w.end];
        let (message, label) = if i == 0 {
            (
                format!("`{}` is not a word of the language here", shown(word)),
                "unknown word",
            )
        } else {
            (
                format!("`{}` is not a word of the language there", shown(word)),
                "unknown word",
            )
        };
        if let Some((why, fixed)) = crate::suggest::look_alike(word) {
            return Some(
                Diagnostic::error("variantlab::syntax", w, message)
                    .label("look-alike letter")
                    .help(format!("{why}: type `{fixed}` with Latin letters")),
            );
        }
        let failed = failed_at.max(w.end);
        let near = replacements(word);
        if let Some(fix) = near
            .iter()
            .take(MAX_TRIES)
            .find(|r| fits(text, start, end, w, r, failed))
        {
            return Some(
                Diagnostic::error("variantlab::syntax", w, message)
                    .label(label)
                    .help(format!("did you mean `{fix}`?")),
            );
        }
        if let Some(n) = crate::suggest::number_in_words(word)
            && fits(text, start, end, w, &n.to_string(), failed)
        {
            return Some(
                Diagnostic::error(
                    "variantlab::syntax",
                    w,
                    format!(
                        "`{}` is a number in words; numbers are written in digits",
                        shown(word)
                    ),
                )
                .label("a number goes here")
                .help(format!("write `{n}`")),
            );
        }
        // The word before the error may be the second of two words, the first missing
        // (`win` for `mover wins`).
        if i == 1
            && end - start <= WINDOW
            && let Some(fix) = phrases(text, start, w, &near)
                .into_iter()
                .take(MAX_PHRASE_TRIES)
                .find(|r| phrase_fits(text, start, end, w, r))
        {
            return Some(
                Diagnostic::error("variantlab::syntax", w, message)
                    .label(label)
                    .help(format!("did you mean `{fix}`?")),
            );
        }
    }
    None
}

/// Re-parses at most this many two-word phrases per error.
const MAX_PHRASE_TRIES: usize = 32;

/// Two-word phrases that could replace the word at `w`: a word the grammar expects where
/// it stands, then the word itself or a near spelling of it.
fn phrases(text: &str, start: usize, w: Span, near: &[String]) -> Vec<String> {
    let word = &text[w.start..w.end];
    let seconds: Vec<&str> = std::iter::once(word)
        .chain(near.iter().map(String::as_str).filter(|n| !n.contains(' ')))
        .collect();
    expected_words(text, start, w.start)
        .iter()
        .flat_map(|first| {
            seconds
                .iter()
                .map(move |second| format!("{first} {second}"))
        })
        .collect()
}

/// Whether the statement between `start` and `end` parses with `phrase` for the word at
/// `w`, the phrase read as fixed words, none of them as a name. A block with a later
/// mistake of its own is tried with the phrase's line alone inside it.
fn phrase_fits(text: &str, start: usize, end: usize, w: Span, phrase: &str) -> bool {
    let stmt = &text[start..end];
    let (from, to) = (w.start - start, w.end - start);
    if reads_with(stmt, from, to, phrase) {
        return true;
    }
    let opened = stmt.find('\n').unwrap_or(stmt.len());
    let line_start = stmt[..from].rfind('\n').map_or(0, |i| i + 1);
    let line_end = stmt[to..].find('\n').map_or(stmt.len(), |i| to + i);
    let closing = stmt.trim_end().rfind('\n').unwrap_or(0);
    if opened >= line_start || line_end >= closing {
        return false;
    }
    let alone = format!(
        "{}{}{}",
        &stmt[..=opened],
        &stmt[line_start..line_end],
        &stmt[closing..]
    );
    let shift = opened + 1;
    reads_with(
        &alone,
        from - line_start + shift,
        to - line_start + shift,
        phrase,
    )
}

/// Whether `stmt` parses with `phrase` in place of its bytes `from..to`, none of the
/// phrase's words read as a name.
fn reads_with(stmt: &str, from: usize, to: usize, phrase: &str) -> bool {
    let changed = format!("{}{phrase}{}", &stmt[..from], &stmt[to..]);
    let Ok(pairs) = VariantParser::parse(Rule::file, &changed) else {
        return false;
    };
    let end = from + phrase.len();
    !pairs.flatten().any(|p| {
        let s = p.as_span();
        p.as_rule() == Rule::ident && s.start() < end && s.end() > from
    })
}

/// The grammar's words that may stand at `at`, in the statement that starts at `start`.
fn expected_words(text: &str, start: usize, at: usize) -> Vec<String> {
    let Err(e) = VariantParser::parse(Rule::file, &text[start..at]) else {
        return vec![];
    };
    let (reached, _, words) = furthest(&e);
    if start + reached < text[..at].trim_end().len() {
        return vec![];
    }
    words
}

/// A grammar word that fits where the word at `at` stands and is a near spelling of it,
/// with how many edits apart: the statement reads as far with it as without.
/// The fixed words of the language that may come at `at` (a byte offset, at the start
/// of the word being typed or after a blank), read from the statement that holds it.
pub fn words_at(text: &str, at: usize) -> Vec<String> {
    let at = at.min(text.len());
    if !text.is_char_boundary(at) {
        return vec![];
    }
    let start = statement_start_before(text, 0, at).unwrap_or(0);
    // A mark no rule accepts, so the parse stops exactly there and says what fits.
    let probe = format!("{}\u{1}", &text[start..at]);
    let Err(e) = VariantParser::parse(Rule::file, &probe) else {
        return vec![];
    };
    let (reached, _, words) = furthest(&e);
    if reached < at - start {
        return vec![];
    }
    words
}

/// Whether a name (of a piece, player, zone, option or direction, or a piece's code)
/// may stand at `at`, the start of a word: the statement reads on over one there.
pub fn name_fits(text: &str, at: usize) -> bool {
    // A word no rule spells, so only a rule that takes a name reads it.
    const PROBE: &str = "Qzxqvj";
    let at = at.min(text.len());
    if !text.is_char_boundary(at) {
        return false;
    }
    let start = statement_start_before(text, 0, at).unwrap_or(0);
    let probe = format!("{}{PROBE}\u{1}", &text[start..at]);
    VariantParser::parse(Rule::file, &probe)
        .err()
        .is_some_and(|e| error_position(&e) >= at - start + PROBE.len())
}

pub(super) fn word_meant(text: &str, at: Span) -> Option<(usize, String)> {
    let word = text.get(at.start..at.end)?.to_lowercase();
    let start = statement_start_before(text, 0, at.start)?;
    let end = resume_point(text, start, at.start).unwrap_or(text.len());
    // A statement that long is no draft's; re-reading it for each name would cost too much.
    if end - start > WINDOW {
        return None;
    }
    let limit = if word.chars().count() <= 4 { 1 } else { 2 };
    let mut near: Vec<(usize, String)> = expected_words(text, start, at.start)
        .into_iter()
        .filter_map(|k| crate::suggest::distance(&k, &word, limit).map(|d| (d, k)))
        .filter(|(d, _)| *d > 0)
        .collect();
    near.sort();
    let reached = |changed: &str| match VariantParser::parse(Rule::file, changed) {
        Ok(_) => changed.len(),
        Err(e) => error_position(&e),
    };
    let before = reached(&text[start..end]);
    near.into_iter().find(|(_, k)| {
        let changed = format!("{}{k}{}", &text[start..at.start], &text[at.end..end]);
        let shift = k.len() as isize - at.len() as isize;
        reached(&changed) as isize >= before as isize + shift
    })
}

/// Re-parses at most this many replacements per error.
const MAX_TRIES: usize = 8;

/// Grammar words that could have been meant by `word`, closest first: near spellings,
/// and a word run into the next (`ordiagonal` for `or diagonal`).
fn replacements(word: &str) -> Vec<String> {
    let limit = if word.chars().count() <= 4 { 1 } else { 2 };
    // (edits, whether the word is split in two, the replacement): a misspelt word
    // (`orthoganal`) is tried before a split at a keyword (`or thoganal`).
    let mut found: Vec<(usize, bool, String)> = super::keywords::words()
        .iter()
        .filter_map(|k| crate::suggest::distance(k, word, limit).map(|d| (d, false, k.to_string())))
        .filter(|(d, ..)| *d > 0)
        .collect();
    let is_word = super::keywords::words().contains(&word);
    for k in super::keywords::words().iter().filter(|_| !is_word) {
        if let Some(rest) = word.strip_prefix(k)
            && rest.starts_with(|c: char| c.is_alphanumeric())
        {
            found.push((1, true, format!("{k} {rest}")));
        }
    }
    found.sort();
    found.into_iter().map(|(.., w)| w).collect()
}

/// Whether the statement between `start` and `end` parses further than `failed` with
/// the word at `w` replaced.
fn fits(text: &str, start: usize, end: usize, w: Span, replacement: &str, failed: usize) -> bool {
    let mut changed = String::with_capacity(end - start + replacement.len());
    changed.push_str(&text[start..w.start]);
    changed.push_str(replacement);
    changed.push_str(&text[w.end..end]);
    let shift = |at: usize| at + w.start + replacement.len() - w.end - start;
    match VariantParser::parse(Rule::file, &changed) {
        Ok(_) => true,
        Err(e) => error_position(&e) > shift(failed),
    }
}

/// The innermost `{`, `(` or `"""` opened between `start` and `end` and not closed
/// there, outside comments and strings.
fn unclosed(text: &str, start: usize, end: usize) -> Option<(Span, &'static str)> {
    let b = &text.as_bytes()[..end];
    let find = |from: usize, f: &dyn Fn(&[u8]) -> bool| (from..b.len()).find(|&j| f(&b[j..]));
    let mut open: Vec<(usize, u8)> = Vec::new();
    let mut i = start;
    while i < b.len() {
        if b[i..].starts_with(b"\"\"\"") {
            match find(i + 3, &|r| r.starts_with(b"\"\"\"")) {
                Some(j) => i = j + 3,
                None => return Some((Span::new(i, i + 3), "`\"\"\"`")),
            }
            continue;
        }
        match b[i] {
            b'#' => i = find(i, &|r| r[0] == b'\n').unwrap_or(b.len()),
            b'"' => i = find(i + 1, &|r| r[0] == b'"' || r[0] == b'\n').unwrap_or(b.len()),
            b'{' | b'(' => open.push((i, b[i])),
            b'}' | b')' => {
                let want = if b[i] == b'}' { b'{' } else { b'(' };
                if let Some(k) = open.iter().rposition(|(_, c)| *c == want) {
                    open.truncate(k);
                }
            }
            _ => {}
        }
        i += 1;
    }
    open.last().map(|&(at, c)| {
        let what = if c == b'{' { "`{`" } else { "`(`" };
        (Span::new(at, at + 1), what)
    })
}

/// Where the parser got furthest, the marks it wanted there (a missing `,` or `:`,
/// which pest's rule list leaves out) and the words.
fn furthest(e: &pest::error::Error<Rule>) -> (usize, Vec<String>, Vec<String>) {
    let Some(attempts) = e.parse_attempts() else {
        return (0, vec![], vec![]);
    };
    let tokens: Vec<String> = attempts
        .expected_tokens()
        .into_iter()
        .map(|t| t.to_string())
        .collect();
    let marks = tokens
        .iter()
        .filter(|t| !t.is_empty() && *t != "#" && t.chars().all(|c| c.is_ascii_punctuation()))
        .map(|t| format!("`{t}`"))
        .collect();
    let mut words: Vec<String> = tokens
        .into_iter()
        .filter(|t| super::keywords::words().contains(&t.as_str()))
        .collect();
    words.sort();
    words.dedup();
    (attempts.max_position, marks, words)
}

/// The word (or character) at a position, for messages.
fn found_at(text: &str, pos: usize) -> String {
    let rest = &text[pos.min(text.len())..];
    let word: String = rest.chars().take_while(|c| is_word_char(*c)).collect();
    if !word.is_empty() {
        return word;
    }
    rest.chars()
        .next()
        .filter(|c| !c.is_whitespace())
        .map(String::from)
        .unwrap_or_default()
}

/// How many braces are open at the end of `text`, outside comments and strings.
fn brace_depth(text: &str) -> i32 {
    let b = text.as_bytes();
    let find = |from: usize, f: &dyn Fn(&[u8]) -> bool| {
        (from..b.len()).find(|&j| f(&b[j..])).unwrap_or(b.len())
    };
    let (mut depth, mut i) = (0, 0);
    while i < b.len() {
        if b[i..].starts_with(b"\"\"\"") {
            i = (find(i + 3, &|r| r.starts_with(b"\"\"\"")) + 3).min(b.len());
            continue;
        }
        match b[i] {
            b'#' => i = find(i, &|r| r[0] == b'\n'),
            b'"' => i = find(i + 1, &|r| r[0] == b'"' || r[0] == b'\n') + 1,
            b'{' => (depth, i) = (depth + 1, i + 1),
            b'}' => (depth, i) = (depth - 1, i + 1),
            _ => i += 1,
        }
    }
    depth
}

/// What a rule without a description of its own looks like.
const SOMETHING_ELSE: &str = "something else";

fn join_or(items: &[&str]) -> String {
    match items {
        [] => SOMETHING_ELSE.into(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {}", rest.join(", "), last),
    }
}

/// What a rule looks like, in words: a fixed word as itself.
fn expected(rule: Rule) -> String {
    match super::keywords::keyword_of(rule) {
        Some(word) => format!("`{word}`"),
        None => described(rule).to_string(),
    }
}

/// What each rule that is not a fixed word looks like, in words.
fn described(rule: Rule) -> &'static str {
    use Rule::*;
    match rule {
        EOI => "the end of the file",
        file | statement => "a statement",
        name_stmt | inventor_stmt | description_stmt | board_stmt | coordinates_stmt
        | holes_stmt | player_stmt | option_stmt | tag_stmt | piece_stmt | setup_stmt
        | end_stmt => "a statement such as `piece` or `board`",
        ident | compass => "a name",
        number => "a number",
        cell => "a cell such as `e5`",
        string | short_string | long_string | short_text | long_text => "a quoted text",
        square_shape | hexagon_shape => {
            "a board shape (`square 8 by 8` or `hexagon side 6 flat-topped`)"
        }
        orientation => "`flat-topped` or `pointy-topped`",
        coordinate_part | line_family | files | ranks | lines_along => {
            "a part of a cell name such as `files lettered from the left`"
        }
        line_labels | lettered | numbered => "`lettered` or `numbered`",
        side => "a side such as `left` or `bottom`",
        of_each => "`of each file`",
        player_prop | forward_prop | letter_case => {
            "a player property (`forward north`, `capitals`, `lowercase`)"
        }
        switch => "`on` or `off`",
        mark => "a one-letter mark",
        once_per_game => "`once per game`",
        code => "a one- or two-letter code such as `PN`",
        piece_item | guard | if_kw | unless_kw => {
            "a move (`step`, `leap`, `slide`) or a piece rule"
        }
        captured_only_by => "`captured only by ...`",
        guarded_capture => "`captured by ... from afar only when undefended`",
        not_attacked => "`may not end on an attacked cell`",
        move_stmt | first_leg | mode => "a move (`step`, `leap` or `slide`)",
        next_leg => "a leg after `then`",
        count => "a count such as `2`, `2 or more` or `1 to 3`",
        direct => "`direct`",
        directions | direction_union | direction_term | direction_kind | qualifier
        | straight_forward | straight_backward | relative => "a direction such as `orthogonal`",
        clause | destination | empty_dest | enemy_dest | tagged | path_shape => {
            "a move clause such as `to empty`"
        }
        setup_diagram | setup_block => "a setup (`{ ... }` or `diagram \"\"\"...\"\"\"`)",
        placement => "a placement such as `White: King e1`",
        piece_cells => "a piece name followed by cells",
        end_rule | event | captured_event | no_move_event | repetition_event | quiet_event => {
            "a game-end rule such as `King captured: mover wins`"
        }
        outcome | draw | result | who => {
            "an outcome (`draw`, `mover wins`, `that player loses`, `mover scores 3/4`)"
        }
        zone_stmt | castling_stmt => "a statement such as `piece` or `board`",
        royal => "`royal`",
        moves_as => "`moves as ...`",
        walling | wall_placed | wall_petrify => {
            "a wall rule such as `then places a wall where it was`"
        }
        promotion | promote_word | may_promote | promotion_choice | any_non_royal
        | promotion_for => "a promotion such as `promotes on entering far to Marshal or Tower`",
        from_cells | from_start => "`from start` or `from` and cells",
        en_passant => "`en passant by ...`",
        equal_legs => "`legs of equal length`",
        repeated => "`repeated`",
        setup_random | random_pool | pool_piece | mirror_item | mirrored | redraw => {
            "a random setup line such as `White: Guard, Tower on a1 b1 c1`"
        }
        checkmate | stalemate => "`checkmate` or `stalemate`",
        zone_last | zone_cells | zone_player | zone_shared => {
            "a zone (`: last cell of each file`, `: d4 e4` or `{ White: a8 b8 }`)"
        }
        castle_part | castle_condition | castle_empty | castle_safe | castle_anywhere => {
            "a castling part such as `King e1 to g1` or `empty f1 g1`"
        }
        hand_stmt | drawing_stmt => "a statement such as `piece` or `board`",
        checks_event => "an end event such as `3 checks given`",
        promote_when | entering | moving | zone_relation => {
            "`entering`, `moving from, into or through`, `capturing in` or `standing in`"
        }
        forced_if_stuck => "`, forced where it could never move again`",
        promotion_limit => {
            "a limit such as `, at most 2 King` or `, only to kinds the player has lost`"
        }
        no_drop | drop_file | drop_attacked | drop_check | check_word => {
            "a drop rule such as `no drop giving check`"
        }
        hand_option => {
            "`, promoted ones unchanged`, `, never dropped where they could never move` or `, dropped either side up`"
        }
        perpetual => "`by perpetual check`",
        zone_far => "`: far 3 ranks`",
        zone_near => "`: near 5 ranks`",
        facing => "`may not face enemy ... on an open file`",
        over_pieces | piece_word => "`over 1 piece`",
        right_behind => "`landing right behind`",
        within_zone => "`within` and a zone",
        from_zone => "`from` and a zone",
        fen_stmt | pass_stmt | clock_stmt => "a statement such as `piece` or `board`",
        except_in_check => "`, except in check`",
        passes_event => "`every player passed`",
        drawn | drawn_as | drawn_from => "`drawn as` or `drawn from`",
        points_stmt => "a statement such as `piece` or `board`",
        worth_item => "a name and its points, such as `KIND 5`",
        points => "a number of points such as `5` or `1.5`",
        facing_event => "`... facing enemy ... on an open file`",
        condition | all_of | negated => {
            "a condition such as `checkmate` or `a player has no pieces`"
        }
        has_event | holder_player => "`a player has ...`",
        quantity => "a number such as `no`, `a`, `3`, `fewer than 3` or `at least 2`",
        kinds => "pieces such as `pieces`, `royal pieces`, or kinds joined by `or`",
        place => "`on the board`, `in hand` or `in` and a zone",
        in_check => "`in check`",
        flip_stmt | moved_wall_stmt => "a statement such as `piece` or `board`",
        flip_next => "`next to where a piece lands`",
        drop_enclosing | drop_first => {
            "a drop rule such as `drop only where it encloses enemy pieces`"
        }
        leaving_copy => "`leaving a copy`",
        pass_if_stuck => "`, only when they cannot move`",
        board_full_event => "`board full`",
        compare => "`more points win`, `fewer pieces win`",
        counting_stmt => "a statement such as `piece` or `board`",
        count_line => "a count such as `a player with only royal pieces counts once ...`",
        count_bare | count_more => "`only royal pieces` or `more than royal pieces`",
        count_from => "`, from the pieces on the board`",
        count_limit => "a limit such as `16 moves` or `16 moves against KIND`",
        count_event => "`count ran out`",
        _ => SOMETHING_ELSE,
    }
}

/// Text parsed in one piece, at least: pest finds an error's line by reading its input
/// back from the end, so parsing the whole rest of a long file for each of many errors
/// would cost its length each time.
const WINDOW: usize = 1 << 12;

/// How far past `from` the search for a statement line at bracket depth zero goes;
/// past it, as when a bracket is never closed, the first statement line at any depth
/// serves, so each search costs a bounded scan.
const LONGEST_WINDOW: usize = WINDOW;

/// The lines from `from` on that start, at their first column, with a top-level
/// statement's word, outside strings and comments, each with how many `{` and `(`
/// are open there (counted from `from`).
fn statement_lines(text: &str, from: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let b = text.as_bytes();
    let to_newline = move |i: usize| {
        b[i..]
            .iter()
            .position(|c| *c == b'\n')
            .map_or(b.len(), |k| i + k)
    };
    let (mut i, mut long, mut depth) = (from, false, 0usize);
    let mut at_line_start = from == 0 || b.get(from - 1) == Some(&b'\n');
    std::iter::from_fn(move || {
        while i < b.len() {
            if at_line_start {
                at_line_start = false;
                if !long && starts_statement(&text[i..]) {
                    return Some((i, depth));
                }
            }
            if b[i..].starts_with(b"\"\"\"") {
                long = !long;
                i += 3;
                continue;
            }
            match b[i] {
                b'\n' => at_line_start = true,
                b'#' if !long => {
                    i = to_newline(i);
                    continue;
                }
                b'"' if !long => {
                    let close = b[i + 1..].iter().position(|c| *c == b'"' || *c == b'\n');
                    i = close.map_or(b.len(), |k| i + 1 + k);
                    if i < b.len() && b[i] == b'\n' {
                        continue;
                    }
                }
                b'{' | b'(' if !long => depth += 1,
                b'}' | b')' if !long => depth = depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
        }
        None
    })
}

/// The first statement line from `from` at or past `past`: at bracket depth zero, or,
/// when none comes within [`LONGEST_WINDOW`], the first at any depth.
fn next_statement(text: &str, from: usize, past: usize) -> Option<usize> {
    let mut fallback = None;
    for (at, depth) in statement_lines(text, from).filter(|(at, _)| *at >= past) {
        if depth == 0 {
            return Some(at);
        }
        let first = *fallback.get_or_insert(at);
        if at >= past.max(from) + LONGEST_WINDOW {
            return Some(first);
        }
    }
    // Lines inside a block that start with a statement's word (`royal` at the margin)
    // are no place to cut when every block closes by the end: the rest is one window.
    let closed = || super::lexical::scan(&text[from..]).depth.last() == Some(&0);
    fallback.filter(|_| !closed())
}

/// Where the piece of text parsed from `from` (a statement's start) ends: the first
/// statement line past [`WINDOW`] bytes outside any string, comment, `{ }` or `( )`,
/// or the end of the text. A left-margin line inside a block that starts with a
/// statement word (a player named `game`, say) never ends a window.
pub(super) fn window_end(text: &str, from: usize) -> usize {
    if text.len() - from <= WINDOW {
        return text.len();
    }
    next_statement(text, from, from + WINDOW).unwrap_or(text.len())
}

/// Whether a line starts, at its first column, with a top-level statement's word.
pub(super) fn starts_statement(line: &str) -> bool {
    let len = line
        .bytes()
        .position(|c| !c.is_ascii_alphabetic())
        .unwrap_or(line.len());
    TOP_LEVEL.contains(&&line[..len])
}

/// Where to resume after an error at `pos`, in the text parsed from `from` (a
/// statement's start): the next statement line after `pos`'s line.
pub(super) fn resume_point(text: &str, from: usize, pos: usize) -> Option<usize> {
    let next_line = text[pos.min(text.len())..]
        .find('\n')
        .map(|i| pos + i + 1)?;
    next_statement(text, from.min(pos), next_line)
}

/// The start of the last top-level statement at or before `pos`, after `from` (a
/// statement's start).
pub(super) fn statement_start_before(text: &str, from: usize, pos: usize) -> Option<usize> {
    statement_lines(text, from)
        .take_while(|(at, _)| *at <= pos)
        .filter(|(_, depth)| *depth == 0)
        .last()
        .map(|(at, _)| at)
}

/// Words the language once had, each with a pattern of the old wording (`#N` a number,
/// `#K` kinds joined by `or`) and its new wording.
/// Old wordings and the new ones, with a note for the help when the new wording needs
/// more than the words replaced. `#N` is a number, `#K` kinds joined by `or` (one new
/// condition each), `#L` kinds joined by `and` or `or` (counted together), other `#X`
/// one word (a `,` after it in the pattern: the word ends with one); `#1` and `#2` are
/// the first and second players the file declares.
const RETIRED: &[(&str, &str, &str)] = &[
    (
        "fewer than #N #K pieces left",
        "a player has fewer than #N #K",
        "",
    ),
    ("no pieces left", "a player has no pieces", ""),
    (
        "only royal pieces left, unless bared back",
        "a player has only royal pieces and the player to move has a non-royal piece",
        ", and add the rule `the player to move has only royal pieces and a player has at least 2 non-royal pieces` with the same outcome",
    ),
    ("step up to #N", "step 1 to #N", ""),
    ("slide up to #N", "slide 1 to #N", ""),
    ("leap up to #N", "leap 1 to #N", ""),
    (
        "only royal pieces left",
        "a player has only royal pieces",
        "",
    ),
    (
        "#A reaches #Z for every player, not attacked there",
        "every player has an unattacked #A in #Z",
        "",
    ),
    (
        "#A reaches #Z, not attacked there",
        "a player has an unattacked #A in #Z",
        "",
    ),
    (
        "#A reaches #Z for every player",
        "every player has a #A in #Z",
        "",
    ),
    (
        "#A reaches #Z, unless answered",
        "#1 has a #A in #Z and not #2 can move a #A into #Z",
        "; the player moving second wins at once, so put `#2 has a #A in #Z: that player wins` above it",
    ),
    (
        "#A reaches #Z, kept for a round",
        "the player to move has a #A in #Z",
        "",
    ),
    ("#A reaches #Z", "a player has a #A in #Z", ""),
    (
        "redraw unless each player's #L pieces stand on different colours",
        "redraw while a player has at least 2 #L on one colour",
        "",
    ),
    (
        "redraw unless each player's #L pieces are defended",
        "redraw while a player has an undefended #L",
        "",
    ),
    (
        "redraw unless each player's #A stands between two of its #B pieces",
        "redraw while a player has no #A between two #B",
        "",
    ),
    (
        "once no #L is on the board",
        "once every player has no #L on the board",
        "",
    ),
    (
        "to empty or enemy",
        "",
        " (a move goes to an empty cell or an enemy's unless it says `to empty` or `to enemy`)",
    ),
    ("board square #N x #M", "board square #N by #M", ""),
    (
        "leaves a wall where it was",
        "then places a wall where it was",
        "",
    ),
    (
        "then shoots an arrow that moves as #A",
        "then places a wall on any empty cell it reaches moving as #A",
        "",
    ),
];

/// A diagnostic for an old wording on the line at `at`, showing the new one.
fn retired(text: &str, at: usize) -> Option<Diagnostic> {
    let start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = &text[start..end];
    // Words with their places, the line's guard (`if NAME:`) and anything from `:` on
    // left out.
    let mut words: Vec<(usize, &str)> = vec![];
    let mut i = 0;
    for w in line.split(|c: char| c.is_whitespace() || c == ':') {
        if !w.is_empty() {
            words.push((start + i, w));
        }
        i += w.len() + 1;
    }
    let mut first = 0;
    if matches!(words.first(), Some((_, "if" | "unless"))) && words.len() > 2 {
        first = 2;
    }
    let players: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("player "))
        .filter_map(|l| l.split(':').next())
        .map(str::trim)
        .collect();
    for (old, new, note) in RETIRED {
        // A wording led by a name is a condition: it starts a line or follows a joining
        // word, never in the middle of another phrase (`... it reaches moving as ...`).
        let starts = |at: usize| {
            !old.starts_with('#') || at == first || matches!(words[at - 1].1, "and" | "or" | "not")
        };
        let Some((first, found)) = (first..words.len())
            .filter(|at| starts(*at))
            .find_map(|at| Some((at, fit(&words[at..], old)?)))
        else {
            continue;
        };
        let from = words[first].0;
        let last = words[first + found.last];
        let to = last.0 + last.1.trim_end_matches(',').len();
        let fill = |t: &str| {
            let mut t = t.to_string();
            for (key, value) in &found.words {
                t = t.replace(key.as_str(), value);
            }
            for (key, name) in [("#1", players.first()), ("#2", players.get(1))] {
                t = t.replace(
                    key,
                    name.copied()
                        .unwrap_or(if key == "#1" { "White" } else { "Black" }),
                );
            }
            t.replace("#L", &found.kinds.join(" or "))
        };
        // One condition for each kind: the old wording counted each kind apart.
        let each: Vec<String> = if found.kinds.is_empty() || !old.contains("#K") {
            vec![fill(new)]
        } else {
            found
                .kinds
                .iter()
                .map(|k| fill(&new.replace("#K", k)))
                .collect()
        };
        let wording = each.join(" or ");
        let old_text = &text[from..to];
        let (message, help) = if wording.is_empty() {
            (
                format!("`{old_text}` is no longer written: it is what a move does unless it says"),
                format!(
                    "remove it{}; the error index lists every wording replaced",
                    fill(note)
                ),
            )
        } else {
            (
                format!("`{old_text}` is now written `{wording}`"),
                format!(
                    "write `{wording}`{}; the error index lists every wording replaced",
                    fill(note)
                ),
            )
        };
        return Some(
            Diagnostic::error("variantlab::retired_wording", Span::new(from, to), message)
                .label("the old wording")
                .help(help),
        );
    }
    None
}

/// What a pattern read from a line.
struct Fit<'a> {
    /// The index of the last word it took.
    last: usize,
    /// `#K` or `#L` kinds.
    kinds: Vec<&'a str>,
    /// The other placeholders and their words.
    words: Vec<(String, &'a str)>,
}

/// Whether `words` start with the pattern, and what it read.
fn fit<'a>(words: &[(usize, &'a str)], pattern: &str) -> Option<Fit<'a>> {
    let mut found = Fit {
        last: 0,
        kinds: vec![],
        words: vec![],
    };
    let mut i = 0;
    let pattern: Vec<&str> = pattern.split(' ').collect();
    for (j, p) in pattern.iter().enumerate() {
        match *p {
            "#K" | "#L" => {
                let stop = pattern.get(j + 1).copied();
                loop {
                    let w = words.get(i)?.1;
                    if Some(w) == stop {
                        break;
                    }
                    if w != "or" && !(*p == "#L" && w == "and") {
                        found.kinds.push(w);
                    }
                    i += 1;
                }
                if found.kinds.is_empty() {
                    return None;
                }
            }
            "#N" => {
                let n = words.get(i)?.1;
                if !n.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                found.words.push(("#N".into(), n));
                i += 1;
            }
            p if p.starts_with('#') => {
                let (key, tail) = p.split_at(2);
                let w = words.get(i)?.1;
                let word = if tail.is_empty() {
                    (!w.ends_with(',')).then_some(w)?
                } else {
                    w.strip_suffix(tail)?
                };
                found.words.push((key.into(), word));
                i += 1;
            }
            word => {
                let w = words.get(i)?.1;
                if w != word && w.strip_suffix(',') != Some(word) {
                    return None;
                }
                i += 1;
            }
        }
    }
    found.last = i - 1;
    Some(found)
}
