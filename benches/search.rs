//! Search speed in nodes per second from each variant's start, and the time a batch of
//! self-play games takes at the default playtesting level.

use divan::counter::ItemsCount;
use std::sync::Arc;
use variantlab::study::{Study, run_study};
use variantlab::{Limits, Position, Rules, Searcher, Settings};

fn main() {
    divan::main();
}

fn rules(file: &str) -> Arc<Rules> {
    let path = format!("{}/variants/{file}", env!("CARGO_MANIFEST_DIR"));
    Arc::new(Rules::from_file(path.as_ref(), &Settings::new()).expect("variant loads"))
}

#[divan::bench(
    args = [("iss-jetan.var", 5), ("hexagonal-iss-jetan.var", 4), ("hexagonal-iss-jetan-12.var", 3)],
    sample_count = 5
)]
fn think_from_start(bencher: divan::Bencher, (file, depth): (&str, u32)) {
    let rules = rules(file);
    let pos = Position::start(&rules).expect("start position");
    let mut searcher = Searcher::new(rules.clone(), 18);
    let nodes = searcher.think(&pos, &[], &Limits::depth(depth)).nodes;
    bencher.counter(ItemsCount::new(nodes)).bench_local(|| {
        searcher.clear();
        searcher.think(&pos, &[], &Limits::depth(depth))
    });
}

/// Ten games on one thread at the default level; a thousand take a hundred times as
/// long, divided by the cores.
#[divan::bench(args = ["iss-jetan.var", "hexagonal-iss-jetan.var"], sample_count = 3)]
fn ten_selfplay_games(bencher: divan::Bencher, file: &str) {
    let rules = rules(file);
    let mut study = Study::new(10, 1);
    study.threads = 1;
    bencher
        .counter(ItemsCount::new(10usize))
        .bench_local(|| run_study(&rules, &study, &|_, _| {}).expect("plays"));
}
