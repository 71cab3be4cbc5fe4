//! The studio's API over real HTTP: a served file's text, its stamp, diagnostics of
//! an edited text, saving (with the conflict case and hostile requests), games set
//! up from a seed and a list of moves, looking back, check, and short notation.

use crate::common;

use common::root;
use common::server::{Server, request, request_with};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn scratch(name: &str, files: &[&str]) -> crate::common::Scratch {
    common::scratch(&format!("studio-{name}"), files)
}

fn game(s: &Server, body: Value) -> Value {
    let (status, g) = s.json("POST", "/api/games", Some(&body.to_string()));
    assert_eq!(status, 200, "{g}");
    g
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_file_is_read_checked_and_saved_with_its_stamp() {
    let dir = scratch("save", &["chess.var"]);
    let s = Server::start(&[&dir]);
    let (status, src) = s.json("GET", "/api/variants/chess/source", None);
    assert_eq!(status, 200);
    let text = src["text"].as_str().unwrap().to_string();
    assert_eq!(
        text,
        std::fs::read_to_string(dir.join("chess.var")).unwrap()
    );
    let stamp = src["stamp"].as_str().unwrap().to_string();
    assert_eq!(
        s.json("GET", "/api/variants/chess/stamp", None).1["stamp"],
        stamp
    );
    assert_eq!(s.json("GET", "/api/variants/chess", None).1["stamp"], stamp);

    // A mistake as one types: the code, the line and the help `check` gives.
    let broken = text.replacen("Rook a1 h1, Knight b1", "Rook a1 h1, Knigt b1", 1);
    let (status, c) = s.json(
        "POST",
        "/api/variants/chess/check",
        Some(&json!({ "text": broken }).to_string()),
    );
    assert_eq!(status, 200, "{c}");
    assert_eq!(c["ok"], false);
    let d = &c["diagnostics"][0];
    assert_eq!(d["code"], "unknown_piece", "{c}");
    let line = broken.lines().position(|l| l.contains("Knigt")).unwrap() + 1;
    let column = broken.lines().nth(line - 1).unwrap().find("Knigt").unwrap() + 1;
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(line as u64), Some(column as u64)),
        "{c}"
    );
    assert_eq!(d["end_column"].as_u64(), Some(column as u64 + 5), "{c}");
    assert!(
        d["help"].as_str().unwrap().contains("variantlab explain"),
        "{c}"
    );
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .arg("check")
        .arg(write_temp(&dir, "broken.txt", &broken))
        .output()
        .unwrap();
    let printed =
        String::from_utf8_lossy(&cli.stdout).to_string() + &String::from_utf8_lossy(&cli.stderr);
    let code = d["code"].as_str().unwrap();
    assert!(
        printed.contains(&format!("variantlab::{code}")),
        "{printed}"
    );
    assert!(c["rendered"].as_str().unwrap().contains(code));

    // Saved: the file on disk is the new text, and the stamp follows it.
    let edited = text.replace("name \"", "name \"Edited ");
    let (status, saved) = s.json(
        "POST",
        "/api/variants/chess/source",
        Some(&json!({ "text": edited, "stamp": stamp }).to_string()),
    );
    assert_eq!(status, 200, "{saved}");
    assert_eq!(
        std::fs::read_to_string(dir.join("chess.var")).unwrap(),
        edited
    );
    let new_stamp = saved["stamp"].as_str().unwrap().to_string();
    assert_ne!(new_stamp, stamp);
    assert_eq!(
        s.json("GET", "/api/variants/chess/stamp", None).1["stamp"],
        new_stamp
    );
    assert!(
        s.json("GET", "/api/variants/chess", None).1["name"]
            .as_str()
            .unwrap()
            .starts_with("Edited ")
    );
    // No temporary file is left beside it.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

fn write_temp(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_save_over_a_file_changed_since_is_refused_with_both_texts() {
    let dir = scratch("conflict", &["chess.var"]);
    let s = Server::start(&[&dir]);
    let (_, src) = s.json("GET", "/api/variants/chess/source", None);
    let stamp = src["stamp"].as_str().unwrap();
    let theirs = src["text"].as_str().unwrap().to_string() + "\n# changed elsewhere\n";
    std::fs::write(dir.join("chess.var"), &theirs).unwrap();
    let mine = src["text"].as_str().unwrap().to_string() + "\n# mine\n";
    let (status, v) = s.json(
        "POST",
        "/api/variants/chess/source",
        Some(&json!({ "text": mine, "stamp": stamp }).to_string()),
    );
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("changed on disk"),
        "{v}"
    );
    assert_eq!(v["text"], theirs.as_str());
    // Nothing was written.
    assert_eq!(
        std::fs::read_to_string(dir.join("chess.var")).unwrap(),
        theirs
    );
    // With the stamp of the text now on disk, it is saved.
    let (status, _) = s.json(
        "POST",
        "/api/variants/chess/source",
        Some(&json!({ "text": mine, "stamp": v["stamp"] }).to_string()),
    );
    assert_eq!(status, 200);
    assert_eq!(
        std::fs::read_to_string(dir.join("chess.var")).unwrap(),
        mine
    );
}

#[test]
fn hostile_saves_are_refused() {
    let dir = scratch("hostile", &["chess.var"]);
    let outside = dir.with_extension("outside.var");
    std::fs::write(&outside, "untouched").unwrap();
    let s = Server::start(&[&dir.join("chess.var")]);
    let (_, src) = s.json("GET", "/api/variants/chess/source", None);
    let stamp = src["stamp"].as_str().unwrap().to_string();
    let body = json!({"text": "name \"x\"", "stamp": stamp}).to_string();
    let original = std::fs::read_to_string(dir.join("chess.var")).unwrap();

    // No token: refused before anything is read.
    let (status, _) = request(
        &s.address,
        "POST",
        "/api/variants/chess/source",
        Some(&body),
    );
    assert_eq!(status, 403);
    let wrong = "X-Variantlab-Token: 00000000000000000000000000000000";
    let (status, _) = request_with(
        &s.address,
        "POST",
        "/api/variants/chess/source",
        Some(&body),
        &[wrong],
    );
    assert_eq!(status, 403);
    // Another site's page, even with the token.
    let token = format!("X-Variantlab-Token: {}", s.token);
    let (status, _) = request_with(
        &s.address,
        "POST",
        "/api/variants/chess/source",
        Some(&body),
        &[&token, "Origin: http://evil.test"],
    );
    assert_eq!(status, 403);
    // Only the files served, named by id: paths are not ids.
    for path in [
        "/api/variants/..%2Fchess.outside/source",
        "/api/variants/../chess.outside/source",
        "/api/variants/%2e%2e/source",
        "/api/variants/chess.outside/source",
        "/api/variants/%2Fetc%2Fpasswd/source",
        "/api/variants/chess/../../source",
    ] {
        let (status, v) = s.call("POST", path, Some(&body));
        assert!(status == 404 || status == 400, "{path}: {status} {v}");
        let (status, v) = s.call("GET", path, None);
        assert!(status == 404 || status == 400, "{path}: {status} {v}");
    }
    // A body past the server's limit, by its length, before it is read.
    let huge = json!({"text": "#".repeat(100_000), "stamp": stamp}).to_string();
    let (status, _) = s.call("POST", "/api/variants/chess/source", Some(&huge));
    assert_eq!(status, 413);
    let (status, _) = s.call("POST", "/api/variants/chess/check", Some(&huge));
    assert_eq!(status, 413);
    // Bodies of the wrong shape.
    for bad in [
        "not json",
        "[]",
        r#"{"text": 5, "stamp": "x"}"#,
        r#"{"text": "x"}"#,
        r#"{"stamp": "x"}"#,
    ] {
        let (status, v) = s.json("POST", "/api/variants/chess/source", Some(bad));
        assert_eq!(status, 400, "{bad}: {v}");
    }
    let (status, _) = s.call("PUT", "/api/variants/chess/source", Some(&body));
    assert_eq!(status, 405);
    assert_eq!(
        std::fs::read_to_string(dir.join("chess.var")).unwrap(),
        original
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "untouched");
    let _ = std::fs::remove_file(outside);
}

#[test]
fn short_notation_is_san_for_chess_and_western_for_shogi() {
    let s = Server::start(&[
        Path::new("variants/chess.var"),
        Path::new("variants/shogi.var"),
    ]);
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1",
    ];
    let g = game(&s, json!({"variant": "chess", "moves": moves}));
    assert_eq!(g["refused"], Value::Null);
    assert_eq!(
        strings(&g["short"]),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]
    );
    // The fool's mate: mate is marked, and the King in check is named.
    let g = game(
        &s,
        json!({"variant": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}),
    );
    assert_eq!(strings(&g["short"])[3], "Qh4#");
    assert_eq!(strings(&g["check"]), ["e1"]);
    let g = game(
        &s,
        json!({"variant": "chess", "moves": ["e2e4", "f7f6", "d1h5"]}),
    );
    assert_eq!(strings(&g["short"])[2], "Qh5+");
    assert_eq!(strings(&g["check"]), ["e8"]);
    // Two Knights reach d2: each says its file.
    let g = game(
        &s,
        json!({"variant": "chess", "moves": ["d2d4", "d7d5", "g1f3", "g8f6"]}),
    );
    let shorts: Vec<&str> = g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["short"].as_str().unwrap())
        .collect();
    assert!(
        shorts.contains(&"Nbd2") && shorts.contains(&"Nfd2"),
        "{shorts:?}"
    );
    assert!(
        shorts.contains(&"e4") && !shorts.contains(&"Nd2"),
        "{shorts:?}"
    );
    assert_eq!(g["check"], json!([]));

    let g = game(
        &s,
        json!({"variant": "shogi", "moves": ["7g7f", "3c3d", "8h2b+", "3a2b"]}),
    );
    assert_eq!(strings(&g["short"]), ["P-7f", "P-3d", "Bx2b+", "Sx2b"]);
    let shorts: Vec<&str> = g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["short"].as_str().unwrap())
        .collect();
    assert!(shorts.contains(&"B*5e"), "{shorts:?}");
}

#[test]
fn a_game_is_set_up_from_a_seed_and_moves_and_looked_back_at() {
    let s = Server::start(&[Path::new("variants")]);
    // The same seed gives the setup `setup --seed` prints; another seed another one.
    let g7 = game(&s, json!({"variant": "hexcetran-chess", "seed": 7}));
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["setup", "variants/hexcetran-chess.var", "--seed", "7"])
        .current_dir(root())
        .output()
        .unwrap();
    let first = String::from_utf8_lossy(&cli.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert_eq!(g7["position"], first.as_str());
    assert_eq!(g7["seed"], 7);
    let g8 = game(&s, json!({"variant": "hexcetran-chess", "seed": 8}));
    assert_ne!(g8["position"], g7["position"]);
    // A fixed setup ignores the seed.
    let c = game(&s, json!({"variant": "chess", "seed": 8}));
    assert_eq!(c["seed"], Value::Null);

    // Moves replayed up to the first refused one, which is reported.
    let g = game(
        &s,
        json!({"variant": "chess", "moves": ["e2e4", "e7e5", "e4e5", "g1f3"]}),
    );
    assert_eq!(strings(&g["moves"]).len(), 2);
    assert_eq!(g["refused"]["ply"], 2);
    assert_eq!(g["refused"]["move"], "e4e5");
    assert!(
        g["refused"]["reason"].as_str().unwrap().contains("e4"),
        "{g}"
    );
    for bad in [
        json!({"variant": "chess", "moves": "e2e4"}),
        json!({"variant": "chess", "moves": [5]}),
        json!({"variant": "chess", "moves": ["e".repeat(65)]}),
        json!({"variant": "chess", "moves": vec!["e2e4"; 1001]}),
        json!({"variant": "chess", "seed": -1}),
        json!({"variant": "chess", "seed": "7"}),
    ] {
        let (status, v) = s.json("POST", "/api/games", Some(&bad.to_string()));
        assert_eq!(status, 400, "{bad}: {v}");
    }

    // Looking back: the board after the first move, the whole list still shown.
    let g = game(
        &s,
        json!({"variant": "chess", "moves": ["e2e4", "e7e5", "g1f3"]}),
    );
    let id = g["id"].as_str().unwrap();
    let (status, back) = s.json("GET", &format!("/api/games/{id}?ply=1"), None);
    assert_eq!(status, 200);
    assert_eq!(
        back["position"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(back["ply"], 1);
    assert_eq!(back["legal"], json!([]));
    assert_eq!(strings(&back["short"]), ["e4", "e5", "Nf3"]);
    let (status, _) = s.json("GET", &format!("/api/games/{id}?ply=4"), None);
    assert_eq!(status, 400);
    let (status, _) = s.json("GET", &format!("/api/games/{id}?ply=x"), None);
    assert_eq!(status, 400);
    // The game itself is untouched.
    let (_, now) = s.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(strings(&now["moves"]).len(), 3);

    // Against the computer, after the replayed moves it answers at once.
    let g = game(
        &s,
        json!({"variant": "chess", "moves": ["e2e4"], "computer": "Black", "level": 1}),
    );
    assert_eq!(strings(&g["moves"]).len(), 2, "{g}");
    assert_eq!(g["to_move"], "White");
}

#[test]
fn pieces_come_with_their_rule_text() {
    let s = Server::start(&[Path::new("variants/chess.var")]);
    let (_, v) = s.json("GET", "/api/variants/chess", None);
    let knight = v["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Knight")
        .unwrap();
    let text = std::fs::read_to_string(root().join("variants/chess.var")).unwrap();
    let rule = knight["rule"].as_str().unwrap();
    assert!(
        rule.ends_with("piece Knight (N) {\n  leap 1 orthogonal then 1 outward diagonal\n}"),
        "{rule}"
    );
    assert!(text.contains(rule), "{rule}");
    assert_eq!(v["random"], false);
}

/// Pictures by (player, piece).
type Pictures = Vec<((String, String), Value)>;

/// The pictures a variant's pieces are drawn with, and the problems named.
fn pictures_of(s: &Server, id: &str) -> (Pictures, Value) {
    let (status, v) = s.json("GET", &format!("/api/variants/{id}/pictures"), None);
    assert_eq!(status, 200, "{v}");
    let list = v["pictures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let key = (
                p["player"].as_str().unwrap().to_string(),
                p["piece"].as_str().unwrap().to_string(),
            );
            (key, p.clone())
        })
        .collect();
    (list, v["problems"].clone())
}

fn picture<'a>(list: &'a [((String, String), Value)], player: &str, piece: &str) -> &'a Value {
    &list
        .iter()
        .find(|(k, _)| k.0 == player && k.1 == piece)
        .unwrap_or_else(|| panic!("no picture of {player}'s {piece}"))
        .1
}

#[test]
fn the_file_says_how_pieces_are_drawn() {
    let s = Server::start(&[Path::new("variants")]);
    // Chess: the figures, each the drawing kept in assets/figures/.
    let (chess, problems) = pictures_of(&s, "chess");
    assert_eq!(chess.len(), 12);
    assert_eq!(problems, json!([]));
    let figure =
        |name: &str| std::fs::read_to_string(root().join("assets/figures").join(name)).unwrap();
    assert_eq!(
        picture(&chess, "White", "Knight")["svg"],
        figure("white-N.svg")
    );
    assert_eq!(
        picture(&chess, "Black", "Queen")["svg"],
        figure("black-Q.svg")
    );
    assert_eq!(picture(&chess, "Black", "Queen")["turns"], false);

    // Shogi: a wedge for each of 14 kinds and both players, with the file's characters;
    // the second player's turned to point at the first; promoted ones in red.
    let (shogi, _) = pictures_of(&s, "shogi");
    assert_eq!(shogi.len(), 28);
    let svg = |p: &Value| p["svg"].as_str().unwrap().to_string();
    let king = svg(picture(&shogi, "Black", "King"));
    assert!(
        king.contains("polygon") && king.contains(">玉<") && !king.contains("rotate(180"),
        "{king}"
    );
    let other = svg(picture(&shogi, "White", "King"));
    assert!(
        other.contains(">王<") && other.contains("rotate(180 50 50)"),
        "{other}"
    );
    assert_eq!(picture(&shogi, "White", "King")["turns"], true);
    let red = "#b3171b";
    let tokin = svg(picture(&shogi, "Black", "Tokin"));
    assert!(
        tokin.contains(&format!("fill=\"{red}\"")) && tokin.contains(">と<"),
        "{tokin}"
    );
    assert!(svg(picture(&shogi, "Black", "Pawn")).contains(">歩<"));
    assert!(!svg(picture(&shogi, "Black", "Pawn")).contains(red));

    // Xiangqi: discs with each side's own character, the first player's in red.
    let (xiangqi, _) = pictures_of(&s, "xiangqi");
    assert_eq!(xiangqi.len(), 14);
    let general = svg(picture(&xiangqi, "White", "General"));
    assert!(
        general.contains("<circle") && general.contains(">帥<") && general.contains(red),
        "{general}"
    );
    let general = svg(picture(&xiangqi, "Black", "General"));
    assert!(
        general.contains(">將<") && !general.contains(red),
        "{general}"
    );
    assert_eq!(picture(&xiangqi, "Black", "General")["turns"], false);

    // A file without the word: letters, no pictures.
    let (jetan, _) = pictures_of(&s, "iss-jetan");
    assert!(jetan.is_empty());
    let (status, _) = s.json("GET", "/api/variants/..%2Fchess/pictures", None);
    assert_eq!(status, 404);
}

#[test]
fn pieces_are_drawn_from_files_beside_the_variant_file() {
    let dir = scratch("drawn-from", &[]);
    let text = std::fs::read_to_string(root().join("variants/chess.var"))
        .unwrap()
        .replace("pieces drawn as figures", "")
        .replace(
            "piece Knight (N) {",
            "piece Knight (N) {\n  drawn from \"art/light.svg\" or \"art/dark.svg\"",
        )
        .replace(
            "piece King (K) {",
            "piece King (K) {\n  drawn as figures \"Q\"",
        )
        .replace(
            "piece Rook (R) {",
            "piece Rook (R) {\n  drawn from \"art/rook.svg\"",
        );
    std::fs::write(dir.join("chess.var"), text).unwrap();
    std::fs::create_dir_all(dir.join("art")).unwrap();
    std::fs::write(dir.join("art/light.svg"), "<svg id=\"light\"/>").unwrap();
    std::fs::write(dir.join("art/dark.svg"), "<svg id=\"dark\"/>").unwrap();
    let s = Server::start(&[&dir]);
    let (list, problems) = pictures_of(&s, "chess");
    // Only the pieces that say: each Knight its own file, each King the Queen's figure.
    let mut keys: Vec<String> = list
        .iter()
        .map(|(k, _)| format!("{} {}", k.0, k.1))
        .collect();
    keys.sort();
    assert_eq!(
        keys,
        ["Black King", "Black Knight", "White King", "White Knight"]
    );
    assert_eq!(
        picture(&list, "White", "Knight")["svg"],
        "<svg id=\"light\"/>"
    );
    assert_eq!(
        picture(&list, "Black", "Knight")["svg"],
        "<svg id=\"dark\"/>"
    );
    let queen = std::fs::read_to_string(root().join("assets/figures/black-Q.svg")).unwrap();
    assert_eq!(picture(&list, "Black", "King")["svg"], queen);
    // The Rook's file is not there: named once for each player, the Rook keeps its letter.
    let problems = problems.to_string();
    assert_eq!(problems.matches("rook.svg").count(), 2, "{problems}");
    // `check` warns of it too.
    let (_, v) = s.json(
        "POST",
        "/api/variants/chess/check",
        Some(&json!({"text": std::fs::read_to_string(dir.join("chess.var")).unwrap()}).to_string()),
    );
    assert_eq!(v["ok"], true);
    assert_eq!(v["diagnostics"][0]["code"], "missing_picture", "{v}");
}

#[test]
fn pictures_beside_a_file_are_served_and_bad_ones_named() {
    // A folder in place of a picture, and a picture past 64 KiB: each named, none read.
    let dir = scratch("pictures", &["chess.var"]);
    let text = std::fs::read_to_string(dir.join("chess.var")).unwrap();
    std::fs::write(
        dir.join("chess.var"),
        text.replace("pieces drawn as figures", ""),
    )
    .unwrap();
    let pieces = dir.join("chess.pieces");
    std::fs::create_dir_all(pieces.join("white-K.svg")).unwrap();
    std::fs::write(pieces.join("Q.svg"), "x".repeat(65 * 1024)).unwrap();
    std::fs::write(pieces.join("black-N.svg"), "<svg/>").unwrap();
    let s = Server::start(&[&dir]);
    let (status, v) = s.json("GET", "/api/variants/chess/pictures", None);
    assert_eq!(status, 200);
    let found: Vec<(&str, &str)> = v["pictures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["player"].as_str().unwrap(), p["piece"].as_str().unwrap()))
        .collect();
    assert_eq!(found, [("Black", "Knight")], "{v}");
    let problems = v["problems"].to_string();
    assert!(
        problems.contains("white-K.svg") && problems.contains("Q.svg"),
        "{problems}"
    );
}
