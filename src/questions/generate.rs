//! Question generators, one per category. Texts are structure-neutral: fields are named by
//! their label, never by a key, so one question set serves flat and nested renderings.

use super::query::{Filter, Func, Query};
use super::{Category, Position, Question, Validation};
use crate::dataset::Record;
use crate::dataset::schema::{FIELDS, Field, Kind, field};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// Tolerance for averages: answers rounded to cents are right.
const AVG_TOLERANCE: f64 = 0.01;
/// Tolerance for exact numbers read or computed from the data (float noise only).
const EXACT_TOLERANCE: f64 = 1e-6;

/// A question before its id is assigned and its answer computed.
struct Draft {
    category: Category,
    text: String,
    validation: Validation,
    query: Query,
    position: Option<Position>,
}

fn draft(category: Category, text: String, validation: Validation, query: Query) -> Draft {
    Draft {
        category,
        text,
        validation,
        query,
        position: None,
    }
}

/// Generates the 124 questions for one variant's records; expected answers are evaluated on them.
/// The same seed and records give the same questions.
pub fn generate(records: &[Record], seed: u64) -> Vec<Question> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(0x5155_4553)); // "QUES"
    let mut drafts = retrieval(records, &mut rng);
    drafts.extend(structure(records, &mut rng));
    drafts.extend(filtering(records, &mut rng));
    drafts.extend(aggregation(records, &mut rng));
    let answers = evaluate_all(&drafts, records);
    drafts
        .into_iter()
        .zip(answers)
        .enumerate()
        .map(|(i, (d, expected))| {
            // A null answer (missing value) is compared as text "null", whatever the field kind.
            let validation = if expected.is_null() {
                Validation::Exact
            } else {
                d.validation
            };
            Question {
                id: format!("q{:03}", i + 1),
                category: d.category,
                text: d.text,
                expected,
                validation,
                query: d.query,
                position: d.position,
            }
        })
        .collect()
}

/// Each draft's expected answer, on every core (most queries read every record; one draft per
/// task, so the costly ones at the end are shared out by work stealing).
fn evaluate_all(drafts: &[Draft], records: &[Record]) -> Vec<Value> {
    use rayon::prelude::*;
    drafts
        .par_iter()
        .with_max_len(1)
        .map(|d| d.query.evaluate(records))
        .collect()
}

fn id_at(records: &[Record], i: usize) -> String {
    records[i]["id"].as_str().unwrap_or_default().to_string()
}

fn validation_for(f: &Field) -> Validation {
    match f.kind {
        Kind::Integer | Kind::Decimal => Validation::Numeric {
            tolerance: EXACT_TOLERANCE,
        },
        Kind::LongText => Validation::Fuzzy,
        Kind::Text | Kind::Categorical | Kind::Boolean => Validation::Exact,
    }
}

fn retrieval(records: &[Record], rng: &mut ChaCha8Rng) -> Vec<Draft> {
    let n = records.len();
    let fields: Vec<&Field> = FIELDS.iter().filter(|f| f.name != "id").collect();
    let mut order: Vec<&Field> = Vec::new();
    let count = Category::FieldRetrieval.count();
    while order.len() < count {
        let mut round = fields.clone();
        round.shuffle(rng);
        order.extend(round);
    }
    // Thirds of the data; for tiny inputs they overlap rather than go empty.
    let third = n.div_ceil(3).max(1);
    let bounds = [
        ("start", 0, third.min(n)),
        ("middle", third.min(n - 1), (2 * third).min(n)),
        ("end", (n - third).min(n - 1), n),
    ];
    order
        .into_iter()
        .take(count)
        .enumerate()
        .map(|(k, f)| {
            let (label, lo, hi) = bounds[k % 3];
            let index = rng.random_range(lo..hi.max(lo + 1));
            let id = id_at(records, index);
            Draft {
                category: Category::FieldRetrieval,
                text: format!("What is the {} of the product with ID {id}?", f.label),
                validation: validation_for(f),
                query: Query::Get {
                    id,
                    field: f.name.to_string(),
                    key: None,
                },
                position: Some(Position {
                    label: label.to_string(),
                    index,
                }),
            }
        })
        .collect()
}

/// `1st`, `2nd`, `3rd`, `11th`…
pub(super) fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn structure(records: &[Record], rng: &mut ChaCha8Rng) -> Vec<Draft> {
    let n = records.len();
    let cat = Category::StructureAwareness;
    let exact_num = || Validation::Numeric { tolerance: 0.0 };
    let mut out = vec![draft(
        cat,
        "How many products are in the data?".into(),
        exact_num(),
        Query::CountRecords,
    )];
    for name in ["category", "supplier_country", "warehouse_code", "currency"] {
        let label = field(name).expect("schema field").label;
        out.push(draft(
            cat,
            format!("List every distinct {label} that appears in the data."),
            Validation::ArraySet,
            Query::Distinct { field: name.into() },
        ));
    }
    for name in [
        "category",
        "supplier_name",
        "supplier_country",
        "warehouse_code",
    ] {
        let label = field(name).expect("schema field").label;
        out.push(draft(
            cat,
            format!("How many distinct values of {label} appear in the data?"),
            exact_num(),
            Query::CountDistinct { field: name.into() },
        ));
    }
    out.push(draft(
        cat,
        "What is the ID of the first product in the list?".into(),
        Validation::Exact,
        Query::IdAt {
            index: 0,
            key: None,
        },
    ));
    out.push(draft(
        cat,
        "What is the ID of the last product in the list?".into(),
        Validation::Exact,
        Query::IdAt {
            index: n - 1,
            key: None,
        },
    ));
    let mut k = 0;
    while out.len() < cat.count() {
        if k % 2 == 0 || n < 2 {
            let index = rng.random_range(0..n);
            out.push(draft(
                cat,
                format!(
                    "What is the ID of the {} product in the list?",
                    ordinal(index + 1)
                ),
                Validation::Exact,
                Query::IdAt { index, key: None },
            ));
        } else {
            let id = id_at(records, rng.random_range(0..n - 1));
            out.push(draft(
                cat,
                format!("Which product ID comes immediately after {id} in the list?"),
                Validation::Exact,
                Query::NextId { id, key: None },
            ));
        }
        k += 1;
    }
    out
}

/// `k` distinct items in random order, repeating when there are fewer than `k`.
fn pick_k(items: &[String], k: usize, rng: &mut ChaCha8Rng) -> Vec<String> {
    let chosen: Vec<String> = items.choose_multiple(rng, k).cloned().collect();
    chosen.iter().cycle().take(k).cloned().collect()
}

/// Distinct string values of a field, in first-seen order.
fn values_of(records: &[Record], name: &str) -> Vec<String> {
    let mut seen = Vec::new();
    for r in records {
        if let Some(s) = r.get(name).and_then(Value::as_str)
            && !seen.iter().any(|x| x == s)
        {
            seen.push(s.to_string());
        }
    }
    seen
}

fn eq(field: &str, value: &str) -> Filter {
    Filter::Eq {
        field: field.into(),
        value: json!(value),
    }
}

fn filtering(records: &[Record], rng: &mut ChaCha8Rng) -> Vec<Draft> {
    let cat = Category::Filtering;
    let count = |text: String, filter: Filter| {
        draft(
            cat,
            text,
            Validation::Numeric { tolerance: 0.0 },
            Query::CountWhere { filter },
        )
    };
    let categories = values_of(records, "category");
    let countries = values_of(records, "supplier_country");
    let prices: Vec<f64> = records.iter().filter_map(|r| r["price"].as_f64()).collect();
    let some_price = |rng: &mut ChaCha8Rng| prices.choose(rng).copied().unwrap_or(100.0).floor();
    let mut out = Vec::new();
    for c in &pick_k(&categories, 4, rng) {
        out.push(count(
            format!("How many products are in the category \"{c}\"?"),
            eq("category", c),
        ));
    }
    out.push(count(
        "How many products are out of stock (stock quantity of 0)?".into(),
        Filter::Eq {
            field: "stock_quantity".into(),
            value: json!(0),
        },
    ));
    out.push(count(
        "How many products have a stock quantity below their minimum stock threshold?".into(),
        Filter::LtField {
            field: "stock_quantity".into(),
            other: "min_stock_threshold".into(),
        },
    ));
    out.push(count(
        "How many products are not active?".into(),
        Filter::Eq {
            field: "is_active".into(),
            value: json!(false),
        },
    ));
    let hi = some_price(rng);
    out.push(count(
        format!("How many products have a price greater than {hi}?"),
        Filter::Gt {
            field: "price".into(),
            value: hi,
        },
    ));
    let lo = some_price(rng);
    out.push(count(
        format!("How many products have a price less than {lo}?"),
        Filter::Lt {
            field: "price".into(),
            value: lo,
        },
    ));
    out.push(count(
        "How many products have a customer rating of 4.0 or higher?".into(),
        Filter::Ge {
            field: "rating".into(),
            value: 4.0,
        },
    ));
    out.push(count(
        "How many products have a supplier lead time of more than 30 days?".into(),
        Filter::Gt {
            field: "lead_time_days".into(),
            value: 30.0,
        },
    ));
    for c in &pick_k(&countries, 2, rng) {
        out.push(count(
            format!("How many products come from a supplier in {c}?"),
            eq("supplier_country", c),
        ));
    }
    for f in FIELDS.iter().filter(|f| f.optional) {
        out.push(count(
            format!("How many products have no {} (a null value)?", f.label),
            Filter::IsNull {
                field: f.name.into(),
            },
        ));
    }
    for c in &pick_k(&categories, 2, rng) {
        // A bound near the top of the category keeps the list short at any record count.
        let mut in_cat: Vec<f64> = records
            .iter()
            .filter(|r| r["category"] == json!(c))
            .filter_map(|r| r["price"].as_f64())
            .collect();
        in_cat.sort_by(|a, b| b.total_cmp(a));
        let bound = in_cat
            .get(4.min(in_cat.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0.0)
            .floor();
        out.push(draft(
            cat,
            format!("List the IDs of all products in the category \"{c}\" with a price greater than {bound}."),
            Validation::ArraySet,
            Query::IdsWhere { filter: Filter::And { all: vec![eq("category", c), Filter::Gt { field: "price".into(), value: bound }] } },
        ));
    }
    let warehouse = values_of(records, "warehouse_code")
        .choose(rng)
        .cloned()
        .unwrap_or_default();
    out.push(draft(
        cat,
        format!("List the IDs of all out-of-stock products (stock quantity of 0) stored in warehouse {warehouse}."),
        Validation::ArraySet,
        Query::IdsWhere {
            filter: Filter::And {
                all: vec![eq("warehouse_code", &warehouse), Filter::Eq { field: "stock_quantity".into(), value: json!(0) }],
            },
        },
    ));
    out.push(count(
        "How many products are priced in EUR?".into(),
        eq("currency", "EUR"),
    ));
    out.push(count(
        "How many active products have a stock quantity greater than 100?".into(),
        Filter::And {
            all: vec![
                Filter::Eq {
                    field: "is_active".into(),
                    value: json!(true),
                },
                Filter::Gt {
                    field: "stock_quantity".into(),
                    value: 100.0,
                },
            ],
        },
    ));
    out
}

fn aggregation(records: &[Record], rng: &mut ChaCha8Rng) -> Vec<Draft> {
    let cat = Category::Aggregation;
    let agg = |func: Func, name: &str, filter: Option<Filter>, text: String| {
        let tolerance = if func == Func::Avg {
            AVG_TOLERANCE
        } else {
            EXACT_TOLERANCE
        };
        draft(
            cat,
            text,
            Validation::Numeric { tolerance },
            Query::Aggregate {
                func,
                field: name.into(),
                filter,
            },
        )
    };
    let label = |name: &str| field(name).expect("schema field").label;
    let categories = values_of(records, "category");
    let countries = values_of(records, "supplier_country");
    let mut out = vec![
        agg(
            Func::Sum,
            "stock_quantity",
            None,
            "What is the total stock quantity of all products?".into(),
        ),
        agg(
            Func::Avg,
            "price",
            None,
            "What is the average price of all products?".into(),
        ),
        agg(
            Func::Max,
            "price",
            None,
            "What is the highest price of any product?".into(),
        ),
        agg(
            Func::Min,
            "price",
            None,
            "What is the lowest price of any product?".into(),
        ),
        agg(
            Func::Avg,
            "rating",
            None,
            "What is the average customer rating of all products?".into(),
        ),
    ];
    for c in &pick_k(&categories, 3, rng) {
        out.push(agg(
            Func::Sum,
            "stock_quantity",
            Some(eq("category", c)),
            format!("What is the total stock quantity of products in the category \"{c}\"?"),
        ));
    }
    for c in &pick_k(&categories, 2, rng) {
        out.push(agg(
            Func::Avg,
            "price",
            Some(eq("category", c)),
            format!("What is the average price of products in the category \"{c}\"?"),
        ));
    }
    out.push(agg(
        Func::Max,
        "lead_time_days",
        None,
        format!("What is the longest {}?", label("lead_time_days")),
    ));
    out.push(agg(
        Func::Min,
        "lead_time_days",
        None,
        format!("What is the shortest {}?", label("lead_time_days")),
    ));
    out.push(agg(
        Func::Avg,
        "lead_time_days",
        None,
        format!("What is the average {}?", label("lead_time_days")),
    ));
    for name in ["discount_percent", "warranty_months"] {
        out.push(agg(
            Func::Avg,
            name,
            None,
            format!(
                "What is the average {} across products that have one (ignore nulls)?",
                label(name)
            ),
        ));
    }
    out.push(agg(
        Func::Max,
        "stock_quantity",
        None,
        "What is the highest stock quantity of any product?".into(),
    ));
    let country = countries.choose(rng).cloned().unwrap_or_default();
    out.push(agg(
        Func::Sum,
        "stock_quantity",
        Some(eq("supplier_country", &country)),
        format!("What is the total stock quantity of products from suppliers in {country}?"),
    ));
    out.push(agg(
        Func::Avg,
        "rating",
        Some(Filter::Eq {
            field: "is_active".into(),
            value: json!(true),
        }),
        "What is the average customer rating of active products?".into(),
    ));
    out.push(agg(
        Func::Min,
        "rating",
        None,
        "What is the lowest customer rating of any product?".into(),
    ));
    out.push(agg(
        Func::Max,
        "rating",
        None,
        "What is the highest customer rating of any product?".into(),
    ));
    out.push(agg(
        Func::Sum,
        "min_stock_threshold",
        None,
        "What is the sum of the minimum stock thresholds of all products?".into(),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset;

    #[test]
    fn counts_per_category_hold_for_any_size() {
        for n in [1, 2, 3, 31, 100] {
            let d = dataset::generate(n, 5);
            for v in crate::dataset::Variant::ALL {
                let qs = generate(&d.records(v), 5);
                assert_eq!(qs.len(), 124, "n={n}");
                for c in Category::ALL {
                    assert_eq!(
                        qs.iter().filter(|q| q.category == c).count(),
                        c.count(),
                        "n={n} {c}"
                    );
                }
            }
        }
    }

    #[test]
    fn retrieval_covers_start_middle_end_and_records_position() {
        let d = dataset::generate(31, 9);
        let qs = generate(&d.mandatory, 9);
        for label in ["start", "middle", "end"] {
            let hits: Vec<_> = qs
                .iter()
                .filter_map(|q| q.position.as_ref())
                .filter(|p| p.label == label)
                .collect();
            assert!(hits.len() >= 18, "{label}: {}", hits.len());
            for p in hits {
                let ok = match label {
                    "start" => p.index < 11,
                    "middle" => (11..22).contains(&p.index),
                    _ => p.index >= 20,
                };
                assert!(ok, "{label} at {}", p.index);
            }
        }
    }

    #[test]
    fn optional_variant_asks_about_nulls() {
        let d = dataset::generate(31, 42);
        let qs = generate(&d.records(crate::dataset::Variant::Optional), 42);
        let null_counts: Vec<_> = qs
            .iter()
            .filter(|q| q.text.contains("null value"))
            .collect();
        assert_eq!(null_counts.len(), 3);
        assert!(null_counts.iter().any(|q| q.expected.as_u64().unwrap() > 0));
    }
}
