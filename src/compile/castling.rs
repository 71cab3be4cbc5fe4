//! Castling: the moves in force, and the rights each move of a piece takes away.

use crate::geometry::Cell;
use crate::model::{PieceId, PlayerId, Variant};

/// A castling move, compiled.
#[derive(Clone, Debug)]
pub struct CastleRule {
    pub player: PlayerId,
    /// (piece, from, to); the first names the move.
    pub parts: Vec<(PieceId, Cell, Cell)>,
    pub empty: Vec<Cell>,
    pub safe: Vec<Cell>,
    /// Its bit among the castling rights.
    pub right: u8,
}

#[derive(Clone, Debug)]
pub(crate) struct CastlingFacts {
    pub(crate) castlings: Vec<CastleRule>,
    /// Per castling-right bit: the castlings that hold it, by index.
    pub(crate) castles_by_right: Vec<Vec<u8>>,
    /// Per cell: the castling rights lost when a move starts or ends there.
    pub(crate) rights_clear: Vec<u64>,
    /// Per (player, piece, cell): the castling rights lost when that piece lands there
    /// (`lost when ... aims at`); empty when no castling says so.
    pub(crate) rights_aimed: Vec<u64>,
    /// Per (player, piece): the castling rights lost when that piece moves (the first
    /// piece of a castling from anywhere); empty when no castling says so.
    pub(crate) rights_moved: Vec<u64>,
}

pub(super) fn castling_facts(variant: &Variant) -> CastlingFacts {
    let pieces = variant.pieces.len();
    let mut rights_clear = vec![0u64; variant.board.len()];
    let cells = variant.board.len();
    let mut rights_aimed = Vec::new();
    let mut rights_moved = Vec::new();
    let castlings = variant
        .castlings
        .iter()
        .map(|c| {
            let bit = 1u64 << c.right;
            for (n, (kind, from, _)) in c.parts.iter().enumerate() {
                if n == 0 && c.anywhere.is_some() {
                    // Lost once a piece of the kind moves, wherever it stood.
                    if rights_moved.is_empty() {
                        rights_moved = vec![0u64; variant.players.len() * pieces];
                    }
                    rights_moved[c.player.0 as usize * pieces + kind.0 as usize] |= bit;
                } else {
                    rights_clear[from.index()] |= bit;
                }
            }
            for a in &c.aimed {
                if rights_aimed.is_empty() {
                    rights_aimed = vec![0u64; variant.players.len() * pieces * cells];
                }
                let at = (a.player.0 as usize * pieces + a.piece.0 as usize) * cells;
                for t in &a.landing {
                    rights_aimed[at + t.index()] |= bit;
                }
            }
            CastleRule {
                player: c.player,
                parts: c.parts.clone(),
                empty: c.empty.clone(),
                safe: c.safe.clone(),
                right: c.right,
            }
        })
        .collect();
    let mut castles_by_right = vec![Vec::new(); 64];
    for (i, c) in variant.castlings.iter().enumerate() {
        castles_by_right[c.right as usize].push(i as u8);
    }
    CastlingFacts {
        castlings,
        castles_by_right,
        rights_clear,
        rights_aimed,
        rights_moved,
    }
}
