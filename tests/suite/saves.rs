//! Saved games under hostile conditions: files that must not be replaced, saves cut
//! short or pointing at other files, rules changed since, and files that are not
//! saves at all. A refused save or load leaves the game exactly as it was.

use crate::common;

use common::root;
use std::path::{Path, PathBuf};
use variantlab::play::{Console, MAX_SAVE_BYTES, SAVE_HEADER, start_setup};
use variantlab::{MAX_COUNTER, Position, Settings};

fn temp_dir(name: &str) -> crate::common::Scratch {
    crate::common::scratch(&format!("saves-{name}"), &[])
}

/// A game of Iss Jetan read from a copy of its file in `dir`, after a few moves.
fn game_in(dir: &Path) -> Console {
    let variant = dir.join("jetan.var");
    std::fs::copy(root().join("variants/iss-jetan.var"), &variant).unwrap();
    let mut s = Console::open(&variant, &Settings::new(), None).unwrap();
    for m in ["e2-e3", "f9-f8", "d2-d3"] {
        assert!(!s.handle(m).refused, "{m}");
    }
    s
}

fn say(s: &mut Console, line: &str) -> String {
    s.handle(line).text
}

#[test]
fn variant_files_are_never_overwritten_even_when_forced() {
    let dir = temp_dir("variant");
    let mut s = game_in(&dir);
    let rules = std::fs::read_to_string(dir.join("jetan.var")).unwrap();
    // The same rules under a name without `.var` are still a variant file.
    std::fs::write(dir.join("rules.txt"), &rules).unwrap();
    let before = s.snapshot();
    for target in ["jetan.var", "rules.txt", "new.var"] {
        for cmd in ["save", "save --force"] {
            let path = dir.join(target);
            let r = s.handle(&format!("{cmd} {}", path.display()));
            assert!(r.refused, "{cmd} {target}: {}", r.text);
            assert!(r.text.contains("is a variant file"), "{}", r.text);
        }
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("jetan.var")).unwrap(),
        rules
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("rules.txt")).unwrap(),
        rules
    );
    assert!(!dir.join("new.var").exists());
    assert_eq!(s.snapshot(), before);
}

#[test]
fn other_files_are_replaced_only_when_asked_and_whole() {
    let dir = temp_dir("force");
    let mut s = game_in(&dir);
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let r = s.handle(&format!("save {}", notes.display()));
    assert!(
        r.refused && r.text.contains("already exists; `save --force"),
        "{}",
        r.text
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    let r = s.handle(&format!("save --force {}", notes.display()));
    assert!(!r.refused, "{}", r.text);
    assert!(
        std::fs::read_to_string(&notes)
            .unwrap()
            .starts_with(SAVE_HEADER)
    );
    // The file this game was saved to may be saved to again; no temporary file stays.
    s.handle("g9-g8");
    let r = s.handle(&format!("save {}", notes.display()));
    assert!(!r.refused, "{}", r.text);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "only the variant and the save: {names:?}");
    assert!(std::fs::read_to_string(&notes).unwrap().contains("g9-g8"));
    // A folder is never a save target.
    let r = s.handle(&format!("save --force {}", dir.display()));
    assert!(r.refused && r.text.contains("is a folder"), "{}", r.text);
}

#[test]
fn a_save_cut_short_anywhere_is_refused_and_says_what_is_missing() {
    let dir = temp_dir("cut");
    let mut s = game_in(&dir);
    let full_path = dir.join("full.txt");
    s.handle(&format!("save {}", full_path.display()));
    let full = std::fs::read_to_string(&full_path).unwrap();
    let cut_path = dir.join("cut.txt");
    let mut fresh = game_in(&dir);
    fresh.handle("undo");
    let before = fresh.snapshot();
    for at in 0..full.len() {
        let cut = &full[..at];
        // Only the final newline may go.
        let whole = cut.trim_end() == full.trim_end();
        std::fs::write(&cut_path, cut).unwrap();
        let r = fresh.handle(&format!("load {}", cut_path.display()));
        if whole {
            assert!(!r.refused, "{}", r.text);
            assert_eq!(fresh.game().position_string(), s.game().position_string());
            fresh.handle("undo");
            continue;
        }
        assert!(r.refused, "cut at {at} loaded:\n{cut}");
        assert_eq!(fresh.snapshot(), before, "cut at {at}");
        assert!(
            r.text.contains("cut short") || r.text.contains("not a saved game"),
            "cut at {at}: {}",
            r.text
        );
        let header_whole = cut.lines().next() == Some(SAVE_HEADER) && cut.len() > SAVE_HEADER.len();
        if header_whole && !cut.contains("\nend") {
            assert!(
                r.text.contains("it is incomplete (cut short?)") && r.text.contains("`end` line"),
                "cut at {at}: {}",
                r.text
            );
        }
    }
}

#[test]
fn a_save_names_its_variant_relative_to_itself_and_checks_its_rules() {
    let dir = temp_dir("relative");
    std::fs::create_dir_all(dir.join("games/old")).unwrap();
    let mut s = game_in(&dir);
    let save = dir.join("games/old/g.txt");
    assert!(!s.handle(&format!("save {}", save.display())).refused);
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("\nvariant ../../jetan.var\n"), "{text}");
    // The whole tree moves: the save still finds its rules.
    let moved = temp_dir("relative-moved");
    std::fs::rename(&dir, moved.join("tree")).unwrap();
    let save = moved.join("tree/games/old/g.txt");
    let (again, warning) = Console::restore(&save).unwrap();
    assert_eq!(warning, None);
    assert_eq!(again.snapshot().lines().last(), s.snapshot().lines().last());

    // Same moves still legal, different text: loads, with a clear warning.
    let variant = moved.join("tree/jetan.var");
    let mut rules = std::fs::read_to_string(&variant).unwrap();
    rules.push_str("\n# a remark added later\n");
    std::fs::write(&variant, &rules).unwrap();
    let (_, warning) = Console::restore(&save).unwrap();
    let w = warning.expect("a warning");
    assert!(
        w.contains("the rules differ") && w.contains("has changed since the game was saved"),
        "{w}"
    );
    // Rules under which the moves no longer work: refused, saying the rules changed.
    std::fs::write(
        &variant,
        rules.replace("step 1 any except backward orthogonal", "step 1 backward"),
    )
    .unwrap();
    let e = Console::restore(&save).err().expect("refused");
    assert!(
        e.contains("move 1 (`e2-e3`)") && e.contains("the variant file has changed"),
        "{e}"
    );
}

#[test]
fn load_reads_only_small_regular_files_and_never_quotes_other_files() {
    let dir = temp_dir("load");
    let mut s = game_in(&dir);
    let before = s.snapshot();
    let mut refusals = vec![];
    if Path::new("/dev/zero").exists() {
        refusals.push(("/dev/zero".to_string(), "is not a regular file".to_string()));
    }
    refusals.push((dir.display().to_string(), "is not a regular file".into()));
    let huge = dir.join("huge.txt");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(MAX_SAVE_BYTES + 1)
        .unwrap();
    refusals.push((
        huge.display().to_string(),
        format!("larger than {MAX_SAVE_BYTES} bytes"),
    ));
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "SECRET-LINE-1 root:x:0:0\nmore\n").unwrap();
    refusals.push((secret.display().to_string(), "is not a saved game".into()));
    // A well-formed save naming that file as its variant.
    let named = dir.join("named.txt");
    std::fs::write(
        &named,
        format!("{SAVE_HEADER}\nvariant secret.txt\nrules 0\nstart x\nmoves\nend 0 x\n"),
    )
    .unwrap();
    refusals.push((
        named.display().to_string(),
        "is not a valid variant file".into(),
    ));
    let binary = dir.join("binary.txt");
    std::fs::write(&binary, b"\xff\xfe\x00SECRET-LINE-1").unwrap();
    refusals.push((binary.display().to_string(), "not UTF-8 text".into()));
    let old = dir.join("old.txt");
    std::fs::write(&old, "variant jetan.var\nstart x\nmoves e2-e3\n").unwrap();
    refusals.push((old.display().to_string(), "an earlier format".into()));
    for (path, says) in refusals {
        let r = s.handle(&format!("load {path}"));
        assert!(r.refused, "{path}: {}", r.text);
        assert!(r.text.contains(&says), "{path}: {}", r.text);
        assert!(!r.text.contains("SECRET"), "{path} quoted: {}", r.text);
        assert_eq!(s.snapshot(), before, "{path}");
    }
}

#[test]
fn end_of_input_says_whether_the_game_is_saved() {
    let dir = temp_dir("eof");
    let mut s = game_in(&dir);
    assert_eq!(s.end_of_input(), "End of input: the game was not saved.");
    s.handle(&format!("save {}", dir.join("g.txt").display()));
    assert!(
        s.end_of_input()
            .starts_with("End of input; the game is saved in")
    );
    s.handle("undo");
    assert_eq!(s.end_of_input(), "End of input: the game was not saved.");
}

#[test]
fn counters_are_refused_past_the_limit_and_never_wrap() {
    let dir = temp_dir("counters");
    let s = game_in(&dir);
    let r = s.rules();
    let board = "wapddwflchprfldwpdwa/thpnpnpnpnpnpnpnpnth/10/10/10/10/10/10/THPNPNPNPNPNPNPNPNTH/WAPDDWFLCHPRFLDWPDWA";
    for (counters, field) in [
        (
            "4294967295 1",
            "plies since a capture: 4294967295 is more than 1000000000",
        ),
        (
            "0 4294967295",
            "move number: 4294967295 is more than 1000000000",
        ),
        ("0 1000000001", "move number: 1000000001"),
    ] {
        let setup = start_setup(r, Some(&format!("{board} o - {counters}"))).unwrap();
        let e = Console::new(&dir.join("jetan.var"), r.clone(), setup)
            .err()
            .expect("refused");
        assert!(e.contains(field), "{e}");
    }
    // At the limit, moves count on past it, and back.
    let setup = start_setup(r, Some(&format!("{board} o - 0 1000000000"))).unwrap();
    let mut g = Console::new(&dir.join("jetan.var"), r.clone(), setup).unwrap();
    assert!(!g.handle("e9-e8").refused);
    let p = g.game().position_string();
    assert!(p.ends_with(" 1 1000000001"), "{p}");
    assert!(!g.handle("undo").refused);
    let p = g.game().position_string();
    assert!(p.ends_with(" 0 1000000000"), "{p}");
    let setup = start_setup(r, Some(&format!("{board} o - 1000000000 1"))).unwrap();
    let mut pos = Position::from_setup(r, &setup).unwrap();
    let mut moves = vec![];
    pos.legal_moves(r, &mut moves);
    let undo = pos.make_unchecked(r, &moves[0]);
    assert_eq!(pos.quiet_plies(), MAX_COUNTER + 1);
    pos.unmake_unchecked(r, &moves[0], undo);
    assert_eq!(pos.quiet_plies(), MAX_COUNTER);
}

#[test]
fn bad_commands_name_what_was_typed_and_what_was_expected() {
    let dir = temp_dir("messages");
    let mut s = game_in(&dir);
    let before = s.snapshot();
    for (line, says) in [
        (
            "e9-e8-e7",
            "`e9-e8-e7`: a move names two cells, from and to, not 3, e.g. `",
        ),
        (
            "e9-",
            "`e9-`: the cell to move to is missing; write a move as from-to, e.g. `",
        ),
        ("-e8", "`-e8`: the cell to move from is missing"),
        (
            "e9-e8 please",
            "`e9-e8 please`: nothing may follow a move, but `please` does",
        ),
        ("e9-z8", "`e9-z8`: `z8` is not a cell of this board"),
        (
            "e9-e8:q",
            "`q` is not a tag of this variant; its tags are `m`, `e`",
        ),
        (
            "undo undo",
            "`undo undo`: `undo` takes nothing after it; type just `undo`",
        ),
        (
            "moves please",
            "`moves please`: `moves` takes nothing after it",
        ),
        ("board 2", "`board` takes nothing after it"),
        ("quit now", "`quit` takes nothing after it"),
        ("save", "`save` needs a file name; write `save PATH`"),
        (
            "save --overwrite x.txt",
            "`--overwrite x.txt` is not a flag of `save`",
        ),
        ("load", "`load` needs a file name"),
        ("nonsense", "`nonsense`: write a move as from-to, e.g. `"),
    ] {
        let r = s.handle(line);
        assert!(r.refused, "{line}: {}", r.text);
        assert!(!r.quit);
        assert!(r.text.contains(says), "{line}: {}", r.text);
        assert_eq!(s.snapshot(), before, "{line}");
    }
    assert!(say(&mut s, "e9-e8").contains("Black to move"));
}

/// Pieces that only walk to empty cells and a rule that never fires on them: a game
/// that can go on for ever.
const WANDERERS: &str = r#"name "Wanderers"
board square 4 by 4
player White: forward north, capitals
player Black: forward south, lowercase
piece Wanderer (W) {
  step 1 any, to empty
}
setup {
  White: Wanderer a1
  Black: Wanderer d4
}
game ends {
  no legal move: draw
}
"#;

/// A saved game of `plies` random moves of [`WANDERERS`] in `dir`.
fn long_save(dir: &Path, plies: usize) -> PathBuf {
    use variantlab::files::text_hash;
    use variantlab::play::SavedGame;
    let variant = dir.join("wanderers.var");
    std::fs::write(&variant, WANDERERS).unwrap();
    let rules = std::sync::Arc::new(
        variantlab::Rules::from_file(&variant, &Settings::new()).expect("checks"),
    );
    let mut game = variantlab::Game::start(rules, 0).unwrap();
    let start = game.start_string();
    let mut rng = common::Lcg(7);
    for _ in 0..plies {
        let moves = game.legal_moves();
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    let saved = SavedGame {
        variant: "wanderers.var".into(),
        rules: text_hash(WANDERERS),
        options: vec![],
        start,
        moves: game.moves().map(|m| game.write_move(m)).collect(),
        end: game.position_string(),
    };
    let path = dir.join("long.txt");
    std::fs::write(&path, saved.to_text()).unwrap();
    path
}

#[test]
fn a_long_saved_game_loads_in_time_linear_in_its_moves() {
    // Counting repetitions by going through every earlier position after each move
    // took half a minute to load these 300,000 plies here; counted as they come, well
    // under a second.
    let dir = temp_dir("long");
    let plies = 300_000;
    let path = long_save(&dir, plies);
    let started = std::time::Instant::now();
    let (console, warning) = Console::restore(&path).expect("loads");
    let took = started.elapsed();
    assert_eq!(warning, None);
    assert_eq!(console.game().move_count(), plies);
    assert!(
        took < std::time::Duration::from_secs(10),
        "{plies} plies took {took:?} to load"
    );
}

#[test]
fn a_variant_draft_with_syntax_errors_is_never_saved_over() {
    let dir = temp_dir("draft");
    let mut s = game_in(&dir);
    let rules = std::fs::read_to_string(dir.join("jetan.var")).unwrap();
    // One syntax error in the middle of a whole file, and a file whose only statement
    // is broken.
    let drafts = [
        ("draft.txt", rules.replacen("step 1", "step one", 1)),
        ("start.txt", "name Chess without quotes\n".to_string()),
        (
            "notes.md",
            "# my new game\n\nboard square 8 by\n".to_string(),
        ),
    ];
    for (name, text) in &drafts {
        assert!(
            variantlab::check(name, text).variant.is_none(),
            "{name} is not a valid variant"
        );
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let r = s.handle(&format!("save --force {}", path.display()));
        assert!(r.refused, "{name}: {}", r.text);
        assert!(
            r.text.contains("is a variant file or a draft of one"),
            "{}",
            r.text
        );
        assert_eq!(&std::fs::read_to_string(&path).unwrap(), text, "{name}");
    }
}

#[cfg(unix)]
#[test]
fn saving_over_a_file_keeps_its_permissions_and_its_other_names() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = temp_dir("modes");
    let mut s = game_in(&dir);
    let private = dir.join("private.txt");
    std::fs::write(&private, "old\n").unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert!(
        !s.handle(&format!("save --force {}", private.display()))
            .refused
    );
    let meta = std::fs::metadata(&private).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert!(
        std::fs::read_to_string(&private)
            .unwrap()
            .starts_with(SAVE_HEADER)
    );
    // A file with a second name: both names still show the one file, saved.
    let linked = dir.join("linked.txt");
    let other = dir.join("other-name.txt");
    std::fs::write(&linked, "old\n").unwrap();
    std::fs::hard_link(&linked, &other).unwrap();
    assert!(
        !s.handle(&format!("save --force {}", linked.display()))
            .refused
    );
    let (a, b) = (
        std::fs::metadata(&linked).unwrap(),
        std::fs::metadata(&other).unwrap(),
    );
    assert_eq!((a.ino(), a.nlink()), (b.ino(), 2));
    let saved = std::fs::read_to_string(&other).unwrap();
    assert!(saved.starts_with(SAVE_HEADER), "{saved}");
    assert!(Console::restore(&other).is_ok());
}

#[test]
fn saves_at_once_each_leave_a_whole_file_and_no_leftovers() {
    // Each writer its own temporary file: with one name for all, one writer's rename
    // would carry off another's half-written file, or find it gone.
    let dir = temp_dir("at-once");
    let path = dir.join("game.txt");
    let texts: Vec<String> = (0..4).map(|i| format!("{i}").repeat(256 << 10)).collect();
    for round in 0..12 {
        let start = std::sync::Barrier::new(texts.len());
        std::thread::scope(|s| {
            for text in &texts {
                let (start, path) = (&start, &path);
                s.spawn(move || {
                    start.wait();
                    variantlab::files::write_atomic(path, text)
                        .unwrap_or_else(|e| panic!("round {round}: {e}"));
                });
            }
        });
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(
            texts.contains(&written),
            "round {round}: a file of {} bytes mixing writers",
            written.len()
        );
    }
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["game.txt"], "temporary files left behind");
}

#[cfg(unix)]
#[test]
fn saving_through_a_symbolic_link_writes_its_file_and_keeps_the_link() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    use variantlab::files::write_atomic;
    let dir = temp_dir("symlink");
    let real = dir.join("real.txt");
    std::fs::write(&real, "old\n").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.join("link.txt");
    symlink("real.txt", &link).unwrap();
    // A link to a link, and one to a file not there yet.
    let again = dir.join("again.txt");
    symlink("link.txt", &again).unwrap();
    let dangling = dir.join("dangling.txt");
    symlink("later.txt", &dangling).unwrap();

    write_atomic(&link, "new\n").unwrap();
    let kept = std::fs::symlink_metadata(&link).unwrap();
    assert!(kept.file_type().is_symlink(), "the link became a file");
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("real.txt"));
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "new\n");
    let mode = std::fs::metadata(&real).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "the file keeps its permissions");

    write_atomic(&again, "newer\n").unwrap();
    assert!(
        std::fs::symlink_metadata(&again)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "newer\n");

    write_atomic(&dangling, "first\n").unwrap();
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("later.txt")).unwrap(),
        "first\n"
    );

    // A new file gets the mode any new file gets here, not a temporary file's 0600.
    let plain = dir.join("plain.txt");
    std::fs::write(&plain, "").unwrap();
    let fresh = dir.join("fresh.txt");
    write_atomic(&fresh, "x").unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&fresh), mode(&plain));

    // A game saved over a link, as the terminal saves it.
    let mut s = game_in(&dir);
    let saved = dir.join("saved.txt");
    std::fs::write(&saved, "old\n").unwrap();
    let to_saved = dir.join("to-saved.txt");
    symlink("saved.txt", &to_saved).unwrap();
    let r = s.handle(&format!("save --force {}", to_saved.display()));
    assert!(!r.refused, "{}", r.text);
    assert!(
        std::fs::symlink_metadata(&to_saved)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&saved)
            .unwrap()
            .starts_with(SAVE_HEADER)
    );
}
