//! Compiling: a checked variant and option values to dense per-cell move tables.
//!
//! The runtime never walks patterns: for each player, piece and cell it reads a slice
//! of [`MoveEntry`] values, each with the cells that must be empty to make it.
//!
//! Cell sets (must-be-empty paths, attackers) are stored at the board's width, chosen
//! here once: see [`Sets`].

mod castling;
mod ends;
mod hands;
mod keys;
mod promotion;
mod sets;
mod shadow;
mod slides;
mod tables;

pub use crate::check::{Reach, destinations, minimal};
pub use crate::model::MAX_PLAYERS;
pub use castling::CastleRule;
pub(crate) use castling::CastlingFacts;
pub(crate) use ends::EndFacts;
pub use hands::DropRule;
use hands::{drop_rules, index_drops};
pub use keys::Keys;
pub use promotion::PromotionRule;
use promotion::{mark_promotions, promotion_rules};
pub(crate) use sets::by_width;
pub use sets::{SetTables, Sets, Width};
pub use slides::Plain;
use tables::{build, index_attacks, once_bits};

use crate::geometry::{Board, Cell, CellSet};
use crate::model::{
    Dest, Event, Holder, Hurdle, Initial, Nearby, NoDrop, Outcome, PieceId, PlayerId, TagId,
    Variant, holds,
};

/// One move a piece may make from a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    pub to: Cell,
    pub dest: Dest,
    /// Only an enemy of this kind may be captured.
    pub target: Option<PieceId>,
    pub tag: Option<TagId>,
    /// Alternative must-be-empty sets: `paths[first..first + len]` of `SetTables`.
    pub first_path: u32,
    pub path_count: u32,
    /// When non-zero, the move may be captured in passing: `Rules::passing[passing - 1]`.
    pub passing: u16,
    /// Whether the move promotes: one of [`NO_PROMOTION`], [`MAY_PROMOTE`], [`MUST_PROMOTE`].
    pub promote: u8,
    /// For a move over pieces, how many it jumps (0: an ordinary move). Its paths then
    /// come in pairs: the cells that must be empty, then the cells that must hold
    /// exactly that many pieces.
    pub hurdle: u8,
    /// When non-zero, the kinds that may not be jumped: `Rules::barred[barred - 1]`.
    pub barred: u8,
    /// For a move over pieces: whose it may jump and what it does with them, as
    /// [`JUMP_ENEMY`], [`JUMP_FRIEND`], [`JUMP_CAPTURES`], [`JUMP_AGAIN`], [`JUMP_AT_ONCE`],
    /// [`JUMP_NO_BACK`] and [`JUMP_SHARED`] bits; and [`LEAVES_COPY`]. One byte, as the entries are walked for every move.
    pub jump: u8,
    /// When non-zero, a condition on nearby cells (see [`nearby_rule`]); the cells are
    /// stored just before the entry's paths, at `paths[first_path - 1]`.
    pub near_rule: u8,
    /// How many entries right after this one are closed whenever its destination or its
    /// path holds a piece (see `shadow.rs`): a walk over the run may skip them then.
    pub shadow: u16,
}

/// A [`MoveEntry::near_rule`]: the holder (1 enemy, 2 friend, 3 any piece), plus 4 when
/// one of the cells must hold such a piece rather than none.
pub fn nearby_rule(n: &Nearby) -> u8 {
    let holder = match n.holder {
        Holder::Enemy => 1,
        Holder::Friend => 2,
        Holder::Piece => 3,
    };
    holder | if n.present { 4 } else { 0 }
}

/// The most pieces one move may capture by jumping; a chain stops there.
pub const MOST_JUMPED: usize = 32;

/// [`MoveEntry::jump`]: only enemy pieces may be jumped.
pub const JUMP_ENEMY: u8 = 1;
/// [`MoveEntry::jump`]: only the mover's own pieces may be jumped.
pub const JUMP_FRIEND: u8 = 2;
/// [`MoveEntry::jump`]: the pieces jumped are captured.
pub const JUMP_CAPTURES: u8 = 4;
/// [`MoveEntry::jump`]: the piece goes on capturing from its end (`again while it can`).
pub const JUMP_AGAIN: u8 = 8;

/// [`MoveEntry::jump`]: the piece stays on its cell, and a copy of it lands on `to`.
pub const LEAVES_COPY: u8 = 16;
/// [`MoveEntry::jump`]: the pieces captured leave the board as they are jumped, not
/// when the chain ends.
pub const JUMP_AT_ONCE: u8 = 32;
/// [`MoveEntry::jump`]: going on in a chain, the move never goes opposite to the one
/// it follows.
pub const JUMP_NO_BACK: u8 = 64;
/// [`MoveEntry::jump`]: another capture of the piece from the same cell may jump a
/// piece this one jumps (a flying piece's landings beyond one piece), so the chain
/// must choose among them a landing from which it goes on.
pub const JUMP_SHARED: u8 = 128;

impl MoveEntry {
    /// The piece stays on its cell, and a copy of it lands on `to`.
    #[inline(always)]
    pub fn copy(&self) -> bool {
        self.jump & LEAVES_COPY != 0
    }
}

/// The move never promotes.
pub const NO_PROMOTION: u8 = 0;
/// The move may promote or not.
pub const MAY_PROMOTE: u8 = 1;
/// The move must promote.
pub const MUST_PROMOTE: u8 = 2;
/// Added to [`MAY_PROMOTE`] or [`MUST_PROMOTE`]: only a move that captures promotes.
pub const ON_CAPTURE: u8 = 4;

/// Cells a move passes, open to capture next move by the kinds in the set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passing {
    pub cells: Vec<Cell>,
    pub by: u64,
}

/// A variant compiled for one choice of option values.
#[derive(Clone, Debug)]
pub struct Rules {
    pub(crate) variant: Variant,
    pub(crate) options: Vec<bool>,
    entries: Vec<MoveEntry>,
    /// Start of each (player, piece, cell) run in `entries`, plus one final end.
    offsets: Vec<u32>,
    /// Captures by jumping (see [`JUMP_CAPTURES`]), in runs as `entries` are.
    jump_entries: Vec<MoveEntry>,
    jump_offsets: Vec<u32>,
    /// Per run of `jump_entries`: whether one of them goes on and is [`JUMP_SHARED`].
    jump_shared: Vec<bool>,
    /// Paths and attacker sets, at the board's width.
    pub(crate) sets: Sets,
    /// For each piece: the pieces allowed to capture it, as a bit set (all when none said).
    pub(crate) capturable_by: Vec<u64>,
    /// For each piece: whether it may not end a move on an attacked cell.
    pub(crate) avoids_attack: Vec<bool>,
    /// Captures from afar that need the piece undefended: (victim, capturers, and the
    /// kinds a move may also take without lifting the rule, if it may).
    pub(crate) guarded: Vec<(PieceId, u64, Option<u64>)>,
    /// The kinds some guard names as capturers, as a bit set.
    pub(crate) guarding: u64,
    /// Capturing entries by destination: for each (player, piece, to), the entries
    /// (indices into `entries`) that can capture on `to`, and their start cells.
    attack_offsets: Vec<u32>,
    attack_entries: Vec<(Cell, u32)>,
    /// Two bits per (player, piece, cell) run: its [`Plain`].
    pub(super) plain_runs: Vec<u64>,
    /// Per run, on boards of up to 128 cells: where its entries that are not plain
    /// start in `specials` (see [`Rules::specials`]).
    pub(super) special_offsets: Vec<u32>,
    /// Copies of those entries, shading none.
    pub(super) specials: Vec<MoveEntry>,
    /// The kinds that may capture every kind, as a bit set.
    pub(crate) captures_every: u64,
    /// For each (piece, tag): the bit tracking its once-per-game use, if limited.
    once_bits: Vec<Option<u8>>,
    /// Royal kinds, as a bit set.
    pub(crate) royal: u64,
    /// Kinds that in check may only capture the lone checking piece, as a bit set.
    pub(crate) check_bound: u64,
    /// Per (player, piece): its promotion, if any.
    promotions: Vec<Option<PromotionRule>>,
    pub(crate) passing: Vec<Passing>,
    /// Gates (`pieces in hand enter through gates on ZONE`): bit `i` is the `i`-th
    /// (player, cell).
    pub(crate) gate_cells: Vec<(PlayerId, Cell)>,
    /// Per cell (empty without gates): the gate bits on it, any player's.
    gate_bits: Vec<u64>,
    /// Per player: its gate bits.
    pub(crate) player_gates: [u64; MAX_PLAYERS],
    /// A player who can capture must (`captures are compulsory`).
    pub(crate) must_capture: bool,
    /// Some promotion is a move of its own, made standing in the zone.
    pub(crate) standing_promotions: bool,
    /// Some promotion may give no check nor attack an enemy piece.
    pub(crate) quiet_promotions: bool,
    /// A player is in check only when all its royal pieces are attacked.
    pub(crate) royal_together: bool,
    /// A player with two or more royal pieces is never in check.
    pub(crate) royal_alone: bool,
    /// Captures explode: what an explosion spares.
    pub(crate) explosion: Option<crate::model::Explosion>,
    /// Per cell, with explosions: the cells one step around it in each direction.
    pub(crate) around: Vec<Vec<Cell>>,
    /// What a move does to enemy pieces around where it lands.
    pub(crate) enclosure: Option<crate::model::Enclosure>,
    /// Per cell, the cells beside it across a side (orthogonally).
    pub(crate) beside: Vec<Vec<Cell>>,
    /// Whether moves capture by enclosure: any move may then take pieces off lines.
    pub(crate) enclosure_captures: bool,
    /// Whether a line of enclosure is read from its pieces alone: no cell closes one
    /// when empty, no kind is taken only on every side, no row runs along the edge and
    /// more than one piece may be taken on a line.
    pub(crate) plain_lines: bool,
    /// The kinds of a preference for captures taking them earliest, a bit per kind:
    /// chains taking them in a different order are then different moves.
    pub(crate) earliest_kinds: u64,
    /// With an enclosure: per player, per cell, whether the cell closes a line when empty.
    pub(crate) hostile: Vec<Vec<bool>>,
    /// With an enclosure: the kinds taken only when enclosed on every side, and per
    /// player, per cell, where that holds (everywhere when empty).
    pub(crate) every_side: (u64, Vec<Vec<bool>>),
    /// How many directions the enclosure's lines run in: a cell with fewer rays has a
    /// side on the edge.
    pub(crate) sides: usize,
    /// Per cell, with an enclosure or enclosing drops: for each direction its lines run
    /// in, the cells from it along that direction to the edge (directions leaving the
    /// board at once left out).
    pub(crate) rays: Vec<Vec<Vec<Cell>>>,
    /// With rows along the edge: per cell, per ray of `rays`, the cells beside the
    /// ray's first cells away from the edge it runs along (see `Board::edge_rows`).
    pub(crate) edge_fronts: Vec<Vec<Vec<Cell>>>,
    /// With an enclosure: per cell, the pairs of cells either side of it along the
    /// enclosure's lines, which a fort's wall piece must not have both outside it (with
    /// captures next to where a piece lands, each neighbour paired with itself).
    pub(crate) lines_through: Vec<Vec<(Cell, Cell)>>,
    /// Whether captured pieces go to hand.
    pub(crate) hands: bool,
    /// Per piece: the kind it goes to hand as.
    pub(crate) demote: Vec<PieceId>,
    /// Per piece: its drop restrictions.
    pub(crate) drop_rules: Vec<DropRule>,
    /// Per piece: the kinds, as a bit set, it may also be dropped as (its promoted
    /// forms, with `dropped either side up`).
    pub(crate) drop_faces: Vec<u64>,
    /// Kinds moves over pieces may not jump, as bit sets (see [`MoveEntry::barred`]).
    pub(crate) barred: Vec<u64>,
    /// Whether some move jumps pieces: a move may then expose a royal piece by
    /// entering a cell, and a drop by filling one.
    pub(crate) hurdles: bool,
    /// Kinds with moves capturing the pieces they jump, a bit each.
    pub(crate) jump_kinds: u64,
    /// (kind, enemy kind) pairs that may not face each other on an open file.
    pub(crate) facing: Vec<(PieceId, PieceId)>,
    /// The kinds in `facing`, as a bit set.
    pub(crate) facing_kinds: u64,
    /// Per piece without a `+` code: the first kind declared that promotes to it.
    pub(crate) promotion_base: Vec<Option<PieceId>>,
    /// Per piece: when a move promoted a piece to it, the kind it goes to hand as
    /// ([`Rules::promotion_base`], with hands that do not keep promotions).
    pub(crate) promoted_from: Vec<Option<PieceId>>,
    /// The pieces in hand at the start.
    pub(crate) start_hands: Vec<(PlayerId, PieceId)>,
    /// Per piece: where its moves leave a wall (the first rule in force).
    pub(crate) walling: Vec<Option<crate::model::Walling>>,
    /// Whether some piece's moves leave walls.
    pub(crate) walls: bool,
    /// Whether the board's one wall moves rather than stays (see [`crate::model::Walling::Moved`]).
    pub(crate) wall_moves: bool,
    /// What the end rules in force make the runtime track and test.
    pub(crate) ends: EndFacts,
    /// The castling moves in force and the rights they keep.
    pub(crate) castling: CastlingFacts,
    keys: Keys,
}

/// Why a variant cannot be compiled with the given options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    TooManyPieces(usize),
    TooManyPlayers(usize),
    TooManyOnceMoves(usize),
    TooManyCastlings(usize),
}

/// The most castling moves the tables hold.
pub const MAX_CASTLINGS: usize = 256;

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
                write!(
                    f,
                    "{n} castling moves; at most {MAX_CASTLINGS} are supported, with 64 rights"
                )
            }
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
    if variant.players.len() > MAX_PLAYERS {
        return Err(CompileError::TooManyPlayers(variant.players.len()));
    }
    let rights = variant.castlings.iter().map(|c| c.right as usize + 1).max();
    if variant.castlings.len() > MAX_CASTLINGS || rights.unwrap_or(0) > 64 {
        return Err(CompileError::TooManyCastlings(variant.castlings.len()));
    }
    let n = Sets::width_for(variant.board.len());
    let mut barred: Vec<u64> = Vec::new();
    let ((entries, offsets), (jump_entries, jump_offsets), sets, passing) =
        by_width!(words n, S => build::<S>(variant, options, &mut barred));
    let facing: Vec<(PieceId, PieceId)> = variant
        .pieces
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            p.facing
                .iter()
                .filter(|(g, _)| holds(*g, options))
                .map(move |(_, k)| (PieceId(i as u8), *k))
        })
        .collect();
    let facing_kinds = facing
        .iter()
        .fold(0u64, |m, (a, b)| m | 1 << a.0 | 1 << b.0);
    let capturable_by = tables::capturable_by(variant, options);
    let captures_every = capturable_by.iter().fold(u64::MAX, |all, by| all & by);
    let bits = |ids: &[PieceId]| ids.iter().fold(0u64, |m, id| m | 1 << id.0);
    let guarded: Vec<(PieceId, u64, Option<u64>)> = (variant.pieces.iter().enumerate())
        .flat_map(|(i, p)| {
            (p.guarded.iter().filter(|g| holds(g.guard, options))).map(move |g| {
                (
                    PieceId(i as u8),
                    bits(&g.by),
                    g.other_than.as_deref().map(bits),
                )
            })
        })
        .collect();
    let guarding = guarded.iter().fold(0, |m, g| m | g.1);
    let avoids_attack = variant
        .pieces
        .iter()
        .map(|p| p.not_attacked.iter().any(|g| holds(*g, options)))
        .collect();
    let once_bits = once_bits(variant)?;
    let ends = ends::end_facts(variant, options, &capturable_by);
    let royal = (0..pieces)
        .filter(|&i| variant.is_royal(PieceId(i as u8), options))
        .fold(0u64, |m, i| m | 1 << i);
    let check_bound = (0..pieces)
        .filter(|&i| {
            variant.pieces[i]
                .check_bound
                .iter()
                .any(|g| holds(*g, options))
        })
        .fold(0u64, |m, i| m | 1 << i);
    let promotions = promotion_rules(variant, options, royal);
    let standing_promotions = promotions.iter().flatten().any(|p| p.when.standing);
    let quiet_promotions = promotions.iter().flatten().any(|p| p.quiet);
    let (gate_cells, gate_bits, player_gates) = hands::gates(variant);
    let castling = castling::castling_facts(variant);
    let keys = Keys::new(variant, &passing);
    let hurdles = entries.iter().any(|e| e.hurdle != 0);
    let jump_kinds = (0..pieces)
        .filter(|&i| {
            (variant.pieces[i].moves.iter())
                .any(|m| m.to_start || m.hurdle.as_ref().is_some_and(|h| h.captures))
        })
        .fold(0u64, |m, i| m | 1 << i);
    let demote: Vec<PieceId> = (0..pieces)
        .map(|i| variant.pieces[i].demotes_to.unwrap_or(PieceId(i as u8)))
        .collect();
    let drop_faces = hands::drop_faces(variant, &demote);
    let promotion_base = promotion::promotion_base(&promotions, &demote);
    let promoted_from = if variant.hand.is_some_and(|h| !h.keep_promoted) {
        promotion_base.clone()
    } else {
        vec![None; pieces]
    };
    let walling: Vec<_> = variant
        .pieces
        .iter()
        .map(|p| {
            p.walling
                .iter()
                .find(|(g, _)| holds(*g, options))
                .map(|(_, w)| w.clone())
        })
        .collect();
    let mut rules = Rules {
        variant: variant.clone(),
        options: options.to_vec(),
        entries,
        offsets,
        jump_entries,
        jump_offsets,
        jump_shared: vec![],
        sets,
        capturable_by,
        avoids_attack,
        guarded,
        guarding,
        attack_offsets: vec![],
        attack_entries: vec![],
        plain_runs: vec![],
        special_offsets: vec![],
        specials: vec![],
        captures_every,
        once_bits,
        royal,
        check_bound,
        promotions,
        passing,
        gate_cells,
        gate_bits,
        player_gates,
        must_capture: variant.obliges(crate::model::MoveKind::Capture, true),
        explosion: variant.explosion,
        standing_promotions,
        quiet_promotions,
        royal_together: variant.royal_check == crate::model::RoyalCheck::Together,
        royal_alone: variant.royal_check == crate::model::RoyalCheck::Alone,
        around: match variant.explosion {
            Some(_) => variant.board.neighbours(variant.board.all_directions()),
            None => vec![],
        },
        enclosure: variant.enclosure.clone(),
        beside: variant.board.neighbours(
            variant
                .board
                .directions_of(crate::geometry::Kind::Orthogonal),
        ),
        enclosure_captures: variant.enclosure.as_ref().is_some_and(|e| e.captures),
        plain_lines: false,
        earliest_kinds: (variant.obligations.iter())
            .flat_map(|o| &o.prefer)
            .filter(|p| p.how == crate::model::Preferring::Earliest)
            .fold(0, |m, p| m | p.kinds),
        hostile: enclosure_cells(variant, variant.enclosure.as_ref().and_then(|e| e.hostile)),
        every_side: match variant.enclosure.as_ref().and_then(|e| e.every_side) {
            Some((kinds, zone)) => (
                kinds_mask(kinds, royal, pieces),
                enclosure_cells(variant, zone),
            ),
            None => (0, vec![]),
        },
        sides: variant
            .board
            .directions_of_lines(enclosure_lines(variant))
            .iter()
            .count(),
        rays: if variant.enclosure.is_some()
            || variant
                .pieces
                .iter()
                .any(|p| p.no_drop.iter().any(|(_, r)| *r == NoDrop::Enclosing))
        {
            variant
                .board
                .rays(variant.board.directions_of_lines(enclosure_lines(variant)))
        } else {
            vec![]
        },
        edge_fronts: match &variant.enclosure {
            Some(e) if e.edge_rows => variant
                .board
                .edge_rows(variant.board.directions_of_lines(e.lines)),
            _ => vec![],
        },
        lines_through: match &variant.enclosure {
            // Taken from next to it: any open cell beside a wall piece breaks it.
            Some(e) if e.which == crate::model::Flip::Next => variant
                .board
                .neighbours(variant.board.directions_of_lines(e.lines))
                .into_iter()
                .map(|n| n.into_iter().map(|c| (c, c)).collect())
                .collect(),
            Some(e) => variant
                .board
                .lines_through(variant.board.directions_of_lines(e.lines)),
            None => vec![],
        },
        hands: variant.hand.is_some(),
        demote,
        drop_faces,
        drop_rules: drop_rules(variant, options),
        hurdles,
        jump_kinds,
        barred,
        facing,
        facing_kinds,
        promotion_base,
        promoted_from,
        start_hands: variant.start_hands.clone(),
        walls: walling.iter().any(Option::is_some),
        wall_moves: walling.contains(&Some(crate::model::Walling::Moved)),
        walling,
        ends,
        castling,
        keys,
    };
    by_width!(words n, S => finish::<S>(&mut rules));
    Ok(rules)
}

/// The kind of direction an enclosure's lines run in (`None`: every direction).
fn enclosure_lines(variant: &Variant) -> Option<crate::geometry::Kind> {
    variant.enclosure.as_ref().and_then(|e| e.lines)
}

/// Per player, per cell: whether the cell is on the player's part of the zone; empty
/// without a zone.
fn enclosure_cells(variant: &Variant, zone: Option<usize>) -> Vec<Vec<bool>> {
    let Some(z) = zone else { return vec![] };
    variant.zones[z]
        .cells
        .iter()
        .map(|part| {
            let mut on = vec![false; variant.board.len()];
            for c in part {
                on[c.index()] = true;
            }
            on
        })
        .collect()
}

/// The kinds a [`crate::model::Kinds`] names, as a bit set, `royal` being the royal ones.
fn kinds_mask(kinds: crate::model::Kinds, royal: u64, pieces: usize) -> u64 {
    let all = if pieces >= 64 {
        u64::MAX
    } else {
        (1u64 << pieces) - 1
    };
    match kinds {
        crate::model::Kinds::All => all,
        crate::model::Kinds::Royal => royal,
        crate::model::Kinds::NonRoyal => all & !royal,
        crate::model::Kinds::Named(m) => m,
    }
}

/// The tables built from the move entries: attacks, promotions, drops.
fn finish<S: Width>(rules: &mut Rules) {
    rules.plain_lines = rules.hostile.iter().flatten().all(|h| !h)
        && rules.every_side.0 == 0
        && rules.edge_fronts.is_empty()
        && !rules.enclosure.as_ref().is_some_and(|e| e.single);
    index_attacks::<S>(rules);
    mark_promotions::<S>(rules);
    slides::mark_plain_runs::<S>(rules);
    tables::mark_shared_jumps::<S>(rules);
    index_drops::<S>(rules);
}

impl Rules {
    /// Roughly the bytes the compiled rules take: the move and attack tables, the
    /// promotion zones, and the board's cells. An estimate for budgets, not an account.
    pub fn heap_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        let cells = self.variant.board.len();
        std::mem::size_of::<Rules>()
            + bytes(&self.entries)
            + bytes(&self.offsets)
            + bytes(&self.jump_entries)
            + bytes(&self.jump_offsets)
            + bytes(&self.jump_shared)
            + self.sets.heap_bytes()
            + bytes(&self.attack_offsets)
            + bytes(&self.attack_entries)
            + bytes(&self.plain_runs)
            + bytes(&self.special_offsets)
            + bytes(&self.specials)
            + bytes(&self.castling.rights_clear)
            + bytes(&self.gate_bits)
            + bytes(&self.gate_cells)
            + bytes(&self.castling.rights_aimed)
            + bytes(&self.castling.rights_moved)
            + self.promotions.iter().flatten().map(|p| p.zone.capacity()).sum::<usize>()
            // The board's points, names and lookup grid, and the variant's own lists.
            + cells * 96
            + self.variant.pieces.len() * 1024
    }

    /// Whether a player's gates all close once its hand is empty: where captured
    /// pieces never go to hand, it can never fill again.
    #[inline]
    pub fn empty_hand_shuts_gates(&self) -> bool {
        !self.hands
    }

    /// The gate bits on a cell, any player's (0 in a game without gates).
    #[inline]
    pub fn gates_at(&self, c: Cell) -> u64 {
        self.gate_bits.get(c.index()).copied().unwrap_or(0)
    }

    /// The castling rights lost when a piece of this player and kind moves.
    #[inline]
    pub(crate) fn rights_moved(&self, player: PlayerId, piece: PieceId) -> u64 {
        if self.castling.rights_moved.is_empty() {
            return 0;
        }
        self.castling.rights_moved[player.0 as usize * self.variant.pieces.len() + piece.0 as usize]
    }

    /// The castling rights lost when a piece of this player and kind lands on `to`.
    pub(crate) fn rights_aimed(&self, player: PlayerId, piece: PieceId, to: Cell) -> u64 {
        if self.castling.rights_aimed.is_empty() {
            return 0;
        }
        let pieces = self.variant.pieces.len();
        let cells = self.variant.board.len();
        self.castling.rights_aimed
            [(player.0 as usize * pieces + piece.0 as usize) * cells + to.index()]
    }

    /// The variant the rules were compiled from.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }
    /// Each option's value, by the variant's option order.
    pub fn options(&self) -> &[bool] {
        &self.options
    }
    /// Each option's name with the value these rules were compiled under.
    pub fn option_settings(&self) -> Vec<(String, bool)> {
        let names = self.variant.options.iter().map(|o| o.name.clone());
        names.zip(self.options.iter().copied()).collect()
    }

    /// The moves of a piece of `player` standing on `from`.
    pub fn moves(&self, player: PlayerId, piece: PieceId, from: Cell) -> &[MoveEntry] {
        let i = self.run(player, piece, from);
        &self.entries[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The captures by jumping a piece may make from a cell, which
    /// [`Rules::moves`] leaves out.
    #[inline]
    pub fn jump_moves(&self, player: PlayerId, piece: PieceId, from: Cell) -> &[MoveEntry] {
        let i = self.run(player, piece, from);
        &self.jump_entries[self.jump_offsets[i] as usize..self.jump_offsets[i + 1] as usize]
    }

    /// [`Rules::jump_moves`], and whether one of them goes on and shares the pieces it
    /// jumps with another ([`JUMP_SHARED`]).
    #[inline]
    pub fn jump_moves_shared(
        &self,
        player: PlayerId,
        piece: PieceId,
        from: Cell,
    ) -> (&[MoveEntry], bool) {
        let i = self.run(player, piece, from);
        let moves =
            &self.jump_entries[self.jump_offsets[i] as usize..self.jump_offsets[i + 1] as usize];
        (moves, self.jump_shared[i])
    }

    /// The index of a (player, piece, cell) run, as `SetTables` methods take it.
    #[inline]
    pub fn run(&self, player: PlayerId, piece: PieceId, cell: Cell) -> usize {
        (player.0 as usize * self.variant.pieces.len() + piece.0 as usize)
            * self.variant.board.len()
            + cell.index()
    }

    /// Whether every move of a run (see [`Rules::run`]) is plain, but for its
    /// [`Rules::specials`], and how (see [`Plain`]).
    #[inline]
    pub fn plain(&self, run: usize) -> Plain {
        match self.plain_runs[run / 32] >> (2 * (run % 32)) & 3 {
            0 => Plain::No,
            1 => Plain::Lines,
            _ => Plain::Leaps,
        }
    }

    /// The entries of a plain run that its slides leave out, to be walked one by one
    /// (a move that may be taken in passing, or promote, among plain ones), as copies
    /// that shade no other entry.
    #[inline]
    pub fn specials(&self, run: usize) -> &[MoveEntry] {
        match self.special_offsets.get(run..run + 2) {
            Some(&[start, end]) => &self.specials[start as usize..end as usize],
            _ => &[],
        }
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

    /// The capturing entries of `player`'s `piece` from `from` to `to`.
    #[inline]
    pub fn captures_between(
        &self,
        player: PlayerId,
        piece: PieceId,
        from: Cell,
        to: Cell,
    ) -> impl Iterator<Item = &MoveEntry> {
        let i = self.run(player, piece, to);
        let bucket = &self.attack_entries
            [self.attack_offsets[i] as usize..self.attack_offsets[i + 1] as usize];
        let first = bucket.partition_point(|(f, _)| *f < from);
        bucket[first..]
            .iter()
            .take_while(move |(f, _)| *f == from)
            .map(|(_, e)| &self.entries[*e as usize])
    }

    /// The kinds whose capture of `piece` wins the game (0 when none does).
    #[inline]
    pub fn deciding(&self, piece: PieceId) -> u64 {
        self.ends.deciding[piece.0 as usize]
    }

    /// The kinds some capture of which wins the game, as a bit set.
    #[inline]
    pub fn deciding_kinds(&self) -> u64 {
        self.ends.deciding_kinds
    }

    /// The end rules the options leave in force, in the order written.
    pub fn end_rules_in_force(&self) -> impl Iterator<Item = &crate::model::EndRule> {
        self.variant
            .end_rules
            .iter()
            .filter(|r| holds(r.guard, &self.options))
    }

    /// Whether the rules reward giving pieces away: an end rule in force lets a player
    /// with no pieces (or only royal ones) win, or, with compulsory capture, a player
    /// left without a move (or, counting pieces as points, the one with fewer), or the
    /// player checkmated (misère, see [`Rules::mate_is_a_goal`]). Material then counts
    /// against its owner.
    pub fn material_is_a_burden(&self) -> bool {
        self.mate_is_a_goal()
            || self.variant.end_rules.iter().any(|r| {
                holds(r.guard, &self.options)
                    && match (r.event(), r.outcome) {
                        (Some(e), Outcome::THAT_WINS) if e.leaves_little() => true,
                        (Some(Event::NoLegalMove | Event::Stalemate), Outcome::MOVER_LOSES) => {
                            self.must_capture
                        }
                        // Fewer points win a stalemate (Suicide Chess's piece count).
                        (Some(Event::NoLegalMove | Event::Stalemate), Outcome::THAT_WINS) => {
                            self.must_capture && r.fewest
                        }
                        _ => false,
                    }
            })
    }

    /// Whether space decides the game: nothing is ever taken (see
    /// [`Rules::nothing_is_taken`]) and a player left without a move loses.
    pub fn space_decides(&self) -> bool {
        self.nothing_is_taken() && self.stuck_loses()
    }

    /// Whether an end rule in force makes a player left without a move lose.
    pub fn stuck_loses(&self) -> bool {
        self.end_rules_in_force()
            .any(|r| r.event() == Some(Event::NoLegalMove) && r.outcome == Outcome::MOVER_WINS)
    }

    /// Whether no piece ever leaves the board or changes sides: no move takes or turns
    /// a piece, and nothing is dropped.
    pub fn nothing_is_taken(&self) -> bool {
        self.enclosure.is_none()
            && !self.variant.has_hands()
            && self.every_move(crate::model::Dest::Empty)
    }

    /// Whether every move takes a piece: each move of each piece goes only onto an
    /// enemy, and there are no drops, castlings or passes.
    pub fn every_move_captures(&self) -> bool {
        !self.variant.has_hands()
            && self.castling.castlings.is_empty()
            && self.variant.pass.is_none()
            && !self.variant.pass_if_stuck
            && self.every_move(crate::model::Dest::Enemy)
    }

    fn every_move(&self, dest: crate::model::Dest) -> bool {
        self.variant
            .pieces
            .iter()
            .flat_map(|p| &p.moves)
            .all(|m| m.dest == dest)
    }

    /// Whether an end rule in force lets the player checkmated win (misère): material
    /// is then a burden, and a side wants its royal pieces exposed, but keeps moves to
    /// spare so as not to be stalemated.
    pub fn mate_is_a_goal(&self) -> bool {
        self.variant.end_rules.iter().any(|r| {
            holds(r.guard, &self.options)
                && r.event() == Some(Event::Checkmate)
                && !r.by_points
                && matches!(r.outcome, Outcome::MOVER_LOSES | Outcome::THAT_WINS)
        })
    }

    /// The random numbers of position keys.
    #[inline]
    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    /// The promotion of `player`'s `piece`, if it has one.
    #[inline]
    pub fn promotion(&self, player: PlayerId, piece: PieceId) -> Option<&PromotionRule> {
        self.promotions[player.0 as usize * self.variant.pieces.len() + piece.0 as usize].as_ref()
    }

    /// Whether a move from `from` to `to` goes forward for `player` (see `Rules::ahead`).
    #[inline]
    pub fn goes_forward(&self, player: PlayerId, from: Cell, to: Cell) -> bool {
        let a = &self.ends.ahead[player.0 as usize];
        a[to.index()] > a[from.index()]
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

#[cfg(test)]
mod tests;
