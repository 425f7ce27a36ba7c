//! Token counts equal python `tiktoken`'s (reference values in tests/fixtures/token_reference.json,
//! produced by tools/reference_tokens.py and cross-checked with npm gpt-tokenizer).

use bench::tokens::Tokenizer;
use serde_json::Value;

#[test]
fn counts_equal_the_reference_tokenizer() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/token_reference.json"
    ))
    .unwrap();
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert!(cases.len() >= 10, "fixture has {} cases", cases.len());
    let mut nonzero = 0;
    for case in &cases {
        let s = case["text"].as_str().unwrap();
        for t in Tokenizer::OPENAI {
            let want = case[t.name()].as_u64().unwrap() as usize;
            assert_eq!(t.count(s), want, "{t} on {s:?}");
            nonzero += usize::from(want > 0);
        }
    }
    assert!(nonzero > 10);
}

#[test]
fn tokenizers_differ_where_they_should() {
    // CJK text: o200k_base has a larger vocabulary and needs fewer tokens.
    let s = "日本語のテキストは、トークン数が大きく異なります。";
    assert!(Tokenizer::O200kBase.count(s) < Tokenizer::Cl100kBase.count(s));
}

#[test]
fn open_model_counts_equal_each_vendors_tokenizer() {
    // Reference counts from each encoding's reference implementation (Meta llama-models,
    // Mistral mistral-common, HF tokenizers on Qwen's and DeepSeek's tokenizer.json), made
    // offline by tools/reference_open_tokens.py; special-token text counts as plain text.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/open_token_reference.json"
    ))
    .unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let inputs = fixture["inputs"].as_array().unwrap();
    assert!(inputs.len() >= 20);
    let open: Vec<Tokenizer> = Tokenizer::ALL
        .into_iter()
        .filter(|t| !Tokenizer::OPENAI.contains(t))
        .collect();
    assert_eq!(open.len(), 4);
    for t in open {
        let counts = fixture["encodings"][t.name()]["counts"]
            .as_array()
            .unwrap_or_else(|| panic!("no reference counts for {t}"));
        assert_eq!(counts.len(), inputs.len());
        for (input, want) in inputs.iter().zip(counts) {
            let s = input.as_str().unwrap();
            assert_eq!(t.count(s) as u64, want.as_u64().unwrap(), "{t} on {s:?}");
        }
    }
    // Different vocabularies give different counts for the same text.
    let s = "PROD-000001,Rustic Kettle,Home & Kitchen,772.54,EUR — 日本語のテキスト";
    let counts: std::collections::BTreeSet<usize> =
        Tokenizer::ALL.iter().map(|t| t.count(s)).collect();
    assert!(counts.len() >= 3, "{counts:?}");
}

#[test]
fn counts_equal_tiktoken_rs_on_every_rendering_and_in_parallel_chunks() {
    use bench::dataset::{self, Structure, Variant};
    use bench::formats::Format;
    // tiktoken-rs, a second implementation of the OpenAI encodings, as the differential oracle.
    let oracle = |t: Tokenizer, text: &str| match t {
        Tokenizer::O200kBase => tiktoken_rs::o200k_base_singleton()
            .encode_ordinary(text)
            .len(),
        _ => tiktoken_rs::cl100k_base_singleton()
            .encode_ordinary(text)
            .len(),
    };
    let ds = dataset::generate(120, 11);
    let mut all = String::new();
    for v in Variant::ALL {
        for s in Structure::ALL {
            let doc = ds.document(v, s);
            for f in Format::ALL.iter().copied().filter(|f| f.supports(s)) {
                let text = f.encode(&doc).unwrap();
                for t in Tokenizer::OPENAI {
                    assert_eq!(t.count(&text), oracle(t, &text), "{t} {f} {s} {v}");
                }
                all.push_str(&text);
            }
        }
    }
    // Past 1 MiB the count runs in chunks on every core; the sum must not change.
    assert!(all.len() > 1 << 20, "{} bytes", all.len());
    for t in Tokenizer::OPENAI {
        assert_eq!(t.count(&all), oracle(t, &all), "{t} on {} bytes", all.len());
        assert_eq!(t.count(&all), t.count_whole(&all), "{t}");
    }
}

#[test]
fn counts_of_the_default_renderings_equal_python_tiktoken() {
    use bench::dataset::{self, Structure, Variant};
    use bench::formats::Format;
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/token_reference_files.json"
    ))
    .unwrap();
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(cases.len(), 30);
    let ds = dataset::generate(31, 42);
    for case in &cases {
        let file = case["file"].as_str().unwrap();
        let (format, structure, variant) = Format::ALL
            .iter()
            .flat_map(|&f| {
                Structure::ALL
                    .iter()
                    .flat_map(move |&s| Variant::ALL.iter().map(move |&v| (f, s, v)))
            })
            .find(|(f, s, v)| {
                file.ends_with(&format!(
                    "/{f}_with_{v}_31_{s}_records.{}",
                    f.spec().extension
                ))
            })
            .unwrap_or_else(|| panic!("no rendering for {file}"));
        let rendered = format.encode(&ds.document(variant, structure)).unwrap();
        for t in Tokenizer::OPENAI {
            assert_eq!(
                t.count(&rendered) as u64,
                case[t.name()].as_u64().unwrap(),
                "{t} {file}"
            );
        }
    }
}

#[test]
fn perf_tokens_prints_the_counts_and_speeds_of_each_tokenizer() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("text.json");
    let text =
        "{\"id\": \"PROD-000001\", \"name\": \"Rustic Kettle\", \"price\": 772.54}\n".repeat(500);
    std::fs::write(&file, &text).unwrap();
    let out = crate::support::binary()
        .args([
            "perf",
            "tokens",
            "--repeat",
            "1",
            "--tokenizers",
            "o200k_base,llama3",
        ])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    for t in [Tokenizer::O200kBase, Tokenizer::Llama3] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(t.name()))
            .unwrap_or_else(|| panic!("no {t} line in {stdout}"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[1], t.count_whole(&text).to_string(), "{line}");
        assert!(line.contains("MB/s"), "{line}");
    }
    // A python that cannot start is a one-line error naming it.
    let out = crate::support::binary()
        .args(["perf", "tokens", "--python", "/nonexistent/python"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--python /nonexistent/python: cannot start it"),
        "{err}"
    );
}
