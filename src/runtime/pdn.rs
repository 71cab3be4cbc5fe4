//! Positions and moves as draughts players write them (PDN): the cells numbered from
//! 1, row by row as position strings list them, and a position as `W:W31,32,K45:B1,2`
//! (the side to move, then each player's pieces; a piece of the first kind declared
//! bare, any other with its code before the number).

use super::position::{Move, Setup};
use crate::compile::Rules;
use crate::geometry::Cell;
use crate::model::{PlayerId, Variant};
use std::fmt;

/// The board's cells as rows, as position strings list them (see
/// [`crate::geometry::Board::reading_rows`]).
pub fn rows(v: &Variant) -> Vec<Vec<Cell>> {
    v.board.reading_rows()
}

/// Why a position in PDN does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnError {
    Empty,
    /// No player is written so; how each one is; whether it was the side to move.
    UnknownSide {
        given: String,
        letters: Vec<String>,
        to_move: bool,
    },
    UnknownCode(String),
    /// No square of that number: they run from 1 to `last`.
    UnknownSquare {
        given: String,
        last: usize,
    },
    /// A square given a piece twice.
    Twice(usize),
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::Empty => write!(f, "the position string is empty"),
            PdnError::UnknownSide { given, letters, .. } => write!(
                f,
                "`{given}` is not a player; write {}",
                letters
                    .iter()
                    .map(|l| format!("`{l}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            PdnError::UnknownCode(code) => {
                write!(f, "`{code}` is not a piece code of this variant")
            }
            PdnError::UnknownSquare { given, last } => {
                write!(f, "`{given}` is no square: they are numbered 1 to {last}")
            }
            PdnError::Twice(n) => write!(f, "square {n} is given a piece twice"),
        }
    }
}

/// The cells in numbering order: square `n` is `squares(v)[n - 1]`.
pub fn squares(v: &Variant) -> Vec<Cell> {
    v.board.reading_order()
}

/// The number of a cell.
pub fn number(v: &Variant, c: Cell) -> usize {
    squares(v).iter().position(|s| *s == c).map_or(0, |i| i + 1)
}

/// The cell a square number names, if any.
pub fn square(v: &Variant, text: &str) -> Option<Cell> {
    let n: usize = text.trim().parse().ok()?;
    squares(v).get(n.checked_sub(1)?).copied()
}

/// How a player is written: its name's initial, in capitals.
fn letter(v: &Variant, p: PlayerId) -> String {
    let name = &v.player(p).name;
    name.chars()
        .next()
        .map_or(String::new(), |c| c.to_uppercase().collect())
}

/// Writes a position: the side to move, then each player's pieces by number.
pub fn write_pdn(rules: &Rules, setup: &Setup) -> String {
    let v = &rules.variant;
    let numbers = squares(v);
    let mut s = letter(v, setup.to_move);
    for p in (0..v.players.len()).map(|i| PlayerId(i as u8)) {
        s.push(':');
        s += &letter(v, p);
        let pieces: Vec<String> = (numbers.iter().enumerate())
            .filter_map(|(i, c)| match setup.cells[c.index()] {
                Some((pl, k)) if pl == p && k.0 == 0 => Some((i + 1).to_string()),
                Some((pl, k)) if pl == p => Some(format!("{}{}", v.piece(k).code, i + 1)),
                _ => None,
            })
            .collect();
        s += &pieces.join(",");
    }
    s
}

/// Reads a position written as [`write_pdn`] writes it; pieces may also be given as
/// ranges (`1-12`), and a final `.` is allowed.
pub fn parse_pdn(rules: &Rules, text: &str) -> Result<Setup, PdnError> {
    use PdnError as E;
    let v = &rules.variant;
    let text = text.trim().trim_end_matches('.');
    if text.is_empty() {
        return Err(E::Empty);
    }
    let letters: Vec<String> = (0..v.players.len())
        .map(|i| letter(v, PlayerId(i as u8)))
        .collect();
    let player = |t: &str, to_move: bool| {
        letters
            .iter()
            .position(|l| l.eq_ignore_ascii_case(t))
            .map(|i| PlayerId(i as u8))
            .ok_or_else(|| E::UnknownSide {
                given: t.to_string(),
                letters: letters.clone(),
                to_move,
            })
    };
    let mut fields = text.split(':');
    let to_move = player(fields.next().unwrap_or("").trim(), true)?;
    let mut setup = Setup::fixed(rules);
    setup.cells.fill(None);
    setup.to_move = to_move;
    let numbers = squares(v);
    for field in fields {
        let field = field.trim();
        // The player's letter, then its pieces (a king's number after its code).
        let split = field.chars().next().map_or(0, char::len_utf8);
        let owner = player(&field[..split], false)?;
        for item in field[split..]
            .split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
        {
            let digits = item
                .find(|c: char| c.is_ascii_digit())
                .unwrap_or(item.len());
            let (code, place) = item.split_at(digits);
            let kind = match code {
                "" => crate::model::PieceId(0),
                c => v
                    .find_piece(c)
                    .ok_or_else(|| E::UnknownCode(c.to_string()))?,
            };
            let (first, last) = place.split_once('-').unwrap_or((place, place));
            let cell = |t: &str| {
                square(v, t).ok_or_else(|| E::UnknownSquare {
                    given: t.to_string(),
                    last: numbers.len(),
                })
            };
            let (a, b) = (number(v, cell(first)?), number(v, cell(last)?));
            for n in a.min(b)..=a.max(b) {
                let cell = &mut setup.cells[numbers[n - 1].index()];
                if cell.replace((owner, kind)).is_some() {
                    return Err(E::Twice(n));
                }
            }
        }
    }
    Ok(setup)
}

/// A move by square numbers: `32-28`, `28x19`; a capture by jumping through cells
/// landed on before its end (`26x17x8`) where `path` gives them.
pub fn write_pdn_move(v: &Variant, m: &Move, path: &[Cell]) -> String {
    let sep = if m.captured.is_some() { "x" } else { "-" };
    let mut s = number(v, m.from).to_string();
    for c in path.iter().chain([&m.to]) {
        s += sep;
        s += &number(v, *c).to_string();
    }
    s
}
