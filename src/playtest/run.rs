//! Playing a study's games, on every core.

use super::study::{GameRecord, Study};
use super::tally::Tallies;
use crate::compile::Rules;
use crate::model::PlayerId;
use crate::rng::Rng;
use crate::runtime::{Game, Setup};
use crate::search::{Limits, Searcher};
use crate::session::Session;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

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
/// random setup), the computer on both sides with `searcher`, which is cleared first so
/// that the game depends on nothing but the study and its number. `seen` is shown the
/// finished game.
pub fn play_game(
    rules: &Arc<Rules>,
    searcher: Searcher,
    study: &Study,
    index: u64,
    seen: &dyn Fn(&Game),
) -> (GameRecord, Searcher) {
    let mut searcher = searcher;
    searcher.clear();
    let mut dice = Dice::new(study.seed, index);
    let game = Game::new(rules.clone(), draw_start(rules, &mut dice))
        .or_else(|_| Game::new(rules.clone(), Setup::start(rules)))
        .expect("the start was checked");
    let everyone: Vec<PlayerId> = (0..rules.variant.players.len() as u8)
        .map(PlayerId)
        .collect();
    let mut session =
        Session::new(game).with_searcher(&everyone, Limits::depth(study.level), searcher);
    let (mut plies, mut searched, mut nodes) = (0, 0, 0);
    while session.game().ending().is_none() && plies < study.max_plies {
        if plies < study.opening_plies {
            let moves = session.game().legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[dice.below(moves.len())];
            session.play(m).expect("a legal move");
        } else if let Some(c) = session.computer_move() {
            searched += 1;
            nodes += c.thought.nodes;
        } else {
            break;
        }
        plies += 1;
    }
    seen(session.game());
    let ending = session.game().ending();
    let record = GameRecord {
        score: ending.map(|e| e.score),
        rule: ending.map(|e| e.rule),
        plies,
        searched,
        nodes,
    };
    let searcher = session.into_searcher().expect("the computer plays");
    (record, searcher)
}

/// Plays the study's games of its shard on `study.threads` threads (at most
/// [`Study::MAX_THREADS`], and no more than there are games) and tallies them.
/// `progress` hears (games done, games in the shard) a few times a second. The games
/// are handed out one number at a time, never listed, and each thread tallies its
/// own; the counts add up to the same tallies on any number of threads.
pub fn run_study(
    rules: &Arc<Rules>,
    study: &Study,
    progress: &dyn Fn(usize, usize),
) -> Result<Tallies, String> {
    run_study_recording(rules, study, progress, &|_, _| {})
}

/// [`run_study`], showing `record` each finished game with its number.
pub fn run_study_recording(
    rules: &Arc<Rules>,
    study: &Study,
    progress: &dyn Fn(usize, usize),
    record: &(dyn Fn(u64, &Game) + Sync),
) -> Result<Tallies, String> {
    if study.games > Study::MAX_GAMES {
        return Err(format!(
            "a study plays at most {} games, not {}",
            Study::MAX_GAMES,
            study.games
        ));
    }
    if study.shard.count == 0 || study.shard.index >= study.shard.count {
        return Err(format!(
            "shard index {} is not below the shard count {}",
            study.shard.index, study.shard.count
        ));
    }
    Game::new(rules.clone(), Setup::start(rules))
        .map_err(|e| format!("cannot start a game: {e}"))?;
    let total = study.shard.games_in(study.games);
    let next = AtomicU64::new(0);
    let done = AtomicUsize::new(0);
    let threads = (study.threads.clamp(1, Study::MAX_THREADS) as u64).min(total.max(1));
    let parts: Vec<Result<Tallies, String>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut tallies = Tallies::new(rules, study);
                    let mut searcher = Searcher::new(rules.clone(), 16);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= total {
                            break;
                        }
                        let n = study.shard.game(i);
                        let (r, back) = play_game(rules, searcher, study, n, &|g| record(n, g));
                        searcher = back;
                        tallies.add(&r);
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    tallies
                })
            })
            .collect();
        while !workers.iter().all(|w| w.is_finished()) {
            progress(done.load(Ordering::Relaxed), total as usize);
            std::thread::sleep(Duration::from_millis(100));
        }
        progress(done.load(Ordering::Relaxed), total as usize);
        workers
            .into_iter()
            .map(|w| w.join().map_err(|_| "a game crashed".to_string()))
            .collect()
    });
    let mut t = Tallies::new(rules, study);
    for part in parts {
        t.absorb(&part?).map_err(|e| e.to_string())?;
    }
    Ok(t)
}
