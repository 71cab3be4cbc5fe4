//! Hands on the page, game by game: every game with pieces in hand shows both hands as
//! the library counts them, and a piece is dropped by clicking its button and a cell;
//! the placement phase is played the same way, with its own restrictions.

use crate::browser::{browser, played};
use crate::common::{self, Lcg, Size};

use common::server::Server;
use std::collections::BTreeSet;
use std::path::Path;
use variantlab::{Game, Move, PieceId, PlayerId, Special};

/// The games whose pieces go to hand or start there.
const GAMES: &[&str] = &[
    "crazyhouse",
    "chessgi",
    "capahouse",
    "shouse",
    "pocketknight",
    "placement",
    "sittuyin",
    "minishogi",
    "kyotoshogi",
    "torishogi",
    "euroshogi",
    "judkins",
    "gorogoro",
    "gorogoroplus",
    "okisakishogi",
    "yarishogi",
    "dobutsu",
    "checkshogi",
];

/// Bytes other than letters, digits and `-._~` as `%XX`, for a URL's query.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A game played at random from its start until a drop is legal, after at least
/// `least` plies if a drop is still legal then (else the last position with one).
fn game_with_a_drop(file: &str, seed: u64, least: usize) -> Game {
    let rules = common::rules(&format!("{file}.var"));
    let mut rng = Lcg(seed);
    let mut earlier = None;
    let mut game = Game::start(rules, seed).expect("start");
    for ply in 0..400 {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        if moves.iter().any(|m| m.special == Special::Drop) {
            if ply >= least {
                return game;
            }
            earlier = Some(game.clone());
        }
        let m = moves[rng.below(moves.len())];
        game.play(m).unwrap();
    }
    earlier.unwrap_or_else(|| panic!("{file}: no drop reached in random play"))
}

/// Each player's hand as the page shows it: (piece, count) pairs in page order.
fn shown_hand(b: &crate::common::webdriver::Browser, player: &str) -> Vec<(String, u32)> {
    let v = b.script(&format!(
        "return [...document.querySelectorAll('.hands .hand[data-player=\"{player}\"] button')].map((e) => [e.dataset.piece, Number(e.dataset.count)])"
    ));
    v.as_array()
        .expect("a list")
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap_or_default().to_string(),
                p[1].as_u64().unwrap_or_default() as u32,
            )
        })
        .collect()
}

#[test]
fn every_fourth_game_with_hands_shows_them_and_drops_by_clicking() {
    games_with_hands_show_them_and_drop_by_clicking(
        "every_fourth_game_with_hands_shows_them_and_drops_by_clicking",
        Size::Small,
    );
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn every_game_with_hands_shows_them_and_drops_by_clicking() {
    games_with_hands_show_them_and_drop_by_clicking(
        "every_game_with_hands_shows_them_and_drops_by_clicking",
        Size::Full,
    );
}

/// At [`Size::Small`], every fourth game of [`GAMES`].
fn games_with_hands_show_them_and_drop_by_clicking(test: &str, size: Size) {
    let Some(b) = browser(test) else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    let stride = if size == Size::Full { 1 } else { 4 };
    for (i, file) in GAMES.iter().enumerate().step_by(stride) {
        let game = game_with_a_drop(file, 7 + i as u64, 12);
        let v = game.variant();
        let pos = game.position();
        let to_move = v.player(game.to_move()).name.clone();
        b.goto(&s.url(&format!("/?v={file}&p={}", encode(&game.position_string()))));
        b.wait_text_where("#status", "the side to move", |t| {
            t.starts_with(&format!("{to_move} to move"))
        });

        // Both hands, as the library counts them.
        for p in 0..v.players.len() {
            let player = PlayerId(p as u8);
            let want: Vec<(String, u32)> = (0..v.pieces.len())
                .map(|k| PieceId(k as u8))
                .filter(|&k| pos.in_hand(player, k) > 0)
                .map(|k| (v.piece(k).name.clone(), pos.in_hand(player, k) as u32))
                .collect();
            let name = &v.player(player).name;
            assert_eq!(shown_hand(&b, name), want, "{file}: {name}'s hand");
        }

        // The first kind that may drop: its button marks exactly its drop cells.
        let moves = game.legal_moves();
        let drops: Vec<&Move> = moves
            .iter()
            .filter(|m| m.special == Special::Drop)
            .collect();
        let kind = drops[0].piece;
        let piece = &v.piece(kind).name;
        let cells: BTreeSet<&str> = drops
            .iter()
            .filter(|m| m.piece == kind)
            .map(|m| v.board.name(m.to))
            .collect();
        b.click(&format!(
            r#".hands .hand[data-player="{to_move}"] button[data-piece="{piece}"]"#
        ));
        b.wait_count("#board .cell.target", cells.len());
        for cell in &cells {
            assert_eq!(
                b.all(&format!(r#"#board .cell.target[data-cell="{cell}"]"#))
                    .len(),
                1,
                "{file}: {piece} to {cell}"
            );
        }
        let cell = cells.iter().next().unwrap();
        let choices: Vec<String> = drops
            .iter()
            .filter(|m| m.piece == kind && v.board.name(m.to) == *cell)
            .map(|m| game.write_move(m))
            .collect();
        b.click(&format!(r#"#board .cell.target[data-cell="{cell}"]"#));
        // A piece that may land either side up asks which.
        if choices.len() > 1 {
            b.wait_count("#choice button", choices.len());
            b.click(&format!(r#"#choice button[data-move="{}"]"#, choices[0]));
        }
        b.wait_text_where("#status", "the other side to move", |t| {
            !t.starts_with(&format!("{to_move} to move"))
        });
        assert_eq!(played(&b), choices[0], "{file}");
        eprintln!("{file}: {} from {}", choices[0], game.position_string());
    }
}

#[test]
fn placement_is_played_by_clicking_with_bishops_on_different_colours() {
    let Some(b) = browser("placement_is_played_by_clicking_with_bishops_on_different_colours")
    else {
        return;
    };
    let s = Server::start(&[Path::new("variants")]);
    b.goto(&s.url("/?v=placement"));
    b.wait_text("#status", "White to move.");
    // Only the pieces in hand may move: a Pawn has nowhere to go yet.
    b.click(r#"#board .piece[data-cell="e2"]"#);
    assert_eq!(b.all("#board .cell.target").len(), 0);
    // Each piece lands on any of its own eight first-rank cells.
    b.click(r#".hands .hand[data-player="White"] button[data-piece="King"]"#);
    b.wait_count("#board .cell.target", 8);
    assert_eq!(b.all(r#"#board .cell.target[data-cell$="1"]"#).len(), 8);
    b.click(r#".hands .hand[data-player="White"] button[data-piece="Bishop"]"#);
    b.wait_count("#board .cell.target", 8);
    b.click(r#"#board .cell.target[data-cell="c1"]"#);
    b.wait_text("#status", "Black to move.");
    b.click(r#".hands .hand[data-player="Black"] button[data-piece="Knight"]"#);
    b.wait_count("#board .cell.target", 8);
    assert_eq!(b.all(r#"#board .cell.target[data-cell$="8"]"#).len(), 8);
    b.click(r#"#board .cell.target[data-cell="g8"]"#);
    b.wait_text("#status", "White to move.");
    // The second Bishop must take the other colour: the light cells left.
    b.click(r#".hands .hand[data-player="White"] button[data-piece="Bishop"]"#);
    b.wait_count("#board .cell.target", 4);
    for cell in ["b1", "d1", "f1", "h1"] {
        assert_eq!(
            b.all(&format!(r#"#board .cell.target[data-cell="{cell}"]"#))
                .len(),
            1,
            "{cell}"
        );
    }
    b.click(r#"#board .cell.target[data-cell="f1"]"#);
    b.wait_text("#status", "Black to move.");
    assert_eq!(played(&b), "B@c1 N@g8 B@f1");
}
