//! Plain file helpers shared by the front ends: atomic writes, paths relative to one
//! another, whether two paths name one file, and a hash of a text.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

/// The 64-bit FNV-1a hash of a text, as 16 hex digits: identifies a variant's rules.
pub fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The most symbolic links followed from one path, as Linux's own limit.
const MAX_LINKS: usize = 40;

/// Replaces `path` with `text` all at once: writes a temporary file of its own beside
/// it, flushes it to disk and renames it over `path`, so a crash leaves the old file
/// whole and two writes at once each leave a whole file. A symbolic link is kept: the
/// file it points at is the one replaced. A file replaced keeps its permissions. A
/// file with other hard links is instead rewritten in place (truncated, written and
/// flushed), so that every name still shows the same file; a crash mid-write may
/// leave it cut short, which a saved game's `end` line exposes.
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    let path = link_target(path)?;
    let existing = fs::metadata(&path).ok().filter(|m| m.is_file());
    if existing.as_ref().is_some_and(|m| links(m) > 1) {
        let mut f = OpenOptions::new().write(true).truncate(true).open(&path)?;
        f.write_all(text.as_bytes())?;
        return f.sync_all();
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let prefix = format!(".{}.", name.to_string_lossy());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // A new file gets the usual mode less the umask, not the temporary file's 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temp = builder.tempfile_in(dir)?;
    if let Some(m) = &existing {
        temp.as_file().set_permissions(m.permissions())?;
    }
    temp.write_all(text.as_bytes())?;
    temp.as_file().sync_all()?;
    temp.persist(&path).map_err(|e| e.error)?;
    Ok(())
}

/// The path a chain of symbolic links ends at (itself when it is none), even when
/// that file does not exist yet.
fn link_target(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row"
    )))
}

/// How many names (hard links) a file has; 1 where that cannot be told.
fn links(meta: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        std::os::unix::fs::MetadataExt::nlink(meta)
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

/// Whether two paths name one existing file, through any links, letter case or
/// other spelling.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) {
            return (x.dev(), x.ino()) == (y.dev(), y.ino());
        }
    }
    matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

/// An absolute, symlink-free form of a path whose file may not exist yet.
pub fn absolute(path: &Path) -> io::Result<PathBuf> {
    if let Ok(p) = fs::canonicalize(path) {
        return Ok(p);
    }
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => fs::canonicalize(d)?,
        None => std::env::current_dir()?,
    };
    Ok(dir.join(name))
}

/// `to` as seen from the folder `from`; both absolute.
pub fn relative(from: &Path, to: &Path) -> PathBuf {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return to.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_then_descend() {
        let r = relative(Path::new("/a/b/games"), Path::new("/a/b/variants/x.var"));
        assert_eq!(r, PathBuf::from("../variants/x.var"));
        let same = relative(Path::new("/a/b"), Path::new("/a/b/x.var"));
        assert_eq!(same, PathBuf::from("x.var"));
    }

    #[test]
    fn hash_is_fnv1a() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(text_hash(""), "cbf29ce484222325");
        assert_eq!(text_hash("a"), "af63dc4c8601ec8c");
    }
}
