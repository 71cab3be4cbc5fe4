//! The chess family: published perft counts, and hand-worked positions for check,
//! en passant, promotion, castling, draws, the fairy pieces of Hexcetran Chess and
//! random setups.

use crate::common;

use common::{perft_counts, rules};
use std::sync::Arc;
use variantlab::{
    Game, MoveError, Outcome, PlayError, PlayerId, Position, PositionError, Rules, Setup, check,
    parse_position, perft, write_move, write_position,
};

const CHESS: &str = "chess.var";
const GLINSKI: &str = "glinski-chess.var";
const HEXCETRAN: &str = "hexcetran-chess.var";

/// The published positions of `shared/reference/perft.md`, with their counts.
const PUBLISHED: &[(&str, &[u64])] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2_039, 97_862, 4_085_603, 193_690_690],
    ),
    (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2_812, 43_238, 674_624, 11_030_083],
    ),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9_467, 422_333, 15_833_292],
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1_486, 62_379, 2_103_487, 89_941_194],
    ),
];

fn position(r: &Arc<Rules>, text: &str) -> Position {
    let setup = parse_position(r, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Position::from_setup(r, &setup).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(r: &Arc<Rules>, text: &str) -> Vec<String> {
    let pos = position(r, text);
    let mut list = Vec::new();
    pos.legal_moves(r, &mut list);
    let mut out: Vec<String> = list.iter().map(|m| write_move(r.variant(), m)).collect();
    out.sort();
    out
}

fn from_text(text: &str) -> Arc<Rules> {
    common::from_text(text)
}

/// Perft of each published position up to (and including) `max_nodes` leaves.
fn published_up_to(max_nodes: u64, deeper: bool) {
    let r = rules(CHESS);
    for (fen, counts) in PUBLISHED {
        for (d, want) in counts.iter().enumerate() {
            if (*want > max_nodes) != deeper {
                continue;
            }
            let mut pos = position(&r, fen);
            assert_eq!(
                perft(&r, &mut pos, d as u32 + 1),
                *want,
                "{fen} depth {}",
                d + 1
            );
        }
    }
}

#[test]
fn perft_equals_the_published_counts() {
    published_up_to(16_000_000, false);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn perft_equals_the_published_counts_at_depth() {
    published_up_to(16_000_000, true);
}

#[test]
fn glinski_has_51_first_moves() {
    let r = rules(GLINSKI);
    let mut pos = Position::start(&r).unwrap();
    assert_eq!(perft(&r, &mut pos, 1), 51);
}

#[test]
fn fen_round_trips() {
    let r = rules(CHESS);
    for (fen, _) in PUBLISHED {
        let setup = parse_position(&r, fen).unwrap();
        assert_eq!(write_position(&r, &setup), *fen);
    }
    let start = write_position(&r, &Setup::start(&r));
    assert_eq!(start, PUBLISHED[0].0);
    // After a double step the passed cell is written, as FEN does.
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    g.play_text("e2e4").unwrap();
    assert_eq!(
        g.position_string(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
}

#[test]
fn en_passant_is_allowed_on_the_next_move_only() {
    let r = rules(CHESS);
    // White: King e1, pawn e5; Black: King e8, pawn d5 that just came from d7.
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    assert_eq!(
        moves(&r, fen),
        [
            "e1-d1", "e1-d2", "e1-e2", "e1-f1", "e1-f2", "e5-e6", "e5xd6"
        ]
    );
    let mut g = common::game(&r, fen);
    g.play_text("e5xd6").unwrap();
    // The pawn on d5 is gone, White's pawn stands on d6.
    assert_eq!(g.position_string(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
    // Once another move is made, the right is gone.
    let mut g = common::game(&r, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    g.play_text("d7-d5").unwrap();
    assert!(
        g.legal_moves()
            .iter()
            .any(|m| write_move(r.variant(), m) == "e5xd6")
    );
    g.play_text("e1-e2").unwrap();
    g.play_text("e8-e7").unwrap();
    assert!(
        !g.legal_moves()
            .iter()
            .any(|m| write_move(r.variant(), m) == "e5xd6")
    );
}

#[test]
fn en_passant_may_not_expose_the_king_along_the_rank() {
    let r = rules(CHESS);
    // White King a5, pawn e5; Black pawn d5 (just double-stepped), Rook h5. Taking in
    // passing would empty both d5 and e5 and open the rank to the Rook.
    let list = moves(&r, "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2");
    assert!(!list.contains(&"e5xd6".to_string()), "{list:?}");
    assert!(list.contains(&"e5-e6".to_string()));
}

#[test]
fn promotion_to_a_listed_piece_is_asked_for_and_forced() {
    let r = rules(CHESS);
    let fen = "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1";
    let list = moves(&r, fen);
    for code in ["Q", "R", "B", "N"] {
        assert!(list.contains(&format!("e7-e8={code}")), "{list:?}");
        assert!(list.contains(&format!("e7xd8={code}")), "{list:?}");
    }
    // The pawn never stays a pawn on the last rank.
    assert!(!list.contains(&"e7-e8".to_string()));
    let mut g = common::game(&r, fen);
    match g.play_text("e7-e8") {
        Err(PlayError::Text(MoveError::Promotion(choices))) => assert_eq!(choices.len(), 4),
        other => panic!("{other:?}"),
    }
    g.play_text("e7e8n").unwrap();
    assert!(g.position_string().starts_with("3rN3/8/"));
    g.undo();
    g.play_text("e7xd8=Q").unwrap();
    assert!(g.position_string().starts_with("3Q4/8/"));
}

#[test]
fn promotion_to_any_non_royal_piece() {
    let r = rules(HEXCETRAN);
    // White pawn on e10 (one step below e11, the top of the e file), Kings apart.
    let v = &r.variant();
    let mut setup = Setup::fixed(&r);
    setup.cells.iter_mut().for_each(|c| *c = None);
    let put = |s: &mut Setup, cell: &str, player: &str, piece: &str| {
        s.cells[v.board.parse_cell(cell).unwrap().index()] =
            Some((v.find_player(player).unwrap(), v.find_piece(piece).unwrap()));
    };
    put(&mut setup, "e10", "White", "Pawn");
    put(&mut setup, "k1", "White", "King");
    put(&mut setup, "a6", "Blue", "King");
    let pos = Position::from_setup(&r, &setup).unwrap();
    let mut list = Vec::new();
    pos.legal_moves(&r, &mut list);
    let promotions: Vec<String> = list
        .iter()
        .filter(|m| v.board.name(m.to) == "e11")
        .map(|m| v.piece(m.promotion.expect("forced")).code.clone())
        .collect();
    // Every kind but the King (royal) and the Pawn itself, as the page lists them.
    let mut sorted = promotions.clone();
    sorted.sort();
    assert_eq!(sorted, ["A", "AA", "C", "DH", "GR", "N", "Q", "R", "S"]);
}

#[test]
fn optional_promotion_may_be_declined() {
    let r = from_text(
        r#"
        name "Optional"
        board square 3 by 4
        player White: forward north, capitals
        player Black: forward south, lowercase
        zone top { White: a4 b4 c4 }
        piece King (K) { royal step 1 any }
        piece Man (M) { step 1 straight forward, to empty  may promote on entering top to Rook }
        piece Rook (R) { slide orthogonal }
        setup { White: King a1, Man c3  Black: King a4 }
        game ends { checkmate: mover wins  stalemate: draw }
        "#,
    );
    let pos = Position::start(&r).unwrap();
    let mut list = Vec::new();
    pos.legal_moves(&r, &mut list);
    let names: Vec<String> = list.iter().map(|m| write_move(r.variant(), m)).collect();
    assert!(names.contains(&"c3-c4".to_string()), "{names:?}");
    assert!(names.contains(&"c3-c4=R".to_string()), "{names:?}");
    // Without a choice an optional promotion is declined.
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    let m = g.play_text("c3c4").unwrap();
    assert_eq!(m.promotion, None);
}

#[test]
fn castling_out_of_through_and_into_check() {
    let r = rules(CHESS);
    let castles = |fen: &str| -> Vec<String> {
        moves(&r, fen)
            .into_iter()
            .filter(|m| m == "e1-g1" || m == "e1-c1")
            .collect()
    };
    assert_eq!(
        castles("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
        ["e1-c1", "e1-g1"]
    );
    // Out of check: a Rook on e8 attacks the King.
    assert!(castles("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1").is_empty());
    // Through check: f1 is attacked; the other side is fine.
    assert_eq!(castles("5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1"), ["e1-c1"]);
    // Into check: g1 is attacked.
    assert_eq!(castles("1k4r1/8/8/8/8/8/8/R3K2R w KQ - 0 1"), ["e1-c1"]);
    // b1 attacked does not matter: the King never crosses it.
    assert_eq!(
        castles("1r4k1/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
        ["e1-c1", "e1-g1"]
    );
    // A piece between: no castling that way.
    assert_eq!(castles("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1"), ["e1-g1"]);
    // The right is lost once the Rook has moved, even if it comes back.
    let mut g = common::game(&r, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    for m in ["h1-h2", "e8-d8", "h2-h1", "d8-e8"] {
        g.play_text(m).unwrap();
    }
    assert!(g.position_string().contains(" w Q "));
    let mut g = common::game(&r, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    g.play_text("e1-g1").unwrap();
    assert_eq!(g.position_string(), "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1");
}

#[test]
fn checkmate_and_stalemate_end_the_game() {
    let r = rules(CHESS);
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        g.play_text(m).unwrap();
    }
    let e = g.ending().expect("mate");
    assert_eq!(e.outcome, Outcome::MOVER_WINS);
    assert_eq!(e.winner(), Some(PlayerId(1)));
    assert_eq!(e.reason, "White is checkmated");
    // Black King h8, White Queen f7 and King g6: Black has no move and is not in check.
    let g = common::game(&r, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let e = g.ending().expect("stalemate");
    assert_eq!((e.outcome, e.winner()), (Outcome::Draw, None));
    assert_eq!(e.reason, "Black is stalemated");
}

#[test]
fn a_stalemate_scores_three_quarters_in_glinski_chess() {
    let r = rules(GLINSKI);
    // Doubled coordinates, f6 = (0, 0): a cell of file x (a = -5 .. l = 5) and rank k is
    // at y = 10 - |x| - 2(k - 1). Black King a1 = (-5, 5) has five neighbours: a2 (N),
    // b2 (NE), b1 (SE), b3 (NNE) and c2 (E). The White King on c3 = (-3, 3) touches all
    // five (b2 SW, b1 SSW, b3 NW, a2 W, c2 S) but not a1, (-2, 2) away. Black, to move,
    // has no move and is not in check: White, who stalemated, scores 3/4.
    let g = common::game(&r, "5k/7/5K2/9/10/11/10/9/8/7/6 b - 0 1");
    let e = g.ending().expect("stalemate");
    assert_eq!(e.outcome, Outcome::scores(variantlab::Who::Mover, 3, 4));
    assert_eq!(e.reason, "Black is stalemated");
    assert_eq!(e.result(r.variant()), "White scores 3/4, Black scores 1/4");
}

#[test]
fn draws_by_repetition_and_by_the_fifty_move_rule() {
    let r = rules(CHESS);
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        g.play_text(m).unwrap();
        assert!(g.ending().is_none());
    }
    g.play_text("f6g8").unwrap();
    assert_eq!(g.ending().unwrap().reason, "the position occurred 3 times");
    // 99 quiet plies: a King move makes 100, a pawn move resets the count.
    let mut g = common::game(&r, "4k3/8/8/8/8/8/4P3/4K3 w - - 99 80");
    g.play_text("e2-e3").unwrap();
    assert!(g.ending().is_none());
    let mut g = common::game(&r, "4k3/8/8/8/8/8/4P3/4K3 w - - 99 80");
    g.play_text("e1-d1").unwrap();
    assert_eq!(
        g.ending().unwrap().reason,
        "100 plies without a capture or a Pawn move"
    );
}

#[test]
fn moves_are_read_in_every_common_form() {
    let r = rules(CHESS);
    for m in ["e2e4", "e2-e4", "E2-E4"] {
        let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
        let played = g.play_text(m).unwrap();
        assert_eq!(write_move(r.variant(), &played), "e2-e4");
    }
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    assert!(matches!(
        g.play_text("e2e5"),
        Err(PlayError::Text(MoveError::Illegal { .. }))
    ));
    assert!(matches!(
        g.play_text("e7e8z"),
        Err(PlayError::Text(MoveError::UnknownPiece(_)))
    ));
}

/// Hexcetran positions: a piece on f6 and the cells given, as (cell, player, piece).
fn hexcetran(pieces: &[(&str, &str, &str)]) -> (Arc<Rules>, Position) {
    let r = rules(HEXCETRAN);
    let v = &r.variant();
    let mut setup = Setup::fixed(&r);
    setup.cells.iter_mut().for_each(|c| *c = None);
    for (cell, player, piece) in pieces {
        setup.cells[v.board.parse_cell(cell).unwrap().index()] =
            Some((v.find_player(player).unwrap(), v.find_piece(piece).unwrap()));
    }
    let pos = Position::from_setup(&r, &setup).unwrap();
    (r, pos)
}

fn destinations(r: &Arc<Rules>, pos: &Position, from: &str) -> Vec<String> {
    let v = &r.variant();
    let mut list = Vec::new();
    pos.legal_moves(r, &mut list);
    let mut out: Vec<String> = list
        .iter()
        .filter(|m| v.board.name(m.from) == from)
        .map(|m| v.board.name(m.to).to_string())
        .collect();
    out.sort();
    out
}

// Game Courier steps (file, rank): N (0,1), NE (1,0), SE (1,-1), S (0,-1), SW (-1,0),
// NW (-1,1); NNE (1,1), E (2,-1), SSE (1,-2), SSW (-1,-1), W (-2,1), NNW (-1,2).

#[test]
fn the_sissa_never_leaps_and_keeps_both_legs_equal() {
    // f6 to g8 is (1, 2): N then NNE (through f7) or NNE then N (through g7); no other
    // pair of equal legs adds up to it.
    let with = |extra: &[(&'static str, &'static str, &'static str)]| {
        let mut all = vec![
            ("f6", "White", "Sissa"),
            ("k1", "White", "King"),
            // Not a6, which the Sissa attacks from f6.
            ("b7", "Blue", "King"),
        ];
        all.extend_from_slice(extra);
        let (r, pos) = hexcetran(&all);
        destinations(&r, &pos, "f6")
    };
    let d = with(&[]);
    assert!(d.contains(&"g8".to_string()), "{d:?}");
    // f6 to g9 is (1, 3): two N steps then one NNE, but no equal legs make it.
    assert!(!d.contains(&"g9".to_string()), "{d:?}");
    let d = with(&[("f7", "Blue", "Pawn")]);
    assert!(
        d.contains(&"g8".to_string()),
        "the other order is open: {d:?}"
    );
    let d = with(&[("g7", "Blue", "Pawn")]);
    assert!(
        d.contains(&"g8".to_string()),
        "the other order is open: {d:?}"
    );
    let d = with(&[("f7", "Blue", "Pawn"), ("g7", "Blue", "Pawn")]);
    assert!(!d.contains(&"g8".to_string()), "it never leaps: {d:?}");
}

#[test]
fn the_gryphon_and_aanca_on_a_crowded_board() {
    // Gryphon f6: NNE to g7, then on N (g8 g9 g10) or NE (h7 i7 j7). An enemy on g9
    // stops the N line there (captured); an own pawn on h7 closes the NE line.
    let (r, pos) = hexcetran(&[
        ("f6", "White", "Gryphon"),
        ("g9", "Blue", "Pawn"),
        ("h7", "White", "Pawn"),
        ("k1", "White", "King"),
        ("a6", "Blue", "King"),
    ]);
    let d = destinations(&r, &pos, "f6");
    for c in ["g7", "g8", "g9"] {
        assert!(d.contains(&c.to_string()), "{c}: {d:?}");
    }
    for c in ["g10", "h7", "i7", "j7"] {
        assert!(!d.contains(&c.to_string()), "{c}: {d:?}");
    }
    // Aanca f6: N to f7, then on NNE (g8 h9) or NNW (e9 d11). An enemy on g8 is taken
    // and stops that line; an own piece on f7 closes both.
    let (r, pos) = hexcetran(&[
        ("f6", "White", "Aanca"),
        ("g8", "Blue", "Pawn"),
        ("k1", "White", "King"),
        ("a6", "Blue", "King"),
    ]);
    let d = destinations(&r, &pos, "f6");
    for c in ["f7", "g8", "e9", "d11"] {
        assert!(d.contains(&c.to_string()), "{c}: {d:?}");
    }
    assert!(!d.contains(&"h9".to_string()), "{d:?}");
    let (r, pos) = hexcetran(&[
        ("f6", "White", "Aanca"),
        ("f7", "White", "Pawn"),
        ("k1", "White", "King"),
        ("a6", "Blue", "King"),
    ]);
    let d = destinations(&r, &pos, "f6");
    for c in ["f7", "g8", "h9", "e9", "d11"] {
        assert!(!d.contains(&c.to_string()), "{c}: {d:?}");
    }
}

const REDRAW: &str = r#"
    name "Redraw"
    board square 3 by 6
    player White: forward north, capitals
    player Black: forward south, lowercase
    piece King (K) { royal step 1 any }
    piece Rook (R) { slide orthogonal }
    piece Pawn (P) { step 1 straight forward, to empty }
    setup { White: King c1  Black: King c6, Pawn a6 }
    setup random {
      White: Rook on a1 b1
      redraw while White can capture an undefended Pawn
    }
    game ends { checkmate: mover wins  stalemate: draw }
"#;

fn draws(r: &Arc<Rules>) -> std::collections::BTreeSet<String> {
    (0..40)
        .map(|seed| write_position(r, &Setup::seeded(r, seed).unwrap()))
        .collect()
}

#[test]
fn the_redraw_rule_refuses_setups_with_an_undefended_capture() {
    // A Rook on a1 takes the Pawn on a6 up the open a file, and the Black King on c6
    // does not touch a6: that draw is refused, so the Rook always stands on b1.
    let r = from_text(REDRAW);
    assert_eq!(
        draws(&r).into_iter().collect::<Vec<_>>(),
        ["p1k/3/3/3/3/1RK w 0 1"]
    );
    // With the Black King on b6, next to a6, the Pawn is defended: both draws stand
    // (a White Pawn on b2 keeps the Rook on b1 from checking the King).
    let r = from_text(
        &REDRAW
            .replace("King c6", "King b6")
            .replace("White: King c1", "White: King c1, Pawn b2"),
    );
    assert_eq!(draws(&r).len(), 2);
    // Without it, the draw with the Rook on b1 checks the King before a move is made:
    // it is drawn again.
    let r = from_text(&REDRAW.replace("King c6", "King b6"));
    assert_eq!(
        draws(&r).into_iter().collect::<Vec<_>>(),
        ["pk1/3/3/3/3/R1K w 0 1"]
    );
}

#[test]
fn a_redraw_rule_that_can_never_be_met_is_reported() {
    let r = from_text(&REDRAW.replace("Rook on a1 b1", "Rook on a1"));
    assert_eq!(
        Setup::seeded(&r, 1),
        Err(PositionError::RedrawLimit {
            tries: variantlab::MAX_DRAWS
        })
    );
}

#[test]
fn random_setups_are_reproducible_from_their_seed() {
    let r = rules(HEXCETRAN);
    let a = Setup::seeded(&r, 42).unwrap();
    let b = Setup::seeded(&r, 42).unwrap();
    assert_eq!(a, b);
    let different = (0..10).any(|s| Setup::seeded(&r, s).unwrap() != a);
    assert!(different);
    // Every draw puts the ten pieces on ten of the eleven home-row cells.
    let v = &r.variant();
    let home = [
        "a6", "b5", "c4", "d3", "e2", "f1", "g1", "h1", "i1", "j1", "k1",
    ];
    let on_home = home
        .iter()
        .filter(|c| a.cells[v.board.parse_cell(c).unwrap().index()].is_some())
        .count();
    assert_eq!(on_home, 10);
    // The string reads back to the same position.
    let text = write_position(&r, &a);
    assert_eq!(parse_position(&r, &text).unwrap(), a);
}

#[test]
fn the_mirror_option_copies_white_s_draw_file_by_file() {
    let r = common::rules_with(HEXCETRAN, &[("mirror", true)]);
    let v = &r.variant();
    let white = [
        "a6", "b5", "c4", "d3", "e2", "f1", "g1", "h1", "i1", "j1", "k1",
    ];
    let blue = [
        "a11", "b11", "c11", "d11", "e11", "f11", "g10", "h9", "i8", "j7", "k6",
    ];
    for seed in 0..5 {
        let s = Setup::seeded(&r, seed).unwrap();
        for (w, b) in white.iter().zip(blue) {
            let at = |c: &str| s.cells[v.board.parse_cell(c).unwrap().index()].map(|(_, k)| k);
            assert_eq!(at(w), at(b), "seed {seed}: {w} and {b}");
        }
    }
}

#[test]
fn broken_fen_fields_are_refused_with_the_field_named() {
    let r = rules(CHESS);
    for (fen, field) in [
        ("4k3/8/8/8/8/8/8/4K3 w KX - 0 1", "castling"),
        ("4k3/8/8/8/8/8/8/4K3 w", "castling"),
        ("4k3/8/8/8/8/8/8/4K3 w - z9 0 1", "en passant"),
        ("4k3/8/8/8/8/8/8/4K3 w -", "en passant"),
    ] {
        let e = parse_position(&r, fen).expect_err(fen);
        assert_eq!(e.field().name(), field, "{fen}: {e}");
    }
    // A passed cell no piece can just have crossed is refused when the position is built.
    let setup = parse_position(&r, "4k3/8/8/8/8/8/8/4K3 b - e3 0 1").unwrap();
    assert!(matches!(
        Position::from_setup(&r, &setup),
        Err(PositionError::Syntax {
            field: "en passant",
            ..
        })
    ));
    // Castling rights whose pieces are not in place are dropped, not kept.
    let pos = position(&r, "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1");
    assert_eq!(pos.rights(), 0);
}

#[test]
fn the_hexagonal_knight_reaches_twelve_cells() {
    for file in [GLINSKI, HEXCETRAN, "mccooey-chess.var"] {
        let r = rules(file);
        let v = &r.variant();
        let knight = v.find_piece("Knight").unwrap();
        let cells = r.footprint(PlayerId(0), knight, v.board.centre());
        assert_eq!(cells.len(), 12, "{file}");
    }
}

#[test]
fn moves_as_follows_chains_taking_each_piece_once() {
    // Each piece moves as the two before it: without taking each piece once, the
    // copies would double at every link of the chain.
    let mut text = String::from(
        "name \"Chain\"\nboard square 8 by 8\nplayer White: forward north\nplayer Black: forward south\npiece P0 (A) { step 1 any }\npiece P1 (B) { moves as P0 }\n",
    );
    let codes: Vec<char> = ('C'..='Z').collect();
    for (i, code) in codes.iter().enumerate() {
        let n = i + 2;
        text += &format!(
            "piece P{n} ({code}) {{ moves as P{} or P{} }}\n",
            n - 1,
            n - 2
        );
    }
    text += "setup { White: P0 a1  Black: P0 a8 }\ngame ends { no legal move: draw }\n";
    let checked = check("chain.var", &text);
    let v = checked.variant.expect("checks");
    assert!(v.pieces.iter().all(|p| p.moves.len() == 1));
    // A circle is refused.
    let circle = text.replace(
        "piece P1 (B) { moves as P0 }",
        "piece P1 (B) { moves as P25 }",
    );
    let report = check("circle.var", &circle).report;
    assert!(report.render(100, false).contains("moves_as_cycle"));
}

#[test]
fn a_position_with_the_side_not_to_move_in_check_is_refused() {
    // Black's King is attacked by the Rook on e7 with White to move: White would take
    // it. Such a position never follows a legal move.
    let r = rules(CHESS);
    let fen = "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1";
    let setup = parse_position(&r, fen).unwrap();
    let e = Position::from_setup(&r, &setup).expect_err(fen);
    assert_eq!(
        e,
        PositionError::LastMoverInCheck {
            player: "Black".into(),
            to_move: "White".into()
        }
    );
    assert!(
        e.to_string()
            .contains("Black is in check with White to move"),
        "{e}"
    );
    assert!(Game::new(r.clone(), setup).is_err());
    // Black to move in the same position is in check, as it may be.
    assert!(common::game(&r, "4k3/4R3/8/8/8/8/8/4K3 b - - 0 1").in_check());
}

#[test]
fn fairy_pieces_set_up_in_a_position_agree_with_fairy_stockfish() {
    // Counts from Fairy-Stockfish's `fairy` variant, from positions holding its five
    // extra pieces (none is in the start position).
    let r = rules("fairy.var");
    for (text, counts) in [
        (
            "4k3/8/8/3S4/8/2A2C2/8/4K1M1 w - - 0 1",
            [146u64, 6_936, 27_545],
        ),
        (
            "4k3/2s5/3f4/8/2c5/1a6/8/4K1m1 b - - 0 1",
            [46, 2_122, 6_256],
        ),
    ] {
        perft_counts(&r, text, 2, &counts);
    }
}

#[test]
fn a_stalemate_in_suicide_chess_goes_to_the_player_with_fewer_pieces() {
    let r = rules("suicide.var");
    // White's Pawn a4 is blocked by a5: White, to move, has no move and one piece to
    // Black's two, so White wins; one piece each draws.
    let g = common::game(&r, "8/8/8/p7/P7/8/8/7k w - - 0 1");
    let e = g.ending().expect("stalemate");
    assert_eq!(e.winner(), Some(PlayerId(0)));
    let g = common::game(&r, "8/8/8/p7/P7/8/8/8 w - - 0 1");
    let e = g.ending().expect("stalemate");
    assert_eq!((e.outcome, e.winner()), (Outcome::Draw, None));
    // The Pawns d2 and d3 are blocked by d4: two pieces to one, Black wins.
    let g = common::game(&r, "8/8/8/3p4/3P4/3P4/8/8 w - - 0 1");
    let e = g.ending().expect("stalemate");
    assert_eq!(e.winner(), Some(PlayerId(1)));
}

#[test]
fn losing_one_of_three_kings_loses() {
    let r = rules("threekings.var");
    let g = common::game(&r, "k3k2k/8/8/8/8/8/8/K3K3 w - - 0 1");
    let e = g.ending().expect("over");
    assert_eq!(e.winner(), Some(PlayerId(1)));
    assert_eq!(e.reason, "White has fewer than 3 King");
    assert!(
        common::game(&r, "k3k2k/8/8/8/8/8/8/K3K2K w - - 0 1")
            .ending()
            .is_none()
    );
}

#[test]
fn a_royal_queen_may_not_be_left_attacked_in_coregal_chess() {
    let r = rules("coregal.var");
    // The Rook a8 attacks the Queen a1: only the Queen's 11 moves off the file or onto
    // a8 remain (Fairy-Stockfish's count); no King move leaves her attacked.
    let m = moves(&r, "r3k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    assert_eq!(m.len(), 11, "{m:?}");
    assert!(m.iter().all(|m| m.starts_with("a1")), "{m:?}");
    // The King in check from h1, its flight cells covered by the Rooks, nothing able to
    // block: Fairy-Stockfish counts no move, a checkmate.
    let g = common::game(&r, "7k/8/8/8/8/8/1r6/QR2K2r w - - 0 1");
    let e = g.ending().expect("mate");
    assert_eq!(e.winner(), Some(PlayerId(1)));
}

#[test]
fn a_pawn_may_not_promote_to_a_royal_queen_where_she_is_attacked() {
    // From a random game: c7-c8=Q would make a royal Queen that the King d7 and the
    // Queen a8 attack. Fairy-Stockfish counts 29 moves here, the other three
    // promotions of c7 among them.
    let r = rules("coregal.var");
    let m = moves(&r, "q7/2Pk4/1B5p/p6P/2PpP2Q/1bbP2R1/8/6K1 w - - 4 82");
    assert_eq!(m.len(), 29, "{m:?}");
    assert!(!m.iter().any(|m| m == "c7-c8=Q"), "{m:?}");
    for kind in ["R", "B", "N"] {
        assert!(m.iter().any(|m| *m == format!("c7-c8={kind}")), "{m:?}");
    }
}

#[test]
fn grand_chess_promotes_only_to_kinds_the_player_has_lost() {
    // Counts from Fairy-Stockfish's `grand`: a Pawn on the ninth rank with every kind
    // lost (six promotions, forced on the last rank), with none lost (it cannot move),
    // with one Knight lost, and Black's Pawn on its eighth with its army whole but for
    // its Pawns.
    let r = rules("grand.var");
    for (text, counts) in [
        (
            "4k5/P9/10/10/10/10/10/10/10/4K5 w - - 0 1",
            [11u64, 49, 745],
        ),
        ("4k5/10/P9/10/10/10/10/10/10/4K5 w - - 0 1", [12, 51, 757]),
        (
            "4k5/P9/10/10/10/10/10/10/1NBQ1CABNR/R3K5 w - - 0 1",
            [103, 144, 14_752],
        ),
        (
            "4k5/P9/10/10/10/10/10/10/1NBQ1CAB2/R3K4R w - - 0 1",
            [104, 145, 14_950],
        ),
        (
            "r3k4r/1nbq1cabn1/10/10/10/10/10/p9/10/4K5 b - - 0 1",
            [107, 148, 15_669],
        ),
    ] {
        perft_counts(&r, text, 1, &counts);
    }
    // With none lost, the Pawn on a9 has no move at all.
    let full = "4k5/P9/10/10/10/10/10/10/1NBQ1CABNR/R3K5 w - - 0 1";
    assert!(!moves(&r, full).iter().any(|m| m.starts_with("a9")));
    // Opulent Chess, as Fairy-Stockfish counts it: every kind lost, none lost, one
    // Lion lost.
    let r = rules("opulent.var");
    for (text, counts) in [
        (
            "4k5/P9/10/10/10/10/10/10/10/4K5 w - - 0 1",
            [13u64, 57, 877],
        ),
        (
            "5k4/P9/10/10/10/10/10/10/CLBNQ1NBLA/RW2K2W1R w - - 0 1",
            [93, 289, 28_162],
        ),
        (
            "5k4/P9/10/10/10/10/10/10/CLBNQ1NB1A/RW2K2WR1 w - - 0 1",
            [96, 295, 29_484],
        ),
    ] {
        perft_counts(&r, text, 1, &counts);
    }
}

#[test]
fn a_knight_on_the_centre_wins_once_kept_for_a_round() {
    // Jeson Mor; Fairy-Stockfish counts no move in either won position.
    let r = rules("jesonmor.var");
    let start = "n8/9/5n3/9/9/9/3N5/9/8N w - - 0 1";
    let mut g = common::game(&r, start);
    g.play_text("d3e5").unwrap();
    assert!(g.ending().is_none(), "Black may still take the Knight");
    let mut kept = g.clone();
    kept.play_text("a9b7").unwrap();
    let e = kept.ending().expect("kept for a round");
    assert_eq!(e.winner(), Some(PlayerId(0)));
    // Taken on e5: the capturing Knight waits in its turn, and wins if kept.
    g.play_text("f7e5").unwrap();
    assert!(g.ending().is_none());
    g.play_text("i1h3").unwrap();
    assert_eq!(
        g.ending().expect("Black kept it").winner(),
        Some(PlayerId(1))
    );
}

#[test]
fn a_player_left_without_a_move_loses_breakthrough_and_jeson_mor() {
    // Fairy-Stockfish scores a side with no move as mated in both games: taking the
    // last enemy piece wins.
    for (file, start, take) in [
        ("breakthrough.var", "8/8/8/4p3/3P4/8/8/8 w - - 0 1", "d4e5"),
        ("jesonmor.var", "9/9/9/9/4n4/9/3N5/9/9 w - - 0 1", "d3e5"),
    ] {
        let r = rules(file);
        let mut g = common::game(&r, start);
        g.play_text(take).unwrap();
        let e = g.ending().expect("Black has no move");
        assert_eq!(e.winner(), Some(PlayerId(0)), "{file}: {}", e.reason);
    }
}

#[test]
fn kings_in_check_together_are_checked_only_when_both_are_attacked() {
    // Spartan Chess, as Fairy-Stockfish counts it.
    let r = rules("spartan.var");
    for (text, counts) in [
        // Both Kings attacked by the Rook on d8: each move must save one.
        ("2kR1k2/8/8/8/8/8/8/4K3 b - - 0 1", [6u64, 90, 964]),
        // One attacked: it may stay so, and White may then take it.
        ("2k2k2/8/8/8/8/8/8/2R1K3 b - - 0 1", [10, 149, 1_670]),
        // A Hoplite may become a King only while one is missing.
        ("5k2/8/8/8/8/8/1h6/4K3 b - - 0 1", [15, 64, 882]),
        ("2k2k2/8/8/8/8/8/1h6/4K3 b - - 0 1", [18, 81, 1_535]),
    ] {
        perft_counts(&r, text, 1, &counts);
    }
    let g = common::game(&r, "2kR1k2/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(g.in_check());
    assert_eq!(g.checked_royals().len(), 2);
    assert!(!common::game(&r, "2k2k2/8/8/8/8/8/8/2R1K3 b - - 0 1").in_check());
    let m = moves(&r, "5k2/8/8/8/8/8/1h6/4K3 b - - 0 1");
    assert!(m.iter().any(|m| m.ends_with("=K")), "{m:?}");
    let m = moves(&r, "2k2k2/8/8/8/8/8/1h6/4K3 b - - 0 1");
    assert!(!m.iter().any(|m| m.ends_with("=K")), "{m:?}");
}

#[test]
fn a_capture_petrifies_the_capturing_piece() {
    // Petrified Chess: the Queen takes on e7 and turns to stone there; the wall gives
    // no check, so Black's King may step beside it; undo brings the Queen back.
    let r = rules("petrified.var");
    let setup = parse_position(&r, "4k3/4p3/8/8/8/8/8/4QK2 w - - 0 1").unwrap();
    let mut g = Game::new(r.clone(), setup).unwrap();
    let m = g.play_text("e1e7").unwrap();
    assert_eq!(write_move(r.variant(), &m), "e1xe7");
    assert_eq!(g.position_string(), "4k3/4*3/8/8/8/8/8/5K2 b - - 0 1");
    assert!(!g.in_check());
    assert!(g.play_text("e8e7").is_err(), "no piece enters a wall");
    g.play_text("e8d7").unwrap();
    assert!(g.undo() && g.undo());
    assert_eq!(g.position_string(), "4k3/4p3/8/8/8/8/8/4QK2 w - - 0 1");
    // A quiet move leaves no wall, and the King may not capture at all.
    let setup = parse_position(&r, "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1").unwrap();
    let g = Game::new(r.clone(), setup).unwrap();
    // The Pawn on e2 guards d1 and f1.
    let mut moves: Vec<String> = g.legal_moves().iter().map(|m| g.write_move(m)).collect();
    moves.sort();
    assert_eq!(moves, ["e1-d2", "e1-f2"], "e1xe2 would petrify the King");
}

#[test]
fn the_cambodian_king_and_met_have_one_first_move_each() {
    // Cambodian Chess: an unmoved King may leap as a Knight onto the rank before it,
    // an unmoved Met two cells straight forward, both onto empty cells only.
    let r = rules("cambodian.var");
    let firsts = |text: &str| -> Vec<String> {
        moves(&r, text)
            .into_iter()
            .filter(|m| ["d1-b2", "d1-f2", "e1-e3"].contains(&m.as_str()))
            .collect()
    };
    let start = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1";
    // At the start the Pawn on e3 stands where the Met would land.
    assert_eq!(firsts(start), ["d1-b2", "d1-f2"]);
    // The Met leaps over a piece on e2 but not onto one on e3; the King never leaps
    // out of check (the Pawn on c2 checks it) and never captures with the leap.
    assert_eq!(
        firsts("4k3/8/8/8/8/8/4P3/3KM3 w DE - 0 1"),
        ["d1-b2", "d1-f2", "e1-e3"]
    );
    assert_eq!(
        firsts("4k3/8/8/8/8/4P3/8/3KM3 w DE - 0 1"),
        ["d1-b2", "d1-f2"]
    );
    assert!(firsts("4k3/8/8/8/8/8/2p5/3KM3 w DE - 0 1").is_empty());
    assert_eq!(firsts("4k3/8/8/8/8/8/1p3p2/3KM3 w DE - 0 1"), ["e1-e3"]);
    // Both leaps of the King share its letter; once it has moved both are gone.
    let mut g = common::game(&r, start);
    for m in ["e3-e4", "d6-d5", "e1-e3"] {
        g.play_text(m).unwrap();
    }
    assert!(g.position_string().contains(" b Dde "));
    g.play_text("d8-d6").unwrap();
    assert!(g.position_string().contains(" w De "));
    g.play_text("d1-c2").unwrap();
    assert!(
        g.position_string().contains(" b e "),
        "{}",
        g.position_string()
    );
    // A Rook landing on the King's file takes the leap away, though a Pawn stands
    // between and gives no check; a Rook elsewhere does not.
    let mut g = common::game(&r, "4k3/8/8/8/r7/3P4/8/3K4 b D - 0 1");
    g.play_text("a4-d4").unwrap();
    assert!(
        g.position_string().contains(" w - "),
        "{}",
        g.position_string()
    );
    let mut g = common::game(&r, "4k3/8/8/8/r7/3P4/8/3K4 b D - 0 1");
    g.play_text("a4-b4").unwrap();
    assert!(
        g.position_string().contains(" w D "),
        "{}",
        g.position_string()
    );
    let mut list: Vec<String> = g.legal_moves().iter().map(|m| g.write_move(m)).collect();
    list.sort();
    // The Rook on b4 guards b2.
    assert!(list.contains(&"d1-f2".to_string()) && !list.contains(&"d1-b2".to_string()));
    // `an` may be left out: `lost when enemy Rook aims at d1` says the same.
    let text = std::fs::read_to_string(common::root().join("variants/cambodian.var")).unwrap();
    let bare = from_text(&text.replace("lost when an enemy", "lost when enemy"));
    let after = |r: &Arc<Rules>| {
        let mut g = common::game(r, "4k3/8/8/8/r7/3P4/8/3K4 b D - 0 1");
        g.play_text("a4-d4").unwrap();
        g.position_string()
    };
    assert_eq!(after(&bare), after(&r));
}

/// Plays `moves` in Shatar from `start` and returns the result: (outcome, winner,
/// reason).
fn shatar_end(start: &str, moves: &[&str]) -> (Outcome, Option<PlayerId>, String) {
    let r = rules("shatar.var");
    let mut g = common::game(&r, start);
    for m in moves {
        assert!(g.ending().is_none(), "{start} {moves:?}: over before {m}");
        g.play_text(m)
            .unwrap_or_else(|e| panic!("{start} {m}: {e}"));
    }
    let e = g
        .ending()
        .unwrap_or_else(|| panic!("{start} {moves:?}: no end"));
    (e.outcome, e.winner(), e.reason.clone())
}

#[test]
fn a_shatar_mate_counts_by_the_checks_that_led_to_it() {
    // Each final position is a mate; the results are the rule's, and Fairy-Stockfish
    // scores each the same (mate for the winner, 0 for a draw).
    // Smothered by the Knight alone: not allowed, the mover loses.
    let (outcome, winner, reason) = shatar_end("6rk/6pp/8/4N3/8/8/8/K7 w - - 0 1", &["e5f7"]);
    assert_eq!((outcome, winner), (Outcome::MOVER_LOSES, Some(PlayerId(1))));
    assert_eq!(reason, "White gave checkmate with Knight alone");
    // A Rook's mate on the back rank is a shak: it wins.
    let (outcome, winner, _) = shatar_end("7k/6pp/8/8/8/8/8/R5K1 w - - 0 1", &["a1a8"]);
    assert_eq!((outcome, winner), (Outcome::MOVER_WINS, Some(PlayerId(0))));
    // A Bishop's or a Pawn's mate with no check before it in the run: a draw.
    for (start, mate) in [
        ("6bk/7p/8/8/8/8/8/2B3K1 w - - 0 1", "c1b2"),
        ("7k/5K1p/6P1/8/8/8/8/8 w - - 0 1", "g6g7"),
    ] {
        let (outcome, winner, reason) = shatar_end(start, &[mate]);
        assert_eq!((outcome, winner), (Outcome::Draw, None), "{start}");
        assert_eq!(
            reason,
            "White gave checkmate without a check by Bers or Rook or Knight in its run"
        );
    }
    // Rook check, the King's one escape, the Bishop's mate: the run holds the shak.
    let start = "6k1/p1BN3p/4P3/8/8/8/8/KR6 w - - 0 1";
    let (outcome, winner, _) = shatar_end(start, &["b1g1", "g8h8", "c7e5"]);
    assert_eq!((outcome, winner), (Outcome::MOVER_WINS, Some(PlayerId(0))));
    // The check standing in a position read from a string starts the run.
    let checked = "6k1/p1BN3p/4P3/8/8/8/8/K5R1 b - - 0 1";
    let (outcome, _, _) = shatar_end(checked, &["g8h8", "c7e5"]);
    assert_eq!(outcome, Outcome::MOVER_WINS);
    // The same mate after a quiet move of White's: the run is the mate alone.
    let (outcome, winner, _) = shatar_end(start, &["b1g1", "g8h8", "a1a2", "a7a6", "c7e5"]);
    assert_eq!((outcome, winner), (Outcome::Draw, None));
    // The same mate from the position the run would have led to: no run before it.
    let (outcome, _, _) = shatar_end("7k/p1BN3p/4P3/8/8/8/8/K5R1 w - - 0 1", &["c7e5"]);
    assert_eq!(outcome, Outcome::Draw);
}

#[test]
fn a_bare_king_draws_shatar_at_once() {
    let (outcome, winner, reason) = shatar_end("7k/8/8/8/8/8/8/R5K1 w - - 0 1", &[]);
    assert_eq!((outcome, winner), (Outcome::Draw, None));
    assert_eq!(reason, "Black has only royal pieces");
}

#[test]
fn a_run_of_checks_is_taken_back_with_its_moves() {
    let r = rules("shatar.var");
    let start = position(&r, "6k1/p1BN3p/4P3/8/8/8/8/KR6 w - - 0 1");
    let mut pos = start.clone();
    let mut undos = vec![];
    let mut played = vec![];
    for text in ["b1g1", "g8h8", "a1a2", "a7a6"] {
        let m = variantlab::parse_move(&r, &pos, text).unwrap();
        undos.push(pos.make_unchecked(&r, &m));
        played.push(m);
        assert_eq!(pos.key(), pos.key_from_scratch(&r), "after {text}");
        if text == "b1g1" {
            assert_ne!(pos.run(PlayerId(0)), 0, "a Rook's check starts the run");
        }
    }
    assert_eq!(pos.run(PlayerId(0)), 0, "a quiet move ends the run");
    while let (Some(m), Some(u)) = (played.pop(), undos.pop()) {
        pos.unmake_unchecked(&r, &m, u);
    }
    assert_eq!(pos, start);
    assert_eq!(pos.key(), start.key());
}

#[test]
fn mate_rules_report_each_unknown_kind_and_a_game_without_royal_pieces() {
    let text = |royal: &str, ends: &str| {
        format!(
            "name \"Mates\"\nboard square 4 by 4\nplayer White: forward north, capitals\n\
             player Black: forward south, lowercase\npiece King (K) {{ {royal} step 1 any }}\n\
             piece Rook (R) {{ slide orthogonal }}\n\
             setup {{ White: King a1, Rook b1  Black: King d4, Rook c4 }}\ngame ends {{\n{ends}\n}}\n"
        )
    };
    let codes = |t: &str| -> Vec<(String, String)> {
        let checked = check("mates.var", t);
        checked
            .report
            .diagnostics
            .iter()
            .map(|d| (d.code.to_string(), d.message.clone()))
            .collect()
    };
    let ends = "checkmate given only by Knight: mover loses\n\
                checkmate without a check by Rook or Bers in its run: draw\ncheckmate: mover wins";
    let found = codes(&text("royal", ends));
    let unknown: Vec<&String> = found
        .iter()
        .filter(|(c, _)| c == "variantlab::unknown_piece")
        .map(|(_, m)| m)
        .collect();
    assert_eq!(unknown.len(), 2, "{found:?}");
    assert!(
        unknown[0].contains("Knight") && unknown[1].contains("Bers"),
        "{found:?}"
    );
    let ends = "checkmate given only by Rook: mover loses\n\
                checkmate without a check by Rook in its run: draw\nno legal move: draw";
    let found = codes(&text("", ends));
    let warned = found
        .iter()
        .filter(|(c, _)| c == "variantlab::checkmate_without_royal")
        .count();
    assert_eq!(warned, 2, "{found:?}");
    assert!(codes(&text("royal", ends)).is_empty());
}

/// The count after each move, and the outcome and reason once the game is over.
type Counted = (Vec<Option<(u32, u32)>>, Option<(Outcome, String)>);

/// Plays `moves` in Makruk from `start`; see [`Counted`].
fn makruk_counts(start: &str, moves: &[&str]) -> Counted {
    let r = rules("makruk.var");
    let mut g = common::game(&r, start);
    let mut counts = vec![];
    for m in moves {
        assert!(g.ending().is_none(), "{start} {moves:?}: over before {m}");
        g.play_text(m)
            .unwrap_or_else(|e| panic!("{start} {m}: {e}"));
        counts.push(g.position().count());
    }
    (counts, g.ending().map(|e| (e.outcome, e.reason.clone())))
}

#[test]
fn makruk_counts_moves_to_a_draw_by_the_material_left() {
    // Worked by hand from the rules of Makruk (board's honour and pieces' honour).
    // No Pawn left and both sides with pieces: the player to move counts 64 moves
    // (128 plies) from none.
    let (counts, end) = makruk_counts("4k3/3r4/8/8/8/8/2R5/3K4 w - - 0 1", &["d1c1", "e8f8"]);
    assert_eq!(counts, [Some((128, 0)), Some((128, 1))]);
    assert_eq!(end, None);
    // The Khon taken: Black has its King alone and counts again, 16 moves against one
    // Rook, from the four pieces left (8 plies).
    let running = "4k3/8/8/8/8/2s5/2R5/3K1N2 w - 128 10 20";
    let (counts, _) = makruk_counts(running, &["c2c3", "e8d7"]);
    assert_eq!(counts, [Some((32, 8)), Some((32, 9))]);
    // Two Rooks: 8 moves; the bare King that takes the last Pawn counts at once, one
    // ply short of the five pieces' ten.
    let (counts, _) = makruk_counts("8/8/8/7R/k6R/1P6/8/1N5K b - - 0 1", &["a4b3"]);
    assert_eq!(counts, [Some((16, 9))]);
    // The count runs out when more plies than its limit are counted: a draw.
    let last = "8/8/8/4k3/8/8/2R5/3K4 b - 32 31 40";
    let (counts, end) = makruk_counts(last, &["e5e6", "c2c3"]);
    assert_eq!(counts, [Some((32, 32)), Some((32, 33))]);
    assert_eq!(
        end,
        Some((Outcome::Draw, "the count of moves ran out".to_string()))
    );
    // A mate on the move that runs the count out still wins.
    let (_, end) = makruk_counts("k7/8/1K6/8/8/8/8/7R w - 32 32 40", &["h1h8"]);
    assert_eq!(end.map(|e| e.0), Some(Outcome::MOVER_WINS));
}

#[test]
fn a_running_count_is_written_in_the_position_string_and_read_back() {
    let r = rules("makruk.var");
    for text in [
        "8/8/8/4k3/8/8/2R5/3K4 b - 32 6 40",
        "4k3/3r4/8/8/8/8/2R5/2K5 b - 128 0 1",
    ] {
        let pos = position(&r, text);
        assert_eq!(write_position(&r, &pos.to_setup(&r)), text);
    }
    assert_eq!(
        position(&r, "8/8/8/4k3/8/8/2R5/3K4 b - 32 6 40").count(),
        Some((32, 6))
    );
    // Before a count starts the field counts plies since a capture or Pawn move.
    assert_eq!(
        position(&r, "8/8/8/4k3/8/8/2R5/3K4 b - - 6 40").count(),
        None
    );
    // A game without counts refuses a count.
    let chess = rules("chess.var");
    assert!(parse_position(&chess, "8/8/8/4k3/8/8/2R5/3K4 b - 32 6 40").is_err());
}

#[test]
fn cambodian_counts_always_and_draws_by_the_count_with_its_option() {
    // A Rook against a bare King: 15 moves, 30 plies; 30 counted, one more runs out.
    let last = "8/8/8/4k3/8/8/2R5/3K4 b - 30 30 40";
    for (on, over) in [(false, false), (true, true)] {
        let r = common::rules_with("cambodian.var", &[("count-draws", on)]);
        let mut g = common::game(&r, last);
        g.play_text("e5e6").unwrap();
        assert_eq!(g.position().count(), Some((30, 31)));
        assert_eq!(g.ending().is_some(), over, "count-draws {on}");
    }
}

#[test]
fn the_checkmated_player_wins_misere_chess() {
    let r = rules("misere.var");
    // The Fool's Mate, 1. f3 e5 2. g4 Qh4: White is checkmated and so wins.
    let g = common::game(
        &r,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    );
    let e = g.ending().expect("mate");
    assert_eq!(
        (e.outcome, e.winner()),
        (Outcome::MOVER_LOSES, Some(PlayerId(0)))
    );
    // Before Black's second move the mate is only on offer; the game goes on.
    let g = common::game(
        &r,
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
    );
    assert!(g.ending().is_none());
    // A stalemate is still a draw.
    let g = common::game(&r, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let e = g.ending().expect("stalemate");
    assert_eq!((e.outcome, e.winner()), (Outcome::Draw, None));
}
