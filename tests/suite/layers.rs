//! Every arrow points down: each module of src/ sits on a level, and names only
//! modules on lower levels. Modules on one level stand beside each other and may not
//! name each other. Front ends are named by front ends only, and name only the public
//! API: what the crate root re-exports and its public modules. Within a module, its
//! files name each other one way only.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The modules of src/, bottom level first. A new module must be placed here.
const LEVELS: &[&[&str]] = &[
    &["diagnostic", "suggest", "geometry", "rng", "files", "terms"],
    // The resolved variant, and the grammar: beside each other.
    &["model", "syntax"],
    &["check"],
    &["compile"],
    // Drawing needs the compiled rules, not positions.
    &["runtime", "render"],
    // Loading checks a file through to its start position.
    &["load"],
    &["search"],
    // A game with a computer opponent.
    &["session"],
    &["playtest"],
    // Public faces of the modules below.
    &["variant", "grammar", "diagrams", "study"],
    // The front ends stand beside each other: none names another.
    &["play", "serve", "protocol", "editor"],
    &["main"],
];

/// Modules that talk to a person; no library module may name them.
const FRONT_ENDS: &[&str] = &["play", "serve", "protocol", "editor", "main"];

/// The modules src/lib.rs declares `pub`; every other module is internal, and reached
/// only through what the crate root re-exports.
const PUBLIC: &[&str] = &[
    "load", "session", "files", "variant", "grammar", "diagrams", "study", "play", "serve",
    "protocol", "editor",
];

const HOW_TO_PLACE: &str = "add it to LEVELS in tests/suite/layers.rs, above every module it uses";

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn level(module: &str) -> Option<usize> {
    LEVELS.iter().position(|l| l.contains(&module))
}

fn sources(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for e in entries {
            sources(&e, out);
        }
    } else if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The files of a top-level module.
fn module_files(module: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    sources(&src().join(module), &mut files);
    sources(&src().join(format!("{module}.rs")), &mut files);
    files
}

/// The top-level modules present in src/: its directories and files, and what lib.rs
/// declares.
fn present_modules() -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for e in std::fs::read_dir(src()).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let rust = path.extension().is_some_and(|x| x == "rs");
        if (path.is_dir() || rust) && name != "lib" {
            found.insert(name);
        }
    }
    let lib = code_of(&std::fs::read_to_string(src().join("lib.rs")).unwrap());
    for line in lib.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "mod")
            && let Some(name) = words.get(i + 1)
        {
            found.insert(name.trim_end_matches([';', '{']).to_string());
        }
    }
    found
}

/// The text without line comments.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The names that start a path's rest: one identifier, or each item of a `{...}`
/// group (`*` for a glob).
fn names_after(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 0;
        let mut end = group.len();
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    end = i;
                    break;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        let mut out = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        let inner = &group[..end];
        for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.extend(names_after(&inner[start..i]));
                    start = i + 1;
                }
                _ => {}
            }
        }
        return out;
    }
    if rest.starts_with('*') {
        return vec!["*".into()];
    }
    let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
    if name.is_empty() { vec![] } else { vec![name] }
}

/// Where `word::` starts a path in `code` (not as the end of a longer name), and the
/// text after it.
fn paths_from<'a>(code: &'a str, word: &str) -> Vec<(usize, &'a str)> {
    let pat = format!("{word}::");
    code.match_indices(&pat)
        .filter(|(i, _)| !code[..*i].chars().next_back().is_some_and(is_ident))
        .map(|(i, _)| (i, &code[i + pat.len()..]))
        .collect()
}

/// The top-level modules a file names: through `crate::`, or through as many
/// `super::` as lead from the file (`depth` modules deep) to the crate root.
fn crate_names(code: &str, depth: usize) -> Vec<String> {
    let mut out: Vec<String> = paths_from(code, "crate")
        .into_iter()
        .flat_map(|(_, rest)| names_after(rest))
        .filter(|n| n != "self")
        .collect();
    for (i, rest) in paths_from(code, "super") {
        // Only the first of a chain.
        if code[..i].ends_with("super::") {
            continue;
        }
        let mut rest = rest;
        let mut ups = 1;
        while let Some(r) = rest.strip_prefix("super::") {
            rest = r;
            ups += 1;
        }
        // Inline modules (as `mod tests`) are deeper than their file, so only names
        // of placed modules count here.
        if ups == depth {
            out.extend(names_after(rest).into_iter().filter(|n| level(n).is_some()));
        }
    }
    out
}

/// How many modules deep a file of src/ is: `src/a.rs` and `src/a/mod.rs` 1,
/// `src/a/b.rs` 2.
fn depth_of(file: &Path) -> usize {
    let rel = file.strip_prefix(src()).unwrap();
    let n = rel.components().count();
    if rel.file_name().is_some_and(|f| f == "mod.rs") {
        n - 1
    } else {
        n
    }
}

#[test]
fn paths_are_read_through_groups_globs_macros_and_super() {
    assert_eq!(crate_names("use crate::runtime::Game;", 2), ["runtime"]);
    assert_eq!(
        crate_names("use crate::{play, render::{svg, text}};", 2),
        ["play", "render"]
    );
    assert_eq!(crate_names("$crate::search::x!()", 2), ["search"]);
    assert_eq!(crate_names("use crate::*;", 2), ["*"]);
    assert!(crate_names("mycrate::runtime::x()", 2).is_empty());
    // From src/a/b.rs, `super::` is `a` and `super::super::` the crate root.
    assert!(crate_names("use super::tally::Tallies;", 2).is_empty());
    assert_eq!(crate_names("super::super::serve::start()", 2), ["serve"]);
    assert_eq!(
        crate_names("use super::{check, syntax};", 1),
        ["check", "syntax"]
    );
    assert!(crate_names("mod tests { use super::*; }", 1).is_empty());
    assert!(
        code_of("let a = 1; // crate::play")
            .trim_end()
            .ends_with(';')
    );
}

#[test]
fn every_module_of_src_has_a_level() {
    let present = present_modules();
    let unplaced: Vec<String> = present
        .iter()
        .filter(|m| level(m).is_none())
        .map(|m| format!("src/{m} is in no level: {HOW_TO_PLACE}"))
        .collect();
    assert!(unplaced.is_empty(), "{}", unplaced.join("\n"));
    let stale: Vec<&str> = LEVELS
        .iter()
        .flat_map(|l| l.iter().copied())
        .filter(|m| !present.contains(*m) || module_files(m).is_empty())
        .collect();
    assert!(
        stale.is_empty(),
        "LEVELS names modules src/ does not have: {stale:?}"
    );
    assert!(FRONT_ENDS.iter().all(|f| level(f).is_some()));
}

#[test]
fn no_module_names_one_above_or_beside_it() {
    let present = present_modules();
    let mut bad = Vec::new();
    for module in LEVELS.iter().flat_map(|l| l.iter().copied()) {
        // The binary names the library as `variantlab::`; it is at the top anyway.
        if module == "main" {
            continue;
        }
        let own = level(module).unwrap();
        for file in module_files(module) {
            let code = code_of(&std::fs::read_to_string(&file).unwrap());
            let shown = file.strip_prefix(src()).unwrap().display().to_string();
            for name in crate_names(&code, depth_of(&file)) {
                if name == module {
                    continue;
                }
                let why = match level(&name) {
                    // An item the crate root re-exports: the front ends' door.
                    None if !present.contains(&name) && FRONT_ENDS.contains(&module) => continue,
                    None if !present.contains(&name) => format!(
                        "`crate::{name}` is the public door, for front ends; name the module that holds it"
                    ),
                    None => format!("`{name}` is in no level: {HOW_TO_PLACE}"),
                    Some(_)
                        if FRONT_ENDS.contains(&name.as_str()) && !FRONT_ENDS.contains(&module) =>
                    {
                        format!("`{name}` is a front end; the library may not use it")
                    }
                    Some(l) if l == own => format!("`{name}` stands beside `{module}`"),
                    Some(l) if l > own => format!("`{name}` is above `{module}`"),
                    Some(_) => continue,
                };
                bad.push(format!("src/{shown}: names {name}: {why}"));
            }
        }
    }
    bad.sort();
    bad.dedup();
    assert!(
        bad.is_empty(),
        "imports against the levels:\n{}",
        bad.join("\n")
    );
}

/// Whether a module of src/ is internal: placed, neither public nor a front end.
fn internal(module: &str) -> bool {
    level(module).is_some() && !PUBLIC.contains(&module) && !FRONT_ENDS.contains(&module)
}

/// The internal modules a front end's file names: through `crate::` and `super::` from
/// a file of the library `depth` modules deep; through `variantlab::` from the binary
/// (`None`), a crate of its own.
fn internal_names(code: &str, depth: Option<usize>) -> Vec<String> {
    let mut names = match depth {
        Some(depth) => crate_names(code, depth),
        None => paths_from(code, "variantlab")
            .into_iter()
            .flat_map(|(_, rest)| names_after(rest))
            .collect(),
    };
    names.retain(|n| internal(n));
    names
}

#[test]
fn internal_modules_are_found_however_they_are_named() {
    let lib = |code: &str, depth| internal_names(code, Some(depth));
    assert_eq!(lib("use crate::runtime::Game;", 2), ["runtime"]);
    assert_eq!(lib("use crate::{Game, compile::Rules};", 1), ["compile"]);
    assert_eq!(lib("super::super::check::check(a, b)", 2), ["check"]);
    assert!(lib("use crate::{Game, diagrams::board_svg, load};", 1).is_empty());
    assert_eq!(
        internal_names("use variantlab::{files, render, search::Limits};", None),
        ["render", "search"]
    );
    assert!(internal_names("variantlab::variant::Cell(0)", None).is_empty());
    assert!(internal_names("crate::runtime()", None).is_empty());
}

#[test]
fn front_ends_name_only_the_facade() {
    let mut files: Vec<(PathBuf, Option<usize>)> = FRONT_ENDS
        .iter()
        .filter(|m| **m != "main")
        .flat_map(|m| module_files(m))
        .map(|f| {
            let depth = depth_of(&f);
            (f, Some(depth))
        })
        .collect();
    files.push((src().join("main.rs"), None));
    let mut bad = Vec::new();
    for (file, depth) in files {
        let code = code_of(&std::fs::read_to_string(&file).unwrap());
        let shown = file.strip_prefix(src()).unwrap().display().to_string();
        let root = if depth.is_some() {
            "crate"
        } else {
            "variantlab"
        };
        for name in internal_names(&code, depth) {
            bad.push(format!(
                "src/{shown}: names {root}::{name}, an internal module"
            ));
        }
    }
    bad.sort();
    bad.dedup();
    assert!(
        bad.is_empty(),
        "front ends use only the public API; re-export what they need at the crate root \
         (src/lib.rs):\n{}",
        bad.join("\n")
    );
}

/// A `use` tree's full paths: `a::{b, c::{d as e}}` is `a::b` and `a::c::d as e`.
fn use_paths(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let (Some(open), Some(close)) = (tree.find('{'), tree.rfind('}')) else {
        return vec![tree.to_string()];
    };
    let (prefix, inner) = (&tree[..open], &tree[open + 1..close]);
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                let item = inner[start..i].trim();
                if !item.is_empty() {
                    out.extend(use_paths(item).into_iter().map(|p| format!("{prefix}{p}")));
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

#[test]
fn only_the_facade_is_public() {
    assert_eq!(
        use_paths("a::{b, c::{d as e, f}}"),
        ["a::b", "a::c::d as e", "a::c::f"]
    );
    let lib = code_of(&std::fs::read_to_string(src().join("lib.rs")).unwrap());
    let mut public = BTreeSet::new();
    for line in lib.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "mod")
            && i > 0
            && words[i - 1] == "pub"
            && let Some(name) = words.get(i + 1)
        {
            public.insert(name.trim_end_matches([';', '{']).to_string());
        }
    }
    let allowed: BTreeSet<String> = PUBLIC.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        public, allowed,
        "src/lib.rs declares `pub mod` exactly the modules of PUBLIC in tests/suite/layers.rs; \
         the others are `pub(crate)`, reached through re-exports"
    );
    // Nor is an internal module re-exported whole, under its name or another.
    let mut files = vec![src().join("lib.rs")];
    for m in PUBLIC.iter().filter(|m| !FRONT_ENDS.contains(m)) {
        files.extend(module_files(m));
    }
    let mut bad = Vec::new();
    for file in files {
        let code = code_of(&std::fs::read_to_string(&file).unwrap());
        let shown = file.strip_prefix(src()).unwrap().display().to_string();
        for (at, _) in code.match_indices("pub use ") {
            let tree = &code[at + "pub use ".len()..];
            let tree = &tree[..tree.find(';').unwrap_or(tree.len())];
            for path in use_paths(tree) {
                let name = path.split(" as ").next().unwrap_or("").trim();
                let (before, last) = name.rsplit_once("::").unwrap_or(("", name));
                // `crate::runtime` or `runtime` is the module; `runtime::perft` an item.
                let top = before
                    .split("::")
                    .all(|s| ["", "crate", "self"].contains(&s));
                if last == "*" || last == "self" || (top && internal(last)) {
                    bad.push(format!(
                        "src/{shown}: `pub use {path}` opens a whole module"
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "re-export items one by one:\n{}",
        bad.join("\n")
    );
}

/// The sibling files a file names through `super::NAME` or `crate::MODULE::NAME`.
fn sibling_names(code: &str, module: &str, siblings: &BTreeSet<String>) -> BTreeSet<String> {
    let own = format!("{module}::");
    paths_from(code, "super")
        .into_iter()
        .filter(|(i, _)| !code[..*i].ends_with("super::"))
        .map(|(_, rest)| rest)
        .chain(
            paths_from(code, "crate")
                .into_iter()
                .filter_map(|(_, rest)| rest.strip_prefix(&own)),
        )
        .flat_map(names_after)
        .filter(|n| siblings.contains(n))
        .collect()
}

/// A cycle in `edges`, as the files along it.
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            let mut cycle = path[i..].to_vec();
            cycle.push(at.to_string());
            return Some(cycle);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_string());
        for next in edges.get(at).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(at.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|k| visit(k, edges, &mut Vec::new(), &mut done))
}

#[test]
fn cycles_between_files_are_found() {
    let edges = |pairs: &[(&str, &str)]| {
        let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in pairs {
            m.entry(a.to_string()).or_default().insert(b.to_string());
        }
        m
    };
    assert_eq!(find_cycle(&edges(&[("a", "b"), ("b", "c")])), None);
    assert_eq!(
        find_cycle(&edges(&[("a", "b"), ("b", "c"), ("c", "b")])),
        Some(vec!["b".into(), "c".into(), "b".into()])
    );
    let siblings: BTreeSet<String> = ["run".to_string(), "tally".to_string()].into();
    assert_eq!(
        sibling_names(
            "use super::tally::Tallies;\nuse crate::playtest::run::x;\nuse super::Shard;",
            "playtest",
            &siblings
        ),
        siblings
    );
}

#[test]
fn the_files_of_a_module_name_each_other_one_way() {
    let mut cycles = Vec::new();
    for module in LEVELS.iter().flat_map(|l| l.iter().copied()) {
        let dir = src().join(module);
        if !dir.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        sources(&dir, &mut files);
        // mod.rs declares the others; they may use what it holds.
        let files: Vec<PathBuf> = files
            .into_iter()
            .filter(|f| f.parent() == Some(dir.as_path()) && !f.ends_with("mod.rs"))
            .collect();
        let stem = |f: &Path| f.file_stem().unwrap().to_string_lossy().into_owned();
        let siblings: BTreeSet<String> = files.iter().map(|f| stem(f)).collect();
        let mut edges = BTreeMap::new();
        for f in &files {
            let code = code_of(&std::fs::read_to_string(f).unwrap());
            let mut named = sibling_names(&code, module, &siblings);
            named.remove(&stem(f));
            edges.insert(stem(f), named);
        }
        if let Some(cycle) = find_cycle(&edges) {
            cycles.push(format!("src/{module}: {}", cycle.join(" -> ")));
        }
    }
    assert!(
        cycles.is_empty(),
        "files that name each other (move what both need into a file below them):\n{}",
        cycles.join("\n")
    );
}
