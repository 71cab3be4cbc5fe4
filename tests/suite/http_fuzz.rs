//! A short fuzz of the web server: seeded random requests, built from real ones and
//! mutated (methods, targets, headers, lengths, JSON bodies, bytes), against a running
//! server on 127.0.0.1. No request may make it fail (500), stop, or grow without
//! bound; a normal request must answer between rounds. A few seconds by default;
//! `VARIANTLAB_FUZZ_SECONDS=N` runs the ignored long version for N seconds, and
//! `VARIANTLAB_FUZZ_SEED` picks the seed.

use crate::common;

use common::Lcg;
use common::server::Server;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

const METHODS: &[&str] = &[
    "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "get", "G E T", "", "POSTX",
    "CONNECT",
];

const PATHS: &[&str] = &[
    "/",
    "/index.html",
    "/app.js",
    "/style.css",
    "/api/variants",
    "/api/variants/chess",
    "/api/variants/shogi",
    "/api/variants/iss-jetan/footprint?piece=thoat&at=e5&captures=1",
    "/api/variants/chess/footprint?piece=Queen&options=x%3Don",
    "/api/variants/shogi/footprint?piece=Rook&player=White",
    "/api/games",
    "/api/games/GAME",
    "/api/games/GAME/moves",
    "/api/games/GAME/undo",
    "/api/games/OTHER/moves",
    "/api/../../etc/passwd",
    "/api/variants/%2e%2e%2fCargo",
    "/api/variants/%ff",
    "*",
    "http://attacker.example/",
];

const BODIES: &[&str] = &[
    r#"{"variant": "chess"}"#,
    r#"{"variant": "shogi", "computer": "White", "level": 1}"#,
    r#"{"variant": "iss-jetan", "options": {"chief-takes-princess": true}}"#,
    r#"{"variant": "chess", "position": "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}"#,
    r#"{"variant": "shogi", "position": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"}"#,
    r#"{"move": "e2-e4"}"#,
    r#"{"move": "7g7f"}"#,
    r#"{"move": "B*5e"}"#,
    r#"{"move": "e7e8=Q"}"#,
    r#"{"move": ""}"#,
    r#"{}"#,
    r#"[]"#,
    "null",
    "",
];

/// Bytes that tend to break parsers.
const SPICE: &[&str] = &[
    "\r\n",
    "\r\n\r\n",
    "\0",
    "%",
    "%zz",
    "\u{ff}",
    "\"",
    "\\",
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "99999999999999999999",
    "-1",
    "1e999",
    "\u{202e}",
    "é",
    "\t",
    " ",
    "*",
    "+",
    "x",
];

struct Fuzzer {
    rng: Lcg,
    address: String,
    token: String,
    games: [String; 2],
}

impl Fuzzer {
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.rng.below(from.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.rng.below(100) < percent
    }

    /// Changes a few bytes of `text`: insertions, deletions, repeats, cuts.
    fn mutate(&mut self, text: &str) -> Vec<u8> {
        let mut b = text.as_bytes().to_vec();
        for _ in 0..self.rng.below(4) {
            let at = self.rng.below(b.len() + 1);
            match self.rng.below(6) {
                0 => {
                    let s = self.pick(SPICE).as_bytes().to_vec();
                    b.splice(at..at, s);
                }
                1 if at < b.len() => {
                    b.remove(at);
                }
                2 => b.truncate(at),
                3 if at < b.len() => b[at] = self.rng.below(256) as u8,
                4 => {
                    let piece = b[at..].iter().take(8).copied().collect::<Vec<u8>>();
                    let times = 1 + self.rng.below(50);
                    for _ in 0..times {
                        b.splice(at..at, piece.iter().copied());
                    }
                }
                _ => {}
            }
        }
        b
    }

    fn request(&mut self) -> Vec<u8> {
        let method = if self.chance(90) {
            ["GET", "POST"][self.rng.below(2)]
        } else {
            self.pick(METHODS)
        };
        let path = self
            .pick(PATHS)
            .replace("GAME", &self.games[0].clone())
            .replace("OTHER", &self.games[1].clone());
        let path = if self.chance(30) {
            self.mutate(&path)
        } else {
            path.into_bytes()
        };
        let body_text = self.pick(BODIES);
        let mut body = if self.chance(50) {
            self.mutate(body_text)
        } else {
            body_text.as_bytes().to_vec()
        };
        if self.chance(2) {
            body = vec![b'x'; 70_000];
        }
        let mut head = Vec::new();
        head.extend_from_slice(method.as_bytes());
        head.push(b' ');
        head.extend_from_slice(&path);
        head.extend_from_slice(if self.chance(95) {
            b" HTTP/1.1\r\n"
        } else {
            b" HTTP/2\r\n"
        });
        let mut headers: Vec<String> = Vec::new();
        match self.rng.below(10) {
            0 => {}
            1 => headers.push("Host: attacker.example".into()),
            2 => headers.push(format!(
                "Host: localhost:{}",
                self.address.rsplit(':').next().unwrap()
            )),
            _ => headers.push(format!("Host: {}", self.address)),
        }
        if self.chance(85) {
            headers.push(format!("X-Variantlab-Token: {}", self.token));
        } else if self.chance(50) {
            headers.push("X-Variantlab-Token: 00".into());
        }
        match self.rng.below(8) {
            0 => headers.push("Origin: http://attacker.example".into()),
            1 => headers.push(format!("Origin: http://{}", self.address)),
            2 => headers.push("Origin: null".into()),
            _ => {}
        }
        match self.rng.below(12) {
            0 => {}
            1 => headers.push("Content-Length: 1000000000000".into()),
            2 => headers.push(format!("Content-Length: {}", body.len() + 10)),
            3 => headers.push(format!("Content-Length: {}", body.len().saturating_sub(3))),
            4 => headers.push("Transfer-Encoding: chunked".into()),
            5 => headers.push("Content-Length: x".into()),
            _ => headers.push(format!("Content-Length: {}", body.len())),
        }
        if self.chance(10) {
            headers.push("Expect: 100-continue".into());
        }
        if self.chance(5) {
            headers.push(format!("X-Long: {}", "h".repeat(self.rng.below(20_000))));
        }
        if self.chance(10) {
            let i = self.rng.below(headers.len().max(1));
            if let Some(h) = headers.get(i).cloned() {
                headers[i] = String::from_utf8_lossy(&self.mutate(&h)).into_owned();
            }
        }
        for h in headers {
            head.extend_from_slice(h.as_bytes());
            head.extend_from_slice(b"\r\n");
        }
        head.extend_from_slice(b"\r\n");
        head.extend_from_slice(&body);
        head
    }
}

/// Sends one request and reads what comes back within the time given; the status, if
/// an answer came.
fn send(address: &str, bytes: &[u8]) -> Option<u16> {
    let mut s = TcpStream::connect(address).expect("the server accepts");
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(15))).unwrap();
    let _ = s.write_all(bytes);
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    // An interim `100 Continue` comes before the answer.
    let mut answer = &answer[..];
    while answer.starts_with(b"HTTP/1.1 100") {
        match answer.windows(4).position(|w| w == b"\r\n\r\n") {
            Some(end) => answer = &answer[end + 4..],
            None => break,
        }
    }
    let head = String::from_utf8_lossy(&answer[..answer.len().min(64)]).into_owned();
    head.split_whitespace().nth(1).and_then(|c| c.parse().ok())
}

/// Requests a fuzz sends however long they take.
const MIN_REQUESTS: usize = 400;

/// Fuzzes for `seconds`; the server must stay below `max_rss` KiB throughout.
fn fuzz(seconds: u64, max_rss: u64) {
    let seed = std::env::var("VARIANTLAB_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed);
    let mut s = Server::start(&[Path::new("variants")]);
    let new_game = |s: &Server| {
        let (status, g) = s.json("POST", "/api/games", Some(r#"{"variant": "chess"}"#));
        assert_eq!(status, 200);
        g["id"].as_str().unwrap().to_string()
    };
    let games = [new_game(&s), new_game(&s)];
    let mut f = Fuzzer {
        rng: Lcg(seed),
        address: s.address.clone(),
        token: s.token.clone(),
        games,
    };
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut sent = 0usize;
    let mut statuses = std::collections::BTreeMap::new();
    let mut peak = 0;
    // At least a fixed number of requests, so that a slow machine sees the same mix.
    while Instant::now() < deadline || sent < MIN_REQUESTS {
        for _ in 0..50 {
            let req = f.request();
            let status = send(&s.address, &req);
            assert_ne!(
                status,
                Some(500),
                "seed {seed}, request {sent}: {:?}",
                String::from_utf8_lossy(&req[..req.len().min(400)])
            );
            *statuses.entry(status).or_insert(0) += 1;
            sent += 1;
        }
        assert!(
            s.alive(),
            "seed {seed}: the server stopped after {sent} requests"
        );
        let (status, _) = s.json("GET", "/api/variants/chess", None);
        assert_eq!(status, 200, "seed {seed}, after {sent} requests");
        let (rss, threads) = s.memory_and_threads();
        peak = peak.max(rss);
        assert!(
            rss < max_rss,
            "seed {seed}: {rss} KiB after {sent} requests"
        );
        assert!(threads <= 12, "seed {seed}: {threads} threads");
        // Games are evicted as others are made: keep two to aim at.
        if s.json("GET", &format!("/api/games/{}", f.games[0]), None).0 != 200 {
            f.games = [new_game(&s), new_game(&s)];
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "fuzz: seed {seed}, {sent} requests in {seconds} s, peak {peak} KiB; statuses {statuses:?}"
    );
    // The mutations reach past the first checks: some requests succeed, some fail.
    assert!(
        statuses.get(&Some(200)).is_some_and(|n| *n > 10),
        "{statuses:?}"
    );
    assert!(
        statuses.get(&Some(400)).is_some_and(|n| *n > 10),
        "{statuses:?}"
    );
}

/// What the server may hold, in KiB: its rules cache alone may reach 256 MiB once every
/// variant has been asked for (a minute's fuzz settles at 300-340 MB), and games, two
/// compiles under way and four computer players' tables add under 200 MB at their
/// peaks (seen: 395 MB).
const MAX_RSS: u64 = 480_000;

#[test]
fn a_short_fuzz_of_the_http_api() {
    fuzz(3, MAX_RSS);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn a_long_fuzz_of_the_http_api() {
    let seconds = std::env::var("VARIANTLAB_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    fuzz(seconds, MAX_RSS);
}
