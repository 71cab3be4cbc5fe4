//! `check` must return a report, never panic or hang, whatever text it is given.

use crate::common;

use common::{Size, root};
use std::sync::mpsc;
use std::time::Duration;
use variantlab::check;

/// Longest any single case may take; far above what each needs, so only a real hang
/// (or a blow-up in path walking) trips it.
const LIMIT: Duration = Duration::from_secs(10);

/// Checks and renders each text on another thread; fails the test on a panic, or when
/// one text takes longer than [`LIMIT`].
fn all_survive(what: &str, texts: Vec<String>) {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        for text in texts {
            tx.send(preview(&text)).expect("receiver alive");
            let report = check("case.var", &text).report;
            let _ = report.render(80, false);
        }
    });
    let mut last = String::from("(nothing yet)");
    loop {
        match rx.recv_timeout(LIMIT) {
            Ok(shown) => last = shown,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("{what}: check did not return on {last}")
            }
        }
    }
    if handle.join().is_err() {
        panic!("{what}: check panicked on {last}");
    }
}

/// The start and length of a case, enough to reproduce it from the failure message.
fn preview(text: &str) -> String {
    let head: String = text.chars().take(300).collect();
    format!("{head:?} ({} bytes)", text.len())
}

fn valid_files() -> Vec<String> {
    ["iss-jetan.var", "hexagonal-iss-jetan.var"]
        .iter()
        .map(|f| std::fs::read_to_string(root().join("variants").join(f)).expect("variant file"))
        .collect()
}

/// The library's generator, seeded, so failures reproduce.
struct Rng(variantlab::Rng);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(variantlab::Rng::new(seed))
    }
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

#[test]
fn empty_and_blank_files() {
    let cases = [
        "",
        " ",
        "\n\n\n",
        "# only a comment",
        "\u{feff}",
        "\r\n",
        "\"\"\"",
    ];
    all_survive("blank", cases.iter().map(|s| s.to_string()).collect());
}

#[test]
fn every_fifth_prefix_of_the_valid_files() {
    every_prefix_of_the_valid_files(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn every_prefix_of_the_valid_files_in_full() {
    every_prefix_of_the_valid_files(Size::Full);
}

/// At [`Size::Small`], every fifth prefix (in characters).
fn every_prefix_of_the_valid_files(size: Size) {
    let stride = if size == Size::Full { 1 } else { 5 };
    for text in valid_files() {
        let prefixes = text
            .char_indices()
            .step_by(stride)
            .map(|(i, _)| text[..i].to_string())
            .collect();
        all_survive("prefix", prefixes);
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng::new(1);
    let texts = (0..2000)
        .map(|_| {
            let len = rng.below(200);
            let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .collect();
    all_survive("random bytes", texts);
}

/// Words of the language in random order: gets much further into parsing and
/// checking than random bytes do.
#[test]
fn random_words_after_a_valid_header() {
    // `|` separates the words; some are several words long.
    let words: Vec<&str> = "step|leap|slide|then|or|more|up|to|except|direct|any|orthogonal|\
                            diagonal|forward|backward|sideways|straight|outward|N|NE|NNE|west|\
                            1|2|3|0|4|,|:|{|}|(|)|\n|to empty|to enemy|tagged|e|never reversing|\
                            end not adjacent to start|piece|Chief|(CH)|captured only by|if|\
                            unless|opt|setup|Black:|a1|z99|game ends|mover wins|draw|holes|c3|\
                            \"|\"\"\"|#"
        .split('|')
        .collect();
    let header = "name \"Soup\"\nboard square 6 by 6\nholes d4\nplayer Black: forward north, capitals\n\
                  player Orange: forward south, lowercase\noption opt = on\ntag e \"escape\"\n";
    let mut rng = Rng::new(2);
    let texts = (0..1500)
        .map(|_| {
            let mut text = String::from(header);
            text.push_str("piece Chief (CH) {\n");
            for _ in 0..rng.below(40) {
                text.push_str(rng.pick(&words));
                text.push(' ');
            }
            if rng.below(2) == 0 {
                text.push_str("\n}\n");
            }
            text
        })
        .collect();
    all_survive("random words", texts);
}

#[test]
fn stray_characters_in_the_valid_files() {
    const STRAY: &[&str] = &[
        "{", "}", "\"", "\"\"\"", ":", ",", "#", "(", ")", "é", "\0", "\t", "\n", "9", "x", "__/",
        "[", "]", " ", "\u{3000}", "🐉",
    ];
    let mut rng = Rng::new(3);
    for text in valid_files() {
        let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        let texts = (0..400)
            .map(|_| {
                let mut t = text.clone();
                for _ in 0..1 + rng.below(3) {
                    let at = rng.pick(&boundaries);
                    if t.is_char_boundary(at) {
                        t.insert_str(at, rng.pick(STRAY));
                    }
                }
                t
            })
            .collect();
        all_survive("stray characters", texts);
    }
}

#[test]
fn huge_numbers() {
    let header = "name \"Big\"\nboard square 8 by 8\nplayer White: forward north, capitals\n\
                  player Black: forward south, lowercase\n";
    let boards = [
        "board square 99999999999999999999 by 3",
        "board square 4294967295 by 4294967295",
        "board hexagon side 4294967295 flat-topped",
        "board square 65536 by 65536",
    ];
    let mut texts: Vec<String> = boards
        .iter()
        .map(|b| format!("name \"Big\"\n{b}\nplayer White: forward north\n"))
        .collect();
    let moves = [
        "step 4000000000 direct any",
        "step 4000000000 or more orthogonal",
        "step 4000000000 or more direct any",
        "leap 4000000000 direct any",
        "leap 4000000000 any",
        "leap 1 to 4294967295 direct any",
        "step 4294967295 to 4294967295 direct any",
        "step 1 to 4294967296 any",
        "slide any then 4000000000 direct any",
        "step 99999999999999999999999999999999 any",
    ];
    texts.extend(
        moves
            .iter()
            .map(|m| format!("{header}piece Giant (GI) {{\n  {m}\n}}\n")),
    );
    texts.push(format!("{header}game ends {{\n  position repeated 4294967295 times: draw\n  4294967296 plies without capture: draw\n}}\n"));
    all_survive("huge numbers", texts);
}

#[test]
fn very_long_lines() {
    let header = "name \"Long\"\nboard square 8 by 8\nplayer White: forward north, capitals\n\
                  player Black: forward south, lowercase\n";
    let texts = vec![
        format!("name \"{}\"\n", "a".repeat(1 << 20)),
        format!("# {}\n{header}", "comment ".repeat(1 << 17)),
        // Few enough names: every one is a diagnostic that prints the whole line.
        format!("{header}holes {}\n", "a1 b2 c3 ".repeat(300)),
        format!(
            "{header}piece {} (AB) {{ step 1 any }}\n",
            "N".repeat(100_000)
        ),
        format!(
            "{header}piece Wide (WI) {{ step 1 {} }}\n",
            vec!["N"; 20_000].join(" or ")
        ),
        format!(
            "{header}piece Wide (WI) {{ step 1 {}any }}\n",
            "forward ".repeat(20_000)
        ),
        format!(
            "{header}piece Wide (WI) {{ step 1 any, {} }}\n",
            vec!["to empty"; 20_000].join(", ")
        ),
        format!("{header}board square {} by 8\n", "9".repeat(100_000)),
        format!(
            "{header}setup {{ White: {} }}\n",
            vec!["Pawn a2"; 10_000].join(", ")
        ),
        format!("{header}{}", "x".repeat(1 << 20)),
        format!(
            "{header}piece Far (FA) {{ step 1 any,{}to empty, to enemy }}\n",
            " ".repeat(70_000)
        ),
    ];
    all_survive("long lines", texts);
}

#[test]
fn deeply_repeated_statements() {
    let header = "name \"Many\"\nboard square 8 by 8\nplayer White: forward north, capitals\n\
                  player Black: forward south, lowercase\n";
    let many = |f: &dyn Fn(usize) -> String, n: usize| -> String {
        let mut t = String::from(header);
        (0..n).for_each(|i| t.push_str(&f(i)));
        t
    };
    let letters = |i: usize| {
        format!(
            "{}{}",
            (b'A' + (i % 26) as u8) as char,
            (b'A' + (i / 26 % 26) as u8) as char
        )
    };
    let texts = vec![
        many(
            &|i| format!("piece P{i} ({}) {{\n  step 1 any\n}}\n", letters(i)),
            500,
        ),
        many(&|_| "piece Same (SA) {\n  step 1 any\n}\n".into(), 500),
        many(&|i| format!("player P{i}: forward north, lowercase\n"), 500),
        many(&|i| format!("option o{i} = on\n"), 500),
        many(
            &|i| format!("tag {} \"mark\"\n", (b'a' + (i % 26) as u8) as char),
            500,
        ),
        many(&|_| "board square 8 by 8\n".into(), 500),
        many(&|_| "holes a1\n".into(), 500),
        many(&|_| "game ends {\n  no legal move: draw\n}\n".into(), 500),
        many(&|_| "name \"\"\"unterminated\n".into(), 500),
        many(&|_| "piece Broken (BR) {\n  stpe 1 any\n}\n".into(), 500),
        many(&|_| "piece\n".into(), 2000),
        format!(
            "{header}piece King (KI) {{\n{}}}\nsetup {{ White: {} }}\n",
            "  step 1 any\n".repeat(2000),
            "King a1 ".repeat(2000)
        ),
        format!(
            "{header}piece Walker (WA) {{\n  step 1 N{}\n}}\n",
            " then 1 N".repeat(2000)
        ),
        format!(
            "{header}piece Slider (SL) {{\n  slide N{}\n}}\n",
            " then slide N".repeat(30)
        ),
        format!(
            "{header}piece Slider (SL) {{\n  slide any{}\n}}\n",
            " then slide any".repeat(30)
        ),
        format!(
            "{header}piece Leaper (LE) {{\n  leap 1 or more direct any{}\n}}\n",
            " then 1 or more direct any".repeat(30)
        ),
        // Just under the limit on paths: accepted, and checked quickly.
        format!("{header}piece Slider (SL) {{\n  slide any then slide any then slide any\n}}\n"),
        format!("{header}piece Leaper (LE) {{\n  leap 4 any then slide any\n}}\n"),
    ];
    all_survive("repeated statements", texts);
}

/// miette cannot draw a label past column 65535; such diagnostics say where they are
/// in words instead of quoting the line.
#[test]
fn diagnostics_far_along_a_line_give_their_place() {
    let text = format!(
        "name \"Far\"\nboard square 8 by 8\nplayer A: forward north\nholes{}z9\n",
        " ".repeat(70_000)
    );
    let report = check("far.var", &text).report;
    assert_eq!(report.diagnostics.len(), 1);
    let shown = report.render(80, false);
    assert!(
        shown.contains("`z9` is not a cell of this board (far.var:4:70006)"),
        "{shown}"
    );
    assert!(shown.len() < 1000, "the long line is quoted:\n{shown}");
}

/// A move of thousands of legs, written as `variantlab check` would read it.
pub fn legs_file(legs: usize) -> String {
    let legs: Vec<&str> = (0..legs)
        .map(|i| {
            if i % 2 == 0 {
                "step 1 direct north"
            } else {
                "step 1 direct south"
            }
        })
        .collect();
    format!(
        "name \"Legs\"\nboard square 8 by 8\nplayer White: forward north, capitals\nplayer Black: forward south, lowercase\npiece King (K) {{\n  royal\n  step 1 any\n}}\npiece Dancer (D) {{\n  {}\n}}\nsetup {{\n  White: King a1, Dancer b2\n  Black: King h8\n}}\ngame ends {{\n  checkmate: mover wins\n  stalemate: draw\n}}\n",
        legs.join(" then ")
    )
}

/// Walking a move recurses once per step; a move of 20,000 legs (checked in a child
/// process, so that a stack overflow fails this test rather than ending the run) is
/// refused with its own diagnostic, placed at the legs past the limit.
#[test]
fn a_move_of_thousands_of_legs_is_refused_not_a_crash() {
    let dir = crate::common::scratch("legs", &[]);
    for legs in [17, 5_000, 20_000] {
        let file = dir.join(format!("legs-{legs}.var"));
        std::fs::write(&file, legs_file(legs)).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .arg("check")
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{legs} legs: {stderr}");
        assert!(
            stderr.contains("variantlab::too_many_legs"),
            "{legs} legs: {stderr}"
        );
        assert!(
            stderr.contains(&format!("this move joins {legs} legs; at most 16")),
            "{stderr}"
        );
    }
    // Sixteen legs are fine.
    let checked = check("legs.var", &legs_file(16));
    assert!(
        checked.variant.is_some(),
        "{}",
        checked.report.render(80, false)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
