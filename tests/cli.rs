//! The command line, run as a user would.

use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("writes");
    child.wait_with_output().expect("finishes")
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

#[test]
fn check_passes_valid_files_and_fails_broken_ones() {
    let ok = run(
        &[
            "check",
            "variants/iss-jetan.var",
            "variants/hexagonal-iss-jetan.var",
        ],
        "",
    );
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert_eq!(
        text(&ok.stdout)
            .lines()
            .filter(|l| l.starts_with("ok: "))
            .count(),
        2
    );

    let dir = std::env::temp_dir().join(format!("variantlab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.var");
    std::fs::write(&bad, "board square 8 by 8\nplayer White: forward north\npiece Rook (R) {\n  slide orthogonal\n}\nsetup { White: Rook z9 }\n").unwrap();
    let out = run(&["check", bad.to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("variantlab::cell_off_board") && err.contains("`z9` is not a cell"),
        "{err}"
    );
    let missing = run(&["check", "no/such/file.var"], "");
    assert!(!missing.status.success());
    assert!(text(&missing.stderr).contains("cannot read"));
}

#[test]
fn footprint_takes_names_or_codes_in_any_case() {
    let by_name = run(&["footprint", "variants/iss-jetan.var", "thoat"], "");
    let by_code = run(
        &["footprint", "variants/iss-jetan.var", "TH", "--at", "e5"],
        "",
    );
    assert!(by_name.status.success());
    assert_eq!(text(&by_name.stdout), text(&by_code.stdout));
    assert!(text(&by_name.stdout).starts_with("[ ][x][ ][x][ ]\n"));
    // Orange's Panthan moves south: its blank cell is above it.
    let orange = run(
        &[
            "footprint",
            "variants/iss-jetan.var",
            "pn",
            "--player",
            "orange",
        ],
        "",
    );
    assert_eq!(text(&orange.stdout), "[x][ ][x]\n[x][o][x]\n[x][x][x]\n");
    let unknown = run(&["footprint", "variants/iss-jetan.var", "queen"], "");
    assert!(!unknown.status.success());
    assert!(text(&unknown.stderr).contains("Panthan (PN)"));
}

#[test]
fn perft_prints_nodes_last_and_divides() {
    let out = run(&["perft", "variants/iss-jetan.var", "--depth", "2"], "");
    assert_eq!(text(&out.stdout).lines().last(), Some("nodes 1754"));
    let div = run(
        &[
            "perft",
            "variants/iss-jetan.var",
            "--depth",
            "2",
            "--divide",
        ],
        "",
    );
    let lines: Vec<String> = text(&div.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 43, "42 root moves and the total");
    let sum: u64 = lines[..42]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1754);
    let bad = run(
        &[
            "perft",
            "variants/iss-jetan.var",
            "--depth",
            "1",
            "--position",
            "nonsense",
        ],
        "",
    );
    assert!(!bad.status.success());
    assert!(text(&bad.stderr).contains("bad position"));
    let opt = run(
        &[
            "perft",
            "variants/iss-jetan.var",
            "--depth",
            "1",
            "--option",
            "no-such=on",
        ],
        "",
    );
    assert!(
        text(&opt.stderr).contains("no option `no-such`"),
        "{}",
        text(&opt.stderr)
    );
}

#[test]
fn moves_lists_one_move_a_line() {
    let out = run(&["moves", "variants/iss-jetan.var"], "");
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 42);
    assert!(lines.contains(&"f1-f5:e".to_string()) && lines.contains(&"d1-a4".to_string()));
}

#[test]
fn play_survives_bad_input_and_saves_and_loads() {
    let dir = std::env::temp_dir().join(format!("variantlab-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.txt");
    let script = format!(
        "e2-e3\nnonsense\ne2-e9\nf9-f8\nsave {}\nundo\nundo\nload {}\nposition\nload /no/such/file\nposition\nquit\n",
        save.display(),
        save.display()
    );
    let out = run(&["play", "variants/iss-jetan.var"], &script);
    assert!(out.status.success());
    let o = text(&out.stdout);
    assert!(o.contains("Refused: `nonsense`"), "{o}");
    assert!(o.contains("Refused: there is no piece on e2"), "{o}");
    assert!(o.contains("Could not load /no/such/file"), "{o}");
    let after = "wapddwflchprfldwpdwa/thpnpnpnpn1pnpnpnth/5pn4/10/10/10/10/4PN5/THPNPNPN1PNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b - 2 2";
    assert_eq!(
        o.matches(after).count(),
        2,
        "the loaded game and the one kept after a failed load:\n{o}"
    );
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.contains("moves e2-e3 f9-f8"), "{saved}");
}
