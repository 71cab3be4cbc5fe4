//! Plain runs read as lines. A run whose every move stops at the first piece in its
//! way, and needs nothing else, is a few lines of cells and a set of leaps: the move
//! generator reaches them with a few set operations instead of walking the entries.

use super::{MoveEntry, NO_PROMOTION, Rules, SetTables, Width};
use crate::geometry::{Cell, CellSet};
use crate::model::Dest;

/// How a run's moves are found (see `Rules::plain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plain {
    /// By walking its entries.
    No,
    /// As the cells [`super::SetTables::reach`] gives, and its specials walked.
    Lines,
    /// As its landing cells ([`super::SetTables::landings_in`]): its moves are leaps
    /// to any cell alone, whatever stands on the board.
    Leaps,
}

/// How the cells of a [`Slide`] are reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Each cell on its own, whatever stands anywhere else.
    Leaps,
    /// Along a line of rising cell numbers, up to the first cell holding a piece.
    Rising,
    /// Along a line of falling cell numbers, up to the first cell holding a piece.
    Falling,
}

/// Cells of a plain run reached one way, where moves of one kind of destination end.
#[derive(Clone, Copy, Debug)]
pub struct Slide<M> {
    pub(super) cells: M,
    pub(super) order: Order,
    pub(super) dest: Dest,
}

/// Leaps of one kind of piece that move every piece standing on `from` by the same
/// number of cells, `by`, to a destination of one kind: a whole set of such pieces is
/// moved at once (see [`super::SetTables::shifts`]).
#[derive(Clone, Copy, Debug)]
pub struct Shift<M> {
    pub from: M,
    pub by: i32,
    pub dest: Dest,
}

/// The most shifts a kind may have to be moved as a set; beyond, one piece at a time
/// costs less.
const MOST_SHIFTS: usize = 12;

/// Where each kind of destination's cells go in the sets [`super::SetTables::reach`]
/// returns.
#[inline]
pub fn dest_slot(dest: Dest) -> usize {
    match dest {
        Dest::Either => 0,
        Dest::Empty => 1,
        Dest::Enemy => 2,
    }
}

/// Whether an entry needs nothing but its path and destination: no tag, target,
/// promotion, capture in passing, hurdle, bar, jump or condition on nearby cells.
fn plain_entry(e: &MoveEntry) -> bool {
    e.target.is_none()
        && e.tag.is_none()
        && e.passing == 0
        && e.promote == NO_PROMOTION
        && e.hurdle == 0
        && e.barred == 0
        && e.jump == 0
        && e.near_rule == 0
}

/// A run's entries, each given as its destination, its kind of destination and its
/// alternative paths, as slides: `None` unless each entry is plain and needs empty
/// exactly the cells of the entries before it on one line whose cell numbers rise or
/// fall (or nothing: a leap).
pub(super) fn slides_of<S: CellSet>(run: &[(Cell, Dest, Vec<S>)]) -> Option<Vec<Slide<S>>> {
    let mut nodes: Vec<(Cell, Dest, S)> = Vec::with_capacity(run.len());
    for (to, dest, paths) in run {
        let path = match paths.as_slice() {
            [] => S::EMPTY,
            ps if ps.iter().any(|p| p.is_empty()) => S::EMPTY,
            [p] => *p,
            _ => return None,
        };
        nodes.push((*to, *dest, path));
    }
    // Each entry with a path follows the one entry on its path whose own path is the
    // rest of it; no entry is followed twice.
    let mut next: Vec<Option<usize>> = vec![None; nodes.len()];
    let mut by_cell: Vec<(Cell, usize)> = nodes.iter().enumerate().map(|(i, n)| (n.0, i)).collect();
    by_cell.sort();
    for (i, (_, dest, path)) in nodes.iter().enumerate() {
        if path.is_empty() {
            continue;
        }
        let before = path.iter().flat_map(|c| {
            let first = by_cell.partition_point(|(d, _)| *d < c);
            by_cell[first..].iter().take_while(move |(d, _)| *d == c)
        });
        let mut before = before.filter(|(c, j)| {
            let mut rest = *path;
            rest.remove(*c);
            nodes[*j].1 == *dest && nodes[*j].2 == rest
        });
        let (Some((_, j)), None) = (before.next(), before.next()) else {
            return None;
        };
        if next[*j].replace(i).is_some() {
            return None;
        }
    }
    let mut slides = Vec::new();
    let mut leaps = [S::EMPTY; 3];
    for (i, (to, dest, path)) in nodes.iter().enumerate() {
        if !path.is_empty() {
            continue;
        }
        let mut line = vec![*to];
        let mut at = i;
        while let Some(n) = next[at] {
            line.push(nodes[n].0);
            at = n;
        }
        let order = if line.len() == 1 {
            leaps[dest_slot(*dest)].insert(*to);
            continue;
        } else if line.windows(2).all(|w| w[0] < w[1]) {
            Order::Rising
        } else if line.windows(2).all(|w| w[0] > w[1]) {
            Order::Falling
        } else {
            return None;
        };
        slides.push(Slide {
            cells: S::from_cells(line),
            order,
            dest: *dest,
        });
    }
    for (cells, dest) in leaps
        .into_iter()
        .zip([Dest::Either, Dest::Empty, Dest::Enemy])
    {
        if !cells.is_empty() {
            slides.push(Slide {
                cells,
                order: Order::Leaps,
                dest,
            });
        }
    }
    Some(slides)
}

/// The most entries a plain run leaves to be walked one by one.
const MOST_SPECIALS: usize = 2;

/// Marks the runs that are plain (see `Rules::plain`) and stores their slides; after
/// promotions are marked, as a move that may promote is not plain. A run whose plain
/// entries are lines and leaps of their own keeps its other entries (a double step that
/// may be taken in passing, a promotion) to be walked one by one: `Rules::specials`.
/// On boards of more than 128 cells, where lines would cost many words, only runs of
/// leaps that end on any cell are plain, and they are reached through their landing
/// cells.
pub(super) fn mark_plain_runs<S: Width>(rules: &mut Rules) {
    let runs = rules.offsets.len() - 1;
    let mut tables = S::take(&mut rules.sets);
    let lines = S::CAPACITY <= 128;
    let mut plain = vec![0u64; runs.div_ceil(32)];
    let mut offsets = Vec::with_capacity(if lines { runs + 1 } else { 0 });
    let mut slides = Vec::new();
    let mut special_offsets = Vec::with_capacity(if lines { runs + 1 } else { 0 });
    let mut specials = Vec::new();
    for i in 0..runs {
        let entries = &rules.entries[rules.offsets[i] as usize..rules.offsets[i + 1] as usize];
        // Without lines, only leaps to any cell are plain.
        let leaps_only = || {
            entries.iter().all(|e| {
                plain_entry(e)
                    && e.dest == Dest::Either
                    && (e.path_count == 0 || tables.paths(e).any(|p| p.is_empty()))
            })
        };
        if !lines {
            if !entries.is_empty() && leaps_only() {
                plain[i / 32] |= 3 << (2 * (i % 32));
            }
            continue;
        }
        let (easy, hard): (Vec<usize>, Vec<usize>) =
            (0..entries.len()).partition(|k| plain_entry(&entries[*k]));
        // An entry walked one by one must not make a move the slides make too.
        let apart = hard.iter().all(|h| {
            entries[*h].tag.is_some() || easy.iter().all(|k| entries[*k].to != entries[*h].to)
        });
        // Walked alone, an entry is tested on its own, not skipped with the ones it
        // shades: only a few are worth splitting off.
        let found: Option<Vec<Slide<S>>> =
            (!easy.is_empty() && apart && hard.len() <= MOST_SPECIALS)
                .then(|| {
                    let run: Vec<(Cell, Dest, Vec<S>)> = easy
                        .iter()
                        .map(|k| &entries[*k])
                        .map(|e| (e.to, e.dest, tables.paths(e).collect()))
                        .collect();
                    slides_of(&run)
                })
                .flatten();
        let leaps = hard.is_empty()
            && found.as_ref().is_some_and(|found| {
                found
                    .iter()
                    .all(|s| s.order == Order::Leaps && s.dest == Dest::Either)
            });
        offsets.push(slides.len() as u32);
        special_offsets.push(specials.len() as u32);
        if let Some(found) = found {
            let kind = if leaps { 3 } else { 1 };
            plain[i / 32] |= kind << (2 * (i % 32));
            slides.extend(found.into_iter().map(|s| Slide {
                cells: s.cells.pack(&mut tables.pool),
                order: s.order,
                dest: s.dest,
            }));
            specials.extend(hard.iter().map(|h| MoveEntry {
                shadow: 0,
                ..entries[*h]
            }));
        }
    }
    if lines {
        offsets.push(slides.len() as u32);
        special_offsets.push(specials.len() as u32);
    }
    tables.slide_offsets = offsets;
    tables.slides = slides;
    rules.plain_runs = plain;
    rules.special_offsets = special_offsets;
    rules.specials = specials;
    if lines {
        index_shifts(rules, &mut tables);
    }
    rules.sets = S::wrap(tables);
}

/// For each player's kind whose plain runs are leaps alone: the [`Shift`]s of those
/// runs, and the cells they start from (see [`super::SetTables::shifts`]). A kind that
/// captures by jumping, or has too many shifts, has none.
fn index_shifts<S: Width>(rules: &Rules, tables: &mut SetTables<S>) {
    let cells = rules.variant.board.len();
    let pieces = rules.variant.pieces.len();
    let players = rules.variant.players.len();
    let mut offsets = Vec::with_capacity(players * pieces + 1);
    let mut shifts: Vec<Shift<S::Mask>> = Vec::new();
    let mut starts = Vec::with_capacity(players * pieces);
    let mut kinds = vec![0u64; players];
    for (pl, kinds) in kinds.iter_mut().enumerate() {
        for pi in 0..pieces {
            offsets.push(shifts.len() as u32);
            let mut found: Vec<Shift<S>> = Vec::new();
            let mut from_cells = S::EMPTY;
            let mut walked = S::EMPTY;
            let mut fits = rules.jump_kinds & (1 << pi) == 0;
            for c in 0..cells {
                let run = (pl * pieces + pi) * cells + c;
                if !fits || rules.plain(run) == Plain::No {
                    continue;
                }
                let span =
                    tables.slide_offsets[run] as usize..tables.slide_offsets[run + 1] as usize;
                if tables.slides[span.clone()]
                    .iter()
                    .any(|s| s.order != Order::Leaps)
                {
                    continue;
                }
                let from = Cell(c as u16);
                from_cells.insert(from);
                if !rules.specials(run).is_empty() {
                    walked.insert(from);
                }
                for slide in &tables.slides[span] {
                    for to in S::unpack(&slide.cells, &tables.pool).iter() {
                        let by = to.0 as i32 - from.0 as i32;
                        match found
                            .iter_mut()
                            .find(|s| s.by == by && s.dest == slide.dest)
                        {
                            Some(s) => s.from.insert(from),
                            None => found.push(Shift {
                                from: S::single(from),
                                by,
                                dest: slide.dest,
                            }),
                        }
                    }
                }
                fits = found.len() <= MOST_SHIFTS;
            }
            if !fits || found.is_empty() {
                from_cells = S::EMPTY;
                walked = S::EMPTY;
                found.clear();
            } else {
                *kinds |= 1 << pi;
            }
            starts.push((from_cells, walked));
            shifts.extend(found.into_iter().map(|s| Shift {
                from: s.from.pack(&mut tables.pool),
                by: s.by,
                dest: s.dest,
            }));
        }
    }
    offsets.push(shifts.len() as u32);
    tables.shift_offsets = offsets;
    tables.shifts = shifts;
    tables.shift_starts = starts;
    tables.shift_kinds = kinds;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(list: &[u16]) -> u64 {
        u64::from_cells(list.iter().map(|c| Cell(*c)))
    }

    /// A rook's run from cell 9 of an 8-wide board, up one file and along one rank,
    /// each entry needing the cells before it empty.
    #[test]
    fn a_rider_is_read_as_its_lines() {
        let mut run = vec![];
        for line in [[17u16, 25, 33], [10, 11, 12]] {
            for (k, to) in line.iter().enumerate() {
                run.push((Cell(*to), Dest::Either, vec![cells(&line[..k])]));
            }
        }
        run.push((Cell(8), Dest::Either, vec![]));
        let slides = slides_of(&run).unwrap();
        let found: Vec<(u64, Order)> = slides.iter().map(|s| (s.cells, s.order)).collect();
        assert_eq!(
            found,
            [
                (cells(&[17, 25, 33]), Order::Rising),
                (cells(&[10, 11, 12]), Order::Rising),
                (cells(&[8]), Order::Leaps)
            ]
        );
        let mut down = vec![];
        for (k, to) in [20u16, 12, 4].iter().enumerate() {
            down.push((Cell(*to), Dest::Enemy, vec![cells(&[20, 12, 4][..k])]));
        }
        let slides = slides_of(&down).unwrap();
        assert_eq!(slides[0].order, Order::Falling);
        assert_eq!(slides[0].dest, Dest::Enemy);
    }

    /// Runs that are no lines: a lame leap (its path no entry), a step that turns,
    /// a line of two kinds of destination.
    #[test]
    fn what_is_no_line_is_refused() {
        let lame = [(Cell(18), Dest::Either, vec![cells(&[9])])];
        assert!(slides_of(&lame).is_none());
        let turning = [
            (Cell(9), Dest::Either, vec![]),
            (Cell(10), Dest::Either, vec![cells(&[9])]),
            (Cell(2), Dest::Either, vec![cells(&[9, 10])]),
        ];
        assert!(slides_of(&turning).is_none());
        let mixed = [
            (Cell(9), Dest::Empty, vec![]),
            (Cell(10), Dest::Either, vec![cells(&[9])]),
        ];
        assert!(slides_of(&mixed).is_none());
    }
}
