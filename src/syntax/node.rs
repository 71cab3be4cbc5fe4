//! What every node of the syntax tree is made of: spans, names and guards.

use std::fmt;

pub use crate::diagnostic::Span;

/// A node with the place it came from. Two nodes are equal when their contents are,
/// wherever they stand.
#[derive(Clone)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.node == other.node
    }
}

impl<T: fmt::Debug> fmt::Debug for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.node.fmt(f)
    }
}

pub type Name = Spanned<String>;

/// `if name:` (when = true) or `unless name:` (when = false).
#[derive(Clone, Debug, PartialEq)]
pub struct Guard {
    pub option: Name,
    pub when: bool,
}
