//! A `variantlab serve` process for tests, and a small HTTP client to talk to it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A server on a free port, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`
    pub address: String,
    /// The token writes carry, from the line the server prints after its address.
    pub token: String,
}

impl Server {
    /// Serves the given files or folders (relative paths from the repository root).
    pub fn start(sources: &[&Path]) -> Server {
        Server::start_with(sources, &[])
    }

    /// [`Server::start`] with more arguments to `serve`.
    pub fn start_with(sources: &[&Path], args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .arg("serve")
            .args(sources)
            .args(["--port", "0"])
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        out.read_line(&mut line)
            .expect("the server prints its address");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in `{line}`"))
            .to_string();
        let mut line = String::new();
        out.read_line(&mut line)
            .expect("the server prints its token");
        let token = line
            .strip_prefix("API token: ")
            .unwrap_or_else(|| panic!("no token in `{line}`"))
            .trim()
            .to_string();
        Server {
            child,
            address,
            token,
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's resident memory in KiB and its thread count, from /proc.
    pub fn memory_and_threads(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("reads the server's status");
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no {name} in {status}"))
        };
        (field("VmRSS:"), field("Threads:"))
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Sends a request as the page does, with the token; the status and the body.
    pub fn call(&self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        let token = format!("X-Variantlab-Token: {}", self.token);
        let (status, body) = request_with(&self.address, method, path, body, &[&token]);
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    /// Sends a request whose answer must be JSON.
    pub fn json(&self, method: &str, path: &str, body: Option<&str>) -> (u16, serde_json::Value) {
        let (status, text) = self.call(method, path, body);
        let v = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        (status, v)
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().expect("waits").is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on a fresh connection; the status code and the body.
pub fn request(address: &str, method: &str, path: &str, body: Option<&str>) -> (u16, Vec<u8>) {
    request_with(address, method, path, body, &[])
}

/// One HTTP/1.1 request with extra header lines (`Name: value`).
pub fn request_with(
    address: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[&str],
) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(address).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.unwrap_or("");
    let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
    raw_answer(s)
}

/// Reads an answer: up to its Content-Length, or until the peer closes.
pub fn raw_answer(mut s: TcpStream) -> (u16, Vec<u8>) {
    let mut all = Vec::new();
    let mut buf = [0u8; 8192];
    let mut wanted: Option<usize> = None;
    loop {
        if let Some(w) = wanted
            && all.len() >= w
        {
            break;
        }
        let n = match s.read(&mut buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => r.expect("reads the answer"),
        };
        if n == 0 {
            break;
        }
        all.extend_from_slice(&buf[..n]);
        if wanted.is_none()
            && let Some(end) = all.windows(4).position(|w| w == b"\r\n\r\n")
        {
            let head = String::from_utf8_lossy(&all[..end]).to_ascii_lowercase();
            wanted = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|n| n.trim().parse::<usize>().ok())
                .map(|n| end + 4 + n);
        }
    }
    let split = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(&all)));
    let head = String::from_utf8_lossy(&all[..split]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head}"));
    let mut body = all[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = unchunk(&body);
    }
    (status, body)
}

fn unchunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = b.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&b[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[end + 2..end + 2 + size]);
        b = &b[end + 4 + size..];
    }
}
