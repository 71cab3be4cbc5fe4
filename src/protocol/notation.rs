//! Moves and scores as the engine protocols write them.

use super::Dialect;
use crate::{MATE, Move, Rules, Special, WON};

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
        } else if v.hand.is_some() && single {
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
