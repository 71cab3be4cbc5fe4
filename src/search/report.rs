//! What the engine found or believes, in words.

use super::engine::{Limits, Searcher, Thought, describe_score};
use super::values::piece_values;
use crate::compile::Rules;
use crate::runtime::{Game, Position, write_move_at};
use std::fmt::Write;

/// Searches the current position of a game, its earlier positions counting for
/// repetition.
pub fn think_in_game(searcher: &mut Searcher, game: &Game, limits: &Limits) -> Thought {
    think_in_game_reporting(searcher, game, limits, &mut |_| {})
}

/// [`think_in_game`], telling `report` what each finished iteration found.
pub fn think_in_game_reporting(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    report: &mut dyn FnMut(&Thought),
) -> Thought {
    let keys = game.keys();
    searcher.think_reporting(
        game.position(),
        &keys[..keys.len() - 1],
        game.checks(),
        limits,
        report,
    )
}

/// The best move, its score, the principal variation and the effort; the moves written
/// as they are typed from `pos`, where the search started.
pub fn describe_thought(rules: &Rules, pos: &Position, t: &Thought) -> String {
    let mut s = String::new();
    match t.best {
        Some(m) => writeln!(s, "best move {}", write_move_at(rules, pos, &m)).ok(),
        None => writeln!(s, "no legal move").ok(),
    };
    let mut at = pos.clone();
    let pv: Vec<String> = (t.pv.iter())
        .map(|m| {
            let text = write_move_at(rules, &at, m);
            at.make(rules, m);
            text
        })
        .collect();
    let secs = t.elapsed.as_secs_f64();
    let _ = writeln!(s, "score {}", describe_score(t.score));
    let _ = writeln!(s, "depth {}", t.depth);
    let _ = writeln!(s, "pv {}", pv.join(" "));
    let _ = writeln!(
        s,
        "nodes {} in {:.2}s ({:.0} nodes/s)",
        t.nodes,
        secs,
        t.nodes as f64 / secs.max(1e-9)
    );
    s
}

/// A table of every piece's estimated value and where it comes from.
pub fn values_table(rules: &Rules) -> String {
    let v = &rules.variant;
    let mut values = piece_values(rules);
    values.sort_by_key(|p| (std::cmp::Reverse(p.value), p.piece));
    let width = v
        .pieces
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut s = format!("{:<width$}  code  value  reach  weighed\n", "piece");
    for p in &values {
        let piece = v.piece(p.piece);
        let _ = writeln!(
            s,
            "{:<width$}  {:<4}  {:>5}  {:>5.2}  {:>7.2}{}",
            piece.name,
            piece.code,
            p.value,
            p.reach,
            p.weighed,
            if p.decides { "  decides the game" } else { "" }
        );
    }
    s += "\nvalue: hundredths of the weakest piece whose capture does not decide the game.\n";
    s += "reach: cells reached from an average cell of the empty board.\n";
    s += "weighed: the same, each move counted by the chance that its path is clear on a\n";
    s += "board 30% full, times 0.5 when it cannot capture, 0.6 when it only captures,\n";
    s += "0.3 when it takes one kind only, 0.15 when once per game; up to a quarter more\n";
    s += "for a piece that few kinds may capture.\n";
    s
}
