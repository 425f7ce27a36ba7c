//! TeaLeaf's accuracy-benchmark rubric, reproduced number for number so that bench's analysis
//! tasks report a score comparable with TeaLeaf's published results.
//!
//! Reproduced from github.com/krishjag/tealeaf, `accuracy-benchmark/src/`:
//! `analysis/metrics.rs` (`analyze_response`, `detect_element`, `calculate_completeness`,
//! `calculate_relevance`, `analyze_coherence`, `verify_facts`, `score_actionability`,
//! `MetricWeights::default`, `composite_score_weighted`), `analysis/comparator.rs`
//! (`analyze_result` passes the output type's lowercase name; `ComparisonEngine::new` uses the
//! default weights), `tasks/mod.rs` and `tasks/loader.rs` (`ExpectedElement`, the JSON task
//! schema). TeaLeaf's `analysis/scoring.rs` (`ScoringRubric`) and a task's `grading_rubric`
//! text are loaded but never used to score, so they play no part here; neither does an
//! element's `required` flag.
//!
//! Each reply gets five scores in 0..=1 and a weighted composite:
//! - completeness: share of expected elements detected — by the element's regex when it has one,
//!   else by any of the first five words longer than three bytes of its description appearing
//!   (case-insensitive substring) in the reply;
//! - relevance: share of all such description words (no limit of five) found in the reply;
//! - coherence: 0.5, plus 0.2 × the share of seven Markdown markers present, plus 0.15 for three
//!   or more blank-line-separated parts, plus 0.15 for 100 to 2,000 words;
//! - factual: share of the elements that have a regex whose regex matches;
//! - actionability: for recommendation tasks, advice words found / 3 (at most 1); 1.0 otherwise.
//!
//! Known weakness: nothing is checked against the data ("factual" only asks whether some text
//! has the regex's shape, such as any decimal number). A reply that merely repeats the element
//! descriptions next to made-up numbers scores about 0.9 (see the tests); bench therefore also
//! reports the tasks suite's `facts`, which checks stated values against the truth.

use regex::Regex;
use serde::{Deserialize, Serialize};

/// One thing a task expects in an answer; field names and defaults as TeaLeaf's JSON loader.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct ExpectedElement {
    /// Free-form kind ("metric", "analysis"); TeaLeaf never scores it.
    pub element_type: String,
    /// What the answer should cover; its long words are the detection keywords.
    pub description: String,
    /// Mandatory in the file because TeaLeaf's serde struct has no default; never scored.
    pub required: bool,
    /// Regex (case-sensitive, searched anywhere in the reply) that detects the element instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation_pattern: Option<String>,
}

/// Kind of answer a task asks for; only `Recommendation` changes the score (actionability).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum OutputType {
    /// Numbers computed from the data.
    #[serde(alias = "aggregation")]
    Calculation,
    /// Findings about the data (TeaLeaf's default).
    #[default]
    #[serde(alias = "pattern", alias = "trend")]
    Analysis,
    /// Advice; the only type whose actionability is measured.
    #[serde(alias = "decision")]
    Recommendation,
    /// A digest of the data.
    #[serde(alias = "extraction")]
    Summary,
    /// A forecast from the data.
    #[serde(alias = "forecast")]
    Prediction,
}

impl OutputType {
    /// The name used in task files, results and TeaLeaf's `Display`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Calculation => "calculation",
            Self::Analysis => "analysis",
            Self::Recommendation => "recommendation",
            Self::Summary => "summary",
            Self::Prediction => "prediction",
        }
    }
}

/// How hard a task is; a label for grouping results, never part of the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum Complexity {
    /// One lookup or aggregate.
    #[serde(alias = "1")]
    Simple,
    /// A few steps (TeaLeaf's default).
    #[default]
    #[serde(alias = "2")]
    Moderate,
    /// Many steps or cross-record reasoning.
    #[serde(alias = "3")]
    Complex,
    /// TeaLeaf's level 4.
    #[serde(alias = "4")]
    Advanced,
    /// TeaLeaf's level 5.
    #[serde(alias = "5")]
    Expert,
}

impl Complexity {
    /// The name used in task files and results.
    pub fn name(self) -> &'static str {
        match self {
            Self::Simple => "simple",
            Self::Moderate => "moderate",
            Self::Complex => "complex",
            Self::Advanced => "advanced",
            Self::Expert => "expert",
        }
    }
}

/// TeaLeaf's five metrics for one reply and their weighted composite, each in 0..=1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rubric {
    /// Share of expected elements detected.
    pub completeness: f64,
    /// Share of description keywords found in the reply.
    pub relevance: f64,
    /// Markdown structure, paragraphs and length.
    pub coherence: f64,
    /// Share of regex-bearing elements whose regex matches ("factual_accuracy" in TeaLeaf).
    pub factual: f64,
    /// Advice language for recommendation tasks; 1.0 for other output types.
    pub actionability: f64,
    /// Weighted mean: 25 % completeness, relevance; 20 % coherence, factual; 10 % actionability.
    pub composite: f64,
}

/// TeaLeaf's default weights in its summation order, so the composite matches to the last bit
/// (their sum is 0.9999999999999999 in f64, and TeaLeaf divides by it).
const WEIGHTS: [f64; 5] = [0.25, 0.25, 0.20, 0.20, 0.10];

/// Markers whose presence counts toward coherence (metrics.rs `analyze_coherence`).
const STRUCTURE_MARKERS: [&str; 7] = ["##", "###", "**", "- ", "1.", "2.", "3."];

/// Advice words for actionability (metrics.rs `score_actionability`; not scoring.rs's list of 15).
const ADVICE_WORDS: [&str; 14] = [
    "recommend",
    "should",
    "suggest",
    "consider",
    "advise",
    "action",
    "implement",
    "improve",
    "optimize",
    "prioritize",
    "next step",
    "immediate",
    "critical",
    "important",
];

/// Names a validation pattern that does not compile, so the loader refuses it rather than score it.
pub fn check_patterns(elements: &[ExpectedElement]) -> Result<(), String> {
    for element in elements {
        if let Some(pattern) = &element.validation_pattern {
            Regex::new(pattern).map_err(|err| {
                format!(
                    "expected element {:?}: invalid validation_pattern {pattern:?}: {err}",
                    element.description
                )
            })?;
        }
    }
    Ok(())
}

/// Scores `reply` exactly as TeaLeaf's `analyze_response` plus its default-weight composite.
pub fn score(reply: &str, elements: &[ExpectedElement], output_type: OutputType) -> Rubric {
    let lower = reply.to_lowercase();
    // Compiled once per element; `Some(Err)` keeps TeaLeaf's split treatment of a broken regex.
    let patterns: Vec<Option<Result<Regex, regex::Error>>> = elements
        .iter()
        .map(|e| e.validation_pattern.as_deref().map(Regex::new))
        .collect();

    let completeness = share(elements.len(), || {
        elements
            .iter()
            .zip(&patterns)
            .filter(|(element, pattern)| match pattern {
                Some(Ok(re)) => re.is_match(reply),
                // No regex, or one that does not compile: TeaLeaf falls back to keywords.
                _ => keywords(&element.description)
                    .take(5)
                    .any(|kw| lower.contains(&kw.to_lowercase())),
            })
            .count()
    });
    let relevance = relevance(&lower, elements);
    let coherence = coherence(reply);
    let with_pattern = patterns.iter().flatten().count();
    let factual = share(with_pattern, || {
        // A regex that does not compile counts as present but unmatched here.
        patterns
            .iter()
            .flatten()
            .filter(|p| p.as_ref().is_ok_and(|re| re.is_match(reply)))
            .count()
    });
    let actionability = match output_type {
        OutputType::Recommendation => {
            let found = ADVICE_WORDS.iter().filter(|w| lower.contains(*w)).count();
            (found as f64 / 3.0).min(1.0)
        }
        _ => 1.0,
    };

    let metrics = [completeness, relevance, coherence, factual, actionability];
    let weighted: f64 = metrics.iter().zip(WEIGHTS).map(|(m, w)| m * w).sum();
    let total: f64 = WEIGHTS.iter().sum();
    Rubric {
        completeness,
        relevance,
        coherence,
        factual,
        actionability,
        composite: weighted / total,
    }
}

/// What detects `element` in `reply`, as completeness counts it: the regex's first match,
/// else the first of the description's first five keywords found; None when not detected.
pub fn detected(reply: &str, element: &ExpectedElement) -> Option<String> {
    if let Some(Ok(re)) = element.validation_pattern.as_deref().map(Regex::new) {
        return re.find(reply).map(|m| m.as_str().to_string());
    }
    // No regex, or one that does not compile: TeaLeaf falls back to keywords.
    let lower = reply.to_lowercase();
    keywords(&element.description)
        .take(5)
        .find(|kw| lower.contains(&kw.to_lowercase()))
        .map(str::to_string)
}

/// TeaLeaf's description keywords: whitespace-separated words longer than three bytes, kept with
/// their punctuation and case (matching lower-cases them).
fn keywords(description: &str) -> impl Iterator<Item = &str> {
    description.split_whitespace().filter(|w| w.len() > 3)
}

/// `hits() / total`, or 1.0 when there is nothing to count, as every TeaLeaf ratio does.
fn share(total: usize, hits: impl FnOnce() -> usize) -> f64 {
    if total == 0 {
        1.0
    } else {
        hits() as f64 / total as f64
    }
}

/// Description keywords of all elements found in the lower-cased reply, over all keywords.
fn relevance(lower: &str, elements: &[ExpectedElement]) -> f64 {
    if elements.is_empty() {
        return 1.0;
    }
    let (found, total) = elements.iter().flat_map(|e| keywords(&e.description)).fold(
        (0, 0),
        |(found, total), kw| {
            let hit = lower.contains(&kw.to_lowercase());
            (found + usize::from(hit), total + 1)
        },
    );
    share(total, || found)
}

/// Structure markers, paragraph count and length, in TeaLeaf's order of additions.
fn coherence(reply: &str) -> f64 {
    let markers = STRUCTURE_MARKERS
        .iter()
        .filter(|m| reply.contains(*m))
        .count();
    let mut score = 0.5;
    score += (markers as f64 / STRUCTURE_MARKERS.len() as f64) * 0.2;
    if reply.split("\n\n").count() >= 3 {
        score += 0.15;
    }
    if (100..=2000).contains(&reply.split_whitespace().count()) {
        score += 0.15;
    }
    f64::min(score, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(description: &str, pattern: Option<&str>) -> ExpectedElement {
        ExpectedElement {
            element_type: "metric".into(),
            description: description.into(),
            required: true,
            validation_pattern: pattern.map(str::to_owned),
        }
    }

    fn close(actual: f64, expected: f64) {
        assert!((actual - expected).abs() < 1e-12, "{actual} != {expected}");
    }

    #[test]
    fn weights_sum_just_below_one_as_in_tealeaf() {
        // 0.25 + 0.25 + 0.2 + 0.2 + 0.1 in f64, left to right.
        assert_eq!(WEIGHTS.iter().sum::<f64>(), 0.9999999999999999);
    }

    #[test]
    fn empty_reply_without_elements() {
        // No elements: completeness, relevance, factual = 1. Coherence = 0.5 base only ("" has
        // one part, 0 words). Actionability 1 (analysis). Composite (0.25+0.25+0.1+0.2+0.1)/Σw.
        let r = score("", &[], OutputType::Analysis);
        assert_eq!((r.completeness, r.relevance, r.factual), (1.0, 1.0, 1.0));
        close(r.coherence, 0.5);
        close(r.actionability, 1.0);
        close(r.composite, 0.9);
    }

    #[test]
    fn coherence_counts_markers_parts_and_length() {
        // Markers "##" and "- " (2 of 7): 0.5 + 2/7 × 0.2; three "\n\n"-parts: + 0.15; 7 words.
        close(
            coherence("## Summary\n\n- Revenue rose.\n\nDone"),
            0.5 + 2.0 / 7.0 * 0.2 + 0.15,
        );
        // "3." inside a decimal counts as the "3." marker; 100 to 2,000 words add 0.15.
        let marker = 0.5 + 1.0 / 7.0 * 0.2;
        for (words, bonus) in [(99, 0.0), (100, 0.15), (2000, 0.15), (2001, 0.0)] {
            let reply = format!("{}3.5", "word ".repeat(words - 1));
            close(coherence(&reply), marker + bonus);
        }
    }

    #[test]
    fn detection_uses_first_five_long_words_relevance_uses_all() {
        // Long words: Total gross annual recurring subscription revenue (6). Detection looks at
        // the first five only, so a reply saying just "revenue" is not complete, while relevance
        // counts 1 of 6. No pattern: factual 1. Coherence 0.5 (no markers, 1 part, 2 words).
        let e = [element(
            "Total gross annual recurring subscription revenue",
            None,
        )];
        let r = score("Revenue: 5", &e, OutputType::Summary);
        close(r.completeness, 0.0);
        close(r.relevance, 1.0 / 6.0);
        close(r.factual, 1.0);
        close(r.coherence, 0.5);
        // 0 + 0.25/6 + 0.5×0.2 + 0.2 + 0.1, over Σw.
        close(
            r.composite,
            (0.25 / 6.0 + 0.1 + 0.2 + 0.1) / 0.9999999999999999,
        );
    }

    #[test]
    fn patterns_are_case_sensitive_and_decide_detection() {
        // The pattern decides detection even though the keywords "Total"/"revenue" are present,
        // and it is matched case-sensitively against the reply as written ("west" ≠ "West").
        let e = [
            element("Total revenue", Some(r"\$[\d,]+")),
            element("Top item", Some("west")),
        ];
        let r = score(
            "Total revenue is unknown; West leads.",
            &e,
            OutputType::Calculation,
        );
        close(r.completeness, 0.0);
        close(r.factual, 0.0);
        // Long words: Total, revenue, item ("Top" is 3 bytes): total and revenue found.
        close(r.relevance, 2.0 / 3.0);
    }

    #[test]
    fn broken_pattern_falls_back_to_keywords_but_fails_factual() {
        let e = [element("Total revenue", Some("(unclosed"))];
        assert!(check_patterns(&e).unwrap_err().contains("(unclosed"));
        let r = score("total revenue: 10", &e, OutputType::Analysis);
        close(r.completeness, 1.0);
        close(r.factual, 0.0);
        assert!(check_patterns(&[element("x", Some(r"\d+"))]).is_ok());
    }

    #[test]
    fn actionability_only_for_recommendations() {
        // "recommend", "should" found (and "important" absent): 2/3.
        let reply = "We recommend that you should hire.";
        close(
            score(reply, &[], OutputType::Recommendation).actionability,
            2.0 / 3.0,
        );
        close(
            score(reply, &[], OutputType::Calculation).actionability,
            1.0,
        );
        let more = "Recommend; consider it; important; should.";
        close(
            score(more, &[], OutputType::Recommendation).actionability,
            1.0,
        );
    }

    #[test]
    fn canned_reply_listing_descriptions_scores_high() {
        // TeaLeaf's FIN-001 elements; the reply repeats them with invented numbers.
        let e = [
            element("Current ratio per company", Some(r"\d+\.\d+")),
            element("Net profit margin per company", Some(r"\d+\.?\d*%")),
            element("Operating cash flow extraction", None),
            element("Cross-company liquidity ranking", None),
            element("Cross-company profitability ranking", None),
        ];
        let reply = "## Results\n\n- Current ratio per company: 9.99\n\
                     - Net profit margin per company: 42%\n\
                     - Operating cash flow extraction: 987.65\n\
                     - Cross-company liquidity ranking: A, B, C\n\
                     - Cross-company profitability ranking: C, B, A";
        let r = score(reply, &e, OutputType::Calculation);
        // Both patterns match, the three others find keywords: completeness 5/5, factual 2/2.
        close(r.completeness, 1.0);
        close(r.factual, 1.0);
        // 3 + 3 + 4 + 3 + 3 = 16 long words, all present.
        close(r.relevance, 1.0);
        // Markers "##" and "- " only; two parts; ~40 words: 0.5 + 2/7 × 0.2.
        close(r.coherence, 0.5 + 2.0 / 7.0 * 0.2);
        // (0.25 + 0.25 + 0.2 × 0.55714… + 0.2 + 0.1) / Σw ≈ 0.9114.
        close(
            r.composite,
            (0.8 + 0.2 * (0.5 + 0.4 / 7.0)) / 0.9999999999999999,
        );
        assert!(r.composite > 0.9);
    }

    #[test]
    fn enums_parse_task_file_names() {
        let t: OutputType = serde_json::from_str("\"recommendation\"").unwrap();
        assert_eq!(
            (t, t.name()),
            (OutputType::Recommendation, "recommendation")
        );
        let c: Complexity = serde_json::from_str("\"complex\"").unwrap();
        assert_eq!(c.name(), "complex");
        // The names and aliases TeaLeaf's loaders accept, read as TeaLeaf reads them.
        for (text, name) in [
            ("prediction", "prediction"),
            ("forecast", "prediction"),
            ("extraction", "summary"),
            ("aggregation", "calculation"),
            ("pattern", "analysis"),
            ("trend", "analysis"),
            ("decision", "recommendation"),
        ] {
            let t: OutputType = serde_json::from_value(serde_json::json!(text)).unwrap();
            assert_eq!(t.name(), name, "{text}");
        }
        for (text, name) in [
            ("advanced", "advanced"),
            ("expert", "expert"),
            ("4", "advanced"),
            ("1", "simple"),
        ] {
            let c: Complexity = serde_json::from_value(serde_json::json!(text)).unwrap();
            assert_eq!(c.name(), name, "{text}");
        }
        assert!(serde_json::from_str::<Complexity>("\"hard\"").is_err());
        assert_eq!(OutputType::default(), OutputType::Analysis);
        assert_eq!(Complexity::default(), Complexity::Moderate);
        let e: ExpectedElement =
            serde_json::from_str(r#"{"element_type":"m","description":"d","required":false}"#)
                .unwrap();
        assert_eq!(e.validation_pattern, None);
        // TeaLeaf's struct has no default for `required`: a file without it is refused.
        assert!(
            serde_json::from_str::<ExpectedElement>(r#"{"element_type":"m","description":"d"}"#)
                .is_err()
        );
    }
}
