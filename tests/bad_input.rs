//! Broken position strings, moves, saved games and commands: each gets an error that
//! says what is wrong, never a panic, and a game in progress survives all of them.

mod common;

use common::{Lcg, rules};
use variantlab::play::Session;
use variantlab::runtime::{Game, Position, SavedGame, Setup, parse_position, write_position};

/// Texts made by cutting, garbling and splicing a valid one.
fn mangled(valid: &str, rng: &mut Lcg, count: usize) -> Vec<String> {
    let pieces = [
        "/",
        " ",
        "-",
        "x",
        ":",
        "(",
        ")",
        ",",
        "0",
        "99999999999999999999",
        "é",
        "\u{0}",
        "pr",
        "PR:e",
        "\n",
    ];
    let chars: Vec<char> = valid.chars().collect();
    let mut out: Vec<String> = (0..=chars.len())
        .map(|i| chars[..i].iter().collect())
        .collect();
    for _ in 0..count {
        let mut s: Vec<char> = chars.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(s.len() + 1);
            match rng.below(3) {
                0 if at < s.len() => {
                    s.remove(at);
                }
                1 => s
                    .splice(at..at, pieces[rng.below(pieces.len())].chars())
                    .for_each(drop),
                _ => s
                    .splice(at..at, std::iter::once(char::from(rng.below(128) as u8)))
                    .for_each(drop),
            }
        }
        out.push(s.into_iter().collect());
    }
    out
}

#[test]
fn position_strings_never_panic() {
    let mut rng = Lcg(3);
    for file in ["iss-jetan.var", "hexagonal-iss-jetan.var"] {
        let r = rules(file);
        let start = write_position(&r, &Setup::start(&r));
        for text in mangled(&start, &mut rng, 3000) {
            if let Ok(setup) = parse_position(&r, &text) {
                // Whatever reads must also validate or be refused cleanly, and write back.
                if let Ok(pos) = Position::from_setup(&r, &setup) {
                    let again = parse_position(&r, &write_position(&r, &setup))
                        .expect("written text reads");
                    assert_eq!(Position::from_setup(&r, &again).as_ref(), Ok(&pos));
                }
            } else {
                let e = parse_position(&r, &text).unwrap_err().to_string();
                assert!(!e.is_empty());
            }
        }
    }
}

#[test]
fn moves_never_panic_and_refusals_change_nothing() {
    let mut rng = Lcg(5);
    let r = rules("hexagonal-iss-jetan.var");
    let mut g = Game::new(&r, Setup::start(&r)).unwrap();
    let first = g.legal_moves(&r)[0];
    g.play(&r, first);
    let before = g.position_string(&r);
    for text in mangled("f9-f8:m", &mut rng, 3000) {
        match g.play_text(&r, &text) {
            Ok(_) => {
                assert!(g.undo(&r));
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        assert_eq!(g.position_string(&r), before, "after `{text}`");
    }
}

#[test]
fn saved_games_and_commands_never_panic() {
    let mut rng = Lcg(9);
    let valid = "variant variants/iss-jetan.var\noption chief-takes-princess=off\nstart wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA b - 0 1\nmoves e2-e3 f9-f8\n";
    for text in mangled(valid, &mut rng, 2000) {
        let _ = SavedGame::parse(&text);
    }
    let root = common::root();
    let file = root.join("variants/iss-jetan.var");
    let r = rules("iss-jetan.var");
    let mut s = Session::new(&file, r, Setup::start(&rules("iss-jetan.var"))).unwrap();
    s.handle("e2-e3");
    let before = s.game().position_string(s.rules());
    for line in mangled("moves e9-e8 undo board position help", &mut rng, 2000) {
        // Commands that change the game are left out; the rest must leave it as it was.
        if ["undo", "load", "quit", "exit"]
            .iter()
            .any(|c| line.trim_start().starts_with(c))
            || line.contains('-')
            || line.contains('x')
        {
            continue;
        }
        let _ = s.handle(&line);
        assert_eq!(
            s.game().position_string(s.rules()),
            before,
            "after `{line}`"
        );
    }
}
