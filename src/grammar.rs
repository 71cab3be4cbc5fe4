//! The grammar of variant files, for tools that check text against it.

pub use crate::syntax::{
    MAX_SYNTAX_ERRORS, parses_as, reads_as_variant, rule_names, rules_used, words,
};
