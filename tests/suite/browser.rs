//! The page in a real headless Chromium, driven through WebDriver: pick a variant, look
//! at a footprint, play by clicking, undo. Skipped with a message when no Chromium is
//! installed, except under CI, where a missing browser fails.
//!
//! `VARIANTLAB_SCREENSHOT=PATH` saves a picture of the page mid-game (the README's).

use crate::common;

use common::server::Server;
use common::webdriver::{Browser, find_chromium};
use common::{skip, tools_required};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub fn browser(test: &str) -> Option<Browser> {
    browser_with(test, &[])
}

/// The moves of the page's list, in the notation the server reads, space-separated.
pub fn played(b: &Browser) -> String {
    b.script("return [...document.querySelectorAll('#move-list .ply')].map((e) => e.dataset.move).join(' ')")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The moves of the page's list as shown, space-separated.
pub fn shown_moves(b: &Browser) -> String {
    b.script("return [...document.querySelectorAll('#move-list .ply')].map((e) => e.textContent).join(' ')")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn browser_with(test: &str, extra: &[String]) -> Option<Browser> {
    match find_chromium() {
        Some((b, d)) => Some(Browser::start_with(&b, &d, extra)),
        None if tools_required() => panic!(
            "CI needs Chromium and chromedriver (Debian: apt-get install chromium chromium-driver)"
        ),
        None => {
            skip(test, "no chromium and chromedriver found");
            None
        }
    }
}

#[test]
fn iss_jetan_is_explored_and_played_by_clicking() {
    let Some(b) = browser("iss_jetan_is_explored_and_played_by_clicking") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/"));
    b.click(r#"#variants button[data-variant="iss-jetan"]"#);
    b.wait_count("#board .piece", 40);
    b.wait_text("#status", "Black to move.");
    let start = b.value("#position");

    // The Thoat's footprint: the 8 cells a knight's move away and its 4 neighbours.
    b.click(r#"#pieces button[data-piece="Thoat"]"#);
    b.wait_count("#board [data-mark]", 12);
    assert_eq!(b.all("#board .piece").len(), 1);
    assert!(b.text("#view-title").contains("12 cells"));
    b.click("#back");
    b.wait_count("#board .piece", 40);
    assert_eq!(b.all("#board [data-mark]").len(), 0);

    // A Panthan on e2 may go forward or diagonally forward: three marked cells.
    b.click(r#"#board .piece[data-cell="e2"]"#);
    b.wait_count("#board .cell.target", 3);
    for to in ["d3", "e3", "f3"] {
        assert_eq!(
            b.all(&format!(r#"#board .cell.target[data-cell="{to}"]"#))
                .len(),
            1
        );
    }
    b.click(r#"#board .cell[data-cell="e3"]"#);
    b.wait_text("#status", "Orange to move.");
    b.wait_count(r#"#board .piece[data-cell="e3"]"#, 1);
    assert_eq!(b.all(r#"#board .piece[data-cell="e2"]"#).len(), 0);
    let first = b.value("#position");
    assert_ne!(first, start);

    b.click(r#"#board .piece[data-cell="e9"]"#);
    b.wait_count("#board .cell.target", 3);
    b.click(r#"#board .cell[data-cell="e8"]"#);
    b.wait_text("#status", "Black to move.");
    let second = b.value("#position");
    assert_ne!(second, first);

    // The Thoat jumps from a2 over the Panthans.
    b.click(r#"#board .piece[data-cell="a2"]"#);
    b.click(r#"#board .cell[data-cell="b4"]"#);
    b.wait_text("#status", "Orange to move.");
    b.wait_count(r#"#board .piece[data-cell="b4"]"#, 1);
    b.wait_count("#move-list .ply", 3);
    assert_eq!(played(&b), "e2-e3 e9-e8 a2-b4");
    // Panthans on d2 and f2 reach e3 too: the file says which.
    assert_eq!(shown_moves(&b), "PNee3 PNee8 THb4");
    assert_eq!(b.all(r#"#board [data-last="to"][data-cell="b4"]"#).len(), 1);
    if let Some(path) = std::env::var_os("VARIANTLAB_SCREENSHOT") {
        b.click(r#"#board .piece[data-cell="f9"]"#);
        b.wait_count("#board .cell.target", 3);
        std::fs::write(path, b.screenshot()).expect("writes the screenshot");
        b.click(r#"#board .piece[data-cell="f9"]"#);
    }

    // Undo takes the Thoat back; the board and the position string follow.
    b.click("#undo");
    b.wait_text("#status", "Black to move.");
    b.wait_count(r#"#board .piece[data-cell="a2"]"#, 1);
    assert_eq!(b.all(r#"#board .piece[data-cell="b4"]"#).len(), 0);
    assert_eq!(b.value("#position"), second);
    assert_eq!(b.all("#move-list .ply").len(), 2);

    // The same moves through the API give the same position string.
    let (_, g) = s.json("POST", "/api/games", Some(r#"{"variant": "iss-jetan"}"#));
    let id = g["id"].as_str().unwrap().to_string();
    for m in ["e2-e3", "e9-e8"] {
        s.json(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&format!(r#"{{"move": "{m}"}}"#)),
        );
    }
    assert_eq!(
        s.json("GET", &format!("/api/games/{id}"), None).1["position"],
        second.as_str()
    );

    // An illegal click changes nothing: a cell the selected piece cannot reach.
    b.click(r#"#board .piece[data-cell="a2"]"#);
    b.click(r#"#board .cell[data-cell="a5"]"#);
    b.wait_count("#board .cell.target", 0);
    assert_eq!(b.value("#position"), second);

    // A new game starts over.
    b.click("#new-game");
    b.wait_count("#move-list .ply", 0);
    assert_eq!(b.value("#position"), start);
}

#[test]
fn a_broken_file_shows_its_diagnostics() {
    let Some(b) = browser("a_broken_file_shows_its_diagnostics") else {
        return;
    };
    let s = Server::start(&[Path::new("variants/invalid/unknown-piece.var")]);
    b.goto(&s.url("/#unknown-piece"));
    b.wait_text_where("#diagnostics-text", "the unknown_piece diagnostic", |t| {
        t.contains("variantlab::unknown_piece")
    });
    b.wait_text_where("#diagnostics-title", "... does not check", |t| {
        t.ends_with("does not check")
    });
}

#[test]
fn a_game_from_a_position_ends_with_its_result() {
    let Some(b) = browser("a_game_from_a_position_ends_with_its_result") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/#iss-jetan"));
    b.wait_count("#board .piece", 40);
    // A broken position string is refused with the reason; the game goes on.
    b.type_into("#position", "ch9/10");
    b.click("#start-here");
    let why = b.wait_text_where("#message", "bad position: ...", |t| {
        t.starts_with("bad position:")
    });
    assert!(why.contains("10"), "{why}");
    b.wait_count("#board .piece", 40);
    // Black's Panthan takes the Orange Princess.
    b.type_into("#position", "ch9/10/10/10/10/4pr5/4PN5/10/10/PR8CH b - 0 1");
    b.click("#start-here");
    b.wait_count("#board .piece", 5);
    b.wait_text("#status", "Black to move.");
    b.click(r#"#board .piece[data-cell="e4"]"#);
    b.click(r#"#board .piece[data-cell="e5"]"#);
    b.wait_count("#board .piece", 4);
    b.wait_text_where("#status", "Game over: Black wins: ...", |t| {
        t.starts_with("Game over: Black wins: ")
    });
    // No more moves: clicking a piece marks nothing.
    b.click(r#"#board .piece[data-cell="a10"]"#);
    b.click(r#"#board .piece[data-cell="e5"]"#);
    assert_eq!(b.all("#board .cell.target").len(), 0);
    b.click("#undo");
    b.wait_text("#status", "Black to move.");

    // Glinski's stalemate: the stalemating side scores 3/4.
    b.goto(&s.url("/"));
    b.click(r#"#variants button[data-variant="glinski-chess"]"#);
    b.wait_count("#board .piece", 36);
    b.type_into("#position", "5k/7/5K2/9/10/11/10/9/8/7/6 b - 0 1");
    b.click("#start-here");
    b.wait_count("#board .piece", 2);
    b.wait_text(
        "#status",
        "Game over: White scores 3/4, Black scores 1/4: Black is stalemated.",
    );
}

#[test]
fn hexagonal_cells_are_clicked_like_squares() {
    let Some(b) = browser("hexagonal_cells_are_clicked_like_squares") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/"));
    b.click(r#"#variants button[data-variant="hexagonal-iss-jetan"]"#);
    b.wait_count("#board .piece", 44);
    // The page's hexagonal Thoat diagram marks 18 cells.
    b.click(r#"#pieces button[data-piece="Thoat"]"#);
    b.wait_count("#board [data-mark]", 18);
    b.click("#back");
    b.wait_count("#board .piece", 44);
    // The piece on c1 has two moves: a2 and c3.
    b.click(r#"#board .piece[data-cell="c1"]"#);
    b.wait_count("#board .cell.target", 2);
    assert_eq!(
        b.all(r#"#board polygon.cell.target[data-cell="a2"]"#).len(),
        1
    );
    b.click(r#"#board .cell[data-cell="c3"]"#);
    b.wait_text("#status", "Orange to move.");
    b.wait_count(r#"#board .piece[data-cell="c3"]"#, 1);
    assert_eq!(played(&b), "c1-c3");
}

#[test]
fn a_captured_piece_is_dropped_from_hand_by_clicking() {
    let Some(b) = browser("a_captured_piece_is_dropped_from_hand_by_clicking") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/#shogi"));
    b.wait_count("#board .piece", 40);
    b.wait_text("#status", "Black to move.");
    assert_eq!(b.all(".hands button").len(), 0);
    b.click(r#"#board .piece[data-cell="7g"]"#);
    b.click(r#"#board .cell[data-cell="7f"]"#);
    b.wait_text("#status", "White to move.");
    b.click(r#"#board .piece[data-cell="3c"]"#);
    b.click(r#"#board .cell[data-cell="3d"]"#);
    b.wait_text("#status", "Black to move.");
    // The Bishop takes on 2b, where it may promote or not: the page asks.
    b.click(r#"#board .piece[data-cell="8h"]"#);
    b.click(r#"#board .piece[data-cell="2b"]"#);
    b.wait_count("#choice button", 2);
    b.click(r#"#choice button[data-move="8h2b+"]"#);
    b.wait_text("#status", "White to move.");
    b.wait_count(
        r#".hands .hand[data-player="Black"] button[data-piece="Bishop"]"#,
        1,
    );
    // Only the side to move may drop: White's turn, Black's Bishop is not clickable.
    b.click(r#".hands .hand[data-player="Black"] button[data-piece="Bishop"]"#);
    assert_eq!(b.all("#board .cell.target").len(), 0);
    b.click(r#"#board .piece[data-cell="3a"]"#);
    b.click(r#"#board .piece[data-cell="2b"]"#);
    b.wait_text("#status", "Black to move.");
    b.wait_count(
        r#".hands .hand[data-player="White"] button[data-piece="Bishop"]"#,
        1,
    );
    // The Bishop in hand may go to any of the 43 empty cells.
    b.click(r#".hands .hand[data-player="Black"] button[data-piece="Bishop"]"#);
    b.wait_count("#board .cell.target", 43);
    b.click(r#"#board .cell[data-cell="5e"]"#);
    b.wait_text("#status", "White to move.");
    b.wait_count(r#"#board .piece[data-cell="5e"]"#, 1);
    assert_eq!(played(&b), "7g7f 3c3d 8h2b+ 3a2b B*5e");
    assert_eq!(shown_moves(&b), "P-7f P-3d Bx2b+ Sx2b B*5e");
    assert_eq!(
        b.all(r#".hands .hand[data-player="Black"] button"#).len(),
        0
    );
}

#[test]
fn a_piece_in_hand_is_dropped_either_side_up_by_choosing() {
    let Some(b) = browser("a_piece_in_hand_is_dropped_either_side_up_by_choosing") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/#kyotoshogi"));
    b.wait_count("#board .piece", 10);
    b.wait_text("#status", "Black to move.");
    // Every move turns the piece over, so each click pair is one move.
    // (A capture is clicked on the piece taken.)
    for (from, to, after) in [
        ("1e", ".cell[data-cell=\"1d\"]", "White"),
        ("5a", ".cell[data-cell=\"5b\"]", "Black"),
        ("1d", ".piece[data-cell=\"1a\"]", "White"),
        ("5b", ".cell[data-cell=\"5c\"]", "Black"),
    ] {
        b.click(&format!(r#"#board .piece[data-cell="{from}"]"#));
        b.click(&format!("#board {to}"));
        b.wait_text("#status", &format!("{after} to move."));
    }
    // The Lance taken on 1a may land as a Lance or as its Gold side: the page asks.
    b.click(r#".hands .hand[data-player="Black"] button[data-piece="Lance"]"#);
    b.click(r#"#board .cell[data-cell="3c"]"#);
    b.wait_count("#choice button", 2);
    // Each choice shows the piece as it would land.
    assert_eq!(b.all("#choice button .disc.picture").len(), 2);
    b.click(r#"#choice button[data-move="+L*3c"]"#);
    b.wait_text("#status", "White to move.");
    assert_eq!(played(&b), "1e1d+ 5a5b+ 1d1a- 5b5c- +L*3c");
    let shown = b
        .script("return document.querySelector('#board .piece[data-cell=\"3c\"]').dataset.piece")
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_eq!(shown, "LanceGold");
}

/// A second origin for the tests: serves one page for every request, on 127.0.0.1 on
/// its own port, to at most 50 connections within a minute; stopped when dropped.
struct OtherSite {
    address: String,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl OtherSite {
    fn start(html: String) -> OtherSite {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let halt = stop.clone();
        let thread = std::thread::spawn(move || {
            let end = Instant::now() + Duration::from_secs(60);
            let mut served = 0;
            while !halt.load(Ordering::Relaxed) && Instant::now() < end && served < 50 {
                let Ok((mut c, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                };
                served += 1;
                let _ = c.set_nonblocking(false);
                let _ = c.set_read_timeout(Some(Duration::from_secs(2)));
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 65536 {
                    match c.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let _ = write!(
                    c,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{html}",
                    html.len()
                );
            }
        });
        OtherSite {
            address,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for OtherSite {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A page of another origin, or a name made to point at the server (DNS rebinding),
/// cannot play in the user's game, start one, or read one, even knowing its id.
#[test]
fn a_page_of_another_origin_cannot_play_or_read() {
    let rules = "--host-resolver-rules=MAP rebound.test 127.0.0.1".to_string();
    let Some(b) = browser_with("a_page_of_another_origin_cannot_play_or_read", &[rules]) else {
        return;
    };
    let s = Server::start(&[Path::new("variants/chess.var")]);
    let (_, g) = s.json("POST", "/api/games", Some(r#"{"variant": "chess"}"#));
    let game = g["id"].as_str().unwrap().to_string();
    let page = r#"<!doctype html><html><body><pre id="out"></pre><script>
const target = 'http://SERVER';
const game = 'GAME';
const out = [];
async function attempt(name, path, init) {
  try {
    const r = await fetch(target + path, init);
    out.push(name + ' ' + r.status + ' ' + (await r.text()).slice(0, 40));
  } catch (e) {
    out.push(name + ' failed');
  }
}
(async () => {
  const move = JSON.stringify({ move: 'e2-e4' });
  const moves = '/api/games/' + game + '/moves';
  const plain = { 'Content-Type': 'text/plain' };
  await attempt('simple', moves, { method: 'POST', headers: plain, body: move });
  await attempt('opaque', moves, { method: 'POST', mode: 'no-cors', headers: plain, body: move });
  await attempt('token', moves, { method: 'POST', headers: { 'X-Variantlab-Token': 'guess' }, body: move });
  await attempt('new', '/api/games', { method: 'POST', mode: 'no-cors', headers: plain, body: '{"variant": "chess"}' });
  await attempt('read', '/api/games/' + game, {});
  document.getElementById('out').textContent = out.join('\n');
})();
</script></body></html>"#
        .replace("SERVER", &s.address)
        .replace("GAME", &game);
    let other = OtherSite::start(page);
    b.goto(&format!("http://{}/", other.address));
    let out = b.wait_text_where("#out", "five attempts", |t| t.lines().count() == 5);
    // The browser sends each write (no preflight for text/plain) and the server
    // refuses it; nothing reads the answers.
    for line in out.lines() {
        assert!(
            line.ends_with("failed") || line.starts_with("opaque 0") || line.starts_with("new 0"),
            "{out}"
        );
    }
    let (_, g) = s.json("GET", &format!("/api/games/{game}"), None);
    assert_eq!(g["moves"], serde_json::json!([]), "{out}");
    // A name that resolves here: the server answers nothing but a refusal.
    let port = s.address.rsplit(':').next().unwrap();
    for path in ["/".to_string(), format!("/api/games/{game}")] {
        b.goto(&format!("http://rebound.test:{port}{path}"));
        let shown = b.wait_text_where("body", "a refusal", |t| !t.is_empty());
        assert!(
            shown.contains("this server answers to localhost"),
            "{path}: {shown}"
        );
        assert!(
            !shown.contains(&s.token) && !shown.contains("position"),
            "{shown}"
        );
    }
    // The page served here still plays: it carries the token.
    b.goto(&s.url("/#chess"));
    b.wait_count("#board .piece", 32);
    b.click(r#"#board .piece[data-cell="e2"]"#);
    b.click(r#"#board .cell[data-cell="e4"]"#);
    b.wait_count("#move-list .ply", 1);
}

#[test]
fn a_move_and_its_wall_are_played_by_two_clicks() {
    let Some(b) = browser("a_move_and_its_wall_are_played_by_two_clicks") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/"));
    b.click(r#"#variants button[data-variant="amazons"]"#);
    b.wait_count("#board .piece", 8);
    b.wait_text("#status", "White to move.");
    b.click(r#"#board .piece[data-cell="d1"]"#);
    b.click(r#"#board .cell[data-cell="d4"]"#);
    // The second stage: the arrow's cells from d4, d1 among them, d4 itself not.
    b.wait_count(r#"#board .wall-target[data-cell="d1"]"#, 1);
    assert_eq!(b.all(r#"#board .wall-target[data-cell="d4"]"#).len(), 0);
    b.click(r#"#board .cell[data-cell="d7"]"#);
    b.wait_text("#status", "Black to move.");
    b.wait_count(r#"#board .piece[data-cell="d4"]"#, 1);
    b.wait_count(r#"#board rect.wall[data-cell="d7"]"#, 1);
    assert_eq!(played(&b), "d1-d4,d7");
}

#[test]
fn the_duck_is_moved_by_a_second_click() {
    let Some(b) = browser("the_duck_is_moved_by_a_second_click") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/#duck"));
    b.wait_count("#board .piece", 32);
    b.wait_text("#status", "White to move.");
    b.click(r#"#board .piece[data-cell="e2"]"#);
    b.click(r#"#board .cell[data-cell="e4"]"#);
    // The duck may go to any empty cell: e2, left empty by the move, is one of them,
    // e4 is not.
    b.wait_count(r#"#board .wall-target[data-cell="e2"]"#, 1);
    assert_eq!(b.all(r#"#board .wall-target[data-cell="e4"]"#).len(), 0);
    assert_eq!(b.all("#board .wall-target").len(), 32);
    b.click(r#"#board .cell[data-cell="d5"]"#);
    b.wait_text("#status", "Black to move.");
    b.wait_count(r#"#board rect.wall[data-cell="d5"]"#, 1);
    // Black's move lifts the duck and puts it down elsewhere.
    b.click(r#"#board .piece[data-cell="d7"]"#);
    b.click(r#"#board .cell[data-cell="d6"]"#);
    b.wait_count(r#"#board .wall-target[data-cell="d7"]"#, 1);
    assert_eq!(b.all(r#"#board .wall-target[data-cell="d5"]"#).len(), 0);
    b.click(r#"#board .cell[data-cell="e2"]"#);
    b.wait_text("#status", "White to move.");
    b.wait_count(r#"#board rect.wall[data-cell="e2"]"#, 1);
    assert_eq!(b.all("#board rect.wall").len(), 1);
    assert_eq!(played(&b), "e2-e4,d5 d7-d6,e2");
}

#[test]
fn a_chess960_king_castles_by_clicking_its_own_rook() {
    let Some(b) = browser("a_chess960_king_castles_by_clicking_its_own_rook") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    // The King on g1 castles with the h1 Rook without moving: only a click on the Rook
    // can say so.
    b.goto(&s.url("/?v=fischerandom&p=1r4kr/8/8/8/8/8/8/1R4KR%20w%20HBhb%20-%200%201"));
    b.wait_text("#status", "White to move.");
    b.click(r#"#board .piece[data-cell="g1"]"#);
    b.wait_count(r#"#board .target-mark[data-cell="h1"]"#, 1);
    b.wait_count(r#"#board .target-mark[data-cell="b1"]"#, 1);
    b.click(r#"#board .piece[data-cell="h1"]"#);
    b.wait_text("#status", "Black to move.");
    b.wait_count(r#"#board .piece[data-cell="f1"]"#, 1);
    assert_eq!(b.all(r#"#board .piece[data-cell="h1"]"#).len(), 0);
    assert_eq!(b.all(r#"#board .piece[data-cell="g1"]"#).len(), 1);
    assert_eq!(played(&b), "g1-h1");
}

#[test]
fn a_seirawan_piece_is_brought_in_through_a_gate_by_clicking() {
    let Some(b) = browser("a_seirawan_piece_is_brought_in_through_a_gate_by_clicking") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/?v=seirawan"));
    b.wait_text("#status", "White to move.");
    // b1 to c3: the plain move, or with the Hawk or the Elephant brought onto b1.
    b.click(r#"#board .piece[data-cell="b1"]"#);
    b.click(r#"#board .cell[data-cell="c3"]"#);
    b.wait_count("#choice button", 3);
    // Each choice is named by its short text, which says what comes in.
    let label = b
        .script("return document.querySelector('#choice button[data-move=\"b1c3h\"]').textContent")
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(label.contains("Nc3/H"), "{label}");
    b.click(r#"#choice button[data-move="b1c3h"]"#);
    b.wait_text("#status", "Black to move.");
    let piece = |cell: &str| {
        b.script(&format!(
            "const p = document.querySelector('#board .piece[data-cell=\"{cell}\"]'); return p ? p.dataset.piece : ''"
        ))
        .as_str()
        .unwrap_or_default()
        .to_string()
    };
    assert_eq!(piece("b1"), "Hawk");
    assert_eq!(piece("c3"), "Knight");
    // A castling offers its pieces brought onto the King's start or the Rook's.
    b.goto(&s.url(
        "/?v=seirawan&p=r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R%5BEHeh%5D%20w%20KQkq%20-%200%201",
    ));
    b.wait_text("#status", "White to move.");
    b.click(r#"#board .piece[data-cell="e1"]"#);
    b.click(r#"#board .cell[data-cell="g1"]"#);
    b.wait_count("#choice button", 5);
    b.click(r#"#choice button[data-move="h1e1h"]"#);
    b.wait_text("#status", "Black to move.");
    assert_eq!(
        [piece("e1"), piece("f1"), piece("g1"), piece("h1")],
        ["", "Rook", "King", "Hawk"].map(String::from)
    );
}

/// Omega Chess's corner cells beyond the board are drawn, clicked and played like any
/// other, at desktop and phone sizes.
#[test]
fn omega_chess_wizards_leave_their_corner_cells_by_clicking() {
    let Some(b) = browser("omega_chess_wizards_leave_their_corner_cells_by_clicking") else {
        return;
    };
    let s = Server::start(&[Path::new("variants/omega.var")]);
    for (width, height) in [(1400, 900), (390, 844)] {
        b.resize(width, height);
        b.goto(&s.url("/?v=omega"));
        b.wait_count("#board .piece", 44);
        for corner in ["w1", "w2", "w3", "w4"] {
            assert_eq!(
                b.all(&format!(r#"#board .piece[data-cell="{corner}"]"#))
                    .len(),
                1,
                "{corner} at {width}x{height}"
            );
        }
        // The scheme labels the files and ranks 0 to 9; the corner cells carry none.
        let mut labels: Vec<String> = b
            .script("return [...document.querySelectorAll('#board .labels text')].map((e) => e.textContent).join(' ')")
            .as_str()
            .unwrap_or_default()
            .split(' ')
            .map(str::to_string)
            .collect();
        labels.sort();
        let mut want: Vec<String> = ('a'..='j')
            .map(String::from)
            .chain((0..=9).map(|n| n.to_string()))
            .collect();
        want.sort();
        assert_eq!(labels, want, "{width}x{height}");
        // From w1 the Wizard's one move is its Camel leap to a2.
        b.click(r#"#board .piece[data-cell="w1"]"#);
        b.wait_count("#board .cell.target", 1);
        b.click(r#"#board .cell[data-cell="a2"]"#);
        b.wait_text("#status", "Black to move.");
        assert_eq!(played(&b), "w1-a2");
        assert_eq!(b.all(r#"#board .piece[data-cell="w1"]"#).len(), 0);
        if let Some(dir) = std::env::var_os("VARIANTLAB_OMEGA_SHOTS") {
            let path = Path::new(&dir).join(format!("omega-{width}x{height}.png"));
            std::fs::write(path, b.screenshot()).expect("writes the screenshot");
        }
        b.click("#new-game");
        b.wait_count("#move-list .ply", 0);
    }
}

#[test]
fn a_chu_shogi_lion_takes_twice_and_passes_by_clicking() {
    let Some(b) = browser("a_chu_shogi_lion_takes_twice_and_passes_by_clicking") else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    // At a phone's size.
    b.resize(390, 844);
    b.goto(&s.url("/#chu-shogi"));
    b.wait_count("#board .piece", 92);
    // Black's Lion on 6f, White's Pawn on 6e and Gold on 6d, the Kings far away; a
    // second White Pawn on 1a keeps its King from standing bare.
    b.type_into(
        "#position",
        "k10p/12/12/6g5/6p5/6N5/12/12/12/12/12/11K b - 1",
    );
    b.click("#start-here");
    b.wait_count("#board .piece", 6);
    // To 6d the Lion may leap, or take the Pawn on its way: the page asks which.
    b.click(r#"#board .piece[data-cell="6f"]"#);
    b.click(r#"#board .piece[data-cell="6d"]"#);
    b.wait_count("#choice button", 2);
    // On a phone's width the choice stays on the board.
    let inside = b.script(
        "const c = document.querySelector('#choice').getBoundingClientRect(); \
         const w = document.querySelector('#board-wrap').getBoundingClientRect(); \
         return c.left >= w.left && c.right <= w.right + 1",
    );
    assert_eq!(inside.as_bool(), Some(true));
    b.click(r#"#choice button[data-move="6f6e6d"]"#);
    b.wait_text("#status", "White to move.");
    b.wait_count("#board .piece", 4);
    b.click(r#"#board .piece[data-cell="12a"]"#);
    b.click(r#"#board .cell[data-cell="12b"]"#);
    b.wait_text("#status", "Black to move.");
    // A second click on the Lion offers its pass rather than making it.
    b.click(r#"#board .piece[data-cell="6d"]"#);
    b.click(r#"#board .piece[data-cell="6d"]"#);
    b.wait_count("#choice button", 1);
    b.click("#choice button");
    b.wait_text("#status", "White to move.");
    let moves = played(&b);
    let last = moves.split(' ').next_back().unwrap_or_default().to_string();
    assert!(moves.starts_with("6f6e6d 12a12b "), "{moves}");
    assert!(
        last.len() == 6 && last.starts_with("6d") && last.ends_with("6d"),
        "{moves}"
    );
    b.wait_count(r#"#board .piece[data-cell="6d"]"#, 1);
}

#[test]
fn draughts_and_tafl_are_drawn_as_their_players_know_them_and_played_by_clicking() {
    let Some(b) =
        browser("draughts_and_tafl_are_drawn_as_their_players_know_them_and_played_by_clicking")
    else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    let shot = |name: &str| {
        if let Some(dir) = std::env::var_os("VARIANTLAB_BOARD_SHOTS") {
            std::fs::write(Path::new(&dir).join(format!("{name}.png")), b.screenshot())
                .expect("writes the screenshot");
        }
    };
    b.resize(390, 844);
    // Checkers on the whole board, its 32 dark squares numbered; 11-15 by two clicks.
    b.goto(&s.url("/#checkers"));
    b.wait_count("#board .piece", 24);
    assert_eq!(b.all("#board .hole").len(), 32);
    assert_eq!(b.all("#board .number").len(), 32);
    b.click(r#"#board .piece[data-cell="f6"]"#);
    b.click(r#"#board .cell[data-cell="e5"]"#);
    b.wait_text("#status", "White to move.");
    assert_eq!(shown_moves(&b), "11-15");
    shot("checkers");
    // Copenhagen Hnefatafl with its throne and corners marked; an Attacker moves.
    b.resize(1400, 900);
    b.goto(&s.url("/#copenhagen"));
    b.wait_count("#board .piece", 37);
    assert_eq!(b.all("#board .special").len(), 5);
    b.click(r#"#board .piece[data-cell="d1"]"#);
    b.click(r#"#board .cell[data-cell="d3"]"#);
    b.wait_text("#status", "White to move.");
    assert_eq!(played(&b), "d1-d3");
    shot("copenhagen");
}
