//! The games named after Fairy-Stockfish's variants against Fairy-Stockfish's own
//! counts, recorded once by `tests/fsf/record.py` into `tests/fsf/perft.txt`: perft
//! from the start, and along seeded random games the move text, the position string
//! and perft 2 after every ply. Perft stops where a game has ended, so the counts
//! check the end rules too. Fairy-Stockfish itself is never run here.
//!
//! Fairy-Stockfish does not refuse a Pawn drop that mates: it scores it as a loss for
//! the dropper, and its perft counts it as a move. The counts are compared with that
//! rule lifted (tests/suite/shogi.rs checks the rule itself).

use crate::common;

use std::sync::Arc;
use variantlab::variant::{NoDrop, Variant};
use variantlab::{
    Position, Rules, compile_tables, parse_move, parse_position, perft, write_position,
};

/// Start perft counts above this run only in the ignored deep test.
const QUICK_NODES: u64 = 250_000;

/// One ply of a recorded game: the move text, perft 2 after it, the position string
/// after it.
type Ply = (String, u64, String);

/// One recorded game: its start, its start perft counts, its random games (each from
/// the start or from a position string) ply by ply, and positions near the end of a
/// game with their perft counts.
struct Recorded {
    name: String,
    start: String,
    perft: Vec<(u32, u64)>,
    games: Vec<(Option<String>, Vec<Ply>)>,
    positions: Vec<(String, Vec<(u32, u64)>)>,
}

fn recorded() -> Vec<Recorded> {
    let path = common::root().join("tests/fsf/perft.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut out: Vec<Recorded> = vec![];
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (word, rest) = line.split_once(' ').expect("a word and its values");
        let last = out.last_mut();
        match (word, last) {
            // A second word names the protocol the record was taken with.
            ("variant", _) => out.push(Recorded {
                name: rest.split(' ').next().unwrap_or(rest).to_string(),
                start: String::new(),
                perft: vec![],
                games: vec![],
                positions: vec![],
            }),
            ("start", Some(r)) => r.start = rest.to_string(),
            ("perft", Some(r)) => {
                let (d, n) = rest.split_once(' ').expect("depth and count");
                let count = (d.parse().unwrap(), n.parse().unwrap());
                match r.positions.last_mut() {
                    Some((_, counts)) => counts.push(count),
                    None => r.perft.push(count),
                }
            }
            ("position", Some(r)) => r.positions.push((rest.to_string(), vec![])),
            ("game", Some(r)) => r.games.push((None, vec![])),
            ("from", Some(r)) => r.games.push((Some(rest.to_string()), vec![])),
            ("ply", Some(r)) => {
                let mut parts = rest.splitn(3, ' ');
                let (m, n, fen) = (parts.next(), parts.next(), parts.next());
                let game = &mut r.games.last_mut().expect("a game before its plies").1;
                game.push((
                    m.unwrap().to_string(),
                    n.unwrap().parse().unwrap(),
                    fen.expect("a position string").to_string(),
                ));
            }
            _ => panic!("unreadable line {line:?}"),
        }
    }
    assert!(!out.is_empty(), "no games recorded");
    out
}

fn position(r: &Arc<Rules>, text: &str) -> Result<Position, String> {
    let setup = parse_position(r, text).map_err(|e| format!("{text}: {e}"))?;
    Position::from_setup(r, &setup).map_err(|e| format!("{text}: {e}"))
}

/// Whether two position strings say the same. Fairy-Stockfish writes FEN's en
/// passant cells (the fourth field) only when a capture in passing is possible, run
/// together when there are several: that field is left out, unless it holds a running
/// count's limit. SFEN (three fields before
/// the number) lists the pieces in hand in its own order: they are compared as sets.
fn same_text(ours: &str, theirs: &str) -> bool {
    let a: Vec<&str> = ours.split_whitespace().collect();
    let b: Vec<&str> = theirs.split_whitespace().collect();
    let sfen = b.len() == 4 && !b[0].contains('[');
    let sorted = |t: &str| {
        let mut c: Vec<char> = t.chars().collect();
        c.sort();
        c
    };
    a.len() == b.len()
        && a.iter().zip(&b).enumerate().all(|(i, (x, y))| {
            let number = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
            x == y
                || (!sfen && i == 3 && !number(x) && !number(y))
                || (sfen && i == 2 && sorted(x) == sorted(y))
        })
}

/// Every difference from the record for one game, as lines of text.
fn compare(rec: &Recorded, max_nodes: u64) -> Vec<String> {
    compare_variant(
        rec,
        common::variant(&format!("{}.var", rec.name)),
        max_nodes,
    )
}

/// Every difference from the record of the game named `name` for the rules `v`, as
/// lines of text: for rules written another way that must play the same game.
pub fn differences(name: &str, v: Variant, max_nodes: u64) -> Vec<String> {
    let rec = recorded()
        .into_iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no record of {name}"));
    compare_variant(&rec, v, max_nodes)
}

fn compare_variant(rec: &Recorded, mut v: Variant, max_nodes: u64) -> Vec<String> {
    let mut bad = vec![];
    for p in &mut v.pieces {
        p.no_drop.retain(|(_, rule)| *rule != NoDrop::Checkmate);
    }
    let r = Arc::new(compile_tables(&v, &v.default_options()).expect("compiled rules"));
    let start = match position(&r, &rec.start) {
        Ok(p) => p,
        Err(e) => return vec![format!("{}: start: {e}", rec.name)],
    };
    // A drawn setup has no one start: Fairy-Stockfish's is one of its draws, and the
    // games from the start begin there.
    let drawn = v.random.is_some();
    let ours = write_position(&r, &Position::start(&r).expect("a start").to_setup(&r));
    if !drawn && !same_text(&ours, &rec.start) {
        bad.push(format!("{}: start is {ours}, not {}", rec.name, rec.start));
    }
    for &(d, want) in rec.perft.iter().filter(|(_, n)| *n <= max_nodes) {
        let got = perft(&r, &mut start.clone(), d);
        if got != want {
            bad.push(format!(
                "{}: start perft {d} is {got}, not {want}",
                rec.name
            ));
        }
    }
    for (g, (from, plies)) in rec.games.iter().enumerate() {
        let mut pos = match from {
            None if drawn => start.clone(),
            None => Position::start(&r).expect("a start"),
            Some(text) => match position(&r, text) {
                Ok(p) => p,
                Err(e) => {
                    bad.push(format!("{} game {g}: {e}", rec.name));
                    continue;
                }
            },
        };
        for (i, (text, want, fen)) in plies.iter().enumerate() {
            let at = format!("{} game {g} ply {}", rec.name, i + 1);
            match parse_move(&r, &pos, text) {
                Ok(m) => {
                    pos.make_unchecked(&r, &m);
                }
                Err(e) => {
                    bad.push(format!("{at}: {text}: {e}"));
                    break;
                }
            }
            let ours = write_position(&r, &pos.to_setup(&r));
            if !same_text(&ours, fen) {
                bad.push(format!("{at}: after {text} we write {ours}, not {fen}"));
            }
            // Perft from the position reached by playing the moves, which holds the
            // cells open to capture in passing as the moves left them.
            let got = perft(&r, &mut pos.clone(), 2);
            if got != *want {
                bad.push(format!("{at}: perft 2 of {fen} is {got}, not {want}"));
            }
            // Fairy-Stockfish's string reads as the same board (with its en passant
            // field left out where it runs several cells together).
            let read = position(&r, fen).or_else(|e| {
                let mut f: Vec<&str> = fen.split_whitespace().collect();
                if f.len() <= 3 {
                    return Err(e);
                }
                f[3] = "-";
                position(&r, &f.join(" ")).map_err(|_| e)
            });
            match read {
                Ok(p) if p.to_setup(&r).cells != pos.to_setup(&r).cells => {
                    bad.push(format!("{at}: {fen} reads as another board"))
                }
                // Only where our own string keeps all that counts: a pass, for one,
                // leaves a state no position string shows.
                Ok(mut p) if round_trips(&r, &pos) => {
                    let got = perft(&r, &mut p, 2);
                    if got != *want {
                        bad.push(format!(
                            "{at}: perft 2 of {fen} read back is {got}, not {want}"
                        ));
                    }
                }
                Ok(_) => {}
                Err(e) => bad.push(format!("{at}: {e}")),
            }
        }
    }
    for (fen, counts) in &rec.positions {
        match position(&r, fen) {
            Ok(p) => {
                for &(d, want) in counts {
                    let got = perft(&r, &mut p.clone(), d);
                    if got != want {
                        bad.push(format!(
                            "{}: perft {d} of {fen} is {got}, not {want}",
                            rec.name
                        ));
                    }
                }
            }
            Err(e) => bad.push(format!("{}: {e}", rec.name)),
        }
    }
    bad
}

/// Whether the position read back from our own string has the same perft 2.
fn round_trips(r: &Arc<Rules>, pos: &Position) -> bool {
    let text = write_position(r, &pos.to_setup(r));
    position(r, &text).is_ok_and(|mut p| perft(r, &mut p, 2) == perft(r, &mut pos.clone(), 2))
}

fn check_all(max_nodes: u64) {
    let bad: Vec<String> = recorded()
        .iter()
        .flat_map(|rec| compare(rec, max_nodes))
        .collect();
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn every_game_agrees_with_fairy_stockfish_from_the_start_and_along_random_games() {
    check_all(QUICK_NODES);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn every_game_agrees_with_fairy_stockfish_on_deep_start_perft() {
    check_all(u64::MAX);
}

#[test]
fn every_recorded_game_has_its_file_and_every_file_named_in_the_record_checks() {
    for rec in recorded() {
        let file = common::root()
            .join("variants")
            .join(format!("{}.var", rec.name));
        assert!(file.exists(), "{} has no variant file", rec.name);
        common::variant(&format!("{}.var", rec.name));
    }
}

/// Fairy-Stockfish writes a Pawn's promotion to its promoted form `+P` as `a9a10+`,
/// among other choices, and the piece as `+P` (Wolf Chess's Elephant).
#[test]
fn a_plus_names_the_promotion_to_the_promoted_form() {
    let v = common::variant("wolf.var");
    let r = Arc::new(compile_tables(&v, &v.default_options()).expect("compiled rules"));
    let mut pos = position(&r, "7k/P7/8/8/8/8/8/8/8/K7 w - - 0 1").unwrap();
    let m = parse_move(&r, &pos, "a9a10+").expect("a promotion");
    assert_eq!(v.piece(m.promotion.expect("promotes")).name, "Elephant");
    pos.make_unchecked(&r, &m);
    let text = write_position(&r, &pos.to_setup(&r));
    assert_eq!(text, "+P6k/8/8/8/8/8/8/8/8/K7 b - - 0 1");
}
