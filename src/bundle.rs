//! Files compiled into the binary: the bundled task files with their data and format hints
//! (`benchmarks/tasks/`), the example data sets (`benchmarks/examples/`) and the SQL reports
//! (`sql/`). A relative path under one of those folders that does not exist on disk is read
//! from the binary instead, so an installed `bench` runs every README command from any folder;
//! a file on disk always wins, so a checkout's edits take effect.

use crate::UsageError;
use include_dir::{Dir, include_dir};
use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

static BENCHMARKS: Dir = include_dir!("$CARGO_MANIFEST_DIR/benchmarks");
static SQL: Dir = include_dir!("$CARGO_MANIFEST_DIR/sql");

/// The bundled folders by the name a relative path starts with.
const ROOTS: [(&str, &Dir); 2] = [("benchmarks", &BENCHMARKS), ("sql", &SQL)];

/// The bundled folder and the path inside it, for a relative `path` such as
/// `benchmarks/tasks/real.json` or `./sql/rankings.sql`.
fn split(path: &Path) -> Option<(&'static str, &'static Dir<'static>, PathBuf)> {
    let mut parts = path
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .peekable();
    let Some(Component::Normal(first)) = parts.next() else {
        return None;
    };
    let (name, dir) = ROOTS.iter().find(|(n, _)| first == *n)?;
    let rest: PathBuf = parts
        .map(|c| match c {
            Component::Normal(s) => Some(s),
            _ => None,
        })
        .collect::<Option<_>>()?;
    Some((name, dir, rest))
}

/// Every bundled SQL file (`sql/NAME.sql`) with its text, by name.
pub fn sql_files() -> Vec<(String, &'static str)> {
    let mut files: Vec<(String, &'static str)> = SQL
        .files()
        .filter(|f| f.path().extension().is_some_and(|x| x == "sql"))
        .filter_map(|f| Some((format!("sql/{}", f.path().display()), f.contents_utf8()?)))
        .collect();
    files.sort();
    files
}

/// The bundled bytes of `path`, if the binary holds that file.
pub fn get(path: &Path) -> Option<&'static [u8]> {
    let (_, dir, rest) = split(path)?;
    dir.get_file(&rest).map(|f| f.contents())
}

/// Whether `path` exists on disk or in the binary.
pub fn exists(path: &Path) -> bool {
    path.exists() || get(path).is_some()
}

/// The text of `path`: from disk when it exists there, else the bundled copy.
pub fn read_to_string(path: &Path) -> std::io::Result<String> {
    if path.exists() {
        return std::fs::read_to_string(path);
    }
    match get(path) {
        Some(bytes) => String::from_utf8(bytes.to_vec())
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
        None => std::fs::read_to_string(path),
    }
}

/// A path that exists on disk for `path`: itself when it exists (or the binary does not hold it),
/// else the bundled folder it belongs to written out under the cache folder, so files beside it
/// (a task's data, the format hints) resolve too. Files already there are rewritten only when
/// their content differs.
pub fn resolve(path: &Path) -> Result<Cow<'_, Path>, UsageError> {
    if path.exists() || get(path).is_none() {
        return Ok(Cow::Borrowed(path));
    }
    let (name, dir, rest) = split(path).expect("get found it");
    let base = extract_root().join(name);
    write_tree(dir, &base).map_err(|e| {
        UsageError::new(format!(
            "cannot write the bundled '{name}' folder to '{}': {e}",
            base.display()
        ))
    })?;
    Ok(Cow::Owned(base.join(rest)))
}

/// Where bundled folders are written out: `bundled/<version>` beside the response cache.
fn extract_root() -> PathBuf {
    let cache = std::env::var_os("BENCH_CACHE_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("bench")))
        .unwrap_or_else(std::env::temp_dir);
    cache.join("bundled").join(env!("CARGO_PKG_VERSION"))
}

fn write_tree(dir: &Dir, base: &Path) -> std::io::Result<()> {
    for file in dir.files() {
        let target = base.join(file.path());
        if std::fs::read(&target).is_ok_and(|b| b == file.contents()) {
            continue;
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, file.contents())?;
    }
    for sub in dir.dirs() {
        write_tree(sub, base)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_paths_read_like_files_on_disk() {
        for p in [
            "benchmarks/tasks/synthetic.json",
            "./benchmarks/examples/earthquakes.json",
            "sql/rankings.sql",
        ] {
            let disk = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(p)).unwrap();
            assert_eq!(get(Path::new(p)).unwrap(), disk.as_slice(), "{p}");
        }
        assert!(get(Path::new("benchmarks/nope.json")).is_none());
        assert!(get(Path::new("/benchmarks/tasks/synthetic.json")).is_none());
        assert!(get(Path::new("benchmarks/../Cargo.toml")).is_none());
        assert!(get(Path::new("src/lib.rs")).is_none());
    }
}
