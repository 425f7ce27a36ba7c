//! Differential check against the reference encoder's output.
//!
//!   cargo run --release --bin toon_diff -- cases.jsonl
//!
//! For every case written by `gen_cases.mjs` it checks that:
//! 1. our encoding (keyFolding off, safe, safe with flattenDepth 2, safe with `|`,
//!    and tab with indent 4) equals the reference's byte for byte
//!    (after the generator's documented normalisation of known spec differences);
//! 2. decoding our output gives the input back (safe mode with expand_paths, when the
//!    input has no literal dotted keys that expansion would legitimately split);
//! 3. decoding the reference's raw, un-normalised output gives the input back too;
//! 4. encoding through the compact `Json` tree gives the same bytes as through `Value`.

#[path = "../../../src/formats/toon/mod.rs"]
#[allow(dead_code, unused_imports)] // the harness uses only part of the engine's API
mod toon;

use std::process::ExitCode;

use serde_json::Value;
use toon::{
    DecodeOptions, Delimiter, EncodeOptions, Json, KeyFolding, decode, encode, encode_node,
};

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "cases.jsonl".into());
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e} (generate it with gen_cases.mjs)");
            return ExitCode::FAILURE;
        }
    };
    let off = EncodeOptions::default();
    let safe = EncodeOptions {
        key_folding: KeyFolding::Safe,
        ..EncodeOptions::default()
    };
    let safe2 = EncodeOptions {
        flatten_depth: 2,
        ..safe.clone()
    };
    let pipe = EncodeOptions {
        delimiter: Delimiter::Pipe,
        ..safe.clone()
    };
    let tab4 = EncodeOptions {
        delimiter: Delimiter::Tab,
        indent: 4,
        ..EncodeOptions::default()
    };
    let plain = DecodeOptions::default();
    let expand = DecodeOptions {
        expand_paths: true,
        ..DecodeOptions::default()
    };
    let (mut cases, mut failures, mut roundtrips) = (0, 0, 0);
    let modes_per_case = 5;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("case line is JSON");
        let id = &case["id"];
        let input_text = case["input"].as_str().expect("input text");
        let input: Value = serde_json::from_str(input_text).expect("input JSON");
        let compact = Json::parse(input_text).expect("input JSON");
        cases += 1;
        let mut problems = Vec::new();
        let ours_off = encode(&input, &off);
        let ours_safe = encode(&input, &safe);
        let ours_safe2 = encode(&input, &safe2);
        let ours_pipe = encode(&input, &pipe);
        let ours_tab4 = encode(&input, &tab4);
        let modes = [
            ("off", &ours_off, &case["off"]),
            ("safe", &ours_safe, &case["safe"]),
            ("safe flattenDepth=2", &ours_safe2, &case["safe2"]),
            ("safe pipe", &ours_pipe, &case["pipe"]),
            ("tab indent=4", &ours_tab4, &case["tab4"]),
        ];
        let all_opts = [&off, &safe, &safe2, &pipe, &tab4];
        for ((mode, ours, want), opts) in modes.into_iter().zip(all_opts) {
            if Some(ours.as_str()) != want.as_str() {
                problems.push(format!(
                    "encode {mode} differs: {}",
                    first_line_diff(want.as_str().unwrap_or_default(), ours)
                ));
            }
            let via_tree = encode_node(&compact, opts);
            if via_tree != *ours {
                problems.push(format!(
                    "encode {mode} via Json differs from via Value: {}",
                    first_line_diff(ours, &via_tree)
                ));
            }
        }
        let mut check = |what: &str, toon: &str, opts: &DecodeOptions| match decode(toon, opts) {
            Ok(v) if same(&v, &input) => roundtrips += 1,
            Ok(v) => problems.push(format!("{what}: {}", value_diff(&input, &v, String::new()))),
            Err(e) => problems.push(format!("{what}: decode error {e}")),
        };
        check("round trip (off)", &ours_off, &plain);
        let indent4 = DecodeOptions {
            indent: 4,
            ..DecodeOptions::default()
        };
        check("round trip (tab indent=4)", &ours_tab4, &indent4);
        check(
            "reference output decode (off)",
            case["rawOff"].as_str().unwrap_or_default(),
            &plain,
        );
        if !has_dotted_key(&input) {
            check("round trip (safe+expand)", &ours_safe, &expand);
            check("round trip (safe pipe+expand)", &ours_pipe, &expand);
            let raw_safe = case["rawSafe"].as_str().unwrap_or_default();
            check("reference output decode (safe+expand)", raw_safe, &expand);
        }
        if !problems.is_empty() {
            failures += 1;
            if failures <= 10 {
                println!("=== case {id}\ninput: {input}\n{}\n", problems.join("\n"));
            }
        }
    }
    println!(
        "{cases} cases, {} encodings compared, {roundtrips} decode round trips OK, {failures} failing case(s)",
        cases * modes_per_case
    );
    if failures == 0 && cases > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn first_line_diff(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let i = w.iter().zip(&g).take_while(|(a, b)| a == b).count();
    format!(
        "line {}:\n  reference: {:?}\n  ours:      {:?}",
        i + 1,
        w.get(i).copied().unwrap_or("<end>"),
        g.get(i).copied().unwrap_or("<end>")
    )
}

/// Path and values of the first difference between the input and a decoded value.
fn value_diff(want: &Value, got: &Value, path: String) -> String {
    match (want, got) {
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find(|(_, (a, b))| !same(a, b))
            .map(|(i, (a, b))| value_diff(a, b, format!("{path}[{i}]")))
            .unwrap_or_default(),
        (Value::Object(x), Value::Object(y))
            if x.len() == y.len() && x.keys().all(|k| y.contains_key(k)) =>
        {
            x.iter()
                .find(|(k, a)| !same(a, &y[k.as_str()]))
                .map(|(k, a)| value_diff(a, &y[k.as_str()], format!("{path}.{k:?}")))
                .unwrap_or_default()
        }
        _ => format!("at {path}: input {want} vs decoded {got}"),
    }
}

fn has_dotted_key(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, x)| k.contains('.') || has_dotted_key(x)),
        Value::Array(a) => a.iter().any(has_dotted_key),
        _ => false,
    }
}

/// Structural equality with numbers compared by value (-0 == 0). Key order is not
/// compared: tabular rows legitimately come back in the header's (first row's) order,
/// and encoding order is already pinned by the byte-exact comparison.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}
