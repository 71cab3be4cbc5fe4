//! The JSON API behind the page, independent of the HTTP server so it can be called
//! directly. Every rule runs here; the page only shows what it is told.
//!
//! ```text
//! GET  /api/variants                         the variants: id, name, file, ok
//! GET  /api/variants/ID                      one variant: pieces, players, options, tags,
//!                                            the setup picture; or its diagnostics
//! GET  /api/variants/ID/footprint?piece=P    a footprint picture and its marks; also
//!        &at=CELL&player=NAME&captures=1&options=NAME=on,NAME=off
//! POST /api/games    {"variant": ID, "position"?: TEXT, "seed"?: N, "moves"?: [MOVE],
//!                     "options"?: {NAME: BOOL}, "computer"?: PLAYER, "level"?: 1..=6}
//! GET  /api/games/ID                         a game's state
//! GET  /api/games/ID?ply=K                   its state after its first K moves
//! .../variants/ID/stamp, source, check, pictures: the inventor's side (see `studio`)
//! POST /api/games/ID/moves  {"move": "e2-e3"}
//! POST /api/games/ID/undo
//! ```
//!
//! Game ids are 32 random hex digits. Compiled rules are shared by every game and
//! request that asks for the same file text with the same settings, kept up to a
//! budget in bytes, and compiled without holding the lock the other requests need.
//!
//! A game's state holds the position string, whose turn it is, the legal moves (each
//! with its notation, so moves the page does not know about still work), the moves
//! played, each player's hand, the board picture and the ending: the result in words,
//! the winner, and each player's share of the point. With `computer`, the computer plays
//! that player and answers each move at once. Bad requests get a 4xx answer with
//! `{"error": REASON}`.

use super::answer::{Answer, shown};
use super::catalog::Catalog;
use super::random::random_hex;
use super::request::{field, parse_body, parse_query, parse_settings};
use super::studio;
use crate::diagrams::{board_svg, footprint_marks, footprint_svg};
use crate::files::text_hash;
use crate::{
    Game, Limits, LoadError, Move, PieceId, PlayerId, Rules, Session, Settings, Setup, Span,
    Special, named_cells, parse_position, read_variant_text, write_move_at, write_short_moves,
};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// At most this many games are kept; the least recently used goes first.
pub const MAX_GAMES: usize = 256;
/// Compiled rules kept for reuse, in bytes (as [`Rules::heap_bytes`] estimates them).
pub const CACHE_BYTES: usize = 256 << 20;
/// Compiled rules held by games and the cache together, in bytes: past it, the least
/// recently used games go first.
pub const RULES_BYTES: usize = 1 << 30;
/// Games with a computer player kept at most: each holds its search table (tens of
/// megabytes); the least recently used goes first.
pub const MAX_COMPUTER_GAMES: usize = 4;
/// Compiles running at once; more wait their turn.
pub const COMPILES: usize = 2;
/// Moves one game keeps at most.
pub const MAX_MOVES: usize = 1000;
/// The longest move text read, in bytes.
pub const MAX_MOVE_TEXT: usize = 64;
/// The most bytes of a piece's rule text shown with its footprint.
const MAX_RULE_TEXT: usize = 4096;
/// Hex digits of a game id.
const GAME_ID_DIGITS: usize = 32;
/// The deepest level a page may ask the computer for.
const MAX_LEVEL: u32 = 6;

/// A level's search: its depth, and at most a tenth of a second at level 1, doubling
/// with each level (3.2 s at the deepest), so that no move holds a worker for long.
pub fn level_limits(level: u32) -> Limits {
    let level = level.clamp(1, MAX_LEVEL);
    Limits {
        time: Some(std::time::Duration::from_millis(50 << level)),
        ..Limits::depth(level)
    }
}

type Reply = Result<Value, Answer>;

/// A variant file as read now: compiled rules, or the text `check` prints.
#[derive(Clone)]
enum Loaded {
    Ready(Arc<Rules>),
    Broken(String),
}

/// Compiled rules are shared by file text and settings.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    text_hash: u64,
    settings: Vec<(String, bool)>,
}

impl Key {
    fn new(text: &str, settings: &Settings) -> Key {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut h);
        let mut settings: Vec<(String, bool)> = settings
            .options()
            .iter()
            .map(|(n, on)| (n.to_ascii_lowercase(), *on))
            .collect();
        settings.sort();
        Key {
            text_hash: h.finish(),
            settings,
        }
    }
}

struct Cached {
    text: Arc<str>,
    /// `None` while being compiled.
    value: Option<Loaded>,
    bytes: usize,
    used: u64,
}

struct GameEntry {
    variant: String,
    session: Session,
    /// The seed its random setup was drawn from.
    seed: Option<u64>,
}

struct Slot {
    game: Arc<Mutex<GameEntry>>,
    rules: Arc<Rules>,
    bytes: usize,
    /// Whether the computer plays in it.
    computer: bool,
    used: u64,
}

/// What the lock guards: the cache and the games, never held while compiling or
/// playing.
#[derive(Default)]
struct State {
    cache: HashMap<Key, Cached>,
    cache_bytes: usize,
    games: HashMap<String, Slot>,
    clock: u64,
}

impl State {
    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Drops the least recently used compiled rules until the cache fits its budget,
    /// but never the rules used last: rules larger than the whole budget are still
    /// kept once, not compiled again for every game.
    fn trim_cache(&mut self) {
        let newest = self.cache.values().map(|c| c.used).max().unwrap_or(0);
        while self.cache_bytes > CACHE_BYTES {
            let Some(old) = self
                .cache
                .iter()
                .filter(|(_, c)| c.value.is_some() && c.used != newest)
                .min_by_key(|(_, c)| c.used)
                .map(|(k, _)| k.clone())
            else {
                return;
            };
            if let Some(c) = self.cache.remove(&old) {
                self.cache_bytes -= c.bytes;
            }
        }
    }

    /// The bytes of the distinct compiled rules games and the cache hold.
    fn rules_bytes(&self) -> usize {
        let mut seen = HashSet::new();
        let mut total = 0;
        for (rules, bytes) in
            self.games
                .values()
                .map(|g| (&g.rules, g.bytes))
                .chain(self.cache.values().filter_map(|c| match &c.value {
                    Some(Loaded::Ready(r)) => Some((r, c.bytes)),
                    _ => None,
                }))
        {
            if seen.insert(Arc::as_ptr(rules)) {
                total += bytes;
            }
        }
        total
    }

    /// Drops the least recently used games, never `keep`, until at most
    /// [`MAX_GAMES`] are kept, at most [`MAX_COMPUTER_GAMES`] of them with a computer,
    /// and their rules fit [`RULES_BYTES`].
    fn trim_games(&mut self, keep: &str) {
        loop {
            let computers = self.games.values().filter(|g| g.computer).count() > MAX_COMPUTER_GAMES;
            if !computers
                && self.games.len() <= MAX_GAMES
                && (self.games.len() <= 1 || self.rules_bytes() <= RULES_BYTES)
            {
                return;
            }
            let Some(old) = self
                .games
                .iter()
                .filter(|(id, g)| *id != keep && (g.computer || !computers))
                .min_by_key(|(_, g)| g.used)
                .map(|(id, _)| id.clone())
            else {
                return;
            };
            self.games.remove(&old);
        }
    }
}

/// The API's state: the catalog, compiled rules by file text and settings, and games
/// by id.
pub struct Api {
    catalog: Catalog,
    state: Mutex<State>,
    /// Signalled when a compile ends.
    compiled: Condvar,
    /// Compiles running, at most [`COMPILES`].
    compiling: Mutex<usize>,
    compile_slot: Condvar,
    /// Held from a save's stamp check to its write, so that of two saves with the
    /// same stamp one is written and the other told the file changed.
    saving: Mutex<()>,
}

/// Takes out a pending cache entry if its compile stops early (an unknown option, or a
/// panic), so that those waiting for it compile again.
struct Pending<'a> {
    api: &'a Api,
    key: Option<Key>,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            let mut st = self.api.lock();
            if st.cache.get(&key).is_some_and(|c| c.value.is_none()) {
                st.cache.remove(&key);
            }
            drop(st);
            self.api.compiled.notify_all();
        }
    }
}

/// One of the [`COMPILES`] turns to compile, given back when dropped.
struct CompileTurn<'a>(&'a Api);

impl Drop for CompileTurn<'_> {
    fn drop(&mut self) {
        *self
            .0
            .compiling
            .lock()
            .unwrap_or_else(PoisonError::into_inner) -= 1;
        self.0.compile_slot.notify_one();
    }
}

impl Api {
    pub fn new(catalog: Catalog) -> Api {
        Api {
            catalog,
            state: Mutex::new(State::default()),
            compiled: Condvar::new(),
            compiling: Mutex::new(0),
            compile_slot: Condvar::new(),
            saving: Mutex::new(()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn compile_turn(&self) -> CompileTurn<'_> {
        let mut n = self
            .compiling
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        while *n >= COMPILES {
            n = self
                .compile_slot
                .wait(n)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *n += 1;
        CompileTurn(self)
    }

    /// Answers one request. `query` is the part of the URL after `?`.
    pub fn handle(&self, method: &str, path: &str, query: &str, body: &[u8]) -> Answer {
        self.handle_until(method, path, query, body, &Arc::new(AtomicBool::new(false)))
    }

    /// [`Api::handle`], where the computer stops thinking once `gone` is set (the
    /// client went away); the move it found so far is played.
    pub fn handle_until(
        &self,
        method: &str,
        path: &str,
        query: &str,
        body: &[u8],
        gone: &Arc<AtomicBool>,
    ) -> Answer {
        match self.reply(method, path, query, body, gone) {
            Ok(v) => Answer::json(200, &v),
            Err(a) => a,
        }
    }

    /// News of a variant file for a page: its stamp, whenever its text changes.
    pub fn watch(&self, id: &str) -> Result<super::http::Events, Answer> {
        let path = self.catalog.find(id)?;
        Ok(studio::watch(path))
    }

    fn reply(
        &self,
        method: &str,
        path: &str,
        query: &str,
        body: &[u8],
        gone: &Arc<AtomicBool>,
    ) -> Reply {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match (method, parts.as_slice()) {
            ("GET", ["api", "variants"]) => Ok(self.list()),
            ("GET", ["api", "variants", id]) => self.variant(id),
            ("GET", ["api", "variants", id, "footprint"]) => self.footprint(id, query),
            ("GET", ["api", "variants", id, "stamp"]) => studio::stamp(&self.catalog.find(id)?),
            ("GET", ["api", "variants", id, "pictures"]) => {
                let path = self.catalog.find(id)?;
                let rules = self.ready(id, &Settings::new())?;
                Ok(studio::pictures(&path, rules.variant()))
            }
            ("GET", ["api", "variants", id, "source"]) => studio::source(&self.catalog.find(id)?),
            ("POST", ["api", "variants", id, "source"]) => {
                let path = self.catalog.find(id)?;
                let _one = self.saving.lock().unwrap_or_else(PoisonError::into_inner);
                studio::save(&path, body)
            }
            ("POST", ["api", "variants", id, "check"]) => {
                let path = self.catalog.find(id)?;
                let _turn = self.compile_turn();
                studio::check_text(&path, body)
            }
            ("POST", ["api", "games"]) => self.new_game(body, gone),
            ("GET", ["api", "games", n]) => self.game_at(n, query),
            ("POST", ["api", "games", n, "moves"]) => {
                let text = field(&parse_body(body)?, "move")?;
                if text.len() > MAX_MOVE_TEXT {
                    return Err(Answer::error(
                        400,
                        format!(
                            "move `{}` refused: a move is at most {MAX_MOVE_TEXT} bytes",
                            shown(&text)
                        ),
                    ));
                }
                self.with_game(n, |session| {
                    if session.game().moves().count() >= MAX_MOVES {
                        return Err(Answer::error(
                            400,
                            format!("a game keeps at most {MAX_MOVES} moves; start a new one"),
                        ));
                    }
                    session.play_text(&text).map_err(|e| {
                        let why = e.to_string().replace(&text, &shown(&text));
                        Answer::error(400, format!("move `{}` refused: {why}", shown(&text)))
                    })?;
                    session.set_stop(gone.clone());
                    session.computer_replies();
                    Ok(())
                })
            }
            ("POST", ["api", "games", n, "undo"]) => self.with_game(n, |session| {
                if session.undo() > 0 {
                    Ok(())
                } else if session.game().move_count() > 0 {
                    Err(Answer::error(
                        400,
                        "there is no move to undo: only the computer has moved",
                    ))
                } else {
                    Err(Answer::error(400, "there is no move to undo"))
                }
            }),
            (_, ["api", ..]) if known_route(&parts) => Err(Answer::error(
                405,
                format!("{method} is not allowed on {}", shown(path)),
            )),
            _ => Err(Answer::error(404, format!("nothing at {}", shown(path)))),
        }
    }

    fn list(&self) -> Value {
        let entries = self.catalog.entries();
        let items: Vec<Value> = entries
            .iter()
            .map(|(id, path)| match self.load(path, &Settings::new()) {
                Ok(Loaded::Ready(r)) => {
                    json!({"id": id, "file": path.display().to_string(), "ok": true, "name": r.variant().name})
                }
                _ => json!({"id": id, "file": path.display().to_string(), "ok": false, "name": id}),
            })
            .collect();
        json!({ "variants": items })
    }

    /// Reads and checks a file and compiles it, unless the same text with the same
    /// settings was compiled before. The lock is held only to look up and to store:
    /// a request for rules being compiled waits for them; others go on.
    fn load(&self, path: &Path, settings: &Settings) -> Result<Loaded, Answer> {
        let text: Arc<str> = read_variant_text(path)
            .map_err(|e| Answer::error(404, e.to_string()))?
            .into();
        let key = Key::new(&text, settings);
        let mut st = self.lock();
        let cacheable = loop {
            let now = st.tick();
            match st.cache.get_mut(&key) {
                Some(c) if c.text == text => match &c.value {
                    Some(v) => {
                        c.used = now;
                        return Ok(v.clone());
                    }
                    None => {
                        st = self
                            .compiled
                            .wait(st)
                            .unwrap_or_else(PoisonError::into_inner);
                    }
                },
                // Another text of the same hash: compiled, not kept.
                Some(_) => break false,
                None => {
                    st.cache.insert(
                        key.clone(),
                        Cached {
                            text: text.clone(),
                            value: None,
                            bytes: 0,
                            used: now,
                        },
                    );
                    break true;
                }
            }
        };
        drop(st);
        let mut pending = Pending {
            api: self,
            key: cacheable.then(|| key.clone()),
        };
        let loaded = {
            let _turn = self.compile_turn();
            match Rules::from_named_text(&path.display().to_string(), &text, settings) {
                Ok(r) => Loaded::Ready(Arc::new(r)),
                Err(LoadError::Diagnostics(report)) => Loaded::Broken(report.render(100, false)),
                Err(e @ LoadError::UnknownOption { .. }) => {
                    return Err(Answer::error(400, shown_error(&e.to_string())));
                }
                Err(e) => Loaded::Broken(format!("{}: {e}\n", path.display())),
            }
        };
        if let Some(key) = pending.key.take() {
            let bytes = text.len()
                + match &loaded {
                    Loaded::Ready(r) => r.heap_bytes(),
                    Loaded::Broken(b) => b.len(),
                };
            let mut st = self.lock();
            if bytes > CACHE_BYTES {
                st.cache.remove(&key);
            } else if let Some(c) = st.cache.get_mut(&key) {
                c.value = Some(loaded.clone());
                c.bytes = bytes;
                st.cache_bytes += bytes;
                st.trim_cache();
            }
            drop(st);
            self.compiled.notify_all();
        }
        Ok(loaded)
    }

    fn ready(&self, id: &str, settings: &Settings) -> Result<Arc<Rules>, Answer> {
        let path = self.catalog.find(id)?;
        match self.load(&path, settings)? {
            Loaded::Ready(r) => Ok(r),
            Loaded::Broken(text) => Err(Answer::json(
                409,
                &json!({"error": format!("variant `{}` does not check", shown(id)), "diagnostics": text}),
            )),
        }
    }

    fn variant(&self, id: &str) -> Reply {
        let path = self.catalog.find(id)?;
        // The text the rules are read from, for each piece's rule text and the stamp
        // live reload compares.
        let text = read_variant_text(&path).unwrap_or_default();
        let stamp = text_hash(&text);
        let rules = match self.load(&path, &Settings::new())? {
            Loaded::Ready(r) => r,
            Loaded::Broken(report) => {
                return Ok(
                    json!({"id": id, "file": path.display().to_string(), "ok": false, "diagnostics": report, "stamp": stamp}),
                );
            }
        };
        let v = &rules.variant;
        let rule =
            |span: Span| studio::statement_text(&text, span.start, MAX_RULE_TEXT).to_string();
        Ok(json!({
            "id": id,
            "file": path.display().to_string(),
            "ok": true,
            "random": v.random.is_some(),
            "stamp": stamp,
            "name": v.name,
            "inventor": v.inventor,
            "description": v.description,
            "board": v.board.shape.to_string(),
            "centre": v.board.name(v.board.centre()),
            "players": v.players.iter().map(|p| json!({"name": p.name})).collect::<Vec<_>>(),
            "pieces": v.pieces.iter().map(|p| json!({"name": p.name, "code": p.code, "rule": rule(p.span)})).collect::<Vec<_>>(),
            "options": v.options.iter().map(|o| json!({"name": o.name, "default": o.default, "about": o.about})).collect::<Vec<_>>(),
            "tags": v.tags.iter().map(|t| json!({"mark": t.mark.to_string(), "about": t.about, "once_per_game": t.once_per_game})).collect::<Vec<_>>(),
            "setup_svg": board_svg(v, &v.setup, None),
        }))
    }

    fn footprint(&self, id: &str, query: &str) -> Reply {
        let q = parse_query(query)?;
        let get = |k: &str| q.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        let settings = match get("options") {
            Some(o) => parse_settings(o)?,
            None => Settings::new(),
        };
        let rules = self.ready(id, &settings)?;
        let v = &rules.variant;
        let piece_name =
            get("piece").ok_or_else(|| Answer::error(400, "say which piece: ?piece=NAME"))?;
        let piece = v.find_piece(piece_name).ok_or_else(|| {
            Answer::error(400, format!("there is no piece `{}`", shown(piece_name)))
        })?;
        let at = match get("at") {
            None | Some("") => v.board.centre(),
            Some(c) => v.board.parse_cell(c).ok_or_else(|| {
                Answer::error(400, format!("`{}` is not a cell of this board", shown(c)))
            })?,
        };
        let player = match get("player") {
            None | Some("") => PlayerId(0),
            Some(p) => v
                .find_player(p)
                .ok_or_else(|| Answer::error(400, format!("there is no player `{}`", shown(p))))?,
        };
        let captures = matches!(get("captures"), Some("1" | "true" | "on" | "yes"));
        let marks: Vec<Value> = footprint_marks(&rules, player, piece, at, captures)
            .iter()
            .map(|(c, m)| json!({"cell": v.board.name(*c), "mark": m.key()}))
            .collect();
        Ok(json!({
            "piece": v.piece(piece).name,
            "at": v.board.name(at),
            "player": v.player(player).name,
            "marks": marks,
            "svg": footprint_svg(&rules, player, piece, at, captures),
        }))
    }

    fn new_game(&self, body: &[u8], gone: &Arc<AtomicBool>) -> Reply {
        let req = parse_body(body)?;
        let id = field(&req, "variant")?;
        let settings: Settings = match req.get("options") {
            None | Some(Value::Null) => Settings::new(),
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| {
                    v.as_bool().map(|b| (k.clone(), b)).ok_or_else(|| {
                        Answer::error(400, format!("option `{}` must be true or false", shown(k)))
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(_) => {
                return Err(Answer::error(
                    400,
                    "`options` must be an object of true/false",
                ));
            }
        };
        let rules = self.ready(&id, &settings)?;
        let seed = match req.get("seed") {
            None | Some(Value::Null) => None,
            Some(n) => Some(
                n.as_u64()
                    .ok_or_else(|| Answer::error(400, "`seed` must be a whole number from 0"))?,
            ),
        };
        let seeded = || match seed {
            Some(n) => Setup::seeded(&rules, n).map_err(|e| {
                Answer::error(
                    400,
                    format!("no setup from seed {n}: {}", shown_error(&e.to_string())),
                )
            }),
            None => Ok(Setup::start(&rules)),
        };
        let start = match req.get("position") {
            None | Some(Value::Null) => seeded()?,
            Some(Value::String(s)) if s.trim() == "start" || s.trim().is_empty() => seeded()?,
            Some(Value::String(s)) => parse_position(&rules, s).map_err(|e| {
                Answer::error(
                    400,
                    format!("bad position: {}", shown_error(&e.to_string())),
                )
            })?,
            Some(_) => return Err(Answer::error(400, "`position` must be a string")),
        };
        let game = Game::new(rules.clone(), start).map_err(|e| {
            Answer::error(
                400,
                format!("bad position: {}", shown_error(&e.to_string())),
            )
        })?;
        let mut session = Session::new(game);
        let refused = replay(&mut session, req.get("moves"))?;
        match req.get("computer") {
            None | Some(Value::Null) => {}
            Some(Value::String(name)) => {
                let v = rules.variant();
                let side = v.find_player(name).ok_or_else(|| {
                    Answer::error(
                        400,
                        format!(
                            "there is no player `{}` for the computer to play",
                            shown(name)
                        ),
                    )
                })?;
                let level = match req.get("level") {
                    None | Some(Value::Null) => 2,
                    Some(l) => l
                        .as_u64()
                        .filter(|l| (1..=MAX_LEVEL as u64).contains(l))
                        .ok_or_else(|| {
                            Answer::error(
                                400,
                                format!("`level` must be a whole number from 1 to {MAX_LEVEL}"),
                            )
                        })? as u32,
                };
                session.set_computer(&[side], level_limits(level));
                session.set_stop(gone.clone());
                session.computer_replies();
            }
            Some(_) => return Err(Answer::error(400, "`computer` must be a player's name")),
        }
        let game_id = random_hex(GAME_ID_DIGITS / 2);
        let seed = seed.filter(|_| rules.variant().random.is_some());
        let entry = GameEntry {
            variant: id,
            session,
            seed,
        };
        let mut answer = state(&game_id, &entry);
        answer["refused"] = refused;
        let bytes = rules.heap_bytes();
        let computer = !answer["computer"].as_array().is_none_or(|c| c.is_empty());
        let mut st = self.lock();
        let used = st.tick();
        st.games.insert(
            game_id.clone(),
            Slot {
                game: Arc::new(Mutex::new(entry)),
                rules,
                bytes,
                computer,
                used,
            },
        );
        st.trim_games(&game_id);
        Ok(answer)
    }

    /// A game's state, or with `ply=K` its state after its first K moves (to look
    /// back through it; nothing may be played there).
    fn game_at(&self, id: &str, query: &str) -> Reply {
        let q = parse_query(query)?;
        let ply = match q.iter().find(|(k, _)| k == "ply") {
            None => return self.with_game(id, |_| Ok(())),
            Some((_, p)) => p.parse::<usize>().map_err(|_| {
                Answer::error(
                    400,
                    format!("`ply` must be a whole number, not `{}`", shown(p)),
                )
            })?,
        };
        let entry = self.game_entry(id)?;
        let entry = entry.lock().unwrap_or_else(PoisonError::into_inner);
        let played = entry.session.game().move_count();
        if ply > played {
            return Err(Answer::error(
                400,
                format!("the game has {played} moves, not {ply}"),
            ));
        }
        let mut back = entry.session.game().clone();
        while back.move_count() > ply {
            back.undo();
        }
        let mut answer = game_state(id, &entry, &back);
        answer["legal"] = json!([]);
        answer["ply"] = json!(ply);
        answer["short"] = json!(entry.session.game().short_moves());
        answer["moves"] = json!(entry.session.game().written_moves());
        Ok(answer)
    }

    fn game_entry(&self, id: &str) -> Result<Arc<Mutex<GameEntry>>, Answer> {
        if id.len() != GAME_ID_DIGITS || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Answer::error(
                400,
                format!("`{}` is not a game id", shown(id)),
            ));
        }
        let mut st = self.lock();
        let now = st.tick();
        let slot = st
            .games
            .get_mut(id)
            .ok_or_else(|| Answer::error(404, format!("there is no game {id}")))?;
        slot.used = now;
        Ok(slot.game.clone())
    }

    /// Applies `f` to the game named by `id` and answers with its state. A refused
    /// change leaves the game as it was. Only that game is locked meanwhile.
    fn with_game(&self, id: &str, f: impl FnOnce(&mut Session) -> Result<(), Answer>) -> Reply {
        let game = self.game_entry(id)?;
        let mut entry = game.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut entry.session)?;
        Ok(state(id, &entry))
    }
}

/// An error whose text may repeat a long name from the request, cut to 200 characters.
fn shown_error(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Everything the page shows of a game.
fn state(id: &str, e: &GameEntry) -> Value {
    game_state(id, e, e.session.game())
}

/// Plays the moves of a new game's `moves` in turn; at the first refused one, stops
/// and says which and why (`null` when all were played).
fn replay(session: &mut Session, moves: Option<&Value>) -> Reply {
    let list = match moves {
        None | Some(Value::Null) => return Ok(Value::Null),
        Some(Value::Array(list)) if list.len() <= MAX_MOVES => list,
        Some(Value::Array(_)) => {
            return Err(Answer::error(
                400,
                format!("a game keeps at most {MAX_MOVES} moves"),
            ));
        }
        Some(_) => return Err(Answer::error(400, "`moves` must be a list of moves")),
    };
    for (ply, m) in list.iter().enumerate() {
        let text = m
            .as_str()
            .ok_or_else(|| Answer::error(400, "each of `moves` must be a string"))?;
        if text.len() > MAX_MOVE_TEXT {
            return Err(Answer::error(
                400,
                format!(
                    "move `{}` refused: a move is at most {MAX_MOVE_TEXT} bytes",
                    shown(text)
                ),
            ));
        }
        if let Err(e) = session.play_text(text) {
            let why = e.to_string().replace(text, &shown(text));
            return Ok(json!({"ply": ply, "move": shown(text), "reason": why}));
        }
    }
    Ok(Value::Null)
}

/// Everything the page shows of `game`, a game of the entry `e` (or the same game
/// taken back some moves).
fn game_state(id: &str, e: &GameEntry, game: &Game) -> Value {
    let v = game.variant();
    let pos = game.position();
    let pieces = pos.placed(v);
    let last = game.moves().last().map(|m| (m.from, m.to));
    let moves = game.legal_moves();
    let shorts = write_short_moves(game.rules(), game.position(), &moves);
    let legal: Vec<Value> = moves
        .iter()
        .zip(&shorts)
        .map(|(m, short)| {
            // A castling offers what it brings in between its own cells, whichever
            // start the piece enters on.
            let (from, to) = named_cells(v, &Move { gate: None, ..*m });
            json!({
                "from": v.board.name(from),
                "to": v.board.name(to),
                "notation": write_move_at(game.rules(), pos, m),
                "short": short,
                "capture": m.captured.is_some(),
                "tag": m.tag.map(|t| v.tag(t).mark.to_string()),
                // A copy is placed as a drop is: which piece made it changes nothing.
                "drop": matches!(m.special, Special::Drop | Special::Copy)
                    .then(|| v.piece(m.piece).name.clone()),
                "wall": m.wall.map(|w| v.board.name(w)),
                "gate": m.gate.map(|(k, _)| v.piece(k).name.clone()),
            })
        })
        .collect();
    let hands: Vec<Value> = (0..v.players.len())
        .map(|i| {
            let player = PlayerId(i as u8);
            let held: Vec<Value> = (0..v.pieces.len())
                .map(|k| PieceId(k as u8))
                .filter(|&k| pos.in_hand(player, k) > 0)
                .map(|k| {
                    json!({
                        "piece": v.piece(k).name,
                        "code": v.code_for(k, player),
                        "count": pos.in_hand(player, k),
                    })
                })
                .collect();
            json!({"player": v.player(player).name, "pieces": held})
        })
        .collect();
    let ending = game.ending().map(|end| {
        let scores: Vec<Value> = (0..v.players.len())
            .map(|p| {
                let p = PlayerId(p as u8);
                let (a, b) = end.score.fraction(p);
                json!({"player": v.player(p).name, "score": format!("{a}/{b}"), "share": end.score.share(p)})
            })
            .collect();
        json!({
            "winner": end.winner().map(|w| v.player(w).name.clone()),
            "result": end.result(v),
            "scores": scores,
            "reason": end.reason,
        })
    });
    json!({
        "id": id,
        "variant": e.variant,
        "to_move": v.player(pos.to_move()).name,
        "position": game.position_string(),
        "moves": game.written_moves(),
        "computer": (0..v.players.len() as u8)
            .map(PlayerId)
            .filter(|p| e.session.computer_plays(*p))
            .map(|p| v.player(p).name.clone())
            .collect::<Vec<_>>(),
        "legal": legal,
        "walls": pos.walls().into_iter().map(|c| v.board.name(c)).collect::<Vec<_>>(),
        "pieces": pieces.iter().map(|p| json!({
            "cell": v.board.name(p.cell),
            "player": v.player(p.player).name,
            "piece": v.piece(p.piece).name,
            "code": v.code_for(p.piece, p.player),
        })).collect::<Vec<_>>(),
        "hands": hands,
        "with_hands": v.has_hands(),
        "ending": ending,
        "check": game.checked_royals().iter().map(|c| v.board.name(*c)).collect::<Vec<_>>(),
        "short": game.short_moves(),
        "start": game.start_string(),
        "seed": e.seed,
        "svg": board_svg(v, &pieces, last),
    })
}

fn known_route(parts: &[&str]) -> bool {
    matches!(
        parts,
        ["api", "variants"]
            | ["api", "variants", _]
            | [
                "api",
                "variants",
                _,
                "footprint" | "stamp" | "source" | "check"
            ]
            | ["api", "games"]
            | ["api", "games", _]
            | ["api", "games", _, "moves" | "undo"]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cached(used: u64, bytes: usize) -> Cached {
        Cached {
            text: Arc::from(""),
            value: Some(Loaded::Broken(String::new())),
            bytes,
            used,
        }
    }

    fn key(n: u64) -> Key {
        Key {
            text_hash: n,
            settings: vec![],
        }
    }

    #[test]
    fn rules_larger_than_the_cache_are_kept_once() {
        let mut st = State::default();
        st.cache.insert(key(1), cached(1, 10));
        st.cache.insert(key(2), cached(2, CACHE_BYTES + 1));
        st.cache_bytes = CACHE_BYTES + 11;
        st.trim_cache();
        assert_eq!(
            st.cache.keys().map(|k| k.text_hash).collect::<Vec<_>>(),
            [2]
        );
        assert_eq!(st.cache_bytes, CACHE_BYTES + 1);
        // Others that fit go first, oldest first.
        st.cache.insert(key(3), cached(3, 10));
        st.cache_bytes += 10;
        st.trim_cache();
        assert_eq!(
            st.cache.keys().map(|k| k.text_hash).collect::<Vec<_>>(),
            [3]
        );
    }
}
