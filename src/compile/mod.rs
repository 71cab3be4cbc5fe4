//! Compiling: a checked variant and option values to dense per-cell move tables.
//!
//! The runtime never walks patterns: for each player, piece and cell it reads a slice
//! of [`MoveEntry`] values, each with the cells that must be empty to make it.
//!
//! Cell sets (must-be-empty paths, attackers) are stored at the board's width, chosen
//! here once: see [`Sets`].

mod sets;
mod walk;

pub use sets::{SetTables, Sets, Width};
pub use walk::{Reach, destinations, minimal, path_count};

use crate::check::{Dest, Event, PieceId, PlayerId, TagId, Variant, holds};
use crate::geometry::{Cell, Wide};

/// One move a piece may make from a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    pub to: Cell,
    pub dest: Dest,
    /// Only an enemy of this kind may be captured.
    pub target: Option<PieceId>,
    pub tag: Option<TagId>,
    /// Alternative must-be-empty sets: `paths[first..first + len]` of [`SetTables`].
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
    /// Paths and attacker sets, at the board's width.
    pub sets: Sets,
    /// For each piece: the pieces allowed to capture it, as a bit set (all when none said).
    pub capturable_by: Vec<u64>,
    /// For each piece: whether it may not end a move on an attacked cell.
    pub avoids_attack: Vec<bool>,
    /// Capturing entries by destination: for each (player, piece, to), the entries
    /// (indices into `entries`) that can capture on `to`, and their start cells.
    attack_offsets: Vec<u32>,
    attack_entries: Vec<(Cell, u32)>,
    /// For each captured kind: the capturing kinds for which a capture ends the game.
    pub capture_ends: Vec<u64>,
    /// For each (piece, tag): the bit tracking its once-per-game use, if limited.
    once_bits: Vec<Option<u8>>,
}

/// Why a variant cannot be compiled with the given options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    TooManyPieces(usize),
    TooManyPlayers(usize),
    TooManyOnceMoves(usize),
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileError::TooManyPieces(n) => {
                write!(f, "{n} piece kinds; at most 64 are supported")
            }
            CompileError::TooManyPlayers(n) => {
                write!(f, "{n} players; at most {MAX_PLAYERS} are supported")
            }
            CompileError::TooManyOnceMoves(n) => {
                write!(
                    f,
                    "{n} piece and once-per-game tag pairs; at most 32 are supported"
                )
            }
        }
    }
}

impl std::error::Error for CompileError {}

/// The most players a variant may have.
pub const MAX_PLAYERS: usize = 4;

/// Compiles every pattern of every piece for every player and cell.
pub fn compile_tables(variant: &Variant, options: &[bool]) -> Result<Rules, CompileError> {
    let pieces = variant.pieces.len();
    if pieces > 64 {
        return Err(CompileError::TooManyPieces(pieces));
    }
    if variant.players.len() > MAX_PLAYERS {
        return Err(CompileError::TooManyPlayers(variant.players.len()));
    }
    let (entries, offsets, sets) = match Sets::width_for(variant.board.len()) {
        1 => build::<u64>(variant, options),
        2 => build::<u128>(variant, options),
        3..=8 => build::<Wide<8>>(variant, options),
        _ => build::<Wide<16>>(variant, options),
    };
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
    let avoids_attack = variant
        .pieces
        .iter()
        .map(|p| p.not_attacked.iter().any(|g| holds(*g, options)))
        .collect();
    let once_bits = once_bits(variant)?;
    let mut capture_ends = vec![0u64; pieces];
    for r in variant.end_rules.iter().filter(|r| holds(r.guard, options)) {
        if let Event::Captured { piece, by } = r.event {
            capture_ends[piece.0 as usize] |= by.map_or(u64::MAX, |b| 1 << b.0);
        }
    }
    let mut rules = Rules {
        variant: variant.clone(),
        options: options.to_vec(),
        entries,
        offsets,
        sets,
        capturable_by,
        avoids_attack,
        attack_offsets: vec![],
        attack_entries: vec![],
        capture_ends,
        once_bits,
    };
    match Sets::width_for(variant.board.len()) {
        1 => index_attacks::<u64>(&mut rules),
        2 => index_attacks::<u128>(&mut rules),
        3..=8 => index_attacks::<Wide<8>>(&mut rules),
        _ => index_attacks::<Wide<16>>(&mut rules),
    }
    Ok(rules)
}

/// The move entries, their runs and their paths, with sets of type `S`.
fn build<S: Width>(variant: &Variant, options: &[bool]) -> (Vec<MoveEntry>, Vec<u32>, Sets) {
    let board = &variant.board;
    let mut entries = Vec::new();
    let mut offsets = Vec::new();
    let mut paths: Vec<S> = Vec::new();
    // Patterns that do not depend on the player reach the same cells for everyone.
    let mut shared: Vec<Vec<Vec<Vec<Reach<S>>>>> = variant
        .pieces
        .iter()
        .map(|piece| piece.moves.iter().map(|_| Vec::new()).collect())
        .collect();
    for (pl, player) in variant.players.iter().enumerate() {
        for (pi, piece) in variant.pieces.iter().enumerate() {
            for from in board.cells() {
                offsets.push(entries.len() as u32);
                let mut here: Vec<(MoveEntry, Vec<S>)> = Vec::new();
                for (k, pat) in piece
                    .moves
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| holds(p.guard, options))
                {
                    let reaches = if pat.is_relative() {
                        destinations(board, pat, player.forward, from)
                    } else {
                        if pl == 0 {
                            // Cells come in index order, so this lands at `from.index()`.
                            shared[pi][k].push(destinations(board, pat, None, from));
                        }
                        shared[pi][k][from.index()].clone()
                    };
                    for reach in reaches {
                        let key = MoveEntry {
                            to: reach.to,
                            dest: pat.dest,
                            target: pat.target,
                            tag: pat.tag,
                            first_path: 0,
                            path_count: 0,
                        };
                        here.push((key, reach.paths));
                    }
                }
                // Equal (to, tag) pairs side by side: the runtime drops repeats cheaply.
                here.sort_by_key(|(e, _)| (e.to, e.tag, e.dest as u8, e.target));
                let mut merged: Vec<(MoveEntry, Vec<S>)> = Vec::with_capacity(here.len());
                for (e, p) in here {
                    match merged.last_mut() {
                        Some((last, lp)) if *last == e => lp.extend(p),
                        _ => merged.push((e, p)),
                    }
                }
                for (mut e, p) in merged {
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
    let mut tables = SetTables::default();
    tables.paths = paths.iter().map(|p| p.pack(&mut tables.pool)).collect();
    (entries, offsets, S::wrap(tables))
}

/// Numbers each (piece, once-per-game tag) pair that some move of the piece uses.
fn once_bits(variant: &Variant) -> Result<Vec<Option<u8>>, CompileError> {
    let tags = variant.tags.len();
    let mut bits = vec![None; variant.pieces.len() * tags];
    let mut next = 0usize;
    for (pi, piece) in variant.pieces.iter().enumerate() {
        for t in piece.moves.iter().filter_map(|m| m.tag) {
            let slot = &mut bits[pi * tags + t.0 as usize];
            if variant.tag(t).once_per_game && slot.is_none() {
                *slot = Some(next as u8);
                next += 1;
            }
        }
    }
    if next > crate::check::MAX_ONCE_PAIRS {
        return Err(CompileError::TooManyOnceMoves(next));
    }
    Ok(bits)
}

/// Builds the reverse tables: who can capture on each cell, from where.
fn index_attacks<S: Width>(rules: &mut Rules) {
    let v = &rules.variant;
    let (players, pieces, cells) = (v.players.len(), v.pieces.len(), v.board.len());
    let buckets = players * pieces * cells;
    // Count, then fill: one allocation for all buckets.
    let mut counts = vec![0u32; buckets + 1];
    let each = |f: &mut dyn FnMut(usize, Cell, u32)| {
        for pl in 0..players {
            for pc in 0..pieces {
                for from in v.board.cells() {
                    let i = (pl * pieces + pc) * cells + from.index();
                    for e in rules.offsets[i]..rules.offsets[i + 1] {
                        let entry = rules.entries[e as usize];
                        if entry.dest.allows_enemy() {
                            f((pl * pieces + pc) * cells + entry.to.index(), from, e);
                        }
                    }
                }
            }
        }
    };
    each(&mut |b, _, _| counts[b + 1] += 1);
    for i in 0..buckets {
        counts[i + 1] += counts[i];
    }
    let mut fill = counts.clone();
    let mut attack_entries = vec![(Cell(0), 0u32); counts[buckets] as usize];
    let mut attack_from = vec![S::EMPTY; buckets];
    each(&mut |b, from, e| {
        attack_entries[fill[b] as usize] = (from, e);
        fill[b] += 1;
        attack_from[b].insert(from);
    });
    rules.attack_offsets = counts;
    rules.attack_entries = attack_entries;
    let mut tables = S::take(&mut rules.sets);
    tables.attack_from = attack_from
        .iter()
        .map(|s| s.pack(&mut tables.pool))
        .collect();
    rules.sets = S::wrap(tables);
}

impl Rules {
    /// The moves of a piece of `player` standing on `from`.
    pub fn moves(&self, player: PlayerId, piece: PieceId, from: Cell) -> &[MoveEntry] {
        let i = self.run(player, piece, from);
        &self.entries[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The index of a (player, piece, cell) run, as [`SetTables`] methods take it.
    #[inline]
    pub fn run(&self, player: PlayerId, piece: PieceId, cell: Cell) -> usize {
        (player.0 as usize * self.variant.pieces.len() + piece.0 as usize)
            * self.variant.board.len()
            + cell.index()
    }

    /// Entries of `player`'s `piece` that can capture on `to`, with their start cells.
    #[inline]
    pub fn attacks_on(
        &self,
        player: PlayerId,
        piece: PieceId,
        to: Cell,
    ) -> impl Iterator<Item = (Cell, &MoveEntry)> {
        let i = self.run(player, piece, to);
        self.attack_entries[self.attack_offsets[i] as usize..self.attack_offsets[i + 1] as usize]
            .iter()
            .map(|(from, e)| (*from, &self.entries[*e as usize]))
    }

    /// The bit that records a once-per-game use of this piece's tagged move.
    #[inline]
    pub fn once_bit(&self, piece: PieceId, tag: Option<TagId>) -> Option<u8> {
        tag.and_then(|t| self.once_bits[piece.0 as usize * self.variant.tags.len() + t.0 as usize])
    }

    /// The tables of cell sets, for sets of type `S` (the board's width).
    #[inline]
    pub fn sets<S: Width>(&self) -> &SetTables<S> {
        S::tables(&self.sets)
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
