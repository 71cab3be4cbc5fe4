//! What every lowering function uses: the pairs pest gives, and the lowering state.

use super::Rule;
use super::node::*;
use crate::diagnostic::Diagnostic;
use pest::iterators::Pair;

pub(super) type P<'a> = Pair<'a, Rule>;

/// Whether a pair carries content: the grammar's fixed words (`kw_*` rules) only mark
/// word boundaries and say nothing the enclosing rule does not.
pub(super) fn content(p: &P) -> bool {
    !super::keywords::is_keyword_rule(p.as_rule())
}

/// Lowering state: where the parsed text starts in the file, and problems found.
pub(super) struct Ctx<'d> {
    pub(super) offset: usize,
    pub(super) diagnostics: &'d mut Vec<Diagnostic>,
}

impl Ctx<'_> {
    /// A pair's span, less the blanks an optional last element may have taken.
    pub(super) fn span(&self, p: &P) -> Span {
        let s = p.as_span();
        let trailing = s.as_str().len() - s.as_str().trim_end().len();
        Span::new(self.offset + s.start(), self.offset + s.end() - trailing)
    }
    pub(super) fn name(&self, p: &P) -> Name {
        Spanned::new(p.as_str().to_string(), self.span(p))
    }
    pub(super) fn number(&mut self, p: &P) -> Spanned<u32> {
        let span = self.span(p);
        let value = p.as_str().parse::<u32>().unwrap_or_else(|_| {
            self.diagnostics.push(
                Diagnostic::error(
                    "variantlab::number_too_large",
                    span,
                    "this number is too large",
                )
                .label("too large")
                .help("numbers in a variant file must be below 4294967296"),
            );
            u32::MAX
        });
        Spanned::new(value, span)
    }
    pub(super) fn string(&self, p: P) -> Name {
        let span = self.span(&p);
        let inner = p
            .into_inner()
            .find(content)
            .and_then(|s| s.into_inner().find(content));
        Spanned::new(
            inner.map(|t| t.as_str().to_string()).unwrap_or_default(),
            span,
        )
    }
}

pub(super) fn lower_guard(cx: &mut Ctx, p: P) -> Guard {
    let mut inner = p.into_inner().filter(content);
    let when = inner.next().unwrap().as_rule() == Rule::if_kw;
    Guard {
        option: cx.name(&inner.next().unwrap()),
        when,
    }
}

/// The kinds whose moves restart a count of quiet plies, each with whether `forward`
/// came before it.
pub(super) fn quiet_kinds(cx: &Ctx, parts: &[P]) -> Vec<(Name, bool)> {
    let mut forward = false;
    let mut kinds = vec![];
    for p in parts {
        match p.as_rule() {
            Rule::kw_forward => forward = true,
            Rule::ident => kinds.push((cx.name(p), std::mem::take(&mut forward))),
            _ => {}
        }
    }
    kinds
}
