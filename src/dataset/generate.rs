//! Seeded generation of base product records.

use super::{Dataset, Record, schema::FIELDS};
use chrono::{Duration, NaiveDate, NaiveDateTime};
use rand::{Rng, SeedableRng, seq::IndexedRandom};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

const ADJECTIVES: [&str; 16] = [
    "Ergonomic",
    "Compact",
    "Wireless",
    "Rustic",
    "Premium",
    "Portable",
    "Smart",
    "Classic",
    "Foldable",
    "Heavy-Duty",
    "Eco",
    "Deluxe",
    "Vintage",
    "Modular",
    "Ultra-Light",
    "Quiet",
];
const NOUNS: [&str; 16] = [
    "Desk Lamp",
    "Backpack",
    "Blender",
    "Yoga Mat",
    "Headphones",
    "Water Bottle",
    "Office Chair",
    "Garden Hose",
    "Board Game",
    "Notebook",
    "Kettle",
    "Tent",
    "Keyboard",
    "Plant Pot",
    "Drill",
    "Thermometer",
];
const CATEGORIES: [&str; 8] = [
    "Electronics",
    "Home & Kitchen",
    "Sports",
    "Toys",
    "Books",
    "Garden",
    "Office Supplies",
    "Health",
];
const CURRENCIES: [&str; 3] = ["USD", "EUR", "GBP"];
const WAREHOUSES: [&str; 6] = ["WH-01", "WH-02", "WH-03", "WH-04", "WH-05", "WH-06"];
/// Supplier name, email domain, country: commas, apostrophes and accents on purpose.
const SUPPLIERS: [(&str, &str, &str); 8] = [
    ("Acme Corp", "acme.example", "United States"),
    ("Globex, Inc.", "globex.example", "Canada"),
    ("Müller & Söhne GmbH", "mueller.example", "Germany"),
    ("Nakamura Trading", "nakamura.example", "Japan"),
    ("Côte d'Azur Supply", "cotedazur.example", "France"),
    ("Andes Importers", "andes.example", "Chile"),
    ("Northwind Traders", "northwind.example", "United Kingdom"),
    ("Lotus Manufacturing", "lotus.example", "India"),
];
const COLORS: [&str; 8] = [
    "Red", "Blue", "Black", "White", "Green", "Silver", "Orange", "Gray",
];
const WARRANTIES: [i64; 4] = [6, 12, 24, 36];
const USES: [&str; 8] = [
    "everyday use",
    "small apartments",
    "outdoor trips",
    "the home office",
    "busy kitchens",
    "weekend projects",
    "travel",
    "gifts",
];
const TRAITS: [&str; 8] = [
    "durable",
    "lightweight",
    "easy to clean",
    "energy efficient",
    "water resistant",
    "space saving",
    "quiet",
    "recyclable",
];

/// Probability that an optional field is null in the `optional` variant.
const NULL_PROBABILITY: f64 = 0.3;

/// Generates `n` records from `seed`; both variants come from the same base values.
pub fn generate(n: u32, seed: u64) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mandatory: Vec<Record> = (1..=n).map(|i| record(i, &mut rng)).collect();
    // A separate stream so the null pattern does not shift the base values.
    let mut null_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
    let optional_fields = FIELDS.iter().filter(|f| f.optional).count();
    // Same draw order as materializing the variant: record by record, field by field.
    let null_masks = (0..n)
        .map(|_| {
            (0..optional_fields).fold(0u8, |mask, bit| {
                if null_rng.random_bool(NULL_PROBABILITY) {
                    mask | (1 << bit)
                } else {
                    mask
                }
            })
        })
        .collect();
    Dataset {
        seed,
        mandatory,
        null_masks,
    }
}

fn pick<'a, T>(rng: &mut ChaCha8Rng, items: &'a [T]) -> &'a T {
    items.choose(rng).expect("non-empty list")
}

fn record(i: u32, rng: &mut ChaCha8Rng) -> Record {
    let name = format!("{} {}", pick(rng, &ADJECTIVES), pick(rng, &NOUNS));
    let category = *pick(rng, &CATEGORIES);
    // Whole cents; never a whole number so every format prints the same decimal digits.
    let cents: i64 = rng.random_range(100..100_000);
    let cents = if cents % 100 == 0 { cents + 1 } else { cents };
    let price = cents as f64 / 100.0;
    let stock: i64 = if rng.random_bool(0.12) {
        0
    } else {
        rng.random_range(1..500)
    };
    let min: i64 = rng.random_range(5..50);
    let max: i64 = rng.random_range(200..1000);
    let (supplier, domain, country) = *pick(rng, &SUPPLIERS);
    let created = NaiveDate::from_ymd_opt(2023, 1, 1)
        .expect("valid date")
        .and_hms_opt(0, 0, 0)
        .expect("valid time")
        + Duration::minutes(rng.random_range(0..(365 * 24 * 60)));
    let updated = created + Duration::minutes(rng.random_range(60..(400 * 24 * 60)));
    let restock = updated.date() - Duration::days(rng.random_range(0..90));
    // Ratings x.1..x.9: a whole number would print as "4" in some formats and "4.0" in others.
    let tenths: i64 = rng.random_range(10..50);
    let rating = (if tenths % 10 == 0 { tenths + 1 } else { tenths }) as f64 / 10.0;
    let description = format!(
        "{} {}, {} and {}; made for {}.",
        if rng.random_bool(0.5) { "A" } else { "The" },
        name.to_lowercase(),
        pick(rng, &TRAITS),
        pick(rng, &TRAITS),
        pick(rng, &USES),
    );
    let values = [
        json!(format!("PROD-{i:06}")),
        json!(name),
        json!(category),
        json!(price),
        json!(pick(rng, &CURRENCIES)),
        json!(rng.random_range(1..=8) * 5),
        json!(description),
        json!(stock),
        json!(min),
        json!(max),
        json!(pick(rng, &WAREHOUSES)),
        json!(supplier),
        json!(format!("sales@{domain}")),
        json!(country),
        json!(rng.random_range(1..=60)),
        json!(timestamp(created)),
        json!(timestamp(updated)),
        json!(restock.format("%Y-%m-%d").to_string()),
        json!(rng.random_bool(0.8)),
        json!(rating),
        json!(pick(rng, &COLORS)),
        json!(pick(rng, &WARRANTIES)),
    ];
    FIELDS
        .iter()
        .zip(values)
        .map(|(f, v)| (f.name.to_string(), v))
        .collect()
}

fn timestamp(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Variant;

    #[test]
    fn same_seed_same_records_and_other_seed_differs() {
        let a = generate(50, 7);
        let b = generate(50, 7);
        let c = generate(50, 8);
        assert_eq!(a.mandatory, b.mandatory);
        assert_eq!(a.records(Variant::Optional), b.records(Variant::Optional));
        assert_ne!(a.mandatory, c.mandatory);
    }

    #[test]
    fn optional_variant_only_nulls_optional_fields() {
        let d = generate(200, 1);
        let mut nulls = 0;
        for (m, o) in d.mandatory.iter().zip(d.records(Variant::Optional).iter()) {
            for f in &FIELDS {
                assert!(!m[f.name].is_null(), "mandatory {} null", f.name);
                if o[f.name].is_null() {
                    assert!(f.optional, "{} must never be null", f.name);
                    nulls += 1;
                } else {
                    assert_eq!(m[f.name], o[f.name]);
                }
            }
        }
        assert!(nulls > 100, "expected some nulls, got {nulls}");
    }

    #[test]
    fn decimals_are_never_whole_numbers() {
        let d = generate(500, 3);
        for r in &d.mandatory {
            for key in ["price", "rating"] {
                let x = r[key].as_f64().unwrap();
                assert!(x.fract() != 0.0, "{key} = {x}");
            }
        }
    }
}
