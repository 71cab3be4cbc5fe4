//! What the server answers: diagnostics, completion, hover, definitions, references,
//! the outline and the layout, each from the library's own passes.

use super::document::{Checked, View, kind_word, name_at, word_around};
use super::text::Lines;
use crate::check_all;
use crate::grammar::{self, NameUse};
use lsp_server::{ErrorCode, Request};
use lsp_types as lsp;
use lsp_types::{
    CompletionItem, CompletionItemKind, Location, OneOf, Position, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri,
};
use miette::Severity;
use serde_json::Value;

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
                        token_types: super::outline::TOKEN_TYPES.to_vec(),
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
    let good = checked.variant.map(Checked::new);
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
            to_value(super::hover::hover(&doc, at))
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
            to_value(super::outline::symbols(&doc))
        }
        "textDocument/semanticTokens/full" => {
            let p: lsp::SemanticTokensParams = serde_json::from_value(r.params.clone())
                .map_err(|e| (ErrorCode::InvalidParams, format!("semanticTokens: {e}")))?;
            let doc = open(&p.text_document.uri)?;
            to_value(lsp::SemanticTokens {
                result_id: None,
                data: super::outline::semantic_tokens(doc.text),
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

/// The kinds of name an unknown-name code asks for.
const UNKNOWN: [(&str, &str); 5] = [
    ("variantlab::unknown_piece", "piece"),
    ("variantlab::unknown_player", "player"),
    ("variantlab::unknown_zone", "zone"),
    ("variantlab::unknown_option", "option"),
    ("variantlab::unknown_direction", "direction"),
];

fn completion(doc: &View<'_>, at: Position) -> Vec<CompletionItem> {
    let lines = Lines::new(doc.text);
    let at = lines.offset(doc.text, at);
    let (start, end) = word_around(doc.text, at);
    // Nothing to offer inside a comment or quoted text.
    let inside = grammar::lexemes(doc.text)
        .into_iter()
        .any(|(span, lexeme)| lexeme != grammar::Lexeme::Word && span.start < at && at <= span.end);
    if inside {
        return vec![];
    }
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
    // Which names fit: the kind the checker found wanting for the word being typed
    // (`unknown piece`), else any kind where the grammar takes a name.
    let range = lines.range(doc.text, start, end);
    let wanted = doc.diagnostics.iter().find_map(|d| match &d.code {
        Some(lsp::NumberOrString::String(code)) if d.range == range => UNKNOWN
            .iter()
            .find(|(c, _)| c == code)
            .map(|(_, kind)| *kind),
        _ => None,
    });
    let names_fit = wanted.is_some() || grammar::name_fits(doc.text, start);
    // Names: from this text when it reads, else from the last that checked.
    let names: Vec<(String, &'static str)> = match grammar::names(doc.text) {
        Some(all) => all
            .into_iter()
            .filter(|n| n.declares)
            .map(|n| (n.text, kind_word(n.kind)))
            .collect(),
        None => doc.last_good.map_or_else(Vec::new, |c| {
            let v = c.variant();
            v.pieces.iter().map(|p| (p.name.clone(), "piece")).collect()
        }),
    };
    let mut offer = |label: &str, what: &str, kind| {
        if fits(label) && !items.iter().any(|i| i.label == label) {
            items.push(CompletionItem {
                label: label.to_string(),
                kind: Some(kind),
                detail: Some(what.to_string()),
                ..CompletionItem::default()
            });
        }
    };
    for (name, what) in names {
        if names_fit && wanted.is_none_or(|w| w == what) {
            let kind = match what {
                "piece" => CompletionItemKind::CLASS,
                "player" => CompletionItemKind::ENUM_MEMBER,
                "zone" => CompletionItemKind::MODULE,
                _ => CompletionItemKind::VARIABLE,
            };
            offer(&name, what, kind);
        }
    }
    // The board's own directions, where the words of directions fit or the checker
    // wants a direction.
    let directions_fit =
        wanted == Some("direction") || words.iter().any(|w| w == "orthogonal" || w == "forward");
    if let (true, Some(c)) = (directions_fit, doc.last_good) {
        for d in c.variant().board.directions() {
            for name in std::iter::once(d.name).chain(d.long_name) {
                offer(name, "direction", CompletionItemKind::ENUM_MEMBER);
            }
        }
    }
    items
}
