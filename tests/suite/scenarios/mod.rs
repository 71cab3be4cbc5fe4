//! Hand-worked rule scenarios for the two Jetan files, as data.
//!
//! Each scenario is a small position, the piece to look at, and the destinations that
//! piece has, worked out on paper from the rule pages and the language's meaning
//! (never by running code). A tagged move is written `cell:mark`, e.g. `"a4:m"`.
//! Any move generator can be checked against them.
//!
//! Notation in the comments.
//! - Square board: a cell is (file, rank); "N" is up the board (towards rank 10).
//! - Hexagonal board (Glinski, 13 files a-n without j): lattice points (x, y) with y
//!   growing downward, g7 = (0, 0); a cell of file x (a = -6 .. n = 6) and rank r has
//!   y = 12 - |x| - 2(r - 1). Orthogonal steps: N (0,-2), NE (1,-1), SE (1,1),
//!   S (0,2), SW (-1,1), NW (-1,-1). Diagonal steps: NNE (1,-3), E (2,0), SSE (1,3),
//!   SSW (-1,3), W (-2,0), NNW (-1,-3). Neighbours of g7: N g8, NE h7, SE h6, S g6,
//!   SW f6, NW f7; diagonal neighbours NNE h8, E i6, SSE h5, SSW f5, W e6, NNW f8.
//! - Black (capitals) moves north and first; Orange moves south.
#![allow(dead_code)]

pub struct Scenario {
    pub name: &'static str,
    /// A file under `variants/`.
    pub variant: &'static str,
    /// Options set away from their defaults.
    pub options: &'static [(&'static str, bool)],
    /// (cell, player, piece)
    pub pieces: &'static [(&'static str, &'static str, &'static str)],
    pub to_move: &'static str,
    /// Once-per-game tags already used: (player, piece, mark).
    pub used: &'static [(&'static str, &'static str, char)],
    /// The piece whose moves are listed.
    pub piece_at: &'static str,
    /// Its destinations, `cell` or `cell:mark` for tagged moves.
    pub expected: &'static [&'static str],
}

const SQUARE: &str = "iss-jetan.var";
const HEX: &str = "hexagonal-iss-jetan.var";

pub const SCENARIOS: &[Scenario] = &[
    // Thoat e4: one orthogonal step (to an empty cell unless it is the end), then one
    // diagonal step. Through e5 (enemy, so not passable): d6 f6 lost; the only way to
    // d6 is N then NW, to f6 N then NE. Through d4 (own): c5 c3 lost, likewise.
    // Through e3: d2 f2, d4 (own, no), f4. Through f4: g5 g3, e5 (capture, reached
    // as the end of f4-NW), e3.
    Scenario {
        name: "square Thoat: a blocked orthogonal cell, other cells reached another way",
        variant: SQUARE,
        options: &[],
        pieces: &[
            ("e4", "Black", "Thoat"),
            ("e5", "Orange", "Panthan"),
            ("d4", "Black", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "e4",
        expected: &["d2", "e3", "e5", "f2", "f4", "g3", "g5"],
    },
    // Hex Thoat g7: orthogonal o then diagonal, end not orthogonally adjacent to g7.
    // Each orthogonal o gives two far cells (o plus the diagonals 30 degrees either
    // side), reached only through o, and the cells two orthogonal steps out, each
    // reached through two orthogonals (2N = NE+NNW = NW+NNE, 2NE via N or SE, 2SE via
    // NE or S, 2S via SE or SW, 2SW via S or NW, 2NW via N or SW): 12 + 6 = 18.
    // NE (h7) and NW (f7) blocked: far cells i8 k6 (via NE) and d6 e8 (via NW) lost,
    // and 2N g9 (needs NE or NW) lost; 2NE i7 still via N, 2SE i5 via S, 2SW e5 via S,
    // 2NW e7 via N. Left: via N h9 f9 i7 e7; via SE k5 i4 g5; via S h4 f4 i5 e5;
    // via SW e4 d5 — 13 cells.
    Scenario {
        name: "hexagonal Thoat: blocked orthogonals, cells two out reached the other way",
        variant: HEX,
        options: &[],
        pieces: &[
            ("g7", "Black", "Thoat"),
            ("h7", "Orange", "Panthan"),
            ("f7", "Black", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "g7",
        expected: &[
            "d5", "e4", "e5", "e7", "f4", "f9", "g5", "h4", "h9", "i4", "i5", "i7", "k5",
        ],
    },
    // Warrior e4: two orthogonal steps, the first cell empty. N (e5 enemy) and W (d4
    // own) are closed: e6, c4 lost, d5 (via e5 or d4) lost. E f4: f5 (enemy, capture),
    // g4, f3. S e3: e2, f3, d3.
    Scenario {
        name: "square Warrior: blocked by a piece on its first cell",
        variant: SQUARE,
        options: &[],
        pieces: &[
            ("e4", "Black", "Warrior"),
            ("e5", "Orange", "Panthan"),
            ("d4", "Black", "Panthan"),
            ("f5", "Orange", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "e4",
        expected: &["d3", "e2", "f3", "f5", "g4"],
    },
    // Padwar e4: two diagonal steps. NW d5 (enemy) and NE f5 (own) closed: c6, g6 lost,
    // e6 (via d5 or f5) lost. SE f3: g4, g2, e2. SW d3: c4, c2, e2.
    Scenario {
        name: "square Padwar: blocked by a piece on its first cell",
        variant: SQUARE,
        options: &[],
        pieces: &[
            ("e4", "Black", "Padwar"),
            ("d5", "Orange", "Panthan"),
            ("f5", "Black", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "e4",
        expected: &["c2", "c4", "e2", "g2", "g4"],
    },
    // Dwar e4: three orthogonal steps, never reversing, so at most one of N/S and one
    // of E/W: 4 straight cells and 8 cells (+-1,+-2), (+-2,+-1). e5 (enemy) and f4 (own)
    // blocked: e7 (NNN) and h4 (EEE) lost; f6 (NNE, NEN via e5; ENN via f4) lost;
    // g5 (EEN, ENE via f4; NEE via e5) lost. Still open: b4 WWW, c5 WWN, c3 WWS,
    // d6 WNN (d4 d5), d2 SSW, e1 SSS, f2 SSE, g3 SEE (e3 f3).
    Scenario {
        name: "square Dwar: blocked paths, others still open",
        variant: SQUARE,
        options: &[],
        pieces: &[
            ("e4", "Black", "Dwar"),
            ("e5", "Orange", "Panthan"),
            ("f4", "Black", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "e4",
        expected: &["b4", "c3", "c5", "d2", "d6", "e1", "f2", "g3"],
    },
    // Hex Warrior g7: two orthogonal steps, end not orthogonally adjacent: 2o (6, via o
    // only) and the diagonal neighbours o1+o2 for o1, o2 60 degrees apart (6, two
    // ways each). N g8 (enemy) and NE h7 (own) blocked: 2N g9, 2NE i7 and NNE h8
    // (N+NE) lost. NNW f8 via NW, E i6 via SE; W e6 (enemy) captured via NW or SW.
    Scenario {
        name: "hexagonal Warrior: blocked first cells",
        variant: HEX,
        options: &[],
        pieces: &[
            ("g7", "Black", "Warrior"),
            ("g8", "Orange", "Panthan"),
            ("h7", "Black", "Panthan"),
            ("e6", "Orange", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "g7",
        expected: &["e5", "e6", "e7", "f5", "f8", "g5", "h5", "i5", "i6"],
    },
    // Hex Dwar g7: three orthogonal steps, each new cell orthogonally adjacent to no
    // earlier cell but the one just left. Working through the turns (o_i numbered
    // clockwise from N): second step o_a or o_a+-1; the 24 ends are 3o_a (path a,a,a),
    // 2o_a + o_a+-1 (paths (a,a,a+1), (a,a+1,a), (a+1,a,a)) and 2o_a (paths
    // (a-1,a,a+1), (a+1,a,a-1)). Intermediate cells are the first step's neighbour and
    // a cell two out or diagonal, so only the neighbours g8 (N) and h7 (NE) block:
    // lost are 3N g10, 3NE k7, 2N+NE h9 and 2NE+N i8 (every path starts N or NE).
    // 2N g9 via NW,N,NE; 2NE i7 via SE,NE,N; 2N+NW f9 via NW,N,N; 2NE+SE k6 via SE.
    Scenario {
        name: "hexagonal Dwar: blocked paths with the trail rule",
        variant: HEX,
        options: &[],
        pieces: &[
            ("g7", "Black", "Dwar"),
            ("g8", "Orange", "Panthan"),
            ("h7", "Black", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "g7",
        expected: &[
            "d4", "d5", "d6", "d7", "e4", "e5", "e7", "e8", "f4", "f9", "g4", "g5", "g9", "h4",
            "i4", "i5", "i7", "k4", "k5", "k6",
        ],
    },
    // Flier e4: three diagonal leaps, never reversing: one of NE/SW and one of NW/SE,
    // so (+-3,+-3) and (+-1,+-3), (+-3,+-1): 12 cells, whatever stands between. Own
    // pieces all round (d3 d5 f3 f5 e5) do not matter; h7 is own (no), b1 enemy (yes).
    Scenario {
        name: "square Flier: leaps over pieces",
        variant: SQUARE,
        options: &[],
        pieces: &[
            ("e4", "Black", "Flier"),
            ("d5", "Black", "Panthan"),
            ("f5", "Black", "Panthan"),
            ("d3", "Black", "Panthan"),
            ("f3", "Black", "Panthan"),
            ("e5", "Black", "Panthan"),
            ("h7", "Black", "Panthan"),
            ("b1", "Orange", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "e4",
        expected: &[
            "b1", "b3", "b5", "b7", "d1", "d7", "f1", "f7", "h1", "h3", "h5",
        ],
    },
    // Hex Flier g7: three diagonal leaps, each new point diagonally adjacent to no
    // earlier point but the one just left. The diagonal steps obey the same sums as
    // the orthogonal ones (NNE + SSE = E, ...), so as for the Dwar the 24 ends are
    // 3d (k10 n4 k1 d1 a4 d10), 2d (i9 l5 i3 e3 c5 e9) and 2d_a + d_a+-1 (l8 h11 m6 m3
    // l2 h2 f2 c2 b3 b6 c8 f11). Pieces between (h8, i6, i9) are leapt; i9 and n4
    // are own (no), k10 enemy (yes): 22 cells.
    Scenario {
        name: "hexagonal Flier: leaps with the trail rule",
        variant: HEX,
        options: &[],
        pieces: &[
            ("g7", "Black", "Flier"),
            ("h8", "Black", "Panthan"),
            ("i6", "Orange", "Panthan"),
            ("i9", "Black", "Panthan"),
            ("n4", "Black", "Panthan"),
            ("k10", "Orange", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "g7",
        expected: &[
            "a4", "b3", "b6", "c2", "c5", "c8", "d1", "d10", "e3", "e9", "f11", "f2", "h11", "h2",
            "i3", "k1", "k10", "l2", "l5", "l8", "m3", "m6",
        ],
    },
    // Chief e4: three cells straight, the two between empty. N: e5 own, e7 lost.
    // NE: f5 enemy between, h7 lost. W: c4 own second cell, b4 lost. E: f4 g4 empty,
    // h4 enemy captured. NW b7, SW b1, S e1, SE h1 open.
    Scenario {
        name: "square Chief: blocked by a piece in its line",
        variant: SQUARE,
        options: &[],
        pieces: &[
            ("e4", "Black", "Chief"),
            ("e5", "Black", "Panthan"),
            ("f5", "Orange", "Panthan"),
            ("c4", "Black", "Panthan"),
            ("h4", "Orange", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "e4",
        expected: &["b1", "b7", "e1", "h1", "h4"],
    },
    // Princess a1: lines N, E, NE. Three cells out (m): a4, d1, d4; four or more (e):
    // a5-a10, e1-j1, e5-j10. d4 holds an enemy: she never captures. After her move
    // the Orange Warrior d3 could take her on d1 (d3-d2-d1), the Orange Panthan d4
    // (Orange's backward orthogonal is N only) on e5: both refused. The Warrior's
    // other cells (d5 is blocked by d4; b3 f3 c4 e4 c2 e2) and the Panthan's (c5 c4
    // e4 c3 e3) are none of hers. a2 (own) is leapt over.
    Scenario {
        name: "square Princess: no capture, no attacked cell, escape unused",
        variant: SQUARE,
        options: &[],
        pieces: &[
            ("a1", "Black", "Princess"),
            ("a2", "Black", "Panthan"),
            ("d4", "Orange", "Panthan"),
            ("d3", "Orange", "Warrior"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "a1",
        expected: &[
            "a4:m", "a5:e", "a6:e", "a7:e", "a8:e", "a9:e", "a10:e", "e1:e", "f1:e", "g1:e",
            "h1:e", "i1:e", "j1:e", "f6:e", "g7:e", "h8:e", "i9:e", "j10:e",
        ],
    },
    // The same with the escape used: only the normal move a4 is left.
    Scenario {
        name: "square Princess: escape already used",
        variant: SQUARE,
        options: &[],
        pieces: &[
            ("a1", "Black", "Princess"),
            ("a2", "Black", "Panthan"),
            ("d4", "Orange", "Panthan"),
            ("d3", "Orange", "Warrior"),
        ],
        to_move: "Black",
        used: &[("Black", "Princess", 'e')],
        piece_at: "a1",
        expected: &["a4:m"],
    },
    // Hex Princess g1, escape used: normal moves three out along her open lines:
    // N g4, NE k1, NW d1, NNE k4, NNW d4 (E, W and the southern lines leave the
    // board). The Orange Chief g13 attacks along the whole open g file (its slide to
    // an enemy Princess), so g4 is refused; its three-cell steps (g10 k10 d10 k7 d7)
    // and its other lines miss her cells.
    Scenario {
        name: "hexagonal Princess: a cell on the enemy Chief's open line is attacked",
        variant: HEX,
        options: &[],
        pieces: &[("g1", "Black", "Princess"), ("g13", "Orange", "Chief")],
        to_move: "Black",
        used: &[("Black", "Princess", 'e')],
        piece_at: "g1",
        expected: &["d1:m", "d4:m", "k1:m", "k4:m"],
    },
    // The same with a Black Panthan on g8 closing the line: g4 is safe.
    Scenario {
        name: "hexagonal Princess: the enemy Chief's line closed by a piece",
        variant: HEX,
        options: &[],
        pieces: &[
            ("g1", "Black", "Princess"),
            ("g13", "Orange", "Chief"),
            ("g8", "Black", "Panthan"),
        ],
        to_move: "Black",
        used: &[("Black", "Princess", 'e')],
        piece_at: "g1",
        expected: &["d1:m", "d4:m", "g4:m", "k1:m", "k4:m"],
    },
    // Panthan e4 (Black, forward N): one step any way but S. e5 holds the Orange
    // Chief, which only a Chief may capture: refused.
    Scenario {
        name: "square Panthan next to the enemy Chief cannot take it",
        variant: SQUARE,
        options: &[],
        pieces: &[
            ("e4", "Black", "Panthan"),
            ("b2", "Black", "Chief"),
            ("e5", "Orange", "Chief"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "e4",
        expected: &["d3", "d4", "d5", "f3", "f4", "f5"],
    },
    // Chief b2: N b5 (b3 b4 empty), E e2 (c2 d2), NE e5 (c3 d4 empty) takes the Chief;
    // the other lines leave the board within three cells.
    Scenario {
        name: "square Chief takes the enemy Chief",
        variant: SQUARE,
        options: &[],
        pieces: &[
            ("e4", "Black", "Panthan"),
            ("b2", "Black", "Chief"),
            ("e5", "Orange", "Chief"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "b2",
        expected: &["b5", "e2", "e5"],
    },
    // Hex Panthan g7 (Black): one step in the 12 directions but straight back (S g6).
    // The Orange Chief on g8 may only be taken by a Chief.
    Scenario {
        name: "hexagonal Panthan next to the enemy Chief cannot take it",
        variant: HEX,
        options: &[],
        pieces: &[("g7", "Black", "Panthan"), ("g8", "Orange", "Chief")],
        to_move: "Black",
        used: &[],
        piece_at: "g7",
        expected: &["e6", "f5", "f6", "f7", "f8", "h5", "h6", "h7", "h8", "i6"],
    },
    // With last-resort on, `unless last-resort: captured only by Chief` lapses: any
    // piece may take the Chief.
    Scenario {
        name: "hexagonal Panthan takes the Chief with last-resort",
        variant: HEX,
        options: &[("last-resort", true)],
        pieces: &[("g7", "Black", "Panthan"), ("g8", "Orange", "Chief")],
        to_move: "Black",
        used: &[],
        piece_at: "g7",
        expected: &[
            "e6", "f5", "f6", "f7", "f8", "g8", "h5", "h6", "h7", "h8", "i6",
        ],
    },
    // Hex Chief g1: three cells straight: N g4, NE k1, NW d1, NNE k4, NNW d4 (the
    // other seven lines leave the board at once or within three cells). Its slide
    // reaches the Orange Princess g13 along the open g file, across the board.
    Scenario {
        name: "hexagonal Chief takes an open enemy Princess across the board",
        variant: HEX,
        options: &[],
        pieces: &[("g1", "Black", "Chief"), ("g13", "Orange", "Princess")],
        to_move: "Black",
        used: &[],
        piece_at: "g1",
        expected: &["d1", "d4", "g13", "g4", "k1", "k4"],
    },
    // An Orange Panthan on g10 stands between: no capture of g13 (the slide only ends
    // on a Princess, so not on g10 either).
    Scenario {
        name: "hexagonal Chief does not take the Princess through a piece",
        variant: HEX,
        options: &[],
        pieces: &[
            ("g1", "Black", "Chief"),
            ("g13", "Orange", "Princess"),
            ("g10", "Orange", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "g1",
        expected: &["d1", "d4", "g4", "k1", "k4"],
    },
    // Square Chief e2: N e5, NE h5, E h2, NW b5, W b2 (the southern lines leave the
    // board). The Orange Princess e9 is out of reach by default.
    Scenario {
        name: "square Chief without chief-takes-princess",
        variant: SQUARE,
        options: &[],
        pieces: &[("e2", "Black", "Chief"), ("e9", "Orange", "Princess")],
        to_move: "Black",
        used: &[],
        piece_at: "e2",
        expected: &["b2", "b5", "e5", "h2", "h5"],
    },
    // With chief-takes-princess, e3-e8 empty: e9 is taken.
    Scenario {
        name: "square Chief with chief-takes-princess",
        variant: SQUARE,
        options: &[("chief-takes-princess", true)],
        pieces: &[("e2", "Black", "Chief"), ("e9", "Orange", "Princess")],
        to_move: "Black",
        used: &[],
        piece_at: "e2",
        expected: &["b2", "b5", "e5", "e9", "h2", "h5"],
    },
    // With the option but an Orange Panthan on e7 in between: no.
    Scenario {
        name: "square Chief with chief-takes-princess, line closed",
        variant: SQUARE,
        options: &[("chief-takes-princess", true)],
        pieces: &[
            ("e2", "Black", "Chief"),
            ("e9", "Orange", "Princess"),
            ("e7", "Orange", "Panthan"),
        ],
        to_move: "Black",
        used: &[],
        piece_at: "e2",
        expected: &["b2", "b5", "e5", "h2", "h5"],
    },
];
