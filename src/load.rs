//! The library's entry point: from a variant file's text to compiled rules, with one
//! typed error for everything that can stop it.
//!
//! ```
//! use variantlab::{Rules, Settings};
//!
//! let text = r#"
//! name "Two Kings"
//! board square 3 by 3
//! player White: forward north, capitals
//! player Black: forward south, lowercase
//! piece King (K) {
//!   step 1 any
//! }
//! setup {
//!   White: King a1
//!   Black: King c3
//! }
//! game ends {
//!   King captured: mover wins
//! }
//! "#;
//! let rules = Rules::from_text(text, &Settings::new()).unwrap();
//! assert_eq!(rules.variant().pieces.len(), 1);
//!
//! // Every mistake comes back at once, each with its place in the text.
//! let broken = text.replace("step 1 any", "stpe 1 any");
//! match Rules::from_text(&broken, &Settings::new()) {
//!     Err(variantlab::LoadError::Diagnostics(report)) => assert!(report.has_errors()),
//!     _ => panic!("a misspelt word is an error"),
//! }
//! let unknown = Rules::from_text(text, &Settings::new().with("no-such-option", true));
//! assert!(matches!(unknown, Err(variantlab::LoadError::UnknownOption { .. })));
//! ```

use crate::check::{Checked, check};
use crate::compile::{CompileError, MAX_CASTLINGS, Rules, compile_tables};
use crate::diagnostic::{Diagnostic, Report, Span};
use crate::model::{PieceId, PlayerId, Variant};
use crate::runtime::{Ending, Game, PositionError};
use crate::syntax::{self, SetupDecl, Statement};
use miette::Severity;
use std::fmt;
use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest variant file read (1 MiB); real ones are a few kilobytes.
pub const MAX_VARIANT_BYTES: u64 = 1 << 20;

/// Option settings by name: `NAME=on` on a command line, an object on the page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    options: Vec<(String, bool)>,
}

impl Settings {
    /// Every option at its default.
    pub fn new() -> Settings {
        Settings::default()
    }

    /// These settings with the option `name` set to `on` (replacing an earlier value).
    pub fn with(mut self, name: &str, on: bool) -> Settings {
        self.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.options.push((name.to_string(), on));
        self
    }

    /// Reads `NAME=VALUE` settings (see [`parse_switch`]); each name at most once.
    pub fn parse<S: AsRef<str>>(items: &[S]) -> Result<Settings, SettingsError> {
        let mut out = Settings::new();
        for item in items {
            let s = item.as_ref();
            let (name, value) = s
                .split_once('=')
                .ok_or_else(|| SettingsError::NoValue(s.to_string()))?;
            let name = name.trim();
            if name.is_empty() {
                return Err(SettingsError::NoName(s.to_string()));
            }
            let on = parse_switch(value).ok_or_else(|| SettingsError::BadValue {
                text: s.to_string(),
                value: value.trim().to_string(),
            })?;
            if out.get(name).is_some() {
                return Err(SettingsError::Twice {
                    text: s.to_string(),
                    name: name.to_string(),
                });
            }
            out.options.push((name.to_string(), on));
        }
        Ok(out)
    }

    /// The settings made, in order.
    pub fn options(&self) -> &[(String, bool)] {
        &self.options
    }

    /// The value set for an option, any case.
    pub fn get(&self, name: &str) -> Option<bool> {
        self.options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, on)| *on)
    }

    /// Every option's value for a variant: its defaults, then these settings.
    pub fn values(&self, v: &Variant) -> Result<Vec<bool>, LoadError> {
        let mut values = v.default_options();
        for (name, on) in &self.options {
            let id = v
                .find_option(name)
                .ok_or_else(|| LoadError::UnknownOption {
                    name: name.clone(),
                    known: v.options.iter().map(|o| o.name.clone()).collect(),
                })?;
            values[id.0 as usize] = *on;
        }
        Ok(values)
    }
}

impl FromIterator<(String, bool)> for Settings {
    fn from_iter<I: IntoIterator<Item = (String, bool)>>(iter: I) -> Settings {
        iter.into_iter()
            .fold(Settings::new(), |s, (n, on)| s.with(&n, on))
    }
}

/// An option's value: `on`, `off`, `yes`, `no`, `true` or `false`, in any case.
pub fn parse_switch(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Some(true),
        "off" | "no" | "false" => Some(false),
        _ => None,
    }
}

/// Why a `NAME=VALUE` setting cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    NoValue(String),
    NoName(String),
    BadValue { text: String, value: String },
    Twice { text: String, name: String },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::NoValue(s) => write!(f, "`{s}`: write an option as NAME=on or NAME=off"),
            SettingsError::NoName(s) => write!(f, "`{s}`: the option's name is missing before `=`"),
            SettingsError::BadValue { text, value } => write!(
                f,
                "`{text}`: `{value}` is not a value for an option; write on or off (yes/no and true/false also work, in any case)"
            ),
            SettingsError::Twice { text, name } => {
                write!(f, "`{text}`: the option `{name}` is set twice")
            }
        }
    }
}

impl std::error::Error for SettingsError {}

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A device, a pipe or a folder: never read, so `/dev/zero` cannot fill memory.
    NotAFile { path: PathBuf, what: &'static str },
    TooLarge {
        path: PathBuf,
        limit: u64,
        what: &'static str,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            ReadError::NotAFile { path, what } => write!(
                f,
                "{} is not a regular file; a {what} is read only from one",
                path.display()
            ),
            ReadError::TooLarge { path, limit, what } => write!(
                f,
                "{} is larger than {limit} bytes, the most a {what} may be",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads a regular file of at most `limit` bytes; `what` names it in errors. Devices,
/// pipes and folders are refused before reading.
pub fn read_limited(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    let io = |error| ReadError::Io {
        path: path.to_path_buf(),
        error,
    };
    let meta = fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile {
            path: path.to_path_buf(),
            what,
        });
    }
    let too_big = || ReadError::TooLarge {
        path: path.to_path_buf(),
        limit,
        what,
    };
    if meta.len() > limit {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    // The file may have grown since its size was read.
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Reads a variant file: a regular file of at most [`MAX_VARIANT_BYTES`]. Bytes that
/// are not UTF-8 become U+FFFD, which the checker then reports where they stand.
pub fn read_variant_text(path: &Path) -> Result<String, ReadError> {
    let bytes = read_limited(path, MAX_VARIANT_BYTES, "variant file")?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Why rules could not be made from a variant file.
#[derive(Debug)]
pub enum LoadError {
    Read(ReadError),
    /// The text does not check: every diagnostic, ready to render.
    Diagnostics(Box<Report>),
    /// A setting names an option the variant does not have.
    UnknownOption {
        name: String,
        known: Vec<String>,
    },
    /// The variant checks but is beyond what the tables hold.
    Compile(CompileError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Read(e) => e.fmt(f),
            LoadError::Diagnostics(report) => write!(
                f,
                "{} does not check:\n{}",
                report.name(),
                report.render(100, false)
            ),
            LoadError::UnknownOption { name, known } => write!(
                f,
                "there is no option `{name}`; this variant has: {}",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ),
            LoadError::Compile(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<ReadError> for LoadError {
    fn from(e: ReadError) -> LoadError {
        LoadError::Read(e)
    }
}

impl Rules {
    /// Checks and compiles a variant's text with these option settings.
    pub fn from_text(text: &str, settings: &Settings) -> Result<Rules, LoadError> {
        Rules::from_named_text("variant", text, settings)
    }

    /// [`Rules::from_text`], naming the text `name` in diagnostics (a file's path).
    pub fn from_named_text(
        name: &str,
        text: &str,
        settings: &Settings,
    ) -> Result<Rules, LoadError> {
        let checked = check(name, text);
        let Some(v) = checked.variant else {
            return Err(LoadError::Diagnostics(Box::new(checked.report)));
        };
        let values = settings.values(&v)?;
        compile_tables(&v, &values).map_err(LoadError::Compile)
    }

    /// Reads (see [`read_variant_text`]), checks and compiles a variant file.
    pub fn from_file(path: &Path, settings: &Settings) -> Result<Rules, LoadError> {
        let text = read_variant_text(path)?;
        Rules::from_named_text(&path.display().to_string(), &text, settings)
    }
}

/// What `variantlab check` reports: [`check`], then what only compiled rules can tell,
/// with every option at its default: the rules compile, and a game can start from the
/// start position other commands set up (a random setup drawn as with seed 0).
pub fn check_all(name: &str, text: &str) -> Checked {
    let checked = check(name, text);
    let Some(found) = checked
        .variant
        .as_ref()
        .and_then(|v| start_problem(v, text))
    else {
        return checked;
    };
    let variant = match found.severity {
        Severity::Error => None,
        _ => checked.variant,
    };
    let mut diagnostics = checked.report.diagnostics;
    diagnostics.push(found);
    Checked {
        variant,
        report: Report::new(name, text, diagnostics),
    }
}

/// Why the checked variant cannot be played as other commands load it (an error), or
/// a warning that its game is over before the first move.
fn start_problem(v: &Variant, text: &str) -> Option<Diagnostic> {
    let rules = match compile_tables(v, &v.default_options()) {
        Ok(r) => std::sync::Arc::new(r),
        Err(e) => return Some(too_large(&e, text)),
    };
    // The game decides what position it may start from, as every command starts one.
    match Game::start(rules.clone(), 0) {
        Ok(game) => game.ending().map(|end| over_at_start(end, text)),
        Err(e) => Some(unplayable(&rules, &e, text)),
    }
}

/// `over_at_start`: an end rule holds in the start position, so no move is ever made.
fn over_at_start(end: &Ending, text: &str) -> Diagnostic {
    let (file, _) = syntax::parse(text);
    let rules = file.statements.iter().filter_map(|s| match s {
        Statement::End(list) => Some(list),
        _ => None,
    });
    // Checked files have one model rule per written rule, in order.
    let span = rules
        .flatten()
        .nth(end.rule)
        .map_or_else(Span::default, |r| r.condition.span);
    Diagnostic::warning(
        "variantlab::over_at_start",
        span,
        format!("the game is over before the first move: {}", end.reason),
    )
    .label("this holds in the start position")
    .help(
        "an end rule should not hold in the setup; check its words (`has` or `has no`, \
         the place) and the setup",
    )
}

/// Where the setup places `player`'s pieces (anyone's, if none): the placements of
/// kinds `wanted` accepts, the random pools, and the rest (placement lines, diagrams).
#[derive(Default)]
struct Places {
    pieces: Vec<Span>,
    pools: Vec<Span>,
    lines: Vec<Span>,
}

fn setup_places(
    v: &Variant,
    text: &str,
    player: Option<PlayerId>,
    wanted: impl Fn(PieceId) -> bool,
) -> Places {
    let (file, _) = syntax::parse(text);
    let ours = |name: &str| player.is_none() || v.find_player(name) == player;
    let mut out = Places::default();
    for s in &file.statements {
        let Statement::Setup(decl) = s else { continue };
        match decl {
            SetupDecl::Diagram(d) => out.lines.push(d.span),
            SetupDecl::Random(r) => out.pools.extend(
                (r.pools.iter())
                    .filter(|p| ours(&p.player.node))
                    .map(|p| p.span),
            ),
            SetupDecl::Placements(list) => {
                for p in list.iter().filter(|p| ours(&p.player.node)) {
                    let mut end = p.player.span.end;
                    for (piece, cells) in &p.pieces {
                        let last = cells.last().map_or(piece.span.end, |c| c.span.end);
                        end = end.max(last);
                        if v.find_piece(&piece.node).is_some_and(&wanted) {
                            out.pieces.push(Span::new(piece.span.start, last));
                        }
                    }
                    if let Some((_, k)) = p.hand.last() {
                        end = end.max(k.span.end);
                    }
                    out.lines.push(Span::new(p.player.span.start, end));
                }
            }
        }
    }
    out
}

/// `unplayable_start`: the runtime refuses the start position.
fn unplayable(rules: &Rules, e: &PositionError, text: &str) -> Diagnostic {
    let v = &rules.variant;
    let (player, royal_only, label, help) = match e {
        PositionError::LastMoverInCheck { player, to_move } => (
            v.find_player(player),
            true,
            format!("a royal piece of {player}'s"),
            format!(
                "{to_move} moves first and could capture a royal piece of {player}'s at once, \
                 which no legal move allows; place {player}'s royal pieces where no piece \
                 of {to_move}'s attacks them"
            ),
        ),
        PositionError::RedrawLimit { .. } => (
            None,
            false,
            "drawn here".to_string(),
            "every draw left a player not to move in check or broke a `redraw` rule; \
             give the pieces more cells, or drop a rule"
                .to_string(),
        ),
        _ => (
            None,
            false,
            "set up here".to_string(),
            "change the setup: other commands refuse this start too".to_string(),
        ),
    };
    let royal = |k: PieceId| royal_only && rules.royal & (1 << k.0) != 0;
    let mut places = setup_places(v, text, player, royal);
    let drawn = matches!(e, PositionError::RedrawLimit { .. }) && !places.pools.is_empty();
    let spans = if drawn {
        places.pools
    } else if places.pieces.is_empty() {
        places.lines.append(&mut places.pools);
        places.lines
    } else {
        places.pieces
    };
    let mut spans = spans.into_iter();
    let first = spans.next().unwrap_or_default();
    let mut d = Diagnostic::error(
        "variantlab::unplayable_start",
        first,
        format!("no game can start from this setup: {e}"),
    )
    .label(label.clone())
    .help(help);
    for s in spans {
        d = d.also(s, label.clone());
    }
    d
}

/// A limit of the compiled tables the checker does not know of.
fn too_large(e: &CompileError, text: &str) -> Diagnostic {
    let (file, _) = syntax::parse(text);
    let castling = |s: &&Statement| matches!(s, Statement::Castling(_));
    let span = match e {
        CompileError::TooManyCastlings(_) => file
            .statements
            .iter()
            .filter(castling)
            .nth(MAX_CASTLINGS)
            .or_else(|| file.statements.iter().rfind(castling))
            .and_then(Statement::name_span),
        _ => None,
    };
    Diagnostic::error(
        "variantlab::too_many",
        span.unwrap_or_default(),
        format!("the rules cannot be compiled: {e}"),
    )
    .label("past the limit")
    .help("remove what is past the limit")
}
