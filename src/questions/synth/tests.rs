//! Synthesis tests: the split, the redistribution, and SQL agreeing with the Rust evaluator.

use super::*;
use crate::formats::same_value;
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
        },
    )
    .unwrap();
    assert_eq!(s.id_field, "order_id");
    assert_eq!(s.questions.len(), 124);
    assert!(s.notices.is_empty(), "{:?}", s.notices);
    let per: Vec<usize> = Category::ALL
        .iter()
        .map(|c| s.questions.iter().filter(|q| q.category == *c).count())
        .collect();
    assert_eq!(per, [55, 27, 21, 21]);
    for q in &s.questions {
        let rust = q.query.evaluate(&recs);
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
        },
    )
    .unwrap();
    assert_eq!(s.id_field, "name");
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
fn bad_data_gets_one_line_errors() {
    let mixed = records(json!([{"id": 1, "zip": 95616}, {"id": 2, "zip": "0150"}]));
    let e = synthesize(
        &mixed,
        &Options {
            questions: 10,
            id_field: None,
            seed: 0,
        },
    )
    .unwrap_err();
    assert!(
        e.starts_with("field 'zip' mixes types: number in record 0 and string in record 1"),
        "{e}"
    );
    assert!(!e.contains('\n'));
    let no_id = records(json!([{"k": "a", "v": 1}, {"k": "a", "v": 1}, {"v": 3}]));
    let e = synthesize(
        &no_id,
        &Options {
            questions: 10,
            id_field: None,
            seed: 0,
        },
    )
    .unwrap_err();
    assert!(e.contains("pass --id-field FIELD"), "{e}");
    assert!(e.contains("k (missing or null in 1 records)"), "{e}");
    assert!(e.contains("v (not unique") || e.contains("v ("), "{e}");
    let e = synthesize(
        &no_id,
        &Options {
            questions: 10,
            id_field: Some("nope".into()),
            seed: 0,
        },
    )
    .unwrap_err();
    assert!(
        e.starts_with("--id-field 'nope': no such field (fields: k, v)"),
        "{e}"
    );
}

#[test]
fn only_paths_a_dot_makes_ambiguous_are_left_out() {
    let recs = records(json!([
        {"id": 1, "a.b": 5, "x": {"y.z": 1, "w": {"v": 2}}, "k.k": {"q": 3}},
        {"id": 2, "a.b": 6, "x": {"y.z": 2, "w": {"v": 3}}, "k.k": {"q": 4}}
    ]));
    let p = profile::profile(&recs).unwrap();
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
