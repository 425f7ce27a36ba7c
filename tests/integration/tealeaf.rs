//! Our TeaLeaf output is byte-identical to tealeaf-core 2.0.0-beta.14 (`from_json_with_schemas`,
//! then `to_tl_with_options(FormatOptions::compact().with_compact_floats())`, TeaLeaf's own LLM
//! prompt setting) on our datasets. Golden files made with tools/tealeaf_golden/.

use super::toon_golden::check_golden;
use bench::dataset::{self, Structure, Variant};
use bench::formats::{Format, same_value};
use serde_json::json;

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
fn same_named_structs_with_other_fields_get_their_own_name() {
    let doc = json!({"products": [
        {"a": {"info": {"x": 1}}, "b": {"info": {"y": "two words"}}, "shipping info": {"größe": 3}}
    ]});
    let text = Format::Tealeaf.encode(&doc).unwrap();
    assert!(text.contains("@struct info(x:int)"), "{text}");
    assert!(text.contains("@struct info2(y:string)"), "{text}");
    assert!(text.contains("@struct shipping_info("), "{text}");
    assert_eq!(Format::Tealeaf.decode(&text).unwrap(), doc);
}

#[test]
fn unrepresentable_values_are_errors_not_silent_strings() {
    for doc in [
        json!({"products": [{"tags": [{"k": 1}]}]}),
        json!({"products": [{"d": {"w": 1}}, {"d": "n/a"}]}),
    ] {
        let e = Format::Tealeaf.encode(&doc).unwrap_err().to_string();
        assert!(e.contains("tealeaf"), "{e}");
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
