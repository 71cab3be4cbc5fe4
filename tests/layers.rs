//! Every arrow points down the pipeline: syntax -> check -> compile -> runtime, with
//! geometry, diagnostics and rng at the bottom and render beside the runtime. A module
//! may not name a module above it (or beside it) in its code.

use std::path::Path;

/// Each module and the modules it must not use.
const FORBIDDEN: &[(&str, &[&str])] = &[
    (
        "rng",
        &[
            "diagnostic",
            "geometry",
            "syntax",
            "check",
            "model",
            "compile",
            "runtime",
            "search",
            "render",
            "play",
            "serve",
            "suggest",
        ],
    ),
    (
        "diagnostic",
        &["syntax", "check", "compile", "runtime", "render", "play"],
    ),
    (
        "geometry",
        &["syntax", "check", "compile", "runtime", "render", "play"],
    ),
    ("syntax", &["check", "compile", "runtime", "render", "play"]),
    ("check", &["compile", "runtime", "render", "play"]),
    ("compile", &["runtime", "render", "play"]),
    ("runtime", &["render", "play"]),
    ("render", &["runtime", "play"]),
];

fn sources(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        for e in std::fs::read_dir(path).unwrap() {
            sources(&e.unwrap().path(), out);
        }
    } else if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn no_module_uses_a_later_stage() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut bad = Vec::new();
    for (module, forbidden) in FORBIDDEN {
        let mut files = Vec::new();
        let dir = src.join(module);
        sources(&dir, &mut files);
        sources(&src.join(format!("{module}.rs")), &mut files);
        assert!(!files.is_empty(), "no sources for {module}");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for later in *forbidden {
                    if code.contains(&format!("crate::{later}")) {
                        bad.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "imports against the pipeline:\n{}",
        bad.join("\n")
    );
}
