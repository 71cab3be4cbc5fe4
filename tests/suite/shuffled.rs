//! Shuffled starts: Chess960 and Capablanca Random Chess. Every start is drawn and
//! obeys its game's rules (checked here from the position string, not by the code
//! that draws), and castling runs from wherever the King and Rooks stand.

use crate::common;

use common::rules;
use std::collections::BTreeMap;
use variantlab::{Game, Setup, parse_position, write_position};

/// The first field of a position string, rank by rank from the top, each expanded to
/// one character a cell (`.` for empty).
fn ranks(text: &str) -> Vec<Vec<char>> {
    let board = text.split(' ').next().unwrap();
    board
        .split('/')
        .map(|row| {
            let mut cells = vec![];
            let mut digits = String::new();
            for ch in row.chars() {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                    continue;
                }
                if !digits.is_empty() {
                    cells.extend(std::iter::repeat_n('.', digits.parse().unwrap()));
                    digits.clear();
                }
                cells.push(ch);
            }
            if !digits.is_empty() {
                cells.extend(std::iter::repeat_n('.', digits.parse().unwrap()));
            }
            cells
        })
        .collect()
}

fn files_of(rank: &[char], piece: char) -> Vec<usize> {
    (0..rank.len()).filter(|&f| rank[f] == piece).collect()
}

/// The checks shared by both games: Black mirrors White, Pawns on the second ranks,
/// Bishops on both colours, the King between the Rooks, and castling rights named by
/// the Rooks' files (Shredder-FEN), as Fairy-Stockfish writes them.
fn check_start(text: &str, width: usize) -> String {
    let r = ranks(text);
    let (black, white) = (&r[0], &r[r.len() - 1]);
    assert_eq!(white.len(), width, "{text}");
    let lower: Vec<char> = white.iter().map(|c| c.to_ascii_lowercase()).collect();
    assert_eq!(black, &lower, "{text}: Black does not mirror White");
    assert!(r[1].iter().all(|&c| c == 'p'), "{text}");
    assert!(r[r.len() - 2].iter().all(|&c| c == 'P'), "{text}");
    let bishops = files_of(white, 'B');
    assert!(
        bishops.len() == 2 && bishops[0] % 2 != bishops[1] % 2,
        "{text}: Bishops"
    );
    let (king, rooks) = (files_of(white, 'K'), files_of(white, 'R'));
    assert!(
        king.len() == 1 && rooks.len() == 2 && rooks[0] < king[0] && king[0] < rooks[1],
        "{text}: the King is not between the Rooks"
    );
    let file = |f: usize| (b'a' + f as u8) as char;
    let rights: String = [rooks[1], rooks[0]]
        .iter()
        .map(|&f| file(f).to_ascii_uppercase())
        .chain([rooks[1], rooks[0]].iter().map(|&f| file(f)))
        .collect();
    assert_eq!(text.split(' ').nth(2), Some(rights.as_str()), "{text}");
    white.iter().collect()
}

#[test]
fn every_one_of_the_960_starts_is_drawn_with_the_same_chance() {
    let r = rules("fischerandom.var");
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    let draws = 24_000;
    for seed in 0..draws {
        let text = write_position(&r, &Setup::seeded(&r, seed).unwrap());
        *seen.entry(check_start(&text, 8)).or_default() += 1;
    }
    assert_eq!(seen.len(), 960, "starts drawn");
    // 25 draws a start on average: a start drawn far more or less often than that
    // would mean a draw that favours some.
    let (least, most) = (seen.values().min().unwrap(), seen.values().max().unwrap());
    assert!(
        *least >= 5 && *most <= 55,
        "between {least} and {most} draws a start"
    );
    // The standard start is one of them (number 518), as are both mirror images.
    assert!(seen.contains_key("RNBQKBNR"));
    assert!(seen.contains_key("BBNNQRKR") && seen.contains_key("RKRQNNBB"));
}

/// Whether a piece on the first rank, file `at`, defends the cell in front of file
/// `f`: the moves of Capablanca Chess's pieces, worked out by hand for that one rank.
fn defends(piece: char, at: usize, f: usize) -> bool {
    let d = at.abs_diff(f);
    let orthogonal = d == 0;
    let diagonal = d == 1;
    let knight = d == 2;
    match piece {
        'K' => d <= 1,
        'Q' => orthogonal || diagonal,
        'R' => orthogonal,
        'B' => diagonal,
        'N' => knight,
        'A' => diagonal || knight,
        'C' => orthogonal || knight,
        _ => false,
    }
}

#[test]
fn capablanca_random_starts_meet_its_four_conditions() {
    let r = rules("caparandom.var");
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..300 {
        let text = write_position(&r, &Setup::seeded(&r, seed).unwrap());
        let white: Vec<char> = check_start(&text, 10).chars().collect();
        let (queen, archbishop) = (files_of(&white, 'Q'), files_of(&white, 'A'));
        assert!(
            queen[0] % 2 != archbishop[0] % 2,
            "{text}: Queen and Archbishop"
        );
        for f in 0..10 {
            assert!(
                (0..10).any(|at| defends(white[at], at, f)),
                "{text}: the Pawn on file {f} is undefended"
            );
        }
        seen.insert(white);
    }
    assert!(
        seen.len() > 250,
        "only {} starts among 300 draws",
        seen.len()
    );
}

#[test]
fn fen_letters_read_as_the_outermost_rooks_and_file_letters_as_written() {
    let r = rules("fischerandom.var");
    let read = |text: &str| Game::new(r.clone(), parse_position(&r, text).unwrap()).unwrap();
    // Two Rooks on the h-side: `K` is the h-file Rook's castling.
    let outer = read("rk4rr/8/8/8/8/8/8/RK4RR w KQkq - 0 1");
    assert_eq!(
        outer.position_string(),
        "rk4rr/8/8/8/8/8/8/RK4RR w HAha - 0 1"
    );
    // The King's path to g1 holds the g-file Rook, so the h-file castling is closed;
    // the queen-side one (King b1 to c1, Rook a1 to d1) is open.
    let castlings = |g: &Game| -> Vec<String> {
        (g.legal_moves().iter())
            .filter(|m| matches!(m.special, variantlab::Special::Castle(_)))
            .map(|m| g.write_move(m))
            .collect()
    };
    assert_eq!(castlings(&outer), ["b1-a1"]);
    // With the g-file Rook named, the King castles with it: b1 to g1, the Rook to f1.
    let inner = read("rk5r/8/8/8/8/8/8/RK4RR w GAha - 0 1");
    assert_eq!(
        inner.position_string(),
        "rk5r/8/8/8/8/8/8/RK4RR w GAha - 0 1"
    );
    let mut both = castlings(&inner);
    both.sort();
    assert_eq!(both, ["b1-a1", "b1-g1"]);
    let mut g = inner;
    g.play_text("b1g1").unwrap();
    assert_eq!(g.position_string(), "rk5r/8/8/8/8/8/8/R4RKR b ha - 1 1");
}

#[test]
fn castling_moves_only_what_it_must_and_loses_the_rights_it_should() {
    let r = rules("fischerandom.var");
    let read = |text: &str| Game::new(r.clone(), parse_position(&r, text).unwrap()).unwrap();
    // The King already on g1 stays, the Rook alone goes h1 to f1.
    let mut g = read("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
    g.play_text("g1h1").unwrap();
    assert_eq!(g.position_string(), "1r4kr/8/8/8/8/8/8/1R3RK1 b hb - 1 1");
    // King and Rook trade cells, unless the King's destination is attacked.
    let mut g = read("5k2/8/8/8/8/8/8/4RKR1 w GE - 0 1");
    g.play_text("f1g1").unwrap();
    assert_eq!(g.position_string(), "5k2/8/8/8/8/8/8/4RRK1 b - - 1 1");
    let g = read("5kr1/8/8/8/8/8/8/4RKR1 w GE - 0 1");
    assert!(g.parse_move("f1g1").is_err());
    // A Rook's move loses its own side's castling only; a King's loses both.
    let mut g = read("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1");
    g.play_text("h1h2").unwrap();
    assert_eq!(g.position_string(), "rk5r/8/8/8/8/8/7R/RK6 b Aha - 1 1");
    g.play_text("b8c8").unwrap();
    assert_eq!(g.position_string(), "r1k4r/8/8/8/8/8/7R/RK6 w A - 2 2");
    // The King may not end where the castling Rook's own move opens an attack on it:
    // the a1 Rook would see c1 once the c1 Rook leaves.
    let g = read("k7/8/8/8/8/8/8/r1RK3R w HC - 0 1");
    let text: Vec<String> = g.legal_moves().iter().map(|m| g.write_move(m)).collect();
    assert!(text.contains(&"d1-h1".to_string()), "{text:?}");
    assert!(!text.contains(&"d1-c1".to_string()), "{text:?}");
    // Short text: `O-O` on the side where the King ends nearest the edge, whichever
    // Rook travels less.
    let mut g = read("k7/8/8/8/8/8/8/2RK3R w HC - 0 1");
    g.play_text("d1c1").unwrap();
    assert_eq!(g.short_moves(), ["O-O-O"]);
    let mut g = read("k7/8/8/8/8/8/8/2RK3R w HC - 0 1");
    g.play_text("d1h1").unwrap();
    assert_eq!(g.short_moves(), ["O-O"]);
}
