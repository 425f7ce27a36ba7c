//! Our TeaLeaf output is byte-identical to tealeaf-core 2.0.0-beta.14 (`from_json_with_schemas`,
//! then `to_tl_with_options(FormatOptions::compact().with_compact_floats())`, TeaLeaf's own LLM
//! prompt setting) on our datasets. Golden files made with tools/tealeaf_golden/.

use bench::dataset::{self, Structure, Variant};
use bench::formats::{Format, same_value};

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
                let golden =
                    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                let ours = Format::Tealeaf.encode(&doc).unwrap();
                if let Some(line) = ours.lines().zip(golden.lines()).position(|(a, b)| a != b) {
                    panic!(
                        "{path}: first difference at line {}:\n ours: {:?}\n gold: {:?}",
                        line + 1,
                        ours.lines().nth(line),
                        golden.lines().nth(line)
                    );
                }
                assert_eq!(ours, golden, "{path}");
                assert!(
                    same_value(&Format::Tealeaf.decode(&golden).unwrap(), &doc),
                    "{path}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 8);
}
