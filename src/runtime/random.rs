//! Random setups: pieces shuffled over cells, drawn again while a condition holds, and
//! while a player not to move stands in check.

use super::position::{Position, PositionError, Setup};
use crate::compile::Rules;
use crate::geometry::{Board, Cell};
use crate::model::{PieceId, PlayerId, Redraw};
use crate::rng::Rng;

/// How many draws a rejection rule may refuse before the setup is given up as
/// impossible.
pub const MAX_DRAWS: u32 = 10_000;

impl Setup {
    /// The start position, with any random setup drawn from `seed`.
    pub fn seeded(rules: &Rules, seed: u64) -> Result<Setup, PositionError> {
        let mut setup = Setup::fixed(rules);
        let Some(random) = &rules.variant.random else {
            return Ok(setup);
        };
        let mut rng = Rng::new(seed);
        let fixed = setup.cells.clone();
        let mirrored = random
            .mirrored
            .is_some_and(|g| crate::model::holds(g, &rules.options));
        for _ in 0..MAX_DRAWS {
            setup.cells.clone_from(&fixed);
            let mut order: Option<Vec<usize>> = None;
            for pool in &random.pools {
                let n = pool.cells.len();
                let perm = match &order {
                    Some(o) if mirrored && o.len() == n => o.clone(),
                    _ => {
                        let mut p: Vec<usize> = (0..n).collect();
                        for i in (1..n).rev() {
                            p.swap(i, rng.below(i + 1));
                        }
                        p
                    }
                };
                for (piece, slot) in pool.pieces.iter().zip(&perm) {
                    setup.cells[pool.cells[*slot].index()] = Some((pool.player, *piece));
                }
                order.get_or_insert(perm);
            }
            if !random.redraw.iter().all(|r| placed_well(rules, &setup, r)) {
                continue;
            }
            // A draw that leaves a player not to move in check is no position at all.
            if matches!(
                Position::from_setup(rules, &setup),
                Err(PositionError::LastMoverInCheck { .. })
            ) {
                continue;
            }
            let mut again = false;
            for r in &random.redraw {
                again = again
                    || match r {
                        Redraw::Undefended(player, kind) => {
                            can_take_undefended(rules, &setup, *player, *kind)?
                        }
                        Redraw::Defended(kinds) => !all_defended(rules, &setup, kinds),
                        _ => false,
                    };
            }
            if !again {
                return Ok(setup);
            }
        }
        Err(PositionError::RedrawLimit { tries: MAX_DRAWS })
    }
}

/// Whether a draw meets a rule on where pieces stand (an undefended capture is
/// tried apart, being dearer).
fn placed_well(rules: &Rules, setup: &Setup, rule: &Redraw) -> bool {
    let board = &rules.variant.board;
    let players = rules.variant.players.len();
    let of = |player: usize, kinds: &[PieceId]| -> Vec<(i32, i32)> {
        (setup.cells.iter().enumerate())
            .filter_map(|(i, c)| match c {
                Some((pl, k)) if pl.0 as usize == player && kinds.contains(k) => {
                    Some(board.point(Cell(i as u16)))
                }
                _ => None,
            })
            .collect()
    };
    match rule {
        Redraw::Undefended(..) | Redraw::Defended(..) => true,
        Redraw::Colours(kinds) => (0..players).all(|p| {
            let colours: Vec<u8> = of(p, kinds)
                .into_iter()
                .map(|pt| Board::colour_of(board.shape, pt))
                .collect();
            (0..colours.len()).all(|i| !colours[..i].contains(&colours[i]))
        }),
        Redraw::Between(inner, outer) => (0..players).all(|p| {
            let ends = of(p, &[*outer]);
            of(p, &[*inner]).into_iter().all(|(x, y)| {
                ends.iter().any(|&(ax, ay)| {
                    ends.iter().any(|&(bx, by)| {
                        let (u, v) = ((ax - x, ay - y), (bx - x, by - y));
                        u.0 * v.1 == u.1 * v.0 && u.0 * v.0 + u.1 * v.1 < 0
                    })
                })
            })
        }),
    }
}

/// Whether every piece of these kinds has a piece of its own player that could
/// capture on its cell, were an enemy piece (of the same kind) standing there.
fn all_defended(rules: &Rules, setup: &Setup, kinds: &[PieceId]) -> bool {
    let players = rules.variant.players.len() as u8;
    let mut moves = Vec::new();
    for (i, c) in setup.cells.iter().enumerate() {
        let Some((owner, kind)) = *c else { continue };
        if !kinds.contains(&kind) {
            continue;
        }
        let mut s = setup.clone();
        s.cells[i] = Some((PlayerId((owner.0 + 1) % players), kind));
        s.to_move = owner;
        let Ok(pos) = Position::from_setup(rules, &s) else {
            return false;
        };
        pos.legal_moves(rules, &mut moves);
        if !moves
            .iter()
            .any(|m| m.to.index() == i && m.captured.is_some())
        {
            return false;
        }
    }
    true
}

/// Whether `player`, moving first, could capture a piece of kind `kind` that no
/// enemy move could then capture back on the same cell.
fn can_take_undefended(
    rules: &Rules,
    setup: &Setup,
    player: PlayerId,
    kind: PieceId,
) -> Result<bool, PositionError> {
    let mut s = setup.clone();
    s.to_move = player;
    let mut pos = Position::from_setup(rules, &s)?;
    let mut moves = Vec::new();
    pos.legal_moves(rules, &mut moves);
    let mut replies = Vec::new();
    for m in moves
        .iter()
        .filter(|m| m.captured.is_some_and(|(_, k)| k == kind))
    {
        let undo = pos.make(rules, m);
        pos.legal_moves(rules, &mut replies);
        let defended = replies.iter().any(|r| r.to == m.to && r.captured.is_some());
        pos.unmake(rules, m, undo);
        if !defended {
            return Ok(true);
        }
    }
    Ok(false)
}
