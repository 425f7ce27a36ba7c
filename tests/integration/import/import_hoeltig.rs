//! `bench import --from hoeltig` with the seed's data files shipped beside its runs: each answer's
//! `data_stats` holds bench's offline token count of the file the model read (the counting
//! `bench tokens` does), the verdict gets a token ratio from it, the seed's own `readTokens`
//! (metrics.json) are shown beside, and a data file that is missing is named, never skipped in
//! silence.

use crate::support::binary;
use bench::tokens::Tokenizer;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn seed(model: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benchmarks/published/hoeltig")
        .join(model)
}

/// Imports `sources` into `root` and returns what bench printed.
fn import(root: &Path, sources: &[PathBuf]) -> String {
    let out = binary()
        .arg("import")
        .args(sources)
        .args(["--from", "hoeltig", "--output-root"])
        .arg(root)
        .output()
        .unwrap();
    crate::support::success_stdout(&out)
}

/// The result lines of the one run under `root`.
fn results(root: &Path) -> Vec<Value> {
    let run = crate::support::run_dir(root);
    std::fs::read_to_string(run.join("imported.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "result")
        .map(|v| v["data"].clone())
        .collect()
}

#[test]
fn the_sonnet_data_files_give_each_answer_its_tokens_and_the_verdict_a_ratio() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let said = import(&root, &[seed("benchmark_sonnet_4_6")]);
    assert!(
        said.contains("tokens: o200k_base count of the seed's published data file"),
        "{said}"
    );
    assert!(
        !said.contains("missing:"),
        "every Sonnet data file is shipped: {said}"
    );

    // One shipped file, counted here with the library `bench tokens` counts with.
    let file = seed("benchmark_sonnet_4_6").join("data/csv/csv_with_mandatory_31_flat_records.csv");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.chars().count(), 10_095, "the seed's characterCount");
    let o200k = Tokenizer::O200kBase.count_whole(&text);
    let cl100k = Tokenizer::Cl100kBase.count_whole(&text);
    assert!(o200k > 1_000 && o200k < 10_095, "{o200k}");
    let rows = results(&root);
    assert_eq!(rows.len(), 5_208);
    let csv_mandatory: Vec<&Value> = rows
        .iter()
        .filter(|r| r["format"] == "csv" && r["variant"] == "mandatory")
        .collect();
    assert_eq!(csv_mandatory.len(), 372);
    for r in &csv_mandatory {
        let s = &r["data_stats"];
        assert_eq!(s["tokens"]["o200k_base"], o200k, "{s}");
        assert_eq!(s["tokens"]["cl100k_base"], cl100k, "{s}");
        assert_eq!(s["chars"], 10_095);
        assert_eq!(s["bytes"], text.len());
        assert_eq!(s["objects"], 31);
        assert!(
            r["billed_data_tokens"].is_null(),
            "the seed bills nothing: {r}"
        );
    }
    // Every answer has data tokens, and a format's differ from another's.
    assert!(
        rows.iter()
            .all(|r| r["data_stats"]["tokens"]["o200k_base"].as_u64() > Some(0))
    );
    let tokens_of = |f: &str| {
        rows.iter()
            .find(|r| r["format"] == f && r["variant"] == "mandatory")
            .unwrap()["data_stats"]["tokens"]["o200k_base"]
            .as_u64()
            .unwrap()
    };
    assert!(tokens_of("json_pretty") > tokens_of("csv"));

    // The seed's own figure beside bench's: Sonnet's metrics.json says 6,748 readTokens.
    let line = said
        .lines()
        .find(|l| l.trim_start().starts_with("csv mandatory:"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        line.contains(&format!("{} o200k_base tokens", thousands(o200k))),
        "{line}"
    );
    assert!(line.contains("seed's readTokens 6,748"), "{line}");

    // The verdict now has a token ratio: the o200k_base counts of the two files.
    let run = crate::support::run_dir(&root);
    let verdicts = bench::import::verdict::verdicts(&run, "json_compact").unwrap();
    assert_eq!(verdicts.len(), 12, "6 formats × 2 variants: {verdicts:?}");
    let csv = verdicts
        .iter()
        .find(|v| v.format == "csv" && v.variant == "mandatory")
        .unwrap();
    let json = seed("benchmark_sonnet_4_6")
        .join("data/json_compact/json_compact_with_mandatory_31_flat_records.json");
    let json_tokens = Tokenizer::O200kBase.count_whole(&std::fs::read_to_string(json).unwrap());
    let ratio = csv.token_ratio.expect("a token ratio");
    assert!(
        (ratio - o200k as f64 / json_tokens as f64).abs() < 1e-9,
        "{ratio}"
    );
    assert!(csv.accuracy_per_1k_tokens.is_some(), "{csv:?}");
    assert!(verdicts.iter().all(|v| v.token_ratio.is_some()));
    assert!(
        verdicts
            .iter()
            .filter(|v| v.noninferior)
            .all(|v| v.decision.contains("its data tokens (o200k_base)")),
        "{verdicts:?}"
    );
}

/// Haiku's repository lacks some data files: each is named as missing, its answers carry no
/// data tokens, and the others are counted.
#[test]
fn a_missing_data_file_is_named_and_its_answers_have_no_tokens() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let said = import(&root, &[seed("benchmark_haiku_4_5")]);
    let missing: Vec<&str> = said.lines().filter(|l| l.contains("missing:")).collect();
    for name in [
        "json_compact_with_optional_31_flat_records.json",
        "toon_default_with_optional_31_flat_records.toon",
        "yaml_with_mandatory_31_flat_records.yaml",
        "toon_safe_with_mandatory_31_flat_records.toon",
        "toon_safe_with_optional_31_flat_records.toon",
    ] {
        assert!(missing.iter().any(|l| l.contains(name)), "{name}: {said}");
    }
    assert_eq!(missing.len(), 5, "{said}");
    let rows = results(&root);
    let has = |r: &&Value| r["data_stats"]["tokens"]["o200k_base"].as_u64().is_some();
    assert!(
        rows.iter()
            .filter(|r| r["format"] == "yaml" && r["variant"] == "mandatory")
            .all(|r| !has(&r))
    );
    assert!(
        rows.iter()
            .filter(|r| r["format"] == "yaml" && r["variant"] == "optional")
            .all(|r| has(&r))
    );
}

/// A data file that is not what its name says is refused, naming it: exit 2, nothing written.
#[test]
fn a_data_file_bench_cannot_read_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("benchmark_sonnet_4_6");
    let results = model.join("results_flat_all_formats_and_variants_off/results");
    std::fs::create_dir_all(&results).unwrap();
    let shipped = seed("benchmark_sonnet_4_6");
    std::fs::copy(
        shipped.join(
            "results_flat_all_formats_and_variants_off/results/csv_flat_mandatory_31_validation.json",
        ),
        results.join("csv_flat_mandatory_31_validation.json"),
    )
    .unwrap();
    let data = model.join("data/csv");
    std::fs::create_dir_all(&data).unwrap();
    // Two records where the name says 31.
    let text =
        std::fs::read_to_string(shipped.join("data/csv/csv_with_mandatory_31_flat_records.csv"))
            .unwrap();
    let short: Vec<&str> = text.lines().take(3).collect();
    let bad = data.join("csv_with_mandatory_31_flat_records.csv");
    std::fs::write(&bad, short.join("\n")).unwrap();
    let root = tmp.path().join("data");
    let out = binary()
        .arg("import")
        .arg(&model)
        .args(["--from", "hoeltig", "--output-root"])
        .arg(&root)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("csv_with_mandatory_31_flat_records.csv") && err.contains("holds 2 records"),
        "{err}"
    );
    assert!(!root.join("benchmarks").exists() || crate::support::files_under(&root).is_empty());
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
