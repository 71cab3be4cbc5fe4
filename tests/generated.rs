//! Variant files generated from the language's statements, valid and then mutated
//! with the grammar's own words: `check` never panics or hangs on them, and every file
//! it accepts is accepted by every command. Seeded, so failures reproduce.

mod common;

use common::{Lcg, root};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use variantlab::check::check;

/// Files generated per run; kept small so the suite stays quick.
const FILES: usize = 24;
/// Mutations of each generated file.
const MUTATIONS: usize = 4;
/// Far above what any case needs; only a real hang trips it.
const LIMIT: Duration = Duration::from_secs(20);

fn pick<'a>(r: &mut Lcg, items: &[&'a str]) -> &'a str {
    items[r.below(items.len())]
}

/// A count, with `direct` when it has no largest value; at most 2 steps otherwise, so
/// two legs stay within the limit on winding steps.
fn count(r: &mut Lcg) -> String {
    match r.below(6) {
        0 => format!("{} ", 1 + r.below(2)),
        1 => format!("{} or more direct ", 1 + r.below(2)),
        2 => format!("up to {} ", 1 + r.below(2)),
        3 => "1 to 2 ".to_string(),
        _ => String::new(),
    }
}

fn term(r: &mut Lcg, later: bool) -> String {
    let qualifiers: &[&str] = if later {
        &[
            "",
            "",
            "forward ",
            "backward ",
            "sideways ",
            "outward ",
            "straight forward ",
        ]
    } else {
        &["", "", "forward ", "backward ", "sideways "]
    };
    let q = pick(r, qualifiers);
    let base = pick(r, &["any", "orthogonal", "diagonal", "N", "E", "SW"]);
    if q.starts_with("straight") {
        q.trim().to_string()
    } else {
        format!("{q}{base}")
    }
}

fn directions(r: &mut Lcg, later: bool) -> String {
    let mut d = term(r, later);
    if r.below(3) == 0 {
        d = format!("{d} or {}", term(r, later));
    }
    if r.below(4) == 0 {
        d = format!("{d} except {}", term(r, later));
    }
    d
}

fn a_move(r: &mut Lcg, tags: bool) -> String {
    let mut m = format!(
        "{} {}{}",
        pick(r, &["step", "step", "leap", "slide"]),
        count(r),
        directions(r, false)
    );
    for _ in 0..r.below(2) {
        m = format!(
            "{m} then {}{}{}",
            pick(r, &["", "step ", "leap ", "slide "]),
            count(r),
            directions(r, true)
        );
    }
    if r.below(2) == 0 {
        let to = pick(r, &["to empty", "to enemy", "to empty or enemy"]);
        m = format!("{m}, {to}");
    }
    if r.below(3) == 0 {
        let other = pick(
            r,
            &[
                "end not adjacent to start",
                "never reversing",
                "each new cell adjacent only to the cell just left",
            ],
        );
        m = format!("{m}, {other}");
    }
    if tags && r.below(4) == 0 {
        m = format!("{m}, tagged t");
    }
    m
}

/// One variant file: a board, two players, an option and a tag, a few pieces, a setup
/// on square boards, and game-end rules.
fn variant(r: &mut Lcg, n: usize) -> String {
    let square = r.below(4) != 0;
    let (w, h) = (3 + r.below(6), 3 + r.below(6));
    let mut t = format!("name \"Generated {n}\"\n");
    t += &if square {
        format!("board square {w} by {h}\n")
    } else {
        format!("board hexagon side {} flat-topped\n", 2 + r.below(3))
    };
    t += "player White: forward N, capitals\nplayer Black: forward S, lowercase\n";
    let option = r.below(2) == 0;
    if option {
        t += &format!("option o = {} \"a switch\"\n", pick(r, &["on", "off"]));
    }
    let tag = r.below(2) == 0;
    if tag {
        t += &format!("tag t \"a mark\"{}\n", pick(r, &["", " once per game"]));
    }
    let pieces = 1 + r.below(3);
    for p in 0..pieces {
        t += &format!("piece P{p} (P{}) {{\n", (b'A' + p as u8) as char);
        for _ in 0..1 + r.below(3) {
            let guard = if option && r.below(4) == 0 {
                pick(r, &["if o: ", "unless o: "])
            } else {
                ""
            };
            t += &format!("  {guard}{}\n", a_move(r, tag));
        }
        t += "}\n";
    }
    let royal = square && r.below(2) == 0;
    if square {
        // Each piece on its own file, so no cell is taken twice.
        let cells = |piece: usize, rank: usize| {
            let file = (b'a' + piece as u8) as char;
            format!("{file}{rank}")
        };
        t += "setup {\n";
        for (player, rank) in [("White", 1), ("Black", h)] {
            t += &format!("  {player}:");
            let list: Vec<String> = (0..pieces)
                .map(|p| format!(" P{p} {}", cells(p, rank)))
                .collect();
            t += &list.join(",");
            t += "\n";
        }
        t += "}\n";
    }
    t += "game ends {\n";
    if royal {
        t += "  P0 captured: mover wins\n";
    }
    t += "  no legal move: mover loses\n";
    if r.below(2) == 0 {
        t += "  position repeated 3 times: draw\n  50 plies without capture: draw\n";
    }
    t += "}\n";
    t
}

/// The grammar's fixed words, read from the grammar file.
fn grammar_words() -> Vec<String> {
    let grammar = std::fs::read_to_string(root().join("grammar/variant.pest")).expect("grammar");
    let mut words: Vec<String> = grammar
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .flat_map(|l| l.split('"').skip(1).step_by(2).map(str::to_string))
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .collect();
    words.sort();
    words.dedup();
    words
}

/// One mutation: a word dropped, doubled, swapped with the next, replaced by a grammar
/// word or a mark, or the file cut short.
fn mutate(text: &str, r: &mut Lcg, words: &[String]) -> String {
    let mut parts: Vec<String> = text.split(' ').map(str::to_string).collect();
    let i = r.below(parts.len());
    match r.below(6) {
        0 => {
            parts.remove(i);
        }
        1 => parts.insert(i, parts[i].clone()),
        2 if i + 1 < parts.len() => parts.swap(i, i + 1),
        3 => parts[i] = words[r.below(words.len())].clone(),
        4 => parts.insert(
            i,
            pick(r, &["{", "}", "(", ")", ",", ":", "\"", "\"\"\""]).into(),
        ),
        _ => {
            let cut = r.below(text.len());
            return text.get(..cut).unwrap_or(text).to_string();
        }
    }
    parts.join(" ")
}

/// Runs one command on a file; its error output when it fails.
fn run(args: &[&str]) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn generated_files_check_and_every_accepted_one_runs_every_command() {
    let words = grammar_words();
    let dir = std::env::temp_dir().join(format!("variantlab-generated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let mut r = Lcg(0x5eed_1234);
    let mut texts = Vec::new();
    for n in 0..FILES {
        let valid = variant(&mut r, n);
        for _ in 0..MUTATIONS {
            texts.push(mutate(&valid, &mut r, &words));
        }
        texts.push(valid);
    }
    let total = texts.len();
    let (tx, rx) = mpsc::channel();
    let worker_dir = dir.clone();
    std::thread::spawn(move || {
        let mut accepted = 0;
        for (i, text) in texts.into_iter().enumerate() {
            let _ = tx.send(Err(format!("case {i}:\n{text}")));
            let checked = check("case.var", &text);
            let _ = checked.report.render(100, false);
            let Some(v) = checked.variant else { continue };
            accepted += 1;
            let path = worker_dir.join(format!("case{i}.var"));
            std::fs::write(&path, &text).expect("writes");
            let file = path.to_string_lossy().into_owned();
            let mut commands: Vec<Vec<String>> = [
                vec!["board"],
                vec!["perft", "--depth", "1"],
                vec!["moves"],
                vec!["play"],
            ]
            .iter()
            .map(|c| {
                let mut c: Vec<String> = c.iter().map(|s| s.to_string()).collect();
                c.insert(1, file.clone());
                c
            })
            .collect();
            for p in &v.pieces {
                commands.push(vec!["footprint".into(), file.clone(), p.name.clone()]);
            }
            for c in commands {
                let args: Vec<&str> = c.iter().map(String::as_str).collect();
                if let Err(e) = run(&args) {
                    panic!(
                        "`check` accepts case {i}, but `{}` fails:\n{e}\n{text}",
                        c[0]
                    );
                }
            }
        }
        let _ = tx.send(Ok(accepted));
    });
    let mut last = String::new();
    let accepted = loop {
        match rx.recv_timeout(LIMIT) {
            Ok(Ok(n)) => break n,
            Ok(Err(case)) => last = case,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("no answer within {LIMIT:?} on {last}"),
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("failed on {last}"),
        }
    };
    let _ = std::fs::remove_dir_all(&dir);
    // Enough files get through for the commands to be exercised.
    assert!(
        accepted >= FILES / 2,
        "only {accepted} of {total} generated files check"
    );
}
