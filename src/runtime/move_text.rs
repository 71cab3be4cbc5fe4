//! Move text: writing moves and reading them back against a position.

use super::position::{Move, Position, Special};
use crate::compile::Rules;
use crate::geometry::Cell;
use crate::model::{PieceId, TagId, Variant};
use std::fmt;

/// Writes a move: `from-to`, `x` for a capture, `=CODE` for a promotion and `:tag`
/// for a tagged move. Castling is written as its first piece's move.
///
/// In variants with hands whose promoted kinds are coded `+X` (the shogi family, unless
/// the file says `position strings as in FEN`), moves are written as USI writes them: `7g7f`, `8h2b+` (a promotion, to the piece's
/// only choice; `=CODE` when it has several), `P*5e` (a drop). In other variants with
/// hands, as UCI writes them: `e2e4`, `e7e8q` (the promotion's code in lowercase, `+`
/// for a `+X` kind), `P@e4`.
///
/// A move that walls off a cell ends in `,` and that cell: `d1-d4,d7`.
pub fn write_move(v: &Variant, m: &Move) -> String {
    let mut s = write_body(v, m);
    if let Some(w) = m.written_wall() {
        s.push(',');
        s += v.board.name(w);
    }
    s
}

/// [`write_move`], but that a capture by jumping sharing its start and end with another
/// legal move of `pos` names every cell it lands on (`a7xc5xe3`), as `parse_move`
/// reads it back.
///
/// In USI notation a move that captures on its way, or ends where it started, names
/// the cell it steps through between its start and its end, as lishogi writes a
/// Lion's double move: `6f5e6d`, `6f5e6f`.
pub fn write_move_at(rules: &Rules, pos: &Position, m: &Move) -> String {
    let v = &rules.variant;
    if v.usi_notation() {
        let through: Vec<Cell> = match m.special {
            Special::Jump { .. } => (pos.jump_path(rules, m).1.into_iter())
                .filter(|c| *c != m.to)
                .collect(),
            _ => pos.passed_through(rules, m).into_iter().collect(),
        };
        if !through.is_empty() {
            let mut s = v.board.name(m.from).to_string();
            for c in through.iter().chain([&m.to]) {
                s += v.board.name(*c);
            }
            return s;
        }
    }
    if !matches!(m.special, Special::Jump { .. }) {
        return write_move(v, m);
    }
    let mut moves = Vec::new();
    pos.legal_moves(rules, &mut moves);
    let shared = (moves.iter())
        .filter(|o| (o.from, o.to) == (m.from, m.to))
        .count()
        > 1;
    let (path, _) = pos.jump_path(rules, m);
    match (shared, v.pdn) {
        (false, _) => write_move(v, m),
        (true, true) => super::pdn::write_pdn_move(v, m, &path),
        (true, false) => {
            let mut s = v.board.name(m.from).to_string();
            for c in path.iter().chain([&m.to]) {
                s.push('x');
                s += v.board.name(*c);
            }
            if let Some(k) = m.promotion {
                s.push('=');
                s += &v.piece(k).code;
            }
            s
        }
    }
}

/// Reads a move written through every cell it lands on (`a7xc5xe3`, or in PDN
/// `26x17x8`), or any move in PDN (`32-28`); `None` where the text is not so written.
fn parse_path(rules: &Rules, pos: &Position, body: &str) -> Option<Result<Move, MoveError>> {
    let v = &rules.variant;
    // A path is joined by `x` only; in PDN a plain move is two squares and `-`.
    let plain = v.pdn && body.matches('-').count() == 1 && !body.contains(['x', 'X']);
    let parts: Vec<&str> = match plain {
        true => body.split('-').map(str::trim).collect(),
        false => body.split(['x', 'X']).map(str::trim).collect(),
    };
    let (promo, last) = match parts.last()?.split_once('=') {
        Some((c, p)) => (Some(p), c),
        None => (None, *parts.last()?),
    };
    let name = |t: &str| match v.pdn {
        true => super::pdn::square(v, t),
        false => v.board.parse_cell(t),
    };
    let cells: Option<Vec<Cell>> = parts[..parts.len() - 1]
        .iter()
        .copied()
        .chain([last])
        .map(name)
        .collect();
    let cells = cells.filter(|c| c.len() >= 2 && (v.pdn || c.len() > 2))?;
    let (from, to, path) = (cells[0], cells[cells.len() - 1], &cells[1..cells.len() - 1]);
    let promotion = match promo {
        Some(p) => match v.find_piece(p) {
            Some(k) => Some(k),
            None => return Some(Err(MoveError::UnknownPiece(p.to_string()))),
        },
        None => None,
    };
    let mut moves = Vec::new();
    pos.legal_moves(rules, &mut moves);
    let matching: Vec<Move> = moves
        .into_iter()
        .filter(|m| (m.from, m.to) == (from, to))
        .filter(|m| promotion.is_none() || m.promotion == promotion)
        .filter(|m| path.is_empty() || pos.jump_path(rules, m).0 == path)
        .collect();
    Some(match matching.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveError::Illegal {
            piece: pos
                .at(from)
                .map_or("piece".into(), |(_, k)| v.piece(k).name.clone()),
            from: v.board.name(from).into(),
            to: v.board.name(to).into(),
        }),
        several => Err(MoveError::Ambiguous(
            several
                .iter()
                .map(|m| write_move_at(rules, pos, m))
                .collect(),
        )),
    })
}

/// Reads a move written in USI through the cell it steps on (`6f5e6d`, as
/// [`write_move_at`] writes it); `None` where the text is not three cells.
fn parse_through(rules: &Rules, pos: &Position, body: &str) -> Option<Result<Move, MoveError>> {
    let v = &rules.variant;
    if !v.usi_notation() {
        return None;
    }
    let b = &v.board;
    let cut = |t: &str, i: usize| t.is_char_boundary(i).then_some(i);
    let (from, mid, to) = (1..body.len()).filter_map(|i| cut(body, i)).find_map(|i| {
        let from = b.parse_cell(&body[..i])?;
        let rest = &body[i..];
        (1..rest.len())
            .filter_map(|j| cut(rest, j))
            .find_map(|j| Some((from, b.parse_cell(&rest[..j])?, b.parse_cell(&rest[j..])?)))
    })?;
    let mut moves = Vec::new();
    if b.next_to(from, mid) && b.next_to(mid, to) {
        pos.legal_moves(rules, &mut moves);
    }
    // Through an enemy, the capture on the way; through an empty cell, the move itself.
    let enemy = pos.at(mid).is_some_and(|(pl, _)| pl != pos.to_move());
    let found = moves.into_iter().find(|m| {
        (m.from, m.to) == (from, to)
            && match m.special {
                Special::Jump { .. } => enemy && pos.jump_path(rules, m).1.contains(&mid),
                _ => !enemy && pos.at(mid).is_none(),
            }
    });
    Some(found.ok_or_else(|| {
        MoveError::Illegal {
            piece: pos
                .at(from)
                .map_or("piece".into(), |(_, k)| v.piece(k).name.clone()),
            from: b.name(from).into(),
            to: format!("{} through {}", b.name(to), b.name(mid)),
        }
    }))
}

/// [`write_move`] without the wall.
fn write_body(v: &Variant, m: &Move) -> String {
    if v.pdn {
        return super::pdn::write_pdn_move(v, m, &[]);
    }
    let (from, to) = named_cells(v, m);
    if m.special == Special::Copy && !v.usi_notation() {
        return format!("{}@{}", v.piece(m.piece).code, v.board.name(m.to));
    }
    if v.has_hands() || v.usi_notation() {
        let usi = v.usi_notation();
        if m.special == Special::Drop || m.special == Special::Copy {
            let mark = if usi { '*' } else { '@' };
            let landed = m.promotion.unwrap_or(m.piece);
            return format!("{}{mark}{}", v.piece(landed).code, v.board.name(m.to));
        }
        let mut s = format!("{}{}", v.board.name(from), v.board.name(to));
        if let Some(k) = m.promotion {
            let code = &v.piece(k).code;
            if v.piece(m.piece).demotes_to == Some(k) {
                // Turned back to its unpromoted side.
                s.push('-');
            } else if code.starts_with('+') && (!usi || single_promotion(v, m.piece)) {
                s.push('+');
            } else if usi {
                s += &format!("={code}");
            } else {
                s += &code.to_ascii_lowercase();
            }
        }
        if let Some((k, _)) = m.gate {
            s += &v.piece(k).code.to_ascii_lowercase();
        }
        return s;
    }
    let sep = if m.captured.is_some() { 'x' } else { '-' };
    let mut s = format!("{}{sep}{}", v.board.name(from), v.board.name(to));
    if let Some(k) = m.promotion {
        s.push('=');
        s += &v.piece(k).code;
    }
    if let Some(t) = m.tag {
        s.push(':');
        s.push(v.tag(t).mark);
    }
    s
}

/// The two cells a move's text names: a castling's written cells, else from and to.
/// The page offers a move between these cells too (a Chess960 King clicks its Rook).
/// A castling bringing a piece in through another part's start names that start, then
/// the first piece's (`h1e1h`, as Fairy-Stockfish writes it).
pub fn named_cells(v: &Variant, m: &Move) -> (Cell, Cell) {
    match (m.special, m.gate) {
        (Special::Castle(_), Some((_, g))) if g != m.from => (g, m.from),
        (Special::Castle(i), _) => v
            .castlings
            .get(i as usize)
            .map_or((m.from, m.to), |c| c.written),
        _ => (m.from, m.to),
    }
}

/// Whether the piece's promotions all lead to one kind, so `+` says which.
pub(super) fn single_promotion(v: &Variant, piece: PieceId) -> bool {
    v.piece(piece).promotion.iter().all(|p| p.to.len() == 1)
}

/// Reads a drop `P*5e`: the piece must be in the mover's hand and the cell empty; or a
/// copy landing there.
fn parse_drop(
    rules: &Rules,
    pos: &Position,
    code: &str,
    cell: &str,
    wall: Option<Cell>,
) -> Result<Move, MoveError> {
    let v = &rules.variant;
    let landed = v
        .find_piece(code.trim())
        .ok_or_else(|| MoveError::UnknownPiece(code.trim().to_string()))?;
    // A promoted form dropped face up comes from the hand as its base kind.
    let piece =
        if rules.drop_faces[rules.demote[landed.0 as usize].0 as usize] & (1 << landed.0) != 0 {
            rules.demote[landed.0 as usize]
        } else {
            landed
        };
    let to = v
        .board
        .parse_cell(cell.trim())
        .ok_or_else(|| MoveError::UnknownCell {
            cell: cell.trim().to_string(),
            text: format!("{code}*{cell}"),
        })?;
    let me = pos.to_move();
    let mut moves = Vec::new();
    pos.legal_moves(rules, &mut moves);
    if let Some(m) = moves
        .iter()
        .find(|m| m.special == Special::Copy && m.piece == piece && m.to == to)
    {
        return Ok(*m);
    }
    let name = v.board.name(to).to_string();
    let refuse = |reason: String| MoveError::Drop {
        piece: v.piece(piece).name.clone(),
        cell: name.clone(),
        reason,
    };
    if pos.in_hand(me, piece) == 0 {
        return Err(refuse(format!("{} has none in hand", v.player(me).name)));
    }
    if let Some((pl, k)) = pos.at(to) {
        return Err(refuse(format!(
            "the cell is occupied by {}'s {}",
            v.player(pl).name,
            v.piece(k).name
        )));
    }
    moves
        .into_iter()
        .find(|m| {
            m.special == Special::Drop
                && m.piece == piece
                && m.promotion.unwrap_or(m.piece) == landed
                && m.to == to
                && wall.is_none_or(|w| m.wall == Some(w))
        })
        .ok_or_else(|| refuse("the rules forbid this drop here".into()))
}

/// Why a move cannot be read or played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form from-to; carries a legal move as an example, if any.
    Notation {
        text: String,
        example: Option<String>,
    },
    /// A move names more than two cells, as in `e2-e3-e4`.
    TooManyCells {
        text: String,
        count: usize,
        example: Option<String>,
    },
    /// One side of the separator is empty, as in `e2-`.
    MissingCell {
        text: String,
        /// `from` or `to`.
        which: &'static str,
        example: Option<String>,
    },
    /// A readable move followed by more words.
    ExtraWords {
        text: String,
        extra: String,
    },
    UnknownCell {
        cell: String,
        text: String,
    },
    /// A tag that is not one of the variant's marks, which are listed.
    UnknownTag {
        tag: String,
        marks: Vec<char>,
    },
    NoPiece {
        cell: String,
    },
    NotYours {
        cell: String,
        player: String,
    },
    Illegal {
        piece: String,
        from: String,
        to: String,
    },
    /// Several legal moves match; they are listed.
    Ambiguous(Vec<String>),
    /// The move promotes; the choices are listed.
    Promotion(Vec<String>),
    UnknownPiece(String),
    /// A drop the position refuses, and why.
    Drop {
        piece: String,
        cell: String,
        reason: String,
    },
    /// A move that names a piece to bring in through a gate, or omits one, wrongly.
    Gate {
        text: String,
        reason: String,
    },
    GameOver(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Notation { text, example } => {
                write!(f, "`{text}`: write a move as from-to")?;
                example
                    .as_ref()
                    .map_or(Ok(()), |e| write!(f, ", e.g. `{e}`"))
            }
            MoveError::TooManyCells {
                text,
                count,
                example,
            } => {
                write!(
                    f,
                    "`{text}`: a move names two cells, from and to, not {count}"
                )?;
                example
                    .as_ref()
                    .map_or(Ok(()), |e| write!(f, ", e.g. `{e}`"))
            }
            MoveError::MissingCell {
                text,
                which,
                example,
            } => {
                write!(
                    f,
                    "`{text}`: the cell to move {which} is missing; write a move as from-to"
                )?;
                example
                    .as_ref()
                    .map_or(Ok(()), |e| write!(f, ", e.g. `{e}`"))
            }
            MoveError::ExtraWords { text, extra } => {
                write!(f, "`{text}`: nothing may follow a move, but `{extra}` does")
            }
            MoveError::UnknownCell { cell, text } => {
                write!(f, "`{text}`: `{cell}` is not a cell of this board")
            }
            MoveError::UnknownTag { tag, marks } => {
                write!(f, "`{tag}` is not a tag of this variant")?;
                let marks: Vec<String> = marks.iter().map(|m| format!("`{m}`")).collect();
                match marks.as_slice() {
                    [] => write!(f, ", which has none"),
                    _ => write!(f, "; its tags are {}", marks.join(", ")),
                }
            }
            MoveError::NoPiece { cell } => write!(f, "there is no piece on {cell}"),
            MoveError::NotYours { cell, player } => {
                write!(f, "the piece on {cell} is not {player}'s")
            }
            MoveError::Illegal { piece, from, to } => {
                write!(f, "{piece} cannot go from {from} to {to} here")
            }
            MoveError::Ambiguous(moves) => {
                write!(f, "several moves match; say which: {}", moves.join(", "))
            }
            MoveError::Promotion(moves) => {
                write!(f, "choose what to promote to: {}", moves.join(", "))
            }
            MoveError::UnknownPiece(p) => write!(f, "`{p}` is not a piece of this variant"),
            MoveError::Drop {
                piece,
                cell,
                reason,
            } => write!(f, "cannot drop a {piece} on {cell}: {reason}"),
            MoveError::Gate { text, reason } => write!(f, "`{text}`: {reason}"),
            MoveError::GameOver(reason) => write!(f, "the game is over: {reason}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Reads `from-to`, `fromxto` or `fromto`, with what follows the second cell (a
/// promotion code, as in `e7e8q`), trying every way to cut the text into two cells.
fn split_cells<'a>(rules: &Rules, body: &'a str) -> Option<(Cell, Cell, &'a str)> {
    let b = &rules.variant.board;
    let cut = |i: usize| body.is_char_boundary(i).then_some(i);
    (1..body.len()).filter_map(cut).find_map(|i| {
        let from = b.parse_cell(body[..i].trim())?;
        let rest = &body[i..];
        let rests = std::iter::once(rest).chain(rest.strip_prefix(['-', 'x', 'X']));
        rests.into_iter().find_map(|r| {
            (1..=r.len())
                .rev()
                .filter(|j| r.is_char_boundary(*j))
                .find_map(|j| {
                    let to = b.parse_cell(r[..j].trim())?;
                    let tail = r[j..].trim();
                    let ok = tail.is_empty() || tail.chars().all(|c| c.is_ascii_alphabetic());
                    ok.then_some((from, to, tail))
                })
        })
    })
}

/// Finds the legal move a text names; the error says why none matches.
pub fn parse_move(rules: &Rules, pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    parse_one(rules, pos, t).map_err(|e| match t.split_once(char::is_whitespace) {
        // `e2-e3 please`: the first word is a move, the rest is extra.
        Some((first, rest))
            if split_cells(rules, first.split(':').next().unwrap_or("")).is_some() =>
        {
            MoveError::ExtraWords {
                text: t.to_string(),
                extra: rest.trim().to_string(),
            }
        }
        _ => e,
    })
}

/// Why `body` (a move without its tag) names no two cells.
fn explain(rules: &Rules, pos: &Position, t: &str, body: &str) -> MoveError {
    let b = &rules.variant.board;
    let text = t.to_string();
    let parts: Vec<&str> = if body.contains('-') {
        body.split('-').map(str::trim).collect()
    } else {
        body.split(['x', 'X']).map(str::trim).collect()
    };
    let example = example(rules, pos);
    match parts.as_slice() {
        [_] => MoveError::Notation { text, example },
        ["", _] => MoveError::MissingCell {
            text,
            which: "from",
            example,
        },
        [_, ""] => MoveError::MissingCell {
            text,
            which: "to",
            example,
        },
        [a, c] => match [a, c].into_iter().find(|p| b.parse_cell(p).is_none()) {
            Some(cell) => MoveError::UnknownCell {
                cell: cell.to_string(),
                text,
            },
            None => MoveError::Notation { text, example },
        },
        many if many.iter().all(|p| !p.is_empty()) => MoveError::TooManyCells {
            text,
            count: many.len(),
            example,
        },
        _ => MoveError::Notation { text, example },
    }
}

/// Splits off the wall of `d1-d4,d7`, or of Fairy-Stockfish's `d1d4,d4d7` (the wall
/// written as a move from where the piece landed).
fn split_wall<'a>(rules: &Rules, t: &'a str) -> Result<(&'a str, Option<Cell>), MoveError> {
    let Some((body, wall)) = t.split_once(',') else {
        return Ok((t, None));
    };
    let b = &rules.variant.board;
    let wall = wall.trim();
    if let Some(c) = b.parse_cell(wall) {
        return Ok((body, Some(c)));
    }
    match split_cells(rules, wall) {
        Some((_, c, "")) => Ok((body, Some(c))),
        _ => Err(MoveError::UnknownCell {
            cell: wall.to_string(),
            text: t.to_string(),
        }),
    }
}

fn parse_one(rules: &Rules, pos: &Position, t: &str) -> Result<Move, MoveError> {
    let v = &rules.variant;
    let (t, wall) = split_wall(rules, t)?;
    if t.eq_ignore_ascii_case("pass") {
        let mut moves = Vec::new();
        pos.legal_moves(rules, &mut moves);
        if let Some(m) = moves.into_iter().find(|m| m.special == Special::Pass) {
            return Ok(m);
        }
    }
    let (body, tag) = match t.split_once(':') {
        Some((b, m)) => (b, Some(m.trim())),
        None => (t, None),
    };
    if let Some((code, cell)) = body.split_once(['*', '@']) {
        return parse_drop(rules, pos, code, cell, wall);
    }
    if let Some(found) = parse_path(rules, pos, body) {
        return found;
    }
    if let Some(found) = parse_through(rules, pos, body) {
        return found;
    }
    let (body, promote) = match body.trim_end().strip_suffix('+') {
        Some(b) => (b, true),
        None => (body, false),
    };
    // A trailing `-` turns the piece back (`2e1d-`), when two cells stand before it.
    let (body, demote) = match body.trim_end().strip_suffix('-') {
        Some(b) if split_cells(rules, b).is_some() => (b, true),
        _ => (body, false),
    };
    let (body, promo) = match body.split_once('=') {
        Some((b, p)) => (b.trim(), Some(p.trim())),
        None => (body, None),
    };
    let Some((from, to, tail)) = split_cells(rules, body) else {
        return Err(explain(rules, pos, t, body));
    };
    let promo = match (promo, tail) {
        (Some(p), _) if !p.is_empty() => Some(p),
        (_, "") => None,
        (_, tail) => Some(tail),
    };
    let promotion = match promo {
        None if demote => {
            let base = pos.at(from).and_then(|(_, k)| v.piece(k).demotes_to);
            Some(base.ok_or_else(|| {
                MoveError::Illegal {
                    piece: pos
                        .at(from)
                        .map_or("piece".into(), |(_, k)| v.piece(k).name.clone()),
                    from: v.board.name(from).into(),
                    to: format!("{} turning back", v.board.name(to)),
                }
            })?)
        }
        None if promote => {
            let mut moves = Vec::new();
            pos.legal_moves(rules, &mut moves);
            let kinds: Vec<PieceId> = moves
                .iter()
                .filter(|m| named_cells(v, m) == (from, to))
                .filter_map(|m| m.promotion)
                .collect();
            // Among several kinds, `+` names the one coded `+X` (as FEN programs write it).
            let plus: Vec<PieceId> = kinds
                .iter()
                .copied()
                .filter(|k| v.piece(*k).code.starts_with('+'))
                .collect();
            match (kinds.first().copied(), kinds.get(1)) {
                (Some(k), None) => Some(k),
                (Some(_), Some(_)) if plus.len() == 1 => Some(plus[0]),
                (None, _) => {
                    return Err(MoveError::Illegal {
                        piece: pos
                            .at(from)
                            .map_or("piece".into(), |(_, k)| v.piece(k).name.clone()),
                        from: v.board.name(from).into(),
                        to: format!("{} promoting", v.board.name(to)),
                    });
                }
                _ => None,
            }
        }
        None => None,
        Some(p) => Some(
            v.find_piece(p)
                .ok_or_else(|| MoveError::UnknownPiece(p.to_string()))?,
        ),
    };
    let tag = match tag {
        None => None,
        Some(m) => Some(
            v.tags
                .iter()
                .position(|x| x.mark.to_string() == m)
                .map(|i| TagId(i as u8))
                .ok_or_else(|| MoveError::UnknownTag {
                    tag: m.to_string(),
                    marks: v.tags.iter().map(|t| t.mark).collect(),
                })?,
        ),
    };
    let name = |c: Cell| v.board.name(c).to_string();
    let me = pos.to_move();
    let piece = match pos.at(from) {
        None => return Err(MoveError::NoPiece { cell: name(from) }),
        Some((pl, _)) if pl != me => {
            return Err(MoveError::NotYours {
                cell: name(from),
                player: v.player(me).name.clone(),
            });
        }
        Some((_, k)) => k,
    };
    let mut moves = Vec::new();
    pos.legal_moves(rules, &mut moves);
    // The letter after the cells names the piece brought in, where a move brings one.
    let gate = promotion.filter(|k| {
        moves
            .iter()
            .any(|m| named_cells(v, m) == (from, to) && m.gate.is_some_and(|g| g.0 == *k))
    });
    let promotion = promotion.filter(|_| gate.is_none());
    // In USI two cells name a move that captures nothing on its way and goes somewhere
    // (`6f5e6d`, `6f5e6f` name the others).
    let usi = v.usi_notation();
    let mut matching: Vec<&Move> = moves
        .iter()
        .filter(|m| !usi || !matches!(m.special, Special::Jump { .. }) && m.from != m.to)
        .filter(|m| named_cells(v, m) == (from, to) && (tag.is_none() || m.tag == tag))
        .filter(|m| m.gate.map(|g| g.0) == gate)
        .filter(|m| promotion.is_none() || m.promotion == promotion)
        .filter(|m| wall.is_none_or(|w| m.wall == Some(w)))
        .collect();
    if promotion.is_none() && matching.iter().any(|m| m.promotion.is_some()) {
        // Without a choice, an optional promotion is declined; a forced one is asked,
        // unless it has only one way to go and is not written with `+` (where nothing
        // says "not promoting", as in shogi).
        if let Some(stay) = matching.iter().find(|m| m.promotion.is_none()) {
            return Ok(**stay);
        }
        matching.retain(|m| m.promotion.is_some());
        if let [m] = matching.as_slice()
            && m.promotion
                .is_some_and(|k| !v.piece(k).code.starts_with('+'))
        {
            return Ok(**m);
        }
        return Err(MoveError::Promotion(
            matching.iter().map(|m| write_move(v, m)).collect(),
        ));
    }
    if matching.is_empty()
        && v.gates.is_some()
        && let Some(reason) = gate_refusal(rules, pos, &moves, (from, to), promotion)
    {
        return Err(MoveError::Gate {
            text: t.to_string(),
            reason,
        });
    }
    match matching.as_slice() {
        [m] => Ok(**m),
        [] => Err(MoveError::Illegal {
            piece: v.piece(piece).name.clone(),
            from: name(from),
            to: name(to),
        }),
        several => Err(MoveError::Ambiguous(
            several
                .iter()
                .map(|m| write_move_at(rules, pos, m))
                .collect(),
        )),
    }
}

/// Why no move between `cells` brings in `kind` through a gate (or, without a kind,
/// why every such move must name one), where a gate explains it.
fn gate_refusal(
    rules: &Rules,
    pos: &Position,
    moves: &[Move],
    cells: (Cell, Cell),
    kind: Option<PieceId>,
) -> Option<String> {
    let v = &rules.variant;
    let me = pos.to_move();
    let between: Vec<&Move> = moves
        .iter()
        .filter(|m| named_cells(v, m) == cells)
        .collect();
    // A move that could go this way and promote is a promotion's business.
    if between.is_empty() || between.iter().any(|m| m.promotion.is_some()) {
        return None;
    }
    match kind {
        None => {
            let gated: Vec<String> = between.iter().map(|m| write_move(v, m)).collect();
            between.iter().all(|m| m.gate.is_some()).then(|| {
                format!(
                    "this move brings a piece in; say which: {}",
                    gated.join(", ")
                )
            })
        }
        Some(k) if pos.in_hand(me, k) == 0 => Some(format!(
            "{} has no {} in hand to bring in",
            v.player(me).name,
            v.piece(k).name
        )),
        Some(_) if between.iter().all(|m| m.gate.is_none()) => Some(format!(
            "{} is not an open gate of {}: this move brings nothing in",
            v.board.name(cells.0),
            v.player(me).name
        )),
        Some(_) => None,
    }
}

/// A legal move to give as an example, written as it is read: one that goes somewhere
/// where there is one (a pass back to the start teaches little).
pub(super) fn example(rules: &Rules, pos: &Position) -> Option<String> {
    let mut moves = Vec::new();
    pos.legal_moves(rules, &mut moves);
    let m = moves.iter().find(|m| m.from != m.to).or(moves.first())?;
    Some(write_move_at(rules, pos, m))
}
