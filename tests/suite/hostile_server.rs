//! The server under attacks of the third round: slow readers of big answers,
//! computer games left behind, saves racing each other, writes from other machines,
//! pictures that lead out of their folder, and what the cache keeps.

use crate::common::server::{Server, request_with};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{IpAddr, TcpStream, UdpSocket};
use std::path::Path;
use std::time::{Duration, Instant};

fn scratch(name: &str, files: &[&str]) -> crate::common::Scratch {
    crate::common::scratch(&format!("hostile-server-{name}"), files)
}

/// A request that needs one of the server's workers, answered within `limit`.
fn worker_answers_within(s: &Server, limit: Duration, why: &str) {
    let t = Instant::now();
    let (status, _) = s.call("GET", "/api/variants", None);
    assert_eq!(status, 200, "{why}");
    assert!(t.elapsed() < limit, "{why}: {:?}", t.elapsed());
}

/// The page itself, answered within `limit`.
fn page_answers_within(s: &Server, limit: Duration, why: &str) {
    let t = Instant::now();
    let (status, _) = s.call("GET", "/", None);
    assert_eq!(status, 200, "{why}");
    assert!(t.elapsed() < limit, "{why}: {:?}", t.elapsed());
}

/// Sends a whole POST with the token and returns the connection unread.
fn post_unread(s: &Server, path: &str, body: &str) -> TcpStream {
    let mut t = TcpStream::connect(&s.address).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {}\r\nX-Variantlab-Token: {}\r\nContent-Length: {}\r\n\r\n",
        s.address,
        s.token,
        body.len()
    );
    t.write_all(head.as_bytes()).unwrap();
    t.write_all(body.as_bytes()).unwrap();
    t
}

/// A chess file with `n` more pieces, each using a code already taken and moving
/// nowhere: an error and a warning each.
fn duplicate_codes(n: usize) -> String {
    let mut text = std::fs::read_to_string("variants/chess.var").unwrap();
    for i in 0..n {
        text.push_str(&format!("piece E{i} (Q) {{}}\n"));
    }
    text
}

#[test]
fn slow_readers_of_big_checks_hold_no_worker_and_answers_are_capped() {
    let s = Server::start(&[Path::new("variants/chess.var")]);
    let text = duplicate_codes(2900);
    let body = json!({ "text": text }).to_string();
    assert!(body.len() < 64 * 1024, "{} bytes", body.len());
    // The answer is capped: the first 200 diagnostics and how many more.
    let (status, v) = s.json("POST", "/api/variants/chess/check", Some(&body));
    assert_eq!(status, 200);
    let listed = v["diagnostics"].as_array().unwrap().len();
    assert_eq!(listed, 200, "{}", v["errors"]);
    assert!(v["errors"].as_u64().unwrap() >= 2900, "{}", v["errors"]);
    assert_eq!(v["more"].as_u64().unwrap() as usize + listed, {
        (v["errors"].as_u64().unwrap() + v["warnings"].as_u64().unwrap()) as usize
    });
    assert!(v["rendered"].as_str().unwrap().contains("more not shown"));
    let size = v.to_string().len();
    assert!(size < 400_000, "an answer of {size} bytes");
    // Eight clients ask for it and read 1 KiB now and then: everyone else is answered.
    let mut slow: Vec<TcpStream> = (0..8)
        .map(|_| post_unread(&s, "/api/variants/chess/check", &body))
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    let mut buf = [0u8; 1024];
    for round in 0..3 {
        for c in &mut slow {
            c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            assert!(c.read(&mut buf).unwrap() > 0);
        }
        page_answers_within(&s, Duration::from_secs(2), &format!("round {round}"));
        worker_answers_within(&s, Duration::from_secs(3), &format!("round {round}"));
    }
}

#[test]
fn computer_games_left_behind_stop_thinking_and_levels_are_timed() {
    let s = Server::start(&[Path::new("variants/amazons.var")]);
    // One level-6 reply is cut by its time, not left to run a minute.
    let body = json!({"variant": "amazons", "computer": "White", "level": 6}).to_string();
    let t = Instant::now();
    let (status, g) = s.json("POST", "/api/games", Some(&body));
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), 1, "{g}");
    assert!(t.elapsed() < Duration::from_secs(12), "{:?}", t.elapsed());
    // Eight clients start level-6 games and hang up at once: the searches stop, and
    // the workers are free again well within the time one search may take.
    let left: Vec<TcpStream> = (0..8)
        .map(|_| post_unread(&s, "/api/games", &body))
        .collect();
    // Thinking now, each for up to 3.2 s.
    std::thread::sleep(Duration::from_millis(500));
    page_answers_within(&s, Duration::from_secs(1), "while the computer thinks");
    drop(left);
    std::thread::sleep(Duration::from_millis(300));
    worker_answers_within(
        &s,
        Duration::from_millis(1500),
        "after eight searches were left",
    );
}

#[test]
fn saves_racing_with_one_stamp_leave_the_text_of_the_one_told_saved() {
    let dir = scratch("race", &["chess.var"]);
    let s = Server::start(&[&dir]);
    for round in 0..6 {
        let (_, src) = s.json("GET", "/api/variants/chess/source", None);
        let stamp = src["stamp"].as_str().unwrap().to_string();
        let base = src["text"].as_str().unwrap().to_string();
        let told: Vec<(usize, u16)> = std::thread::scope(|scope| {
            let tabs: Vec<_> = (0..8)
                .map(|tab| {
                    let (s, stamp, base) = (&s, &stamp, &base);
                    scope.spawn(move || {
                        let text = format!("{base}# round {round}, tab {tab}\n");
                        let body = json!({"text": text, "stamp": stamp}).to_string();
                        let (status, _) = s.call("POST", "/api/variants/chess/source", Some(&body));
                        (tab, status)
                    })
                })
                .collect();
            tabs.into_iter().map(|t| t.join().unwrap()).collect()
        });
        let saved: Vec<usize> = told.iter().filter(|t| t.1 == 200).map(|t| t.0).collect();
        assert_eq!(saved.len(), 1, "round {round}: {told:?}");
        assert!(
            told.iter().all(|t| matches!(t.1, 200 | 409)),
            "round {round}: {told:?}"
        );
        let on_disk = std::fs::read_to_string(dir.join("chess.var")).unwrap();
        assert!(
            on_disk.ends_with(&format!("# round {round}, tab {}\n", saved[0])),
            "round {round}: {told:?}, the file ends {:?}",
            &on_disk[on_disk.len() - 30..]
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n != "chess.var")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// An address of this machine that is not loopback, if it has one.
fn outward_address() -> Option<IpAddr> {
    let socket = UdpSocket::bind("0.0.0.0:0").ok()?;
    // Connecting a UDP socket sends nothing; it picks the route's own address.
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[test]
fn pages_from_other_machines_may_play_but_not_save_without_the_flag() {
    let Some(ip) = outward_address() else {
        crate::common::skip(
            "pages_from_other_machines_may_play_but_not_save_without_the_flag",
            "this machine has no address beyond loopback",
        );
        return;
    };
    let dir = scratch("remote", &["chess.var"]);
    for (flag, saves) in [(None, false), (Some("--remote-saves"), true)] {
        let args: Vec<&str> = ["--host", "0.0.0.0"].into_iter().chain(flag).collect();
        let s = Server::start_with(&[&dir], &args);
        let port = s.address.rsplit(':').next().unwrap().to_string();
        let outward = format!("{ip}:{port}");
        let token = format!("X-Variantlab-Token: {}", s.token);
        // The page and its token, and a game, from the outward address.
        let (status, _) = request_with(&outward, "GET", "/", None, &[]);
        assert_eq!(status, 200);
        let (status, _) = request_with(
            &outward,
            "POST",
            "/api/games",
            Some(r#"{"variant": "chess"}"#),
            &[&token],
        );
        assert_eq!(status, 200);
        let (_, src) = s.json("GET", "/api/variants/chess/source", None);
        let body = json!({"text": format!("{}# from afar\n", src["text"].as_str().unwrap()), "stamp": src["stamp"]}).to_string();
        let (status, answer) = request_with(
            &outward,
            "POST",
            "/api/variants/chess/source",
            Some(&body),
            &[&token],
        );
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let on_disk = std::fs::read_to_string(dir.join("chess.var")).unwrap();
        if saves {
            assert_eq!(status, 200, "{answer}");
            assert!(on_disk.ends_with("# from afar\n"));
        } else {
            assert_eq!(status, 403, "{answer}");
            assert!(answer.contains("--remote-saves"), "{answer}");
            assert!(!on_disk.contains("# from afar"));
        }
    }
}

#[cfg(unix)]
#[test]
fn pictures_are_read_only_inside_the_variants_folder() {
    let dir = scratch("picture-links", &["chess.var"]);
    let outside = dir.with_extension("secret.svg");
    std::fs::write(&outside, "<svg>secret</svg>").unwrap();
    let text = std::fs::read_to_string(dir.join("chess.var")).unwrap();
    std::fs::write(
        dir.join("chess.var"),
        text.replace("pieces drawn as figures", ""),
    )
    .unwrap();
    let pieces = dir.join("chess.pieces");
    std::fs::create_dir_all(&pieces).unwrap();
    std::os::unix::fs::symlink(&outside, pieces.join("white-K.svg")).unwrap();
    std::fs::write(dir.join("inside.svg"), "<svg>inside</svg>").unwrap();
    std::os::unix::fs::symlink(dir.join("inside.svg"), pieces.join("black-K.svg")).unwrap();
    let s = Server::start(&[&dir]);
    let (status, v) = s.json("GET", "/api/variants/chess/pictures", None);
    assert_eq!(status, 200);
    let text = v.to_string();
    assert!(!text.contains("secret"), "{text}");
    assert!(
        text.contains("inside"),
        "a link within the folder is followed: {text}"
    );
    assert!(
        v["problems"].to_string().contains("white-K.svg"),
        "{}",
        v["problems"]
    );
    let _ = std::fs::remove_file(outside);
}

#[test]
fn percent_signs_must_take_two_hex_digits() {
    let s = Server::start(&[Path::new("variants/chess.var")]);
    for path in ["/api/variants/%+5", "/api/variants/%-1", "/api/variants/%5"] {
        let (status, v): (u16, Value) = s.json("GET", path, None);
        assert_eq!(status, 400, "{path}: {v}");
    }
    let (status, _) = s.call("GET", "/api/variants/%63hess", None);
    assert_eq!(status, 200);
}
