//! The verdict's statistics end to end: a test-double provider that answers like the reference
//! except on known questions of known formats, run through the real runner; the paired test
//! must find exactly the planted differences, and no others.

use crate::support::doubles::{Double, find, ids, model, plan};
use crate::support::run_plan;
use bench::report::data::gather::gather;
use bench::runner::Options;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// One run, two test doubles: `planted` is wrong on q001–q015 (retrieval) in csv only;
/// `holm` has known discordant pairs against json_compact in three formats.
async fn run(root: &Path, records: Vec<u32>) -> std::path::PathBuf {
    let plan = plan(root, records, 1);
    // json_compact is wrong on q050–q054. Against it: csv (b, c) = (0, 10); yaml (2, 8),
    // right on q050–q051 only; json_pretty (5, 5).
    let base_wrong = ids(50..=54);
    let holm = Double {
        fail_format: "",
        fail_call: 0,
        calls: Default::default(),
        model: "holm".into(),
        wrong: HashMap::from([
            ("json_compact", base_wrong.clone()),
            ("csv", ids(1..=10).union(&base_wrong).cloned().collect()),
            ("yaml", ids(1..=8).union(&ids(52..=54)).cloned().collect()),
            ("json_pretty", ids(1..=5)),
        ]),
    };
    let planted = Double {
        fail_format: "",
        fail_call: 0,
        calls: Default::default(),
        model: "planted".into(),
        wrong: HashMap::from([("csv", ids(1..=15))]),
    };
    let outcome = run_plan(&plan, vec![model(planted), model(holm)], Options::default()).await;
    assert_eq!(outcome.missing, 0);
    outcome.jsonl.parent().unwrap().to_path_buf()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_paired_test_finds_exactly_the_planted_difference() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = run(tmp.path(), vec![31]).await;
    let d = gather(&dir, "json_compact").unwrap();

    // Planted: csv wrong on 15 retrieval questions, json_pretty and yaml identical to baseline.
    let csv = find(&d.comparisons, "planted", "csv");
    assert_eq!(csv.n_pairs, 124);
    assert_eq!(
        (csv.discordant_format_only, csv.discordant_baseline_only),
        (0, 15)
    );
    assert!((csv.p_value - 2.0 * 0.5f64.powi(15)).abs() < 1e-15);
    assert!(csv.significant);
    let want = -100.0 * 0.375 * 15.0 / 55.0;
    assert!((csv.delta_weighted_pp.unwrap() - want).abs() < 1e-9);
    assert!((csv.delta_accuracy_pp.unwrap() + 100.0 * 15.0 / 124.0).abs() < 1e-9);
    let (lo, hi) = (csv.delta_low_pp.unwrap(), csv.delta_high_pp.unwrap());
    assert!(
        lo < want && want < hi && hi < 0.0,
        "[{lo}, {hi}] around {want}"
    );
    for f in ["json_pretty", "yaml"] {
        let c = find(&d.comparisons, "planted", f);
        assert_eq!(
            (c.discordant_format_only, c.discordant_baseline_only),
            (0, 0)
        );
        assert_eq!((c.p_value, c.p_holm, c.significant), (1.0, 1.0, false));
        assert_eq!(c.runs_needed, None, "no difference to detect");
    }

    // Holm on a known set: raw p 0.001953125, 0.109375, 1 → adjusted ×3, ×2, running max.
    for (f, counts, p, holm) in [
        ("csv", (0, 10), 0.001953125, 0.005859375),
        ("yaml", (2, 8), 0.109375, 0.21875),
        ("json_pretty", (5, 5), 1.0, 1.0),
    ] {
        let c = find(&d.comparisons, "holm", f);
        assert_eq!(
            (c.discordant_format_only, c.discordant_baseline_only),
            counts,
            "{f}"
        );
        assert!((c.p_value - p).abs() < 1e-12, "{f}: p {}", c.p_value);
        assert!((c.p_holm - holm).abs() < 1e-12, "{f}: Holm {}", c.p_holm);
        assert_eq!(c.significant, holm < 0.05, "{f}");
    }
    // Not significant with a difference: the report says how many runs would tell.
    let yaml = find(&d.comparisons, "holm", "yaml");
    assert!(yaml.runs_needed.unwrap() > 1);

    // The verdict compares against the most accurate format of each family.
    let best: BTreeSet<&str> = d.versus_best.iter().map(|c| c.baseline.as_str()).collect();
    assert!(best.contains("json_compact"), "{best:?}");

    // Seeded bootstrap: the same run gives the same intervals.
    let again = gather(&dir, "json_compact").unwrap();
    for (a, b) in d.accuracy.iter().zip(&again.accuracy) {
        assert_eq!(
            (a.weighted_low, a.weighted_high),
            (b.weighted_low, b.weighted_high)
        );
        assert!(a.weighted_low.unwrap() <= a.weighted_accuracy.unwrap() + 1e-12);
    }
    for (a, b) in d.comparisons.iter().zip(&again.comparisons) {
        assert_eq!(
            (a.delta_low_pp, a.delta_high_pp),
            (b.delta_low_pp, b.delta_high_pp)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_report_renders_for_a_multi_provider_size_sweep() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = run(tmp.path(), vec![10, 40]).await;
    let w = bench::report::write_report(&dir, "json_compact").unwrap();
    for f in [
        "BENCHMARK_REPORT.md",
        "report.html",
        "metrics.json",
        "analytics_results.json",
        "charts/accuracy_vs_records_double_planted.png",
        "charts/accuracy_vs_tokens_double_holm_40_records.svg",
        "charts/tokens_per_format.png",
    ] {
        assert!(
            w.files.iter().any(|x| x == f),
            "{f} missing from {:?}",
            w.files
        );
        assert!(
            w.dir.join(f).metadata().unwrap().len() > 100,
            "{f} is empty"
        );
    }
    let md = std::fs::read_to_string(w.dir.join("BENCHMARK_REPORT.md")).unwrap();
    assert!(md.find("## Verdict").unwrap() < md.find("## Ranking").unwrap());
    assert!(md.contains("## Scaling with record count"));
    assert!(
        md.contains("`csv` got 12.1 pp fewer of the paired answers right than `json_compact`"),
        "the planted difference is stated in the tested quantity"
    );
    let results: Value =
        serde_json::from_slice(&std::fs::read(w.dir.join("analytics_results.json")).unwrap())
            .unwrap();
    for key in [
        "provider",
        "model",
        "format",
        "structure",
        "variant",
        "records",
        "primer",
        "n_answers",
        "accuracy",
        "wilson_low",
        "wilson_high",
        "weighted_accuracy",
        "weighted_low",
        "weighted_high",
        "runs",
        "weighted_min",
        "weighted_max",
        "weighted_stdev",
    ] {
        assert!(
            results["accuracy"][0].get(key).is_some(),
            "accuracy lacks {key}"
        );
    }
    for key in [
        "provider",
        "model",
        "structure",
        "variant",
        "records",
        "primer",
        "format",
        "baseline",
        "delta_weighted_pp",
        "delta_low_pp",
        "delta_high_pp",
        "delta_accuracy_pp",
        "n_pairs",
        "discordant_format_only",
        "discordant_baseline_only",
        "p_value",
        "p_holm",
        "significant",
        "token_ratio",
    ] {
        assert!(
            results["comparisons"][0].get(key).is_some(),
            "comparisons lack {key}"
        );
    }
    // Ranks (from SQL) are 1 + the rows of the same family strictly better, ties sharing one.
    let rows = results["accuracy"].as_array().unwrap();
    let family = |r: &Value| {
        [
            "provider",
            "model",
            "structure",
            "variant",
            "records",
            "primer",
        ]
        .map(|k| r[k].to_string())
    };
    let mut ties = 0;
    for (key, rank) in [
        ("weighted_accuracy", "rank_weighted"),
        ("accuracy", "rank_accuracy"),
        ("efficiency", "rank_efficiency"),
    ] {
        for r in rows {
            let v = r[key].as_f64().unwrap();
            let peers = rows.iter().filter(|o| family(o) == family(r));
            let better = peers
                .clone()
                .filter(|o| o[key].as_f64().unwrap() > v)
                .count();
            ties += peers.filter(|o| o[key].as_f64().unwrap() == v).count() - 1;
            assert_eq!(r[rank], better as u64 + 1, "{rank} of {r}");
        }
    }
    assert!(
        ties > 0,
        "the reference's 100 % rows tie: the check covers shared ranks"
    );
    for t in results["token_efficiency"].as_array().unwrap() {
        let shape =
            |o: &Value| ["structure", "variant", "records", "tokenizer"].map(|k| o[k].to_string());
        let fewer = results["token_efficiency"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| shape(o) == shape(t))
            .filter(|o| o["tokens_per_value"].as_f64() < t["tokens_per_value"].as_f64())
            .count();
        assert_eq!(t["rank_tokens_per_value"], fewer as u64 + 1, "{t}");
    }
    // Fractions in 0..1.
    for r in results["accuracy"].as_array().unwrap() {
        let a = r["weighted_accuracy"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&a));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn intervals_contain_their_points_when_a_baseline_call_failed() {
    // csv wrong on q001–q015 in every run; the baseline's second call fails, so that run is
    // incomplete: weighted accuracy, pairs and Δ must all use runs 1 and 3 only.
    let tmp = tempfile::tempdir().unwrap();
    let mut wrong = HashMap::from([("csv", ids(1..=15))]);
    // Make the baseline imperfect too, so its interval is not degenerate.
    wrong.insert("json_compact", ids(60..=64));
    let flaky = Double {
        model: "flaky".into(),
        wrong,
        fail_format: "json_compact",
        fail_call: 2,
        calls: Default::default(),
    };
    let outcome = run_plan(
        &plan(tmp.path(), vec![31], 3),
        vec![model(flaky)],
        Options::default(),
    )
    .await;
    let d = gather(outcome.jsonl.parent().unwrap(), "json_compact").unwrap();
    let base = d
        .accuracy
        .iter()
        .find(|r| r.format == "json_compact")
        .unwrap();
    assert_eq!((base.runs, base.failed_calls), (2, 1));
    for r in &d.accuracy {
        let (lo, w, hi) = (
            r.weighted_low.unwrap(),
            r.weighted_accuracy.unwrap(),
            r.weighted_high.unwrap(),
        );
        assert!(
            lo <= w + 1e-12 && w <= hi + 1e-12,
            "{}: {lo} {w} {hi}",
            r.format
        );
    }
    let csv = find(&d.comparisons, "flaky", "csv");
    assert_eq!(
        (csv.runs, csv.n_pairs),
        (2, 248),
        "pairs from the two complete runs"
    );
    assert_eq!(
        (csv.discordant_format_only, csv.discordant_baseline_only),
        (2 * 5, 2 * 15)
    );
    let (lo, w, hi) = (
        csv.delta_low_pp.unwrap(),
        csv.delta_weighted_pp.unwrap(),
        csv.delta_high_pp.unwrap(),
    );
    assert!(lo <= w && w <= hi, "[{lo}, {hi}] around {w}");
    // q001–q015 are retrieval (55 questions, weight 0.375), q060–q064 structure (27, 0.29167).
    let want = 100.0 * (-0.375 * 15.0 / 55.0 + 0.29167 * 5.0 / 27.0);
    assert!((w - want).abs() < 1e-9, "{w} vs {want}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_that_gets_nothing_right_is_not_crowned() {
    let tmp = tempfile::tempdir().unwrap();
    let all = ids(1..=124);
    let hopeless = Double {
        model: "hopeless".into(),
        wrong: ["csv", "json_compact", "json_pretty", "yaml"]
            .into_iter()
            .map(|f| (f, all.clone()))
            .collect(),
        fail_format: "",
        fail_call: 0,
        calls: Default::default(),
    };
    let outcome = run_plan(
        &plan(tmp.path(), vec![31], 1),
        vec![model(hopeless)],
        Options::default(),
    )
    .await;
    let w = bench::report::write_report(outcome.jsonl.parent().unwrap(), "json_compact").unwrap();
    let md = std::fs::read_to_string(w.dir.join("BENCHMARK_REPORT.md")).unwrap();
    assert!(
        md.contains("| none: no format got any answer right |"),
        "{md:.1500}"
    );
    assert!(md.contains("no format got a single answer right, so this run cannot rank formats"));
    assert!(
        !md.contains("of the paired answers right than"),
        "no difference claimed"
    );
    // Issue 54: said once at the top, nothing recommended, no "check the key" of 124 questions.
    let top = md
        .find("**Every answer was wrong.**")
        .expect("said at the top");
    assert!(top < md.find("\n## ").unwrap(), "{md:.1500}");
    assert_eq!(md.matches("Every answer was wrong").count(), 1);
    assert!(
        md.contains("| none: no format got any answer right | none | none |"),
        "{md:.3000}"
    );
    assert!(
        !md.contains("use csv") && !md.contains("**`csv`**"),
        "{md:.3000}"
    );
    assert!(!md.contains("Check the key"), "{md:.3000}");
    assert!(
        !md.contains("there is no format to recommend"),
        "{md:.3000}"
    );
}
