//! The position key: kept by make and unmake, equal to the key computed afresh, and
//! telling apart everything repetition compares.

use crate::common;

use common::{rules, variant};
use variantlab::{Game, Position, Rng, Rules, Setup, Special, compile_tables, ends_by_capture};

/// Every file of `variants/`, with its default options and with each option flipped.
pub(crate) fn every_variant() -> Vec<(String, Rules)> {
    let mut files: Vec<String> = std::fs::read_dir(common::root().join("variants"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".var"))
        .collect();
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    let mut out = vec![];
    for f in files {
        let v = variant(&f);
        let default = v.default_options();
        out.push((f.clone(), compile_tables(&v, &default).unwrap()));
        for i in 0..default.len() {
            let mut o = default.clone();
            o[i] = !o[i];
            out.push((
                format!("{f} with {}", v.options[i].name),
                compile_tables(&v, &o).unwrap(),
            ));
        }
    }
    out
}

#[test]
fn the_kept_key_is_the_key_computed_afresh_along_random_games() {
    for (name, r) in every_variant() {
        let mut rng = Rng::new(7);
        let mut moves = vec![];
        for game in 0..12 {
            let start = Setup::seeded(&r, game).unwrap_or_else(|_| Setup::start(&r));
            let mut pos = Position::from_setup(&r, &start).unwrap();
            assert_eq!(pos.key(), pos.key_from_scratch(&r), "{name}: start");
            for ply in 0..120 {
                pos.legal_moves(&r, &mut moves);
                if moves.is_empty() {
                    break;
                }
                // Prefer the moves that change more than the pieces.
                let special = moves
                    .iter()
                    .position(|m| m.special != Special::Plain || m.captured.is_some())
                    .filter(|_| rng.below(3) == 0);
                let m = moves[special.unwrap_or_else(|| rng.below(moves.len()))];
                let before = pos.clone();
                let undo = pos.make_unchecked(&r, &m);
                assert_eq!(
                    pos.key(),
                    pos.key_from_scratch(&r),
                    "{name}, game {game}, ply {ply}: after {m:?}"
                );
                assert_ne!(pos.key(), before.key(), "{name}: {m:?} changes the key");
                if rng.below(4) == 0 {
                    pos.unmake_unchecked(&r, &m, undo);
                    assert_eq!(pos, before, "{name}: unmake of {m:?}");
                    pos.make_unchecked(&r, &m);
                }
                if ends_by_capture(&r, &m) {
                    break;
                }
            }
        }
    }
}

#[test]
fn a_game_keeps_the_keys_of_its_positions() {
    let r = rules("chess.var");
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    for text in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        g.play_text(text).unwrap();
    }
    let keys = g.keys();
    assert_eq!(keys.len(), 5);
    assert_eq!(keys[0], keys[4]);
    assert_eq!(*keys.last().unwrap(), g.position().key());
    assert_eq!(g.occurrences(), 2);
}

fn key(r: &Rules, setup: &Setup) -> u64 {
    Position::from_setup(r, setup).unwrap().key()
}

#[test]
fn castling_rights_change_the_key() {
    let r = rules("chess.var");
    let start = Setup::start(&r);
    assert_eq!(start.castling.len(), 4);
    let mut seen = vec![];
    for subset in 0..16usize {
        let mut s = start.clone();
        s.castling = (0..4).filter(|i| subset & (1 << i) != 0).collect();
        seen.push(key(&r, &s));
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 16);
}

#[test]
fn cells_open_to_capture_in_passing_change_the_key() {
    let r = rules("chess.var");
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    g.play_text("e2e4").unwrap();
    let passed = g.position().to_setup(&r);
    assert!(!passed.passed.is_empty());
    let mut plain = passed.clone();
    plain.passed.clear();
    assert_ne!(key(&r, &passed), key(&r, &plain));
    assert_eq!(key(&r, &passed), g.position().key());
}

#[test]
fn hands_change_the_key() {
    let r = rules("shogi.var");
    let v = &r.variant();
    let pawn = v.find_piece("Pawn").unwrap();
    let mut board = Setup::start(&r);
    // Two pawns off the board, to be held in hand or not.
    let mut gone = 0;
    for c in board.cells.iter_mut() {
        if gone < 2 && c.is_some_and(|(_, k)| k == pawn) {
            *c = None;
            gone += 1;
        }
    }
    let holding = |hands: Vec<(u8, usize)>| {
        let mut s = board.clone();
        for (player, n) in hands {
            for _ in 0..n {
                s.hands.push((variantlab::PlayerId(player), pawn));
            }
        }
        key(&r, &s)
    };
    let mut seen = vec![
        holding(vec![]),
        holding(vec![(0, 1)]),
        holding(vec![(0, 2)]),
        holding(vec![(1, 1)]),
        holding(vec![(1, 2)]),
        holding(vec![(0, 1), (1, 1)]),
    ];
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 6);
}

#[test]
fn once_per_game_uses_change_the_key() {
    let r = rules("iss-jetan.var");
    let v = &r.variant();
    let start = Setup::start(&r);
    let mut used = vec![];
    for p in 0..v.players.len() {
        for k in 0..v.pieces.len() {
            for t in 0..v.tags.len() {
                let (k, t) = (variantlab::PieceId(k as u8), variantlab::TagId(t as u8));
                if r.once_bit(k, Some(t)).is_some() {
                    used.push((variantlab::PlayerId(p as u8), k, t));
                }
            }
        }
    }
    assert!(!used.is_empty());
    let mut seen = vec![key(&r, &start)];
    for u in used {
        let mut s = start.clone();
        s.used.push(u);
        seen.push(key(&r, &s));
    }
    let n = seen.len();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), n);
}

#[test]
fn walls_change_the_key() {
    // Two Isolation games reaching the same pieces with different walls differ; the
    // same walls placed in another order agree.
    let r = rules("isolation.var");
    let play = |moves: &[&str]| {
        let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
        for m in moves {
            g.play_text(m).unwrap();
        }
        g.position().key()
    };
    let a = play(&["c1c2,c2a5", "d8d7,d7b5", "c2c3,c3a6", "d7d6,d6b6"]);
    let b = play(&["c1c2,c2a6", "d8d7,d7b6", "c2c3,c3a5", "d7d6,d6b5"]);
    let c = play(&["c1c2,c2e4", "d8d7,d7b5", "c2c3,c3a6", "d7d6,d6b6"]);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn a_moved_wall_leaves_no_trace_in_the_key() {
    // Duck Chess: the same pieces with the duck on d4, reached by two different duck
    // paths, have one key, the one computed afresh; with the duck on d5 they differ.
    let r = rules("duck.var");
    let play = |moves: &[&str]| {
        let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
        for m in moves {
            g.play_text(m).unwrap();
        }
        assert_eq!(g.position().key(), g.position().key_from_scratch(&r));
        assert_eq!(g.position().walls().len(), 1, "{moves:?}");
        g.position().key()
    };
    let a = play(&["g1f3,f3d5", "g8f6,f6d4", "f3g1,g1d5", "f6g8,g8d4"]);
    let b = play(&["g1f3,f3a3", "g8f6,f6h6", "f3g1,g1b3", "f6g8,g8d4"]);
    let c = play(&["g1f3,f3a3", "g8f6,f6h6", "f3g1,g1b3", "f6g8,g8d5"]);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn a_moved_wall_must_move_and_stands_alone() {
    let r = rules("duck.var");
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    g.play_text("e2e4,e4d5").unwrap();
    // Black may not leave the duck on d5, and no piece passes it: the Queen's d8-d6
    // line is open, d5 and beyond are not.
    let moves: Vec<String> = g.legal_moves().iter().map(|m| g.write_move(m)).collect();
    assert!(moves.iter().all(|m| !m.ends_with(",d5")), "{moves:?}");
    assert!(g.play_text("d7d6,d6d5").is_err());
    g.play_text("d7d6,d6e2").unwrap();
    assert!(g.play_text("a2a3,a3e2").is_err());
    g.play_text("a2a3,a3d5").unwrap();
    // Two ducks are one too many for a position string.
    let two = "rnbqkbnr/pppppppp/8/3*4/3*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let err = variantlab::parse_position(&r, two)
        .map_err(|e| e.to_string())
        .and_then(|s| {
            Game::new(r.clone(), s)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .expect_err("two walls");
    assert!(err.contains("one wall"), "{err}");
}
