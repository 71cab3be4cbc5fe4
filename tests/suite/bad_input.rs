//! Broken position strings, moves, saved games and commands: each gets an error that
//! says what is wrong, never a panic, and a game in progress survives all of them.

use crate::common;

use common::{Lcg, rules};
use std::time::{Duration, Instant};
use variantlab::play::{Console, find_player, parse_depth, start_setup};
use variantlab::{Game, Position, Settings, Setup, parse_position, write_position};

const PIECES: &[&str] = &[
    "/",
    " ",
    "-",
    "x",
    ":",
    "(",
    ")",
    ",",
    "*",
    "0",
    "99999999999999999999",
    "4294967295",
    "é",
    "\u{0}",
    "pr",
    "PR:e",
    "\n",
    "=",
    "--force",
    "end",
];

/// A valid text with one to four cuts, insertions of tricky pieces or random bytes.
fn mutate(valid: &str, rng: &mut Lcg) -> String {
    let mut s: Vec<char> = valid.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(s.len() + 1);
        match rng.below(4) {
            0 if at < s.len() => {
                s.remove(at);
            }
            1 => s
                .splice(at..at, PIECES[rng.below(PIECES.len())].chars())
                .for_each(drop),
            2 => s.truncate(at),
            _ => s
                .splice(at..at, std::iter::once(char::from(rng.below(128) as u8)))
                .for_each(drop),
        }
    }
    s.into_iter().collect()
}

/// Texts made by cutting, garbling and splicing a valid one: every prefix, then
/// `count` mutations.
fn mangled(valid: &str, rng: &mut Lcg, count: usize) -> Vec<String> {
    let chars: Vec<char> = valid.chars().collect();
    let mut out: Vec<String> = (0..=chars.len())
        .map(|i| chars[..i].iter().collect())
        .collect();
    out.extend((0..count).map(|_| mutate(valid, rng)));
    out
}

#[test]
fn position_strings_never_panic() {
    let mut rng = Lcg(3);
    for file in ["iss-jetan.var", "hexagonal-iss-jetan.var", "troitzky.var"] {
        let r = rules(file);
        let start = write_position(&r, &Setup::start(&r));
        for text in mangled(&start, &mut rng, 3000) {
            if let Ok(setup) = parse_position(&r, &text) {
                // Whatever reads must also validate or be refused cleanly, and write back.
                if let Ok(pos) = Position::from_setup(&r, &setup) {
                    let again = parse_position(&r, &write_position(&r, &setup))
                        .expect("written text reads");
                    assert_eq!(Position::from_setup(&r, &again).as_ref(), Ok(&pos));
                }
            } else {
                let e = parse_position(&r, &text).unwrap_err().to_string();
                assert!(!e.is_empty());
            }
        }
    }
}

#[test]
fn moves_never_panic_and_refusals_change_nothing() {
    let mut rng = Lcg(5);
    let r = rules("hexagonal-iss-jetan.var");
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    let first = g.legal_moves()[0];
    g.play(first).unwrap();
    let before = g.position_string();
    for text in mangled("f9-f8:m", &mut rng, 3000) {
        match g.play_text(&text) {
            Ok(_) => {
                assert!(g.undo());
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        assert_eq!(g.position_string(), before, "after `{text}`");
    }
}

/// Plays a seeded random stream of mutated moves, commands, saved games, position
/// strings and command-line values against one session, for `rounds` rounds or until
/// `deadline`. Nothing may panic, and every refused line must leave the game exactly
/// as it was.
fn fuzz(seed: u64, rounds: usize, deadline: Option<Instant>) -> usize {
    let dir = crate::common::scratch(&format!("fuzz-{seed}"), &[]);
    let variant = dir.join("jetan.var");
    std::fs::copy(common::root().join("variants/iss-jetan.var"), &variant).unwrap();
    let mut rng = Lcg(seed);
    let mut s = Console::open(&variant, &Settings::new(), None).unwrap();
    let valid = dir.join("valid.txt");
    for line in [
        "e2-e3",
        "f9-f8",
        "f1-f5:e",
        &format!("save {}", valid.display()),
    ] {
        assert!(!s.handle(line).refused, "{line}");
    }
    let save_text = std::fs::read_to_string(&valid).unwrap();
    let mutant = dir.join("mutant.txt");
    let d = dir.display().to_string();
    let commands = [
        "e9-e8".to_string(),
        "d9-d8:m".into(),
        "e1-e4".into(),
        "moves".into(),
        "undo".into(),
        "board".into(),
        "position".into(),
        "help".into(),
        format!("save {d}/a.txt"),
        format!("save --force {d}/b.txt"),
        format!("load {}", valid.display()),
        format!("load {}", mutant.display()),
    ];
    let r = s.rules().clone();
    let start = write_position(&r, &Setup::start(&r));
    let settings = "chief-takes-princess=on";
    let mut done = 0;
    while done < rounds || deadline.is_some_and(|t| Instant::now() < t) {
        if deadline.is_some_and(|t| Instant::now() >= t) {
            break;
        }
        done += 1;
        let line = match rng.below(6) {
            // A saved game, damaged, then loaded.
            0 => {
                std::fs::write(&mutant, mutate(&save_text, &mut rng)).unwrap();
                format!("load {}", mutant.display())
            }
            // A position string: read, validated, and a game started from it.
            1 => {
                let text = mutate(&start, &mut rng);
                if let Ok(setup) = start_setup(&r, Some(&text))
                    && let Ok(g) = Console::new(&variant, r.clone(), setup)
                {
                    let _ = g.status();
                }
                continue;
            }
            // Command-line values.
            2 => {
                let _ = Settings::parse(&[mutate(settings, &mut rng)]);
                let _ = parse_depth(&mutate("32", &mut rng));
                let _ = find_player(r.variant(), &mutate("orange", &mut rng));
                continue;
            }
            _ => mutate(&commands[rng.below(commands.len())], &mut rng),
        };
        let first = line.split_whitespace().next().unwrap_or("");
        // Saves go only into the fuzzing folder; quitting would end the session.
        if (first == "save" && (!line.contains(&d) || line.contains("..")))
            || first == "quit"
            || first == "exit"
        {
            continue;
        }
        let before = s.snapshot();
        let reply = s.handle(&line);
        assert!(!reply.quit, "`{line}` quit");
        if reply.refused {
            assert_eq!(
                s.snapshot(),
                before,
                "`{line:?}` was refused but changed the game"
            );
        }
        if s.game().move_count() > 40 {
            s.handle(&format!("load {}", valid.display()));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    done
}

#[test]
fn saved_games_commands_and_values_never_panic_and_refusals_change_nothing() {
    assert_eq!(fuzz(11, 1500, None), 1500);
}

/// `VARIANTLAB_FUZZ_SECONDS=600 cargo test --release --test suite bad_input:: -- --ignored`
#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn fuzz_for_as_long_as_asked() {
    let seconds: u64 = std::env::var("VARIANTLAB_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed = std::env::var("VARIANTLAB_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let rounds = fuzz(seed, 0, Some(Instant::now() + Duration::from_secs(seconds)));
    eprintln!("fuzz seed {seed}: {rounds} rounds in {seconds} s");
}

#[test]
fn a_hole_in_a_fen_row_must_be_written_as_a_star_and_only_a_hole() {
    let r = rules("gustav3.var");
    let start = "arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1";
    assert_eq!(
        write_position(&r, &parse_position(&r, start).unwrap()),
        start
    );
    let unmarked = start.replace("/*8*/*8*/*8*/*8*/", "/10/*8*/*8*/*8*/");
    let e = parse_position(&r, &unmarked).unwrap_err().to_string();
    assert_eq!(e, "in the board: row 3: place 1 is a hole, written `*`");
    let star = start.replace("ARNBQKBNRA", "*RNBQKBNRA");
    let e = parse_position(&r, &star).unwrap_err().to_string();
    assert_eq!(
        e,
        "in the board: row 8: `*` marks a hole, but a1 is a cell of the board"
    );
}

#[test]
fn a_move_number_of_0_is_refused_and_huge_ones_never_overflow() {
    use variantlab::{PositionField, PositionTextError};
    let chess = rules("chess.var");
    let shogi = rules("shogi.var");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0";
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    for (r, text) in [(&chess, format!("{fen} 0")), (&shogi, format!("{sfen} 0"))] {
        let e = parse_position(r, &text).expect_err(&text);
        assert_eq!(e, PositionTextError::MoveNumberZero, "{text}");
        assert_eq!(e.field(), PositionField::MoveNumber);
        assert_eq!(
            e.to_string(),
            "in the move number: `0`: the count of moves starts at 1"
        );
        assert!(start_setup(r, Some(&text)).is_err(), "{text}");
    }
    // `00` is 0 too; 1 is the first move.
    assert!(parse_position(&chess, &format!("{fen} 00")).is_err());
    assert_eq!(
        parse_position(&chess, &format!("{fen} 1"))
            .unwrap()
            .move_number,
        1
    );
    // Past what a number holds: too large, not "not a number".
    for (r, text) in [
        (&chess, format!("{fen} 99999999999999999999")),
        (&shogi, format!("{sfen} 4294967296")),
    ] {
        let e = parse_position(r, &text).expect_err(&text).to_string();
        assert_eq!(
            e,
            format!(
                "in the move number: `{}` is more than 1000000000, the largest accepted",
                text.rsplit(' ').next().unwrap()
            )
        );
    }
    // The largest ply number SFEN can write reads back, and a move number near 2^32
    // is written as its ply number, not wrapped.
    let setup = parse_position(&shogi, &format!("{sfen} 4294967295")).unwrap();
    assert_eq!(setup.move_number, 2_147_483_648);
    assert!(write_position(&shogi, &setup).ends_with(" 4294967295"));
    let mut setup = Setup::start(&shogi);
    setup.move_number = u32::MAX;
    let text = write_position(&shogi, &setup);
    assert!(text.ends_with(" 8589934589"), "{text}");
    let mut setup = Setup::start(&chess);
    setup.move_number = u32::MAX;
    assert!(write_position(&chess, &setup).ends_with(" 4294967295"));
}

#[test]
fn a_path_shape_said_twice_is_a_duplicate_clause() {
    for (clauses, twice) in [
        ("never reversing, never reversing", true),
        ("end not adjacent to start, end not adjacent to start", true),
        (
            "end not adjacent to start, end not diagonally adjacent to start",
            false,
        ),
    ] {
        let text = format!(
            "name \"T\"\nboard square 6 by 6\nplayer White: forward north, capitals\n\
             player Black: forward south, lowercase\n\
             piece King (K) {{\n  royal\n  step 3 orthogonal, {clauses}\n}}\n\
             setup {{\n  White: King a1\n  Black: King f6\n}}\n\
             game ends {{\n  checkmate: mover wins\n  stalemate: draw\n}}\n"
        );
        let checked = variantlab::load::check_all("t.var", &text);
        let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes.contains(&"variantlab::duplicate_clause"),
            twice,
            "{clauses}: {codes:?}"
        );
        assert_eq!(checked.variant.is_some(), !twice, "{clauses}");
    }
}
