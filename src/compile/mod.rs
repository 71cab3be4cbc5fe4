//! Compiling: a checked variant and option values to dense per-cell move tables.
//!
//! The runtime never walks patterns: for each player, piece and cell it reads a slice
//! of [`MoveEntry`] values, each with the cells that must be empty to make it.
//!
//! Cell sets (must-be-empty paths, attackers) are stored at the board's width, chosen
//! here once: see [`Sets`].

mod keys;
mod sets;
mod shadow;

pub use crate::check::{Reach, destinations, minimal};
pub use crate::model::MAX_PLAYERS;
pub use keys::Keys;
pub(crate) use sets::by_width;
pub use sets::{SetTables, Sets, Width};

use crate::geometry::{Board, Cell, CellSet, Kind};
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
    /// The piece stays on its cell, and a copy of it lands on `to`.
    pub copy: bool,
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
    /// Not on a file holding this many (two or more) of the player's own pieces of a
    /// kind.
    pub file_full: Option<(PieceId, u8)>,
    /// Not on a cell the player's own pieces of these kinds attack.
    pub attacked_by: u64,
    /// Not attacking an enemy royal piece.
    pub no_check: bool,
    /// Not attacking an enemy royal piece and leaving the enemy no legal move.
    pub no_mate: bool,
    /// Only where it encloses a line of enemy pieces.
    pub enclosing: bool,
    /// While a cell of this zone is empty, only there.
    pub first_on: Option<usize>,
}

/// Cells a move passes, open to capture next move by the kinds in the set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passing {
    pub cells: Vec<Cell>,
    pub by: u64,
}

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

/// What a piece may become when a move touches its zone.
#[derive(Clone, Debug)]
pub struct PromotionRule {
    /// Per cell: whether it lies in the zone.
    pub zone: Vec<bool>,
    pub to: Vec<PieceId>,
    /// Per kind of `to`: the most of it the player may have on the board for a
    /// promotion to it (as many as the setup gives, with `only to kinds the player has
    /// lost`; otherwise no limit).
    pub limit: Vec<u32>,
    pub optional: bool,
    /// Forced where the piece could never move again.
    pub forced_if_stuck: bool,
    /// With `when.standing`: also anywhere while the player has no other piece of the
    /// kind on the board.
    pub alone: bool,
    /// Not made where the move gives check or the new piece attacks an enemy piece.
    pub quiet: bool,
    pub when: crate::model::Trigger,
}

/// A variant compiled for one choice of option values.
#[derive(Clone, Debug)]
pub struct Rules {
    pub(crate) variant: Variant,
    pub(crate) options: Vec<bool>,
    entries: Vec<MoveEntry>,
    /// Start of each (player, piece, cell) run in `entries`, plus one final end.
    offsets: Vec<u32>,
    /// Paths and attacker sets, at the board's width.
    pub(crate) sets: Sets,
    /// For each piece: the pieces allowed to capture it, as a bit set (all when none said).
    pub(crate) capturable_by: Vec<u64>,
    /// For each piece: whether it may not end a move on an attacked cell.
    pub(crate) avoids_attack: Vec<bool>,
    /// Capturing entries by destination: for each (player, piece, to), the entries
    /// (indices into `entries`) that can capture on `to`, and their start cells.
    attack_offsets: Vec<u32>,
    attack_entries: Vec<(Cell, u32)>,
    /// For each captured kind: the capturing kinds for which a capture ends the game.
    pub(crate) capture_ends: Vec<u64>,
    /// For each captured kind: the capturing kinds for which a capture may end the
    /// game, as a part of a rule's condition that holds only with other parts.
    pub(crate) capture_judged: Vec<u64>,
    /// For each captured kind: the capturing kinds whose capture of it wins.
    deciding: Vec<u64>,
    /// The kinds with some such capture, as a bit set.
    deciding_kinds: u64,
    /// For each (piece, tag): the bit tracking its once-per-game use, if limited.
    once_bits: Vec<Option<u8>>,
    /// Royal kinds, as a bit set.
    pub(crate) royal: u64,
    /// Kinds that in check may only capture the lone checking piece, as a bit set.
    pub(crate) check_bound: u64,
    /// Per (player, piece): its promotion, if any.
    promotions: Vec<Option<PromotionRule>>,
    pub(crate) passing: Vec<Passing>,
    pub(crate) castlings: Vec<CastleRule>,
    /// Per castling-right bit: the castlings that hold it, by index.
    pub(crate) castles_by_right: Vec<Vec<u8>>,
    /// Per cell: the castling rights lost when a move starts or ends there.
    pub(crate) rights_clear: Vec<u64>,
    /// Gates (`pieces in hand enter through gates on ZONE`): bit `i` is the `i`-th
    /// (player, cell).
    pub(crate) gate_cells: Vec<(PlayerId, Cell)>,
    /// Per cell (empty without gates): the gate bits on it, any player's.
    gate_bits: Vec<u64>,
    /// Per player: its gate bits.
    pub(crate) player_gates: [u64; MAX_PLAYERS],
    /// Per (player, piece, cell): the castling rights lost when that piece lands there
    /// (`lost when ... aims at`); empty when no castling says so.
    rights_aimed: Vec<u64>,
    /// Per (player, piece): the castling rights lost when that piece moves (the first
    /// piece of a castling from anywhere); empty when no castling says so.
    rights_moved: Vec<u64>,
    /// Kinds whose moves reset the quiet-ply count, as a bit set.
    pub(crate) resets_quiet: u64,
    /// Whether a drop starts the count of quiet plies again.
    pub(crate) drops_reset_quiet: bool,
    /// Of `resets_quiet`, the kinds that reset it only by moving forward.
    pub(crate) resets_forward: u64,
    /// Per player, per cell: how far forward the cell lies (see [`Board::along`]),
    /// where some kind resets the count only by moving forward.
    pub(crate) ahead: Vec<Vec<i32>>,
    /// Whether some end rule in force holds from the position alone (a kind extinct,
    /// a piece on its goal), so perft must ask at every node.
    pub(crate) ends_in_place: bool,
    /// Those rules, by their place in the variant's list.
    pub(crate) in_place_rules: Vec<usize>,
    /// A player who can capture must.
    pub(crate) must_capture: bool,
    /// Whether a pass may end the game (a standoff kept, every player passed).
    pub(crate) pass_ends: bool,
    /// (kind, zone) of the end rules about a piece reaching a zone.
    pub(crate) goals: Vec<(PieceId, usize)>,
    /// No move may leave another player's royal piece attacked.
    pub(crate) no_checks: bool,
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
    /// Enemy pieces that change sides after a move.
    pub(crate) flip: Option<crate::model::Flip>,
    /// Per cell, with flips or enclosing drops: for each direction, the cells from it
    /// along that direction to the edge (directions leaving the board at once left out).
    pub(crate) rays: Vec<Vec<Vec<Cell>>>,
    /// The checks a player must give to win, when the game counts them (the first
    /// such rule's count): positions keep the count, and their strings show it.
    pub(crate) check_goal: Option<u32>,
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
    /// (kind, enemy kind) pairs that may not face each other on an open file.
    pub(crate) facing: Vec<(PieceId, PieceId)>,
    /// The kinds in `facing`, as a bit set.
    pub(crate) facing_kinds: u64,
    /// (kind, enemy kind) pairs whose facing on an open file must be broken at once:
    /// a `... facing enemy ... on an open file` end rule in force.
    pub(crate) standoffs: Vec<(PieceId, PieceId)>,
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
    /// The kinds the `checkmate without a check by ... in its run` rules in force name,
    /// as a bit set: positions keep, per player, which of them gave check in the
    /// player's current run of checking moves (0: the game keeps no runs).
    pub(crate) run_kinds: u64,
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
    let (entries, offsets, sets, passing) =
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
    let capturable_by: Vec<u64> = variant
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
    let mut capture_judged = vec![0u64; pieces];
    let mut deciding = vec![0u64; pieces];
    let mut resets_quiet = variant.clock_kinds;
    let mut drops_reset_quiet = variant.clock_drops;
    let mut standoffs = Vec::new();
    let mut pass_ends = false;
    let mut goals = Vec::new();
    for r in variant.end_rules.iter().filter(|r| holds(r.guard, options)) {
        // A capture decides the game only where it is the rule's whole condition.
        let decides = r.event().is_some() && r.outcome == Outcome::MoverWins;
        let sufficient = r.condition.sufficient();
        for e in r.condition.events() {
            goals.extend(e.goal());
            match e {
                Event::Facing { piece, enemy } => {
                    standoffs.push((piece, enemy));
                    pass_ends = true;
                }
                Event::AllPassed => pass_ends = true,
                Event::Captured { piece, by } => {
                    let by = by.map_or(u64::MAX, |b| 1 << b.0);
                    if sufficient.contains(&e) {
                        capture_ends[piece.0 as usize] |= by;
                    } else {
                        capture_judged[piece.0 as usize] |= by;
                    }
                    if decides {
                        deciding[piece.0 as usize] |= by & capturable_by[piece.0 as usize];
                    }
                }
                Event::PliesWithoutCapture(_, kinds, drops) => {
                    resets_quiet |= kinds;
                    drops_reset_quiet |= drops;
                }
                _ => {}
            }
        }
    }
    let in_place_rules: Vec<usize> = (0..variant.end_rules.len())
        .filter(|&i| {
            let r = &variant.end_rules[i];
            holds(r.guard, options) && r.condition.every(&Event::in_place)
        })
        .collect();
    let ends_in_place = !in_place_rules.is_empty();
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
    let (mut gate_cells, mut gate_bits, mut player_gates) = (vec![], vec![], [0u64; MAX_PLAYERS]);
    if let Some(crate::model::Gates { zone: z, .. }) = variant.gates {
        gate_bits = vec![0u64; variant.board.len()];
        for (p, cells) in variant.zones[z].cells.iter().enumerate() {
            for &c in cells {
                let bit = 1u64 << gate_cells.len();
                gate_cells.push((PlayerId(p as u8), c));
                gate_bits[c.index()] |= bit;
                player_gates[p] |= bit;
            }
        }
    }
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
    let keys = Keys::new(variant, &passing);
    let hurdles = entries.iter().any(|e| e.hurdle != 0);
    let demote: Vec<PieceId> = (0..pieces)
        .map(|i| variant.pieces[i].demotes_to.unwrap_or(PieceId(i as u8)))
        .collect();
    let mut drop_faces = vec![0u64; pieces];
    if variant.hand.is_some_and(|h| h.either_side) {
        for (j, base) in demote.iter().enumerate() {
            if base.0 as usize != j {
                drop_faces[base.0 as usize] |= 1 << j;
            }
        }
    }
    let mut promotion_base = vec![None; pieces];
    for (i, rule) in promotions.iter().enumerate() {
        let base = PieceId((i % pieces) as u8);
        // Turning back to its own unpromoted side is no promotion to remember.
        for k in rule
            .iter()
            .flat_map(|r| &r.to)
            .filter(|k| demote[base.0 as usize] != **k)
        {
            let slot = &mut promotion_base[k.0 as usize];
            if demote[k.0 as usize] == *k && slot.is_none_or(|b: PieceId| b > base) {
                *slot = Some(base);
            }
        }
    }
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
        sets,
        capturable_by,
        avoids_attack,
        attack_offsets: vec![],
        attack_entries: vec![],
        capture_ends,
        capture_judged,
        deciding_kinds: (0..pieces)
            .filter(|&k| deciding[k] != 0)
            .fold(0, |m, k| m | 1 << k),
        deciding,
        once_bits,
        royal,
        check_bound,
        promotions,
        passing,
        castles_by_right,
        castlings,
        rights_clear,
        gate_cells,
        gate_bits,
        player_gates,
        rights_aimed,
        rights_moved,
        resets_quiet,
        drops_reset_quiet,
        resets_forward: variant.forward_moves,
        ahead: if variant.forward_moves == 0 {
            vec![]
        } else {
            variant
                .players
                .iter()
                .map(|p| {
                    let b = &variant.board;
                    b.cells()
                        .map(|c| p.forward.map_or(0, |f| b.along(c, f)))
                        .collect()
                })
                .collect()
        },
        ends_in_place,
        in_place_rules,
        pass_ends,
        goals,
        must_capture: variant.must_capture,
        explosion: variant.explosion,
        no_checks: variant.no_checks,
        standing_promotions,
        quiet_promotions,
        royal_together: variant.royal_check == crate::model::RoyalCheck::Together,
        royal_alone: variant.royal_check == crate::model::RoyalCheck::Alone,
        around: match variant.explosion {
            Some(_) => around(&variant.board),
            None => vec![],
        },
        flip: variant.flip,
        rays: if variant.flip.is_some()
            || variant
                .pieces
                .iter()
                .any(|p| p.no_drop.iter().any(|(_, r)| *r == NoDrop::Enclosing))
        {
            rays(&variant.board)
        } else {
            vec![]
        },
        check_goal: variant
            .end_rules
            .iter()
            .flat_map(|r| r.condition.events())
            .find_map(|e| match e {
                Event::ChecksGiven(n) => Some(n),
                _ => None,
            }),
        hands: variant.hand.is_some(),
        demote,
        drop_faces,
        drop_rules: drop_rules(variant, options),
        hurdles,
        barred,
        facing,
        facing_kinds,
        standoffs,
        promotion_base,
        promoted_from,
        start_hands: variant.start_hands.clone(),
        walls: walling.iter().any(Option::is_some),
        wall_moves: walling.contains(&Some(crate::model::Walling::Moved)),
        walling,
        run_kinds: variant
            .end_rules
            .iter()
            .filter(|r| holds(r.guard, options))
            .flat_map(|r| r.condition.events())
            .fold(0, |m, e| match e {
                Event::CheckmateRunWithout(kinds) => m | kinds,
                _ => m,
            }),
        keys,
    };
    by_width!(words n, S => finish::<S>(&mut rules));
    Ok(rules)
}

/// Per cell, the cells one step from it in each of the board's directions.
fn around(b: &Board) -> Vec<Vec<Cell>> {
    b.cells()
        .map(|c| {
            (0..b.directions().len())
                .filter_map(|d| b.at(b.shift(b.point(c), crate::geometry::Dir(d as u8))))
                .collect()
        })
        .collect()
}

/// Per cell, per direction, the cells along it until the board ends or a hole breaks
/// the line.
fn rays(b: &Board) -> Vec<Vec<Vec<Cell>>> {
    b.cells()
        .map(|c| {
            (0..b.directions().len())
                .map(|d| {
                    let d = crate::geometry::Dir(d as u8);
                    let mut at = b.point(c);
                    let mut ray = Vec::new();
                    loop {
                        at = b.shift(at, d);
                        match b.at(at) {
                            Some(n) => ray.push(n),
                            None => break,
                        }
                    }
                    ray
                })
                .filter(|r| !r.is_empty())
                .collect()
        })
        .collect()
}

/// The tables built from the move entries: attacks, promotions, drops.
fn finish<S: Width>(rules: &mut Rules) {
    index_attacks::<S>(rules);
    mark_promotions::<S>(rules);
    index_drops::<S>(rules);
}

/// Sets each entry's promotion: allowed when the move starts in, ends in or passes the
/// zone as the rule says; forced when declared so, or (when the rule says so) where
/// the piece could never move again from where it lands.
fn mark_promotions<S: Width>(rules: &mut Rules) {
    let v = &rules.variant;
    let (players, pieces, cells) = (v.players.len(), v.pieces.len(), v.board.len());
    for pl in 0..players {
        for pc in 0..pieces {
            let Some(p) = rules.promotions[pl * pieces + pc].clone() else {
                continue;
            };
            let z = |c: Cell| p.zone[c.index()];
            let base = (pl * pieces + pc) * cells;
            for from in 0..cells {
                let run = base + from;
                for i in rules.offsets[run]..rules.offsets[run + 1] {
                    let e = rules.entries[i as usize];
                    let passes = || rules.sets::<S>().paths(&e).any(|m| m.iter().any(z));
                    let applies = (p.when.from && z(Cell(from as u16)))
                        || (p.when.into && z(e.to))
                        || (p.when.entering && z(e.to) && !z(Cell(from as u16)))
                        || (p.when.through && passes());
                    let to = base + e.to.index();
                    let stuck = p.forced_if_stuck && rules.offsets[to] == rules.offsets[to + 1];
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

/// Per (player, piece), the cells a drop may use (with `never dropped where they
/// could never move`, only cells the piece has a move from); per (player, cell), the
/// line through the cell along the player's forward direction.
fn index_drops<S: Width>(rules: &mut Rules) {
    let v = &rules.variant;
    let b = &v.board;
    let mobile = v.hand.is_some_and(|h| h.mobile_only);
    let mut drop_cells = Vec::new();
    let mut files = Vec::new();
    for (pl, player) in v.players.iter().enumerate() {
        let pl = PlayerId(pl as u8);
        for pc in 0..v.pieces.len() {
            let pc = PieceId(pc as u8);
            let zones: Vec<(bool, &[Cell])> = v
                .piece(pc)
                .no_drop
                .iter()
                .filter(|(g, _)| holds(*g, &rules.options))
                .filter_map(|(_, r)| match r {
                    NoDrop::InZone(z) => Some((false, &v.zones[*z].cells[pl.0 as usize][..])),
                    NoDrop::OutsideZone(z) => Some((true, &v.zones[*z].cells[pl.0 as usize][..])),
                    _ => None,
                })
                .collect();
            drop_cells.push(S::from_cells(b.cells().filter(|c| {
                (!mobile || !rules.moves(pl, pc, *c).is_empty())
                    && zones.iter().all(|(inside, z)| z.contains(c) == *inside)
            })));
        }
        for c in b.cells() {
            let mut set = S::single(c);
            if let Some(f) = player.forward {
                for d in [f, b.opposite(f)] {
                    let mut at = b.point(c);
                    loop {
                        at = b.shift(at, d);
                        if !b.within_bounds(at) {
                            break;
                        }
                        if let Some(n) = b.at(at) {
                            set.insert(n);
                        }
                    }
                }
            }
            files.push(set);
        }
    }
    let mut tables = S::take(&mut rules.sets);
    tables.drop_cells = drop_cells;
    tables.files = files;
    tables.all = S::from_cells(b.cells());
    rules.sets = S::wrap(tables);
}

fn drop_rules(v: &Variant, options: &[bool]) -> Vec<DropRule> {
    v.pieces
        .iter()
        .map(|p| {
            let mut r = DropRule::default();
            for (_, rule) in p.no_drop.iter().filter(|(g, _)| holds(*g, options)) {
                match rule {
                    NoDrop::FileWith(k, 1) => r.file_with |= 1 << k.0,
                    NoDrop::FileWith(k, n) => r.file_full = Some((*k, *n)),
                    NoDrop::AttackedBy(k) => r.attacked_by |= 1 << k.0,
                    NoDrop::Check => r.no_check = true,
                    NoDrop::Checkmate => r.no_mate = true,
                    NoDrop::InZone(_) | NoDrop::OutsideZone(_) => {}
                    NoDrop::Enclosing => r.enclosing = true,
                    NoDrop::FirstOn(z) => r.first_on = Some(*z),
                }
            }
            r
        })
        .collect()
}

/// The move entries, their runs and their paths, with sets of type `S`.
fn build<S: Width>(
    variant: &Variant,
    options: &[bool],
    barred: &mut Vec<u64>,
) -> (Vec<MoveEntry>, Vec<u32>, Sets, Vec<Passing>) {
    let board = &variant.board;
    let mut passing: Vec<Passing> = Vec::new();
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
                // Each entry with its paths and the cells its nearby condition looks at.
                let mut here: Vec<(MoveEntry, Vec<S>, S)> = Vec::new();
                for (k, pat) in piece
                    .moves
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| holds(p.guard, options))
                {
                    // Decided before the cache below, which is filled cell by cell.
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
                    let zone = pat
                        .within
                        .map(|z| S::from_cells(variant.zones[z].cells[pl].iter().copied()));
                    let (hurdle, bar) = match &pat.hurdle {
                        None => (0, 0),
                        Some(h) => {
                            let kinds = h.except.iter().fold(0u64, |m, k| m | 1 << k.0);
                            let bar = match kinds {
                                0 => 0,
                                _ => match barred.iter().position(|b| *b == kinds) {
                                    Some(i) => i + 1,
                                    None => {
                                        barred.push(kinds);
                                        barred.len()
                                    }
                                },
                            };
                            (
                                h.count.min(u8::MAX as u32) as u8,
                                bar.min(u8::MAX as usize) as u8,
                            )
                        }
                    };
                    let (near_rule, near) = match &pat.nearby {
                        None => (0, S::EMPTY),
                        Some(n) => (
                            nearby_rule(n),
                            S::from_cells(n.cells(board, player.forward, from)),
                        ),
                    };
                    for mut reach in reaches {
                        if let Some(z) = &zone {
                            if !z.contains(from) || !z.contains(reach.to) {
                                continue;
                            }
                            reach.paths.retain(|p| p.is_subset(z));
                            if reach.paths.is_empty() {
                                continue;
                            }
                        }
                        if let Some(h) = &pat.hurdle {
                            reach.paths = hurdle_pairs(board, h, reach.to, reach.paths);
                            if reach.paths.is_empty() {
                                continue;
                            }
                        }
                        let mut ep = 0;
                        if !pat.en_passant.is_empty() && passing.len() < u16::MAX as usize {
                            let cells = reach.paths.first().copied().unwrap_or(S::EMPTY);
                            passing.push(Passing {
                                cells: cells.iter().collect(),
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
                            hurdle,
                            barred: bar,
                            copy: pat.copy,
                            near_rule,
                            shadow: 0,
                        };
                        here.push((key, reach.paths, near));
                    }
                }
                // Equal (to, tag) pairs side by side: the runtime drops repeats cheaply.
                here.sort_by_key(|(e, _, _)| {
                    (
                        e.to,
                        e.tag,
                        e.copy,
                        e.dest as u8,
                        e.target,
                        e.passing,
                        e.hurdle,
                        e.barred,
                        e.near_rule,
                    )
                });
                let mut merged: Vec<(MoveEntry, Vec<S>, S)> = Vec::with_capacity(here.len());
                for (e, p, near) in here {
                    match merged.last_mut() {
                        Some((last, lp, ln)) if *last == e && *ln == near => lp.extend(p),
                        _ => merged.push((e, p, near)),
                    }
                }
                let merged = merged
                    .into_iter()
                    .map(|(e, p, near)| (e, if e.hurdle == 0 { minimal(p) } else { p }, near))
                    .collect();
                for (mut e, p, near) in shadow::order_by_shadow(merged) {
                    if e.near_rule != 0 {
                        paths.push(near);
                    }
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
    (entries, offsets, S::wrap(tables), passing)
}

/// A move over pieces' paths as (must be empty, hurdle cells) pairs, flattened: every
/// passed cell is a hurdle cell, or with `landing right behind` only the passed cell
/// next to the end (a path with no single such cell is dropped).
fn hurdle_pairs<S: CellSet>(board: &Board, h: &Hurdle, to: Cell, paths: Vec<S>) -> Vec<S> {
    let mut out: Vec<(S, S)> = Vec::new();
    for p in paths {
        let pair = if h.right_behind {
            let end = board.point(to);
            let next: Vec<Cell> = p
                .iter()
                .filter(|c| {
                    let q = board.point(*c);
                    board.adjacent(q, end, Kind::Orthogonal)
                        || board.adjacent(q, end, Kind::Diagonal)
                })
                .collect();
            let [last] = next[..] else { continue };
            let mut empty = p;
            empty.remove(last);
            (empty, S::single(last))
        } else {
            (S::EMPTY, p)
        };
        if pair.1.len() >= h.count as usize && !out.contains(&pair) {
            out.push(pair);
        }
    }
    out.into_iter().flat_map(|(a, b)| [a, b]).collect()
}

/// Whether an initial move may start from `from` for this player and kind.
fn starts_from(v: &Variant, init: &Initial, pl: PlayerId, pc: PieceId, from: Cell) -> bool {
    match init {
        Initial::Zone(z) => v.zones[*z].cells[pl.0 as usize].contains(&from),
        Initial::Not(inner) => !starts_from(v, inner, pl, pc, from),
        Initial::Cells(cells) => cells.contains(&from),
        Initial::StartExcept(except) => {
            !except.contains(&from)
                && v.setup
                    .iter()
                    .any(|p| p.cell == from && p.player == pl && p.piece == pc)
        }
    }
}

/// Each (player, piece)'s promotion: the first rule for the player whose guard holds.
fn promotion_rules(v: &Variant, options: &[bool], royal: u64) -> Vec<Option<PromotionRule>> {
    let mut out = Vec::new();
    for pl in 0..v.players.len() {
        for (pi, piece) in v.pieces.iter().enumerate() {
            out.push(
                piece
                    .promotion
                    .iter()
                    .find(|p| {
                        holds(p.guard, options) && p.player.is_none_or(|q| q.0 as usize == pl)
                    })
                    .map(|p| {
                        let mut zone = vec![false; v.board.len()];
                        for c in &v.zones[p.zone].cells[pl] {
                            zone[c.index()] = true;
                        }
                        let to: Vec<PieceId> = if p.to.is_empty() {
                            (0..v.pieces.len())
                                .filter(|&k| k != pi && royal & (1 << k) == 0)
                                .map(|k| PieceId(k as u8))
                                .collect()
                        } else {
                            p.to.clone()
                        };
                        let limit = to
                            .iter()
                            .map(|k| {
                                let lost = match p.lost_only {
                                    true => start_count(v, PlayerId(pl as u8), *k),
                                    false => u32::MAX,
                                };
                                p.most
                                    .iter()
                                    .filter(|(m, _)| m == k)
                                    .fold(lost, |l, (_, n)| l.min(*n))
                            })
                            .collect();
                        PromotionRule {
                            zone,
                            to,
                            limit,
                            optional: p.optional,
                            forced_if_stuck: p.forced_if_stuck,
                            alone: p.alone,
                            quiet: p.quiet,
                            when: p.when,
                        }
                    }),
            );
        }
    }
    out
}

/// How many pieces of a kind the setup gives a player, fixed and drawn at random.
fn start_count(v: &Variant, player: PlayerId, kind: PieceId) -> u32 {
    let fixed = v
        .setup
        .iter()
        .filter(|p| p.player == player && p.piece == kind)
        .count();
    let drawn = v
        .random
        .iter()
        .flat_map(|r| &r.pools)
        .filter(|p| p.player == player);
    (fixed
        + drawn
            .flat_map(|p| &p.pieces)
            .filter(|k| **k == kind)
            .count()) as u32
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
    // What each run's moves look at: their destinations and every cell of their paths.
    let mut looks = Vec::with_capacity(buckets);
    for i in 0..buckets {
        let mut cells = S::EMPTY;
        for e in &rules.entries[rules.offsets[i] as usize..rules.offsets[i + 1] as usize] {
            cells.insert(e.to);
            for p in tables.paths(e) {
                cells = cells.union(&p);
            }
        }
        looks.push(cells);
    }
    tables.looks = looks.iter().map(|s| s.pack(&mut tables.pool)).collect();
    rules.sets = S::wrap(tables);
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
            + self.sets.heap_bytes()
            + bytes(&self.attack_offsets)
            + bytes(&self.attack_entries)
            + bytes(&self.rights_clear)
            + bytes(&self.gate_bits)
            + bytes(&self.gate_cells)
            + bytes(&self.rights_aimed)
            + bytes(&self.rights_moved)
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
        if self.rights_moved.is_empty() {
            return 0;
        }
        self.rights_moved[player.0 as usize * self.variant.pieces.len() + piece.0 as usize]
    }

    /// The castling rights lost when a piece of this player and kind lands on `to`.
    pub(crate) fn rights_aimed(&self, player: PlayerId, piece: PieceId, to: Cell) -> u64 {
        if self.rights_aimed.is_empty() {
            return 0;
        }
        let pieces = self.variant.pieces.len();
        let cells = self.variant.board.len();
        self.rights_aimed[(player.0 as usize * pieces + piece.0 as usize) * cells + to.index()]
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

    /// The index of a (player, piece, cell) run, as `SetTables` methods take it.
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
        self.deciding[piece.0 as usize]
    }

    /// The kinds some capture of which wins the game, as a bit set.
    #[inline]
    pub fn deciding_kinds(&self) -> u64 {
        self.deciding_kinds
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
                        (Some(e), Outcome::ThatWins) if e.leaves_little() => true,
                        (Some(Event::NoLegalMove | Event::Stalemate), Outcome::MoverLoses) => {
                            self.must_capture
                        }
                        // Fewer points win a stalemate (Suicide Chess's piece count).
                        (Some(Event::NoLegalMove | Event::Stalemate), Outcome::ThatWins) => {
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
            .any(|r| r.event() == Some(Event::NoLegalMove) && r.outcome == Outcome::MoverWins)
    }

    /// Whether no piece ever leaves the board or changes sides: no move takes or turns
    /// a piece, and nothing is dropped.
    pub fn nothing_is_taken(&self) -> bool {
        self.flip.is_none()
            && !self.variant.has_hands()
            && self.every_move(crate::model::Dest::Empty)
    }

    /// Whether every move takes a piece: each move of each piece goes only onto an
    /// enemy, and there are no drops, castlings or passes.
    pub fn every_move_captures(&self) -> bool {
        !self.variant.has_hands()
            && self.castlings.is_empty()
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
                && matches!(r.outcome, Outcome::MoverLoses | Outcome::ThatWins)
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
        let a = &self.ahead[player.0 as usize];
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
