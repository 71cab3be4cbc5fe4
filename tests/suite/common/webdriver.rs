//! A minimal WebDriver client over the test HTTP client, driving headless Chromium
//! through chromedriver.

use super::server::request;
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The W3C key of an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Chromium and chromedriver, if installed.
pub fn find_chromium() -> Option<(PathBuf, PathBuf)> {
    let on_path = |name: &str| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|p| p.join(name))
                .find(|p| p.is_file())
        })
    };
    let browser = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|n| on_path(n))?;
    let driver = on_path("chromedriver").or_else(|| {
        Some(PathBuf::from("/usr/lib/chromium/chromedriver")).filter(|p| p.is_file())
    })?;
    Some((browser, driver))
}

/// A browser session, closed (with its driver) when dropped.
pub struct Browser {
    driver: Child,
    address: String,
    session: String,
    /// The browser's profile and temporary files, removed when the session ends.
    _profile: tempfile::TempDir,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

impl Browser {
    pub fn start(browser: &PathBuf, driver: &PathBuf) -> Browser {
        Browser::start_with(browser, driver, &[])
    }

    /// A browser started with extra command-line switches.
    pub fn start_with(browser: &PathBuf, driver: &PathBuf, extra: &[String]) -> Browser {
        let port = free_port();
        let profile = tempfile::Builder::new()
            .prefix("variantlab-chromium-")
            .tempdir()
            .expect("a temporary folder");
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            // Chromium's own scratch folders go inside the profile, so they go with it.
            .env("TMPDIR", profile.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let address = format!("127.0.0.1:{port}");
        let mut b = Browser {
            driver: child,
            address,
            session: String::new(),
            _profile: profile,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while !b.ready() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut args: Vec<String> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1200,900",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        args.push(format!("--user-data-dir={}", b._profile.path().display()));
        args.extend(extra.iter().cloned());
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": browser,
                "args": args,
            },
        }}});
        let v = b.call("POST", "/session", Some(caps));
        b.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        b
    }

    /// Whether the driver answers that it is ready.
    fn ready(&self) -> bool {
        use std::io::Read;
        let Ok(mut s) = std::net::TcpStream::connect(&self.address) else {
            return false;
        };
        let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
        if s.write_all(b"GET /status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .is_err()
        {
            return false;
        }
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = s.read(&mut buf) {
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&got).replace([' ', '\n'], "");
            if text.contains(r#""ready":true"#) {
                return true;
            }
        }
        false
    }

    /// One WebDriver command; its `value`, or a panic with the driver's error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string());
        let (status, answer) = request(&self.address, method, path, body.as_deref());
        let v: Value = serde_json::from_slice(&answer).unwrap_or_else(|e| {
            panic!("{method} {path}: {e}: {}", String::from_utf8_lossy(&answer))
        });
        assert!(status == 200, "{method} {path}: {status} {v}");
        v["value"].clone()
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    pub fn goto(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({"url": url})));
    }

    /// Elements matching a CSS selector, now.
    pub fn all(&self, css: &str) -> Vec<String> {
        let v = self.session_call(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_array()
            .expect("a list")
            .iter()
            .map(|e| {
                e[ELEMENT]
                    .as_str()
                    .unwrap_or_else(|| panic!("an element: {e}"))
                    .to_string()
            })
            .collect()
    }

    /// Waits (up to 30 s) until `css` matches `n` elements; the elements.
    pub fn wait_count(&self, css: &str, n: usize) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let found = self.all(css);
            if found.len() == n {
                return found;
            }
            assert!(
                Instant::now() < deadline,
                "`{css}` matches {} elements, not {n}",
                found.len()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the first element matching `css`.
    pub fn wait_one(&self, css: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(e) = self.all(css).into_iter().next() {
                return e;
            }
            assert!(Instant::now() < deadline, "nothing matches `{css}`");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn click(&self, css: &str) {
        let e = self.wait_one(css);
        self.session_call("POST", &format!("/element/{e}/click"), Some(json!({})));
    }

    /// Replaces the text of an input.
    pub fn type_into(&self, css: &str, text: &str) {
        let e = self.wait_one(css);
        self.session_call("POST", &format!("/element/{e}/clear"), Some(json!({})));
        self.session_call(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({"text": text})),
        );
    }

    pub fn text(&self, css: &str) -> String {
        let e = self.wait_one(css);
        self.session_call("GET", &format!("/element/{e}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    pub fn value(&self, css: &str) -> String {
        let e = self.wait_one(css);
        self.session_call("GET", &format!("/element/{e}/property/value"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Waits until the text of `css` is `want`.
    pub fn wait_text(&self, css: &str, want: &str) {
        self.wait_text_where(css, want, |t| t == want);
    }

    /// Waits until the text of `css` passes `ok` (`what` says what was wanted).
    pub fn wait_text_where(&self, css: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let got = self.text(css);
            if ok(&got) {
                return got;
            }
            assert!(
                Instant::now() < deadline,
                "`{css}` reads `{got}`, not `{what}`"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Presses the mouse on the first match of `from`, moves it to the middle of the
    /// first match of `to` in steps, and lets go there.
    pub fn drag(&self, from: &str, to: &str) {
        let (a, b) = (self.wait_one(from), self.wait_one(to));
        let origin = |e: &str| json!({ ELEMENT: e });
        let mut steps = vec![
            json!({"type": "pointerMove", "duration": 0, "origin": origin(&a), "x": 0, "y": 0}),
            json!({"type": "pointerDown", "button": 0}),
            json!({"type": "pointerMove", "duration": 100, "origin": "pointer", "x": 6, "y": 6}),
        ];
        steps.push(
            json!({"type": "pointerMove", "duration": 200, "origin": origin(&b), "x": 0, "y": 0}),
        );
        steps.push(json!({"type": "pointerUp", "button": 0}));
        self.session_call(
            "POST",
            "/actions",
            Some(json!({"actions": [{
                "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": steps,
            }]})),
        );
        let _ = request(
            &self.address,
            "DELETE",
            &format!("/session/{}/actions", self.session),
            None,
        );
    }

    /// Types keys into whatever has the focus (`\u{E007}` is Enter).
    pub fn keys(&self, css: &str, text: &str) {
        let e = self.wait_one(css);
        self.session_call(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({"text": text})),
        );
    }

    /// Runs a script in the page; its return value.
    pub fn script(&self, body: &str) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            Some(json!({"script": body, "args": []})),
        )
    }

    /// Sets the window's outer size.
    pub fn resize(&self, width: u32, height: u32) {
        self.session_call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    pub fn refresh(&self) {
        self.session_call("POST", "/refresh", Some(json!({})));
    }

    pub fn back(&self) {
        self.session_call("POST", "/back", Some(json!({})));
    }

    pub fn forward(&self) {
        self.session_call("POST", "/forward", Some(json!({})));
    }

    pub fn url(&self) -> String {
        self.session_call("GET", "/url", None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Waits until `ok` holds of the page's URL.
    pub fn wait_url(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let got = self.url();
            if ok(&got) {
                return got;
            }
            assert!(Instant::now() < deadline, "the URL is `{got}`, not {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let b64 = self.session_call("GET", "/screenshot", None);
        decode_base64(b64.as_str().expect("base64"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(
                &self.address,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn decode_base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s
        .bytes()
        .filter(|c| *c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, c)| n | (val(*c) as u32) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}
