//! The `variantlab` command line: a thin layer over the library.

use clap::{Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use variantlab::{
    Game, Limits, MAX_LEVEL, PlayerId, Position, Rules, Session, Settings, check_all,
    write_move_at, write_pgn,
};
use variantlab::{diagrams, files, play, study};

// All output goes through these, so a closed pipe (`| head -1`) ends the program
// quietly instead of panicking, and a closed standard error loses only the messages.
macro_rules! print {
    ($($t:tt)*) => { play::print_stdout(format_args!($($t)*)) };
}
macro_rules! println {
    () => { print!("\n") };
    ($($t:tt)*) => { play::print_stdout(format_args!("{}\n", format_args!($($t)*))) };
}
macro_rules! eprint {
    ($($t:tt)*) => { play::print_stderr(format_args!($($t)*)) };
}
macro_rules! eprintln {
    () => { eprint!("\n") };
    ($($t:tt)*) => { play::print_stderr(format_args!("{}\n", format_args!($($t)*))) };
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
    #[command(
        after_help = "Example:\n  variantlab check variants/*.var\n  variantlab check my-game.var"
    )]
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Lay variant files out canonically: indentation by block, one blank between words
    #[command(
        after_help = "Only blanks change: line breaks, quoted text, diagrams and comments stay as written.\n\nExample:\n  variantlab fmt my-game.var\n  variantlab fmt --check variants/*.var"
    )]
    Fmt {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Change nothing; list the files not laid out canonically and fail if any
        #[arg(long)]
        check: bool,
    },
    /// Speak the Language Server Protocol on standard input and output, for editors
    #[command(
        after_help = "Diagnostics as you type, completion, a piece's footprint on hover, definitions, references, the outline and formatting. Set up an editor: docs/editors.md\n\nExample:\n  variantlab lsp"
    )]
    Lsp,
    /// Draw the cells a piece can reach, as the rule pages draw them
    #[command(
        after_help = "Example:\n  variantlab footprint variants/chess.var King\n  variantlab footprint variants/chess.var N --at a1 --full-board"
    )]
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
    /// Draw the start position, as the rule pages draw it
    #[command(after_help = "Example:\n  variantlab board variants/chess.var --coordinates")]
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
    #[command(after_help = "Example:\n  variantlab setup my-game.var --seed 7")]
    Setup {
        file: PathBuf,
        /// Seed for a random setup (default: from the clock)
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Count the legal move sequences of a given length, to test the move generator
    #[command(
        after_help = "Example:\n  variantlab perft variants/chess.var --depth 3     # nodes 8902"
    )]
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
    #[command(
        after_help = "Example:\n  variantlab moves variants/chess.var --position \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\""
    )]
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
    #[command(
        after_help = "Example:\n  variantlab serve variants/     # then open http://127.0.0.1:8080/"
    )]
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
        /// Let pages on other machines save the served files (off: only this
        /// machine's pages may save; any page that can reach the server may play)
        #[arg(long)]
        remote_saves: bool,
    },
    /// Play a game in the terminal, two people at one keyboard or against the computer
    #[command(
        after_help = "Example:\n  variantlab play variants/chess.var\n  variantlab play variants/chess.var --vs computer --level 4"
    )]
    Play {
        file: PathBuf,
        #[arg(long, default_value = "start")]
        position: String,
        /// Seed for a random setup (default: from the clock)
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// `computer` to play against the engine
        #[arg(long, value_name = "computer|human", default_value = "human")]
        vs: String,
        /// Write the game as PGN to this file when the program ends
        #[arg(long, value_name = "FILE")]
        pgn: Option<PathBuf>,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Search a position and print the best move, its score and the principal variation
    #[command(after_help = "Example:\n  variantlab think variants/chess.var --time 2s")]
    Think {
        file: PathBuf,
        #[arg(long, default_value = "start")]
        position: String,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Let the computer play a variant against itself many times and report the results
    #[command(
        after_help = "Example:\n  variantlab selfplay variants/chess.var --games 100 --seed 1"
    )]
    Selfplay {
        file: PathBuf,
        /// The number of games, at most 1,000,000,000
        #[arg(long, default_value_t = 100, value_parser = parse_games)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Search depth in plies for both sides, from 1 to 32
        #[arg(long, default_value_t = study::Study::LEVEL, value_parser = parse_level)]
        level: u32,
        /// Random moves that open each game
        #[arg(long, default_value_t = study::Study::OPENING_PLIES)]
        opening: u32,
        /// Stop a game after this many plies and count it unfinished
        #[arg(long, default_value_t = study::Study::MAX_PLIES)]
        max_plies: u32,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Print the raw tallies as JSON instead of the report
        #[arg(long)]
        json: bool,
        /// Play only the K-th of N slices of the games (default: from SLURM_ARRAY_TASK_ID
        /// or JOB_COMPLETION_INDEX when set)
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        /// The number of slices when the index comes from the environment
        #[arg(long, value_name = "N")]
        shard_count: Option<u32>,
        /// Threads to play on, from 1 to 256 (default: every core)
        #[arg(long, value_parser = parse_threads)]
        threads: Option<usize>,
        /// Play the same games under each value of an option, e.g. `last-resort=on,off`
        #[arg(long, value_name = "NAME=V1,V2")]
        compare: Option<String>,
        /// Write every game as PGN to this file, in the order of their numbers
        #[arg(long, value_name = "FILE")]
        pgn: Option<PathBuf>,
    },
    /// Add up selfplay shards (their --json output) into the report of one run
    #[command(after_help = "Example:\n  variantlab merge shard-1.json shard-2.json")]
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the merged tallies as JSON
        #[arg(long)]
        json: bool,
    },
    /// Print the piece values the engine estimates from the rules
    #[command(after_help = "Example:\n  variantlab values variants/chess.var")]
    Values {
        file: PathBuf,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Speak UCI on standard input and output, for chess GUIs and match runners
    #[command(
        after_help = "Example:\n  variantlab uci variants/chess.var\n  cutechess-cli -engine cmd=variantlab arg=uci arg=variants/chess.var ..."
    )]
    Uci {
        file: PathBuf,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Speak USI on standard input and output, for shogi GUIs
    #[command(
        after_help = "Example:\n  variantlab usi my-game.var     # a game with hands and +X codes"
    )]
    Usi {
        file: PathBuf,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Speak XBoard's protocol (CECP) on standard input and output, for XBoard and WinBoard
    #[command(
        after_help = "Example:\n  variantlab xboard variants/chess.var\n  xboard -fcp \"variantlab xboard variants/chess.var\""
    )]
    Xboard {
        file: PathBuf,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Play a match between two UCI or USI engines, the variant file the referee
    #[command(
        after_help = "Each opening (random legal moves from the seed) is played twice, the engines\nswapping sides; an illegal move or a resignation loses. Commands are split at spaces.\n\nExample:\n  variantlab match variants/chess.var --engine \"variantlab uci variants/chess.var\" \\\n    --opponent other-engine --opponent-option Hash=64 --games 20"
    )]
    Match {
        file: PathBuf,
        /// The first engine's command line
        #[arg(long)]
        engine: String,
        /// The second engine's command line
        #[arg(long)]
        opponent: String,
        /// An option for the first engine, set before the first game
        #[arg(long = "engine-option", value_name = "NAME=VALUE")]
        engine_options: Vec<String>,
        /// An option for the second engine
        #[arg(long = "opponent-option", value_name = "NAME=VALUE")]
        opponent_options: Vec<String>,
        /// The first engine searches each move to this depth, not for the move time
        #[arg(long = "engine-depth", value_parser = parse_level)]
        engine_depth: Option<u32>,
        /// The second engine searches each move to this depth
        #[arg(long = "opponent-depth", value_parser = parse_level)]
        opponent_depth: Option<u32>,
        /// Speak USI instead of UCI (moves as `7g7f` and `P*5e`)
        #[arg(long)]
        usi: bool,
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        games: u32,
        /// Time for each move, e.g. `300ms`
        #[arg(long, default_value = "300ms", value_parser = parse_time)]
        movetime: Duration,
        /// Random legal moves that open each game
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=200))]
        opening: u32,
        /// A game still going after this many plies is a draw
        #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        max_plies: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the games as PGN to this file
        #[arg(long)]
        pgn: Option<PathBuf>,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Explain a diagnostic code: what it means, an example and the fix
    #[command(
        after_help = "Example:\n  variantlab explain unknown_piece\n  variantlab explain     # every code, one a line"
    )]
    Explain {
        /// The code as `check` prints it (`variantlab::unknown_piece` or `unknown_piece`)
        code: Option<String>,
    },
}

/// How hard the computer thinks.
#[derive(clap::Args)]
struct EngineArgs {
    /// Search depth in plies, from 1 to 32 (the same move on every machine)
    #[arg(long, value_parser = parse_level)]
    level: Option<u32>,
    /// Time per move, e.g. `2s` or `500ms`, at most 24 hours (default: 1s when no
    /// level is given)
    #[arg(long, value_parser = parse_time)]
    time: Option<Duration>,
    /// The side the computer plays (default: the side not to move at the start)
    #[arg(long = "computer-plays", value_name = "PLAYER")]
    computer_plays: Option<String>,
}

impl EngineArgs {
    fn limits(&self) -> Result<Limits, String> {
        let mut limits = match self.level {
            Some(l) => Limits::depth(l),
            None => Limits::time(Duration::from_secs(1)),
        };
        if let Some(t) = self.time {
            limits.time = Some(t);
        }
        Ok(limits)
    }
}

/// The longest time a move may be given: a day.
const MAX_TIME: Duration = Duration::from_secs(24 * 60 * 60);

/// Reads a time such as `2s`, `500ms`, `1m` or `1.5` (seconds): more than nothing and
/// at most [`MAX_TIME`].
fn parse_time(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    let secs = match number.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => x * scale,
        _ => {
            return Err(format!(
                "`{text}` is not a time; write e.g. `2s`, `500ms` or `1m`"
            ));
        }
    };
    if secs > MAX_TIME.as_secs_f64() {
        return Err(format!(
            "`{text}` is too long: a move may take at most 24 hours (`1440m`)"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Reads a search depth (`--level`): a whole number from 1 to [`MAX_LEVEL`].
fn parse_level(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u64>() {
        Ok(l) if (1..=MAX_LEVEL as u64).contains(&l) => Ok(l as u32),
        Ok(0) => Err(format!("the level is from 1 to {MAX_LEVEL} plies, not 0")),
        Ok(_) => Err(format!(
            "the level is at most {MAX_LEVEL} plies: a deeper search would not finish"
        )),
        Err(_) if !text.trim().is_empty() && text.trim().bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!(
                "the level is at most {MAX_LEVEL} plies: a deeper search would not finish"
            ))
        }
        Err(_) => Err(format!(
            "`{text}` is not a level; write a whole number of plies from 1 to {MAX_LEVEL}"
        )),
    }
}

/// Reads a number of games (`--games`): a whole number up to [`study::Study::MAX_GAMES`].
fn parse_games(text: &str) -> Result<u64, String> {
    let max = study::Study::MAX_GAMES;
    let digits = text.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "`{text}` is not a number of games; write a whole number up to {max}"
        ));
    }
    match digits.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("a study plays at most {max} games")),
    }
}

/// Reads a number of threads (`--threads`): from 1 to [`study::Study::MAX_THREADS`].
fn parse_threads(text: &str) -> Result<usize, String> {
    let max = study::Study::MAX_THREADS;
    let digits = text.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "`{text}` is not a number of threads; write a whole number from 1 to {max}"
        ));
    }
    match digits.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        Ok(0) => Err(format!("the threads are from 1 to {max}, not 0")),
        _ => Err(format!("a study plays on at most {max} threads")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { files } => return check_files(&files),
        Command::Fmt { files, check } => return format_files(&files, check),
        Command::Lsp => variantlab::editor::language_server()
            .map_err(|e| format!("the language server stopped: {e}")),
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
            let v = &r.variant();
            let setup = play::start_setup_seeded(&r, None, seed)?;
            let pieces = setup.placed();
            print!(
                "{}",
                match (svg, coordinates) {
                    (true, _) => diagrams::board_svg(v, &pieces, None),
                    (false, true) => diagrams::labelled_board(v, &pieces, &[], None, colour()),
                    (false, false) => diagrams::board_diagram(v, &pieces),
                }
            );
            if !svg {
                print!("{}", diagrams::hands_text(v, &setup.hands));
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
            vs,
            pgn,
            engine,
        } => play(
            &file,
            (&position, seed.unwrap_or_else(play::clock_seed)),
            &options,
            (&vs, pgn.as_deref()),
            &engine,
        ),
        Command::Think {
            file,
            position,
            options,
            engine,
        } => think(&file, &position, &options, &engine),
        Command::Selfplay {
            file,
            games,
            seed,
            level,
            opening,
            max_plies,
            options,
            json,
            shard,
            shard_count,
            threads,
            compare,
            pgn,
        } => {
            let mut study = study::Study::new(games, seed);
            study.level = level;
            study.opening_plies = opening;
            study.max_plies = max_plies;
            if let Some(t) = threads {
                study.threads = t;
            }
            let output = Output { json, pgn };
            selfplay(&file, study, &options, output, shard, shard_count, compare)
        }
        Command::Merge { files, json } => merge(&files, json),
        Command::Explain { code } => explain(code.as_deref()),
        Command::Match {
            file,
            engine,
            opponent,
            engine_options,
            opponent_options,
            engine_depth,
            opponent_depth,
            usi,
            games,
            movetime,
            opening,
            max_plies,
            seed,
            pgn,
            options,
        } => {
            let plan = variantlab::protocol::referee::Plan {
                games,
                movetime,
                opening_plies: opening,
                max_plies: max_plies as usize,
                seed,
            };
            let contenders = [
                (&engine, &engine_options, engine_depth),
                (&opponent, &opponent_options, opponent_depth),
            ];
            run_match(&file, &options, usi, &plan, contenders, pgn.as_deref())
        }
        Command::Xboard { file, options } => settings(&options).and_then(|s| {
            let out: Box<dyn std::io::Write + Send> = Box::new(std::io::stdout());
            variantlab::protocol::xboard::run(&file, s, std::io::stdin().lock(), out)
        }),
        Command::Uci { file, options } => {
            engine(variantlab::protocol::Dialect::Uci, &file, &options)
        }
        Command::Usi { file, options } => {
            engine(variantlab::protocol::Dialect::Usi, &file, &options)
        }
        Command::Values { file, options } => {
            rules(&file, &options).map(|r| print!("{}", variantlab::values_table(&r)))
        }
        Command::Serve {
            files,
            port,
            host,
            remote_saves,
        } => {
            let options = variantlab::serve::Options {
                host: host.clone(),
                port,
                remote_saves,
            };
            variantlab::serve::start(files, &options).and_then(|s| {
                if !variantlab::serve::is_loopback(&host) {
                    eprintln!(
                        "warning: listening on {host}, beyond this machine: anyone who can reach {} can see the variants served and play",
                        s.address
                    );
                }
                if remote_saves {
                    eprintln!(
                        "warning: --remote-saves: a page on any machine that can reach {} can overwrite the variant files served",
                        s.address
                    );
                }
                // Unwritten, the address and token are lost: a server no one can use.
                let mut out = std::io::stdout().lock();
                writeln!(out, "Serving on http://{}/ (Ctrl-C stops)", s.address)
                    .and_then(|()| writeln!(out, "API token: {}", s.token))
                    .and_then(|()| out.flush())
                    .map_err(|e| {
                        format!("cannot write the server's address and token to standard output ({e}); stopped")
                    })?;
                drop(out);
                s.wait();
                Ok(())
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
    variantlab::read_variant_text(path).map_err(|e| e.to_string())
}

/// Runs `each` on every file's text; fails if a file cannot be read or `each` says it
/// failed, after going through them all.
fn for_each_file(files: &[PathBuf], mut each: impl FnMut(&Path, &str) -> bool) -> ExitCode {
    let mut failed = false;
    for f in files {
        match read(f) {
            Ok(text) => failed |= !each(f, &text),
            Err(e) => {
                eprintln!("error: {e}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn check_files(files: &[PathBuf]) -> ExitCode {
    let colour = std::io::stderr().is_terminal();
    for_each_file(files, |f, text| {
        let checked = check_all(&f.display().to_string(), text);
        eprint!("{}", checked.report.render(width(), colour));
        if checked.variant.is_some() {
            let w = checked.report.warnings();
            let note = if w > 0 {
                format!(" ({w} warning{})", if w == 1 { "" } else { "s" })
            } else {
                String::new()
            };
            println!("ok: {}{note}", f.display());
            true
        } else {
            println!("failed: {}", checked.report);
            false
        }
    })
}

/// Lays each file out (see [`variantlab::grammar::layout`]), or with `check` only says
/// which files would change. A file that does not parse is left as it is, with its
/// syntax errors.
fn format_files(files: &[PathBuf], check: bool) -> ExitCode {
    let colour = std::io::stderr().is_terminal();
    for_each_file(files, |f, text| {
        // Bytes that are not UTF-8 were read as U+FFFD: writing them back would lose them.
        if text.contains('\u{FFFD}')
            && std::fs::read(f).is_ok_and(|b| std::str::from_utf8(&b).is_err())
        {
            eprintln!(
                "error: {}: not formatted: it is not UTF-8 text",
                f.display()
            );
            return false;
        }
        let Some(laid) = variantlab::grammar::layout(text) else {
            let checked = check_all(&f.display().to_string(), text);
            eprint!("{}", checked.report.render(width(), colour));
            eprintln!(
                "error: {}: not formatted: it has syntax errors",
                f.display()
            );
            return false;
        };
        if laid == text {
            true
        } else if check {
            println!("would change: {}", f.display());
            false
        } else if let Err(e) = variantlab::files::write_atomic(f, &laid) {
            eprintln!("error: {}: {e}", f.display());
            false
        } else {
            println!("formatted: {}", f.display());
            true
        }
    })
}

/// `NAME=on|off` option settings.
fn settings(options: &[String]) -> Result<Settings, String> {
    Settings::parse(options).map_err(|e| e.to_string())
}

/// Loads, checks and compiles a file with `NAME=on|off` option settings.
fn rules(file: &Path, options: &[String]) -> Result<Arc<Rules>, String> {
    play::load_rules(file, &settings(options)?)
}

/// A position string (or `start`) and the seed for a random setup.
type Start<'a> = (&'a str, u64);

fn position(
    file: &Path,
    start: Start,
    options: &[String],
) -> Result<(Arc<Rules>, Position), String> {
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
        let rows = variantlab::divide(&rules, &mut pos, depth);
        for (m, n) in &rows {
            println!("{} {n}", write_move_at(&rules, &pos, m));
        }
        rows.iter().fold(0u64, |t, (_, n)| t.saturating_add(*n))
    } else {
        variantlab::perft(&rules, &mut pos, depth)
    };
    println!("nodes {total}");
    Ok(())
}

fn moves(file: &Path, pos: Start, options: &[String]) -> Result<(), String> {
    let (rules, pos) = position(file, pos, options)?;
    let mut list = Vec::new();
    pos.legal_moves(&rules, &mut list);
    for m in &list {
        println!("{}", write_move_at(&rules, &pos, m));
    }
    Ok(())
}

/// How every PGN file variantlab writes begins.
const PGN_START: &[u8] = b"[Event \"variantlab";

/// Refuses a PGN file that would destroy another: the variant file `variant` (under
/// any name), a `.var` name, or an existing file that is not empty and not a PGN file
/// variantlab wrote (one beginning `[Event "variantlab`). Checked before any game.
fn pgn_target(path: Option<&Path>, variant: &Path) -> Result<(), String> {
    use std::io::Read;
    let Some(p) = path else {
        return Ok(());
    };
    let shown = p.display();
    let other = "write the games to another file, e.g. games.pgn";
    if files::same_file(p, variant) {
        return Err(format!("{shown} is the variant file itself; {other}"));
    }
    if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("var")) {
        return Err(format!("{shown} is named like a variant file; {other}"));
    }
    // Looked at before opened: opening a named pipe would wait for a writer.
    match std::fs::metadata(p) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // Found now, not after the games: a folder that is not there.
            return match p.parent().filter(|d| !d.as_os_str().is_empty()) {
                Some(d) if !d.is_dir() => Err(format!(
                    "cannot write the games to {shown}: there is no folder {}",
                    d.display()
                )),
                _ => Ok(()),
            };
        }
        Err(e) => return Err(format!("cannot write the games to {shown}: {e}")),
        Ok(m) if !m.is_file() => return Err(format!("{shown} is not a plain file; {other}")),
        Ok(_) => {}
    }
    let mut start = Vec::new();
    std::fs::File::open(p)
        .and_then(|f| f.take(PGN_START.len() as u64).read_to_end(&mut start))
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if start.is_empty() || start == PGN_START {
        return Ok(());
    }
    Err(format!(
        "{shown} exists and is not a PGN file variantlab wrote (those begin `[Event \"variantlab`); only such a file or an empty one is replaced: {other}, or remove it"
    ))
}

fn play(
    file: &Path,
    pos: Start,
    options: &[String],
    (vs, pgn): (&str, Option<&Path>),
    engine: &EngineArgs,
) -> Result<(), String> {
    pgn_target(pgn, file)?;
    let mut console = play::Console::open_seeded(file, &settings(options)?, Some(pos.0), pos.1)?
        .with_colour(colour());
    match vs {
        "human" => {}
        "computer" => {
            let side = computer_side(console.game(), engine)?;
            console = console.with_computer(side, engine.limits()?);
        }
        other => {
            return Err(format!(
                "`--vs {other}`: write `--vs computer` or `--vs human`"
            ));
        }
    }
    let (mut input, mut output) = (std::io::stdin().lock(), std::io::stdout().lock());
    let ran = play::run(&mut console, &mut input, &mut output);
    if let Some(path) = pgn {
        let game = console.game();
        let side = |p: u8| match console.computer_plays(PlayerId(p)) {
            true => "variantlab",
            false => "human",
        };
        let text = write_pgn(game, "variantlab play", [side(0), side(1)]);
        files::write_atomic(path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    match ran {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => play::output_closed(),
        r => r.map_err(|e| e.to_string()),
    }
}

/// The side `--computer-plays` names, or the side not to move at the start.
fn computer_side(game: &Game, engine: &EngineArgs) -> Result<PlayerId, String> {
    let v = game.variant();
    match &engine.computer_plays {
        Some(p) => v
            .find_player(p)
            .ok_or_else(|| format!("there is no player `{p}`")),
        None => Ok(PlayerId((game.to_move().0 + 1) % v.players.len() as u8)),
    }
}

fn think(file: &Path, pos: &str, options: &[String], engine: &EngineArgs) -> Result<(), String> {
    let rules = rules(file, options)?;
    let setup = play::start_setup(&rules, Some(pos))?;
    let game = Game::new(rules.clone(), setup).map_err(|e| format!("bad position: {e}"))?;
    if let Some(e) = game.ending() {
        return Err(format!("the game is over: {}", e.reason));
    }
    let start = game.position().clone();
    let t = Session::new(game).think(&engine.limits()?);
    print!("{}", variantlab::describe_thought(&rules, &start, &t));
    Ok(())
}

/// Speaks an engine protocol on standard input and output.
/// Plays a match and prints each game, then the first engine's score.
fn run_match(
    file: &Path,
    options: &[String],
    usi: bool,
    plan: &variantlab::protocol::referee::Plan,
    contenders: [(&String, &Vec<String>, Option<u32>); 2],
    pgn: Option<&Path>,
) -> Result<(), String> {
    use variantlab::protocol::{Dialect, referee};
    let contender =
        |(command, options, depth): (&String, &Vec<String>, Option<u32>)| -> Result<_, String> {
            let options = options
                .iter()
                .map(|o| {
                    o.split_once('=')
                        .map(|(n, v)| (n.to_string(), v.to_string()))
                        .ok_or_else(|| format!("option `{o}`: write NAME=VALUE"))
                })
                .collect::<Result<_, _>>()?;
            let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
            Ok(variantlab::protocol::referee::Contender {
                command,
                options,
                depth,
            })
        };
    let contenders = [contender(contenders[0])?, contender(contenders[1])?];
    pgn_target(pgn, file)?;
    let rules = rules(file, options)?;
    let dialect = if usi { Dialect::Usi } else { Dialect::Uci };
    // Opened when the first game ends, so that a match that plays none leaves it be.
    let mut out: Option<std::fs::File> = None;
    let names = [
        contenders[0].command.join(" "),
        contenders[1].command.join(" "),
    ];
    let mut points = Vec::new();
    let mut failed = None;
    let played = referee::play_match(
        &rules,
        dialect,
        plan,
        [&contenders[0], &contenders[1]],
        |g, p| {
            points.push(p.points);
            let side = &rules.variant().players[p.first_plays.0 as usize].name;
            println!(
                "game {}: the engine plays {side}; {} for it in {} plies ({}); score {}/{}",
                g + 1,
                p.points,
                p.game.move_count(),
                p.reason,
                points.iter().sum::<f64>(),
                points.len()
            );
            if let Some(path) = pgn
                && failed.is_none()
            {
                let text = format!("{}\n", referee::pgn(p, [&names[0], &names[1]]));
                let written = (|| {
                    if out.is_none() {
                        out = Some(std::fs::File::create(path)?);
                    }
                    match out.as_mut() {
                        Some(f) => f.write_all(text.as_bytes()),
                        None => Ok(()),
                    }
                })();
                if let Err(e) = written {
                    failed = Some(format!("{}: {e}", path.display()));
                }
            }
        },
    );
    if let Err(e) = played {
        return Err(format!(
            "the match stopped after {} games: {e}",
            points.len()
        ));
    }
    if let Some(e) = failed {
        return Err(format!("writing the games: {e}"));
    }
    let (mean, [from, to], [elo, low, high]) = referee::summary(&points);
    println!(
        "score {}/{} = {mean:.3} (95%: {from:.3} to {to:.3}); Elo {elo:+.0} (from {low:+.0} to {high:+.0})",
        points.iter().sum::<f64>(),
        points.len()
    );
    Ok(())
}

fn engine(
    dialect: variantlab::protocol::Dialect,
    file: &Path,
    options: &[String],
) -> Result<(), String> {
    let out: Box<dyn std::io::Write + Send> = Box::new(std::io::stdout());
    variantlab::protocol::run(
        dialect,
        file,
        settings(options)?,
        std::io::stdin().lock(),
        out,
    )
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
    let v = &rules.variant();
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
            diagrams::footprint_svg(&rules, player, id, cell, how.captures)
        );
        return Ok(());
    }
    let marks = diagrams::footprint_marks(&rules, player, id, cell, how.captures);
    let hidden = !how.captures && diagrams::has_capture_only(&rules, player, id, cell);
    print!(
        "{}{}",
        diagrams::footprint_drawing(&rules, player, id, cell, how.full_board, how.captures),
        diagrams::footprint_legend(&rules, id, &marks, hidden)
    );
    Ok(())
}

/// What `selfplay` writes besides its report.
struct Output {
    json: bool,
    pgn: Option<PathBuf>,
}

fn selfplay(
    file: &Path,
    mut study: study::Study,
    options: &[String],
    Output { json, pgn }: Output,
    shard: Option<String>,
    shard_count: Option<u32>,
    compare: Option<String>,
) -> Result<(), String> {
    study.shard = match shard {
        Some(s) => study::Shard::parse(&s)?,
        None => study::shard_from_env(|k| std::env::var(k).ok(), shard_count)?
            .unwrap_or(study::Shard::WHOLE),
    };
    let settings = settings(options)?;
    let runs = match &compare {
        None => vec![(String::new(), settings)],
        Some(c) => study::compared_settings(&settings, c)?,
    };
    pgn_target(pgn.as_deref(), file)?;
    let terminal = std::io::stderr().is_terminal();
    let games = std::sync::Mutex::new(std::collections::BTreeMap::new());
    let mut results = vec![];
    for (label, settings) in runs {
        let rules = play::load_rules(file, &settings)?;
        let started = std::time::Instant::now();
        let show = |done: usize, total: usize| {
            if terminal {
                eprint!(
                    "\r{}  ",
                    study::progress_line(done, total, started.elapsed())
                );
            }
        };
        let event = format!("variantlab selfplay {label}")
            .trim_end()
            .to_string();
        let event = format!("{event}, level {}", study.level);
        let player = format!("variantlab level {}", study.level);
        let record = |n: u64, g: &Game| {
            if pgn.is_some() {
                let text = write_pgn(g, &event, [&player, &player]);
                let mut all = games.lock().unwrap_or_else(|e| e.into_inner());
                all.insert((label.clone(), n), text);
            }
        };
        let tallies = study::run_study_recording(&rules, &study, &show, &record)?;
        if terminal {
            eprintln!();
        }
        results.push((label, tallies));
    }
    let text = match (json, &compare) {
        (true, None) => to_json(&results[0].1)?,
        (true, Some(_)) => to_json(&results.iter().map(|(_, t)| t).collect::<Vec<_>>())?,
        (false, None) => study::text_report(&results[0].1),
        (false, Some(_)) => study::compare_report(&results),
    };
    let all = games.into_inner().unwrap_or_else(|e| e.into_inner());
    // No game, no file: one already there is left as it was.
    if let Some(path) = pgn.filter(|_| !all.is_empty()) {
        let text: String = all.into_values().collect();
        files::write_atomic(&path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    print!("{text}");
    Ok(())
}

/// Pretty JSON, with DEL and the C1 controls escaped too (JSON escapes only C0), so
/// that no text from a file reaches a terminal raw.
fn to_json(value: &impl serde::Serialize) -> Result<String, String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    let mut out = String::with_capacity(text.len() + 1);
    for c in text.chars() {
        if c.is_control() && !c.is_ascii_whitespace() {
            out += &format!("\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    Ok(out + "\n")
}

fn merge(files: &[PathBuf], json: bool) -> Result<(), String> {
    let mut parts = vec![];
    for f in files {
        let bytes = variantlab::read_limited(f, variantlab::MAX_VARIANT_BYTES, "tallies file")
            .map_err(|e| e.to_string())?;
        let t: study::Tallies = serde_json::from_slice(&bytes).map_err(|e| {
            let e = study::printable(&e.to_string()).into_owned();
            format!("{}: not selfplay tallies: {e}", f.display())
        })?;
        parts.push(t);
    }
    let merged = study::merge(&parts).map_err(|e| match e {
        study::MergeError::Invalid { part, problem } => format!(
            "{}: not the tallies of a selfplay run: {problem}",
            files[part].display()
        ),
        e => e.to_string(),
    })?;
    if json {
        print!("{}", to_json(&merged)?);
    } else {
        print!("{}", study::text_report(&merged));
    }
    Ok(())
}

/// The error index, one entry per diagnostic code: what `explain` prints.
const ERROR_INDEX: &str = include_str!("../docs/errors.md");

/// The entries of the error index: each code with its text, from its `## \`code\``
/// heading to the next heading.
fn error_entries() -> Vec<(&'static str, &'static str)> {
    let mut starts: Vec<usize> = ERROR_INDEX
        .match_indices("\n## ")
        .map(|(i, _)| i + 1)
        .collect();
    starts.push(ERROR_INDEX.len());
    starts
        .windows(2)
        .filter_map(|w| {
            let entry = ERROR_INDEX[w[0]..w[1]].trim_end();
            let code = entry.strip_prefix("## `")?.split('`').next()?;
            Some((code, entry))
        })
        .collect()
}

/// The entry's text for a terminal: the heading without its marks, code fences left out
/// and the example and its correction indented.
fn entry_text(entry: &str) -> String {
    let mut out = String::new();
    let mut code = false;
    for line in entry.lines() {
        if line.starts_with("```") {
            code = !code;
            continue;
        }
        if code {
            if !line.is_empty() {
                out.push_str("    ");
            }
            out.push_str(line);
        } else {
            let line = line.strip_prefix("## ").unwrap_or(line);
            out.push_str(&without_links(line));
        }
        out.push('\n');
    }
    out
}

/// Markdown links `[text](target)` as their text alone.
fn without_links(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|e| close + e) else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The summary line of an entry: its first paragraph after the heading.
fn entry_summary(entry: &str) -> String {
    entry
        .lines()
        .skip(1)
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn explain(code: Option<&str>) -> Result<(), String> {
    let entries = error_entries();
    let Some(code) = code else {
        for (c, entry) in &entries {
            println!("{c:<26} {}", entry_summary(entry));
        }
        return Ok(());
    };
    let wanted = code
        .trim()
        .trim_start_matches("variantlab::")
        .to_ascii_lowercase()
        .replace('-', "_");
    match entries.iter().find(|(c, _)| *c == wanted) {
        Some((_, entry)) => {
            print!("{}", entry_text(entry));
            Ok(())
        }
        None => {
            let known = entries.iter().map(|(c, _)| *c);
            let hint = match variantlab::closest(known, &wanted) {
                Some(c) => format!("did you mean `{c}`?"),
                None => "`variantlab explain` lists every code".to_string(),
            };
            Err(format!("there is no diagnostic code `{code}`; {hint}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_limits_are_refused_past_their_bounds() {
        assert_eq!(MAX_LEVEL, 32);
        assert_eq!(parse_level("32"), Ok(32));
        for bad in ["33", "100", "4294967296", "99999999999999999999999"] {
            let e = parse_level(bad).unwrap_err();
            assert!(e.contains("at most 32"), "{bad}: {e}");
        }
        assert!(parse_level("0").unwrap_err().contains("from 1 to 32"));
        assert!(parse_level("deep").unwrap_err().contains("not a level"));
        assert_eq!(Limits::depth(100).depth, 32);
        assert_eq!(parse_time("1440m"), Ok(MAX_TIME));
        for bad in ["1e300", "1e19", "1e300ms", "86401", "1441m"] {
            let e = parse_time(bad).unwrap_err();
            assert!(e.contains("at most 24 hours"), "{bad}: {e}");
        }
        for bad in ["inf", "NaN", "-1s", "0", "soon"] {
            let e = parse_time(bad).unwrap_err();
            assert!(e.contains("is not a time"), "{bad}: {e}");
        }
    }
}
