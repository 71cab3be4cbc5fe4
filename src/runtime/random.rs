//! Random setups: pieces shuffled over cells, drawn again while a condition holds, and
//! while a player not to move stands in check.

use super::position::{Position, PositionError, Setup};
use crate::compile::Rules;
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
            let pos = match Position::from_setup(rules, &setup) {
                Err(PositionError::LastMoverInCheck { .. }) => continue,
                Err(e) => return Err(e),
                Ok(pos) => pos,
            };
            if !random
                .redraw
                .iter()
                .any(|r| pos.holds_now(rules, &r.condition) != r.unless)
            {
                return Ok(setup);
            }
        }
        Err(PositionError::RedrawLimit { tries: MAX_DRAWS })
    }
}
