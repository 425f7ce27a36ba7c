//! The bundled task suites load, every expected value is recomputed from its data file (a
//! literal that disagrees refuses the file), and bad task files fail naming file, task, field.

use bench::suites::tasks::{DataSource, load, load_source};
use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn synthetic_suite_has_twelve_tasks_over_ten_domains() {
    let l = load_source(None, DataSource::Synthetic).unwrap();
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert_eq!(l.tasks.len(), 12);
    let domains: BTreeSet<&str> = l.tasks.iter().map(|t| t.def.category.as_str()).collect();
    assert_eq!(domains.len(), 10, "{domains:?}");
    for t in &l.tasks {
        let n = t.def.expected_values.len();
        assert!((3..=6).contains(&n), "{}: {n} expected values", t.def.id);
        // Every literal was checked at load; each has one and a truth.
        assert!(t.def.expected_values.iter().all(|v| v.value.is_some()));
        assert_eq!(t.truths.len(), n);
    }
}

#[test]
fn real_suite_has_at_least_six_tasks_over_vendored_data() {
    let l = load_source(None, DataSource::Real).unwrap();
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert!(l.tasks.len() >= 6);
    for t in &l.tasks {
        assert!(t.def.expected_values.iter().all(|v| v.value.is_some()));
        let size = std::fs::metadata(&t.data_path).unwrap().len();
        assert!(size <= 300_000, "{}: {size} bytes", t.data_path.display());
    }
}

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn loader_errors_and_warnings_name_file_task_and_field() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "d.json",
        r#"{"orders": [{"id": "A", "total": 5}, {"id": "B", "total": 7}]}"#,
    );
    let ok = write(
        dir.path(),
        "ok.json",
        r#"{"tasks": [{"id": "T-1", "category": "retail", "colour": "red",
            "prompt_template": "Data in {format_name}: {data}", "data_file": "d.json",
            "expected_values": [{"description": "total", "query": {"op": "aggregate", "func": "sum", "field": "total"}, "value": 12, "note": 1}]}]}"#,
    );
    let l = load(&ok).unwrap();
    assert_eq!(l.tasks[0].truths, vec![serde_json::json!(12)]);
    assert_eq!(l.tasks[0].def.max_tokens, 2048);
    assert_eq!(l.warnings.len(), 2, "{:?}", l.warnings);
    assert!(
        l.warnings[0].contains("task 'T-1': unknown field 'colour'"),
        "{:?}",
        l.warnings
    );
    assert!(l.warnings[1].contains("expected_values[0]: unknown field 'note'"));

    let cases = [
        (
            r#"{"tasks": [{"id": "T-2", "category": "x", "data_file": "d.json"}]}"#,
            "task 'T-2': missing required field 'prompt_template'",
        ),
        (
            r#"{"tasks": [{"id": "T-3", "category": "x", "prompt_template": "Read {format_name}.", "data_file": "d.json"}]}"#,
            "task 'T-3': prompt_template has no {data} (or {tl_data})",
        ),
        (
            r#"{"tasks": [{"id": "T-4", "category": "x", "prompt_template": "{data} {format_name}", "data_file": "nope.json"}]}"#,
            "task 'T-4': data_file '",
        ),
        (
            r#"{"tasks": [{"id": "T-5", "category": "x", "prompt_template": "{data} {format_name}", "data_file": "d.json",
            "expected_values": [{"description": "total", "query": {"op": "aggregate", "func": "sum", "field": "total"}, "value": 13}]}]}"#,
            "task 'T-5': expected_values[0] (total): value 13 differs from what the query computes from the data: 12",
        ),
        (
            r#"{"tasks": [{"id": "T-6", "category": "x", "prompt_template": "{data} {format_name}", "data_file": "d.json", "complexity": "hard"}]}"#,
            "task 'T-6': unknown variant `hard`",
        ),
        (
            r#"{"tasks": [{"id": "T-7", "category": "x", "prompt_template": "{data} {format_name}", "data_file": "d.json",
            "expected_elements": [{"element_type": "m", "description": "d", "required": true, "validation_pattern": "(["}]}]}"#,
            "task 'T-7': expected element \"d\": invalid validation_pattern",
        ),
        (
            r#"{"tasks": [{"id": "T-8", "category": "x", "prompt_template": "{data} {format_name}", "data_file": "d.json",
            "expected_values": [{"description": "n", "query": {"from": "lines", "op": "count_records"}}]}]}"#,
            "task 'T-8': expected_values[0] (n): `from` 'lines': no key 'lines'",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let p = write(dir.path(), &format!("bad{i}.json"), text);
        let e = load(&p).unwrap_err().to_string();
        assert!(e.starts_with(&p.display().to_string()), "{e}");
        assert!(e.contains(want), "case {i}: {e}");
    }
}

#[test]
fn facts_order_replies_to_a_bundled_task_where_the_rubric_does_not() {
    let l = load_source(None, DataSource::Synthetic).unwrap();
    let task = l.tasks.iter().find(|t| t.def.id == "RET-001").unwrap();
    let correct = "## Order summary\n\n\
        1. Total revenue from completed orders: $2,945.43\n\
        2. Percentage of orders returned: 16.67%\n\
        3. Channel with the most orders: online\n\
        4. Average items per order: 2.75\n\
        5. Orders without a discount: 14\n\
        6. Distinct customers: 12\n\n\
        Revenue is concentrated in completed online orders; returns are one order in six.";
    let partial = "## Order summary\n\n\
        1. Total revenue from completed orders: $2,945.43\n\
        2. Percentage of orders returned: 25%\n\
        3. Channel with the most orders: online\n\
        4. Average items per order: 3.10\n\
        5. Orders without a discount: 14\n\
        6. Distinct customers: 20\n";
    // The element descriptions and the asked-for labels, with made-up numbers.
    let canned = "## Summary\n\n**Total revenue**: $1,000,000.00\n\n\
        - Total revenue from completed orders: $9,999.99\n\
        - Percentage of orders returned: 50%\n- Channel with the most orders: store\n\
        - Average items per order: 7.5\n- Orders without a discount: 1\n\
        - Distinct customers: 99\n\n### Channel mix\n\n1. Revenue by channel 2. Trends 3. Returns\n";
    let refusal = "I cannot analyze this data.";
    let score = |reply: &str| bench::suites::tasks::grade::grade(task, Some(reply), false).1;
    let [c, p, k, r] = [correct, partial, canned, refusal].map(score);
    for (name, s) in [
        ("correct", c),
        ("partial", p),
        ("canned", k),
        ("refusal", r),
    ] {
        println!(
            "RET-001 {name:8} fact accuracy {:.3}  TeaLeaf composite {:.3}",
            s.fact_accuracy.unwrap(),
            s.rubric.composite
        );
    }
    assert_eq!(c.fact_accuracy, Some(1.0));
    assert_eq!(p.fact_accuracy, Some(0.5));
    assert_eq!(k.fact_accuracy, Some(0.0));
    assert_eq!(r.fact_accuracy, Some(0.0));
    assert!(c.score > p.score && p.score > k.score && k.score == r.score);
    // The composite cannot tell the canned reply from a real one.
    assert!(k.rubric.composite > r.rubric.composite);
    assert!(k.rubric.composite > p.rubric.composite, "{k:?} {p:?}");
}
