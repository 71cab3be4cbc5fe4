//! The move tables: every pattern walked once from every cell, for every player and
//! kind, into entries with the cells each needs empty.

use super::*;

/// Entries, and where each (player, piece, cell) run of them starts.
pub(super) type Runs = (Vec<MoveEntry>, Vec<u32>);

/// The move entries and their runs (the captures by jumping apart), and their paths,
/// with sets of type `S`.
pub(super) fn build<S: Width>(
    variant: &Variant,
    options: &[bool],
    barred: &mut Vec<u64>,
) -> (Runs, Runs, Sets, Vec<Passing>) {
    let board = &variant.board;
    let mut passing: Vec<Passing> = Vec::new();
    let mut entries = Vec::new();
    let mut offsets = Vec::new();
    // Captures by jumping, and moves back to their start, in runs of their own: the
    // chains walk them, and ordinary moves never look at them.
    let mut jump_entries = Vec::new();
    let mut jump_offsets = Vec::new();
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
                jump_offsets.push(jump_entries.len() as u32);
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
                    let part = |z: usize| S::from_cells(variant.zones[z].cells[pl].iter().copied());
                    let zone = pat.within.map(part);
                    let avoided = pat.outside.map(|(z, passing)| (part(z), passing));
                    let (hurdle, bar) = match &pat.hurdle {
                        None => (0, 0),
                        Some(h) => {
                            let kinds = h.except.iter().fold(0u64, |m, k| m | 1 << k.0);
                            let bar = match kinds {
                                // One side's pieces only: tested where kinds are.
                                0 if h.side == crate::model::Holder::Piece => 0,
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
                        if let Some((z, passing)) = &avoided {
                            if z.contains(reach.to) {
                                continue;
                            }
                            if !passing {
                                reach.paths.retain(|p| p.intersection(z).is_empty());
                            }
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
                            jump: jump_bits(pat),
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
                        e.copy(),
                        e.dest as u8,
                        e.target,
                        e.passing,
                        e.hurdle,
                        e.barred,
                        e.jump,
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
                let (jumping, merged): (Vec<_>, Vec<_>) = merged
                    .into_iter()
                    .map(|(e, p, near)| (e, if e.hurdle == 0 { minimal(p) } else { p }, near))
                    .partition(|(e, _, _)| e.jump & JUMP_CAPTURES != 0 || e.to == from);
                let runs = [
                    (shadow::order_by_shadow(merged), &mut entries),
                    // A move back to its start taking nothing is marked `Either` there,
                    // so that one test sets the rare entries apart (see `link`).
                    (
                        jumping
                            .into_iter()
                            .map(|(mut e, p, n)| {
                                if e.jump & JUMP_CAPTURES == 0 {
                                    e.dest = Dest::Either;
                                }
                                (e, p, n)
                            })
                            .collect(),
                        &mut jump_entries,
                    ),
                ];
                for (run, list) in runs {
                    for (mut e, p, near) in run {
                        if e.near_rule != 0 {
                            paths.push(near);
                        }
                        e.first_path = paths.len() as u32;
                        e.path_count = p.len() as u32;
                        paths.extend(p);
                        list.push(e);
                    }
                }
            }
        }
    }
    offsets.push(entries.len() as u32);
    jump_offsets.push(jump_entries.len() as u32);
    let mut tables = SetTables::default();
    tables.paths = paths.iter().map(|p| p.pack(&mut tables.pool)).collect();
    (
        (entries, offsets),
        (jump_entries, jump_offsets),
        S::wrap(tables),
        passing,
    )
}

/// A move's [`MoveEntry::jump`] bits.
fn jump_bits(pat: &crate::model::Pattern) -> u8 {
    use crate::model::Holder;
    let copy = if pat.copy { super::LEAVES_COPY } else { 0 };
    let Some(h) = &pat.hurdle else { return copy };
    let side = match h.side {
        Holder::Enemy => super::JUMP_ENEMY,
        Holder::Friend => super::JUMP_FRIEND,
        Holder::Piece => 0,
    };
    let captures = if h.captures { super::JUMP_CAPTURES } else { 0 };
    let again = if pat.again { super::JUMP_AGAIN } else { 0 };
    let at_once = if h.at_once { super::JUMP_AT_ONCE } else { 0 };
    let no_back = if pat.never_turning_back {
        super::JUMP_NO_BACK
    } else {
        0
    };
    side | captures | again | at_once | no_back | copy
}

/// Marks [`super::JUMP_SHARED`] the captures by jumping whose passed cells meet those
/// of another capture from the same cell.
pub(super) fn mark_shared_jumps<S: Width>(rules: &mut Rules) {
    let sets = rules.sets::<S>();
    let passed: Vec<S> = rules
        .jump_entries
        .iter()
        .map(|e| sets.paths(e).fold(S::EMPTY, |all, p| all.union(&p)))
        .collect();
    let mut shared = vec![false; passed.len()];
    for run in rules.jump_offsets.windows(2) {
        let (a, b) = (run[0] as usize, run[1] as usize);
        for i in a..b {
            shared[i] = (a..b).any(|j| j != i && passed[i].intersects(&passed[j]));
        }
    }
    for (e, s) in rules.jump_entries.iter_mut().zip(shared) {
        if s {
            e.jump |= super::JUMP_SHARED;
        }
    }
    let both = super::JUMP_SHARED | super::JUMP_AGAIN;
    rules.jump_shared = (rules.jump_offsets.windows(2))
        .map(|run| {
            (rules.jump_entries[run[0] as usize..run[1] as usize])
                .iter()
                .any(|e| e.jump & both == both)
        })
        .collect();
}

/// A move over pieces' paths as (must be empty, hurdle cells) pairs, flattened: every
/// passed cell is a hurdle cell, or with `landing right behind` only the passed cell
/// next to the end (a path with no single such cell is dropped).
pub(super) fn hurdle_pairs<S: CellSet>(
    board: &Board,
    h: &Hurdle,
    to: Cell,
    paths: Vec<S>,
) -> Vec<S> {
    let mut out: Vec<(S, S)> = Vec::new();
    for p in paths {
        let pair = if h.right_behind {
            let next: Vec<Cell> = p.iter().filter(|c| board.next_to(*c, to)).collect();
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
pub(super) fn starts_from(
    v: &Variant,
    init: &Initial,
    pl: PlayerId,
    pc: PieceId,
    from: Cell,
) -> bool {
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

/// Builds the reverse tables: who can capture on each cell, from where.
pub(super) fn index_attacks<S: Width>(rules: &mut Rules) {
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
    // Where a run's moves may end on an empty cell. Most land on just the cells they
    // look at: the stored words are shared then, so big boards pay little for it.
    tables.lands_empty = Vec::with_capacity(buckets);
    for (i, seen) in looks.iter().enumerate() {
        let mut empty = S::EMPTY;
        for e in &rules.entries[rules.offsets[i] as usize..rules.offsets[i + 1] as usize] {
            if e.dest.allows_empty() {
                empty.insert(e.to);
            }
        }
        let mask = if empty == *seen {
            tables.looks[i]
        } else {
            empty.pack(&mut tables.pool)
        };
        tables.lands_empty.push(mask);
    }
    rules.sets = S::wrap(tables);
}

/// Numbers each (piece, once-per-game tag) pair that some move of the piece uses.
pub(super) fn once_bits(variant: &Variant) -> Result<Vec<Option<u8>>, CompileError> {
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

/// For each piece: the pieces allowed to capture it, as a bit set (all when none said).
pub(super) fn capturable_by(variant: &Variant, options: &[bool]) -> Vec<u64> {
    variant
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
        .collect()
}
