//! The file's outline (document symbols) and its highlighting (semantic tokens).

use super::document::{View, is_word_char, kind_word};
use super::text::Lines;
use crate::Span;
use crate::grammar::{self, NameKind};
use lsp_types as lsp;
use lsp_types::{DocumentSymbol, Position, SymbolKind};

/// What highlighting tells apart, in the order of the legend.
pub const TOKEN_TYPES: [lsp::SemanticTokenType; 9] = [
    lsp::SemanticTokenType::KEYWORD,
    lsp::SemanticTokenType::CLASS,
    lsp::SemanticTokenType::ENUM_MEMBER,
    lsp::SemanticTokenType::NAMESPACE,
    lsp::SemanticTokenType::VARIABLE,
    lsp::SemanticTokenType::NUMBER,
    lsp::SemanticTokenType::STRING,
    lsp::SemanticTokenType::COMMENT,
    lsp::SemanticTokenType::PARAMETER,
];

/// The outline: each declared name, and the setup and end blocks, where they start.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
pub fn symbols(doc: &View<'_>) -> Vec<DocumentSymbol> {
    let lines = Lines::new(doc.text);
    let mut out = Vec::new();
    // The whole statement is the symbol's range; its name (or first words) is selected.
    let symbol = |name: String, detail: &str, kind, start: usize, end: usize| {
        let whole = grammar::statement_at(doc.text, start).unwrap_or(Span::new(start, end));
        DocumentSymbol {
            name,
            detail: Some(detail.to_string()),
            kind,
            tags: None,
            deprecated: None,
            range: lines.range(doc.text, whole.start, whole.end.max(end)),
            selection_range: lines.range(doc.text, start, end),
            children: None,
        }
    };
    for n in grammar::names(doc.text).unwrap_or_default() {
        if n.declares {
            let kind = match n.kind {
                NameKind::Piece => SymbolKind::CLASS,
                NameKind::Player => SymbolKind::ENUM_MEMBER,
                NameKind::Zone => SymbolKind::NAMESPACE,
                NameKind::Option => SymbolKind::BOOLEAN,
            };
            out.push(symbol(
                n.text.clone(),
                kind_word(n.kind),
                kind,
                n.span.start,
                n.span.end,
            ));
        }
    }
    let mut at = 0;
    for line in doc.text.split_inclusive('\n') {
        for (head, detail) in [("setup", "the start"), ("game ends", "how the game ends")] {
            if line.starts_with(head) && !line[head.len()..].starts_with(is_word_char) {
                out.push(symbol(
                    head.to_string(),
                    detail,
                    SymbolKind::STRUCT,
                    at,
                    at + head.len(),
                ));
            }
        }
        at += line.len();
    }
    out.sort_by_key(|s| (s.range.start.line, s.range.start.character));
    out
}

/// Highlighting: fixed words of the grammar as keywords, declared names by what they
/// name, numbers, quoted text and comments; other words (cells, directions) as
/// parameters. Each token stays on one line, as the protocol asks.
pub fn semantic_tokens(text: &str) -> Vec<lsp::SemanticToken> {
    let names = grammar::names(text).unwrap_or_default();
    let fixed = grammar::words();
    let lines = Lines::new(text);
    let mut out = Vec::new();
    let mut last = Position::new(0, 0);
    for (span, lexeme) in grammar::lexemes(text) {
        let word = &text[span.start..span.end];
        let name = names.iter().find(|n| n.span == span);
        let (kind, modifiers) = match (lexeme, name) {
            (grammar::Lexeme::Comment, _) => (7, 0),
            (grammar::Lexeme::Quoted, _) => (6, 0),
            (_, Some(n)) => (
                match n.kind {
                    NameKind::Piece => 1,
                    NameKind::Player => 2,
                    NameKind::Zone => 3,
                    NameKind::Option => 4,
                },
                u32::from(n.declares),
            ),
            _ if word.bytes().all(|b| b.is_ascii_digit()) => (5, 0),
            _ if fixed.contains(&word) => (0, 0),
            _ => (8, 0),
        };
        // One token a line: a triple-quoted text is cut at its line ends.
        let mut start = span.start;
        for part in text[span.start..span.end].split_inclusive('\n') {
            let body = part.trim_end_matches(['\n', '\r']);
            if !body.is_empty() {
                let at = lines.position(text, start);
                let length = body.encode_utf16().count() as u32;
                let delta_line = at.line - last.line;
                let delta_start = if delta_line == 0 {
                    at.character - last.character
                } else {
                    at.character
                };
                out.push(lsp::SemanticToken {
                    delta_line,
                    delta_start,
                    length,
                    token_type: kind,
                    token_modifiers_bitset: modifiers,
                });
                last = at;
            }
            start += part.len();
        }
    }
    out
}
