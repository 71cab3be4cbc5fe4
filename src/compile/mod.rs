//! Compiling: a checked variant and option values to dense per-cell move tables.
//!
//! The runtime never walks patterns: for each player, piece and cell it reads a slice
//! of [`MoveEntry`] values, each with the cells that must be empty to make it.

mod walk;

pub use walk::{Reach, destinations, minimal};

use crate::check::{Dest, Event, Initial, NoDrop, PieceId, PlayerId, TagId, Variant, holds};
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
    /// When non-zero, the move may be captured in passing: `Rules::passing[passing - 1]`.
    pub passing: u16,
    /// Whether the move promotes: one of [`NO_PROMOTION`], [`MAY_PROMOTE`], [`MUST_PROMOTE`].
    pub promote: u8,
}

/// The move never promotes.
pub const NO_PROMOTION: u8 = 0;
/// The move may promote or not.
pub const MAY_PROMOTE: u8 = 1;
/// The move must promote.
pub const MUST_PROMOTE: u8 = 2;

/// How a piece may be dropped from hand, compiled per piece kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DropRule {
    /// Not on a file holding the player's own pieces of these kinds.
    pub file_with: u64,
    /// Not on a cell the player's own pieces of these kinds attack.
    pub attacked_by: u64,
    /// Not attacking an enemy royal piece.
    pub no_check: bool,
    /// Not attacking an enemy royal piece and leaving the enemy no legal move.
    pub no_mate: bool,
}

/// Cells a move passes, open to capture next move by the kinds in the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Passing {
    pub cells: u128,
    pub by: u64,
}

/// A castling move, compiled.
#[derive(Clone, Debug)]
pub struct CastleRule {
    pub player: PlayerId,
    /// (piece, from, to); the first names the move.
    pub parts: Vec<(PieceId, Cell, Cell)>,
    pub empty: u128,
    pub safe: Vec<Cell>,
}

/// What a piece may become when a move touches its zone.
#[derive(Clone, Debug)]
pub struct PromotionRule {
    pub zone: u128,
    pub to: Vec<PieceId>,
    pub optional: bool,
    /// Forced where the piece could never move again.
    pub forced_if_stuck: bool,
    /// Bits of [`crate::syntax::promote_when`].
    pub when: u8,
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
    /// Capturing entries by destination: for each (player, piece, to), the entries
    /// (indices into `entries`) that can capture on `to`, and their start cells.
    attack_offsets: Vec<u32>,
    attack_entries: Vec<(Cell, u32)>,
    attack_from: Vec<u128>,
    /// For each captured kind: the capturing kinds for which a capture ends the game.
    pub capture_ends: Vec<u64>,
    /// For each (piece, tag): the bit tracking its once-per-game use, if limited.
    once_bits: Vec<Option<u8>>,
    /// Royal kinds, as a bit set.
    pub royal: u64,
    /// Per (player, piece): its promotion, if any.
    promotions: Vec<Option<PromotionRule>>,
    pub passing: Vec<Passing>,
    pub castlings: Vec<CastleRule>,
    /// Per cell: the castling rights lost when a move starts or ends there.
    pub rights_clear: Vec<u32>,
    /// Kinds whose moves reset the quiet-ply count, as a bit set.
    pub resets_quiet: u64,
    /// Per (player, piece, from, to): the first entry from `from` to `to`, or `u32::MAX`.
    pair: Vec<u32>,
    /// Whether captured pieces go to hand.
    pub hands: bool,
    /// Per piece: the kind it goes to hand as.
    pub demote: Vec<PieceId>,
    /// Per (player, piece): the cells it may be dropped on when empty.
    drop_cells: Vec<u128>,
    /// Per piece: its drop restrictions.
    pub drop_rules: Vec<DropRule>,
    /// Per (player, cell): the cells on the line through it along the player's forward.
    files: Vec<u128>,
}

/// Why a variant cannot be compiled with the given options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    TooManyPieces(usize),
    TooManyPlayers(usize),
    TooManyOnceMoves(usize),
    TooManyCastlings(usize),
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
            CompileError::TooManyCastlings(n) => {
                write!(f, "{n} castling moves; at most 32 are supported")
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
    if variant.castlings.len() > 32 {
        return Err(CompileError::TooManyCastlings(variant.castlings.len()));
    }
    let board = &variant.board;
    let mut passing: Vec<Passing> = Vec::new();
    let mut entries = Vec::new();
    let mut offsets = Vec::new();
    let mut paths: Vec<u128> = Vec::new();
    // Patterns that do not depend on the player reach the same cells for everyone.
    let mut shared: Vec<Vec<Vec<Vec<Reach>>>> = variant
        .pieces
        .iter()
        .map(|piece| piece.moves.iter().map(|_| Vec::new()).collect())
        .collect();
    for (pl, player) in variant.players.iter().enumerate() {
        for (pi, piece) in variant.pieces.iter().enumerate() {
            for from in board.cells() {
                offsets.push(entries.len() as u32);
                let mut here: Vec<(MoveEntry, Vec<u128>)> = Vec::new();
                for (k, pat) in piece
                    .moves
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| holds(p.guard, options))
                {
                    // Cached before filtering: the cache is filled cell by cell.
                    let allowed = pat.initial.as_ref().is_none_or(|init| {
                        starts_from(variant, init, PlayerId(pl as u8), PieceId(pi as u8), from)
                    });
                    let reaches = if pat.is_relative() {
                        destinations(board, pat, player.forward, from)
                    } else {
                        if pl == 0 {
                            // Cells come in index order, so this lands at `from.index()`.
                            shared[pi][k].push(destinations(board, pat, None, from));
                        }
                        shared[pi][k][from.index()].clone()
                    };
                    if !allowed {
                        continue;
                    }
                    for reach in reaches {
                        let mut ep = 0;
                        if !pat.en_passant.is_empty() && passing.len() < u16::MAX as usize {
                            passing.push(Passing {
                                cells: reach.paths.first().copied().unwrap_or(0),
                                by: pat.en_passant.iter().fold(0, |m, k| m | 1 << k.0),
                            });
                            ep = passing.len() as u16;
                        }
                        let key = MoveEntry {
                            to: reach.to,
                            dest: pat.dest,
                            target: pat.target,
                            tag: pat.tag,
                            first_path: 0,
                            path_count: 0,
                            passing: ep,
                            promote: NO_PROMOTION,
                        };
                        here.push((key, reach.paths));
                    }
                }
                // Equal (to, tag) pairs side by side: the runtime drops repeats cheaply.
                here.sort_by_key(|(e, _)| (e.to, e.tag, e.dest as u8, e.target, e.passing));
                let mut merged: Vec<(MoveEntry, Vec<u128>)> = Vec::with_capacity(here.len());
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
    let mut resets_quiet = 0u64;
    for r in variant.end_rules.iter().filter(|r| holds(r.guard, options)) {
        match r.event {
            Event::Captured { piece, by } => {
                capture_ends[piece.0 as usize] |= by.map_or(u64::MAX, |b| 1 << b.0)
            }
            Event::PliesWithoutCapture(_, kinds) => resets_quiet |= kinds,
            _ => {}
        }
    }
    let royal = (0..pieces)
        .filter(|&i| variant.is_royal(PieceId(i as u8), options))
        .fold(0u64, |m, i| m | 1 << i);
    let promotions = promotion_rules(variant, options, royal);
    let mut rights_clear = vec![0u32; board.len()];
    let castlings = variant
        .castlings
        .iter()
        .enumerate()
        .map(|(i, c)| {
            for (_, from, _) in &c.parts {
                rights_clear[from.index()] |= 1 << i;
            }
            CastleRule {
                player: c.player,
                parts: c.parts.clone(),
                empty: c.empty.iter().fold(0, |m, c| m | c.bit()),
                safe: c.safe.clone(),
            }
        })
        .collect();
    let mut rules = Rules {
        variant: variant.clone(),
        options: options.to_vec(),
        entries,
        offsets,
        paths,
        capturable_by,
        avoids_attack,
        attack_offsets: vec![],
        attack_entries: vec![],
        attack_from: vec![],
        capture_ends,
        once_bits,
        royal,
        promotions,
        passing,
        castlings,
        rights_clear,
        resets_quiet,
        pair: vec![],
        hands: variant.hand.is_some(),
        demote: (0..pieces)
            .map(|i| variant.pieces[i].demotes_to.unwrap_or(PieceId(i as u8)))
            .collect(),
        drop_cells: vec![],
        drop_rules: drop_rules(variant, options),
        files: files(variant),
    };
    mark_promotions(&mut rules);
    rules.drop_cells = drop_cells(&rules);
    index_attacks(&mut rules);
    index_pairs(&mut rules);
    Ok(rules)
}

/// Sets each entry's promotion: allowed when the move starts in, ends in or passes the
/// zone as the rule says; forced when declared so, or (when the rule says so) where
/// the piece could never move again from where it lands.
fn mark_promotions(rules: &mut Rules) {
    use crate::syntax::promote_when::{ENTERING, FROM, INTO, THROUGH};
    let v = &rules.variant;
    let (players, pieces, cells) = (v.players.len(), v.pieces.len(), v.board.len());
    for pl in 0..players {
        for pc in 0..pieces {
            let Some(p) = rules.promotions[pl * pieces + pc].clone() else {
                continue;
            };
            for from in 0..cells {
                let run = (pl * pieces + pc) * cells + from;
                for i in rules.offsets[run]..rules.offsets[run + 1] {
                    let e = rules.entries[i as usize];
                    let (f, t) = (1u128 << from, e.to.bit());
                    let passed = rules.paths(&e).iter().fold(0, |m, x| m | x);
                    let z = p.zone;
                    let applies = (p.when & FROM != 0 && z & f != 0)
                        || (p.when & INTO != 0 && z & t != 0)
                        || (p.when & THROUGH != 0 && z & passed != 0)
                        || (p.when & ENTERING != 0 && z & t != 0 && z & f == 0);
                    let stuck = p.forced_if_stuck
                        && rules.offsets[run - from + e.to.index()]
                            == rules.offsets[run - from + e.to.index() + 1];
                    rules.entries[i as usize].promote = match applies {
                        false => NO_PROMOTION,
                        true if p.optional && !stuck => MAY_PROMOTE,
                        true => MUST_PROMOTE,
                    };
                }
            }
        }
    }
}

/// Per (player, piece): the cells a drop may use; with `never dropped where they
/// could never move`, only cells the piece has a move from.
fn drop_cells(rules: &Rules) -> Vec<u128> {
    let v = &rules.variant;
    let mobile = v.hand.is_some_and(|h| h.mobile_only);
    let mut out = Vec::new();
    for pl in 0..v.players.len() {
        for pc in 0..v.pieces.len() {
            let (pl, pc) = (PlayerId(pl as u8), PieceId(pc as u8));
            out.push(
                v.board
                    .cells()
                    .filter(|c| !mobile || !rules.moves(pl, pc, *c).is_empty())
                    .fold(0, |m, c| m | c.bit()),
            );
        }
    }
    out
}

fn drop_rules(v: &Variant, options: &[bool]) -> Vec<DropRule> {
    v.pieces
        .iter()
        .map(|p| {
            let mut r = DropRule::default();
            for (_, rule) in p.no_drop.iter().filter(|(g, _)| holds(*g, options)) {
                match rule {
                    NoDrop::FileWith(k) => r.file_with |= 1 << k.0,
                    NoDrop::AttackedBy(k) => r.attacked_by |= 1 << k.0,
                    NoDrop::Check => r.no_check = true,
                    NoDrop::Checkmate => r.no_mate = true,
                }
            }
            r
        })
        .collect()
}

/// Per (player, cell): the line through the cell along the player's forward direction.
fn files(v: &Variant) -> Vec<u128> {
    let b = &v.board;
    let mut out = Vec::new();
    for p in &v.players {
        for c in b.cells() {
            let mut set = c.bit();
            if let Some(f) = p.forward {
                for d in [f, b.opposite(f)] {
                    let mut at = b.point(c);
                    loop {
                        at = b.shift(at, d);
                        if !b.within_bounds(at) {
                            break;
                        }
                        if let Some(n) = b.at(at) {
                            set |= n.bit();
                        }
                    }
                }
            }
            out.push(set);
        }
    }
    out
}

/// Whether an initial move may start from `from` for this player and kind.
fn starts_from(v: &Variant, init: &Initial, pl: PlayerId, pc: PieceId, from: Cell) -> bool {
    match init {
        Initial::Cells(cells) => cells.contains(&from),
        Initial::StartExcept(except) => {
            !except.contains(&from)
                && v.setup
                    .iter()
                    .any(|p| p.cell == from && p.player == pl && p.piece == pc)
        }
    }
}

/// Each (player, piece)'s promotion: the first rule whose guard holds.
fn promotion_rules(v: &Variant, options: &[bool], royal: u64) -> Vec<Option<PromotionRule>> {
    let mut out = Vec::new();
    for pl in 0..v.players.len() {
        for (pi, piece) in v.pieces.iter().enumerate() {
            out.push(
                piece
                    .promotion
                    .iter()
                    .find(|p| holds(p.guard, options))
                    .map(|p| PromotionRule {
                        zone: v.zones[p.zone].cells[pl].iter().fold(0, |m, c| m | c.bit()),
                        to: if p.to.is_empty() {
                            (0..v.pieces.len())
                                .filter(|&k| k != pi && royal & (1 << k) == 0)
                                .map(|k| PieceId(k as u8))
                                .collect()
                        } else {
                            p.to.clone()
                        },
                        optional: p.optional,
                        forced_if_stuck: p.forced_if_stuck,
                        when: p.when,
                    }),
            );
        }
    }
    out
}

/// Builds the (player, piece, from, to) index of first entries.
fn index_pairs(rules: &mut Rules) {
    let v = &rules.variant;
    let (players, pieces, cells) = (v.players.len(), v.pieces.len(), v.board.len());
    let mut pair = vec![u32::MAX; players * pieces * cells * cells];
    for run in 0..players * pieces * cells {
        for e in (rules.offsets[run]..rules.offsets[run + 1]).rev() {
            let to = rules.entries[e as usize].to.index();
            pair[run * cells + to] = e;
        }
    }
    rules.pair = pair;
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
    if next > 32 {
        return Err(CompileError::TooManyOnceMoves(next));
    }
    Ok(bits)
}

/// Builds the reverse tables: who can capture on each cell, from where.
fn index_attacks(rules: &mut Rules) {
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
    let mut attack_from = vec![0u128; buckets];
    each(&mut |b, from, e| {
        attack_entries[fill[b] as usize] = (from, e);
        fill[b] += 1;
        attack_from[b] |= from.bit();
    });
    rules.attack_offsets = counts;
    rules.attack_entries = attack_entries;
    rules.attack_from = attack_from;
}

impl Rules {
    /// The moves of a piece of `player` standing on `from`.
    pub fn moves(&self, player: PlayerId, piece: PieceId, from: Cell) -> &[MoveEntry] {
        let i = self.run(player, piece, from);
        &self.entries[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    fn run(&self, player: PlayerId, piece: PieceId, cell: Cell) -> usize {
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

    /// Cells from which `player`'s `piece` could capture on `to` on an empty board.
    #[inline]
    pub fn attackers_of(&self, player: PlayerId, piece: PieceId, to: Cell) -> u128 {
        self.attack_from[self.run(player, piece, to)]
    }

    /// The entries of `player`'s `piece` from `from` to `to`.
    #[inline]
    pub fn between(&self, player: PlayerId, piece: PieceId, from: Cell, to: Cell) -> &[MoveEntry] {
        let run = self.run(player, piece, from);
        let first = self.pair[run * self.variant.board.len() + to.index()];
        if first == u32::MAX {
            return &[];
        }
        let end = self.offsets[run + 1] as usize;
        let rest = &self.entries[first as usize..end];
        let n = rest.iter().take_while(|e| e.to == to).count();
        &rest[..n]
    }

    /// The promotion of `player`'s `piece`, if it has one.
    #[inline]
    pub fn promotion(&self, player: PlayerId, piece: PieceId) -> Option<&PromotionRule> {
        self.promotions[player.0 as usize * self.variant.pieces.len() + piece.0 as usize].as_ref()
    }

    /// The bit that records a once-per-game use of this piece's tagged move.
    #[inline]
    pub fn once_bit(&self, piece: PieceId, tag: Option<TagId>) -> Option<u8> {
        tag.and_then(|t| self.once_bits[piece.0 as usize * self.variant.tags.len() + t.0 as usize])
    }

    /// Cells `player`'s `piece` may be dropped on, if empty.
    #[inline]
    pub fn drop_cells(&self, player: PlayerId, piece: PieceId) -> u128 {
        self.drop_cells[player.0 as usize * self.variant.pieces.len() + piece.0 as usize]
    }

    /// The line through `cell` along `player`'s forward direction.
    #[inline]
    pub fn file_of(&self, player: PlayerId, cell: Cell) -> u128 {
        self.files[player.0 as usize * self.variant.board.len() + cell.index()]
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
