//! Snapshots of what users see: the diagnostics of every file in `variants/invalid/`
//! and the footprint of every piece of every valid variant. They live in the
//! top-level `snapshots/` folder.

use crate::common;

use common::{root, rules};
use std::path::PathBuf;
use std::sync::Arc;
use variantlab::diagrams::footprint_diagram;
use variantlab::load::check_all as check;
use variantlab::{PieceId, PlayerId};

/// Every `.var` file directly in `dir` (relative to the repository), sorted, so new
/// files are picked up without touching the tests.
fn var_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "var"))
        .collect();
    files.sort();
    files
}

fn stem(p: &std::path::Path) -> String {
    p.file_stem()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

fn read(p: &std::path::Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Snapshot settings writing to `snapshots/<folder>/` without the test module's prefix.
fn settings(folder: &str) -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(root().join("snapshots").join(folder));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

/// The code each invalid file exists to show (without the `variantlab::` prefix). A file
/// that stops producing its diagnostic fails here rather than silently changing snapshot.
const EXPECTED: &[(&str, &[&str])] = &[
    ("absent-piece", &["absent_piece"]),
    ("enclosure-limit", &["enclosure_limit"]),
    ("enclosed-royal", &["enclosed_royal"]),
    ("bad-jump", &["bad_jump"]),
    ("most-taken", &["most_taken"]),
    ("bad-count", &["bad_count"]),
    ("retired-wording", &["retired_wording"]),
    ("deep-condition", &["deep_condition"]),
    ("board-lean", &["board_lean"]),
    ("extra-cell", &["extra_cell"]),
    ("that-player", &["that_player"]),
    ("count-condition", &["count_condition"]),
    ("bad-hurdle", &["bad_hurdle"]),
    ("bad-scheme", &["bad_scheme"]),
    ("board-size", &["board_size"]),
    ("cell-in-hole", &["cell_in_hole"]),
    ("castling-off-board", &["cell_off_board"]),
    ("cell-off-board", &["cell_off_board"]),
    ("diagram-shape", &["diagram_shape"]),
    ("duplicate-board", &["duplicate_board"]),
    ("duplicate-clause", &["duplicate_clause"]),
    ("duplicate-code", &["duplicate_code"]),
    ("duplicate-hole", &["duplicate_hole"]),
    ("hand-count", &["hand_count"]),
    ("unknown-set", &["unknown_set"]),
    ("bad-drawing", &["bad_drawing"]),
    ("picture-outside", &["picture_outside"]),
    ("missing-picture", &["missing_picture"]),
    ("second-wall", &["second_wall"]),
    ("second-wall-moved", &["second_wall"]),
    ("aimed-cell", &["aimed_cell"]),
    ("count-unreachable", &["count_unreachable"]),
    ("nearby-capture", &["nearby_capture"]),
    ("no-count", &["no_count"]),
    ("hole-range", &["hole_range"]),
    ("castle-start", &["castle_start"]),
    ("castle-line", &["castle_line"]),
    ("no-castling", &["no_castling"]),
    ("no-hand", &["no_hand"]),
    ("not-text", &["not_text"]),
    ("duplicate-option", &["duplicate_option"]),
    ("duplicate-piece", &["duplicate_piece"]),
    ("duplicate-player", &["duplicate_player"]),
    ("duplicate-statement", &["duplicate_statement"]),
    ("duplicate-tag", &["duplicate_tag"]),
    ("immobile-piece", &["immobile_piece"]),
    (
        "many-mistakes",
        &[
            "cell_off_board",
            "same_case",
            "duplicate_player",
            "unknown_direction",
            "outward_first",
            "unbounded_path",
            "unknown_option",
            "unknown_tag",
            "duplicate_code",
            "cell_in_hole",
            "occupied_cell",
            "unknown_piece",
            "unknown_player",
            "bad_count",
        ],
    ),
    ("misspelt-outward", &["syntax"]),
    ("missing-board", &["missing_board"]),
    ("missing-name", &["missing_name"]),
    ("missing-players", &["missing_players"]),
    ("no-forward", &["no_forward"]),
    ("number-too-large", &["number_too_large"]),
    ("occupied-cell", &["occupied_cell"]),
    ("outward-first", &["outward_first"]),
    ("path-too-long", &["path_too_long"]),
    ("pool-too-small", &["pool_too_small"]),
    ("reserved-mark", &["reserved_mark"]),
    ("same-case", &["same_case"]),
    ("scheme-same-names", &["bad_scheme"]),
    ("syntax-error", &["syntax"]),
    ("syntax-errors", &["syntax"]),
    ("too-many-legs", &["too_many_legs"]),
    ("too-many-paths", &["too_many_paths"]),
    ("too-many-players", &["too_many"]),
    ("unbounded-path", &["unbounded_path"]),
    ("unknown-code", &["unknown_code"]),
    ("unknown-direction", &["unknown_direction"]),
    ("unknown-option", &["unknown_option"]),
    ("unknown-piece", &["unknown_piece"]),
    ("unknown-piece-in-game-end", &["unknown_piece"]),
    ("unknown-promotion", &["unknown_piece"]),
    ("unknown-promoted-base", &["unknown_code", "unknown_piece"]),
    ("unknown-player", &["unknown_player"]),
    ("unknown-tag", &["unknown_tag"]),
    ("unreachable-move", &["unreachable_move"]),
    ("glued-words", &["syntax"]),
    ("misspelt-qualifier", &["syntax"]),
    ("misspelt-word-before", &["syntax"]),
    ("look-alike-letter", &["syntax"]),
    ("unknown-end-phrase", &["syntax"]),
    ("transposed-letters", &["unknown_piece"]),
    ("impossible-leg", &["unreachable_move"]),
    ("unclosed-brace", &["syntax"]),
    ("too-many-once-pairs", &["too_many"]),
    ("hex-cell-off-board", &["cell_off_board"]),
    ("ambiguous-name", &["ambiguous_name"]),
    ("missing-end", &["missing_end"]),
    ("undecided-end", &["undecided_end"]),
    ("missing-deciding-piece", &["missing_deciding_piece"]),
    ("recovery", &["syntax", "bad_count"]),
    (
        "missing-deciding-piece-behind-option",
        &["missing_deciding_piece"],
    ),
    ("unclosed-paren", &["syntax"]),
    ("bad-score", &["bad_score"]),
    ("no-points", &["no_points"]),
    ("bad-points", &["bad_points"]),
    ("limit-not-a-choice", &["limit_not_a_choice"]),
    ("promotions-disagree", &["promotions_disagree"]),
    ("duplicate-zone", &["duplicate_zone"]),
    ("unknown-zone", &["unknown_zone"]),
    ("moves-as-cycle", &["moves_as_cycle"]),
    ("mirror-mismatch", &["mirror_mismatch"]),
    ("checkmate-without-royal", &["checkmate_without_royal"]),
    ("unclosed-long-string", &["syntax"]),
    ("misspelt-statement-word", &["syntax"]),
    ("misspelt-player-property", &["syntax"]),
    ("misspelt-direction", &["syntax"]),
    ("misspelt-event", &["syntax"]),
    ("misspelt-outcome", &["syntax"]),
    ("misspelt-clause", &["syntax"]),
    ("misspelt-board-shape", &["syntax"]),
    ("misspelt-relative-direction", &["unknown_direction"]),
    ("misspelt-direction-kind", &["unknown_direction"]),
    ("missing-comma", &["syntax"]),
    ("dangling-comma", &["syntax"]),
    ("over-at-start", &["over_at_start"]),
    ("complete-statement", &["syntax"]),
    ("number-in-words", &["syntax"]),
    ("unfinished-outcome", &["syntax"]),
    ("cell-range-in-setup", &["syntax"]),
    ("misspelt-deciding-piece", &["unknown_piece"]),
    ("ambiguous-demotion", &["ambiguous_demotion"]),
    ("unplayable-start", &["unplayable_start"]),
];

/// Files that document a warning: they must still check, with warnings only.
const WARNINGS_ONLY: &[&str] = &[
    "absent-piece",
    "enclosed-royal",
    "missing-picture",
    "duplicate-hole",
    "immobile-piece",
    "no-hand",
    "missing-name",
    "unreachable-move",
    "impossible-leg",
    "missing-end",
    "undecided-end",
    "checkmate-without-royal",
    "ambiguous-demotion",
    "over-at-start",
];

#[test]
fn invalid_files_render_as_snapshotted() {
    let files = var_files("variants/invalid");
    assert!(files.len() >= 18, "only {} invalid files", files.len());
    for path in files {
        let name = stem(&path);
        let report = check(&format!("{name}.var"), &read(&path)).report;
        let mut settings = settings("invalid");
        settings.set_input_file(&path);
        settings.bind(|| insta::assert_snapshot!(name, report.render(80, false)));
    }
}

#[test]
fn invalid_files_produce_their_diagnostic() {
    let files = var_files("variants/invalid");
    for path in &files {
        let name = stem(path);
        let Some((_, codes)) = EXPECTED.iter().find(|(f, _)| *f == name) else {
            panic!("{name}.var has no entry in EXPECTED");
        };
        let checked = check(&name, &read(path));
        let found: Vec<&str> = checked.report.diagnostics.iter().map(|d| d.code).collect();
        for code in *codes {
            let code = format!("variantlab::{code}");
            assert!(
                found.contains(&code.as_str()),
                "{name}.var: no {code} among {found:?}"
            );
        }
        if WARNINGS_ONLY.contains(&name.as_str()) {
            assert!(
                checked.variant.is_some(),
                "{name}.var should have warnings only, got {found:?}"
            );
        } else {
            assert!(
                checked.report.has_errors(),
                "{name}.var should have errors, got {found:?}"
            );
        }
    }
    for (name, _) in EXPECTED {
        assert!(
            files.iter().any(|p| stem(p) == *name),
            "EXPECTED names a missing file {name}.var"
        );
    }
}

#[test]
fn syntax_recovery_reports_every_error() {
    let text = read(&root().join("variants/invalid/syntax-errors.var"));
    let report = check("syntax-errors.var", &text).report;
    let lines: Vec<usize> = report
        .diagnostics
        .iter()
        .map(|d| {
            assert_eq!(d.code, "variantlab::syntax");
            text[..d.span.start].lines().count()
        })
        .collect();
    // One error each on the board, player, Thoat and game-end lines.
    assert_eq!(lines, [5, 8, 15, 23]);
}

#[test]
fn valid_files_check_without_any_diagnostic() {
    let files = var_files("variants");
    assert!(!files.is_empty());
    for path in files {
        let checked = check(&stem(&path), &read(&path));
        assert!(
            checked.variant.is_some() && checked.report.diagnostics.is_empty(),
            "{}:\n{}",
            path.display(),
            checked.report.render(100, false)
        );
    }
}

#[test]
fn footprints_at_the_centre_are_snapshotted() {
    let settings = settings("footprints");
    for path in var_files("variants") {
        let file = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let rules = rules(&file);
        let v = &rules.variant();
        for (i, piece) in v.pieces.iter().enumerate() {
            let diagram = footprint_diagram(
                &rules,
                PlayerId(0),
                PieceId(i as u8),
                v.board.centre(),
                false,
            );
            let name = format!("{}-{}", stem(&path), piece.name.to_lowercase());
            settings.bind(|| insta::assert_snapshot!(name, diagram));
        }
    }
}

/// Big boards, whose cell sets are wider than two words: every piece of the side-12
/// Hexagonal Iss Jetan in its bottom-left corner (its centre is covered above), and the
/// Iss Jetan pieces on a 16 by 16 square at its centre and, drawn whole, in a corner.
#[test]
fn footprints_on_big_boards_are_snapshotted() {
    let settings = settings("footprints");
    let hex = rules("hexagonal-iss-jetan-12.var");
    let corner = hex.variant().board.parse_cell("a1").expect("a corner");
    let square_text = read(&root().join("variants/iss-jetan.var"))
        .replace("board square 10 by 10", "board square 16 by 16");
    let v = check("iss-jetan-16.var", &square_text)
        .variant
        .expect("Iss Jetan checks on 16 by 16");
    let square = Arc::new(variantlab::compile_tables(&v, &v.default_options()).unwrap());
    let cases = [
        (&hex, "hexagonal-iss-jetan-12", "corner", corner, false),
        (&square, "iss-jetan-16", "centre", v.board.centre(), false),
        (
            &square,
            "iss-jetan-16",
            "corner",
            v.board.parse_cell("a1").unwrap(),
            true,
        ),
    ];
    for (rules, game, place, cell, full) in cases {
        for (i, piece) in rules.variant().pieces.iter().enumerate() {
            let diagram = footprint_diagram(rules, PlayerId(0), PieceId(i as u8), cell, full);
            let name = format!("{game}-{}-{place}", piece.name.to_lowercase());
            settings.bind(|| insta::assert_snapshot!(name, diagram));
        }
    }
}
