//! Positions, notation and game end, on hand-made positions of the two Jetan games.

use crate::common;

use common::{Lcg, rules};
use std::sync::Arc;
use variantlab::{
    Game, Outcome, PlayError, PlayerId, Position, PositionError, Rules, Setup, parse_position,
    perft, write_move, write_position,
};

const SQUARE: &str = "iss-jetan.var";
const HEX: &str = "hexagonal-iss-jetan.var";

#[test]
fn start_positions_are_written_like_fen() {
    let r = rules(SQUARE);
    let s = write_position(&r, &Setup::start(&r));
    assert_eq!(
        s,
        "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b - 0 1"
    );
    let h = rules(HEX);
    let s = write_position(&h, &Setup::start(&h));
    // Files a..n from the left, each from the top: the page's diagram has g13 pr, g12 dw,
    // g11 dw, g10 ch, and the same mirrored at the bottom.
    let files: Vec<&str> = s.split(' ').next().unwrap().split('/').collect();
    assert_eq!(files.len(), 13);
    assert_eq!(files[6], "prdwdwch5CHDWDWPR");
}

#[test]
fn position_strings_round_trip_through_play() {
    for file in [SQUARE, HEX] {
        let r = rules(file);
        let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
        let mut rng = Lcg(7);
        for _ in 0..60 {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.below(moves.len())]).unwrap();
            if g.ending().is_some() {
                break;
            }
            let text = g.position_string();
            let back = parse_position(&r, &text).expect("reads back");
            assert_eq!(write_position(&r, &back), text);
            assert_eq!(Position::from_setup(&r, &back).unwrap(), *g.position());
        }
    }
}

#[test]
fn broken_position_strings_say_what_is_wrong() {
    let r = rules(SQUARE);
    let cases = [
        ("", "empty"),
        ("10/10 b - 0 1", "2 rows given, the board has 10"),
        (
            "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPD b - 0 1",
            "row 10 has 9 cells",
        ),
        (
            "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDW b - 0 1",
            "`W` is not a piece code",
        ),
        (
            "zz9/10/10/10/10/10/10/10/10/10 b - 0 1",
            "`zz` is not a piece code",
        ),
        (
            "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA x - 0 1",
            "`x` is not a player",
        ),
        (
            "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b - zero 1",
            "`zero` is not a number",
        ),
        (
            "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b PR:q 0 1",
            "`q` is not a tag",
        ),
        (
            "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b PR 0 1",
            "in the once-per-game moves: `PR` should look like `PR:e`",
        ),
        (
            "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b - 0 1 extra",
            "unexpected `extra`",
        ),
        (
            "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/99999999999999999999999/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b - 0 1",
            "too large",
        ),
    ];
    for (text, want) in cases {
        let e = parse_position(&r, text).expect_err(text).to_string();
        assert!(e.contains(want), "{text}: `{e}` does not say `{want}`");
    }
    // Parsed but not a legal position: Orange has no Princess, whose capture wins.
    let setup = parse_position(&r, "ch9/10/10/10/10/10/10/10/10/CHPR8 b - 0 1").unwrap();
    assert_eq!(
        Game::new(r.clone(), setup).err(),
        Some(PositionError::MissingPiece {
            player: "Orange".into(),
            piece: "Princess".into()
        })
    );
    // The escape is once per game only for the Princess.
    let setup = parse_position(&r, "chpr8/10/10/10/10/10/10/10/10/CHPR8 b CH:e 0 1").unwrap();
    let e = Position::from_setup(&r, &setup);
    assert!(
        matches!(e, Err(PositionError::NotOncePerGame { .. })),
        "{e:?}"
    );
}

#[test]
fn refused_moves_say_why_and_change_nothing() {
    let r = rules(SQUARE);
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    let before = g.position_string();
    for (text, want) in [
        ("zz", "write a move as from-to"),
        ("e5-e6", "no piece on e5"),
        ("e9-e8", "not Black's"),
        ("e1-e4", "Chief cannot go from e1 to e4"),
        ("e2-e3:q", "`q` is not a tag"),
        ("e2-k9", "`k9` is not a cell"),
        ("f1-f4:e", "Princess cannot go from f1 to f4"),
    ] {
        let e = g.play_text(text).expect_err(text).to_string();
        assert!(e.contains(want), "{text}: `{e}` does not say `{want}`");
        assert_eq!(g.position_string(), before);
    }
    let m = g
        .play_text("f1-f5")
        .expect("the escape, written without its tag");
    assert_eq!(write_move(r.variant(), &m), "f1-f5:e");
}

#[test]
fn capturing_the_princess_wins_at_once() {
    let r = rules(SQUARE);
    // Black's Padwar on c3 takes the Princess on e5 (two diagonal steps over d4).
    let mut g = common::game(&r, "ch9/10/10/10/10/4pr5/10/2PD7/10/CHPR8 b - 0 1");
    g.play_text("c3-e5").unwrap();
    let e = g.ending().expect("game over");
    assert_eq!(
        (e.outcome, e.winner()),
        (Outcome::MOVER_WINS, Some(PlayerId(0)))
    );
    assert!(g.legal_moves().is_empty());
    assert!(matches!(g.play_text("a10-a9"), Err(PlayError::Over(_))));
    assert!(g.undo());
    assert!(g.ending().is_none());
}

/// A setup from (cell, player, piece) triples.
fn setup(r: &Arc<Rules>, pieces: &[(&str, &str, &str)], to_move: &str) -> Setup {
    let v = &r.variant();
    let mut s = Setup::start(r);
    s.cells.iter_mut().for_each(|c| *c = None);
    for (cell, player, piece) in pieces {
        let c = v.board.parse_cell(cell).unwrap();
        s.cells[c.index()] = Some((v.find_player(player).unwrap(), v.find_piece(piece).unwrap()));
    }
    s.to_move = v.find_player(to_move).unwrap();
    s
}

#[test]
fn chief_takes_chief_wins_and_the_last_resort_draws() {
    let pieces = [
        ("g4", "Black", "Chief"),
        ("g7", "Orange", "Chief"),
        ("h6", "Black", "Panthan"),
        ("a1", "Black", "Princess"),
        ("n7", "Orange", "Princess"),
    ];
    let r = rules(HEX);
    let mut g = Game::new(r.clone(), setup(&r, &pieces, "Black")).unwrap();
    // The Panthan on h6 touches the Chief on g7 (NW) but may not take it.
    assert!(g.play_text("h6-g7").is_err());
    g.play_text("g4-g7").unwrap();
    assert_eq!(
        g.ending().map(|e| (e.outcome, e.winner())),
        Some((Outcome::MOVER_WINS, Some(PlayerId(0))))
    );

    let r = common::rules_with(HEX, &[("last-resort", true)]);
    let mut g = Game::new(r.clone(), setup(&r, &pieces, "Black")).unwrap();
    g.play_text("h6-g7").unwrap();
    assert_eq!(
        g.ending().map(|e| (e.outcome, e.winner())),
        Some((Outcome::Draw, None))
    );
    assert!(g.undo());
    g.play_text("g4-g7").unwrap();
    assert_eq!(
        g.ending().map(|e| e.outcome),
        Some(Outcome::MOVER_WINS),
        "Chief takes Chief still wins"
    );
}

#[test]
fn a_side_without_moves_draws() {
    let r = rules(SQUARE);
    // Orange's Princess on a10 moves only to empty cells along her three lines: a7..a1,
    // d10..j10 and d7 e6 f5 g4 h3 i2 j1. Every one is filled, and Orange's Chief on
    // j10 is walled in (its lines to g10, j7 and g7 pass i10 h10, j9 j8, i9 h8).
    let mut pieces = vec![
        ("a10", "Orange", "Princess"),
        ("j10", "Orange", "Chief"),
        ("j1", "Black", "Princess"),
        ("e1", "Black", "Chief"),
        ("c3", "Black", "Panthan"),
    ];
    for cell in [
        "a7", "a6", "a5", "a4", "a3", "a2", "a1", "d10", "e10", "f10", "g10", "h10", "i10", "d7",
        "e6", "f5", "g4", "h3", "i2", "j9", "i9",
    ] {
        pieces.push((cell, "Black", "Warrior"));
    }
    let mut g = Game::new(r.clone(), setup(&r, &pieces, "Black")).unwrap();
    g.play_text("c3-c4").unwrap();
    let e = g.ending().expect("Orange cannot move");
    assert_eq!((e.outcome, e.winner()), (Outcome::Draw, None));
    assert!(
        e.reason.contains("Orange has no legal move"),
        "{}",
        e.reason
    );
}

#[test]
fn repetition_and_quiet_plies_draw() {
    let r = rules(SQUARE);
    let mut g = common::game(&r, "pr8ch/10/10/10/10/10/10/10/10/PR8CH b - 0 1");
    for m in [
        "j1-j4", "j10-j7", "j4-j1", "j7-j10", "j1-j4", "j10-j7", "j4-j1",
    ] {
        g.play_text(m).unwrap();
        assert!(g.ending().is_none(), "ended early after {m}");
    }
    g.play_text("j7-j10").unwrap();
    let e = g.ending().expect("third repetition");
    assert_eq!(e.outcome, Outcome::Draw);
    assert!(e.reason.contains("3 times"), "{}", e.reason);

    let mut g = common::game(&r, "pr8ch/10/10/10/10/10/10/10/10/PR8CH b - 99 50");
    g.play_text("j1-j4").unwrap();
    assert_eq!(g.ending().map(|e| e.outcome), Some(Outcome::Draw));
}

#[test]
fn perft_counts_from_the_start() {
    // Cross-checked against the reference generator in tests/reference (a separate
    // walk of the patterns, no tables); depth 1 of Iss Jetan also by hand: 24 Panthan
    // moves, 2 Thoat, 8 Flier, 3 Princess moves and 5 safe escapes.
    for (file, want) in [(SQUARE, [42, 1754, 79264]), (HEX, [84, 7048, 623396])] {
        let r = rules(file);
        let mut pos = Position::start(&r).unwrap();
        for (d, n) in want.iter().enumerate() {
            assert_eq!(
                perft(&r, &mut pos, d as u32 + 1),
                *n,
                "{file} depth {}",
                d + 1
            );
        }
        assert_eq!(
            pos,
            Position::start(&r).unwrap(),
            "perft leaves the position as it was"
        );
    }
}

#[test]
fn a_game_refuses_moves_of_another_game_and_stays_as_it_was() {
    // A move of chess (64 cells) offered to Iss Jetan (100 cells), and one of Iss Jetan
    // offered to chess: each game refuses the other's move, untouched.
    let chess = rules("chess.var");
    let jetan = rules(SQUARE);
    let mut c = Game::start(chess.clone(), 0).unwrap();
    let mut j = Game::start(jetan.clone(), 0).unwrap();
    let (cm, jm) = (c.legal_moves(), j.legal_moves());
    let (before_c, before_j) = (c.position_string(), j.position_string());
    for m in &cm {
        if !jm.contains(m) {
            assert!(matches!(j.play(*m), Err(PlayError::NotLegal(_))));
        }
    }
    for m in &jm {
        if !cm.contains(m) {
            assert!(matches!(c.play(*m), Err(PlayError::NotLegal(_))));
        }
    }
    assert_eq!(
        (c.position_string(), j.position_string()),
        (before_c, before_j)
    );
    assert_eq!((c.move_count(), j.move_count()), (0, 0));
    // Its own moves are played.
    c.play(cm[0]).unwrap();
    assert_eq!(c.move_count(), 1);
}

#[test]
fn attackers_count_the_enemy_pieces_that_could_capture_now() {
    let r = rules(SQUARE);
    let v = &r.variant();
    // Black's Warriors on e4 and c6 reach e6 in two orthogonal steps.
    let g = common::game(&r, "4ch5/10/10/10/2WA1pr5/10/4WA5/10/10/4CHPR4 b - 0 1");
    let pos = g.position();
    let cell = |name: &str| v.board.parse_cell(name).unwrap();
    let warrior = 1u64 << v.find_piece("Warrior").unwrap().0;
    assert_eq!(pos.attackers(&r, cell("e6"), u64::MAX), 2);
    assert_eq!(pos.attackers(&r, cell("e6"), warrior), 2);
    assert_eq!(pos.attackers(&r, cell("e6"), !warrior), 0);
    assert_eq!(pos.attackers(&r, cell("e5"), u64::MAX), 0, "an empty cell");
}

#[test]
fn the_captures_listed_alone_are_the_captures_among_all_legal_moves() {
    use variantlab::Move;
    let key = |m: &Move| format!("{m:?}");
    for (name, r) in crate::keys::every_variant() {
        let mut rng = Lcg(11);
        let (mut all, mut captures) = (vec![], vec![]);
        for game in 0..6 {
            let start = Setup::seeded(&r, game).unwrap_or_else(|_| Setup::start(&r));
            let mut pos = Position::from_setup(&r, &start).unwrap();
            for _ in 0..100 {
                pos.legal_moves(&r, &mut all);
                pos.legal_captures(&r, &mut captures);
                let mut want: Vec<String> = all
                    .iter()
                    .filter(|m| m.captured.is_some())
                    .map(key)
                    .collect();
                let mut got: Vec<String> = captures.iter().map(key).collect();
                want.sort();
                got.sort();
                assert_eq!(
                    got,
                    want,
                    "{name}: {}",
                    write_position(&r, &pos.to_setup(&r))
                );
                if all.is_empty() {
                    break;
                }
                // Captures half the time, so that positions with many of them come up.
                let m = match captures.is_empty() || rng.below(2) == 0 {
                    true => all[rng.below(all.len())],
                    false => captures[rng.below(captures.len())],
                };
                pos.make_unchecked(&r, &m);
            }
        }
    }
}
