//! Synthesis tests: the split, the redistribution, and SQL agreeing with the Rust evaluator.

use super::*;
use crate::formats::same_value;
use crate::questions::{Filter, Query};
use serde_json::{Value, json};

fn records(v: Value) -> Vec<Record> {
    serde_json::from_value(v).unwrap()
}

#[test]
fn split_keeps_the_suite_proportions() {
    assert_eq!(split(124), [55, 27, 21, 21]);
    assert_eq!(split(248), [110, 54, 42, 42]);
    assert_eq!(split(10).iter().sum::<usize>(), 10);
    assert_eq!(split(0), [0, 0, 0, 0]);
}

#[test]
fn a_short_category_gives_its_rest_to_the_others() {
    // No numeric field: aggregation's 21 go to the other three, 55 : 27 : 21.
    let got = allocate([55, 27, 21, 21], [500, 500, 500, 0]);
    assert_eq!(got.iter().sum::<usize>(), 124);
    assert_eq!(got[3], 0);
    assert!(got[0] > 55 && got[1] > 27 && got[2] > 21, "{got:?}");
    // Everything short: all there is.
    assert_eq!(allocate([55, 27, 21, 21], [3, 2, 1, 0]), [3, 2, 1, 0]);
}

/// Every question's SQL answer (the expected value) equals the Rust evaluator's on `recs`.
fn assert_sql_agrees(s: &Synthesis, recs: &[Record]) {
    for q in &s.questions {
        let rust = q.query.evaluate(recs);
        let agree = match (&q.validation, &rust) {
            (Validation::ArraySet, Value::Array(a)) => {
                let mut x: Vec<String> = a.iter().map(Value::to_string).collect();
                let mut y: Vec<String> = q
                    .expected
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(Value::to_string)
                    .collect();
                x.sort();
                y.sort();
                x == y
            }
            (Validation::Numeric { .. }, Value::Number(n)) => {
                (n.as_f64().unwrap() - q.expected.as_f64().unwrap()).abs() < 1e-9
            }
            _ => same_value(&rust, &q.expected),
        };
        assert!(
            agree,
            "{}: {} — SQL {} vs Rust {rust}",
            q.id, q.text, q.expected
        );
    }
}

fn opts(questions: usize, id_field: Option<&str>) -> Options {
    Options {
        questions,
        id_field: id_field.map(str::to_string),
        seed: 3,
        file: None,
    }
}

/// Sparse, nested, typed records with awkward keys and values.
fn sample() -> Vec<Record> {
    let mut out = Vec::new();
    for i in 0..40_u32 {
        let status = ["paid", "open", "void"][i as usize % 3];
        let city = ["Oslo", "Köln", "Zürich, CH"][i as usize % 3];
        let tags = ["x", "y", "z"][..(i as usize % 3)].to_vec();
        let mut r = json!({
            "order_id": format!("A-{:03}", i * 7 % 101),
            "status": status,
            "total": f64::from(i * 37 % 50) + 0.25 * f64::from(i % 4),
            "qty": i % 6,
            "zip": format!("0{}", 1000 + i),
            "ok": i % 5 != 0,
            "tags": tags,
            "ship": {"city": city, "geo": {"lat": f64::from(i) / 3.0}},
        });
        if i % 5 == 2 {
            r.as_object_mut().unwrap().remove("total");
        }
        if i % 4 == 1 {
            r["ship"].as_object_mut().unwrap().remove("geo");
        }
        if i % 7 == 3 {
            r["status"] = Value::Null;
        }
        out.push(r);
    }
    records(Value::Array(out))
}

#[test]
fn sql_answers_equal_the_evaluators_on_the_source_records() {
    let recs = sample();
    let s = synthesize(
        &recs,
        &Options {
            questions: 124,
            id_field: None,
            seed: 7,
            file: None,
        },
    )
    .unwrap();
    assert_eq!(s.id, profile::Identifier::Field("order_id".into()));
    assert_eq!(s.questions.len(), 124);
    assert!(s.notices.is_empty(), "{:?}", s.notices);
    let per: Vec<usize> = Category::ALL
        .iter()
        .map(|c| s.questions.iter().filter(|q| q.category == *c).count())
        .collect();
    assert_eq!(per, [55, 27, 21, 21]);
    assert_sql_agrees(&s, &recs);
    // Nested paths, sparse fields and positions are all asked about.
    let texts: String = s.questions.iter().map(|q| q.text.clone() + "\n").collect();
    assert!(texts.contains("`ship.geo.lat`"), "{texts}");
    assert!(texts.contains("`ship.city`"), "{texts}");
    assert!(texts.contains("missing or null"), "{texts}");
    for label in ["start", "middle", "end"] {
        assert!(
            s.questions
                .iter()
                .any(|q| q.position.as_ref().is_some_and(|p| p.label == label))
        );
    }
}

#[test]
fn data_without_numbers_redistributes_and_says_so() {
    let recs = records(json!([
        {"name": "a", "kind": "x"}, {"name": "b", "kind": "y"}, {"name": "c", "kind": "x"}
    ]));
    let s = synthesize(
        &recs,
        &Options {
            questions: 124,
            id_field: None,
            seed: 1,
            file: None,
        },
    )
    .unwrap();
    assert_eq!(s.id, profile::Identifier::Field("name".into()));
    assert!(
        s.notices
            .iter()
            .any(|n| n.starts_with("aggregation: only 0 distinct questions")),
        "{:?}",
        s.notices
    );
    assert!(
        s.questions
            .iter()
            .all(|q| q.category != Category::Aggregation)
    );
    // 3 records × 1 field: the questions run out before 124, and the notice says so.
    assert!(s.questions.len() < 124);
    assert!(
        s.notices
            .iter()
            .any(|n| n.contains("questions in all, not 124")),
        "{:?}",
        s.notices
    );
}

#[test]
fn a_mixed_type_field_is_asked_about_as_text_and_never_summed() {
    // A title that is a number in one record, as in public movie tables; a flag that is a
    // boolean in some records and a string in others; a field that is an object once.
    let mut rows = Vec::new();
    for i in 0..30_u32 {
        let title = if i == 21 {
            json!(1917)
        } else {
            json!(format!("Film {}", i % 12))
        };
        let flag = if i % 4 == 0 {
            json!("yes")
        } else {
            json!(i % 3 == 0)
        };
        let extra = if i == 5 { json!({"a": 1}) } else { json!(i) };
        rows.push(json!({"id": i, "title": title, "flag": flag, "extra": extra, "n": i % 7}));
    }
    let recs = records(Value::Array(rows));
    let s = synthesize(&recs, &opts(124, None)).unwrap();
    let notice = |name: &str| {
        s.notices
            .iter()
            .find(|n| n.starts_with(&format!("field '{name}' mixes types")))
            .cloned()
            .unwrap_or_else(|| panic!("no notice for {name}: {:?}", s.notices))
    };
    assert_eq!(
        notice("title"),
        "field 'title' mixes types: string in record 1, number in record 22: asked about as \
         text (values compared as text); numeric questions (sums, averages, ranges) skip it"
    );
    assert!(notice("flag").contains("string in record 1, boolean in record 2"));
    assert!(
        notice("extra").contains("not asked about"),
        "{}",
        notice("extra")
    );
    assert!(s.notices.iter().all(|n| !n.contains('\n')));
    let about = |f: &str| {
        s.questions
            .iter()
            .filter(|q| q.text.contains(&format!("`{f}`")))
            .collect::<Vec<_>>()
    };
    assert!(!about("title").is_empty(), "title is asked about");
    assert!(about("extra").is_empty(), "extra is never asked about");
    // Title may filter an aggregate (compared as text) but is never the aggregated field.
    for q in &s.questions {
        if let Query::Aggregate { field, .. } = &q.query {
            assert!(field != "title" && field != "flag", "{}", q.text);
        }
    }
    // The number 1917 is one of title's distinct values, as text.
    assert!(s.questions.iter().any(
        |q| matches!(&q.query, Query::CountDistinct { field } if field == "title")
            || matches!(&q.query, Query::Get { field, .. } if field == "title")
    ));
    assert_sql_agrees(&s, &recs);
}

#[test]
fn text_equality_meets_numbers_and_booleans_in_sql_as_in_rust() {
    let recs = records(json!([
        {"id": 1, "v": 7}, {"id": 2, "v": "7"}, {"id": 3, "v": true}, {"id": 4, "v": "true"},
        {"id": 5, "v": "x"}
    ]));
    let truth = truth::Truth::load(&recs).unwrap();
    for value in ["7", "true", "x"] {
        let q = Query::CountWhere {
            filter: Filter::Eq {
                field: "v".into(),
                value: json!(value),
            },
        };
        assert_eq!(truth.eval(&q).unwrap(), q.evaluate(&recs), "{value}");
    }
    let q = Query::CountWhere {
        filter: Filter::Eq {
            field: "v".into(),
            value: json!("7"),
        },
    };
    assert_eq!(q.evaluate(&recs), json!(2));
}

#[test]
fn key_lists_follow_first_appearance_in_sql_as_in_rust() {
    // `list(DISTINCT k)` once gave the expected keys in hash order, which changed between a run
    // and its rescore; both sides now list keys as the records first show them.
    let recs = records(json!([
        {"team": "a", "city": "x", "wins": 1}, {"team": "b", "zeta": null, "city": "y"},
        {"alpha": 2, "team": "c", "city": "z", "wins": 3}
    ]));
    let truth = truth::Truth::load(&recs).unwrap();
    for q in [Query::Fields { of: None }, Query::SparseFields { of: None }] {
        for _ in 0..20 {
            assert_eq!(truth.eval(&q).unwrap(), q.evaluate(&recs), "{q:?}");
        }
    }
    assert_eq!(
        Query::Fields { of: None }.evaluate(&recs),
        json!(["team", "city", "wins", "zeta", "alpha"])
    );
}

/// Flights-like rows: no field is unique, `origin` + `hour` together are.
fn flights() -> Vec<Record> {
    let mut rows = Vec::new();
    for hour in 0..8_u32 {
        for origin in ["EWR", "JFK", "LGA"] {
            rows.push(json!({
                "origin": origin,
                "hour": hour,
                "carrier": (["UA", "DL"][(hour % 2) as usize]),
                "delay": f64::from(hour * 3 % 11) - 2.5,
            }));
        }
    }
    records(Value::Array(rows))
}

#[test]
fn records_without_a_one_field_key_are_named_by_a_composite_key() {
    let recs = flights();
    let s = synthesize(&recs, &opts(124, None)).unwrap();
    assert_eq!(
        s.id,
        profile::Identifier::Fields(vec!["origin".into(), "hour".into()])
    );
    assert_eq!(s.id.describe(), "`origin` + `hour`");
    let by_keys: Vec<&Question> = s
        .questions
        .iter()
        .filter(|q| matches!(q.query, Query::GetByKeys { .. }))
        .collect();
    assert!(!by_keys.is_empty());
    assert!(
        by_keys
            .iter()
            .all(|q| q.text.contains("in the record whose `origin` is \"")
                && q.text.contains("and `hour` is ")),
        "{}",
        by_keys[0].text
    );
    // Key fields are never asked about, and there is no "record after" question.
    assert!(by_keys.iter().all(|q| !matches!(&q.query,
        Query::GetByKeys { field, .. } if field == "origin" || field == "hour")));
    assert!(
        s.questions
            .iter()
            .all(|q| !matches!(q.query, Query::NextId { .. }))
    );
    assert_sql_agrees(&s, &recs);
    // Asked for explicitly, in the other order.
    let s = synthesize(&recs, &opts(20, Some("hour, origin"))).unwrap();
    assert_eq!(
        s.id,
        profile::Identifier::Fields(vec!["hour".into(), "origin".into()])
    );
    let e = synthesize(&recs, &opts(20, Some("origin,carrier"))).unwrap_err();
    assert!(
        e.contains("two records share the same values of all 2 fields"),
        "{e}"
    );
    let e = synthesize(&recs, &opts(20, Some("origin,delay"))).unwrap_err();
    assert!(e.contains("'delay' holds the non-integer"), "{e}");
}

#[test]
fn records_with_no_key_at_all_are_named_by_position() {
    // Penguin-like: repeated rows, so no combination of fields is unique.
    let mut rows = Vec::new();
    for i in 0..20_u32 {
        rows.push(json!({"species": (["Adelie", "Gentoo"][(i % 2) as usize]),
                         "mass": 3000 + (i % 5) * 100, "sex": null}));
    }
    rows.push(rows[0].clone());
    let recs = records(Value::Array(rows));
    let s = synthesize(&recs, &opts(124, None)).unwrap();
    assert_eq!(s.id, profile::Identifier::Position);
    let retrieval: Vec<&Question> = s
        .questions
        .iter()
        .filter(|q| q.category == Category::FieldRetrieval)
        .collect();
    assert!(!retrieval.is_empty());
    for q in &retrieval {
        let Query::IdAt { index, .. } = q.query else {
            panic!("{:?}", q.query)
        };
        assert!(
            q.text.contains(&format!(
                "in record number {} (counting from 1, in the order given)?",
                index + 1
            )),
            "{}",
            q.text
        );
    }
    assert_sql_agrees(&s, &recs);
}

#[test]
fn bad_id_fields_get_one_line_errors() {
    let no_id = records(json!([{"k": "a", "v": 1}, {"k": "a", "v": 1}, {"v": 3}]));
    // Nothing unique: named by position, no error.
    let s = synthesize(&no_id, &opts(10, None)).unwrap();
    assert_eq!(s.id, profile::Identifier::Position);
    let e = synthesize(&no_id, &opts(10, Some("nope"))).unwrap_err();
    assert!(
        e.starts_with("--id-field 'nope': no such field (fields: k, v)"),
        "{e}"
    );
    let e = synthesize(&no_id, &opts(10, Some("k"))).unwrap_err();
    assert!(e.contains("missing or null in 1 records"), "{e}");
    let e = synthesize(&no_id, &opts(10, Some("a,b,c,d"))).unwrap_err();
    assert!(e.contains("up to three"), "{e}");
    assert!(!e.contains('\n'));
}

#[test]
fn only_paths_a_dot_makes_ambiguous_are_left_out() {
    let recs = records(json!([
        {"id": 1, "a.b": 5, "x": {"y.z": 1, "w": {"v": 2}}, "k.k": {"q": 3}},
        {"id": 2, "a.b": 6, "x": {"y.z": 2, "w": {"v": 3}}, "k.k": {"q": 4}}
    ]));
    let p = profile::profile(&recs);
    let usable: Vec<&str> = p.usable().map(|f| f.path.as_str()).collect();
    // A dotted top-level key is itself a path `Query::field` reads; below the top, a dot in
    // any key on the way makes the dotted path mean something else.
    assert!(
        usable.contains(&"a.b") && usable.contains(&"x.w.v"),
        "{usable:?}"
    );
    assert!(
        !usable.contains(&"x.y.z") && !usable.contains(&"k.k.q"),
        "{usable:?}"
    );
}

/// Three-letter codes, `n` of them (`AAA`, `AAB`, …).
fn codes(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let b = |k: usize| char::from(b'A' + (i / k % 26) as u8);
            format!("{}{}{}", b(676), b(26), b(1))
        })
        .collect()
}

/// As vega's flights-20k.json: `date`, `delay`, `distance`, `origin`, `destination`, 280
/// flights. No field or pair is unique; of the triples, `date` + `delay` + `distance` comes
/// first in file order and `date` + `origin` + `destination` is unique too. The airports have
/// more distinct values than a category, so the measurements are all filtering and
/// aggregation can ask about.
fn flights_20k() -> Vec<Record> {
    let airports = codes(70);
    let rows: Vec<Value> = (0..280_usize)
        .map(|i| {
            let (d, k) = (i / 4, i % 4);
            json!({
                "date": format!("2001/{:02}/{:02} {:02}:00", 1 + d / 28, 1 + d % 28, d % 24),
                "delay": (d % 5) * 10 + (k % 2) * 5,
                "distance": 300 + (d % 7) * 100 + (k / 2) * 50,
                "origin": airports[(d % 35) * 2 + k / 2],
                "destination": airports[(d % 35) * 2 + k % 2],
            })
        })
        .collect();
    records(Value::Array(rows))
}

#[test]
fn a_key_of_text_fields_is_preferred_to_one_of_measurements() {
    let recs = flights_20k();
    let s = synthesize(&recs, &opts(124, None)).unwrap();
    assert_eq!(
        s.id,
        profile::Identifier::Fields(vec!["date".into(), "origin".into(), "destination".into()])
    );
    // The measurements stay free for the questions that need them.
    for category in [Category::Filtering, Category::Aggregation] {
        let n = s
            .questions
            .iter()
            .filter(|q| q.category == category)
            .count();
        assert!(n >= 8, "{category:?}: {n} questions; {:?}", s.notices);
    }
    assert!(
        s.notices.iter().all(|n| !n.contains("--id-field")),
        "{:?}",
        s.notices
    );
    assert_sql_agrees(&s, &recs);
}

#[test]
fn a_unique_measurement_is_not_the_key_when_names_and_years_are() {
    // As vega's gapminder.json: `pop` is unique, `country` + `year` is the real key.
    let countries = ["Chile", "Peru", "Japan", "Kenya", "Spain", "Iran"];
    let mut rows = Vec::new();
    for (c, country) in countries.iter().enumerate() {
        for (y, year) in (1955..=2005).step_by(5).enumerate() {
            rows.push(json!({
                "year": year, "country": country, "cluster": c % 3,
                "pop": 1_000_000 + c * 100_000 + y * 1_000,
                "life_expect": 50.5 + (y as f64), "fertile": 2.25 + (c as f64) / 4.0,
            }));
        }
    }
    let recs = records(Value::Array(rows));
    let s = synthesize(&recs, &opts(124, None)).unwrap();
    assert_eq!(
        s.id,
        profile::Identifier::Fields(vec!["country".into(), "year".into()])
    );
    assert!(
        s.questions
            .iter()
            .any(|q| q.category == Category::Aggregation && q.text.contains("`pop`"))
    );
    // As iowa-electricity.csv: `net_generation` is unique, `year` + `source` is the key.
    let mut rows = Vec::new();
    for year in 2001..2018 {
        for (i, source) in ["Fossil Fuels", "Nuclear Energy", "Renewables"]
            .iter()
            .enumerate()
        {
            rows.push(json!({"year": format!("{year}-01-01"), "source": source,
                             "net_generation": 3_000 + (year - 2001) * 37 + i * 11_000}));
        }
    }
    let recs = records(Value::Array(rows));
    let s = synthesize(&recs, &opts(124, None)).unwrap();
    assert_eq!(
        s.id,
        profile::Identifier::Fields(vec!["year".into(), "source".into()])
    );
    assert_sql_agrees(&s, &recs);
}

#[test]
fn a_key_that_takes_questions_away_is_named_with_the_flag_to_change_it() {
    // Only measurements: the unique `reading` is the key, and aggregation loses its questions.
    let rows: Vec<Value> = (0..30_u32)
        .map(|i| json!({"reading": 1000 + i * 7, "level": i % 4}))
        .collect();
    let recs = records(Value::Array(rows));
    let s = synthesize(&recs, &opts(124, None)).unwrap();
    assert_eq!(s.id, profile::Identifier::Field("reading".into()));
    let note = s
        .notices
        .iter()
        .find(|n| n.starts_with("aggregation: only"))
        .expect("aggregation is short");
    assert!(
        note.contains(
            "the identifier `reading` is never asked about and would give 4 more: name another \
             key with --id-field"
        ),
        "{note}"
    );
}
