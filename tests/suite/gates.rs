//! Pieces brought in through gates (Seirawan chess, S-house): the moves, their text,
//! and the gates a position string keeps. Cases worked by hand from the rules; the
//! position strings are as Fairy-Stockfish writes them after the same moves.

use crate::common;

use common::rules;
use std::sync::Arc;
use variantlab::{Game, Rules, parse_position, write_move, write_short_moves};

fn game(file: &str, text: &str) -> Game {
    let r: Arc<Rules> = rules(file);
    Game::new(r.clone(), parse_position(&r, text).unwrap()).unwrap()
}

fn texts(g: &Game) -> Vec<String> {
    let v = g.rules().variant();
    let mut t: Vec<String> = g.legal_moves().iter().map(|m| write_move(v, m)).collect();
    t.sort();
    t
}

#[test]
fn a_knight_leaving_its_first_cell_may_bring_either_piece_in() {
    let g = game(
        "seirawan.var",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w KQBCDFGkqbcdfg - 0 1",
    );
    let t = texts(&g);
    // 20 chess moves, and each of the four Knight moves with a Hawk or an Elephant.
    assert_eq!(t.len(), 28, "{t:?}");
    for m in ["b1c3", "b1c3h", "b1c3e", "g1h3h", "g1f3e"] {
        assert!(t.contains(&m.to_string()), "{m} missing from {t:?}");
    }
    // No piece is dropped from hand in Seirawan chess.
    assert!(!t.iter().any(|m| m.contains('@')), "{t:?}");
}

#[test]
fn a_castling_brings_a_piece_onto_the_kings_or_the_rooks_start() {
    let mut g = game(
        "seirawan.var",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w KQkq - 0 1",
    );
    let t = texts(&g);
    for m in ["e1g1", "e1g1h", "e1g1e", "h1e1h", "h1e1e", "e1c1h", "a1e1e"] {
        assert!(t.contains(&m.to_string()), "{m} missing from {t:?}");
    }
    let short = write_short_moves(g.rules(), g.position(), &g.legal_moves());
    assert!(short.contains(&"O-O/Hh1".to_string()), "{short:?}");
    assert!(short.contains(&"O-O-O/Ee1".to_string()), "{short:?}");
    g.play_text("h1e1h").unwrap();
    // King g1, Rook f1, Hawk h1; of White's gates only a1's stays open.
    assert_eq!(
        g.position_string(),
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RKH[Eeh] b Akq - 1 1"
    );
    assert!(g.undo());
    g.play_text("e1g1e").unwrap();
    assert_eq!(
        g.position_string(),
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3ERK1[Heh] b Akq - 1 1"
    );
}

#[test]
fn gates_close_when_left_captured_on_or_when_the_hand_is_empty() {
    // The last piece in hand comes in: every gate of White closes, castling stays.
    let mut g = game("seirawan.var", "4k3/8/8/8/8/8/8/RN2K3[H] w QB - 0 1");
    g.play_text("b1c3h").unwrap();
    assert_eq!(g.position_string(), "4k3/8/8/8/8/2N5/8/RH2K3[] b Q - 1 1");
    // A capture on a gate closes it; a plain move from one closes it too.
    let mut g = game(
        "seirawan.var",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w KQBCDFGkqbcdfg - 0 1",
    );
    for m in ["g1f3", "b8c6", "f3e5", "c6e5", "e2e3", "e5d3", "c2d3"] {
        g.play_text(m).unwrap();
    }
    // White's Knight left g1 and the Pawn on c2 took on d3; Black's b8 Knight left too.
    assert_eq!(
        g.position_string(),
        "r1bqkbnr/pppppppp/8/8/8/3PP3/PP1P1PPP/RNBQKB1R[EHeh] b KQBCDFkqcdfg - 0 4"
    );
    // In S-house the hand may fill again, so an empty hand keeps the gates (f1's).
    let start = "4k3/8/8/8/8/8/8/RN2KB2[H] w QBF - 0 1";
    for (file, after) in [("seirawan.var", "Q"), ("shouse.var", "QF")] {
        let mut g = game(file, start);
        g.play_text("b1c3h").unwrap();
        assert_eq!(
            g.position_string(),
            format!("4k3/8/8/8/8/2N5/8/RH2KB2[] b {after} - 1 1"),
            "{file}"
        );
    }
}

#[test]
fn a_pinned_piece_stays_pinned_with_a_piece_brought_in_behind_it() {
    // The Queen on d1 shields the King from the Rook on a1; leaving d1 is illegal even
    // with the Hawk brought in, as Fairy-Stockfish judges it.
    let g = game("seirawan.var", "4k3/8/8/8/8/8/8/r2QK3[H] w D - 0 1");
    let mut expected: Vec<String> = ["e1d2", "e1e2", "e1f2", "e1f1"].map(String::from).to_vec();
    for to in ["c1", "b1", "a1"] {
        expected.push(format!("d1{to}"));
        expected.push(format!("d1{to}h"));
    }
    expected.sort();
    assert_eq!(texts(&g), expected);
}

#[test]
fn gate_mistakes_in_moves_and_position_strings_say_what_is_wrong() {
    let g = game(
        "seirawan.var",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[Heh] w KQkq - 0 1",
    );
    let refused = |text: &str| {
        let mut g = game("seirawan.var", &g.position_string());
        g.play_text(text).unwrap_err().to_string()
    };
    assert!(
        refused("e1g1e").contains("no Elephant in hand"),
        "{}",
        refused("e1g1e")
    );
    assert!(
        refused("e2e4h").contains("e2 is not an open gate"),
        "{}",
        refused("e2e4h")
    );
    let which = refused("h1e1");
    assert!(which.contains("say which: h1e1h"), "{which}");
    // A letter naming no castling and no gate of its player's case.
    let r = rules("seirawan.var");
    let e = parse_position(
        &r,
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[Heh] w KQkqF - 0 1",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("nor a gate"), "{e}");
}
