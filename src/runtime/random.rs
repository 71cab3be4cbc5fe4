//! Random setups: pieces shuffled over cells, drawn again while a condition holds, and
//! while a player not to move stands in check.

use super::position::{Position, PositionError, Setup};
use crate::compile::Rules;
use crate::model::{PieceId, PlayerId};
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
            // A draw that leaves a player not to move in check is no position at all.
            if matches!(
                Position::from_setup(rules, &setup),
                Err(PositionError::LastMoverInCheck { .. })
            ) {
                continue;
            }
            match random.redraw {
                Some((player, kind)) if can_take_undefended(rules, &setup, player, kind)? => {}
                _ => return Ok(setup),
            }
        }
        Err(PositionError::RedrawLimit { tries: MAX_DRAWS })
    }
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
