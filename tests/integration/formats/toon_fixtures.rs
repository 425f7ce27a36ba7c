//! Runs every official TOON v3.3.2 spec fixture (encode and decode) found under
//! `$BENCH_SHARED_DIR/toon-spec/v3.3.2/fixtures`.

use std::fs;
use std::path::{Path, PathBuf};

use bench::formats::toon::{
    DecodeOptions, Delimiter, EncodeOptions, KeyFolding, Spec, decode, encode,
};
use serde_json::Value;

/// Fixtures deliberately not run: (file, test name, reason). Empty: all apply.
const NOT_APPLICABLE: &[(&str, &str, &str)] = &[];

/// Encode fixtures where bench writes other text on purpose (docs/formats.md): (file, test name,
/// bench's output). Each is still run: the output must be exactly this, and it must decode back
/// to the fixture's input with `expandPaths: "safe"`, which the fixture's expected text does not.
const DEVIATIONS: &[(&str, &str, &str)] = &[(
    "key-folding.json",
    "skips folding on sibling literal-key collision (safe mode)",
    // A literal dotted key is quoted under key folding, or path expansion would read it as
    // data -> meta -> items and collide with the real nested key.
    "data:\n  meta:\n    items[2]: 1,2\n\"data.meta.items\": literal",
)];

#[derive(Default)]
struct Tally {
    run: usize,
    deviations: usize,
    failures: Vec<String>,
}

#[test]
fn spec_fixtures_v3() {
    suite("v3.3.2", Spec::V3);
}

#[test]
fn spec_fixtures_v4() {
    suite("v4.0.0", Spec::V4);
}

fn suite(version: &str, spec: Spec) {
    let run_encode = |t: &Value| run_encode(t, spec);
    let run_decode = |t: &Value| run_decode(t, spec);
    let Some(shared) = std::env::var_os("BENCH_SHARED_DIR") else {
        eprintln!("skipping: BENCH_SHARED_DIR not set");
        return;
    };
    let root = PathBuf::from(shared)
        .join("toon-spec")
        .join(version)
        .join("fixtures");
    let mut encode_tally = Tally::default();
    let mut decode_tally = Tally::default();
    for file in fixture_files(&root.join("encode")) {
        run_file(&file, &mut encode_tally, &run_encode);
    }
    for file in fixture_files(&root.join("decode")) {
        run_file(&file, &mut decode_tally, &run_decode);
    }
    println!(
        "TOON {version} fixtures: encode {}/{} passed ({} as documented deviations), decode {}/{} passed, {} not applicable",
        encode_tally.run - encode_tally.failures.len(),
        encode_tally.run,
        encode_tally.deviations,
        decode_tally.run - decode_tally.failures.len(),
        decode_tally.run,
        NOT_APPLICABLE.len(),
    );
    assert!(encode_tally.run > 0, "no encode fixtures were run");
    assert!(decode_tally.run > 0, "no decode fixtures were run");
    let failures: Vec<String> = encode_tally
        .failures
        .into_iter()
        .chain(decode_tally.failures)
        .collect();
    assert!(
        failures.is_empty(),
        "{} fixture(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

fn fixture_files(dir: &Path) -> Vec<PathBuf> {
    let entries = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("fixture folder {} unreadable: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixture files in {}", dir.display());
    files
}

fn run_file(path: &Path, tally: &mut Tally, run: &dyn Fn(&Value) -> Result<(), String>) {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("invalid JSON in {}: {e}", path.display()));
    let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("?");
    let tests = doc["tests"]
        .as_array()
        .unwrap_or_else(|| panic!("{file}: missing tests array"));
    for test in tests {
        let name = test["name"].as_str().unwrap_or("<unnamed>");
        if NOT_APPLICABLE
            .iter()
            .any(|(f, n, _)| *f == file && *n == name)
        {
            continue;
        }
        tally.run += 1;
        // Every fixture in this folder targets some v1.x-v3.x; all of them apply.
        if let Some(v) = test.get("minSpecVersion").and_then(Value::as_str)
            && v.split('.').next().and_then(|m| m.parse::<u32>().ok()) > Some(3)
        {
            tally.failures.push(format!(
                "[{file}] {name}\n  requires spec {v}, newer than this suite"
            ));
            continue;
        }
        let deviation = DEVIATIONS.iter().find(|(f, n, _)| *f == file && *n == name);
        let outcome = match deviation {
            Some((_, _, ours)) => {
                tally.deviations += 1;
                check_deviation(test, ours, run)
            }
            None => run(test),
        };
        if let Err(msg) = outcome {
            tally.failures.push(format!("[{file}] {name}\n{msg}"));
        }
    }
}

/// Runs an encode fixture against bench's documented output instead of the reference's, then
/// proves the deviation is the lossless one: bench's text decodes (paths expanded) to the input.
fn check_deviation(
    test: &Value,
    ours: &str,
    run: &dyn Fn(&Value) -> Result<(), String>,
) -> Result<(), String> {
    let mut changed = test.clone();
    changed["expected"] = Value::String(ours.to_string());
    run(&changed)?;
    let opts = DecodeOptions {
        expand_paths: true,
        ..DecodeOptions::default()
    };
    match decode(ours, &opts) {
        Ok(back) if same(&back, &test["input"]) => Ok(()),
        Ok(back) => Err(format!("  deviation decodes to {back}, not the input")),
        Err(e) => Err(format!("  deviation does not decode: {e}")),
    }
}

fn options(test: &Value) -> Vec<(&str, &Value)> {
    test.get("options")
        .and_then(Value::as_object)
        .map(|o| o.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default()
}

fn run_encode(test: &Value, spec: Spec) -> Result<(), String> {
    let mut opts = EncodeOptions {
        spec,
        ..EncodeOptions::default()
    };
    let v3 = spec == Spec::V3;
    for (key, v) in options(test) {
        match (key, v) {
            // v4 renamed the fixture option `indent` to `indentSize`.
            ("indent", Value::Number(n)) if v3 => {
                opts.indent = n.as_u64().ok_or("bad indent")? as usize
            }
            ("indentSize", Value::Number(n)) if !v3 => {
                opts.indent = n.as_u64().ok_or("bad indentSize")? as usize
            }
            ("delimiter", Value::String(d)) => {
                opts.delimiter = match d.as_str() {
                    "," => Delimiter::Comma,
                    "\t" => Delimiter::Tab,
                    "|" => Delimiter::Pipe,
                    other => return Err(format!("unknown delimiter {other:?}")),
                }
            }
            ("keyFolding", Value::String(m)) if v3 => {
                opts.key_folding = match m.as_str() {
                    "off" => KeyFolding::Off,
                    "safe" => KeyFolding::Safe,
                    other => return Err(format!("unknown keyFolding {other:?}")),
                }
            }
            ("flattenDepth", Value::Number(n)) if v3 => {
                opts.flatten_depth = n.as_u64().map_or(usize::MAX, |d| d as usize)
            }
            _ => return Err(format!("unsupported encode option {key}: {v}")),
        }
    }
    if test["shouldError"].as_bool() == Some(true) {
        return Err(
            "encode fixtures with shouldError are not supported (encode is infallible)".into(),
        );
    }
    let expected = test["expected"]
        .as_str()
        .ok_or("expected must be a string")?;
    let got = encode(&test["input"], &opts);
    if got == expected {
        Ok(())
    } else {
        Err(format!(
            "  input:    {}\n  expected: {expected:?}\n  got:      {got:?}",
            test["input"]
        ))
    }
}

fn run_decode(test: &Value, spec: Spec) -> Result<(), String> {
    let mut opts = DecodeOptions {
        spec,
        ..DecodeOptions::default()
    };
    let v3 = spec == Spec::V3;
    for (key, v) in options(test) {
        match (key, v) {
            ("indent", Value::Number(n)) if v3 => {
                opts.indent = n.as_u64().ok_or("bad indent")? as usize
            }
            ("indentSize", Value::Number(n)) if !v3 => {
                opts.indent = n.as_u64().ok_or("bad indentSize")? as usize
            }
            ("strict", Value::Bool(b)) => opts.strict = *b,
            ("expandPaths", Value::String(m)) if v3 => {
                opts.expand_paths = match m.as_str() {
                    "off" => false,
                    "safe" => true,
                    other => return Err(format!("unknown expandPaths {other:?}")),
                }
            }
            _ => return Err(format!("unsupported decode option {key}: {v}")),
        }
    }
    let input = test["input"].as_str().ok_or("input must be a string")?;
    let result = decode(input, &opts);
    let should_error = test["shouldError"].as_bool() == Some(true);
    match (result, should_error) {
        (Err(_), true) => Ok(()),
        (Ok(got), true) => Err(format!(
            "  input:    {input:?}\n  expected: an error\n  got:      {got}"
        )),
        (Err(e), false) => Err(format!(
            "  input:    {input:?}\n  expected: {}\n  got:      error: {e}",
            test["expected"]
        )),
        (Ok(got), false) if same(&got, &test["expected"]) => Ok(()),
        (Ok(got), false) => Err(format!(
            "  input:    {input:?}\n  expected: {}\n  got:      {got}",
            test["expected"]
        )),
    }
}

/// Structural equality that also checks key order and compares numbers by value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        _ => a == b,
    }
}
