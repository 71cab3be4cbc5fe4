//! Perft from the start of every variant in `variants/`, to a depth that takes
//! a moment; nodes per second come from divan's throughput counter.

use divan::counter::ItemsCount;
use std::sync::Arc;
use variantlab::{Position, Rules, Settings, perft};

fn main() {
    divan::main();
}

fn rules(file: &str) -> Arc<Rules> {
    let path = format!("{}/variants/{file}", env!("CARGO_MANIFEST_DIR"));
    Arc::new(Rules::from_file(path.as_ref(), &Settings::new()).expect("variant loads"))
}

/// The first two use two-word cell sets (100 and 127 cells); the side-12 hexagon
/// (397 cells) the wide sets.
#[divan::bench(
    args = [
        ("iss-jetan.var", 4),
        ("hexagonal-iss-jetan.var", 3),
        ("hexagonal-iss-jetan-12.var", 3),
        ("shogi.var", 5),
    ],
    sample_count = 10
)]
fn start_position(bencher: divan::Bencher, (file, depth): (&str, u32)) {
    let rules = rules(file);
    let mut pos = Position::start(&rules).expect("start position");
    let nodes = perft(&rules, &mut pos.clone(), depth);
    bencher
        .counter(ItemsCount::new(nodes))
        .bench_local(|| perft(&rules, &mut pos, depth));
}

/// The chess family's targets: orthodox chess perft 6 (one-word cell sets, 64 cells)
/// and Glinski perft 5 (two words, 91 cells), counted in bulk at the leaves. Few
/// samples: each run takes seconds.
#[divan::bench(
    args = [("chess.var", 6), ("glinski-chess.var", 5)],
    sample_count = 3,
    sample_size = 1
)]
fn chess_family(bencher: divan::Bencher, (file, depth): (&str, u32)) {
    start_position(bencher, (file, depth));
}

/// Kinds of rule that cost more than plain moves: checks forbidden (racing kings), many
/// pawns with double steps and promotions (horde), a win by entering the centre (jeson
/// mor), drops (crazyhouse), explosions (atomic), moves with a shot (amazons) and
/// drops that must enclose enemy pieces (flipello).
#[divan::bench(
    args = [
        ("racingkings.var", 4),
        ("horde.var", 5),
        ("jesonmor.var", 4),
        ("crazyhouse.var", 4),
        ("atomic.var", 4),
        ("amazons.var", 2),
        ("flipello.var", 8),
    ],
    sample_count = 5
)]
fn kinds_of_rule(bencher: divan::Bencher, (file, depth): (&str, u32)) {
    start_position(bencher, (file, depth));
}
