//! The shogi family: hands, drops, promotion zones and their endings, on Shogi and
//! Hex Shogi 91. Expected counts come from published perft tables and hand-worked
//! positions.

mod common;

use common::{Lcg, rules};
use variantlab::compile::Rules;
use variantlab::runtime::{
    Game, Position, Setup, parse_position, perft, write_move, write_position,
};

const SHOGI: &str = "shogi.var";
const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

fn position(rules: &Rules, text: &str) -> Position {
    let setup = parse_position(rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Position::from_setup(rules, &setup).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(rules: &Rules, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    position(rules, text).legal_moves(rules, &mut out);
    let mut names: Vec<String> = out.iter().map(|m| write_move(&rules.variant, m)).collect();
    names.sort();
    names
}

#[test]
fn shogi_start_is_the_published_sfen() {
    let r = rules(SHOGI);
    assert_eq!(write_position(&r, &Setup::start(&r)), START);
    assert_eq!(parse_position(&r, START).unwrap(), Setup::start(&r));
}

#[test]
fn shogi_perft_matches_published_counts() {
    let r = rules(SHOGI);
    let mut pos = position(&r, START);
    for (depth, nodes) in [(1, 30), (2, 900), (3, 25_470), (4, 719_731)] {
        assert_eq!(perft(&r, &mut pos, depth), nodes, "depth {depth}");
    }
}

#[test]
fn shogi_sfen_round_trips_through_random_play() {
    let r = rules(SHOGI);
    let mut g = Game::new(&r, Setup::start(&r)).unwrap();
    let mut rng = Lcg(11);
    let mut dropped = 0;
    for _ in 0..300 {
        let moves = g.legal_moves(&r);
        if moves.is_empty() {
            break;
        }
        // Prefer captures and drops, so that hands fill and empty.
        let pick = moves
            .iter()
            .position(|m| m.captured.is_some() || m.from == m.to)
            .filter(|_| rng.below(2) == 0)
            .unwrap_or_else(|| rng.below(moves.len()));
        let m = moves[pick];
        dropped += usize::from(m.from == m.to);
        let text = write_move(&r.variant, &m);
        g.play_text(&r, &text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        if g.ending().is_some() {
            break;
        }
        let sfen = g.position_string(&r);
        let back = parse_position(&r, &sfen).expect("reads back");
        assert_eq!(write_position(&r, &back), sfen);
        // SFEN has no count of quiet plies; everything else comes back.
        let again = Position::from_setup(&r, &back).unwrap();
        assert_eq!(again.repetition_key(), g.position().repetition_key());
    }
    assert!(dropped > 0, "the game should have dropped pieces");
}
