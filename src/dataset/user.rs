//! The user's own records (`--data FILE`): read through the embedded DuckDB, so
//! column types are the ones the user's SQL would see, then sampled and handed to the formats as
//! one `{"<stem>": [records…]}` document.

use super::textcheck::{self, Syntax};
use super::written::{self, Kept, Shape};
use crate::UsageError;
use crate::analytics::sql_string;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{BufReader, Read};
use std::ops::ControlFlow;
use std::path::Path;

#[path = "user_array.rs"]
mod array;
#[path = "user_db.rs"]
mod db;
use array::pick_array;
use db::Db;

/// File extensions `load` reads, with the DuckDB reader used for each.
pub const EXTENSIONS: [&str; 5] = [".json", ".jsonl", ".csv", ".tsv", ".parquet"];

/// Which records `--records N` keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Sample {
    /// The first N records of the file.
    #[default]
    First,
    /// N records drawn with the seed, kept in file order.
    Random,
}

/// How to read and sample a data file.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Key of the array of records when a `.json` file's top-level object holds several.
    pub root_key: Option<String>,
    /// Records to keep (all when `None`).
    pub records: Option<usize>,
    /// Which records to keep.
    pub sample: Sample,
    /// Seed of `Sample::Random`.
    pub seed: u64,
}

/// Records loaded from a user's file.
#[derive(Debug, Clone)]
pub struct UserData {
    /// The file stem.
    pub name: String,
    /// The sampled records, in file order, columns in file order.
    pub records: Vec<Map<String, Value>>,
    /// Hex sha256 of the file bytes.
    pub sha256: String,
    /// Column name and DuckDB type, as DuckDB infers them.
    pub schema: Vec<(String, String)>,
    /// Records in the file before sampling.
    pub total: usize,
    /// Choices the loader made that the user may want to change, one line each.
    pub notes: Vec<String>,
}

impl UserData {
    /// The document of the records: `{"<stem>": [records…]}`, the stem made a plain
    /// identifier so every format (XML tags, TOON keys) can use it as is. The run renders it
    /// by chunks of records (`layout::render_records`), the same bytes without this copy.
    pub fn document(&self) -> Value {
        let mut root = Map::new();
        root.insert(
            root_name(&self.name),
            Value::Array(self.records.iter().cloned().map(Value::Object).collect()),
        );
        Value::Object(root)
    }

    /// The `data:` line every `--data` command prints first (`run`, `tokens`, `generate`):
    /// the file, `records` of its records, and its identity.
    pub fn line(&self, path: &Path, records: usize) -> String {
        format!(
            "data: {} — {} records (of {}), sha256 {}, {} columns",
            path.display(),
            records,
            self.total,
            self.sha256,
            self.schema.len()
        )
    }
}

/// `stem` reduced to `[A-Za-z0-9_]`, starting with a letter (`2024-sales` → `data_2024_sales`).
pub fn root_name(stem: &str) -> String {
    let clean: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    match clean.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => clean,
        Some(_) => format!("data_{clean}"),
        None => "data".into(),
    }
}

/// How DuckDB reads the file.
#[derive(Clone, Copy)]
enum Reader {
    Jsonl,
    JsonArray,
    JsonObject,
    Csv,
    Tsv,
    Parquet,
}

/// Opens `path` through DuckDB and hashes its bytes: its columns and record count are known,
/// its records are read on demand (see [`Source`]).
pub fn open(path: &Path, opts: &LoadOptions) -> Result<Source, UsageError> {
    let shown = path.display().to_string();
    let err = |msg: String| UsageError::new(format!("{shown}: {msg}"));
    // The bundled examples (`benchmarks/examples/…`) are read from the binary outside a checkout.
    let resolved = crate::bundle::resolve(path)?;
    let path: &Path = &resolved;
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => err("no such file".into()),
        _ => err(format!("cannot read: {e}")),
    })?;
    if meta.is_dir() {
        return Err(err("is a directory, not a data file".into()));
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| format!(".{}", e.to_ascii_lowercase()));
    let mut reader = match ext.as_deref() {
        Some(".jsonl") => Reader::Jsonl,
        Some(".json") => Reader::JsonArray,
        Some(".csv") => Reader::Csv,
        Some(".tsv") => Reader::Tsv,
        Some(".parquet") => Reader::Parquet,
        other => {
            return Err(err(format!(
                "unknown extension '{}' (supported: {})",
                other.unwrap_or("(none)"),
                EXTENSIONS.join(", ")
            )));
        }
    };
    // DuckDB's readers take glob patterns: a literal `*`, `?` or `[` would match other files.
    if shown.contains(['*', '?', '[']) {
        return Err(err(
            "file names with * ? [ are not supported (DuckDB reads them as patterns)".into(),
        ));
    }
    check_size(path, meta.len(), mem_available())?;
    if meta.len() == 0 {
        return Err(err("the file is empty".into()));
    }
    // Text that is not UTF-8 or not JSON is named here, in the file's lines and columns:
    // DuckDB's own message would quote bench's SQL and count lines its own way.
    let syntax = match reader {
        Reader::Csv | Reader::Tsv => Some(Syntax::Delimited),
        Reader::Jsonl => Some(Syntax::JsonLines),
        Reader::JsonArray => Some(Syntax::Json),
        Reader::JsonObject | Reader::Parquet => None,
    };
    if let Some(syntax) = syntax
        && let Some(problem) =
            textcheck::check(path, syntax).map_err(|e| err(format!("cannot read: {e}")))?
    {
        return Err(err(problem));
    }
    let sha256 = hash(path).map_err(|e| err(format!("cannot read: {e}")))?;
    if matches!(reader, Reader::JsonArray) {
        reader = match first_byte(path).map_err(|e| err(format!("cannot read: {e}")))? {
            None => return Err(err("the file is empty".into())),
            Some(b'[') => Reader::JsonArray,
            Some(b'{') => Reader::JsonObject,
            Some(_) => {
                return Err(err(
                    "the JSON document is a single value, not an array of objects".into(),
                ));
            }
        };
    }
    if opts.root_key.is_some() && !matches!(reader, Reader::JsonObject) {
        return Err(err(
            "--root-key applies only to a .json file whose top level is an object".into(),
        ));
    }
    let db = Db::open().map_err(|e| err(e.to_string()))?;
    let file = sql_string(&path.to_string_lossy());
    // Whole-file type inference (sample_size=-1): a value past DuckDB's default sample of
    // 20,480 rows would otherwise fail the read instead of widening the column type.
    let size = meta.len().saturating_add(1024).min(u64::from(u32::MAX));
    let json_opts = format!("records=true, sample_size=-1, maximum_object_size={size}");
    // DuckDB's raw JSON objects of a JSON input, one per row in file order.
    let objects =
        |f: &str| format!("read_json_objects({file}, format='{f}', maximum_object_size={size})");
    let object = format!("read_json({file}, format='unstructured', {json_opts})");
    // The key of the records in a top-level object, picked once for both reads below.
    let mut notes = Vec::new();
    let key = match reader {
        Reader::JsonObject => Some(
            pick_array(&db, &object, path, opts.root_key.as_deref(), &mut notes).map_err(err)?,
        ),
        _ => None,
    };
    let source = match (reader, &key) {
        (Reader::Jsonl, _) => {
            format!("SELECT * FROM read_json({file}, format='newline_delimited', {json_opts})")
        }
        (Reader::JsonArray, _) => {
            format!("SELECT * FROM read_json({file}, format='array', {json_opts})")
        }
        (Reader::Csv, _) => format!("SELECT * FROM read_csv({file}, sample_size=-1)"),
        (Reader::Tsv, _) => {
            format!("SELECT * FROM read_csv({file}, delim='\\t', sample_size=-1)")
        }
        (Reader::Parquet, _) => format!("SELECT * FROM read_parquet({file})"),
        (Reader::JsonObject, key) => format!(
            "SELECT r.* FROM (SELECT unnest({}) AS r FROM {object})",
            member(key.as_deref().expect("picked above"))
        ),
    };
    if let Err(e) = db.exec(&format!("CREATE TEMP TABLE t AS {source}")) {
        // DuckDB cannot infer records from `[]` or blank lines and calls them non-records.
        let format = match reader {
            Reader::Jsonl => Some("newline_delimited"),
            Reader::JsonArray => Some("array"),
            _ => None,
        };
        let count = format.and_then(|f| {
            let sql = format!("SELECT count(*) FROM {}", objects(f));
            db.rows(&sql, |r| r.get::<_, i64>(0)).ok()
        });
        if count.as_deref() == Some(&[0]) {
            return Err(err("holds no records".into()));
        }
        return Err(err(textcheck::read_error(&e)));
    }
    let schema = db
        .rows("SELECT column_name, column_type FROM (DESCRIBE t)", |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })
        .map_err(|e| err(textcheck::read_error(&e)))?;
    let total = db
        .rows("SELECT count(*) FROM t", |r| r.get::<_, i64>(0))
        .map_err(|e| err(textcheck::read_error(&e)))?
        .first()
        .map_or(0, |&n| usize::try_from(n).unwrap_or(0));
    if total == 0 {
        return Err(err("holds no records".into()));
    }
    // CSV, TSV and Parquet cells keep the file's text where their typed value would print
    // otherwise (`written`): the same rows read as text, beside the typed ones.
    let text_table = match reader {
        Reader::Csv => Some(written::delimited_sql(&file, &schema, false)),
        Reader::Tsv => Some(written::delimited_sql(&file, &schema, true)),
        Reader::Parquet => Some(written::parquet_sql(&schema)),
        _ => None,
    };
    if let Some(sql) = &text_table {
        db.exec(&format!("CREATE TEMP TABLE written AS {sql}"))
            .map_err(|e| err(textcheck::read_error(&e)))?;
        let names = db
            .rows("SELECT column_name FROM (DESCRIBE written)", |r| {
                r.get::<_, String>(0)
            })
            .map_err(|e| err(textcheck::read_error(&e)))?;
        written::same_columns(&names, &schema).map_err(err)?;
    }
    // JSON records are taken as written (DuckDB's `read_json_objects` keeps each object's own
    // keys): the typed table would add every other record's keys as nulls, and sparse records
    // are exactly where formats differ (TOON's tables need uniform keys).
    let rows = match (reader, key) {
        (Reader::Jsonl, _) => format!("SELECT json::VARCHAR FROM {}", objects("newline_delimited")),
        (Reader::JsonArray, _) => format!("SELECT json::VARCHAR FROM {}", objects("array")),
        (Reader::JsonObject, key) => {
            let segments: Vec<String> = key
                .expect("picked above")
                .iter()
                .map(|k| Value::String(k.clone()).to_string())
                .collect();
            let path = sql_string(&format!("$.{}", segments.join(".")));
            format!(
                "SELECT unnest(CAST(json_extract(json, {path}) AS JSON[]))::VARCHAR FROM {}",
                objects("unstructured")
            )
        }
        (Reader::Csv | Reader::Tsv | Reader::Parquet, _) => {
            "SELECT json_array(to_json(t), to_json(written))::VARCHAR FROM t POSITIONAL JOIN written"
                .to_string()
        }
    };
    let name = path
        .file_stem()
        .map_or_else(|| "data".into(), |s| s.to_string_lossy().into_owned());
    Ok(Source {
        db,
        rows,
        paired: text_table.is_some(),
        kept: Kept::default(),
        shown,
        opts: opts.clone(),
        data: UserData {
            name,
            records: Vec::new(),
            sha256,
            schema,
            total,
            notes,
        },
    })
}

/// Reads and samples the records of `path` (see [`open`]), all of them held.
pub fn load(path: &Path, opts: &LoadOptions) -> Result<UserData, UsageError> {
    let source = open(path, opts)?;
    let records = source.all()?;
    let mut data = source.data;
    // Where a value could not be kept with its type, said with the loader's other notes.
    data.notes.extend(source.kept.notes());
    Ok(UserData { records, ..data })
}

/// A data file opened by DuckDB, its records read on demand, one at a time: what holds a file
/// too large to hold as records.
pub struct Source {
    /// The file's table.
    db: Db,
    /// The query giving one JSON text per record, in file order.
    rows: String,
    /// Whether each row is `[typed, text]`, reconciled by `written::reconcile`.
    paired: bool,
    /// Values kept as text instead of their typed form.
    pub kept: Kept,
    /// The path as the user gave it, for errors.
    shown: String,
    /// The sample to read.
    opts: LoadOptions,
    /// What is known of the file without reading its records (`records` is empty).
    pub data: UserData,
}

impl Source {
    /// Records the sample holds.
    pub fn len(&self) -> usize {
        self.opts
            .records
            .unwrap_or(self.data.total)
            .min(self.data.total)
    }

    /// Whether the sample holds no record (never, for a file `open` accepted).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `each` with every sampled record and its index in the file, in file order.
    pub fn each(
        &self,
        mut each: impl FnMut(usize, Map<String, Value>) -> Result<(), String>,
    ) -> Result<(), UsageError> {
        self.read(|i, r| each(i, r).map(|()| ControlFlow::Continue(())))
    }

    /// [`sample`] of this file, until `each` breaks.
    fn read(
        &self,
        each: impl FnMut(usize, Map<String, Value>) -> Result<ControlFlow<()>, String>,
    ) -> Result<(), UsageError> {
        let shape = Shape {
            paired: self.paired,
            kept: &self.kept,
        };
        sample(
            &self.db,
            &self.rows,
            self.data.total,
            &self.opts,
            shape,
            each,
        )
        .map_err(|e| UsageError::new(format!("{}: {e}", self.shown)))
    }

    /// Every sampled record, held.
    pub fn all(&self) -> Result<Vec<Map<String, Value>>, UsageError> {
        self.first(self.len())
    }

    /// The first `n` sampled records (all when there are fewer), read no further.
    pub fn first(&self, n: usize) -> Result<Vec<Map<String, Value>>, UsageError> {
        let mut out = Vec::with_capacity(n.min(self.len()));
        if n > 0 {
            self.read(|_, r| {
                out.push(r);
                Ok(match out.len() == n {
                    true => ControlFlow::Break(()),
                    false => ControlFlow::Continue(()),
                })
            })?;
        }
        Ok(out)
    }

    /// Calls `each` with the sampled records in chunks of `size` (the last may be smaller),
    /// each chunk handed over.
    pub fn chunks(
        &self,
        size: usize,
        mut each: impl FnMut(Vec<Map<String, Value>>) -> Result<(), String>,
    ) -> Result<(), UsageError> {
        let size = size.max(1);
        let mut chunk = Vec::with_capacity(size);
        self.each(|_, r| {
            chunk.push(r);
            if chunk.len() == size {
                each(std::mem::replace(&mut chunk, Vec::with_capacity(size)))?;
            }
            Ok(())
        })?;
        if !chunk.is_empty() {
            each(chunk).map_err(|e| UsageError::new(format!("{}: {e}", self.shown)))?;
        }
        Ok(())
    }
}

/// The records `opts` selects from `rows`, a query giving one JSON text per record in file
/// order.
fn sample(
    db: &Db,
    rows: &str,
    total: usize,
    opts: &LoadOptions,
    shape: Shape<'_>,
    mut each: impl FnMut(usize, Map<String, Value>) -> Result<ControlFlow<()>, String>,
) -> Result<(), String> {
    let n = opts.records.unwrap_or(total).min(total);
    let (sql, keep) = match opts.sample {
        Sample::Random if n < total => {
            let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
            let mut picked = rand::seq::index::sample(&mut rng, total, n).into_vec();
            picked.sort_unstable();
            (rows.to_string(), Some(picked))
        }
        _ => (format!("{rows} LIMIT {n}"), None),
    };
    let mut next = 0;
    db.for_each(&sql, |i, text| {
        // Rows stream in file order; a random sample keeps the picked indices only.
        if let Some(picked) = &keep {
            if picked.get(next) != Some(&i) {
                return Ok(ControlFlow::Continue(()));
            }
            next += 1;
        }
        shape.record(i, text).and_then(|o| each(i, o))
    })
}

/// The column (or struct member below one) at `path`, as SQL.
fn member(path: &[String]) -> String {
    let (first, rest) = path.split_first().expect("a path has a first key");
    rest.iter().fold(quote_ident(first), |e, k| {
        format!("struct_extract({e}, {})", sql_string(k))
    })
}

/// `name` as a double-quoted SQL identifier.
fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Refuses a file larger than a quarter of `available` bytes of memory: DuckDB's table, the
/// JSON texts and the renderings each hold a copy. `None` (no /proc/meminfo) skips the check.
pub fn check_size(path: &Path, len: u64, available: Option<u64>) -> Result<(), UsageError> {
    match available {
        Some(avail) if len > avail / 4 => Err(UsageError::new(format!(
            "{}: the file is {}, larger than bench can load here: at most {} (a quarter of the {} of available memory); pass a smaller extract",
            path.display(),
            human(len),
            human(avail / 4),
            human(avail)
        ))),
        _ => Ok(()),
    }
}

/// `MemAvailable` of /proc/meminfo in bytes (Linux only).
fn mem_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

use crate::numfmt::bytes as human;

/// Hex sha256 of the file, read in chunks so the file is never held twice.
fn hash(path: &Path) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    std::io::copy(&mut BufReader::new(File::open(path)?), &mut hasher)?;
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The first byte of a JSON file that is not whitespace or a byte-order mark.
fn first_byte(path: &Path) -> std::io::Result<Option<u8>> {
    let bytes = BufReader::new(File::open(path)?).bytes();
    for b in bytes {
        let b = b?;
        if !b.is_ascii_whitespace() && ![0xEF, 0xBB, 0xBF].contains(&b) {
            return Ok(Some(b));
        }
    }
    Ok(None)
}
