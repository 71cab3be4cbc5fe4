//! Parsing: pest grammar to syntax tree, with syntax errors in plain words.

mod ast;
mod errors;
mod lower;

pub use ast::*;

use crate::diagnostic::Diagnostic;
use pest::Parser;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/variant.pest"]
pub(crate) struct VariantParser;

/// Parses a whole file. Syntax errors do not stop the parse: after each one it resumes
/// at the next line that starts a top-level statement, so one run reports them all.
pub fn parse(text: &str) -> (File, Vec<Diagnostic>) {
    // Lets syntax errors name missing punctuation; costs nothing on files that parse.
    pest::set_error_detail(true);
    let mut file = File::default();
    let mut diagnostics = Vec::new();
    let mut offset = 0;
    // Each round either finishes or resumes strictly further on, so this ends.
    loop {
        match VariantParser::parse(Rule::file, &text[offset..]) {
            Ok(mut pairs) => {
                let root = pairs.next().expect("file rule");
                let mut lowered = lower::lower_file(root, offset, &mut diagnostics);
                file.statements.append(&mut lowered.statements);
                break;
            }
            Err(e) => {
                let d = errors::describe(&e, text, offset);
                let resume = errors::resume_point(text, d.span.start.max(offset));
                // Keep what parsed cleanly before the error.
                if let Some(stop) = errors::statement_start_before(text, offset, d.span.start)
                    && stop > offset
                    && let Ok(mut pairs) = VariantParser::parse(Rule::file, &text[offset..stop])
                {
                    let root = pairs.next().expect("file rule");
                    let mut lowered = lower::lower_file(root, offset, &mut diagnostics);
                    file.statements.append(&mut lowered.statements);
                }
                diagnostics.push(d);
                match resume {
                    Some(r) if r > offset => offset = r,
                    _ => break,
                }
            }
        }
    }
    (file, diagnostics)
}

/// Parses text as one grammar rule, whole; for tests of single rules.
pub fn parses_as(rule: Rule, text: &str) -> bool {
    VariantParser::parse(rule, text)
        .is_ok_and(|mut p| p.next().is_some_and(|p| p.as_str() == text.trim()))
}

pub use self::Rule as GrammarRule;
