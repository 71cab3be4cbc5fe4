//! The JSON API behind the page, independent of the HTTP server so it can be called
//! directly. Every rule runs here; the page only shows what it is told.
//!
//! ```text
//! GET  /api/variants                         the variants: id, name, file, ok
//! GET  /api/variants/ID                      one variant: pieces, players, options, tags,
//!                                            the setup picture; or its diagnostics
//! GET  /api/variants/ID/footprint?piece=P    a footprint picture and its marks; also
//!        &at=CELL&player=NAME&captures=1&options=NAME=on,NAME=off
//! POST /api/games    {"variant": ID, "position"?: TEXT, "options"?: {NAME: BOOL},
//!                     "computer"?: PLAYER, "level"?: 1..=6}
//! GET  /api/games/N                          a game's state
//! POST /api/games/N/moves   {"move": "e2-e3"}
//! POST /api/games/N/undo
//! ```
//!
//! A game's state holds the position string, whose turn it is, the legal moves (each
//! with its notation, so moves the page does not know about still work), the moves
//! played, each player's hand, the board picture and the ending: the result in words,
//! the winner, and each player's share of the point. With `computer`, the computer plays
//! that player and answers each move at once. Bad requests get a 4xx answer with
//! `{"error": REASON}`.

use super::answer::Answer;
use super::catalog::Catalog;
use super::request::{field, parse_body, parse_query, parse_settings};
use crate::compile::Rules;
use crate::load::{LoadError, Settings, read_variant_text};
use crate::model::{PieceId, PlayerId};
use crate::play::placed;
use crate::render::footprint_marks;
use crate::render::svg::{board_svg, footprint_svg};
use crate::runtime::{Game, Setup, Special, parse_position, write_move};
use crate::search::Limits;
use crate::session::Session;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// At most this many games are kept; the least recently used goes first.
const MAX_GAMES: usize = 256;

type Reply = Result<Value, Answer>;

/// A variant file as read now: compiled rules, or the text `check` prints.
enum Loaded {
    Ready(Arc<Rules>),
    Broken(String),
}

struct GameEntry {
    variant: String,
    session: Session,
    used: u64,
}

/// The deepest level a page may ask the computer for: a fraction of a second a move.
const MAX_LEVEL: u32 = 6;

/// The API's state: the catalog, compiled variants by file text, and games by number.
pub struct Api {
    catalog: Catalog,
    cache: HashMap<PathBuf, (String, Settings, Arc<Rules>)>,
    games: HashMap<u64, GameEntry>,
    next_game: u64,
    clock: u64,
}

impl Api {
    pub fn new(catalog: Catalog) -> Api {
        Api {
            catalog,
            cache: HashMap::new(),
            games: HashMap::new(),
            next_game: 1,
            clock: 0,
        }
    }

    /// Answers one request. `query` is the part of the URL after `?`.
    pub fn handle(&mut self, method: &str, path: &str, query: &str, body: &[u8]) -> Answer {
        match self.reply(method, path, query, body) {
            Ok(v) => Answer::json(200, &v),
            Err(a) => a,
        }
    }

    fn reply(&mut self, method: &str, path: &str, query: &str, body: &[u8]) -> Reply {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match (method, parts.as_slice()) {
            ("GET", ["api", "variants"]) => Ok(self.list()),
            ("GET", ["api", "variants", id]) => self.variant(id),
            ("GET", ["api", "variants", id, "footprint"]) => self.footprint(id, query),
            ("POST", ["api", "games"]) => self.new_game(body),
            ("GET", ["api", "games", n]) => self.with_game(n, |_| Ok(())),
            ("POST", ["api", "games", n, "moves"]) => {
                let text = field(&parse_body(body)?, "move")?;
                self.with_game(n, |session| {
                    session
                        .play_text(&text)
                        .map_err(|e| Answer::error(400, format!("move `{text}` refused: {e}")))?;
                    session.computer_replies();
                    Ok(())
                })
            }
            ("POST", ["api", "games", n, "undo"]) => self.with_game(n, |session| {
                if session.undo() > 0 {
                    Ok(())
                } else {
                    Err(Answer::error(400, "there is no move to undo"))
                }
            }),
            (_, ["api", ..]) if known_route(&parts) => Err(Answer::error(
                405,
                format!("{method} is not allowed on {path}"),
            )),
            _ => Err(Answer::error(404, format!("nothing at {path}"))),
        }
    }

    fn list(&mut self) -> Value {
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

    /// Reads, checks and compiles a file; unchanged text reuses the compiled rules.
    fn load(&mut self, path: &Path, settings: &Settings) -> Result<Loaded, Answer> {
        let text = read_variant_text(path).map_err(|e| Answer::error(404, e.to_string()))?;
        if let Some((t, o, r)) = self.cache.get(path)
            && *t == text
            && o == settings
        {
            return Ok(Loaded::Ready(r.clone()));
        }
        match Rules::from_named_text(&path.display().to_string(), &text, settings) {
            Ok(r) => {
                let r = Arc::new(r);
                self.cache
                    .insert(path.to_path_buf(), (text, settings.clone(), r.clone()));
                Ok(Loaded::Ready(r))
            }
            Err(LoadError::Diagnostics(report)) => Ok(Loaded::Broken(report.render(100, false))),
            Err(e @ LoadError::UnknownOption { .. }) => Err(Answer::error(400, e.to_string())),
            Err(e) => Ok(Loaded::Broken(format!("{}: {e}\n", path.display()))),
        }
    }

    fn ready(&mut self, id: &str, settings: &Settings) -> Result<Arc<Rules>, Answer> {
        let path = self.catalog.find(id)?;
        match self.load(&path, settings)? {
            Loaded::Ready(r) => Ok(r),
            Loaded::Broken(text) => Err(Answer::json(
                409,
                &json!({"error": format!("variant `{id}` does not check"), "diagnostics": text}),
            )),
        }
    }

    fn variant(&mut self, id: &str) -> Reply {
        let path = self.catalog.find(id)?;
        let rules = match self.load(&path, &Settings::new())? {
            Loaded::Ready(r) => r,
            Loaded::Broken(text) => {
                return Ok(
                    json!({"id": id, "file": path.display().to_string(), "ok": false, "diagnostics": text}),
                );
            }
        };
        let v = &rules.variant;
        Ok(json!({
            "id": id,
            "file": path.display().to_string(),
            "ok": true,
            "name": v.name,
            "inventor": v.inventor,
            "description": v.description,
            "board": v.board.shape.to_string(),
            "centre": v.board.name(v.board.centre()),
            "players": v.players.iter().map(|p| json!({"name": p.name})).collect::<Vec<_>>(),
            "pieces": v.pieces.iter().map(|p| json!({"name": p.name, "code": p.code})).collect::<Vec<_>>(),
            "options": v.options.iter().map(|o| json!({"name": o.name, "default": o.default, "about": o.about})).collect::<Vec<_>>(),
            "tags": v.tags.iter().map(|t| json!({"mark": t.mark.to_string(), "about": t.about, "once_per_game": t.once_per_game})).collect::<Vec<_>>(),
            "setup_svg": board_svg(v, &v.setup, None),
        }))
    }

    fn footprint(&mut self, id: &str, query: &str) -> Reply {
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
        let piece = v
            .find_piece(piece_name)
            .ok_or_else(|| Answer::error(400, format!("there is no piece `{piece_name}`")))?;
        let at = match get("at") {
            None | Some("") => v.board.centre(),
            Some(c) => v
                .board
                .parse_cell(c)
                .ok_or_else(|| Answer::error(400, format!("`{c}` is not a cell of this board")))?,
        };
        let player = match get("player") {
            None | Some("") => PlayerId(0),
            Some(p) => v
                .find_player(p)
                .ok_or_else(|| Answer::error(400, format!("there is no player `{p}`")))?,
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

    fn new_game(&mut self, body: &[u8]) -> Reply {
        let req = parse_body(body)?;
        let id = field(&req, "variant")?;
        let settings: Settings = match req.get("options") {
            None | Some(Value::Null) => Settings::new(),
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| {
                    v.as_bool().map(|b| (k.clone(), b)).ok_or_else(|| {
                        Answer::error(400, format!("option `{k}` must be true or false"))
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
        let start = match req.get("position") {
            None | Some(Value::Null) => Setup::start(&rules),
            Some(Value::String(s)) if s.trim() == "start" || s.trim().is_empty() => {
                Setup::start(&rules)
            }
            Some(Value::String(s)) => parse_position(&rules, s)
                .map_err(|e| Answer::error(400, format!("bad position: {e}")))?,
            Some(_) => return Err(Answer::error(400, "`position` must be a string")),
        };
        let game = Game::new(rules.clone(), start)
            .map_err(|e| Answer::error(400, format!("bad position: {e}")))?;
        let mut session = Session::new(game);
        match req.get("computer") {
            None | Some(Value::Null) => {}
            Some(Value::String(name)) => {
                let v = rules.variant();
                let side = v.find_player(name).ok_or_else(|| {
                    Answer::error(
                        400,
                        format!("there is no player `{name}` for the computer to play"),
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
                session.set_computer(&[side], Limits::depth(level));
                session.computer_replies();
            }
            Some(_) => return Err(Answer::error(400, "`computer` must be a player's name")),
        }
        if self.games.len() >= MAX_GAMES
            && let Some(old) = self
                .games
                .iter()
                .min_by_key(|(_, g)| g.used)
                .map(|(k, _)| *k)
        {
            self.games.remove(&old);
        }
        let n = self.next_game;
        self.next_game += 1;
        self.clock += 1;
        self.games.insert(
            n,
            GameEntry {
                variant: id,
                session,
                used: self.clock,
            },
        );
        Ok(state(n, &self.games[&n]))
    }

    /// Applies `f` to the game named by `n` and answers with its state. A refused
    /// change leaves the game as it was.
    fn with_game(&mut self, n: &str, f: impl FnOnce(&mut Session) -> Result<(), Answer>) -> Reply {
        let id: u64 = n
            .parse()
            .map_err(|_| Answer::error(400, format!("`{n}` is not a game number")))?;
        self.clock += 1;
        let entry = self
            .games
            .get_mut(&id)
            .ok_or_else(|| Answer::error(404, format!("there is no game {id}")))?;
        entry.used = self.clock;
        f(&mut entry.session)?;
        Ok(state(id, entry))
    }
}

/// Everything the page shows of a game.
fn state(id: u64, e: &GameEntry) -> Value {
    let game = e.session.game();
    let v = game.variant();
    let pos = game.position();
    let pieces = placed(v, pos);
    let last = game.moves().last().map(|m| (m.from, m.to));
    let legal: Vec<Value> = game
        .legal_moves()
        .iter()
        .map(|m| {
            json!({
                "from": v.board.name(m.from),
                "to": v.board.name(m.to),
                "notation": write_move(v, m),
                "capture": m.captured.is_some(),
                "tag": m.tag.map(|t| v.tag(t).mark.to_string()),
                "drop": (m.special == Special::Drop).then(|| v.piece(m.piece).name.clone()),
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
        "moves": game.moves().map(|m| write_move(v, m)).collect::<Vec<_>>(),
        "computer": (0..v.players.len() as u8)
            .map(PlayerId)
            .filter(|p| e.session.computer_plays(*p))
            .map(|p| v.player(p).name.clone())
            .collect::<Vec<_>>(),
        "legal": legal,
        "pieces": pieces.iter().map(|p| json!({
            "cell": v.board.name(p.cell),
            "player": v.player(p.player).name,
            "piece": v.piece(p.piece).name,
            "code": v.code_for(p.piece, p.player),
        })).collect::<Vec<_>>(),
        "hands": hands,
        "ending": ending,
        "svg": board_svg(v, &pieces, last),
    })
}

fn known_route(parts: &[&str]) -> bool {
    matches!(
        parts,
        ["api", "variants"]
            | ["api", "variants", _]
            | ["api", "variants", _, "footprint"]
            | ["api", "games"]
            | ["api", "games", _]
            | ["api", "games", _, "moves" | "undo"]
    )
}
