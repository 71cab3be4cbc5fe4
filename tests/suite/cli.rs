//! The command line, run as a user would.

use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    run_in(env!("CARGO_MANIFEST_DIR").as_ref(), args, stdin.as_bytes())
}

/// Runs the program in `dir` with `stdin` as its whole input.
fn run_in(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("writes");
    child.wait_with_output().expect("finishes")
}

/// A fresh folder for one test.
fn temp_dir(name: &str) -> crate::common::Scratch {
    crate::common::scratch(name, &[])
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

#[test]
fn check_passes_valid_files_and_fails_broken_ones() {
    let ok = run(
        &[
            "check",
            "variants/iss-jetan.var",
            "variants/hexagonal-iss-jetan.var",
        ],
        "",
    );
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert_eq!(
        text(&ok.stdout)
            .lines()
            .filter(|l| l.starts_with("ok: "))
            .count(),
        2
    );

    let dir = crate::common::scratch("cli", &[]);
    let bad = dir.join("bad.var");
    std::fs::write(&bad, "board square 8 by 8\nplayer White: forward north\npiece Rook (R) {\n  slide orthogonal\n}\nsetup { White: Rook z9 }\n").unwrap();
    let out = run(&["check", bad.to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("variantlab::cell_off_board") && err.contains("`z9` is not a cell"),
        "{err}"
    );
    let missing = run(&["check", "no/such/file.var"], "");
    assert!(!missing.status.success());
    assert!(text(&missing.stderr).contains("cannot read"));
}

#[test]
fn footprint_takes_names_or_codes_in_any_case() {
    let by_name = run(&["footprint", "variants/iss-jetan.var", "thoat"], "");
    let by_code = run(
        &["footprint", "variants/iss-jetan.var", "TH", "--at", "e5"],
        "",
    );
    assert!(by_name.status.success());
    assert_eq!(text(&by_name.stdout), text(&by_code.stdout));
    assert!(text(&by_name.stdout).starts_with("[ ][x][ ][x][ ]\n"));
    // Orange's Panthan moves south: its blank cell is above it.
    let orange = run(
        &[
            "footprint",
            "variants/iss-jetan.var",
            "pn",
            "--player",
            "orange",
        ],
        "",
    );
    assert_eq!(text(&orange.stdout), "[x][ ][x]\n[x][o][x]\n[x][x][x]\n");
    let unknown = run(&["footprint", "variants/iss-jetan.var", "queen"], "");
    assert!(!unknown.status.success());
    assert!(text(&unknown.stderr).contains("Panthan (PN)"));
}

#[test]
fn perft_prints_nodes_last_and_divides() {
    let out = run(&["perft", "variants/iss-jetan.var", "--depth", "2"], "");
    assert_eq!(text(&out.stdout).lines().last(), Some("nodes 1754"));
    let div = run(
        &[
            "perft",
            "variants/iss-jetan.var",
            "--depth",
            "2",
            "--divide",
        ],
        "",
    );
    let lines: Vec<String> = text(&div.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 43, "42 root moves and the total");
    let sum: u64 = lines[..42]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1754);
    let bad = run(
        &[
            "perft",
            "variants/iss-jetan.var",
            "--depth",
            "1",
            "--position",
            "nonsense",
        ],
        "",
    );
    assert!(!bad.status.success());
    assert!(text(&bad.stderr).contains("bad position"));
    let opt = run(
        &[
            "perft",
            "variants/iss-jetan.var",
            "--depth",
            "1",
            "--option",
            "no-such=on",
        ],
        "",
    );
    assert!(
        text(&opt.stderr).contains("no option `no-such`"),
        "{}",
        text(&opt.stderr)
    );
}

#[test]
fn moves_lists_one_move_a_line() {
    let out = run(&["moves", "variants/iss-jetan.var"], "");
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 42);
    assert!(lines.contains(&"f1-f5:e".to_string()) && lines.contains(&"d1-a4".to_string()));
}

#[test]
fn play_survives_bad_input_and_saves_and_loads() {
    let dir = crate::common::scratch("play", &[]);
    let save = dir.join("game.txt");
    let script = format!(
        "e2-e3\nnonsense\ne2-e9\nf9-f8\nsave {}\nundo\nundo\nload {}\nposition\nload /no/such/file\nposition\nquit\n",
        save.display(),
        save.display()
    );
    let out = run(&["play", "variants/iss-jetan.var"], &script);
    assert!(out.status.success());
    let o = text(&out.stdout);
    assert!(o.contains("Refused: `nonsense`"), "{o}");
    assert!(o.contains("Refused: there is no piece on e2"), "{o}");
    assert!(o.contains("Could not load /no/such/file"), "{o}");
    let after = "wapddwflchprfldwpdwa/thpnpnpnpn1pnpnpnth/5pn4/10/10/10/10/4PN5/THPNPNPN1PNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b - 2 2";
    assert_eq!(
        o.matches(after).count(),
        2,
        "the loaded game and the one kept after a failed load:\n{o}"
    );
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.contains("moves e2-e3 f9-f8"), "{saved}");
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    let out = run_in(
        env!("CARGO_MANIFEST_DIR").as_ref(),
        &["play", "variants/iss-jetan.var"],
        b"e2-e3\n\xff\xfe oops\nposition\n",
    );
    assert!(out.status.success());
    let o = text(&out.stdout);
    assert!(
        o.contains("Refused: the line is not UTF-8 text (byte 1"),
        "{o}"
    );
    assert!(
        o.contains("/4PN5/THPNPNPN1PNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA o - 1 1"),
        "the move before the bad line stands:\n{o}"
    );
    assert!(
        o.trim_end()
            .ends_with("End of input: the game was not saved."),
        "{o}"
    );
}

#[test]
fn an_overlong_line_is_refused_without_being_kept() {
    let mut input = vec![b'e'; 100_000];
    input.extend_from_slice(b"\nmoves\n");
    let out = run_in(
        env!("CARGO_MANIFEST_DIR").as_ref(),
        &["play", "variants/iss-jetan.var"],
        &input,
    );
    let o = text(&out.stdout);
    assert!(o.contains("Refused: a line of more than 4096 bytes"), "{o}");
    assert!(
        o.contains("f1-f5:e"),
        "the next line is read as usual:\n{o}"
    );
}

#[test]
fn a_line_of_exactly_the_limit_is_read() {
    // 4096 bytes and the newline after them: read. One byte more: refused.
    let line = |n: usize| format!("{:<n$}", "e2-e3");
    let input = format!("{}\n{}\r\nposition\n", line(4096), line(4097));
    let out = run(&["play", "variants/iss-jetan.var"], &input);
    let o = text(&out.stdout);
    assert_eq!(
        o.matches("Refused: a line of more than 4096 bytes").count(),
        1,
        "{o}"
    );
    assert!(
        o.contains("Last move: e2-e3."),
        "the 4096-byte line is played:\n{o}"
    );
}

/// A pipe whose reading end is already closed: every write to it fails.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    writer
}

#[test]
fn a_closed_standard_error_ends_nothing_but_the_messages() {
    // `check BAD 2>&1 | head -1`: the diagnostics cannot be written; the verdict and
    // the exit status still come.
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["check", "variants/invalid/bad-count.var"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(closed_pipe())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).starts_with("failed: "),
        "{}",
        text(&out.stdout)
    );
    // An error message alone, and both outputs closed.
    for stdout in [Stdio::piped(), closed_pipe().into()] {
        let status = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .args(["moves", "no-such-file.var"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(stdout)
            .stderr(closed_pipe())
            .status()
            .expect("runs");
        assert_eq!(status.code(), Some(1));
    }
}

#[test]
fn perft_refuses_depths_past_the_limit() {
    for depth in ["33", "100000", "4294967295", "99999999999999999999"] {
        let out = run(&["perft", "variants/iss-jetan.var", "--depth", depth], "");
        assert!(!out.status.success());
        let e = text(&out.stderr);
        assert!(e.contains("the depth is at most 32"), "{depth}: {e}");
        assert!(!e.contains("panicked"), "{e}");
    }
    let zero = run(&["perft", "variants/iss-jetan.var", "--depth", "0"], "");
    assert_eq!(text(&zero.stdout), "nodes 1\n");
}

#[test]
fn a_closed_output_pipe_ends_the_program_quietly_with_failure() {
    for args in [
        &[
            "perft",
            "variants/iss-jetan.var",
            "--depth",
            "2",
            "--divide",
        ][..],
        &["moves", "variants/iss-jetan.var"],
        &["footprint", "variants/iss-jetan.var", "th", "--full-board"],
        &["check", "variants/iss-jetan.var"],
        &["play", "variants/iss-jetan.var"],
    ] {
        // The reading end is closed before the program starts: every write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        // Cut short is not success: `set -o pipefail` must see it.
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(text(&out.stderr), "", "{args:?}");
    }
}

#[test]
fn check_fails_when_files_fail_even_if_its_output_is_closed() {
    // `check variants/invalid/*.var | head -1`.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("variants/invalid"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "var"))
        .collect();
    files.sort();
    files.insert(0, root.join("variants/chess.var"));
    assert!(files.len() > 10);
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .arg("check")
        .args(&files)
        .current_dir(root)
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn serve_stops_with_a_message_when_its_address_cannot_be_written() {
    // `variantlab serve FILES | true`: a server whose address no one saw.
    let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["serve", "variants/chess.var", "--port", "0"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("the server went on serving unseen");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot write the server's address and token"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn players_are_named_in_full_or_by_their_initial() {
    let by_name = run(
        &[
            "footprint",
            "variants/iss-jetan.var",
            "pn",
            "--player",
            "Orange",
        ],
        "",
    );
    let by_initial = run(
        &["footprint", "variants/iss-jetan.var", "pn", "--player", "o"],
        "",
    );
    assert!(by_initial.status.success(), "{}", text(&by_initial.stderr));
    assert_eq!(text(&by_name.stdout), text(&by_initial.stdout));
    let bad = run(
        &["footprint", "variants/iss-jetan.var", "pn", "--player", "x"],
        "",
    );
    assert!(
        text(&bad.stderr).contains("no player `x`; the players are Black (b), Orange (o)"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn option_values_are_on_off_yes_no_true_false_in_any_case() {
    let moves = |setting: &str| {
        run(
            &["moves", "variants/iss-jetan.var", "--option", setting],
            "",
        )
    };
    let on = text(&moves("chief-takes-princess=on").stdout);
    for same in [
        "chief-takes-princess=ON",
        "chief-takes-princess=Yes",
        "CHIEF-TAKES-PRINCESS=true",
    ] {
        let out = moves(same);
        assert!(out.status.success(), "{same}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), on, "{same}");
    }
    for (bad, says) in [
        (
            "chief-takes-princess=maybe",
            "`maybe` is not a value for an option; write on or off",
        ),
        (
            "chief-takes-princess",
            "write an option as NAME=on or NAME=off",
        ),
        ("=on", "the option's name is missing"),
    ] {
        let out = moves(bad);
        assert!(!out.status.success());
        assert!(
            text(&out.stderr).contains(says),
            "{bad}: {}",
            text(&out.stderr)
        );
    }
    let twice = run(
        &[
            "moves",
            "variants/iss-jetan.var",
            "--option",
            "chief-takes-princess=on",
            "--option",
            "chief-takes-princess=off",
        ],
        "",
    );
    assert!(
        text(&twice.stderr).contains("set twice"),
        "{}",
        text(&twice.stderr)
    );
}

#[test]
fn one_player_mover_loses_is_printed_as_a_loss() {
    let dir = temp_dir("solo");
    std::fs::write(
        dir.join("solo.var"),
        "board square 1 by 3\nplayer Solo: forward north, capitals\npiece Climber (C) {\n  step 1 forward\n}\nsetup {\n  Solo: Climber a1\n}\ngame ends {\n  no legal move: mover loses\n}\n",
    )
    .unwrap();
    let out = run_in(&dir, &["play", "solo.var"], b"a1-a2\na2-a3\n");
    let o = text(&out.stdout);
    assert!(
        o.contains("Game over: Solo loses: Solo has no legal move."),
        "{o}"
    );
    assert!(!o.contains("draw"), "{o}");
}

#[test]
fn saves_load_from_any_folder_and_never_replace_rules() {
    let dir = temp_dir("saves");
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::create_dir_all(dir.join("games")).unwrap();
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    let rules_text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/iss-jetan.var"),
    )
    .unwrap();
    std::fs::write(dir.join("rules/j.var"), &rules_text).unwrap();
    let out = run_in(
        &dir,
        &["play", "rules/j.var"],
        b"e2-e3\nsave rules/j.var\nsave games/g.txt\nquit\n",
    );
    let o = text(&out.stdout);
    assert!(
        o.contains("Refused: not saved: rules/j.var is a variant file"),
        "{o}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("rules/j.var")).unwrap(),
        rules_text
    );
    let saved = std::fs::read_to_string(dir.join("games/g.txt")).unwrap();
    assert!(saved.contains("\nvariant ../rules/j.var\n"), "{saved}");
    // Loaded from another folder, through another relative path.
    let out = run_in(
        &dir.join("elsewhere"),
        &["play", "../rules/j.var"],
        b"load ../games/g.txt\nposition\n",
    );
    let o = text(&out.stdout);
    assert!(o.contains("Loaded ../games/g.txt."), "{o}");
    assert!(
        o.contains("/4PN5/THPNPNPN1PNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA o - 1 1"),
        "{o}"
    );
    assert!(o.contains("End of input; the game is saved in"), "{o}");
}

#[test]
fn mutated_command_lines_never_panic() {
    let valid: [&[&str]; 4] = [
        // Not perft: a garbled depth may be a legal but endless one.
        &["footprint", "variants/iss-jetan.var", "th", "--full-board"],
        &[
            "moves",
            "variants/iss-jetan.var",
            "--option",
            "chief-takes-princess=on",
        ],
        &[
            "footprint",
            "variants/iss-jetan.var",
            "pn",
            "--player",
            "o",
            "--at",
            "e5",
        ],
        &[
            "moves",
            "variants/iss-jetan.var",
            "--position",
            "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b - 0 1",
        ],
    ];
    let tricky = [
        "",
        "-",
        "=",
        "99999999999999999999",
        "4294967295",
        "é",
        "/",
        "--depth",
    ];
    let mut seed: u64 = 17;
    let mut below = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    for round in 0..60 {
        let mut args: Vec<String> = valid[round % valid.len()]
            .iter()
            .map(|s| s.to_string())
            .collect();
        // Replace a value, garble it or drop it; the subcommand and file stay.
        let at = 2 + below(args.len() - 2);
        match below(3) {
            0 => args[at] = tricky[below(tricky.len())].to_string(),
            1 => {
                let mut chars: Vec<char> = args[at].chars().collect();
                let cut = below(chars.len() + 1);
                chars.insert(cut, char::from(b' ' + below(95) as u8));
                args[at] = chars.into_iter().collect();
            }
            _ => {
                args.remove(at);
            }
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&refs, "");
        let code = out.status.code();
        assert!(
            matches!(code, Some(0..=2)),
            "{args:?}: {code:?}\n{}",
            text(&out.stderr)
        );
        assert!(!text(&out.stderr).contains("panicked"), "{args:?}");
    }
}

/// Glinski's stalemate: the stalemating side scores 3/4. Black, to move, has no move
/// and is not in check.
const GLINSKI_STALEMATE: &str = "5k/7/5K2/9/10/11/10/9/8/7/6 b - 0 1";

#[test]
fn the_terminal_says_a_fractional_result_as_declared() {
    let out = run(
        &[
            "play",
            "variants/glinski-chess.var",
            "--position",
            GLINSKI_STALEMATE,
        ],
        "quit\n",
    );
    let said = text(&out.stdout);
    assert!(
        said.contains("Game over: White scores 3/4, Black scores 1/4: Black is stalemated."),
        "{said}"
    );
}

#[test]
fn bytes_that_are_not_text_are_reported_where_they_stand() {
    // Latin-1 `é` in the name and in a comment, and two bad bytes in a row: three runs.
    let dir = temp_dir("not-text");
    let good = std::fs::read(crate::common::root().join("variants/invalid/not-text.var")).unwrap();
    let mut bytes = String::from_utf8(good)
        .unwrap()
        .replace("Caf\u{FFFD}", "Caf\u{1}")
        .into_bytes();
    for b in bytes.iter_mut().filter(|b| **b == 1) {
        *b = 0xe9;
    }
    bytes.extend_from_slice(b"\n# caf\xe9 \xff\xfe\n");
    std::fs::write(dir.join("latin.var"), &bytes).unwrap();
    let o = run_in(&dir, &["check", "latin.var"], b"");
    let err = text(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert_eq!(err.matches("variantlab::not_text").count(), 3, "{err}");
    assert!(err.contains("latin.var:3:10"), "{err}");
}

#[test]
fn pgn_files_are_checked_before_any_game_and_never_emptied() {
    let dir = temp_dir("pgn-targets");
    let chess = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/chess.var"),
    )
    .unwrap();
    std::fs::write(dir.join("CHESS.VAR"), &chess).unwrap();
    std::fs::write(dir.join("rules.txt"), &chess).unwrap();
    std::fs::write(dir.join("notes.txt"), "[my notes]\n").unwrap();
    let old = "[Event \"variantlab selfplay, level 1\"]\n\n*\n\n";
    std::fs::write(dir.join("old.pgn"), old).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("CHESS.VAR", dir.join("link.pgn")).unwrap();
    // An engine that leaves a mark if it is ever started.
    let mark = dir.join("started");
    let engine = format!("touch {}", mark.display());
    let match_to = |pgn: &str| {
        run_in(
            &dir,
            &[
                "match",
                "CHESS.VAR",
                "--engine",
                &engine,
                "--opponent",
                &engine,
                "--games",
                "1",
                "--pgn",
                pgn,
            ],
            b"",
        )
    };
    let selfplay_to = |pgn: &str| {
        let args = ["selfplay", "CHESS.VAR", "--games", "1", "--level", "1"];
        let mut args = args.to_vec();
        args.extend(["--max-plies", "6", "--threads", "1", "--pgn", pgn]);
        run_in(&dir, &args, b"")
    };
    // No input: a program that stops at once may have closed it before it is written.
    let play_to = |pgn: &str| run_in(&dir, &["play", "CHESS.VAR", "--pgn", pgn], b"");
    let mut refused = vec![
        ("CHESS.VAR", "is the variant file itself"),
        ("./CHESS.VAR", "is the variant file itself"),
        ("OTHER.Var", "is named like a variant file"),
        ("rules.txt", "is not a PGN file variantlab wrote"),
        ("notes.txt", "is not a PGN file variantlab wrote"),
        (
            "no-such-folder/games.pgn",
            "there is no folder no-such-folder",
        ),
    ];
    if cfg!(unix) {
        refused.push(("link.pgn", "is the variant file itself"));
    }
    for (pgn, says) in refused {
        for (how, out) in [
            ("match", match_to(pgn)),
            ("selfplay", selfplay_to(pgn)),
            ("play", play_to(pgn)),
        ] {
            let e = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{how} --pgn {pgn}: {e}");
            assert!(e.contains(says), "{how} --pgn {pgn}: {e}");
        }
    }
    assert!(!mark.exists(), "an engine was started");
    assert_eq!(
        std::fs::read_to_string(dir.join("CHESS.VAR")).unwrap(),
        chess
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("rules.txt")).unwrap(),
        chess
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "[my notes]\n"
    );
    assert!(!dir.join("OTHER.Var").exists());

    // A match that plays no game (its engines never answer) leaves a PGN file as it was
    // and makes none.
    for pgn in ["old.pgn", "new.pgn"] {
        let out = match_to(pgn);
        assert!(!out.status.success(), "{}", text(&out.stdout));
    }
    assert!(mark.exists(), "the engine was started this time");
    assert_eq!(std::fs::read_to_string(dir.join("old.pgn")).unwrap(), old);
    assert!(!dir.join("new.pgn").exists());

    // A PGN file variantlab wrote, or an empty file, is replaced.
    std::fs::write(dir.join("empty.pgn"), "").unwrap();
    for pgn in ["old.pgn", "empty.pgn"] {
        let out = selfplay_to(pgn);
        assert!(out.status.success(), "{pgn}: {}", text(&out.stderr));
        let games = std::fs::read_to_string(dir.join(pgn)).unwrap();
        assert_eq!(
            games.matches("[Event \"variantlab selfplay").count(),
            1,
            "{games}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn divide_and_think_name_each_move_as_it_is_typed() {
    // Black's Lion on 6f, White's Pawn on 6e and Gold on 6d: the leap to 6d and the
    // capture on the way to it share their cells, and are told apart by 6e.
    let lion = "k11/12/12/6g5/6p5/6N5/12/12/12/12/12/11K b - 1";
    let div = run(
        &[
            "perft",
            "variants/chu-shogi.var",
            "--depth",
            "2",
            "--divide",
            "--position",
            lion,
        ],
        "",
    );
    let lines: Vec<String> = text(&div.stdout).lines().map(String::from).collect();
    let moves: Vec<&str> = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    let distinct: std::collections::BTreeSet<&&str> = moves.iter().collect();
    assert_eq!(distinct.len(), moves.len(), "{moves:?}");
    assert!(
        moves.contains(&"6f6e6d") && moves.contains(&"6f6d"),
        "{moves:?}"
    );
    // The engine's best move and line are written the same way, and read back.
    let think = run(
        &[
            "think",
            "variants/chu-shogi.var",
            "--position",
            lion,
            "--level",
            "2",
        ],
        "",
    );
    let out = text(&think.stdout);
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("best move "))
        .unwrap_or_else(|| panic!("{out}\n{}", text(&think.stderr)));
    assert!(moves.contains(&best), "{best}: {moves:?}");
}
