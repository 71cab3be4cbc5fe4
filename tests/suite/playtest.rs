//! Selfplay studies: the same seed gives the same tallies however they are run, and
//! shards run as separate processes merge into exactly the report of one run.

use crate::common;

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use variantlab::study::{
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
    // More threads than games, or than the limit, play the same games.
    study.threads = 1000;
    assert_eq!(run_study(&r, &study, &|_, _| {}).unwrap(), one);
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
    let dir = crate::common::scratch("shards", &[]);
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
    // An array with a step, `--array=1-5:2`: tasks 1, 3 and 5 play the three shards.
    let stepped = |id: &'static str| {
        move |k: &str| {
            match k {
                "SLURM_ARRAY_TASK_ID" => Some(id),
                "SLURM_ARRAY_TASK_MIN" => Some("1"),
                "SLURM_ARRAY_TASK_MAX" => Some("5"),
                "SLURM_ARRAY_TASK_STEP" => Some("2"),
                "SLURM_ARRAY_TASK_COUNT" => Some("3"),
                _ => None,
            }
            .map(String::from)
        }
    };
    for (id, index) in [("1", 0), ("3", 1), ("5", 2)] {
        assert_eq!(
            shard_from_env(stepped(id), None),
            Ok(Some(Shard { index, count: 3 })),
            "task {id}"
        );
    }
    let off = shard_from_env(stepped("2"), None).unwrap_err();
    assert!(off.contains("SLURM_ARRAY_TASK_STEP 2"), "{off}");
    // A list of ids is no range: refused, not played as other shards.
    let listed = shard_from_env(
        env(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ]),
        None,
    )
    .unwrap_err();
    assert!(listed.contains("--shard K/N"), "{listed}");
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
        // Half the plies searched, at 103 nodes each.
        searched: lengths.iter().map(|(l, n)| *l as u64 * n).sum::<u64>() / 2,
        nodes: lengths.iter().map(|(l, n)| *l as u64 * n).sum::<u64>() / 2 * 103,
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
        "the computer: level 2, 2 plies deep then captures, 103 nodes a move (51 moves)",
        "how strong a level plays: docs/playtesting.md, \"Levels\"",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}:\n{text}");
    }
    // A score is a share of the point: its interval stops at 1.
    assert!(
        text.contains("0.700 ± 0.392 (95% CI 0.308 to 1.000)"),
        "{text}"
    );
}

#[test]
fn a_report_of_no_games_says_so() {
    let r = common::rules("iss-jetan.var");
    let t = Tallies::new(&r, &Study::new(0, 1));
    let text = text_report(&t);
    assert!(
        text.contains("Black's score (moving first; a draw counts 1/2): no games"),
        "{text}"
    );
    assert!(text.contains("game length in plies: no games"), "{text}");
    assert!(!text.contains("0.000 ± 0.000"), "{text}");
    let compared =
        variantlab::study::compare_report(&[("a=on".into(), t.clone()), ("a=off".into(), t)]);
    assert!(compared.contains("no games to compare"), "{compared}");
}

#[test]
fn an_end_rule_is_described_with_the_kinds_that_reset_its_count() {
    let r = common::rules("chess.var");
    let t = Tallies::new(&r, &Study::new(1, 1));
    assert!(
        t.end_rules
            .contains(&"100 plies without capture or Pawn move: draw".to_string()),
        "{:?}",
        t.end_rules
    );
    let r = common::rules("iss-jetan.var");
    let t = Tallies::new(&r, &Study::new(1, 1));
    assert!(
        t.end_rules
            .contains(&"100 plies without capture: draw".to_string()),
        "{:?}",
        t.end_rules
    );
}

#[test]
fn forged_tallies_are_refused_field_by_field() {
    // Two shards of a study of 5 games: shard 1/2 holds games 0, 2 and 4, shard 2/2
    // games 1 and 3.
    let mut a = tallies(vec![2, 0], 1, &[(5, 3)]);
    a.shard_count = 2;
    a.games_planned = 5;
    let mut b = tallies(vec![1, 1], 0, &[(7, 2)]);
    b.shard_count = 2;
    b.games_planned = 5;
    b.shards = vec![1];
    let whole = merge(&[a.clone(), b.clone()]).expect("honest shards merge");
    assert_eq!((whole.games, whole.shard_count), (5, 1));
    type Forge = fn(&mut Tallies);
    let forgeries: [(&str, Forge, &str); 18] = [
        (
            "a shard out of range",
            |t| t.shards = vec![5],
            "shard number 5 is not one of the 2 shards",
        ),
        (
            "a shard twice",
            |t| t.shards = vec![0, 0],
            "shard 1/2 is listed twice",
        ),
        ("no shards", |t| t.shard_count = 0, "the shard count is 0"),
        (
            "an empty shard list",
            |t| t.shards = vec![],
            "it lists no shard",
        ),
        (
            "more games than its shard holds",
            |t| {
                t.games = 4;
                t.draws = 2;
            },
            "it counts 4 games, but its shards of a study of 5 games hold 3",
        ),
        (
            "more games than planned",
            |t| {
                t.games_planned = 2;
            },
            "its shards of a study of 2 games hold 1",
        ),
        (
            "a count that wraps",
            |t| {
                t.games = u64::MAX;
            },
            "it counts 18446744073709551615 games",
        ),
        (
            "wins beyond the games",
            |t| t.wins[0] = 100,
            "do not add up to its 3 games",
        ),
        (
            "a share of more than the point",
            |t| {
                t.shares[0].remove("1/1");
                t.shares[0].insert("100/3".into(), 2);
            },
            "`100/3` is not a share of the point",
        ),
        (
            "shares that count other games",
            |t| {
                *t.shares[1].get_mut("1/2").unwrap() += 1;
            },
            "Second's shares count 4 games, not its 3 finished games",
        ),
        (
            "wins without the whole point",
            |t| {
                t.wins = vec![1, 1];
            },
            "First wins 1 games but takes the whole point in 2",
        ),
        (
            "points that do not add up",
            |t| {
                t.shares[1].remove("0/1");
                t.shares[1].insert("1/1".into(), 2);
                t.wins = vec![2, 2];
                t.draws = 0;
                t.games_planned = 7;
                t.games = 4;
                t.lengths = [(5, 4)].into();
                t.fired = vec![4, 0];
                *t.shares[0].get_mut("1/2").unwrap() += 1;
                *t.shares[1].get_mut("1/2").unwrap() += 1;
            },
            "points in 4 finished games, not one a game",
        ),
        (
            "end rules fired beyond the games",
            |t| t.fired = vec![3, 3],
            "the end rules fired do not add up to its 3 finished games",
        ),
        (
            "lengths of other games",
            |t| {
                t.lengths = [(5, 2)].into();
            },
            "its game lengths do not count its 3 games",
        ),
        (
            "a game past the ply limit",
            |t| {
                t.lengths = [(500, 3)].into();
            },
            "a game of 500 plies is longer than the ply limit, 100",
        ),
        (
            "more moves searched than played",
            |t| t.searched = 10_000,
            "10000 moves searched in",
        ),
        (
            "moves searched without a node",
            |t| t.nodes = 0,
            "every move searched is a ply and visits a node",
        ),
        (
            "more players than wins",
            |t| t.players.push("Third".into()),
            "it names 3 players",
        ),
    ];
    for (what, forge, says) in forgeries {
        let mut forged = a.clone();
        forge(&mut forged);
        match merge(&[forged.clone(), b.clone()]) {
            Err(MergeError::Invalid { part: 0, problem }) => {
                assert!(problem.contains(says), "{what}: {problem}")
            }
            other => panic!("{what}: {other:?}"),
        }
        // Alone too, and as the second file.
        assert!(
            merge(std::slice::from_ref(&forged)).is_err(),
            "{what} alone"
        );
        assert!(
            matches!(
                merge(&[b.clone(), forged]),
                Err(MergeError::Invalid { part: 1, .. })
            ),
            "{what} second"
        );
    }
    // A renamed player is another study's.
    let mut renamed = b.clone();
    renamed.players[1] = "Someone".into();
    assert_eq!(
        merge(&[a.clone(), renamed]),
        Err(MergeError::Different("players"))
    );
}

#[test]
fn merge_names_the_forged_file() {
    let dir = crate::common::scratch("forged", &[]);
    let mut t = tallies(vec![1, 0], 0, &[(5, 1)]);
    t.shards = vec![0, 0];
    t.shard_count = 2;
    let path = dir.join("forged.json");
    std::fs::write(&path, serde_json::to_string(&t).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["merge", path.to_str().unwrap()])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("forged.json: not the tallies of a selfplay run: shard 1/2 is listed twice"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
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
    use variantlab::Setup;
    let r = common::rules("hexcetran-chess.var");
    let study = small_study();
    let starts: Vec<Setup> = (0..6)
        .map(|i| variantlab::study::game_start(&r, &study, i))
        .collect();
    // Reproducible, and each one a draw the variant itself can make.
    for (i, s) in starts.iter().enumerate() {
        assert_eq!(*s, variantlab::study::game_start(&r, &study, i as u64));
        assert!(variantlab::Position::from_setup(&r, s).is_ok());
    }
    let mut distinct = starts.clone();
    distinct.dedup();
    assert!(distinct.len() > 1, "games start from different draws");
    // A fixed setup starts every game from the variant's own start.
    let fixed = common::rules("iss-jetan.var");
    assert_eq!(
        variantlab::study::game_start(&fixed, &study, 3),
        Setup::start(&fixed)
    );
}

#[test]
fn a_fractional_result_is_tallied_as_its_score_not_as_a_draw() {
    use variantlab::parse_position;
    use variantlab::study::GameRecord;
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
        searched: 6,
        nodes: 600,
    };
    t.add(&stalemate);
    t.add(&stalemate);
    t.add(&GameRecord {
        score: None,
        rule: None,
        plies: 1000,
        searched: 0,
        nodes: 0,
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

/// Runs `variantlab merge` on `files` with `args`, killing it after `limit`.
fn merge_files(
    files: &[std::path::PathBuf],
    args: &[&str],
    limit: std::time::Duration,
) -> std::process::Output {
    let child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .arg("merge")
        .args(files)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let id = child.id();
    let (done, waited) = std::sync::mpsc::channel();
    let guard = std::thread::spawn(move || {
        if waited.recv_timeout(limit).is_err() {
            // Still running: end it, so that the test fails instead of hanging.
            let _ = Command::new("kill").arg(id.to_string()).status();
        }
    });
    let out = child.wait_with_output().expect("finishes");
    let _ = done.send(());
    guard.join().unwrap();
    out
}

#[test]
fn merging_many_shards_takes_time_linear_in_them() {
    // A study of 800,000 games in as many shards, one game each, in 8 files of 100,000
    // shards (some 700 kB each). Searching the shards listed so far for each new one
    // took 40 s; a set takes well under a second.
    let dir = crate::common::scratch("many", &[]);
    let (files, per) = (8u32, 100_000u32);
    let mut paths = vec![];
    for f in 0..files {
        let mut t = tallies(vec![per as u64, 0], 0, &[(5, per as u64)]);
        t.games_planned = (files * per) as u64;
        t.shard_count = files * per;
        t.shards = (f * per..(f + 1) * per).collect();
        let path = dir.join(format!("{f}.json"));
        std::fs::write(&path, serde_json::to_string(&t).unwrap()).unwrap();
        paths.push(path);
    }
    let started = std::time::Instant::now();
    let out = merge_files(&paths, &["--json"], std::time::Duration::from_secs(20));
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "after {took:?}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let m: Tallies = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((m.games, m.shard_count, m.shards), (800_000, 1, vec![0]));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn merge_refuses_levels_selfplay_does_not_play() {
    for level in [0, 33, 4_000_000_000] {
        let mut t = tallies(vec![1, 0], 0, &[(5, 1)]);
        t.level = level;
        match merge(std::slice::from_ref(&t)) {
            Err(MergeError::Invalid { part: 0, problem }) => assert!(
                problem.contains(&format!(
                    "level {level} is not one selfplay plays: a level is from 1 to 32 plies"
                )),
                "{problem}"
            ),
            other => panic!("level {level}: {other:?}"),
        }
    }
    let mut t = tallies(vec![1, 0], 0, &[(5, 1)]);
    for level in [1, 32] {
        t.level = level;
        assert!(merge(std::slice::from_ref(&t)).is_ok(), "level {level}");
    }
}

#[test]
fn merge_shows_control_characters_from_its_files_escaped() {
    let dir = crate::common::scratch("escapes", &[]);
    // ESC sequences that would clear the screen and retitle the window, a C1 CSI
    // (U+009B), DEL and a line break, in every name a shard file carries.
    let mut t = tallies(vec![1, 0], 0, &[(5, 1)]);
    t.variant = "Chess\u{1b}[2J\u{1b}]0;owned\u{7}".into();
    t.players = vec!["Wh\u{9b}31mite".into(), "Bl\u{7f}ack\nforged line".into()];
    t.end_rules[0] = "King captured\u{1b}[1A: mover wins".into();
    t.options.insert("opt\u{1b}[5m".into(), true);
    let path = dir.join("shard.json");
    std::fs::write(&path, serde_json::to_string(&t).unwrap()).unwrap();
    let raw = |s: &str| s.chars().any(|c| c.is_control() && c != '\n');
    let limit = std::time::Duration::from_secs(60);

    let out = merge_files(std::slice::from_ref(&path), &[], limit);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(!raw(&report), "{report:?}");
    for shown in [
        "Chess\\u{1b}[2J\\u{1b}]0;owned\\u{7}: 1 games",
        "Wh\\u{9b}31mite wins",
        "Bl\\u{7f}ack\\u{a}forged line wins",
        "King captured\\u{1b}[1A: mover wins",
        "options opt\\u{1b}[5m=on",
    ] {
        assert!(report.contains(shown), "{shown}:\n{report}");
    }
    assert!(
        !report.lines().any(|l| l.starts_with("forged line")),
        "{report}"
    );

    // As JSON: still the same tallies, with no raw control character.
    let out = merge_files(std::slice::from_ref(&path), &["--json"], limit);
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(!raw(&json), "{json:?}");
    assert_eq!(serde_json::from_str::<Tallies>(&json).unwrap(), t);

    // In errors: a forged share, and a field of the wrong type.
    let mut forged = t.clone();
    let n = forged.shares[0].remove("1/1").unwrap();
    forged.shares[0].insert("\u{1b}[31m1/1".into(), n);
    std::fs::write(&path, serde_json::to_string(&forged).unwrap()).unwrap();
    let out = merge_files(std::slice::from_ref(&path), &[], limit);
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success());
    assert!(!raw(&e), "{e:?}");
    assert!(e.contains("\\u{1b}[31m1/1"), "{e}");
    std::fs::write(&path, r#"{"seed": "\u001b[2J\u009b2J"}"#).unwrap();
    let out = merge_files(std::slice::from_ref(&path), &[], limit);
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success());
    assert!(!raw(&e), "{e:?}");
    std::fs::remove_dir_all(&dir).ok();
}
