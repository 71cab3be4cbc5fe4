//! Text forms: the position string and move notation.
//!
//! A position string is the board's rows, then fields separated by spaces:
//!
//! ```text
//! wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b - 0 1
//! ```
//!
//! Rows run in the board's reading order (see [`rows`]); each lists its cells, a piece
//! as its code in its player's case and a run of empty cells as a number. Then come the
//! side to move (see [`side_token`]), the castling moves still allowed (only for
//! variants with castling: `-`, or FEN's letters, see [`castling_letter`]), the cells
//! a piece just passed that may be captured in passing (only for variants with such
//! moves: `-` or cells joined by commas), the once-per-game moves already made (only for
//! variants that have such moves: `-`, or tokens such as `PR:e` in the player's case,
//! joined by commas), the plies since the last capture, and the move number. On an 8x8
//! board of one-letter codes this is FEN.

use super::position::{Move, Position, PositionError, Setup, Special};
use crate::compile::Rules;
use crate::geometry::{Cell, Orientation, Shape};
use crate::model::{PieceId, PlayerId, TagId, Variant};
use std::fmt;

/// The board's cells as rows: for squares and pointy-topped hexagons the ranks from
/// the top, each left to right; for flat-topped hexagons the files from the left, each
/// from the top down.
pub fn rows(v: &Variant) -> Vec<Vec<Cell>> {
    let b = &v.board;
    let mut cells: Vec<Cell> = b.cells().collect();
    let by_file = matches!(
        b.shape,
        Shape::Hexagon {
            orientation: Orientation::Flat,
            ..
        }
    );
    let key = |c: &Cell| {
        let (x, y) = b.point(*c);
        if by_file { (x, y) } else { (y, x) }
    };
    cells.sort_by_key(key);
    let mut out: Vec<Vec<Cell>> = Vec::new();
    let mut last = None;
    for c in cells {
        let k = key(&c).0;
        if last != Some(k) {
            out.push(Vec::new());
            last = Some(k);
        }
        out.last_mut().expect("pushed").push(c);
    }
    out
}

/// How the side to move is written: the player's initial, lowercase, when the
/// initials differ; otherwise the whole name.
pub fn side_token(v: &Variant, p: PlayerId) -> String {
    let initial = |n: &str| n.chars().next().map(|c| c.to_ascii_lowercase());
    let unique = v
        .players
        .iter()
        .filter(|q| initial(&q.name) == initial(&v.player(p).name))
        .count()
        == 1;
    let name = &v.player(p).name;
    if unique {
        initial(name).map(String::from).unwrap_or_default()
    } else {
        name.to_lowercase()
    }
}

/// Whether codes need parentheses: some two-letter code reads as two one-letter codes.
fn ambiguous(v: &Variant) -> bool {
    let single = |c: char| {
        v.pieces
            .iter()
            .any(|p| p.code.len() == 1 && p.code.starts_with(c.to_ascii_uppercase()))
    };
    v.pieces
        .iter()
        .any(|p| p.code.len() == 2 && p.code.chars().all(single))
}

fn has_once_moves(rules: &Rules) -> bool {
    let v = &rules.variant;
    (0..v.pieces.len()).any(|p| {
        (0..v.tags.len()).any(|t| {
            rules
                .once_bit(PieceId(p as u8), Some(TagId(t as u8)))
                .is_some()
        })
    })
}

/// FEN's letter for a castling move: `K` when its second piece starts east of its
/// first (FEN's king side), `Q` otherwise, in the player's case.
pub fn castling_letter(v: &Variant, i: usize) -> char {
    let c = &v.castlings[i];
    let east = match (c.parts.first(), c.parts.get(1)) {
        (Some(a), Some(b)) => v.board.point(b.1).0 > v.board.point(a.1).0,
        _ => true,
    };
    let letter = if east { 'K' } else { 'Q' };
    if v.player(c.player).capitals {
        letter
    } else {
        letter.to_ascii_lowercase()
    }
}

fn has_passing(rules: &Rules) -> bool {
    !rules.passing.is_empty()
}

/// Writes a position string.
pub fn write_position(rules: &Rules, setup: &Setup) -> String {
    let v = &rules.variant;
    let wrap = ambiguous(v);
    let mut board = Vec::new();
    for row in rows(v) {
        let mut s = String::new();
        let mut empty = 0;
        for c in row {
            match setup.cells[c.index()] {
                None => empty += 1,
                Some((pl, pc)) => {
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    let code = v.code_for(pc, pl);
                    if wrap && code.len() == 2 {
                        s += &format!("({code})")
                    } else {
                        s += &code
                    }
                }
            }
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        board.push(s);
    }
    let mut fields = vec![board.join("/"), side_token(v, setup.to_move)];
    if rules.hands {
        fields.push(write_hands(rules, setup));
    }
    if !v.castlings.is_empty() {
        let mut letters: Vec<(usize, char)> = setup
            .castling
            .iter()
            .filter(|i| **i < v.castlings.len())
            .map(|i| (v.castlings[*i].player.0 as usize, castling_letter(v, *i)))
            .collect();
        letters.sort();
        let text: String = letters.iter().map(|(_, c)| c).collect();
        fields.push(if text.is_empty() { "-".into() } else { text });
    }
    if has_passing(rules) {
        let cells: Vec<&str> = setup.passed.iter().map(|c| v.board.name(*c)).collect();
        fields.push(if cells.is_empty() {
            "-".into()
        } else {
            cells.join(",")
        });
    }
    if has_once_moves(rules) {
        let used: Vec<String> = setup
            .used
            .iter()
            .map(|(pl, pc, t)| format!("{}:{}", v.code_for(*pc, *pl), v.tag(*t).mark))
            .collect();
        fields.push(if used.is_empty() {
            "-".into()
        } else {
            used.join(",")
        });
    }
    if has_quiet_count(rules) {
        fields.push(setup.quiet_plies.to_string());
    }
    fields.push(setup.move_number.to_string());
    fields.join(" ")
}

/// Whether the position string has the plies-since-a-capture field: always, except
/// in variants with hands that have no rule counting them (SFEN has none).
fn has_quiet_count(rules: &Rules) -> bool {
    !rules.hands
        || rules
            .variant
            .end_rules
            .iter()
            .any(|r| matches!(r.event, crate::model::Event::PliesWithoutCapture(..)))
}

/// The hands field, as SFEN writes it: `-`, or each player's pieces in turn (in the
/// order the pieces are declared), a count before any code held more than once.
fn write_hands(rules: &Rules, setup: &Setup) -> String {
    let v = &rules.variant;
    let mut text = String::new();
    for pl in 0..v.players.len() {
        for pc in 0..v.pieces.len() {
            let (pl, pc) = (PlayerId(pl as u8), PieceId(pc as u8));
            let n = setup.hands.iter().filter(|h| **h == (pl, pc)).count();
            if n > 1 {
                text += &n.to_string();
            }
            if n > 0 {
                text += &v.code_for(pc, pl);
            }
        }
    }
    if text.is_empty() { "-".into() } else { text }
}

/// Reads the hands field.
fn parse_hands(v: &Variant, f: &str) -> Result<Vec<(PlayerId, PieceId)>, PositionError> {
    let mut hands = Vec::new();
    if f == "-" {
        return Ok(hands);
    }
    let mut at = 0;
    while at < f.len() {
        let rest = &f[at..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let n: usize = if digits.is_empty() {
            1
        } else {
            digits
                .parse()
                .ok()
                .filter(|n| (1..=255).contains(n))
                .ok_or_else(|| {
                    syntax("hands", format!("`{digits}` is not a count from 1 to 255"))
                })?
        };
        at += digits.len();
        let (pl, pc, len) = read_code(v, &f[at..]).ok_or_else(|| {
            let bad: String = f[at..].chars().take(2).collect();
            if bad.is_empty() {
                syntax("hands", format!("`{digits}` counts no piece"))
            } else {
                syntax(
                    "hands",
                    format!("`{bad}` is not a piece code of this variant"),
                )
            }
        })?;
        at += len;
        hands.extend(std::iter::repeat_n((pl, pc), n));
    }
    Ok(hands)
}

fn syntax(field: &'static str, message: impl Into<String>) -> PositionError {
    PositionError::Syntax {
        field,
        message: message.into(),
    }
}

/// Reads a piece code at the start of `s` in the given variant: (player, piece, bytes).
fn read_code(v: &Variant, s: &str) -> Option<(PlayerId, PieceId, usize)> {
    let find = |code: &str| {
        let upper = code.chars().all(|c| c.is_ascii_uppercase());
        let lower = code.chars().all(|c| c.is_ascii_lowercase());
        if upper == lower {
            return None;
        }
        let player = v.players.iter().position(|p| p.capitals == upper)?;
        let piece = v
            .pieces
            .iter()
            .position(|p| p.code.eq_ignore_ascii_case(code))?;
        Some((PlayerId(player as u8), PieceId(piece as u8)))
    };
    if let Some(rest) = s.strip_prefix('+') {
        let (pl, _, len) = read_letters(v, rest, &|code| find(code))?;
        let letters = &rest[..len];
        let piece = v
            .pieces
            .iter()
            .position(|p| p.code.eq_ignore_ascii_case(&format!("+{letters}")))?;
        return Some((pl, PieceId(piece as u8), len + 1));
    }
    read_letters(v, s, &|code| find(code))
}

type Finder<'a> = dyn Fn(&str) -> Option<(PlayerId, PieceId)> + 'a;

/// Reads a plain code (no `+`): parenthesised, two letters, or one.
fn read_letters(v: &Variant, s: &str, find: &Finder) -> Option<(PlayerId, PieceId, usize)> {
    if let Some(rest) = s.strip_prefix('(') {
        let end = rest.find(')')?;
        return find(&rest[..end]).map(|(a, b)| (a, b, end + 2));
    }
    let letters: String = s
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .take(2)
        .collect();
    if letters.len() == 2
        && !ambiguous(v)
        && let Some((a, b)) = find(&letters)
    {
        return Some((a, b, 2));
    }
    find(letters.get(..1)?).map(|(a, b)| (a, b, 1))
}

/// Reads a position string into an unchecked setup.
pub fn parse_position(rules: &Rules, text: &str) -> Result<Setup, PositionError> {
    let v = &rules.variant;
    let mut fields = text.split_whitespace();
    let board = fields
        .next()
        .ok_or_else(|| syntax("board", "the position string is empty"))?;
    let rows_of = rows(v);
    let given: Vec<&str> = board.split('/').collect();
    if given.len() != rows_of.len() {
        return Err(syntax(
            "board",
            format!(
                "{} rows given, the board has {}",
                given.len(),
                rows_of.len()
            ),
        ));
    }
    let mut cells = vec![None; v.board.len()];
    for (r, (text, row)) in given.iter().zip(&rows_of).enumerate() {
        let mut i: usize = 0;
        let mut at = 0;
        while at < text.len() {
            let rest = &text[at..];
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if !digits.is_empty() {
                let n: usize = digits.parse().map_err(|_| {
                    syntax("board", format!("row {}: `{digits}` is too large", r + 1))
                })?;
                i = i.saturating_add(n);
                at += digits.len();
                continue;
            }
            let (pl, pc, len) = read_code(v, rest).ok_or_else(|| {
                let bad: String = rest.chars().take(2).collect();
                syntax(
                    "board",
                    format!("row {}: `{bad}` is not a piece code of this variant", r + 1),
                )
            })?;
            let cell = row.get(i).ok_or_else(|| {
                syntax(
                    "board",
                    format!("row {} has more than {} cells", r + 1, row.len()),
                )
            })?;
            cells[cell.index()] = Some((pl, pc));
            i += 1;
            at += len;
        }
        if i != row.len() {
            return Err(syntax(
                "board",
                format!(
                    "row {} has {} cells, the board's has {}",
                    r + 1,
                    i,
                    row.len()
                ),
            ));
        }
    }
    let side = fields
        .next()
        .ok_or_else(|| syntax("side to move", "missing"))?;
    let to_move = (0..v.players.len())
        .map(|p| PlayerId(p as u8))
        .find(|p| {
            side_token(v, *p) == side.to_lowercase() || v.player(*p).name.eq_ignore_ascii_case(side)
        })
        .ok_or_else(|| {
            let tokens: Vec<String> = (0..v.players.len())
                .map(|p| format!("`{}`", side_token(v, PlayerId(p as u8))))
                .collect();
            syntax(
                "side to move",
                format!("`{side}` is not a player; write {}", tokens.join(" or ")),
            )
        })?;
    let hands = if rules.hands {
        let f = fields
            .next()
            .ok_or_else(|| syntax("hands", "missing (write `-` for none)"))?;
        parse_hands(v, f)?
    } else {
        vec![]
    };
    let mut castling = Vec::new();
    if !v.castlings.is_empty() {
        let f = fields
            .next()
            .ok_or_else(|| syntax("castling", "missing (write `-` for none)"))?;
        if f != "-" {
            for ch in f.chars() {
                let i = (0..v.castlings.len())
                    .find(|i| castling_letter(v, *i) == ch)
                    .ok_or_else(|| syntax("castling", format!("`{ch}` names no castling move")))?;
                castling.push(i);
            }
        }
    }
    let mut passed = Vec::new();
    if has_passing(rules) {
        let f = fields
            .next()
            .ok_or_else(|| syntax("en passant", "missing (write `-` for none)"))?;
        if f != "-" {
            for name in f.split(',') {
                passed.push(v.board.parse_cell(name).ok_or_else(|| {
                    syntax(
                        "en passant",
                        format!("`{name}` is not a cell of this board"),
                    )
                })?);
            }
        }
    }

    let mut used = Vec::new();
    if has_once_moves(rules) {
        let f = fields
            .next()
            .ok_or_else(|| syntax("once-per-game moves", "missing (write `-` for none)"))?;
        if f != "-" {
            for tok in f.split(',') {
                let (code, mark) = tok.split_once(':').ok_or_else(|| {
                    syntax(
                        "once-per-game moves",
                        format!("`{tok}` should look like `PR:e`"),
                    )
                })?;
                let (pl, pc, len) = read_code(v, code)
                    .filter(|x| x.2 == code.len())
                    .ok_or_else(|| {
                        syntax(
                            "once-per-game moves",
                            format!("`{code}` is not a piece code"),
                        )
                    })?;
                let _ = len;
                let tag = v
                    .tags
                    .iter()
                    .position(|t| t.mark.to_string() == mark)
                    .ok_or_else(|| {
                        syntax("once-per-game moves", format!("`{mark}` is not a tag"))
                    })?;
                used.push((pl, pc, TagId(tag as u8)));
            }
        }
    }
    let mut number = |field: &'static str, default: u32| -> Result<u32, PositionError> {
        match fields.next() {
            None => Ok(default),
            Some(t) => t
                .parse()
                .map_err(|_| syntax(field, format!("`{t}` is not a number"))),
        }
    };
    let quiet_plies = if has_quiet_count(rules) {
        number("plies since a capture", 0)?
    } else {
        0
    };
    let move_number = number("move number", 1)?;
    if let Some(extra) = fields.next() {
        return Err(syntax("end", format!("unexpected `{extra}`")));
    }
    Ok(Setup {
        cells,
        to_move,
        used,
        quiet_plies,
        move_number,
        castling,
        passed,
        hands,
    })
}

/// Writes a move: `from-to`, `x` for a capture, `=CODE` for a promotion and `:tag`
/// for a tagged move. Castling is written as its first piece's move.
///
/// In variants with hands, moves are written as USI writes them: `7g7f`, `8h2b+` (a
/// promotion, to the piece's only choice), `P*5e` (a drop).
pub fn write_move(v: &Variant, m: &Move) -> String {
    if v.hand.is_some() {
        if m.special == Special::Drop {
            return format!("{}*{}", v.piece(m.piece).code, v.board.name(m.to));
        }
        let mut s = format!("{}{}", v.board.name(m.from), v.board.name(m.to));
        if let Some(k) = m.promotion {
            if single_promotion(v, m.piece) {
                s.push('+');
            } else {
                s += &format!("={}", v.piece(k).code);
            }
        }
        return s;
    }
    let sep = if m.captured.is_some() { 'x' } else { '-' };
    let mut s = format!("{}{sep}{}", v.board.name(m.from), v.board.name(m.to));
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

/// Whether the piece's promotions all lead to one kind, so `+` says which.
fn single_promotion(v: &Variant, piece: PieceId) -> bool {
    v.piece(piece).promotion.iter().all(|p| p.to.len() == 1)
}

/// Reads a drop `P*5e`: the piece must be in the mover's hand and the cell empty.
fn parse_drop(rules: &Rules, pos: &Position, code: &str, cell: &str) -> Result<Move, MoveError> {
    let v = &rules.variant;
    let piece = v
        .find_piece(code.trim())
        .ok_or_else(|| MoveError::UnknownPiece(code.trim().to_string()))?;
    let to = v
        .board
        .parse_cell(cell.trim())
        .ok_or_else(|| MoveError::UnknownCell {
            cell: cell.trim().to_string(),
            text: format!("{code}*{cell}"),
        })?;
    let me = pos.to_move();
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
    let mut moves = Vec::new();
    pos.legal_moves(rules, &mut moves);
    moves
        .into_iter()
        .find(|m| m.special == Special::Drop && m.piece == piece && m.to == to)
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

fn parse_one(rules: &Rules, pos: &Position, t: &str) -> Result<Move, MoveError> {
    let v = &rules.variant;
    let (body, tag) = match t.split_once(':') {
        Some((b, m)) => (b, Some(m.trim())),
        None => (t, None),
    };
    if let Some((code, cell)) = body.split_once('*') {
        return parse_drop(rules, pos, code, cell);
    }
    let (body, promote) = match body.trim_end().strip_suffix('+') {
        Some(b) => (b, true),
        None => (body, false),
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
        None if promote => {
            let mut moves = Vec::new();
            pos.legal_moves(rules, &mut moves);
            let mut kinds = moves
                .iter()
                .filter(|m| m.from == from && m.to == to)
                .filter_map(|m| m.promotion);
            match (kinds.next(), kinds.next()) {
                (Some(k), None) => Some(k),
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
    let mut matching: Vec<&Move> = moves
        .iter()
        .filter(|m| m.from == from && m.to == to && (tag.is_none() || m.tag == tag))
        .filter(|m| promotion.is_none() || m.promotion == promotion)
        .collect();
    if promotion.is_none() && matching.iter().any(|m| m.promotion.is_some()) {
        // Without a choice, an optional promotion is declined; a forced one is asked.
        if let Some(stay) = matching.iter().find(|m| m.promotion.is_none()) {
            return Ok(**stay);
        }
        matching.retain(|m| m.promotion.is_some());
        return Err(MoveError::Promotion(
            matching.iter().map(|m| write_move(v, m)).collect(),
        ));
    }
    match matching.as_slice() {
        [m] => Ok(**m),
        [] => Err(MoveError::Illegal {
            piece: v.piece(piece).name.clone(),
            from: name(from),
            to: name(to),
        }),
        several => Err(MoveError::Ambiguous(
            several.iter().map(|m| write_move(v, m)).collect(),
        )),
    }
}

fn example(rules: &Rules, pos: &Position) -> Option<String> {
    let mut moves = Vec::new();
    pos.legal_moves(rules, &mut moves);
    moves.first().map(|m| write_move(&rules.variant, m))
}
