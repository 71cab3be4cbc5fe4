//! Hover: a piece's footprint and its rule as written; a fixed word's rows of the word
//! index.

use super::document::{View, kind_word, name_at, word_around};
use super::text::Lines;
use crate::grammar::{self, NameKind};
use crate::{PlayerId, Rules, diagrams};
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

/// The word index, whose rows hover shows for a fixed word.
const WORD_INDEX: &str = include_str!("../../docs/words.md");

/// The most characters of a piece's statement shown on hover.
const MOST_RULE_CHARS: usize = 4000;

/// Rows of the word index shown for one word; the rest are counted.
const MOST_ROWS: usize = 6;

pub fn hover(doc: &View<'_>, at: Position) -> Option<Hover> {
    let lines = Lines::new(doc.text);
    let offset = lines.offset(doc.text, at);
    let (start, end) = word_around(doc.text, offset);
    // Words in comments and quoted text are prose, not the language's.
    let prose = grammar::lexemes(doc.text)
        .into_iter()
        .any(|(span, lexeme)| {
            lexeme != grammar::Lexeme::Word && span.start <= start && start < span.end
        });
    if start == end || prose {
        return None;
    }
    let range = Some(lines.range(doc.text, start, end));
    let markdown = |value: String| {
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range,
        })
    };
    let statement = grammar::statement_at(doc.text, offset);
    // The rule as written: the piece's statement, for a piece named here or a move line
    // of its block.
    let rule = |name: &str| {
        let all = grammar::names(doc.text)?;
        let declared = all
            .iter()
            .find(|n| n.declares && n.kind == NameKind::Piece && n.text == name)?;
        let s = grammar::statement_at(doc.text, declared.span.start)?;
        Some(
            doc.text[s.start..s.end]
                .chars()
                .take(MOST_RULE_CHARS)
                .collect::<String>(),
        )
    };
    let piece = |name: &str| {
        let drawn = doc.last_good.and_then(|c| footprint(c.rules()?, name));
        let written = rule(name).map(|r| format!("\n\n```variant\n{r}\n```"));
        match (drawn, written) {
            (None, None) => None,
            (d, w) => Some(d.unwrap_or_else(|| format!("piece `{name}`")) + &w.unwrap_or_default()),
        }
    };
    if let Some((used, _)) = name_at(doc, &lines, at) {
        if used.kind == NameKind::Piece
            && let Some(text) = piece(&used.text)
        {
            return markdown(text);
        }
        return markdown(format!("{} `{}`", kind_word(used.kind), used.text));
    }
    // A file with a syntax error has no names to read; a piece of the last version
    // that checked is still drawn.
    let word = &doc.text[start..end];
    let known = doc.last_good.and_then(|c| c.variant().find_piece(word));
    if grammar::names(doc.text).is_none()
        && let (Some(id), Some(c)) = (known, doc.last_good)
        && let Some(text) = piece(&c.variant().piece(id).name)
    {
        return markdown(text);
    }
    let entry = word_entry(word);
    // Elsewhere in a piece's block (a move line, a count, a direction): that piece,
    // then what the word means.
    let owner = statement.and_then(|s| {
        grammar::names(doc.text)?.into_iter().find(|n| {
            n.declares
                && n.kind == NameKind::Piece
                && s.start <= n.span.start
                && n.span.end <= s.end
        })
    });
    match (owner.and_then(|o| piece(&o.text)), entry) {
        (Some(p), Some(e)) => markdown(format!("{p}\n\n---\n\n{e}")),
        (Some(p), None) => markdown(p),
        (None, e) => e.and_then(markdown),
    }
}

/// A piece's footprint from the board's centre, drawn as `variantlab footprint` draws
/// it, under the piece's name and code.
fn footprint(rules: &Rules, name: &str) -> Option<String> {
    let v = rules.variant();
    let id = v.find_piece(name)?;
    let cell = v.board.centre();
    let player = PlayerId(0);
    let marks = diagrams::footprint_marks(rules, player, id, cell, false);
    let hidden = diagrams::has_capture_only(rules, player, id, cell);
    let piece = v.piece(id);
    Some(format!(
        "**{}** ({}), from {} for {}\n\n```text\n{}{}```",
        piece.name,
        piece.code,
        v.board.name(cell),
        v.player(player).name,
        diagrams::footprint_drawing(rules, player, id, cell, false, false),
        diagrams::footprint_legend(rules, id, &marks, hidden)
    ))
}

/// The word index's rows for a fixed word of the language.
fn word_entry(word: &str) -> Option<String> {
    let head = format!("| `{word}` ");
    let rows: Vec<&str> = WORD_INDEX
        .lines()
        .filter(|l| l.starts_with(&head))
        .collect();
    let reserved = rows
        .first()
        .is_some_and(|r| r[head.len()..].starts_with("(reserved)"));
    if rows.is_empty() {
        return None;
    }
    let mut out = format!(
        "`{word}`, a word of the language{}:\n\n",
        if reserved {
            " (reserved: it names nothing)"
        } else {
            ""
        }
    );
    for row in rows.iter().take(MOST_ROWS) {
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
        if let [_, place, meaning, ..] = cells.as_slice() {
            out.push_str(&format!("- {place}: {meaning}\n"));
        }
    }
    if rows.len() > MOST_ROWS {
        out.push_str(&format!(
            "\n{} more in the word index (docs/words.md).\n",
            rows.len() - MOST_ROWS
        ));
    }
    Some(out)
}
