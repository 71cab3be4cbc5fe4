//! The runtime against the reference generator (tests/reference, which walks the
//! checked patterns directly) and against the hand-worked scenarios.

use crate::common;
use crate::reference;
use crate::scenarios;

use common::{Lcg, Size};
use std::sync::Arc;

use std::collections::BTreeSet;
use variantlab::variant::{Cell, MoveKind};
use variantlab::{
    Game, Move, Position, Rules, Setup, Special, Variant, check, compile_tables, ends_by_capture,
};

fn load(file: &str) -> Variant {
    let path = format!("{}/variants/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    check(file, &text)
        .variant
        .unwrap_or_else(|| panic!("{file} does not check"))
}

fn compiled(v: &Variant, set: &[(&str, bool)]) -> Arc<Rules> {
    let mut values = v.default_options();
    for (name, on) in set {
        values[v
            .find_option(name)
            .unwrap_or_else(|| panic!("no option {name}"))
            .0 as usize] = *on;
    }
    Arc::new(compile_tables(v, &values).expect("compiles"))
}

/// A move as both generators list it: from, to, tag, the kind it makes or drops, the
/// wall it leaves, and the kind it brings in through a gate with the gate's cell.
type Key = (
    u16,
    u16,
    Option<u8>,
    Option<u8>,
    Option<u16>,
    Option<(u8, u16)>,
);

/// A reference move as a [`Key`].
fn key((mv, wall, gate): (reference::Move, Option<Cell>, reference::Gate)) -> Key {
    let (f, t, tag, k) = mv;
    (
        f.0,
        t.0,
        tag.map(|x| x.0),
        k.map(|x| x.0),
        wall.map(|c| c.0),
        gate.map(|(k, c)| (k.0, c.0)),
    )
}

/// The position as the reference generator reads it.
fn simple(rules: &Arc<Rules>, pos: &Position) -> reference::Simple {
    let s = pos.to_setup(rules);
    let passing = pos.passed(rules).map(|(cells, by, victim)| {
        let kinds = (0..rules.variant().pieces.len())
            .filter(|k| by & (1 << k) != 0)
            .map(|k| variantlab::PieceId(k as u8))
            .collect();
        (cells, victim, kinds)
    });
    reference::Simple {
        cells: s.cells,
        to_move: s.to_move,
        used: s.used,
        castling: s.castling,
        passing,
        hands: {
            let mut h = s.hands;
            h.sort();
            h
        },
        passes: pos.passes(),
        checks: s.checks,
        promoted: {
            let mut p = s.promoted;
            p.sort();
            p
        },
        walls: s.walls,
        runs: Vec::new(),
        gates: {
            let mut g = s.gates;
            g.sort();
            g
        },
        struck: s.struck,
    }
}

fn runtime_moves(rules: &Arc<Rules>, pos: &Position) -> BTreeSet<Key> {
    let mut list = Vec::new();
    pos.legal_moves(rules, &mut list);
    let set: BTreeSet<Key> = list
        .iter()
        .map(|m| {
            let (from, to) = written(rules.variant(), m);
            (
                from.0,
                to.0,
                m.tag.map(|t| t.0),
                // A drop names its kind where a promotion would.
                m.promotion
                    .or(matches!(m.special, Special::Drop | Special::Copy).then_some(m.piece))
                    .map(|k| k.0),
                m.wall.map(|w| w.0),
                m.gate.map(|(k, c)| (k.0, c.0)),
            )
        })
        // A copy is listed as a drop of its kind where it lands.
        .map(|(f, t, tag, k, w, g)| {
            let copy = list
                .iter()
                .any(|m| m.special == Special::Copy && m.to.0 == t && m.from.0 == f);
            if copy {
                (t, t, tag, k, w, g)
            } else {
                (f, t, tag, k, w, g)
            }
        })
        .collect();
    assert_eq!(set.len(), list.len(), "the runtime listed a move twice");
    set
}

/// The cells the reference names a move by: a castling from anywhere as its first
/// piece taking its second (rule 57), where a plain move may share its ends.
fn written(v: &Variant, m: &Move) -> (Cell, Cell) {
    match m.special {
        Special::Castle(i) if v.castlings[i as usize].anywhere.is_some() => {
            let c = &v.castlings[i as usize];
            assert_eq!((c.parts[0].1, c.parts[0].2), (m.from, m.to), "castling {i}");
            (m.from, c.parts[1].1)
        }
        _ => (m.from, m.to),
    }
}

fn reference_moves(rules: &Arc<Rules>, pos: &Position) -> BTreeSet<Key> {
    reference::gated_moves(rules.variant(), rules.options(), &simple(rules, pos))
        .into_iter()
        .map(key)
        .collect()
}

#[test]
fn scenarios_hold_for_the_runtime() {
    for s in scenarios::SCENARIOS {
        let v = load(s.variant);
        let rules = compiled(&v, s.options);
        let mut setup = Setup::start(&rules);
        setup.cells.iter_mut().for_each(|c| *c = None);
        for (cell, player, piece) in s.pieces {
            let c = v.board.parse_cell(cell).unwrap();
            setup.cells[c.index()] =
                Some((v.find_player(player).unwrap(), v.find_piece(piece).unwrap()));
        }
        setup.to_move = v.find_player(s.to_move).unwrap();
        for (player, piece, mark) in s.used {
            let tag = v.tags.iter().position(|t| t.mark == *mark).unwrap();
            setup.used.push((
                v.find_player(player).unwrap(),
                v.find_piece(piece).unwrap(),
                variantlab::TagId(tag as u8),
            ));
        }
        let pos =
            Position::from_setup(&rules, &setup).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        let from = v.board.parse_cell(s.piece_at).unwrap();
        let mut list = Vec::new();
        pos.legal_moves(&rules, &mut list);
        let got: BTreeSet<String> = list
            .iter()
            .filter(|m| m.from == from)
            .map(|m| {
                let to = v.board.name(m.to).to_lowercase();
                m.tag
                    .map_or(to.clone(), |t| format!("{to}:{}", v.tag(t).mark))
            })
            .collect();
        let want: BTreeSet<String> = s.expected.iter().map(|x| x.to_string()).collect();
        assert_eq!(got, want, "{}", s.name);
    }
}

/// Random games from the start; at every position both generators must agree.
fn random_play(file: &str, set: &[(&str, bool)], games: usize, plies: usize, seed: u64) -> usize {
    random_play_counting(file, set, games, plies, seed).0
}

/// [`random_play`], also counting the drops and promotions among the moves compared.
fn random_play_counting(
    file: &str,
    set: &[(&str, bool)],
    games: usize,
    plies: usize,
    seed: u64,
) -> (usize, usize, usize) {
    let v = load(file);
    let rules = compiled(&v, set);
    let mut rng = Lcg(seed);
    let mut next = move |n: usize| rng.below(n);
    let mut positions = 0;
    let (mut drops, mut promotions) = (0, 0);
    for _ in 0..games {
        let mut game = Game::new(rules.clone(), Setup::start(&rules)).expect("start");
        for _ in 0..plies {
            let pos = game.position().clone();
            let fast = runtime_moves(&rules, &pos);
            let slow = reference_moves(&rules, &pos);
            positions += 1;
            assert_eq!(
                fast,
                slow,
                "{file} {set:?}: generators differ at {}",
                game.position_string()
            );
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            drops += moves.iter().filter(|m| m.special == Special::Drop).count();
            promotions += moves.iter().filter(|m| m.promotion.is_some()).count();
            // Prefer captures now and then, to reach sparse, tactical positions.
            let captures: Vec<_> = moves
                .iter()
                .filter(|m| m.captured.is_some() && !ends_by_capture(&rules, m))
                .collect();
            let m = if !captures.is_empty() && next(3) == 0 {
                *captures[next(captures.len())]
            } else {
                moves[next(moves.len())]
            };
            game.play(m).unwrap();
        }
    }
    (positions, drops, promotions)
}

/// Random games from drawn setups, one per seed, castling preferred now and then. The
/// reference carries its own castling rights from the start (rule 57), so a right
/// kept or lost wrongly shows as a castling one generator lists and the other does
/// not. Returns the positions and the castling moves compared.
fn random_setups_play(file: &str, seeds: std::ops::Range<u64>, plies: usize) -> (usize, usize) {
    let v = load(file);
    let rules = compiled(&v, &[]);
    let (mut positions, mut castlings) = (0, 0);
    let back_rank: Vec<Cell> = v
        .random
        .iter()
        .flat_map(|r| &r.pools)
        .flat_map(|p| p.cells.iter().copied())
        .collect();
    let castling_kinds: Vec<_> = v
        .castlings
        .iter()
        .flat_map(|c| c.parts.iter().map(|p| p.0))
        .collect();
    for seed in seeds {
        let setup = Setup::seeded(&rules, seed).unwrap_or_else(|e| panic!("{file} {seed}: {e}"));
        let mut game = Game::new(rules.clone(), setup).expect("a drawn setup");
        let mut rights: Vec<usize> = (0..v.castlings.len()).collect();
        let mut rng = Lcg(seed);
        for _ in 0..plies {
            let pos = game.position().clone();
            let mut slow = simple(&rules, &pos);
            // The rights of castlings whose pieces stand on their starts, as each side
            // holds them.
            let placed = |held: &[usize]| -> Vec<usize> {
                let mut out: Vec<usize> = held
                    .iter()
                    .copied()
                    .filter(|&i| {
                        let c = &v.castlings[i];
                        c.parts
                            .iter()
                            .all(|(k, f, _)| slow.cells[f.index()] == Some((c.player, *k)))
                    })
                    .collect();
                out.sort();
                out
            };
            assert_eq!(
                placed(&slow.castling),
                placed(&rights),
                "{file} seed {seed}: castling rights differ at {}",
                game.position_string()
            );
            slow.castling = rights.clone();
            let want: BTreeSet<Key> = reference::gated_moves(&v, rules.options(), &slow)
                .into_iter()
                .map(key)
                .collect();
            assert_eq!(
                runtime_moves(&rules, &pos),
                want,
                "{file} seed {seed}: generators differ at {}",
                game.position_string()
            );
            positions += 1;
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let castles: Vec<_> = moves
                .iter()
                .filter(|m| matches!(m.special, Special::Castle(_)))
                .collect();
            castlings += castles.len();
            // Moves that clear the castling pieces' line for them.
            let clearing: Vec<_> = moves
                .iter()
                .filter(|m| back_rank.contains(&m.from) && !castling_kinds.contains(&m.piece))
                .collect();
            let captures: Vec<_> = moves.iter().filter(|m| m.captured.is_some()).collect();
            let m = if !castles.is_empty() && rng.below(3) == 0 {
                *castles[rng.below(castles.len())]
            } else if !clearing.is_empty() && rng.below(2) == 0 {
                *clearing[rng.below(clearing.len())]
            } else if !captures.is_empty() && rng.below(3) == 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let (from, to) = written(&v, &m);
            let (next, _) =
                reference::play(&v, rules.options(), &slow, (from, to, m.tag, m.promotion));
            game.play(m).unwrap();
            assert_eq!(
                next.cells,
                simple(&rules, game.position()).cells,
                "{file} seed {seed}: boards differ after {}",
                variantlab::write_move(&v, &m)
            );
            rights = next.castling;
            if game.ending().is_some() {
                break;
            }
        }
    }
    (positions, castlings)
}

#[test]
fn chess960_castling_agrees_with_the_reference_in_brief() {
    chess960_castling_agrees_with_the_reference(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn chess960_castling_agrees_with_the_reference_in_full() {
    chess960_castling_agrees_with_the_reference(Size::Full);
}

fn chess960_castling_agrees_with_the_reference(size: Size) {
    for (file, first, count) in [("fischerandom.var", 0, 40), ("caparandom.var", 100, 20)] {
        let seeds = first..first + size.of_u64(count);
        let (n, castlings) = random_setups_play(file, seeds, 80);
        assert!(n > size.of(1000), "{file}: only {n} positions compared");
        assert!(
            castlings > size.of(60),
            "{file}: only {castlings} castlings compared"
        );
    }
}

#[test]
fn square_jetan_agrees_with_the_reference() {
    let mut n = 0;
    for set in [vec![], vec![("chief-takes-princess", true)]] {
        n += random_play("iss-jetan.var", &set, 40, 150, 11);
    }
    assert!(n > 4000, "only {n} positions compared");
}

#[test]
fn hexagonal_jetan_agrees_with_the_reference() {
    let mut n = 0;
    for set in [vec![], vec![("last-resort", true)]] {
        n += random_play("hexagonal-iss-jetan.var", &set, 30, 150, 23);
    }
    assert!(n > 2000, "only {n} positions compared");
}

#[test]
fn side_12_hexagonal_jetan_agrees_with_the_reference() {
    let mut n = 0;
    for set in [vec![], vec![("last-resort", true)]] {
        n += random_play("hexagonal-iss-jetan-12.var", &set, 6, 120, 31);
    }
    assert!(n > 1000, "only {n} positions compared");
}

#[test]
fn the_chess_family_agrees_with_the_reference() {
    let mut n = 0;
    for (file, games) in [
        ("chess.var", 30),
        ("glinski-chess.var", 12),
        ("mccooey-chess.var", 12),
        ("hexcetran-chess.var", 6),
    ] {
        n += random_play(file, &[], games, 120, 31);
    }
    assert!(n > 4000, "only {n} positions compared");
}

#[test]
fn compulsory_capture_and_ends_about_a_player_agree_with_the_reference() {
    let mut n = 0;
    for file in [
        "antichess.var",
        "giveaway.var",
        "losers.var",
        "extinction.var",
        "kinglet.var",
        "kingofthehill.var",
        "codrus.var",
        "3check.var",
        "horde.var",
        "shatranj.var",
        "threekings.var",
        "coregal.var",
        "suicide.var",
        "chaturanga.var",
        "jesonmor.var",
        "spartan.var",
        "breakthrough.var",
        "clobber.var",
        "fox-and-hounds.var",
        "shatar.var",
        "misere.var",
    ] {
        n += random_play(file, &[], 5, 200, 41);
    }
    assert!(n > 2500, "only {n} positions compared");
}

#[test]
fn placing_and_flipping_agree_with_the_reference() {
    let mut n = 0;
    for file in ["flipello.var", "flipersi.var", "ataxx.var"] {
        n += random_play(file, &[], 4, 70, 43);
    }
    assert!(n > 500, "only {n} positions compared");
}

#[test]
fn walls_agree_with_the_reference() {
    let mut n = 0;
    for (file, games) in [
        ("snailtrail.var", 6),
        ("joust.var", 6),
        ("isolation.var", 4),
        ("amazons.var", 2),
        ("duck.var", 2),
        ("petrified.var", 4),
    ] {
        n += random_play(file, &[], games, 100, 53);
    }
    assert!(n > 300, "only {n} positions compared");
}

#[test]
fn perft_agrees_with_the_reference_away_from_the_start_in_brief() {
    perft_agrees_with_the_reference_away_from_the_start(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn perft_agrees_with_the_reference_away_from_the_start_in_full() {
    perft_agrees_with_the_reference_away_from_the_start(Size::Full);
}

fn perft_agrees_with_the_reference_away_from_the_start(size: Size) {
    // Depth 2 from positions reached by random play, both generators.
    for (file, seed, positions) in [
        ("iss-jetan.var", 5u64, 30),
        ("hexagonal-iss-jetan.var", 9, 30),
        ("hexagonal-iss-jetan-12.var", 13, 30),
        ("chess.var", 3, 6),
        ("glinski-chess.var", 4, 3),
        ("hexcetran-chess.var", 6, 2),
        ("antichess.var", 8, 40),
        ("extinction.var", 9, 40),
        ("kingofthehill.var", 10, 40),
        ("losers.var", 11, 40),
        ("3check.var", 12, 40),
        ("atomic.var", 13, 40),
        ("nocheckatomic.var", 14, 40),
        ("atomar.var", 15, 40),
        ("../tests/fixtures/hexagonal-atomic.var", 16, 12),
        ("racingkings.var", 17, 40),
        ("spartan.var", 18, 40),
        ("shoshogi.var", 19, 40),
        ("flipello.var", 20, 50),
        ("ataxx.var", 21, 30),
        ("joust.var", 22, 20),
        ("isolation7x7.var", 23, 12),
        ("petrified.var", 24, 40),
        ("shatar.var", 25, 40),
    ] {
        let v = load(file);
        let rules = compiled(&v, &[]);
        let mut game = Game::new(rules.clone(), Setup::start(&rules)).unwrap();
        let mut rng = Lcg(seed);
        for _ in 0..size.of(positions) {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.below(moves.len())]).unwrap();
            if game.ending().is_some() {
                break;
            }
            let mut pos = game.position().clone();
            let want = reference::perft(&v, rules.options(), &simple(&rules, &pos), 2);
            assert_eq!(
                variantlab::perft(&rules, &mut pos, 2),
                want,
                "{file} at {}",
                game.position_string()
            );
        }
    }
}

#[test]
fn published_chess_positions_agree_with_the_reference() {
    // Castling, promotions and captures in passing all occur within two plies here.
    let v = load("chess.var");
    let rules = compiled(&v, &[]);
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ] {
        let setup = variantlab::parse_position(&rules, fen).unwrap();
        let mut pos = Position::from_setup(&rules, &setup).unwrap();
        assert_eq!(
            runtime_moves(&rules, &pos),
            reference_moves(&rules, &pos),
            "{fen}"
        );
        let want = reference::perft(&v, rules.options(), &simple(&rules, &pos), 2);
        assert_eq!(variantlab::perft(&rules, &mut pos, 2), want, "{fen}");
    }
}

/// Depth 4 from the starts. The reference walks the hexagonal board's 55 million
/// positions too slowly for the long checks, so it counts the square one alone there.
#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn deep_perft_agrees_with_the_reference() {
    for (file, depth, want, by_reference) in [
        ("iss-jetan.var", 4, 3_566_713u64, true),
        ("hexagonal-iss-jetan.var", 4, 55_018_637, false),
    ] {
        let v = load(file);
        let rules = compiled(&v, &[]);
        let mut pos = Position::start(&rules).unwrap();
        assert_eq!(
            variantlab::perft(&rules, &mut pos, depth),
            want,
            "{file} runtime"
        );
        if by_reference {
            let start = reference::start(&v);
            assert_eq!(
                reference::perft(&v, rules.options(), &start, depth),
                want,
                "{file} reference"
            );
        }
    }
}

#[test]
fn the_shogi_family_agrees_with_the_reference() {
    // Random play fills the hands quickly (captures are preferred now and then), so
    // most positions here have drops, and promotions come with every deep move.
    // Tori shogi: Quails that tell left from right, at most two Swallows a file.
    for (file, games, least) in [
        ("shogi.var", 6, 10_000),
        ("hex-shogi-91.var", 6, 10_000),
        ("torishogi.var", 6, 2_000),
        // Pieces that turn over, and drops either side up.
        ("kyotoshogi.var", 6, 2_000),
        ("micro.var", 20, 1_000),
    ] {
        let (n, drops, promotions) = random_play_counting(file, &[], games, 120, 47);
        assert!(n > 500, "{file}: only {n} positions compared");
        assert!(drops > least, "{file}: only {drops} drops compared");
        assert!(
            promotions > 500,
            "{file}: only {promotions} promotions compared"
        );
    }
}

#[test]
fn shogi_family_perft_with_full_hands_agrees_with_the_reference_in_brief() {
    shogi_family_perft_with_full_hands_agrees_with_the_reference(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn shogi_family_perft_with_full_hands_agrees_with_the_reference_in_full() {
    shogi_family_perft_with_full_hands_agrees_with_the_reference(Size::Full);
}

fn shogi_family_perft_with_full_hands_agrees_with_the_reference(size: Size) {
    // Depth 2 (drops made and taken back, hands filled and emptied) from positions
    // deep in random games that prefer captures.
    for (file, seed) in [
        ("shogi.var", 61u64),
        ("hex-shogi-91.var", 67),
        ("torishogi.var", 71),
        ("kyotoshogi.var", 73),
        ("micro.var", 79),
        // Pieces in hand at the start.
        ("gorogoroplus.var", 83),
    ] {
        let v = load(file);
        let rules = compiled(&v, &[]);
        let mut game = Game::new(rules.clone(), Setup::start(&rules)).unwrap();
        let mut rng = Lcg(seed);
        let mut compared = 0;
        // In brief, two positions a game instead of three.
        let plies = if size == Size::Full { 60 } else { 40 };
        for ply in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves.iter().filter(|m| m.captured.is_some()).collect();
            let m = if captures.is_empty() {
                moves[rng.below(moves.len())]
            } else {
                *captures[rng.below(captures.len())]
            };
            game.play(m).unwrap();
            if game.ending().is_some() {
                break;
            }
            if ply % 20 != 19 {
                continue;
            }
            let mut pos = game.position().clone();
            let want = reference::perft(&v, rules.options(), &simple(&rules, &pos), 2);
            assert_eq!(
                variantlab::perft(&rules, &mut pos, 2),
                want,
                "{file} at {}",
                game.position_string()
            );
            compared += 1;
        }
        assert!(compared >= 2, "{file}: only {compared} positions compared");
    }
}

#[test]
fn the_xiangqi_family_agrees_with_the_reference() {
    let mut n = 0;
    for (file, games) in [
        ("xiangqi.var", 20),
        ("minixiangqi.var", 10),
        ("manchu.var", 10),
        ("janggicasual.var", 10),
        ("janggi.var", 5),
        ("shako.var", 4),
        ("grasshopper.var", 10),
    ] {
        n += random_play(file, &[], games, 150, 37);
    }
    assert!(n > 2000, "only {n} positions compared");
}

#[test]
fn standoffs_agree_with_the_reference() {
    // Generals facing, about to face, and facing with a check.
    let texts = [
        "3k5/9/9/9/9/9/9/9/3AK4/9 w - - 0 1",
        "4k4/9/9/9/9/9/9/9/r3K4/9 w - - 0 1",
        "4k4/9/9/9/9/9/9/4R4/4K4/9 b - - 0 1",
        "3k5/4a4/9/9/9/9/9/9/3AK4/2C6 w - - 0 1",
    ];
    for file in ["janggi.var"] {
        let v = load(file);
        let rules = compiled(&v, &[]);
        for text in texts {
            let setup = variantlab::parse_position(&rules, text).expect("reads");
            let mut pos = Position::from_setup(&rules, &setup).expect("a position");
            for depth in 1..=3 {
                let want = reference::perft(&v, rules.options(), &simple(&rules, &pos), depth);
                let got = variantlab::perft(&rules, &mut pos, depth);
                assert_eq!(got, want, "{file} {text} depth {depth}");
            }
        }
    }
}

#[test]
fn repeated_leaps_agree_with_the_reference() {
    let n = random_play("nightrider.var", &[], 12, 120, 37);
    assert!(n > 1000, "only {n} positions compared");
}

#[test]
fn promotions_for_one_player_agree_with_the_reference() {
    let n = random_play("chigorin.var", &[], 12, 200, 41);
    assert!(n > 1000, "only {n} positions compared");
}

#[test]
fn the_makruk_family_agrees_with_the_reference() {
    let mut n = 0;
    for file in [
        "makruk.var",
        "makpong.var",
        "asean.var",
        "ai-wok.var",
        "cambodian.var",
        "karouk.var",
    ] {
        n += random_play(file, &[], 6, 200, 71);
    }
    assert!(n > 2000, "only {n} positions compared");
}

#[test]
fn promotions_to_lost_kinds_agree_with_the_reference() {
    // Pawns about to promote with every kind, none, or one Knight lost.
    perft_agrees_from(
        "grand.var",
        2,
        &[
            "4k5/P9/10/10/10/10/10/10/10/4K5 w - - 0 1",
            "4k5/P9/10/10/10/10/10/10/1NBQ1CABNR/R3K5 w - - 0 1",
            "4k5/P9/10/10/10/10/10/10/1NBQ1CAB2/R3K4R w - - 0 1",
            "r3k4r/1nbq1cabn1/10/10/10/10/10/p9/10/4K5 b - - 0 1",
        ],
    );
}

/// Perft to `depth` from each position string, the runtime's against the reference's.
fn perft_agrees_from(file: &str, depth: u32, texts: &[&str]) {
    let v = load(file);
    let rules = compiled(&v, &[]);
    for text in texts {
        let setup = variantlab::parse_position(&rules, text).unwrap();
        let mut pos = variantlab::Position::from_setup(&rules, &setup).unwrap();
        let want = reference::perft(&v, rules.options(), &simple(&rules, &pos), depth);
        assert_eq!(
            variantlab::perft(&rules, &mut pos, depth),
            want,
            "{file}: {text}"
        );
    }
}

#[test]
fn first_moves_lost_to_an_aiming_piece_agree_with_the_reference() {
    // Rooks about to land on the King's rank or file, blocked or not; and the start.
    perft_agrees_from(
        "cambodian.var",
        3,
        &[
            "4k3/8/8/8/r7/3P4/8/3K4 b D - 0 1",
            "r3k3/8/8/8/8/8/1P6/3K4 b D - 0 1",
            "4k3/8/8/8/8/8/4P3/3K3R w e - 0 1",
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
        ],
    );
}

/// Games of `file` from `starts`, the checking moves preferred so that mates come
/// often; both sides judge every position the game reaches. Returns how many games
/// each end rule decided.
fn mates_end_as_the_reference_says(
    file: &str,
    starts: &[&str],
    games: usize,
    seed: u64,
) -> std::collections::BTreeMap<usize, usize> {
    use variantlab::variant::Event;
    let v = load(file);
    let rules = compiled(&v, &[]);
    // The reference ignores repetition and quiet moves.
    let unjudged = |rule: usize| {
        matches!(
            v.end_rules[rule].event(),
            Some(Event::Repetition(..) | Event::PliesWithoutCapture(..))
        )
    };
    let mut rng = Lcg(seed);
    let mut ends = std::collections::BTreeMap::new();
    for game_no in 0..games {
        let text = starts[game_no % starts.len()];
        let setup = variantlab::parse_position(&rules, text).unwrap();
        let mut game = Game::new(rules.clone(), setup).unwrap();
        let mut slow = reference::start_runs(&v, rules.options(), &simple(&rules, game.position()));
        for _ in 0..150 {
            // In a fixed order, so that the games do not depend on the generator's.
            let mut moves = game.legal_moves();
            moves.sort_by_key(|m| (m.from, m.to, m.tag, m.promotion));
            if moves.is_empty() {
                break;
            }
            let checking: Vec<_> = moves
                .iter()
                .filter(|m| {
                    let mut after = game.position().clone();
                    after.make_unchecked(&rules, m);
                    after.in_check(&rules)
                })
                .collect();
            let m = if !checking.is_empty() && rng.below(4) != 0 {
                *checking[rng.below(checking.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let (next, want) = reference::play(
                &v,
                rules.options(),
                &slow,
                (m.from, m.to, m.tag, m.promotion),
            );
            game.play(m).unwrap();
            slow = next;
            let got = game.ending().map(|e| (e.outcome, e.rule));
            if got.is_some_and(|g| unjudged(g.1)) {
                break;
            }
            assert_eq!(
                got.map(|g| g.0),
                want,
                "{file} {text}: ends differ at {}",
                game.position_string()
            );
            if let Some((_, rule)) = got {
                *ends.entry(rule).or_insert(0) += 1;
                break;
            }
        }
    }
    ends
}

#[test]
fn mates_judged_by_their_checks_end_as_the_reference_says() {
    // Shatar's games from the start and from hand-made positions (the check standing
    // in one starts a run).
    let starts = [
        "rnbjkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBJKBNR w - - 0 1",
        "6k1/p1BN3p/4P3/8/8/8/8/KR6 w - - 0 1",
        "6k1/p1BN3p/4P3/8/8/8/8/K5R1 b - - 0 1",
        "r3k3/p4ppp/8/2N5/8/8/P4PPP/4K2R w - - 0 1",
        "4k3/4p3/8/8/2B5/8/3P4/R3K1N1 w - - 0 1",
        "6bk/7p/8/8/8/8/8/2B3K1 w - - 0 1",
        "7k/5K1p/6P1/8/8/8/8/8 w - - 0 1",
    ];
    let ends = mates_end_as_the_reference_says("shatar.var", &starts, 70, 73);
    // Rules 1 to 3 are the three mate rules: each decided some game.
    for rule in 1..=3 {
        assert!(
            ends.contains_key(&rule),
            "rule {rule} never ended a game: {ends:?}"
        );
    }
}

#[test]
fn a_misere_mate_ends_as_the_reference_says() {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "4k3/8/8/8/8/8/3q4/R3K3 w Q - 0 1",
    ];
    let ends = mates_end_as_the_reference_says("misere.var", &starts, 40, 79);
    // Rule 0 is the checkmate, which the mated player wins.
    assert!(ends.contains_key(&0), "no game ended by a mate: {ends:?}");
}

#[test]
fn counts_of_moves_run_as_the_reference_says() {
    use variantlab::variant::{Event, Outcome};
    use variantlab::{parse_position, write_move};
    // Hand-worked from docs/language.md. The string carries a count against a Rook.
    let v = load("makruk.var");
    let rules = compiled(&v, &[]);
    let read =
        |text: &str| Game::new(rules.clone(), parse_position(&rules, text).unwrap()).unwrap();
    let g = read("8/8/8/4k3/8/8/2R5/3K4 b - 32 6 40");
    assert_eq!(g.position().count(), Some((32, 6)));
    // No count in the string: the bare King's starts after White's move, at twice
    // the three pieces on the board.
    let mut g = read("4k3/8/8/8/8/8/R7/3K4 w - - 0 1");
    assert_eq!(g.position().count(), None);
    g.play_text("a2-c2").unwrap();
    assert_eq!(g.position().count(), Some((32, 6)));
    // The bare King takes the last Pawn: twice the three pieces, less one.
    let mut g = read("8/8/8/8/4k3/3P4/8/R2K4 b - - 0 1");
    g.play_text("e4-d3").unwrap();
    assert_eq!(g.position().count(), Some((32, 5)));

    // Endgames with little material: bare Kings against each count's pieces, both
    // sides with pieces (the count from zero), Pawns that fall or promote, and a bare
    // King that takes the last Pawn.
    let makruk = [
        "4k3/8/8/8/8/8/R7/3K4 w - - 0 1",
        "4k3/8/8/8/8/8/8/2RRK3 w - - 0 1",
        "4k3/8/8/8/8/8/3SS3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/2N2N2/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/4S3/3KM3 w - - 0 1",
        "3mk3/8/8/8/8/8/8/2SRK3 w - - 0 1",
        "r3k3/8/8/8/8/8/3N4/3K3R w - - 0 1",
        "2n1k3/8/8/8/3p4/8/8/3K3R w - - 0 1",
        "4k3/3s4/8/2P5/8/8/8/3KM3 w - - 0 1",
        "8/8/8/8/4k3/3P4/8/R2K4 b - - 0 1",
    ];
    let asean = [
        "4k3/8/8/8/8/8/R7/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/3BB3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/2N2N2/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        "3qk3/8/8/8/8/8/8/2BRK3 w - - 0 1",
        "r3k3/8/8/8/8/8/3N4/3K3R w - - 0 1",
        "2n1k3/8/8/8/3p4/8/8/3K3R w - - 0 1",
        "4k3/3b4/8/8/2P5/8/8/3QK3 w - - 0 1",
        "8/8/8/8/4k3/3P4/8/R2K4 b - - 0 1",
    ];
    let mut rng = Lcg(97);
    let mut running = 0;
    let (mut from_zero, mut from_pieces, mut by_the_mover, mut ran_out) = (0, 0, 0, 0);
    // And a count carried by the string, at each file's limit against a Rook.
    for (file, starts, carried) in [
        (
            "makruk.var",
            &makruk[..],
            "8/8/8/4k3/8/8/2R5/3K4 b - 32 6 40",
        ),
        (
            "cambodian.var",
            &makruk[..],
            "8/8/8/4k3/8/8/2R5/3K4 b - 30 6 40",
        ),
        ("asean.var", &asean[..], "8/8/8/4k3/8/8/2R5/4K3 b - 32 0 40"),
    ] {
        let v = load(file);
        // Cambodian draws by the count only with its option.
        let draws: &[(&str, bool)] = match v.find_option("count-draws") {
            Some(_) => &[("count-draws", true)],
            None => &[],
        };
        let rules = compiled(&v, draws);
        let count_rule = v
            .end_rules
            .iter()
            .position(|r| r.event() == Some(Event::CountRanOut))
            .unwrap_or_else(|| panic!("{file} has no `count ran out`"));
        let starts: Vec<&str> = starts.iter().copied().chain([carried]).collect();
        for game_no in 0..6 * starts.len() {
            let text = starts[game_no % starts.len()];
            let setup = parse_position(&rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let mut game = Game::new(rules.clone(), setup).unwrap();
            let mut want = game.position().count();
            for _ in 0..300 {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let captures: Vec<_> = moves.iter().filter(|m| m.captured.is_some()).collect();
                let m = if !captures.is_empty() && rng.below(3) == 0 {
                    *captures[rng.below(captures.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                let before = game.position().to_setup(&rules);
                let was = game.position_string();
                game.play(m).unwrap();
                let after = game.position().to_setup(&rules);
                let next =
                    reference::next_count(&v, &before.cells, &after.cells, before.to_move, want);
                if next != want.map(|(limit, plies)| (limit, plies + 1)) {
                    match next {
                        Some((_, 0)) => from_zero += 1,
                        Some((_, plies)) if plies % 2 == 1 => by_the_mover += 1,
                        Some(_) => from_pieces += 1,
                        None => {}
                    }
                }
                want = next;
                assert_eq!(
                    game.position().count(),
                    want,
                    "{file} {text}: counts differ after {} from {was}",
                    write_move(&v, &m)
                );
                running += usize::from(want.is_some());
                let ending = game.ending();
                if want.is_some_and(|(limit, plies)| plies > limit) {
                    let e = ending.unwrap_or_else(|| {
                        panic!("{file}: the count ran out at {}", game.position_string())
                    });
                    // An earlier rule may end the game on the same move.
                    assert!(e.rule <= count_rule, "{file}: {}", e.reason);
                    if e.rule == count_rule {
                        assert_eq!(e.outcome, Outcome::Draw);
                        ran_out += 1;
                    }
                } else if let Some(e) = &ending {
                    assert_ne!(
                        e.rule,
                        count_rule,
                        "{file}: the count has not run out at {}",
                        game.position_string()
                    );
                }
                if ending.is_some() {
                    break;
                }
            }
        }
    }
    let seen = format!(
        "{running} plies with a count; started {from_zero} from zero, {from_pieces} from \
         the pieces, {by_the_mover} by the mover; {ran_out} ran out"
    );
    assert!(running > 3000, "{seen}");
    assert!(
        from_zero > 10 && from_pieces > 10 && by_the_mover > 0,
        "{seen}"
    );
    assert!(ran_out > 10, "{seen}");
}

/// What random placement games showed of the rules on drops (reference rules 58-60).
#[derive(Default, Debug)]
struct DropTally {
    positions: usize,
    /// Plies where compulsory drops left out a move legal without them.
    compulsory: usize,
    /// Drops refused by the colour rule.
    refused: usize,
    /// Castling rights gained by a drop.
    gained: usize,
    /// Castling moves compared.
    castlings: usize,
}

/// The legal moves of the reference, as the keys [`runtime_moves`] gives.
fn reference_keys(v: &Variant, options: &[bool], pos: &reference::Simple) -> BTreeSet<Key> {
    reference::gated_moves(v, options, pos)
        .into_iter()
        .map(key)
        .collect()
}

/// A random game of placement chess from `setup`: at every ply both generators agree
/// on the moves, and the reference's own castling rights, carried from the start,
/// agree with the runtime's. Drops of castling pieces on their starts, castlings and
/// captures are preferred now and then.
fn placement_game(
    v: &Variant,
    rules: &Arc<Rules>,
    setup: Setup,
    mut rights: Vec<usize>,
    seed: u64,
    plies: usize,
    tally: &mut DropTally,
) {
    let options = rules.options();
    let mut unforced = v.clone();
    unforced.obligations.retain(|o| o.kind != MoveKind::Drop);
    let mut colourless = v.clone();
    colourless.drops.spread = 0;
    let mut game = Game::new(rules.clone(), setup).expect("a placement position");
    let mut rng = Lcg(seed);
    for _ in 0..plies {
        let pos = game.position().clone();
        let mut slow = simple(rules, &pos);
        let mut held = slow.castling.clone();
        held.sort();
        assert_eq!(
            held,
            rights,
            "seed {seed}: castling rights differ at {}",
            game.position_string()
        );
        slow.castling = rights.clone();
        let want = reference_keys(v, options, &slow);
        assert_eq!(
            runtime_moves(rules, &pos),
            want,
            "seed {seed}: generators differ at {}",
            game.position_string()
        );
        tally.positions += 1;
        if slow.hands.iter().any(|(p, _)| *p == slow.to_move) {
            let loose = reference_keys(&unforced, options, &slow);
            assert!(want.is_subset(&loose));
            tally.compulsory += usize::from(loose.len() > want.len());
            let spread = reference_keys(&colourless, options, &slow);
            tally.refused += spread
                .iter()
                .filter(|(f, t, _, k, _, _)| {
                    f == t && k.is_some() && !want.contains(&(*f, *t, None, *k, None, None))
                })
                .count();
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let castles: Vec<_> = moves
            .iter()
            .filter(|m| matches!(m.special, Special::Castle(_)))
            .collect();
        tally.castlings += castles.len();
        let me = slow.to_move;
        let on_starts: Vec<_> = moves
            .iter()
            .filter(|m| {
                m.special == Special::Drop
                    && v.castlings.iter().any(|c| {
                        c.player == me && c.parts.iter().any(|p| (p.0, p.1) == (m.piece, m.to))
                    })
            })
            .collect();
        // Moves that clear a castling's line.
        let clearing: Vec<_> = moves
            .iter()
            .filter(|m| {
                !matches!(m.special, Special::Drop | Special::Castle(_))
                    && v.castlings
                        .iter()
                        .any(|c| c.player == me && c.empty.contains(&m.from))
            })
            .collect();
        let captures: Vec<_> = moves.iter().filter(|m| m.captured.is_some()).collect();
        let m = if !castles.is_empty() && rng.below(2) == 0 {
            *castles[rng.below(castles.len())]
        } else if !on_starts.is_empty() && rng.below(2) == 0 {
            *on_starts[rng.below(on_starts.len())]
        } else if !clearing.is_empty() && rng.below(2) == 0 {
            *clearing[rng.below(clearing.len())]
        } else if !captures.is_empty() && rng.below(3) == 0 {
            *captures[rng.below(captures.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        let (from, to) = written(v, &m);
        let kind = reference_kind(&m);
        let (next, _) = reference::play(v, options, &slow, (from, to, m.tag, kind));
        game.play(m).unwrap();
        let after = simple(rules, game.position());
        let text = variantlab::write_move(v, &m);
        assert_eq!(
            next.cells, after.cells,
            "seed {seed}: boards differ after {text}"
        );
        assert_eq!(
            next.hands, after.hands,
            "seed {seed}: hands differ after {text}"
        );
        if m.special == Special::Drop {
            tally.gained += next.castling.iter().filter(|i| !rights.contains(i)).count();
        }
        rights = next.castling;
        if game.ending().is_some() {
            break;
        }
    }
}

#[test]
fn placement_drops_agree_with_the_reference_in_brief() {
    placement_drops_agree_with_the_reference(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn placement_drops_agree_with_the_reference_in_full() {
    placement_drops_agree_with_the_reference(Size::Full);
}

fn placement_drops_agree_with_the_reference(size: Size) {
    use variantlab::parse_position;
    let v = load("placement.var");
    let rules = compiled(&v, &[]);
    let options = rules.options();
    let cell = |name: &str| v.board.parse_cell(name).unwrap();
    let drops = |list: &[(&str, &[&str])]| -> BTreeSet<Key> {
        list.iter()
            .flat_map(|(code, cells)| {
                let k = v.find_piece(code).unwrap().0;
                cells
                    .iter()
                    .map(move |c| (cell(c).0, cell(c).0, None, Some(k), None, None))
            })
            .collect()
    };
    let read = |text: &str| {
        let setup = parse_position(&rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let pos = Position::from_setup(&rules, &setup).unwrap();
        (setup, simple(&rules, &pos), runtime_moves(&rules, &pos))
    };

    // Hand-worked from docs/language.md, "Rules on every drop". The Bishop on c1 stands
    // on a dark cell and h1 is the last light one: it is kept for the second Bishop.
    let (_, slow, fast) = read("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBN1R2[KQRB] w - - 0 9");
    let kept = drops(&[
        ("K", &["a1", "e1", "g1"]),
        ("Q", &["a1", "e1", "g1"]),
        ("R", &["a1", "e1", "g1"]),
        ("B", &["h1"]),
    ]);
    assert_eq!(kept.len(), 10);
    assert_eq!(reference_keys(&v, options, &slow), kept);
    assert_eq!(fast, kept);
    // Seven pieces for seven cells, three dark and four light: every drop keeps a cell
    // of each colour for the Bishops, and the King may not step to d1 or f1.
    let text = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[QRRBBNNqrrbbnn] w - - 0 3";
    let (_, slow, fast) = read(text);
    let all = ["a1", "b1", "c1", "d1", "f1", "g1", "h1"];
    let every = drops(&[("Q", &all), ("R", &all), ("B", &all), ("N", &all)]);
    assert_eq!(every.len(), 28);
    assert_eq!(reference_keys(&v, options, &slow), every);
    assert_eq!(fast, every);
    // A Rook dropped on h1 beside the King on e1 gains White's short castling.
    let short = v
        .castlings
        .iter()
        .position(|c| c.parts[0].1 == cell("e1") && c.parts[0].2 == cell("g1"))
        .unwrap();
    let rook = v.find_piece("R").unwrap();
    let (next, _) = reference::play(
        &v,
        options,
        &slow,
        (cell("h1"), cell("h1"), None, Some(rook)),
    );
    assert_eq!(next.castling, vec![short]);
    // In check with a Rook in hand: only the three drops that block, no King move.
    let (_, slow, fast) = read("4k3/8/8/8/8/8/8/q3K3[R] w - - 0 1");
    let blocks = drops(&[("R", &["b1", "c1", "d1"])]);
    assert_eq!(reference_keys(&v, options, &slow), blocks);
    assert_eq!(fast, blocks);
    // Both Bishops in hand and only dark cells c1 and e1 free: no drop is legal, so
    // White moves as usual: 16 Pawn moves, 4 Knight moves, Kf1-e1, Qd1-c1 and Qd1-e1.
    let (_, slow, fast) = read("4k3/pppppppp/8/8/8/8/PPPPPPPP/RN1Q1KNR[BB] w - - 0 9");
    let want = reference_keys(&v, options, &slow);
    assert_eq!(want.len(), 23, "{want:?}");
    assert!(want.iter().all(|(f, t, ..)| f != t), "{want:?}");
    assert_eq!(fast, want);

    let mut tally = DropTally::default();
    // From the start: no right until the pieces are dropped.
    let start = reference::start(&v);
    assert!(start.castling.is_empty());
    let (setup, slow, _) = read("8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1");
    assert_eq!((&slow.cells, &slow.hands), (&start.cells, &start.hands));
    assert_eq!(Setup::start(&rules).cells, setup.cells);
    for seed in 0..size.of_u64(24) {
        placement_game(
            &v,
            &rules,
            Setup::start(&rules),
            start.castling.clone(),
            seed,
            50,
            &mut tally,
        );
    }
    for (n, text) in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBN1R2[KQRB] w - - 0 9",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[QRRBBNNqrrbbnn] w - - 0 3",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R7[KQRBBNNqbbnn] w - - 0 5",
        "4k3/8/8/8/8/8/8/q3K3[R] w - - 0 1",
        "4k3/8/8/8/8/8/8/RNBQKBNR[R] w - - 0 1",
    ]
    .into_iter()
    .enumerate()
    {
        let (setup, slow, _) = read(text);
        let mut rights = slow.castling;
        rights.sort();
        for seed in 0..size.of_u64(4) {
            let seed = 100 + 10 * n as u64 + seed;
            placement_game(
                &v,
                &rules,
                setup.clone(),
                rights.clone(),
                seed,
                40,
                &mut tally,
            );
        }
    }
    let seen = format!("{tally:?}");
    assert!(tally.positions > size.of(1500), "{seen}");
    assert!(tally.compulsory > size.of(300), "{seen}");
    assert!(tally.refused > size.of(150), "{seen}");
    assert!(tally.gained > size.of(30), "{seen}");
    assert!(tally.castlings > size.of(15), "{seen}");
}

/// What random games in Seirawan chess and S-house showed of gates (reference rules
/// 61-63).
#[derive(Default, Debug)]
struct GateTally {
    positions: usize,
    /// Gated moves among the moves compared.
    listed: usize,
    /// Moves played that brought a piece in.
    gated: usize,
    /// Castlings played that brought a piece in.
    castlings: usize,
    /// Gates closed by a capture on them.
    captured: usize,
    /// Gates closed because their player's hand emptied.
    emptied: usize,
}

/// A random game from `setup`: at every ply both generators agree on the moves, and
/// after every move on the board, the hands and the open gates, the reference
/// carrying its own gates and castling rights from the start. Gated castlings, gated
/// moves and captures on gates are preferred now and then.
fn gate_game(
    v: &Variant,
    rules: &Arc<Rules>,
    setup: Setup,
    seed: u64,
    plies: usize,
    tally: &mut GateTally,
) {
    let options = rules.options();
    let mut game = Game::new(rules.clone(), setup).expect("a position");
    let mut slow = simple(rules, game.position());
    let mut rng = Lcg(seed);
    for _ in 0..plies {
        let pos = game.position().clone();
        let now = simple(rules, &pos);
        assert_eq!(
            (&now.gates, &now.castling),
            (&slow.gates, &slow.castling),
            "seed {seed}: gates or castling rights differ at {}",
            game.position_string()
        );
        let want = reference_keys(v, options, &slow);
        assert_eq!(
            runtime_moves(rules, &pos),
            want,
            "seed {seed}: generators differ at {}",
            game.position_string()
        );
        tally.positions += 1;
        tally.listed += want.iter().filter(|k| k.5.is_some()).count();
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let castle = |m: &&Move| matches!(m.special, Special::Castle(_));
        let gated: Vec<_> = moves.iter().filter(|m| m.gate.is_some()).collect();
        let gated_castles: Vec<_> = gated.iter().copied().filter(castle).collect();
        let castles: Vec<_> = moves.iter().filter(castle).collect();
        let on_gates: Vec<_> = moves
            .iter()
            .filter(|m| m.captured.is_some() && slow.gates.contains(&m.to))
            .collect();
        let captures: Vec<_> = moves.iter().filter(|m| m.captured.is_some()).collect();
        let pick = |list: &[&Move], rng: &mut Lcg, odds: usize| {
            (!list.is_empty() && rng.below(odds) == 0).then(|| *list[rng.below(list.len())])
        };
        let m = pick(&gated_castles, &mut rng, 2)
            .or_else(|| pick(&on_gates, &mut rng, 1))
            .or_else(|| pick(&gated, &mut rng, 3))
            .or_else(|| pick(&castles, &mut rng, 2))
            .or_else(|| pick(&captures, &mut rng, 3))
            .unwrap_or_else(|| moves[rng.below(moves.len())]);
        let (from, to) = written(v, &m);
        let kind = reference_kind(&m);
        let (next, _) =
            reference::play_gated(v, options, &slow, (from, to, m.tag, kind), m.wall, m.gate);
        let text = variantlab::write_move(v, &m);
        game.play(m).unwrap();
        let after = simple(rules, game.position());
        assert_eq!(
            (&next.cells, &next.hands, &next.gates),
            (&after.cells, &after.hands, &after.gates),
            "seed {seed}: boards, hands or gates differ after {text}"
        );
        if m.gate.is_some() {
            tally.gated += 1;
            tally.castlings += usize::from(castle(&&m));
        }
        let closed: Vec<Cell> = slow
            .gates
            .iter()
            .copied()
            .filter(|c| !next.gates.contains(c))
            .collect();
        let left: Vec<Cell> = match m.special {
            Special::Castle(i) => v.castlings[i as usize].parts.iter().map(|p| p.1).collect(),
            _ => vec![m.from],
        };
        tally.captured += usize::from(m.captured.is_some() && closed.contains(&m.to));
        tally.emptied += closed
            .iter()
            .filter(|c| !left.contains(c) && **c != m.to)
            .count();
        slow = next;
        if game.ending().is_some() {
            break;
        }
    }
}

/// A move by its cells' names, with the code of the kind brought in and its cell.
type Named<'a> = (&'a str, &'a str, Option<(&'a str, &'a str)>);

#[test]
fn gates_agree_with_the_reference_in_brief() {
    gates_agree_with_the_reference(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn gates_agree_with_the_reference_in_full() {
    gates_agree_with_the_reference(Size::Full);
}

fn gates_agree_with_the_reference(size: Size) {
    use variantlab::parse_position;
    let v = load("seirawan.var");
    let rules = compiled(&v, &[]);
    let options = rules.options();
    let cell = |name: &str| v.board.parse_cell(name).unwrap().0;
    let piece = |code: &str| v.find_piece(code).unwrap().0;
    let read = |text: &str| {
        let setup = parse_position(&rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let pos = Position::from_setup(&rules, &setup).unwrap();
        (simple(&rules, &pos), runtime_moves(&rules, &pos))
    };
    // (from, to, kind brought in, its cell): the moves as docs/language.md, "Gates",
    // works them out by hand.
    let keys = |list: &[Named]| -> BTreeSet<Key> {
        list.iter()
            .map(|(f, t, g)| {
                let gate = g.map(|(k, c)| (piece(k), cell(c)));
                (cell(f), cell(t), None, None, None, gate)
            })
            .collect()
    };

    // The start: every first-rank cell is a gate, as the position string's castling
    // field lists them.
    let start = reference::start(&v);
    assert_eq!(start.gates.len(), 16);
    let (slow, fast) =
        read("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w KQBCDFGkqbcdfg - 0 1");
    assert_eq!(slow.gates, start.gates);
    assert_eq!(Setup::start(&rules).gates.len(), 16);
    // 20 chess moves, and each Knight move with either piece.
    let want = reference_keys(&v, options, &slow);
    assert_eq!(want.len(), 28);
    assert_eq!(fast, want);

    // Castling letters open the gates of their pieces: each castling brings E or H
    // onto the King's start or the Rook's.
    let (slow, fast) = read("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w KQkq - 0 1");
    let white: Vec<u16> = slow
        .gates
        .iter()
        .filter(|c| slow.cells[c.index()].is_some_and(|(p, _)| p.0 == 0))
        .map(|c| c.0)
        .collect();
    let mut named = [cell("a1"), cell("e1"), cell("h1")];
    named.sort();
    assert_eq!(white, named);
    assert_eq!(slow.gates.len(), 6);
    let mut castlings = vec![];
    for (to, rook) in [("g1", "h1"), ("c1", "a1")] {
        castlings.push(("e1", to, None));
        for k in ["E", "H"] {
            castlings.push(("e1", to, Some((k, "e1"))));
            castlings.push(("e1", to, Some((k, rook))));
        }
    }
    let castlings = keys(&castlings);
    let want = reference_keys(&v, options, &slow);
    assert!(castlings.is_subset(&want), "{want:?}");
    // 16 Pawn moves; Kd1, Kf1, Ra1-b1 c1 d1, Rh1-g1 f1 and the two castlings, each
    // but the Pawns' also with E or H brought in, the castlings onto either start.
    assert_eq!(want.len(), 16 + 3 * (2 + 3 + 2 + 2) + 2 * 2);
    assert_eq!(fast, want);

    // A pinned Queen: the Hawk brought in behind it does not shield the King.
    let (slow, fast) = read("4k3/8/8/8/8/8/8/r2QK3[H] w D - 0 1");
    let mut expected = vec![];
    for to in ["d2", "e2", "f2", "f1"] {
        expected.push(("e1", to, None));
    }
    for to in ["c1", "b1", "a1"] {
        expected.push(("d1", to, None));
        expected.push(("d1", to, Some(("H", "d1"))));
    }
    let expected = keys(&expected);
    assert_eq!(expected.len(), 10);
    assert_eq!(reference_keys(&v, options, &slow), expected);
    assert_eq!(fast, expected);

    let mut tally = GateTally::default();
    let mut shouse = GateTally::default();
    for (file, tally) in [("seirawan.var", &mut tally), ("shouse.var", &mut shouse)] {
        let v = load(file);
        let rules = compiled(&v, &[]);
        // The runtime's start gates and castling rights are the reference's own.
        let start = reference::start(&v);
        let setup = Setup::start(&rules);
        let at_start = simple(&rules, &Position::from_setup(&rules, &setup).unwrap());
        assert_eq!(
            (&at_start.gates, &at_start.castling),
            (&start.gates, &start.castling),
            "{file}"
        );
        for seed in 0..size.of_u64(20) {
            gate_game(&v, &rules, setup.clone(), seed, 60, tally);
        }
        for (n, text) in [
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w KQkq - 0 1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[He] w KQkq - 0 1",
            "rn2k2r/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/RN2K2R[EHeh] w KQkqBb - 0 1",
            "4k3/8/8/8/8/8/8/r2QK3[H] w D - 0 1",
            // Open files and diagonals: captures on the gates across the board.
            "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR[EHeh] w KQBCDFGkqbcdfg - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R[EHeh] w KQkq - 0 1",
        ]
        .into_iter()
        .enumerate()
        {
            let setup = parse_position(&rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            for seed in 0..size.of_u64(5) {
                let seed = 100 + 10 * n as u64 + seed;
                gate_game(&v, &rules, setup.clone(), seed, 40, tally);
            }
        }
    }
    let seen = format!("seirawan {tally:?}, shouse {shouse:?}");
    for t in [&tally, &shouse] {
        assert!(t.positions > size.of(2000), "{seen}");
        assert!(t.listed > size.of(3000), "{seen}");
        assert!(t.gated > size.of(150), "{seen}");
        assert!(t.castlings > size.of(20), "{seen}");
        assert!(t.captured > size.of(25), "{seen}");
    }
    assert!(tally.emptied > size.of(150), "{seen}");
    // S-house keeps the gates of an empty hand.
    assert_eq!(shouse.emptied, 0, "{seen}");
    // Gated moves made and answered, both generators counting.
    for file in ["seirawan.var", "shouse.var"] {
        perft_agrees_from(
            file,
            2,
            &[
                "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w KQkq - 0 1",
                "4k3/8/8/8/8/8/8/r2QK3[H] w D - 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R[He] w KQkq - 0 1",
            ],
        );
    }
}

/// What sittuyin games showed of promotions made as moves of their own (reference
/// rules 64-67). A refusal is a standing promotion a generator without the rule
/// would list.
#[derive(Default, Debug)]
struct StandingTally {
    positions: usize,
    /// Standing promotions compared, in place and by a step.
    in_place: usize,
    stepped: usize,
    /// Refused off the zone (rule 64), were the zone every cell.
    off_zone: usize,
    /// Open only as the last of its kind (rule 65).
    last: usize,
    /// Refused by `at most 1 General` (rule 42).
    most: usize,
    /// Refused by rule 66: giving check, and attacking an enemy piece without check.
    checking: usize,
    attacking: usize,
    /// Endings compared, after every move, and those by `only promotions left`.
    judged: usize,
    only_promotions: usize,
}

/// Sittuyin with one of the rules on standing promotions loosened, for counting what
/// the rule refuses.
fn loosened(v: &Variant, change: impl Fn(&mut variantlab::variant::Promotion)) -> Variant {
    let mut out = v.clone();
    for piece in &mut out.pieces {
        piece
            .promotion
            .iter_mut()
            .filter(|p| p.when.standing)
            .for_each(&change);
    }
    out
}

/// The moves of a reference move list that promote a piece (rule 67's test).
fn promoting(pos: &reference::Simple, keys: &BTreeSet<Key>) -> BTreeSet<Key> {
    keys.iter()
        .copied()
        .filter(|k| k.3.is_some() && pos.cells[k.0 as usize].is_some_and(|(p, _)| p == pos.to_move))
        .collect()
}

/// The loosened variants: the zone every cell, not `or anywhere as the last of its
/// kind`, no `at most`, not `giving no check and attacking no enemy`.
struct Loose {
    anywhere: Variant,
    not_alone: Variant,
    unlimited: Variant,
    loud: Variant,
}

impl Loose {
    fn new(v: &Variant) -> Loose {
        let mut anywhere = v.clone();
        for piece in &v.pieces {
            for p in piece.promotion.iter().filter(|p| p.when.standing) {
                anywhere.zones[p.zone].cells = vec![v.board.cells().collect(); v.players.len()];
            }
        }
        Loose {
            anywhere,
            not_alone: loosened(v, |p| p.alone = false),
            unlimited: loosened(v, |p| p.most.clear()),
            loud: loosened(v, |p| p.quiet = false),
        }
    }

    /// Compares both generators at `pos` and counts what each rule refused there.
    fn tally(
        &self,
        v: &Variant,
        rules: &Arc<Rules>,
        pos: &Position,
        at: &str,
        t: &mut StandingTally,
    ) {
        let options = rules.options();
        let slow = simple(rules, pos);
        let want = reference_keys(v, options, &slow);
        assert_eq!(
            runtime_moves(rules, pos),
            want,
            "sittuyin: generators differ at {at}"
        );
        t.positions += 1;
        let promotions = promoting(&slow, &want);
        t.in_place += promotions.iter().filter(|k| k.0 == k.1).count();
        t.stepped += promotions.iter().filter(|k| k.0 != k.1).count();
        if slow.hands.iter().any(|(p, _)| *p == slow.to_move) {
            // Still placing: compulsory drops (rule 58).
            return;
        }
        let extra = |loose: &Variant| -> BTreeSet<Key> {
            let more = promoting(&slow, &reference_keys(loose, options, &slow));
            assert!(promotions.is_subset(&more), "{at}");
            more.difference(&promotions).copied().collect()
        };
        t.off_zone += extra(&self.anywhere).len();
        t.most += extra(&self.unlimited).len();
        let strict = promoting(&slow, &reference_keys(&self.not_alone, options, &slow));
        assert!(strict.is_subset(&promotions), "{at}");
        t.last += promotions.len() - strict.len();
        for (f, to, tag, k, _, _) in extra(&self.loud) {
            use variantlab::{PieceId, TagId};
            let mv = (Cell(f), Cell(to), tag.map(TagId), k.map(PieceId));
            let (next, _) = reference::play(&self.loud, options, &slow, mv);
            if reference::in_check(&self.loud, options, &next) {
                t.checking += 1;
            } else {
                t.attacking += 1;
            }
        }
    }
}

/// A random sittuyin game from `setup`: at every ply both generators agree on the
/// moves, on the board a move leaves and on whether it ends the game (the rules the
/// reference judges: mates and `only promotions left`). Promotions, captures and
/// Pawn moves are preferred now and then.
fn standing_game(
    v: &Variant,
    rules: &Arc<Rules>,
    loose: &Loose,
    setup: Setup,
    seed: u64,
    plies: usize,
    t: &mut StandingTally,
) {
    use variantlab::variant::Event;
    let options = rules.options();
    let judged = |rule: usize| {
        v.end_rules[..=rule].iter().all(|r| {
            matches!(
                r.event(),
                Some(Event::Checkmate | Event::Stalemate | Event::OnlyPromotions)
            )
        })
    };
    let only = v
        .end_rules
        .iter()
        .position(|r| r.event() == Some(Event::OnlyPromotions))
        .expect("sittuyin draws with only promotions left");
    let mut game = Game::new(rules.clone(), setup).expect("a sittuyin position");
    let mut rng = Lcg(seed);
    for _ in 0..plies {
        let pos = game.position().clone();
        loose.tally(v, rules, &pos, &game.position_string(), t);
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let pawn = v.find_piece("P");
        let promotions: Vec<_> = moves.iter().filter(|m| m.promotion.is_some()).collect();
        let captures: Vec<_> = moves.iter().filter(|m| m.captured.is_some()).collect();
        let pawns: Vec<_> = moves
            .iter()
            .filter(|m| Some(m.piece) == pawn && m.promotion.is_none())
            .collect();
        let pick = |list: &[&Move], rng: &mut Lcg, odds: usize| {
            (!list.is_empty() && rng.below(odds) == 0).then(|| *list[rng.below(list.len())])
        };
        let m = pick(&promotions, &mut rng, 3)
            .or_else(|| pick(&captures, &mut rng, 3))
            .or_else(|| pick(&pawns, &mut rng, 3))
            .unwrap_or_else(|| moves[rng.below(moves.len())]);
        let slow = simple(rules, &pos);
        let kind = reference_kind(&m);
        let (next, want) = reference::play(v, options, &slow, (m.from, m.to, m.tag, kind));
        let text = variantlab::write_move(v, &m);
        game.play(m).unwrap();
        let after = simple(rules, game.position());
        assert_eq!(
            (&next.cells, &next.hands),
            (&after.cells, &after.hands),
            "seed {seed}: boards differ after {text}"
        );
        let got = game.ending().filter(|e| judged(e.rule));
        assert_eq!(
            got.map(|e| e.outcome),
            want,
            "seed {seed}: ends differ after {text} at {}",
            game.position_string()
        );
        t.judged += 1;
        t.only_promotions += usize::from(got.is_some_and(|e| e.rule == only));
        if game.ending().is_some() {
            break;
        }
    }
}

/// The promotions among a key list, written as moves (`d5e6f`), sorted.
fn promotion_texts(v: &Variant, pos: &reference::Simple, keys: &BTreeSet<Key>) -> Vec<String> {
    let name = |c: u16| v.board.name(Cell(c)).to_lowercase();
    let mut out: Vec<String> = promoting(pos, keys)
        .iter()
        .map(|(f, t, _, k, _, _)| {
            let code = &v.piece(variantlab::PieceId(k.unwrap())).code;
            format!("{}{}{}", name(*f), name(*t), code.to_lowercase())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn standing_promotions_agree_with_the_reference_in_brief() {
    standing_promotions_agree_with_the_reference(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn standing_promotions_agree_with_the_reference_in_full() {
    standing_promotions_agree_with_the_reference(Size::Full);
}

fn standing_promotions_agree_with_the_reference(size: Size) {
    use variantlab::{Outcome, parse_position};
    let v = load("sittuyin.var");
    let rules = compiled(&v, &[]);
    let options = rules.options();
    let read = |text: &str| {
        let setup = parse_position(&rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let pos = Position::from_setup(&rules, &setup).unwrap();
        (setup, pos)
    };

    // Hand-worked from docs/language.md, "Promotion as a move of its own": White's
    // promotion cells are a8 b7 c6 d5 e5 f6 g7 h8, Black's a1 b2 c3 d4 e4 f3 g2 h1.
    let cases: [(&str, &[&str]); 11] = [
        // A General on c6 would check the King on b7; every other step and both
        // places are open.
        (
            "8/1k6/8/3PP3/8/8/8/4K3[] w - - 0 1",
            &[
                "d5c4f", "d5d5f", "d5e4f", "d5e6f", "e5d4f", "e5d6f", "e5e5f", "e5f4f", "e5f6f",
            ],
        ),
        // The last Pawn promotes off the zone, not onto d5 or f5 next to the King.
        (
            "8/8/4k3/8/4P3/8/8/4K3[] w - - 0 1",
            &["e4d3f", "e4e4f", "e4f3f"],
        ),
        // A General on the board already: none.
        ("8/1k6/8/3PP3/8/8/8/3FK3[] w - - 0 1", &[]),
        // a2 lies off the zone and is not the last Pawn.
        (
            "8/1k6/8/3P4/8/8/P7/4K3[] w - - 0 1",
            &["d5c4f", "d5d5f", "d5e4f", "d5e6f"],
        ),
        // Stepping off d5 opens the Chariot's rank onto the King: only in place.
        ("8/8/8/R2P3k/8/8/8/4K3[] w - - 0 1", &["d5d5f"]),
        // A General on d5 would attack the Chariot on c6; c6 itself is a capture.
        (
            "8/1k6/2r5/3P4/8/8/8/4K3[] w - - 0 1",
            &["d5c4f", "d5e4f", "d5e6f"],
        ),
        // Pinned on the d file: only in place.
        ("3r3k/8/8/3P4/8/8/8/3K4[] w - - 0 1", &["d5d5f"]),
        // In check along the first rank: no promotion answers it.
        ("8/1k6/8/3P4/8/8/8/r3K3[] w - - 0 1", &[]),
        // Black's last Pawn on d4, its own promotion cell.
        (
            "4k3/8/8/8/3p4/8/8/6K1[] b - - 0 1",
            &["d4c3f", "d4c5f", "d4d4f", "d4e3f", "d4e5f"],
        ),
        // A General in hand is dropped first (compulsory drops).
        ("8/1k6/8/3PP3/8/8/8/4K3[F] w - - 0 1", &[]),
        // e4 is no promotion cell of White's, and its Pawn blocks d5-e4.
        (
            "8/1k6/8/3P4/4P3/8/8/4K3[] w - - 0 1",
            &["d5c4f", "d5d5f", "d5e6f"],
        ),
    ];
    for (text, want) in cases {
        let (_, pos) = read(text);
        let slow = simple(&rules, &pos);
        let keys = reference_keys(&v, options, &slow);
        assert_eq!(promotion_texts(&v, &slow, &keys), want, "{text}");
        assert_eq!(runtime_moves(&rules, &pos), keys, "{text}");
    }

    // `only promotions left`: after Ne2-c1 White's King has no cell and its Pawn is
    // blocked, not in check; a draw, which perft does not stop at.
    let (setup, _) = read("8/8/8/7p/7P/8/2k1n3/K7[] b - - 0 1");
    let mut game = Game::new(rules.clone(), setup).unwrap();
    let slow = simple(&rules, game.position());
    let m = variantlab::parse_move(&rules, game.position(), "e2c1").unwrap();
    let (next, want) = reference::play(&v, options, &slow, (m.from, m.to, m.tag, None));
    game.play(m).unwrap();
    assert_eq!(want, Some(Outcome::Draw));
    assert_eq!(game.ending().map(|e| e.outcome), want);
    assert_eq!(
        promotion_texts(&v, &next, &reference_keys(&v, options, &next)),
        ["h4g3f", "h4g5f", "h4h4f"]
    );
    let after = game.position_string();
    // With b1 open the game goes on.
    let (setup, _) = read("8/8/8/7p/7P/8/3k4/K1n5[] b - - 0 1");
    let slow = simple(&rules, &Position::from_setup(&rules, &setup).unwrap());
    let m = (
        v.board.parse_cell("d2").unwrap(),
        v.board.parse_cell("d3").unwrap(),
        None,
        None,
    );
    assert_eq!(reference::play(&v, options, &slow, m).1, None);
    // In check from a1 with b1 to g1 between, the King boxed in by the Elephant on g3
    // and the Pawn on e2 (the last, so promoting anywhere) blocked: only the General's
    // steps to d1 and f1 answer it, and a player in check plays on.
    let (setup, _) = read("k7/8/8/r7/8/4p1s1/4P3/7K[] b - - 0 1");
    let mut game = Game::new(rules.clone(), setup).unwrap();
    let slow = simple(&rules, game.position());
    let m = variantlab::parse_move(&rules, game.position(), "a5a1").unwrap();
    let (next, want) = reference::play(&v, options, &slow, (m.from, m.to, m.tag, None));
    game.play(m).unwrap();
    assert_eq!(want, None);
    assert!(game.ending().is_none());
    let keys = reference_keys(&v, options, &next);
    assert_eq!(promotion_texts(&v, &next, &keys), ["e2d1f", "e2f1f"]);
    assert_eq!(keys.len(), 2);
    assert_eq!(runtime_moves(&rules, game.position()), keys);
    let checked = game.position_string();
    let mut texts: Vec<&str> = cases.iter().map(|(t, _)| *t).collect();
    texts.push(&after);
    texts.push(&checked);
    texts.push("8/8/8/7p/7P/8/3k4/K1n5[] b - - 0 1");
    perft_agrees_from("sittuyin.var", 2, &texts);

    let loose = Loose::new(&v);
    let mut t = StandingTally::default();
    for seed in 0..size.of_u64(24) {
        standing_game(&v, &rules, &loose, Setup::start(&rules), seed, 260, &mut t);
    }
    // Sparse endings, where a boxed-in King leaves only promotions.
    for (n, text) in [
        "8/8/8/7p/7P/8/2k1n3/K7[] b - - 0 1",
        "8/8/8/7p/7P/8/3k4/K1n5[] b - - 0 1",
        "8/1k6/2r5/3P4/8/8/8/4K3[] w - - 0 1",
        "8/8/4k3/8/4P3/8/8/4K3[] w - - 0 1",
        "k7/8/8/p7/P2r4/8/8/K7[] b - - 0 1",
    ]
    .into_iter()
    .enumerate()
    {
        let (setup, _) = read(text);
        for seed in 0..8 {
            let seed = 100 + 10 * n as u64 + seed;
            standing_game(&v, &rules, &loose, setup.clone(), seed, 80, &mut t);
        }
    }
    let seen = format!("{t:?}");
    println!("sittuyin: {seen}");
    assert!(t.positions > size.of(3000), "{seen}");
    assert!(t.in_place > 0 && t.stepped > 0, "{seen}");
    assert!(t.off_zone > 0 && t.last > 0 && t.most > 0, "{seen}");
    assert!(t.checking > 0 && t.attacking > 0, "{seen}");
    assert!(t.only_promotions > 0, "{seen}");
}

#[test]
fn quiet_promotions_of_any_trigger_agree_with_the_reference() {
    use variantlab::parse_position;
    // Chess whose Pawns promote on entering, giving no check and attacking no enemy
    // (rule 66 on a trigger other than `standing`).
    let path = format!("{}/variants/chess.var", env!("CARGO_MANIFEST_DIR"));
    let plain = "promotes on entering far to Queen or Rook or Bishop or Knight";
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(plain));
    let text = text.replace(
        plain,
        &format!("{plain}, giving no check and attacking no enemy"),
    );
    let v = check("quiet.var", &text).variant.expect("checks");
    assert!(v.pieces.iter().any(|p| p.promotion.iter().any(|q| q.quiet)));
    let rules = compiled(&v, &[]);
    let options = rules.options();
    // Hand-worked: a Queen or Rook on b8 checks along the rank (and attacks the Rook
    // on a8), on a8 checks; Bishops and Knights there attack nothing. b7-b8 opening
    // the Rook's rank onto h7 checks whatever it becomes, so it is no move at all.
    let cases: [(&str, &[&str]); 3] = [
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", &["b7b8b", "b7b8n"]),
        (
            "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            &["b7a8b", "b7a8n", "b7b8b", "b7b8n"],
        ),
        ("8/RP5k/8/8/8/8/8/4K3 w - - 0 1", &[]),
    ];
    for (text, want) in cases {
        let setup = parse_position(&rules, text).unwrap();
        let pos = Position::from_setup(&rules, &setup).unwrap();
        let slow = simple(&rules, &pos);
        let keys = reference_keys(&v, options, &slow);
        assert_eq!(promotion_texts(&v, &slow, &keys), want, "{text}");
        if want.is_empty() {
            let b7 = v.board.parse_cell("b7").unwrap().0;
            assert!(!keys.iter().any(|k| k.0 == b7), "{text}: {keys:?}");
        }
        assert_eq!(runtime_moves(&rules, &pos), keys, "{text}");
    }
    let texts: Vec<&str> = cases.iter().map(|(t, _)| *t).collect();
    let setup = |text: &str| parse_position(&rules, text).unwrap();
    for text in &texts {
        let mut pos = Position::from_setup(&rules, &setup(text)).unwrap();
        let want = reference::perft(&v, options, &simple(&rules, &pos), 3);
        assert_eq!(variantlab::perft(&rules, &mut pos, 3), want, "{text}");
    }
    // Random games with Pawns close to promotion.
    let mut compared = 0;
    for (n, text) in [
        "r3k3/1PP3P1/8/8/8/8/1pp3p1/R3K3 w - - 0 1",
        "4k3/PP4PP/8/8/8/8/pp4pp/4K3 w - - 0 1",
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 0..10 {
            let mut game = Game::new(rules.clone(), setup(text)).unwrap();
            let mut rng = Lcg(200 + 10 * n as u64 + seed);
            for _ in 0..40 {
                let pos = game.position().clone();
                let slow = simple(&rules, &pos);
                let want = reference_keys(&v, options, &slow);
                assert_eq!(
                    runtime_moves(&rules, &pos),
                    want,
                    "generators differ at {}",
                    game.position_string()
                );
                compared += promoting(&slow, &want).len();
                let moves = game.legal_moves();
                if moves.is_empty() || game.ending().is_some() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
        }
    }
    println!("quiet chess: {compared} promotions compared");
    assert!(compared > 100, "only {compared} promotions compared");
}

/// What [`nearby_cells_and_not_from_agree_with_the_reference`] compared: positions,
/// and the moves rules 68 (cells near the start) and 69 (`not from`) decided there. A
/// move one refused is listed by the reference without the rule but not with it; one
/// it allowed is listed with the rule but not with the rule turned round.
#[derive(Debug, Default)]
struct NearTally {
    positions: usize,
    near_refused: usize,
    near_allowed: usize,
    not_refused: usize,
    not_allowed: usize,
    castlings: usize,
    in_passing: usize,
    promotions: usize,
}

/// `v` with every pattern changed.
fn with_patterns(v: &Variant, change: impl Fn(&mut variantlab::variant::Pattern)) -> Variant {
    let mut out = v.clone();
    out.pieces
        .iter_mut()
        .flat_map(|p| &mut p.moves)
        .for_each(change);
    out
}

/// A variant with rules 68 and 69 each dropped, and each turned round.
struct Turned {
    no_near: Variant,
    near_round: Variant,
    no_not: Variant,
    not_round: Variant,
}

impl Turned {
    fn new(v: &Variant) -> Turned {
        use variantlab::variant::Initial;
        Turned {
            no_near: with_patterns(v, |p| p.nearby = None),
            near_round: with_patterns(v, |p| {
                if let Some(n) = &mut p.nearby {
                    n.present = !n.present;
                }
            }),
            no_not: with_patterns(v, |p| {
                if matches!(p.initial, Some(Initial::Not(_))) {
                    p.initial = None;
                }
            }),
            not_round: with_patterns(v, |p| {
                if let Some(Initial::Not(inner)) = &p.initial {
                    p.initial = Some((**inner).clone());
                }
            }),
        }
    }

    /// Compares both generators at `pos` and counts what each rule decided there.
    /// With `turn`, also against the variants turned round.
    fn tally(&self, rules: &Arc<Rules>, pos: &Position, at: &str, turn: bool, t: &mut NearTally) {
        let v = rules.variant();
        let options = rules.options();
        let slow = simple(rules, pos);
        let want = reference_keys(v, options, &slow);
        assert_eq!(
            runtime_moves(rules, pos),
            want,
            "{}: generators differ at {at}",
            v.name
        );
        t.positions += 1;
        if !turn {
            return;
        }
        let minus = |a: &BTreeSet<Key>, b: &BTreeSet<Key>| a.difference(b).count();
        let keys = |turned: &Variant| reference_keys(turned, options, &slow);
        t.near_refused += minus(&keys(&self.no_near), &want);
        t.near_allowed += minus(&want, &keys(&self.near_round));
        t.not_refused += minus(&keys(&self.no_not), &want);
        t.not_allowed += minus(&want, &keys(&self.not_round));
    }
}

/// A random game from `setup`: both generators agree at every ply. Pawn moves (double
/// steps first) and captures are preferred now and then, castlings and captures in
/// passing always.
fn near_game(
    rules: &Arc<Rules>,
    turned: &Turned,
    setup: Setup,
    seed: u64,
    plies: usize,
    t: &mut NearTally,
) {
    let v = rules.variant();
    let pawn = v.find_piece("P").or_else(|| v.find_piece("M"));
    let mut game = Game::new(rules.clone(), setup).expect("a position");
    let mut rng = Lcg(seed);
    for ply in 0..plies {
        let pos = game.position().clone();
        // The turned variants on every other ply, to keep the test quick.
        turned.tally(rules, &pos, &game.position_string(), ply % 2 == 0, t);
        let moves = game.legal_moves();
        if moves.is_empty() || game.ending().is_some() {
            break;
        }
        let special: Vec<_> = moves
            .iter()
            .filter(|m| matches!(m.special, Special::Castle(_) | Special::InPassing(_)))
            .collect();
        t.castlings += moves
            .iter()
            .filter(|m| matches!(m.special, Special::Castle(_)))
            .count();
        t.in_passing += moves
            .iter()
            .filter(|m| matches!(m.special, Special::InPassing(_)))
            .count();
        t.promotions += moves.iter().filter(|m| m.promotion.is_some()).count();
        let captures: Vec<_> = moves.iter().filter(|m| m.captured.is_some()).collect();
        let pawns: Vec<_> = moves.iter().filter(|m| Some(m.piece) == pawn).collect();
        let pick = |list: &[&Move], rng: &mut Lcg, odds: usize| {
            (!list.is_empty() && rng.below(odds) == 0).then(|| *list[rng.below(list.len())])
        };
        let doubles: Vec<_> = moves
            .iter()
            .filter(|m| matches!(m.special, Special::Passing(_)))
            .collect();
        let m = pick(&special, &mut rng, 1)
            .or_else(|| pick(&captures, &mut rng, 3))
            .or_else(|| pick(&doubles, &mut rng, 3))
            .or_else(|| pick(&pawns, &mut rng, 2))
            .unwrap_or_else(|| moves[rng.below(moves.len())]);
        game.play(m).unwrap();
    }
}

/// The destinations of the reference's moves from `from`, written `c2c3`, sorted.
fn moves_from_cell(v: &Variant, keys: &BTreeSet<Key>, from: &str) -> Vec<String> {
    let name = |c: u16| v.board.name(Cell(c)).to_lowercase();
    let mut out: Vec<String> = keys
        .iter()
        .filter(|k| name(k.0) == from)
        .map(|k| format!("{}{}", name(k.0), name(k.1)))
        .collect();
    out.sort();
    out
}

/// Both generators at each position string, and the moves from one cell as worked by
/// hand.
fn near_cases(rules: &Arc<Rules>, cases: &[(&str, &str, &[&str])]) {
    let v = rules.variant();
    for (text, from, want) in cases {
        let setup =
            variantlab::parse_position(rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let pos = Position::from_setup(rules, &setup).unwrap();
        let keys = reference_keys(v, rules.options(), &simple(rules, &pos));
        assert_eq!(moves_from_cell(v, &keys, from), *want, "{text}");
        assert_eq!(runtime_moves(rules, &pos), keys, "{text}");
    }
}

#[test]
fn nearby_cells_and_not_from_agree_with_the_reference_in_brief() {
    nearby_cells_and_not_from_agree_with_the_reference(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn nearby_cells_and_not_from_agree_with_the_reference_in_full() {
    nearby_cells_and_not_from_agree_with_the_reference(Size::Full);
}

fn nearby_cells_and_not_from_agree_with_the_reference(size: Size) {
    // Brusky's hexagonal chess, hand-worked from docs/language.md (12, "Cells near the
    // start"; 16a, `not from start`) and the board: a cell's orthogonal neighbours
    // forward for White are NW (same file, next rank) and NE (next file, next rank);
    // its forward diagonals are WNW (file before, next rank) and ENE (two files on,
    // next rank), straight forward N (next file, two ranks up). Black mirrors it.
    let rules = common::rules("brusky.var");
    let v = rules.variant();
    let cases: [(&str, &str, &[&str]); 8] = [
        // An enemy on d3, one forward edge: c2 may not advance at all, though c3 and
        // c4 are empty; it captures nothing.
        ("3k5/10/11/12/12/3p7/2P7/5K3 w - - 0 1", "c2", &[]),
        // An enemy on c3, the other edge: d3 and e4 stay closed too.
        ("3k5/10/11/12/12/2p8/2P7/5K3 w - - 0 1", "c2", &[]),
        // A friend on d3: c2 advances the other way, one cell or two.
        (
            "3k5/10/11/12/12/3N7/2P7/5K3 w - - 0 1",
            "c2",
            &["c2c3", "c2c4"],
        ),
        // An enemy beside c2 on d2 is on no forward edge: all four advances.
        (
            "3k5/10/11/12/12/11/2Pp6/5K3 w - - 0 1",
            "c2",
            &["c2c3", "c2c4", "c2d3", "c2e4"],
        ),
        // An enemy two cells along the NE edge (e4) is not next to c2: the advances
        // but the one onto e4 itself.
        (
            "3k5/10/11/12/4p7/11/2P7/5K3 w - - 0 1",
            "c2",
            &["c2c3", "c2c4", "c2d3"],
        ),
        // Off its start, on c3, a Pawn next to an enemy on d4 still advances, to c4.
        ("3k5/10/11/12/3p8/2P8/10/5K3 w - - 0 1", "c3", &["c3c4"]),
        // ... and next to one on c4, to d4.
        ("3k5/10/11/12/2p9/2P8/10/5K3 w - - 0 1", "c3", &["c3d4"]),
        // Black's Pawn on e7 (forward edges d6 and e6) with a White Pawn on d6.
        ("3k5/2p7/2P8/12/12/11/10/5K3 b - - 0 1", "e7", &[]),
    ];
    near_cases(&rules, &cases);
    // c2-c4 passes c3, which the Pawn on e4 then takes in passing (WSW); off its
    // start it also steps to d3 and e3.
    let text = "3k5/10/11/12/4p7/11/2P7/5K3 w - - 0 1";
    let mut game = Game::new(
        rules.clone(),
        variantlab::parse_position(&rules, text).unwrap(),
    )
    .unwrap();
    let m = variantlab::parse_move(&rules, game.position(), "c2c4").unwrap();
    game.play(m).unwrap();
    let after = game.position_string();
    near_cases(&rules, &[(&after, "e4", &["e4c3", "e4d3", "e4e3"])]);

    let turned = Turned::new(v);
    let mut t = NearTally::default();
    let read = |text: &str| variantlab::parse_position(&rules, text).unwrap();
    for seed in 0..size.of_u64(12) {
        near_game(
            &rules,
            &turned,
            Setup::start(&rules),
            300 + seed,
            200,
            &mut t,
        );
    }
    // Pawns waiting on the fourth and fifth ranks for double steps to take in passing.
    for (n, text) in [
        "rnbkbqbnr/10/11/12/p1p1p1p1p1p1/11/PPPPPPPPPP/RNBQBKBNR w KQkq - 0 1",
        "rnbkbqbnr/pppppppppp/11/1P1P1P1P1P1P/12/11/10/RNBQBKBNR b KQkq - 0 1",
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 0..size.of_u64(8) {
            let seed = 400 + 10 * n as u64 + seed;
            near_game(&rules, &turned, read(text), seed, 60, &mut t);
        }
    }
    let seen = format!("{t:?}");
    println!("brusky: {seen}");
    assert!(t.positions > size.of(3000), "{seen}");
    assert!(
        t.near_refused > size.of(100) && t.near_allowed > size.of(1000),
        "{seen}"
    );
    assert!(
        t.not_refused > size.of(50) && t.not_allowed > size.of(1000),
        "{seen}"
    );
    assert!(
        t.castlings > 0 && t.in_passing > size.of(10) && t.promotions > 0,
        "{seen}"
    );

    // Both forms of the clause, both kinds of holder and `not from CELLS` on squares.
    let rules = common::from_text(
        "name \"Near\"\nboard square 8 by 8\n\
         player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
         piece King (K) {\n  royal\n  step 1 any\n}\n\
         piece Man (M) {\n\
         \x20 step 1 forward orthogonal, to empty, only if a friend is 1 step sideways\n\
         \x20 slide sideways, to empty, unless a piece is 2 steps diagonal\n\
         \x20 step 1 forward diagonal, to enemy\n\
         \x20 step 1 straight backward, to empty, not from d4 e4 d5 e5\n}\n\
         setup {\n  White: King e1, Man a2 b2 c2 d2 e2 f2 g2 h2\n\
         \x20 Black: King e8, Man a7 b7 c7 d7 e7 f7 g7 h7\n}\n\
         game ends {\n  checkmate: mover wins\n  stalemate: draw\n}\n",
    );
    // Hand-worked: a Man steps forward only with a friend beside it (E or W), slides
    // E or W only while none of the four cells two diagonal steps away holds a piece,
    // and steps back except from the four centre cells.
    let cases: [(&str, &str, &[&str]); 8] = [
        // d4 and e4 side by side: each steps forward, slides away from the other.
        (
            "7k/8/8/8/3MM3/8/8/K7 w 0 1",
            "d4",
            &["d4a4", "d4b4", "d4c4", "d4d5"],
        ),
        (
            "7k/8/8/8/3MM3/8/8/K7 w 0 1",
            "e4",
            &["e4e5", "e4f4", "e4g4", "e4h4"],
        ),
        // Alone, with an enemy on f6 two diagonal steps away: nothing.
        ("7k/8/5m2/8/3M4/8/8/K7 w 0 1", "d4", &[]),
        // The King on e1, two diagonal steps from c3, stops c3's slide, not d3's.
        ("7k/8/8/8/8/2MM4/8/4K3 w 0 1", "c3", &["c3c2", "c3c4"]),
        (
            "7k/8/8/8/8/2MM4/8/4K3 w 0 1",
            "d3",
            &["d3d2", "d3d4", "d3e3", "d3f3", "d3g3", "d3h3"],
        ),
        // Alone on c3: only back.
        ("7k/8/8/8/8/2M5/8/4K3 w 0 1", "c3", &["c3c2"]),
        // An enemy beside c3 is no friend: no step forward.
        (
            "7k/8/8/8/8/2Mm4/8/7K w 0 1",
            "c3",
            &["c3a3", "c3b3", "c3c2"],
        ),
        // Black's Men on d5 and e5: forward is south.
        (
            "7k/8/8/3mm3/8/8/8/K7 b 0 1",
            "d5",
            &["d5a5", "d5b5", "d5c5", "d5d4"],
        ),
    ];
    near_cases(&rules, &cases);
    let turned = Turned::new(rules.variant());
    let mut t = NearTally::default();
    for seed in 0..size.of_u64(16) {
        near_game(
            &rules,
            &turned,
            Setup::start(&rules),
            500 + seed,
            120,
            &mut t,
        );
    }
    let seen = format!("{t:?}");
    println!("near: {seen}");
    assert!(t.positions > size.of(1000), "{seen}");
    assert!(
        t.near_refused > size.of(500) && t.near_allowed > size.of(500),
        "{seen}"
    );
    assert!(
        t.not_refused > size.of(50) && t.not_allowed > size.of(500),
        "{seen}"
    );
}

/// Random games of `file` from `starts`, moves that end the game or capture preferred
/// now and then; after every move the reference and the runtime agree on whether the
/// game is over, how, and who won. Returns how many games each end rule decided.
fn ends_agree_along_games(
    file: &str,
    starts: &[&str],
    games: usize,
    seed: u64,
) -> std::collections::BTreeMap<usize, usize> {
    use variantlab::variant::Event;
    let v = load(file);
    let rules = compiled(&v, &[]);
    // The reference ignores repetition and quiet moves.
    let unjudged = |rule: usize| {
        matches!(
            v.end_rules[rule].event(),
            Some(Event::Repetition(..) | Event::PliesWithoutCapture(..))
        )
    };
    let mut rng = Lcg(seed);
    let mut ends = std::collections::BTreeMap::new();
    for game_no in 0..games {
        let text = starts[game_no % starts.len()];
        let setup = variantlab::parse_position(&rules, text).unwrap();
        let mut game = Game::new(rules.clone(), setup).unwrap();
        let mut slow = simple(&rules, game.position());
        for _ in 0..200 {
            // In a fixed order, so that the games do not depend on the generator's.
            let mut moves = game.legal_moves();
            moves.sort_by_key(|m| (m.from, m.to, m.tag, m.promotion, m.piece));
            if moves.is_empty() {
                break;
            }
            let ending: Vec<_> = moves
                .iter()
                .filter(|m| {
                    let mut g = game.clone();
                    g.play(**m).unwrap();
                    g.ending().is_some()
                })
                .collect();
            let captures: Vec<_> = moves.iter().filter(|m| m.captured.is_some()).collect();
            let m = if !ending.is_empty() && rng.below(2) == 0 {
                *ending[rng.below(ending.len())]
            } else if !captures.is_empty() && rng.below(3) == 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let kind = reference_kind(&m);
            let (next, want) = reference::play_named(
                &v,
                rules.options(),
                &slow,
                (m.from, m.to, m.tag, kind),
                None,
                None,
            );
            let text = variantlab::write_move(&v, &m);
            game.play(m).unwrap();
            assert_eq!(
                (&next.cells, &next.hands),
                (&slow_of(&rules, &game).cells, &slow_of(&rules, &game).hands),
                "{file}: boards differ after {text}"
            );
            slow = next;
            let got = game.ending().map(|e| (e.outcome, e.winner(), e.rule));
            if got.is_some_and(|g| unjudged(g.2)) {
                break;
            }
            let want = want.map(|e| (e.0, reference::winner(e, slow.to_move)));
            assert_eq!(
                got.map(|g| (g.0, g.1)),
                want,
                "{file}: ends differ after {text} at {}",
                game.position_string()
            );
            if let Some((.., rule)) = got {
                *ends.entry(rule).or_insert(0) += 1;
                break;
            }
        }
    }
    ends
}

/// The game's position as the reference reads it.
fn slow_of(rules: &Arc<Rules>, game: &Game) -> reference::Simple {
    simple(rules, game.position())
}

#[test]
fn races_tries_and_holds_end_as_the_reference_says() {
    // Each file's end rules about a player in a zone, and which of them must have
    // decided some game.
    for (file, starts, games, deciding) in [
        (
            "racingkings.var",
            &[
                "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
                "8/8/8/8/8/2k2K2/8/8 w - - 0 1",
                "8/8/8/1k6/8/8/4K3/8 w - - 0 1",
                "8/8/3r4/1k6/8/5RK1/8/8 w - - 0 1",
                // Kings a step from the goal: White arrives, and Black may answer.
                "8/2k3K1/8/8/8/8/8/8 w - - 0 1",
                "8/1k6/6K1/3R4/8/8/8/8 w - - 0 1",
            ][..],
            90,
            &[0, 1, 2][..],
        ),
        (
            "dobutsu.var",
            &[
                "gle/1c1/1C1/ELG b - 1",
                // A Lion a step from the far rank, and one there already but attacked.
                "g2/2L/l2/2G b - 1",
                "2e/1L1/3/1lG w - 1",
            ][..],
            60,
            &[0, 2][..],
        ),
        ("jesonmor.var", &[][..], 20, &[0][..]),
        (
            "kingofthehill.var",
            &[
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                "r3k3/pp6/8/8/8/8/6PP/4K2R w - - 0 1",
            ][..],
            30,
            &[0][..],
        ),
    ] {
        let start = common::rules(file);
        let text = variantlab::write_position(&start, &Setup::start(&start));
        let starts: Vec<&str> = if starts.is_empty() {
            vec![text.as_str()]
        } else {
            starts.to_vec()
        };
        let ends = ends_agree_along_games(file, &starts, games, 89);
        eprintln!("{file}: games decided, rule by rule: {ends:?}");
        for rule in deciding {
            assert!(
                ends.contains_key(rule),
                "{file}: rule {rule} never ended a game: {ends:?}"
            );
        }
    }
}

/// Rules about a player tried first in `file`, each in a variant of its own, with the
/// zone `centre` added.
fn with_first_rules(file: &str, centre: &str, rules: &[&str]) -> Vec<(Variant, Arc<Rules>)> {
    let path = format!("{}/variants/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    rules
        .iter()
        .map(|rule| {
            let text = text.replace(
                "game ends {\n",
                &format!("zone centre: {centre}\ngame ends {{\n  {rule}: that player wins\n"),
            );
            let checked = check(file, &text);
            let v = checked
                .variant
                .unwrap_or_else(|| panic!("{rule}: {}", checked.report.render(100, false)));
            let r = compiled(&v, &[]);
            (v, r)
        })
        .collect()
}

/// Whether a game from `setup` is over, and who won, as the runtime and the reference
/// judge it in each variant; they must agree. Counts, by variant, the positions over.
fn verdicts_agree(variants: &[(Variant, Arc<Rules>)], setup: &Setup, at: &str, over: &mut [usize]) {
    for (i, (v, r)) in variants.iter().enumerate() {
        let game = Game::new(r.clone(), setup.clone()).unwrap_or_else(|e| panic!("{at}: {e}"));
        let got = game.ending().map(|e| (e.outcome, e.winner()));
        let slow = simple(r, game.position());
        let want = reference::verdict(v, r.options(), &slow)
            .map(|e| (e.0, reference::winner(e, slow.to_move)));
        assert_eq!(
            got,
            want,
            "{}: the runtime and the reference differ at {at}",
            v.rule_text(&v.end_rules[0])
        );
        over[i] += usize::from(got.is_some());
    }
}

/// A way of picking a move: `None` leaves the pick to chance.
type Picker<'a> = dyn Fn(&mut Lcg, &Position, &[Move]) -> Option<Move> + 'a;

/// Plays `games` games of at most `plies` from the start, each move the `prefer`
/// pick where it makes one, else a capture one time in three, else any; calls `look`
/// on every position before its move. Returns the positions looked at.
fn random_games(
    plain: &Arc<Rules>,
    games: usize,
    plies: usize,
    seed: u64,
    prefer: Option<&Picker<'_>>,
    mut look: impl FnMut(&Game),
) -> usize {
    let mut rng = Lcg(seed);
    let mut positions = 0;
    for _ in 0..games {
        let mut game = Game::new(plain.clone(), Setup::start(plain)).unwrap();
        for _ in 0..plies {
            look(&game);
            positions += 1;
            let mut moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            if prefer.is_some() {
                // A picker sees the moves in cell order: its ties fall the same way
                // whatever order the generator lists them in.
                moves.sort_by_key(|m| (m.from, m.to, m.tag, m.promotion, m.piece, m.wall));
            }
            let captures: Vec<_> = moves.iter().filter(|m| m.captured.is_some()).collect();
            let preferred = prefer.and_then(|f| f(&mut rng, game.position(), &moves));
            let m = if let Some(m) = preferred {
                m
            } else if !captures.is_empty() && rng.below(3) == 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            game.play(m).unwrap();
            if game.ending().is_some() {
                break;
            }
        }
    }
    positions
}

#[test]
fn conditions_about_a_player_agree_with_the_reference_along_random_games() {
    for (file, centre, rules, games) in [
        (
            "chess.var",
            "d4 e4 d5 e5",
            &[
                "a player has at least 2 attacked pieces",
                "the player to move has a defended Queen",
                "every player has an undefended Knight or Bishop",
                "a player has at least 4 Pawn on one colour",
                "a player has no Pawn on one colour",
                "a player has at least 2 pieces between two Rook",
                "a player has a Pawn between two Knight",
                "White can capture an undefended Pawn",
                "a player can capture a defended pieces",
                "the player to move can move a Knight into centre",
                "the player to move can move an attacked Knight into centre",
                "a player has only unattacked royal pieces on the board",
                "a player has an attacked Pawn in centre",
            ][..],
            6,
        ),
        (
            "glinski-chess.var",
            "f6 e5 g5 f5",
            &[
                "a player has at least 4 Pawn on one colour",
                "a player has a pieces between two Bishop",
                "a player has a Pawn between two Knight",
                "a player has an undefended Pawn",
                "a player can capture an undefended pieces",
            ][..],
            3,
        ),
        (
            "shogi.var",
            "5e 4e 6e",
            &[
                "a player has at least 9 unattacked Pawn",
                "a player has an unattacked Pawn in hand",
                "a player has at least 6 undefended non-royal pieces",
                // In hand only the states the runtime judges as the language says.
                "a player has an attacked Silver or Gold on the board",
                "a player can move a Pawn into centre",
            ][..],
            3,
        ),
    ] {
        let variants = with_first_rules(file, centre, rules);
        let plain = compiled(&load(file), &[]);
        let mut over = vec![0; rules.len()];
        let positions = random_games(&plain, games, 80, 101, None, |game| {
            let at = game.position_string();
            verdicts_agree(&variants, &game.position().to_setup(&plain), &at, &mut over);
        });
        eprintln!("{file}: {positions} positions; over, rule by rule: {over:?}");
        for (rule, n) in rules.iter().zip(&over) {
            assert!(
                *n > 0 && *n < positions,
                "{file}: `{rule}` over in {n} of {positions}"
            );
        }
    }
}

#[test]
fn redraw_conditions_agree_with_the_reference_on_shuffled_setups() {
    // The zone each file's variants add is not used.
    for (file, draws, zone) in [
        ("fischerandom.var", 60, "a1"),
        ("caparandom.var", 60, "a1"),
        ("hexcetran-chess.var", 300, "a6"),
    ] {
        let v = load(file);
        let random = v.random.as_ref().expect("a random setup");
        let texts: Vec<String> = random
            .redraw
            .iter()
            .map(|r| v.condition_text(&r.condition, false))
            .collect();
        let rules: Vec<&str> = texts.iter().map(String::as_str).collect();
        let variants = with_first_rules(file, zone, &rules);
        let plain = compiled(&v, &[]);
        let mut over = vec![0; rules.len()];
        let mut judged = 0;
        let mut rng = Lcg(103);
        for seed in 0..draws {
            // A drawn setup keeps every redraw rule, by the reference too.
            let drawn = Setup::seeded(&plain, seed).unwrap();
            let pos = Position::from_setup(&plain, &drawn).unwrap();
            for r in &random.redraw {
                let holds = reference::condition_holds(
                    &v,
                    plain.options(),
                    &simple(&plain, &pos),
                    &r.condition,
                )
                .is_some();
                assert_eq!(
                    holds,
                    r.unless,
                    "{file} seed {seed}: {} in a drawn setup",
                    v.condition_text(&r.condition, false)
                );
            }
            // The drawn pieces shuffled over their cells again, unchecked.
            let mut shuffled = drawn.clone();
            for pool in &random.pools {
                let mut held: Vec<_> = pool.cells.iter().map(|c| drawn.cells[c.index()]).collect();
                for i in (1..held.len()).rev() {
                    held.swap(i, rng.below(i + 1));
                }
                for (c, p) in pool.cells.iter().zip(held) {
                    shuffled.cells[c.index()] = p;
                }
            }
            shuffled.castling.clear();
            // A shuffle that leaves the player not to move in check is no position.
            if Position::from_setup(&plain, &shuffled).is_err() {
                continue;
            }
            let at = format!("{file} seed {seed} shuffled");
            verdicts_agree(&variants, &shuffled, &at, &mut over);
            judged += 1;
        }
        eprintln!("{file}: {judged} shuffled setups; over, rule by rule: {over:?}");
        assert!(over.iter().all(|n| *n > 0), "{file}: {over:?}");
    }
}

/// Pieces that promote by several statements each: a Soldier on entering its camp or
/// on a capture in it; a Lance on entering its camp or moving from it, forced where it
/// could never move again; a Chariot on moving from its camp or entering the far rank;
/// a Pawn by White's own two statements, and Black's by the one naming no player.
const WAYS: &str = r#"
name "Ways to promote"
board square 7 by 7
player White: forward north, capitals
player Black: forward south, lowercase
zone camp: far 2 ranks
zone far: last cell of each file
zone half: far 4 ranks
piece King (K) {
  royal
  step 1 any
}
piece Soldier (S) {
  step 1 orthogonal
  may promote on entering camp to Gold
  may promote on capturing in camp to Gold
}
piece Lance (L) {
  slide straight forward
  may promote on entering camp to Gold, forced where it could never move again
  may promote on moving from camp to Gold, forced where it could never move again
}
piece Pawn (P) {
  step 1 straight forward, to empty
  step 2 straight forward, to empty, from start, en passant by Pawn
  step 1 forward diagonal, to enemy
  promotes on entering far to Queen or Knight for White
  promotes on capturing in half to Queen or Knight for White
  promotes on entering half to Dragon or Knight
}
piece Chariot (C) {
  slide orthogonal
  promotes on moving from camp to Dragon
  promotes on entering far to Dragon
}
piece Gold (G) {
  step 1 orthogonal
  step 1 forward diagonal
}
piece Dragon (D) {
  slide orthogonal
  step 1 diagonal
}
piece Queen (Q) {
  slide any
}
piece Knight (N) {
  leap 1 orthogonal then 1 outward diagonal
}
setup {
  White: Lance a1 g1, Knight b1, Gold c1 e1, King d1, Chariot f1, Pawn a2 b2 c2 d2 e2 f2 g2, Soldier b3 f3
  Black: Lance a7 g7, Knight b7, Gold c7 e7, King d7, Chariot f7, Pawn a6 b6 c6 d6 e6 f6 g6, Soldier b5 f5
}
game ends {
  checkmate: mover wins
  stalemate: draw
}
"#;

fn ways(hands: bool) -> (Variant, Arc<Rules>) {
    let text = if hands {
        // The Chariot declared before the Pawn: a marked Dragon then goes to hand as
        // a Chariot whoever's it is, a reading both generators share.
        let chariot = &WAYS[WAYS.find("piece Chariot").unwrap()..WAYS.find("piece Gold").unwrap()];
        WAYS.replace(chariot, "")
            .replace("piece Pawn", &format!("{chariot}piece Pawn"))
            .replace("game ends {", "captured pieces go to hand\ngame ends {")
    } else {
        WAYS.to_string()
    };
    let checked = check("ways.var", &text);
    let v = checked
        .variant
        .unwrap_or_else(|| panic!("{}", checked.report.render(100, false)));
    let rules = compiled(&v, &[]);
    (v, rules)
}

/// The moves of a key list from `from`, written `b4c5q` (the kind made, if any), sorted.
fn moves_with_kinds(v: &Variant, keys: &BTreeSet<Key>, from: &str) -> Vec<String> {
    let name = |c: u16| v.board.name(Cell(c)).to_lowercase();
    let mut out: Vec<String> = keys
        .iter()
        .filter(|k| name(k.0) == from)
        .map(|(f, t, _, k, _, _)| {
            let code = k.map_or(String::new(), |k| {
                v.piece(variantlab::PieceId(k)).code.to_lowercase()
            });
            format!("{}{}{code}", name(*f), name(*t))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn several_promotion_statements_agree_with_the_reference_by_hand() {
    use variantlab::{parse_move, parse_position};
    let (v, rules) = ways(false);
    let options = rules.options();
    // White's camp is ranks 6 and 7, its half ranks 4 to 7; Black's ranks 1 and 2,
    // and 1 to 4.
    let text = "1C2s1k/2p1SL1/L5S/1P1C3/7/7/K6 b - 0 1";
    let mut game = Game::new(rules.clone(), parse_position(&rules, text).unwrap()).unwrap();
    let slow = simple(&rules, game.position());
    let keys = reference_keys(&v, options, &slow);
    assert_eq!(runtime_moves(&rules, game.position()), keys, "{text}");
    // Black's Pawn promotes by the statement naming no player, on entering its half
    // (c4) and to what that statement names; c5 lies outside the half.
    assert_eq!(
        moves_with_kinds(&v, &keys, "c6"),
        ["c6c4d", "c6c4n", "c6c5"]
    );
    let m = parse_move(&rules, game.position(), "c6c4n").unwrap();
    let (next, _) = reference::play(&v, options, &slow, (m.from, m.to, m.tag, m.promotion));
    game.play(m).unwrap();
    let keys = reference_keys(&v, options, &next);
    let at = game.position_string();
    assert_eq!(runtime_moves(&rules, game.position()), keys, "{at}");
    let cases: [(&str, &[&str]); 7] = [
        // White's Pawn: b5 lies in its half, but the step takes nothing; taking the
        // Knight in passing on c5 is a capture in the half (White's second statement).
        ("b4", &["b4b5", "b4c5n", "b4c5q"]),
        // Entering the camp may promote; steps outside it do not.
        ("g5", &["g5f5", "g5g4", "g5g6", "g5g6g"]),
        // In the camp: the capture on e7 may promote, the quiet step to d6 does not.
        ("e6", &["e6d6", "e6e5", "e6e7", "e6e7g"]),
        // Entering the camp on a6 may promote; on a7 it could never move again.
        ("a5", &["a5a6", "a5a6g", "a5a7g"]),
        // From the camp, onto a cell where it could never move again: the Lance's
        // second statement, forced.
        ("f6", &["f6f7g"]),
        // Only entering the far rank promotes: d6 is in the camp, not the far rank.
        (
            "d4",
            &[
                "d4c4", "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4d7d", "d4e4", "d4f4", "d4g4",
            ],
        ),
        // From the camp, every move promotes, out of it too.
        (
            "b7",
            &["b7a7d", "b7b5d", "b7b6d", "b7c7d", "b7d7d", "b7e7d"],
        ),
    ];
    for (from, want) in cases {
        assert_eq!(moves_with_kinds(&v, &keys, from), want, "{at}: {from}");
    }
}

/// What [`several_promotion_statements_agree_with_the_reference`] compared.
#[derive(Debug, Default)]
struct WaysTally {
    positions: usize,
    promotions: usize,
    /// Promotions that the first statement for the player alone would not make.
    by_a_later_statement: usize,
    /// Promotions of Black's Pawns, by the statement naming no player.
    black_pawns: usize,
    /// Promotions by a capture in passing.
    in_passing: usize,
    /// Captures of a piece a move promoted, with hands.
    promoted_captured: usize,
}

/// `v` with, for each piece, only its first promotion statement for each player.
fn first_statements(v: &Variant) -> Variant {
    let mut out = v.clone();
    for piece in &mut out.pieces {
        let mut seen = Vec::new();
        piece.promotion.retain(|p| {
            let first = !seen.contains(&p.player);
            seen.push(p.player);
            first
        });
    }
    out
}

/// A random game of [`WAYS`] from its start, the reference playing along: at every
/// ply both generators agree on the moves, and the reference's board, hands and marks
/// after a move agree with the runtime's. Promotions and captures are preferred now
/// and then.
fn ways_game(v: &Variant, rules: &Arc<Rules>, seed: u64, plies: usize, t: &mut WaysTally) {
    let options = rules.options();
    let first = first_statements(v);
    let pawn = v.find_piece("P").unwrap();
    let black = v.find_player("Black").unwrap();
    let mut game = Game::new(rules.clone(), Setup::start(rules)).unwrap();
    let mut slow = simple(rules, game.position());
    let mut rng = Lcg(seed);
    for _ in 0..plies {
        let at = game.position_string();
        let want = reference_keys(v, options, &slow);
        assert_eq!(
            runtime_moves(rules, game.position()),
            want,
            "seed {seed}: generators differ at {at}"
        );
        t.positions += 1;
        let promotions = promoting(&slow, &want);
        t.promotions += promotions.len();
        let fewer = promoting(&slow, &reference_keys(&first, options, &slow));
        t.by_a_later_statement += promotions.difference(&fewer).count();
        for k in &promotions {
            let (owner, kind) = slow.cells[k.0 as usize].unwrap();
            t.black_pawns += usize::from(owner == black && kind == pawn);
            // A Pawn's step aside onto an empty cell takes in passing.
            let aside = v.board.point(Cell(k.0)).0 != v.board.point(Cell(k.1)).0;
            t.in_passing +=
                usize::from(kind == pawn && aside && slow.cells[k.1 as usize].is_none());
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let promoting_moves: Vec<_> = moves.iter().filter(|m| m.promotion.is_some()).collect();
        let captures: Vec<_> = moves.iter().filter(|m| m.captured.is_some()).collect();
        let pick = |list: &[&Move], rng: &mut Lcg| {
            (!list.is_empty() && rng.below(3) == 0).then(|| *list[rng.below(list.len())])
        };
        let m = pick(&promoting_moves, &mut rng)
            .or_else(|| pick(&captures, &mut rng))
            .unwrap_or_else(|| moves[rng.below(moves.len())]);
        t.promoted_captured += usize::from(m.captured.is_some() && slow.promoted.contains(&m.to));
        let kind = reference_kind(&m);
        let (next, _) = reference::play(v, options, &slow, (m.from, m.to, m.tag, kind));
        let text = variantlab::write_move(v, &m);
        game.play(m).unwrap();
        let after = simple(rules, game.position());
        assert_eq!(
            (&next.cells, &next.hands, &next.promoted),
            (&after.cells, &after.hands, &after.promoted),
            "seed {seed}: positions differ after {text} at {at}"
        );
        slow = next;
        if game.ending().is_some() {
            break;
        }
    }
}

#[test]
fn several_promotion_statements_agree_with_the_reference() {
    for hands in [false, true] {
        let (v, rules) = ways(hands);
        let mut t = WaysTally::default();
        for seed in 0..16 {
            ways_game(&v, &rules, 300 + seed, 150, &mut t);
        }
        let seen = format!("hands {hands}: {t:?}");
        println!("{seen}");
        assert!(t.positions > 1500, "{seen}");
        assert!(t.by_a_later_statement > 0 && t.black_pawns > 0, "{seen}");
        assert!(t.in_passing > 0, "{seen}");
        assert!(!hands || t.promoted_captured > 0, "{seen}");
    }
}

/// The kind a reference move names: the kind promoted to, or the kind dropped.
fn reference_kind(m: &variantlab::Move) -> Option<variantlab::variant::PieceId> {
    m.promotion
        .or((m.special == Special::Drop).then_some(m.piece))
}

// ---- Captures by enclosure ------------------------------------------------------------

/// What [`enclosure_game`] compared and played.
#[derive(Debug, Default)]
struct EnclosureTally {
    /// Positions at which both generators listed the same moves.
    positions: usize,
    /// Moves played after which the board agreed.
    moves: usize,
    /// Moves played that captured by enclosure, and the pieces they took so.
    enclosing: usize,
    taken: usize,
    /// Pieces of the guarded kind (taken only when enclosed on every side) taken so,
    /// and of those the ones taken on the guarded zone's cells (where it has one).
    guarded_taken: usize,
    guarded_in_zone: usize,
    /// In a game with `rows along the edge facing enemies too`: moves that took two or
    /// more pieces side by side on one edge of the board (shield walls), and of those
    /// the ones after which a guarded piece of the row's owner stands beside one taken,
    /// on that edge (it was in the row and stayed).
    rows: usize,
    rows_with_guarded: usize,
    /// Games each end rule decided, by the rule's index.
    ends: std::collections::BTreeMap<usize, usize>,
}

/// How many pieces of players other than `me` stand on the board.
fn enemies_of(
    cells: &[Option<(variantlab::PlayerId, variantlab::PieceId)>],
    me: variantlab::PlayerId,
) -> usize {
    cells.iter().flatten().filter(|(p, _)| *p != me).count()
}

/// How many pieces a runtime move takes by enclosure: the enemies gone from the board
/// but the one it captures on its end.
fn taken_by_enclosure(rules: &Arc<Rules>, pos: &Position, m: &Move) -> usize {
    let before = simple(rules, pos);
    let mut after = pos.clone();
    after.make_unchecked(rules, m);
    let after = simple(rules, &after);
    let me = before.to_move;
    (enemies_of(&before.cells, me) - usize::from(m.captured.is_some()))
        .saturating_sub(enemies_of(&after.cells, me))
}

/// A random game of a variant that captures by enclosure, from its start. At every
/// ply both generators list the same moves; the reference plays the move chosen on its
/// own position, carried from the start, and its board, hands and side to move must be
/// the runtime's after the move; both must agree on whether the game is over, how and
/// who won, `N plies without capture` counted here with [`reference::captures`] (the
/// reference counts no plies itself). Moves that capture by enclosure are preferred
/// half the time, captures on a move's end a third of the rest. `guarded` is the kind
/// taken only when enclosed on every side. Returns position strings reached along
/// the game, every `every` plies, for perft.
fn enclosure_game(
    v: &Variant,
    rules: &Arc<Rules>,
    seed: u64,
    plies: usize,
    guarded: variantlab::PieceId,
    every: usize,
    t: &mut EnclosureTally,
) -> Vec<String> {
    let play = EnclosurePlay {
        from: None,
        prefer: None,
        judged: 0,
    };
    enclosure_game_with(v, rules, &play, seed, plies, guarded, every, t)
}

/// Picks a move from the legal moves (in a fixed order) of a position, or leaves the
/// choice to the random play.
type Prefer<'a> = &'a dyn Fn(&mut Lcg, &Position, &[Move]) -> Option<Move>;

/// Where [`enclosure_game_with`] starts and how it plays.
struct EnclosurePlay<'a> {
    /// The position string to start from; the variant's start when `None`.
    from: Option<&'a str>,
    /// Asked first at every ply.
    prefer: Option<Prefer<'a>>,
    /// How many leading end rules are judged from the position alone: after every
    /// move, the rule among them the runtime says ended the game must be the first of
    /// them whose condition the reference says holds (and none, when the runtime
    /// names none of them).
    judged: usize,
}

/// [`enclosure_game`] from `play.from`, preferring `play.prefer`'s moves, and with
/// the rules `play.judged` names checked one by one.
#[allow(clippy::too_many_arguments)]
fn enclosure_game_with(
    v: &Variant,
    rules: &Arc<Rules>,
    play: &EnclosurePlay,
    seed: u64,
    plies: usize,
    guarded: variantlab::PieceId,
    every: usize,
    t: &mut EnclosureTally,
) -> Vec<String> {
    use variantlab::variant::Event;
    let options = rules.options();
    let name = &v.name;
    // The reference does not judge repetitions.
    let unjudged = |rule: usize| matches!(v.end_rules[rule].event(), Some(Event::Repetition(..)));
    // `N plies without capture`, the last rule where a game has one: its index and N.
    let quiet_rule = v
        .end_rules
        .iter()
        .enumerate()
        .find_map(|(i, r)| match r.event() {
            Some(Event::PliesWithoutCapture(n, kinds, drops)) => {
                assert!(kinds == 0 && !drops, "{name}: a plain count only");
                assert_eq!(
                    i + 1,
                    v.end_rules.len(),
                    "{name}: the count's rule comes last"
                );
                Some((i, n))
            }
            _ => None,
        });
    let guarded_zone = v
        .enclosure
        .as_ref()
        .and_then(|e| e.every_side)
        .and_then(|(_, z)| z);
    let mut rng = Lcg(seed);
    let (mut game, mut slow) = match play.from {
        None => {
            let game = Game::new(rules.clone(), Setup::start(rules)).expect("start");
            let slow = reference::start(v);
            assert_eq!(
                slow.cells,
                simple(rules, game.position()).cells,
                "{name}: the starts differ"
            );
            (game, slow)
        }
        Some(text) => {
            let setup = variantlab::parse_position(rules, text)
                .unwrap_or_else(|e| panic!("{name}: {text}: {e:?}"));
            let game = Game::new(rules.clone(), setup).expect("a position");
            let slow = simple(rules, game.position());
            (game, slow)
        }
    };
    let mut quiet = 0u32;
    let mut reached = Vec::new();
    for ply in 0..plies {
        let at = game.position_string();
        if every > 0 && ply % every == every - 1 {
            reached.push(at.clone());
        }
        let pos = game.position().clone();
        assert_eq!(
            runtime_moves(rules, &pos),
            reference_keys(v, options, &slow),
            "{name}: generators differ at {at}"
        );
        t.positions += 1;
        // In a fixed order, so that the games do not depend on the generator's.
        let mut moves = game.legal_moves();
        moves.sort_by_key(|m| (m.from, m.to, m.tag, m.promotion, m.piece));
        if moves.is_empty() {
            break;
        }
        let enclosing: Vec<&Move> = moves
            .iter()
            .filter(|m| taken_by_enclosure(rules, &pos, m) > 0)
            .collect();
        let captures: Vec<&Move> = moves.iter().filter(|m| m.captured.is_some()).collect();
        let preferred = play.prefer.and_then(|f| f(&mut rng, &pos, &moves));
        let m = if let Some(m) = preferred {
            m
        } else if !enclosing.is_empty() && rng.below(2) == 0 {
            *enclosing[rng.below(enclosing.len())]
        } else if !captures.is_empty() && rng.below(3) == 0 {
            *captures[rng.below(captures.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        let text = variantlab::write_move(v, &m);
        let (from, to) = written(v, &m);
        let mv = (from, to, m.tag, reference_kind(&m));
        let gate = m.gate;
        let took = reference::captures(v, options, &slow, mv, m.wall, gate);
        let (next, want) = reference::play_named(v, options, &slow, mv, m.wall, gate);
        let taken = taken_by_enclosure(rules, &pos, &m);
        game.play(m).unwrap();
        let now = simple(rules, game.position());
        assert_eq!(
            (&next.cells, &next.hands, next.to_move),
            (&now.cells, &now.hands, now.to_move),
            "{name}: positions differ after {text} at {at}"
        );
        t.moves += 1;
        assert_eq!(
            took,
            m.captured.is_some() || taken > 0,
            "{name}: whether {text} captures, at {at}"
        );
        if taken > 0 {
            t.enclosing += 1;
            t.taken += taken;
            let me = slow.to_move;
            let gone: Vec<Cell> = v
                .board
                .cells()
                .filter(|c| {
                    slow.cells[c.index()].is_some_and(|(p, k)| p != me && k == guarded)
                        && next.cells[c.index()].is_none_or(|(_, k)| k != guarded)
                        && *c != to
                })
                .collect();
            t.guarded_taken += gone.len();
            t.guarded_in_zone += gone
                .iter()
                .filter(|c| {
                    guarded_zone.is_some_and(|z| {
                        let owner = slow.cells[c.index()].unwrap().0;
                        v.zones[z].cells[owner.0 as usize].contains(c)
                    })
                })
                .count();
            if v.enclosure.as_ref().is_some_and(|e| e.edge_rows) {
                let gone = taken_cells(&slow.cells, &next.cells, me, to);
                if row_along_edge(v, &gone) {
                    t.rows += 1;
                    let stayed = v.board.cells().any(|g| {
                        next.cells[g.index()].is_some_and(|(p, k)| p != me && k == guarded)
                            && gone.iter().any(|&x| side_by_side_on_edge(v, g, x))
                    });
                    t.rows_with_guarded += usize::from(stayed);
                }
            }
        }
        quiet = if took { 0 } else { quiet + 1 };
        slow = next;
        let got = game.ending().map(|e| (e.outcome, e.winner(), e.rule));
        // The leading rules one by one, judged on the position alone.
        let first = (0..play.judged).find(|&r| {
            reference::condition_holds(v, options, &slow, &v.end_rules[r].condition).is_some()
        });
        assert_eq!(
            got.map(|g| g.2).filter(|&r| r < play.judged),
            first,
            "{name}: the rules that end the game differ after {text} at {at}"
        );
        if let Some((.., rule)) = got
            && unjudged(rule)
        {
            *t.ends.entry(rule).or_insert(0) += 1;
            break;
        }
        let mut want = want.map(|e| (e.0, reference::winner(e, slow.to_move)));
        if let Some((rule, n)) = quiet_rule
            && want.is_none()
            && quiet >= n
        {
            let outcome = v.end_rules[rule].outcome;
            want = Some((outcome, reference::winner((outcome, None), slow.to_move)));
        }
        assert_eq!(
            got.map(|g| (g.0, g.1)),
            want,
            "{name}: ends differ after {text} at {at} ({quiet} plies without capture)"
        );
        if let Some((.., rule)) = got {
            *t.ends.entry(rule).or_insert(0) += 1;
            break;
        }
    }
    reached
}

/// Depth-3 perft from each position string, the runtime's against the reference's.
fn enclosure_perft(v: &Variant, rules: &Arc<Rules>, texts: &[String]) {
    for text in texts {
        let setup = variantlab::parse_position(rules, text).unwrap();
        let mut pos = Position::from_setup(rules, &setup).unwrap();
        let want = reference::perft(v, rules.options(), &simple(rules, &pos), 3);
        assert_eq!(
            variantlab::perft(rules, &mut pos, 3),
            want,
            "{}: perft 3 at {text}",
            v.name
        );
    }
}

#[test]
fn tafl_agrees_with_the_reference() {
    let v = load("tablut.var");
    let rules = compiled(&v, &[]);
    let king = v.find_piece("King").unwrap();
    let mut t = EnclosureTally::default();
    for seed in 0..60 {
        enclosure_game(&v, &rules, 500 + seed, 200, king, 0, &mut t);
    }
    let seen = format!("tablut: {t:?}");
    println!("{seen}");
    assert!(t.positions > 1000, "{seen}");
    assert!(t.enclosing > 100 && t.taken > 150, "{seen}");
    assert!(t.guarded_taken > 0, "{seen}");
}

#[test]
fn tafl_perft_agrees_with_the_reference() {
    let v = load("tablut.var");
    let rules = compiled(&v, &[]);
    let king = v.find_piece("King").unwrap();
    let mut t = EnclosureTally::default();
    let mut texts = Vec::new();
    for seed in 0..3 {
        texts.extend(enclosure_game(&v, &rules, 700 + seed, 60, king, 15, &mut t));
    }
    println!("tablut perft from {texts:?}");
    assert!(texts.len() >= 3, "{texts:?}");
    // By hand: the King in the castle with enemies on three sides, the fourth coming
    // (a6-e6 takes him), or a Swede on it; the King next to the castle, taken between
    // two (c4 and a Muscovite landing on e4); a Muscovite that may not cross the empty
    // castle.
    texts.extend(
        [
            "9/9/9/m8/3mKm3/4m4/9/9/8S b 0 1",
            "9/9/9/m3S4/3mKm3/4m4/9/9/8S b 0 1",
            "9/9/9/9/9/2mK4m/9/9/S8 b 0 1",
            "9/9/9/9/m7S/9/9/4K4/9 b 0 1",
        ]
        .map(String::from),
    );
    enclosure_perft(&v, &rules, &texts);
}

/// From the position `text`, every legal move played by both sides: the same moves,
/// then after each the same board, hands and side to move, and the same end (the
/// reference judging no repetition and counting no plies). Returns how many moves
/// captured by enclosure and how many ended the game.
fn successors_agree(v: &Variant, rules: &Arc<Rules>, text: &str) -> (usize, usize) {
    let options = rules.options();
    let setup = variantlab::parse_position(rules, text).unwrap();
    let game = Game::new(rules.clone(), setup).unwrap();
    let slow = simple(rules, game.position());
    assert_eq!(
        runtime_moves(rules, game.position()),
        reference_keys(v, options, &slow),
        "{}: generators differ at {text}",
        v.name
    );
    let (mut enclosing, mut ended) = (0, 0);
    for m in game.legal_moves() {
        let move_text = variantlab::write_move(v, &m);
        let (from, to) = written(v, &m);
        let mv = (from, to, m.tag, reference_kind(&m));
        let (next, want) = reference::play_named(v, options, &slow, mv, m.wall, m.gate);
        enclosing += usize::from(taken_by_enclosure(rules, game.position(), &m) > 0);
        let mut g = game.clone();
        g.play(m).unwrap();
        let now = simple(rules, g.position());
        assert_eq!(
            (&next.cells, &next.hands, next.to_move),
            (&now.cells, &now.hands, now.to_move),
            "{}: positions differ after {move_text} at {text}",
            v.name
        );
        let got = g.ending().map(|e| (e.outcome, e.winner()));
        let want = want.map(|e| (e.0, reference::winner(e, next.to_move)));
        assert_eq!(
            got, want,
            "{}: ends differ after {move_text} at {text}",
            v.name
        );
        ended += usize::from(got.is_some());
    }
    (enclosing, ended)
}

#[test]
fn tafl_captures_by_hand_agree_with_the_reference() {
    let v = load("tablut.var");
    let rules = compiled(&v, &[]);
    // (position, moves that capture by enclosure, moves that end the game).
    for (text, enclosing, ended) in [
        // The King in the castle, enemies on three sides: a6-e6 takes him.
        ("9/9/9/m8/3mKm3/4m4/9/9/8S b 0 1", 1, 1),
        // A Swede on the fourth side: nobody is taken.
        ("9/9/9/m3S4/3mKm3/4m4/9/9/8S b 0 1", 0, 0),
        // Next to the castle, the King is taken between two: i4-e4.
        ("9/9/9/9/9/2mK4m/9/9/S8 b 0 1", 1, 1),
        // On the castle's row, a Muscovite may not cross the empty castle.
        ("9/9/9/9/m7S/9/9/4K4/9 b 0 1", 0, 0),
        // Two Swedes between Muscovites stay (a5-d5, with d2 past d3 and d4); one is
        // taken (g1-g3 takes f3, e3 standing past it).
        ("9/9/9/9/m8/3S5/3SmS3/1K1m5/6m2 b 0 1", 1, 0),
    ] {
        let (e, n) = successors_agree(&v, &rules, text);
        assert_eq!((e, n), (enclosing, ended), "{text}");
    }
}

/// A small game of the enclosure clauses Tablut leaves out: lines of any length on
/// orthogonal lines, hostile empty cells (each player's own), and royal pieces taken
/// only when enclosed on every side, anywhere. Chiefs are royal, and Guards capture on
/// their ends too; `30 plies without capture` counts captures by enclosure.
fn enclosures_text(hands: bool) -> String {
    enclosures_text_with(if hands {
        "captured pieces go to hand\n"
    } else {
        ""
    })
}

/// [`enclosures_text`] with more statements.
fn enclosures_text_with(more: &str) -> String {
    format!(
        "name \"Enclosures\"\n\
         board square 6 by 6\n\
         coordinates files lettered from the left, ranks numbered from the bottom\n\
         player White: forward north, capitals\n\
         player Black: forward south, lowercase\n\
         zone throne {{\n  White: a1 f6 c4\n  Black: f1 a6 d3\n}}\n\
         piece Chief (C) {{\n  royal\n  slide orthogonal, to empty\n}}\n\
         piece Rook (R) {{\n  slide orthogonal, to empty\n}}\n\
         piece Guard (G) {{\n  step 1 any\n}}\n\
         setup {{\n  White: Chief c1, Rook a2 b2 e2 f2, Guard c2 d2\n  \
         Black: Chief d6, Rook a5 b5 e5 f5, Guard c5 d5\n}}\n\
         enclosed enemy pieces are captured, on orthogonal lines,\n  \
         empty cells in throne enclose too,\n  \
         royal pieces only when enclosed on every side\n\
         {}\
         game ends {{\n  Chief captured: mover wins\n  checkmate: mover wins\n  \
         no legal move: mover loses\n  30 plies without capture: draw\n}}\n",
        more
    )
}

#[test]
fn compulsory_captures_by_enclosure_agree_with_the_reference() {
    let rules = common::from_text(&enclosures_text_with("captures are compulsory\n"));
    let v = rules.variant().clone();
    let chief = v.find_piece("Chief").unwrap();
    let mut t = EnclosureTally::default();
    for seed in 0..12 {
        enclosure_game(&v, &rules, 700 + seed, 120, chief, 25, &mut t);
    }
    let seen = format!("compulsory enclosures: {t:?}");
    assert!(t.positions > 300 && t.enclosing > 30, "{seen}");
}

#[test]
fn enclosure_clauses_agree_with_the_reference() {
    use variantlab::variant::{Flip, Kind, Kinds};
    for hands in [false, true] {
        let rules = common::from_text(&enclosures_text(hands));
        let v = rules.variant().clone();
        let e = v.enclosure.clone().expect("an enclosure rule");
        assert_eq!(
            (e.which, e.captures, e.lines, e.single, e.every_side),
            (
                Flip::Enclosed,
                true,
                Some(Kind::Orthogonal),
                false,
                Some((Kinds::Royal, None))
            )
        );
        assert!(e.hostile.is_some() && v.hand.is_some() == hands);
        let chief = v.find_piece("Chief").unwrap();
        let mut t = EnclosureTally::default();
        let mut texts = Vec::new();
        for seed in 0..40 {
            texts.extend(enclosure_game(
                &v,
                &rules,
                900 + seed,
                150,
                chief,
                25,
                &mut t,
            ));
        }
        let seen = format!("enclosures, hands {hands}: {t:?}");
        println!("{seen}");
        assert!(t.positions > 1000, "{seen}");
        assert!(t.enclosing > 100 && t.taken > t.enclosing, "{seen}");
        // Some game ended by the quiet plies, counted with captures by enclosure.
        assert!(t.ends.contains_key(&3), "{seen}");
        // Drops make the game with hands slow to count.
        texts.truncate(if hands { 2 } else { 6 });
        enclosure_perft(&v, &rules, &texts);
    }
    let rules = common::from_text(&enclosures_text(false));
    let v = rules.variant().clone();
    // (position, moves that capture by enclosure, moves that end the game).
    for (text, enclosing, ended) in [
        // d1-d3 takes the Chief on c3: b3, d3 and c2 hold Rooks, c4 is White's empty
        // throne cell.
        ("6/6/6/1Rc3/2R3/3R1C w 0 1", 1, 1),
        // On the edge the Chief is never taken (d4-a4).
        ("6/6/3R2/c5/R5/5C w 0 1", 0, 0),
        // a1-a5 takes three Rooks closed by e5; with the Chief among them, none.
        ("6/1rrrR1/6/5c/6/R4C w 0 1", 1, 0),
        ("6/1rcrR1/6/6/6/R4C w 0 1", 0, 0),
        // c2-c1 takes b1, White's empty a1 closing; d2-d1 leaves e1, f1 being Black's.
        ("2C2c/6/6/6/2RR2/1r2r1 w 0 1", 1, 0),
    ] {
        let (e, n) = successors_agree(&v, &rules, text);
        assert_eq!((e, n), (enclosing, ended), "{text}");
    }
}

// ---- Surrounded pieces: `connected to ZONE` ----------------------------------------

/// For each cell, how many orthogonal steps over cells holding no piece of other
/// players than `p` it takes from a cell of `p`'s part of zone `z` (`None`: no path).
/// The tests' own measure, to steer games towards closed rings.
fn steps_to_zone(
    v: &Variant,
    cells: &[Option<(variantlab::PlayerId, variantlab::PieceId)>],
    p: variantlab::PlayerId,
    z: usize,
) -> Vec<Option<usize>> {
    use variantlab::variant::{Dir, Kind};
    let b = &v.board;
    let open = |c: Cell| cells[c.index()].is_none_or(|(q, _)| q == p);
    let mut steps = vec![None; b.len()];
    let mut ring: Vec<Cell> = v.zones[z].cells[p.0 as usize]
        .iter()
        .copied()
        .filter(|c| open(*c))
        .collect();
    for c in &ring {
        steps[c.index()] = Some(0);
    }
    let mut n = 0;
    while !ring.is_empty() {
        n += 1;
        let mut next = vec![];
        for c in ring {
            for d in 0..b.directions().len() {
                if b.directions()[d].kind != Kind::Orthogonal {
                    continue;
                }
                if let Some(e) = b.at(b.shift(b.point(c), Dir(d as u8)))
                    && open(e)
                    && steps[e.index()].is_none()
                {
                    steps[e.index()] = Some(n);
                    next.push(e);
                }
            }
        }
        ring = next;
    }
    steps
}

/// A move for the attackers (Black) of Fetlar that closes in on White, three times in
/// four: one leaving the fewest White pieces with a path to the edge, and of those the
/// longest paths, the first in order; White plays at random.
fn closing_in(
    v: &Variant,
    rules: &Arc<Rules>,
) -> impl Fn(&mut Lcg, &Position, &[Move]) -> Option<Move> {
    let black = v.find_player("Black").unwrap();
    let white = v.find_player("White").unwrap();
    let edge = v.zones.iter().position(|z| z.name == "edge").unwrap();
    let v = v.clone();
    let rules = rules.clone();
    move |rng: &mut Lcg, pos: &Position, moves: &[Move]| {
        if simple(&rules, pos).to_move != black || rng.below(4) == 0 {
            return None;
        }
        let score = |m: &Move| {
            let mut after = pos.clone();
            after.make_unchecked(&rules, m);
            let cells = simple(&rules, &after).cells;
            // White's paths: White's own pieces do not block them.
            let steps = steps_to_zone(&v, &cells, white, edge);
            let reached: Vec<usize> = v
                .board
                .cells()
                .filter(|c| cells[c.index()].is_some_and(|(p, _)| p == white))
                .filter_map(|c| steps[c.index()])
                .collect();
            (reached.len(), usize::MAX - reached.iter().sum::<usize>())
        };
        moves.iter().min_by_key(|m| score(m)).copied()
    }
}

/// Fetlar Hnefatafl, its end rule `White has no pieces connected to edge` the third.
fn fetlar() -> (Variant, Arc<Rules>) {
    use variantlab::variant::{Event, Place};
    let v = load("fetlar.var");
    let edge = v.zones.iter().position(|z| z.name == "edge").unwrap();
    assert!(
        matches!(
            v.end_rules[2].event(),
            Some(Event::Has { place: Place::Connected(z), least: 0, most: 0, .. }) if z == edge
        ),
        "{:?}",
        v.end_rules[2]
    );
    let rules = compiled(&v, &[]);
    (v, rules)
}

/// Fetlar games: random ones, and ones whose attackers close in ([`closing_in`]).
/// Returns their tallies and position strings reached along the games closing in,
/// every `every` plies.
fn fetlar_games(
    random: std::ops::Range<u64>,
    closing: std::ops::Range<u64>,
    plies: usize,
    every: usize,
) -> (EnclosureTally, EnclosureTally, Vec<String>) {
    let (v, rules) = fetlar();
    let king = v.find_piece("King").unwrap();
    let prefer = closing_in(&v, &rules);
    let (mut at_random, mut closed_in) = (EnclosureTally::default(), EnclosureTally::default());
    let mut texts = Vec::new();
    for seed in random {
        let play = EnclosurePlay {
            from: None,
            prefer: None,
            judged: 3,
        };
        enclosure_game_with(&v, &rules, &play, seed, plies, king, 0, &mut at_random);
    }
    for seed in closing {
        let play = EnclosurePlay {
            from: None,
            prefer: Some(&prefer),
            judged: 3,
        };
        texts.extend(enclosure_game_with(
            &v,
            &rules,
            &play,
            seed,
            plies,
            king,
            every,
            &mut closed_in,
        ));
    }
    (at_random, closed_in, texts)
}

#[test]
fn fetlar_agrees_with_the_reference() {
    let (at_random, closed_in, _) = fetlar_games(300..330, 400..460, 300, 0);
    let seen = format!("fetlar at random: {at_random:?}\nfetlar closing in: {closed_in:?}");
    println!("{seen}");
    assert!(
        at_random.positions > 3000 && closed_in.positions > 5000,
        "{seen}"
    );
    assert!(
        at_random.enclosing > 300 && closed_in.enclosing > 500,
        "{seen}"
    );
    assert!(closed_in.guarded_taken > 0, "{seen}");
    // Games the attackers won by closing a ring round every White piece.
    assert!(closed_in.ends.get(&2).is_some_and(|n| *n >= 5), "{seen}");
}

/// Positions of Fetlar where one move may close a ring: the move, the rule that ends
/// the game after it (if any), and how many of the legal moves end the game.
const FETLAR_RINGS: [(&str, &str, Option<usize>, usize); 9] = [
    // c8-c5 closes the ring round the King on c3 and the Defender on c4: nothing else
    // of White's is left.
    (
        "11/11/11/2a8/11/11/11/1aDa7/1aKa7/2a8/11 b 0 1",
        "c8-c5",
        Some(2),
        1,
    ),
    // A Defender on j9 still reaches the edge.
    (
        "11/11/9D1/2a8/11/11/11/1aDa7/1aKa7/2a8/11 b 0 1",
        "c8-c5",
        None,
        0,
    ),
    // The ring is closed; h8-j8 takes the Defender on j9, the last piece outside it.
    (
        "11/9a1/9D1/7a3/11/11/2a8/1aDa7/1aKa7/2a8/11 b 0 1",
        "h8-j8",
        Some(2),
        1,
    ),
    // Attackers on the edge cells a2, b1 and a3 close the ring there (h4-b4).
    (
        "11/11/11/11/11/11/11/7a3/aDa8/aKa8/1a9 b 0 1",
        "h4-b4",
        Some(2),
        1,
    ),
    // A Defender standing on the edge (a6) is connected to it, hemmed in as it is:
    // after h4-b4 White has no move, and the game ends by that rule, not the ring's.
    (
        "11/11/11/11/a10/Da9/a10/7a3/aDa8/aKa8/1a9 b 0 1",
        "h4-b4",
        Some(3),
        1,
    ),
    // The ring holds an empty cell, c3: h4-c4 closes it, and d3-c3 closes it too,
    // taking the Defender on b3 and leaving the King alone inside.
    (
        "11/11/11/11/11/11/11/1a5a3/aD1a7/aKa8/1a9 b 0 1",
        "h4-c4",
        Some(2),
        2,
    ),
    // The same with the hemmed-in Defender on a6: White can still move (b3-c3), and
    // the Defender on the edge keeps the game going.
    (
        "11/11/11/11/a10/Da9/a10/1a5a3/aD1a7/aKa8/1a9 b 0 1",
        "h4-c4",
        None,
        0,
    ),
    // White's own pieces do not block: the Defender on c2 leads the others to c1.
    (
        "11/11/11/2a8/11/11/11/1aDa7/1aKa7/1aDa7/11 b 0 1",
        "c8-c5",
        None,
        0,
    ),
    // With an attacker on c1 the ring is closed.
    (
        "11/11/11/2a8/11/11/11/1aDa7/1aKa7/1aDa7/2a8 b 0 1",
        "c8-c5",
        Some(2),
        1,
    ),
];

#[test]
fn fetlar_rings_by_hand_agree_with_the_reference() {
    let (v, rules) = fetlar();
    let options = rules.options();
    // The first of the rules judged from the position alone (`no King`, `King in
    // corners`, the ring's) that the reference says holds.
    let first = |slow: &reference::Simple| {
        (0..3).find(|&r| {
            reference::condition_holds(&v, options, slow, &v.end_rules[r].condition).is_some()
        })
    };
    for (text, closing, rule, ending) in FETLAR_RINGS {
        // Every move: the same moves, positions and ends.
        let (_, ended) = successors_agree(&v, &rules, text);
        assert_eq!(ended, ending, "{text}: moves that end");
        let setup = variantlab::parse_position(&rules, text).unwrap();
        let game = Game::new(rules.clone(), setup).unwrap();
        assert!(game.ending().is_none(), "{text}: over already");
        assert_eq!(first(&simple(&rules, game.position())), None, "{text}");
        // And by the same rule.
        let mut found = false;
        for m in game.legal_moves() {
            let move_text = variantlab::write_move(&v, &m);
            let mut g = game.clone();
            g.play(m).unwrap();
            let got = g.ending().map(|e| e.rule);
            if move_text == closing {
                assert_eq!(got, rule, "{text}: after {closing}");
                found = true;
            }
            assert_eq!(
                first(&simple(&rules, g.position())),
                got.filter(|&r| r < 3),
                "{text}: the rule that ends the game after {move_text}"
            );
        }
        assert!(found, "{text}: no {closing}");
    }
}

#[test]
fn fetlar_perft_agrees_with_the_reference() {
    let (v, rules) = fetlar();
    let (_, closed_in, mut texts) = fetlar_games(0..0, 600..604, 150, 40);
    println!("fetlar perft from {texts:?}\n{closed_in:?}");
    assert!(texts.len() >= 4, "{texts:?}");
    texts.truncate(6);
    // Positions where a move closes a ring, or takes the last piece outside one.
    texts.extend(FETLAR_RINGS[..3].iter().map(|(text, ..)| text.to_string()));
    let mut nodes = Vec::new();
    for text in &texts {
        let setup = variantlab::parse_position(&rules, text).unwrap();
        let mut pos = Position::from_setup(&rules, &setup).unwrap();
        let want = reference::perft(&v, rules.options(), &simple(&rules, &pos), 3);
        assert_eq!(
            variantlab::perft(&rules, &mut pos, 3),
            want,
            "fetlar: perft 3 at {text}"
        );
        nodes.push(want);
    }
    println!("fetlar perft 3: {nodes:?}");
}

// ---- Shield walls and forts: Copenhagen Hnefatafl -------------------------------------

/// The cells of `me`'s enemies' pieces a move took: standing on `before`, gone from
/// `after` (or another player's there), `to` (where the move landed) left out.
fn taken_cells(
    before: &[Option<(variantlab::PlayerId, variantlab::PieceId)>],
    after: &[Option<(variantlab::PlayerId, variantlab::PieceId)>],
    me: variantlab::PlayerId,
    to: Cell,
) -> Vec<Cell> {
    (0..before.len())
        .map(|i| Cell(i as u16))
        .filter(|c| *c != to)
        .filter(|c| {
            before[c.index()].is_some_and(|(p, _)| p != me) && after[c.index()] != before[c.index()]
        })
        .collect()
}

/// The orthogonal steps, as vectors, that lead off the board from `c`.
fn off_sides(v: &Variant, c: Cell) -> Vec<(i32, i32)> {
    let (x, y) = v.board.point(c);
    v.board
        .directions()
        .iter()
        .filter(|d| d.kind == variantlab::variant::Kind::Orthogonal)
        .map(|d| (d.dx, d.dy))
        .filter(|(dx, dy)| v.board.at((x + dx, y + dy)).is_none())
        .collect()
}

/// Whether two cells stand side by side on one edge of the board: one orthogonal step
/// apart, with a step across that one leading off the board from both.
fn side_by_side_on_edge(v: &Variant, a: Cell, b: Cell) -> bool {
    let ((ax, ay), (bx, by)) = (v.board.point(a), v.board.point(b));
    let (dx, dy) = (bx - ax, by - ay);
    let beside = v
        .board
        .directions()
        .iter()
        .any(|d| d.kind == variantlab::variant::Kind::Orthogonal && (d.dx, d.dy) == (dx, dy));
    let across = off_sides(v, a)
        .into_iter()
        .any(|e| e.0 * dx + e.1 * dy == 0 && off_sides(v, b).contains(&e));
    beside && across
}

/// Whether two of the cells stand side by side on one edge: a row along the edge was
/// taken (a capture of one piece between two takes no two side by side).
fn row_along_edge(v: &Variant, cells: &[Cell]) -> bool {
    cells
        .iter()
        .any(|&a| cells.iter().any(|&b| side_by_side_on_edge(v, a, b)))
}

/// Copenhagen Hnefatafl, its end rules checked: `White has a King in corners` the
/// second, `White has a King in a fort on edge` the third and `White has no pieces
/// connected to edge` the fourth, with shield walls.
fn copenhagen() -> (Variant, Arc<Rules>) {
    use variantlab::variant::{Event, Place};
    let v = load("copenhagen.var");
    let zone = |name: &str| v.zones.iter().position(|z| z.name == name).unwrap();
    let (edge, corners) = (zone("edge"), zone("corners"));
    let place = |rule: usize| match v.end_rules[rule].event() {
        Some(Event::Has { place, least, .. }) => Some((place, least)),
        _ => None,
    };
    assert_eq!(
        place(1),
        Some((Place::Zone(corners), 1)),
        "{:?}",
        v.end_rules[1]
    );
    assert_eq!(
        place(2),
        Some((Place::Fort(edge), 1)),
        "{:?}",
        v.end_rules[2]
    );
    assert_eq!(
        place(3),
        Some((Place::Connected(edge), 0)),
        "{:?}",
        v.end_rules[3]
    );
    assert!(
        v.enclosure
            .as_ref()
            .is_some_and(|e| e.edge_rows && e.captures)
    );
    let rules = compiled(&v, &[]);
    (v, rules)
}

/// How near `black` is to taking rows along the edge on `cells`. For each row of two
/// or more pieces of another player side by side on one edge: one for each of them
/// that a piece of `black` faces (stands beside it, off the edge); one when an end of
/// the row is closed (the cell past it on that edge holds a piece of `black` or is an
/// empty corner); and then one more when the other end is an empty cell that a piece
/// of `black` could slide to along a row or column of empty cells. Only one closed
/// end counts: the move closing the second takes the row when every piece is faced.
fn readiness(
    v: &Variant,
    cells: &[Option<(variantlab::PlayerId, variantlab::PieceId)>],
    black: variantlab::PlayerId,
    corners: &[Cell],
) -> usize {
    let b = &v.board;
    let step = |c: Cell, (dx, dy): (i32, i32)| {
        let (x, y) = b.point(c);
        b.at((x + dx, y + dy))
    };
    let white = |c: Cell| cells[c.index()].is_some_and(|(p, _)| p != black);
    let is_black = |c: Cell| cells[c.index()].is_some_and(|(p, _)| p == black);
    let orthogonal: Vec<(i32, i32)> = b
        .directions()
        .iter()
        .filter(|d| d.kind == variantlab::variant::Kind::Orthogonal)
        .map(|d| (d.dx, d.dy))
        .collect();
    // Whether a piece of `black` could slide to the empty cell `c`.
    let reached = |c: Cell| {
        orthogonal.iter().any(|&d| {
            let mut at = step(c, d);
            while let Some(n) = at.filter(|n| cells[n.index()].is_none()) {
                at = step(n, d);
            }
            at.is_some_and(is_black)
        })
    };
    let mut score = 0;
    for first in b.cells().filter(|&c| white(c)) {
        for e in off_sides(v, first) {
            let along = (e.1, e.0);
            let on_row = |c: &Cell| white(*c) && off_sides(v, *c).contains(&e);
            // `first` starts its row.
            if step(first, (-along.0, -along.1)).is_some_and(|c| on_row(&c)) {
                continue;
            }
            let mut row = vec![first];
            while let Some(n) = step(*row.last().unwrap(), along).filter(on_row) {
                row.push(n);
            }
            if row.len() < 2 {
                continue;
            }
            score += row
                .iter()
                .filter(|&&c| step(c, (-e.0, -e.1)).is_some_and(is_black))
                .count();
            let ends = [
                step(first, (-along.0, -along.1)),
                step(*row.last().unwrap(), along),
            ];
            let closed = |c: &Option<Cell>| {
                c.is_some_and(|c| {
                    is_black(c) || (cells[c.index()].is_none() && corners.contains(&c))
                })
            };
            let open = |c: &Option<Cell>| {
                c.is_some_and(|c| cells[c.index()].is_none() && !corners.contains(&c) && reached(c))
            };
            if ends.iter().any(closed) {
                score += 1 + usize::from(ends.iter().any(open));
            }
        }
    }
    score
}

/// A small fort round a King on the edge cell `k` of `v`'s board, on the side `along`
/// of him (a step along the edge): its inside is `k`, the cell beside him that way
/// and, if the cell past that is a corner, the corner too (or `k` and the corner, if
/// that is the cell beside him); its wall, the cells beside the inside. Returns the
/// wall and the inside's empty cells; `None` where a cell of the wall is a corner.
/// Whatever stands elsewhere, none of the wall could be captured: each has the board's
/// edge, the inside or another piece of the wall either side of it on a line.
fn fort_shape(
    v: &Variant,
    k: Cell,
    along: (i32, i32),
    corners: &[Cell],
) -> Option<(Vec<Cell>, Vec<Cell>)> {
    let step = |c: Cell, (dx, dy): (i32, i32)| {
        let (x, y) = v.board.point(c);
        v.board.at((x + dx, y + dy))
    };
    let beside = step(k, along)?;
    let mut inside = vec![k, beside];
    if !corners.contains(&beside)
        && let Some(past) = step(beside, along).filter(|c| corners.contains(c))
    {
        inside.push(past);
    }
    let mut wall: Vec<Cell> = inside
        .iter()
        .flat_map(|&c| {
            v.board
                .directions()
                .iter()
                .filter(|d| d.kind == variantlab::variant::Kind::Orthogonal)
                .filter_map(move |d| step(c, (d.dx, d.dy)))
        })
        .filter(|c| !inside.contains(c))
        .collect();
    wall.sort();
    wall.dedup();
    if wall.iter().any(|c| corners.contains(c)) {
        return None;
    }
    Some((wall, inside[1..].to_vec()))
}

/// Copenhagen play steered, three times in four, towards shield walls (`forts`
/// false) or forts.
///
/// Black, for shield walls: a move that takes a row along the edge; else one that
/// makes it nearest to taking one ([`readiness`]), if any gets nearer. Else, and for
/// forts, any move (captures not preferred, to leave White its Defenders); the fourth
/// time, Black leaves the choice to the random play.
///
/// White: a move after which the game ends by the fort's rule (the third); else, the
/// King off the edge, a King move to an edge cell that is not a corner (or any King
/// move); else, the King on the edge, for forts a Defender move to a wall cell of the
/// [`fort_shape`] beside him with the most walls standing and no Attacker on it or
/// inside, from no cell of it; for shield walls a Defender move landing on the edge
/// beside the King, else beside another White piece there, by a Defender standing
/// beside none, making a row of at most three. Each picks at random among its moves;
/// with none, and the fourth time, White picks any move that does not take the King
/// to a corner (while it has one), preferring half the time one that captures by
/// enclosure.
fn shields_and_forts(
    v: &Variant,
    rules: &Arc<Rules>,
    forts: bool,
) -> impl Fn(&mut Lcg, &Position, &[Move]) -> Option<Move> {
    let black = v.find_player("Black").unwrap();
    let king = v.find_piece("King").unwrap();
    let defender = v.find_piece("Defender").unwrap();
    let corners = v.zones.iter().position(|z| z.name == "corners").unwrap();
    let corners = v.zones[corners].cells[0].clone();
    let v = v.clone();
    let rules = rules.clone();
    move |rng: &mut Lcg, pos: &Position, moves: &[Move]| {
        let before = simple(&rules, pos);
        let me = before.to_move;
        let on_edge = |c: Cell| !off_sides(&v, c).is_empty();
        let pick = |rng: &mut Lcg, among: Vec<Move>| {
            (!among.is_empty()).then(|| among[rng.below(among.len())])
        };
        let king_at = v
            .board
            .cells()
            .find(|c| before.cells[c.index()].is_some_and(|(p, k)| p != black && k == king));
        let anywhere: Vec<Move> = moves
            .iter()
            .filter(|m| Some(m.from) != king_at || !corners.contains(&m.to))
            .copied()
            .collect();
        // White's fallback: half the time a capture by enclosure, if it has one.
        let fallback = |rng: &mut Lcg| {
            if rng.below(2) == 0 {
                let taking: Vec<Move> = anywhere
                    .iter()
                    .filter(|m| taken_by_enclosure(&rules, pos, m) > 0)
                    .copied()
                    .collect();
                if let Some(m) = pick(rng, taking) {
                    return Some(m);
                }
            }
            pick(rng, anywhere.clone())
        };
        if me == black {
            if rng.below(4) == 0 {
                return None;
            }
            if forts {
                return pick(rng, moves.to_vec());
            }
            let now = readiness(&v, &before.cells, black, &corners);
            let scored: Vec<(bool, usize, Move)> = moves
                .iter()
                .map(|m| {
                    let mut after = pos.clone();
                    after.make_unchecked(&rules, m);
                    let after = simple(&rules, &after);
                    let gone = taken_cells(&before.cells, &after.cells, me, m.to);
                    let ready = readiness(&v, &after.cells, black, &corners);
                    (row_along_edge(&v, &gone), ready, *m)
                })
                .collect();
            let rows: Vec<Move> = scored.iter().filter(|s| s.0).map(|s| s.2).collect();
            if !rows.is_empty() {
                return pick(rng, rows);
            }
            let best = scored.iter().map(|s| s.1).max().unwrap_or(0);
            if best <= now {
                return pick(rng, moves.to_vec());
            }
            return pick(
                rng,
                scored.iter().filter(|s| s.1 == best).map(|s| s.2).collect(),
            );
        }
        let Some(king_at) = king_at.filter(|_| rng.below(4) != 0) else {
            return fallback(rng);
        };
        let (kx, ky) = v.board.point(king_at);
        let within = |c: Cell, n: i32| {
            let (x, y) = v.board.point(c);
            (x - kx).abs() <= n && (y - ky).abs() <= n
        };
        let game = Game::new(rules.clone(), pos.to_setup(&rules)).ok()?;
        let forts_now: Vec<Move> = moves
            .iter()
            .filter(|m| m.from == king_at || within(m.to, 3))
            .filter(|m| {
                let mut g = game.clone();
                g.play(**m).is_ok() && g.ending().is_some_and(|e| e.rule == 2)
            })
            .copied()
            .collect();
        if !forts_now.is_empty() {
            return pick(rng, forts_now);
        }
        let king_moves = |keep: &dyn Fn(Cell) -> bool| -> Vec<Move> {
            moves
                .iter()
                .filter(|m| m.from == king_at && !corners.contains(&m.to) && keep(m.to))
                .copied()
                .collect()
        };
        if !on_edge(king_at) {
            return pick(rng, king_moves(&on_edge))
                .or_else(|| pick(rng, king_moves(&|_| true)))
                .or_else(|| fallback(rng));
        }
        let holds = |c: Cell, white: bool| {
            before.cells[c.index()].is_some_and(|(p, _)| (p != black) == white)
        };
        // The fort shapes open to White round the King on `k`: their walls, with how
        // many of their cells hold White pieces, the most built first.
        let open_forts = |k: Cell| -> Vec<(usize, Vec<Cell>)> {
            let mut shapes: Vec<(usize, Vec<Cell>)> = off_sides(&v, k)
                .iter()
                .flat_map(|e| [(e.1, e.0), (-e.1, -e.0)])
                .filter_map(|along| fort_shape(&v, k, along, &corners))
                .filter(|(wall, inside)| {
                    inside.iter().all(|c| before.cells[c.index()].is_none())
                        && !wall.iter().any(|c| holds(*c, false))
                })
                .map(|(wall, _)| (wall.iter().filter(|c| holds(**c, true)).count(), wall))
                .collect();
            shapes.sort_by_key(|(built, _)| usize::MAX - built);
            shapes
        };
        let to: Vec<Cell> = if forts {
            let shapes = open_forts(king_at);
            if shapes.is_empty() {
                // Along the edge, to where a fort may be built.
                let to = king_moves(&|c| on_edge(c) && !open_forts(c).is_empty());
                return pick(rng, to).or_else(|| fallback(rng));
            }
            shapes[0].1.clone()
        } else {
            // Rows: beside the King first, else beside any White piece on the edge, by
            // a Defender in no row yet.
            let beside = |c: Cell, of: &dyn Fn(Cell) -> bool| {
                v.board
                    .cells()
                    .any(|n| of(n) && side_by_side_on_edge(&v, c, n))
            };
            let white = |n: Cell| holds(n, true);
            // The White pieces on the edge joined to `c` along it, one after another.
            let joined = |c: Cell| {
                let mut seen = vec![c];
                let mut todo = vec![c];
                while let Some(c) = todo.pop() {
                    for n in v.board.cells() {
                        if white(n) && !seen.contains(&n) && side_by_side_on_edge(&v, c, n) {
                            seen.push(n);
                            todo.push(n);
                        }
                    }
                }
                seen.len() - 1
            };
            let building = |of: &dyn Fn(Cell) -> bool| -> Vec<Move> {
                moves
                    .iter()
                    .filter(|m| m.piece == defender && !beside(m.from, &white))
                    .filter(|m| before.cells[m.to.index()].is_none() && beside(m.to, of))
                    .filter(|m| joined(m.to) <= 2)
                    .copied()
                    .collect()
            };
            return pick(rng, building(&|n| n == king_at))
                .or_else(|| pick(rng, building(&white)))
                .or_else(|| fallback(rng));
        };
        let building: Vec<Move> = moves
            .iter()
            .filter(|m| m.piece == defender && to.contains(&m.to) && !to.contains(&m.from))
            .copied()
            .collect();
        pick(rng, building).or_else(|| fallback(rng))
    }
}

/// Copenhagen games: random ones (`random`, 300 plies long at most), and ones steered
/// by [`shields_and_forts`] towards shield walls (`rows`) and forts (`forts`), 150 plies
/// long at most, the leading four end rules judged one by one. Returns the tallies of
/// the random games and of the steered ones.
fn copenhagen_games(
    random: std::ops::Range<u64>,
    rows: std::ops::Range<u64>,
    forts: std::ops::Range<u64>,
) -> (EnclosureTally, EnclosureTally) {
    let (v, rules) = copenhagen();
    let king = v.find_piece("King").unwrap();
    let to_rows = shields_and_forts(&v, &rules, false);
    let to_forts = shields_and_forts(&v, &rules, true);
    let (mut at_random, mut led) = (EnclosureTally::default(), EnclosureTally::default());
    for (seeds, prefer, plies) in [
        (random, None, 300),
        (rows, Some(&to_rows as Prefer<'_>), 150),
        (forts, Some(&to_forts as Prefer<'_>), 150),
    ] {
        let t = if prefer.is_none() {
            &mut at_random
        } else {
            &mut led
        };
        for seed in seeds {
            let play = EnclosurePlay {
                from: None,
                prefer,
                judged: 4,
            };
            enclosure_game_with(&v, &rules, &play, seed, plies, king, 0, t);
        }
    }
    (at_random, led)
}

/// Copenhagen Hnefatafl: along random games and games steered towards shield walls
/// and forts ([`copenhagen_games`]), the runtime and the reference agree at every ply
/// on the legal moves, on what each move takes (the boards after it) and on how the
/// game ends (each of the four rules judged from the position alone on its own); and
/// on the positions worked by hand ([`COPENHAGEN_BY_HAND`]).
#[test]
fn copenhagen_agrees_with_the_reference() {
    let started = std::time::Instant::now();
    let (at_random, steered) = copenhagen_games(800..820, 900..980, 980..1020);
    let games = started.elapsed();
    copenhagen_by_hand();
    let seen = format!(
        "copenhagen at random: {at_random:?}\ncopenhagen steered: {steered:?}\n\
         games {games:?}, with the positions by hand {:?}",
        started.elapsed()
    );
    println!("{seen}");
    assert!(
        at_random.positions > 3000 && steered.positions > 12000,
        "{seen}"
    );
    assert!(
        at_random.enclosing > 300 && steered.enclosing > 1500,
        "{seen}"
    );
    // Shield walls (two or more pieces taken side by side along the edge), some with
    // the King staying in the row.
    assert!(
        steered.rows >= 30 && steered.rows_with_guarded >= 4,
        "{seen}"
    );
    // Games White won in a fort on the edge (the third end rule, index 2).
    assert!(steered.ends.get(&2).is_some_and(|n| *n >= 10), "{seen}");
}

/// Positions of Copenhagen worked by hand: the move, the cells of the pieces it takes
/// (by name, sorted as text), and the rule that ends the game after it (the third,
/// index 2: `White has a King in a fort on edge`).
const COPENHAGEN_BY_HAND: [(&str, &str, &str, Option<usize>); 11] = [
    // A shield wall against a corner: Defenders on i11 and j11, faced by Attackers on
    // i10 and j10; h7-h11 lands at the row's west end and the empty corner k11, which
    // encloses, closes its east end. Both are taken (as a line of two they are not
    // taken by the capture between two).
    (
        "8DD1/8aa1/11/11/4K2a3/11/11/11/1a9/11/11 b 0 1",
        "h7-h11",
        "i11 j11",
        None,
    ),
    // A row of three on the east edge, k3 to k5, faced on j3 to j5 and closed by the
    // Attacker on k2: h6-k6 takes all three.
    (
        "11/11/11/11/4K6/7a3/9aD/9aD/9aD/10a/11 b 0 1",
        "h6-k6",
        "k3 k4 k5",
        None,
    ),
    // White's shield wall: Attackers on b1 and c1 faced by the King on b2 (he takes
    // part in captures) and a Defender on c2; d5-d1 takes both against the corner a1,
    // which encloses for White too.
    (
        "11/11/7a3/11/11/11/3D7/11/11/1KD8/1aa8 w 0 1",
        "d5-d1",
        "b1 c1",
        None,
    ),
    // The King in the row: c11, d11 (the King) and e11, faced on c10 to e10 and closed
    // by the Attacker on b11. f8-f11 takes the Defenders; the King stays (on the edge he
    // is never taken), and the game goes on.
    (
        "1aDKD6/2aaa6/11/5a5/11/11/11/7D3/11/11/11 b 0 1",
        "f8-f11",
        "c11 e11",
        None,
    ),
    // Defenders on a4 to a6, faced on b4 to b6, closed by the Attacker on a3: e7-a7
    // takes the three.
    (
        "11/11/11/7K3/4a6/Da9/Da9/Da9/a10/11/11 b 0 1",
        "e7-a7",
        "a4 a5 a6",
        None,
    ),
    // b5 empty: the Defender on a5 is not faced, and e7-a7 takes nothing.
    (
        "11/11/11/7K3/4a6/Da9/D10/Da9/a10/11/11 b 0 1",
        "e7-a7",
        "",
        None,
    ),
    // The row closed at a3 and a7 and faced on b4 and b6: e5-b5 faces a5 too, but lands
    // off the edge, and a row is taken only by a move landing on the edge at its end.
    // Nor does it take a5 between two (the cell past a5 is off the board).
    (
        "11/11/11/7K3/a10/Da9/D3a6/Da9/a10/11/11 b 0 1",
        "e5-b5",
        "",
        None,
    ),
    // A fort: after g3-k3 the King on k5 has k4 empty beside him; the wall k6, j5, j4,
    // k3 keeps k5 and k4 (the inside) from the rest. k6 and k3 have the board's edge on
    // their rows and k5 or k4 on their columns; j5 and j4 have each other on their
    // column and k5 or k4 on their rows: none could be captured, no Attacker is inside.
    (
        "11/1a9/11/11/11/10D/9DK/9D1/6D4/1a9/11 w 0 1",
        "g3-k3",
        "",
        Some(2),
    ),
    // The King on k5, the inside k5, k4 and j4, walled by k6, j5, i4, j3 and k3: i8-i5
    // closes it. i4 has j4 inside on its row and i5 on its column; i5 has j5 on its row
    // and i4 on its column; j3 has k3 on its row, k3 and k6 the board's edge on theirs.
    (
        "11/1a9/11/8D2/11/10D/9DK/8D2/9DD/1a9/11 w 0 1",
        "i8-i5",
        "",
        Some(2),
    ),
    // The same with i8-i6: i4 has i3 and i5 open either side on its column, so it could
    // be captured; it leaves the wall, the inside runs out past it to the Attackers.
    (
        "11/1a9/11/8D2/11/10D/9DK/8D2/9DD/1a9/11 w 0 1",
        "i8-i6",
        "",
        None,
    ),
    // A double wall. The King on e1, the inside e1, f1 and f2, walled by d1, e2, g1, g2
    // and f3; past f3 an empty pocket (e3, e4, f4, g4, g3) closed by d3, d4, e5, f5, g5,
    // h4 and h3 (k3-h3 closes it). f3 has the pocket's e3 and g3 either side on its row,
    // and each piece of the outer ring has the pocket on one side of a line and the
    // open board on the other: all could be captured at once and leave the wall
    // together, and the inside reaches the Attackers. No fort (the language's wording:
    // every piece that could be captured leaves the wall before the inside is found
    // again; taking f3 out first would have made the pocket inside, protecting the
    // outer ring).
    (
        "11/1a7a1/11/11/11/11/4DDD4/3D3D3/3D1D4D/4D1D4/3DK1D4 w 0 1",
        "k3-h3",
        "",
        None,
    ),
];

/// [`COPENHAGEN_BY_HAND`]: the reference and the runtime each give the move the
/// hand-worked result; every legal move of each position agrees.
fn copenhagen_by_hand() {
    let (v, rules) = copenhagen();
    let options = rules.options();
    let names = |cells: &[Cell]| {
        let mut names: Vec<&str> = cells.iter().map(|c| v.board.name(*c)).collect();
        names.sort();
        names.join(" ")
    };
    for (text, move_text, taken, rule) in COPENHAGEN_BY_HAND {
        let setup = variantlab::parse_position(&rules, text).unwrap();
        let game = Game::new(rules.clone(), setup).unwrap();
        assert!(game.ending().is_none(), "{text}: over already");
        let slow = simple(&rules, game.position());
        let m = game
            .legal_moves()
            .into_iter()
            .find(|m| variantlab::write_move(&v, m) == move_text)
            .unwrap_or_else(|| panic!("{text}: no {move_text}"));
        let (from, to) = written(&v, &m);
        let mv = (from, to, m.tag, reference_kind(&m));
        // The reference.
        let (next, want) = reference::play_named(&v, options, &slow, mv, m.wall, m.gate);
        let gone = names(&taken_cells(&slow.cells, &next.cells, slow.to_move, to));
        assert_eq!(gone, taken, "the reference: {text}, {move_text} takes");
        // The first of the rules judged from the position alone that holds; `no legal
        // move` (the fifth) otherwise.
        let ended = want.map(|_| {
            (0..4)
                .find(|&r| {
                    reference::condition_holds(&v, options, &next, &v.end_rules[r].condition)
                        .is_some()
                })
                .unwrap_or(4)
        });
        assert_eq!(
            ended, rule,
            "the reference: {text}, the end after {move_text}"
        );
        // The runtime.
        let mut g = game.clone();
        g.play(m).unwrap();
        let now = simple(&rules, g.position());
        let gone = names(&taken_cells(&slow.cells, &now.cells, slow.to_move, to));
        assert_eq!(gone, taken, "the runtime: {text}, {move_text} takes");
        assert_eq!(
            g.ending().map(|e| e.rule),
            rule,
            "the runtime: {text}, the end after {move_text}"
        );
        // Every move of the position.
        successors_agree(&v, &rules, text);
    }
}

/// Shield walls with diagonal lines on a square board (language.md, section 16f, "Rows
/// along the edge: the shield wall"): the front of a row's piece is its one cell
/// straight away from the edge, opposite the direction of the lines that leads off the
/// board from the landing cell and stands most nearly square to the row. Below a row
/// along the first rank south, (0, 1) against east's (1, 0), has dot product 0, and
/// south-east and south-west 1: the front is north, never north-west or north-east.
/// The reference and the runtime each give the move the hand-worked result; every
/// legal move of each position agrees (moves, boards after them, ends).
#[test]
fn shield_walls_with_diagonal_lines_agree_with_the_reference() {
    let text = "name \"Diagonal shield walls\"\n\
         board square 6 by 6\n\
         coordinates files lettered from the left, ranks numbered from the bottom\n\
         player White: forward north, capitals\n\
         player Black: forward south, lowercase\n\
         piece Rook (R) {\n  slide orthogonal, to empty\n}\n\
         setup {\n  White: Rook a1 f1\n  Black: Rook a6 f6\n}\n\
         enclosed enemy pieces are captured, on lines of one piece,\n  \
         rows along the edge facing enemies too\n\
         game ends {\n  White has no Rook: Black wins\n  Black has no Rook: White wins\n  \
         no legal move: mover loses\n}\n";
    let rules = common::from_text(text);
    let v = rules.variant().clone();
    let options = rules.options();
    assert!(
        v.enclosure
            .as_ref()
            .is_some_and(|e| e.edge_rows && e.captures && e.single && e.lines.is_none()),
        "{:?}",
        v.enclosure
    );
    let names = |cells: &[Cell]| {
        let mut names: Vec<&str> = cells.iter().map(|c| v.board.name(*c)).collect();
        names.sort();
        names.join(" ")
    };
    // (position, move, the cells of the pieces it takes, sorted).
    for (position, move_text, taken) in [
        // Black's b1, d2, e2 and f1; White's d1 and e1. b1-c1 lands on the first rank;
        // along east the row is d1 and e1 (f1 is Black's), on the edge south leads off
        // the board from c1 (and south-east and south-west, which stand less square to
        // east). Their fronts, north of them, are d2 and e2, both Black's; f1, on the
        // same edge, closes the row: both are taken. Nothing else: the line east is
        // two pieces long, north-east of c1 stands Black's d2, and c2, b2 and b1 (left
        // by the move) are empty.
        ("6/6/6/6/3rr1/1r1RRr b 0 1", "b1-c1", "d1 e1"),
        // Black's c2 and d2 instead: d1 is faced on d2, but e2 is empty, so e1 is not
        // faced and the row stays. (Faced from the north-west, c2 and d2, would have
        // taken it: the front is the one cell straight north.) No line of one piece:
        // c2 and d2 are Black's own, d1 and e1 stand two in a row.
        ("6/6/6/6/2rr2/1r1RRr b 0 1", "b1-c1", ""),
        // Black's c3, e2, f2 and f1: c3-c1 lands at the row's west end, f1 closes its
        // east end, but d1's front d2 is empty (e1's, e2, is Black's): d1 is not
        // faced and nothing is taken. (From the north-east, e2 and f2, both are faced:
        // that would have taken them.) No line of one piece: b1, b2, c2 and d2 are
        // empty, d1 and e1 stand two in a row.
        ("6/6/6/2r3/4rr/3RRr b 0 1", "c3-c1", ""),
    ] {
        let setup = variantlab::parse_position(&rules, position).unwrap();
        let game = Game::new(rules.clone(), setup).unwrap();
        assert!(game.ending().is_none(), "{position}: over already");
        let slow = simple(&rules, game.position());
        let m = game
            .legal_moves()
            .into_iter()
            .find(|m| variantlab::write_move(&v, m) == move_text)
            .unwrap_or_else(|| panic!("{position}: no {move_text}"));
        let (from, to) = written(&v, &m);
        let mv = (from, to, m.tag, reference_kind(&m));
        let (next, _) = reference::play_named(&v, options, &slow, mv, m.wall, m.gate);
        let gone = names(&taken_cells(&slow.cells, &next.cells, slow.to_move, to));
        let mut g = game.clone();
        g.play(m).unwrap();
        let now = simple(&rules, g.position());
        let got = names(&taken_cells(&slow.cells, &now.cells, slow.to_move, to));
        assert_eq!(
            (gone.as_str(), got.as_str()),
            (taken, taken),
            "{position}, {move_text} takes (the reference, the runtime)"
        );
        successors_agree(&v, &rules, position);
    }
}

/// Whether the first end rule of each variant holds at `setup`, and for whom, as the
/// runtime (the game over by that rule, the winner) and the reference (the player the
/// condition names; each rule makes that player win) judge it; they must agree. Counts,
/// by variant, the positions where it holds.
fn first_rules_agree(
    variants: &[(Variant, Arc<Rules>)],
    setup: &Setup,
    at: &str,
    over: &mut [usize],
) {
    for (i, (v, r)) in variants.iter().enumerate() {
        let game = Game::new(r.clone(), setup.clone()).unwrap_or_else(|e| panic!("{at}: {e}"));
        let got = game
            .ending()
            .filter(|e| e.rule == 0)
            .map(|e| e.winner().expect("that player wins"));
        let slow = simple(r, game.position());
        let want = reference::condition_holds(v, r.options(), &slow, &v.end_rules[0].condition)
            .map(|named| named.expect("a player named"));
        assert_eq!(
            got,
            want,
            "`{}`: the runtime and the reference differ at {at}",
            v.rule_text(&v.end_rules[0])
        );
        over[i] += usize::from(got.is_some());
    }
}

#[test]
fn connected_places_agree_with_the_reference_along_random_games() {
    for (file, centre, rules, games, plies) in [
        (
            "fetlar.var",
            "e5 f5 g5 e6 f6 g6 e7 f7 g7",
            &[
                "White has at most 8 pieces connected to edge",
                "White has no King connected to edge",
                "Black has at least 20 pieces connected to centre",
                "White has fewer than 6 Defender connected to corners",
                "the player to move has at most 10 pieces connected to centre",
            ][..],
            12,
            200,
        ),
        (
            "chess.var",
            "d4 e4 d5 e5",
            &[
                "a player has at most 13 pieces connected to centre",
                "a player has an attacked pieces connected to centre",
                "the player to move has no Knight connected to centre",
            ][..],
            6,
            80,
        ),
        (
            "glinski-chess.var",
            "d2 e2 e3 g2 g3 h2",
            &[
                "Black has at least 3 pieces connected to centre",
                "a player has at most 14 pieces connected to centre",
                "the player to move has no royal pieces connected to centre",
            ][..],
            4,
            80,
        ),
        (
            "amazons.var",
            "e5 f5 e6 f6",
            &[
                "a player has at most 3 pieces connected to centre",
                "the player to move has no pieces connected to centre",
                "every player has at most 2 pieces connected to centre",
            ][..],
            6,
            100,
        ),
    ] {
        let variants = with_first_rules(file, centre, rules);
        let v = load(file);
        let plain = compiled(&v, &[]);
        // Fetlar's attackers close in, for rings.
        let prefer = (file == "fetlar.var").then(|| closing_in(&v, &plain));
        let mut over = vec![0; rules.len()];
        let prefer = prefer.as_ref().map(|f| f as &Picker<'_>);
        let positions = random_games(&plain, games, plies, 202, prefer, |game| {
            let at = game.position_string();
            first_rules_agree(&variants, &game.position().to_setup(&plain), &at, &mut over);
        });
        eprintln!("{file}: {positions} positions; holding, rule by rule: {over:?}");
        for (rule, n) in rules.iter().zip(&over) {
            assert!(
                *n > 0 && *n < positions,
                "{file}: `{rule}` holds in {n} of {positions}"
            );
        }
    }
}

/// Chess with captures by enclosure made compulsory: castlings, captures in passing
/// and promotions change more of the board than a move's two cells, and whether they
/// capture by enclosure decides whether they are legal.
#[test]
fn compulsory_enclosure_with_castling_and_en_passant_agrees_with_the_reference() {
    let chess = std::fs::read_to_string(common::root().join("variants/chess.var")).unwrap();
    let rules = common::from_text(&format!(
        "{chess}\nenclosed enemy pieces are captured, on orthogonal lines of one piece\n\
         captures are compulsory\n"
    ));
    let mut rng = Lcg(61);
    let (mut positions, mut special) = (0, 0);
    for _ in 0..10 {
        let mut game = Game::new(rules.clone(), Setup::start(&rules)).expect("start");
        for _ in 0..80 {
            let pos = game.position().clone();
            assert_eq!(
                runtime_moves(&rules, &pos),
                reference_moves(&rules, &pos),
                "generators differ at {}",
                game.position_string()
            );
            positions += 1;
            let moves = game.legal_moves();
            if moves.is_empty() || game.ending().is_some() {
                break;
            }
            special += moves
                .iter()
                .filter(|m| matches!(m.special, Special::Castle(_) | Special::InPassing(_)))
                .count();
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
    }
    assert!(positions > 300, "only {positions} positions");
    assert!(
        special > 0,
        "no castling or capture in passing was ever legal"
    );
}

// ---- Captures by jumping: draughts ---------------------------------------------------

/// A move as both generators list it in a game that captures by jumping: from, to, the
/// cells of the pieces it takes by jumping (sorted; none for any other move), the kind
/// it makes or drops, and its tag.
type JumpKey = (u16, u16, Vec<u16>, Option<u8>, Option<u8>);

/// The cells of the pieces a runtime move takes by jumping, sorted.
fn jumped_cells(rules: &Arc<Rules>, pos: &Position, m: &Move) -> Vec<Cell> {
    let mut taken = pos.jump_path(rules, m).1;
    taken.sort();
    taken
}

fn runtime_jumps(rules: &Arc<Rules>, pos: &Position) -> BTreeSet<JumpKey> {
    let mut list = Vec::new();
    pos.legal_moves(rules, &mut list);
    let set: BTreeSet<JumpKey> = list
        .iter()
        .map(|m| {
            assert!(
                m.wall.is_none() && m.gate.is_none(),
                "no walls or gates here"
            );
            (
                m.from.0,
                m.to.0,
                jumped_cells(rules, pos, m).iter().map(|c| c.0).collect(),
                reference_kind(m).map(|k| k.0),
                m.tag.map(|t| t.0),
            )
        })
        .collect();
    assert_eq!(set.len(), list.len(), "the runtime listed a move twice");
    set
}

fn reference_jumps(v: &Variant, options: &[bool], pos: &reference::Simple) -> BTreeSet<JumpKey> {
    reference::jumping_moves(v, options, pos)
        .into_iter()
        .map(|((f, t, tag, k), jumped, wall, gate)| {
            assert!(wall.is_none() && gate.is_none(), "no walls or gates here");
            (
                f.0,
                t.0,
                jumped.iter().map(|c| c.0).collect(),
                k.map(|k| k.0),
                tag.map(|t| t.0),
            )
        })
        .collect()
}

/// What [`jump_game`] compared and saw.
#[derive(Debug, Default)]
struct JumpTally {
    positions: usize,
    /// Moves played after which the positions and ends agreed.
    moves: usize,
    /// Legal moves compared that take by jumping, those taking two or more, and those
    /// made by the king kind.
    jumps: usize,
    chains: usize,
    king_jumps: usize,
    /// The most pieces one legal move took by jumping.
    longest: usize,
    /// Legal moves compared that promote, and that capture but not by jumping.
    promotions: usize,
    plain_captures: usize,
    /// Legal moves compared, by tag.
    tags: std::collections::BTreeMap<u8, usize>,
    /// Positions where the reference lists other moves once a rule is loosened (the
    /// majority rule or other preferences, an `except` or a rule of chains left out),
    /// one count per loosened variant.
    narrowed: Vec<usize>,
    /// Games each end rule decided, by the rule's index.
    ends: std::collections::BTreeMap<usize, usize>,
}

/// A random game from `setup` (the variant's start when `None`): at every ply both
/// generators list the same moves with the same pieces taken, each runtime chain lands
/// where one of the reference's chains for that move does, and after the move chosen
/// (played by the reference on its own position, carried from the start) the boards,
/// sides to move and ends agree. The reference does not judge repetitions: a game the
/// runtime ends so stops there. `king` is the kind whose captures are counted apart;
/// `wides` are the variant with a rule loosened, to count the positions where each
/// rule matters. Returns the positions reached every `every` plies, with their
/// strings.
#[allow(clippy::too_many_arguments)]
fn jump_game(
    v: &Variant,
    rules: &Arc<Rules>,
    setup: Option<Setup>,
    seed: u64,
    plies: usize,
    king: variantlab::PieceId,
    wides: &[&Variant],
    every: usize,
    t: &mut JumpTally,
) -> Vec<(String, Position)> {
    let options = rules.options();
    let name = &v.name;
    let mut rng = Lcg(seed);
    let (mut game, mut slow) = match setup {
        None => {
            let game = Game::new(rules.clone(), Setup::start(rules)).expect("start");
            let slow = reference::start(v);
            assert_eq!(
                slow.cells,
                simple(rules, game.position()).cells,
                "{name}: the starts differ"
            );
            (game, slow)
        }
        Some(setup) => {
            let game = Game::new(rules.clone(), setup).expect("a position");
            let slow = simple(rules, game.position());
            (game, slow)
        }
    };
    let mut reached = Vec::new();
    for ply in 0..plies {
        let at = game.position_string();
        if every > 0 && ply % every == every - 1 {
            reached.push((at.clone(), game.position().clone()));
        }
        let pos = game.position().clone();
        let want = reference_jumps(v, options, &slow);
        assert_eq!(
            runtime_jumps(rules, &pos),
            want,
            "{name}: generators differ at {at}"
        );
        t.positions += 1;
        t.narrowed.resize(wides.len(), 0);
        for (n, wide) in t.narrowed.iter_mut().zip(wides) {
            *n += usize::from(reference_jumps(wide, options, &slow) != want);
        }
        let mut moves = game.legal_moves();
        moves.sort_by_key(|m| {
            (
                m.from,
                m.to,
                m.tag,
                m.promotion,
                jumped_cells(rules, &pos, m),
            )
        });
        for m in &moves {
            let (landed, taken) = pos.jump_path(rules, m);
            t.promotions += usize::from(m.promotion.is_some());
            if let Some(tag) = m.tag {
                *t.tags.entry(tag.0).or_insert(0) += 1;
            }
            if taken.is_empty() {
                t.plain_captures += usize::from(m.captured.is_some());
                continue;
            }
            t.jumps += 1;
            t.chains += usize::from(taken.len() > 1);
            t.king_jumps += usize::from(m.piece == king);
            t.longest = t.longest.max(taken.len());
            let paths = reference::landings(
                v,
                options,
                &slow,
                m.from,
                m.to,
                &jumped_cells(rules, &pos, m),
            );
            assert!(
                paths.contains(&landed),
                "{name}: {} lands on {landed:?}, the reference's chains on {paths:?}, at {at}",
                variantlab::write_move(v, m)
            );
        }
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let jumped = jumped_cells(rules, &pos, &m);
        t.moves += 1;
        if let Some(rule) = play_alongside(v, rules, &mut game, &mut slow, m, &jumped, &at) {
            *t.ends.entry(rule).or_insert(0) += 1;
            break;
        }
    }
    reached
}

/// Plays `m` in `game` and, as the reference plays it (taking `jumped` on the way), on
/// `slow`: the boards, the struck cells, the sides to move and the ends must agree.
/// Returns the rule that ended the game, if one did; the reference does not judge
/// repetitions, so a game the runtime ends so ends there unjudged.
fn play_alongside(
    v: &Variant,
    rules: &Arc<Rules>,
    game: &mut Game,
    slow: &mut reference::Simple,
    m: Move,
    jumped: &[Cell],
    at: &str,
) -> Option<usize> {
    use variantlab::variant::Event;
    let name = &v.name;
    let move_text = variantlab::write_move_at(rules, game.position(), &m);
    let mv = (m.from, m.to, m.tag, reference_kind(&m));
    let (next, want) = reference::play_jumping(v, rules.options(), slow, mv, jumped);
    game.play(m).unwrap();
    let now = simple(rules, game.position());
    assert_eq!(
        (&next.cells, next.struck, next.to_move),
        (&now.cells, now.struck, now.to_move),
        "{name}: positions differ after {move_text} at {at}"
    );
    *slow = next;
    let got = game.ending().map(|e| (e.outcome, e.winner(), e.rule));
    if let Some((.., rule)) = got
        && matches!(v.end_rules[rule].event(), Some(Event::Repetition(..)))
    {
        return Some(rule);
    }
    let want = want.map(|e| (e.0, reference::winner(e, slow.to_move)));
    assert_eq!(
        got.map(|g| (g.0, g.1)),
        want,
        "{name}: ends differ after {move_text} at {at}"
    );
    got.map(|(.., rule)| rule)
}

/// A rule of draughts a variant may be loosened by, to count where it matters.
#[derive(Clone, Copy, Debug)]
enum Loosened {
    /// Obligations made plain `captures are compulsory`.
    Majority,
    /// Only the obligations' first preferences kept, this many.
    Preferences(usize),
    /// Pieces jumped taken when the move ends (no capture `at once`).
    TakenAtOnce,
    /// No `never turning back`.
    TurningBack,
    /// Promotions made where the move ends (no promotion `at once`).
    CrownedAtOnce,
}

/// `v` with one rule loosened.
fn loosened_by(v: &Variant, rule: Loosened) -> Variant {
    let mut wide = v.clone();
    for o in &mut wide.obligations {
        match rule {
            Loosened::Majority => o.prefer.clear(),
            Loosened::Preferences(n) => o.prefer.truncate(n),
            _ => {}
        }
    }
    for piece in &mut wide.pieces {
        for p in &mut piece.moves {
            p.never_turning_back &= !matches!(rule, Loosened::TurningBack);
            if let Some(h) = &mut p.hurdle {
                h.at_once &= !matches!(rule, Loosened::TakenAtOnce);
            }
        }
        for p in &mut piece.promotion {
            p.at_once &= !matches!(rule, Loosened::CrownedAtOnce);
        }
    }
    wide
}

#[test]
fn draughts_games_agree_with_the_reference() {
    use Loosened::*;
    // Each file with the rules loosened that should matter in its games, and in how
    // many positions at least; some games start from positions strewn with Kings
    // ([`strewn`]), for the preferences among their captures.
    for (file, games, strewn_games, least_chains, least_king_jumps, rules_loosened) in [
        ("checkers.var", 200, 0, 300, 100, &[][..]),
        (
            "international-draughts.var",
            100,
            0,
            300,
            100,
            &[(Majority, 20)],
        ),
        (
            "brazilian-draughts.var",
            150,
            0,
            300,
            100,
            &[(Majority, 20)],
        ),
        (
            "russian-draughts.var",
            150,
            0,
            300,
            100,
            &[(CrownedAtOnce, 10)],
        ),
        ("pool-checkers.var", 150, 0, 300, 100, &[]),
        (
            "turkish-draughts.var",
            60,
            0,
            300,
            100,
            &[(Majority, 20), (TakenAtOnce, 5), (TurningBack, 10)],
        ),
        (
            "italian-draughts.var",
            150,
            1000,
            300,
            100,
            &[
                (Preferences(0), 200),
                (Preferences(1), 100),
                (Preferences(2), 100),
                (Preferences(3), 5),
            ],
        ),
        (
            "spanish-draughts.var",
            150,
            300,
            300,
            100,
            &[(Preferences(0), 200), (Preferences(1), 50)],
        ),
        (
            "czech-draughts.var",
            150,
            300,
            300,
            100,
            &[(Preferences(0), 200)],
        ),
    ] {
        let v = load(file);
        let rules = compiled(&v, &[]);
        let king = v.find_piece("King").unwrap();
        let wides: Vec<Variant> = (rules_loosened.iter())
            .map(|(r, _)| loosened_by(&v, *r))
            .collect();
        let wides: Vec<&Variant> = wides.iter().collect();
        let mut t = JumpTally::default();
        for seed in 0..games {
            jump_game(&v, &rules, None, 800 + seed, 150, king, &wides, 0, &mut t);
        }
        for seed in 0..strewn_games {
            let setup = strewn(&rules, seed, 2);
            jump_game(
                &v,
                &rules,
                Some(setup),
                800 + seed,
                8,
                king,
                &wides,
                0,
                &mut t,
            );
        }
        let seen = format!("{file}: {t:?}");
        println!("{seen}");
        assert!(t.positions > games as usize * 40, "{seen}");
        assert!(t.chains > least_chains && t.longest >= 3, "{seen}");
        assert!(
            t.king_jumps > least_king_jumps && t.promotions > 20,
            "{seen}"
        );
        // Games were won by leaving the other side no move.
        assert!(t.ends.get(&0).is_some_and(|n| *n > 0), "{seen}");
        for ((rule, least), n) in rules_loosened.iter().zip(&t.narrowed) {
            assert!(n >= least, "{rule:?} mattered {n} times: {seen}");
        }
        // With the first `i` preferences only, the moves differ from the game's in
        // more positions than with the first `i + 1`: the preference of index `i`
        // itself narrowed the captures somewhere, where those after it changed nothing.
        for (a, b) in (rules_loosened.iter().zip(&t.narrowed))
            .zip(rules_loosened.iter().zip(&t.narrowed).skip(1))
        {
            if let (((Preferences(i), _), n), ((Preferences(j), _), m)) = (a, b) {
                assert!(
                    *j == i + 1 && n > m,
                    "the preference of index {i} narrowed nothing itself: {seen}"
                );
            }
        }
    }
}

/// A position of `rules` (a draughts game on 8 by 8, with a Man and a King) with
/// pieces strewn at random on half the cells, about `kings` in four of them Kings,
/// White to move; no Man stands on the row it promotes on.
fn strewn(rules: &Arc<Rules>, seed: u64, kings: usize) -> Setup {
    let v = rules.variant();
    let man = v.find_piece("Man").unwrap();
    let king = v.find_piece("King").unwrap();
    let white = v.find_player("White").unwrap();
    let black = v.find_player("Black").unwrap();
    let mut rng = Lcg(seed);
    let mut setup = Setup::start(rules);
    for c in v.board.cells() {
        // The row a Man of each side promotes on.
        let far = match v.board.name(c).chars().last() {
            Some('8') => Some(white),
            Some('1') => Some(black),
            _ => None,
        };
        setup.cells[c.index()] = match rng.below(8) {
            0..4 => None,
            n => {
                let player = if n % 2 == 0 { white } else { black };
                let crowned = rng.below(4) < kings || far == Some(player);
                Some((player, if crowned { king } else { man }))
            }
        };
    }
    setup.to_move = white;
    setup
}

#[test]
fn draughts_perft_agrees_with_the_reference() {
    // The published counts, where there are.
    for (file, depth, published) in [
        ("checkers.var", 6, Some(36_768u64)),
        ("international-draughts.var", 5, Some(27_117)),
        ("brazilian-draughts.var", 6, None),
        ("russian-draughts.var", 6, Some(37_986)),
        ("pool-checkers.var", 6, Some(37_986)),
        ("turkish-draughts.var", 5, Some(85_090)),
    ] {
        let v = load(file);
        let rules = compiled(&v, &[]);
        let mut pos = Position::start(&rules).unwrap();
        let start = reference::start(&v);
        let want = reference::perft(&v, rules.options(), &start, depth);
        assert_eq!(
            variantlab::perft(&rules, &mut pos, depth),
            want,
            "{file} runtime"
        );
        if let Some(n) = published {
            assert_eq!(want, n, "{file} reference");
        }
        // Depth 3 from positions along random games, where chains and kings are.
        let king = v.find_piece("King").unwrap();
        let mut t = JumpTally::default();
        let mut texts = Vec::new();
        for seed in 0..4 {
            texts.extend(jump_game(
                &v,
                &rules,
                None,
                900 + seed,
                120,
                king,
                &[],
                12,
                &mut t,
            ));
        }
        assert!(texts.len() >= 12, "{file}: {} positions", texts.len());
        for (text, mut pos) in texts {
            let want = reference::perft(&v, rules.options(), &simple(&rules, &pos), 3);
            assert_eq!(
                variantlab::perft(&rules, &mut pos, 3),
                want,
                "{file}: perft 3 at {text}"
            );
        }
    }
}

/// Draughts pieces on a whole board of 8 by 8, with jumps the draughts files leave
/// out: a Man hops straight over a friend (`h`) and may not take a King; a Lancer takes
/// one piece a jump, never going on (`j`), and hops over a friend to any cell beyond,
/// taking an enemy there as a chess piece does.
const HOPS: &str = "name \"Hops and jumps\"\n\
    board square 8 by 8\n\
    coordinates files lettered from the left, ranks numbered from the bottom\n\
    player White: forward north, capitals\n\
    player Black: forward south, lowercase\n\
    tag h \"hop\"\ntag j \"jump\"\ntag k \"king's capture\"\n\
    zone far: far 1 ranks\n\
    piece Man (M) {\n  step 1 forward diagonal, to empty\n  \
    slide 2 straight forward, over 1 friend, to empty, tagged h\n  \
    slide 2 diagonal, over 1 enemy except King, capturing the piece jumped, again while it can\n  \
    promotes on entering far to King\n}\n\
    piece King (K) {\n  slide diagonal, to empty\n  \
    slide diagonal, over 1 enemy, capturing the piece jumped, again while it can, tagged k\n}\n\
    piece Lancer (L) {\n  step 1 orthogonal, to empty\n  \
    slide 2 orthogonal, over 1 enemy, capturing the piece jumped, tagged j\n  \
    slide orthogonal, over 1 friend\n}\n\
    setup {\n  White: Man a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3, Lancer b1 h1\n  \
    Black: Man b8 d8 f8 h8 a7 c7 e7 g7 b6 d6 f6 h6, Lancer a8 g8\n}\n\
    captures are compulsory\n\
    game ends {\n  no legal move: mover wins\n  position repeated 3 times: draw\n}\n";

/// Antichess with jumps: Pawns also jump forward over enemies in chains, a Catapult
/// in the Rook's place takes two pieces at once, flying over them, and the capture
/// taking the most pieces must be made (an ordinary capture takes one). No piece is
/// royal.
const MAJORITY: &str = "name \"Majority chess\"\n\
    board square 8 by 8\n\
    coordinates files lettered from the left, ranks numbered from the bottom\n\
    player White: forward north, capitals\n\
    player Black: forward south, lowercase\n\
    zone far: far 1 ranks\n\
    piece King (K) {\n  step 1 any\n}\n\
    piece Queen (Q) {\n  slide any\n}\n\
    piece Catapult (C) {\n  slide orthogonal, to empty\n  \
    slide orthogonal, over 2 enemies, capturing the pieces jumped\n}\n\
    piece Bishop (B) {\n  slide diagonal\n}\n\
    piece Knight (N) {\n  leap 1 orthogonal then 1 outward diagonal\n}\n\
    piece Pawn (P) {\n  step 1 straight forward, to empty\n  \
    step 2 straight forward, to empty, from start, en passant by Pawn\n  \
    step 1 forward diagonal, to enemy\n  \
    slide 2 forward diagonal, over 1 enemy, capturing the piece jumped, again while it can\n  \
    promotes on entering far to Queen or King\n}\n\
    setup {\n  White: Pawn a2 b2 c2 d2 e2 f2 g2 h2, Catapult a1 h1, Knight b1 g1, \
    Bishop c1 f1, Queen d1, King e1\n  \
    Black: Catapult a8 h8, Knight b8 g8, Bishop c8 f8, Queen d8, King e8, \
    Pawn a7 b7 c7 d7 e7 f7 g7 h7\n}\n\
    captures are compulsory, taking the most pieces\n\
    game ends {\n  no legal move: mover loses\n  position repeated 3 times: draw\n}\n";

/// A game of `rules` with only `pieces` (cell, player, kind) on the board, `to_move`
/// to move.
fn placed(rules: &Arc<Rules>, to_move: &str, pieces: &[(&str, &str, &str)]) -> Game {
    let v = rules.variant();
    let mut setup = Setup::start(rules);
    setup.cells.iter_mut().for_each(|c| *c = None);
    for (cell, player, piece) in pieces {
        let c = v.board.parse_cell(cell).unwrap();
        setup.cells[c.index()] =
            Some((v.find_player(player).unwrap(), v.find_piece(piece).unwrap()));
    }
    setup.to_move = v.find_player(to_move).unwrap();
    Game::new(rules.clone(), setup).unwrap()
}

/// The legal moves of `game` as text (`from-to`, then `x` and the cells taken by
/// jumping, `=Kind` for the kind made, `:t` for the tag), sorted, after both
/// generators and the runtime's chains have agreed along a few random plies from it.
fn jump_texts(rules: &Arc<Rules>, game: &Game) -> Vec<String> {
    let v = rules.variant();
    let king = v.find_piece("King").unwrap();
    let mut t = JumpTally::default();
    for seed in 0..4 {
        let setup = game.position().to_setup(rules);
        jump_game(v, rules, Some(setup), seed, 6, king, &[], 0, &mut t);
    }
    let name = |c: u16| v.board.name(Cell(c)).to_lowercase();
    let mut out: Vec<String> = runtime_jumps(rules, game.position())
        .into_iter()
        .map(|(f, to, taken, kind, tag)| {
            let mut s = format!("{}-{}", name(f), name(to));
            let mut taken: Vec<String> = taken.into_iter().map(name).collect();
            taken.sort();
            for c in taken {
                s += &format!(" x{c}");
            }
            if let Some(k) = kind {
                s += &format!("={}", v.pieces[k as usize].name);
            }
            if let Some(t) = tag {
                s += &format!(":{}", v.tags[t as usize].mark);
            }
            s
        })
        .collect();
    out.sort();
    out
}

#[test]
fn draughts_clauses_agree_with_the_reference() {
    // Random games from the starts.
    for (text, games, wide) in [
        (HOPS, 200, "except King"),
        (MAJORITY, 100, ", taking the most pieces"),
    ] {
        let rules = common::from_text(text);
        let v = rules.variant().clone();
        let loose = common::from_text(&text.replace(wide, ""));
        let king = v.find_piece("King").unwrap();
        let mut t = JumpTally::default();
        for seed in 0..games {
            jump_game(
                &v,
                &rules,
                None,
                1000 + seed,
                150,
                king,
                &[loose.variant()],
                0,
                &mut t,
            );
        }
        let seen = format!("{}: {t:?}", v.name);
        println!("{seen}");
        assert!(t.positions > 2000, "{seen}");
        assert!(t.chains > 50 && t.narrowed[0] > 20, "{seen}");
        assert!(t.plain_captures > 100, "{seen}");
        if v.name == "Hops and jumps" {
            // Hops, the Lancer's single jumps and the King's chains were all listed.
            let tagged = |mark: char| {
                let i = v.tags.iter().position(|t| t.mark == mark).unwrap();
                t.tags.get(&(i as u8)).copied().unwrap_or(0)
            };
            assert!(
                tagged('h') > 100 && tagged('j') > 50 && tagged('k') > 20,
                "{seen}"
            );
        }
    }
}

#[test]
fn draughts_by_hand_agree_with_the_reference() {
    let hops = common::from_text(HOPS);
    let majority = common::from_text(MAJORITY);
    let checkers = compiled(&load("checkers.var"), &[]);
    let international = compiled(&load("international-draughts.var"), &[]);
    let russian = compiled(&load("russian-draughts.var"), &[]);
    let pool = compiled(&load("pool-checkers.var"), &[]);
    let turkish = compiled(&load("turkish-draughts.var"), &[]);
    let (w, b) = ("White", "Black");
    for (rules, to_move, pieces, want) in [
        // A Man may not take a King: it takes the Man on c5, and stops on b6.
        (
            &hops,
            w,
            &[("d4", w, "Man"), ("c5", b, "Man"), ("e5", b, "King")][..],
            &["d4-b6 xc5"][..],
        ),
        // With no capture, a Man hops straight over a friend.
        (
            &hops,
            w,
            &[("d4", w, "Man"), ("d5", w, "Man"), ("e5", b, "King")],
            &["d4-c5", "d4-d6:h", "d5-c6", "d5-e6"],
        ),
        // A Lancer takes a2 and stops, a4 standing; over its friend on b1 it takes e1
        // as a chess piece does. Both are captures.
        (
            &hops,
            w,
            &[
                ("a1", w, "Lancer"),
                ("b1", w, "Man"),
                ("a2", b, "Man"),
                ("a4", b, "Man"),
                ("e1", b, "Man"),
            ],
            &["a1-a3 xa2:j", "a1-e1"],
        ),
        // Of a Pawn's captures, only the chain over e5 and g7 takes two; it promotes
        // on h8, where it ends.
        (
            &majority,
            w,
            &[
                ("d4", w, "Pawn"),
                ("h1", w, "King"),
                ("c5", b, "Pawn"),
                ("e5", b, "Pawn"),
                ("g7", b, "Pawn"),
                ("a8", b, "King"),
            ],
            &["d4-h8 xe5 xg7=King", "d4-h8 xe5 xg7=Queen"],
        ),
        // The Catapult takes a3 and a5 together, landing on any empty cell beyond; the
        // Queen's capture of d2 takes one.
        (
            &majority,
            w,
            &[
                ("a1", w, "Catapult"),
                ("d1", w, "Queen"),
                ("a3", b, "Pawn"),
                ("a5", b, "Knight"),
                ("d2", b, "Pawn"),
                ("h8", b, "King"),
            ],
            &["a1-a6 xa3 xa5", "a1-a7 xa3 xa5", "a1-a8 xa3 xa5"],
        ),
        // A King's round trip ends where it started, taking four; both ways round are
        // one move.
        (
            &checkers,
            w,
            &[
                ("c3", w, "King"),
                ("d4", b, "Man"),
                ("f4", b, "Man"),
                ("f2", b, "Man"),
                ("d2", b, "Man"),
            ],
            &["c3-c3 xd2 xd4 xf2 xf4"],
        ),
        // A Man crowned on d8 stops there, though as a King it could take e7.
        (
            &checkers,
            w,
            &[("b6", w, "Man"), ("c7", b, "Man"), ("e7", b, "Man")],
            &["b6-d8 xc7=King"],
        ),
        // A Man crossing the far row goes on capturing backward and stays a Man.
        (
            &international,
            w,
            &[("d8", w, "Man"), ("e9", b, "Man"), ("g9", b, "Man")],
            &["d8-h8 xe9 xg9"],
        ),
        (
            &international,
            w,
            &[("d8", w, "Man"), ("e9", b, "Man")],
            &["d8-f10 xe9=King"],
        ),
        // The majority rule: two pieces by f4 and h6, not one by d4.
        (
            &international,
            w,
            &[
                ("e3", w, "Man"),
                ("d4", b, "Man"),
                ("f4", b, "Man"),
                ("h6", b, "Man"),
            ],
            &["e3-i7 xf4 xh6"],
        ),
        // A Russian Man crowned on d8 at once flies on over b6 as a King; a pool Man
        // stops there, crowned where its move ends.
        (
            &russian,
            w,
            &[("f6", w, "Man"), ("e7", b, "Man"), ("b6", b, "Man")],
            &["f6-a5 xb6 xe7=King"],
        ),
        (
            &pool,
            w,
            &[("f6", w, "Man"), ("e7", b, "Man"), ("b6", b, "Man")],
            &["f6-d8 xe7=King"],
        ),
        // Crossing the far row, the Russian Man goes on as a King, landing anywhere
        // beyond e7; the pool Man goes on as a Man and ends one, off the far row.
        (
            &russian,
            w,
            &[("b6", w, "Man"), ("c7", b, "Man"), ("e7", b, "Man")],
            &[
                "b6-f6 xc7 xe7=King",
                "b6-g5 xc7 xe7=King",
                "b6-h4 xc7 xe7=King",
            ],
        ),
        (
            &pool,
            w,
            &[("b6", w, "Man"), ("c7", b, "Man"), ("e7", b, "Man")],
            &["b6-f6 xc7 xe7"],
        ),
        // Over e3 the King must land on d4, the one square from which it goes on; over
        // c3 it may land on b2 or a1, neither going on.
        (
            &russian,
            w,
            &[("g1", w, "King"), ("e3", b, "Man"), ("c3", b, "Man")],
            &["g1-a1 xc3 xe3", "g1-b2 xc3 xe3"],
        ),
        (
            &pool,
            w,
            &[("g1", w, "King"), ("e3", b, "Man"), ("c3", b, "Man")],
            &["g1-a1 xc3 xe3", "g1-b2 xc3 xe3"],
        ),
        // A Turkish King lands where it goes on: d5, h5, h3; from h3 it flies over d3,
        // taken at once, to take b3.
        (
            &turkish,
            w,
            &[
                ("d1", w, "King"),
                ("d3", b, "Man"),
                ("f5", b, "Man"),
                ("h4", b, "Man"),
                ("b3", b, "Man"),
            ],
            &["d1-a3 xb3 xd3 xf5 xh4"],
        ),
        // Having taken c4 it may not turn straight back over its empty start to take
        // g4: each capture takes one.
        (
            &turkish,
            w,
            &[("e4", w, "King"), ("c4", b, "Man"), ("g4", b, "Man")],
            &["e4-a4 xc4", "e4-b4 xc4", "e4-h4 xg4"],
        ),
        // A Turkish Man's chain starts off the far row and ends on it: it is crowned,
        // though its last capture ran along the row.
        (
            &turkish,
            w,
            &[("g6", w, "Man"), ("g7", b, "Man"), ("f8", b, "Man")],
            &["g6-e8 xf8 xg7=King"],
        ),
    ] {
        let game = placed(rules, to_move, pieces);
        let want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            jump_texts(rules, &game),
            want,
            "{}: {}",
            rules.variant().name,
            game.position_string()
        );
    }
}

/// The King's capture by jumping in [`draughts_with`]: flying, in chains.
const KING_JUMP: &str =
    "slide diagonal, over 1 enemy, capturing the piece jumped, again while it can";

/// Draughts on a whole board of 8 by 8, the Man's capture by jumping `jump` and more
/// statements `more`.
fn draughts_with(jump: &str, more: &str) -> String {
    draughts_of(jump, "", KING_JUMP, more)
}

/// Draughts on a whole board of 8 by 8: the Man's capture by jumping `jump`, its
/// promotion on the far row followed by `crowning` (`, at once`), the King's capture by
/// jumping `king`, and more statements `more`.
fn draughts_of(jump: &str, crowning: &str, king: &str, more: &str) -> String {
    format!(
        "name \"Draughts with\"\nboard square 8 by 8\n\
         coordinates files lettered from the left, ranks numbered from the bottom\n\
         player White: forward north, capitals\nplayer Black: forward south, lowercase\n\
         zone far: far 1 ranks\n\
         piece Man (M) {{\n  step 1 forward diagonal, to empty\n  {jump}\n  \
         promotes on entering far to King{crowning}\n}}\n\
         piece King (K) {{\n  slide diagonal, to empty\n  {king}\n}}\n\
         setup {{\n  White: Man a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3\n  \
         Black: Man b8 d8 f8 h8 a7 c7 e7 g7 b6 d6 f6 h6\n}}\n\
         {more}\
         game ends {{\n  no legal move: mover wins\n  position repeated 3 times: draw\n}}\n"
    )
}

/// The start of `rules` with the pieces on `cells` made Kings.
fn start_with_kings(rules: &Arc<Rules>, cells: &[&str]) -> Setup {
    let v = rules.variant();
    let king = v.find_piece("King").unwrap();
    let mut setup = Setup::start(rules);
    for name in cells {
        let c = v.board.parse_cell(name).unwrap();
        let (player, _) = setup.cells[c.index()].expect("a piece to crown");
        setup.cells[c.index()] = Some((player, king));
    }
    setup
}

/// The text of a shipped variant file with `from` (which it must hold) replaced by
/// `to`.
fn shipped_with(file: &str, from: &str, to: &str) -> String {
    let path = format!("{}/variants/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(text.contains(from), "{file} has no {from:?}");
    text.replace(from, to)
}

#[test]
fn draughts_with_other_rules_agree_with_the_reference() {
    use Loosened::*;
    let jump = "slide 2 diagonal, over 1 enemy, capturing the piece jumped, again while it can";
    let at_once = |m: &str| {
        m.replace(
            "capturing the piece jumped",
            "capturing the piece jumped at once",
        )
    };
    let no_turning = |m: &str| {
        m.replace(
            "again while it can",
            "again while it can, never turning back",
        )
    };
    let compulsory = "captures are compulsory\n";
    let majority = "captures are compulsory, taking the most pieces\n";
    // Men made Kings at the start, for games where Kings capture early.
    let kings = &["c1", "g1", "b8", "f8"][..];
    // Each case with its number of games, the men crowned at its start, and the rules
    // loosened that should matter in its games.
    for (what, text, games, crowned, rules_loosened) in [
        // Friends are never captured: `over 1 piece` jumps enemies only.
        (
            "over 1 piece",
            draughts_with(&jump.replace("enemy", "piece"), compulsory),
            30,
            &[][..],
            &[][..],
        ),
        // Two pieces a capture, flying, in chains.
        (
            "over 2 enemies",
            draughts_with(
                "slide diagonal, over 2 enemies, capturing the pieces jumped, again while it can",
                majority,
            ),
            30,
            &[],
            &[Majority],
        ),
        // A Man is taken by a Man only: a King jumps Kings alone.
        (
            "captured only by",
            draughts_with(&format!("{jump}\n  captured only by Man"), compulsory),
            30,
            &[],
            &[],
        ),
        (
            "hands",
            draughts_with(
                jump,
                "captures are compulsory\ncaptured pieces go to hand\n",
            ),
            30,
            &[],
            &[],
        ),
        (
            "explosions",
            draughts_with(jump, "captures are compulsory\ncaptures explode\n"),
            30,
            &[],
            &[],
        ),
        (
            "enclosures",
            draughts_with(
                jump,
                "captures are compulsory, taking the most pieces\n\
                 enclosed enemy pieces are captured, on orthogonal lines\n",
            ),
            30,
            &[],
            &[Majority],
        ),
        // A flying King takes its pieces at once, and may fly back over their cells.
        (
            "a King taking at once",
            draughts_of(jump, "", &at_once(KING_JUMP), compulsory),
            100,
            kings,
            &[TakenAtOnce],
        ),
        // Kings take at once and never turn back; Men may jump backward, and never
        // straight back either.
        (
            "never turning back",
            draughts_of(
                &no_turning(jump),
                "",
                &no_turning(&at_once(KING_JUMP)),
                majority,
            ),
            100,
            kings,
            &[TurningBack],
        ),
        // A Man crowned at once goes on as a King that takes at once, never turning
        // back.
        (
            "crowned at once",
            draughts_of(
                jump,
                ", at once",
                &no_turning(&at_once(KING_JUMP)),
                compulsory,
            ),
            100,
            kings,
            &[CrownedAtOnce],
        ),
        // The International Man crowned at once, under the majority rule.
        (
            "international, crowned at once",
            shipped_with(
                "international-draughts.var",
                "promotes on entering far to King",
                "promotes on entering far to King, at once",
            ),
            30,
            &[],
            &[CrownedAtOnce, Majority],
        ),
        // A Turkish Man crowned at once on the far row goes on along it as a King (that
        // seldom matters: enemies seldom stand on that row).
        (
            "turkish, crowned at once",
            shipped_with(
                "turkish-draughts.var",
                "promotes on entering far to King",
                "promotes on entering far to King, at once",
            ),
            30,
            &[],
            &[TakenAtOnce],
        ),
    ] {
        let rules = common::from_text(&text);
        let v = rules.variant().clone();
        let king = v.find_piece("King").unwrap();
        let wides: Vec<Variant> = (rules_loosened.iter())
            .map(|r| loosened_by(&v, *r))
            .collect();
        let wides: Vec<&Variant> = wides.iter().collect();
        let mut t = JumpTally::default();
        for seed in 0..games {
            let setup = (!crowned.is_empty()).then(|| start_with_kings(&rules, crowned));
            jump_game(&v, &rules, setup, 1200 + seed, 150, king, &wides, 0, &mut t);
        }
        let seen = format!("{what}: {t:?}");
        println!("{seen}");
        assert!(t.positions > 800 && t.jumps > 10, "{seen}");
        for (rule, n) in rules_loosened.iter().zip(&t.narrowed) {
            assert!(*n > 0, "{rule:?} never mattered: {seen}");
        }
    }
}

/// Captures that the preferences of Italian, Spanish and Czech draughts choose among,
/// in positions worked by hand (PDN; on the Italian and Spanish boards a8 is 1, c8 2,
/// b7 5 ... h1 32; on the Czech board b8 is 1, a7 5 ... g1 32).
#[test]
fn draughts_preferences_by_hand_agree_with_the_reference() {
    let italian = compiled(&load("italian-draughts.var"), &[]);
    let spanish = compiled(&load("spanish-draughts.var"), &[]);
    let czech = compiled(&load("czech-draughts.var"), &[]);
    for (rules, pdn, want) in [
        // Italian, the most pieces first: the man on d3 takes c4 and c6 (landing on
        // b5, then d7), the King on f1 only g2.
        (&italian, "W:W22,K31:B18,10,28", &["d3-d7 xc4 xc6"][..]),
        // By a King: one piece each, the King's capture.
        (&italian, "W:W22,K31:B18,28", &["f1-h3 xg2"]),
        // The most Kings: the King on d3 takes the man on c4 or the King on e4.
        (&italian, "W:WK22:B18,K19", &["d3-f5 xe4"]),
        // The most Kings before the earliest: three pieces each, by a King each. The
        // King on a2 takes the King on b3 first, then the men on b5 and b7 (ending on
        // c8); the King on h1 takes the man on g2 first, then the Kings on g4 and g6
        // (ending on f7): two Kings beat a King taken first.
        (
            &italian,
            "W:WK25,K32:BK21,13,5,28,K20,K12",
            &["h1-f7 xg2 xg4 xg6"],
        ),
        // Taking a King earliest: two pieces each, one King each; the King on a2
        // takes its King (b3) first, the King on h1 (g2, then g4) second.
        (&italian, "W:WK25,K32:BK21,13,28,K20", &["a2-a6 xb3 xb5"]),
        // One set of pieces in two orders: round the square of e4, g4, g2, e2 either
        // way back to d3, then c4, ending on b5. Taking the King on e4 first or
        // fourth, they are two moves, and the earliest is kept: one move (whose path
        // is checked below).
        (
            &italian,
            "W:WK22:BK19,20,28,27,18",
            &["d3-b5 xc4 xe2 xe4 xg2 xg4"],
        ),
        // With Kings on e4 and e2 both ways take Kings first and fourth: one move.
        (
            &italian,
            "W:WK22:BK19,20,28,K27,18",
            &["d3-b5 xc4 xe2 xe4 xg2 xg4"],
        ),
        // A man may not take a King: the man on f3 leaves e4 to the King on d3.
        (&italian, "W:WK22,23:B18,K19", &["d3-f5 xe4"]),
        // Spanish: one piece each, the man on a2 takes the King on b3; the flying King
        // on b1 would take the man on c2.
        (&spanish, "W:W25,K29:BK21,26", &["a2-c4 xb3"]),
        // Czech: the King on a5 takes b6, though the man on e1 takes d2 and d4.
        (&czech, "W:WK13,31:B9,18,26", &["a5-c7 xb6", "a5-d8 xb6"]),
    ] {
        let game = common::game(rules, pdn);
        let want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            jump_texts(rules, &game),
            want,
            "{}: {pdn}",
            rules.variant().name
        );
    }
    // The paths round the square: the King on e4 first is the path kept; with Kings
    // on e4 and e2 either is the one move.
    let v = italian.variant();
    let cell = |name: &str| v.board.parse_cell(name).unwrap();
    let cells = |names: &[&str]| -> Vec<Cell> { names.iter().map(|n| cell(n)).collect() };
    let (first, second) = (
        cells(&["f5", "h3", "f1", "d3"]),
        cells(&["f1", "h3", "f5", "d3"]),
    );
    for (pdn, paths) in [
        ("W:WK22:BK19,20,28,27,18", vec![first.clone()]),
        ("W:WK22:BK19,20,28,K27,18", vec![first, second]),
    ] {
        let game = common::game(&italian, pdn);
        let pos = game.position();
        let [m] = game.legal_moves()[..] else {
            panic!("{pdn}: not one move");
        };
        let jumped = jumped_cells(&italian, pos, &m);
        let slow = simple(&italian, pos);
        let kept = reference::landings(v, italian.options(), &slow, m.from, m.to, &jumped);
        assert_eq!(kept, paths.iter().cloned().collect(), "{pdn}");
        let (landed, _) = pos.jump_path(&italian, &m);
        assert!(
            paths.contains(&landed),
            "{pdn}: the runtime lands on {landed:?}"
        );
    }
}

/// Italian draughts with the King's captures tagged by their way (`b` backward, `f`
/// forward): two chains round the square of e4, g4, g2, e2 from d3 back to d3, the
/// one ending forward, the other backward. With the King on e4 (or e2) taken first or
/// fourth they are two moves, and the one kept has its own tag (with the King on e4,
/// `f`, though `b` is less). Where both are one move, as with Kings on e4 and e2, the
/// language leaves its tag open (rule 74), and the generators choose differently.
#[test]
fn draughts_chains_taking_kings_in_other_places_keep_their_tags() {
    let capture =
        "  slide 2 diagonal, over 1 enemy, capturing the piece jumped, again while it can\n}";
    let tagged = "  slide 2 backward diagonal, over 1 enemy, capturing the piece jumped, \
                  again while it can, tagged b\n  \
                  slide 2 forward diagonal, over 1 enemy, capturing the piece jumped, \
                  again while it can, tagged f\n}";
    let text = shipped_with("italian-draughts.var", capture, tagged).replace(
        "pieces drawn as discs",
        "tag b \"backward\"\ntag f \"forward\"\npieces drawn as discs",
    );
    let rules = common::from_text(&text);
    for (pdn, want) in [
        ("W:WK22:BK19,20,28,27", "d3-d3 xe2 xe4 xg2 xg4:f"),
        ("W:WK22:B19,20,28,K27", "d3-d3 xe2 xe4 xg2 xg4:b"),
    ] {
        let game = common::game(&rules, pdn);
        assert_eq!(jump_texts(&rules, &game), [want], "{pdn}");
    }
}

/// A Turkish King whose capture winds: it jumps a neighbour and lands on any empty cell
/// next to it, in chains. Taking c3 and e3, in either order, it may end next to either
/// (or back on d4): a capture with several paths to one cell takes other pieces by
/// each, so both orders are moves.
#[test]
fn draughts_winding_chains_agree_with_the_reference() {
    let capture = "slide orthogonal, over 1 enemy, capturing the piece jumped at once, \
                   again while it can, never turning back";
    let winding = "step 2 any, over 1 enemy, capturing the piece jumped, again while it can";
    let rules = common::from_text(&shipped_with("turkish-draughts.var", capture, winding));
    let (w, b) = ("White", "Black");
    let game = placed(
        &rules,
        w,
        &[("d4", w, "King"), ("c3", b, "Man"), ("e3", b, "Man")],
    );
    let ends = [
        "b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4", "e2", "e4", "f2", "f3", "f4",
    ];
    let want: Vec<String> = ends.iter().map(|e| format!("d4-{e} xc3 xe3")).collect();
    assert_eq!(jump_texts(&rules, &game), want);
}

// ---- Moves in two steps: the Lion ----------------------------------------------------

/// A [`JumpKey`] as text: `from-to`, then ` xC` for each cell taken on the way (not
/// the end), `=Kind` for the kind made and `:t` for the tag.
fn jump_key_text(v: &Variant, (f, to, taken, kind, tag): &JumpKey) -> String {
    let name = |c: u16| v.board.name(Cell(c)).to_lowercase();
    let mut s = format!("{}-{}", name(*f), name(*to));
    for c in taken {
        s += &format!(" x{}", name(*c));
    }
    if let Some(k) = kind {
        s += &format!("={}", v.pieces[*k as usize].name);
    }
    if let Some(t) = tag {
        s += &format!(":{}", v.tags[*t as usize].mark);
    }
    s
}

/// Asserts that both generators list the same moves at `at`, naming those only one of
/// them lists.
fn same_jumps(v: &Variant, got: &BTreeSet<JumpKey>, want: &BTreeSet<JumpKey>, at: &str) {
    if got != want {
        let only = |a: &BTreeSet<JumpKey>, b: &BTreeSet<JumpKey>| -> Vec<String> {
            a.difference(b).map(|k| jump_key_text(v, k)).collect()
        };
        panic!(
            "{}: generators differ at {at}: only the runtime lists {:?}, only the reference {:?}",
            v.name,
            only(got, want),
            only(want, got)
        );
    }
}

/// The cells of the pieces a runtime move takes on its way, sorted: as
/// [`jumped_cells`], but for the piece on its end, which the runtime counts among them
/// when a capture by jumping ends on an enemy (`to enemy`) and the reference does not.
fn taken_on_the_way(rules: &Arc<Rules>, pos: &Position, m: &Move) -> Vec<Cell> {
    let mut taken = jumped_cells(rules, pos, m);
    if m.from != m.to {
        taken.retain(|c| *c != m.to);
    }
    taken
}

/// [`runtime_jumps`] with [`taken_on_the_way`].
fn runtime_lion_jumps(rules: &Arc<Rules>, pos: &Position) -> BTreeSet<JumpKey> {
    let mut list = Vec::new();
    pos.legal_moves(rules, &mut list);
    let set: BTreeSet<JumpKey> = list
        .iter()
        .map(|m| {
            (
                m.from.0,
                m.to.0,
                taken_on_the_way(rules, pos, m)
                    .iter()
                    .map(|c| c.0)
                    .collect(),
                reference_kind(m).map(|k| k.0),
                m.tag.map(|t| t.0),
            )
        })
        .collect();
    assert_eq!(set.len(), list.len(), "the runtime listed a move twice");
    set
}

/// What [`lion_game`] compared and saw.
#[derive(Debug, Default)]
struct LionTally {
    /// Positions at which both generators listed the same moves, and moves played
    /// after which the positions (the struck cell too) and ends agreed.
    positions: usize,
    moves: usize,
    /// Legal moves compared: captures by jumping that land on an empty cell beyond,
    /// that take on their end too, that take without moving (igui); passes; moves
    /// that promote.
    beyond: usize,
    double: usize,
    in_place: usize,
    passes: usize,
    promotions: usize,
    /// Positions with a struck cell (rule 84).
    struck: usize,
    /// Positions where the reference lists other moves with a rule loosened, one
    /// count per loosened variant.
    narrowed: Vec<usize>,
    /// Games each end rule decided, by the rule's index.
    ends: std::collections::BTreeMap<usize, usize>,
}

/// A rule of the Lion a variant may be loosened by, to count where it matters.
#[derive(Clone, Copy, Debug)]
enum LionRule {
    /// No `captured by ... from afar only when undefended`.
    Guarded,
    /// Its `unless the move also captures ...` left out (which narrows).
    Bridge,
    /// No counter-strike rule.
    Counterstrike,
}

/// `v` with one of the Lion's rules loosened.
fn without_rule(v: &Variant, rule: LionRule) -> Variant {
    let mut wide = v.clone();
    for p in &mut wide.pieces {
        match rule {
            LionRule::Guarded => p.guarded.clear(),
            LionRule::Bridge => p.guarded.iter_mut().for_each(|g| g.other_than = None),
            LionRule::Counterstrike => {}
        }
    }
    if matches!(rule, LionRule::Counterstrike) {
        wide.counterstrike = 0;
    }
    wide
}

/// A random game from `setup` (the variant's start when `None`), choosing a capture
/// two times in three where there is one: at every ply both generators list the same
/// moves with the same pieces taken on the way, and after the move chosen (played by
/// the reference on its own position, carried from the first) the boards, the struck
/// cells, the sides to move and the ends agree. A game the runtime ends by repetition
/// stops there. Returns the positions reached every `every` plies, and those with a
/// struck cell (when `every` is not 0), with their strings.
#[allow(clippy::too_many_arguments)]
fn lion_game(
    v: &Variant,
    rules: &Arc<Rules>,
    setup: Option<Setup>,
    seed: u64,
    plies: usize,
    wides: &[&Variant],
    every: usize,
    t: &mut LionTally,
) -> Vec<(String, Position)> {
    let options = rules.options();
    let name = &v.name;
    let mut rng = Lcg(seed);
    let from_start = setup.is_none();
    let mut game =
        Game::new(rules.clone(), setup.unwrap_or_else(|| Setup::start(rules))).expect("a position");
    let mut slow = simple(rules, game.position());
    if from_start {
        assert_eq!(reference::start(v), slow, "{name}: the starts differ");
    }
    let mut reached = Vec::new();
    for ply in 0..plies {
        let at = game.position_string();
        let pos = game.position().clone();
        if every > 0 && (ply % every == every - 1 || slow.struck.is_some()) {
            reached.push((at.clone(), pos.clone()));
        }
        let want = reference_jumps(v, options, &slow);
        same_jumps(v, &runtime_lion_jumps(rules, &pos), &want, &at);
        t.positions += 1;
        t.struck += usize::from(slow.struck.is_some());
        t.narrowed.resize(wides.len(), 0);
        for (n, wide) in t.narrowed.iter_mut().zip(wides) {
            *n += usize::from(reference_jumps(wide, options, &slow) != want);
        }
        for (f, to, taken, kind, _) in &want {
            let ends_on_piece = slow.cells[*to as usize].is_some();
            match (f == to, taken.is_empty()) {
                (true, true) => t.passes += 1,
                (true, false) => t.in_place += 1,
                (false, false) if ends_on_piece => t.double += 1,
                (false, false) => t.beyond += 1,
                (false, true) => {}
            }
            t.promotions += usize::from(kind.is_some());
        }
        let mut moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        moves.sort_by_key(|m| (m.from, m.to, m.promotion, taken_on_the_way(rules, &pos, m)));
        let captures: Vec<Move> = (moves.iter())
            .filter(|m| {
                !taken_on_the_way(rules, &pos, m).is_empty()
                    || (m.from != m.to && pos.at(m.to).is_some())
            })
            .copied()
            .collect();
        let m = if !captures.is_empty() && rng.below(3) > 0 {
            captures[rng.below(captures.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        let jumped = taken_on_the_way(rules, &pos, &m);
        t.moves += 1;
        if let Some(rule) = play_alongside(v, rules, &mut game, &mut slow, m, &jumped, &at) {
            *t.ends.entry(rule).or_insert(0) += 1;
            break;
        }
    }
    reached
}

/// The moves both generators list in `game`, which must agree, from the cell `from`
/// (every cell: `None`), as [`jump_key_text`] writes them, sorted.
fn lion_moves(rules: &Arc<Rules>, game: &Game, from: Option<&str>) -> Vec<String> {
    let v = rules.variant();
    let pos = game.position();
    let at = game.position_string();
    let want = reference_jumps(v, rules.options(), &simple(rules, pos));
    same_jumps(v, &runtime_lion_jumps(rules, pos), &want, &at);
    let from = from.map(|c| v.board.parse_cell(c).unwrap().0);
    let mut out: Vec<String> = (want.iter())
        .filter(|k| from.is_none_or(|f| k.0 == f))
        .map(|k| jump_key_text(v, k))
        .collect();
    out.sort();
    out
}

/// Perft to `depth` from each position, the runtime's against the reference's.
fn lion_perft(v: &Variant, rules: &Arc<Rules>, positions: Vec<(String, Position)>, depth: u32) {
    for (text, mut pos) in positions {
        let want = reference::perft(v, rules.options(), &simple(rules, &pos), depth);
        assert_eq!(
            variantlab::perft(rules, &mut pos, depth),
            want,
            "{}: perft {depth} at {text}",
            v.name
        );
    }
}

fn chu() -> (Variant, Arc<Rules>) {
    let v = load("chu-shogi.var");
    let rules = compiled(&v, &[]);
    (v, rules)
}

/// The moves written as `from-to`, with the cells within two of `from` given as
/// (files, ranks) offsets, but those in `but`.
fn leaps_around(v: &Variant, from: &str, but: &[&str]) -> Vec<String> {
    let c = v.board.parse_cell(from).unwrap();
    let (x, y) = v.board.point(c);
    let mut out = vec![];
    for dx in -2..=2 {
        for dy in -2..=2 {
            if let Some(to) = v.board.at((x + dx, y + dy))
                && to != c
            {
                let to = v.board.name(to).to_lowercase();
                if !but.contains(&to.as_str()) {
                    out.push(format!("{from}-{to}"));
                }
            }
        }
    }
    out
}

#[test]
fn chu_shogi_perft_agrees_with_the_reference_in_brief() {
    chu_shogi_perft_agrees_with_the_reference(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn chu_shogi_perft_agrees_with_the_reference_in_full() {
    chu_shogi_perft_agrees_with_the_reference(Size::Full);
}

fn chu_shogi_perft_agrees_with_the_reference(size: Size) {
    let (v, rules) = chu();
    let start = reference::start(&v);
    let mut pos = Position::start(&rules).unwrap();
    let depth = if size == Size::Full { 3 } else { 2 };
    let want = reference::perft(&v, rules.options(), &start, depth);
    assert_eq!(want, [36, 1296, 48315][depth as usize - 1], "the reference");
    assert_eq!(
        variantlab::perft(&rules, &mut pos, depth),
        want,
        "the runtime"
    );
    // Depth 2 from positions along random games (the struck cell among them), and
    // from shogiops' published positions.
    let mut t = LionTally::default();
    let mut positions = Vec::new();
    for seed in 0..size.of_u64(8) {
        positions.extend(lion_game(
            &v,
            &rules,
            None,
            1300 + seed,
            300,
            &[],
            15,
            &mut t,
        ));
    }
    let struck = positions
        .iter()
        .filter(|(_, p)| p.to_setup(&rules).struck.is_some())
        .count();
    println!(
        "chu shogi perft: {} positions, {struck} struck",
        positions.len()
    );
    assert!(
        positions.len() >= size.of(60),
        "{} positions",
        positions.len()
    );
    // Struck cells made up, where the games seldom leave one that matters.
    let (compared, narrowed) = struck_positions(&v, &rules, &positions);
    println!(
        "chu shogi: {compared} positions with a struck cell, {}",
        narrowed.len()
    );
    lion_perft(&v, &rules, narrowed, 2);
    lion_perft(&v, &rules, positions, 2);
    let rows = common::fixture("chu-shogi/positions.tsv");
    let step = if size == Size::Full { 5 } else { 20 };
    let published: Vec<(String, Position)> = (rows.lines())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let sfen = l.split('\t').next().unwrap().to_string();
            let pos = common::game(&rules, &sfen).position().clone();
            (sfen, pos)
        })
        .collect();
    lion_perft(
        &v,
        &rules,
        published.iter().step_by(step).cloned().collect(),
        2,
    );
    // Struck cells made up on shogiops' positions too.
    let (compared, narrowed) = struck_positions(&v, &rules, &published);
    println!(
        "chu shogi: {compared} published positions with a struck cell, {}",
        narrowed.len()
    );
    assert!(narrowed.len() > 20, "{}", narrowed.len());
    lion_perft(
        &v,
        &rules,
        narrowed
            .into_iter()
            .step_by(step / 5)
            .take(size.of(60))
            .collect(),
        2,
    );
}

#[test]
fn chu_shogi_published_positions_agree_with_the_reference() {
    let (v, rules) = chu();
    let mut t = LionTally::default();
    let mut n = 0;
    for file in ["positions.tsv", "moves.tsv"] {
        let rows = common::fixture(&format!("chu-shogi/{file}"));
        let mut seen = BTreeSet::new();
        for line in rows
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let sfen = line.split('\t').next().unwrap();
            if !seen.insert(sfen.to_string()) {
                continue;
            }
            n += 1;
            // Each position and a few random plies on from it.
            let setup = variantlab::parse_position(&rules, sfen).unwrap();
            lion_game(&v, &rules, Some(setup), n, 4, &[], 0, &mut t);
        }
    }
    let seen = format!("chu shogi, {n} published positions: {t:?}");
    println!("{seen}");
    assert!(n > 300 && t.positions > 1000, "{seen}");
    assert!(t.double > 0 && t.in_place > 0 && t.passes > 0, "{seen}");
}

#[test]
fn chu_shogi_games_agree_with_the_reference_in_brief() {
    chu_shogi_games_agree_with_the_reference(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn chu_shogi_games_agree_with_the_reference_in_full() {
    chu_shogi_games_agree_with_the_reference(Size::Full);
}

fn chu_shogi_games_agree_with_the_reference(size: Size) {
    use LionRule::*;
    let (v, rules) = chu();
    let rules_loosened = [Guarded, Bridge, Counterstrike];
    let wides: Vec<Variant> = (rules_loosened.iter())
        .map(|r| without_rule(&v, *r))
        .collect();
    let wides: Vec<&Variant> = wides.iter().collect();
    let mut t = LionTally::default();
    let games = size.of_u64(40);
    for seed in 0..games {
        lion_game(&v, &rules, None, 1400 + seed, 400, &wides, 0, &mut t);
    }
    let seen = format!("chu shogi: {t:?}");
    println!("{seen}");
    assert!(t.positions > games as usize * 100, "{seen}");
    assert!(
        t.double > 0 && t.in_place > 0 && t.passes > 0 && t.beyond > 0,
        "{seen}"
    );
    assert!(t.promotions > 100 && t.struck > 0, "{seen}");
}

/// A game on 7 by 7 for the Lion's words one at a time: Kings that are not royal (a
/// game with captures by jumping has none), Pawns and Rooks that may promote on a
/// capture from or into the far two ranks (Pawns also on reaching the last), Golds and
/// a Go-between a side, and the two kinds `kinds` that `pieces` declares, on b1 and f1
/// (b7 and f7), with the statements `more`.
fn two_steps(pieces: &str, kinds: [&str; 2], more: &str) -> String {
    let [a, b] = kinds;
    format!(
        "name \"Two steps\"\n\
         board square 7 by 7\n\
         coordinates files lettered from the left, ranks numbered from the bottom\n\
         player White: forward north, capitals\n\
         player Black: forward south, lowercase\n\
         zone camp: far 2 ranks\n\
         zone last: far 1 ranks\n\
         piece King (K) {{\n  step 1 any\n}}\n\
         piece Gold (G) {{\n  step 1 orthogonal or forward diagonal\n}}\n\
         piece GoBetween (I) {{\n  step 1 straight forward or straight backward\n}}\n\
         piece Rook (R) {{\n  slide orthogonal\n  \
         may promote on capturing from or into camp to Dragon\n}}\n\
         piece Dragon (D) {{\n  slide orthogonal\n  step 1 diagonal\n}}\n\
         piece Pawn (P) {{\n  step 1 straight forward\n  \
         may promote on capturing from or into camp to Gold\n  \
         may promote on entering last to Gold\n}}\n\
         {pieces}\n\
         setup {{\n  White: King d1, Rook a1 g1, Gold c1 e1, {a} b1, {b} f1, \
         Pawn a2 b2 c2 e2 f2 g2, GoBetween d2\n  \
         Black: King d7, Rook a7 g7, Gold c7 e7, {a} b7, {b} f7, \
         Pawn a6 b6 c6 e6 f6 g6, GoBetween d6\n}}\n\
         {more}\n\
         game ends {{\n  a player has no King: that player loses\n  \
         no legal move: mover wins\n  position repeated 3 times: draw\n}}\n"
    )
}

/// The chu Lion's moves, as a piece body.
const LION_MOVES: &str = "  leap 1 to 2 any\n  \
    step 2 any, over 1 enemy, capturing the piece jumped\n  \
    step 2 any, over 1 enemy, capturing the piece jumped, to enemy\n  \
    step 2 any, over 1 enemy, capturing the piece jumped, to start\n  \
    step 2 any, to start\n";

/// The guarded capture of the Lion, and the bridge that lifts it.
const GUARD: &str = "  captured by Lion from afar only when undefended\n";
const GUARD_BRIDGED: &str = "  captured by Lion from afar only when undefended,\n    \
    unless the move also captures a piece other than Pawn or GoBetween\n";

/// The small games of [`two_steps`], one concept each: (what it shows, the text, the
/// rules whose loosening must matter along its games).
fn two_step_games() -> Vec<(&'static str, String, Vec<LionRule>)> {
    let lion = |guard: &str| format!("piece Lion (N) {{\n{LION_MOVES}{guard}}}\n");
    vec![
        (
            "jumps to an empty cell and to an enemy",
            two_steps(
                "piece Jumper (J) {\n  step 1 any, to empty\n  \
                 step 2 any, over 1 enemy, capturing the piece jumped\n}\n\
                 piece Taker (T) {\n  step 1 any, to empty\n  \
                 step 2 any, over 1 enemy, capturing the piece jumped, to enemy\n}\n",
                ["Jumper", "Taker"],
                "",
            ),
            vec![],
        ),
        (
            "captures without moving",
            two_steps(
                &format!(
                    "piece Eater (E) {{\n  step 1 any, to empty\n  \
                     step 2 any, over 1 enemy, capturing the piece jumped, to start\n}}\n{}",
                    lion("")
                ),
                ["Eater", "Lion"],
                "",
            ),
            vec![],
        ),
        (
            "passes",
            two_steps(
                "piece Waiter (W) {\n  step 1 any\n  step 2 any, to start\n}\n\
                 piece Falcon (H) {\n  slide any except straight forward\n  \
                 step 1 straight forward\n  leap 2 straight forward\n  \
                 slide 2 straight forward, over 1 enemy, capturing the piece jumped\n  \
                 slide 2 straight forward, over 1 enemy, capturing the piece jumped, to enemy\n  \
                 step 1 straight forward then 1 straight backward, over 1 enemy, \
                 capturing the piece jumped, to start\n  \
                 step 1 straight forward then 1 straight backward, to start\n}\n",
                ["Waiter", "Falcon"],
                "",
            ),
            vec![],
        ),
        (
            "the guarded capture",
            two_steps(&lion(GUARD), ["Lion", "Lion"], ""),
            vec![LionRule::Guarded],
        ),
        (
            "the guarded capture with a bridge",
            two_steps(&lion(GUARD_BRIDGED), ["Lion", "Lion"], ""),
            vec![LionRule::Guarded, LionRule::Bridge],
        ),
        (
            "the counter-strike",
            two_steps(
                &format!(
                    "{}piece Kirin (O) {{\n  step 1 diagonal\n  leap 2 direct orthogonal\n}}\n",
                    lion("")
                ),
                ["Lion", "Kirin"],
                "after a Lion or Kirin is captured by another kind, \
                 the next move captures one by another kind only on that cell",
            ),
            vec![LionRule::Counterstrike],
        ),
        (
            "promotions on capturing from, into or through",
            two_steps(
                "piece Bishop (B) {\n  slide diagonal\n  \
                 may promote on capturing from camp to Horse\n  \
                 may promote on capturing through camp to Horse\n}\n\
                 piece Horse (H) {\n  slide diagonal\n  step 1 orthogonal\n}\n\
                 piece Eater (E) {\n  step 1 any, to empty\n  \
                 step 2 any, over 1 enemy, capturing the piece jumped, to start\n  \
                 step 2 any, over 1 enemy, capturing the piece jumped\n  \
                 may promote on capturing from or into camp to Gold\n}\n",
                ["Bishop", "Eater"],
                "",
            ),
            vec![],
        ),
        (
            "passes and captures without moving that promote",
            two_steps(
                "piece Waiter (W) {\n  step 1 any\n  step 2 any, to start\n  \
                 may promote on moving into camp to Gold\n}\n\
                 piece Eater (E) {\n  step 1 any, to empty\n  \
                 step 2 any, over 1 enemy, capturing the piece jumped, to start\n  \
                 may promote on moving from camp to Gold\n}\n",
                ["Waiter", "Eater"],
                "",
            ),
            vec![],
        ),
    ]
}

#[test]
fn two_step_clauses_agree_with_the_reference_in_brief() {
    two_step_clauses_agree_with_the_reference(Size::Small);
}

#[test]
#[ignore = "long check: cargo test --release -- --ignored"]
fn two_step_clauses_agree_with_the_reference_in_full() {
    two_step_clauses_agree_with_the_reference(Size::Full);
}

fn two_step_clauses_agree_with_the_reference(size: Size) {
    for (what, text, loosened) in two_step_games() {
        let rules = common::from_text(&text);
        let v = rules.variant().clone();
        let wides: Vec<Variant> = loosened.iter().map(|r| without_rule(&v, *r)).collect();
        let wides: Vec<&Variant> = wides.iter().collect();
        let mut t = LionTally::default();
        let mut positions = Vec::new();
        let games = size.of_u64(200);
        for seed in 0..games {
            positions.extend(lion_game(
                &v,
                &rules,
                None,
                1500 + seed,
                200,
                &wides,
                10,
                &mut t,
            ));
        }
        let seen = format!("{what}: {t:?}");
        println!("{seen}");
        assert!(t.positions > games as usize * 10, "{seen}");
        for (rule, n) in loosened.iter().zip(&t.narrowed) {
            if !matches!(rule, LionRule::Counterstrike) {
                assert!(*n > 0, "{rule:?} never mattered: {seen}");
            }
        }
        let least = match what {
            "jumps to an empty cell and to an enemy" => t.beyond.min(t.double),
            "captures without moving" => t.in_place,
            "passes" => t.passes.min(t.in_place),
            "promotions on capturing from, into or through" => t.promotions.min(t.in_place),
            "passes and captures without moving that promote" => {
                t.promotions.min(t.passes).min(t.in_place)
            }
            _ => t.double.min(t.in_place),
        };
        assert!(least > 20, "{seen}");
        if v.counterstrike != 0 {
            // Struck cells made up where the games seldom leave one that matters.
            let (compared, narrowed) = struck_positions(&v, &rules, &positions);
            println!(
                "{what}: {compared} positions with a struck cell, {}",
                narrowed.len()
            );
            assert!(narrowed.len() > 20, "{}", narrowed.len());
            lion_perft(
                &v,
                &rules,
                narrowed.into_iter().take(size.of(40)).collect(),
                3,
            );
        }
        // Depth 3 from positions along the games.
        positions.truncate(size.of(200));
        lion_perft(&v, &rules, positions, 3);
    }
}

/// Positions with a struck cell made up: each of `positions` with the cell of a piece
/// of the player who moved last struck, as if that piece had just taken one of the
/// counter-strike kinds there: every such cell where a piece of another kind could
/// take one of the kinds (so that the rule may matter), else the first. Both
/// generators must agree on each. Returns how many were compared, and those where the
/// rule changes the reference's moves.
fn struck_positions(
    v: &Variant,
    rules: &Arc<Rules>,
    positions: &[(String, Position)],
) -> (usize, Vec<(String, Position)>) {
    let options = rules.options();
    let of_set = |k: u8| v.counterstrike & (1u64 << k) != 0;
    let loose = without_rule(v, LionRule::Counterstrike);
    let mut compared = 0;
    let mut narrowed = Vec::new();
    for (text, pos) in positions {
        let mut setup = pos.to_setup(rules);
        setup.struck = None;
        let free = simple(rules, &Position::from_setup(rules, &setup).unwrap());
        let kind_at = |c: u16| free.cells[c as usize].map(|(_, k)| k.0);
        // Whether a piece not of the kinds may take one of them now.
        let matters = reference_jumps(v, options, &free)
            .iter()
            .any(|(f, to, taken, ..)| {
                !kind_at(*f).is_some_and(of_set)
                    && (taken.iter().any(|c| kind_at(*c).is_some_and(of_set))
                        || (f != to && kind_at(*to).is_some_and(of_set)))
            });
        let theirs: Vec<Cell> = (v.board.cells())
            .filter(|c| setup.cells[c.index()].is_some_and(|(p, _)| p != setup.to_move))
            .collect();
        let tried = if matters {
            &theirs[..]
        } else {
            &theirs[..theirs.len().min(1)]
        };
        for &c in tried {
            let mut s = setup.clone();
            s.struck = Some(c);
            let at = format!("{text}, {} struck", v.board.name(c));
            let p = Position::from_setup(rules, &s).unwrap_or_else(|e| panic!("{at}: {e}"));
            let slow = simple(rules, &p);
            assert_eq!(slow.struck, Some(c), "{at}");
            let want = reference_jumps(v, options, &slow);
            same_jumps(v, &runtime_lion_jumps(rules, &p), &want, &at);
            compared += 1;
            if want != reference_jumps(&loose, options, &slow) {
                narrowed.push((at, p));
            }
        }
    }
    (compared, narrowed)
}

/// The rules of the game of [`two_step_games`] that shows `what`.
fn two_step_rules(what: &str) -> Arc<Rules> {
    let (_, text, _) = (two_step_games().into_iter())
        .find(|(w, ..)| *w == what)
        .unwrap_or_else(|| panic!("no game shows {what}"));
    common::from_text(&text)
}

/// Strings from string slices.
fn texts(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Both generators' moves of the piece on `from` in `game` ([`lion_moves`]), after
/// both have agreed along a few random plies from it.
fn lion_moves_after_games(rules: &Arc<Rules>, game: &Game, from: &str) -> Vec<String> {
    let v = rules.variant();
    let mut t = LionTally::default();
    for seed in 0..4 {
        let setup = game.position().to_setup(rules);
        lion_game(v, rules, Some(setup), seed, 6, &[], 0, &mut t);
    }
    lion_moves(rules, game, Some(from))
}

#[test]
fn chu_shogi_lions_by_hand_agree_with_the_reference() {
    let (v, rules) = chu();
    let sorted = |mut l: Vec<String>| {
        l.sort();
        l
    };
    // A lone Lion: the 24 cells within two, and a pass (lishogi's 25 moves).
    let game = common::game(&rules, "k11/12/12/12/12/6N5/12/12/12/12/12/11K b - 1");
    let mut want = leaps_around(&v, "6f", &[]);
    want.push("6f-6f".into());
    assert_eq!(lion_moves_after_games(&rules, &game, "6f"), sorted(want));
    // A Pawn between two Lions: the Lion on 8f takes it and goes on, or takes it
    // without moving, but may not take the Lion on 8h, which the Pawn it takes on the
    // way still guards, nor leap there, the Pawn guarding it where it stands.
    let beyond = ["9f", "7f", "9g", "7g", "9h", "7h"].map(|c| format!("8f-{c} x8g"));
    let lions = |middle: &str| format!("k11/12/12/12/12/4N7/4{middle}7/4n7/12/12/12/11K b - 1");
    let game = common::game(&rules, &lions("p"));
    let mut want = leaps_around(&v, "8f", &["8h"]);
    want.extend(beyond.iter().cloned());
    want.extend(texts(&["8f-8f x8g", "8f-8f"]));
    let got = lion_moves_after_games(&rules, &game, "8f");
    assert_eq!(got.len(), 31);
    assert_eq!(got, sorted(want.clone()));
    // With a Silver between them, taking it first is a bridge: the Lion may take both;
    // the leap is still refused.
    let game = common::game(&rules, &lions("s"));
    want.push("8f-8h x8g".into());
    assert_eq!(
        lion_moves_after_games(&rules, &game, "8f"),
        sorted(want.clone())
    );
    // Undefended, the Lion on 8h may be taken from afar.
    let game = common::game(&rules, "k11/12/12/12/12/4N7/12/4n7/12/12/12/11K b - 1");
    let mut want = leaps_around(&v, "8f", &[]);
    want.push("8f-8f".into());
    assert_eq!(lion_moves_after_games(&rules, &game, "8f"), sorted(want));
    // Beside it, a defended Lion may always be taken: on its own, without moving, or
    // on the way to the Gold defending it.
    let game = common::game(&rules, "k11/12/12/12/12/4N7/4n7/4g7/12/12/12/11K b - 1");
    let got = lion_moves_after_games(&rules, &game, "8f");
    for m in ["8f-8g", "8f-8f x8g", "8f-8h x8g", "8f-8h", "8f-7h x8g"] {
        assert!(got.contains(&m.to_string()), "{m}: {got:?}");
    }
}

#[test]
fn chu_shogi_struck_cells_by_hand_agree_with_the_reference() {
    let (v, rules) = chu();
    let options = rules.options();
    let cell = |c: &str| v.board.parse_cell(c).unwrap();
    // White's Promoted Kirin on 8j took a Black Lion there: Black's Rook on 8l may take
    // it back, the one on 3l may not take the Lion on 3i, and Black's Lion on 3g may.
    let text = "11k/12/12/12/12/12/9N2/12/9n2/4+o7/12/4R4R1K b 8j 1";
    let game = common::game(&rules, text);
    let all = lion_moves(&rules, &game, None);
    let mut lion = leaps_around(&v, "3g", &[]);
    lion.push("3g-3g".into());
    lion.sort();
    assert_eq!(lion_moves_after_games(&rules, &game, "3g"), lion);
    assert_eq!(
        lion_moves_after_games(&rules, &game, "3l"),
        texts(&[
            "3l-2l", "3l-3j", "3l-3k", "3l-4l", "3l-5l", "3l-6l", "3l-7l"
        ])
    );
    assert!(all.contains(&"8l-8j".to_string()), "{all:?}");
    assert_eq!(all.len(), 25 + 10 + 7 + 3, "{all:?}");
    // Without the struck cell the Rook takes the Lion too.
    let free = common::game(&rules, &text.replace("8j 1", "- 1"));
    let more = lion_moves(&rules, &free, None);
    assert_eq!(more.len(), all.len() + 1);
    assert!(more.contains(&"3l-3i".to_string()));
    // Taking back on 8j strikes 8j again, for White.
    let slow = simple(&rules, game.position());
    let (next, _) = reference::play_jumping(
        &v,
        options,
        &slow,
        (cell("8l"), cell("8j"), None, None),
        &[],
    );
    let (after, _) = common::after(&rules, text, &["8l8j"]);
    assert_eq!(next.struck, Some(cell("8j")));
    assert_eq!(simple(&rules, after.position()).struck, next.struck);
    assert!(
        after.position_string().contains(" 8j "),
        "{}",
        after.position_string()
    );
    // While 1a is struck the Horned Falcon on 6h may not take the Lion on 6g in any
    // way, by stepping there, on its way or without moving; while 6g is, it may.
    let falcon = |struck: &str| {
        let text = format!("11k/12/12/12/12/12/6n5/6+H5/12/12/12/K11 b {struck} 1");
        let game = common::game(&rules, &text);
        lion_moves_after_games(&rules, &game, "6h")
    };
    let takes = ["6h-6g", "6h-6f x6g", "6h-6h x6g"].map(String::from);
    let (held, free) = (falcon("1a"), falcon("6g"));
    assert!(takes.iter().all(|m| !held.contains(m)), "{held:?}");
    assert!(takes.iter().all(|m| free.contains(m)), "{free:?}");
    assert_eq!(held.len() + 3, free.len());
    assert_eq!(falcon("-"), free);
    // A Horned Falcon (of another kind) taking a Lion on its way strikes that cell;
    // taking two, it strikes the cell it lands on. A Lion taking one strikes none.
    for (text, mv, jumped, struck) in [
        (
            "k11/12/12/12/12/12/6n5/6+H5/12/12/12/11K b - 1",
            ("6h", "6f"),
            vec!["6g"],
            Some("6g"),
        ),
        (
            "k11/12/12/12/12/6+o5/6n5/6+H5/12/12/12/11K b - 1",
            ("6h", "6f"),
            vec!["6g"],
            Some("6f"),
        ),
        (
            "k11/12/12/12/12/6+o5/6n5/6+H5/12/12/12/11K b - 1",
            ("6h", "6g"),
            vec![],
            Some("6g"),
        ),
        (
            "k11/12/12/12/12/6+o5/6n5/6N5/12/12/12/11K b - 1",
            ("6h", "6f"),
            vec!["6g"],
            None,
        ),
    ] {
        let game = common::game(&rules, text);
        let slow = simple(&rules, game.position());
        let jumped: Vec<Cell> = jumped.iter().map(|c| cell(c)).collect();
        let mv = (cell(mv.0), cell(mv.1), None, None);
        let (next, _) = reference::play_jumping(&v, options, &slow, mv, &jumped);
        assert_eq!(next.struck, struck.map(cell), "{text}");
        let m = (game.legal_moves().into_iter())
            .find(|m| {
                (m.from, m.to) == (mv.0, mv.1)
                    && taken_on_the_way(&rules, game.position(), m) == jumped
            })
            .unwrap_or_else(|| panic!("{text}: no such move"));
        let mut game = game;
        game.play(m).unwrap();
        assert_eq!(
            simple(&rules, game.position()).struck,
            next.struck,
            "{text}"
        );
    }
}

#[test]
fn chu_shogi_promotions_on_capturing_by_hand_agree_with_the_reference() {
    let (_, rules) = chu();
    // Black's Rook on 5c, in its camp: it may promote taking on 5e (from the camp) or
    // on 3c (in it), not stepping within the camp or out of it.
    let game = common::game(&rules, "k11/12/7R1p2/12/7p4/12/12/12/12/12/12/11K b - 1");
    let mut want = texts(&[
        "5c-5b",
        "5c-5a",
        "5c-5d",
        "5c-5e",
        "5c-5e=PromotedRook",
        "5c-4c",
        "5c-3c",
        "5c-3c=PromotedRook",
    ]);
    want.extend((6..=12).map(|f| format!("5c-{f}c")));
    want.sort();
    assert_eq!(lion_moves_after_games(&rules, &game, "5c"), want);
}

#[test]
fn two_step_clauses_by_hand_agree_with_the_reference() {
    let (w, b) = ("White", "Black");
    let kings = [("a1", w, "King"), ("g7", b, "King")];
    let with = |more: &[(&'static str, &'static str, &'static str)]| {
        let mut all = kings.to_vec();
        all.extend_from_slice(more);
        all
    };
    let steps = |from: &str, cells: &[&str]| -> Vec<String> {
        cells.iter().map(|c| format!("{from}-{c}")).collect()
    };
    let sorted = |mut l: Vec<String>| {
        l.sort();
        l
    };
    // Captures by jumping: onto d5 and on to an empty cell beside it (not back to d4),
    // or, `to enemy`, on to the Gold on e6, taking it too.
    let rules = two_step_rules("jumps to an empty cell and to an enemy");
    let around = ["c3", "d3", "e3", "c4", "e4", "c5", "e5"];
    let pieces = with(&[("d4", w, "Jumper"), ("d5", b, "Pawn"), ("e6", b, "Gold")]);
    let game = placed(&rules, w, &pieces);
    let mut want = steps("d4", &around);
    want.extend(["c4", "e4", "c5", "e5", "c6", "d6"].map(|c| format!("d4-{c} xd5")));
    assert_eq!(lion_moves_after_games(&rules, &game, "d4"), sorted(want));
    let pieces = with(&[("d4", w, "Taker"), ("d5", b, "Pawn"), ("e6", b, "Gold")]);
    let game = placed(&rules, w, &pieces);
    let mut want = steps("d4", &around);
    want.push("d4-e6 xd5".into());
    assert_eq!(lion_moves_after_games(&rules, &game, "d4"), sorted(want));
    // Captures without moving, of either neighbour.
    let rules = two_step_rules("captures without moving");
    let pieces = with(&[("d4", w, "Eater"), ("d5", b, "Pawn"), ("c5", b, "Gold")]);
    let game = placed(&rules, w, &pieces);
    let mut want = steps("d4", &["c3", "d3", "e3", "c4", "e4", "e5"]);
    want.extend(texts(&["d4-d4 xc5", "d4-d4 xd5"]));
    assert_eq!(lion_moves_after_games(&rules, &game, "d4"), sorted(want));
    // A pass needs an empty cell to step out to: an enemy's will not do.
    let rules = two_step_rules("passes");
    let kings = [("g1", w, "King"), ("g7", b, "King")];
    let mut pieces = kings.to_vec();
    pieces.extend([("a1", w, "Waiter"), ("a2", w, "Gold"), ("b2", b, "Pawn")]);
    let game = placed(&rules, w, &pieces);
    let want = texts(&["a1-a1", "a1-b1", "a1-b2"]);
    assert_eq!(lion_moves_after_games(&rules, &game, "a1"), want);
    pieces.push(("b1", b, "Pawn"));
    let game = placed(&rules, w, &pieces);
    assert_eq!(
        lion_moves_after_games(&rules, &game, "a1"),
        texts(&["a1-b1", "a1-b2"])
    );
    // The Falcon passes, or takes without moving, straight forward only.
    let falcon = |ahead: &[(&'static str, &'static str, &'static str)]| {
        let mut pieces = kings.to_vec();
        pieces.push(("d4", w, "Falcon"));
        pieces.extend_from_slice(ahead);
        lion_moves_after_games(&rules, &placed(&rules, w, &pieces), "d4")
    };
    let open = falcon(&[("c5", b, "Pawn")]);
    assert!(open.contains(&"d4-d4".to_string()), "{open:?}");
    assert!(!open.iter().any(|m| m.starts_with("d4-d4 ")), "{open:?}");
    let taking = falcon(&[("d5", b, "Pawn"), ("d6", b, "Gold")]);
    for m in ["d4-d4 xd5", "d4-d6 xd5", "d4-d5"] {
        assert!(taking.contains(&m.to_string()), "{m}: {taking:?}");
    }
    assert!(!taking.contains(&"d4-d4".to_string()), "{taking:?}");
    // A pass ends where it starts: in the camp, it is a move into the camp, and may
    // promote; so may a capture without moving that starts there.
    let rules = two_step_rules("passes and captures without moving that promote");
    let mut pieces = kings.to_vec();
    pieces.extend([("d6", w, "Waiter"), ("b6", w, "Eater"), ("b7", b, "Pawn")]);
    let game = placed(&rules, w, &pieces);
    let mut want = steps("d6", &["c5", "d5", "e5"]);
    for c in ["c6", "e6", "c7", "d7", "e7", "d6"] {
        want.push(format!("d6-{c}"));
        want.push(format!("d6-{c}=Gold"));
    }
    assert_eq!(lion_moves_after_games(&rules, &game, "d6"), sorted(want));
    let mut want = steps("b6", &["a5", "b5", "c5", "a6", "c6", "a7", "c7"]);
    want.extend(texts(&["b6-b6 xb7", "b6-b6 xb7=Gold"]));
    want.extend(["a5", "b5", "c5", "a6", "c6", "a7", "c7"].map(|c| format!("b6-{c}=Gold")));
    assert_eq!(lion_moves_after_games(&rules, &game, "b6"), sorted(want));
    // The guarded capture: a Lion two cells away, defended once the move is made, the
    // pieces taken on the way counting as there.
    let guarded = two_step_rules("the guarded capture");
    let bridged = two_step_rules("the guarded capture with a bridge");
    for (between, more, leap, over_gold_plain, over_gold_bridged) in [
        // The Gold on d4 defends d5: taking it on the way is a bridge.
        ("Gold", None, false, false, true),
        // The Go-between defends d5 and is no bridge.
        ("GoBetween", None, false, false, false),
        // The Pawn does not defend d5; the Rook on d1 does once d3 and d4 are empty,
        // but not past the Pawn left on d4.
        ("Pawn", Some(("d1", b, "Rook")), true, false, false),
        // Nothing defends d5.
        ("Pawn", None, true, true, true),
    ] {
        let mut pieces = with(&[("d3", w, "Lion"), ("d4", b, between), ("d5", b, "Lion")]);
        pieces.extend(more);
        for (rules, over) in [(&guarded, over_gold_plain), (&bridged, over_gold_bridged)] {
            let got = lion_moves_after_games(rules, &placed(rules, w, &pieces), "d3");
            let has = |m: &str| got.contains(&m.to_string());
            let seen = format!("{between} {more:?}: {got:?}");
            assert_eq!(has("d3-d5"), leap, "leap, {seen}");
            assert_eq!(has("d3-d5 xd4"), over, "over, {seen}");
            assert!(has("d3-d4") && has("d3-d3 xd4"), "{seen}");
        }
    }
}

/// A capture by jumping is no defence against a guarded capture from afar: it takes
/// where it does not land, and the language's attacks, as its checks, are the moves
/// that end on a piece (section 16g). The Lion on d3 may take the Lion on d5, though a
/// Black piece could take it there by jumping over it, or by jumping the Pawn on d6
/// and landing on it.
#[test]
fn captures_by_jumping_do_not_defend_a_guarded_piece() {
    let (w, b) = ("White", "Black");
    let text = two_steps(
        &format!(
            "piece Lion (N) {{\n{LION_MOVES}{GUARD}}}\n\
             piece Jumper (J) {{\n  step 1 any, to empty\n  \
             step 2 any, over 1 enemy, capturing the piece jumped\n}}\n\
             piece Taker (T) {{\n  step 1 any, to empty\n  \
             step 2 any, over 1 enemy, capturing the piece jumped, to enemy\n}}\n"
        ),
        ["Lion", "Jumper"],
        "",
    );
    let rules = common::from_text(&text);
    for extra in [
        vec![("e6", b, "Jumper")],
        vec![("e6", b, "Taker"), ("d6", w, "Pawn")],
        vec![("e6", b, "Gold")],
    ] {
        let mut pieces = vec![
            ("a1", w, "King"),
            ("g7", b, "King"),
            ("d3", w, "Lion"),
            ("d5", b, "Lion"),
        ];
        pieces.extend(extra.clone());
        let got = lion_moves_after_games(&rules, &placed(&rules, w, &pieces), "d3");
        // A Gold (stepping to d5) does defend it.
        let defended = extra[0].2 == "Gold";
        assert_eq!(
            !got.contains(&"d3-d5".to_string()),
            defended,
            "{extra:?}: {got:?}"
        );
    }
}

#[test]
fn forbidden_and_compulsory_checks_agree_with_the_reference_along_random_games() {
    // Checks told apart from other moves on boards with hurdles (cannons), two Kings,
    // drops, gates, promotions, castling, captures in passing and hexagons.
    for file in [
        "chess.var",
        "xiangqi.var",
        "janggi.var",
        "shogi.var",
        "crazyhouse.var",
        "spartan.var",
        "seirawan.var",
        "hexcetran-chess.var",
        "iss-jetan.var",
    ] {
        let path = format!("{}/variants/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        for rule in ["checks are forbidden", "checks are compulsory"] {
            let changed = format!("{text}\n{rule}\n");
            let checked = check(file, &changed);
            let v = checked
                .variant
                .unwrap_or_else(|| panic!("{file}: {}", checked.report.render(100, false)));
            let rules = compiled(&v, &[]);
            let mut differ = None;
            random_games(&rules, 3, 60, 71, None, |game| {
                let pos = game.position();
                if differ.is_none() && runtime_moves(&rules, pos) != reference_moves(&rules, pos) {
                    differ = Some(game.position_string());
                }
            });
            assert_eq!(differ, None, "{file} with `{rule}`: the generators differ");
        }
    }
}
