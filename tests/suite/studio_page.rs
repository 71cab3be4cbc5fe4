//! The studio in headless Chromium: live reload while a test edits the file, the
//! editor's diagnostics, save and conflict, footprints from any cell, the computer
//! answering, drag and drop, typed moves, stepping back, the game in the URL, check
//! and capture marks, random setups, and the phone's layout.
//!
//! `VARIANTLAB_SCREENSHOTS=DIR` saves the README's pictures of the studio there.

use crate::browser::{browser, played, shown_moves};
use crate::common;

use common::root;
use common::server::Server;
use common::webdriver::Browser;
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

fn scratch(name: &str, files: &[&str]) -> crate::common::Scratch {
    common::scratch(&format!("page-{name}"), files)
}

/// Plays by clicking the piece on `from`, then the cell `to`.
fn click_move(b: &Browser, from: &str, to: &str, plies: usize) {
    b.click(&format!(r#"#board .piece[data-cell="{from}"]"#));
    b.wait_one(&format!(r#"#board .cell.target[data-cell="{to}"]"#));
    b.click(&format!(r#"#board .cell[data-cell="{to}"]"#));
    b.wait_count("#move-list .ply", plies);
}

fn number(v: Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn rect(b: &Browser, css: &str) -> (f64, f64, f64, f64) {
    let v = b.script(&format!(
        "const r = document.querySelector({}).getBoundingClientRect(); return [r.left, r.top, r.width, r.height];",
        json!(css)
    ));
    let n = |i: usize| v[i].as_f64().unwrap();
    (n(0), n(1), n(2), n(3))
}

/// Puts `text` in the editor as typing would.
fn set_source(b: &Browser, text: &str) {
    b.script(&format!(
        "const a = document.getElementById('source'); a.value = {}; a.dispatchEvent(new Event('input'));",
        json!(text)
    ));
}

fn save_screenshot(b: &Browser, name: &str) {
    if let Some(dir) = std::env::var_os("VARIANTLAB_SCREENSHOTS") {
        std::fs::write(Path::new(&dir).join(name), b.screenshot()).expect("writes a screenshot");
    }
}

#[test]
fn the_page_follows_the_file_as_it_changes_on_disk() {
    let Some(b) = browser("the_page_follows_the_file_as_it_changes_on_disk") else {
        return;
    };
    let dir = scratch("reload", &["chess.var"]);
    let file = dir.join("chess.var");
    let original = std::fs::read_to_string(&file).unwrap();
    let s = Server::start(&[&dir]);
    b.goto(&s.url("/?v=chess"));
    b.wait_count("#board .piece", 32);
    click_move(&b, "e2", "e4", 1);

    // New rules that keep the game legal: it goes on, within a second.
    let renamed = original.replace("name \"Chess\"", "name \"Chess Renamed\"");
    std::fs::write(&file, &renamed).unwrap();
    let t = Instant::now();
    b.wait_text_where("#variant-name", "Chess Renamed", |t| {
        t.starts_with("Chess Renamed")
    });
    let took = t.elapsed();
    eprintln!("the page took {took:?} to show the new rules");
    assert!(took < Duration::from_millis(1500), "took {took:?}");
    b.wait_text_where("#message", "the game goes on", |m| {
        m.contains("the game goes on")
    });
    assert_eq!(played(&b), "e2-e4");
    assert_eq!(b.text("#status"), "Black to move.");

    // A mistake: the page shows the diagnostics `check` prints.
    std::fs::write(&file, renamed.replacen("Knight b1", "Knigt b1", 1)).unwrap();
    b.wait_text_where("#diagnostics-text", "unknown_piece", |t| {
        t.contains("variantlab::unknown_piece")
    });
    // Rules under which the first move is no longer legal: the page says so.
    let no_double = renamed.replace(
        "  step 2 straight forward, to empty, from start, en passant by Pawn\n",
        "",
    );
    assert_ne!(no_double, renamed);
    std::fs::write(&file, &no_double).unwrap();
    b.wait_text_where("#message", "move 1 is not legal", |m| {
        m.starts_with("Move 1 (e2-e4) is not legal under these rules: Pawn cannot go from e2 to e4")
    });
    b.wait_count("#move-list .ply", 0);
    assert_eq!(
        b.script("return document.getElementById('diagnostics').hidden"),
        json!(true)
    );
}

#[test]
fn the_file_is_edited_with_diagnostics_and_saved_without_losing_a_text() {
    let Some(b) = browser("the_file_is_edited_with_diagnostics_and_saved_without_losing_a_text")
    else {
        return;
    };
    let dir = scratch("edit", &["chess.var"]);
    let file = dir.join("chess.var");
    let original = std::fs::read_to_string(&file).unwrap();
    let s = Server::start(&[&dir]);
    b.goto(&s.url("/?v=chess"));
    b.wait_count("#board .piece", 32);
    b.click("#tab-file");
    assert_eq!(b.value("#source"), original);
    b.wait_one("#problems li.fine");

    // A mistake as one types: marked on its line, with its code and help.
    let broken = original.replacen("Knight b1", "Knigt b1", 1);
    let line = broken.lines().position(|l| l.contains("Knigt")).unwrap() + 1;
    set_source(&b, &broken);
    b.wait_one(&format!(r#"#gutter .marked.error[data-line="{line}"]"#));
    let problem = b.text(r#"#problems li[data-code="unknown_piece"]"#);
    assert!(problem.starts_with(&format!("{line}:")), "{problem}");
    assert!(
        problem.contains("variantlab explain unknown_piece"),
        "{problem}"
    );
    b.wait_text("#file-state", "not saved");

    // Fixed and saved: the file on disk changes and the page takes the new rules.
    let edited = original.replace("name \"Chess\"", "name \"Edited Chess\"");
    set_source(&b, &edited);
    b.wait_one("#problems li.fine");
    b.click("#save");
    b.wait_text("#file-state", "saved");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);
    b.wait_text_where("#variant-name", "Edited Chess", |t| {
        t.starts_with("Edited Chess")
    });
    save_screenshot(&b, "studio-file.png");

    // The file changes on disk while the editor holds other changes: the save is
    // refused, the editor keeps its text and the page shows the file's.
    let mine = edited.replace("Edited Chess", "My Chess");
    set_source(&b, &mine);
    let theirs = edited.replace("Edited Chess", "Their Chess");
    std::fs::write(&file, &theirs).unwrap();
    b.wait_text_where("#variant-name", "Their Chess", |t| {
        t.starts_with("Their Chess")
    });
    b.click("#save");
    b.wait_text_where("#conflict-text", "changed on disk", |t| {
        t.contains("changed on disk")
    });
    assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
    assert_eq!(b.value("#source"), mine);
    assert_eq!(b.text("#conflict-other"), theirs.trim_end());
    // Saving over it on purpose writes the editor's text.
    b.click("#save-anyway");
    b.wait_text("#file-state", "saved");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), mine);
    b.wait_text_where("#variant-name", "My Chess", |t| t.starts_with("My Chess"));
}

#[test]
fn footprints_are_shown_from_any_cell_for_either_player() {
    let Some(b) = browser("footprints_are_shown_from_any_cell_for_either_player") else {
        return;
    };
    let s = Server::start(&[Path::new("variants/chess.var")]);
    b.goto(&s.url("/?v=chess"));
    b.wait_count("#board .piece", 32);
    b.click(r#"#pieces button[data-piece="Pawn"]"#);
    b.wait_one("#board [data-mark]");
    assert!(b.text("#rule-text").contains("piece Pawn (P) {"));
    // Black's Pawn on e7: one step or two, forward for Black.
    b.script("const s = document.getElementById('fp-player'); s.value = 'Black'; s.dispatchEvent(new Event('change'));");
    b.wait_text_where("#view-title", "Black", |t| t.starts_with("Pawn (Black)"));
    b.click(r#"#board .cell[data-cell="e7"]"#);
    b.wait_text_where("#view-title", "from e7", |t| {
        t.starts_with("Pawn (Black) from e7: 2 cells")
    });
    b.wait_count(r#"#board [data-mark="move"]"#, 2);
    assert_eq!(b.all(r#"#board [data-mark][data-cell="e5"]"#).len(), 1);
    // With the capture-only moves: the two diagonals, marked as captures.
    b.click("#captures");
    b.wait_count(r#"#board [data-mark="capture"]"#, 2);
    assert_eq!(
        b.all(r#"#board [data-mark="capture"][data-cell="d6"]"#)
            .len(),
        1
    );
    b.click("#back");
    b.wait_count("#board .piece", 32);
}

#[test]
fn the_computer_answers_on_the_page() {
    let Some(b) = browser("the_computer_answers_on_the_page") else {
        return;
    };
    let s = Server::start(&[Path::new("variants/chess.var")]);
    b.goto(&s.url("/?v=chess"));
    b.wait_count("#board .piece", 32);
    b.script("const s = document.getElementById('opponent'); s.value = 'Black'; s.dispatchEvent(new Event('change'));");
    b.wait_url("with the computer", |u| u.contains("c=Black&l=2"));
    click_move(&b, "e2", "e4", 2);
    b.wait_text("#status", "White to move.");
    // The computer takes White: the game so far is kept, and it moves at once.
    b.script("const s = document.getElementById('opponent'); s.value = 'White'; s.dispatchEvent(new Event('change'));");
    b.wait_count("#move-list .ply", 3);
    b.wait_text("#status", "Black to move.");
    b.click("#new-game");
    b.wait_count("#move-list .ply", 1);
    b.wait_text("#status", "Black to move.");
}

#[test]
fn a_late_reply_of_the_computer_never_replaces_a_new_game() {
    let Some(b) = browser("a_late_reply_of_the_computer_never_replaces_a_new_game") else {
        return;
    };
    let s = Server::start(&[Path::new("variants/amazons.var")]);
    // At level 6 the computer thinks up to 3.2 s: a new game is started meanwhile.
    b.goto(&s.url("/?v=amazons&c=Black&l=6"));
    b.wait_count("#move-list .ply", 0);
    b.wait_text("#status", "White to move.");
    let first = b.script("return page.game.id;");
    b.script("play(page.game.legal[0].notation);");
    b.click("#new-game");
    b.wait_text_where("#status", "a new game", |_| {
        b.script("return page.game.id;") != first
    });
    let second = b.script("return page.game.id;");
    // Past the computer's time, the board still shows the new game, unplayed.
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(b.script("return page.game.id;"), second);
    assert!(shown_moves(&b).is_empty(), "{:?}", shown_moves(&b));
    b.wait_text("#status", "White to move.");
}

#[test]
fn pieces_are_dragged_dropped_and_typed() {
    let Some(b) = browser("pieces_are_dragged_dropped_and_typed") else {
        return;
    };
    let s = Server::start(&[Path::new("variants/chess.var")]);
    b.goto(&s.url("/?v=chess"));
    b.wait_count("#board .piece", 32);
    b.drag(
        r#"#board .piece[data-cell="e2"]"#,
        r#"#board .cell[data-cell="e4"]"#,
    );
    b.wait_count("#move-list .ply", 1);
    b.wait_count(r#"#board .piece[data-cell="e4"]"#, 1);
    // Let go on a cell it cannot reach: nothing is played and the piece goes home.
    b.drag(
        r#"#board .piece[data-cell="g8"]"#,
        r#"#board .cell[data-cell="g5"]"#,
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(b.all("#move-list .ply").len(), 1);
    assert_eq!(
        b.all(r#"#board .piece[data-cell="g8"][transform]"#).len(),
        0
    );
    b.drag(
        r#"#board .piece[data-cell="e7"]"#,
        r#"#board .cell[data-cell="e5"]"#,
    );
    b.wait_count("#move-list .ply", 2);
    // Typed in short notation, or as the server reads moves.
    b.keys("#move-input", "Nf3\u{E007}");
    b.wait_count("#move-list .ply", 3);
    b.keys("#move-input", "b8c6\u{E007}");
    b.wait_count("#move-list .ply", 4);
    b.keys("#move-input", "Bb5\u{E007}");
    b.wait_count("#move-list .ply", 5);
    assert_eq!(shown_moves(&b), "e4 e5 Nf3 Nc6 Bb5");
    assert_eq!(b.text("#move-list li:first-child .num"), "1.");
    assert_eq!(b.all("#move-list li").len(), 3);
    // A refused move says why and changes nothing.
    b.keys("#move-input", "Ke3\u{E007}");
    b.wait_text_where("#message", "refused", |m| m.contains("refused"));
    assert_eq!(b.all("#move-list .ply").len(), 5);

    // Stepping back through the game, and forward again.
    b.click(r#"#move-list .ply[data-ply="2"]"#);
    b.wait_text_where("#status", "after move 2", |t| {
        t.starts_with("Looking at the game after move 2 of 5.")
    });
    b.wait_count(r#"#board .piece[data-cell="f3"]"#, 0);
    assert_eq!(b.all(r#"#board .piece[data-cell="e5"]"#).len(), 1);
    assert_eq!(b.all(r#"#move-list .ply.current[data-ply="2"]"#).len(), 1);
    b.keys("body", "\u{E014}");
    b.wait_text_where("#status", "after move 3", |t| {
        t.contains("after move 3 of 5")
    });
    b.click(r#"#move-list .ply[data-ply="5"]"#);
    b.wait_text("#status", "Black to move.");
    b.wait_count(r#"#board .piece[data-cell="b5"]"#, 1);

    // Flipped, the board turns and the letters stay upright.
    b.click("#flip");
    b.wait_one(r#"#board svg .pieces[transform^="rotate(180"]"#);
    assert!(b.url().contains("f=1"));
    click_move(&b, "a7", "a6", 6);
    b.click("#flip");
    b.wait_count(r#"#board svg .pieces[transform]"#, 0);
}

#[test]
fn the_file_watcher_never_replaces_the_game_a_url_asks_for() {
    let Some(b) = browser("the_file_watcher_never_replaces_the_game_a_url_asks_for") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/?v=shogi"));
    b.wait_count("#move-list .ply", 0);
    b.wait_count("#board .piece", 40);
    // A slow network: every answer takes 0.4 s, so the watcher looks (every half
    // second) while the page is still opening the next variant. Back arrives at a
    // game of chess with two moves.
    b.script(
        "const slow = window.fetch;\
         window.fetch = (url, how) => new Promise((r) => setTimeout(r, 400)).then(() => slow(url, how));\
         history.pushState(null, '', '?v=chess&m=e2e4+d7d5');\
         window.dispatchEvent(new PopStateEvent('popstate'));",
    );
    b.wait_count("#move-list .ply", 2);
    std::thread::sleep(std::time::Duration::from_secs(3));
    assert_eq!(b.all("#move-list .ply").len(), 2);
    assert_eq!(b.all(r#"#board .piece[data-cell="e4"]"#).len(), 1);
}

#[test]
fn the_game_lives_in_the_url() {
    let Some(b) = browser("the_game_lives_in_the_url") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/?v=chess"));
    b.wait_count("#board .piece", 32);
    click_move(&b, "e2", "e4", 1);
    click_move(&b, "e7", "e5", 2);
    let url = b.wait_url("with both moves", |u| u.ends_with("?v=chess&m=e2-e4+e7-e5"));
    let position = b.value("#position");
    // Reload keeps the game.
    b.refresh();
    b.wait_count("#move-list .ply", 2);
    assert_eq!(b.value("#position"), position);
    // Back and Forward step through it.
    b.back();
    b.wait_count("#move-list .ply", 1);
    assert_eq!(b.text("#status"), "Black to move.");
    b.forward();
    b.wait_count("#move-list .ply", 2);
    assert_eq!(b.value("#position"), position);
    // The link reproduces the game, with the tab named after the variant.
    b.goto(&s.url("/"));
    b.goto(&url);
    b.wait_count("#move-list .ply", 2);
    assert_eq!(b.value("#position"), position);
    assert_eq!(
        b.script("return document.title"),
        json!("Chess \u{2014} variantlab")
    );

    // A random setup: New game draws another; the seed box replays one.
    b.goto(&s.url("/?v=hexcetran-chess&seed=7"));
    b.wait_one("#board .piece");
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["setup", "variants/hexcetran-chess.var", "--seed", "7"])
        .current_dir(root())
        .output()
        .unwrap();
    let seven = String::from_utf8_lossy(&cli.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    b.wait_text_where("#status", "White to move", |t| !t.is_empty());
    assert_eq!(b.value("#position"), seven);
    assert_eq!(b.value("#seed"), "7");
    b.click("#new-game");
    b.wait_url("a new seed", |u| seed_of(u).is_some_and(|s| s != "7"));
    assert_ne!(b.value("#position"), seven);
    b.type_into("#seed", "7");
    b.click("#replay-seed");
    b.wait_url("seed 7", |u| seed_of(u) == Some("7"));
    assert_eq!(b.value("#position"), seven);
    b.click("#copy-position");
    b.wait_text("#message", "Copied the position string.");
}

/// The `seed` parameter of a page URL, whole (a new seed may begin with `7`).
fn seed_of(url: &str) -> Option<&str> {
    let query = url.split_once('?')?.1;
    query.split('&').find_map(|kv| kv.strip_prefix("seed="))
}

#[test]
fn check_captures_and_the_last_move_are_marked() {
    let Some(b) = browser("check_captures_and_the_last_move_are_marked") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/?v=chess&m=e2e4+d7d5"));
    b.wait_count("#move-list .ply", 2);
    // The pawn on e4 may take on d5 (a ring) or step to e5 (a dot).
    b.click(r#"#board .piece[data-cell="e4"]"#);
    b.wait_count("#board .target-mark", 2);
    assert_eq!(
        b.all(r#"#board .target-mark.capture[data-cell="d5"]"#)
            .len(),
        1
    );
    assert_eq!(
        b.all(r#"#board .target-mark.quiet[data-cell="e5"]"#).len(),
        1
    );
    b.click(r#"#board .piece[data-cell="e4"]"#);
    // Check: the King in check is marked, and the status says so.
    b.goto(&s.url("/?v=chess&m=e2e4+f7f6+d1h5"));
    b.wait_count(r#"#board .check[data-cell="e8"]"#, 1);
    assert_eq!(b.text("#status"), "Black to move, in check.");
    assert_eq!(shown_moves(&b), "e4 f6 Qh5+");
    // On hexagons the last move is outlined around the piece.
    b.goto(&s.url("/?v=glinski-chess"));
    b.wait_count("#board .piece", 36);
    b.keys("#move-input", "e5\u{E007}");
    b.wait_count("#move-list .ply", 1);
    b.wait_count("#board .overlay polygon.last-outline", 2);
    assert_eq!(
        b.all(r#"#board .last-outline[data-of="to"][data-cell="e5"]"#)
            .len(),
        1
    );
    // A promotion offers its choices as pieces on the cell.
    b.goto(&s.url("/?v=chess&p=4k3/P7/8/8/8/8/8/4K3+w+-+-+0+1"));
    b.wait_count("#board .piece", 3);
    b.click(r#"#board .piece[data-cell="a7"]"#);
    b.click(r#"#board .cell[data-cell="a8"]"#);
    b.wait_count("#choice button .disc", 4);
    let (cx, cy, _, _) = rect(&b, "#choice");
    let (ax, ay, aw, ah) = rect(&b, r#"#board .cell[data-cell="a8"]"#);
    assert!(
        (cx - ax).abs() < aw && (cy - ay).abs() < ah,
        "{cx},{cy} vs {ax},{ay}"
    );
    b.click(r#"#choice button[data-move="a7-a8=Q"]"#);
    b.wait_count("#move-list .ply", 1);
    assert_eq!(shown_moves(&b), "a8=Q+");
}

#[test]
fn boards_fit_the_window_and_a_phone_sees_the_board_first() {
    let Some(b) = browser("boards_fit_the_window_and_a_phone_sees_the_board_first") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.resize(1400, 900);
    let inner = number(b.script("return window.innerHeight"));
    for (id, pieces) in [("chess", 32), ("hexagonal-iss-jetan-12", 0)] {
        b.goto(&s.url(&format!("/?v={id}")));
        if pieces > 0 {
            b.wait_count("#board .piece", pieces);
        } else {
            b.wait_one("#board .piece");
        }
        let (_, top, w, h) = rect(&b, "#board svg");
        assert!(
            top + h <= inner + 1.0,
            "{id}: the board ends at {} of {inner}",
            top + h
        );
        assert!(w > 600.0 || h > 600.0, "{id}: {w}x{h}");
    }
    // With hands, both hands show beside the board within the window.
    b.goto(&s.url("/?v=shogi&m=7g7f+3c3d+8h2b%2B+3a2b"));
    b.wait_count("#board .piece", 38);
    b.wait_count(".hand img", 2);
    let (_, top, _, h) = rect(&b, "#hand-bottom");
    assert!(
        top + h <= inner + 1.0,
        "the hand ends at {} of {inner}",
        top + h
    );
    let (_, _, w, h) = rect(&b, "#board svg");
    assert!(w > 500.0 && h > 500.0, "shogi: {w}x{h}");
    b.goto(&s.url("/?v=chess&m=e2e4+e7e5+g1f3"));
    b.wait_count("#move-list .ply", 3);
    b.click(r#"#board .piece[data-cell="b8"]"#);
    b.click("#tab-file");
    b.wait_one("#problems li.fine");

    b.resize(390, 844);
    let (vw, vh) = (
        number(b.script("return window.innerWidth")),
        number(b.script("return window.innerHeight")),
    );
    b.goto(&s.url("/?v=shogi&m=7g7f+3c3d+8h2b%2B"));
    b.wait_count("#move-list .ply", 3);
    let (left, top, w, h) = rect(&b, "#board svg");
    assert!(left >= 0.0 && left + w <= vw + 0.5, "{left} {w} of {vw}");
    assert!(w >= 0.9 * vw, "the board is {w} px wide of {vw}");
    assert!(top + h <= vh, "the board ends at {} of {vh}", top + h);
    let (_, stop, _, sh) = rect(&b, "#status");
    assert!(
        stop >= 0.0 && stop + sh <= vh,
        "the status is at {stop} of {vh}"
    );
    assert_eq!(b.text("#status"), "White to move.");
    let (_, mtop, _, _) = rect(&b, "#move-list");
    assert!(mtop > top, "the board comes before the moves");
    save_screenshot(&b, "studio-phone.png");
}

#[test]
fn pieces_are_drawn_with_the_pictures_beside_the_file() {
    let Some(b) = browser("pieces_are_drawn_with_the_pictures_beside_the_file") else {
        return;
    };
    let dir = scratch("pictures", &["chess.var", "iss-jetan.var"]);
    let pictures = dir.join("chess.pieces");
    std::fs::create_dir_all(&pictures).unwrap();
    for f in std::fs::read_dir(root().join("assets/figures")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, pictures.join(f.file_name().unwrap())).unwrap();
    }
    // One picture too large to read: that piece keeps its letter, and the page says why.
    std::fs::write(pictures.join("black-Q.svg"), "<svg>".repeat(20_000)).unwrap();
    let s = Server::start(&[&dir]);
    b.goto(&s.url("/?v=chess"));
    b.wait_count("#board .piece image", 31);
    assert_eq!(b.all(r#"#board .piece[data-cell="d8"] image"#).len(), 0);
    assert_eq!(b.all(r#"#board .piece[data-cell="d8"] text"#).len(), 1);
    b.wait_text_where("#message", "the Queen's picture", |m| {
        m.contains("black-Q.svg")
    });
    let white = b.script(r#"return document.querySelector('#board .piece[data-cell="e1"] image').getAttribute('href')"#);
    let black = b.script(r#"return document.querySelector('#board .piece[data-cell="e8"] image').getAttribute('href')"#);
    assert!(
        white.as_str().unwrap().starts_with("data:image/svg+xml"),
        "{white}"
    );
    assert_ne!(white, black);
    // Dragging a picture plays as dragging a letter does.
    b.drag(
        r#"#board .piece[data-cell="g1"]"#,
        r#"#board .cell[data-cell="f3"]"#,
    );
    b.wait_count("#move-list .ply", 1);
    b.wait_one(r#"#board .piece[data-cell="f3"] image"#);
    // Without pictures, letters.
    b.goto(&s.url("/?v=iss-jetan"));
    b.wait_count("#board .piece text", 40);
    assert_eq!(b.all("#board .piece image").len(), 0);
}

/// Shogi after 7g7f 3c3d 8h2b+ 3a2b: each side has a Bishop in hand, Black to move.
const BISHOPS_IN_HAND: &str = "/?v=shogi&m=7g7f+3c3d+8h2b%2B+3a2b";

/// Opens [`BISHOPS_IN_HAND`] in a window of `size`.
fn open_bishops_in_hand(b: &Browser, s: &Server, (width, height): (u32, u32)) {
    b.resize(width, height);
    b.goto(&s.url(BISHOPS_IN_HAND));
    b.wait_count("#move-list .ply", 4);
}

#[test]
fn shogi_and_xiangqi_are_drawn_with_the_pictures_their_files_name() {
    let Some(b) = browser("shogi_and_xiangqi_are_drawn_with_the_pictures_their_files_name") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    for size in [(1400, 900), (390, 844)] {
        open_bishops_in_hand(&b, &s, size);
        // 38 pieces on the board, each a wedge; the hands show the same pictures.
        b.wait_count("#board .piece image", 38);
        assert_eq!(b.all("#board .piece text").len(), 0);
        let picture = |css: &str| {
            b.script(&format!(
                "return decodeURIComponent(document.querySelector({}).getAttribute({}))",
                json!(css),
                json!(if css.contains("img") { "src" } else { "href" })
            ))
            .as_str()
            .unwrap()
            .to_string()
        };
        // White's Bishop in hand is its wedge, turned; Black's points up; the board's
        // White Rook is turned the same way.
        let (white, black) = (
            picture("#hand-top button img"),
            picture("#hand-bottom button img"),
        );
        assert!(
            white.contains(">角<") && white.contains("rotate(180"),
            "{white}"
        );
        assert!(
            black.contains(">角<") && !black.contains("rotate(180"),
            "{black}"
        );
        let rook = picture(r#"#board .piece[data-cell="8b"] image"#);
        assert_eq!(rook.replace("飛", "角"), white);
        let (_, _, w, h) = rect(&b, "#hand-bottom button img");
        assert!(w >= 20.0 && h >= 20.0, "a picture in hand is {w}x{h}");
        // Wedges point at the opponent, so they turn with the board; figures stay upright.
        b.click("#flip");
        b.wait_url("the flipped board", |u| u.contains("f=1"));
        b.wait_count("#board .piece image", 38);
        assert_eq!(b.all("#board .piece image[transform]").len(), 0);
        b.click("#flip");
        b.wait_url("the board the right way up", |u| !u.contains("f=1"));
    }
    b.resize(1400, 900);
    b.goto(&s.url("/?v=xiangqi"));
    b.wait_count("#board .piece image", 32);
    b.goto(&s.url("/?v=chess&f=1"));
    b.wait_count("#board .piece image", 32);
    assert_eq!(
        b.all("#board .piece image[transform]").len(),
        32,
        "figures stay upright on a flipped board"
    );
}

#[test]
fn pieces_are_dropped_from_the_hand_by_clicking_or_dragging() {
    let Some(b) = browser("pieces_are_dropped_from_the_hand_by_clicking_or_dragging") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    for (width, height) in [(1400, 900), (390, 844)] {
        open_bishops_in_hand(&b, &s, (width, height));
        // Only the side to move's hand can be used.
        assert_eq!(b.all("#hand-top button:disabled").len(), 1);
        b.click(r#"#hand-bottom button[data-piece="Bishop"]"#);
        b.wait_one("#hand-bottom button.active");
        // A Bishop may be dropped on any of the 81 - 38 = 43 empty cells.
        b.wait_count("#board .target-mark", 43);
        assert_eq!(
            b.all(r#"#board .target-mark[data-cell="7f"]"#).len(),
            0,
            "7f holds a Pawn"
        );
        // Clicking the piece again lets it go.
        b.click(r#"#hand-bottom button[data-piece="Bishop"]"#);
        b.wait_count("#board .target-mark", 0);
        b.click(r#"#hand-bottom button[data-piece="Bishop"]"#);
        b.wait_count("#board .target-mark", 43);
        b.click(r#"#board .cell[data-cell="5e"]"#);
        b.wait_count("#move-list .ply", 5);
        assert!(played(&b).ends_with("B*5e"), "{}", played(&b));
        b.wait_one(r#"#board .piece[data-cell="5e"] image"#);
        b.wait_count("#hand-bottom button", 0);
        // White drags its Bishop from the hand onto 5f.
        b.drag(
            r#"#hand-top button[data-piece="Bishop"]"#,
            r#"#board .cell[data-cell="5f"]"#,
        );
        b.wait_count("#move-list .ply", 6);
        assert!(played(&b).ends_with("B*5f"), "{}", played(&b));
        b.wait_one(r#"#board .piece[data-cell="5f"][data-player="White"] image"#);
        assert_eq!(b.all("#hand-ghost").len(), 0);
        if width == 1400 {
            // The README's picture: a piece in White's hand (above the board) chosen,
            // its drop cells marked: 81 - 39 = 42.
            b.goto(&s.url(&format!("{BISHOPS_IN_HAND}+B%2A5e")));
            b.wait_count("#move-list .ply", 5);
            b.click(r#"#hand-top button[data-piece="Bishop"]"#);
            b.wait_count("#board .target-mark", 42);
            b.click("#tab-file");
            b.wait_one("#problems li.fine");
            b.script("window.scrollTo(0, 0)");
            save_screenshot(&b, "studio.png");
        }
    }
}
