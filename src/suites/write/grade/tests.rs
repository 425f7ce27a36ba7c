//! Each failure kind from a reply a model could give, and the steps recorded on the way.

use super::*;
use crate::suites::write::schema;
use serde_json::json;

fn users() -> Value {
    json!({"users": [
        {"id": 1, "name": "Ann", "city": "Oslo, Norway", "score": 7.5},
        {"id": 2, "name": "Bo", "city": "Lund", "score": 9}
    ]})
}

fn grade_as(format: Format, gold: &Value, reply: &str, cut: bool) -> Grade {
    let s = schema::infer(gold);
    let root = crate::formats::records(format.name(), gold)
        .ok()
        .and_then(|r| r.key.map(String::from));
    let t = Target {
        format,
        root_key: root.as_deref(),
        gold,
        schema: &s,
        ordered: false,
    };
    grade(&t, reply, cut)
}

#[test]
fn json_in_prose_and_a_json_fence_is_exact_with_the_removal_recorded() {
    let reply = "Here is the document you asked for:\n```json\n{\"users\":[{\"id\":2,\"name\":\"Bo\",\"city\":\"Lund\",\"score\":9},{\"id\":1,\"name\":\"Ann\",\"city\":\"Oslo, Norway\",\"score\":7.5}]}\n```\nLet me know if you need more.";
    let g = grade_as(Format::JsonCompact, &users(), reply, false);
    assert!(g.exact && g.parsed && g.schema_ok, "{g:?}");
    assert!(g.fence_removed && g.prose_removed);
    assert_eq!(g.field_accuracy, 1.0);
    assert_eq!(g.failure, None);
}

#[test]
fn toon_with_a_wrong_declared_length_is_a_count_mismatch() {
    let reply =
        "```toon\nusers[3]{id,name,city,score}:\n  1,Ann,\"Oslo, Norway\",7.5\n  2,Bo,Lund,9\n```";
    let g = grade_as(Format::ToonDefault, &users(), reply, false);
    assert!(!g.parsed);
    assert_eq!(
        g.failure.as_deref(),
        Some("declared_count_mismatch"),
        "{g:?}"
    );
    let right = reply.replace("[3]", "[2]");
    assert!(grade_as(Format::ToonDefault, &users(), &right, false).exact);
}

#[test]
fn yaml_with_a_broken_indent_is_unparseable() {
    let reply =
        "```yaml\nusers:\n  - id: 1\n    name: Ann\n   city: \"Oslo, Norway\"\n    score: 7.5\n```";
    let g = grade_as(Format::Yaml, &users(), reply, false);
    assert!(!g.parsed);
    assert_eq!(g.failure.as_deref(), Some("unparseable"), "{g:?}");
    assert!(g.detail.is_some());
}

#[test]
fn csv_with_an_unquoted_comma_fails_and_typed_cells_pass() {
    let bad = "```csv\nid,name,city,score\n1,Ann,Oslo, Norway,7.5\n2,Bo,Lund,9\n```";
    let g = grade_as(Format::Csv, &users(), bad, false);
    assert!(!g.exact);
    assert_eq!(g.failure.as_deref(), Some("unparseable"), "{g:?}");
    // "9.0" is a number where the schema says number: CSV cells are typed by the schema.
    let good = "```csv\nid,name,city,score\n1,Ann,\"Oslo, Norway\",7.50\n2,Bo,Lund,9.0\n```";
    let g = grade_as(Format::Csv, &users(), good, false);
    assert!(g.exact, "{g:?}");
}

#[test]
fn xml_with_an_unclosed_tag_is_unparseable() {
    let reply = "```xml\n<users><user><id>1</id><name>Ann</name></users>\n```";
    let g = grade_as(Format::XmlCompact, &users(), reply, false);
    assert!(!g.parsed);
    assert_eq!(g.failure.as_deref(), Some("unparseable"), "{g:?}");
}

#[test]
fn a_reply_cut_at_the_output_limit_is_truncated() {
    let reply = "```json\n{\"users\":[{\"id\":1,\"name\":\"Ann\"";
    let g = grade_as(Format::JsonCompact, &users(), reply, true);
    assert_eq!(g.failure.as_deref(), Some("truncated"), "{g:?}");
    assert!(g.fence_removed);
}

#[test]
fn prose_without_a_document_is_no_document() {
    let g = grade_as(
        Format::JsonCompact,
        &users(),
        "I cannot help with that.",
        false,
    );
    assert_eq!(g.failure.as_deref(), Some("no_document"), "{g:?}");
}

#[test]
fn differences_are_named_and_field_accuracy_counts_equal_leaves() {
    let gold = users();
    let cases = [
        (
            json!({"users": [{"id": 1, "name": "Ann", "city": "Oslo, Norway", "score": 7.5}]}),
            "missing_record",
        ),
        (
            json!({"users": [{"id": 1, "name": "Ann", "city": "Oslo, Norway", "score": 7.5},
                          {"id": 2, "name": "Bo", "city": "Lund", "score": 9},
                          {"id": 3, "name": "Cy", "city": "Rome", "score": 1}]}),
            "extra_record",
        ),
        (
            json!({"users": [{"id": 1, "name": "Ann", "city": "Oslo, Norway"},
                          {"id": 2, "name": "Bo", "city": "Lund", "score": 9}]}),
            "missing_field",
        ),
        (
            json!({"users": [{"id": 1, "name": "Ann", "city": "Oslo, Norway", "score": 7.5, "x": 1},
                          {"id": 2, "name": "Bo", "city": "Lund", "score": 9}]}),
            "extra_field",
        ),
        (
            json!({"users": [{"id": 1, "name": "Ann", "city": "Oslo, Norway", "score": "7.5"},
                          {"id": 2, "name": "Bo", "city": "Lund", "score": 9}]}),
            "wrong_type",
        ),
        (
            json!({"users": [{"id": 1, "name": "Ann", "city": "Oslo", "score": 7.5},
                          {"id": 2, "name": "Bo", "city": "Lund", "score": 9}]}),
            "wrong_value",
        ),
    ];
    for (doc, kind) in cases {
        let reply = format!("```json\n{doc}\n```");
        let g = grade_as(Format::JsonCompact, &gold, &reply, false);
        assert!(g.parsed && !g.exact, "{kind}: {g:?}");
        assert_eq!(g.failure.as_deref(), Some(kind), "{g:?}");
        assert!(
            g.field_accuracy < 1.0 || kind.starts_with("extra"),
            "{kind}: {g:?}"
        );
    }
    // One wrong value of eight leaves.
    let one_off = json!({"users": [{"id": 1, "name": "Ann", "city": "Oslo", "score": 7.5},
                                   {"id": 2, "name": "Bo", "city": "Lund", "score": 9}]});
    let g = grade_as(Format::JsonCompact, &gold, &format!("{one_off}"), false);
    assert_eq!(g.field_accuracy, 7.0 / 8.0);
}

#[test]
fn a_null_optional_field_equals_a_missing_one_and_numbers_compare_within_1e9() {
    let gold = json!({"rows": [{"id": 1, "note": null, "x": 0.1}, {"id": 2, "note": "b", "x": 2}]});
    let reply = "{\"rows\": [{\"id\": 1, \"x\": 0.10000000000000001}, {\"id\": 2, \"note\": \"b\", \"x\": 2.0}]}";
    let g = grade_as(Format::JsonPretty, &gold, reply, false);
    assert!(g.exact, "{g:?}");
}
