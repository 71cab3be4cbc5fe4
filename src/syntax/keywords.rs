//! The words of the language, read from the grammar itself, so a word added to the
//! grammar is suggested for misspellings without being listed anywhere else.

use super::Rule;
use std::sync::OnceLock;

const GRAMMAR: &str = include_str!("../../grammar/variant.pest");

/// Every fixed word the grammar contains (such as `step`, `orthogonal`, `flat-topped`),
/// sorted, once each.
pub fn words() -> &'static [&'static str] {
    static WORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words: Vec<&str> = GRAMMAR
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .flat_map(|l| l.split('"').skip(1).step_by(2))
            .filter(|w| {
                w.len() > 1
                    && w.starts_with(|c: char| c.is_ascii_lowercase())
                    && w.chars().all(|c| c.is_ascii_lowercase() || c == '-')
            })
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    })
}

/// The word a `kw_*` rule stands for.
pub fn keyword_of(rule: Rule) -> Option<String> {
    let name = format!("{rule:?}");
    name.strip_prefix("kw_").map(|w| w.replace('_', "-"))
}

/// Whether a rule is one of the grammar's fixed words.
pub fn is_keyword_rule(rule: Rule) -> bool {
    static FLAGS: OnceLock<Vec<bool>> = OnceLock::new();
    let flags = FLAGS.get_or_init(|| {
        let rules = Rule::all_rules();
        let size = rules.iter().map(|r| *r as usize + 1).max().unwrap_or(0);
        let mut flags = vec![false; size];
        for r in rules {
            flags[*r as usize] = keyword_of(*r).is_some();
        }
        flags
    });
    flags.get(rule as usize).copied().unwrap_or(false)
}
