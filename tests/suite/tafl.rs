//! Captures by enclosure, worked by hand on positions from the Tablut rule pages:
//! custodial captures on rows and columns, moving between two enemies unharmed, lines of
//! two left alone, the armed King, the King in his castle taken only on four sides,
//! the castle closed to other pieces, and the King's escape to the edge.
//!
//! Position strings list ranks 9 to 1; Muscovites are Black's `m`, the King and the
//! Swedes White's `K` and `S`.

use crate::common;

use std::sync::Arc;
use variantlab::Rules;

fn tablut() -> Arc<Rules> {
    common::rules("tablut.var")
}

#[test]
fn a_piece_between_two_enemies_on_a_line_is_captured() {
    let r = tablut();
    // A Muscovite on d3, a Swede on d2: the Swede from a4 to d4 encloses it.
    let (_, board) = common::after(&r, "9/9/4K4/9/9/S8/3m5/3S5/8m w", &["a4-d4"]);
    assert_eq!(board, "9/9/4K4/9/9/3S5/9/3S5/8m");
    // On a row too: the Swede from c1 to c3 takes d3 against e3.
    let (_, board) = common::after(&r, "9/9/4K4/9/9/9/3mS4/9/2S5m w", &["c1-c3"]);
    assert_eq!(board, "9/9/4K4/9/9/9/2S1S4/9/8m");
    // Diagonal neighbours are no line: the Swede lands on c4, the Muscovite on d3 stays.
    let (_, board) = common::after(&r, "9/9/4K4/9/9/S8/3m5/4S4/8m w", &["a4-c4"]);
    assert_eq!(board, "9/9/4K4/9/9/2S6/3m5/4S4/8m");
}

#[test]
fn a_piece_may_move_between_two_enemies_and_a_line_of_two_stays() {
    let r = tablut();
    // The Muscovite from d9 to d7, between the Swedes on c7 and e7: nothing is taken.
    let (_, board) = common::after(&r, "3m5/9/2S1S4/9/4K4/9/9/9/8m b", &["d9-d7"]);
    assert_eq!(board, "9/9/2SmS4/9/4K4/9/9/9/8m");
    // Two Muscovites on d3 and d4 between Swedes on d2 and (after the move) d5.
    let (_, board) = common::after(&r, "9/9/7K1/9/S8/3m5/3m5/3S5/8m w", &["a5-d5"]);
    assert_eq!(board, "9/9/7K1/9/3S5/3m5/3m5/3S5/8m");
}

#[test]
fn several_pieces_are_captured_at_once_and_the_king_takes_part() {
    let r = tablut();
    // The Swede from d7 to d3 takes c3, e3 and d2, each against a Swede beyond it.
    let (_, board) = common::after(&r, "9/9/3S5/9/7K1/9/1Sm1mS3/3m5/3S5 w", &["d7-d3"]);
    assert_eq!(board, "9/9/9/9/7K1/9/1S1S1S3/9/3S5");
    // The King from b5 to b3 takes the Muscovite on c3 against the Swede on d3.
    let (_, board) = common::after(&r, "9/9/9/9/1K7/9/2mS5/9/8m w", &["b5-b3"]);
    assert_eq!(board, "9/9/9/9/9/9/1K1S5/9/8m");
}

#[test]
fn the_king_in_his_castle_is_captured_only_on_four_sides() {
    let r = tablut();
    // Muscovites on d5, f5 and e6; the fourth lands on e4 from e1: the King is taken
    // and Black wins.
    let (g, board) = common::after(&r, "9/9/9/4m4/3mKm3/9/9/9/4m4 b", &["e1-e4"]);
    assert_eq!(board, "9/9/9/4m4/3m1m3/4m4/9/9/9");
    let end = g.ending().expect("the King's capture ends the game");
    assert_eq!(g.variant().player(end.winner().unwrap()).name, "Black");
    // With a Swede on e6 instead, the same move takes nothing (and the Swede on e6
    // stands between e7, empty, and the King).
    let (g, board) = common::after(&r, "9/9/9/4S4/3mKm3/9/9/9/4m4 b", &["e1-e4"]);
    assert_eq!(board, "9/9/9/4S4/3mKm3/4m4/9/9/9");
    assert!(g.ending().is_none());
    // Two Muscovites across the castle on d5 and f5 take nothing: the King is in it.
    let (g, board) = common::after(&r, "9/9/9/9/3mK4/9/9/9/5m3 b", &["f1-f5"]);
    assert_eq!(board, "9/9/9/9/3mKm3/9/9/9/9");
    assert!(g.ending().is_none());
}

#[test]
fn away_from_the_castle_the_king_is_captured_between_two() {
    let r = tablut();
    // The King on e7 between d7 and a Muscovite landing on f7 from f9.
    let (g, board) = common::after(&r, "5m3/9/3mK4/9/9/9/9/9/9 b", &["f9-f7"]);
    assert_eq!(board, "9/9/3m1m3/9/9/9/9/9/9");
    let end = g.ending().expect("taken");
    assert_eq!(g.variant().player(end.winner().unwrap()).name, "Black");
    // Next to the empty castle, on e6 with a Muscovite on e7: the castle is not hostile.
    let (g, _) = common::after(&r, "9/9/5m3/4K4/9/9/9/9/9 b", &["f7-e7"]);
    assert!(g.ending().is_none());
    // But two Muscovites across him on the row take him there too.
    let (g, _) = common::after(&r, "9/9/9/3mK4/9/9/9/9/5m3 b", &["f1-f6"]);
    assert!(g.ending().is_some());
}

#[test]
fn the_king_wins_on_any_edge_cell() {
    let r = tablut();
    let (g, _) = common::after(&r, "9/9/9/3K5/9/9/9/9/8m w", &["d6-d9"]);
    let end = g.ending().expect("escaped");
    assert_eq!(g.variant().player(end.winner().unwrap()).name, "White");
    let (g, _) = common::after(&r, "9/9/9/3K5/9/9/9/9/8m w", &["d6-d8"]);
    assert!(g.ending().is_none());
}

#[test]
fn only_the_king_enters_the_castle() {
    let r = tablut();
    // A Swede on e3 below the empty castle: up it reaches e4 only (not e5, nor past it
    // to e6 and beyond); down e2 and e1, four cells each way along the row: 11. The
    // King on h8 goes to the castle's row and file freely.
    let g = common::game(&r, "9/7K1/9/9/9/9/4S4/9/m8 w");
    let from_e3: Vec<String> = g
        .legal_moves()
        .iter()
        .filter(|m| g.write_move(m).starts_with("e3"))
        .map(|m| g.write_move(m))
        .collect();
    assert_eq!(from_e3.len(), 11, "{from_e3:?}");
    assert!(
        !from_e3
            .iter()
            .any(|m| m.ends_with("e5") || m.ends_with("e6"))
    );
    // The King may go back to the castle.
    let g = common::game(&r, "9/9/9/9/9/4K4/9/9/m8 w");
    assert!(g.legal_moves().iter().any(|m| g.write_move(m) == "e4-e5"));
}

#[test]
fn perft_from_the_start_counts_rook_moves() {
    let r = tablut();
    // Black: per arm of four Muscovites, the outer two 3 + 3 each, the middle one
    // none, the inner one 4 + 4: 20, times four arms. White: per arm the inner Swede
    // 3 + 3 (the outer Muscovites block the row), the outer 4 + 4: 14, times four.
    common::perft_counts(
        &r,
        "3mmm3/4m4/4S4/m3S3m/mmSSKSSmm/m3S3m/4S4/4m4/3mmm3 b",
        1,
        &[80],
    );
    common::perft_counts(
        &r,
        "3mmm3/4m4/4S4/m3S3m/mmSSKSSmm/m3S3m/4S4/4m4/3mmm3 w",
        1,
        &[56],
    );
}

/// A 7 by 7 tafl written for these tests: the throne d4 and the corners restricted and
/// hostile when empty, crossed but never stopped on by the Men, the King taken only on
/// every side (so never on the edge), escaping to a corner.
fn seven(men: &str) -> Arc<Rules> {
    common::from_text(&format!(
        "name \"Seven\"\nboard square 7 by 7\n\
         coordinates files lettered from the left, ranks numbered from the bottom\n\
         player Black: forward north, lowercase\nplayer White: forward south, capitals\n\
         zone restricted: a1 g1 a7 g7 d4\nzone corners: a1 g1 a7 g7\n\
         piece King (K) {{\n  slide orthogonal, to empty\n}}\n\
         piece Man (M) {{\n  slide orthogonal, to empty, {men}\n}}\n\
         setup {{\n  White: King d4, Man d3 d5 c4 e4\n  Black: Man d1 d2 d6 d7 a4 b4 f4 g4\n}}\n\
         enclosed enemy pieces are captured, on orthogonal lines of one piece,\n  \
         empty cells in restricted enclose too, King only when enclosed on every side\n\
         game ends {{\n  White has no King: Black wins\n  White has a King in corners: White wins\n  \
         no legal move: mover wins\n}}\n"
    ))
}

#[test]
fn empty_corners_and_throne_enclose_for_both_sides() {
    let r = seven("landing outside restricted");
    // The Black Man from c5 to c1 takes the White Man on b1 against the corner a1.
    let (_, board) = common::after(&r, "7/7/2m1K2/7/7/7/1M5 b", &["c5-c1"]);
    assert_eq!(board, "7/7/4K2/7/7/7/2m4");
    // From a6 to d6 it takes the Man on d5 against the empty throne.
    let (_, board) = common::after(&r, "7/m6/3M3/7/7/4K2/7 b", &["a6-d6"]);
    assert_eq!(board, "7/3m3/7/7/7/4K2/7");
    // With the King on the throne, the throne is his piece, which encloses nothing for
    // Black: the Man on d5 stays.
    let (_, board) = common::after(&r, "7/m6/3M3/3K3/7/7/7 b", &["a6-d6"]);
    assert_eq!(board, "7/3m3/3M3/3K3/7/7/7");
}

#[test]
fn the_king_is_taken_on_every_side_the_empty_throne_counting_and_never_on_the_edge() {
    let r = seven("landing outside restricted");
    // Next to the empty throne: Black on c5 and e5, the third lands on d6.
    let (g, board) = common::after(&r, "7/m6/2mKm2/7/7/7/7 b", &["a6-d6"]);
    assert_eq!(board, "7/3m3/2m1m2/7/7/7/7");
    assert!(
        g.ending()
            .is_some_and(|e| e.winner().is_some_and(|p| p.0 == 0))
    );
    // Three sides alone, the fourth (c2) empty and not hostile: he stays.
    let (g, _) = common::after(&r, "7/7/7/m6/1mKm3/7/7 b", &["a4-c4"]);
    assert!(g.ending().is_none());
    // Four Black Men around b3: taken.
    let (g, _) = common::after(&r, "7/7/7/m6/mKm4/1m5/7 b", &["a4-b4"]);
    assert!(g.ending().is_some());
    // On the edge a3, with a2, b3 and the Man landing on a4: he has three sides only
    // (and White has a Man on f6 to move, so the game goes on).
    let (g, board) = common::after(&r, "7/5M1/7/1m5/Km5/m6/7 b", &["b4-a4"]);
    assert_eq!(board, "7/5M1/7/m6/Km5/m6/7");
    assert!(g.ending().is_none());
}

#[test]
fn landing_outside_a_zone_may_cross_it_and_outside_may_not() {
    // A Black Man on c4, the throne d4 empty, the King on f6: left two, up three, down
    // three, and right past the throne e4 f4 g4 (d4 itself never).
    let moves = |men: &str| {
        let r = seven(men);
        let g = common::game(&r, "7/5K1/7/2m4/7/7/7 b");
        let mut to: Vec<String> = g.legal_moves().iter().map(|m| g.write_move(m)).collect();
        to.sort();
        to
    };
    let crossing = moves("landing outside restricted");
    assert_eq!(crossing.len(), 11, "{crossing:?}");
    assert!(crossing.contains(&"c4-e4".to_string()));
    assert!(!crossing.iter().any(|m| m.ends_with("d4")));
    let kept_out = moves("outside restricted");
    assert_eq!(kept_out.len(), 8, "{kept_out:?}");
    assert!(!kept_out.iter().any(|m| m.ends_with("e4")));
}

#[test]
fn an_enclosure_clause_or_an_outside_clause_given_twice_is_a_duplicate() {
    let base = |piece: &str, rule: &str| {
        format!(
            "name \"Twice\"\nboard square 7 by 7\n\
             player Black: forward north, lowercase\nplayer White: forward south, capitals\n\
             zone throne: d4\n\
             piece King (K) {{\n  slide orthogonal, to empty, {piece}\n}}\n\
             setup {{\n  White: King d4\n  Black: King a1\n}}\n{rule}\n\
             game ends {{\n  no legal move: mover wins\n}}\n"
        )
    };
    for text in [
        base(
            "outside throne",
            "enclosed enemy pieces are captured, on orthogonal lines, on diagonal lines",
        ),
        base(
            "outside throne",
            "enclosed enemy pieces are captured, empty cells in throne enclose too,\n  \
             empty cells in throne enclose too",
        ),
        base(
            "outside throne, landing outside throne",
            "enclosed enemy pieces are captured",
        ),
    ] {
        let checked = variantlab::load::check_all("t.var", &text);
        let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["variantlab::duplicate_clause"], "{text}");
    }
}

#[test]
fn brandubh_takes_the_king_between_two_and_against_a_corner() {
    let r = common::rules("brandubh.var");
    // Perft from the start, by hand: per arm the outer attacker 2 + 2 (the corners
    // are barred), the inner 3 + 3: 10, times four; White's Warriors 3 + 3 each.
    common::perft_counts(&r, "3w3/3w3/3W3/wwWKWww/3W3/3w3/3w3 b", 1, &[40]);
    common::perft_counts(&r, "3w3/3w3/3W3/wwWKWww/3W3/3w3/3w3 w", 1, &[24]);
    // On the throne the King is taken between two, as anywhere.
    let (g, _) = common::after(&r, "7/7/7/2wK3/7/7/4w2 b", &["e1-e4"]);
    assert!(
        g.ending()
            .is_some_and(|e| e.winner().is_some_and(|p| p.0 == 0))
    );
    // Next to the corner a7 on b7, he is taken by one attacker landing on c7.
    let (g, _) = common::after(&r, "1K5/7/2w4/7/7/5W1/7 b", &["c5-c7"]);
    assert!(
        g.ending()
            .is_some_and(|e| e.winner().is_some_and(|p| p.0 == 0))
    );
    // A Warrior crosses the empty throne: from b4 to f4, never stopping on d4.
    let g = common::game(&r, "7/7/7/1W5/7/4K2/5w1 w");
    let moves: Vec<String> = g.legal_moves().iter().map(|m| g.write_move(m)).collect();
    assert!(moves.contains(&"b4-f4".to_string()), "{moves:?}");
    assert!(!moves.contains(&"b4-d4".to_string()), "{moves:?}");
}

#[test]
fn a_capture_by_enclosure_is_a_capture_for_compulsory_capture() {
    // Tablut with captures compulsory: of White's moves, only the Swede's from a4 to d4
    // takes anything (the Muscovite on d3, against the Swede on d2).
    let text = std::fs::read_to_string(common::root().join("variants/tablut.var")).unwrap();
    let r = common::from_text(&format!("{text}\ncaptures are compulsory\n"));
    let g = common::game(&r, "9/9/4K4/9/9/S8/3m5/3S5/8m w");
    let moves: Vec<String> = g.legal_moves().iter().map(|m| g.write_move(m)).collect();
    assert_eq!(moves, ["a4-d4"]);
    // Without a capture to make, every move stays: the same position less the Swede on
    // d2.
    let g = common::game(&r, "9/9/4K4/9/9/S8/3m5/9/8m w");
    assert!(g.legal_moves().len() > 20);
}

#[test]
fn fetlar_counts_its_first_moves_by_hand() {
    let r = common::rules("fetlar.var");
    // Black, per group: the outer two 2 + 4 each (the corner barred), the next two 3
    // each, the middle one none, the one in front 1 + 5 + 5: 29, times four. White: the
    // four tips 1 + 4 + 4, the four inner corners 3 + 3, the rest none: 36 + 24.
    let start = "3aaaaa3/5a5/11/a4D4a/a3DDD3a/aa1DDKDD1aa/a3DDD3a/a4D4a/11/5a5/3aaaaa3";
    common::perft_counts(&r, &format!("{start} b"), 1, &[116]);
    common::perft_counts(&r, &format!("{start} w"), 1, &[60]);
}

#[test]
fn fetlar_attackers_win_by_closing_a_ring_around_every_defender() {
    let r = common::rules("fetlar.var");
    // The King on c3 and a Defender on c4, Attackers on b3, d3, c2, b4 and d4; the
    // Attacker from c8 to c5 closes the ring. Nothing is captured: the Defender on c4
    // stands between c5 and his King. With no other White piece, Black wins.
    let ring = |rank9: &str| format!("11/11/{rank9}/2a8/11/11/11/1aDa7/1aKa7/2a8/11 b");
    let (g, board) = common::after(&r, &ring("11"), &["c8-c5"]);
    assert_eq!(board, "11/11/11/11/11/11/2a8/1aDa7/1aKa7/2a8/11");
    let end = g.ending().expect("surrounded");
    assert_eq!(g.variant().player(end.winner().unwrap()).name, "Black");
    // A Defender on j9, free to reach the edge, keeps the game going.
    let (g, _) = common::after(&r, &ring("9D1"), &["c8-c5"]);
    assert!(g.ending().is_none());
}

#[test]
fn fetlar_throne_encloses_attackers_always_and_defenders_when_empty() {
    let r = common::rules("fetlar.var");
    // The King on the throne f6 with an Attacker on f7: a Defender landing on f8 takes
    // it (the King is White's piece). On e6 beside him, a Defender is safe from an
    // Attacker landing on d6: the throne is not empty.
    let (_, board) = common::after(&r, "11/11/11/2D8/5a5/5K5/11/11/11/11/9a1 w", &["c8-f8"]);
    assert_eq!(board, "11/11/11/5D5/11/5K5/11/11/11/11/9a1");
    let (_, board) = common::after(&r, "11/11/11/11/11/a3DK5/11/11/11/11/9a1 b", &["a6-d6"]);
    assert_eq!(board, "11/11/11/11/11/3aDK5/11/11/11/11/9a1");
    // With the throne empty, the Defender on e6 is taken by the Attacker landing on d6.
    let (_, board) = common::after(&r, "11/11/11/11/11/a3D6/11/11/11/2K8/9a1 b", &["a6-d6"]);
    assert_eq!(board, "11/11/11/11/11/3a7/11/11/11/2K8/9a1");
    // The King beside the empty throne, on f7, with Attackers on e7 and g7: the third
    // landing on f8 takes him.
    let (g, _) = common::after(&r, "11/11/11/a10/4aKa4/11/11/11/11/11/10D b", &["a8-f8"]);
    assert_eq!(
        g.variant()
            .player(g.ending().expect("taken").winner().unwrap())
            .name,
        "Black"
    );
}

/// The diagnostics (code, help) of the Tablut file with `from` replaced by `to`.
fn tablut_with(from: &str, to: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(common::root().join("variants/tablut.var")).unwrap();
    assert!(text.contains(from), "{from}");
    let checked = variantlab::load::check_all("t.var", &text.replacen(from, to, 1));
    checked
        .report
        .diagnostics
        .iter()
        .map(|d| (d.code.to_string(), d.help.clone().unwrap_or_default()))
        .collect()
}

#[test]
fn mistakes_in_the_enclosure_wording_are_told_with_their_fix() {
    // A misspelt direction kind is a misspelt word, not `or` and another word.
    let d = tablut_with("on orthogonal lines", "on orthoganal lines");
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].1.contains("`orthogonal`"), "{d:?}");
    // `landing` goes with `outside` only.
    let d = tablut_with(
        "to empty, outside castle",
        "to empty, landing within castle",
    );
    assert_eq!(d[0].0, "variantlab::syntax", "{d:?}");
    // A second statement on enclosure would disagree with the first.
    let d = tablut_with(
        "game ends {",
        "enemy pieces next to where a piece lands change sides\ngame ends {",
    );
    let codes: Vec<&str> = d.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(codes, ["variantlab::duplicate_statement"]);
    // Lines of any length on 15 by 15, already orthogonal: the help asks for lines of
    // one piece only.
    let text = std::fs::read_to_string(common::root().join("variants/fetlar.var")).unwrap();
    let text = text
        .replace("on orthogonal lines of one piece", "on orthogonal lines")
        .replace("board square 11 by 11", "board square 15 by 15");
    let checked = variantlab::load::check_all("t.var", &text);
    let d = &checked.report.diagnostics[0];
    assert_eq!(d.code, "variantlab::enclosure_limit");
    assert!(d.message.contains("26"), "{}", d.message);
    let help = d.help.clone().unwrap_or_default();
    assert!(
        help.contains("of one piece") && !help.contains("fewer directions"),
        "{help}"
    );
}

#[test]
fn a_misspelt_edge_and_stray_commas_in_the_enclosure_statement_are_pointed_at() {
    let text = std::fs::read_to_string(common::root().join("variants/copenhagen.var")).unwrap();
    let first = |text: &str| {
        let checked = variantlab::load::check_all("t.var", text);
        let d = checked.report.diagnostics[0].clone();
        (
            d.code.to_string(),
            d.span,
            d.message,
            d.help.unwrap_or_default(),
        )
    };
    // `edges` is the misspelt word, not `rows` read as a kind of piece.
    let changed = text.replacen("along the edge facing", "along the edges facing", 1);
    let (code, span, _, help) = first(&changed);
    assert_eq!(code, "variantlab::syntax");
    assert_eq!(&changed[span.start..span.end], "edges");
    assert!(help.contains("`edge`"), "{help}");
    // A comma after the last clause points at the comma, not at the next statement.
    let changed = text.replacen("enclosed on every side\n", "enclosed on every side,\n", 1);
    let (_, span, message, _) = first(&changed);
    assert_eq!(&changed[span.start..span.end], ",");
    assert!(changed[..span.start].ends_with("every side"), "{message}");
    assert!(message.contains("another clause"), "{message}");
}

/// The winner's name, where the game has ended.
fn winner(g: &variantlab::Game) -> Option<String> {
    let end = g.ending()?;
    Some(g.variant().player(end.winner()?).name.clone())
}

#[test]
fn copenhagen_takes_a_shield_wall_against_a_corner_or_a_piece() {
    let r = common::rules("copenhagen.var");
    // Defenders on b1 and c1, faced by Attackers on b2 and c2: the Attacker from d5
    // landing on d1 closes the row against the empty corner a1, and both are taken.
    let (g, board) = common::after(&r, "11/11/11/11/11/5K5/3a7/11/11/1aa8/1DD8 b", &["d5-d1"]);
    assert_eq!(board, "11/11/11/11/11/5K5/11/11/11/1aa8/3a7");
    assert_eq!(winner(&g), None);
    // Three Defenders on d1, e1 and f1, faced on d2, e2 and f2, closed by the Attacker
    // on c1: the one landing on g1 takes the three.
    let (_, board) = common::after(
        &r,
        "11/11/11/11/11/5K5/6a4/11/11/3aaa5/2aDDD5 b",
        &["g5-g1"],
    );
    assert_eq!(board, "11/11/11/11/11/5K5/11/11/11/3aaa5/2a3a4");
}

#[test]
fn copenhagen_leaves_the_king_in_a_shield_wall_and_needs_every_piece_faced() {
    let r = common::rules("copenhagen.var");
    // The King on c1 in the row with the Defender on b1: the Defender is taken, the
    // King stays.
    let (g, board) = common::after(&r, "11/11/11/11/11/11/3a7/11/11/1aa8/1DK8 b", &["d5-d1"]);
    assert_eq!(board, "11/11/11/11/11/11/11/11/11/1aa8/2Ka7");
    assert_eq!(winner(&g), None);
    // c2 empty: the Defender on c1 faces no enemy, and nothing is taken.
    let (_, board) = common::after(&r, "11/11/11/11/11/5K5/3a7/11/11/1a9/1DD8 b", &["d5-d1"]);
    assert_eq!(board, "11/11/11/11/11/5K5/11/11/11/1a9/1DDa7");
    // The move that takes a row lands on the edge at its end: landing on c2, with the
    // row already closed by b2 and d1, takes nothing.
    let (_, board) = common::after(&r, "11/11/11/11/11/5K5/2a8/11/11/1a9/1DDa7 b", &["c5-c2"]);
    assert_eq!(board, "11/11/11/11/11/5K5/11/11/11/1aa8/1DDa7");
    // A row of one on the edge is no shield wall: the Defender on c1 faced by c2 and
    // closed by b1 is taken only as any piece between two enemies is, by a move beside it.
    let (_, board) = common::after(&r, "11/11/11/11/11/5K5/3a7/11/11/2a8/1aD8 b", &["d5-d1"]);
    assert_eq!(board, "11/11/11/11/11/5K5/11/11/11/2a8/1a1a7");
}

#[test]
fn copenhagen_king_wins_in_a_fort_on_the_edge_that_cannot_be_broken() {
    let r = common::rules("copenhagen.var");
    // The King on e1 with f1 empty beside him; the Defender from g5 to g1 closes the
    // wall d1, e2, f2, g1, none of which has open cells on both sides of a line.
    let (g, _) = common::after(&r, "11/1a7a1/11/11/11/11/6D4/11/11/4DD5/3DK6 w", &["g5-g1"]);
    assert_eq!(winner(&g).as_deref(), Some("White"));
    // The King on e1, e2 empty, Defenders on d1, d2, f2 and f1: the one from e5 to e3
    // would close the fort, but d3 and f3 are open either side of e3.
    let (g, _) = common::after(
        &r,
        "11/1a7a1/11/11/11/11/4D6/11/11/3D1D5/3DKD5 w",
        &["e5-e3"],
    );
    assert_eq!(winner(&g), None);
    // With a Defender on d3 too, e3 has a wall piece beside it: a fort.
    let (g, _) = common::after(
        &r,
        "11/1a7a1/11/11/11/11/4D6/11/3D7/3D1D5/3DKD5 w",
        &["e5-e3"],
    );
    assert_eq!(winner(&g).as_deref(), Some("White"));
    // Walled in with no empty cell beside him, the King cannot move: no fort.
    let (g, _) = common::after(&r, "11/1a7a1/11/11/11/11/5D5/11/11/4D6/3DK6 w", &["f5-f1"]);
    assert_eq!(winner(&g), None);
    // An Attacker inside the wall, on g1 (f1 empty, so the Defender landing on h1 does
    // not take it): no fort.
    let (g, _) = common::after(
        &r,
        "11/1a7a1/11/11/11/11/7D3/11/11/4DDD4/3DK1a4 w",
        &["h5-h1"],
    );
    assert_eq!(winner(&g), None);
}

#[test]
fn copenhagen_repetition_loses_for_the_king() {
    let r = common::rules("copenhagen.var");
    let cycle = ["f6-f5", "b10-b9", "f5-f6", "b9-b10"];
    let (g, _) = common::after(&r, "11/1a9/11/11/11/5K5/11/11/11/11/11 w", &cycle);
    assert_eq!(winner(&g), None);
    let twice: Vec<&str> = cycle.iter().chain(&cycle).copied().collect();
    let (g, _) = common::after(&r, "11/1a9/11/11/11/5K5/11/11/11/11/11 w", &twice);
    assert_eq!(winner(&g).as_deref(), Some("Black"));
}

#[test]
fn copenhagen_starts_as_fetlar_does() {
    // The rules differ only once a shield wall or a fort can form: the first plies
    // count as Fetlar's, worked by hand there (116 and 60 first moves).
    let r = common::rules("copenhagen.var");
    let start = "3aaaaa3/5a5/11/a4D4a/a3DDD3a/aa1DDKDD1aa/a3DDD3a/a4D4a/11/5a5/3aaaaa3";
    common::perft_counts(&r, &format!("{start} b"), 1, &[116]);
    common::perft_counts(&r, &format!("{start} w"), 1, &[60]);
    assert_eq!(common::start_text(&r), format!("{start} b 0 1"));
}

#[test]
fn a_fort_in_a_game_that_takes_pieces_next_to_where_one_lands_needs_no_open_side() {
    // Copenhagen's shape with pieces taken next to where a piece lands: the Defender
    // on d1 has c1 open beside it, so an Attacker landing there would take it, and
    // the wall d1, e2, f2, g1 is no fort.
    let text = std::fs::read_to_string(common::root().join("variants/copenhagen.var")).unwrap();
    let start = text.find("enclosed enemy pieces").unwrap();
    let end = start + text[start..].find("\n\n").unwrap();
    let text = format!(
        "{}enemy pieces next to where a piece lands are captured{}",
        &text[..start],
        &text[end..]
    );
    let r = common::from_text(&text);
    let (g, _) = common::after(&r, "11/1a7a1/11/11/11/11/6D4/11/11/4DD5/3DK6 w", &["g5-g1"]);
    assert_eq!(winner(&g), None);
}
