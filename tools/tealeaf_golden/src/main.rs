use std::fs;
use tealeaf::{FormatOptions, TeaLeaf};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args[1] == "--parse" {
        let text = fs::read_to_string(&args[2]).unwrap();
        match TeaLeaf::parse(&text) {
            Ok(doc) => {
                for (n, s) in &doc.schemas {
                    let f: Vec<String> = s.fields.iter().map(|f| format!("{}:{}", f.name, f.field_type)).collect();
                    println!("schema {n}: {}", f.join(", "));
                }
                println!("{}", doc.to_json_compact().unwrap());
            }
            Err(e) => println!("PARSE ERROR: {e}"),
        }
        return;
    }
    let input = &args[1];
    let out_prefix = &args[2];
    let json = fs::read_to_string(input).expect("read input");

    let doc = TeaLeaf::from_json_with_schemas(&json).expect("from_json_with_schemas");
    let pretty = doc.to_tl_with_schemas();
    let compact = doc.to_tl_with_schemas_compact();
    let compact_ff = doc.to_tl_with_options(&FormatOptions::compact().with_compact_floats());
    fs::write(format!("{out_prefix}.pretty.tl"), &pretty).unwrap();
    fs::write(format!("{out_prefix}.compact.tl"), &compact).unwrap();
    fs::write(format!("{out_prefix}.compact_floats.tl"), &compact_ff).unwrap();

    // Round trip each variant back to JSON.
    let orig: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut report = String::new();
    for (name, text) in [("pretty", &pretty), ("compact", &compact), ("compact_floats", &compact_ff)] {
        match TeaLeaf::parse(text) {
            Ok(back) => {
                let back_json = back.to_json_compact().unwrap();
                fs::write(format!("{out_prefix}.{name}.roundtrip.json"), &back_json).unwrap();
                let bj: serde_json::Value = serde_json::from_str(&back_json).unwrap();
                let same = bj == orig;
                report.push_str(&format!("{name}: parse OK; roundtrip JSON == original: {same}\n"));
                if !same {
                    diff(&orig, &bj, "$", &mut report);
                }
                // Also: does re-serializing the parsed doc reproduce the same text?
                let again = if name == "pretty" { back.to_tl_with_schemas() } else if name == "compact" { back.to_tl_with_schemas_compact() } else { back.to_tl_with_options(&FormatOptions::compact().with_compact_floats()) };
                report.push_str(&format!("{name}: re-serialize(parse(text)) == text: {}\n", again == *text));
                if again != *text {
                    fs::write(format!("{out_prefix}.{name}.reserialized.tl"), &again).unwrap();
                }
            }
            Err(e) => report.push_str(&format!("{name}: PARSE ERROR: {e}\n")),
        }
    }
    fs::write(format!("{out_prefix}.report.txt"), &report).unwrap();
    print!("{report}");
}

fn diff(a: &serde_json::Value, b: &serde_json::Value, path: &str, out: &mut String) {
    use serde_json::Value::*;
    match (a, b) {
        (Object(x), Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) => diff(v, w, &format!("{path}.{k}"), out),
                    None => out.push_str(&format!("  {path}.{k}: original {v} -> ABSENT after roundtrip\n")),
                }
            }
            for (k, w) in y {
                if !x.contains_key(k) {
                    out.push_str(&format!("  {path}.{k}: ABSENT in original -> {w} after roundtrip\n"));
                }
            }
            let xk: Vec<_> = x.keys().collect();
            let yk: Vec<_> = y.keys().collect();
            if xk != yk && xk.len() == yk.len() {
                out.push_str(&format!("  {path}: key order differs {xk:?} vs {yk:?}\n"));
            }
        }
        (Array(x), Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                diff(v, w, &format!("{path}[{i}]"), out);
            }
        }
        _ => {
            if a != b {
                out.push_str(&format!("  {path}: original {a} -> {b}\n"));
            }
        }
    }
}
