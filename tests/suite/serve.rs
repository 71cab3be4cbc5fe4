//! The web server, over real HTTP on a free port: every endpoint, the bad requests
//! included, and the inventor's loop of editing a file and reloading.

use crate::common;

use common::root;
use common::server::{Server, raw_answer, request, request_with};
use serde_json::Value;
use std::io::Write;
use std::path::Path;

fn variants() -> Server {
    Server::start(&[Path::new("variants")])
}

fn scratch(name: &str, files: &[&str]) -> crate::common::Scratch {
    common::scratch(&format!("serve-{name}"), files)
}

fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {v}"))
}

#[test]
fn the_page_and_its_files_are_served() {
    let s = variants();
    let (status, html) = s.call("GET", "/", None);
    assert_eq!(status, 200);
    assert!(html.contains(r#"<script src="/app.js">"#) && html.contains("/style.css"));
    for (path, needle) in [("/app.js", "/api/games"), ("/style.css", "#board")] {
        let (status, text) = s.call("GET", path, None);
        assert_eq!(status, 200, "{path}");
        assert!(text.contains(needle), "{path}");
    }
    // Nothing is fetched from elsewhere: every reference is to this server.
    assert!(!html.contains("http://") && !html.contains("https://"));
}

#[test]
fn variants_are_listed_and_described() {
    let s = variants();
    let (status, list) = s.json("GET", "/api/variants", None);
    assert_eq!(status, 200);
    let names: Vec<&str> = list["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    let files = std::fs::read_dir(root().join("variants"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "var"))
        })
        .count();
    assert_eq!(names.len(), files);
    assert!(names.contains(&"Hexagonal Iss Jetan") && names.contains(&"Iss Jetan"));
    assert!(
        list["variants"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| v["ok"] == true)
    );
    let (status, v) = s.json("GET", "/api/variants/iss-jetan", None);
    assert_eq!(status, 200);
    assert_eq!(v["ok"], true);
    assert_eq!(v["pieces"].as_array().unwrap().len(), 8);
    assert_eq!(v["players"][0]["name"], "Black");
    assert_eq!(v["options"][0]["name"], "chief-takes-princess");
    assert_eq!(v["tags"][1]["once_per_game"], true);
    let svg = v["setup_svg"].as_str().unwrap();
    let doc = roxmltree::Document::parse(svg).expect("well-formed");
    let pieces = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .count();
    assert_eq!(pieces, 40);
    let (status, v) = s.json("GET", "/api/variants/no-such", None);
    assert_eq!(status, 404);
    assert!(error_of(&v).contains("no-such"));
}

#[test]
fn footprints_come_with_their_marks() {
    let s = variants();
    let (status, f) = s.json("GET", "/api/variants/iss-jetan/footprint?piece=thoat", None);
    assert_eq!(status, 200);
    assert_eq!(f["at"], "e5");
    assert_eq!(f["marks"].as_array().unwrap().len(), 12);
    assert!(f["svg"].as_str().unwrap().contains(r#"data-mark="x""#));
    // The hexagonal Chief's Princess captures, on request (12 moves + 42 captures).
    let path = "/api/variants/hexagonal-iss-jetan/footprint?piece=CH&at=g7&captures=1";
    let (_, f) = s.json("GET", path, None);
    let marks = f["marks"].as_array().unwrap();
    assert_eq!(marks.len(), 54);
    assert_eq!(marks.iter().filter(|m| m["mark"] == "capture").count(), 42);
    // An option switched on by the query adds the square Chief's capture.
    let path = "/api/variants/iss-jetan/footprint?piece=chief&captures=1&options=chief-takes-princess%3Don";
    let (_, on) = s.json("GET", path, None);
    let (_, off) = s.json(
        "GET",
        "/api/variants/iss-jetan/footprint?piece=chief&captures=1",
        None,
    );
    assert!(on["marks"].as_array().unwrap().len() > off["marks"].as_array().unwrap().len());
    for (query, why) in [
        ("", "say which piece"),
        ("?piece=dragon", "no piece `dragon`"),
        ("?piece=thoat&at=z99", "`z99` is not a cell"),
        ("?piece=thoat&player=Green", "no player `Green`"),
        ("?piece=thoat&options=nope%3Don", "no option `nope`"),
        (
            "?piece=thoat&options=chief-takes-princess%3Dmaybe",
            "`maybe`",
        ),
        ("?piece=%zz", "percent-encoding"),
    ] {
        let (status, v) = s.json(
            "GET",
            &format!("/api/variants/iss-jetan/footprint{query}"),
            None,
        );
        assert_eq!(status, 400, "{query}");
        assert!(error_of(&v).contains(why), "{query}: {v}");
    }
}

#[test]
fn a_game_is_played_undone_and_refuses_bad_moves() {
    let s = variants();
    let (status, g) = s.json("POST", "/api/games", Some(r#"{"variant": "iss-jetan"}"#));
    assert_eq!(status, 200);
    let id = g["id"].as_str().unwrap().to_string();
    let start = g["position"].as_str().unwrap().to_string();
    assert_eq!(g["to_move"], "Black");
    assert!(g["ending"].is_null());
    let legal = g["legal"].as_array().unwrap();
    assert!(
        legal
            .iter()
            .any(|m| m["notation"] == "e2-e3" && m["from"] == "e2")
    );
    let moves = format!("/api/games/{id}/moves");
    let (status, g) = s.json("POST", &moves, Some(r#"{"move": "e2-e3"}"#));
    assert_eq!(status, 200);
    assert_eq!(g["to_move"], "Orange");
    assert_eq!(g["moves"], serde_json::json!(["e2-e3"]));
    let after = g["position"].as_str().unwrap().to_string();
    assert_ne!(after, start);
    let svg = g["svg"].as_str().unwrap();
    assert!(svg.contains(r#"data-last="to" data-cell="e3""#));
    // Refused moves say why and leave the game alone.
    for (body, why) in [
        (r#"{"move": "e2-e9"}"#, "there is no piece on e2"),
        (r#"{"move": "e9-e5"}"#, "cannot go from e9 to e5"),
        (r#"{"move": "q1-q2"}"#, "refused"),
        (r#"{"move": 5}"#, "`move` must be a string"),
        (r#"{"mvoe": "e9-e8"}"#, "`move` is missing"),
        (r#"["e9-e8"]"#, "must be a JSON object"),
        ("e9-e8", "not JSON"),
    ] {
        let (status, v) = s.json("POST", &moves, Some(body));
        assert_eq!(status, 400, "{body}");
        assert!(error_of(&v).contains(why), "{body}: {v}");
    }
    let (_, g) = s.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(g["position"], after.as_str());
    let undo = format!("/api/games/{id}/undo");
    let (status, g) = s.json("POST", &undo, None);
    assert_eq!(status, 200);
    assert_eq!(g["position"], start.as_str());
    assert_eq!(g["moves"], serde_json::json!([]));
    let (status, v) = s.json("POST", &undo, None);
    assert_eq!(status, 400);
    assert!(error_of(&v).contains("no move to undo"));
    // Games that do not exist, or are not ids: 32 random hex digits, never a count.
    assert_eq!(id.len(), 32);
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    let (status, _) = s.json("GET", &format!("/api/games/{}", "0".repeat(32)), None);
    assert_eq!(status, 404);
    for bad in ["abc", "1", "2"] {
        let (status, v) = s.json(
            "POST",
            &format!("/api/games/{bad}/moves"),
            Some(r#"{"move": "e2-e3"}"#),
        );
        assert_eq!(status, 400);
        assert!(error_of(&v).contains("not a game id"), "{v}");
    }
}

#[test]
fn games_start_from_positions_and_options_or_say_why_not() {
    let s = variants();
    let (_, g) = s.json("POST", "/api/games", Some(r#"{"variant": "iss-jetan"}"#));
    let id = g["id"].as_str().unwrap().to_string();
    let (_, g) = s.json(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move": "b2-b3"}"#),
    );
    let pos = g["position"].as_str().unwrap();
    let body = serde_json::json!({"variant": "iss-jetan", "position": pos}).to_string();
    let (status, g2) = s.json("POST", "/api/games", Some(&body));
    assert_eq!(status, 200);
    assert_eq!(g2["position"], pos);
    assert_eq!(g2["to_move"], "Orange");
    assert_ne!(g2["id"], g["id"]);
    let on = r#"{"variant": "iss-jetan", "options": {"chief-takes-princess": true}}"#;
    assert_eq!(s.json("POST", "/api/games", Some(on)).0, 200);
    for (body, status, why) in [
        (
            r#"{"variant": "iss-jetan", "position": "nonsense"}"#,
            400,
            "bad position",
        ),
        (
            r#"{"variant": "iss-jetan", "position": 3}"#,
            400,
            "must be a string",
        ),
        (
            r#"{"variant": "iss-jetan", "options": {"nope": true}}"#,
            400,
            "no option `nope`",
        ),
        (
            r#"{"variant": "iss-jetan", "options": {"chief-takes-princess": "yes"}}"#,
            400,
            "true or false",
        ),
        (
            r#"{"variant": "iss-jetan", "options": [1]}"#,
            400,
            "`options` must be",
        ),
        (r#"{"variant": "../variants/iss-jetan"}"#, 404, "no variant"),
        (r#"{}"#, 400, "`variant` is missing"),
    ] {
        let (got, v) = s.json("POST", "/api/games", Some(body));
        assert_eq!(got, status, "{body}");
        assert!(error_of(&v).contains(why), "{body}: {v}");
    }
}

#[test]
fn a_move_changes_only_the_game_it_names() {
    let s = variants();
    let new = |v: &str| {
        let (_, g) = s.json(
            "POST",
            "/api/games",
            Some(&format!(r#"{{"variant": "{v}"}}"#)),
        );
        (
            g["id"].as_str().unwrap().to_string(),
            g["position"].as_str().unwrap().to_string(),
        )
    };
    let (a, a_start) = new("iss-jetan");
    let (b, b_start) = new("iss-jetan");
    let (c, c_start) = new("hexagonal-iss-jetan");
    s.json(
        "POST",
        &format!("/api/games/{a}/moves"),
        Some(r#"{"move": "e2-e3"}"#),
    );
    assert_ne!(
        s.json("GET", &format!("/api/games/{a}"), None).1["position"],
        a_start.as_str()
    );
    assert_eq!(
        s.json("GET", &format!("/api/games/{b}"), None).1["position"],
        b_start.as_str()
    );
    assert_eq!(
        s.json("GET", &format!("/api/games/{c}"), None).1["position"],
        c_start.as_str()
    );
}

#[test]
fn bad_requests_get_4xx_and_the_server_goes_on() {
    let mut s = variants();
    for (method, path, status) in [
        ("DELETE", "/api/games", 405),
        ("PUT", "/api/variants/iss-jetan", 405),
        ("POST", "/", 405),
        ("GET", "/api/nothing", 404),
        ("GET", "/variants/iss-jetan.var", 404),
        ("GET", "/../variants/iss-jetan.var", 404),
        ("GET", "/api/variants/..%2Fvariants%2Fiss-jetan", 404),
        ("GET", "/api/variants/%2e%2e%2fCargo", 404),
        ("GET", "/api/variants/%ff%fe", 400),
        ("GET", "/etc/passwd", 404),
    ] {
        let token = format!("X-Variantlab-Token: {}", s.token);
        let (got, body) = request_with(&s.address, method, path, None, &[&token]);
        assert_eq!(
            got,
            status,
            "{method} {path}: {}",
            String::from_utf8_lossy(&body)
        );
        let v: Value = serde_json::from_slice(&body).expect("JSON");
        assert!(!error_of(&v).is_empty());
    }
    // A body over the limit.
    let big = format!(r#"{{"move": "{}"}}"#, "x".repeat(100_000));
    let (got, _) = request(&s.address, "POST", "/api/games/1/moves", Some(&big));
    assert_eq!(got, 413);
    // Garbage instead of HTTP, and a connection dropped half-way.
    for junk in [
        &b"GARBAGE\r\n\r\n"[..],
        b"GET / HTTP/1.1\r\nContent-Length: 50\r\n\r\n{",
        b"\x00\xff\xfe",
    ] {
        let mut t = std::net::TcpStream::connect(&s.address).unwrap();
        t.set_read_timeout(Some(std::time::Duration::from_secs(5)))
            .unwrap();
        let _ = t.write_all(junk);
        let _ = t.shutdown(std::net::Shutdown::Write);
        let _ = std::io::Read::read_to_end(&mut t, &mut Vec::new());
    }
    assert!(s.alive());
    let (status, _) = s.json("GET", "/api/variants", None);
    assert_eq!(status, 200);
    // A well-formed request still answers after all that, with a parseable status line;
    // one that does not say its Host is refused.
    for (head, status) in [
        ("GET /api/variants HTTP/1.0\r\n\r\n".to_string(), 400),
        (
            format!("GET /api/variants HTTP/1.0\r\nHost: {}\r\n\r\n", s.address),
            200,
        ),
    ] {
        let t = std::net::TcpStream::connect(&s.address).unwrap();
        let mut w = t.try_clone().unwrap();
        w.write_all(head.as_bytes()).unwrap();
        assert_eq!(raw_answer(t).0, status, "{head}");
    }
}

#[test]
fn an_edited_file_shows_its_new_rules_or_its_diagnostics() {
    let dir = scratch("edit", &["iss-jetan.var"]);
    let file = dir.join("iss-jetan.var");
    let s = Server::start(&[&dir]);
    let (_, g) = s.json("POST", "/api/games", Some(r#"{"variant": "iss-jetan"}"#));
    let game = g["id"].as_str().unwrap().to_string();
    let original = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, original.replace("Thoat", "Steed")).unwrap();
    let (_, v) = s.json("GET", "/api/variants/iss-jetan", None);
    assert_eq!(v["pieces"][1]["name"], "Steed");
    // Broken: the same text `check` prints.
    std::fs::write(
        &file,
        original.replace("step 2 orthogonal", "step 2 orthogonl"),
    )
    .unwrap();
    let (status, v) = s.json("GET", "/api/variants/iss-jetan", None);
    assert_eq!(status, 200);
    assert_eq!(v["ok"], false);
    let shown = v["diagnostics"].as_str().unwrap();
    let check = std::process::Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["check", file.to_str().unwrap()])
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    assert!(!check.status.success());
    assert_eq!(shown, String::from_utf8_lossy(&check.stderr));
    assert!(shown.contains("orthogonl"));
    let (_, list) = s.json("GET", "/api/variants", None);
    assert_eq!(list["variants"][0]["ok"], false);
    let (status, v) = s.json("POST", "/api/games", Some(r#"{"variant": "iss-jetan"}"#));
    assert_eq!(status, 409);
    assert!(v["diagnostics"].as_str().unwrap().contains("orthogonl"));
    // The game begun before goes on with the rules it began with.
    let (status, g) = s.json(
        "POST",
        &format!("/api/games/{game}/moves"),
        Some(r#"{"move": "a2-b4"}"#),
    );
    assert_eq!(status, 200, "{g}");
    // A file added to the folder shows up.
    std::fs::copy(
        root().join("variants/hexagonal-iss-jetan.var"),
        dir.join("hex.var"),
    )
    .unwrap();
    let (_, list) = s.json("GET", "/api/variants", None);
    assert_eq!(list["variants"].as_array().unwrap().len(), 2);
    // A removed file is gone, with a reason.
    std::fs::remove_file(&file).unwrap();
    assert_eq!(s.json("GET", "/api/variants/iss-jetan", None).0, 404);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_finished_game_says_who_won_and_takes_no_more_moves() {
    let s = variants();
    // Black's Panthan on e4 can take the Orange Princess on e5.
    let body =
        r#"{"variant": "iss-jetan", "position": "ch9/10/10/10/10/4pr5/4PN5/10/10/PR8CH b - 0 1"}"#;
    let (status, g) = s.json("POST", "/api/games", Some(body));
    assert_eq!(status, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (_, g) = s.json(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move": "e4xe5"}"#),
    );
    assert_eq!(g["ending"]["result"], "Black wins");
    assert_eq!(g["ending"]["winner"], "Black");
    assert!(g["ending"]["reason"].as_str().unwrap().contains("Princess"));
    assert_eq!(g["legal"], serde_json::json!([]));
    let (status, v) = s.json(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move": "a10-a9"}"#),
    );
    assert_eq!(status, 400);
    assert!(error_of(&v).contains("over"), "{v}");
    let (_, g) = s.json("POST", &format!("/api/games/{id}/undo"), None);
    assert!(g["ending"].is_null());
}

#[test]
fn captured_pieces_show_in_hand_and_are_dropped() {
    let s = variants();
    let (status, g) = s.json("POST", "/api/games", Some(r#"{"variant": "shogi"}"#));
    assert_eq!(status, 200);
    let id = g["id"].as_str().unwrap().to_string();
    let hand_of = |g: &Value, player: &str| -> Value {
        g["hands"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["player"] == player)
            .unwrap_or_else(|| panic!("no hand for {player} in {g}"))["pieces"]
            .clone()
    };
    assert_eq!(hand_of(&g, "Black"), serde_json::json!([]));
    assert_eq!(hand_of(&g, "White"), serde_json::json!([]));
    // No drops at the start: every move leaves a cell, and says it is no drop.
    let legal = g["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 30);
    assert!(
        legal
            .iter()
            .all(|m| m["drop"].is_null() && m["from"] != m["to"])
    );
    let moves = format!("/api/games/{id}/moves");
    let mut g = g;
    // The bishops open their diagonal; Black's takes White's and promotes, and White's
    // Silver takes the Horse back: each side holds one Bishop.
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
        let (status, next) = s.json("POST", &moves, Some(&format!(r#"{{"move": "{m}"}}"#)));
        assert_eq!(status, 200, "{m}: {next}");
        g = next;
        if m == "8h2b+" {
            assert_eq!(
                hand_of(&g, "Black"),
                serde_json::json!([{"piece": "Bishop", "code": "B", "count": 1}])
            );
            assert_eq!(hand_of(&g, "White"), serde_json::json!([]));
        }
    }
    assert_eq!(
        hand_of(&g, "White"),
        serde_json::json!([{"piece": "Bishop", "code": "b", "count": 1}])
    );
    assert_eq!(g["to_move"], "Black");
    // The Bishop may be dropped on any of the 81 - 38 empty cells; a drop's `from` is
    // its `to`, and it names the kind dropped.
    let drops: Vec<&Value> = g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m["drop"].is_null())
        .collect();
    assert_eq!(drops.len(), 43);
    assert!(
        drops
            .iter()
            .all(|m| m["drop"] == "Bishop" && m["from"] == m["to"])
    );
    let drop = drops
        .iter()
        .find(|m| m["to"] == "5e")
        .expect("B*5e is legal");
    assert_eq!(drop["notation"], "B*5e");
    assert_eq!(drop["capture"], false);
    let (status, g) = s.json("POST", &moves, Some(r#"{"move": "B*5e"}"#));
    assert_eq!(status, 200, "{g}");
    assert_eq!(hand_of(&g, "Black"), serde_json::json!([]));
    assert!(
        g["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["cell"] == "5e" && p["piece"] == "Bishop" && p["player"] == "Black")
    );
    assert_eq!(g["moves"][4], "B*5e");
    // A second drop of the same kind is refused: the hand is empty.
    let (status, v) = s.json("POST", &moves, Some(r#"{"move": "b*5f"}"#));
    assert_eq!(status, 200, "White still holds one: {v}");
    let (status, v) = s.json("POST", &moves, Some(r#"{"move": "B*4e"}"#));
    assert_eq!(status, 400);
    assert!(error_of(&v).contains("none in hand"), "{v}");
    // Undo puts the Bishop back in White's hand.
    let (_, g) = s.json("POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(hand_of(&g, "White")[0]["count"], 1);
}

#[test]
fn a_fractional_result_reaches_the_api_as_each_players_score() {
    let s = variants();
    // Glinski's stalemate: Black, to move, has no move and is not in check.
    let body = r#"{"variant": "glinski-chess", "position": "5k/7/5K2/9/10/11/10/9/8/7/6 b - 0 1"}"#;
    let (status, g) = s.json("POST", "/api/games", Some(body));
    assert_eq!(status, 200, "{g}");
    let e = &g["ending"];
    assert_eq!(e["result"], "White scores 3/4, Black scores 1/4", "{g}");
    assert!(e["winner"].is_null());
    assert_eq!(e["scores"][0]["player"], "White");
    assert_eq!(e["scores"][0]["score"], "3/4");
    assert_eq!(e["scores"][1]["score"], "1/4");
    assert_eq!(e["scores"][1]["share"], 0.25);
}

#[test]
fn the_computer_answers_on_the_api_when_it_plays_a_side() {
    let s = variants();
    let body = r#"{"variant": "chess", "computer": "Black", "level": 1}"#;
    let (status, g) = s.json("POST", "/api/games", Some(body));
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["computer"], serde_json::json!(["Black"]));
    let id = g["id"].as_str().unwrap().to_string();
    let (_, g) = s.json(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move": "e2e4"}"#),
    );
    assert_eq!(g["moves"].as_array().unwrap().len(), 2, "{g}");
    assert_eq!(g["to_move"], "White");
    // Undo takes back the computer's move and the person's.
    let (_, g) = s.json("POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(g["moves"].as_array().unwrap().len(), 0, "{g}");
    // The computer playing White moves first: that move is not taken back, or it
    // would never move again; after a person's move, undo takes back that move and
    // the computer's reply.
    let body = r#"{"variant": "chess", "computer": "White", "level": 1}"#;
    let (_, g) = s.json("POST", "/api/games", Some(body));
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["moves"].as_array().unwrap().len(), 1, "{g}");
    let (status, v) = s.json("POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(status, 400, "{v}");
    assert!(error_of(&v).contains("only the computer has moved"), "{v}");
    let (_, g) = s.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(g["moves"].as_array().unwrap().len(), 1, "{g}");
    let reply = g["legal"][0]["notation"].as_str().unwrap().to_string();
    let (_, g) = s.json(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&serde_json::json!({ "move": reply }).to_string()),
    );
    assert_eq!(g["moves"].as_array().unwrap().len(), 3, "{g}");
    let (_, g) = s.json("POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(g["moves"].as_array().unwrap().len(), 1, "{g}");
    assert_eq!(g["to_move"], "Black");
    for bad in [
        r#"{"variant": "chess", "computer": "Green"}"#,
        r#"{"variant": "chess", "computer": "Black", "level": 99}"#,
        r#"{"variant": "chess", "computer": 3}"#,
    ] {
        let (status, v) = s.json("POST", "/api/games", Some(bad));
        assert_eq!(status, 400, "{bad}: {v}");
    }
}
