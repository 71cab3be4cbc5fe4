//! `variantlab serve`: a local web page to explore and play variants.
//!
//! The page is static HTML, CSS and JavaScript built into the binary; every rule runs
//! in [`api::Api`] behind a small JSON API. The server answers on the address it is
//! given (loopback by default), reads only the variant files it was given, and turns
//! every bad request into a 4xx answer with the reason.

mod answer;
pub mod api;
mod catalog;
mod request;

pub use answer::Answer;
pub use api::Api;
pub use catalog::Catalog;

use std::io::Read;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Request bodies larger than this are refused.
const MAX_BODY: usize = 64 * 1024;
/// Threads answering requests.
const WORKERS: usize = 4;

const INDEX: &str = include_str!("page/index.html");
const STYLE: &str = include_str!("page/style.css");
const SCRIPT: &str = include_str!("page/app.js");

/// A running server: its address, and the threads answering.
pub struct Running {
    pub address: SocketAddr,
    workers: Vec<std::thread::JoinHandle<()>>,
}

impl Running {
    /// Blocks while the server runs.
    pub fn wait(self) {
        for w in self.workers {
            let _ = w.join();
        }
    }
}

/// Starts serving the given variant files and folders on `host:port` (`port` 0 picks
/// a free one).
pub fn start(sources: Vec<PathBuf>, host: &str, port: u16) -> Result<Running, String> {
    let server = tiny_http::Server::http((host, port))
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let address = server
        .server_addr()
        .to_ip()
        .ok_or("the server has no IP address")?;
    let server = Arc::new(server);
    let api = Arc::new(Mutex::new(Api::new(Catalog::new(sources))));
    let workers = (0..WORKERS)
        .map(|_| {
            let (server, api) = (server.clone(), api.clone());
            std::thread::spawn(move || {
                loop {
                    // An error accepting one connection does not stop the worker.
                    match server.recv() {
                        Ok(req) => answer(req, &api),
                        Err(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
                    }
                }
            })
        })
        .collect();
    Ok(Running { address, workers })
}

/// Answers one request; a fault in the handler answers 500 and the server goes on.
fn answer(mut req: tiny_http::Request, api: &Mutex<Api>) {
    let method = req.method().as_str().to_ascii_uppercase();
    let url = req.url().to_string();
    let mut body = Vec::new();
    let too_big = req
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .is_err()
        || body.len() > MAX_BODY;
    let a = if too_big {
        Answer::error(
            413,
            format!("request bodies are limited to {MAX_BODY} bytes"),
        )
    } else {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            route(&method, &url, &body, api)
        }))
        .unwrap_or_else(|_| Answer::error(500, "internal error; the server goes on"))
    };
    let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], a.content_type.as_bytes())
        .expect("a valid header");
    let nocache = tiny_http::Header::from_bytes(&b"Cache-Control"[..], &b"no-store"[..])
        .expect("a valid header");
    let response = tiny_http::Response::from_data(a.body)
        .with_status_code(a.status)
        .with_header(header)
        .with_header(nocache);
    let _ = req.respond(response);
}

fn route(method: &str, url: &str, body: &[u8], api: &Mutex<Api>) -> Answer {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let page = |content_type, text: &str| Answer {
        status: 200,
        content_type,
        body: text.as_bytes().to_vec(),
    };
    match (method, path) {
        ("GET", "/" | "/index.html") => page("text/html; charset=utf-8", INDEX),
        ("GET", "/style.css") => page("text/css; charset=utf-8", STYLE),
        ("GET", "/app.js") => page("text/javascript; charset=utf-8", SCRIPT),
        (_, p) if p.starts_with("/api/") => {
            let path = match request::decode(p) {
                Ok(p) => p,
                Err(a) => return a,
            };
            api.lock()
                .unwrap_or_else(|e| e.into_inner())
                .handle(method, &path, query, body)
        }
        (_, "/" | "/index.html" | "/style.css" | "/app.js") => {
            Answer::error(405, format!("{method} is not allowed on {path}"))
        }
        _ => Answer::error(404, format!("nothing at {path}")),
    }
}
