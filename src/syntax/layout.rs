//! One canonical layout for a variant file: `variantlab fmt`.
//!
//! Only blanks change. Each statement, each entry of a block and each block's closing
//! `}` start a line; other line breaks stay where the author put them. Each line is
//! indented by its block depth (two spaces a level), a line that continues an entry
//! one level more (a player's list of pieces or cells lines up after `Name: `), runs
//! of blanks become one (none before `,` and `:`, one after), and blank lines shrink
//! to one between entries and none at a block's edges. Text in quotes, triple-quoted
//! diagrams included, is kept byte for byte; comments keep their words.

use super::lexical::{Class, Scan, scan};
use super::{Rule, VariantParser};
use pest::Parser;
use pest::iterators::Pair;

/// Spaces a block level indents.
const INDENT: usize = 2;

/// Rules whose continuation lines line up after the entry's `Name: `.
const HANGING: &[Rule] = &[Rule::placement, Rule::zone_player, Rule::random_pool];

/// How a line that starts at `tok` is indented: its column, or `None` when it starts a
/// statement or entry (indented by depth alone).
fn continuation(text: &str, scan: &Scan, statements: &[Pair<Rule>], tok: usize) -> Option<usize> {
    let d = scan.depth[tok];
    // A pair's span may run on over the blanks and comments after it: they are not in it.
    let holds = |p: &Pair<Rule>| {
        let (start, mut end) = (p.as_span().start(), p.as_span().end());
        while end > start
            && (scan.class[end - 1] == Class::Comment
                || text.as_bytes()[end - 1].is_ascii_whitespace())
        {
            end -= 1;
        }
        start <= tok && tok < end
    };
    let mut unit = statements.iter().find(|p| holds(p))?.clone();
    loop {
        let start = unit.as_span().start();
        if scan.depth[start] == d {
            if start == tok {
                return None;
            }
            let base = INDENT * d.max(0) as usize + INDENT;
            if HANGING.contains(&unit.as_rule()) {
                let colon = text[start..tok].find(':').map(|c| start + c)?;
                // The entry's first line is laid out at depth: its name, `:` and a blank.
                let name = text[start..colon].trim_end().chars().count();
                return Some(INDENT * d.max(0) as usize + name + 2);
            }
            return Some(base);
        }
        unit = unit.into_inner().find(|p| holds(p))?;
    }
}

/// The file in its canonical layout, or `None` when it does not parse (the layout
/// follows the parse, and a file with a syntax error has its diagnostics to read).
pub fn layout(text: &str) -> Option<String> {
    let broken = own_lines(text)?;
    let text = broken.as_str();
    let file = VariantParser::parse(Rule::file, text).ok()?.next()?;
    let statements: Vec<Pair<Rule>> = file
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .collect();
    let scan = scan(text);
    // The file's own line ends: CR LF if its first line ends so.
    let newline = match text.find('\n') {
        Some(i) if text[..i].ends_with('\r') => "\r\n",
        _ => "\n",
    };
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let end = start + line.len();
        let body = line.strip_suffix('\n').unwrap_or(line);
        // A line that ends inside quotes keeps its CR: it is a byte of the text.
        let quoted_end = line.ends_with('\n') && scan.class[end - 1] == Class::Quoted;
        let body = match quoted_end {
            true => body,
            false => body.strip_suffix('\r').unwrap_or(body),
        };
        let ending = if quoted_end { "\n" } else { newline };
        if start > 0 && scan.class[start] == Class::Quoted && scan.class[start - 1] == Class::Quoted
        {
            // Inside a triple-quoted text every byte is the author's; after its closing
            // quotes, the line is laid out as any other.
            let quote_end = (start..start + body.len())
                .find(|&i| scan.class[i] != Class::Quoted)
                .unwrap_or(start + body.len());
            out.push_str(&text[start..quote_end]);
            squeeze(
                &text[quote_end..start + body.len()],
                &scan.class[quote_end..],
                &mut out,
            );
            out.push_str(ending);
            blank = false;
            start = end;
            continue;
        }
        let lead = body.len() - body.trim_start_matches([' ', '\t']).len();
        let tok = start + lead;
        if body[lead..].trim().is_empty() {
            blank = !out.is_empty();
            start = end;
            continue;
        }
        let closes = text.as_bytes()[tok] == b'}' && scan.class[tok] == Class::Code;
        if blank && !closes && !out.ends_with(&format!("{{{newline}")) {
            out.push_str(newline);
        }
        blank = false;
        let depth = (scan.depth[tok] - i32::from(closes)).max(0) as usize;
        let column = continuation(text, &scan, &statements, tok).unwrap_or(INDENT * depth);
        out.extend(std::iter::repeat_n(' ', column));
        squeeze(&text[tok..start + body.len()], &scan.class[tok..], &mut out);
        out.push_str(ending);
        start = end;
    }
    Some(out)
}

/// Rules whose `{ ... }` holds entries, each of which starts a line.
const BLOCKS: &[Rule] = &[
    Rule::piece_stmt,
    Rule::setup_random,
    Rule::setup_block,
    Rule::end_stmt,
    Rule::zone_cells,
    Rule::counting_stmt,
];

/// The text with a line break before each statement, each entry of a block and each
/// block's closing `}` that shares a line with what comes before it, and each block's
/// `{` moved up to its heading's line. Only blanks change: between words, never in
/// quotes or comments.
fn own_lines(text: &str) -> Option<String> {
    let file = VariantParser::parse(Rule::file, text).ok()?.next()?;
    let scan = scan(text);
    let code = |i: usize, c: u8| text.as_bytes()[i] == c && scan.class[i] == Class::Code;
    // Blanks to replace: (from, to, with).
    let mut edits: Vec<(usize, usize, &str)> = Vec::new();
    let mut breaks = Vec::new();
    for p in file.into_inner().filter(|p| p.as_rule() != Rule::EOI) {
        breaks.push(p.as_span().start());
        let within = std::iter::once(p.clone()).chain(p.into_inner().flatten());
        for block in within.filter(|q| BLOCKS.contains(&q.as_rule())) {
            let span = block.as_span();
            let Some(open) = (span.start()..span.end()).find(|&i| code(i, b'{')) else {
                continue;
            };
            // A block's `{` ends the line of its heading.
            let heading = text[..open].trim_end().len();
            if heading > 0
                && text[heading..open].contains('\n')
                && scan.class[heading - 1] != Class::Comment
            {
                edits.push((heading, open, " "));
            }
            let close = (open..span.end()).rev().find(|&i| code(i, b'}'));
            breaks.extend(
                block
                    .into_inner()
                    .map(|e| e.as_span().start())
                    .filter(|&at| at > open),
            );
            breaks.extend(close);
        }
    }
    for at in breaks {
        let line_start = text[..at].trim_end_matches([' ', '\t']);
        let first = line_start.trim_start_matches('\u{FEFF}').is_empty();
        if !first && !line_start.ends_with('\n') {
            edits.push((line_start.len(), at, "\n"));
        }
    }
    edits.sort_unstable();
    edits.dedup();
    let mut out = String::with_capacity(text.len() + edits.len());
    let mut from = 0;
    for (start, end, with) in edits {
        if start < from {
            continue;
        }
        out.push_str(&text[from..start]);
        out.push_str(with);
        from = end;
    }
    out.push_str(&text[from..]);
    Some(out)
}

/// Writes one line's words with one blank between them, none before `,` and `:` and one
/// after them, and one before a comment or a `{`; quoted text and comments as written, less
/// blanks at the line's end.
fn squeeze(line: &str, class: &[Class], out: &mut String) {
    let from = out.len();
    let mut gap = false;
    for (i, c) in line.char_indices() {
        let k = class[i];
        if k == Class::Code && (c == ' ' || c == '\t') {
            gap = true;
            continue;
        }
        let mark = k == Class::Code && (c == ',' || c == ':');
        // A comment or a block's `{` after a word stands one blank apart from it.
        let apart = i > 0 && (k == Class::Code && c == '{' || k == Class::Comment && c == '#');
        // No blank inside parentheses: `(K)`.
        let closing = k == Class::Code && c == ')';
        if (gap || apart) && !mark && !closing && !out.ends_with([' ', '(']) {
            out.push(' ');
        }
        out.push(c);
        gap = mark;
    }
    // A quoted text left open at the line's end keeps its blanks: they are its bytes.
    let open = line
        .char_indices()
        .last()
        .is_some_and(|(i, _)| class[i] == Class::Quoted && class[line.len()] == Class::Quoted);
    if !open {
        let kept = out[from..].trim_end_matches([' ', '\t']).len();
        out.truncate(from + kept);
    }
}
