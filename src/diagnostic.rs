//! Diagnostics: every problem found in a variant file, with a code, a span and help.

use crate::syntax::Span;
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, Severity};
use std::fmt;
use std::sync::Arc;

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
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            help: None,
        }
    }
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }
    pub fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
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
        for d in &self.diagnostics {
            let shown = Shown {
                diagnostic: d,
                source: &self.source,
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

/// A diagnostic paired with its source, as miette wants it.
struct Shown<'a> {
    diagnostic: &'a Diagnostic,
    source: &'a NamedSource<String>,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.diagnostic.fmt(f)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
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
        self.diagnostic
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let label = (!self.diagnostic.label.is_empty()).then(|| self.diagnostic.label.clone());
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            label,
            self.diagnostic.span,
        ))))
    }
}
