//! The variant files a server was given, each named by an id; nothing else is served.

use super::answer::{Answer, shown};
use std::path::PathBuf;

/// The most variant files listed; a folder's are taken in name order.
pub const MAX_VARIANTS: usize = 1000;

/// Where the variants come from: files, and folders whose `.var` files are read anew
/// on every request (so files added later show up).
#[derive(Clone, Debug)]
pub struct Catalog {
    sources: Vec<PathBuf>,
}

impl Catalog {
    pub fn new(sources: Vec<PathBuf>) -> Catalog {
        Catalog { sources }
    }

    /// Every variant file with its id (the file's stem, made unique).
    pub fn entries(&self) -> Vec<(String, PathBuf)> {
        let mut files = Vec::new();
        for s in &self.sources {
            if s.is_dir() {
                let mut found: Vec<PathBuf> = std::fs::read_dir(s)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "var"))
                    .collect();
                found.sort();
                files.extend(found);
            } else {
                files.push(s.clone());
            }
        }
        files.truncate(MAX_VARIANTS);
        let mut out: Vec<(String, PathBuf)> = Vec::new();
        for f in files {
            let stem: String = f
                .file_stem()
                .map(|s| s.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect();
            let mut id = stem.clone();
            let mut n = 2;
            while out.iter().any(|(i, _)| *i == id) {
                id = format!("{stem}-{n}");
                n += 1;
            }
            out.push((id, f));
        }
        out
    }

    pub(super) fn find(&self, id: &str) -> Result<PathBuf, Answer> {
        self.entries()
            .into_iter()
            .find(|(i, _)| i == id)
            .map(|(_, p)| p)
            .ok_or_else(|| Answer::error(404, format!("there is no variant `{}`", shown(id))))
    }
}
