//! Our TOON v3 output is byte-identical to the reference TypeScript encoder
//! (`@toon-format/toon` 2.1.0, keyFolding off and 'safe') on our datasets. Golden files were made
//! with `tools/toon_golden.mjs` from `bench generate --formats json_compact` output (see tools/README.md).

use bench::dataset::{self, Structure, Variant};
use bench::formats::{Format, same_value};
use serde_json::Value;

/// `format` renders `doc` exactly as the golden file at `path` (on failure, the first differing
/// line is shown), and decodes the golden back to `doc`.
pub fn check_golden(format: Format, doc: &Value, path: &str) {
    let golden = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let ours = format.encode(doc).unwrap();
    if ours != golden {
        let line = ours
            .lines()
            .zip(golden.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| ours.lines().count().min(golden.lines().count()));
        panic!(
            "{path}: first difference at line {}:\n ours: {:?}\n gold: {:?}",
            line + 1,
            ours.lines().nth(line),
            golden.lines().nth(line)
        );
    }
    assert!(
        same_value(&format.decode(&golden).unwrap(), doc),
        "{path} decodes back"
    );
}

#[test]
fn toon_v3_matches_reference_golden_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/toon");
    let mut checked = 0;
    for (n, seed) in [(31u32, 42u64), (100, 7)] {
        let ds = dataset::generate(n, seed);
        for s in Structure::ALL {
            for v in Variant::ALL {
                let doc = ds.document(v, s);
                for (format, suffix) in [
                    (Format::ToonDefault, "default"),
                    (Format::ToonKeyfold, "keyfold"),
                ] {
                    let path = format!("{dir}/{s}_{v}_{n}_seed{seed}.{suffix}.toon");
                    check_golden(format, &doc, &path);
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 16);
}

/// Our TOON v4 output is byte-identical to `@toon-format/toon` 4.4.0 (default options) on our
/// datasets; goldens made with tools/toon_v4_golden.mjs.
#[test]
fn toon_v4_matches_reference_golden_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/toon_v4");
    let mut checked = 0;
    for (n, seed) in [(31u32, 42u64), (100, 7)] {
        let ds = dataset::generate(n, seed);
        for s in Structure::ALL {
            for v in Variant::ALL {
                let doc = ds.document(v, s);
                let path = format!("{dir}/{s}_{v}_{n}_seed{seed}.v4.toon");
                check_golden(Format::ToonV4, &doc, &path);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 8);
}
