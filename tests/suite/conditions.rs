//! Conditions of `game ends` combined with `and`, `or` and `not`, and the counts of
//! `has`: rules written with them play as the words they replace.

use crate::common;
use crate::fsf;
use crate::reference;
use std::sync::Arc;
use variantlab::{Ending, Game, Outcome, PlayerId, Rules, check, parse_position};

/// A shipped file with one text replaced, checked.
fn rewritten(file: &str, from: &str, to: &str) -> variantlab::variant::Variant {
    let text = std::fs::read_to_string(common::root().join("variants").join(file)).unwrap();
    assert!(text.contains(from), "{file} says {from:?}");
    let text = text.replace(from, to);
    let checked = check(file, &text);
    checked
        .variant
        .unwrap_or_else(|| panic!("{}", checked.report.render(100, false)))
}

fn compiled(v: &variantlab::variant::Variant) -> Arc<Rules> {
    Arc::new(variantlab::compile_tables(v, &v.default_options()).expect("compiled"))
}

/// How a game from the position is over already, if it is.
fn ending(r: &Arc<Rules>, text: &str) -> Option<Ending> {
    let setup = parse_position(r, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let game = Game::new(r.clone(), setup).unwrap_or_else(|e| panic!("{text}: {e}"));
    game.ending().cloned()
}

/// The text with each retired wording replaced as its diagnostic says, one error at a
/// time (a syntax error stops the parse), and the variant then checked.
fn as_told(file: &str, text: &str) -> variantlab::variant::Variant {
    let mut text = text.to_string();
    for _ in 0..8 {
        let checked = check(file, &text);
        if let Some(v) = checked.variant {
            return v;
        }
        let d = &checked.report.diagnostics[0];
        assert_eq!(
            d.code, "variantlab::retired_wording",
            "{file}: {}",
            d.message
        );
        let new = d.message.split('`').nth(3).expect("the new wording");
        let (start, end) = (d.span.start, d.span.start + d.span.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let mut above = String::new();
        if let Some(first) = d.help.as_deref().and_then(|h| h.split("put `").nth(1)) {
            above = format!(
                "{}{}\n",
                &text[line_start..start],
                first.split('`').next().unwrap()
            );
        }
        text = format!(
            "{}{above}{}{new}{}",
            &text[..line_start],
            &text[line_start..start],
            &text[end..]
        );
    }
    panic!("{file}: still refused after the wordings told");
}

#[test]
fn the_retired_reach_wordings_tell_conditions_that_play_the_same_games() {
    // The old wordings, as the files said them before; the conditions their diagnostics
    // tell must agree with Fairy-Stockfish's counts from the start and along its games.
    for (name, new, old) in [
        (
            "racingkings",
            "  every player has a King in goal: draw\n  Black has a King in goal: that player wins\n  \
             White has a King in goal and not Black can move a King into goal: that player wins\n",
            "  King reaches goal for every player: draw\n  King reaches goal, unless answered: that player wins\n",
        ),
        (
            "dobutsu",
            "  every player has an unattacked Lion in camp: draw\n  a player has an unattacked Lion in camp: that player wins\n",
            "  Lion reaches camp for every player, not attacked there: draw\n  Lion reaches camp, not attacked there: that player wins\n",
        ),
        (
            "jesonmor",
            "  the player to move has a Knight in centre: that player wins\n",
            "  Knight reaches centre, kept for a round: that player wins\n",
        ),
        (
            "kingofthehill",
            "  a player has a King in hill: that player wins\n",
            "  King reaches hill: that player wins\n",
        ),
    ] {
        let file = format!("{name}.var");
        let text = std::fs::read_to_string(common::root().join("variants").join(&file)).unwrap();
        assert!(text.contains(new), "{file} says {new:?}");
        let v = as_told(&file, &text.replace(new, old));
        let bad = fsf::differences(name, v, 250_000);
        assert!(bad.is_empty(), "{name}: {}", bad.join("\n"));
    }
}

#[test]
fn checkmate_and_stalemate_spelt_out_decide_as_the_words() {
    let v = rewritten(
        "chess.var",
        "  checkmate: mover wins\n  stalemate: draw\n",
        "  no legal move and in check: mover wins\n  no legal move and not in check: draw\n",
    );
    let r = compiled(&v);
    // Fool's mate: Black has mated.
    let e = ending(
        &r,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    )
    .expect("mate ends the game");
    assert_eq!(e.winner(), Some(PlayerId(1)));
    assert_eq!(e.reason, "no legal move and in check");
    // A lone King with no move and not attacked: a draw.
    let e = ending(&r, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").expect("stalemate ends the game");
    assert_eq!(e.outcome, Outcome::Draw);
    // In check with a move: the game goes on.
    assert!(ending(&r, "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1").is_none());
}

#[test]
fn counts_of_has_read_the_board_the_hand_and_one_player() {
    let v = rewritten(
        "crazyhouse.var",
        "game ends {\n",
        "game ends {\n  White has at least 2 Queen in hand: White wins\n  \
         a player has only royal pieces on the board and not in check: that player loses\n  \
         a player has more than 3 Knight or Bishop: draw\n",
    );
    let r = compiled(&v);
    // Two Queens in White's hand, none on the board.
    let e = ending(&r, "4k3/8/8/8/8/8/8/4K3[QQr] b - - 0 1").expect("over");
    assert_eq!(e.winner(), Some(PlayerId(0)));
    // One Queen in hand is not enough. Both players have only their King on the board
    // (pieces in hand are not on it), Black is not in check, and White, who just moved,
    // is asked first: White loses.
    let e = ending(&r, "4k3/8/8/8/8/8/8/4K3[Qr] b - - 0 1").expect("over");
    assert_eq!(e.outcome, Outcome::THAT_LOSES);
    assert_eq!(e.winner(), Some(PlayerId(1)));
    // Kinds joined by `or` count together: two Knights and two Bishops are four.
    let e = ending(&r, "4k3/p7/8/8/8/8/PPNNBBPP/4K3[] w - - 0 1").expect("over");
    assert_eq!(e.outcome, Outcome::Draw);
    assert!(ending(&r, "4k3/p7/8/8/8/8/PPNNBPPP/4K3[] w - - 0 1").is_none());
}

#[test]
fn a_rule_that_combines_names_the_player_of_the_part_that_holds() {
    let v = rewritten(
        "chess.var",
        "game ends {\n",
        "game ends {\n  stalemate or (a player has no Queen and a player has no Rook): that player loses\n",
    );
    let r = compiled(&v);
    // Black has neither Queen nor Rook; White moved last and has both, so Black is named.
    let e = ending(&r, "4k3/pppppppp/8/8/8/8/8/QR2K3 b - - 0 1").expect("over");
    assert_eq!(e.winner(), Some(PlayerId(0)));
    assert!(e.reason.starts_with("Black: "), "{}", e.reason);
    // Black, who just moved, has no Queen; White has no Rook: both parts hold, and the
    // rule names the player of the first, Black.
    let e = ending(&r, "r3k3/8/8/8/8/8/8/Q3K3 w - - 0 1").expect("over");
    assert_eq!(e.outcome, Outcome::THAT_LOSES);
    assert_eq!(e.winner(), Some(PlayerId(0)));
}

#[test]
fn perft_stops_below_a_capture_only_where_the_whole_condition_holds() {
    let v = rewritten(
        "chess.var",
        "game ends {\n",
        "game ends {\n  (Queen captured or Rook captured by Knight) and not in check: mover wins\n",
    );
    let r = compiled(&v);
    let text = "rnbq1bnr/1pB1kpp1/4p3/p6p/4p3/3P3P/PPP2PPR/RN1QKBN1 w Q h6 1 7";
    let setup = parse_position(&r, text).unwrap();
    let game = Game::new(r.clone(), setup.clone()).unwrap();
    // c7xd8 takes the Queen with check: the rule does not hold, and Black's King has
    // four answers (xd8, e8, d7, d6).
    let take = |word: &str| {
        let mut g = game.clone();
        let m = g
            .legal_moves()
            .into_iter()
            .find(|m| variantlab::write_move(&v, m) == word)
            .unwrap_or_else(|| panic!("{word} is legal"));
        g.play(m).unwrap();
        g
    };
    let after = take("c7xd8");
    assert!(after.ending().is_none());
    assert_eq!(after.legal_moves().len(), 4);
    // Perft 2 counts below each move what the game allows there: nothing after a move
    // that ends it. The independent reference generator counts 1,067.
    let by_games: u64 = game
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut g = game.clone();
            g.play(m).unwrap();
            if g.ending().is_some() {
                0
            } else {
                g.legal_moves().len() as u64
            }
        })
        .sum();
    let mut pos = variantlab::Position::from_setup(&r, &setup).unwrap();
    assert_eq!(variantlab::perft(&r, &mut pos, 2), by_games);
    assert_eq!(by_games, 1_067);
    // Taking the Queen without check ends the game.
    let text = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1";
    let setup = parse_position(&r, text).unwrap();
    let mut g = Game::new(r.clone(), setup).unwrap();
    let m = g
        .legal_moves()
        .into_iter()
        .find(|m| variantlab::write_move(&v, m) == "d2xd5")
        .expect("Rxd5 is legal");
    g.play(m).unwrap();
    assert_eq!(g.ending().map(|e| e.outcome), Some(Outcome::MOVER_WINS));
}

#[test]
fn conditions_nested_past_reason_are_refused_never_a_stack_overflow() {
    let chess = std::fs::read_to_string(common::root().join("variants/chess.var")).unwrap();
    for n in [33, 6_000, 20_000, 200_000] {
        let rule = format!("{}checkmate{}: draw\n", "(".repeat(n), ")".repeat(n));
        let text = chess.replace("game ends {\n", &format!("game ends {{\n  {rule}"));
        let checked = check("deep.var", &text);
        assert!(checked.variant.is_none(), "{n} pairs accepted");
        let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
        assert!(
            codes == ["variantlab::deep_condition"] || codes == ["variantlab::syntax"],
            "{n}: {codes:?}"
        );
    }
    // A long chain of `not` reads as its parity, and long chains of `and` are no deeper.
    let rule = format!("{}checkmate: draw\n", "not ".repeat(10_001));
    let chain = vec!["in check"; 10_000].join(" and ");
    let text = chess.replace(
        "game ends {\n",
        &format!("game ends {{\n  {rule}  {chain}: draw\n"),
    );
    let checked = check("long.var", &text);
    let v = checked.variant.expect("long chains check");
    let r = compiled(&v);
    let mut pos = variantlab::Position::from_setup(&r, &variantlab::Setup::start(&r)).unwrap();
    assert_eq!(variantlab::perft(&r, &mut pos, 2), 400);
}

#[test]
fn each_retired_wording_in_the_error_index_tells_the_new_one_listed() {
    let index = std::fs::read_to_string(common::root().join("docs/errors.md")).unwrap();
    let table = index
        .split("| old wording | new wording |")
        .nth(1)
        .expect("the table of retired wordings");
    let mut rows = 0;
    for row in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cols: Vec<&str> = row.split('|').collect();
        let old = cols[1].split('`').nth(1).expect("an old wording");
        // `nothing: ...` when the old words are simply left out.
        let new = match cols[2].trim().starts_with("nothing") {
            true => "",
            false => cols[2].split('`').nth(1).expect("a new wording"),
        };
        let moves = ["step ", "slide ", "leap "]
            .iter()
            .any(|m| old.starts_with(m));
        let (random, ends) = match old.strip_prefix("redraw ") {
            _ if old.starts_with("board ") => (String::new(), String::new()),
            _ if old.starts_with("once ") => (
                String::new(),
                format!(
                    "counting {{\n  a player with only royal pieces counts {old}: 64 moves\n}}\n\
                     game ends {{\n  count ran out: draw\n}}\n"
                ),
            ),
            _ if old.starts_with("leaves ") || old.starts_with("then ") => (
                String::new(),
                format!("piece Amazon (R) {{\n  step 1 orthogonal\n  {old}\n}}\n"),
            ),
            _ if old.starts_with("to ") => (
                String::new(),
                format!("piece Rook (R) {{\n  step 1 orthogonal, {old}\n}}\n"),
            ),
            Some(_) => (
                format!("setup random {{\n  White: Rook on a1 b1\n  {old}\n}}\n"),
                String::new(),
            ),
            None if moves => (
                String::new(),
                format!("piece Rook (R) {{\n  {old} orthogonal\n}}\n"),
            ),
            None => (String::new(), format!("game ends {{\n  {old}: draw\n}}\n")),
        };
        let board = if old.starts_with("board ") {
            old
        } else {
            "board square 8 by 8"
        };
        let text = format!(
            "name \"T\"\n{board}\nplayer White: forward north, capitals\n\
             player Black: forward south, lowercase\npiece King (K) {{\n  royal\n  step 1 any\n}}\n\
             setup {{\n  White: King e1\n  Black: King e8\n}}\n{random}{ends}"
        );
        let checked = check("t.var", &text);
        let d = checked.report.diagnostics.first().expect("a diagnostic");
        assert_eq!(
            d.code, "variantlab::retired_wording",
            "{old}: {}",
            d.message
        );
        match new {
            "" => assert!(d.message.contains("no longer written"), "{old}"),
            _ => assert_eq!(d.message.split('`').nth(3), Some(new), "{old}"),
        }
        // The new wording is read where the old one stood.
        let fixed = text.replace(&format!(", {old}"), "").replace(old, new);
        let report = check("t.var", &fixed).report;
        assert!(
            report
                .diagnostics
                .iter()
                .all(|d| d.code != "variantlab::retired_wording" && !d.code.ends_with("syntax")),
            "{new}: {}",
            report.render(100, false)
        );
        rows += 1;
    }
    assert!(rows >= 18, "{rows} rows");
}

/// The position as the reference generator reads it.
fn reference_position(r: &Arc<Rules>, text: &str) -> reference::Simple {
    let s = parse_position(r, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let (mut hands, mut promoted, mut gates) = (s.hands, s.promoted, s.gates);
    hands.sort();
    promoted.sort();
    gates.sort();
    reference::Simple {
        cells: s.cells,
        to_move: s.to_move,
        used: s.used,
        castling: s.castling,
        passing: None,
        hands,
        passes: 0,
        checks: s.checks,
        promoted,
        walls: s.walls,
        runs: Vec::new(),
        gates,
        struck: s.struck,
    }
}

/// How a game from the position is over already, as the runtime and the reference
/// each judge it: they must agree. The outcome and the winner.
fn judged(v: &variantlab::variant::Variant, text: &str) -> Option<(Outcome, Option<PlayerId>)> {
    let r = compiled(v);
    let got = ending(&r, text).map(|e| (e.outcome, e.winner()));
    let pos = reference_position(&r, text);
    let want =
        reference::verdict(v, r.options(), &pos).map(|e| (e.0, reference::winner(e, pos.to_move)));
    assert_eq!(got, want, "{text}: the runtime, then the reference");
    got
}

/// [`judged`], in chess with `rule` tried first (and a zone `centre` of the four middle
/// squares).
fn chess_judged(rule: &str, text: &str) -> Option<(Outcome, Option<PlayerId>)> {
    let path = common::root().join("variants/chess.var");
    let chess = std::fs::read_to_string(path).unwrap();
    let text_of_rules = chess
        .replace(
            "zone far: last cell of each file\n",
            "zone far: last cell of each file\nzone centre: d4 e4 d5 e5\n",
        )
        .replace(
            "game ends {\n",
            &format!("game ends {{\n  {rule}: that player wins\n"),
        );
    let checked = check("chess.var", &text_of_rules);
    let v = checked
        .variant
        .unwrap_or_else(|| panic!("{}", checked.report.render(100, false)));
    judged(&v, text)
}

const WHITE: PlayerId = PlayerId(0);
const BLACK: PlayerId = PlayerId(1);

/// White won: the rule named White.
const WHITE_WINS: Option<(Outcome, Option<PlayerId>)> = Some((Outcome::THAT_WINS, Some(WHITE)));
const BLACK_WINS: Option<(Outcome, Option<PlayerId>)> = Some((Outcome::THAT_WINS, Some(BLACK)));

#[test]
fn attacked_and_defended_pieces_count_as_worked_by_hand() {
    // White: King e1, Knight c3, Pawn b2; Black: King e8, Bishop e5; White to move, so
    // Black, who just moved, is asked first. The Bishop attacks the Knight through d4;
    // the Pawn could take on c3, so the Knight is defended; nothing of White's reaches
    // e5 or could take on it, nor could Black's King; nothing of White's could take on b2.
    let a = "4k3/8/8/4b3/8/2N5/1P6/4K3 w - - 0 1";
    assert_eq!(
        chess_judged("a player has an attacked Knight", a),
        WHITE_WINS
    );
    assert_eq!(chess_judged("a player has an unattacked Knight", a), None);
    assert_eq!(
        chess_judged("a player has a defended Knight", a),
        WHITE_WINS
    );
    assert_eq!(chess_judged("a player has an undefended Knight", a), None);
    assert_eq!(
        chess_judged("a player has an undefended Bishop", a),
        BLACK_WINS
    );
    assert_eq!(chess_judged("a player has an attacked Bishop", a), None);
    assert_eq!(
        chess_judged("a player has an unattacked Bishop", a),
        BLACK_WINS
    );
    assert_eq!(
        chess_judged("a player has an undefended Pawn", a),
        WHITE_WINS
    );
    // Counts count only the pieces in the state: one of White's two pieces beside the
    // King is attacked.
    assert_eq!(
        chess_judged("White has 1 attacked non-royal pieces", a),
        WHITE_WINS
    );
    assert_eq!(
        chess_judged("White has 2 attacked non-royal pieces", a),
        None
    );
}

#[test]
fn pieces_on_one_colour_count_as_worked_by_hand() {
    // White's Bishops on c1 and e3 share the dark squares; Black has none. White moved.
    let same = "4k3/8/8/8/8/4B3/8/2B1K3 b - - 0 1";
    assert_eq!(
        chess_judged("a player has at least 2 Bishop on one colour", same),
        WHITE_WINS
    );
    // No Bishop on the light squares.
    assert_eq!(
        chess_judged("a player has no Bishop on one colour", same),
        WHITE_WINS
    );
    // On c1 and f1 they differ: one a colour. Black has none on either colour.
    let apart = "4k3/8/8/8/8/8/8/2B1KB2 b - - 0 1";
    assert_eq!(
        chess_judged("a player has at least 2 Bishop on one colour", apart),
        None
    );
    assert_eq!(
        chess_judged("a player has no Bishop on one colour", apart),
        BLACK_WINS
    );
    assert_eq!(
        chess_judged("a player has at least 2 Bishop on the board", apart),
        WHITE_WINS
    );
}

#[test]
fn pieces_between_two_of_a_kind_count_as_worked_by_hand() {
    let rule = "a player has a King between two Rook";
    // Rooks a1 and h1, King e1: between them on the rank. White moved.
    let rank = "4k3/8/8/8/8/8/8/R3K2R b - - 0 1";
    assert_eq!(chess_judged(rule, rank), WHITE_WINS);
    // Black has no King between two Rooks (no Rook at all): `no` holds for Black.
    assert_eq!(
        chess_judged("a player has no King between two Rook", rank),
        BLACK_WINS
    );
    // King e2: off the line a1-h1.
    assert_eq!(chess_judged(rule, "4k3/8/8/8/8/8/4K3/R6R b - - 0 1"), None);
    // a1, b2, c3: a diagonal.
    assert_eq!(
        chess_judged(rule, "4k3/8/8/8/8/2R5/1K6/R7 b - - 0 1"),
        WHITE_WINS
    );
    // a1, c2, e3: a straight line that is no direction of the board, c2 halfway.
    assert_eq!(
        chess_judged(rule, "4k3/8/8/8/8/4R3/2K5/R7 b - - 0 1"),
        WHITE_WINS
    );
    // Pieces between do not matter; the Knights b1 and g1 and the King e1 are three.
    let full = "4k3/8/8/8/8/8/8/RN2K1NR b - - 0 1";
    assert_eq!(chess_judged(rule, full), WHITE_WINS);
    assert_eq!(
        chess_judged("a player has 3 pieces between two Rook", full),
        WHITE_WINS
    );
    assert_eq!(
        chess_judged("a player has 4 pieces between two Rook", full),
        None
    );
}

#[test]
fn every_player_and_the_player_to_move_as_worked_by_hand() {
    // Zone far: White's the eighth rank, Black's the first.
    let every = "every player has a King in far";
    // Both Kings there: the rule names the player who just moved.
    assert_eq!(
        chess_judged(every, "4K3/8/8/8/8/8/8/4k3 b - - 0 1"),
        WHITE_WINS
    );
    assert_eq!(
        chess_judged(every, "4K3/8/8/8/8/8/8/4k3 w - - 0 1"),
        BLACK_WINS
    );
    // Black's King on e2: not every player, though a player.
    let one = "4K3/8/8/8/8/8/4k3/8 b - - 0 1";
    assert_eq!(chess_judged(every, one), None);
    assert_eq!(chess_judged("a player has a King in far", one), WHITE_WINS);
    // The player to move alone: Black, not there; then White, there.
    let to_move = "the player to move has a King in far";
    assert_eq!(chess_judged(to_move, one), None);
    assert_eq!(
        chess_judged(to_move, "4K3/8/8/8/8/8/4k3/8 w - - 0 1"),
        WHITE_WINS
    );
}

#[test]
fn what_a_player_can_capture_as_worked_by_hand() {
    let rule = "White can capture an undefended Pawn";
    // The Rook d1 takes d5; no Black piece could take on d5.
    let open = "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1";
    assert_eq!(chess_judged(rule, open), WHITE_WINS);
    // Black to move: White cannot capture now.
    assert_eq!(chess_judged(rule, "4k3/8/8/3p4/8/8/8/3RK3 b - - 0 1"), None);
    // The Pawn e6 defends d5, and White reaches no other Pawn.
    let guarded = "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1";
    assert_eq!(chess_judged(rule, guarded), None);
    assert_eq!(
        chess_judged("White can capture a defended Pawn", guarded),
        WHITE_WINS
    );
    // The Rook e2, pinned by the Rook e8, may not take b2: no legal capture.
    assert_eq!(
        chess_judged(rule, "4r2k/8/8/8/8/8/1p2R3/4K3 w - - 0 1"),
        None
    );
}

#[test]
fn what_a_player_can_move_into_a_zone_as_worked_by_hand() {
    // The Pawn e7 becomes a Queen on e8, never stays a Pawn there.
    let pawn = "8/4P3/7k/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(
        chess_judged("White can move a Queen into far", pawn),
        WHITE_WINS
    );
    assert_eq!(chess_judged("White can move a Pawn into far", pawn), None);
    assert_eq!(chess_judged("White can move a King into far", pawn), None);
    // The Queen a8 stands in the zone already, but no move brings one there: the
    // Knight b8 blocks the rank.
    let there = "QN6/8/7k/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(chess_judged("White can move a Queen into far", there), None);
    assert_eq!(chess_judged("White has a Queen in far", there), WHITE_WINS);

    // Racing Kings as written: White's King on g8.
    let v = common::variant("racingkings.var");
    // Black's King b7, to move, can reach the eighth rank: the game goes on.
    assert_eq!(judged(&v, "6K1/1k6/8/8/8/8/8/8 b - - 0 1"), None);
    // From b6 it cannot: White has won.
    assert_eq!(judged(&v, "6K1/8/1k6/8/8/8/8/8 b - - 0 1"), WHITE_WINS);
    // The Rook d8 guards a8, b8 and c8: no legal move brings the King there.
    assert_eq!(judged(&v, "3R2K1/1k6/8/8/8/8/8/8 b - - 0 1"), WHITE_WINS);
    // White to move: Black, not the player to move, can no longer.
    assert_eq!(judged(&v, "6K1/1k6/8/8/8/8/8/8 w - - 0 1"), WHITE_WINS);
    // Both Kings there: every player has, a draw.
    assert_eq!(
        judged(&v, "1k4K1/8/8/8/8/8/8/8 w - - 0 1"),
        Some((Outcome::Draw, None))
    );
}

#[test]
fn a_piece_in_hand_is_neither_attacked_nor_defended() {
    // White's Gold in hand: no piece could capture it, and it stands on no cell for a
    // piece of White's to capture on.
    let v = common::variant("shogi.var");
    let shogi = |rule: &str| {
        let text = std::fs::read_to_string(common::root().join("variants/shogi.var")).unwrap();
        let text = text.replace(
            "game ends {\n",
            &format!("game ends {{\n  {rule}: that player wins\n"),
        );
        check("shogi.var", &text).variant.expect("checks")
    };
    let kings = "4k4/9/9/9/9/9/9/9/4K4 b g 1";
    // Shogi's White is the second player.
    let white_wins = Some((Outcome::THAT_WINS, Some(PlayerId(1))));
    assert_eq!(judged(&v, kings), None);
    assert_eq!(
        judged(&shogi("White has an unattacked Gold"), kings),
        white_wins
    );
    assert_eq!(
        judged(&shogi("White has an undefended Gold"), kings),
        white_wins
    );
    assert_eq!(judged(&shogi("White has an attacked Gold"), kings), None);
    assert_eq!(judged(&shogi("White has a defended Gold"), kings), None);
}

#[test]
fn every_player_and_outcome_of_the_general_form_score_as_their_words() {
    // Worked by hand. White has a King and a Pawn, Black a King and two Pawns.
    let fen = "4k3/pp6/8/8/8/8/4P3/4K3 w - - 0 1";
    // White's share: Black just moved, and `every player` names the mover.
    for (outcome, white) in [
        ("fewer pieces win", 1.0),
        ("more pieces win", 0.0),
        ("Black loses", 1.0),
        ("White loses", 0.0),
        ("mover scores 1/4", 0.75),
        ("mover scores 2/4", 0.5),
        ("that player scores 1/4", 0.75),
        ("White scores 1/4", 0.25),
    ] {
        let v = rewritten(
            "chess.var",
            "game ends {\n",
            &format!("game ends {{\n  every player has a King: {outcome}\n"),
        );
        let e = ending(&compiled(&v), fen).expect("over");
        assert_eq!(e.score.share(PlayerId(0)), white, "{outcome}");
    }
    // `every player` holds only when each does.
    let v = rewritten(
        "chess.var",
        "game ends {\n",
        "game ends {\n  every player has a Pawn on the board: draw\n",
    );
    let r = compiled(&v);
    assert!(ending(&r, fen).is_some());
    assert!(ending(&r, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").is_none());
}

/// Chess with an obligation added: each position's legal moves as worked by hand.
#[test]
fn each_kind_of_move_may_be_compulsory_or_forbidden() {
    let chess = std::fs::read_to_string(common::root().join("variants/chess.var")).unwrap();
    let count = |obligation: &str, text: &str| {
        let v = rewritten(
            "chess.var",
            "\ngame ends {",
            &format!("\n{obligation}\ngame ends {{"),
        );
        assert!(chess.contains("\ngame ends {"));
        let r = compiled(&v);
        let setup = parse_position(&r, text).unwrap();
        let pos = variantlab::Position::from_setup(&r, &setup).unwrap();
        let mut list = vec![];
        pos.legal_moves(&r, &mut list);
        let mut captures = vec![];
        pos.legal_captures(&r, &mut captures);
        assert!(captures.iter().all(|c| list.contains(c)), "{obligation}");
        let want = list.iter().filter(|m| m.captured.is_some()).count();
        assert_eq!(
            captures.len(),
            want,
            "{obligation}: the captures among the moves"
        );
        list.len()
    };
    // Rook a1 (4 up the file, taking a5 last, 3 along the rank), King e1 (5).
    let rook = "4k3/8/8/p7/8/8/8/R3K3 w - - 0 1";
    assert_eq!(count("", rook), 12);
    assert_eq!(count("captures are compulsory", rook), 1);
    assert_eq!(count("captures are forbidden", rook), 11);
    // Only Ra8 checks; the King has 5 moves, the Rook 9 (a2-a8 and b1-d1).
    let check = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    assert_eq!(count("", check), 15);
    assert_eq!(count("checks are compulsory", check), 1);
    assert_eq!(count("checks are forbidden", check), 14);
    // The Pawn's step to a8 promotes to one of 4 kinds; the King has 5 moves.
    let pawn = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(count("", pawn), 9);
    assert_eq!(count("promotions are compulsory", pawn), 4);
    assert_eq!(count("promotions are forbidden", pawn), 5);
    // Forbidden kinds go first: the one capture, Rxa8, checks, so none is left to be
    // compulsory, and 14 of the 15 moves stay (taken the other way round, none would).
    let both = "captures are compulsory\nchecks are forbidden";
    assert_eq!(count("", "p3k3/8/8/8/8/8/8/R3K3 w - - 0 1"), 15);
    assert_eq!(count(both, "p3k3/8/8/8/8/8/8/R3K3 w - - 0 1"), 14);
}

#[test]
fn a_kind_of_move_obliged_twice_is_told() {
    let v = check(
        "t.var",
        &std::fs::read_to_string(common::root().join("variants/chess.var"))
            .unwrap()
            .replace(
                "\ngame ends {",
                "\ncaptures are compulsory\ncaptures are forbidden\ngame ends {",
            ),
    );
    let codes: Vec<&str> = v.report.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["variantlab::duplicate_statement"]);
}

#[test]
fn an_obligation_on_checks_in_a_game_without_royal_pieces_is_warned_of() {
    for (line, warned) in [
        ("checks are forbidden", true),
        ("checks are compulsory", true),
        ("captures are compulsory", false),
    ] {
        let text = format!(
            "name \"T\"\nboard square 4 by 4\nplayer White: forward north, capitals\n\
             player Black: forward south, lowercase\npiece King (K) {{\n  step 1 any\n}}\n\
             setup {{\n  White: King a1\n  Black: King d4\n}}\n{line}\n\
             game ends {{\n  King captured: mover wins\n  no legal move: mover loses\n}}\n"
        );
        let checked = check("t.var", &text);
        assert!(checked.variant.is_some(), "{line}");
        let codes: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes.contains(&"variantlab::checkmate_without_royal"),
            warned,
            "{line}: {codes:?}"
        );
    }
}
