//! Compiling: a checked variant and option values to dense per-cell move tables.
//!
//! The runtime never walks patterns: for each player, piece and cell it reads a slice
//! of [`MoveEntry`] values, each with the cells that must be empty to make it.

mod walk;

pub use walk::{Reach, destinations, minimal};

use crate::check::{Dest, PieceId, PlayerId, TagId, Variant, holds};
use crate::geometry::Cell;

/// One move a piece may make from a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    pub to: Cell,
    pub dest: Dest,
    /// Only an enemy of this kind may be captured.
    pub target: Option<PieceId>,
    pub tag: Option<TagId>,
    /// Alternative must-be-empty sets: `paths[first..first + len]` of [`Rules::paths`].
    pub first_path: u32,
    pub path_count: u32,
}

/// A variant compiled for one choice of option values.
#[derive(Clone, Debug)]
pub struct Rules {
    pub variant: Variant,
    pub options: Vec<bool>,
    entries: Vec<MoveEntry>,
    /// Start of each (player, piece, cell) run in `entries`, plus one final end.
    offsets: Vec<u32>,
    paths: Vec<u128>,
    /// For each piece: the pieces allowed to capture it, as a bit set (all when none said).
    pub capturable_by: Vec<u64>,
    /// For each piece: whether it may not end a move on an attacked cell.
    pub avoids_attack: Vec<bool>,
}

/// Why a variant cannot be compiled with the given options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    TooManyPieces(usize),
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileError::TooManyPieces(n) => write!(f, "{n} piece kinds; at most 64 are supported"),
        }
    }
}

impl std::error::Error for CompileError {}

/// Compiles every pattern of every piece for every player and cell.
pub fn compile_tables(variant: &Variant, options: &[bool]) -> Result<Rules, CompileError> {
    let pieces = variant.pieces.len();
    if pieces > 64 {
        return Err(CompileError::TooManyPieces(pieces));
    }
    let board = &variant.board;
    let mut entries = Vec::new();
    let mut offsets = Vec::new();
    let mut paths: Vec<u128> = Vec::new();
    for player in &variant.players {
        for piece in &variant.pieces {
            for from in board.cells() {
                offsets.push(entries.len() as u32);
                let mut here: Vec<(MoveEntry, Vec<u128>)> = Vec::new();
                for pat in piece.moves.iter().filter(|p| holds(p.guard, options)) {
                    for reach in destinations(board, pat, player.forward, from) {
                        let key = MoveEntry { to: reach.to, dest: pat.dest, target: pat.target, tag: pat.tag, first_path: 0, path_count: 0 };
                        match here.iter_mut().find(|(e, _)| *e == key) {
                            Some((_, p)) => p.extend(reach.paths),
                            None => here.push((key, reach.paths)),
                        }
                    }
                }
                for (mut e, p) in here {
                    let p = minimal(p);
                    e.first_path = paths.len() as u32;
                    e.path_count = p.len() as u32;
                    paths.extend(p);
                    entries.push(e);
                }
            }
        }
    }
    offsets.push(entries.len() as u32);
    let capturable_by = variant
        .pieces
        .iter()
        .map(|p| {
            p.captured_only_by
                .iter()
                .filter(|(g, _)| holds(*g, options))
                .map(|(_, ids)| ids.iter().fold(0u64, |m, id| m | 1 << id.0))
                .reduce(|a, b| a & b)
                .unwrap_or(u64::MAX)
        })
        .collect();
    let avoids_attack = variant.pieces.iter().map(|p| p.not_attacked.iter().any(|g| holds(*g, options))).collect();
    Ok(Rules { variant: variant.clone(), options: options.to_vec(), entries, offsets, paths, capturable_by, avoids_attack })
}

impl Rules {
    /// The moves of a piece of `player` standing on `from`.
    pub fn moves(&self, player: PlayerId, piece: PieceId, from: Cell) -> &[MoveEntry] {
        let cells = self.variant.board.len();
        let i = (player.0 as usize * self.variant.pieces.len() + piece.0 as usize) * cells + from.index();
        &self.entries[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The alternative must-be-empty sets of an entry.
    pub fn paths(&self, e: &MoveEntry) -> &[u128] {
        &self.paths[e.first_path as usize..(e.first_path + e.path_count) as usize]
    }

    /// Whether some path of the entry is clear on the given occupancy.
    #[inline]
    pub fn open(&self, e: &MoveEntry, occupied: u128) -> bool {
        self.paths(e).iter().any(|m| m & occupied == 0)
    }

    /// Cells a piece reaches on an otherwise empty board, with each cell's mark
    /// (the tag's letter, or `x`). Moves that need an enemy are left out.
    pub fn footprint(&self, player: PlayerId, piece: PieceId, from: Cell) -> Vec<(Cell, char)> {
        let mut out: Vec<(Cell, char)> = Vec::new();
        for e in self.moves(player, piece, from) {
            if !e.dest.allows_empty() || out.iter().any(|(c, _)| *c == e.to) {
                continue;
            }
            out.push((e.to, e.tag.map_or('x', |t| self.variant.tag(t).mark)));
        }
        out.sort();
        out
    }
}
