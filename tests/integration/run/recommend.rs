//! `bench recommend`'s rounds through the real runner with test doubles: a model that reads
//! every format alike gets the cheapest one recommended before the last round; one that is 15
//! points worse on the cheapest does not get it (and that format is said dropped once, not
//! after every later round); and a budget is never passed.

use crate::support::doubles::{Double, ids, plan};
use bench::formats::Format;
use bench::providers::{ModelConfig, Price};
use bench::recommend::{self, Recommendation, Settings};
use bench::runner::progress::Silent;
use bench::runner::{Model, Options, Stop};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

/// The rounds over csv, json_compact, json_pretty and yaml (flat, mandatory, 31 records) with a
/// double wrong on `wrong`, priced at `price` per million input and output tokens.
async fn rounds(
    root: &Path,
    wrong: &HashMap<&'static str, BTreeSet<String>>,
    max_rounds: u32,
    budget_usd: Option<f64>,
    price: Option<f64>,
) -> Recommendation {
    let p = plan(root, vec![31], 1);
    rounds_of(p, wrong, max_rounds, budget_usd, price).await
}

/// [`rounds`] over the formats of `p`.
async fn rounds_of(
    mut p: bench::runner::Plan,
    wrong: &HashMap<&'static str, BTreeSet<String>>,
    max_rounds: u32,
    budget_usd: Option<f64>,
    price: Option<f64>,
) -> Recommendation {
    let candidates = recommend::candidates(&p, Format::JsonCompact, &[]).unwrap();
    p.formats = candidates.iter().map(|(f, _)| *f).collect();
    assert_eq!(
        p.formats[0],
        Format::Csv,
        "csv is the cheapest: {candidates:?}"
    );
    let make = || {
        Ok(Model {
            config: ModelConfig {
                provider: "double".into(),
                model: "m".into(),
                price: price.map(|x| Price {
                    input: x,
                    output: x,
                    cache_read: None,
                    cache_write: None,
                    batch: None,
                }),
                ..ModelConfig::default()
            },
            provider: Box::new(Double::new("m", wrong.clone())),
        })
    };
    let options = Options::default;
    let s = Settings {
        margin_pp: 2.0,
        max_rounds,
        budget_usd,
        baseline: Format::JsonCompact,
        options: &options,
    };
    recommend::recommend(p, &make, &s, Arc::new(Silent), Arc::new(Stop::default()))
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_accuracy_everywhere_recommends_the_cheapest_before_the_last_round() {
    let tmp = tempfile::tempdir().unwrap();
    let r = rounds(tmp.path(), &HashMap::new(), 6, None, None).await;
    assert_eq!(r.format.as_deref(), Some("csv"), "{r:?}");
    assert!(r.rounds < 6, "stopped early: {}", r.rounds);
    assert!(r.rounds > 1, "one round of 124 pairs cannot show 2 points");
    assert!((r.alpha - 0.05 / 6.0).abs() < 1e-15);
    // Against json_compact, shown at the look's level by both halves of the rule.
    let c = &r.evidence[0];
    assert_eq!(c.baseline, "json_compact");
    assert!(c.ni_p_holm.unwrap() < r.alpha && c.delta_low_pp.unwrap() > -2.0);
    assert!(r.dropped.is_empty() && r.open.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cheapest_format_15_points_worse_is_not_recommended() {
    let tmp = tempfile::tempdir().unwrap();
    // 19 of 124 questions wrong in every run: 15.3 points.
    let wrong = HashMap::from([("csv", ids(1..=19))]);
    let r = rounds(tmp.path(), &wrong, 6, None, None).await;
    assert_eq!(r.dropped, [("csv".to_string(), 1)], "{r:?}");
    assert_ne!(r.format.as_deref(), Some("csv"));
    assert!(r.format.is_some(), "the next cheapest is decided: {r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_budget_is_never_passed() {
    let tmp = tempfile::tempdir().unwrap();
    // $1 per million tokens: a round of the candidates costs a few cents.
    let budget = 0.05;
    let r = rounds(tmp.path(), &HashMap::new(), 6, Some(budget), Some(1.0)).await;
    assert!(
        r.spent_usd > 0.0 && r.spent_usd <= budget,
        "{}",
        r.spent_usd
    );
    assert!(r.format.is_none(), "{r:?}");
    let (_, why) = r.open.unwrap();
    assert!(why.contains("stopped at the budget"), "{why}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_format_is_listed_once_though_later_rounds_see_it_again() {
    let tmp = tempfile::tempdir().unwrap();
    let mut p = plan(tmp.path(), vec![31], 1);
    // Candidates csv, toon_default and json_compact: csv is dropped after round 1; toon_default
    // then needs more rounds to be shown within 2 points of json_compact.
    p.formats = vec![Format::Csv, Format::JsonCompact, Format::ToonDefault];
    let wrong = HashMap::from([("csv", ids(1..=19))]);
    let r = rounds_of(p, &wrong, 6, None, None).await;
    assert!(r.rounds > 1, "{r:?}");
    assert_eq!(r.dropped, [("csv".to_string(), 1)], "{r:?}");
    assert_eq!(r.format.as_deref(), Some("toon_default"), "{r:?}");
}

/// `bench recommend` with the offline reference answerer says on its recommendation line that
/// it is a self-check, not a model's result.
#[test]
fn the_reference_answerers_recommendation_says_it_is_a_self_check() {
    let tmp = tempfile::tempdir().unwrap();
    let out = crate::support::bench(&tmp.path().join("cache"))
        .args(["recommend", "--provider", "reference", "--no-report"])
        .arg("--output-root")
        .arg(tmp.path().join("data"))
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("recommendation for reference") || l.starts_with("undecided"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.starts_with("recommendation for reference"), "{stdout}");
    assert!(
        line.contains(
            "a self-check of the renderings by the offline reference answerer, not a model's result"
        ),
        "{line}"
    );
    assert!(!stdout.contains("dropped after round"), "{stdout}");
    // csv and tsv hold the product records in the same o200k_base tokens: a tie, named.
    assert!(
        stdout.contains("\n  as few data tokens: `tsv` (a tie; `csv` is the first by name)\n"),
        "{stdout}"
    );
}
