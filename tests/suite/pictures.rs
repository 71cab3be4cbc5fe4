//! SVG pictures and capture-only marks: well-formed XML, one element per cell, marks
//! counted against the rule pages' diagrams, and snapshots of whole pictures.

use crate::common;

use common::{root, rules};
use std::sync::Arc;
use variantlab::diagrams::{self, CAPTURE_NOTE, Mark, board_svg, footprint_svg};
use variantlab::{PlayerId, Rules};

fn pointy() -> Arc<Rules> {
    let path = root().join("tests/fixtures/pointy-hexagon.var");
    Arc::new(Rules::from_file(&path, &variantlab::Settings::new()).expect("the fixture loads"))
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(root().join("snapshots").join("pictures"));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

/// The values of `attr` on elements that have it, in document order.
fn values(doc: &roxmltree::Document, attr: &str) -> Vec<String> {
    doc.descendants()
        .filter_map(|n| n.attribute(attr).map(String::from))
        .collect()
}

/// Parses a picture and checks what every picture must hold: each cell of the board
/// exactly once as a `cell` element, and nothing else claiming to be a cell.
fn parse_board<'a>(rules: &Arc<Rules>, svg: &'a str) -> roxmltree::Document<'a> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    let mut cells: Vec<String> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("cell"))
        .map(|n| {
            n.attribute("data-cell")
                .expect("a cell names itself")
                .to_string()
        })
        .collect();
    cells.sort();
    let b = &rules.variant().board;
    let mut want: Vec<String> = b.cells().map(|c| b.name(c).to_string()).collect();
    want.sort();
    assert_eq!(cells, want);
    doc
}

fn piece(rules: &Arc<Rules>, name: &str) -> variantlab::PieceId {
    rules.variant().find_piece(name).expect("a piece")
}

#[test]
fn setups_are_well_formed_deterministic_and_snapshotted() {
    for (name, rules) in [
        ("iss-jetan-setup", rules("iss-jetan.var")),
        (
            "hexagonal-iss-jetan-setup",
            rules("hexagonal-iss-jetan.var"),
        ),
        ("pointy-hexagon-setup", pointy()),
    ] {
        let v = &rules.variant();
        let svg = board_svg(v, &v.setup, None);
        assert_eq!(svg, board_svg(v, &v.setup, None), "same input, same bytes");
        let doc = parse_board(&rules, &svg);
        let pieces = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("piece"))
            .count();
        assert_eq!(pieces, v.setup.len(), "{name}");
        settings().bind(|| insta::assert_snapshot!(name, svg));
    }
}

#[test]
fn square_boards_are_checkered_with_a1_dark() {
    let rules = rules("iss-jetan.var");
    let svg = board_svg(rules.variant(), &[], None);
    let doc = parse_board(&rules, &svg);
    let fill = |cell: &str| {
        doc.descendants()
            .find(|n| n.attribute("data-cell") == Some(cell))
            .and_then(|n| n.attribute("fill"))
            .expect("drawn")
            .to_string()
    };
    assert_eq!(fill("a1"), fill("b2"));
    assert_eq!(fill("a1"), fill("j10"));
    assert_ne!(fill("a1"), fill("a2"));
    assert_ne!(fill("a1"), fill("b1"));
    // The darker of the two colours: less red in `#rrggbb`.
    let red = |f: String| u8::from_str_radix(&f[1..3], 16).expect("hex");
    assert!(red(fill("a1")) < red(fill("a2")));
}

#[test]
fn hexagonal_boards_use_three_colours_no_two_neighbours_alike() {
    for rules in [rules("hexagonal-iss-jetan.var"), pointy()] {
        let svg = board_svg(rules.variant(), &[], None);
        let doc = parse_board(&rules, &svg);
        let b = &rules.variant().board;
        let fill = |c| {
            doc.descendants()
                .find(|n| n.attribute("data-cell") == Some(b.name(c)))
                .and_then(|n| n.attribute("fill"))
                .expect("drawn")
                .to_string()
        };
        let mut colours: Vec<String> = b.cells().map(fill).collect();
        colours.sort();
        colours.dedup();
        assert_eq!(colours.len(), 3);
        let ortho = b.directions_of(variantlab::variant::Kind::Orthogonal);
        for c in b.cells() {
            for d in ortho.iter() {
                if let Some(n) = b.at(b.shift(b.point(c), d)) {
                    assert_ne!(fill(c), fill(n), "{} and {}", b.name(c), b.name(n));
                }
            }
        }
    }
}

#[test]
fn edges_carry_the_schemes_labels() {
    let texts = |svg: &str| -> Vec<String> {
        let doc = roxmltree::Document::parse(svg).expect("parses");
        doc.descendants()
            .filter(|n| {
                n.has_tag_name("text")
                    && n.parent().and_then(|p| p.attribute("class")) == Some("labels")
            })
            .filter_map(|n| n.text().map(String::from))
            .collect()
    };
    let square = rules("iss-jetan.var");
    let got = texts(&board_svg(square.variant(), &[], None));
    let want: Vec<String> = "a b c d e f g h i j 10 9 8 7 6 5 4 3 2 1"
        .split(' ')
        .map(String::from)
        .collect();
    assert_eq!(got, want);
    // Glinski-style files a-n without j, ranks 1-13 counted within each file.
    let hex = rules("hexagonal-iss-jetan.var");
    let mut got = texts(&board_svg(hex.variant(), &[], None));
    got.sort();
    let mut want: Vec<String> = "abcdefghiklmn".chars().map(String::from).collect();
    want.extend((1..=13).map(|n| n.to_string()));
    want.sort();
    assert_eq!(got, want);
    // Pointy: lines 1-7, ranks a-g.
    let mut got = texts(&board_svg(pointy().variant(), &[], None));
    got.sort();
    let mut want: Vec<String> = "abcdefg".chars().map(String::from).collect();
    want.extend((1..=7).map(|n| n.to_string()));
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn footprint_marks_follow_the_rule_pages() {
    // The square Thoat's page diagram: 8 cells a knight's move away and the 4 orthogonal
    // neighbours.
    let r = rules("iss-jetan.var");
    let from = r.variant().board.parse_cell("e5").unwrap();
    let svg = footprint_svg(&r, PlayerId(0), piece(&r, "thoat"), from, false);
    let doc = parse_board(&r, &svg);
    let marks = values(&doc, "data-mark");
    assert_eq!(marks.len(), 12);
    assert!(marks.iter().all(|m| m == "x"));
    // The Princess: 8 normal moves `m` (3 away, straight) and the escapes `e`, each with its own
    // mark and a legend line from the file's tag description.
    let svg = footprint_svg(&r, PlayerId(0), piece(&r, "princess"), from, false);
    let doc = parse_board(&r, &svg);
    let marks = values(&doc, "data-mark");
    assert_eq!(marks.iter().filter(|m| *m == "m").count(), 8);
    assert!(marks.iter().filter(|m| *m == "e").count() > 0);
    assert!(marks.iter().all(|m| m == "m" || m == "e"));
    assert!(svg.contains("m: normal move") && svg.contains("e: escape"));
}

#[test]
fn capture_only_moves_are_drawn_on_request_and_noted_otherwise() {
    // The hexagonal Chief captures the Princess along any of the 12 lines from g7:
    // 6 orthogonal lines of 6 cells and 6 diagonal lines of 3; 12 of those 54 cells are
    // also ordinary 3-step moves.
    let r = rules("hexagonal-iss-jetan.var");
    let chief = piece(&r, "chief");
    let g7 = r.variant().board.parse_cell("g7").unwrap();
    let plain = footprint_svg(&r, PlayerId(0), chief, g7, false);
    let doc = parse_board(&r, &plain);
    assert_eq!(values(&doc, "data-mark").len(), 12);
    assert!(plain.contains(CAPTURE_NOTE));
    let full = footprint_svg(&r, PlayerId(0), chief, g7, true);
    let doc = parse_board(&r, &full);
    let marks = values(&doc, "data-mark");
    assert_eq!(marks.iter().filter(|m| *m == "capture").count(), 42);
    assert!(!full.contains(CAPTURE_NOTE) && full.contains("captures only"));
    // ASCII: the same cells, drawn `**`; the default drawing is unchanged.
    let ascii = diagrams::footprint_drawing(&r, PlayerId(0), chief, g7, false, true);
    assert_eq!(ascii.matches("**").count(), 42);
    assert_eq!(
        diagrams::footprint_drawing(&r, PlayerId(0), chief, g7, false, false),
        diagrams::footprint_diagram(&r, PlayerId(0), chief, g7, false)
    );
    // A move to empty cells only is told apart from one that may also capture.
    let p = pointy();
    let centre = p.variant().board.centre();
    let marks = diagrams::footprint_marks(&p, PlayerId(0), piece(&p, "stepper"), centre, true);
    assert_eq!(marks.iter().filter(|(_, m)| *m == Mark::Either).count(), 6);
    assert_eq!(
        marks.iter().filter(|(_, m)| *m == Mark::MoveOnly).count(),
        6
    );
}

#[test]
fn footprints_on_each_board_are_snapshotted() {
    let square = rules("iss-jetan.var");
    let hex = rules("hexagonal-iss-jetan.var");
    let p = pointy();
    for (name, r, who) in [
        ("iss-jetan-thoat", &square, "thoat"),
        ("hexagonal-iss-jetan-princess", &hex, "princess"),
        ("pointy-hexagon-glider", &p, "glider"),
    ] {
        let from = r.variant().board.centre();
        let svg = footprint_svg(r, PlayerId(0), piece(r, who), from, true);
        parse_board(r, &svg);
        settings().bind(|| insta::assert_snapshot!(name, svg));
    }
}

#[test]
fn the_last_move_is_highlighted() {
    let r = rules("iss-jetan.var");
    let b = &r.variant().board;
    let (e2, e3) = (b.parse_cell("e2").unwrap(), b.parse_cell("e3").unwrap());
    let svg = board_svg(r.variant(), &r.variant().setup, Some((e2, e3)));
    let doc = parse_board(&r, &svg);
    let last: Vec<(String, String)> = doc
        .descendants()
        .filter_map(|n| {
            Some((
                n.attribute("data-last")?.into(),
                n.attribute("data-cell")?.into(),
            ))
        })
        .collect();
    assert_eq!(
        last,
        [("from".into(), "e2".into()), ("to".into(), "e3".into())]
    );
}

/// Fill of the circle of each piece of `player` in a picture.
fn piece_fills(doc: &roxmltree::Document, player: &str) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.attribute("data-player") == Some(player))
        .filter_map(|g| g.children().find(|c| c.has_tag_name("circle")))
        .map(|c| c.attribute("fill").expect("a filled circle").to_string())
        .collect()
}

#[test]
fn players_named_by_a_colour_wear_it() {
    let rules = rules("iss-jetan.var");
    let v = &rules.variant();
    let svg = board_svg(v, &v.setup, None);
    let doc = parse_board(&rules, &svg);
    let rgb = |s: &str| {
        let v = u32::from_str_radix(&s[1..], 16).expect("#rrggbb");
        ((v >> 16) & 255, (v >> 8) & 255, v & 255)
    };
    let orange = piece_fills(&doc, "Orange");
    let black = piece_fills(&doc, "Black");
    assert_eq!((orange.len(), black.len()), (20, 20));
    // Orange: much red, some green, little blue. Black: dark.
    assert!(orange.iter().all(|f| {
        let (r, g, b) = rgb(f);
        r > 200 && (80..200).contains(&g) && b < 80
    }));
    assert!(black.iter().all(|f| {
        let (r, g, b) = rgb(f);
        r.max(g).max(b) < 80
    }));
}

#[test]
fn draughts_boards_are_drawn_whole_with_their_squares_numbered() {
    let rules = rules("international-draughts.var");
    let v = rules.variant();
    let svg = board_svg(v, &v.setup, None);
    let doc = parse_board(&rules, &svg);
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(c))
            .collect::<Vec<_>>()
    };
    // The 50 light squares are drawn (without a name: no piece goes there), all of
    // the light colour, and the 50 dark ones are the cells.
    let holes = class("hole");
    assert_eq!(holes.len(), 50);
    // In reading order, so that every run draws the same bytes.
    let at = |n: &roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    let order: Vec<(f64, f64)> = holes.iter().map(|h| (at(h, "y"), at(h, "x"))).collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    let cell_fill = class("cell")[0].attribute("fill").unwrap();
    assert!(holes.iter().all(|h| h.attribute("data-cell").is_none()
        && h.attribute("fill").is_some_and(|f| f != cell_fill)));
    // Squares are numbered 1 to 50 as draughts players read them: 1 on the top row's
    // second square (b10), 5 at its right end (j10), 46 at the bottom left (a1).
    let numbers = class("number");
    let texts: Vec<String> = numbers
        .iter()
        .map(|n| n.text().unwrap().to_string())
        .collect();
    assert_eq!(texts, (1..=50).map(|i| i.to_string()).collect::<Vec<_>>());
    let centre = |cell: &str| {
        let r = doc
            .descendants()
            .find(|n| {
                n.attribute("class") == Some("cell") && n.attribute("data-cell") == Some(cell)
            })
            .expect("a cell");
        let at = |a: &str| r.attribute(a).unwrap().parse::<f64>().unwrap();
        (at("x"), at("y"), at("width"))
    };
    for (number, cell) in [(1, "b10"), (5, "j10"), (46, "a1"), (50, "i1")] {
        let t = numbers[number - 1];
        let (x, y) = (
            t.attribute("x").unwrap().parse::<f64>().unwrap(),
            t.attribute("y").unwrap().parse::<f64>().unwrap(),
        );
        let (cx, cy, w) = centre(cell);
        assert!(
            x >= cx && x < cx + w / 2.0 && y > cy && y < cy + w / 2.0,
            "{number} on {cell}"
        );
    }
    // No edge letters or ranks: the numbers name the squares.
    assert_eq!(
        class("labels")[0]
            .children()
            .filter(|n| n.is_element())
            .count(),
        0
    );
    // A board with holes of both colours is drawn with its holes left out.
    let jetan = self::rules("hexagonal-iss-jetan.var");
    assert!(!board_svg(jetan.variant(), &[], None).contains("class=\"hole\""));
}

#[test]
fn tafl_boards_mark_the_cells_only_the_king_may_enter_and_those_that_enclose() {
    let marked = |file: &str| {
        let rules = rules(file);
        let svg = board_svg(rules.variant(), &[], None);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let mut cells: Vec<String> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("special"))
            .map(|n| n.attribute("data-cell").unwrap().to_string())
            .collect();
        cells.sort();
        cells
    };
    assert_eq!(marked("copenhagen.var"), ["a1", "a11", "f6", "k1", "k11"]);
    assert_eq!(marked("tablut.var"), ["e5"]);
    assert_eq!(marked("chess.var"), Vec::<String>::new());
}
