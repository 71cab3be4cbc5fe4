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
    MAX_BODY, MAX_HEAD, MAX_HEADERS, MAX_OPEN, MAX_STREAMS, MAX_TARGET, QUEUE, REQUEST_TIMEOUT,
    Request, WORKERS, WRITE_TIMEOUT,
};

use answer::shown;
use http::Reply;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The header that carries the token on writes.
pub const TOKEN_HEADER: &str = "X-Variantlab-Token";

const INDEX: &str = include_str!("page/index.html");
const STYLE: &str = include_str!("page/style.css");
const SCRIPT: &str = include_str!("page/app.js");
/// Where the page's HTML takes the token.
const TOKEN_SLOT: &str = "@TOKEN@";

/// A running server: its address, its token, and the thread answering.
pub struct Running {
    pub address: SocketAddr,
    /// The secret each write must carry in [`TOKEN_HEADER`].
    pub token: String,
    thread: std::thread::JoinHandle<()>,
}

impl Running {
    /// Blocks while the server runs.
    pub fn wait(self) {
        let _ = self.thread.join();
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

/// Where the server listens and whom it lets write.
#[derive(Clone, Debug)]
pub struct Options {
    pub host: String,
    /// 0 picks a free one.
    pub port: u16,
    /// Whether a page on another machine may save the served files; without it only
    /// this machine's may.
    pub remote_saves: bool,
}

/// Starts serving the given variant files and folders.
pub fn start(sources: Vec<PathBuf>, options: &Options) -> Result<Running, String> {
    let (host, port) = (options.host.as_str(), options.port);
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
        remote_saves: options.remote_saves,
    });
    let thread =
        http::serve(listener, site).map_err(|e| format!("cannot start the server: {e}"))?;
    Ok(Running {
        address,
        token,
        thread,
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
    remote_saves: bool,
}

impl http::App for Site {
    fn quick(&self, r: &Request) -> Option<Answer> {
        if let Err(a) = self.admit(r) {
            return Some(a);
        }
        let (method, url) = (r.method.as_str(), r.target.as_str());
        let path = url.split_once('?').map_or(url, |(p, _)| p);
        let page = |content_type, text: &str| Answer {
            status: 200,
            content_type,
            body: text.as_bytes().to_vec(),
        };
        match (method, path) {
            ("GET", "/" | "/index.html") => Some(page("text/html; charset=utf-8", &self.index)),
            ("GET", "/style.css") => Some(page("text/css; charset=utf-8", STYLE)),
            ("GET", "/app.js") => Some(page("text/javascript; charset=utf-8", SCRIPT)),
            (_, p) if p.starts_with("/api/") => None,
            (_, "/" | "/index.html" | "/style.css" | "/app.js") => Some(Answer::error(
                405,
                format!("{method} is not allowed on {path}"),
            )),
            _ => Some(Answer::error(404, format!("nothing at {}", shown(path)))),
        }
    }

    fn work(&self, r: &Request, gone: &Arc<AtomicBool>) -> Reply {
        let url = r.target.as_str();
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let path = match request::decode(path) {
            Ok(p) => p,
            Err(a) => return Reply::Whole(a),
        };
        if r.method == "POST" && path.ends_with("/source") && !self.may_save(r) {
            return Reply::Whole(Answer::error(
                403,
                "saving files from another machine is off; the server's owner can turn it on with --remote-saves",
            ));
        }
        if r.method == "GET"
            && let Some(id) = path
                .strip_prefix("/api/variants/")
                .and_then(|p| p.strip_suffix("/events"))
            && !id.contains('/')
        {
            return match self.api.watch(id) {
                Ok(events) => Reply::Events(events),
                Err(a) => Reply::Whole(a),
            };
        }
        Reply::Whole(
            self.api
                .handle_until(&r.method, &path, query, &r.body, gone),
        )
    }
}

impl Site {
    /// Saves come from this machine, unless the owner lets other machines save.
    fn may_save(&self, r: &Request) -> bool {
        self.remote_saves || r.peer.ip().is_loopback()
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
