//! Diagnostics: every problem found in a variant file, with a code, a span and help.

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, Severity};
use std::fmt;
use std::sync::Arc;

/// Byte range in the source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start, s.len()).into()
    }
}

/// One problem in a variant file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// A stable code such as `variantlab::unknown_piece`.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
    /// Other places worth showing, such as the first of two declarations.
    pub also: Vec<(Span, String)>,
    /// The word a "did you mean" help suggests, which the help starts with.
    pub meant: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: cut_long_words(message.into()),
            span,
            label: String::new(),
            help: None,
            also: Vec::new(),
            meant: None,
        }
    }
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }
    pub fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = cut_long_words(label.into());
        self
    }
    /// Labels another place in the file.
    pub fn also(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.also.push((span, label.into()));
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(cut_long_words(help.into()));
        self
    }
    /// Suggests a word: the help becomes "did you mean `WORD`?", then what it said.
    pub fn meant(mut self, word: impl Into<String>) -> Diagnostic {
        let word = word.into();
        let rest = match (&self.help, &self.meant) {
            (Some(h), Some(old)) => h
                .strip_prefix(&format!("did you mean `{old}`?"))
                .unwrap_or(h)
                .trim_start()
                .to_string(),
            (Some(h), None) => h.clone(),
            (None, _) => String::new(),
        };
        let mut help = format!("did you mean `{word}`?");
        let mut rest = rest.chars();
        if let Some(first) = rest.next() {
            help.push(' ');
            help.extend(first.to_uppercase());
            help.extend(rest);
        }
        self.help = Some(cut_long_words(help));
        self.meant = Some(word);
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// The code without the `variantlab::` prefix: the name `variantlab explain` and
    /// docs/errors.md know it by.
    pub fn short_code(&self) -> &'static str {
        self.code.strip_prefix("variantlab::").unwrap_or(self.code)
    }
    /// The help line as printed: the help, then where the code is explained.
    pub fn shown_help(&self) -> String {
        let pointer = format!("`variantlab explain {}`", self.short_code());
        match &self.help {
            Some(h) => format!("{h} (more: {pointer})"),
            None => format!("more: {pointer}"),
        }
    }
}

/// Longest word a message quotes whole; a file's word may be megabytes long.
const LONGEST_QUOTED_WORD: usize = 40;

/// Cuts every word longer than [`LONGEST_QUOTED_WORD`] characters short, with `...`.
fn cut_long_words(text: String) -> String {
    let mut run = 0usize;
    if text.chars().all(|c| {
        run = if c.is_alphanumeric() { run + 1 } else { 0 };
        run <= LONGEST_QUOTED_WORD
    }) {
        return text;
    }
    let mut out = String::new();
    run = 0;
    for c in text.chars() {
        run = if c.is_alphanumeric() { run + 1 } else { 0 };
        if run <= LONGEST_QUOTED_WORD {
            out.push(c);
        } else if run == LONGEST_QUOTED_WORD + 1 {
            out.push_str("...");
        }
    }
    out
}

/// All diagnostics of one file, with the file itself: what `check` reports.
#[derive(Clone, Debug)]
pub struct Report {
    pub source: Arc<NamedSource<String>>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    pub fn new(name: &str, text: &str, mut diagnostics: Vec<Diagnostic>) -> Report {
        diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
        Report {
            source: Arc::new(NamedSource::new(name, text.to_string())),
            diagnostics,
        }
    }
    /// The name the file is reported under.
    pub fn name(&self) -> &str {
        self.source.name()
    }
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }

    /// Renders every diagnostic as text, `width` columns wide, in colour or not.
    pub fn render(&self, width: usize, colour: bool) -> String {
        let theme = if colour {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let handler = GraphicalReportHandler::new_themed(theme).with_width(width);
        let mut out = String::new();
        let text = self.source.inner();
        let mut locator = Locator::new(text);
        for d in &self.diagnostics {
            let unquoted_at = (!quotable(text, d.span)).then(|| locator.locate(d.span.start));
            let shown = Shown {
                diagnostic: d,
                source: &self.source,
                unquoted_at,
            };
            if handler.render_report(&mut out, &shown).is_err() {
                out.push_str(&d.message);
                out.push('\n');
            }
        }
        out
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} error(s), {} warning(s)",
            self.source.name(),
            self.errors(),
            self.warnings()
        )
    }
}

impl std::error::Error for Report {}

/// Lines longer than this are not quoted: miette cannot draw a label beyond column
/// 65535, and quoting a huge line again for each of its diagnostics floods the output.
const MAX_QUOTED_LINE: usize = 4000;

/// Whether the lines a snippet of `span` would show (with one line of context either
/// side) are short enough to quote. Looks no further than one line's limit from the span.
fn quotable(text: &str, span: Span) -> bool {
    let bytes = text.as_bytes();
    let limit = MAX_QUOTED_LINE + 1;
    // Where the line holding `at` starts or ends, if within the limit.
    let line_start = |at: usize| {
        let from = at.saturating_sub(limit);
        bytes[from..at]
            .iter()
            .rposition(|b| *b == b'\n')
            .map(|i| from + i + 1)
            .or((from == 0).then_some(0))
    };
    let line_end = |at: usize| {
        let to = (at + limit).min(bytes.len());
        bytes[at..to]
            .iter()
            .position(|b| *b == b'\n')
            .map(|i| at + i)
            .or((to == bytes.len()).then_some(to))
    };
    let (start, end) = (span.start.min(bytes.len()), span.end.min(bytes.len()));
    let from = line_start(start).and_then(|s| line_start(s.saturating_sub(1)));
    let to = line_end(end).and_then(|e| line_end((e + 1).min(bytes.len())));
    let (Some(from), Some(to)) = (from, to) else {
        return false;
    };
    bytes[from..to]
        .split(|b| *b == b'\n')
        .all(|l| l.len() <= MAX_QUOTED_LINE)
}

/// Finds the line and column (from 1, in characters) of byte offsets, reading on from
/// the last one asked, so locating every diagnostic of a file reads it once.
struct Locator<'t> {
    text: &'t [u8],
    at: usize,
    line: usize,
    column: usize,
}

impl Locator<'_> {
    fn new(text: &str) -> Locator<'_> {
        Locator {
            text: text.as_bytes(),
            at: 0,
            line: 1,
            column: 1,
        }
    }
    fn locate(&mut self, to: usize) -> (usize, usize) {
        if to < self.at {
            *self = Locator {
                text: self.text,
                at: 0,
                line: 1,
                column: 1,
            };
        }
        let to = to.min(self.text.len());
        for &b in &self.text[self.at..to] {
            if b == b'\n' {
                (self.line, self.column) = (self.line + 1, 1);
            } else if b & 0xC0 != 0x80 {
                self.column += 1;
            }
        }
        self.at = to;
        (self.line, self.column)
    }
}

/// A diagnostic paired with its source, as miette wants it. When its lines are too long
/// to quote, the message gives its line and column instead.
struct Shown<'a> {
    diagnostic: &'a Diagnostic,
    source: &'a NamedSource<String>,
    unquoted_at: Option<(usize, usize)>,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.diagnostic.fmt(f)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)?;
        if let Some((line, column)) = self.unquoted_at {
            write!(f, " ({}:{line}:{column})", self.source.name())?;
        }
        Ok(())
    }
}

impl std::error::Error for Shown<'_> {}

impl miette::Diagnostic for Shown<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.diagnostic.code))
    }
    fn severity(&self) -> Option<Severity> {
        Some(self.diagnostic.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.diagnostic.shown_help()))
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.unquoted_at
            .is_none()
            .then_some(self.source as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.unquoted_at.is_some() {
            return None;
        }
        let d = self.diagnostic;
        let label = (!d.label.is_empty()).then(|| d.label.clone());
        let main = LabeledSpan::new_with_span(label, d.span);
        let others = d
            .also
            .iter()
            .map(|(span, l)| LabeledSpan::new_with_span(Some(l.clone()), *span));
        Some(Box::new(std::iter::once(main).chain(others)))
    }
}
