//! API-level tests: error reporting, option handling and round trips.

use serde_json::{Value, json};

use super::{
    DecodeOptions, Delimiter, EncodeOptions, Json, KeyFolding, Spec, Str, decode, encode,
    encode_json_text,
};

fn strict() -> DecodeOptions {
    DecodeOptions::default()
}

fn lenient() -> DecodeOptions {
    DecodeOptions {
        strict: false,
        ..DecodeOptions::default()
    }
}

fn error(text: &str) -> String {
    decode(text, &strict()).unwrap_err().to_string()
}

#[test]
fn errors_carry_line_numbers() {
    assert_eq!(
        error("a: 1\nitems[3]{id}:\n  1\n  2"),
        "line 2: expected 3 rows, found 2"
    );
    assert_eq!(
        error("t[2]{a,b}:\n  1,2\n  3"),
        "line 3: expected 2 values in row, found 1"
    );
    assert_eq!(
        error("tags[2]: a,b,c"),
        "line 1: expected 2 inline values, found 3"
    );
    assert_eq!(
        error("x[1]:\n  - a\n  - b"),
        "line 1: expected 1 list items, found 2"
    );
    assert_eq!(
        error("x[2]:\n  - a\n\n  - b"),
        "line 3: blank line inside list array"
    );
    assert_eq!(error("a: 1\nb: 2\na: 3"), "line 3: duplicate key \"a\"");
    assert_eq!(
        error("a:\n   b: 1"),
        "line 2: indentation must be a multiple of 2 spaces, found 3"
    );
    assert_eq!(
        error("a:\n\tb: 1"),
        "line 2: tabs are not allowed in indentation"
    );
    assert_eq!(error("a:\n  user"), "line 2: missing colon after key");
    assert_eq!(error("v: \"a\\qb\""), "line 1: invalid escape sequence \\q");
    assert_eq!(error("a: 1\n    b: 2"), "line 2: unexpected indentation");
    let conflict = decode(
        "a.b: 1\na: 2",
        &DecodeOptions {
            expand_paths: true,
            ..DecodeOptions::default()
        },
    );
    assert_eq!(conflict.unwrap_err().line, 2);
}

#[test]
fn lenient_mode_relaxes_counts_and_layout() {
    assert_eq!(
        decode("tags[5]: a,b", &lenient()).unwrap(),
        json!({"tags": ["a", "b"]})
    );
    // Tabs are skipped but add no depth (as in the reference decoder).
    assert_eq!(
        decode("a:\n\tb: 1", &lenient()).unwrap(),
        json!({"a": {}, "b": 1})
    );
    assert_eq!(decode("a: 1\na: 2", &lenient()).unwrap(), json!({"a": 2}));
    assert_eq!(
        decode("items[2] : x,y", &lenient()).unwrap(),
        json!({"items": ["x", "y"]})
    );
}

fn sample() -> Value {
    json!({
        "id": "PROD-000001",
        "price": 19.99,
        "tiny": 1e-7,
        "huge": 1e21,
        "count": -12,
        "note": "a,b|c\td: \"q\" \\ x",
        "blank": "",
        "lookalikes": ["true", "42", "-1", "05", "null", " pad ", "- x", "[1]"],
        "meta": {"supplier": {"contact": {"email": "x@y.z"}}, "empty": {}},
        "rows": [{"a": 1, "b": "x,y"}, {"b": "z", "a": 2}],
        "mixed": [1, {"k": [1, 2], "n": {"deep": {"er": true}}}, [3, [4]], [], {}],
        "grid": [[1, 2], [], ["a|b"]],
        "none": [],
        "items": [{"users": [{"id": 1}, {"id": 2}], "status": "ok"}, {"tags": []}],
    })
}

#[test]
fn round_trips_with_every_delimiter_and_indent() {
    let value = sample();
    for delimiter in [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe] {
        for indent in [1, 2, 4] {
            for (spec, key_folding) in [
                (Spec::V3, KeyFolding::Off),
                (Spec::V3, KeyFolding::Safe),
                (Spec::V4, KeyFolding::Off),
            ] {
                let opts = EncodeOptions {
                    spec,
                    indent,
                    delimiter,
                    key_folding,
                    ..EncodeOptions::default()
                };
                let text = encode(&value, &opts);
                let dec = DecodeOptions {
                    spec,
                    indent,
                    strict: true,
                    expand_paths: key_folding == KeyFolding::Safe,
                };
                let back = decode(&text, &dec).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(
                    back, value,
                    "{delimiter:?} indent {indent} {key_folding:?}\n{text}"
                );
            }
        }
    }
}

#[test]
fn folding_respects_flatten_depth() {
    let value = json!({"a": {"b": {"c": {"d": 1}}}, "x": [{"p": {"q": {"r": 2}}}]});
    let fold = |flatten_depth| {
        let opts = EncodeOptions {
            key_folding: KeyFolding::Safe,
            flatten_depth,
            ..EncodeOptions::default()
        };
        encode(&value, &opts)
    };
    assert_eq!(fold(usize::MAX), "a.b.c.d: 1\nx[1]:\n  - p:\n      q.r: 2");
    assert_eq!(fold(3), "a.b.c:\n  d: 1\nx[1]:\n  - p:\n      q.r: 2");
    assert_eq!(fold(1), encode(&value, &EncodeOptions::default()));
}

#[test]
fn root_forms() {
    let opts = EncodeOptions::default();
    assert_eq!(encode(&json!([]), &opts), "[]");
    assert_eq!(encode(&json!({}), &opts), "");
    assert_eq!(encode(&json!("x y"), &opts), "x y");
    assert_eq!(decode("[]", &strict()).unwrap(), json!([]));
    assert_eq!(decode("", &strict()).unwrap(), json!({}));
    assert_eq!(decode("\"[]\"", &strict()).unwrap(), json!("[]"));
    assert_eq!(
        decode("x[0]:\ny: []", &strict()).unwrap(),
        json!({"x": [], "y": []})
    );
}

/// Encodes `json` through `Value` and through the compact tree, asserting both agree.
fn both_paths(json: &str, opts: &EncodeOptions) -> String {
    let via_value = encode(&serde_json::from_str::<Value>(json).unwrap(), opts);
    let via_tree = encode_json_text(json, opts).unwrap();
    assert_eq!(via_tree, via_value, "{json}");
    via_value
}

#[test]
fn compact_tree_encodes_like_value() {
    let plain = EncodeOptions::default();
    // Past the linear-scan limit, duplicates are found through the hash index.
    let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\":{i}")).collect();
    let docs = [
        serde_json::to_string(&sample()).unwrap(),
        r#"{"a":1,"b":{"c":{"d":[1,2.5,-3,1e21,1e-7,-0.0,18446744073709551615]}},"a.b":{"x":1}}"#
            .into(),
        r#"{"e\nf":"x\"y","\u00e9":"caf\u00e9","rows":[{"i":1,"n":"a"},{"n":"b","i":2}]}"#.into(),
        r#"[[1,2],[{"a":1}],"s"]"#.into(),
        "[]".into(),
        "\"top\"".into(),
        format!("{{{},\"k5\":\"five\",\"k39\":[]}}", many.join(",")),
    ];
    for doc in &docs {
        for delimiter in [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe] {
            for key_folding in [KeyFolding::Off, KeyFolding::Safe] {
                let opts = EncodeOptions {
                    delimiter,
                    key_folding,
                    ..EncodeOptions::default()
                };
                both_paths(doc, &opts);
            }
        }
    }
    // A repeated key keeps its first position and its last value, as in JSON.parse.
    assert_eq!(both_paths(r#"{"k":1,"j":2,"k":3}"#, &plain), "k: 3\nj: 2");
    assert!(encode_json_text("{} x", &plain).is_err());
    assert!(encode_json_text("[1,", &plain).is_err());
}

#[test]
fn compact_tree_borrows_unescaped_strings() {
    let text = r#"{"plain":"v","esc\"aped":"a\nb"}"#;
    let Json::Object(entries) = Json::parse(text).unwrap() else {
        panic!("not an object");
    };
    assert!(matches!(entries[0].0, Str::Borrowed("plain")));
    assert!(matches!(entries[0].1, Json::String(Str::Borrowed("v"))));
    assert!(matches!(entries[1].0, Str::Owned(_)));
    assert_eq!(entries[1].0.as_str(), "esc\"aped");
    assert!(matches!(&entries[1].1, Json::String(s @ Str::Owned(_)) if s.as_str() == "a\nb"));
    // The memory win depends on these staying two and three words.
    assert_eq!(size_of::<Str>(), 16);
    assert_eq!(size_of::<Json>(), 24);
}

#[test]
fn v4_numbers_print_as_javascript_does() {
    let opts = EncodeOptions {
        spec: Spec::V4,
        ..EncodeOptions::default()
    };
    let value = json!({"a": 1e21, "b": 1.5e-7, "c": 0.5, "d": -2.5e22, "e": 1_000_000});
    let text = encode(&value, &opts);
    assert_eq!(text, "a: 1e+21\nb: 1.5e-7\nc: 0.5\nd: -2.5e+22\ne: 1000000");
    let dec = DecodeOptions {
        spec: Spec::V4,
        ..DecodeOptions::default()
    };
    assert_eq!(decode(&text, &dec).unwrap(), value);
    // v3 keeps plain decimals, as its fixtures demand.
    assert!(encode(&value, &EncodeOptions::default()).starts_with("a: 1000000000000000000000"));
}

#[test]
fn folding_quotes_literal_dotted_keys_so_they_never_expand() {
    let value = json!({
        "amnesia.before": 1,
        "a": {"b": {"c": 2}},
        "m": {"price.heinz": {"unit": 3}},
        "t": [{"x.y": 1, "z": 2}],
        "f": {"g": [1, 2]},
    });
    let fold = EncodeOptions {
        key_folding: KeyFolding::Safe,
        ..EncodeOptions::default()
    };
    let text = encode(&value, &fold);
    assert_eq!(
        text,
        "\"amnesia.before\": 1\na.b.c: 2\nm:\n  \"price.heinz\":\n    unit: 3\n\
         t[1]{\"x.y\",z}:\n  1,2\nf.g[2]: 1,2"
    );
    let expand = DecodeOptions {
        expand_paths: true,
        ..DecodeOptions::default()
    };
    assert_eq!(decode(&text, &expand).unwrap(), value);
    // Folding off keeps the reference's bare form, which no expansion touches.
    let plain = encode(&value, &EncodeOptions::default());
    assert!(plain.starts_with("amnesia.before: 1\n"), "{plain}");
    assert_eq!(decode(&plain, &DecodeOptions::default()).unwrap(), value);
}
