//! Path semantics on small hand-worked cases: a 7x7 board, one pattern at a time,
//! destinations and must-be-empty sets worked out on paper.

use super::destinations;
use crate::check::check;
use crate::geometry::{Cell, CellSet};
use crate::model::{PlayerId, Variant};
use std::collections::BTreeSet;

/// A 7x7 variant whose piece `P` has the given moves (files a-g, ranks 1-7).
fn variant(moves: &str, extra: &str) -> Variant {
    let text = format!(
        "board square 7 by 7\n{extra}\nplayer White: forward north, capitals\nplayer Black: forward south, lowercase\npiece P (P) {{\n{moves}\n}}\n"
    );
    let checked = check("test.var", &text);
    checked
        .variant
        .unwrap_or_else(|| panic!("{text}\n{}", checked.report.render(100, false)))
}

fn cells(v: &Variant, set: impl IntoIterator<Item = Cell>) -> BTreeSet<String> {
    set.into_iter()
        .map(|c| v.board.name(c).to_string())
        .collect()
}

fn set(names: &str) -> BTreeSet<String> {
    names.split_whitespace().map(String::from).collect()
}

/// Destinations of the first move of `P`, for a player, from a cell.
fn reach(moves: &str, player: u8, from: &str) -> BTreeSet<String> {
    reach_on(moves, "", player, from)
}

fn reach_on(moves: &str, extra: &str, player: u8, from: &str) -> BTreeSet<String> {
    let v = variant(moves, extra);
    let p = &v.pieces[0];
    let forward = v.player(PlayerId(player)).forward;
    let from = v.board.parse_cell(from).unwrap();
    let all = p
        .moves
        .iter()
        .flat_map(|m| destinations::<u64>(&v.board, m, forward, from))
        .map(|r| r.to);
    cells(&v, all)
}

/// The alternative must-be-empty sets for reaching `to`.
fn paths(moves: &str, from: &str, to: &str) -> BTreeSet<BTreeSet<String>> {
    let v = variant(moves, "");
    let from = v.board.parse_cell(from).unwrap();
    let to = v.board.parse_cell(to).unwrap();
    let r = destinations::<u64>(&v.board, &v.pieces[0].moves[0], None, from);
    let hit = r.iter().find(|r| r.to == to).expect("reaches the cell");
    hit.paths.iter().map(|m| cells(&v, m.iter())).collect()
}

#[test]
fn end_not_adjacent_to_start() {
    // Two orthogonal steps end two cells straight out or one diagonal away; none of
    // these touches d4 by a side. Excluding diagonal neighbours leaves the four straight.
    let two = "d6 d2 b4 f4 c5 e5 c3 e3";
    assert_eq!(
        reach("step 2 orthogonal, end not adjacent to start", 0, "d4"),
        set(two)
    );
    assert_eq!(reach("step 2 orthogonal", 0, "d4"), set(two));
    assert_eq!(
        reach(
            "step 2 orthogonal, end not diagonally adjacent to start",
            0,
            "d4"
        ),
        set("d6 d2 b4 f4")
    );
}

#[test]
fn never_reversing() {
    // Three orthogonal steps: without reversal, exactly the cells three steps away by
    // files plus ranks (12); with reversal also the four neighbours (N S N ends on d5).
    let far = "d7 d1 a4 g4 c6 e6 c2 e2 b5 f5 b3 f3";
    assert_eq!(
        reach("step 3 orthogonal, never reversing", 0, "d4"),
        set(far)
    );
    let mut with_back = set(far);
    with_back.extend(set("d5 d3 c4 e4"));
    assert_eq!(reach("step 3 orthogonal", 0, "d4"), with_back);
}

#[test]
fn each_new_cell_adjacent_only_to_the_cell_just_left() {
    // N then E lands on e5, which touches d4 only at a corner: allowed for side
    // adjacency, refused for corner adjacency. N then S revisits d4: refused.
    assert_eq!(
        reach(
            "step 2 orthogonal, each new cell adjacent only to the cell just left",
            0,
            "d4"
        ),
        set("d6 d2 b4 f4 c5 e5 c3 e3")
    );
    assert_eq!(
        reach(
            "step 2 orthogonal, each new cell diagonally adjacent only to the cell just left",
            0,
            "d4"
        ),
        set("d6 d2 b4 f4")
    );
}

#[test]
fn outward_turns_away_from_the_last_step() {
    // After N, the outward diagonals are NE and NW: the knight's eight cells.
    assert_eq!(
        reach("step 1 orthogonal then 1 outward diagonal", 0, "d4"),
        set("c6 e6 c2 e2 b5 b3 f5 f3")
    );
    // Any diagonal after the orthogonal step also returns beside the start.
    let all = reach("step 1 orthogonal then 1 diagonal", 0, "d4");
    assert_eq!(all.len(), 12);
    assert!(all.contains("d5") && all.contains("c4"));
}

#[test]
fn counts_and_direct_legs() {
    assert_eq!(
        reach("slide orthogonal", 0, "a1"),
        set("a2 a3 a4 a5 a6 a7 b1 c1 d1 e1 f1 g1")
    );
    assert_eq!(
        reach("step 1 to 2 direct diagonal", 0, "d4"),
        set("c5 b6 e5 f6 c3 b2 e3 f2")
    );
    assert_eq!(
        reach("leap 2 or more direct orthogonal", 0, "d4"),
        set("d6 d7 d2 d1 b4 a4 f4 g4")
    );
    assert_eq!(reach("step 1 to 2 direct N", 0, "d4"), set("d5 d6"));
}

#[test]
fn a_leg_may_take_no_step() {
    // A diagonal step, then any number (even none) of outward orthogonal slides.
    let got = reach(
        "step 1 diagonal then slide 0 or more outward orthogonal",
        0,
        "d4",
    );
    assert_eq!(
        got,
        set("e5 e6 e7 f5 g5 c5 c6 c7 b5 a5 e3 e2 e1 f3 g3 c3 c2 c1 b3 a3")
    );
}

#[test]
fn directions_relative_to_each_player() {
    assert_eq!(reach("step 1 forward", 0, "d4"), set("c5 d5 e5"));
    assert_eq!(reach("step 1 forward", 1, "d4"), set("c3 d3 e3"));
    assert_eq!(reach("step 1 sideways", 1, "d4"), set("c4 e4"));
    assert_eq!(
        reach("step 1 any except straight backward", 0, "d4"),
        set("c5 d5 e5 c4 e4 c3 e3")
    );
    assert_eq!(
        reach("step 1 any except straight backward", 1, "d4"),
        set("c5 e5 c4 e4 c3 d3 e3")
    );
    assert_eq!(
        reach("step 1 backward diagonal or NE", 0, "d4"),
        set("c3 e3 e5")
    );
}

#[test]
fn one_empty_path_is_enough_and_the_start_counts_as_empty() {
    // Orthogonal then diagonal to d5: through e4 or through c4.
    let via = |a: &str| -> BTreeSet<String> { set(a) };
    assert_eq!(
        paths("step 1 orthogonal then 1 diagonal", "d4", "d5"),
        [via("e4"), via("c4")].into()
    );
    assert_eq!(
        paths("step 1 orthogonal then 1 diagonal", "d4", "e6"),
        [via("d5")].into()
    );
    // Three orthogonal steps to d5 (two N and one S, or N E W in some order):
    // E W N passes e4 and the start (empty once left), W E N c4 and the start,
    // S N N d3 and the start, N S N d5 itself and the start; every other order
    // passes two cells, one of them in a set already listed.
    assert_eq!(
        paths("step 3 orthogonal", "d4", "d5"),
        [via("e4"), via("c4"), via("d3"), via("d5")].into()
    );
    // A leap needs nothing empty.
    assert_eq!(paths("leap 3 direct N", "d4", "d7"), [via("")].into());
}

#[test]
fn leaps_cross_holes_and_steps_do_not() {
    assert_eq!(
        reach_on("leap 2 direct orthogonal", "holes b2", 0, "a2"),
        set("a4 c2")
    );
    assert_eq!(
        reach_on("step 2 direct orthogonal", "holes b2", 0, "a2"),
        set("a4")
    );
}
