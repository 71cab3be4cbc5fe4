//! SVG pictures of boards, setups and footprints.
//!
//! Square boards are checkered, hexagonal boards drawn in three colours; holes are left
//! out, but where the holes are the squares of one colour and the cells those of the
//! other (draughts), the holes are drawn as plain squares so the board looks whole.
//! Cells that only some pieces may enter (`outside ZONE`, `landing outside ZONE`) or
//! that enclose when empty are marked with a cross, as tafl boards mark the throne and
//! the corners. In games that number their cells (`position strings as in PDN`), each
//! cell shows its number in a corner instead of the edge labels. Every cell element carries `data-cell="NAME"`, every piece `data-cell` and
//! `data-piece`, every footprint mark `data-cell` and `data-mark` (see [`Mark::key`]),
//! so pages and tests can find them. The same input always gives the same bytes.

use super::marks::{CAPTURE_NOTE, Mark, footprint_marks, has_capture_only, wall_note};
use super::text::{labelled, part_label};
use crate::compile::Rules;
use crate::geometry::{Board, Cell, Orientation, Point, Shape, Tiling};
use crate::model::{PieceId, Placed, PlayerId, Variant};
use std::fmt::Write;

/// Side of a square cell, in pixels.
const SQUARE: f64 = 48.0;
/// Circumradius of a hexagonal cell, in pixels.
const HEX: f64 = 28.0;
const MARGIN: f64 = 8.0;
const LEGEND_LINE: f64 = 22.0;
const SQUARE_FILLS: [&str; 2] = ["#f0d9b5", "#b58863"];
const HEX_FILLS: [&str; 3] = ["#f0d9b5", "#d9b68c", "#b58863"];
/// Fill and text colour of each player's pieces, by turn order, for players whose
/// names are not colours.
const PLAYER_COLOURS: [(&str, &str); 4] = [
    ("#fafafa", "#202020"),
    ("#303030", "#fafafa"),
    ("#c62828", "#ffffff"),
    ("#1565c0", "#ffffff"),
];
/// Players are often named by their colour; such a player's pieces wear it.
const NAMED_COLOURS: [(&str, &str, &str); 13] = [
    ("white", "#fafafa", "#202020"),
    ("black", "#303030", "#fafafa"),
    ("red", "#c62828", "#ffffff"),
    ("orange", "#ef8a17", "#202020"),
    ("yellow", "#f6d43c", "#202020"),
    ("green", "#2e7d32", "#ffffff"),
    ("blue", "#1565c0", "#ffffff"),
    ("purple", "#6a1b9a", "#ffffff"),
    ("brown", "#795548", "#ffffff"),
    ("grey", "#9e9e9e", "#202020"),
    ("gray", "#9e9e9e", "#202020"),
    ("pink", "#f48fb1", "#202020"),
    ("cyan", "#4dd0e1", "#202020"),
];

/// Fill and text colour of a player's pieces: the colour its name says, else one by
/// turn order.
pub fn player_colours(variant: &Variant, player: PlayerId) -> (&'static str, &'static str) {
    let name = &variant.player(player).name;
    NAMED_COLOURS
        .iter()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, fill, ink)| (fill, ink))
        .unwrap_or(PLAYER_COLOURS[player.0 as usize % PLAYER_COLOURS.len()])
}
const MARK_COLOUR: &str = "#2e7d32";
const CAPTURE_COLOUR: &str = "#c62828";
const TAG_COLOUR: &str = "#1565c0";

/// What a picture shows on its board.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    pub pieces: Vec<Placed>,
    pub marks: Vec<(Cell, Mark)>,
    /// The last move's start and end, highlighted.
    pub last: Option<(Cell, Cell)>,
    /// Lines under the board: what the marks mean, notes.
    pub legend: Vec<(Option<Mark>, String)>,
}

/// The board with pieces on it, the last move highlighted.
pub fn board_svg(variant: &Variant, pieces: &[Placed], last: Option<(Cell, Cell)>) -> String {
    let scene = Scene {
        pieces: pieces.to_vec(),
        last,
        ..Scene::default()
    };
    render(variant, &scene)
}

/// A piece's footprint from a cell on the whole board, with a legend of its marks.
/// `captures` draws capture-only cells; without it the legend says when some exist.
pub fn footprint_svg(
    rules: &Rules,
    player: PlayerId,
    piece: PieceId,
    from: Cell,
    captures: bool,
) -> String {
    render(
        &rules.variant,
        &footprint_scene(rules, player, piece, from, captures),
    )
}

/// The scene of [`footprint_svg`].
pub fn footprint_scene(
    rules: &Rules,
    player: PlayerId,
    piece: PieceId,
    from: Cell,
    captures: bool,
) -> Scene {
    let v = &rules.variant;
    let marks = footprint_marks(rules, player, piece, from, captures);
    let mut kinds: Vec<Mark> = marks.iter().map(|(_, m)| *m).collect();
    kinds.sort();
    kinds.dedup();
    let mut legend: Vec<(Option<Mark>, String)> = kinds
        .into_iter()
        .map(|m| {
            let text = match m {
                Mark::Either => "moves or captures".to_string(),
                Mark::MoveOnly => "moves, never captures".to_string(),
                Mark::CaptureOnly => "captures only".to_string(),
                Mark::Hurdle => "moves over a piece".to_string(),
                Mark::Copy => "leaves a copy there".to_string(),
                Mark::Tag(t) => v
                    .tags
                    .iter()
                    .find(|d| d.mark == t)
                    .and_then(|d| d.about.clone())
                    .map_or_else(|| format!("tagged {t}"), |a| format!("{t}: {a}")),
            };
            (Some(m), text)
        })
        .collect();
    if !captures && has_capture_only(rules, player, piece, from) {
        legend.push((None, CAPTURE_NOTE.to_string()));
    }
    if let Some(note) = wall_note(rules, piece) {
        legend.push((None, note));
    }
    Scene {
        pieces: vec![Placed {
            cell: from,
            player,
            piece,
        }],
        marks,
        last: None,
        legend,
    }
}

/// Draws a scene on the variant's board.
pub fn render(variant: &Variant, scene: &Scene) -> String {
    let board = &variant.board;
    let geo = Geometry::of(board);
    let labels = match variant.pdn {
        true => Vec::new(),
        false => edge_labels(board, &geo),
    };
    // Extent of everything drawn, then the legend below.
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for c in board.cells() {
        let (x, y) = geo.centre(board.point(c));
        x0 = x0.min(x - geo.half_w);
        x1 = x1.max(x + geo.half_w);
        y0 = y0.min(y - geo.half_h);
        y1 = y1.max(y + geo.half_h);
    }
    for (_, (x, y)) in &labels {
        x0 = x0.min(x - 10.0);
        x1 = x1.max(x + 10.0);
        y0 = y0.min(y - 9.0);
        y1 = y1.max(y + 9.0);
    }
    let (x0, y0) = (x0 - MARGIN, y0 - MARGIN);
    let legend_top = y1 + MARGIN;
    let legend_w = scene
        .legend
        .iter()
        .map(|(_, t)| 34.0 + 7.0 * t.chars().count() as f64)
        .fold(0.0, f64::max);
    let w = (x1 + MARGIN - x0).max(legend_w + 2.0 * MARGIN);
    let h = legend_top + LEGEND_LINE * scene.legend.len() as f64 + MARGIN - y0;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{} {} {} {}" width="{}" height="{}" font-family="sans-serif">"##,
        n(x0),
        n(y0),
        n(w),
        n(h),
        n(w),
        n(h)
    );
    s += "\n<g class=\"cells\">\n";
    for c in board.cells() {
        let p = board.point(c);
        let fill = geo.fill(p);
        let _ = writeln!(
            s,
            r##"<{} class="cell" data-cell="{}" fill="{fill}" {}/>"##,
            geo.element(),
            esc(board.name(c)),
            geo.outline(p)
        );
    }
    if checkered_holes(board) {
        let mut holes: Vec<Point> = board.hole_points().collect();
        holes.sort_by_key(|&(x, y)| (y, x));
        for p in holes {
            let _ = writeln!(
                s,
                r##"<{} class="hole" fill="{}" {}/>"##,
                geo.element(),
                geo.fill(p),
                geo.outline(p)
            );
        }
    }
    for c in special_cells(variant) {
        let (x, y) = geo.centre(board.point(c));
        let r = geo.unit * 0.3;
        let _ = writeln!(
            s,
            r##"<path class="special" data-cell="{}" d="{}" stroke="#5d4037" stroke-opacity="0.55" stroke-width="{}" pointer-events="none"/>"##,
            esc(board.name(c)),
            cross(x, y, r),
            n(geo.unit * 0.05)
        );
    }
    if variant.pdn {
        for (i, c) in board.reading_order().into_iter().enumerate() {
            let (x, y) = geo.centre(board.point(c));
            let _ = writeln!(
                s,
                r##"<text class="number" x="{}" y="{}" fill="#f0d9b5" font-size="{}" pointer-events="none">{}</text>"##,
                n(x - geo.half_w + geo.unit * 0.03),
                n(y - geo.half_h + geo.unit * 0.16),
                n(geo.unit * 0.16),
                i + 1
            );
        }
    }
    s += "</g>\n<g class=\"labels\" fill=\"#555555\" font-size=\"12\" text-anchor=\"middle\" dominant-baseline=\"central\">\n";
    for (text, (x, y)) in &labels {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}">{}</text>"##,
            n(*x),
            n(*y),
            esc(text)
        );
    }
    s += "</g>\n";
    if let Some((from, to)) = scene.last {
        s += "<g class=\"last\" fill=\"#f6e05e\" fill-opacity=\"0.6\" pointer-events=\"none\">\n";
        for (c, what) in [(from, "from"), (to, "to")] {
            let _ = writeln!(
                s,
                r##"<{} data-last="{what}" data-cell="{}" {}/>"##,
                geo.element(),
                esc(board.name(c)),
                geo.outline(board.point(c))
            );
        }
        s += "</g>\n";
    }
    s += "<g class=\"marks\">\n";
    for (c, m) in &scene.marks {
        let (x, y) = geo.centre(board.point(*c));
        let _ = writeln!(
            s,
            r##"<g class="mark" data-cell="{}" data-mark="{}">{}</g>"##,
            esc(board.name(*c)),
            esc(&m.key()),
            mark_shape(*m, x, y, geo.unit)
        );
    }
    s += "</g>\n<g class=\"pieces\" font-weight=\"bold\" text-anchor=\"middle\" dominant-baseline=\"central\">\n";
    let r = geo.unit * 0.4;
    for p in &scene.pieces {
        let (x, y) = geo.centre(board.point(p.cell));
        let (fill, ink) = player_colours(variant, p.player);
        let code = variant.code_for(p.piece, p.player);
        let size = if code.chars().count() > 2 { 0.26 } else { 0.34 } * geo.unit;
        let _ = writeln!(
            s,
            r##"<g class="piece" data-cell="{}" data-piece="{}" data-player="{}"><circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#000000" stroke-width="1.5"/><text x="{}" y="{}" fill="{ink}" font-size="{}">{}</text></g>"##,
            esc(variant.board.name(p.cell)),
            esc(&variant.piece(p.piece).name),
            esc(&variant.player(p.player).name),
            n(x),
            n(y),
            n(r),
            n(x),
            n(y),
            n(size),
            esc(&code)
        );
    }
    s += "</g>\n";
    if !scene.legend.is_empty() {
        s += "<g class=\"legend\" font-size=\"13\" dominant-baseline=\"central\">\n";
        for (i, (m, text)) in scene.legend.iter().enumerate() {
            let y = legend_top + LEGEND_LINE * (i as f64 + 0.5);
            let x = x0 + MARGIN;
            let sample = m.map_or(String::new(), |m| mark_shape(m, x + 10.0, y, 36.0));
            let _ = writeln!(
                s,
                r##"<g class="legend-item">{sample}<text x="{}" y="{}" fill="#202020">{}</text></g>"##,
                n(x + 26.0),
                n(y),
                esc(text)
            );
        }
        s += "</g>\n";
    }
    s += "</svg>\n";
    s
}

/// The shapes of a mark centred on (x, y) in a cell of size `unit`.
fn mark_shape(m: Mark, x: f64, y: f64, unit: f64) -> String {
    let r = unit * 0.22;
    match m {
        Mark::Either => format!(
            r##"<circle cx="{}" cy="{}" r="{}" fill="{MARK_COLOUR}"/>"##,
            n(x),
            n(y),
            n(r)
        ),
        Mark::MoveOnly => format!(
            r##"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{MARK_COLOUR}" stroke-width="3"/>"##,
            n(x),
            n(y),
            n(r)
        ),
        Mark::CaptureOnly => format!(
            r##"<path d="{}" stroke="{CAPTURE_COLOUR}" stroke-width="4" stroke-linecap="round"/>"##,
            cross(x, y, r)
        ),
        Mark::Hurdle => format!(
            r##"<path d="M{} {}L{} {}L{} {}" fill="none" stroke="{MARK_COLOUR}" stroke-width="4" stroke-linejoin="round"/>"##,
            n(x - r),
            n(y + r * 0.6),
            n(x),
            n(y - r),
            n(x + r),
            n(y + r * 0.6)
        ),
        Mark::Copy => format!(
            r##"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="{MARK_COLOUR}" stroke-width="4" stroke-linecap="round"/>"##,
            n(x - r),
            n(y),
            n(x + r),
            n(y),
            n(x),
            n(y - r),
            n(x),
            n(y + r)
        ),
        Mark::Tag(t) => format!(
            r##"<circle cx="{}" cy="{}" r="{}" fill="{TAG_COLOUR}"/><text x="{}" y="{}" fill="#ffffff" font-size="{}" font-weight="bold" text-anchor="middle" dominant-baseline="central">{}</text>"##,
            n(x),
            n(y),
            n(r * 1.25),
            n(x),
            n(y),
            n(r * 1.6),
            esc(&t.to_string())
        ),
    }
}

/// Where cells go on the page and how they are drawn.
struct Geometry {
    shape: Shape,
    /// Pixels per lattice unit along x and y.
    sx: f64,
    sy: f64,
    half_w: f64,
    half_h: f64,
    /// Distance between neighbouring centres.
    unit: f64,
    /// Parity of the bottom-left square, drawn dark.
    dark: i32,
}

impl Geometry {
    fn of(board: &Board) -> Geometry {
        let r3 = 3f64.sqrt();
        let ((x0, _), (_, y1)) = board.bounds();
        let (sx, sy, half_w, half_h) = match board.shape.tiling() {
            Tiling::Square => (SQUARE, SQUARE, SQUARE / 2.0, SQUARE / 2.0),
            Tiling::Hex(Orientation::Flat) => (1.5 * HEX, r3 / 2.0 * HEX, HEX, r3 / 2.0 * HEX),
            Tiling::Hex(Orientation::Pointy) => (r3 / 2.0 * HEX, 1.5 * HEX, r3 / 2.0 * HEX, HEX),
        };
        let unit = if board.shape.tiling() == Tiling::Square {
            SQUARE
        } else {
            r3 * HEX
        };
        Geometry {
            shape: board.shape,
            sx,
            sy,
            half_w,
            half_h,
            unit,
            dark: (x0 + y1).rem_euclid(2),
        }
    }

    fn centre(&self, p: Point) -> (f64, f64) {
        (p.0 as f64 * self.sx, p.1 as f64 * self.sy)
    }

    fn element(&self) -> &'static str {
        match self.shape.tiling() {
            Tiling::Square => "rect",
            Tiling::Hex(_) => "polygon",
        }
    }

    /// The attributes giving a cell's outline.
    fn outline(&self, p: Point) -> String {
        let (x, y) = self.centre(p);
        match self.shape.tiling() {
            Tiling::Square => format!(
                r##"x="{}" y="{}" width="{}" height="{}""##,
                n(x - SQUARE / 2.0),
                n(y - SQUARE / 2.0),
                n(SQUARE),
                n(SQUARE)
            ),
            Tiling::Hex(orientation) => {
                let start = if orientation == Orientation::Flat {
                    0.0
                } else {
                    30.0
                };
                let pts: Vec<String> = (0..6)
                    .map(|k| {
                        let a = (start + 60.0 * k as f64).to_radians();
                        format!("{},{}", n(x + HEX * a.cos()), n(y + HEX * a.sin()))
                    })
                    .collect();
                format!(r##"points="{}""##, pts.join(" "))
            }
        }
    }

    fn fill(&self, p: Point) -> &'static str {
        let colour = Board::colour_of(self.shape, p);
        match self.shape.tiling() {
            Tiling::Square => SQUARE_FILLS[(i32::from(colour) == self.dark) as usize],
            Tiling::Hex(_) => HEX_FILLS[colour as usize],
        }
    }
}

/// Each label of the board's scheme once, beside the edge where its line starts: a
/// part that labels lines goes past the line's back end; a part that counts within
/// lines goes to the side of its leftmost cell. Labels move outward until clear of cells
/// and of each other.
fn edge_labels(board: &Board, geo: &Geometry) -> Vec<(String, (f64, f64))> {
    let parts = &board.scheme.parts;
    let vector = |name: &str| {
        board.parse_direction(name).map(|d| {
            let d = board.direction(d);
            geo.centre((d.dx, d.dy))
        })
    };
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let along = if part.within {
            vector(&parts[1 - i].along)
        } else {
            vector(&part.along)
        };
        let Some((ax, ay)) = along else { continue };
        let len = (ax * ax + ay * ay).sqrt();
        // Outward: back along the line, or (within lines) a quarter turn to the left.
        let (ox, oy) = if part.within {
            (ay / len, -ax / len)
        } else {
            (-ax / len, -ay / len)
        };
        let mut groups: Vec<(String, Vec<Cell>)> = Vec::new();
        for c in board.cells().filter(|&c| labelled(board, c)) {
            let Some(label) = part_label(board, board.name(c), i) else {
                return Vec::new();
            };
            match groups.iter_mut().find(|(l, _)| *l == label) {
                Some((_, cells)) => cells.push(c),
                None => groups.push((label, vec![c])),
            }
        }
        for (label, cells) in groups {
            let outermost = |c: &Cell| {
                let (x, y) = geo.centre(board.point(*c));
                x * ox + y * oy
            };
            let anchor = cells
                .iter()
                .copied()
                .max_by(|a, b| outermost(a).total_cmp(&outermost(b)))
                .expect("a label names cells");
            let (cx, cy) = geo.centre(board.point(anchor));
            let mut k = 0.8;
            let spot = loop {
                let spot = (cx + ox * geo.unit * k, cy + oy * geo.unit * k);
                let far = |(x, y): (f64, f64), d: f64| {
                    ((x - spot.0).powi(2) + (y - spot.1).powi(2)).sqrt() >= d * geo.unit
                };
                let clear = board.cells().all(|c| far(geo.centre(board.point(c)), 0.75))
                    && out.iter().all(|(_, at)| far(*at, 0.5));
                if clear || k > 4.0 {
                    break spot;
                }
                k += 0.5;
            };
            out.push((label, spot));
        }
    }
    out
}

/// Whether the board's holes are the squares of one colour and its cells those of the
/// other, as on a draughts board.
fn checkered_holes(board: &Board) -> bool {
    let colour = |p: Point| Board::colour_of(board.shape, p);
    let Some(first) = board.hole_points().next() else {
        return false;
    };
    let hole = colour(first);
    board.shape.tiling() == Tiling::Square
        && board.hole_points().all(|p| colour(p) == hole)
        && board.cells().all(|c| colour(board.point(c)) != hole)
}

/// The cells some pieces may not enter or stop on (`outside ZONE`), and the cells that
/// enclose when empty: the throne and corners of tafl.
fn special_cells(variant: &Variant) -> Vec<Cell> {
    let mut zones: Vec<usize> = (variant.pieces.iter())
        .flat_map(|p| p.moves.iter().filter_map(|pat| pat.outside.map(|(z, _)| z)))
        .collect();
    zones.extend(variant.enclosure.as_ref().and_then(|e| e.hostile));
    let mut cells: Vec<Cell> = (zones.iter())
        .flat_map(|&z| variant.zones[z].cells.iter().flatten().copied())
        .collect();
    cells.sort();
    cells.dedup();
    cells
}

/// The path of a cross of half-width `r` centred on (x, y).
fn cross(x: f64, y: f64, r: f64) -> String {
    format!(
        "M{} {}L{} {}M{} {}L{} {}",
        n(x - r),
        n(y - r),
        n(x + r),
        n(y + r),
        n(x - r),
        n(y + r),
        n(x + r),
        n(y - r)
    )
}

/// A number with one decimal, never `-0.0`.
fn n(v: f64) -> String {
    let s = format!("{:.1}", v);
    if s == "-0.0" { "0.0".into() } else { s }
}

pub(super) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o += "&amp;",
            '<' => o += "&lt;",
            '>' => o += "&gt;",
            '"' => o += "&quot;",
            '\'' => o += "&apos;",
            c => o.push(c),
        }
    }
    o
}
