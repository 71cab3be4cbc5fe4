//! The engine protocols, spoken by the binary: UCI and USI commands, perft counts
//! against published ones, the search thread's `stop`, and python-chess's engine
//! module (a client written outside this project) playing full games through UCI.

use crate::common;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// A running `variantlab uci|usi FILE`, its output read line by line.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(dialect: &str, file: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .args([dialect, &format!("variants/{file}")])
            .current_dir(common::root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in output.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, command: &str) {
        writeln!(self.input, "{command}").unwrap();
        self.input.flush().unwrap();
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut seen = vec![];
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no `{prefix}` within {within:?}; read {seen:#?}"),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        // An engine deaf to `quit` is ended, so that a failing test ends too.
        ended_within(&mut self.child, SECONDS);
    }
}

const SECONDS: Duration = Duration::from_secs(60);

fn nodes_searched(lines: &[String]) -> u64 {
    let last = lines.last().unwrap();
    last.strip_prefix("Nodes searched: ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("not a perft total: {last}"))
}

#[test]
fn uci_names_itself_and_lists_the_files_options() {
    let mut e = Engine::start("uci", "iss-jetan.var");
    e.send("uci");
    let lines = e.until("uciok", SECONDS);
    assert!(lines[0].starts_with("id name variantlab"), "{lines:?}");
    assert!(
        lines.contains(&"option name chief-takes-princess type check default false".into()),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin"))
    );
    e.send("setoption name chief-takes-princess value true");
    e.send("setoption name no-such-thing value true");
    e.send("isready");
    let lines = e.until("readyok", SECONDS);
    assert_eq!(
        lines,
        ["info string there is no option `no-such-thing`", "readyok"]
    );
}

#[test]
fn uci_perft_counts_the_published_numbers() {
    let mut e = Engine::start("uci", "chess.var");
    // Published perft counts of chess: 8,902 from the start; "Kiwipete" 2,039 at 2.
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until("Nodes searched", SECONDS);
    assert_eq!(nodes_searched(&lines), 8902);
    assert!(lines.contains(&"e2e4: 600".into()), "{lines:?}");
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("go perft 2");
    assert_eq!(nodes_searched(&e.until("Nodes searched", SECONDS)), 2039);
}

#[test]
fn uci_positions_take_moves_castling_and_promotion() {
    let mut e = Engine::start("uci", "chess.var");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8");
    e.send("d");
    assert_eq!(e.until("", SECONDS), ["2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"]);
    e.send("position fen 8/4P3/8/8/8/8/k7/4K3 w - - 0 1 moves e7e8n");
    e.send("d");
    assert_eq!(e.until("", SECONDS), ["4N3/8/8/8/8/8/k7/4K3 b - - 0 1"]);
    e.send("position startpos moves e2e5");
    e.send("isready");
    let lines = e.until("readyok", SECONDS);
    assert!(lines[0].starts_with("info string move `e2e5`"), "{lines:?}");
}

#[test]
fn uci_go_reports_info_and_finds_mate() {
    let mut e = Engine::start("uci", "chess.var");
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go depth 3");
    let lines = e.until("bestmove", SECONDS);
    assert_eq!(lines.last().unwrap(), "bestmove a1a8");
    let info = &lines[lines.len() - 2];
    assert!(info.starts_with("info depth "), "{info}");
    assert!(info.contains(" score mate 1 "), "{info}");
    assert!(info.contains(" nodes ") && info.contains(" nps "), "{info}");
    assert!(info.ends_with(" pv a1a8"), "{info}");
}

#[test]
fn uci_go_infinite_runs_until_stop() {
    let mut e = Engine::start("uci", "chess.var");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until("readyok", SECONDS);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    let asked = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove", SECONDS);
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert_eq!(best.len(), 4, "{best}");
}

#[test]
fn uci_movetime_and_clocks_are_kept() {
    let mut e = Engine::start("uci", "chess.var");
    e.send("position startpos moves d2d4");
    e.send("isready");
    e.until("readyok", SECONDS);
    for go in [
        "go movetime 300",
        "go wtime 500 btime 500",
        "go wtime 100000 btime 30 binc 0",
    ] {
        let asked = Instant::now();
        e.send(go);
        e.until("bestmove", SECONDS);
        let took = asked.elapsed();
        let bound = match go {
            "go movetime 300" => 300,
            "go wtime 500 btime 500" => 250,
            _ => 30,
        };
        // A loaded machine may delay the pipe a little, never the budget.
        assert!(took < Duration::from_millis(bound + 100), "{go}: {took:?}");
    }
}

#[test]
fn usi_reads_sfen_drops_and_promotions() {
    let mut e = Engine::start("usi", "shogi.var");
    e.send("usi");
    let lines = e.until("usiok", SECONDS);
    assert!(lines[0].starts_with("id name variantlab"), "{lines:?}");
    // Published shogi perft: 30, 900.
    e.send("position startpos");
    e.send("go perft 2");
    assert_eq!(nodes_searched(&e.until("Nodes searched", SECONDS)), 900);
    e.send("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e");
    e.send("d");
    // Fairy-Stockfish's `d` after the same moves (its last field counts plies).
    let sfen = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b";
    assert!(e.until("", SECONDS)[0].starts_with(sfen));
    e.send("go depth 2");
    let lines = e.until("bestmove", SECONDS);
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(best.len() == 4 || best.len() == 5, "{best}");
}

/// python-chess's engine module drives two variantlab engines through a short match
/// (scripts/uci_selfmatch.py says what it checks). CI installs python-chess; elsewhere
/// the test says so and passes when it is missing.
#[test]
fn python_chess_plays_variantlab_against_itself() {
    let has_chess = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_chess {
        if common::tools_required() {
            panic!("CI must have python-chess (.ci/run installs it)");
        }
        common::skip(
            "protocols::python_chess_plays_variantlab_against_itself",
            "python-chess is not installed (python3 -m pip install --user chess)",
        );
        return;
    }
    let out = Command::new("python3")
        .args([
            "scripts/uci_selfmatch.py",
            env!("CARGO_BIN_EXE_variantlab"),
            "variants/chess.var",
            "2",
        ])
        .current_dir(common::root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("analysis: depth"), "{text}");
    assert!(text.contains("\ngames 2: "), "{text}");
}

/// `variantlab match` with the arguments after the file; its status and output.
fn referee(file: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["match", &format!("variants/{file}")])
        .args(args)
        .current_dir(common::root())
        .output()
        .expect("the binary starts");
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text.into_owned())
}

/// The first engine's points in each game line of a match's output.
fn points(text: &str) -> Vec<f64> {
    text.lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| {
            let after = l.split("; ").nth(1).expect("points after the side");
            after.split(' ').next().unwrap().parse().expect("a number")
        })
        .collect()
}

#[test]
fn a_match_between_two_engines_is_refereed_by_the_variant_and_kept_as_pgn() {
    let bin = env!("CARGO_BIN_EXE_variantlab");
    let dir = common::scratch("referee", &[]);
    let pgn = dir.join("games.pgn");
    let engine = format!("{bin} uci variants/chess.var");
    let (ok, text) = referee(
        "chess.var",
        &[
            "--engine",
            &engine,
            "--opponent",
            &engine,
            "--games",
            "2",
            "--movetime",
            "40ms",
            "--max-plies",
            "30",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(ok, "{text}");
    let won = points(&text);
    assert_eq!(won.len(), 2, "{text}");
    let total: f64 = won.iter().sum();
    assert!(text.contains(&format!("score {total}/2 = ")), "{text}");
    // The PGN's results are the games' results, each side named by its command.
    let games = std::fs::read_to_string(&pgn).unwrap();
    let results: Vec<&str> = games
        .lines()
        .filter_map(|l| l.strip_prefix("[Result \""))
        .collect();
    assert_eq!(results.len(), 2, "{games}");
    for (i, (r, p)) in results.iter().zip(&won).enumerate() {
        // The first engine plays White in the first game, Black in the second.
        let white = match r.trim_end_matches("\"]") {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        let expected = if i == 0 { white } else { 1.0 - white };
        assert_eq!(*p, expected, "game {}: {r}\n{text}", i + 1);
    }
    assert!(games.contains(&format!("[White \"{engine}\"]")), "{games}");
}

#[test]
fn a_match_scores_an_illegal_move_as_a_loss_and_a_dead_engine_as_an_error() {
    let dir = common::scratch("referee-bad", &[]);
    let script = dir.join("bad.sh");
    std::fs::write(
        &script,
        "while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; \
         go*) echo 'bestmove z9z9';; quit) exit;; esac; done\n",
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_variantlab");
    let engine = format!("{bin} uci variants/chess.var");
    let bad = format!("sh {}", script.display());
    let (ok, text) = referee(
        "chess.var",
        &[
            "--engine",
            &engine,
            "--opponent",
            &bad,
            "--games",
            "2",
            "--movetime",
            "30ms",
        ],
    );
    assert!(ok, "{text}");
    assert_eq!(points(&text), [1.0, 1.0], "{text}");
    assert!(text.contains("played `z9z9`, refused"), "{text}");
    let (ok, text) = referee("chess.var", &["--engine", &engine, "--opponent", "true"]);
    assert!(!ok, "{text}");
    // It may be gone before it is asked, or before it answers.
    assert!(
        text.contains("engine `true` ended before answering `uci"),
        "{text}"
    );
}

#[test]
fn xboard_plays_its_side_answers_pings_and_says_how_the_game_ended() {
    let r = common::rules("chess.var");
    let mut e = Engine::start("xboard", "chess.var");
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1", SECONDS).join("\n");
    for f in ["variants=\"chess\"", "setboard=1", "usermove=1", "ping=1"] {
        assert!(features.contains(f), "{f}: {features}");
    }
    // After `new` the engine plays Black, and answers White's move with a legal one.
    e.send("new");
    e.send("sd 2");
    e.send("usermove e2e4");
    let reply = e.until("move ", SECONDS).pop().unwrap();
    let mut game = variantlab::Game::start(r.clone(), 0).unwrap();
    game.play_text("e2e4").unwrap();
    let text = reply.strip_prefix("move ").unwrap();
    game.play_text(text)
        .unwrap_or_else(|err| panic!("{reply}: {err}"));
    e.send("ping 7");
    e.until("pong 7", SECONDS);
    e.send("usermove e2e5");
    let refused = e.until("Illegal move", SECONDS).pop().unwrap();
    assert!(refused.ends_with(": e2e5"), "{refused}");
    // From a set-up position, `go` makes it play the side to move: a mate, announced.
    e.send("force");
    e.send("setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    e.send("go");
    assert_eq!(e.until("move ", SECONDS).pop().unwrap(), "move a1a8");
    let end = e.until("1-0", SECONDS).pop().unwrap();
    assert!(end.contains("checkmated"), "{end}");
    e.send("variant xiangqi");
    e.until("Error (unsupported variant): xiangqi", SECONDS);
}

#[test]
fn a_match_score_has_an_interval_even_when_every_game_went_one_way() {
    use variantlab::protocol::referee::summary;
    // Wilson's interval, worked by hand: 0 of 20 is at most 0.161 (-287 Elo).
    let (mean, [low, high], [elo, _, top]) = summary(&[0.0; 20]);
    assert_eq!((mean, low), (0.0, 0.0));
    assert!((high - 0.1611).abs() < 1e-4, "{high}");
    assert_eq!((elo, top), (f64::NEG_INFINITY, -287.0));
    // Half of 100: 0.404 to 0.596, ±68 Elo.
    let even: Vec<f64> = (0..100).map(|i| (i % 2) as f64).collect();
    let (mean, [low, high], [elo, from, to]) = summary(&even);
    assert_eq!(mean, 0.5);
    assert!((low - 0.4038).abs() < 1e-4 && (high - 0.5962).abs() < 1e-4);
    assert_eq!((elo, from, to), (0.0, -68.0, 68.0));
}

#[test]
fn bytes_that_are_not_text_are_answered_and_the_session_goes_on() {
    for (dialect, after) in [("uci", "isready\n"), ("xboard", "ping 4\n")] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .args([dialect, "variants/chess.var"])
            .current_dir(common::root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"usermove \xff\xfe\x00\n").unwrap();
        input.write_all(after.as_bytes()).unwrap();
        input.write_all(b"quit\n").unwrap();
        drop(input);
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let answer = if dialect == "uci" {
            "readyok"
        } else {
            "pong 4"
        };
        assert!(text.lines().any(|l| l == answer), "{dialect}: {text}");
    }
}

/// Waits up to `within` for `child` to end: its status, or None (then it is killed).
fn ended_within(child: &mut Child, within: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn long_lines_are_read_unkept_and_unknown_commands_echoed_short() {
    let long = format!("{}\u{ff}\n", "y".repeat(20 << 20));
    let unknown = format!("{}\n", "z".repeat(300_000));
    let named = format!("{}\n", "w".repeat(1000));
    for (dialect, after, answer, too_long) in [
        (
            "uci",
            "isready",
            "readyok",
            "info string a line of over 65536 bytes, ignored",
        ),
        (
            "xboard",
            "ping 3",
            "pong 3",
            "Error (line of over 65536 bytes): ignored",
        ),
    ] {
        let mut e = Engine::start(dialect, "chess.var");
        for text in [&long, &unknown, &named] {
            e.input.write_all(text.as_bytes()).unwrap();
        }
        e.input.write_all(b"\xe9\xff go on\n").unwrap();
        e.send(after);
        let lines = e.until(answer, SECONDS);
        let said = lines.join("\n");
        assert_eq!(lines.iter().filter(|l| *l == too_long).count(), 2, "{said}");
        let cut = format!("{}…", "w".repeat(40));
        assert!(lines.iter().any(|l| l.contains(&cut)), "{said}");
        assert!(lines.iter().any(|l| l.contains('\u{fffd}')), "{said}");
        assert!(said.len() < 1000, "{dialect}: {} bytes said", said.len());
    }
}

#[test]
fn perft_runs_on_its_thread_so_isready_stop_quit_and_the_end_are_heard() {
    let mut e = Engine::start("uci", "chess.var");
    e.send("position startpos");
    e.send("go perft 9");
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(5));
    assert!(!lines.iter().any(|l| l.starts_with("Nodes")), "{lines:?}");
    e.send("stop");
    e.until("info string perft stopped", Duration::from_secs(5));
    // Counted to the end, it still says its total.
    e.send("go perft 2");
    assert_eq!(nodes_searched(&e.until("Nodes searched", SECONDS)), 400);
    for end in ["quit\n", ""] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .args(["uci", "variants/chess.var"])
            .current_dir(common::root())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        write!(input, "go perft 9\n{end}").unwrap();
        drop(input);
        let status = ended_within(&mut child, Duration::from_secs(5));
        assert!(status.is_some_and(|s| s.success()), "{end:?}: {status:?}");
    }
}

#[test]
fn an_engine_whose_reader_is_gone_goes_on_quietly_and_ends_with_its_input() {
    for dialect in ["uci", "xboard"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .args([dialect, "variants/chess.var"])
            .current_dir(common::root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let mut input = child.stdin.take().unwrap();
        let commands = "uci\nprotover 2\ngo depth 3\nisready\ngo perft 3\nfoo\nnew\nsd 2\n\
                        usermove e2e4\nping 1\n";
        input.write_all(commands.as_bytes()).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        drop(input);
        let status = ended_within(&mut child, Duration::from_secs(10));
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert!(
            status.is_some_and(|s| s.success()),
            "{dialect}: {status:?} {err}"
        );
        assert!(!err.contains("panicked"), "{dialect}: {err}");
    }
}

/// Whether one of `lines` is a thinking line (`post`) at least `depth` deep.
fn thought_to(lines: &[String], depth: u32) -> bool {
    lines.iter().any(|l| {
        let mut words = l.split(' ');
        let deep = words.next().and_then(|d| d.parse::<u32>().ok());
        deep.is_some_and(|d| d >= depth) && words.count() >= 4
    })
}

#[test]
fn xboard_clocks_past_64_bits_are_refused_or_saturate_never_wrap() {
    let mut e = Engine::start("xboard", "chess.var");
    e.send("xboard");
    e.send("new");
    e.send("force");
    // Both bases wrap, times 60, to under a minute.
    for base in ["307445734561825861", "4611686018427387904:1"] {
        e.send(&format!("level 40 {base} 0"));
        e.send("ping 1");
        let lines = e.until("pong 1", SECONDS);
        let refused = format!("Error (bad time control): level 40 {base} 0");
        assert!(lines.contains(&refused), "{lines:?}");
    }
    // 1844674407370955162 centiseconds wrap, times 10, to 4 ms; kept, they are an age.
    e.send("post");
    e.send("time 1844674407370955162");
    e.send("otim -5");
    e.send("go");
    let lines = e.until("5 ", SECONDS);
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    e.send("?");
    e.until("move ", SECONDS);
    // A depth past 32 bits is the deepest, not 1.
    e.send("new");
    e.send("force");
    e.send("sd 4294967297");
    e.send("st 1");
    e.send("go");
    let lines = e.until("move ", SECONDS);
    assert!(thought_to(&lines, 2), "{lines:?}");
}

#[test]
fn uci_numbers_past_64_bits_or_negative_neither_wrap_nor_stop_the_engine() {
    let mut e = Engine::start("uci", "chess.var");
    e.send("position startpos");
    // A depth past 32 bits wrapped to 1.
    e.send("go depth 4294967297");
    let lines = e.until("info depth 3 ", SECONDS);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    e.until("bestmove", SECONDS);
    // So did 2^32 moves to go, to the last move before the control: 3/4 of the clock.
    let asked = Instant::now();
    e.send("go wtime 30000 btime 30000 movestogo 4294967296");
    e.until("bestmove", SECONDS);
    assert!(
        asked.elapsed() < Duration::from_secs(8),
        "{:?}",
        asked.elapsed()
    );
    for go in [
        "go wtime -9223372036854775808 btime -1 winc -5 binc 99999999999999999999 movestogo -3",
        "go nodes -7 depth -2",
        "go movetime -1",
    ] {
        e.send(go);
        let lines = e.until("bestmove", Duration::from_secs(5));
        assert!(
            !lines.iter().any(|l| l.contains("info string")),
            "{go}: {lines:?}"
        );
    }
    e.send("go movetime 99999999999999999999 depth 99999999999999999999");
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(5));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    e.until("bestmove", Duration::from_secs(5));
}

/// `variantlab match` on a variant file anywhere, given up after `within`: its status
/// (none if it had to be ended) and output.
fn referee_within(file: &str, args: &[&str], within: Duration) -> (Option<bool>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["match", file])
        .args(args)
        .current_dir(common::root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let status = ended_within(&mut child, within);
    let mut text = String::new();
    for mut pipe in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let mut bytes = vec![];
        pipe.read_to_end(&mut bytes).unwrap();
        text += &String::from_utf8_lossy(&bytes);
    }
    (status.map(|s| s.success()), text)
}

#[test]
fn a_match_reads_stray_bytes_and_long_lines_from_an_engine_and_goes_on() {
    let dir = common::scratch("referee-bytes", &[]);
    let script = dir.join("latin1.sh");
    std::fs::write(
        &script,
        "while read l; do case \"$l\" in \
         uci) printf 'id name caf\\351\\n'; head -c 100000 /dev/zero | tr '\\0' x; echo; \
         echo uciok;; isready) echo readyok;; go*) echo 'bestmove z9z9';; quit) exit;; \
         esac; done\n",
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_variantlab");
    let engine = format!("{bin} uci variants/chess.var");
    let odd = format!("sh {}", script.display());
    let (ok, text) = referee(
        "chess.var",
        &[
            "--engine",
            &engine,
            "--opponent",
            &odd,
            "--games",
            "2",
            "--movetime",
            "30ms",
        ],
    );
    assert!(ok, "{text}");
    assert_eq!(points(&text), [1.0, 1.0], "{text}");
}

#[test]
fn a_match_refuses_a_variant_with_no_opening_to_play() {
    let bin = env!("CARGO_BIN_EXE_variantlab");
    let engine = format!("{bin} uci variants/chess.var");
    let engines = ["--engine", &engine, "--opponent", &engine, "--games", "2"];
    let (ok, text) = referee_within("variants/invalid/unplayable-start.var", &engines, SECONDS);
    assert_eq!(ok, Some(false), "{text}");
    assert!(
        text.contains("the variant's start cannot be set up"),
        "{text}"
    );
    assert!(!text.contains("panicked"), "{text}");
    // White's one Pawn reaches the far rank with any move; or stands there already.
    let race = |white: &str| {
        format!(
            "name \"Race\"\nboard square 3 by 3\n\
             player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
             zone goal: last cell of each file\n\
             piece Pawn (P) {{\n  step 1 straight forward, to empty\n}}\n\
             setup {{\n  White: Pawn {white}\n  Black: Pawn c2\n}}\n\
             game ends {{\n  a player has a Pawn in goal: that player wins\n}}\n"
        )
    };
    let dir = common::scratch("referee-openings", &[]);
    for (white, plies, says) in [
        (
            "a2",
            "4",
            "each of 1000 openings of 4 random moves ended the game",
        ),
        ("a3", "0", "the game is over at the start"),
    ] {
        let file = dir.join(format!("race-{white}.var"));
        std::fs::write(&file, race(white)).unwrap();
        let args: Vec<&str> = engines
            .iter()
            .copied()
            .chain(["--opening", plies])
            .collect();
        let (ok, text) = referee_within(file.to_str().unwrap(), &args, SECONDS);
        assert_eq!(ok, Some(false), "{white}: {text}");
        assert!(text.contains(says), "{white}: {text}");
    }
}
