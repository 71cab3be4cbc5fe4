//! Chu shogi against lishogi's rules (the shogiops library, commit 0f947888, its
//! `test/fixtures/perftChushogi.ts` and `test/rules/chushogi.test.ts`): the Lion's double
//! move, the Horned Falcon's and Soaring Eagle's, the Lion-trading rules, promotion, and
//! moves written as lishogi writes them (`6f5e6d`).
//!
//! `tests/fixtures/chu-shogi/positions.tsv` holds, for each of the 279 positions shogiops
//! publishes: the SFEN, its published count at depth 1, and the counts at depths 1 and 2
//! with moves that leave the same position from the same start counted once, as this
//! generator lists them. shogiops lists a Lion's double move through every cell it may
//! step on (through an empty cell to another is its leap there; out and back through each
//! empty neighbour is one pass), so its count is higher where a Lion, Falcon or Eagle
//! stands beside an empty cell. The deduplicated counts come from shogiops' own move
//! generator, run with that counting; the published count is kept beside them.
//! `moves.tsv` holds the moves shogiops' rule tests call legal or illegal.

use crate::common;
use std::sync::Arc;
use variantlab::Rules;

fn chu() -> Arc<Rules> {
    common::rules("chu-shogi.var")
}

fn fixture(name: &str) -> Vec<Vec<String>> {
    let path = common::root().join("tests/fixtures/chu-shogi").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    (text.lines())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(String::from).collect())
        .collect()
}

fn perft_at(r: &Arc<Rules>, sfen: &str, depth: u32) -> u64 {
    let setup = variantlab::parse_position(r, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let mut pos = variantlab::Position::from_setup(r, &setup).unwrap_or_else(|e| panic!("{e}"));
    variantlab::perft(r, &mut pos, depth)
}

#[test]
fn the_start_is_lishogis_and_its_perft_agrees() {
    let r = chu();
    assert_eq!(
        common::start_text(&r),
        "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1"
    );
    // shogiops: 36, 1296, then 52599 and 2134748 move texts at depths 3 and 4; 48315
    // and 1801639 once the Lions' double moves through empty cells are counted as the
    // moves they repeat.
    common::perft_counts(&r, &common::start_text(&r), 1, &[36, 1296, 48315, 1801639]);
}

#[test]
fn every_published_position_agrees_at_depth_1() {
    let r = chu();
    let rows = fixture("positions.tsv");
    assert_eq!(rows.len(), 279);
    let mut fewer = 0;
    for row in &rows {
        let (published, once): (u64, u64) = (row[1].parse().unwrap(), row[2].parse().unwrap());
        assert!(once <= published, "{}", row[0]);
        fewer += usize::from(once < published);
        assert_eq!(perft_at(&r, &row[0], 1), once, "{}", row[0]);
    }
    // The two counts part where a piece with the Lion's power stands beside an empty cell.
    assert_eq!(fewer, 189);
}

#[test]
fn every_position_agrees_at_depth_2() {
    let r = chu();
    for row in fixture("positions.tsv") {
        assert_eq!(
            perft_at(&r, &row[0], 2),
            row[3].parse::<u64>().unwrap(),
            "{}",
            row[0]
        );
    }
}

#[test]
fn lishogis_legal_and_illegal_moves_are_so_here() {
    let r = chu();
    let rows = fixture("moves.tsv");
    assert_eq!(rows.len(), 99);
    for row in rows {
        let (sfen, text, legal) = (&row[0], &row[1], row[2] == "legal");
        let setup = variantlab::parse_position(&r, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let pos = variantlab::Position::from_setup(&r, &setup).unwrap();
        let found = variantlab::parse_move(&r, &pos, text);
        assert_eq!(found.is_ok(), legal, "{sfen} {text}: {found:?}");
    }
}

/// A Lion on 6f (a Kirin promoted to one) with only the Kings: 24 cells within two,
/// and a pass.
#[test]
fn a_lone_lion_reaches_24_cells_and_may_pass() {
    let r = chu();
    // White's Pawn keeps its King from standing bare, which would end the game.
    let sfen = "k11/p11/12/12/12/6+O5/12/12/12/12/12/11K b - 1";
    let g = common::game(&r, sfen);
    let pos = g.position();
    let lion: Vec<String> = (g.legal_moves().iter())
        .filter(|m| {
            pos.at(m.from)
                .is_some_and(|(_, k)| r.variant().piece(k).code == "+O")
        })
        .map(|m| variantlab::write_move_at(&r, pos, m))
        .collect();
    assert_eq!(lion.len(), 25, "{lion:?}");
    // The pass is written through an empty cell beside it, as lishogi writes one.
    let pass: Vec<&String> = lion.iter().filter(|t| t.len() == 6).collect();
    assert_eq!(pass.len(), 1, "{lion:?}");
    assert!(pass[0].starts_with("6f") && pass[0].ends_with("6f"));
    // Any empty neighbour names the same pass; two cells alone or a cell two away
    // name none.
    let (_, a) = common::after(&r, sfen, &["6f6g6f"]);
    let (_, b) = common::after(&r, sfen, &["6f5e6f"]);
    assert_eq!(a, b);
    assert!(variantlab::parse_move(&r, pos, "6f6h6f").is_err());
    assert!(variantlab::parse_move(&r, pos, "6f6f").is_err());
}

/// Igui: the Lion on 6f takes the Pawn on 6e without moving; then it takes the Pawn and
/// goes on to 6d, taking the Gold there: worked from the rule page.
#[test]
fn a_lion_takes_without_moving_and_takes_twice() {
    let r = chu();
    let sfen = "k11/12/12/6g5/6p5/6N5/12/12/12/12/12/11K b - 1";
    let (g, board) = common::after(&r, sfen, &["6f6e6f"]);
    assert_eq!(board, "k11/12/12/6g5/12/6N5/12/12/12/12/12/11K");
    assert_eq!(g.moves().count(), 1);
    let (_, board) = common::after(&r, sfen, &["6f6e6d"]);
    assert_eq!(board, "k11/12/12/6N5/12/12/12/12/12/12/12/11K");
    // The plain leap to 6d leaves the Pawn.
    let (_, board) = common::after(&r, sfen, &["6f6d"]);
    assert_eq!(board, "k11/12/12/6N5/6p5/12/12/12/12/12/12/11K");
    // Each is written as lishogi writes it.
    let g = common::game(&r, sfen);
    let mut texts: Vec<String> = (g.legal_moves().iter())
        .filter(|m| m.from != m.to || m.captured.is_some())
        .map(|m| variantlab::write_move_at(&r, g.position(), m))
        .filter(|t| t.len() == 6)
        .collect();
    texts.sort();
    assert!(texts.contains(&"6f6e6f".to_string()), "{texts:?}");
    assert!(texts.contains(&"6f6e6d".to_string()), "{texts:?}");
}

/// A Lion may not take a defended Lion two cells away, unless it took a piece other
/// than a Pawn or a Go-between on the way; next to it, it always may.
#[test]
fn a_lion_takes_a_defended_lion_from_afar_only_over_a_bridge() {
    let r = chu();
    // Black Lion 6f; White Lion 6d defended by the Gold on 6c; a White Pawn on 6e.
    let sfen = "k11/12/6g5/6n5/6p5/6N5/12/12/12/12/12/11K b - 1";
    let texts = common::move_texts(&r, sfen);
    let g = common::game(&r, sfen);
    let pos = g.position();
    assert!(
        variantlab::parse_move(&r, pos, "6f6d").is_err(),
        "{texts:?}"
    );
    assert!(variantlab::parse_move(&r, pos, "6f6e6d").is_err());
    // With a Silver on 6e instead, taking it first lifts the rule.
    let bridge = "k11/12/6g5/6n5/6s5/6N5/12/12/12/12/12/11K b - 1";
    let g = common::game(&r, bridge);
    assert!(variantlab::parse_move(&r, g.position(), "6f6e6d").is_ok());
    assert!(variantlab::parse_move(&r, g.position(), "6f6d").is_err());
    // Undefended (no Gold), the leap takes it.
    let lone = "k11/12/12/6n5/6p5/6N5/12/12/12/12/12/11K b - 1";
    let g = common::game(&r, lone);
    assert!(variantlab::parse_move(&r, g.position(), "6f6d").is_ok());
}

/// After a Lion is taken by another kind, no other kind may take a Lion on the next
/// move but on that cell; SFEN's third field names it and is read back.
#[test]
fn a_lion_taken_by_another_kind_is_not_answered_in_kind() {
    let r = chu();
    // White's Rook on 8f takes Black's Lion on 8j; Black's Bishop on 6l eyes White's
    // Lion on 3i.
    let sfen = "11k/12/12/12/12/4r7/12/12/9n2/4N7/12/6B4K w - 1";
    let (g, _) = common::after(&r, sfen, &["8f8j"]);
    assert!(
        g.position_string().contains(" 8j "),
        "{}",
        g.position_string()
    );
    assert!(variantlab::parse_move(&r, g.position(), "6l3i").is_err());
    // A move later the rule is gone.
    let (g, _) = common::after(&r, sfen, &["8f8j", "1l1k", "1a1b"]);
    assert!(variantlab::parse_move(&r, g.position(), "6l3i").is_ok());
    // shogiops' case: a Kirin took a Lion on 8j and promoted; 7 moves, 8 without the
    // field.
    let text = "11k/12/12/12/12/4r7/12/12/9n2/4+o7/12/6B4K b 8j 1";
    assert_eq!(perft_at(&r, text, 1), 7);
    assert_eq!(perft_at(&r, &text.replace("8j 1", "- 1"), 1), 8);
}

#[test]
fn the_move_list_tells_the_lions_moves_apart() {
    let r = chu();
    // Black's Lion on 6f, White's Pawn on 6e and Gold on 6d: to 6d it may leap, or take
    // the Pawn on its way; it may take the Pawn and go back (igui), or step out and back.
    let g = common::game(&r, "k11/12/12/6g5/6p5/6N5/12/12/12/12/12/11K b - 1");
    let legal = g.legal_moves();
    let short = variantlab::write_short_moves(&r, g.position(), &legal);
    let mut seen = std::collections::BTreeSet::new();
    for s in &short {
        assert!(seen.insert(s.clone()), "{s} names two moves: {short:?}");
    }
    // Written as they are typed where two share their cells or one ends where it began.
    for text in ["6f6e6d", "6f6e6f"] {
        assert!(short.iter().any(|s| s == text), "{text}: {short:?}");
    }
    // The pass, through an empty cell beside the Lion.
    let passes: Vec<&String> = (short.iter())
        .filter(|s| s.len() == 6 && s.starts_with("6f") && s.ends_with("6f") && *s != "6f6e6f")
        .collect();
    assert_eq!(passes.len(), 1, "{short:?}");
    // An ordinary move keeps its short form.
    assert!(short.iter().any(|s| s == "N5g"), "{short:?}");
}

/// The bare King: a player left with one piece loses, unless it bares the other side
/// at once; two lone royals draw.
#[test]
fn a_bare_king_loses_unless_it_bares_the_other_at_once() {
    let r = chu();
    let winner = |g: &variantlab::Game| {
        let end = g.ending().expect("the game is over");
        end.winner().map(|p| g.variant().player(p).name.clone())
    };
    // Black's Gold on 11b takes White's last Pawn on 12b: White's King on 12a is bare,
    // and Black still has its King and a Silver besides the Gold: White has lost.
    let sfen = "k11/pG10/12/12/12/12/12/12/12/12/12/S10K b - 1";
    let (g, _) = common::after(&r, sfen, &["11b12b"]);
    assert_eq!(winner(&g).as_deref(), Some("Black"));
    // Without the Silver, the bare King may take the Gold beside it: play goes on, and
    // taking it leaves two lone Kings, a draw.
    let sfen = "k11/pG10/12/12/12/12/12/12/12/12/12/11K b - 1";
    let (g, _) = common::after(&r, sfen, &["11b12b"]);
    assert!(g.ending().is_none());
    let (g, _) = common::after(&r, sfen, &["11b12b", "12a12b"]);
    let end = g.ending().expect("two lone Kings");
    assert!(end.winner().is_none());
    // A bare King that does not take it has lost once its move is made.
    let (g, _) = common::after(&r, sfen, &["11b12b", "12a11a"]);
    assert_eq!(winner(&g).as_deref(), Some("Black"));
}
