//! The normalisation policy and the wrong-answer taxonomy on the real 124 questions of the
//! default dataset: the right value written the way people write it passes (with the
//! normalisations recorded), and near misses fail with the right kind.

use bench::dataset::{self, DEFAULT_RECORDS, DEFAULT_SEED, Record, Variant};
use bench::grading::{DataIndex, Failure, Metric, Norm, grade, summarize};
use bench::questions::{self, Query, Question, Validation};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

fn asked(v: Variant) -> (Vec<Record>, Vec<Question>) {
    let ds = dataset::generate(DEFAULT_RECORDS, DEFAULT_SEED);
    let records = ds.records(v).into_owned();
    let qs = questions::generate(&records, DEFAULT_SEED);
    (records, qs)
}

/// `x` with `decimals` digits and comma thousands separators.
fn commas(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    let (int, frac) = s
        .split_once('.')
        .map_or((s.as_str(), None), |(i, f)| (i, Some(f)));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    frac.map_or(out.clone(), |f| format!("{out}.{f}"))
}

fn field(q: &Question) -> &str {
    match &q.query {
        Query::Get { field, .. } | Query::Aggregate { field, .. } => field,
        Query::IdAt { .. } | Query::NextId { .. } => "id",
        _ => "",
    }
}

/// The right number as a person writes it.
fn human_number(q: &Question, x: f64, i: usize) -> Value {
    let tolerance = match q.validation {
        Validation::Numeric { tolerance } => tolerance,
        _ => 0.0,
    };
    let decimals = if tolerance >= 0.01 || (x * 100.0).fract() == 0.0 && x.fract() != 0.0 {
        2
    } else if x.fract() == 0.0 {
        0
    } else {
        6
    };
    let n = commas(x, decimals);
    let text = match (field(q), i % 3) {
        ("price", 0) => format!("${n}"),
        ("price", 1) => format!("{n} USD"),
        ("price", _) => format!("€{n}"),
        ("stock_quantity" | "min_stock_threshold" | "max_stock_threshold", _) => {
            format!("{n} units")
        }
        ("lead_time_days", _) => format!("{n} days"),
        ("warranty_months", _) => format!("{n} months"),
        ("discount_percent", 0) => format!("{n}%"),
        ("discount_percent", _) => format!("{n} percent"),
        ("rating", _) => format!("{n} stars"),
        (_, 0) => format!("{n} products"),
        (_, 1) => format!("'{n}'"),
        (_, _) => n,
    };
    json!(text)
}

/// The right list as a person writes it.
fn human_list(items: &[Value], i: usize) -> Value {
    let items: Vec<String> = items
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    if items.is_empty() {
        return json!("none");
    }
    match i % 5 {
        0 => json!(items.join("; ")),
        1 => json!(items.join(" | ")),
        2 => json!(
            items
                .iter()
                .map(|s| format!("- {s}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
        3 if items.len() > 1 => json!(format!(
            "{} and {}",
            items[..items.len() - 1].join(", "),
            items[items.len() - 1]
        )),
        _ => json!(items.iter().map(|s| format!("'{s}'")).collect::<Vec<_>>()),
    }
}

/// The right value of `q`, written the way people write it (the `i`-th variation).
fn human(q: &Question, i: usize) -> Value {
    match (&q.expected, &q.validation) {
        (Value::Array(items), _) => human_list(items, i),
        (Value::Number(n), _) => human_number(q, n.as_f64().unwrap(), i),
        (Value::Bool(b), _) => match (b, i % 2) {
            (true, 0) => json!("Yes"),
            (false, 0) => json!("No"),
            (b, _) => json!(b.to_string().to_uppercase()),
        },
        (Value::Null, _) => [json!("N/A"), json!("none"), Value::Null, json!("")][i % 4].clone(),
        (Value::String(s), Validation::Fuzzy) => json!(s.to_lowercase().trim_end_matches('.')),
        (Value::String(s), _) if field(q).ends_with("_at") => {
            json!(s.replace('T', " ").trim_end_matches('Z'))
        }
        (Value::String(s), _) => match i % 4 {
            0 => json!(format!("'{s}'")),
            1 if !s.ends_with('.') => json!(format!("{s}.")),
            2 => json!(s.to_uppercase()),
            _ => json!(format!("“{s}”")),
        },
        (other, _) => other.clone(),
    }
}

fn names(m: &Metric) -> Vec<&'static str> {
    m.normalization.iter().map(|n| n.name()).collect()
}

#[test]
fn the_right_value_written_as_people_write_it_always_passes() {
    let mut seen: BTreeSet<Norm> = BTreeSet::new();
    for v in Variant::ALL {
        let (records, qs) = asked(v);
        let data = DataIndex::new(records);
        let answers: Map<String, Value> = qs
            .iter()
            .enumerate()
            .map(|(i, q)| (q.id.clone(), human(q, i)))
            .collect();
        let metrics = grade(&qs, Some(&answers), &data, false);
        for (m, q) in metrics.iter().zip(&qs) {
            assert_eq!(
                m.passed, 1,
                "{v} {}: {:?} for {} ({:?})",
                q.text, answers[&q.id], q.expected, m.reason
            );
            assert!(m.failure.is_none() && m.off_by.is_none());
            let plain = answers[&q.id] == q.expected;
            assert_eq!(
                m.normalization.is_empty(),
                plain || q.validation == Validation::Fuzzy,
                "{}: {:?} recorded {:?}",
                q.text,
                answers[&q.id],
                names(m)
            );
        }
        assert_eq!(summarize(&metrics).weighted_accuracy, 1.0);
        seen.extend(metrics.iter().flat_map(|m| m.normalization.iter().copied()));
        let of = |id: &str| names(metrics.iter().find(|m| m.metric == id).unwrap());
        let units = qs
            .iter()
            .find(|q| {
                answers[&q.id]
                    .as_str()
                    .is_some_and(|a| a.ends_with(" units"))
            })
            .unwrap();
        assert!(of(&units.id).contains(&"unit"), "{:?}", of(&units.id));
    }
    // Between them, the variations above need every normalisation of the policy.
    let missing: Vec<_> = Norm::ALL.iter().filter(|n| !seen.contains(n)).collect();
    assert!(missing.is_empty(), "never needed: {missing:?}");
}

/// The grade of one answer to one question.
fn grade_one(data: &DataIndex, q: &Question, answer: Value) -> Metric {
    let answers: Map<String, Value> = [(q.id.clone(), answer)].into_iter().collect();
    grade(std::slice::from_ref(q), Some(&answers), data, false).remove(0)
}

fn find(qs: &[Question], pred: impl Fn(&Question) -> bool) -> &Question {
    qs.iter().find(|q| pred(q)).expect("such a question")
}

#[test]
fn near_misses_fail_with_their_kind() {
    let (records, qs) = asked(Variant::Mandatory);
    let data = DataIndex::new(records.clone());
    let id_of = |i: usize| records[i]["id"].as_str().unwrap().to_string();
    let index_of = |id: &str| records.iter().position(|r| r["id"] == id).unwrap();
    let mut covered: BTreeSet<&'static str> = BTreeSet::new();
    let mut check = |q: &Question, answer: Value, want: Failure| {
        let m = grade_one(&data, q, answer.clone());
        assert_eq!(m.passed, 0, "{}: {answer} must fail", q.text);
        assert!(m.normalization.is_empty());
        let got = m.failure.expect("a failed answer has a kind");
        assert_eq!(got, want, "{}: {answer} (expected {})", q.text, q.expected);
        covered.insert(want.name());
        m
    };

    // Retrieval of a text field: another record's value, another field, invented, a sentence.
    let name_q = find(
        &qs,
        |q| matches!(&q.query, Query::Get { field, .. } if field == "name"),
    );
    let Query::Get { id, .. } = &name_q.query else {
        unreachable!()
    };
    let at = index_of(id);
    let other = records
        .iter()
        .find(|r| r["name"] != name_q.expected)
        .unwrap();
    check(name_q, other["name"].clone(), Failure::WrongRecord);
    check(name_q, records[at]["category"].clone(), Failure::WrongField);
    check(name_q, json!("Titanium Spaceship"), Failure::Hallucinated);
    let sentence = format!("The name is {}.", name_q.expected.as_str().unwrap());
    check(name_q, json!(sentence), Failure::FormatMismatch);

    // Retrieval of a number: off by n, another field of the record, "10 or 12".
    let stock_q = find(
        &qs,
        |q| matches!(&q.query, Query::Get { field, .. } if field == "price"),
    );
    let want = stock_q.expected.as_f64().unwrap();
    let m = check(stock_q, json!(want + 0.01), Failure::OffByN);
    assert!((m.off_by.unwrap() - 0.01).abs() < 1e-9, "{:?}", m.off_by);
    let Query::Get { id, .. } = &stock_q.query else {
        unreachable!()
    };
    let threshold = records[index_of(id)]["max_stock_threshold"].clone();
    check(stock_q, threshold, Failure::WrongField);
    check(
        stock_q,
        json!(format!("about ${want}")),
        Failure::FormatMismatch,
    );

    // Counts: off by n, a hedge, "10 thousand", a sentence.
    let count_q = find(&qs, |q| q.query == Query::CountRecords);
    let m = check(count_q, json!(33), Failure::OffByN);
    assert_eq!(m.off_by, Some(2.0));
    check(count_q, json!("31 or 32"), Failure::WrongValue);
    let m = check(count_q, json!("31 thousand"), Failure::OffByN);
    assert_eq!(m.off_by, Some(30_969.0));
    check(
        count_q,
        json!("There are 31 products in the list."),
        Failure::FormatMismatch,
    );

    // Positions: the neighbour's id, an id that only looks right, an invented id.
    let first_q = find(&qs, |q| {
        q.query
            == Query::IdAt {
                index: 0,
                key: None,
            }
    });
    assert_eq!(first_q.expected, json!("PROD-000001"));
    check(first_q, json!("PROD-000010"), Failure::WrongRecord);
    check(first_q, json!(id_of(1)), Failure::WrongRecord);
    check(first_q, json!("PROD 000001"), Failure::FormatMismatch);
    check(first_q, json!("PROD-999999"), Failure::Hallucinated);

    // Booleans and currencies.
    let active_q = find(
        &qs,
        |q| matches!(&q.query, Query::Get { field, .. } if field == "is_active"),
    );
    let b = active_q.expected.as_bool().unwrap();
    check(
        active_q,
        json!(if b { "No" } else { "Yes" }),
        Failure::WrongRecord,
    );
    check(
        active_q,
        json!(if b { 1 } else { 0 }),
        Failure::FormatMismatch,
    );

    // Lists: one item short, a made-up item, the wrong field's values.
    let cats_q = find(
        &qs,
        |q| matches!(&q.query, Query::Distinct { field } if field == "category"),
    );
    let cats: Vec<String> = cats_q
        .expected
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    let m = check(cats_q, json!(cats[1..].join("; ")), Failure::PartialSet);
    assert!(m.score > 0.5 && m.score < 1.0);
    let mut invented = cats.clone();
    invented.push("Spaceships".into());
    check(cats_q, json!(invented), Failure::Hallucinated);
    check(cats_q, json!(["USD", "EUR"]), Failure::WrongValue);
    check(cats_q, json!(cats.join(" / ")), Failure::FormatMismatch);

    // Whole replies: absent, null, unparseable, cut at the token limit.
    let one = std::slice::from_ref(count_q);
    let empty = Map::new();
    let kind = |answers: Option<&Map<String, Value>>, cut: bool| {
        grade(one, answers, &data, cut)[0].failure.unwrap()
    };
    assert_eq!(kind(Some(&empty), false), Failure::Missing);
    assert_eq!(kind(None, false), Failure::Unparseable);
    assert_eq!(kind(Some(&empty), true), Failure::Truncated);
    assert_eq!(kind(None, true), Failure::Truncated);
    let null: Map<String, Value> = [(count_q.id.clone(), Value::Null)].into_iter().collect();
    assert_eq!(kind(Some(&null), false), Failure::Missing);
    covered.extend(["missing", "unparseable", "truncated"]);

    let all: BTreeSet<&str> = Failure::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(covered, all, "every kind needs a test case");
}

#[test]
fn metrics_serialize_failure_off_by_and_normalization() {
    let (records, qs) = asked(Variant::Mandatory);
    let data = DataIndex::new(records);
    let q = find(&qs, |q| q.query == Query::CountRecords);
    let m = serde_json::to_value(grade_one(&data, q, json!(30))).unwrap();
    assert_eq!(m["failure"], "off_by_n");
    assert_eq!(m["off_by"], -1.0);
    assert_eq!(m["normalization"], json!([]));
    let m = serde_json::to_value(grade_one(&data, q, json!("31 products"))).unwrap();
    assert_eq!(m["failure"], Value::Null);
    assert!(m.get("off_by").is_none());
    assert_eq!(m["normalization"], json!(["unit"]));
    // A metric from a log written before these fields still loads.
    let old = json!({"metric": "q001", "category": "filtering", "passed": 0, "score": 0.0,
        "reason": "missing", "expected": 1, "actual": null, "validation": "numeric"});
    let m: Metric = serde_json::from_value(old).unwrap();
    assert!(m.failure.is_none() && m.normalization.is_empty());
}
