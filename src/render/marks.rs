//! What each cell of a footprint shows: the kind of move that reaches it.

use crate::compile::Rules;
use crate::geometry::Cell;
use crate::model::{PieceId, PlayerId, Walling};

/// The mark of one footprint cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// An untagged move that may end on an empty cell or capture.
    Either,
    /// An untagged move to an empty cell only.
    MoveOnly,
    /// A move that needs an enemy on the cell (drawn only when asked for).
    CaptureOnly,
    /// An untagged move over pieces that may end on an empty cell.
    Hurdle,
    /// A tagged move, by the tag's letter.
    Tag(char),
    /// An untagged move that leaves the piece where it stands and a copy on the cell.
    Copy,
}

/// The ASCII character of capture-only cells (tags are letters, so it never clashes).
pub const CAPTURE_ONLY: char = '*';
/// The ASCII character of cells reached by jumping over pieces.
pub const HURDLE: char = '^';
/// The ASCII character of cells a copy of the piece lands on.
pub const COPY: char = '+';

impl Mark {
    /// The character in ASCII diagrams; the rule pages draw every untagged move `x`.
    pub fn ascii(self) -> char {
        match self {
            Mark::Either | Mark::MoveOnly => 'x',
            Mark::CaptureOnly => CAPTURE_ONLY,
            Mark::Hurdle => HURDLE,
            Mark::Copy => COPY,
            Mark::Tag(t) => t,
        }
    }

    /// The `data-mark` value in SVG pictures.
    pub fn key(self) -> String {
        match self {
            Mark::Either => "x".into(),
            Mark::MoveOnly => "move".into(),
            Mark::CaptureOnly => "capture".into(),
            Mark::Hurdle => "hurdle".into(),
            Mark::Copy => "copy".into(),
            Mark::Tag(t) => t.to_string(),
        }
    }
}

/// A piece's footprint on an empty board: each reached cell with its mark, in cell
/// order. A cell reachable by a move to an empty cell shows that move's mark (the first
/// in table order); `captures` adds the cells only captures reach.
pub fn footprint_marks(
    rules: &Rules,
    player: PlayerId,
    piece: PieceId,
    from: Cell,
    captures: bool,
) -> Vec<(Cell, Mark)> {
    let moves: Vec<_> = (rules.moves(player, piece, from).iter())
        .chain(rules.jump_moves(player, piece, from))
        .copied()
        .collect();
    let mut out: Vec<(Cell, Mark)> = Vec::new();
    for e in &moves {
        if out.iter().any(|(c, _)| *c == e.to) {
            continue;
        }
        let here = || moves.iter().filter(|o| o.to == e.to);
        let mark = if let Some(first) = here().find(|o| o.dest.allows_empty()) {
            match first.tag {
                Some(t) => Mark::Tag(rules.variant.tag(t).mark),
                None if first.hurdle != 0 => Mark::Hurdle,
                None if first.copy() => Mark::Copy,
                None if here().any(|o| o.tag.is_none() && o.dest.allows_enemy()) => Mark::Either,
                None => Mark::MoveOnly,
            }
        } else if captures {
            Mark::CaptureOnly
        } else {
            continue;
        };
        out.push((e.to, mark));
    }
    out.sort();
    out
}

/// Whether the piece has moves that only capture from this cell (a footprint without
/// `captures` leaves them out).
pub fn has_capture_only(rules: &Rules, player: PlayerId, piece: PieceId, from: Cell) -> bool {
    footprint_marks(rules, player, piece, from, true)
        .iter()
        .any(|(_, m)| *m == Mark::CaptureOnly)
}

/// What a move of the piece leaves behind, said under its footprint: the wall's part of
/// the move (see [`crate::model::Walling`]).
pub fn wall_note(rules: &Rules, piece: PieceId) -> Option<String> {
    let v = &rules.variant;
    Some(match rules.walling[piece.0 as usize].as_ref()? {
        Walling::Left => "Each move leaves a wall on the cell it left.".to_string(),
        Walling::Placed { reach, except } => {
            let cells: Vec<&str> = except.iter().map(|c| v.board.name(*c)).collect();
            let but = match cells.is_empty() {
                true => String::new(),
                false => format!(" but {}", cells.join(" ")),
            };
            match reach {
                None => format!("Each move then places a wall on any empty cell{but}."),
                Some(k) => format!(
                    "Each move then shoots an arrow from where it lands, moving as the {} moves (its footprint) to an empty cell{but}, which becomes a wall.",
                    v.piece(*k).name
                ),
            }
        }
        Walling::Capturing => "A capture turns it into a wall where it captured.".to_string(),
        Walling::Moved => {
            "Each move then moves the board's one wall to another empty cell.".to_string()
        }
    })
}

/// The lines printed under a footprint: what each tag means, what the capture mark
/// means, a note when capture-only moves were left out, and what its moves leave.
pub fn footprint_legend(
    rules: &Rules,
    piece: PieceId,
    marks: &[(Cell, Mark)],
    hidden_captures: bool,
) -> String {
    let v = &rules.variant;
    let mut items: Vec<String> = v
        .tags
        .iter()
        .filter(|t| marks.iter().any(|(_, m)| *m == Mark::Tag(t.mark)))
        .map(|t| {
            format!(
                "{} = {}",
                t.mark,
                t.about.as_deref().unwrap_or("tagged move")
            )
        })
        .collect();
    if marks.iter().any(|(_, m)| *m == Mark::Hurdle) {
        items.push(format!("{HURDLE} = over a piece"));
    }
    if marks.iter().any(|(_, m)| *m == Mark::Copy) {
        items.push(format!("{COPY} = leaving a copy"));
    }
    if marks.iter().any(|(_, m)| *m == Mark::CaptureOnly) {
        items.push(format!("{CAPTURE_ONLY} = capture only"));
    }
    let mut out = String::new();
    if !items.is_empty() {
        out = format!("\n{}\n", items.join("; "));
    }
    if hidden_captures {
        out += &format!("\n{CAPTURE_NOTE}\n");
    }
    if let Some(note) = wall_note(rules, piece) {
        out += &format!("\n{note}\n");
    }
    out
}

/// Said under a footprint that leaves capture-only moves out.
pub const CAPTURE_NOTE: &str =
    "This piece also has moves that only capture; --captures draws them.";
