//! Property tests (proptest) over every codec and parser, on generated inputs rather than
//! chosen examples:
//! - every format either round-trips a generated document exactly (`same_value`) or refuses
//!   it with the typed "cannot represent: why", never a silent difference;
//! - every decoder and the answer extraction, on arbitrary text and on mutated renderings,
//!   return (a value or a one-line error) within a time bound and never panic.
//!
//! `cargo test` runs a bounded number of cases (`CASES`, or `PROPTEST_CASES` when set); the
//! long mode is `PROPTEST_CASES=5000 cargo test --test integration properties -- --ignored`.
//! Shrunk failures are kept in `tests/integration/formats/properties.txt` (proptest's regression
//! file) and replayed first on every run.

use bench::formats::{Format, same_value};
use proptest::prelude::*;
use serde_json::{Map, Number, Value};
use std::sync::mpsc;
use std::time::Duration;

/// Cases per property in `cargo test`.
const CASES: u32 = 96;

/// Keys as real data has them: spaces, dots, quotes, colons, `#`, `[`, a leading `-`,
/// unicode with combining marks and right-to-left text, words that read as other values.
const KEYS: &[&str] = &[
    "id",
    "name",
    "price",
    "a b",
    "a.b",
    "x\"y",
    "k:v",
    "#tag",
    "[0]",
    "-lead",
    "ünï",
    "e\u{301}",
    "שלום",
    "a=b",
    "null",
    "true",
    "123",
    " sp",
    "café au lait",
    "x,y",
    "a|b",
];

/// Strings as real data has them.
const STRINGS: &[&str] = &[
    "",
    " ",
    "null",
    "true",
    "false",
    "-",
    "- x",
    "a,b",
    "\"q\"",
    "line\nbreak",
    "#",
    "[x]",
    "1e21",
    "007",
    "-0",
    "e\u{301}",
    "مرحبا بالعالم",
    "\t",
    "a: b",
    "key = value",
    "{}",
    "[]",
    "PROD-000001",
    "2024-01-01",
    "Müller & Söhne",
    "<tag>",
    "&amp;",
    "'",
    "\\",
    "  lead",
    "trail  ",
    "x\r\ny",
    "😀",
    "\u{200b}",
];

pub(crate) fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(CASES);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::Direct(
                "tests/integration/formats/properties.txt",
            ),
        )),
        ..ProptestConfig::default()
    }
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(KEYS).prop_map(str::to_string),
        1 => "[a-zA-Z_][a-zA-Z0-9_ .:-]{0,8}",
        1 => "\\PC{1,6}",
    ]
}

fn number() -> impl Strategy<Value = Value> {
    let edges = [
        0.0,
        -0.0,
        1e21,
        1e-7,
        0.1,
        -1.5,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        123456789.123,
        9007199254740993.0,
    ];
    prop_oneof![
        any::<i64>().prop_map(|n| Value::Number(n.into())),
        proptest::sample::select(vec![i64::MIN, i64::MAX, 0, -1, 1])
            .prop_map(|n| Value::Number(n.into())),
        any::<u64>().prop_map(|n| Value::Number(n.into())),
        proptest::sample::select(edges.to_vec())
            .prop_map(|f| Value::Number(Number::from_f64(f).expect("finite"))),
        any::<f64>()
            .prop_filter_map("finite", Number::from_f64)
            .prop_map(Value::Number),
    ]
}

fn string() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => proptest::sample::select(STRINGS).prop_map(|s| Value::String(s.into())),
        2 => "\\PC{0,12}".prop_map(Value::String),
        1 => "[ -~]{0,12}".prop_map(Value::String),
        1 => "[a-z]{200,400}".prop_map(Value::String),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => number(),
        4 => string(),
    ]
}

/// Any JSON value, nested up to 4 levels, with empty arrays and objects.
fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..4).prop_map(object),
        ]
    })
}

fn object(pairs: Vec<(String, Value)>) -> Value {
    Value::Object(pairs.into_iter().collect::<Map<_, _>>())
}

/// A list of records under one key: fields drawn from a small set, so records share some and
/// lack others (sparse), with values of any type (a field may mix types across records).
pub(crate) fn records() -> impl Strategy<Value = Value> {
    let record = proptest::collection::vec(
        (
            proptest::sample::select(&KEYS[..8]).prop_map(str::to_string),
            prop_oneof![4 => scalar(), 1 => value()],
        ),
        0..6,
    )
    .prop_map(object);
    ("[a-z]{1,8}", proptest::collection::vec(record, 0..6)).prop_map(|(root, list)| {
        let mut m = Map::new();
        m.insert(root, Value::Array(list));
        Value::Object(m)
    })
}

/// Flat records of scalars only: what the tabular formats carry.
pub(crate) fn flat_records() -> impl Strategy<Value = Value> {
    let record = proptest::collection::vec(
        (
            proptest::sample::select(KEYS).prop_map(str::to_string),
            scalar(),
        ),
        1..6,
    )
    .prop_map(object);
    proptest::collection::vec(record, 1..6).prop_map(|list| {
        let mut m = Map::new();
        m.insert("items".into(), Value::Array(list));
        Value::Object(m)
    })
}

fn document() -> impl Strategy<Value = Value> {
    prop_oneof![2 => records(), 2 => flat_records(), 1 => value()]
}

/// `f` applied to `input` in a thread, or `None` when it took longer than `limit` (a hang).
fn bounded<T: Send + 'static>(
    limit: Duration,
    input: String,
    f: impl FnOnce(String) -> T + Send + 'static,
) -> Option<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f(input));
    });
    rx.recv_timeout(limit).ok()
}

/// `doc` as a table reads back: every record with every column, in the order the columns
/// first appear, a field a record lacks as null (docs/formats.md, "Tables: a missing field is
/// null"). Anything else as it is.
fn as_table(doc: &Value) -> Value {
    let Ok(records) = bench::formats::records("csv", doc) else {
        return doc.clone();
    };
    let mut columns: Vec<&String> = Vec::new();
    for r in &records.items {
        for k in r.keys() {
            if !columns.contains(&k) {
                columns.push(k);
            }
        }
    }
    let rows: Vec<Value> = records
        .items
        .iter()
        .map(|r| {
            let row = columns
                .iter()
                .map(|&c| (c.clone(), r.get(c).cloned().unwrap_or(Value::Null)));
            Value::Object(row.collect())
        })
        .collect();
    match records.key {
        Some(k) => object(vec![(k.to_string(), Value::Array(rows))]),
        None => Value::Array(rows),
    }
}

/// `same_value` with objects as unordered maps (RFC 8259: an object is an unordered
/// collection). Key order is kept by every format but where a layout has one order for many
/// objects: a table's columns, TOON's tabular rows (the first record's order, as the reference
/// encoder writes them).
/// With `untyped` (tables and XML, whose text carries no type), a text that spells a number
/// or a boolean as JSON does (`"42"`, `"true"`) may read back as that number or boolean
/// (docs/formats.md, "Untyped text"); nothing else may differ.
fn same(a: &Value, b: &Value, untyped: bool) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same(v, w, untyped)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b, untyped))
        }
        (Value::String(s), other) if untyped && !other.is_string() => {
            !s.is_empty() && same_value(&bench::scalar::infer(s), other)
        }
        _ => same_value(a, b),
    }
}

/// The formats whose text carries no type.
fn untyped(f: Format) -> bool {
    f.spec().flat_only || f.name().starts_with("xml")
}

/// The property: `f` round-trips `doc` or refuses it, typed.
fn round_trips(f: Format, doc: &Value) -> Result<(), TestCaseError> {
    let text = match f.encode(doc) {
        Ok(t) => t,
        Err(e) => {
            prop_assert!(e.is_cannot_represent(), "{f}: refused untyped: {e}");
            prop_assert!(
                !e.to_string().contains('\n'),
                "{f}: error of several lines: {e}"
            );
            return Ok(());
        }
    };
    let key = bench::formats::records(f.name(), doc)
        .ok()
        .and_then(|r| r.key.map(str::to_string));
    let want = if f.spec().flat_only {
        as_table(doc)
    } else {
        doc.clone()
    };
    match f.decode_as(&text, key.as_deref()) {
        Ok(back) => prop_assert!(
            same(&want, &back, untyped(f)),
            "{f}: a silent difference\ndoc:  {doc}\nback: {back}\ntext:\n{text}"
        ),
        Err(e) => prop_assert!(
            false,
            "{f}: its own output does not decode: {e}\ntext:\n{text}"
        ),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_format_round_trips_or_refuses_typed(doc in document()) {
        for &f in Format::ALL.iter() {
            round_trips(f, &doc)?;
        }
    }

    #[test]
    fn decoders_and_the_answer_extraction_never_panic_or_hang(text in prop_oneof![
        "\\PC{0,64}",
        proptest::collection::vec(any::<u8>(), 0..128)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        "[-:,|\\[\\]{}\"'#= \n\ta-z0-9]{0,80}",
    ]) {
        for &f in Format::ALL.iter() {
            let out = bounded(Duration::from_secs(5), text.clone(), move |t| {
                f.decode(&t).map_err(|e| e.to_string())
            });
            let Some(out) = out else {
                return Err(TestCaseError::fail(format!("{f}: decode hung on {text:?}")));
            };
            if let Err(e) = out {
                prop_assert!(!e.contains('\n'), "{f}: error of several lines: {e}");
            }
        }
        let out = bounded(Duration::from_secs(5), text.clone(), |t| {
            bench::prompt::extract_answers(&t).is_some()
        });
        prop_assert!(out.is_some(), "extract_answers hung on {text:?}");
    }

    #[test]
    fn mutated_renderings_decode_or_fail_in_one_line(
        doc in document(),
        cut in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        what in 0u8..4,
        junk in "\\PC{1,3}",
    ) {
        for &f in Format::ALL.iter() {
            let Ok(text) = f.encode(&doc) else { continue };
            if text.is_empty() {
                continue;
            }
            let i = text.floor_char_boundary(at.index(text.len()));
            let j = text.floor_char_boundary(cut.index(text.len()));
            let (lo, hi) = (i.min(j), i.max(j));
            let mutated = match what {
                0 => text[..hi].to_string(),
                1 => format!("{}{}", &text[..lo], &text[hi..]),
                2 => format!("{}{junk}{}", &text[..i], &text[i..]),
                _ => {
                    let lines: Vec<&str> = text.lines().collect();
                    let k = at.index(lines.len().max(1)).min(lines.len().saturating_sub(1));
                    let mut l = lines.clone();
                    if !lines.is_empty() {
                        l.insert(k, lines[k]);
                    }
                    l.join("\n")
                }
            };
            let out = bounded(Duration::from_secs(5), mutated.clone(), move |t| {
                f.decode(&t).map_err(|e| e.to_string())
            });
            let Some(out) = out else {
                return Err(TestCaseError::fail(format!("{f}: decode hung on {mutated:?}")));
            };
            if let Err(e) = out {
                prop_assert!(!e.contains('\n'), "{f}: error of several lines: {e}");
            }
        }
    }
}

/// The long mode: the round-trip property over many more documents, printing per format how
/// many round-tripped and how many were refused.
#[test]
#[ignore = "long mode: PROPTEST_CASES=5000 cargo test --test integration properties -- --ignored"]
fn long_round_trip() {
    let tally = std::sync::Mutex::new(std::collections::BTreeMap::<&str, (u32, u32)>::new());
    let mut runner = proptest::test_runner::TestRunner::new(config());
    runner
        .run(&document(), |doc| {
            for &f in Format::ALL.iter() {
                round_trips(f, &doc)?;
                let mut t = tally.lock().unwrap();
                let e = t.entry(f.name()).or_default();
                if f.encode(&doc).is_ok() {
                    e.0 += 1;
                } else {
                    e.1 += 1;
                }
            }
            Ok(())
        })
        .unwrap();
    for (f, (kept, refused)) in tally.lock().unwrap().iter() {
        println!("{f}: {kept} round-tripped, {refused} refused (cannot represent)");
    }
}

/// A run log of the reference answerer (4 results), made once per test binary.
fn base_log() -> &'static (std::path::PathBuf, String) {
    static LOG: std::sync::OnceLock<(std::path::PathBuf, String)> = std::sync::OnceLock::new();
    LOG.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("bench-props-{}", std::process::id()));
        let out = crate::support::bench(&root.join("cache"))
            .args([
                "run",
                "--formats",
                "csv,json_compact",
                "--structures",
                "flat",
            ])
            .args(["--runs", "2", "--no-report", "--output-root"])
            .arg(root.join("data"))
            .output()
            .unwrap();
        crate::support::success_stdout(&out);
        let dir = crate::support::run_dir(&root.join("data"));
        let text = std::fs::read_to_string(dir.join("formats.jsonl")).unwrap();
        (dir, text)
    })
}

/// A bad line of one of the kinds a crash, a disk or a person leaves in a log.
fn bad_line() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 1..200)
            .prop_map(|b| String::from_utf8_lossy(&b).replace('\n', " ")),
        Just(r#"{"type":"result","data":{}}"#.to_string()),
        Just(r#"{"type":"result"}"#.to_string()),
        Just(r#"{"type":"summary","data":{"nonsense":true}}"#.to_string()),
        (1usize..400).prop_map(|n| {
            let (_, text) = base_log();
            let line = text.lines().nth(1).unwrap();
            line[..line.floor_char_boundary(n)].to_string()
        }),
        Just(format!(
            "{{\"type\":\"result\",\"data\":\"{}\"}}",
            "x".repeat(3 << 20)
        )),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: config().cases.min(24), ..config() })]

    /// Bad lines anywhere after the metadata (and a cut last line): the resume reader keeps
    /// every good result and names each bad line by file:line; the DuckDB views count the
    /// same results. Nothing is fatal for the rest.
    #[test]
    fn bad_lines_in_a_log_are_skipped_by_line_and_never_fatal(
        bad in proptest::collection::vec((any::<prop::sample::Index>(), bad_line()), 1..4),
        cut_last in any::<bool>(),
    ) {
        let (dir, text) = base_log();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let results = lines.iter().filter(|l| l.starts_with("{\"type\":\"result\"")).count();
        for (at, line) in &bad {
            let i = 1 + at.index(lines.len());
            lines.insert(i.min(lines.len()), line.clone());
        }
        let mut doc = lines.join("\n") + "\n";
        if cut_last {
            doc.push_str("{\"type\":\"result\",\"data\":{\"sample");
        }
        let tmp = tempfile::tempdir().unwrap();
        let run = tmp.path().join("benchmarks").join(dir.file_name().unwrap());
        std::fs::create_dir_all(&run).unwrap();
        let log = run.join("formats.jsonl");
        std::fs::write(&log, &doc).unwrap();

        let r = bench::runner::resume::load(&run, false).unwrap();
        prop_assert_eq!(r.kept.len(), results);
        for n in &r.notices {
            prop_assert!(n.contains(&format!("{}:", log.display())), "{}", n);
        }
        let a = bench::analytics::Analytics::open_run(&run).unwrap();
        let t = a.query("SELECT count(*) FROM results").unwrap();
        prop_assert_eq!(t.rows[0][0].as_i64(), Some(results as i64));
    }
}
