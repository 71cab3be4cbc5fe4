//! The HTTP side of the server: hyper's HTTP/1.1 on a tokio runtime, with the app's
//! limits around it.
//!
//! Connections are tasks, not threads: an idle, slow or reading client costs a few
//! kilobytes and no worker. A request's head must arrive within [`REQUEST_TIMEOUT`]
//! (hyper closes the connection otherwise), its body within the same time (408), and
//! each write of an answer must make progress within [`WRITE_TIMEOUT`]. Only a whole
//! request reaches the app: [`App::quick`] on the connection's task for what costs
//! nothing (refusals, the page's files), [`App::work`] on one of [`WORKERS`] blocking
//! threads, with a flag set when the client goes away so long work can stop.

use super::answer::Answer;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited, StreamBody, combinators::BoxBody};
use hyper::body::{Frame, Incoming};
use hyper::header::{HeaderName, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::{Semaphore, mpsc};
use tokio_io_timeout::TimeoutStream;
use tokio_stream::StreamExt;

/// The longest request target (path and query), in bytes: 414 beyond.
pub const MAX_TARGET: usize = 2048;
/// The longest request head (request line and headers), in bytes: 431 beyond.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most header lines a request may have: 431 beyond.
pub const MAX_HEADERS: usize = 64;
/// The largest request body, in bytes: 413 beyond, answered before reading it.
pub const MAX_BODY: usize = 64 * 1024;
/// A request's head, and then its body, must arrive within this time.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// Each write of an answer must be taken by the client within this time.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections open at once; more wait to be accepted.
pub const MAX_OPEN: usize = 4096;
/// Threads doing the app's work.
pub const WORKERS: usize = 8;
/// Whole requests waiting for a worker: 503 beyond.
pub const QUEUE: usize = 64;
/// Event streams open at once: 503 beyond.
pub const MAX_STREAMS: usize = 64;
/// How often an event stream looks for news, and how often it says it is alive.
const EVENT_POLL: Duration = Duration::from_millis(250);
const EVENT_ALIVE: Duration = Duration::from_secs(15);
/// Workers run variant checks and compiles, which recurse as deep as a move is long.
const WORKER_STACK: usize = 32 << 20;

/// A request as read: method, target, headers (names in lowercase), body, and who
/// sent it.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub peer: SocketAddr,
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

/// What a stream of events sends: called every [`EVENT_POLL`]; each `Some` is sent
/// as one event's data.
pub type Events = Box<dyn FnMut() -> Option<String> + Send>;

/// An answer, or a stream of server-sent events.
pub enum Reply {
    Whole(Answer),
    Events(Events),
}

/// What answers requests.
pub trait App: Send + Sync + 'static {
    /// The answer when it needs no work (a refusal, a page file); `None` to [`App::work`].
    fn quick(&self, r: &Request) -> Option<Answer>;
    /// The answer, on a worker thread; `gone` is set once the client has gone away.
    fn work(&self, r: &Request, gone: &Arc<AtomicBool>) -> Reply;
}

/// Answers every request on `listener` with `app`, on a thread that runs for as long
/// as the process does.
pub fn serve(
    listener: TcpListener,
    app: Arc<dyn App>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    // A burst of connections waits in the kernel's queue rather than being dropped
    // (std listens with room for 128).
    let listener = socket2::Socket::from(listener);
    listener.listen(1024)?;
    let listener = TcpListener::from(listener);
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(WORKERS)
        .thread_stack_size(WORKER_STACK)
        .thread_name("http")
        .enable_all()
        .build()?;
    let listener = {
        let _inside = runtime.enter();
        tokio::net::TcpListener::from_std(listener)?
    };
    std::thread::Builder::new()
        .name("http-accept".into())
        .spawn(move || {
            let _ = runtime.block_on(runtime.spawn(accept(listener, app)));
        })
}

struct Shared {
    app: Arc<dyn App>,
    workers: Arc<Semaphore>,
    waiting: AtomicUsize,
    streams: AtomicUsize,
}

async fn accept(listener: tokio::net::TcpListener, app: Arc<dyn App>) {
    let shared = Arc::new(Shared {
        app,
        workers: Arc::new(Semaphore::new(WORKERS)),
        waiting: AtomicUsize::new(0),
        streams: AtomicUsize::new(0),
    });
    let open = Arc::new(Semaphore::new(MAX_OPEN));
    loop {
        let Ok(permit) = open.clone().acquire_owned().await else {
            return;
        };
        let (stream, peer) = match listener.accept().await {
            Ok(c) => c,
            // Out of descriptors or a connection reset before it was taken: wait a
            // little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let mut stream = TimeoutStream::new(stream);
        stream.set_write_timeout(Some(WRITE_TIMEOUT));
        let shared = shared.clone();
        tokio::spawn(async move {
            let service = service_fn(move |r| answer(shared.clone(), peer, r));
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(REQUEST_TIMEOUT)
                .max_buf_size(MAX_HEAD)
                .max_headers(MAX_HEADERS)
                .serve_connection(TokioIo::new(Box::pin(stream)), service)
                .await;
            drop(permit);
        });
    }
}

type Body = BoxBody<Bytes, Infallible>;

/// Sets its flag when dropped: hyper drops a request's future when its client goes.
struct Gone(Arc<AtomicBool>);

impl Drop for Gone {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

async fn answer(
    shared: Arc<Shared>,
    peer: SocketAddr,
    r: hyper::Request<Incoming>,
) -> Result<hyper::Response<Body>, Infallible> {
    let request = match read(r, peer).await {
        Ok(request) => request,
        Err(a) => return Ok(whole(a)),
    };
    if let Some(a) = shared.app.quick(&request) {
        return Ok(whole(a));
    }
    if shared.waiting.fetch_add(1, Ordering::Relaxed) >= QUEUE {
        shared.waiting.fetch_sub(1, Ordering::Relaxed);
        return Ok(whole(Answer::error(503, "the server is busy; try again")));
    }
    let worker = shared.workers.clone().acquire_owned().await;
    shared.waiting.fetch_sub(1, Ordering::Relaxed);
    let Ok(worker) = worker else {
        return Ok(whole(Answer::error(503, "the server is stopping")));
    };
    let gone = Gone(Arc::new(AtomicBool::new(false)));
    let (app, flag) = (shared.app.clone(), gone.0.clone());
    // The worker is held by the work, not by this future: work whose client went
    // away still counts until it stops.
    let reply = tokio::task::spawn_blocking(move || {
        let _worker = worker;
        app.work(&request, &flag)
    })
    .await;
    drop(gone);
    Ok(match reply {
        Ok(Reply::Whole(a)) => whole(a),
        Ok(Reply::Events(events)) => stream(&shared, events),
        Err(_) => whole(Answer::error(500, "internal error; the server goes on")),
    })
}

/// The request whole, within the limits, or the answer that refuses it.
async fn read(r: hyper::Request<Incoming>, peer: SocketAddr) -> Result<Request, Answer> {
    let target = r
        .uri()
        .path_and_query()
        .map_or_else(|| r.uri().to_string(), |p| p.as_str().to_string());
    if target.len() > MAX_TARGET {
        return Err(Answer::error(
            414,
            format!("a request target is at most {MAX_TARGET} bytes"),
        ));
    }
    let mut headers = Vec::with_capacity(r.headers().len());
    for (name, value) in r.headers() {
        let value = value
            .to_str()
            .map_err(|_| Answer::error(400, format!("header `{name}` is not text")))?;
        headers.push((name.as_str().to_string(), value.to_string()));
    }
    let announced = r
        .headers()
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let method = r.method().as_str().to_string();
    let body = Limited::new(r.into_body(), MAX_BODY);
    let body = match tokio::time::timeout(REQUEST_TIMEOUT, body.collect()).await {
        Err(_) => return Err(Answer::error(408, "the request did not arrive in time")),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => return Err(too_large()),
        Ok(Err(_)) => return Err(Answer::error(400, "the request's body is broken")),
        Ok(Ok(b)) => b.to_bytes().to_vec(),
    };
    Ok(Request {
        method,
        target,
        headers,
        body,
        peer,
    })
}

fn too_large() -> Answer {
    Answer::error(413, format!("a request body is at most {MAX_BODY} bytes"))
}

fn whole(a: Answer) -> hyper::Response<Body> {
    let mut out = hyper::Response::new(Full::new(Bytes::from(a.body)).boxed());
    *out.status_mut() =
        hyper::StatusCode::from_u16(a.status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    headers(&mut out, a.content_type);
    out
}

fn headers(out: &mut hyper::Response<Body>, content_type: &'static str) {
    let h = out.headers_mut();
    for (name, value) in [
        ("content-type", content_type),
        ("cache-control", "no-store"),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
    ] {
        h.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
}

/// Server-sent events: each news `events` gives, and a comment now and then so that
/// a dead client is found by a failed write.
fn stream(shared: &Arc<Shared>, mut events: Events) -> hyper::Response<Body> {
    if shared.streams.fetch_add(1, Ordering::Relaxed) >= MAX_STREAMS {
        shared.streams.fetch_sub(1, Ordering::Relaxed);
        return whole(Answer::error(503, "too many pages are open; close some"));
    }
    let (send, receive) = mpsc::channel::<Frame<Bytes>>(1);
    let shared = shared.clone();
    tokio::spawn(async move {
        let mut quiet = Duration::ZERO;
        loop {
            // A look at the file's length and time; its text only when they change.
            let news = events();
            let text = match news {
                Some(data) => format!("data: {}\n\n", data.replace('\n', "\ndata: ")),
                None if quiet >= EVENT_ALIVE => ": alive\n\n".to_string(),
                None => {
                    quiet += EVENT_POLL;
                    tokio::time::sleep(EVENT_POLL).await;
                    continue;
                }
            };
            quiet = Duration::ZERO;
            if send.send(Frame::data(Bytes::from(text))).await.is_err() {
                break;
            }
            tokio::time::sleep(EVENT_POLL).await;
        }
        shared.streams.fetch_sub(1, Ordering::Relaxed);
    });
    let frames = tokio_stream::wrappers::ReceiverStream::new(receive).map(Ok::<_, Infallible>);
    let mut out = hyper::Response::new(BodyExt::boxed(StreamBody::new(frames)));
    headers(&mut out, "text/event-stream");
    out
}
