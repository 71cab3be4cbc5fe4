//! Position strings: reading and writing them.
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
//! variants that have such moves: `-`, or tokens `CODE:MARK` in the player's case,
//! joined by commas), the plies since the last capture, and the move number. On an 8x8
//! board of one-letter codes this is FEN.
//! In FEN's layout a row also lists the board's holes in their places, each as `*`.

use super::position::{MAX_COUNTER, Setup};
use crate::compile::Rules;
use crate::geometry::{Board, Cell, Orientation, Tiling};
use crate::model::{Event, PieceId, PlayerId, TagId, Variant, parts_in_place};
use std::fmt;

/// The rows a position string lists: [`rows`], and in FEN's layout on a board with
/// holes the rows of the full shape, a hole (`None`) in its place, written `*`.
fn text_rows(v: &Variant) -> Vec<Vec<Option<Cell>>> {
    let b = &v.board;
    if !v.fen_fields || b.hole_points().next().is_none() {
        return super::pdn::rows(v)
            .into_iter()
            .map(|r| r.into_iter().map(Some).collect())
            .collect();
    }
    let by_file = b.shape.tiling() == Tiling::Hex(Orientation::Flat);
    let key = |(x, y): (i32, i32)| if by_file { (x, y) } else { (y, x) };
    let mut points: Vec<_> = b
        .cells()
        .map(|c| b.point(c))
        .chain(b.hole_points())
        .collect();
    points.sort_by_key(|p| key(*p));
    let mut out: Vec<Vec<Option<Cell>>> = Vec::new();
    let mut last = None;
    for p in points {
        if last != Some(key(p).0) {
            out.push(Vec::new());
            last = Some(key(p).0);
        }
        out.last_mut().expect("pushed").push(b.at(p));
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

/// The (piece, tag) moves allowed once per game.
fn once_moves(rules: &Rules) -> impl Iterator<Item = (PieceId, TagId)> + '_ {
    let v = &rules.variant;
    (0..v.pieces.len()).flat_map(move |p| {
        (0..v.tags.len())
            .map(move |t| (PieceId(p as u8), TagId(t as u8)))
            .filter(|(p, t)| rules.once_bit(*p, Some(*t)).is_some())
    })
}

fn has_once_moves(rules: &Rules) -> bool {
    once_moves(rules).next().is_some()
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

fn in_case(v: &Variant, p: PlayerId, text: &str) -> String {
    if v.player(p).capitals {
        text.to_ascii_uppercase()
    } else {
        text.to_ascii_lowercase()
    }
}

/// How each castling move is written in the castling field, one token each: FEN's
/// `K` and `Q` when they tell the moves apart; otherwise the file of the second
/// piece's start (Shredder-FEN's `HAha`; a castling of one piece, its own file) when
/// that does; otherwise the first piece's destination cell, in the player's case
/// (tokens then joined by commas). Castlings of the same player whose pieces start on
/// the same cells are always lost together, so they may share a token.
pub fn castling_tokens(v: &Variant) -> Vec<String> {
    let n = v.castlings.len();
    let starts = |i: usize| {
        let c = &v.castlings[i];
        let mut cells: Vec<Cell> = c.parts.iter().map(|p| p.1).collect();
        cells.sort();
        (c.player, cells)
    };
    let groups: Vec<_> = (0..n).map(starts).collect();
    // Castlings from anywhere whose first pieces start apart never have their pieces
    // in place together: the first piece stands on one cell.
    let apart = |i: usize, j: usize| {
        let (a, b) = (&v.castlings[i], &v.castlings[j]);
        a.anywhere.is_some() && b.anywhere.is_some() && a.parts[0].1 != b.parts[0].1
    };
    let distinct = |t: &[String]| {
        (0..n).all(|i| (0..i).all(|j| t[i] != t[j] || groups[i] == groups[j] || apart(i, j)))
    };
    let fen: Vec<String> = (0..n).map(|i| castling_letter(v, i).to_string()).collect();
    if distinct(&fen) {
        return fen;
    }
    let file = |c: Cell| file_of(v, c);
    let shredder: Vec<String> = v
        .castlings
        .iter()
        .map(|c| {
            let second = c.parts.get(1).unwrap_or(&c.parts[0]).1;
            in_case(v, c.player, &file(second))
        })
        .collect();
    if distinct(&shredder) && shredder.iter().all(|t| t.len() == 1) {
        return shredder;
    }
    v.castlings
        .iter()
        .map(|c| in_case(v, c.player, v.board.name(c.parts[0].2)))
        .collect()
}

/// A cell's file as a castling field names it: the letters of its name.
fn file_of(v: &Variant, c: Cell) -> String {
    v.board
        .name(c)
        .chars()
        .filter(|ch| ch.is_ascii_alphabetic())
        .collect()
}

/// The player whose open gate a setup's cell is: the owner of the piece there, if the
/// cell is one of its gates.
fn gate_of(rules: &Rules, setup: &Setup, c: Cell) -> Option<PlayerId> {
    let (p, _) = setup.cells[c.index()]?;
    (rules.gates_at(c) & rules.player_gates[p.0 as usize] != 0).then_some(p)
}

/// X-FEN's `K` or `Q` where castlings start anywhere on their line: the castling, on
/// that side, whose pieces stand on the board and farthest apart.
fn outermost(v: &Variant, cells: &[Option<(PlayerId, PieceId)>], token: &str) -> Option<usize> {
    let board = &v.board;
    (v.castlings.iter().enumerate())
        .filter(|(i, c)| {
            c.anywhere.is_some()
                && castling_letter(v, *i).to_string() == token
                && parts_in_place(c.player, &c.parts, |x| cells[x.index()])
        })
        .max_by_key(|(_, c)| {
            let (a, b) = (board.point(c.parts[0].1), board.point(c.parts[1].1));
            (a.0 - b.0).abs() + (a.1 - b.1).abs()
        })
        .map(|(i, _)| i)
}

/// Whether a castling field joins its tokens by commas (they are not single letters).
fn castling_commas(tokens: &[String]) -> bool {
    tokens.iter().any(|t| t.chars().count() != 1)
}

/// Whether moves and positions follow the shogi family's USI and SFEN (see
/// [`Variant::usi_notation`]); other variants with hands follow FEN with the hands in
/// brackets, and the rest FEN with any `+X` codes on the board.
fn sfen_style(v: &Variant) -> bool {
    v.usi_notation()
}

/// Whether the checks-left field is left out: SFEN carries none where the first check
/// wins. The one fact it would carry is read from the board: a player in check at its
/// turn was checked by the last move, and the game is over.
fn checks_optional(rules: &Rules) -> bool {
    rules.ends.check_goal == Some(1) && sfen_style(&rules.variant)
}

/// Whether the position string carries the hands in brackets after the board.
fn bracket_hands(v: &Variant) -> bool {
    v.has_hands() && !sfen_style(v)
}

/// Whether the string has the en passant field: for variants with such moves, and
/// always in FEN's layout.
fn has_passing(rules: &Rules) -> bool {
    !rules.passing.is_empty() || rules.variant.fen_fields || !rules.variant.counts.is_empty()
}

/// Whether the string has the castling field: for variants with castling moves, and
/// always in FEN's layout.
fn has_castling(v: &Variant) -> bool {
    !v.castlings.is_empty() || v.fen_fields || v.gates.is_some()
}

/// Writes a position string.
pub fn write_position(rules: &Rules, setup: &Setup) -> String {
    let v = &rules.variant;
    if v.pdn {
        return super::pdn::write_pdn(rules, setup);
    }
    let wrap = ambiguous(v);
    let mut board = Vec::new();
    for row in text_rows(v) {
        let mut s = String::new();
        let mut empty = 0;
        for c in row {
            let Some(c) = c else {
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                s.push('*');
                continue;
            };
            match setup.cells[c.index()] {
                None if setup.walls.contains(&c) => {
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s.push('*');
                }
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
                    if setup.promoted.contains(&c) {
                        s.push('~');
                    }
                }
            }
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        board.push(s);
    }
    let mut board = board.join("/");
    if bracket_hands(v) {
        board += &format!("[{}]", write_hands(rules, setup, false));
    }
    let mut fields = vec![board, side_token(v, setup.to_move)];
    if sfen_style(v) {
        // A game without hands writes the counter-strike rule's cell there, as lishogi does.
        fields.push(match setup.struck.filter(|_| !v.has_hands()) {
            Some(c) => v.board.name(c).to_string(),
            None => write_hands(rules, setup, true),
        });
    }
    if has_castling(v) {
        let tokens = castling_tokens(v);
        let mut held: Vec<usize> = setup
            .castling
            .iter()
            .copied()
            .filter(|i| *i < v.castlings.len())
            // A right whose pieces are not in place is not there (a drawn setup
            // starts with every castling listed).
            .filter(|i| {
                let c = &v.castlings[*i];
                parts_in_place(c.player, &c.parts, |x| setup.cells[x.index()])
            })
            .collect();
        // FEN's order: by player, then K before Q (for Shredder letters, in file order).
        held.sort_by_key(|i| {
            (
                v.castlings[*i].player,
                !tokens[*i].eq_ignore_ascii_case("K"),
            )
        });
        let mut texts: Vec<String> = Vec::new();
        for p in (0..v.players.len()).map(|p| PlayerId(p as u8)) {
            for i in held.iter().filter(|i| v.castlings[**i].player == p) {
                if !texts.contains(&tokens[*i]) {
                    texts.push(tokens[*i].clone());
                }
            }
            // Then its gates, by file, but for those a castling's letter already says.
            let holds = setup.hands.iter().any(|h| h.0 == p);
            let mut gates: Vec<Cell> = (setup.gates.iter().copied())
                .filter(|_| holds || !rules.empty_hand_shuts_gates())
                .filter(|&c| gate_of(rules, setup, c) == Some(p))
                .filter(|&c| {
                    !held.iter().any(|i| {
                        let k = &v.castlings[*i];
                        k.player == p && k.parts.iter().any(|part| part.1 == c)
                    })
                })
                .collect();
            gates.sort_by_key(|&c| v.board.point(c).0);
            texts.extend(gates.iter().map(|&c| in_case(v, p, &file_of(v, c))));
        }
        let sep = if castling_commas(&tokens) { "," } else { "" };
        fields.push(if texts.is_empty() {
            "-".into()
        } else {
            texts.join(sep)
        });
    }
    if let Some((limit, _)) = setup.count {
        // A running count takes the en passant field, as Fairy-Stockfish writes it.
        fields.push(limit.to_string());
    } else if has_passing(rules) {
        let cells: Vec<&str> = setup.passed.iter().map(|c| v.board.name(*c)).collect();
        let mut text = if cells.is_empty() {
            "-".into()
        } else {
            cells.join(",")
        };
        if let Some(c) = setup.passer {
            text += &format!("/{}", v.board.name(c));
        }
        fields.push(text);
    }
    if let Some(goal) = rules.ends.check_goal
        && !checks_optional(rules)
    {
        let left: Vec<String> = (0..v.players.len())
            .map(|p| {
                let given = setup.checks.get(p).copied().unwrap_or(0) as u32;
                goal.saturating_sub(given).to_string()
            })
            .collect();
        fields.push(left.join("+"));
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
        let plies = setup.count.map_or(setup.quiet_plies, |c| c.1);
        fields.push(plies.to_string());
    }
    let number = if sfen_style(v) {
        // SFEN counts plies, from 1; in u64, as a move number near 2^32 times the
        // players would pass u32.
        let players = v.players.len() as u64;
        u64::from(setup.move_number.saturating_sub(1)) * players + u64::from(setup.to_move.0) + 1
    } else {
        u64::from(setup.move_number)
    };
    fields.push(number.to_string());
    fields.join(" ")
}

/// Whether the position string has the plies-since-a-capture field: always, except
/// in variants with hands that have no rule counting them (SFEN has none).
fn has_quiet_count(rules: &Rules) -> bool {
    !sfen_style(&rules.variant)
        || rules.variant.end_rules.iter().any(|r| {
            r.condition
                .mentions(&|e| matches!(e, Event::PliesWithoutCapture(..)))
        })
}

/// The hands field, as SFEN writes it: `-`, or each player's pieces in turn (in the
/// order the pieces are declared), a count before any code held more than once
/// (`counted`; otherwise the code repeated, as FEN's brackets hold them, and nothing
/// for empty hands).
fn write_hands(rules: &Rules, setup: &Setup, counted: bool) -> String {
    let v = &rules.variant;
    let mut text = String::new();
    for pl in 0..v.players.len() {
        for pc in 0..v.pieces.len() {
            let (pl, pc) = (PlayerId(pl as u8), PieceId(pc as u8));
            let n = setup.hands.iter().filter(|h| **h == (pl, pc)).count();
            if !counted {
                text += &v.code_for(pc, pl).repeat(n);
                continue;
            }
            if n > 1 {
                text += &n.to_string();
            }
            if n > 0 {
                text += &v.code_for(pc, pl);
            }
        }
    }
    if text.is_empty() && counted {
        "-".into()
    } else {
        text
    }
}

/// The fields of a position string, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionField {
    Board,
    SideToMove,
    Hands,
    Castling,
    EnPassant,
    Checks,
    OncePerGame,
    QuietPlies,
    MoveNumber,
}

impl PositionField {
    /// The field as messages name it.
    pub fn name(self) -> &'static str {
        match self {
            PositionField::Board => "board",
            PositionField::SideToMove => "side to move",
            PositionField::Hands => "hands",
            PositionField::Castling => "castling",
            PositionField::EnPassant => "en passant",
            PositionField::Checks => "checks left",
            PositionField::OncePerGame => "once-per-game moves",
            PositionField::QuietPlies => "plies since a capture",
            PositionField::MoveNumber => "move number",
        }
    }
}

impl fmt::Display for PositionField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a position string cannot be read. Each names its field (see
/// [`PositionTextError::field`]); board errors also their row, counted from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionTextError {
    Empty,
    RowCount {
        given: usize,
        expected: usize,
    },
    /// A run of empty cells too long to count.
    RunTooLarge {
        row: usize,
        digits: String,
    },
    /// Text that is no piece code; `cell` is where the piece would stand, when the
    /// row reaches that far.
    UnknownCode {
        row: usize,
        cell: Option<String>,
        code: String,
    },
    RowTooLong {
        row: usize,
        cells: usize,
    },
    RowLength {
        row: usize,
        given: usize,
        expected: usize,
    },
    Missing(PositionField),
    /// No player is written this way; how each one is written.
    UnknownSide {
        given: String,
        tokens: Vec<String>,
    },
    HandCount(String),
    /// A count with no piece code after it.
    CountsNothing(String),
    UnknownHandCode(String),
    UnknownCastling(String),
    /// A castling-field token, in a game with gates, that names neither a castling
    /// nor a file with an open gate of the player its case names.
    UnknownGate(String),
    UnknownCell(String),
    /// A once-per-game entry not of the form `CODE:TAG`; `example` is one that is.
    OnceEntry {
        entry: String,
        example: String,
    },
    OnceCode(String),
    OnceTag(String),
    NotANumber {
        field: PositionField,
        text: String,
    },
    /// A number too large to hold, past [`MAX_COUNTER`] in any case.
    TooLarge {
        field: PositionField,
        text: String,
    },
    /// A move number of 0: the count starts at 1.
    MoveNumberZero,
    /// Not a count of checks left for each player, joined by `+`.
    ChecksLeft {
        text: String,
        goal: u32,
    },
    /// Text after the last field.
    Extra(String),
    /// A hole of the board, at this place of the row, not written `*`.
    HoleUnmarked {
        row: usize,
        place: usize,
    },
    /// `*` written for a cell of the board.
    NotAHole {
        row: usize,
        cell: String,
    },
    /// A position in PDN that does not read.
    Pdn(super::pdn::PdnError),
}

impl PositionTextError {
    /// The field the error is in; text after the last field counts as the move number's.
    pub fn field(&self) -> PositionField {
        use PositionTextError as E;
        match self {
            E::Empty
            | E::RowCount { .. }
            | E::RunTooLarge { .. }
            | E::UnknownCode { .. }
            | E::RowTooLong { .. }
            | E::RowLength { .. }
            | E::HoleUnmarked { .. }
            | E::NotAHole { .. } => PositionField::Board,
            E::Pdn(super::pdn::PdnError::UnknownSide { to_move: true, .. }) => {
                PositionField::SideToMove
            }
            E::Pdn(_) => PositionField::Board,
            E::Missing(field) | E::NotANumber { field, .. } | E::TooLarge { field, .. } => *field,
            E::MoveNumberZero => PositionField::MoveNumber,
            E::UnknownSide { .. } => PositionField::SideToMove,
            E::HandCount(_) | E::CountsNothing(_) | E::UnknownHandCode(_) => PositionField::Hands,
            E::UnknownCastling(_) | E::UnknownGate(_) => PositionField::Castling,
            E::UnknownCell(_) => PositionField::EnPassant,
            E::OnceEntry { .. } | E::OnceCode(_) | E::OnceTag(_) => PositionField::OncePerGame,
            E::ChecksLeft { .. } => PositionField::Checks,
            E::Extra(_) => PositionField::MoveNumber,
        }
    }
}

impl fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionTextError as E;
        if !matches!(self, E::Extra(_)) {
            write!(f, "in the {}: ", self.field())?;
        }
        match self {
            E::Empty => write!(f, "the position string is empty"),
            E::RowCount { given, expected } => {
                write!(f, "{given} rows given, the board has {expected}")
            }
            E::RunTooLarge { row, digits } => write!(f, "row {row}: `{digits}` is too large"),
            E::UnknownCode { row, cell, code } => {
                write!(f, "row {row}")?;
                if let Some(cell) = cell {
                    write!(f, ", at {cell}")?;
                }
                write!(f, ": `{code}` is not a piece code of this variant")
            }
            E::RowTooLong { row, cells } => write!(f, "row {row} has more than {cells} cells"),
            E::RowLength {
                row,
                given,
                expected,
            } => write!(f, "row {row} has {given} cells, the board's has {expected}"),
            E::Missing(PositionField::SideToMove) => write!(f, "missing"),
            E::Missing(_) => write!(f, "missing (write `-` for none)"),
            E::UnknownSide { given, tokens } => {
                let tokens: Vec<String> = tokens.iter().map(|t| format!("`{t}`")).collect();
                write!(
                    f,
                    "`{given}` is not a player; write {}",
                    tokens.join(" or ")
                )
            }
            E::HandCount(digits) => write!(f, "`{digits}` is not a count from 1 to 255"),
            E::CountsNothing(digits) => write!(f, "`{digits}` counts no piece"),
            E::UnknownHandCode(code) => write!(f, "`{code}` is not a piece code of this variant"),
            E::UnknownCastling(t) => write!(f, "`{t}` names no castling move"),
            E::UnknownGate(t) => write!(
                f,
                "`{t}` names no castling move, nor a gate: a file whose gate cell holds a piece of the player the letter's case names"
            ),
            E::UnknownCell(name) => write!(f, "`{name}` is not a cell of this board"),
            E::OnceEntry { entry, example } => {
                write!(f, "`{entry}` should look like `{example}`")
            }
            E::OnceCode(code) => write!(f, "`{code}` is not a piece code of this variant"),
            E::OnceTag(mark) => write!(f, "`{mark}` is not a tag of this variant"),
            E::NotANumber { text, .. } => write!(f, "`{text}` is not a number"),
            E::TooLarge { text, .. } => write!(
                f,
                "`{text}` is more than {MAX_COUNTER}, the largest accepted"
            ),
            E::MoveNumberZero => write!(f, "`0`: the count of moves starts at 1"),
            E::ChecksLeft { text, goal } => write!(
                f,
                "`{text}` is not the checks each player has left, from 0 to {goal}, joined by `+` (`{goal}+{goal}`)"
            ),
            E::Extra(extra) => write!(f, "unexpected `{extra}` after the last field"),
            E::Pdn(e) => write!(f, "{e}"),
            E::HoleUnmarked { row, place } => {
                write!(f, "row {row}: place {place} is a hole, written `*`")
            }
            E::NotAHole { row, cell } => {
                write!(
                    f,
                    "row {row}: `*` marks a hole, but {cell} is a cell of the board"
                )
            }
        }
    }
}

impl std::error::Error for PositionTextError {}

/// Reads the hands field.
fn parse_hands(v: &Variant, f: &str) -> Result<Vec<(PlayerId, PieceId)>, PositionTextError> {
    let mut hands = Vec::new();
    if f == "-" || f.is_empty() {
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
                .ok_or_else(|| PositionTextError::HandCount(digits.clone()))?
        };
        at += digits.len();
        let (pl, pc, len) = read_code(v, &f[at..]).ok_or_else(|| {
            let bad: String = f[at..].chars().take(2).collect();
            if bad.is_empty() {
                PositionTextError::CountsNothing(digits.clone())
            } else {
                PositionTextError::UnknownHandCode(bad)
            }
        })?;
        at += len;
        hands.extend(std::iter::repeat_n((pl, pc), n));
    }
    Ok(hands)
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
pub fn parse_position(rules: &Rules, text: &str) -> Result<Setup, PositionTextError> {
    use PositionTextError as E;
    let v = &rules.variant;
    if v.pdn {
        return super::pdn::parse_pdn(rules, text).map_err(PositionTextError::Pdn);
    }
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or(E::Empty)?;
    let (board, bracketed) = match board.strip_suffix(']').and_then(|b| b.split_once('[')) {
        Some((b, hands)) if v.has_hands() => (b, Some(hands)),
        _ => (board, None),
    };
    let mut promoted = Vec::new();
    let rows_of = text_rows(v);
    let given: Vec<&str> = board.split('/').collect();
    if given.len() != rows_of.len() {
        return Err(E::RowCount {
            given: given.len(),
            expected: rows_of.len(),
        });
    }
    let mut cells = vec![None; v.board.len()];
    let mut walls = Vec::new();
    for (r, (text, row)) in given.iter().zip(&rows_of).enumerate() {
        let mut i: usize = 0;
        let mut at = 0;
        while at < text.len() {
            let rest = &text[at..];
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if !digits.is_empty() {
                let n: usize = digits.parse().map_err(|_| E::RunTooLarge {
                    row: r + 1,
                    digits: digits.clone(),
                })?;
                let end = i.saturating_add(n);
                if let Some(place) = (i..end.min(row.len())).find(|&k| row[k].is_none()) {
                    return Err(E::HoleUnmarked {
                        row: r + 1,
                        place: place + 1,
                    });
                }
                i = end;
                at += digits.len();
                continue;
            }
            if rest.starts_with('*') {
                match row.get(i) {
                    Some(Some(c)) if rules.walls => walls.push(*c),
                    Some(Some(c)) => {
                        return Err(E::NotAHole {
                            row: r + 1,
                            cell: v.board.name(*c).to_string(),
                        });
                    }
                    Some(None) => {}
                    None => {
                        return Err(E::RowTooLong {
                            row: r + 1,
                            cells: row.len(),
                        });
                    }
                }
                i += 1;
                at += 1;
                continue;
            }
            let (pl, pc, len) = read_code(v, rest).ok_or_else(|| E::UnknownCode {
                row: r + 1,
                cell: row
                    .get(i)
                    .copied()
                    .flatten()
                    .map(|c| v.board.name(c).to_string()),
                code: rest.chars().take(2).collect(),
            })?;
            let cell = match row.get(i) {
                Some(Some(c)) => c,
                Some(None) => {
                    return Err(E::HoleUnmarked {
                        row: r + 1,
                        place: i + 1,
                    });
                }
                None => {
                    return Err(E::RowTooLong {
                        row: r + 1,
                        cells: row.len(),
                    });
                }
            };
            cells[cell.index()] = Some((pl, pc));
            i += 1;
            at += len;
            if text[at..].starts_with('~') {
                promoted.push(*cell);
                at += 1;
            }
        }
        if i != row.len() {
            return Err(E::RowLength {
                row: r + 1,
                given: i,
                expected: row.len(),
            });
        }
    }
    let side = fields.next().ok_or(E::Missing(PositionField::SideToMove))?;
    let to_move = (0..v.players.len())
        .map(|p| PlayerId(p as u8))
        .find(|p| {
            side_token(v, *p) == side.to_lowercase() || v.player(*p).name.eq_ignore_ascii_case(side)
        })
        .ok_or_else(|| E::UnknownSide {
            given: side.to_string(),
            tokens: (0..v.players.len())
                .map(|p| side_token(v, PlayerId(p as u8)))
                .collect(),
        })?;
    let mut struck = None;
    let hands = match bracketed {
        Some(f) => parse_hands(v, f)?,
        None if v.has_hands() || sfen_style(v) => {
            let f = fields.next().ok_or(E::Missing(PositionField::Hands))?;
            match v.board.parse_cell(f) {
                Some(c) if !v.has_hands() && v.counterstrike != 0 => {
                    struck = Some(c);
                    vec![]
                }
                _ => parse_hands(v, f)?,
            }
        }
        None => vec![],
    };
    let mut castling = Vec::new();
    let mut gates = Vec::new();
    if has_castling(v) {
        let f = fields.next().ok_or(E::Missing(PositionField::Castling))?;
        let tokens = castling_tokens(v);
        let given: Vec<String> = match (f, castling_commas(&tokens)) {
            ("-", _) => vec![],
            (_, true) => f.split(',').map(String::from).collect(),
            (_, false) => f.chars().map(String::from).collect(),
        };
        for t in given {
            let before = castling.len();
            castling.extend((0..tokens.len()).filter(|&i| tokens[i] == t));
            castling.extend(outermost(v, &cells, &t).filter(|_| castling.len() == before));
            // A castling's letter also opens the gates its pieces stand on.
            for i in &castling[before..] {
                gates.extend(v.castlings[*i].parts.iter().map(|p| p.1));
            }
            if castling.len() == before {
                // Otherwise, in a game with gates, a file: the gates on it of the
                // player whose case the letter has.
                let opened: Vec<Cell> = (rules.gate_cells.iter())
                    .filter(|(p, c)| {
                        in_case(v, *p, &file_of(v, *c)) == t
                            && cells[c.index()].is_some_and(|(o, _)| o == *p)
                    })
                    .map(|g| g.1)
                    .collect();
                if opened.is_empty() {
                    return Err(if v.gates.is_some() {
                        E::UnknownGate(t)
                    } else {
                        E::UnknownCastling(t)
                    });
                }
                gates.extend(opened);
            }
        }
    }
    let mut passed = Vec::new();
    let mut passer = None;
    let mut count_limit = None;
    if has_passing(rules) {
        let f = fields.next().ok_or(E::Missing(PositionField::EnPassant))?;
        if !v.counts.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) {
            count_limit = Some(f.parse::<u32>().map_err(|_| E::NotANumber {
                field: PositionField::EnPassant,
                text: f.to_string(),
            })?);
        }
        let f = if count_limit.is_some() { "-" } else { f };
        let (f, by) = match f.split_once('/') {
            Some((cells, by)) => (cells, Some(by)),
            None => (f, None),
        };
        if let Some(name) = by {
            passer = Some(
                v.board
                    .parse_cell(name)
                    .ok_or_else(|| E::UnknownCell(name.to_string()))?,
            );
        }
        if f != "-" {
            for name in f.split(',') {
                // Fairy-Stockfish runs several cells together (`g5f6`).
                let cells = v
                    .board
                    .parse_cell(name)
                    .map(|c| vec![c])
                    .or_else(|| run_together(&v.board, name))
                    .ok_or_else(|| E::UnknownCell(name.to_string()))?;
                passed.extend(cells);
            }
        }
    }
    let mut checks = Vec::new();
    if rules.ends.check_goal.is_some() && checks_optional(rules) {
        checks = vec![0; v.players.len()];
    }
    if let Some(goal) = rules.ends.check_goal
        && (!checks_optional(rules) || fields.clone().next().is_some_and(|f| f.contains('+')))
    {
        checks.clear();
        let f = fields.next().ok_or(E::Missing(PositionField::Checks))?;
        for left in f.split('+') {
            let n: u32 = left
                .parse()
                .ok()
                .filter(|n| *n <= goal)
                .ok_or_else(|| E::ChecksLeft {
                    text: left.to_string(),
                    goal,
                })?;
            checks.push((goal - n) as u8);
        }
        if checks.len() != v.players.len() {
            return Err(E::ChecksLeft {
                text: f.to_string(),
                goal,
            });
        }
    }
    let mut used = Vec::new();
    if has_once_moves(rules) {
        let f = fields
            .next()
            .ok_or(E::Missing(PositionField::OncePerGame))?;
        if f != "-" {
            for tok in f.split(',') {
                let (code, mark) = tok.split_once(':').ok_or_else(|| E::OnceEntry {
                    entry: tok.to_string(),
                    example: once_example(rules),
                })?;
                let (pl, pc, _) = read_code(v, code)
                    .filter(|x| x.2 == code.len())
                    .ok_or_else(|| E::OnceCode(code.to_string()))?;
                let tag = v
                    .tags
                    .iter()
                    .position(|t| t.mark.to_string() == mark)
                    .ok_or_else(|| E::OnceTag(mark.to_string()))?;
                used.push((pl, pc, TagId(tag as u8)));
            }
        }
    }
    let mut number = |field: PositionField, default: u32| -> Result<u32, PositionTextError> {
        let Some(t) = fields.next() else {
            return Ok(default);
        };
        let text = t.to_string();
        t.parse().map_err(|_| {
            if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                E::TooLarge { field, text }
            } else {
                E::NotANumber { field, text }
            }
        })
    };
    let mut quiet_plies = if has_quiet_count(rules) {
        number(PositionField::QuietPlies, 0)?
    } else {
        0
    };
    // While a count runs, the plies field holds the plies it has counted.
    let count = count_limit.filter(|&l| l > 0).map(|l| (l, quiet_plies));
    if count.is_some() {
        quiet_plies = 0;
    }
    let mut move_number = number(PositionField::MoveNumber, 1)?;
    if move_number == 0 {
        return Err(E::MoveNumberZero);
    }
    if sfen_style(v) {
        move_number = move_number.saturating_sub(1) / v.players.len() as u32 + 1;
    }
    if let Some(extra) = fields.next() {
        return Err(E::Extra(extra.to_string()));
    }
    let mut setup = Setup {
        gates,
        cells,
        to_move,
        used,
        quiet_plies,
        move_number,
        castling,
        passed,
        hands,
        checks,
        promoted,
        passer,
        walls,
        count,
        struck,
    };
    if checks_optional(rules)
        && super::Position::from_setup(rules, &setup).is_ok_and(|p| p.in_check(rules))
    {
        let players = v.players.len();
        setup.checks[(to_move.0 as usize + players - 1) % players] = 1;
    }
    Ok(setup)
}

/// Cell names written one after another with nothing between, when they read so in
/// exactly one way (a few cells at most: the search splits every way).
fn run_together(board: &Board, text: &str) -> Option<Vec<Cell>> {
    if text.len() > 16 {
        return None;
    }
    let mut ways = (1..text.len())
        .filter(|&i| text.is_char_boundary(i))
        .filter_map(|i| {
            let first = board.parse_cell(&text[..i])?;
            let mut rest = match board.parse_cell(&text[i..]) {
                Some(c) => vec![c],
                None => run_together(board, &text[i..])?,
            };
            rest.insert(0, first);
            Some(rest)
        });
    let one = ways.next()?;
    ways.next().is_none().then_some(one)
}

/// A once-per-game entry as it would be written, for messages.
fn once_example(rules: &Rules) -> String {
    let v = &rules.variant;
    once_moves(rules)
        .next()
        .map_or_else(String::new, |(pc, t)| {
            format!("{}:{}", v.code_for(pc, PlayerId(0)), v.tag(t).mark)
        })
}
