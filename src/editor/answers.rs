//! What the server answers: diagnostics, completion, hover, definitions, references,
//! the outline and the layout, each from the library's own passes.

use super::text::Lines;
use crate::grammar::{self, NameKind, NameUse};
use crate::{PlayerId, Rules, check_all, compile_tables, diagrams};
use lsp_server::{ErrorCode, Request};
use lsp_types as lsp;
use lsp_types::{
    CompletionItem, CompletionItemKind, DocumentSymbol, Hover, HoverContents, Location,
    MarkupContent, MarkupKind, OneOf, Position, ServerCapabilities, SymbolKind,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri,
};
use miette::Severity;
use serde_json::Value;
use std::sync::Arc;

/// What highlighting tells apart, in the order of the legend.
const TOKEN_TYPES: [lsp::SemanticTokenType; 9] = [
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

/// The word index, whose rows hover shows for a fixed word.
const WORD_INDEX: &str = include_str!("../../docs/words.md");

/// The most characters of a piece's statement shown on hover.
const MOST_RULE_CHARS: usize = 4000;

/// Rows of the word index shown for one word; the rest are counted.
const MOST_ROWS: usize = 6;

/// What the last version of a file that checked gives the answers.
pub struct Checked {
    rules: Arc<Rules>,
}

/// An open document as the answers read it.
pub struct View<'a> {
    pub text: &'a str,
    pub last_good: Option<&'a Checked>,
}

type Failure = (ErrorCode, String);

pub fn initialize_result() -> lsp::InitializeResult {
    lsp::InitializeResult {
        capabilities: ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
            completion_provider: Some(lsp::CompletionOptions::default()),
            hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
            definition_provider: Some(OneOf::Left(true)),
            references_provider: Some(OneOf::Left(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            document_formatting_provider: Some(OneOf::Left(true)),
            semantic_tokens_provider: Some(
                lsp::SemanticTokensOptions {
                    legend: lsp::SemanticTokensLegend {
                        token_types: TOKEN_TYPES.to_vec(),
                        token_modifiers: vec![lsp::SemanticTokenModifier::DECLARATION],
                    },
                    full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                    ..lsp::SemanticTokensOptions::default()
                }
                .into(),
            ),
            ..ServerCapabilities::default()
        },
        server_info: Some(lsp::ServerInfo {
            name: "variantlab".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    }
}

/// The name `variantlab check` would give the file: its path's last part.
fn file_name(uri: &Uri) -> String {
    let s = uri.as_str();
    s.rsplit('/').next().unwrap_or(s).to_string()
}

/// The checker's diagnostics, as `variantlab check` gives them, and what a file that
/// checks gives completion and hover.
pub fn check(uri: &Uri, text: &str) -> (Vec<lsp::Diagnostic>, Option<Checked>) {
    let lines = Lines::new(text);
    if text.len() as u64 > crate::MAX_VARIANT_BYTES {
        let d = lsp::Diagnostic {
            range: lines.range(text, 0, 0),
            severity: Some(lsp::DiagnosticSeverity::ERROR),
            source: Some("variantlab".into()),
            message: format!(
                "the file is {} bytes long; variantlab reads files of at most {} bytes",
                text.len(),
                crate::MAX_VARIANT_BYTES
            ),
            ..lsp::Diagnostic::default()
        };
        return (vec![d], None);
    }
    let checked = check_all(&file_name(uri), text);
    let diagnostics = checked
        .report
        .diagnostics
        .iter()
        .map(|d| {
            let related = d
                .also
                .iter()
                .map(|(span, label)| lsp::DiagnosticRelatedInformation {
                    location: Location::new(uri.clone(), lines.range(text, span.start, span.end)),
                    message: label.clone(),
                })
                .collect::<Vec<_>>();
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message = format!("{message}\nhelp: {help}");
            }
            lsp::Diagnostic {
                range: lines.range(text, d.span.start, d.span.end),
                severity: Some(match d.severity {
                    Severity::Error => lsp::DiagnosticSeverity::ERROR,
                    Severity::Warning => lsp::DiagnosticSeverity::WARNING,
                    Severity::Advice => lsp::DiagnosticSeverity::HINT,
                }),
                code: Some(lsp::NumberOrString::String(d.code.to_string())),
                source: Some("variantlab".into()),
                message,
                related_information: (!related.is_empty()).then_some(related),
                ..lsp::Diagnostic::default()
            }
        })
        .collect();
    let good = checked.variant.and_then(|v| {
        let rules = compile_tables(&v, &v.default_options()).ok()?;
        Some(Checked {
            rules: Arc::new(rules),
        })
    });
    (diagnostics, good)
}

/// The answer to a request, `None` for a method this server does not answer.
pub fn answer<'d>(
    r: &Request,
    documents: &dyn Fn(&Uri) -> Option<View<'d>>,
) -> Result<Option<Value>, Failure> {
    let params = |what: &str| -> Result<(Uri, Position), Failure> {
        let p: lsp::TextDocumentPositionParams = serde_json::from_value(r.params.clone())
            .map_err(|e| (ErrorCode::InvalidParams, format!("{what}: {e}")))?;
        Ok((p.text_document.uri, p.position))
    };
    let open = |uri: &Uri| -> Result<View<'d>, Failure> {
        documents(uri).ok_or_else(|| {
            (
                ErrorCode::InvalidParams,
                format!("`{}` is not open", uri.as_str()),
            )
        })
    };
    let value = match r.method.as_str() {
        "textDocument/completion" => {
            let (uri, at) = params("completion")?;
            let doc = open(&uri)?;
            to_value(completion(&doc, at))
        }
        "textDocument/hover" => {
            let (uri, at) = params("hover")?;
            let doc = open(&uri)?;
            to_value(hover(&doc, at))
        }
        "textDocument/definition" => {
            let (uri, at) = params("definition")?;
            let doc = open(&uri)?;
            let lines = Lines::new(doc.text);
            let found = name_at(&doc, &lines, at).and_then(|(used, all)| {
                all.into_iter()
                    .find(|n| n.declares && n.text == used.text && n.kind == used.kind)
            });
            to_value(found.map(|n| location(&uri, &doc, &lines, &n)))
        }
        "textDocument/references" => {
            let p: lsp::ReferenceParams = serde_json::from_value(r.params.clone())
                .map_err(|e| (ErrorCode::InvalidParams, format!("references: {e}")))?;
            let uri = p.text_document_position.text_document.uri;
            let doc = open(&uri)?;
            let lines = Lines::new(doc.text);
            let at = p.text_document_position.position;
            let found: Vec<Location> = name_at(&doc, &lines, at)
                .map(|(used, all)| {
                    all.into_iter()
                        .filter(|n| n.text == used.text && n.kind == used.kind)
                        .filter(|n| p.context.include_declaration || !n.declares)
                        .map(|n| location(&uri, &doc, &lines, &n))
                        .collect()
                })
                .unwrap_or_default();
            to_value(found)
        }
        "textDocument/documentSymbol" => {
            let p: lsp::DocumentSymbolParams = serde_json::from_value(r.params.clone())
                .map_err(|e| (ErrorCode::InvalidParams, format!("documentSymbol: {e}")))?;
            let doc = open(&p.text_document.uri)?;
            to_value(symbols(&doc))
        }
        "textDocument/semanticTokens/full" => {
            let p: lsp::SemanticTokensParams = serde_json::from_value(r.params.clone())
                .map_err(|e| (ErrorCode::InvalidParams, format!("semanticTokens: {e}")))?;
            let doc = open(&p.text_document.uri)?;
            to_value(lsp::SemanticTokens {
                result_id: None,
                data: semantic_tokens(doc.text),
            })
        }
        "textDocument/formatting" => {
            let p: lsp::DocumentFormattingParams = serde_json::from_value(r.params.clone())
                .map_err(|e| (ErrorCode::InvalidParams, format!("formatting: {e}")))?;
            let doc = open(&p.text_document.uri)?;
            let laid = grammar::layout(doc.text).ok_or_else(|| {
                (
                    ErrorCode::RequestFailed,
                    "the file has syntax errors: it is laid out once they are fixed".to_string(),
                )
            })?;
            let lines = Lines::new(doc.text);
            let edits: Vec<TextEdit> = if laid == doc.text {
                vec![]
            } else {
                vec![TextEdit::new(
                    lines.range(doc.text, 0, doc.text.len()),
                    laid,
                )]
            };
            to_value(edits)
        }
        _ => return Ok(None),
    };
    Ok(Some(value))
}

fn to_value(v: impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn location(uri: &Uri, doc: &View<'_>, lines: &Lines, n: &NameUse) -> Location {
    Location::new(uri.clone(), lines.range(doc.text, n.span.start, n.span.end))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_' || c == '+'
}

/// The byte range of the word at (or just before) a position.
fn word_around(text: &str, at: usize) -> (usize, usize) {
    let start = text[..at]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word_char(*c))
        .last()
        .map_or(at, |(i, _)| i);
    let end = text[at..]
        .char_indices()
        .find(|(_, c)| !is_word_char(*c))
        .map_or(text.len(), |(i, _)| at + i);
    (start, end)
}

/// The name written at a position, and every name of the file.
fn name_at(doc: &View<'_>, lines: &Lines, at: Position) -> Option<(NameUse, Vec<NameUse>)> {
    let at = lines.offset(doc.text, at);
    let all = grammar::names(doc.text)?;
    let used = all
        .iter()
        .find(|n| n.span.start <= at && at <= n.span.end)?
        .clone();
    Some((used, all))
}

fn kind_word(k: NameKind) -> &'static str {
    match k {
        NameKind::Piece => "piece",
        NameKind::Player => "player",
        NameKind::Zone => "zone",
        NameKind::Option => "option",
    }
}

fn completion(doc: &View<'_>, at: Position) -> Vec<CompletionItem> {
    let lines = Lines::new(doc.text);
    let at = lines.offset(doc.text, at);
    let (start, _) = word_around(doc.text, at);
    let typed = &doc.text[start..at];
    let fits = |label: &str| label.starts_with(typed) && label != typed;
    let words = grammar::words_at(doc.text, start);
    let mut items: Vec<CompletionItem> = words
        .iter()
        .filter(|w| fits(w))
        .map(|w| CompletionItem {
            label: w.clone(),
            kind: Some(CompletionItemKind::KEYWORD),
            ..CompletionItem::default()
        })
        .collect();
    // Names: from this text when it parses, else from the last that checked.
    let names: Vec<(String, &'static str)> = match grammar::names(doc.text) {
        Some(all) => all
            .into_iter()
            .filter(|n| n.declares)
            .map(|n| (n.text, kind_word(n.kind)))
            .collect(),
        None => doc.last_good.map_or_else(Vec::new, |c| {
            let v = c.rules.variant();
            v.pieces.iter().map(|p| (p.name.clone(), "piece")).collect()
        }),
    };
    for (name, what) in names {
        if fits(&name) && !items.iter().any(|i| i.label == name) {
            items.push(CompletionItem {
                label: name,
                kind: Some(match what {
                    "piece" => CompletionItemKind::CLASS,
                    "player" => CompletionItemKind::ENUM_MEMBER,
                    "zone" => CompletionItemKind::MODULE,
                    _ => CompletionItemKind::VARIABLE,
                }),
                detail: Some(what.to_string()),
                ..CompletionItem::default()
            });
        }
    }
    // The board's own directions, where the words of directions fit.
    let directions_fit = words.iter().any(|w| w == "orthogonal" || w == "forward");
    if let (true, Some(c)) = (directions_fit, doc.last_good) {
        for d in c.rules.variant().board.directions() {
            for name in std::iter::once(d.name).chain(d.long_name) {
                if fits(name) && !items.iter().any(|i| i.label == name) {
                    items.push(CompletionItem {
                        label: name.to_string(),
                        kind: Some(CompletionItemKind::ENUM_MEMBER),
                        detail: Some("direction".into()),
                        ..CompletionItem::default()
                    });
                }
            }
        }
    }
    items
}

fn hover(doc: &View<'_>, at: Position) -> Option<Hover> {
    let lines = Lines::new(doc.text);
    let offset = lines.offset(doc.text, at);
    let (start, end) = word_around(doc.text, offset);
    if start == end {
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
        let drawn = doc.last_good.and_then(|c| footprint(&c.rules, name));
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
    let entry = word_entry(&doc.text[start..end]);
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

/// The outline: each declared name, and the setup and end blocks, where they start.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn symbols(doc: &View<'_>) -> Vec<DocumentSymbol> {
    let lines = Lines::new(doc.text);
    let mut out = Vec::new();
    let symbol = |name: String, detail: &str, kind, start: usize, end: usize| {
        let range = lines.range(doc.text, start, end);
        DocumentSymbol {
            name,
            detail: Some(detail.to_string()),
            kind,
            tags: None,
            deprecated: None,
            range,
            selection_range: range,
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
                    at + line.trim_end().len(),
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
fn semantic_tokens(text: &str) -> Vec<lsp::SemanticToken> {
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
