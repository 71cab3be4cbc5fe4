//! Moves and scores as the engine protocols write them.

use super::Dialect;
use crate::{MATE, Move, Position, Rules, Special, WON};

/// A move in the protocol's notation: the two cells' names run together (`e2e4`), a
/// promotion's code in lower case (`e7e8q`) or `+` where a piece has one promotion and
/// the variant has hands (`8h2b+`), a drop as `P@e5` (UCI) or `P*5e` (USI), a tag as
/// `:mark`; a wall as Fairy-Stockfish writes it, a move from where the piece landed
/// to the wall (`d1d4,d4d7`).
pub fn write(rules: &Rules, dialect: Dialect, m: &Move) -> String {
    let mut s = write_body(rules, dialect, m);
    if let Some(w) = m.written_wall() {
        let b = &rules.variant().board;
        s += &format!(",{}{}", b.name(m.to), b.name(w));
    }
    s
}

/// [`write`], but that in USI a move capturing on its way or ending where it started
/// names the cell it steps through (`6f5e6d`), as lishogi writes a Lion's move; that
/// takes the position it is made from.
pub fn write_at(rules: &Rules, dialect: Dialect, pos: &Position, m: &Move) -> String {
    let through = matches!(m.special, Special::Jump { .. })
        || (m.from == m.to && m.special == Special::Plain);
    match dialect == Dialect::Usi && through && rules.variant().usi_notation() {
        true => crate::write_move_at(rules, pos, m),
        false => write(rules, dialect, m),
    }
}

/// The moves of a line played from `pos`, each written as [`write_at`] writes it.
pub fn write_line(rules: &Rules, dialect: Dialect, pos: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for m in line {
        out.push(write_at(rules, dialect, &pos, m));
        pos.make(rules, m);
    }
    out
}

/// [`write`] without the wall.
fn write_body(rules: &Rules, dialect: Dialect, m: &Move) -> String {
    let v = rules.variant();
    if m.special == Special::Drop || m.special == Special::Copy {
        let mark = match dialect {
            Dialect::Uci => '@',
            Dialect::Usi => '*',
        };
        let landed = m.promotion.unwrap_or(m.piece);
        return format!("{}{mark}{}", v.piece(landed).code, v.board.name(m.to));
    }
    let mut s = format!("{}{}", v.board.name(m.from), v.board.name(m.to));
    if let Some(k) = m.promotion {
        let single = v.piece(m.piece).promotion.iter().all(|p| p.to.len() == 1);
        if v.piece(m.piece).demotes_to == Some(k) {
            s.push('-');
        } else if (v.hand.is_some() || v.usi_notation()) && single {
            s.push('+');
        } else {
            s += &v.piece(k).code.to_lowercase();
        }
    }
    if let Some(t) = m.tag {
        s.push(':');
        s.push(v.tag(t).mark);
    }
    s
}

/// A protocol's move text as the runtime reads moves: a UCI drop's `@` as `*`.
pub fn readable(text: &str) -> String {
    text.replace('@', "*")
}

/// `cp N`, or `mate N`: moves for UCI, plies for USI, negative when the side to move
/// is the one mated.
pub fn score(dialect: Dialect, score: i32) -> String {
    if score.abs() <= WON {
        return format!("cp {score}");
    }
    let plies = MATE - score.abs();
    let n = match dialect {
        Dialect::Uci => (plies + 1) / 2,
        Dialect::Usi => plies,
    };
    format!("mate {}", if score > 0 { n } else { -n })
}
