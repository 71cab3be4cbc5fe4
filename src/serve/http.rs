//! A small HTTP/1.1 server over `std::net`, with its limits built in.
//!
//! One reader thread waits on every open connection at once with `poll(2)` and reads
//! each request whole, within [`REQUEST_TIMEOUT`] and the size limits below; only a
//! complete request reaches one of [`WORKERS`] threads, which answers it and closes
//! the connection (no keep-alive). So a slow or idle client holds a few bytes of
//! buffer, never a thread; at most [`MAX_OPEN`] connections are read at once, the
//! oldest going first when more arrive; a request that breaks a limit is answered
//! with its 4xx status at once, before its body is read; and nothing here allocates
//! more than the limits allow, whatever a client announces.

use super::answer::Answer;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The longest request target (path and query), in bytes: 414 beyond.
pub const MAX_TARGET: usize = 2048;
/// The longest request head (request line and headers), in bytes: 431 beyond.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most header lines a request may have: 431 beyond.
pub const MAX_HEADERS: usize = 64;
/// The largest request body, in bytes: 413 beyond, answered before reading it.
pub const MAX_BODY: usize = 64 * 1024;
/// A request must arrive whole within this time from its connection: 408 after.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// An answer must be taken by the client within this time.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections being read at once; the oldest is dropped to make room for a new one.
pub const MAX_OPEN: usize = 1024;
/// Threads answering complete requests.
pub const WORKERS: usize = 8;
/// Complete requests waiting for a worker: 503 beyond.
pub const QUEUE: usize = 64;
/// After an early answer, what the client still sends is read and dropped for this
/// long (at most [`DRAIN_BYTES`]), so that the answer is not lost to a reset.
const DRAIN_TIME: Duration = Duration::from_secs(2);
const DRAIN_BYTES: usize = 1 << 20;
/// Workers run variant checks and compiles, which recurse as deep as a move is long.
const WORKER_STACK: usize = 32 << 20;

/// A request as read: method, target, headers (names in lowercase) and body.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// A header's value, by name in any case; `None` if absent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What answers requests; called on the worker threads.
pub type Handler = dyn Fn(&Request) -> Answer + Send + Sync;

/// Listens on `listener` and answers every request with `handler`; returns the
/// threads, which run for as long as the process does.
pub fn serve(
    listener: TcpListener,
    handler: Arc<Handler>,
) -> std::io::Result<Vec<std::thread::JoinHandle<()>>> {
    listener.set_nonblocking(true)?;
    let (send, receive) = sync_channel::<(TcpStream, Request)>(QUEUE);
    let receive = Arc::new(Mutex::new(receive));
    let mut threads = Vec::new();
    for i in 0..WORKERS {
        let (receive, handler) = (receive.clone(), handler.clone());
        threads.push(
            std::thread::Builder::new()
                .name(format!("http-worker-{i}"))
                .stack_size(WORKER_STACK)
                .spawn(move || work(&receive, &*handler))?,
        );
    }
    threads.push(
        std::thread::Builder::new()
            .name("http-reader".into())
            .spawn(move || Reader::new(listener, send).run())?,
    );
    Ok(threads)
}

fn work(receive: &Mutex<Receiver<(TcpStream, Request)>>, handler: &Handler) {
    loop {
        let next = receive
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv();
        let Ok((mut stream, request)) = next else {
            return;
        };
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(&request)))
            .unwrap_or_else(|_| Answer::error(500, "internal error; the server goes on"));
        let _ = stream.set_nonblocking(false);
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        let _ = stream.write_all(&encode(&answer));
        let _ = stream.shutdown(Shutdown::Write);
    }
}

/// An answer as bytes on the wire, closing the connection.
pub fn encode(a: &Answer) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nConnection: close\r\n\r\n",
        a.status,
        reason(a.status),
        a.content_type,
        a.body.len()
    )
    .into_bytes();
    out.extend_from_slice(&a.body);
    out
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Other",
    }
}

/// A connection being read, or drained after an early answer.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    /// Where the head ends and how long the body is, once the head is read.
    head: Option<(Head, usize)>,
    deadline: Instant,
    /// Set once answered early: the bytes still read and dropped.
    draining: Option<usize>,
}

struct Head {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: usize,
}

enum Progress {
    More,
    Done(Request),
    /// Answered already; read what the client still sends, then close.
    Drain,
    Close,
}

struct Reader {
    listener: TcpListener,
    send: SyncSender<(TcpStream, Request)>,
    conns: Vec<Conn>,
}

impl Reader {
    fn new(listener: TcpListener, send: SyncSender<(TcpStream, Request)>) -> Reader {
        Reader {
            listener,
            send,
            conns: Vec::new(),
        }
    }

    fn run(mut self) {
        let mut fds: Vec<libc::pollfd> = Vec::new();
        loop {
            let now = Instant::now();
            let wait = self
                .conns
                .iter()
                .map(|c| c.deadline.saturating_duration_since(now))
                .min()
                .unwrap_or(Duration::from_secs(1))
                .min(Duration::from_secs(1));
            fds.clear();
            fds.push(pollfd(self.listener.as_raw_fd()));
            fds.extend(self.conns.iter().map(|c| pollfd(c.stream.as_raw_fd())));
            // SAFETY: `fds` is a valid array of `fds.len()` pollfd structures, all
            // naming descriptors owned by this thread for the duration of the call.
            let n = unsafe {
                libc::poll(
                    fds.as_mut_ptr(),
                    fds.len() as libc::nfds_t,
                    wait.as_millis().clamp(1, 1000) as libc::c_int,
                )
            };
            if n < 0 {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            // Connections first, by their readiness in this round; new ones after.
            let ready: Vec<bool> = fds[1..].iter().map(|f| f.revents != 0).collect();
            let mut keep = Vec::with_capacity(self.conns.len());
            let now = Instant::now();
            for (mut c, ready) in std::mem::take(&mut self.conns).into_iter().zip(ready) {
                let progress = if ready {
                    self.progress(&mut c)
                } else {
                    Progress::More
                };
                match progress {
                    Progress::More if now >= c.deadline => {
                        if c.draining.is_none() && !c.buf.is_empty() {
                            early(
                                &mut c,
                                Answer::error(408, "the request did not arrive in time"),
                            );
                        }
                    }
                    Progress::More => keep.push(c),
                    Progress::Drain => {
                        c.deadline = Instant::now() + DRAIN_TIME;
                        keep.push(c)
                    }
                    Progress::Done(request) => match self.send.try_send((c.stream, request)) {
                        Ok(()) => {}
                        Err(TrySendError::Full((stream, _))) => {
                            c.stream = stream;
                            early(&mut c, Answer::error(503, "the server is busy; try again"));
                            c.deadline = Instant::now() + DRAIN_TIME;
                            keep.push(c);
                        }
                        Err(TrySendError::Disconnected(_)) => {}
                    },
                    Progress::Close => {}
                }
            }
            self.conns = keep;
            if fds[0].revents != 0 {
                self.accept();
            }
        }
    }

    fn accept(&mut self) {
        // A bounded batch, so that a flood of connections cannot starve the others.
        for _ in 0..256 {
            match self.listener.accept() {
                Ok((stream, _)) => {
                    if stream.set_nonblocking(true).is_err() {
                        continue;
                    }
                    let _ = stream.set_nodelay(true);
                    if self.conns.len() >= MAX_OPEN {
                        // The oldest connection makes room: it had the longest time.
                        let mut old = self.conns.remove(0);
                        if old.draining.is_none() {
                            let _ = old.stream.write(&encode(&Answer::error(
                                503,
                                "too many connections; try again",
                            )));
                        }
                    }
                    self.conns.push(Conn {
                        stream,
                        buf: Vec::new(),
                        head: None,
                        deadline: Instant::now() + REQUEST_TIMEOUT,
                        draining: None,
                    });
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => {
                    // Out of descriptors or memory: wait a little rather than spin.
                    std::thread::sleep(Duration::from_millis(20));
                    return;
                }
            }
        }
    }

    /// Reads what a connection has sent and acts on it.
    fn progress(&self, c: &mut Conn) -> Progress {
        let mut chunk = [0u8; 16 * 1024];
        loop {
            if let Some(left) = c.draining {
                match c.stream.read(&mut chunk) {
                    Ok(0) => return Progress::Close,
                    Ok(n) if n >= left => return Progress::Close,
                    Ok(n) => c.draining = Some(left - n),
                    Err(e) if e.kind() == ErrorKind::WouldBlock => return Progress::More,
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(_) => return Progress::Close,
                }
                continue;
            }
            // Never read past what the request may hold.
            let room = match &c.head {
                None => MAX_HEAD + 4 - c.buf.len(),
                Some((h, end)) => (end + h.body).saturating_sub(c.buf.len()),
            };
            let want = room.min(chunk.len());
            if want == 0 {
                return self.step(c);
            }
            match c.stream.read(&mut chunk[..want]) {
                Ok(0) => return Progress::Close,
                Ok(n) => {
                    let from = c.buf.len().saturating_sub(3);
                    c.buf.extend_from_slice(&chunk[..n]);
                    if c.head.is_none() {
                        match parse_head(&c.buf, from) {
                            Ok(None) => {}
                            Ok(Some((head, end))) => {
                                if head.expects_continue && head.head.body > 0 {
                                    let _ = c.stream.write(b"HTTP/1.1 100 Continue\r\n\r\n");
                                }
                                c.head = Some((head.head, end));
                            }
                            Err(a) => {
                                early(c, a);
                                return Progress::Drain;
                            }
                        }
                    }
                    if let Some((h, end)) = &c.head
                        && c.buf.len() >= end + h.body
                    {
                        return self.step(c);
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Progress::More,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => return Progress::Close,
            }
        }
    }

    /// The complete request, its body cut to the length announced.
    fn step(&self, c: &mut Conn) -> Progress {
        let Some((head, end)) = c.head.take() else {
            return Progress::Close;
        };
        let mut body = c.buf.split_off(end);
        body.truncate(head.body);
        Progress::Done(Request {
            method: head.method,
            target: head.target,
            headers: head.headers,
            body,
        })
    }
}

fn pollfd(fd: std::os::fd::RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    }
}

/// Answers a connection before its request is whole (a small answer, which fits the
/// socket's buffer), and marks it to be drained.
fn early(c: &mut Conn, a: Answer) {
    let _ = c.stream.write(&encode(&a));
    let _ = c.stream.shutdown(Shutdown::Write);
    c.draining = Some(DRAIN_BYTES);
    c.buf = Vec::new();
    c.head = None;
}

struct ParsedHead {
    head: Head,
    expects_continue: bool,
}

/// Reads a request head from the start of `buf` once it is whole (`from` is where to
/// look for its end); the head and where the body begins. A head that breaks a limit
/// or the protocol is the answer to send.
fn parse_head(buf: &[u8], from: usize) -> Result<Option<(ParsedHead, usize)>, Answer> {
    // The request line alone: method, target and version.
    let line_end = buf.windows(2).position(|w| w == b"\r\n");
    if line_end.unwrap_or(buf.len()) > MAX_TARGET + 32 {
        return Err(Answer::error(
            414,
            format!("request targets are limited to {MAX_TARGET} bytes"),
        ));
    }
    let Some(end) = buf[from..]
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| from + p)
    else {
        if buf.len() > MAX_HEAD {
            return Err(Answer::error(
                431,
                format!("request heads are limited to {MAX_HEAD} bytes"),
            ));
        }
        return Ok(None);
    };
    if end + 4 > MAX_HEAD + 4 {
        return Err(Answer::error(
            431,
            format!("request heads are limited to {MAX_HEAD} bytes"),
        ));
    }
    let text = std::str::from_utf8(&buf[..end])
        .map_err(|_| Answer::error(400, "the request head is not text"))?;
    let mut lines = text.split("\r\n");
    let first = lines.next().unwrap_or("");
    let mut words = first.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(Answer::error(
            400,
            "the request line is not METHOD TARGET HTTP/1.1",
        ));
    };
    if method.is_empty() || method.len() > 16 || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(Answer::error(
            400,
            "the request line is not METHOD TARGET HTTP/1.1",
        ));
    }
    if !matches!(version, "HTTP/1.1" | "HTTP/1.0") {
        return Err(Answer::error(
            505,
            "only HTTP/1.0 and HTTP/1.1 are spoken here",
        ));
    }
    if target.len() > MAX_TARGET {
        return Err(Answer::error(
            414,
            format!("request targets are limited to {MAX_TARGET} bytes"),
        ));
    }
    if !target.starts_with('/') || !target.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Answer::error(
            400,
            "the request target must be a path starting with /",
        ));
    }
    let mut headers = Vec::new();
    for line in lines {
        if headers.len() == MAX_HEADERS {
            return Err(Answer::error(
                431,
                format!("requests are limited to {MAX_HEADERS} headers"),
            ));
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(Answer::error(400, "a header line has no `:`"));
        };
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
        {
            return Err(Answer::error(400, "a header's name is not a token"));
        }
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    fn get<'a>(headers: &'a [(String, String)], n: &'a str) -> impl Iterator<Item = &'a str> {
        headers
            .iter()
            .filter(move |(h, _)| h == n)
            .map(|(_, v)| v.as_str())
    }
    if get(&headers, "transfer-encoding").next().is_some() {
        return Err(Answer::error(
            501,
            "chunked bodies are not supported; send Content-Length",
        ));
    }
    let lengths: Vec<&str> = get(&headers, "content-length").collect();
    let body = match lengths.as_slice() {
        [] => 0,
        [n] if !n.is_empty() && n.len() <= 20 && n.bytes().all(|b| b.is_ascii_digit()) => {
            match n.parse::<u64>() {
                Ok(n) if n <= MAX_BODY as u64 => n as usize,
                _ => {
                    return Err(Answer::error(
                        413,
                        format!("request bodies are limited to {MAX_BODY} bytes"),
                    ));
                }
            }
        }
        [_] => return Err(Answer::error(400, "Content-Length is not a number")),
        _ => return Err(Answer::error(400, "Content-Length is given more than once")),
    };
    let expects_continue = get(&headers, "expect").any(|v| v.eq_ignore_ascii_case("100-continue"));
    Ok(Some((
        ParsedHead {
            head: Head {
                method: method.to_string(),
                target: target.to_string(),
                headers,
                body,
            },
            expects_continue,
        },
        end + 4,
    )))
}
