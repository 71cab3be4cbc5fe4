//! Diagrams: boards, setups and footprints in the styles of the rule pages.
//!
//! Square boards print `[..]` cells; flat-topped hexagons the `__/  \__` art of the
//! hexagonal rule pages; pointy-topped hexagons a `/ \` and `| |` art.

mod marks;
pub mod picture;
pub mod svg;
pub mod text;

pub use crate::geometry::Layout;
pub use marks::{CAPTURE_NOTE, Mark, footprint_legend, footprint_marks, has_capture_only};

use crate::compile::Rules;
use crate::geometry::{Cell, Tiling};
use crate::model::{PieceId, Placed, PlayerId, Variant};

/// The whole board with the given pieces, each printed as its player's code.
pub fn board_diagram(variant: &Variant, pieces: &[Placed]) -> String {
    Layout::whole(&variant.board, 2).render(|c| {
        pieces
            .iter()
            .find(|p| p.cell == c)
            .map(|p| variant.code_for(p.piece, p.player))
    })
}

/// A piece's footprint from a cell. Square boards are cropped to the smallest square
/// around the piece that holds the footprint unless `full_board`; hexagonal boards are
/// always drawn whole.
pub fn footprint_diagram(
    rules: &Rules,
    player: PlayerId,
    piece: PieceId,
    from: Cell,
    full_board: bool,
) -> String {
    footprint_drawing(rules, player, piece, from, full_board, false)
}

/// [`footprint_diagram`], with capture-only cells marked `*` when `captures`.
pub fn footprint_drawing(
    rules: &Rules,
    player: PlayerId,
    piece: PieceId,
    from: Cell,
    full_board: bool,
    captures: bool,
) -> String {
    let variant = &rules.variant;
    let board = &variant.board;
    let marks: Vec<(Cell, char)> = footprint_marks(rules, player, piece, from, captures)
        .into_iter()
        .map(|(c, m)| (c, m.ascii()))
        .collect();
    let mark = |c: Cell| marks.iter().find(|(m, _)| *m == c).map(|(_, k)| *k);
    match board.shape.tiling() {
        Tiling::Square => {
            let layout = if full_board {
                Layout::whole(board, 1)
            } else {
                let (px, py) = board.point(from);
                let r = marks
                    .iter()
                    .map(|(c, _)| {
                        let (x, y) = board.point(*c);
                        (x - px).abs().max((y - py).abs())
                    })
                    .max()
                    .unwrap_or(1);
                let rows = (py - r..=py + r)
                    .map(|y| (px - r..=px + r).map(|x| board.at((x, y))).collect())
                    .collect();
                Layout::square(rows, 1)
            };
            layout.render(|c| {
                if c == from {
                    Some("o".into())
                } else {
                    mark(c).map(String::from)
                }
            })
        }
        Tiling::Hex(_) => Layout::whole(board, 2).render(|c| {
            if c == from {
                Some(variant.code_for(piece, player))
            } else {
                mark(c).map(|m| format!("{m}{m}"))
            }
        }),
    }
}

/// One line per player listing the pieces in their hand, for variants with hands
/// (nothing otherwise): `Black in hand: Gold, Pawn x2` or `White in hand: -`.
pub fn hands_text(variant: &Variant, hands: &[(PlayerId, PieceId)]) -> String {
    if !variant.has_hands() {
        return String::new();
    }
    let mut out = String::new();
    for (i, player) in variant.players.iter().enumerate() {
        let mut held: Vec<String> = Vec::new();
        for (k, piece) in variant.pieces.iter().enumerate() {
            let n = hands
                .iter()
                .filter(|h| **h == (PlayerId(i as u8), PieceId(k as u8)))
                .count();
            match n {
                0 => {}
                1 => held.push(piece.name.clone()),
                n => held.push(format!("{} x{n}", piece.name)),
            }
        }
        let list = if held.is_empty() {
            "-".to_string()
        } else {
            held.join(", ")
        };
        out += &format!("{} in hand: {list}\n", player.name);
    }
    out
}
