//! Selfplay studies: the same seed gives the same tallies however they are run, and
//! shards run as separate processes merge into exactly the report of one run.

use crate::common;

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use variantlab::playtest::{
    MergeError, Shard, Study, Tallies, merge, run_study, shard_from_env, text_report,
};

fn small_study() -> Study {
    let mut s = Study::new(6, 42);
    s.level = 1;
    s.max_plies = 120;
    s
}

#[test]
fn the_same_seed_gives_the_same_tallies_on_any_number_of_threads() {
    let r = common::rules("iss-jetan.var");
    let mut study = small_study();
    study.threads = 1;
    let one = run_study(&r, &study, &|_, _| {}).unwrap();
    study.threads = 3;
    let three = run_study(&r, &study, &|_, _| {}).unwrap();
    assert_eq!(one, three);
    assert_eq!(one.games, 6);
    study.seed = 43;
    let other = run_study(&r, &study, &|_, _| {}).unwrap();
    assert_ne!(one.lengths, other.lengths, "another seed plays other games");
}

fn selfplay(extra: &[&str], env: &[(&str, &str)]) -> std::process::Child {
    let mut c = Command::new(env!("CARGO_BIN_EXE_variantlab"));
    c.current_dir(common::root())
        .args([
            "selfplay",
            "variants/iss-jetan.var",
            "--games",
            "6",
            "--seed",
            "42",
        ])
        .args([
            "--level",
            "1",
            "--max-plies",
            "120",
            "--threads",
            "1",
            "--json",
        ])
        .args(extra)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .stdout(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    c.spawn().expect("runs")
}

fn output(c: std::process::Child) -> String {
    let out = c.wait_with_output().expect("finishes");
    assert!(out.status.success());
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn shards_run_in_parallel_processes_merge_into_the_single_run() {
    let whole = selfplay(&[], &[]);
    let shards: Vec<_> = ["1/3", "2/3", "3/3"]
        .iter()
        .map(|s| selfplay(&["--shard", s], &[]))
        .collect();
    let whole = output(whole);
    let dir = std::env::temp_dir().join(format!("variantlab-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = vec![];
    for (i, s) in shards.into_iter().enumerate() {
        let f = dir.join(format!("{i}.json"));
        std::fs::write(&f, output(s)).unwrap();
        files.push(f);
    }
    // Merged in any order: the same JSON and the same report as the single run.
    files.reverse();
    let merged = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .arg("merge")
        .args(&files)
        .arg("--json")
        .output()
        .unwrap();
    assert!(merged.status.success());
    assert_eq!(String::from_utf8(merged.stdout).unwrap(), whole);
    let report = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .arg("merge")
        .args(&files)
        .output()
        .unwrap();
    let t: Tallies = serde_json::from_str(&whole).unwrap();
    assert_eq!(String::from_utf8(report.stdout).unwrap(), text_report(&t));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn batch_schedulers_pick_the_shard() {
    let by_flag = output(selfplay(&["--shard", "2/3"], &[]));
    let slurm = selfplay(
        &[],
        &[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ],
    );
    let k8s = selfplay(&["--shard-count", "3"], &[("JOB_COMPLETION_INDEX", "1")]);
    assert_eq!(output(slurm), by_flag);
    assert_eq!(output(k8s), by_flag);
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    // Arrays numbered from 1 work too.
    assert_eq!(
        shard_from_env(
            env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "1")]),
            Some(4)
        ),
        Ok(Some(Shard { index: 2, count: 4 }))
    );
    assert_eq!(shard_from_env(env(&[]), Some(4)), Ok(None));
    assert!(shard_from_env(env(&[("JOB_COMPLETION_INDEX", "1")]), None).is_err());
    assert!(shard_from_env(env(&[("JOB_COMPLETION_INDEX", "4")]), Some(4)).is_err());
    assert!(Shard::parse("0/3").is_err() && Shard::parse("4/3").is_err());
}

fn tallies(wins: Vec<u64>, draws: u64, lengths: &[(u32, u64)]) -> Tallies {
    // Two players: a win is the whole point, a draw half of it.
    let shares = |me: usize| -> BTreeMap<String, u64> {
        [("1/1", wins[me]), ("0/1", wins[1 - me]), ("1/2", draws)]
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| (k.to_string(), n))
            .collect()
    };
    let shares = vec![shares(0), shares(1)];
    Tallies {
        variant: "Test".into(),
        options: BTreeMap::new(),
        players: vec!["First".into(), "Second".into()],
        end_rules: vec![
            "King captured: mover wins".into(),
            "no legal move: draw".into(),
        ],
        seed: 1,
        level: 2,
        opening_plies: 0,
        max_plies: 100,
        games_planned: wins.iter().sum::<u64>() + draws,
        shard_count: 1,
        shards: vec![0],
        games: wins.iter().sum::<u64>() + draws,
        fired: vec![wins.iter().sum(), draws],
        wins,
        draws,
        split: 0,
        shares,
        unfinished: 0,
        lengths: lengths.iter().copied().collect(),
    }
}

#[test]
fn the_report_reads_the_tallies() {
    // Worked by hand: scores 1,1,1,1/2,0 -> mean 0.7; squares 3.25; sample variance
    // (3.25 - 5 * 0.49) / 4 = 0.2; standard error sqrt(0.2 / 5) = 0.2; 1.96 * 0.2 = 0.392.
    let t = tallies(vec![3, 1], 1, &[(10, 2), (20, 1), (31, 2)]);
    let text = text_report(&t);
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    for expected in [
        "First wins 3 60.0%",
        "Second wins 1 20.0%",
        "draws 1 20.0%",
        "decisive games 4 80.0%",
        "King captured: mover wins 4 80.0%",
        "game length in plies: mean 20.4, median 20.0, longest 31",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}:\n{text}");
    }
    assert!(
        text.contains("0.700 ± 0.392 (95% CI 0.308 to 1.092)"),
        "{text}"
    );
}

#[test]
fn merging_refuses_other_studies_and_repeated_shards() {
    let mut a = tallies(vec![1, 0], 0, &[(5, 1)]);
    a.shard_count = 2;
    a.games_planned = 2;
    let mut b = a.clone();
    b.shards = vec![1];
    assert_eq!(merge(&[a.clone(), a.clone()]), Err(MergeError::Overlap(0)));
    let mut other = b.clone();
    other.seed = 2;
    assert_eq!(
        merge(&[a.clone(), other]),
        Err(MergeError::Different("seeds"))
    );
    let m = merge(&[a, b]).unwrap();
    assert_eq!((m.games, m.shard_count, m.shards.clone()), (2, 1, vec![0]));
    assert_eq!(m.wins, vec![2, 0]);
    assert_eq!(merge(&[]), Err(MergeError::Nothing));
}

#[test]
fn each_game_of_a_random_setup_draws_its_own_start() {
    use variantlab::runtime::Setup;
    let r = common::rules("hexcetran-chess.var");
    let study = small_study();
    let starts: Vec<Setup> = (0..6)
        .map(|i| variantlab::playtest::game_start(&r, &study, i))
        .collect();
    // Reproducible, and each one a draw the variant itself can make.
    for (i, s) in starts.iter().enumerate() {
        assert_eq!(*s, variantlab::playtest::game_start(&r, &study, i as u64));
        assert!(variantlab::runtime::Position::from_setup(&r, s).is_ok());
    }
    let mut distinct = starts.clone();
    distinct.dedup();
    assert!(distinct.len() > 1, "games start from different draws");
    // A fixed setup starts every game from the variant's own start.
    let fixed = common::rules("iss-jetan.var");
    assert_eq!(
        variantlab::playtest::game_start(&fixed, &study, 3),
        Setup::start(&fixed)
    );
}

#[test]
fn a_fractional_result_is_tallied_as_its_score_not_as_a_draw() {
    use variantlab::playtest::GameRecord;
    use variantlab::runtime::parse_position;
    let r = common::rules("glinski-chess.var");
    // Glinski's stalemate: Black, to move, has no move; White scores 3/4.
    let start = parse_position(&r, "5k/7/5K2/9/10/11/10/9/8/7/6 b - 0 1").unwrap();
    let game = variantlab::Game::new(r.clone(), start).unwrap();
    let e = game.ending().expect("stalemate");
    let mut t = Tallies::new(&r, &Study::new(4, 1));
    let stalemate = GameRecord {
        score: Some(e.score),
        rule: Some(e.rule),
        plies: 10,
    };
    t.add(&stalemate);
    t.add(&stalemate);
    t.add(&GameRecord {
        score: None,
        rule: None,
        plies: 1000,
    });
    assert_eq!(
        (t.wins.clone(), t.draws, t.split, t.unfinished),
        (vec![0, 0], 0, 2, 1)
    );
    assert_eq!(t.shares[0].get("3/4"), Some(&2));
    assert_eq!(t.shares[1].get("1/4"), Some(&2));
    // White's mean: (3/4 + 3/4 + 1/2) / 3 = 2/3.
    let report = text_report(&t);
    assert!(report.contains("0.667 ±"), "{report}");
    assert!(report.contains("split by a score"), "{report}");
}
