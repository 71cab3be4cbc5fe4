//! The `variantlab` command line: a thin layer over the library.

use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use variantlab::check::{PlayerId, check};
use variantlab::compile::Rules;
use variantlab::runtime::{self, Position};
use variantlab::{play, render};

// All output goes through these, so a closed pipe (`| head -1`) ends the program
// quietly instead of panicking.
macro_rules! print {
    ($($t:tt)*) => { play::print_stdout(format_args!($($t)*)) };
}
macro_rules! println {
    () => { print!("\n") };
    ($($t:tt)*) => { play::print_stdout(format_args!("{}\n", format_args!($($t)*))) };
}

#[derive(Parser)]
#[command(
    name = "variantlab",
    version,
    about = "Chess variants from plain-text rule files: check, draw and play them"
)]
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
        /// Also draw the cells the piece can only capture on
        #[arg(long)]
        captures: bool,
        /// Write an SVG picture instead of text
        #[arg(long)]
        svg: bool,
        /// Set an option: NAME=on|off
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Draw the setup
    Board {
        file: PathBuf,
        /// Label files and ranks along the edges
        #[arg(long)]
        coordinates: bool,
        /// Write an SVG picture instead of text
        #[arg(long)]
        svg: bool,
        /// Seed for a random setup
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Print the start position string, then its diagram
    Setup {
        file: PathBuf,
        /// Seed for a random setup (default: from the clock)
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Count the legal move sequences of a given length
    Perft {
        file: PathBuf,
        /// At most 32
        #[arg(long, value_parser = play::parse_depth)]
        depth: u32,
        /// A position string, or `start`
        #[arg(long, default_value = "start")]
        position: String,
        /// Print the count below each first move first
        #[arg(long)]
        divide: bool,
        /// Seed for a random setup
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// List the legal moves, one a line
    Moves {
        file: PathBuf,
        #[arg(long, default_value = "start")]
        position: String,
        /// Seed for a random setup
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Serve a local web page to explore and play variants
    Serve {
        /// Variant files, or folders of them
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The port to listen on; 0 picks a free one
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
    },
    /// Play a game in the terminal, two people at one keyboard
    Play {
        file: PathBuf,
        #[arg(long, default_value = "start")]
        position: String,
        /// Seed for a random setup (default: from the clock)
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { files } => return check_files(&files),
        Command::Footprint {
            file,
            piece,
            at,
            player,
            full_board,
            captures,
            svg,
            options,
        } => footprint(
            &file,
            &piece,
            at.as_deref(),
            player.as_deref(),
            Drawing {
                full_board,
                captures,
                svg,
            },
            &options,
        ),
        Command::Setup {
            file,
            seed,
            options,
        } => rules(&file, &options)
            .and_then(|r| play::setup_text(&r, seed.unwrap_or_else(play::clock_seed)))
            .map(|t| print!("{t}")),
        Command::Board {
            file,
            coordinates,
            svg,
            seed,
        } => rules(&file, &[]).and_then(|r| {
            let v = &r.variant;
            let setup = play::start_setup_seeded(&r, None, seed)?;
            let pieces = play::setup_pieces(&setup);
            print!(
                "{}",
                match (svg, coordinates) {
                    (true, _) => render::svg::board_svg(v, &pieces, None),
                    (false, true) => render::text::labelled_board(v, &pieces, None, colour()),
                    (false, false) => render::board_diagram(v, &pieces),
                }
            );
            if !svg {
                print!("{}", render::hands_text(v, &setup.hands));
            }
            Ok(())
        }),
        Command::Perft {
            file,
            depth,
            position,
            divide,
            seed,
            options,
        } => perft(&file, depth, (&position, seed), divide, &options),
        Command::Moves {
            file,
            position,
            seed,
            options,
        } => moves(&file, (&position, seed), &options),
        Command::Play {
            file,
            position,
            seed,
            options,
        } => play(
            &file,
            (&position, seed.unwrap_or_else(play::clock_seed)),
            &options,
        ),
        Command::Serve { files, port, host } => {
            variantlab::serve::start(files, &host, port).map(|s| {
                println!("Serving on http://{}/ (Ctrl-C stops)", s.address);
                s.wait()
            })
        }
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
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100)
}

fn read(path: &Path) -> Result<String, String> {
    play::read_variant_text(path)
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
            let note = if w > 0 {
                format!(" ({w} warning{})", if w == 1 { "" } else { "s" })
            } else {
                String::new()
            };
            println!("ok: {}{note}", f.display());
        } else {
            failed = true;
            println!("failed: {}", checked.report);
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Loads, checks and compiles a file with `NAME=on|off` option settings.
fn rules(file: &Path, options: &[String]) -> Result<Rules, String> {
    play::load_rules(file, &play::parse_settings(options)?)
}

/// A position string (or `start`) and the seed for a random setup.
type Start<'a> = (&'a str, u64);

fn position(file: &Path, start: Start, options: &[String]) -> Result<(Rules, Position), String> {
    let rules = rules(file, options)?;
    let setup = play::start_setup_seeded(&rules, Some(start.0), start.1)?;
    let pos = Position::from_setup(&rules, &setup).map_err(|e| format!("bad position: {e}"))?;
    Ok((rules, pos))
}

fn perft(
    file: &Path,
    depth: u32,
    pos: Start,
    divide: bool,
    options: &[String],
) -> Result<(), String> {
    let (rules, mut pos) = position(file, pos, options)?;
    let total = if divide && depth > 0 {
        let rows = runtime::divide(&rules, &mut pos, depth);
        for (m, n) in &rows {
            println!("{} {n}", runtime::write_move(&rules.variant, m));
        }
        rows.iter().fold(0u64, |t, (_, n)| t.saturating_add(*n))
    } else {
        runtime::perft(&rules, &mut pos, depth)
    };
    println!("nodes {total}");
    Ok(())
}

fn moves(file: &Path, pos: Start, options: &[String]) -> Result<(), String> {
    let (rules, pos) = position(file, pos, options)?;
    let mut list = Vec::new();
    pos.legal_moves(&rules, &mut list);
    for m in &list {
        println!("{}", runtime::write_move(&rules.variant, m));
    }
    Ok(())
}

fn play(file: &Path, pos: Start, options: &[String]) -> Result<(), String> {
    let settings = play::parse_settings(options)?;
    let mut session =
        play::Session::open_seeded(file, &settings, Some(pos.0), pos.1)?.with_colour(colour());
    let (mut input, mut output) = (std::io::stdin().lock(), std::io::stdout().lock());
    play::run(&mut session, &mut input, &mut output).map_err(|e| e.to_string())
}

/// How `footprint` draws.
struct Drawing {
    full_board: bool,
    captures: bool,
    svg: bool,
}

/// Colour on a terminal, never under NO_COLOR.
fn colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn footprint(
    file: &Path,
    piece: &str,
    at: Option<&str>,
    player: Option<&str>,
    how: Drawing,
    options: &[String],
) -> Result<(), String> {
    let rules = rules(file, options)?;
    let v = &rules.variant;
    let id = v.find_piece(piece).ok_or_else(|| {
        let known: Vec<String> = v
            .pieces
            .iter()
            .map(|p| format!("{} ({})", p.name, p.code))
            .collect();
        format!(
            "there is no piece `{piece}`; the pieces are {}",
            known.join(", ")
        )
    })?;
    let cell = match at {
        None => v.board.centre(),
        Some(a) => v
            .board
            .parse_cell(a)
            .ok_or_else(|| format!("`{a}` is not a cell of this board"))?,
    };
    let player = match player {
        None => PlayerId(0),
        Some(p) => play::find_player(v, p)?,
    };
    if how.svg {
        print!(
            "{}",
            render::svg::footprint_svg(&rules, player, id, cell, how.captures)
        );
        return Ok(());
    }
    let marks = render::footprint_marks(&rules, player, id, cell, how.captures);
    let hidden = !how.captures && render::has_capture_only(&rules, player, id, cell);
    print!(
        "{}{}",
        render::footprint_drawing(&rules, player, id, cell, how.full_board, how.captures),
        render::footprint_legend(&rules, &marks, hidden)
    );
    Ok(())
}
