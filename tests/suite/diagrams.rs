//! Every diagram of the two Jetan rule pages, rendered from the variant files.

use crate::common;

use common::{fixture, normalize, rules, variant};
use variantlab::PlayerId;
use variantlab::diagrams::{board_diagram, footprint_diagram};

const PIECES: [&str; 8] = [
    "Panthan", "Thoat", "Warrior", "Padwar", "Dwar", "Flier", "Chief", "Princess",
];

fn assert_same(rendered: &str, expected: &str, what: &str) {
    let (got, want) = (normalize(rendered), normalize(expected));
    assert!(
        got == want,
        "{what} differs from the page.\n--- page ---\n{want}\n--- rendered ---\n{got}\n"
    );
}

fn footprints(file: &str, dir: &str, full_board_for: &[&str]) {
    let rules = rules(file);
    let v = &rules.variant();
    for name in PIECES {
        let piece = v
            .find_piece(name)
            .unwrap_or_else(|| panic!("{name} missing"));
        let full = full_board_for.contains(&name);
        let got = footprint_diagram(&rules, PlayerId(0), piece, v.board.centre(), full);
        assert_same(
            &got,
            &fixture(&format!("{dir}/{}.txt", name.to_lowercase())),
            name,
        );
    }
}

#[test]
fn square_footprints_match_the_page() {
    footprints("iss-jetan.var", "iss-jetan", &["Princess"]);
}

#[test]
fn hexagonal_footprints_match_the_page() {
    footprints("hexagonal-iss-jetan.var", "hexagonal-iss-jetan", &[]);
}

#[test]
fn square_setup_matches_the_page() {
    let v = variant("iss-jetan.var");
    assert_same(
        &board_diagram(&v, &v.setup),
        &fixture("iss-jetan/setup.txt"),
        "setup",
    );
}

#[test]
fn hexagonal_setup_matches_the_page() {
    let v = variant("hexagonal-iss-jetan.var");
    assert_same(
        &board_diagram(&v, &v.setup),
        &fixture("hexagonal-iss-jetan/setup.txt"),
        "setup",
    );
}

#[test]
fn default_cells_are_the_centres_the_pages_use() {
    let sq = variant("iss-jetan.var");
    assert_eq!(sq.board.name(sq.board.centre()), "e5");
    let hex = variant("hexagonal-iss-jetan.var");
    assert_eq!(hex.board.name(hex.board.centre()), "g7");
}

#[test]
fn hexagonal_setup_is_symmetric_under_a_half_turn() {
    let v = variant("hexagonal-iss-jetan.var");
    assert_eq!(v.setup.len(), 44);
    for p in &v.setup {
        let (x, y) = v.board.point(p.cell);
        let opposite = v.board.at((-x, -y)).expect("the board is symmetric");
        let q = v
            .setup
            .iter()
            .find(|q| q.cell == opposite)
            .expect("a piece opposite");
        assert_eq!(q.piece, p.piece);
        assert_ne!(q.player, p.player);
    }
    let princess = v.find_piece("Princess").unwrap();
    let at = |pl: u8| {
        v.setup
            .iter()
            .find(|p| p.piece == princess && p.player == PlayerId(pl))
            .map(|p| v.board.name(p.cell).to_string())
    };
    assert_eq!(at(0).as_deref(), Some("g1"));
    assert_eq!(at(1).as_deref(), Some("g13"));
}
