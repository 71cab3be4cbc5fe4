//! Parsing: pest grammar to syntax tree, with syntax errors in plain words.

mod ast;
mod end;
mod errors;
mod keywords;
mod layout;
mod lexical;
mod lower;
mod names;
mod node;
mod pairs;

pub use ast::*;
pub use errors::{name_fits, words_at};
pub use keywords::words;
pub use layout::layout;
pub use lexical::{Lexeme, lexemes};
pub use names::{NameKind, NameUse, names, statement_at};

use crate::diagnostic::Diagnostic;
use pest::Parser;

/// The parser pest generates; its rule names stay inside the crate.
mod parser {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/variant.pest"]
    pub struct VariantParser;
}
pub(crate) use parser::{Rule, VariantParser};

/// Syntax errors described in full; past them, only counted.
pub const MAX_SYNTAX_ERRORS: usize = 100;

/// Parses a whole file. Syntax errors do not stop the parse: after each one it resumes
/// at the next line that starts a top-level statement, so one run reports them all.
pub fn parse(text: &str) -> (File, Vec<Diagnostic>) {
    // Lets syntax errors name missing punctuation; costs nothing on files that parse.
    pest::set_error_detail(true);
    let mut file = File::default();
    let mut diagnostics = Vec::new();
    let mut offset = 0;
    let mut errors = 0usize;
    let mut first_unshown: Option<Span> = None;
    // Each round either finishes or resumes strictly further on, so this ends.
    loop {
        let end = errors::window_end(text, offset);
        match VariantParser::parse(Rule::file, &text[offset..end]) {
            Ok(mut pairs) => {
                let root = pairs.next().expect("file rule");
                let mut lowered = lower::lower_file(root, offset, &mut diagnostics);
                file.statements.append(&mut lowered.statements);
                if end == text.len() {
                    break;
                }
                offset = end;
            }
            Err(e) => {
                errors += 1;
                let at = offset
                    + match e.location {
                        pest::error::InputLocation::Pos(p) => p,
                        pest::error::InputLocation::Span((s, _)) => s,
                    };
                let mut skip_from = offset;
                let resume_from = if errors <= MAX_SYNTAX_ERRORS {
                    let d = errors::describe(&e, text, offset);
                    // Keep what parsed cleanly before the error.
                    if let Some(stop) = errors::statement_start_before(text, offset, d.span.start)
                        && stop > offset
                        && let Ok(mut pairs) = VariantParser::parse(Rule::file, &text[offset..stop])
                    {
                        let root = pairs.next().expect("file rule");
                        let mut lowered = lower::lower_file(root, offset, &mut diagnostics);
                        file.statements.append(&mut lowered.statements);
                        skip_from = stop;
                    }
                    let from = d.span.start.max(offset);
                    diagnostics.push(d);
                    from
                } else {
                    first_unshown.get_or_insert(Span::new(at, at));
                    at.max(offset)
                };
                let resume = errors::resume_point(text, offset, resume_from);
                file.skipped
                    .push(Span::new(skip_from, resume.unwrap_or(text.len())));
                match resume {
                    Some(r) if r > offset => offset = r,
                    _ => break,
                }
            }
        }
    }
    if let Some(span) = first_unshown {
        let more = errors - MAX_SYNTAX_ERRORS;
        diagnostics.push(
            Diagnostic::error(
                "variantlab::syntax",
                span,
                format!("{more} more syntax errors from here on are not shown"),
            )
            .label("not shown")
            .help(format!(
                "the first {MAX_SYNTAX_ERRORS} syntax errors are shown; fix them and check again"
            )),
        );
    }
    (file, diagnostics)
}

/// Whether a text reads as a variant file or a draft of one, errors and all: some
/// statement of it parses, or its first line (past blank lines and `#` comments)
/// begins with a statement's first word (`name`, `board`, `piece`, ...).
pub fn reads_as_variant(text: &str) -> bool {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    first.is_some_and(errors::starts_statement) || !parse(text).0.statements.is_empty()
}

/// A word of the language that fits where the word at `at` stands and is a near
/// spelling of it (`forward` for `forwards`), with the edits between them.
pub fn word_meant(text: &str, at: Span) -> Option<(usize, String)> {
    errors::word_meant(text, at)
}

/// Parses text as the grammar rule named `rule`, whole; for tests of single rules.
/// Panics on a name the grammar does not have, so a test cannot pass by mistake.
pub fn parses_as(rule: &str, text: &str) -> bool {
    let rule = *Rule::all_rules()
        .iter()
        .find(|r| format!("{r:?}") == rule)
        .unwrap_or_else(|| panic!("the grammar has no rule `{rule}`"));
    VariantParser::parse(rule, text)
        .is_ok_and(|mut p| p.next().is_some_and(|p| p.as_str() == text.trim()))
}

/// The grammar's rules that appear in the parse tree of a whole file, or `None` when
/// it does not parse; tools count with it which words a set of files uses.
pub fn rules_used(text: &str) -> Option<std::collections::BTreeSet<String>> {
    let pairs = VariantParser::parse(Rule::file, text).ok()?;
    Some(
        pairs
            .flatten()
            .map(|p| format!("{:?}", p.as_rule()))
            .collect(),
    )
}

/// The names of all the grammar's rules, silent ones included.
pub fn rule_names() -> Vec<String> {
    Rule::all_rules().iter().map(|r| format!("{r:?}")).collect()
}

#[cfg(test)]
mod tests;
