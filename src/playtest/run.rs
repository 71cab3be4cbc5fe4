//! Playing a study's games, on every core.

use super::shard::Shard;
use super::tally::Tallies;
use crate::compile::Rules;
use crate::model::PlayerId;
use crate::rng::Rng;
use crate::runtime::{Game, Setup};
use crate::search::{Limits, Searcher};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// What to play: games `0..games` of a seeded list (those of `shard`), each opening
/// with `opening_plies` random moves, then the engine at depth `level` for both sides.
#[derive(Clone, Debug)]
pub struct Study {
    pub games: u64,
    pub seed: u64,
    pub level: u32,
    pub opening_plies: u32,
    /// Games still going after this many plies are stopped and counted unfinished.
    pub max_plies: u32,
    pub shard: Shard,
    /// Threads to play on; the result does not depend on it.
    pub threads: usize,
}

impl Study {
    /// The default level: depth 2 plus captures, a few milliseconds a move.
    pub const LEVEL: u32 = 2;
    pub const OPENING_PLIES: u32 = 4;
    pub const MAX_PLIES: u32 = 1000;

    pub fn new(games: u64, seed: u64) -> Study {
        Study {
            games,
            seed,
            level: Study::LEVEL,
            opening_plies: Study::OPENING_PLIES,
            max_plies: Study::MAX_PLIES,
            shard: Shard::WHOLE,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub winner: Option<PlayerId>,
    /// The end rule that fired; None when the game reached the ply limit.
    pub rule: Option<usize>,
    pub plies: u32,
}

/// A small seeded random sequence for one game: the same game number and seed give the
/// same game everywhere.
struct Dice(Rng);

impl Dice {
    fn new(seed: u64, game: u64) -> Dice {
        let mut rng = Rng::new(seed ^ game.wrapping_mul(0xd1b5_4a32_d192_ed03));
        rng.next_u64();
        Dice(rng)
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
}

/// The start of game number `index` of a study: the variant's own, or for a random
/// setup the game's own draw.
pub fn game_start(rules: &Rules, study: &Study, index: u64) -> Setup {
    draw_start(rules, &mut Dice::new(study.seed, index))
}

/// Fixed setups leave the dice untouched, so their games do not depend on this.
fn draw_start(rules: &Rules, dice: &mut Dice) -> Setup {
    match &rules.variant.random {
        Some(_) => Setup::seeded(rules, dice.0.next_u64()).unwrap_or_else(|_| Setup::start(rules)),
        None => Setup::start(rules),
    }
}

/// Plays game number `index` of a study from the variant's start (its own draw of a
/// random setup). The searcher is
/// cleared first, so the game depends on nothing but the study and its number.
pub fn play_game(rules: &Rules, searcher: &mut Searcher, study: &Study, index: u64) -> GameRecord {
    searcher.clear();
    let mut dice = Dice::new(study.seed, index);
    let mut game = Game::new(rules, draw_start(rules, &mut dice))
        .or_else(|_| Game::new(rules, Setup::start(rules)))
        .expect("the start was checked");
    let limits = Limits::depth(study.level);
    let mut moves = vec![];
    let mut plies = 0;
    while game.ending().is_none() && plies < study.max_plies {
        let pos = game.position();
        let m = if plies < study.opening_plies {
            pos.legal_moves(rules, &mut moves);
            if moves.is_empty() {
                break;
            }
            moves[dice.below(moves.len())]
        } else {
            let keys = game.keys();
            let earlier = &keys[..keys.len() - 1];
            match searcher
                .think_checked(pos, earlier, game.checks(), &limits)
                .best
            {
                Some(m) => m,
                None => break,
            }
        };
        game.play(rules, m);
        plies += 1;
    }
    GameRecord {
        winner: game.ending().and_then(|e| e.winner),
        rule: game.ending().map(|e| e.rule),
        plies,
    }
}

/// Plays the study's games of its shard on `study.threads` threads and tallies them.
/// `progress` hears (games done, games in the shard) a few times a second.
pub fn run_study(
    rules: &Rules,
    study: &Study,
    progress: &dyn Fn(usize, usize),
) -> Result<Tallies, String> {
    Game::new(rules, Setup::start(rules)).map_err(|e| format!("cannot start a game: {e}"))?;
    let list: Vec<u64> = (0..study.games).filter(|g| study.shard.holds(*g)).collect();
    let records: Mutex<Vec<Option<GameRecord>>> = Mutex::new(vec![None; list.len()]);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..study.threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut searcher = Searcher::new(rules, 16);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&g) = list.get(i) else { break };
                        let r = play_game(rules, &mut searcher, study, g);
                        records.lock().expect("no worker panics holding it")[i] = Some(r);
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        while !workers.iter().all(|w| w.is_finished()) {
            progress(done.load(Ordering::Relaxed), list.len());
            std::thread::sleep(Duration::from_millis(100));
        }
        progress(done.load(Ordering::Relaxed), list.len());
    });
    let records = records
        .into_inner()
        .map_err(|_| "a game crashed".to_string())?;
    let mut t = Tallies::new(rules, study);
    for r in records {
        t.add(&r.ok_or("a game crashed")?);
    }
    Ok(t)
}
