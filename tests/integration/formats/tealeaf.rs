//! Our TeaLeaf output is byte-identical to tealeaf-core 2.0.0-beta.14 (`from_json_with_schemas`,
//! then `to_tl_with_options(FormatOptions::compact().with_compact_floats())`, TeaLeaf's own LLM
//! prompt setting) on our datasets and on any document tealeaf-core itself reads back exactly;
//! every document but a lone scalar renders and reads back. Golden files made with
//! tools/tealeaf_golden/.

use super::toon_golden::check_golden;
use bench::dataset::{self, Structure, Variant};
use bench::formats::{Format, same_value};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

#[test]
fn tealeaf_matches_the_reference_crate() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/tealeaf");
    let mut checked = 0;
    for n in [5u32, 300] {
        let ds = dataset::generate(n, 42);
        for s in Structure::ALL {
            for v in Variant::ALL {
                let doc = ds.document(v, s);
                let path = format!("{dir}/{s}_{v}_{n}_seed42.tl");
                check_golden(Format::Tealeaf, &doc, &path);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 8);
}

#[test]
fn quoting_nulls_and_nesting_round_trip() {
    let doc = json!({"products": [
        {"id": "P-1", "name": "Kettle, large (2L)", "note": "say \"hi\"\n", "price": 19.99,
         "qty": 3, "whole": 5.0, "active": true, "color": null, "tags": ["a b", "c"],
         "supplier": {"name": "Müller & Söhne", "contact": {"email": "x@y.z"}}, "code": "007",
         "word": "true", "dash": "-5", "uni": "日本語 😀", "ctl": "a\u{1}b"},
        {"id": "P-2", "name": "Mat", "note": "", "price": 7, "qty": 0, "whole": 2.5,
         "active": false, "color": "Red", "tags": [],
         "supplier": {"name": "Acme", "contact": {"email": "a@b.c"}}, "code": "x", "word": "w",
         "dash": "-", "uni": "é", "ctl": "\t"}
    ]});
    let text = Format::Tealeaf.encode(&doc).unwrap();
    assert!(
        text.starts_with("@struct contact(email:string)\n"),
        "{text}"
    );
    assert!(
        text.contains("@struct supplier(name:string,contact:contact)"),
        "{text}"
    );
    assert!(text.contains("color:string?"), "{text}");
    assert!(text.contains("(P-1,\"Kettle, large (2L)\","), "{text}");
    assert!(text.contains(",5,"), "whole floats lose .0: {text}");
    let back = Format::Tealeaf.decode(&text).unwrap();
    assert!(same_value(&doc, &back), "{back}");
}

#[test]
fn tilde_is_absent_and_null_is_null() {
    let text = "@struct product(id:string,x:int?,y:int)\nproducts:@table product[\n(a,~,~),\n(b,null,null)\n]\n";
    let back = Format::Tealeaf.decode(text).unwrap();
    assert_eq!(
        back,
        json!({"products": [{"id": "a", "y": null}, {"id": "b", "x": null, "y": null}]})
    );
    let doc = json!({"products": [{"id": "a", "x": 1}, {"id": "b"}]});
    let text = Format::Tealeaf.encode(&doc).unwrap();
    assert!(text.contains("(b,~)"), "{text}");
    assert_eq!(Format::Tealeaf.decode(&text).unwrap(), doc);
}

#[test]
fn bad_input_names_the_line() {
    let e = Format::Tealeaf
        .decode("@struct product(id:string)\nproducts:@table product[\n(a,b)\n]")
        .unwrap_err();
    assert!(e.to_string().contains("line 3"), "{e}");
    assert!(Format::Tealeaf.decode("products:@table nope[(a)]").is_err());
}

#[test]
fn timestamps_read_as_their_text_and_a_last_comma_is_allowed() {
    // As tealeaf-core's lexer and parser read them (TeaLeaf's own analysis.tl has both).
    let text = "@struct call(id:string,at:timestamp)\ncalls:@table call[\n(a,2026-02-14T07:05:08Z),\n(b,2026-02-14),\n]\nrun:{started:2026-02-14T06:57:20.5+01:00,tags:[x,y,],}\n";
    assert_eq!(
        Format::Tealeaf.decode(text).unwrap(),
        json!({
            "calls": [{"id": "a", "at": "2026-02-14T07:05:08Z"}, {"id": "b", "at": "2026-02-14"}],
            "run": {"started": "2026-02-14T06:57:20.5+01:00", "tags": ["x", "y"]}
        })
    );
    // Commas stay required between items, and a date is no number.
    assert!(Format::Tealeaf.decode("xs:[1 2]").is_err());
    assert_eq!(
        Format::Tealeaf.decode("n:2026").unwrap(),
        json!({"n": 2026})
    );
    assert!(Format::Tealeaf.decode("xs:[1,,]").is_err());
}

/// `doc` renders exactly as `want` and reads back to `doc`.
fn renders_as(doc: &Value, want: &str) {
    let text = Format::Tealeaf.encode(doc).unwrap();
    assert_eq!(text, want, "rendering of {doc}");
    round_trips_text(doc, &text);
}

/// `doc` renders and reads back to `doc` (numbers by value, key order kept).
fn round_trips(doc: &Value) -> String {
    let text = Format::Tealeaf
        .encode(doc)
        .unwrap_or_else(|e| panic!("{doc}: {e}"));
    round_trips_text(doc, &text);
    text
}

fn round_trips_text(doc: &Value, text: &str) {
    let back = Format::Tealeaf
        .decode(text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(
        same_value(doc, &back),
        "read back differently:\n{text}\n{back}"
    );
}

// Exact texts below are what tealeaf-core 2.0.0-beta.14 writes (checked with the crate, see
// tools/tealeaf_golden); line references are to its src/lib.rs.

#[test]
fn lists_of_objects_inside_records_are_struct_lists() {
    // analyze_array recurses into `employees` before building `department`, so `employee` is
    // declared first (1242-1270, 1365-1366); the field becomes `[]employee` (1334-1346) and its
    // value one tuple per line between `[` and `]` (write_schema_array, 1929-1950).
    renders_as(
        &json!({"departments": [
            {"name": "Eng", "employees": [{"id": "E-1", "salary": 100}, {"id": "E-2", "salary": 90}]},
            {"name": "Ops", "employees": [{"id": "E-3", "salary": 70}]}
        ]}),
        "@struct employee(id:string,salary:int)\n\
         @struct department(name:string,employees:[]employee)\n\
         departments:@table department[\n\
         (Eng,[\n(E-1,100),\n(E-2,90)\n]),\n\
         (Ops,[\n(E-3,70)\n])\n\
         ]\n",
    );
}

#[test]
fn several_root_keys_are_one_line_each() {
    // One `key:value` line per root key (1654-1660); only lists of objects get structs
    // (1132-1141, 1156-1167); objects outside tables are `{k:v}` (1804-1835), null `~` (1707);
    // `b c` is quoted, `Acme` is not (needs_quoting, 589-633).
    renders_as(
        &json!({"company": "Acme", "year": 2025, "regions": [{"name": "West", "sales": 10}],
                "hq": {"city": "Paris", "geo": {"lat": 48.8, "lon": 2.3}},
                "tags": ["a", "b c"], "note": null}),
        "@struct region(name:string,sales:int)\n\
         company:Acme\n\
         year:2025\n\
         regions:@table region[\n(West,10)\n]\n\
         hq:{city:Paris,geo:{lat:48.8,lon:2.3}}\n\
         tags:[a,\"b c\"]\n\
         note:~\n",
    );
}

#[test]
fn a_root_key_holding_an_object_nests_tables_in_braces() {
    // Members of a root object are searched for lists (analyze_value, 1132-1141); inside `{…}`
    // a list whose key names a struct is a @table (1727-1793); 2.0 is written 2 (788-814).
    renders_as(
        &json!({"config": {"name": "x", "retries": 3,
                "servers": [{"host": "a", "port": 1}, {"host": "b", "port": 2}],
                "limits": {"cpu": 2.0}}}),
        "@struct server(host:string,port:int)\n\
         config:{name:x,retries:3,servers:@table server[\n(a,1),\n(b,2)\n],limits:{cpu:2}}\n",
    );
}

#[test]
fn a_bare_array_goes_under_root_and_reads_back_bare() {
    // from_json stores a root array under "root" and marks it (230-235, 302-308); reading the
    // marker gives the bare array back (360-367).
    renders_as(
        &json!([{"k": "a", "n": 1}, {"k": "b", "n": 2}]),
        "@root-array\n@struct root(k:string,n:int)\nroot:@table root[\n(a,1),\n(b,2)\n]\n",
    );
    renders_as(
        &json!([1, "x", null, [2]]),
        "@root-array\nroot:[1,x,~,[2]]\n",
    );
    renders_as(&json!([]), "@root-array\nroot:[]\n");
}

#[test]
fn a_geojson_feature_collection_nests_structs() {
    // Objects under a record key get structs named after the key (`properties` → `property`,
    // analyze_nested_objects 1372-1543, singularize 1065-1076); `pop` is absent once, so
    // nullable (1222-1227) and `~` there (1905); point and line coordinates merge to a list of
    // anything (merge 962-998, to_field_type 1001-1032).
    renders_as(
        &json!({"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"name": "A", "pop": 10},
             "geometry": {"type": "Point", "coordinates": [1.5, 2.0]}},
            {"type": "Feature", "properties": {"name": "B"},
             "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4.5]]}}
        ]}),
        "@struct property(name:string,pop:int?)\n\
         @struct geometry(type:string,coordinates:[]any)\n\
         @struct feature(type:string,properties:property,geometry:geometry)\n\
         type:FeatureCollection\n\
         features:@table feature[\n\
         (Feature,(A,10),(Point,[1.5,2])),\n\
         (Feature,(B,~),(LineString,[[1,2],[3,4.5]]))\n\
         ]\n",
    );
}

#[test]
fn sparse_records_mark_absent_and_null_apart() {
    // The widest record orders the fields (1151-1182); absent → `~`, null → `null`
    // (write_tuple 1880-1885, 1905).
    renders_as(
        &json!({"orders": [
            {"id": "O-1", "note": "a, \"q\"\nline", "total": 12.5, "paid": true},
            {"id": "O-2", "total": 3, "city": "Zürich"},
            {"id": "O-3", "note": null, "total": -0.25, "paid": false, "city": "東京"}
        ]}),
        "@struct order(id:string,note:string?,total:float,paid:bool?,city:string?)\n\
         orders:@table order[\n\
         (O-1,\"a, \\\"q\\\"\\nline\",12.5,true,~),\n\
         (O-2,~,3,~,\"Zürich\"),\n\
         (O-3,null,-0.25,false,\"東京\")\n\
         ]\n",
    );
}

#[test]
fn objects_mixed_with_other_values_are_any_fields() {
    // An object merged with a string is Mixed, declared `any` (962-998, 1001-1032), and
    // written `{k:v}` in the tuple (1906-1908 → 1804-1835).
    renders_as(
        &json!({"products": [{"d": {"w": 1}}, {"d": "n/a"}]}),
        "@struct d(w:int)\n@struct product(d:any)\nproducts:@table product[\n({w:1}),\n(\"n/a\")\n]\n",
    );
    round_trips(&json!({"products": [{"tags": [{"k": 1}, 5, [{"j": null}]], "x": {}}]}));
}

#[test]
fn only_a_lone_scalar_cannot_be_represented() {
    for doc in [json!(5), json!("x"), json!(null), json!(true)] {
        let e = Format::Tealeaf.encode(&doc).unwrap_err();
        assert!(e.is_cannot_represent(), "{e}");
        assert!(e.to_string().contains("@root-array"), "{e}");
    }
    assert_eq!(Format::Tealeaf.encode(&json!({})).unwrap(), "");
    assert_eq!(Format::Tealeaf.decode("").unwrap(), json!({}));
}

// Where tealeaf-core's own parser would not read its text back to the same JSON, ours differs
// just there (deviations 1-3 in src/formats/tealeaf/mod.rs).

#[test]
fn an_object_that_does_not_fit_its_struct_is_written_in_braces() {
    // tealeaf-core types b.info by name as `info` (1530-1535) and writes `((~))`, reading back
    // {"x": null}; the @struct lines stay its own.
    renders_as(
        &json!({"products": [
            {"a": {"info": {"x": 1}}, "b": {"info": {"y": "two words"}}, "shipping info": {"größe": 3}}
        ]}),
        "@struct info(x:int)\n@struct a(info:info)\n@struct b(info:info)\n\
         @struct product(a:a,b:b,\"shipping info\":any)\n\
         products:@table product[\n(((1)),({y:\"two words\"}),{\"größe\":3})\n]\n",
    );
    // `badge` is absent from one lead but declared non-nullable (1530-1535): `~` would read
    // back as null, so that lead is written in braces.
    renders_as(
        &json!({"teams": [{"name": "A", "lead": {"id": 1, "badge": {"no": 7}}},
                          {"name": "B", "lead": {"id": 2}}]}),
        "@struct badge(no:int)\n@struct lead(id:int,badge:badge)\n@struct team(name:string,lead:lead)\n\
         teams:@table team[\n(A,(1,(7))),\n(B,{id:2})\n]\n",
    );
}

#[test]
fn a_table_needs_every_row_to_fit() {
    // Keys in another order: a tuple would reorder them (tealeaf-core checks the first row
    // only, 1758-1763).
    renders_as(
        &json!({"rows": [{"a": 1, "b": 2}, {"b": 3, "a": 4}]}),
        "@struct row(a:int,b:int)\nrows:[{a:1,b:2},{b:3,a:4}]\n",
    );
    // A scalar where `[]employee` wants a list, which tealeaf-core's parser rejects.
    renders_as(
        &json!({"departments": [{"name": "Eng", "employees": [{"id": "E-1", "salary": 100}]},
                                {"name": "Ops", "employees": "tbd"}]}),
        "@struct employee(id:string,salary:int)\n\
         @struct department(name:string,employees:[]employee)\n\
         departments:[{name:Eng,employees:@table employee[\n(E-1,100)\n]},{name:Ops,employees:tbd}]\n",
    );
}

#[test]
fn struct_names_that_lex_as_keywords_are_not_declared() {
    // `nulls` → `null` (singularize, 1065-1076); tealeaf-core declares `@struct null(` and
    // then fails to parse it.
    renders_as(
        &json!({"nulls": [{"a": 1}], "ok": true}),
        "nulls:[{a:1}]\nok:true\n",
    );
}

#[test]
fn assorted_documents_round_trip() {
    for doc in [
        json!({"a": [], "b": [[1, 2], [3]], "c": [{"x": 1}, 2], "d": {}, "e": [{}], "f": "", "g": [null]}),
        json!({"tree": {"name": "root", "children": [{"name": "a", "children": [{"name": "b", "children": []}]}]}}),
        json!({"items": [{"meta": {"meta": {"x": 1}}}, {"meta": {"meta": {"x": 2}}}]}),
        json!({"strings": [{"s": "x"}], "ints": [{"i": 1}], "anys": [{"a": {"q": 1}}], "v": ["a"]}),
        json!({"big": [1e20, -0.0, 1e-7, 18446744073709551615u64, -9223372036854775808i64]}),
        json!({"weird keys": {"": 1, "true": 2, "-k": 3, "@type": "x", "a.b-c": [{"": 1}]}}),
        json!([[{"a": 1}], {"b": [{"c": {"d": [1, {"e": null}]}}]}]),
        json!({"p": [{"tags": ["a"]}, {"tags": null}, {}], "q": [{"o": {"k": 1}}, {"o": null}, {"o": {"k": 2, "z": 1}}]}),
    ] {
        round_trips(&doc);
    }
}

/// A random document: records sharing a shape with keys left out, nulls, type changes,
/// reordered and extra keys, nested objects and lists of objects.
fn random_doc(rng: &mut ChaCha8Rng) -> Value {
    const KEYS: [&str; 16] = [
        "id",
        "name",
        "items",
        "tags",
        "info",
        "children",
        "address",
        "addresses",
        "type",
        "value",
        "nulls",
        "root",
        "first name",
        "",
        "größe",
        "node",
    ];
    const STRS: [&str; 10] = [
        "a", "", "true", "null", "-5", "007", "a b", "x\ny", "~", "日本",
    ];
    fn scalar(rng: &mut ChaCha8Rng) -> Value {
        match rng.random_range(0..6) {
            0 => json!(rng.random_range(-1000..100000)),
            1 => json!([1.5, 2.0, -0.25, 1e20, 0.1][rng.random_range(0..5)]),
            2 | 3 => json!(STRS[rng.random_range(0..STRS.len())]),
            4 => json!(rng.random_bool(0.5)),
            _ => Value::Null,
        }
    }
    fn record(rng: &mut ChaCha8Rng, keys: &[(&str, u8)], depth: u32) -> Value {
        let mut o = serde_json::Map::new();
        for (k, kind) in keys {
            if rng.random_bool(0.12) {
                continue;
            }
            let v = if rng.random_bool(0.05) || depth == 0 {
                scalar(rng)
            } else {
                match kind {
                    0 => scalar(rng),
                    1 => Value::Array((0..rng.random_range(0..3)).map(|_| scalar(rng)).collect()),
                    2 => {
                        let inner = keyset(rng);
                        record(rng, &inner, depth - 1)
                    }
                    _ => {
                        let inner = keyset(rng);
                        Value::Array(
                            (0..rng.random_range(0..4))
                                .map(|_| record(rng, &inner, depth - 1))
                                .collect(),
                        )
                    }
                }
            };
            o.insert(k.to_string(), v);
        }
        if rng.random_bool(0.04) {
            o.insert(KEYS[rng.random_range(0..KEYS.len())].into(), scalar(rng));
        }
        if rng.random_bool(0.04) {
            o = o.into_iter().rev().collect();
        }
        Value::Object(o)
    }
    fn keyset(rng: &mut ChaCha8Rng) -> Vec<(&'static str, u8)> {
        let mut keys: Vec<(&str, u8)> = Vec::new();
        for _ in 0..rng.random_range(1..5) {
            let k = KEYS[rng.random_range(0..KEYS.len())];
            if keys.iter().all(|(j, _)| *j != k) {
                keys.push((k, rng.random_range(0..4)));
            }
        }
        keys
    }
    if rng.random_bool(0.1) {
        let keys = keyset(rng);
        return Value::Array(
            (0..rng.random_range(0..4))
                .map(|_| record(rng, &keys, 3))
                .collect(),
        );
    }
    let mut root = serde_json::Map::new();
    for _ in 0..rng.random_range(1..4) {
        let keys = keyset(rng);
        let k = KEYS[rng.random_range(0..KEYS.len())].to_string();
        let v = if rng.random_bool(0.6) {
            Value::Array(
                (0..rng.random_range(0..5))
                    .map(|_| record(rng, &keys, 3))
                    .collect(),
            )
        } else {
            record(rng, &keys, 3)
        };
        root.insert(k, v);
    }
    Value::Object(root)
}

#[test]
fn random_documents_round_trip() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..500 {
        round_trips(&random_doc(&mut rng));
    }
}

#[test]
fn markdown_columns_are_the_union_of_keys() {
    let doc = json!({"products": [{"a": 1}, {"a": 2, "b": "x|y"}]});
    let text = Format::MarkdownTable.encode(&doc).unwrap();
    assert!(text.starts_with("| a | b |"), "{text}");
    let back = Format::MarkdownTable
        .decode_as(&text, Some("products"))
        .unwrap();
    assert_eq!(
        back,
        json!({"products": [{"a": 1, "b": null}, {"a": 2, "b": "x|y"}]})
    );
    assert!(
        Format::MarkdownTable
            .encode(&json!({"products": [1]}))
            .is_err()
    );
}
