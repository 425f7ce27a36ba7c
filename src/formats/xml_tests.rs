//! Unit tests of `xml.rs`: keys that are not element names, names XML accepts, escaping.

use super::*;
use serde_json::json;

const DECL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>"#;

/// Encodes `doc` compact and pretty, asserts both read back to `doc`, returns the compact text.
fn round_trip(doc: &Value) -> String {
    for spec in [&XML_COMPACT, &XML_PRETTY] {
        let text = spec
            .encoder
            .encode(doc)
            .unwrap_or_else(|e| panic!("{doc}: {e}"));
        let back = spec
            .encoder
            .decode(&text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(&back, doc, "{}:\n{text}", spec.name);
    }
    XML_COMPACT.encoder.encode(doc).unwrap()
}

#[test]
fn names_follow_the_xml_name_production() {
    for ok in [
        "id", "_x", "a-b.c", "Größe", "名前", "état", "x2", "field", "document",
    ] {
        assert!(valid_name(ok), "{ok}");
    }
    for bad in [
        "",
        "first name",
        "Beak Length (mm)",
        "2024",
        "$ref",
        "-a",
        ".a",
        "a:b",
        "adjusted CO2",
        // Reserved in any case.
        "xml",
        "xmlns",
        "XML_id",
        "Xmlish",
        // Unicode letters and numbers that XML's name tables leave out.
        "µg",
        "ªa",
        "m²",
        "a½",
    ] {
        assert!(!valid_name(bad), "{bad}");
    }
}

#[test]
fn keys_that_are_not_names_become_field_elements() {
    let doc = json!({"penguins": [{"species": "Adelie", "Beak Length (mm)": 39.1, "sex": null}]});
    let text = round_trip(&doc);
    assert_eq!(
        text,
        format!(
            "{DECL}<penguins><penguin><species>Adelie</species>\
             <field name=\"Beak Length (mm)\">39.1</field><sex/></penguin></penguins>"
        )
    );
    let pretty = XML_PRETTY.encoder.encode(&doc).unwrap();
    assert_eq!(
        pretty,
        format!(
            "{DECL}\n<penguins>\n  <penguin>\n    <species>Adelie</species>\n    \
             <field name=\"Beak Length (mm)\">39.1</field>\n    <sex/>\n  </penguin>\n</penguins>"
        )
    );
}

#[test]
fn awkward_keys_round_trip() {
    let doc = json!({"rows": [
        {"Beak Length (mm)": 39.1, "2024": true, "first name": "Ann", "field": "a real key",
         "xmlns": "urn:x", "Größe": 1.8, "名前": "ペンギン", "$ref": "#/a", "adjusted CO2": null,
         "m²": 12},
        {"first name": "Bo", "field": null}
    ]});
    let text = round_trip(&doc);
    for part in [
        "<field name=\"2024\">true</field>",
        "<field>a real key</field>",
        "<field name=\"xmlns\">urn:x</field>",
        "<Größe>1.8</Größe>",
        "<名前>ペンギン</名前>",
        "<field name=\"adjusted CO2\"/>",
        "<field name=\"m²\">12</field>",
        "<row><field name=\"first name\">Bo</field><field/></row>",
    ] {
        assert!(text.contains(part), "{part}\n{text}");
    }
}

#[test]
fn nested_awkward_keys_round_trip() {
    round_trip(&json!({"a b": {"c d": [1, {"field": {"x y": [null, "z", [true]]}}]}, "e": 2}));
    // A list under a key that is not a name holds `<item>`s, whatever the key ends with.
    let text = round_trip(&json!({"rows": [{"adjusted CO2s": ["x", "y"]}]}));
    assert!(
        text.contains("<field name=\"adjusted CO2s\"><item>x</item><item>y</item></field>"),
        "{text}"
    );
    // `<fields>` holds `<field>` items; a `<field name=…>` in it is a key, not an item.
    round_trip(&json!({"fields": {"a b": 1}}));
    round_trip(&json!({"fields": [{"a b": 1}, {"field": 2, "c d": 3}], "n": 1}));
    round_trip(&json!({"fields": ["x", null]}));
}

#[test]
fn a_root_key_that_is_not_a_name_is_wrapped() {
    let doc = json!({"first name": "Ann"});
    assert_eq!(
        round_trip(&doc),
        format!("{DECL}<document><field name=\"first name\">Ann</field></document>")
    );
    assert!(round_trip(&json!({"xml": [1, 2]})).contains("<document><field name=\"xml\">"));
    round_trip(&json!({"2024": {"a": 1}}));
    round_trip(&json!({"a b": null}));
    // The wrapper itself and one-key documents with a name keep their form.
    round_trip(&json!({"document": {"a b": 1}}));
    assert!(round_trip(&json!({"Größe": 1})).starts_with(&format!("{DECL}<Größe>1</Größe>")));
}

#[test]
fn key_attributes_escape_quotes_ampersands_and_angles() {
    let key = "say \"hi\" & <b>'s\tx\ny";
    let doc = json!({"rows": [{ key: 1 }]});
    let text = round_trip(&doc);
    assert!(
        text.contains("<field name=\"say &quot;hi&quot; &amp; &lt;b>'s&#9;x&#10;y\">1</field>"),
        "{text}"
    );
}

#[test]
fn only_types_xml_cannot_say_are_refused() {
    // `<field name="a b"><item>1</item></field>` would read back as the list [1].
    let e = XML_COMPACT
        .encoder
        .encode(&json!({"rows": [{"a b": {"item": 1}}]}))
        .unwrap_err();
    assert!(e.is_cannot_represent(), "{e}");
    assert!(
        e.to_string()
            .contains("rows[0].a b is an object whose only key is 'item'"),
        "{e}"
    );
    let e = XML_COMPACT.encoder.encode(&json!({"a b": []})).unwrap_err();
    assert!(e.to_string().contains("a b is an empty list"), "{e}");
}

#[test]
fn hand_written_field_elements_decode() {
    let text = r#"<r><field name="a &amp; b"/><field>x</field><field name="&#x41;"></field></r>"#;
    assert_eq!(
        XML_COMPACT.encoder.decode(text).unwrap(),
        json!({"r": {"a & b": null, "field": "x", "A": ""}})
    );
    let twice = r#"<r><field name="k">1</field><field name="k">2</field></r>"#;
    let e = XML_COMPACT.encoder.decode(twice).unwrap_err().to_string();
    assert!(e.contains("key 'k' appears twice in <r>"), "{e}");
}
