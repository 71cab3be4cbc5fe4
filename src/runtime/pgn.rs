//! Games as PGN: the short notation (SAN, from [`super::write_short_line`]) where a variant's pieces have
//! one-letter codes and its cells are named by letters then digits (the chess family),
//! the variant's own move text elsewhere; `Variant`, `SetUp` and `FEN` tags.

use super::game::Game;
use super::position::{Position, Setup};
use super::position_text::write_position;
use crate::model::{PlayerId, Variant};
use std::fmt::Write;

/// Whether moves can be written in SAN: no hands and no tags, one-letter codes, and
/// cells named by a file's letters then a rank's digits.
pub fn writes_san(v: &Variant) -> bool {
    v.hand.is_none()
        && v.tags.is_empty()
        && v.pieces
            .iter()
            .all(|p| p.code.len() == 1 && p.code.bytes().all(|b| b.is_ascii_alphabetic()))
        && v.board
            .cells()
            .all(|c| split_name(v.board.name(c)).is_some())
}

/// A cell's name as its file and rank: `e4` is (`e`, `4`).
fn split_name(name: &str) -> Option<(&str, &str)> {
    let cut = name.find(|c: char| c.is_ascii_digit())?;
    let (file, rank) = name.split_at(cut);
    let ok = !file.is_empty()
        && file.bytes().all(|b| b.is_ascii_lowercase())
        && rank.bytes().all(|b| b.is_ascii_digit());
    ok.then_some((file, rank))
}

/// The PGN of a game: the seven tags (`players` name the first two sides; `event`
/// the occasion), `Variant`, `SetUp` and `FEN` when the game did not begin at the
/// variant's own start (or its start is drawn at random), a `Termination` comment
/// with the ending's reason, and the moves.
pub fn write_pgn(game: &Game, event: &str, players: [&str; 2]) -> String {
    let rules = game.rules();
    let v = rules.variant();
    let result = result_token(game);
    let mut s = String::new();
    let tag = |s: &mut String, name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(s, "[{name} \"{value}\"]");
    };
    tag(&mut s, "Event", event);
    tag(&mut s, "Site", "?");
    tag(&mut s, "Date", "????.??.??");
    tag(&mut s, "Round", "?");
    tag(&mut s, "White", players[0]);
    tag(&mut s, "Black", players[1]);
    tag(&mut s, "Result", result);
    tag(&mut s, "Variant", &v.name);
    let start = game.start_setup();
    if v.random.is_some() || *start != Setup::start(rules) {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &write_position(rules, start));
    }
    if let Some(e) = game.ending() {
        tag(&mut s, "Termination", &e.reason);
    }
    s.push('\n');
    let mut words: Vec<String> = vec![];
    let mut pos = Position::from_setup(rules, start).expect("the game's start is a position");
    let shorts = writes_san(v).then(|| game.short_moves());
    let mut number = pos.move_number();
    for (i, m) in game.moves().enumerate() {
        let first = pos.to_move() == PlayerId(0);
        if first {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(match &shorts {
            Some(shorts) => shorts[i].clone(),
            None => super::move_text::write_move_at(rules, &pos, m),
        });
        pos.make(rules, m);
        if pos.to_move() == PlayerId(0) {
            number += 1;
        }
    }
    if let Some(e) = game.ending()
        && result == "*"
    {
        words.push(format!("{{{}}}", e.result(v)));
    }
    words.push(result.to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            s += &line;
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &w;
    }
    s += &line;
    s += "\n\n";
    s
}

/// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game still going or a share PGN cannot say.
fn result_token(game: &Game) -> &'static str {
    let Some(e) = game.ending() else {
        return "*";
    };
    if game.variant().players.len() != 2 {
        return "*";
    }
    match (e.score.fraction(PlayerId(0)), e.winner()) {
        (_, Some(PlayerId(0))) => "1-0",
        (_, Some(_)) => "0-1",
        ((a, b), None) if 2 * a == b => "1/2-1/2",
        _ => "*",
    }
}
