//! An open document as the answers read it: its text, what its last version that
//! checked gives, and the words and names at a place.

use super::text::Lines;
use crate::grammar::{self, NameKind, NameUse};
use crate::{Rules, Variant, compile_tables};
use lsp_types::Position;
use std::sync::{Arc, OnceLock};

/// What the last version of a file that checked gives the answers: its variant, and
/// the move tables compiled from it the first time a hover draws a piece (checking
/// already took the time a keystroke may take).
pub struct Checked {
    variant: Variant,
    rules: OnceLock<Option<Arc<Rules>>>,
}

impl Checked {
    pub fn new(variant: Variant) -> Checked {
        Checked {
            variant,
            rules: OnceLock::new(),
        }
    }
}

impl Checked {
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    pub fn rules(&self) -> Option<&Arc<Rules>> {
        self.rules
            .get_or_init(|| {
                let v = &self.variant;
                compile_tables(v, &v.default_options()).ok().map(Arc::new)
            })
            .as_ref()
    }
}

/// An open document as the answers read it.
pub struct View<'a> {
    pub text: &'a str,
    pub last_good: Option<&'a Checked>,
    pub diagnostics: &'a [lsp_types::Diagnostic],
}

pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_' || c == '+'
}

/// The byte range of the word at (or just before) a position.
pub fn word_around(text: &str, at: usize) -> (usize, usize) {
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
pub fn name_at(doc: &View<'_>, lines: &Lines, at: Position) -> Option<(NameUse, Vec<NameUse>)> {
    let at = lines.offset(doc.text, at);
    let all = grammar::names(doc.text)?;
    let used = all
        .iter()
        .find(|n| n.span.start <= at && at <= n.span.end)?
        .clone();
    Some((used, all))
}

pub fn kind_word(k: NameKind) -> &'static str {
    match k {
        NameKind::Piece => "piece",
        NameKind::Player => "player",
        NameKind::Zone => "zone",
        NameKind::Option => "option",
    }
}
