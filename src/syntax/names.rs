//! The names a file declares (pieces, players, zones, options) and every place each is
//! used: what an editor needs to go to a definition or list references.

use super::{Rule, Span, VariantParser};
use pest::Parser;
use pest::iterators::Pair;
use std::borrow::Cow;

/// What a declared name names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Piece,
    Player,
    Zone,
    Option,
}

/// One name written in the file: where, what it names, and whether this is the place
/// that declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameUse {
    pub text: String,
    pub kind: NameKind,
    pub span: Span,
    pub declares: bool,
}

fn declaring(rule: Rule) -> Option<NameKind> {
    Some(match rule {
        Rule::piece_stmt => NameKind::Piece,
        Rule::player_stmt => NameKind::Player,
        Rule::zone_stmt => NameKind::Zone,
        Rule::option_stmt => NameKind::Option,
        _ => return None,
    })
}

/// The text with the statements a syntax error spoils blanked out (lines and byte
/// offsets kept), so the rest still reads; `None` when even that does not parse.
fn readable(text: &str) -> Option<Cow<'_, str>> {
    if VariantParser::parse(Rule::file, text).is_ok() {
        return Some(Cow::Borrowed(text));
    }
    let mut bytes = text.as_bytes().to_vec();
    for skipped in super::parse(text).0.skipped {
        for b in &mut bytes[skipped.start..skipped.end.min(text.len())] {
            // Every byte of a character becomes a blank, so offsets stay where they were.
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    let blanked = String::from_utf8(bytes).ok()?;
    VariantParser::parse(Rule::file, &blanked).ok()?;
    Some(Cow::Owned(blanked))
}

/// Every declared name and every use of one, in the order they are written, or `None`
/// when the file does not read even with its broken statements left out. A use is a
/// name word (not a fixed word of the language) spelt as a declared name is; a piece
/// may also be named by its code, where it is declared too.
pub fn names(text: &str) -> Option<Vec<NameUse>> {
    let text = readable(text)?;
    let file = VariantParser::parse(Rule::file, &text).ok()?;
    let mut declared: Vec<NameUse> = Vec::new();
    let mut codes: Vec<(String, String)> = Vec::new();
    let mut words: Vec<Pair<Rule>> = Vec::new();
    let mut uses: Vec<NameUse> = Vec::new();
    for p in file.flatten() {
        if let Some(kind) = declaring(p.as_rule()) {
            let mut inner = p
                .clone()
                .into_inner()
                .filter(|c| c.as_rule() == Rule::ident);
            if let Some(id) = inner.next() {
                let s = id.as_span();
                declared.push(NameUse {
                    text: id.as_str().to_string(),
                    kind,
                    span: Span::new(s.start(), s.end()),
                    declares: true,
                });
                if kind == NameKind::Piece
                    && let Some(code) = p.clone().into_inner().find(|c| c.as_rule() == Rule::code)
                {
                    codes.push((code.as_str().to_string(), id.as_str().to_string()));
                    let s = code.as_span();
                    uses.push(NameUse {
                        text: id.as_str().to_string(),
                        kind,
                        span: Span::new(s.start(), s.end()),
                        declares: false,
                    });
                }
            }
        }
        if p.as_rule() == Rule::ident {
            words.push(p);
        }
    }
    let mut out = declared.clone();
    out.append(&mut uses);
    for w in words {
        let s = w.as_span();
        let span = Span::new(s.start(), s.end());
        if declared.iter().any(|d| d.span == span) {
            continue;
        }
        let spelt = codes
            .iter()
            .find(|(code, _)| code == w.as_str())
            .map_or(w.as_str(), |(_, name)| name.as_str());
        if let Some(d) = declared.iter().find(|d| d.text == spelt) {
            out.push(NameUse {
                text: d.text.clone(),
                kind: d.kind,
                span,
                declares: false,
            });
        }
    }
    out.sort_by_key(|n| n.span.start);
    Some(out)
}

/// The top-level statement that holds a byte offset, from its first word to its last
/// (comments after it left out), or `None` when the offset is between statements or in
/// one a syntax error spoils.
pub fn statement_at(text: &str, at: usize) -> Option<Span> {
    let text = readable(text)?;
    let file = VariantParser::parse(Rule::file, &text).ok()?.next()?;
    file.into_inner().find_map(|p| {
        let s = p.as_span();
        // A span may run on over the blanks and comments that follow the statement.
        let end = s.start() + last_code_end(s.as_str());
        (s.start() <= at && at <= end && p.as_rule() != Rule::EOI)
            .then(|| Span::new(s.start(), end))
    })
}

/// Where a statement's text ends once trailing blanks and comment lines are dropped.
fn last_code_end(statement: &str) -> usize {
    let mut end = 0;
    let mut at = 0;
    for line in statement.split_inclusive('\n') {
        let code = line.trim_end();
        if !code.is_empty() && !code.trim_start().starts_with('#') {
            end = at + code.len();
        }
        at += line.len();
    }
    end
}
