//! The shogi family: hands, drops, promotion zones and their endings, on Shogi and
//! Hex Shogi 91. Expected counts come from published perft tables and hand-worked
//! positions.

use crate::common;

use common::{Lcg, from_text, rules};
use std::sync::Arc;
use variantlab::{
    Game, MoveError, Outcome, PlayError, Position, PositionError, PositionField, PositionTextError,
    Rules, Setup, Special, parse_position, perft, write_move, write_position,
};

const SHOGI: &str = "shogi.var";
const HEX: &str = "hex-shogi-91.var";
const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

fn position(rules: &Arc<Rules>, text: &str) -> Position {
    let setup = parse_position(rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Position::from_setup(rules, &setup).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(text: &str, rules: &Arc<Rules>) -> Vec<String> {
    let mut out = Vec::new();
    position(rules, text).legal_moves(rules, &mut out);
    let mut names: Vec<String> = out.iter().map(|m| write_move(rules.variant(), m)).collect();
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
fn position_strings_round_trip_through_random_play() {
    // SFEN for Shogi; the position string with its hands field for Hex Shogi 91.
    for file in [SHOGI, HEX] {
        let r = rules(file);
        let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
        let mut rng = Lcg(11);
        let mut dropped = 0;
        for _ in 0..300 {
            let moves = g.legal_moves();
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
            let text = write_move(r.variant(), &m);
            g.play_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            if g.ending().is_some() {
                break;
            }
            let sfen = g.position_string();
            let back = parse_position(&r, &sfen).expect("reads back");
            assert_eq!(write_position(&r, &back), sfen);
            // SFEN has no count of quiet plies; everything else comes back.
            let again = Position::from_setup(&r, &back).unwrap();
            assert_eq!(again.key(), g.position().key());
        }
        assert!(dropped > 0, "{file}: the game should have dropped pieces");
    }
}

/// A position from pieces given as (player, piece, cell), the side to move and hands.
fn placed(
    rules: &Arc<Rules>,
    pieces: &[(&str, &str, &str)],
    to_move: &str,
    hands: &[(&str, &str)],
) -> Setup {
    let v = &rules.variant();
    let mut setup = Setup::start(rules);
    setup.cells.iter_mut().for_each(|c| *c = None);
    for (player, piece, cell) in pieces {
        let c = v.board.parse_cell(cell).unwrap_or_else(|| panic!("{cell}"));
        setup.cells[c.index()] =
            Some((v.find_player(player).unwrap(), v.find_piece(piece).unwrap()));
    }
    setup.to_move = v.find_player(to_move).unwrap();
    setup.hands = hands
        .iter()
        .map(|(pl, pc)| (v.find_player(pl).unwrap(), v.find_piece(pc).unwrap()))
        .collect();
    setup
}

fn moves_of(rules: &Arc<Rules>, setup: &Setup) -> Vec<String> {
    let pos = Position::from_setup(rules, setup).unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    pos.legal_moves(rules, &mut out);
    let mut names: Vec<String> = out.iter().map(|m| write_move(rules.variant(), m)).collect();
    names.sort();
    names
}

fn drops_of(names: &[String], code: &str) -> Vec<String> {
    names
        .iter()
        .filter(|m| m.starts_with(&format!("{code}*")))
        .cloned()
        .collect()
}

#[test]
fn shogi_pawn_drops_skip_files_with_own_pawns_and_the_last_rank() {
    let r = rules(SHOGI);
    // Black: King 5i, Pawn 5g, a Pawn in hand. White: King 5a.
    let names = moves("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", &r);
    let drops = drops_of(&names, "P");
    // Files 1-4 and 6-9, ranks b-i: 8 x 8 cells, none of them occupied.
    assert_eq!(drops.len(), 64, "{drops:?}");
    assert!(drops.iter().all(|d| !d.starts_with("P*5")), "{drops:?}");
    assert!(!drops.contains(&"P*4a".to_string()));
    assert!(drops.contains(&"P*4b".to_string()));
    // A promoted Pawn does not count: with a Tokin on 5g, file 5 is open again.
    let names = moves("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1", &r);
    assert!(names.contains(&"P*5h".to_string()), "{names:?}");
}

#[test]
fn shogi_knights_and_lances_are_never_dropped_where_they_could_never_move() {
    let r = rules(SHOGI);
    let names = moves("4k4/9/9/9/9/9/9/9/4K4 b NL 1", &r);
    let knights = drops_of(&names, "N");
    let lances = drops_of(&names, "L");
    // 81 cells less the two Kings; Knights lose ranks a and b, Lances rank a.
    assert_eq!(knights.len(), 79 - 18 + 1, "{knights:?}");
    assert_eq!(lances.len(), 79 - 9 + 1, "{lances:?}");
    assert!(!knights.contains(&"N*3b".to_string()));
    assert!(knights.contains(&"N*3c".to_string()));
    assert!(!lances.contains(&"L*3a".to_string()));
}

#[test]
fn shogi_pawn_drop_may_check_but_not_mate() {
    let r = rules(SHOGI);
    // White: King 1a boxed in by its own Knight 2a and Pawn 2b; Black's Gold on 2c
    // guards 1b. P*1b would mate: refused. A Gold dropped there mates: allowed.
    let names = moves("7nk/7p1/7G1/9/9/9/9/9/K8 b GP 1", &r);
    assert!(!names.contains(&"P*1b".to_string()), "{names:?}");
    assert!(names.contains(&"G*1b".to_string()));
    assert!(names.contains(&"P*1c".to_string()));
    // Without the Gold the King takes the Pawn: a check, not a mate, and allowed.
    let names = moves("7nk/7p1/9/9/9/9/9/9/K8 b GP 1", &r);
    assert!(names.contains(&"P*1b".to_string()), "{names:?}");
}

#[test]
fn shogi_drops_answer_a_check_only_by_blocking() {
    let r = rules(SHOGI);
    // White's Rook on 5a checks Black's King on 5i down the file; Black holds a Gold.
    let names = moves("4r3k/9/9/9/9/9/9/9/4K4 b G 1", &r);
    let drops = drops_of(&names, "G");
    let want: Vec<String> = ["5b", "5c", "5d", "5e", "5f", "5g", "5h"]
        .iter()
        .map(|c| format!("G*{c}"))
        .collect();
    assert_eq!(drops, want);
}

#[test]
fn shogi_promotion_into_from_forced_and_declined() {
    let r = rules(SHOGI);
    // Into the zone: a Silver from 5d to 5c may promote or not.
    let names = moves("k8/9/9/4S4/9/9/9/9/8K b - 1", &r);
    assert!(names.contains(&"5d5c".to_string()) && names.contains(&"5d5c+".to_string()));
    // Out of the zone: a Silver from 5c back to 4d may promote too.
    let names = moves("k8/9/4S4/9/9/9/9/9/8K b - 1", &r);
    assert!(names.contains(&"5c4d".to_string()) && names.contains(&"5c4d+".to_string()));
    // Outside the zone altogether: no promotion.
    let names = moves("k8/9/9/9/4S4/9/9/9/8K b - 1", &r);
    assert!(names.contains(&"5e5d".to_string()) && !names.contains(&"5e5d+".to_string()));
    // Forced: a Pawn reaching the last rank, a Knight reaching the last two.
    let names = moves("k8/4P4/9/9/9/9/9/9/8K b - 1", &r);
    assert!(names.contains(&"5b5a+".to_string()) && !names.contains(&"5b5a".to_string()));
    let names = moves("k8/9/9/4N4/9/9/9/9/8K b - 1", &r);
    assert!(names.contains(&"5d4b+".to_string()) && !names.contains(&"5d4b".to_string()));
    let names = moves("k8/9/9/9/4N4/9/9/9/8K b - 1", &r);
    assert!(names.contains(&"5e4c".to_string()) && names.contains(&"5e4c+".to_string()));
    // USI: `+` promotes, `=` or nothing declines; a forced promotion cannot be declined.
    let start = parse_position(&r, "k8/9/9/4S4/9/9/9/9/8K b - 1").unwrap();
    let mut g = Game::new(r.clone(), start.clone()).unwrap();
    let m = g.play_text("5d5c+").unwrap();
    assert_eq!(m.promotion, r.variant().find_piece("+S"));
    let mut g = Game::new(r.clone(), start.clone()).unwrap();
    assert_eq!(g.play_text("5d5c=").unwrap().promotion, None);
    let mut g = Game::new(r.clone(), start).unwrap();
    assert_eq!(g.play_text("5d5c").unwrap().promotion, None);
    let forced = parse_position(&r, "k8/4P4/9/9/9/9/9/9/8K b - 1").unwrap();
    let mut g = Game::new(r.clone(), forced).unwrap();
    assert!(g.play_text("5b5a=").is_err());
    assert!(g.play_text("5b5a").is_err());
    assert!(g.play_text("5b5a+").is_ok());
}

#[test]
fn promotion_through_a_zone_needs_the_word_through() {
    let text = |when: &str| {
        format!(
            r#"
            name "Corridor"
            board square 2 by 6
            player White: forward north, capitals
            player Black: forward south, lowercase
            zone middle {{ White: a3 a4 b3 b4  Black: a3 a4 b3 b4 }}
            piece Runner (R) {{ slide orthogonal  may promote on moving {when} middle to Flyer }}
            piece Hopper (H) {{ leap 3 straight forward  may promote on moving {when} middle to Flyer }}
            piece Flyer (F) {{ step 1 any }}
            setup {{ White: Runner a1, Hopper b2 }}
            game ends {{ no legal move: mover wins }}
            "#
        )
    };
    let names = |r: &Arc<Rules>| {
        let mut out = Vec::new();
        Position::start(r).unwrap().legal_moves(r, &mut out);
        let mut v: Vec<String> = out.iter().map(|m| write_move(r.variant(), m)).collect();
        v.sort();
        v
    };
    let through = from_text(&text("through"));
    let all = names(&through);
    // The Runner crosses a3 and a4 to a5 and a6: it may promote; a Runner stopping in
    // the zone passes no zone cell (a3) or only a3 (a4) ...
    assert!(all.contains(&"a1-a5=F".to_string()) && all.contains(&"a1-a5".to_string()));
    assert!(all.contains(&"a1-a6=F".to_string()));
    assert!(all.contains(&"a1-a4=F".to_string()), "passes a3: {all:?}");
    assert!(
        !all.contains(&"a1-a3=F".to_string()),
        "passes nothing: {all:?}"
    );
    // ... and a leap passes nothing.
    assert!(all.contains(&"b2-b5".to_string()), "{all:?}");
    assert!(!all.iter().any(|m| m.starts_with("b2-b5=")), "{all:?}");
    let into = names(&from_text(&text("into")));
    assert!(into.contains(&"a1-a3=F".to_string()));
    assert!(!into.contains(&"a1-a5=F".to_string()), "{into:?}");
}

#[test]
fn hex_shogi_pawns_are_not_dropped_where_own_pawns_attack_nor_to_give_check() {
    let r = rules(HEX);
    // Black's Pawn on 6f attacks 6e and 7e.
    let setup = placed(
        &r,
        &[
            ("Black", "King", "4j"),
            ("White", "King", "8b"),
            ("Black", "Pawn", "6f"),
        ],
        "Black",
        &[("Black", "Pawn")],
    );
    let drops = drops_of(&moves_of(&r, &setup), "P");
    assert!(!drops.contains(&"P*6e".to_string()) && !drops.contains(&"P*7e".to_string()));
    assert!(drops.contains(&"P*5e".to_string()) && drops.contains(&"P*6g".to_string()));
    // Never on rank a, where a Pawn could never move; the file rule of Shogi is gone:
    // 6g is on the Pawn's own file.
    assert!(!drops.iter().any(|d| d.ends_with('a')), "{drops:?}");
    // 91 cells, less 3 occupied, 6 on rank a, 2 attacked by the Pawn, and 8c and 7c,
    // from which a Pawn would check White's King on 8b.
    assert!(!drops.contains(&"P*8c".to_string()) && !drops.contains(&"P*7c".to_string()));
    assert_eq!(drops.len(), 91 - 3 - 6 - 2 - 2, "{drops:?}");
    // White's King on 6c: Pawns on 6d and 5d would check it.
    let setup = placed(
        &r,
        &[("Black", "King", "4j"), ("White", "King", "6c")],
        "Black",
        &[("Black", "Pawn")],
    );
    let drops = drops_of(&moves_of(&r, &setup), "P");
    assert!(!drops.contains(&"P*6d".to_string()) && !drops.contains(&"P*5d".to_string()));
    assert!(drops.contains(&"P*7d".to_string()));
    assert_eq!(drops.len(), 91 - 2 - 6 - 2, "{drops:?}");
}

#[test]
fn hex_shogi_promotion_zone_is_the_far_four_ranks() {
    let r = rules(HEX);
    let silver_moves = |cell: &str| {
        let setup = placed(
            &r,
            &[
                ("Black", "King", "1k"),
                ("White", "King", "11a"),
                ("Black", "Silver", cell),
            ],
            "Black",
            &[],
        );
        moves_of(&r, &setup)
            .into_iter()
            .filter(|m| m.starts_with(cell))
            .collect::<Vec<_>>()
    };
    // From 6e (rank e, outside) forward to 6d and 7d (rank d, inside): optional.
    let m = silver_moves("6e");
    assert!(
        m.contains(&"6e6d+".to_string()) && m.contains(&"6e6d".to_string()),
        "{m:?}"
    );
    // From 6g nothing reaches the zone.
    assert!(silver_moves("6g").iter().all(|m| !m.ends_with('+')));
    // A Pawn reaching rank a must promote; a Knight reaching rank b must too.
    let setup = placed(
        &r,
        &[
            ("Black", "King", "1k"),
            ("White", "King", "11a"),
            ("Black", "Pawn", "8b"),
            ("Black", "Knight", "5e"),
        ],
        "Black",
        &[],
    );
    let m = moves_of(&r, &setup);
    let pawn: Vec<_> = m.iter().filter(|x| x.starts_with("8b")).collect();
    assert!(
        !pawn.is_empty() && pawn.iter().all(|x| x.ends_with('+')),
        "{pawn:?}"
    );
    let knight: Vec<_> = m.iter().filter(|x| x.starts_with("5e")).collect();
    assert_eq!(
        knight.len(),
        6,
        "two cells on rank b forced, two on c optional: {knight:?}"
    );
}

#[test]
fn fourfold_repetition_draws() {
    let r = rules(SHOGI);
    let start = parse_position(&r, "4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
    let mut g = Game::new(r.clone(), start).unwrap();
    let cycle = ["5i4i", "5a4a", "4i5i", "4a5a"];
    for (i, m) in cycle.iter().cycle().take(12).enumerate() {
        assert!(g.ending().is_none(), "ended after {i} plies");
        g.play_text(m).unwrap();
    }
    let e = g.ending().expect("the start occurred a fourth time");
    assert_eq!(e.outcome, Outcome::Draw);
    assert_eq!(e.winner(), None);
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    let r = rules(SHOGI);
    // Black's Rook checks along rank a, then rank b, as White's King steps between.
    let start = parse_position(&r, "8k/9/R8/9/9/9/9/9/K8 b - 1").unwrap();
    let mut g = Game::new(r.clone(), start).unwrap();
    g.play_text("9c9a").unwrap();
    let cycle = ["1a1b", "9a9b", "1b1a", "9b9a"];
    let mut plies = 1;
    while g.ending().is_none() && plies < 40 {
        g.play_text(cycle[(plies - 1) % 4]).unwrap();
        plies += 1;
    }
    // The position after the first check occurs a fourth time at ply 13.
    assert_eq!(plies, 13);
    let e = g.ending().unwrap();
    assert_eq!(e.outcome, Outcome::CHECKER_LOSES);
    assert_eq!(e.winner(), r.variant().find_player("White"), "{}", e.reason);
}

#[test]
fn bad_sfen_is_refused_naming_the_field_and_the_reason() {
    let r = rules(SHOGI);
    let refuse = |text: &str| -> PositionError {
        let setup = parse_position(&r, text).expect(text);
        Position::from_setup(&r, &setup).expect_err(text)
    };
    let unreadable =
        |text: &str| -> PositionTextError { parse_position(&r, text).expect_err(text) };
    // Too many pieces in hand: the start already has all 18 Pawns on the board.
    let e = refuse("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1");
    assert!(
        matches!(e, PositionError::Illegal { field: "hands", .. }),
        "{e}"
    );
    assert!(
        e.to_string().contains("19 Pawns") && e.to_string().contains("only 18"),
        "{e}"
    );
    // A Pawn on the last rank could never move.
    let e = refuse("4P4/9/9/9/4k4/9/9/9/4K4 b - 1");
    assert!(
        matches!(e, PositionError::Illegal { field: "board", .. }),
        "{e}"
    );
    assert!(e.to_string().contains("Pawn on 5a could never move"), "{e}");
    // An unknown piece letter, on the board and in hand.
    let e = unreadable("4k4/9/9/9/4X4/9/9/9/4K4 b - 1");
    assert_eq!(e.field(), PositionField::Board, "{e}");
    assert!(
        e.to_string()
            .contains("row 5, at 5e: `X4` is not a piece code"),
        "{e}"
    );
    let e = unreadable("4k4/9/9/9/9/9/9/9/4K4 b 2Z 1");
    assert_eq!(e, PositionTextError::UnknownHandCode("Z".into()));
    assert_eq!(e.field(), PositionField::Hands);
    // A promoted piece in hand.
    let e = refuse("4k4/9/9/9/9/9/9/9/4K4 b +P 1");
    assert!(
        matches!(e, PositionError::Illegal { field: "hands", .. }),
        "{e}"
    );
}

#[test]
fn a_drop_onto_an_occupied_cell_is_refused_with_the_reason() {
    let r = rules(SHOGI);
    let start = parse_position(&r, "4k4/9/9/9/9/9/4P4/9/4K4 b G 1").unwrap();
    let mut g = Game::new(r.clone(), start).unwrap();
    let before = g.position_string();
    match g.play_text("G*5g") {
        Err(PlayError::Text(MoveError::Drop { reason, .. })) => {
            assert!(reason.contains("occupied"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    match g.play_text("S*5f") {
        Err(PlayError::Text(MoveError::Drop { reason, .. })) => {
            assert!(reason.contains("none in hand"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        g.position_string(),
        before,
        "a refused move changes nothing"
    );
    let m = g.play_text("G*5f").unwrap();
    assert_eq!(m.special, Special::Drop);
    // SFEN counts plies: the drop was the first.
    assert_eq!(g.position_string(), "4k4/9/9/9/9/4G4/4P4/9/4K4 w - 2");
}

/// Runs the command-line tool with `args` and `input`, returning its standard output.
fn cli(args: &[&str], input: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .current_dir(common::root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("writes");
    let out = child.wait_with_output().expect("finishes");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_commands_speak_usi_and_show_hands() {
    let moves = cli(
        &[
            "moves",
            "variants/shogi.var",
            "--position",
            "4k4/9/9/9/9/9/4P4/9/4K4 b G 1",
        ],
        "",
    );
    let lines: Vec<&str> = moves.lines().collect();
    assert!(
        lines.contains(&"G*5f") && lines.contains(&"5g5f"),
        "{moves}"
    );
    assert!(!lines.contains(&"G*5g"), "{moves}");
    let perft = cli(&["perft", "variants/shogi.var", "--depth", "2"], "");
    assert!(perft.contains("nodes 900"), "{perft}");
    // A capture puts the Bishop in Black's hand, shown under the board.
    let play = cli(
        &["play", "variants/shogi.var"],
        "7g7f\n3c3d\n8h2b+\nboard\nquit\n",
    );
    assert!(play.contains("Black in hand: Bishop"), "{play}");
    assert!(play.contains("White in hand: -"), "{play}");
}

#[test]
fn the_engine_sees_that_perpetual_check_loses() {
    use variantlab::{Limits, think_in_game};
    let r = rules(SHOGI);
    // As above, but White also has a Rook and a Gold: Black, behind, would welcome a
    // draw by repetition, yet checking a fourth time round the cycle loses.
    let start = parse_position(&r, "8k/9/R8/9/9/9/2rg5/9/K8 b - 1").unwrap();
    let mut g = Game::new(r.clone(), start).unwrap();
    g.play_text("9c9a").unwrap();
    let cycle = ["1a1b", "9a9b", "1b1a", "9b9a"];
    for ply in 1..12 {
        g.play_text(cycle[(ply - 1) % 4]).unwrap();
    }
    assert!(g.ending().is_none());
    // The check that completes the cycle loses for Black ...
    let mut trial = g.clone();
    trial.play_text("9b9a").unwrap();
    assert_eq!(
        trial.ending().map(|e| e.outcome),
        Some(Outcome::CHECKER_LOSES)
    );
    // ... so the engine plays something else.
    let t = think_in_game(
        &mut variantlab::Searcher::new(r.clone(), 16),
        &g,
        &Limits::depth(2),
    );
    let best = t.best.expect("Black has moves");
    assert_ne!(write_move(r.variant(), &best), "9b9a");
}

/// A small board with hands and no setup, so that a position may hold any number of
/// pieces; Pawns take diagonally forward.
const SMALL_HANDS: &str = r#"
    name "Small Hands"
    board square 5 by 5
    player Black: forward north, capitals
    player White: forward south, lowercase
    captured pieces go to hand
    piece King (K) { royal  step 1 any }
    piece Pawn (P) { step 1 straight forward, to empty  step 1 forward diagonal, to enemy }
    game ends { no legal move: mover wins }
"#;

#[test]
fn hands_never_wrap_their_counts() {
    let r = from_text(SMALL_HANDS);
    // 255 Pawns in hand and one to capture: counted in a byte, the hand would wrap to
    // none while its drops were still listed. More pieces than the board has cells
    // are refused before that.
    let setup = parse_position(&r, "k4/5/5/1p3/P3K b 255P 1").unwrap();
    let e = Position::from_setup(&r, &setup).expect_err("refused");
    assert!(
        matches!(e, PositionError::Illegal { field: "hands", .. }),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("259 pieces on the board and in hand, more than the board's 25 cells"),
        "{e}"
    );
    // Counts given twice add up, and are refused the same way.
    let setup = parse_position(&r, "k4/5/5/1p3/P3K b 200P100P 1").unwrap();
    assert!(Position::from_setup(&r, &setup).is_err());
    // Up to the board's worth, a capture fills the hand as it should.
    let mut g = Game::new(
        r.clone(),
        parse_position(&r, "k4/5/5/1p3/P3K b 20P 1").unwrap(),
    )
    .unwrap();
    g.play_text("a1b2").unwrap();
    // Without kinds coded `+X` the hands are written in brackets, each code repeated.
    assert!(
        g.position_string()
            .contains(&format!("[{}] w ", "P".repeat(21))),
        "{}",
        g.position_string()
    );
    let drops = g
        .legal_moves()
        .iter()
        .filter(|m| m.special == Special::Drop)
        .count();
    assert_eq!(drops, 0, "White holds nothing");
}

#[test]
fn a_position_with_the_side_not_to_move_in_check_is_refused() {
    // Black's Rook on 5b attacks White's King on 5a, and Black is to move.
    let r = rules(SHOGI);
    let setup = parse_position(&r, "4k4/4R4/9/9/9/9/9/9/4K4 b - 1").unwrap();
    let e = Position::from_setup(&r, &setup).expect_err("refused");
    assert_eq!(
        e,
        PositionError::LastMoverInCheck {
            player: "White".into(),
            to_move: "Black".into()
        }
    );
    assert!(Game::new(r.clone(), setup).is_err());
    // With White to move it is an ordinary check.
    let g = Game::new(
        r.clone(),
        parse_position(&r, "4k4/4R4/9/9/9/9/9/9/4K4 w - 1").unwrap(),
    )
    .unwrap();
    assert!(g.in_check());
}

#[test]
fn tori_shogi_quails_tell_their_left_from_their_right() {
    let r = rules("torishogi.var");
    let from = |text: &str, cell: &str| -> Vec<String> {
        moves(text, &r)
            .into_iter()
            .filter(|m| m.starts_with(cell))
            .collect()
    };
    // Black faces rank a: its right is file 1. The left Quail slides forward and back to
    // its right, and steps back to its left.
    assert_eq!(
        from("k6/7/7/3L3/7/7/K6 b - 1", "4d"),
        ["4d1g", "4d2f", "4d3e", "4d4a", "4d4b", "4d4c", "4d5e"]
    );
    assert_eq!(
        from("k6/7/7/3R3/7/7/K6 b - 1", "4d"),
        ["4d3e", "4d4a", "4d4b", "4d4c", "4d5e", "4d6f"]
    );
    // White faces rank g, so its right is file 7; its own Phoenix on 7a ends the slide.
    assert_eq!(
        from("k6/7/7/3l3/7/7/K6 w - 1", "4d"),
        ["4d3c", "4d4e", "4d4f", "4d4g", "4d5c", "4d6b"]
    );
}

#[test]
fn tori_shogi_allows_two_swallows_a_file_from_drops() {
    let r = rules("torishogi.var");
    let drops_on_4 = |text: &str| -> Vec<String> {
        moves(text, &r)
            .into_iter()
            .filter(|m| m.starts_with("S*4"))
            .collect()
    };
    // One Swallow on the file: another may join it (not on the far rank, where it
    // could never move).
    assert_eq!(
        drops_on_4("k6/7/7/3S3/7/7/K6 b S 1"),
        ["S*4b", "S*4c", "S*4e", "S*4f", "S*4g"]
    );
    // Two: the file is full. 35 drops are left, as Fairy-Stockfish counts.
    let full = "k6/7/7/3S3/3S3/7/K6 b S 1";
    assert!(drops_on_4(full).is_empty());
    assert_eq!(
        moves(full, &r).iter().filter(|m| m.contains('*')).count(),
        35
    );
    // An enemy Swallow on the file does not count.
    assert_eq!(drops_on_4("k6/7/7/3S3/3s3/7/K6 b S 1").len(), 4);
}

#[test]
fn dobutsu_lion_wins_on_the_far_rank_only_where_it_cannot_be_taken() {
    let r = rules("dobutsu.var");
    // Black's Lion on 2b; White's Giraffe on 1b guards 1a, White's Lion is on 3c.
    let text = "3/1Lg/l2/3 b - 1";
    let start = || Game::new(r.clone(), parse_position(&r, text).unwrap()).unwrap();
    let mut g = start();
    g.play_text("2b2a").unwrap();
    let end = g.ending().expect("a safe try wins");
    assert_eq!(end.winner(), Some(variantlab::PlayerId(0)));
    // On 1a the Giraffe could take it: the game goes on...
    let mut g = start();
    g.play_text("2b1a").unwrap();
    assert!(g.ending().is_none());
    // ...until the Giraffe leaves, and then Black has won.
    g.play_text("1b1c").unwrap();
    let end = g.ending().expect("the Lion is safe now");
    assert_eq!(end.winner(), Some(variantlab::PlayerId(0)));
}

#[test]
fn a_king_with_a_crown_prince_is_never_in_check() {
    // Sho shogi, as Fairy-Stockfish counts it.
    let r = rules("shoshogi.var");
    for (text, counts) in [
        // The Rook attacks the King, which has a Crown Prince beside it: no check.
        ("4k4/9/9/9/4r4/9/9/9/4K3+E b - 1", [8u64, 182, 1_800]),
        // Alone, the King must step out of the Rook's file.
        ("4k4/9/9/9/4r4/9/9/9/4K4 b - 1", [4, 92, 412]),
        // Promoting the Elephant to a second royal piece does not answer a check.
        ("4k4/9/E8/9/4r4/9/9/9/4K4 b - 1", [4, 92, 1_004]),
    ] {
        common::perft_counts(&r, text, 1, &counts);
    }
    assert!(!position(&r, "4k4/9/9/9/4r4/9/9/9/4K3+E b - 1").in_check(&r));
    assert!(position(&r, "4k4/9/9/9/4r4/9/9/9/4K4 b - 1").in_check(&r));
    // Moves and positions are USI's and SFEN's though the game has no hands.
    assert_eq!(
        write_position(&r, &Setup::start(&r)),
        "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1"
    );
}

#[test]
fn kyoto_pieces_turn_over_on_every_move_and_drop_either_side_up() {
    let r = rules("kyotoshogi.var");
    // A Pawn in hand drops as a Pawn or as a Rook (`+P`) on each of the 23 empty
    // cells, the last rank included; with three King moves, 49 moves (Fairy-Stockfish
    // counts 49 too).
    let list = moves("4k/5/5/5/K4 b P 1", &r);
    assert_eq!(list.len(), 49);
    for m in ["P*3a", "+P*3a", "+P*3c", "P*1e"] {
        assert!(list.contains(&m.to_string()), "{m} missing from {list:?}");
    }
    // The Pawn steps and turns into a Rook; the Rook moves and turns back (`-`).
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    for m in ["1e1d+", "5a5b+", "1d1b-"] {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.position_string(), "1+nks+l/+p3P/5/5/+LSK+N1 w - 4");
    // A Pawn moving may not stay a Pawn, nor a Rook stay a Rook.
    assert!(g.play_text("1b1a").is_err());
    // Taken, a Rook goes to hand as a Pawn.
    let setup = parse_position(&r, "4k/5/5/+p4/K4 b - 1").unwrap();
    let mut g = Game::new(r.clone(), setup).unwrap();
    g.play_text("5e5d").unwrap();
    assert_eq!(g.position_string(), "4k/5/5/K4/5 w P 2");
}

#[test]
fn micro_pieces_turn_over_only_when_they_capture() {
    let r = rules("micro.var");
    let mut g = Game::new(r.clone(), Setup::start(&r)).unwrap();
    for m in ["1d1c", "4b4c"] {
        g.play_text(m).unwrap();
    }
    // Quiet Pawn moves kept their side.
    assert_eq!(g.position_string(), "kb+r+l/4/p2P/4/+L+RBK b - 3");
    let mut list: Vec<String> = g.legal_moves().iter().map(|m| g.write_move(m)).collect();
    list.sort();
    // Fairy-Stockfish lists these 11; the Bishop's capture on 4c must turn it over.
    assert_eq!(
        list,
        [
            "1c1b", "1e1d", "1e2d", "2e1d", "2e3d", "2e4c+", "3e2d", "3e3d", "3e4d", "4e3d", "4e4d"
        ]
    );
}
