//! The `variantlab` command line: a thin layer over the library.

use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use variantlab::check::{PlayerId, Variant, check};
use variantlab::compile::{Rules, compile_tables};
use variantlab::render;

#[derive(Parser)]
#[command(name = "variantlab", version, about = "Chess variants from plain-text rule files: check, draw and play them")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check variant files and report every problem found
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Draw the cells a piece can reach, as the rule pages draw them
    Footprint {
        file: PathBuf,
        /// The piece's name or code, any case
        piece: String,
        /// The cell the piece stands on (default: the board's centre)
        #[arg(long)]
        at: Option<String>,
        /// Whose piece it is (default: the first player)
        #[arg(long)]
        player: Option<String>,
        /// Draw the whole board instead of the smallest square around the footprint
        #[arg(long)]
        full_board: bool,
        /// Set an option: NAME=on|off
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Draw the setup
    Board { file: PathBuf },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { files } => return check_files(&files),
        Command::Footprint { file, piece, at, player, full_board, options } => {
            footprint(&file, &piece, at.as_deref(), player.as_deref(), full_board, &options)
        }
        Command::Board { file } => load(&file).map(|v| print!("{}", render::board_diagram(&v, &v.setup))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn width() -> usize {
    std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).unwrap_or(100)
}

fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn check_files(files: &[PathBuf]) -> ExitCode {
    let colour = std::io::stderr().is_terminal();
    let mut failed = false;
    for f in files {
        let text = match read(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                failed = true;
                continue;
            }
        };
        let checked = check(&f.display().to_string(), &text);
        eprint!("{}", checked.report.render(width(), colour));
        if checked.variant.is_some() {
            let w = checked.report.warnings();
            let note = if w > 0 { format!(" ({w} warning{})", if w == 1 { "" } else { "s" }) } else { String::new() };
            println!("ok: {}{note}", f.display());
        } else {
            failed = true;
            println!("failed: {}", checked.report);
        }
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

/// Loads a file that must check cleanly; warnings go to stderr.
fn load(path: &Path) -> Result<Variant, String> {
    let text = read(path)?;
    let checked = check(&path.display().to_string(), &text);
    if checked.report.has_errors() {
        eprint!("{}", checked.report.render(width(), std::io::stderr().is_terminal()));
    }
    checked.variant.ok_or_else(|| format!("{} does not check; run `variantlab check` on it", path.display()))
}

/// Compiles with the defaults overridden by `NAME=on|off` settings.
fn compile(v: &Variant, settings: &[String]) -> Result<Rules, String> {
    let mut values = v.default_options();
    for s in settings {
        let (name, value) = s.split_once('=').ok_or_else(|| format!("`{s}`: write an option as NAME=on or NAME=off"))?;
        let id = v.find_option(name.trim()).ok_or_else(|| {
            let known: Vec<&str> = v.options.iter().map(|o| o.name.as_str()).collect();
            format!("there is no option `{name}`; this variant has: {}", if known.is_empty() { "none".into() } else { known.join(", ") })
        })?;
        values[id.0 as usize] = match value.trim() {
            "on" | "true" | "yes" => true,
            "off" | "false" | "no" => false,
            other => return Err(format!("`{other}`: an option is `on` or `off`")),
        };
    }
    compile_tables(v, &values).map_err(|e| e.to_string())
}

fn footprint(file: &Path, piece: &str, at: Option<&str>, player: Option<&str>, full: bool, options: &[String]) -> Result<(), String> {
    let v = load(file)?;
    let rules = compile(&v, options)?;
    let id = v.find_piece(piece).ok_or_else(|| {
        let known: Vec<String> = v.pieces.iter().map(|p| format!("{} ({})", p.name, p.code)).collect();
        format!("there is no piece `{piece}`; the pieces are {}", known.join(", "))
    })?;
    let cell = match at {
        None => v.board.centre(),
        Some(a) => v.board.parse_cell(a).ok_or_else(|| format!("`{a}` is not a cell of this board"))?,
    };
    let player = match player {
        None => PlayerId(0),
        Some(p) => v.find_player(p).ok_or_else(|| format!("there is no player `{p}`"))?,
    };
    print!("{}", render::footprint_diagram(&rules, player, id, cell, full));
    let tags: Vec<String> = v
        .tags
        .iter()
        .filter(|t| rules.footprint(player, id, cell).iter().any(|(_, m)| *m == t.mark))
        .map(|t| format!("{} = {}", t.mark, t.about.as_deref().unwrap_or("tagged move")))
        .collect();
    if !tags.is_empty() {
        println!("\n{}", tags.join("; "));
    }
    Ok(())
}
