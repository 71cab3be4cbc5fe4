//! `variantlab serve`: a local web page to explore and play variants.
//!
//! The page is static HTML, CSS and JavaScript built into the binary; every rule runs
//! in [`api::Api`] behind a small JSON API. It is a studio: the game, the pieces'
//! footprints, and the variant file in an editor, checked as it is typed and saved
//! back (`studio`); the page follows the file as it changes on disk. The server answers on the address it is
//! given (loopback by default), reads only the variant files it was given, and turns
//! every bad request into a 4xx answer with the reason.
//!
//! Only the page it serves may use it: a request must name this server in `Host`
//! (`localhost`, an IP address or the `--host` given, with the port), so that a web
//! page whose name is made to point at this machine reads nothing; a request from a
//! browser page of another origin is refused by its `Origin` (and an API request by
//! its `Sec-Fetch-Site`); and every write (each `POST`) carries the token made at
//! start, which the page learns from its own HTML.

mod answer;
pub mod api;
mod catalog;
mod http;
mod random;
mod request;
mod studio;

pub use answer::Answer;
pub use api::Api;
pub use catalog::Catalog;
pub use http::{
    MAX_BODY, MAX_HEAD, MAX_HEADERS, MAX_OPEN, MAX_TARGET, QUEUE, REQUEST_TIMEOUT, Request,
    WORKERS, WRITE_TIMEOUT,
};

use answer::shown;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;

/// The header that carries the token on writes.
pub const TOKEN_HEADER: &str = "X-Variantlab-Token";

const INDEX: &str = include_str!("page/index.html");
const STYLE: &str = include_str!("page/style.css");
const SCRIPT: &str = include_str!("page/app.js");
/// Where the page's HTML takes the token.
const TOKEN_SLOT: &str = "@TOKEN@";

/// A running server: its address, its token, and the threads answering.
pub struct Running {
    pub address: SocketAddr,
    /// The secret each write must carry in [`TOKEN_HEADER`].
    pub token: String,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Running {
    /// Blocks while the server runs.
    pub fn wait(self) {
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// Whether `host` names only this machine.
pub fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Starts serving the given variant files and folders on `host:port` (`port` 0 picks
/// a free one).
pub fn start(sources: Vec<PathBuf>, host: &str, port: u16) -> Result<Running, String> {
    let listener = TcpListener::bind((host, port))
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let address = listener
        .local_addr()
        .map_err(|e| format!("the server has no address: {e}"))?;
    let token = random::random_hex(16);
    let site = Arc::new(Site {
        api: Api::new(Catalog::new(sources)),
        index: INDEX.replace(TOKEN_SLOT, &token),
        token: token.clone(),
        host: host.to_string(),
        port: address.port(),
    });
    let handler: Arc<http::Handler> = Arc::new(move |r: &Request| site.answer(r));
    let threads =
        http::serve(listener, handler).map_err(|e| format!("cannot start the server: {e}"))?;
    Ok(Running {
        address,
        token,
        threads,
    })
}

/// What the server answers with: the page, its files and the API.
struct Site {
    api: Api,
    index: String,
    token: String,
    /// The `--host` given, and the port bound.
    host: String,
    port: u16,
}

impl Site {
    fn answer(&self, r: &Request) -> Answer {
        match self.admit(r) {
            Ok(()) => self.route(r),
            Err(a) => a,
        }
    }

    /// Refuses requests that name another server, come from another origin's page, or
    /// write without the token.
    fn admit(&self, r: &Request) -> Result<(), Answer> {
        let host = r
            .header("host")
            .ok_or_else(|| Answer::error(400, "a request must say its Host"))?;
        if !self.host_allowed(host) {
            return Err(Answer::error(
                403,
                format!(
                    "this server answers to localhost:{0} or 127.0.0.1:{0}, not to `{1}`",
                    self.port,
                    shown(host)
                ),
            ));
        }
        if let Some(origin) = r.header("origin")
            && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
        {
            return Err(Answer::error(
                403,
                format!(
                    "requests from pages of other origins (`{}`) are refused",
                    shown(origin)
                ),
            ));
        }
        // Browsers send no Origin on a plain GET from another site's page, but say
        // where it comes from: such a page may not make the API work for it.
        if r.target.starts_with("/api/")
            && let Some(site) = r.header("sec-fetch-site")
            && !matches!(site, "same-origin" | "none")
        {
            return Err(Answer::error(
                403,
                format!(
                    "API requests from pages of other sites (`{}`) are refused",
                    shown(site)
                ),
            ));
        }
        if r.method != "GET" && !token_matches(r.header(TOKEN_HEADER), &self.token) {
            return Err(Answer::error(
                403,
                format!(
                    "a {} needs the page's token in {TOKEN_HEADER}; reload the page",
                    r.method
                ),
            ));
        }
        Ok(())
    }

    /// `NAME:PORT` with this server's port, and a name that can only mean this server:
    /// `localhost`, an IP address (which no DNS answer can rebind), or the host given.
    fn host_allowed(&self, host: &str) -> bool {
        let (name, port) = match host.strip_prefix('[') {
            Some(rest) => match rest.split_once(']') {
                Some((name, "")) => (name, "80"),
                Some((name, port)) => match port.strip_prefix(':') {
                    Some(port) => (name, port),
                    None => return false,
                },
                None => return false,
            },
            None => host.rsplit_once(':').unwrap_or((host, "80")),
        };
        port.parse::<u16>() == Ok(self.port)
            && (name.eq_ignore_ascii_case("localhost")
                || name.eq_ignore_ascii_case(&self.host)
                || name.parse::<IpAddr>().is_ok())
    }

    fn route(&self, r: &Request) -> Answer {
        let (method, url) = (r.method.as_str(), r.target.as_str());
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let page = |content_type, text: &str| Answer {
            status: 200,
            content_type,
            body: text.as_bytes().to_vec(),
        };
        match (method, path) {
            ("GET", "/" | "/index.html") => page("text/html; charset=utf-8", &self.index),
            ("GET", "/style.css") => page("text/css; charset=utf-8", STYLE),
            ("GET", "/app.js") => page("text/javascript; charset=utf-8", SCRIPT),
            (_, p) if p.starts_with("/api/") => {
                let path = match request::decode(p) {
                    Ok(p) => p,
                    Err(a) => return a,
                };
                self.api.handle(method, &path, query, &r.body)
            }
            (_, "/" | "/index.html" | "/style.css" | "/app.js") => {
                Answer::error(405, format!("{method} is not allowed on {path}"))
            }
            _ => Answer::error(404, format!("nothing at {}", shown(path))),
        }
    }
}

/// Compares the token in time independent of where the first difference is.
fn token_matches(given: Option<&str>, token: &str) -> bool {
    let Some(given) = given else { return false };
    given.len() == token.len()
        && given
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |d, (a, b)| d | (a ^ b))
            == 0
}
