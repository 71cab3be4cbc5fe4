//! The web server against hostile clients, over real HTTP on 127.0.0.1: huge or slow
//! requests, idle connections, expensive and unreadable files, requests from other
//! origins. Each case checks the answer, that the server goes on answering a normal
//! client, and that its memory and threads stay bounded. Every loop here is bounded in
//! count and time.

use crate::common;
use crate::robustness::legs_file;

use common::root;
use common::server::Server;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// A fresh folder for one test's files.
fn scratch(name: &str) -> crate::common::Scratch {
    crate::common::scratch(&format!("hostile-{name}"), &[])
}

/// Sends raw bytes on a fresh connection (stopping quietly when the server closes) and
/// reads the answer within `wait`: its status and body, or `None` when the connection
/// was closed or reset without one.
fn raw(address: &str, bytes: &[u8], wait: Duration) -> Option<(u16, Vec<u8>)> {
    let mut s = TcpStream::connect(address).expect("connects");
    s.set_read_timeout(Some(wait)).unwrap();
    s.set_write_timeout(Some(wait)).unwrap();
    for chunk in bytes.chunks(64 * 1024) {
        if s.write_all(chunk).is_err() {
            break;
        }
    }
    read_answer(&mut s)
}

/// Reads one answer (up to its Content-Length, or the close); `None` on a reset or a
/// timeout before a complete head.
fn read_answer(s: &mut TcpStream) -> Option<(u16, Vec<u8>)> {
    let mut all = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => all.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
        if let Some(end) = all.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&all[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|n| n.trim().parse::<usize>().ok());
            if length.is_some_and(|n| all.len() >= end + 4 + n) {
                break;
            }
        }
    }
    let end = all.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&all[..end]).into_owned();
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, all[end + 4..].to_vec()))
}

fn error_of(body: &[u8]) -> String {
    let v: Value = serde_json::from_slice(body)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(body)));
    v["error"].as_str().unwrap_or_default().to_string()
}

/// A normal client's request must answer 200, quickly.
fn answers_promptly(s: &Server, why: &str) {
    let t = Instant::now();
    let (status, _) = s.call("GET", "/api/variants/chess", None);
    assert_eq!(status, 200, "{why}");
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "{why}: a normal request took {:?}",
        t.elapsed()
    );
}

fn chess() -> Server {
    Server::start(&[Path::new("variants/chess.var")])
}

#[test]
fn a_huge_content_length_is_refused_before_reading() {
    let mut s = chess();
    for (length, body) in [
        ("1000000000000", "ab"),
        ("99999999999999999999999999", "ab"),
        ("65537", "{}"),
        ("-1", "{}"),
        ("1, 2", "{}"),
    ] {
        let req = format!(
            "GET / HTTP/1.1\r\nHost: {}\r\nContent-Length: {length}\r\n\r\n{body}",
            s.address
        );
        let (status, body) =
            raw(&s.address, req.as_bytes(), Duration::from_secs(5)).expect("an answer");
        assert!(matches!(status, 400 | 413), "{length}: {status}");
        // A length that is not a number is refused by the HTTP layer, with no body;
        // one too large, by the app, which says why.
        if status == 413 {
            assert!(error_of(&body).contains("at most"), "{length}");
        }
    }
    // Two lengths, or a chunked body: refused rather than guessed at.
    for extra in [
        "Content-Length: 2\r\nContent-Length: 3\r\n",
        "Transfer-Encoding: chunked\r\n",
    ] {
        let req = format!(
            "POST /api/games HTTP/1.1\r\nHost: {}\r\n{extra}\r\n{{}}",
            s.address
        );
        let (status, _) =
            raw(&s.address, req.as_bytes(), Duration::from_secs(5)).expect("an answer");
        assert!(matches!(status, 400 | 501), "{extra}: {status}");
    }
    assert!(s.alive());
    answers_promptly(&s, "after huge lengths");
}

#[test]
fn slow_clients_hold_no_worker_and_time_out() {
    let s = chess();
    // Far more slow clients than workers: each announces 60,000 bytes and sends one.
    let mut slow: Vec<TcpStream> = (0..40)
        .map(|_| {
            let mut t = TcpStream::connect(&s.address).unwrap();
            let head = format!(
                "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Length: 60000\r\n\r\n{{",
                s.address
            );
            t.write_all(head.as_bytes()).unwrap();
            t
        })
        .collect();
    // And some that send nothing, or half a head.
    for bytes in [&b""[..], b"GET /api/variants HTTP/1.1\r\nHost: "] {
        for _ in 0..10 {
            let mut t = TcpStream::connect(&s.address).unwrap();
            t.write_all(bytes).unwrap();
            slow.push(t);
        }
    }
    std::thread::sleep(Duration::from_millis(200));
    answers_promptly(&s, "while 60 clients are slow");
    // Each slow client is answered 408 (or closed, when it sent nothing) once the
    // request time is up: 5 seconds from its connection.
    let t = Instant::now();
    for (i, c) in slow.iter_mut().enumerate() {
        c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let answer = read_answer(c);
        if i < 40 {
            let (status, _) = answer.unwrap_or_else(|| panic!("slow client {i}: no answer"));
            assert_eq!(status, 408, "slow client {i}");
        } else if i >= 50 {
            // Half a head: closed, or told 408.
            assert!(
                matches!(answer.map(|a| a.0), None | Some(408)),
                "half a head {i}"
            );
        }
    }
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
    answers_promptly(&s, "after the slow clients");
}

#[test]
fn huge_heads_and_targets_are_refused_with_small_answers() {
    let s = chess();
    let (rss_before, _) = s.memory_and_threads();
    // A 200 MB header, sent until the server closes.
    let mut big = format!("GET / HTTP/1.1\r\nHost: {}\r\nX-Big: ", s.address).into_bytes();
    big.resize(big.len() + 200_000_000, b'a');
    let answer = raw(&s.address, &big, Duration::from_secs(10));
    if let Some((status, _)) = answer {
        assert_eq!(status, 431);
    }
    drop(big);
    // A smaller one, wholly drained, gets its answer for sure.
    let mut head = format!("GET / HTTP/1.1\r\nHost: {}\r\nX-Big: ", s.address).into_bytes();
    head.resize(head.len() + 100_000, b'a');
    head.extend_from_slice(b"\r\n\r\n");
    let (status, body) = raw(&s.address, &head, Duration::from_secs(10)).expect("an answer");
    assert_eq!(status, 431);
    assert!(body.len() < 200);
    // Too many header lines.
    let many: String = (0..100).map(|i| format!("X-{i}: {i}\r\n")).collect();
    let req = format!("GET / HTTP/1.1\r\nHost: {}\r\n{many}\r\n", s.address);
    let (status, _) = raw(&s.address, req.as_bytes(), Duration::from_secs(5)).expect("answer");
    assert_eq!(status, 431);
    // A 100 MB target, and a 100 KB one: past the head's limit (431); and a 3,000-byte
    // one, past the target's (414). Never echoed.
    for n in [100_000_000, 100_000, 3000] {
        let mut req = b"GET /".to_vec();
        req.resize(req.len() + n, b'x');
        req.extend_from_slice(format!(" HTTP/1.1\r\nHost: {}\r\n\r\n", s.address).as_bytes());
        match raw(&s.address, &req, Duration::from_secs(10)) {
            Some((status, body)) => {
                let want = if n > 16 * 1024 { 431 } else { 414 };
                assert_eq!(status, want, "{n}");
                assert!(body.len() < 200, "{n}: {} bytes", body.len());
            }
            None => assert!(n > 1_000_000, "{n}: no answer"),
        }
    }
    // A target under the limit that names nothing is echoed cut short.
    let path = format!("/{}", "y".repeat(2000));
    let (status, body) = s.call("GET", &path, None);
    assert_eq!(status, 404);
    assert!(body.len() < 200, "{body}");
    let (rss_after, _) = s.memory_and_threads();
    assert!(
        rss_after < rss_before + 50_000,
        "memory grew from {rss_before} to {rss_after} KiB"
    );
    answers_promptly(&s, "after huge heads");
}

#[test]
fn idle_connections_make_no_threads() {
    let s = chess();
    let (_, threads_before) = s.memory_and_threads();
    let mut idle = Vec::new();
    for _ in 0..3000 {
        match TcpStream::connect(&s.address) {
            Ok(t) => idle.push(t),
            // Out of descriptors in this process: enough are open.
            Err(_) => break,
        }
    }
    assert!(idle.len() >= 900, "only {} connections opened", idle.len());
    std::thread::sleep(Duration::from_millis(300));
    let (rss, threads) = s.memory_and_threads();
    assert!(
        threads <= threads_before,
        "{} idle connections: {threads} threads, {threads_before} before",
        idle.len()
    );
    assert!(rss < 100_000, "{rss} KiB");
    // A new client is read at once, however many wait idle: the oldest make room.
    answers_promptly(&s, "with thousands of idle connections");
    drop(idle);
    answers_promptly(&s, "after the idle connections");
}

#[test]
fn requests_from_other_origins_and_names_are_refused() {
    let s = Server::start(&[Path::new("variants/chess.var")]);
    let (_, g) = s.json("POST", "/api/games", Some(r#"{"variant": "chess"}"#));
    let id = g["id"].as_str().unwrap().to_string();
    let token = format!("X-Variantlab-Token: {}", s.token);
    let port = s.address.rsplit(':').next().unwrap();
    let send = |method: &str, path: &str, headers: &[String], body: &str| {
        let lines: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
        let req = format!(
            "{method} {path} HTTP/1.1\r\n{lines}Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        raw(&s.address, req.as_bytes(), Duration::from_secs(5)).expect("an answer")
    };
    let moves = format!("/api/games/{id}/moves");
    let host = format!("Host: {}", s.address);
    let mv = r#"{"move": "e2-e4"}"#;
    // A name that only points here (DNS rebinding) reads nothing, not even the page.
    for name in [
        "attacker.example",
        "127.0.0.1.attacker.example",
        "localhost.",
        "",
    ] {
        for path in ["/", "/api/variants", &format!("/api/games/{id}")] {
            let (status, body) = send("GET", path, &[format!("Host: {name}:{port}")], "");
            assert_eq!(status, 403, "{name} {path}");
            assert!(!String::from_utf8_lossy(&body).contains(&s.token));
        }
    }
    // A plain GET from another site's page carries no Origin, but says where it comes
    // from; the page's own requests say `same-origin`, and other clients nothing.
    for (site, status) in [
        ("cross-site", 403),
        ("same-site", 403),
        ("same-origin", 400),
        ("none", 400),
    ] {
        let path = "/api/variants/chess/footprint?piece=Queen&options=nothing%3Don";
        let (got, _) = send(
            "GET",
            path,
            &[host.clone(), format!("Sec-Fetch-Site: {site}")],
            "",
        );
        assert_eq!(got, status, "{site}");
    }
    // Another port, or no Host at all.
    let (status, _) = send("GET", "/", &["Host: 127.0.0.1:1".into()], "");
    assert_eq!(status, 403);
    let (status, _) = send("GET", "/", &[], "");
    assert_eq!(status, 400);
    // A page of another origin: refused with or without the token, as a form post or
    // a fetch; and a write with no token or a wrong one, from anywhere.
    for headers in [
        vec![
            host.clone(),
            "Origin: http://attacker.example".into(),
            "Content-Type: text/plain".into(),
        ],
        vec![
            host.clone(),
            "Origin: http://attacker.example".into(),
            token.clone(),
        ],
        vec![
            host.clone(),
            format!(
                "Origin: http://127.0.0.1:{}",
                port.parse::<u16>().unwrap() ^ 1
            ),
            token.clone(),
        ],
        vec![host.clone(), "Origin: null".into(), token.clone()],
        vec![host.clone(), "Content-Type: text/plain".into()],
        vec![
            host.clone(),
            "X-Variantlab-Token: 0123456789abcdef0123456789abcdef".into(),
        ],
        vec![host.clone(), "X-Variantlab-Token: ".into()],
    ] {
        for (path, body) in [
            (moves.as_str(), mv),
            ("/api/games", r#"{"variant": "chess"}"#),
        ] {
            let (status, answer) = send("POST", path, &headers, body);
            assert_eq!(
                status,
                403,
                "{headers:?} {path}: {}",
                String::from_utf8_lossy(&answer)
            );
        }
    }
    let (_, g) = s.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(g["moves"], serde_json::json!([]), "no write got through");
    // The page itself carries the token; the same origin, with it, may write.
    let (_, html) = s.call("GET", "/", None);
    assert!(html.contains(&format!(
        r#"<meta name="variantlab-token" content="{}">"#,
        s.token
    )));
    let origin = format!("Origin: http://{}", s.address);
    let (status, _) = send("POST", &moves, &[host.clone(), origin, token.clone()], mv);
    assert_eq!(status, 200);
    let (status, _) = send(
        "POST",
        &moves,
        &[format!("Host: localhost:{port}"), token],
        r#"{"move": "e7-e5"}"#,
    );
    assert_eq!(status, 200);
    // Game ids are unguessable: 32 hex digits, never in sequence.
    let ids: Vec<String> = (0..5)
        .map(|_| {
            s.json("POST", "/api/games", Some(r#"{"variant": "chess"}"#))
                .1["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    for (i, a) in ids.iter().enumerate() {
        assert!(
            a.len() == 32 && a.bytes().all(|b| b.is_ascii_hexdigit()),
            "{a}"
        );
        assert!(ids[i + 1..].iter().all(|b| a != b));
    }
}

#[test]
fn long_moves_are_refused_unread_and_not_echoed() {
    let s = chess();
    let (_, g) = s.json("POST", "/api/games", Some(r#"{"variant": "chess"}"#));
    let moves = format!("/api/games/{}/moves", g["id"].as_str().unwrap());
    // A long position string is refused with its reason, cut short.
    for position in [
        "9".repeat(60_000),
        format!("4k3/8/8/8/8/8/8/4K3 w - - {}", "9".repeat(60_000)),
    ] {
        let body = serde_json::json!({ "variant": "chess", "position": position }).to_string();
        let (status, answer) = s.call("POST", "/api/games", Some(&body));
        assert_eq!(status, 400);
        assert!(answer.len() < 400, "{} bytes: {answer}", answer.len());
    }
    for text in [
        "e2".repeat(30_000),
        "(".repeat(60_000),
        "e2-e4 ".repeat(10_000),
    ] {
        let body = serde_json::json!({ "move": text }).to_string();
        let t = Instant::now();
        let (status, answer) = s.call("POST", &moves, Some(&body));
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
        assert_eq!(status, 400);
        assert!(answer.len() < 300, "{} bytes: {answer}", answer.len());
        assert!(answer.contains("at most 64 bytes"), "{answer}");
    }
    // A move of ordinary length is still read, and a refused one echoed short.
    let (status, answer) = s.call(
        "POST",
        &moves,
        Some(&format!(r#"{{"move": "{}"}}"#, "z".repeat(64))),
    );
    assert_eq!(status, 400);
    assert!(answer.len() < 300, "{answer}");
    let (status, _) = s.call("POST", &moves, Some(r#"{"move": "e2-e4"}"#));
    assert_eq!(status, 200);
}

#[test]
fn unreadable_and_oversized_files_are_listed_as_broken() {
    let dir = scratch("files");
    // A 300 MB file (sparse: no disk is used), a FIFO with the .var extension, and a
    // good file beside them.
    let huge = dir.join("huge.var");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(300_000_000)
        .unwrap();
    let fifo = dir.join("pipe.var");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    std::fs::copy(root().join("variants/chess.var"), dir.join("chess.var")).unwrap();
    let fifo_dir = scratch("fifo-arg");
    let fifo_arg = fifo_dir.join("arg.var");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo_arg)
            .status()
            .unwrap()
            .success()
    );
    let s = Server::start(&[&dir, Path::new("/dev/zero"), &fifo_arg]);
    let (rss_before, _) = s.memory_and_threads();
    for _ in 0..20 {
        let t = Instant::now();
        let (status, list) = s.json("GET", "/api/variants", None);
        assert_eq!(status, 200);
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        let ok: Vec<(String, bool)> = list["variants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                (
                    v["id"].as_str().unwrap().to_string(),
                    v["ok"].as_bool().unwrap(),
                )
            })
            .collect();
        // The FIFO inside the folder is not a variant file; the ones named are listed,
        // and broken.
        assert_eq!(
            ok,
            [
                ("chess".to_string(), true),
                ("huge".to_string(), false),
                ("zero".to_string(), false),
                ("arg".to_string(), false),
            ],
            "{list}"
        );
    }
    for (id, why) in [
        ("huge", "larger than 1048576 bytes"),
        ("zero", "not a regular file"),
        ("arg", "not a regular file"),
    ] {
        let (status, v) = s.json("GET", &format!("/api/variants/{id}"), None);
        assert_eq!(status, 404, "{id}: {v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{id}: {v}");
        let (status, _) = s.json(
            "POST",
            "/api/games",
            Some(&format!(r#"{{"variant": "{id}"}}"#)),
        );
        assert_eq!(status, 404);
    }
    let (rss_after, _) = s.memory_and_threads();
    assert!(
        rss_after < rss_before + 50_000,
        "{rss_before} to {rss_after} KiB"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(fifo_arg.parent().unwrap());
}

#[test]
fn a_move_of_thousands_of_legs_is_a_diagnostic_not_a_crash() {
    let dir = scratch("legs");
    std::fs::write(dir.join("legs.var"), legs_file(5_000)).unwrap();
    std::fs::copy(root().join("variants/chess.var"), dir.join("chess.var")).unwrap();
    let mut s = Server::start(&[&dir]);
    for _ in 0..3 {
        let (status, v) = s.json("GET", "/api/variants/legs", None);
        assert_eq!(status, 200);
        assert_eq!(v["ok"], false);
        assert!(
            v["diagnostics"].as_str().unwrap().contains("too_many_legs"),
            "{v}"
        );
        let (status, _) = s.json("POST", "/api/games", Some(r#"{"variant": "legs"}"#));
        assert_eq!(status, 409);
    }
    assert!(s.alive());
    answers_promptly(&s, "after the legs");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file that checks but takes seconds and hundreds of megabytes to compile: a 32 by 32
/// board, fourteen kinds of long slides, and an option that changes nothing.
pub fn slow_file() -> String {
    let moves = [
        "slide orthogonal",
        "slide diagonal",
        "slide any",
        "slide orthogonal\n  step 1 any",
        "slide diagonal\n  step 1 orthogonal",
        "slide any\n  leap 1 orthogonal then 1 outward diagonal",
        "slide orthogonal\n  leap 1 orthogonal then 1 outward diagonal",
        "slide diagonal\n  leap 1 orthogonal then 1 outward diagonal",
        "slide north\n  slide south",
        "slide east\n  slide west",
        "slide orthogonal\n  step 2 diagonal",
        "slide diagonal\n  step 2 orthogonal",
        "slide any\n  step 2 any",
        "slide orthogonal\n  slide diagonal",
    ];
    let name = |i: usize| format!("Kind{}", (b'A' + i as u8) as char);
    let mut text = String::from(
        "name \"Big Board\"\nboard square 32 by 32\nplayer White: forward north, capitals\nplayer Black: forward south, lowercase\noption unused = off \"Changes nothing.\"\n",
    );
    for (i, m) in moves.iter().enumerate() {
        let code: String = std::iter::repeat_n((b'A' + i as u8) as char, 2).collect();
        // The royal slides diagonally, so the two rows start with neither in check.
        let royal = if i == 1 { "  royal\n" } else { "" };
        text += &format!("piece {} ({code}) {{\n{royal}  {m}\n}}\n", name(i));
    }
    let row = |rank: u32| {
        (0..moves.len())
            .map(|i| format!("{} {}{rank}", name(i), (b'a' + i as u8) as char))
            .collect::<Vec<_>>()
            .join(", ")
    };
    text += &format!(
        "setup {{\n  White: {}\n  Black: {}\n}}\ngame ends {{\n  checkmate: mover wins\n  stalemate: draw\n}}\n",
        row(1),
        row(32)
    );
    text
}

#[test]
fn a_slow_compile_holds_no_other_request() {
    let dir = scratch("slow");
    std::fs::write(dir.join("big.var"), slow_file()).unwrap();
    std::fs::copy(root().join("variants/chess.var"), dir.join("chess.var")).unwrap();
    let s = Server::start(&[&dir]);
    let (_, g) = s.json("POST", "/api/games", Some(r#"{"variant": "chess"}"#));
    let moves = format!("/api/games/{}/moves", g["id"].as_str().unwrap());
    let (address, token) = (s.address.clone(), s.token.clone());
    let t = Instant::now();
    let slow = std::thread::spawn(move || {
        let header = format!("X-Variantlab-Token: {token}");
        let body = r#"{"variant": "big", "options": {"unused": true}}"#;
        common::server::request_with(&address, "POST", "/api/games", Some(body), &[&header]).0
    });
    std::thread::sleep(Duration::from_millis(300));
    // While it compiles, the other game plays and the other file is read.
    for m in ["e2-e4", "e7-e5", "g1-f3"] {
        let asked = Instant::now();
        let (status, _) = s.call("POST", &moves, Some(&format!(r#"{{"move": "{m}"}}"#)));
        assert_eq!(status, 200);
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "{m}: {:?}",
            asked.elapsed()
        );
        answers_promptly(&s, "during a slow compile");
    }
    assert!(
        !slow.is_finished(),
        "the compile was over before it was tested"
    );
    assert_eq!(slow.join().unwrap(), 200);
    let first = t.elapsed();
    // The same text and settings again: compiled once, shared.
    let t = Instant::now();
    let (status, _) = s.json(
        "POST",
        "/api/games",
        Some(r#"{"variant": "big", "options": {"unused": true}}"#),
    );
    assert_eq!(status, 200);
    assert!(
        t.elapsed() < first / 2,
        "{:?} the second time, {first:?} the first",
        t.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_share_compiled_rules_by_text_and_settings() {
    let s = Server::start(&[Path::new("variants/hexagonal-iss-jetan-12.var")]);
    let (_, g) = s.json(
        "POST",
        "/api/games",
        Some(r#"{"variant": "hexagonal-iss-jetan-12"}"#),
    );
    assert!(g["id"].is_string());
    let new_games = |n: usize| {
        for i in 0..n {
            let on = i % 2 == 0;
            let body = format!(
                r#"{{"variant": "hexagonal-iss-jetan-12", "options": {{"last-resort": {on}}}}}"#
            );
            let (status, g) = s.json("POST", "/api/games", Some(&body));
            assert_eq!(status, 200, "{g}");
        }
    };
    // The first games warm up the workers' allocators.
    new_games(40);
    let (rss_before, _) = s.memory_and_threads();
    // Each compile of this board takes about 12 MB; 80 games alternating an option
    // share the two compiled before.
    let t = Instant::now();
    new_games(80);
    let (rss_after, _) = s.memory_and_threads();
    assert!(
        rss_after < rss_before + 50_000,
        "80 games took {} KiB",
        rss_after - rss_before
    );
    assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
}

/// Hostile requests of each kind in the survival run.
const EACH: usize = 1000;

/// Every kind of hostile request above, [`EACH`] times, from three threads at once,
/// while a normal client plays a game: each of its requests is answered, in time, and
/// the server's memory and threads stay bounded.
#[test]
fn the_server_survives_a_thousand_of_each_while_a_game_goes_on() {
    let dir = scratch("survive");
    for f in ["chess.var", "iss-jetan.var"] {
        std::fs::copy(root().join("variants").join(f), dir.join(f)).unwrap();
    }
    std::fs::write(dir.join("legs.var"), legs_file(5_000)).unwrap();
    std::fs::File::create(dir.join("huge.var"))
        .unwrap()
        .set_len(300_000_000)
        .unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(dir.join("pipe.var"))
            .status()
            .unwrap()
            .success()
    );
    let mut s = Server::start(&[&dir, Path::new("/dev/zero")]);
    let (_, g) = s.json("POST", "/api/games", Some(r#"{"variant": "chess"}"#));
    let game = g["id"].as_str().unwrap().to_string();
    let (_, g) = s.json("POST", "/api/games", Some(r#"{"variant": "chess"}"#));
    let other = g["id"].as_str().unwrap().to_string();
    let address = s.address.clone();
    let host = format!("Host: {address}");
    let token = format!("X-Variantlab-Token: {}", s.token);
    let quick = Duration::from_secs(10);
    let send = |head: String, body: &[u8]| {
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        raw(&address, &bytes, quick)
    };
    let post = |path: &str, headers: &[&str], body: &str| {
        let lines: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
        send(
            format!(
                "POST {path} HTTP/1.1\r\n{lines}Content-Length: {}\r\n\r\n",
                body.len()
            ),
            body.as_bytes(),
        )
    };
    let expect = |what: &str, got: Option<(u16, Vec<u8>)>, want: &[u16]| {
        if let Some((status, _)) = got {
            assert!(want.contains(&status), "{what}: {status}");
        }
    };
    let peak = std::sync::atomic::AtomicU64::new(0);
    let threads_peak = std::sync::atomic::AtomicU64::new(0);
    let sample = || {
        let (rss, threads) = s.memory_and_threads();
        peak.fetch_max(rss, std::sync::atomic::Ordering::Relaxed);
        threads_peak.fetch_max(threads, std::sync::atomic::Ordering::Relaxed);
    };
    let done = std::sync::atomic::AtomicBool::new(false);
    let long_move = serde_json::json!({ "move": "(".repeat(60_000) }).to_string();
    let kinds: Vec<Box<dyn Fn(usize) + Sync>> = vec![
        // Content-Length of a terabyte, two bytes sent.
        Box::new(|_| {
            let head = format!("GET / HTTP/1.1\r\n{host}\r\nContent-Length: 1000000000000\r\n\r\n");
            expect("huge length", send(head, b"ab"), &[413]);
        }),
        // A body announced and never sent: held a while, then dropped.
        Box::new(|_| {
            let mut t = TcpStream::connect(&address).unwrap();
            let head =
                format!("POST /api/games HTTP/1.1\r\n{host}\r\nContent-Length: 60000\r\n\r\n{{");
            let _ = t.write_all(head.as_bytes());
            std::thread::sleep(Duration::from_millis(5));
        }),
        // Connections that say nothing.
        Box::new(|_| {
            let held: Vec<TcpStream> = (0..5)
                .filter_map(|_| TcpStream::connect(&address).ok())
                .collect();
            std::thread::sleep(Duration::from_millis(5));
            drop(held);
        }),
        // A 100 KB header, a 100 KB target, a long path that names nothing.
        Box::new(|_| {
            let head = format!(
                "GET / HTTP/1.1\r\n{host}\r\nX-Big: {}\r\n\r\n",
                "a".repeat(100_000)
            );
            expect("big header", send(head, b""), &[431]);
        }),
        Box::new(|_| {
            let head = format!("GET /{} HTTP/1.1\r\n{host}\r\n\r\n", "x".repeat(100_000));
            expect("long target", send(head, b""), &[431]);
        }),
        Box::new(|_| {
            let head = format!("GET /{} HTTP/1.1\r\n{host}\r\n\r\n", "x".repeat(2000));
            expect("long path", send(head, b""), &[404]);
        }),
        // Another name, another origin, no token: on the normal client's own game.
        Box::new(|_| {
            let head =
                format!("GET /api/games/{game} HTTP/1.1\r\nHost: attacker.example:80\r\n\r\n");
            expect("rebinding", send(head, b""), &[403]);
        }),
        Box::new(|i| {
            let path = format!(
                "/api/games/{game}/{}",
                if i % 2 == 0 { "moves" } else { "undo" }
            );
            let got = post(
                &path,
                &[
                    &host,
                    "Origin: http://attacker.example",
                    "Content-Type: text/plain",
                ],
                r#"{"move": "d2-d4"}"#,
            );
            expect("cross-origin write", got, &[403]);
        }),
        Box::new(|_| {
            let got = post("/api/games", &[&host], r#"{"variant": "chess"}"#);
            expect("no token", got, &[403]);
        }),
        // Games made with the token, alternating an option: the oldest are evicted,
        // never the game in play.
        Box::new(|i| {
            let body = format!(
                r#"{{"variant": "iss-jetan", "options": {{"chief-takes-princess": {}}}}}"#,
                i % 2 == 0
            );
            expect(
                "new game",
                post("/api/games", &[&host, &token], &body),
                &[200],
            );
        }),
        // 60 KB moves.
        Box::new(|_| {
            let path = format!("/api/games/{other}/moves");
            expect(
                "long move",
                post(&path, &[&host, &token], &long_move),
                &[400, 404],
            );
        }),
        // Reading the files: too large, a device, a FIFO beside them, 5,000 legs.
        Box::new(|i| {
            let path = [
                "/api/variants",
                "/api/variants/huge",
                "/api/variants/zero",
                "/api/variants/legs",
            ][i % 4];
            expect(
                path,
                send(format!("GET {path} HTTP/1.1\r\n{host}\r\n\r\n"), b""),
                &[200, 404],
            );
        }),
        Box::new(|_| {
            expect(
                "legs game",
                post("/api/games", &[&host, &token], r#"{"variant": "legs"}"#),
                &[409],
            );
        }),
    ];
    let started = Instant::now();
    let normal_requests = std::thread::scope(|scope| {
        // The normal client: a move and its undo, over and over, each answered in time.
        let normal = scope.spawn(|| {
            let mut n = 0;
            let moves = format!("/api/games/{game}/moves");
            let undo = format!("/api/games/{game}/undo");
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                for (method, path, body) in [
                    ("POST", moves.as_str(), Some(r#"{"move": "e2-e4"}"#)),
                    ("GET", &format!("/api/games/{game}"), None),
                    ("POST", undo.as_str(), None),
                ] {
                    let t = Instant::now();
                    let (status, v) = s.json(method, path, body);
                    assert_eq!(status, 200, "{method} {path}: {v}");
                    assert!(
                        t.elapsed() < Duration::from_secs(5),
                        "{path}: {:?}",
                        t.elapsed()
                    );
                    n += 1;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            n
        });
        let kinds = &kinds;
        let workers: Vec<_> = (0..3)
            .map(|w| {
                let sample = &sample;
                scope.spawn(move || {
                    for i in (w..EACH * kinds.len()).step_by(3) {
                        kinds[i % kinds.len()](i / kinds.len());
                        if i % 500 == 0 {
                            sample();
                        }
                    }
                })
            })
            .collect();
        // The normal client stops even when a hostile thread failed.
        let joined: Vec<_> = workers.into_iter().map(|w| w.join()).collect();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        for j in joined {
            j.expect("a hostile thread");
        }
        normal.join().expect("the normal client")
    });
    let took = started.elapsed();
    sample();
    assert!(s.alive());
    answers_promptly(&s, "after the hostile run");
    // The normal client's game is still there, with only its own moves.
    let (status, g) = s.json("GET", &format!("/api/games/{game}"), None);
    assert_eq!(status, 200);
    assert_eq!(g["moves"], serde_json::json!([]));
    let peak = peak.into_inner();
    let threads = threads_peak.into_inner();
    let _ = writeln!(
        std::io::stderr(),
        "survival: {} hostile requests and {normal_requests} normal ones in {took:?}; peak {peak} KiB and {threads} threads",
        EACH * 13
    );
    assert!(
        normal_requests >= 30,
        "only {normal_requests} normal requests"
    );
    assert!(peak < 150_000, "peak memory {peak} KiB");
    assert!(threads <= 12, "{threads} threads");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_against_the_computer_are_few_each_with_its_table() {
    let s = Server::start(&[Path::new("variants/chess.var")]);
    let (_, g) = s.json("POST", "/api/games", Some(r#"{"variant": "chess"}"#));
    let people = g["id"].as_str().unwrap().to_string();
    let body = r#"{"variant": "chess", "computer": "Black", "level": 1}"#;
    let (_, g) = s.json("POST", "/api/games", Some(body));
    assert!(g["id"].is_string());
    let (rss_before, _) = s.memory_and_threads();
    // Each search table takes tens of megabytes: 30 such games keep the last four.
    let ids: Vec<String> = (0..30)
        .map(|_| {
            let (status, g) = s.json("POST", "/api/games", Some(body));
            assert_eq!(status, 200, "{g}");
            g["id"].as_str().unwrap().to_string()
        })
        .collect();
    let (rss_after, _) = s.memory_and_threads();
    assert!(
        rss_after < rss_before + 250_000,
        "30 games against the computer took {} KiB",
        rss_after - rss_before
    );
    let kept: Vec<bool> = ids
        .iter()
        .map(|id| s.json("GET", &format!("/api/games/{id}"), None).0 == 200)
        .collect();
    assert_eq!(kept.iter().filter(|k| **k).count(), 4, "{kept:?}");
    assert!(kept[26..].iter().all(|k| *k), "{kept:?}");
    // The computer still answers in the newest, and the game between people stays.
    let (status, g) = s.json(
        "POST",
        &format!("/api/games/{}/moves", ids[29]),
        Some(r#"{"move": "e2-e4"}"#),
    );
    assert_eq!(status, 200);
    assert_eq!(g["moves"].as_array().unwrap().len(), 2, "{g}");
    assert_eq!(s.json("GET", &format!("/api/games/{people}"), None).0, 200);
}
