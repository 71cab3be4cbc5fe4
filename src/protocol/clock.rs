//! How long to think on a clock: a share of the time left, never more than it.

use std::time::Duration;

/// What `go` says about the clock of the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub left: Duration,
    pub increment: Duration,
    /// Moves until the next time control; none: the rest of the game.
    pub moves_to_go: Option<u32>,
    /// USI's byoyomi: time given afresh for every move once `left` is spent.
    pub byoyomi: Duration,
}

/// Moves the rest of a game is taken to last when no control is near.
const MOVES_LEFT: u32 = 30;

/// The time to aim for (no iteration starts after it) and the time never to pass
/// (the iteration under way is cut short there), leaving `overhead` for the answer to
/// reach the other side.
pub fn budget(clock: &Clock, overhead: Duration) -> (Duration, Duration) {
    let floor = Duration::from_millis(1);
    let left = clock.left.saturating_sub(overhead);
    let per_move = clock.byoyomi.saturating_sub(overhead);
    let moves = clock.moves_to_go.unwrap_or(MOVES_LEFT).clamp(1, MOVES_LEFT);
    // With one move to go the whole rest may be used, less a safety share.
    // Half the increment: the other half builds a reserve for a stalled machine.
    // Saturating: a clock may say anything.
    let share = (left / moves).saturating_add(clock.increment / 2);
    let hard = if moves == 1 {
        left / 4 * 3
    } else {
        share.saturating_mul(4).min(left / 3)
    }
    .saturating_add(per_move);
    let soft = share.saturating_add(per_move).min(hard);
    (soft.max(floor), hard.max(floor))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_budget_never_passes_the_clock() {
        for left in [0, 5, 50, 1000, 60_000] {
            for inc in [0, 100, 2000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let c = Clock {
                        left: ms(left),
                        increment: ms(inc),
                        moves_to_go: mtg,
                        byoyomi: Duration::ZERO,
                    };
                    let (soft, hard) = budget(&c, ms(20));
                    assert!(soft <= hard, "{c:?}");
                    assert!(hard <= ms(left.saturating_sub(20)).max(ms(1)), "{c:?}");
                }
            }
        }
    }

    #[test]
    fn a_minute_without_increment_gives_two_seconds_a_move() {
        let c = Clock {
            left: ms(60_020),
            ..Clock::default()
        };
        assert_eq!(budget(&c, ms(20)), (ms(2000), ms(8000)));
    }

    #[test]
    fn the_largest_clocks_saturate() {
        let c = Clock {
            left: Duration::MAX,
            increment: Duration::MAX,
            moves_to_go: Some(u32::MAX),
            byoyomi: Duration::MAX,
        };
        let (soft, hard) = budget(&c, ms(20));
        assert!(
            soft <= hard && hard > Duration::from_secs(1 << 60),
            "{soft:?} {hard:?}"
        );
    }

    #[test]
    fn byoyomi_is_added_to_the_share() {
        let c = Clock {
            left: Duration::ZERO,
            byoyomi: ms(1000),
            ..Clock::default()
        };
        assert_eq!(budget(&c, ms(50)), (ms(950), ms(950)));
    }
}
