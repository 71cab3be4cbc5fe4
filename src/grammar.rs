//! The grammar of variant files, for tools that check text against it.

pub use crate::syntax::{
    Lexeme, MAX_SYNTAX_ERRORS, NameKind, NameUse, layout, lexemes, name_fits, names, parses_as,
    reads_as_variant, rule_names, rules_used, statement_at, words, words_at,
};
