//! The evaluation's kept shares against the worth found afresh.

use super::Evaluator;
use crate::check::check;
use crate::compile::compile_tables;
use crate::rng::Rng;
use crate::runtime::Game;
use crate::search::reaches::Reaches;
use std::sync::Arc;

/// Along random games of every shipped variant, the worth found with kept shares is
/// the worth found afresh.
#[test]
fn kept_shares_give_the_fresh_worth() {
    let dir = format!("{}/variants", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the variants folder reads")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "var"))
        .collect();
    files.sort();
    assert!(files.len() > 100, "only {} variant files", files.len());
    for (n, path) in files.iter().enumerate() {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).expect("the variant file reads");
        let v = check(&name, &text).variant.expect("the variant checks");
        let rules = Arc::new(compile_tables(&v, &v.default_options()).expect("it compiles"));
        let eval = Evaluator::new(&rules);
        let mut reaches = Reaches::default();
        let mut rng = Rng::new(n as u64 + 1);
        for game in 0..2 {
            let mut g = Game::start(rules.clone(), game).expect("it starts");
            for ply in 0..100 {
                let pos = g.position();
                let fresh = eval.evaluate(&rules, pos);
                let kept = eval.evaluate_reusing(&rules, pos, &mut reaches);
                assert_eq!(kept, fresh, "{name}, game {game}, ply {ply}");
                let moves = g.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                g.play(m).expect("a legal move plays");
            }
        }
    }
}
