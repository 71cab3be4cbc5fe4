//! Zones and random setups.

use super::declare::Decls;
use super::setup::resolve_cell;
use crate::diagnostic::Diagnostic;
use crate::geometry::{Board, Cell};
use crate::model::*;
use crate::syntax::{Name, SetupDecl, Statement};

pub(super) fn cells(board: &Board, names: &[Name], out: &mut Vec<Diagnostic>) -> Vec<Cell> {
    names
        .iter()
        .filter_map(|c| resolve_cell(board, c, out))
        .collect()
}

/// Zones by name; `last cell of each file` is worked out per player's forward.
pub(super) fn check_zones(
    statements: &[Statement],
    board: &Board,
    decls: &Decls,
    out: &mut Vec<Diagnostic>,
) -> Vec<Zone> {
    let mut zones: Vec<Zone> = Vec::new();
    for s in statements {
        let Statement::Zone(z) = s else { continue };
        if zones
            .iter()
            .any(|q| q.name.eq_ignore_ascii_case(&z.name.node))
        {
            out.push(
                Diagnostic::error(
                    "variantlab::duplicate_zone",
                    z.name.span,
                    format!("the zone `{}` is declared twice", z.name.node),
                )
                .label("second declaration")
                .help("rename or remove one of the two zones"),
            );
            continue;
        }
        let mut per_player = vec![Vec::new(); decls.players.len()];
        match &z.cells {
            None if z.shared.is_some() => {
                let shared = cells(board, z.shared.as_deref().unwrap_or_default(), out);
                per_player.fill(shared);
            }
            None => {
                for (i, p) in decls.players.iter().enumerate() {
                    let Some(f) = p.forward else {
                        out.push(
                            Diagnostic::error(
                                "variantlab::no_forward",
                                z.name.span,
                                format!("{} has no forward direction, so no last cells", p.name),
                            )
                            .label("needs each player's forward")
                            .help(format!("add `forward <direction>` to {}", p.name)),
                        );
                        continue;
                    };
                    per_player[i] = match &z.far {
                        Some(n) if z.near => far_ranks(board, board.opposite(f), n.node),
                        Some(n) => far_ranks(board, f, n.node),
                        None => far_edge(board, f),
                    };
                }
            }
            Some(list) => {
                for (player, names) in list {
                    if let Ok(p) = decls.player(player).map_err(|d| out.push(d)) {
                        per_player[p.0 as usize].extend(cells(board, names, out));
                    }
                }
            }
        }
        zones.push(Zone {
            name: z.name.node.clone(),
            cells: per_player,
        });
    }
    zones
}

/// The cells from which a step straight forward leaves the board. Where straight
/// forward is no orthogonal direction (north on pointy-topped hexagons, whose step
/// would jump a rank), the cells from which every orthogonal step within 90 degrees
/// of forward leaves it: the far edge either way.
fn far_edge(board: &Board, forward: crate::geometry::Dir) -> Vec<Cell> {
    use crate::geometry::{Kind, angle_between};
    let bearing = board.direction(forward).bearing;
    let steps: Vec<crate::geometry::Dir> = if board.direction(forward).kind == Kind::Orthogonal {
        vec![forward]
    } else {
        board
            .directions_of(Kind::Orthogonal)
            .iter()
            .filter(|d| angle_between(board.direction(*d).bearing, bearing) < 90)
            .collect()
    };
    board
        .cells()
        .filter(|c| {
            steps
                .iter()
                .all(|d| board.at(board.shift(board.point(*c), *d)).is_none())
        })
        .collect()
}

/// The cells of the last `n` ranks seen along `forward`: a rank is the cells equally
/// far along it.
fn far_ranks(board: &Board, forward: crate::geometry::Dir, n: u32) -> Vec<Cell> {
    let d = board.direction(forward);
    let along = |c: &Cell| {
        let (x, y) = board.point(*c);
        x * d.dx + y * d.dy
    };
    let mut ranks: Vec<i32> = board.cells().map(|c| along(&c)).collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    ranks.dedup();
    let Some(&last) = ranks.get((n as usize).clamp(1, ranks.len().max(1)) - 1) else {
        return vec![];
    };
    board
        .cells()
        .filter(|c| n > 0 && along(c) >= last)
        .collect()
}

/// The random setup, if any: pools must fit their cells, which must be free.
pub(super) fn check_random(
    statements: &[Statement],
    board: &Board,
    decls: &Decls,
    fixed: &[Placed],
    out: &mut Vec<Diagnostic>,
) -> Option<RandomSetup> {
    let mut result: Option<RandomSetup> = None;
    for s in statements {
        let Statement::Setup(SetupDecl::Random(r)) = s else {
            continue;
        };
        let mirrored = r
            .mirrored
            .as_ref()
            .map(|g| decls.guard(g).map_err(|d| out.push(d)).ok().flatten());
        let mut setup = RandomSetup {
            pools: vec![],
            mirrored,
            redraw: vec![],
        };
        // Cells taken by earlier lines; mirrored lines copy the first line's draw onto
        // their own cells, so the lines must never share one.
        let mut seen = Vec::new();
        for pool in &r.pools {
            let player = decls.player(&pool.player).map_err(|d| out.push(d)).ok();
            let mut pieces = Vec::new();
            for (n, name) in &pool.pieces {
                if let Ok(p) = decls.piece(name).map_err(|d| out.push(d)) {
                    pieces.extend((0..(*n).min(4096)).map(|_| p));
                }
            }
            let cells = cells(board, &pool.cells, out);
            for (c, name) in cells.iter().zip(&pool.cells) {
                if seen.contains(c) || fixed.iter().any(|p| p.cell == *c) {
                    out.push(
                        Diagnostic::error(
                            "variantlab::occupied_cell",
                            name.span,
                            format!("{} is already taken", board.name(*c)),
                        )
                        .label("listed twice, in another line, or holding a fixed piece")
                        .help("a random setup draws over cells no other piece uses"),
                    );
                }
                seen.push(*c);
            }
            let count: u64 = pool.pieces.iter().map(|(n, _)| u64::from(*n)).sum();
            if count > pool.cells.len() as u64 {
                out.push(
                    Diagnostic::error(
                        "variantlab::pool_too_small",
                        pool.span,
                        format!("{count} pieces to place on {} cells", pool.cells.len()),
                    )
                    .label("more pieces than cells")
                    .help("list more cells, or fewer pieces"),
                );
            }
            if let Some(player) = player {
                setup.pools.push(RandomPool {
                    player,
                    pieces,
                    cells,
                });
            }
        }
        if r.mirrored.is_some()
            && let Some(first) = setup.pools.first()
            && let Some(bad) = setup.pools.iter().zip(&r.pools).find(|(p, _)| {
                p.cells.len() != first.cells.len() || p.pieces.len() != first.pieces.len()
            })
        {
            out.push(
                Diagnostic::error(
                    "variantlab::mirror_mismatch",
                    bad.1.span,
                    "a mirrored draw needs the same number of pieces and cells as the first line",
                )
                .label("differs from the first line")
                .help("list as many pieces and cells as the first line does"),
            );
        }
        result = Some(setup);
    }
    result
}
