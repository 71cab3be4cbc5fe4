//! The hand-worked scenarios and game ends, run through the reference move generator,
//! and perft counts from the start of both Jetan games.

use crate::reference;
use crate::scenarios;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;

use reference::{Simple, legal_moves, perft, play, start};
use scenarios::{SCENARIOS, Scenario};
use variantlab::{Outcome, TagId, Variant, check};

fn load(file: &str) -> Variant {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("variants")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let checked = check(file, &text);
    checked.variant.unwrap_or_else(|| {
        panic!(
            "{file} does not check:\n{}",
            checked.report.render(100, false)
        )
    })
}

fn options(v: &Variant, set: &[(&str, bool)]) -> Vec<bool> {
    let mut values = v.default_options();
    for (name, value) in set {
        let id = v
            .find_option(name)
            .unwrap_or_else(|| panic!("no option {name}"));
        values[id.0 as usize] = *value;
    }
    values
}

fn tag(v: &Variant, mark: char) -> TagId {
    let i = v
        .tags
        .iter()
        .position(|t| t.mark == mark)
        .unwrap_or_else(|| panic!("no tag {mark}"));
    TagId(i as u8)
}

fn position(
    v: &Variant,
    pieces: &[(&str, &str, &str)],
    to_move: &str,
    used: &[(&str, &str, char)],
) -> Simple {
    let mut cells = vec![None; v.board.len()];
    for (cell, player, piece) in pieces {
        let c = v
            .board
            .parse_cell(cell)
            .unwrap_or_else(|| panic!("no cell {cell}"));
        assert!(cells[c.index()].is_none(), "two pieces on {cell}");
        let p = v
            .find_player(player)
            .unwrap_or_else(|| panic!("no player {player}"));
        let k = v
            .find_piece(piece)
            .unwrap_or_else(|| panic!("no piece {piece}"));
        cells[c.index()] = Some((p, k));
    }
    let used = used
        .iter()
        .map(|(player, piece, mark)| {
            (
                v.find_player(player).unwrap(),
                v.find_piece(piece).unwrap(),
                tag(v, *mark),
            )
        })
        .collect();
    let to_move = v
        .find_player(to_move)
        .unwrap_or_else(|| panic!("no player {to_move}"));
    Simple {
        used,
        ..Simple::bare(cells, to_move)
    }
}

fn destinations(s: &Scenario) -> BTreeSet<String> {
    let v = load(s.variant);
    let opts = options(&v, s.options);
    let pos = position(&v, s.pieces, s.to_move, s.used);
    let from = v
        .board
        .parse_cell(s.piece_at)
        .unwrap_or_else(|| panic!("no cell {}", s.piece_at));
    legal_moves(&v, &opts, &pos)
        .into_iter()
        .filter(|(f, ..)| *f == from)
        .map(|(_, to, t, _)| match t {
            Some(t) => format!("{}:{}", v.board.name(to).to_lowercase(), v.tag(t).mark),
            None => v.board.name(to).to_lowercase(),
        })
        .collect()
}

#[test]
fn scenarios_match_the_hand_worked_destinations() {
    let mut failures = Vec::new();
    for s in SCENARIOS {
        let got = destinations(s);
        let want: BTreeSet<String> = s.expected.iter().map(|e| e.to_lowercase()).collect();
        assert_eq!(
            want.len(),
            s.expected.len(),
            "{}: duplicate expected entries",
            s.name
        );
        if got != want {
            let missing: Vec<_> = want.difference(&got).collect();
            let extra: Vec<_> = got.difference(&want).collect();
            failures.push(format!(
                "{}: missing {missing:?}, unexpected {extra:?}",
                s.name
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "scenarios disagree:\n{}",
        failures.join("\n")
    );
}

#[test]
fn legal_moves_are_sorted_and_distinct() {
    for s in SCENARIOS {
        let v = load(s.variant);
        let opts = options(&v, s.options);
        let pos = position(&v, s.pieces, s.to_move, s.used);
        let moves = legal_moves(&v, &opts, &pos);
        assert!(
            moves.windows(2).all(|w| w[0] < w[1]),
            "{}: not sorted and distinct",
            s.name
        );
    }
}

/// Plays `from`-`to` (the only move between them) and returns the outcome.
fn outcome(
    file: &str,
    opts: &[(&str, bool)],
    pieces: &[(&str, &str, &str)],
    from: &str,
    to: &str,
) -> Option<Outcome> {
    let v = load(file);
    let opts = options(&v, opts);
    let pos = position(&v, pieces, "Black", &[]);
    let (f, t) = (
        v.board.parse_cell(from).unwrap(),
        v.board.parse_cell(to).unwrap(),
    );
    let mv = legal_moves(&v, &opts, &pos)
        .into_iter()
        .find(|(a, b, ..)| *a == f && *b == t)
        .unwrap_or_else(|| panic!("{from}-{to} is not legal"));
    let (next, over) = play(&v, &opts, &pos, mv);
    assert_eq!(next.cells[f.index()], None);
    assert_eq!(next.cells[t.index()], pos.cells[f.index()]);
    assert_ne!(next.to_move, pos.to_move);
    over
}

#[test]
fn capturing_a_princess_wins() {
    let pieces = [
        ("e4", "Black", "Panthan"),
        ("e5", "Orange", "Princess"),
        ("a10", "Orange", "Warrior"),
    ];
    assert_eq!(
        outcome("iss-jetan.var", &[], &pieces, "e4", "e5"),
        Some(Outcome::MOVER_WINS)
    );
    let pieces = [
        ("g7", "Black", "Panthan"),
        ("g8", "Orange", "Princess"),
        ("a1", "Orange", "Warrior"),
    ];
    assert_eq!(
        outcome("hexagonal-iss-jetan.var", &[], &pieces, "g7", "g8"),
        Some(Outcome::MOVER_WINS)
    );
    // The hexagonal Chief's capture at a distance.
    let pieces = [
        ("g1", "Black", "Chief"),
        ("g13", "Orange", "Princess"),
        ("a1", "Orange", "Warrior"),
    ];
    assert_eq!(
        outcome("hexagonal-iss-jetan.var", &[], &pieces, "g1", "g13"),
        Some(Outcome::MOVER_WINS)
    );
}

#[test]
fn a_chief_capturing_the_chief_wins_and_last_resort_draws() {
    let pieces = [
        ("b2", "Black", "Chief"),
        ("e5", "Orange", "Chief"),
        ("a10", "Orange", "Warrior"),
    ];
    assert_eq!(
        outcome("iss-jetan.var", &[], &pieces, "b2", "e5"),
        Some(Outcome::MOVER_WINS)
    );
    let pieces = [
        ("g7", "Black", "Panthan"),
        ("g8", "Orange", "Chief"),
        ("a1", "Orange", "Warrior"),
    ];
    assert_eq!(
        outcome(
            "hexagonal-iss-jetan.var",
            &[("last-resort", true)],
            &pieces,
            "g7",
            "g8"
        ),
        Some(Outcome::Draw)
    );
}

#[test]
fn other_moves_go_on_or_end_with_no_legal_move() {
    let pieces = [
        ("e4", "Black", "Panthan"),
        ("e6", "Orange", "Panthan"),
        ("a10", "Orange", "Warrior"),
    ];
    assert_eq!(outcome("iss-jetan.var", &[], &pieces, "e4", "e5"), None);
    // Taking Orange's last piece leaves Orange without a move: a draw.
    let pieces = [("e4", "Black", "Panthan"), ("e5", "Orange", "Panthan")];
    assert_eq!(
        outcome("iss-jetan.var", &[], &pieces, "e4", "e5"),
        Some(Outcome::Draw)
    );
}

#[test]
fn an_escape_is_recorded_as_used() {
    let v = load("iss-jetan.var");
    let opts = v.default_options();
    let pieces = [("a1", "Black", "Princess"), ("j10", "Orange", "Princess")];
    let pos = position(&v, &pieces, "Black", &[]);
    let (a1, a5) = (
        v.board.parse_cell("a1").unwrap(),
        v.board.parse_cell("a5").unwrap(),
    );
    let e = tag(&v, 'e');
    let (next, over) = play(&v, &opts, &pos, (a1, a5, Some(e), None));
    assert_eq!(over, None);
    assert_eq!(
        next.used,
        vec![(
            v.find_player("Black").unwrap(),
            v.find_piece("Princess").unwrap(),
            e
        )]
    );
}

/// The reference generator's perft from the start equals the counts the project
/// publishes (depth 1 counted by hand; deeper ones agreed by the runtime).
fn perft_agrees(file: &str, counts: &[u64]) {
    let v = load(file);
    let opts = v.default_options();
    let pos = start(&v);
    assert_eq!(legal_moves(&v, &opts, &pos).len() as u64, counts[0]);
    for (depth, want) in (1..).zip(counts) {
        let t = Instant::now();
        let n = perft(&v, &opts, &pos, depth);
        eprintln!("{}: perft({depth}) = {n} in {:.2?}", v.name, t.elapsed());
        assert_eq!(n, *want, "{file} depth {depth}");
    }
}

#[test]
fn perft_from_the_square_start() {
    perft_agrees("iss-jetan.var", &[42, 1_754]);
}

#[test]
fn perft_from_the_hexagonal_start() {
    perft_agrees("hexagonal-iss-jetan.var", &[84, 7_048]);
}

#[test]
fn perft_from_the_xiangqi_start() {
    // Published counts (Fairy-Stockfish agrees).
    perft_agrees("xiangqi.var", &[44, 1_920]);
    // Fairy-Stockfish's counts, passes included.
    perft_agrees("janggicasual.var", &[32, 1_024]);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn perft_3_from_both_starts() {
    perft_agrees("iss-jetan.var", &[42, 1_754, 79_264]);
    perft_agrees("hexagonal-iss-jetan.var", &[84, 7_048, 623_396]);
}

#[test]
fn perft_from_the_nightrider_start() {
    // Fairy-Stockfish's counts.
    perft_agrees("nightrider.var", &[24, 576]);
}
