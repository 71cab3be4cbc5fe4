//! What the end rules in force make the runtime track and test, found once.

use crate::model::{Event, Outcome, PieceId, Variant, holds};

#[derive(Clone, Debug)]
pub(crate) struct EndFacts {
    /// For each captured kind: the capturing kinds for which a capture ends the game.
    pub(crate) capture_ends: Vec<u64>,
    /// For each captured kind: the capturing kinds for which a capture may end the
    /// game, as a part of a rule's condition that holds only with other parts.
    pub(crate) capture_judged: Vec<u64>,
    /// For each captured kind: the capturing kinds whose capture of it wins.
    pub(crate) deciding: Vec<u64>,
    /// The kinds with some such capture, as a bit set.
    pub(crate) deciding_kinds: u64,
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
    /// Whether a pass may end the game (a standoff kept, every player passed).
    pub(crate) pass_ends: bool,
    /// (kind, zone) of the end rules about a piece reaching a zone.
    pub(crate) goals: Vec<(PieceId, usize)>,
    /// The checks a player must give to win, when the game counts them (the first
    /// such rule's count): positions keep the count, and their strings show it.
    pub(crate) check_goal: Option<u32>,
    /// (kind, enemy kind) pairs whose facing on an open file must be broken at once:
    /// a `... facing enemy ... on an open file` end rule in force.
    pub(crate) standoffs: Vec<(PieceId, PieceId)>,
    /// The kinds the `checkmate without a check by ... in its run` rules in force name,
    /// as a bit set: positions keep, per player, which of them gave check in the
    /// player's current run of checking moves (0: the game keeps no runs).
    pub(crate) run_kinds: u64,
    /// Per counting line: the kinds whose pieces on the board rule its condition out
    /// (see [`crate::model::Condition::ruled_out_by`]).
    pub(crate) count_ruled_out: Vec<u64>,
}

/// The end facts of the rules in force; `capturable_by` says, per kind, which kinds
/// may capture it.
pub(super) fn end_facts(variant: &Variant, options: &[bool], capturable_by: &[u64]) -> EndFacts {
    let pieces = variant.pieces.len();
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
        let decides = r.event().is_some() && r.outcome == Outcome::MOVER_WINS;
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
    EndFacts {
        count_ruled_out: variant
            .counts
            .iter()
            .map(|c| c.condition.ruled_out_by())
            .collect(),
        capture_ends,
        capture_judged,
        deciding_kinds: (0..pieces)
            .filter(|&k| deciding[k] != 0)
            .fold(0, |m, k| m | 1 << k),
        deciding,
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
        standoffs,
        check_goal: variant
            .end_rules
            .iter()
            .flat_map(|r| r.condition.events())
            .find_map(|e| match e {
                Event::ChecksGiven(n) => Some(n),
                _ => None,
            }),
        run_kinds: variant
            .end_rules
            .iter()
            .filter(|r| holds(r.guard, options))
            .flat_map(|r| r.condition.events())
            .fold(0, |m, e| match e {
                Event::CheckmateRunWithout(kinds) => m | kinds,
                _ => m,
            }),
    }
}
