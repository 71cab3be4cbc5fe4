//! Hands, drops, start hands, setups and position strings across the drop games:
//! position strings that keep every fact, and the notation of moves (Fairy-Stockfish's
//! counts for these games are checked with the others' in tests/suite/fsf.rs).

use crate::common;

use common::{Lcg, from_text, rules};
use std::sync::Arc;
use variantlab::{
    Game, PlayerId, Position, Rules, Setup, parse_move, parse_position, perft, write_move,
    write_move_at, write_position,
};

fn position(rules: &Arc<Rules>, text: &str) -> Position {
    let setup = parse_position(rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Position::from_setup(rules, &setup).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves of a position, as the game writes them.
fn move_texts(rules: &Arc<Rules>, text: &str) -> Vec<String> {
    let mut moves = Vec::new();
    position(rules, text).legal_moves(rules, &mut moves);
    moves
        .iter()
        .map(|m| write_move(rules.variant(), m))
        .collect()
}

/// Every variant file of the project.
fn variant_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(common::root().join("variants"))
        .expect("variants/")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".var"))
        .collect();
    files.sort();
    files
}

/// Plays seeded random games, and at every ply reads the position string back: the
/// same position (its key and string) must come out.
fn round_trip_random_games(file: &str, seeds: u64, plies: usize) {
    let r = rules(file);
    for seed in 0..seeds {
        let Ok(start) = Setup::seeded(&r, seed) else {
            continue;
        };
        let mut g = Game::new(r.clone(), start).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut rng = Lcg(seed * 7919 + 1);
        for ply in 0..plies {
            let text = g.position_string();
            let setup = parse_position(&r, &text)
                .unwrap_or_else(|e| panic!("{file} seed {seed} ply {ply}: `{text}`: {e}"));
            let back = Position::from_setup(&r, &setup)
                .unwrap_or_else(|e| panic!("{file} seed {seed} ply {ply}: `{text}`: {e}"));
            // A string does not carry a run of checks (language.md, mates judged by
            // their checks): where the runs differ, the rest must still agree.
            let runs_agree = (0..back.players())
                .map(PlayerId)
                .all(|p| back.run(p) == g.position().run(p));
            if runs_agree {
                assert_eq!(
                    back.key(),
                    g.position().key(),
                    "{file} seed {seed} ply {ply}: `{text}` reads back as another position"
                );
            } else {
                assert_eq!(
                    back.to_setup(&r),
                    g.position().to_setup(&r),
                    "{file}: `{text}`"
                );
            }
            assert_eq!(write_position(&r, &back.to_setup(&r)), text, "{file}");
            let moves = g.legal_moves();
            if moves.is_empty() || g.ending().is_some() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            // The move's text names it alone among the legal moves.
            let named = write_move_at(&r, g.position(), &m);
            let read = parse_move(&r, g.position(), &named)
                .unwrap_or_else(|e| panic!("{file}: `{named}` at `{text}`: {e}"));
            assert_eq!(
                read, m,
                "{file}: `{named}` at `{text}` reads as another move"
            );
            g.play(m).unwrap();
        }
    }
}

#[test]
fn every_position_reached_in_random_play_round_trips_in_every_variant() {
    for file in variant_files() {
        round_trip_random_games(&file, 4, 120);
    }
}

#[test]
fn crazyhouse_reads_and_writes_fairy_stockfish_fen() {
    let r = rules("crazyhouse.var");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    assert_eq!(write_position(&r, &Setup::start(&r)), start);
    // A promoted Queen (`q~`) goes to hand as a Pawn when captured.
    let text = "4k3/8/8/8/8/8/4K3/q~6R[p] w - - 0 1";
    let setup = parse_position(&r, text).unwrap();
    assert_eq!(write_position(&r, &setup), text);
    let mut g = Game::new(r.clone(), setup).unwrap();
    g.play_text("h1a1").unwrap();
    assert_eq!(g.position_string(), "4k3/8/8/8/8/8/4K3/R7[Pp] b - - 0 1");
}

#[test]
fn a_pawn_promoting_in_a_hand_variant_reads_back() {
    // After b7b8=R the board holds five Rooks; the promoted one is marked and counts
    // as the Pawn it was.
    let r = rules("crazyhouse.var");
    let mut g = Game::new(
        r.clone(),
        parse_position(&r, "r3k2r/1P6/8/8/8/8/8/R3K2R[] w KQkq - 0 1").unwrap(),
    )
    .unwrap();
    g.play_text("b7b8r").unwrap();
    let text = g.position_string();
    assert_eq!(text, "rR~2k2r/8/8/8/8/8/8/R3K2R[] b KQkq - 0 1");
    position(&r, &text);
}

#[test]
fn drops_and_promotions_are_written_in_the_games_own_notation() {
    // UCI for the chess family with hands, USI for the shogi family.
    let r = rules("crazyhouse.var");
    let texts = move_texts(&r, "4k3/1P6/8/8/8/8/8/4K3[N] w - - 0 1");
    assert!(texts.contains(&"b7b8q".to_string()), "{texts:?}");
    assert!(texts.contains(&"N@e4".to_string()), "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains('=') || t.contains('*')));
    let s = rules("shogi.var");
    let texts = move_texts(&s, "4k4/9/9/9/9/9/9/9/4K4 b P 1");
    assert!(texts.contains(&"P*5e".to_string()), "{texts:?}");
}

#[test]
fn pawns_are_never_dropped_on_the_first_rank() {
    let r = rules("crazyhouse.var");
    let drops: Vec<String> = move_texts(&r, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
        .into_iter()
        .filter(|t| t.starts_with("P@"))
        .collect();
    // 64 cells less the two Kings, the first and the last rank.
    assert_eq!(drops.len(), 48, "{drops:?}");
    assert!(!drops.iter().any(|t| t.ends_with('1') || t.ends_with('8')));
}

const TWO_WAY_PAWNS: &str = r#"
name "Two-way pawns"
board square 8 by 8
player White: forward north, capitals
player Black: forward south, lowercase
piece King (K) { royal step 1 any }
piece Pawn (P) {
  step 1 straight forward, to empty
  step 2 straight forward, to empty, from start, en passant by Pawn
  step 2 forward diagonal, to empty, from start, en passant by Pawn
  step 1 forward diagonal, to enemy
}
setup {
  White: King h1, Pawn b3 c3
  Black: King h8, Pawn b6
}
game ends { checkmate: mover wins  stalemate: draw }
"#;

#[test]
fn the_en_passant_field_says_which_piece_passed_when_two_could_have() {
    // 1.c3-c5 b6-b5 2.b3-d5 and 1.b3-d5 b6-b5 2.c3-c5 both leave c4 passed, by d5 in
    // the first game and by c5 in the second; b5xc4 takes the piece that passed it.
    let r = from_text(TWO_WAY_PAWNS);
    let play = |moves: &[&str]| {
        let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
        for m in moves {
            g.play_text(m).unwrap();
        }
        g
    };
    let a = play(&["c3-c5", "b6-b5", "b3-d5"]);
    let b = play(&["b3-d5", "b6-b5", "c3-c5"]);
    assert_ne!(a.position_string(), b.position_string());
    for (g, taken) in [(a, "d5"), (b, "c5")] {
        let text = g.position_string();
        let mut h = Game::new(r.clone(), parse_position(&r, &text).unwrap()).unwrap();
        h.play_text("b5xc4").unwrap();
        let cell = r.variant().board.parse_cell(taken).unwrap();
        assert_eq!(h.position().at(cell), None, "{text}: b5xc4 takes {taken}");
    }
}

const SHARED_ROOK: &str = r#"
name "Two castlings on one Rook"
board square 8 by 8
player White: forward north, capitals
player Black: forward south, lowercase
piece King (K) { royal step 1 any }
piece Rook (R) { slide orthogonal }
setup {
  White: King e1, Rook h1
  Black: King e8, Rook h8
}
castling White: King e1 to g1 and Rook h1 to f1, empty f1 g1
castling White: King e1 to f1 and Rook h1 to g1, empty f1 g1
castling Black: King e8 to g8 and Rook h8 to f8, empty f8 g8
game ends { checkmate: mover wins  stalemate: draw }
"#;

#[test]
fn castlings_sharing_king_and_rook_keep_their_own_rights() {
    let r = from_text(SHARED_ROOK);
    let start = write_position(&r, &Setup::start(&r));
    let again = parse_position(&r, &start).unwrap();
    assert_eq!(again.castling.len(), 3, "{start}");
    let mut a = Position::start(&r).unwrap();
    let mut b = position(&r, &start);
    assert_eq!(perft(&r, &mut a, 3), perft(&r, &mut b, 3), "{start}");
    // The second castling moves the King e1-f1, as its plain step does: it is written
    // as the King taking its Rook, and each move has its own text.
    let mut moves = Vec::new();
    a.legal_moves(&r, &mut moves);
    let mut texts: Vec<String> = moves.iter().map(|m| write_move(r.variant(), m)).collect();
    assert!(texts.contains(&"e1-h1".to_string()), "{texts:?}");
    texts.sort();
    let n = texts.len();
    texts.dedup();
    assert_eq!(texts.len(), n, "a text names two moves");
}

#[test]
fn overlapping_random_lines_are_refused() {
    let text = r#"
name "Overlap"
board square 4 by 4
player White: forward north, capitals
player Black: forward south, lowercase
piece King (K) { royal step 1 any }
piece Bishop (B) { slide diagonal }
setup random {
  White: King on a1 b1
  White: Bishop on b1 c1
  Black: King on a4 b4 c4
}
game ends { checkmate: mover wins }
"#;
    let checked = variantlab::check("overlap.var", text);
    assert!(checked.variant.is_none());
    assert!(
        checked
            .report
            .diagnostics
            .iter()
            .any(|d| d.code == "variantlab::occupied_cell")
    );
}

#[test]
fn zone_entries_may_be_separated_by_commas() {
    let text = r#"
name "Camp"
board square 3 by 7
player White: forward north, capitals
player Black: forward south, lowercase
zone camp { White: a7 b7 c7, Black: a1 b1 c1 }
piece King (K) { royal step 1 any }
piece Pawn (P) { step 1 straight forward promotes on entering camp to King }
setup { White: King b1, Pawn a2  Black: King b7 }
game ends { checkmate: mover wins }
"#;
    let checked = variantlab::check("camp.var", text);
    assert!(
        checked.variant.is_some(),
        "{:?}",
        checked.report.diagnostics
    );
}

#[test]
fn a_syntax_error_in_a_piece_is_not_also_an_unknown_promoted_code() {
    let text = r#"
name "Cascade"
board square 5 by 5
player White: forward north, capitals
player Black: forward south, lowercase
piece Pawn (P) {
  stepp 1 straight forward
}
piece Tokin (+P) {
  step 1 any
}
setup { White: Tokin a1  Black: Tokin e5 }
game ends { no legal move: mover wins }
"#;
    let checked = variantlab::check("cascade.var", text);
    let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
    assert!(!codes.contains(&"variantlab::unknown_code"), "{codes:?}");
    assert!(!codes.is_empty());
}

#[test]
fn the_far_edge_of_a_pointy_topped_hexagon_is_its_last_rank() {
    // North on a pointy-topped board is a diagonal that jumps two ranks; the zone is
    // the far edge all the same: the top rank's cells and no others.
    let text = r#"
name "Pointy far"
board hexagon side 3 pointy-topped
player White: forward north, capitals
player Black: forward south, lowercase
zone far: last cell of each file
piece King (K) { royal step 1 any }
setup { White: King 3e  Black: King 3a }
game ends { checkmate: mover wins }
"#;
    let v = variantlab::check("pointy.var", text)
        .variant
        .expect("checks");
    let far = &v.zones[0].cells[0];
    let top: Vec<_> = v
        .board
        .cells()
        .filter(|c| v.board.name(*c).ends_with('a'))
        .collect();
    let mut far = far.clone();
    far.sort();
    assert_eq!(far, top);
}

#[test]
fn placement_opens_with_drops_on_each_players_first_rank() {
    let r = rules("placement.var");
    let start = "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1";
    assert_eq!(write_position(&r, &Setup::start(&r)), start);
    // Five kinds in hand, eight cells: no Pawn may move while a drop is legal.
    let mut texts = move_texts(&r, start);
    texts.sort();
    let mut expected: Vec<String> = "KQRBN"
        .chars()
        .flat_map(|k| ('a'..='h').map(move |f| format!("{k}@{f}1")))
        .collect();
    expected.sort();
    assert_eq!(texts, expected);
    // A full first rank leaves the Rook in hand and lets the pieces move.
    let texts = move_texts(&r, "4k3/8/8/8/8/8/8/RNBQKBNR[R] w - - 0 1");
    assert!(texts.contains(&"b1c3".to_string()), "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains('@')), "{texts:?}");
}

#[test]
fn placement_keeps_a_cell_of_the_other_colour_for_the_second_bishop() {
    // c1 is dark; b1, d1 and f1 are taken, so h1 is the last light cell: it is kept
    // for the Bishop, which may go nowhere else.
    let r = rules("placement.var");
    let mut texts = move_texts(
        &r,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBN1R2[KQRB] w - - 0 9",
    );
    texts.sort();
    let mut expected = vec!["B@h1".to_string()];
    for k in ["K", "Q", "R"] {
        for c in ["a1", "e1", "g1"] {
            expected.push(format!("{k}@{c}"));
        }
    }
    expected.sort();
    assert_eq!(texts, expected);
}

#[test]
fn a_king_and_rook_dropped_on_their_starts_may_castle() {
    let r = rules("placement.var");
    let mut g = Game::new(
        r.clone(),
        parse_position(
            &r,
            "4k3/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNqrrbbnn] w - - 0 3",
        )
        .unwrap(),
    )
    .unwrap();
    // The Rook comes first, with no King yet: no right; the King completes the pair.
    g.play_text("R@h1").unwrap();
    assert!(
        g.position_string().contains(" b - "),
        "{}",
        g.position_string()
    );
    g.play_text("r@a8").unwrap();
    assert!(
        g.position_string().contains(" w q "),
        "{}",
        g.position_string()
    );
    g.play_text("K@e1").unwrap();
    assert!(
        g.position_string().contains(" b Kq "),
        "{}",
        g.position_string()
    );
    // A Rook dropped where its King already stands gains the right at once.
    for m in ["r@h8", "Q@d1", "q@d8", "R@a1"] {
        g.play_text(m).unwrap();
    }
    assert!(
        g.position_string().contains(" b KQkq "),
        "{}",
        g.position_string()
    );
    // Castling goes as in chess once the hand is empty and the way is clear.
    for m in [
        "b@c8", "B@c1", "b@f8", "B@f1", "n@b8", "N@b1", "n@g8", "N@g1", "g8f6", "g1f3", "g7g6",
        "g2g3", "f8g7", "f1g2",
    ] {
        g.play_text(m).unwrap();
    }
    g.play_text("e8g8").unwrap();
    assert!(
        g.position_string().starts_with("rnbq1rk1/"),
        "{}",
        g.position_string()
    );
}

#[test]
fn a_royal_piece_is_never_dropped_where_it_stands_attacked() {
    // The Rook on a1 sweeps the a-file and b1 to d1 (the King on e1 stops it); the King
    // guards d1, f1 and d2 to f2. Of the 62 empty cells, 14 are attacked.
    let r = rules("crazyhouse.var");
    let texts = move_texts(&r, "8/8/8/8/8/8/8/R3K3[k] b - - 0 1");
    for c in ["a2", "a8", "b1", "c1", "d1", "f1", "d2", "e2", "f2"] {
        assert!(!texts.contains(&format!("K@{c}")), "{texts:?}");
    }
    assert!(texts.contains(&"K@g1".to_string()), "{texts:?}");
    assert_eq!(texts.len(), 62 - 14, "{texts:?}");
}
