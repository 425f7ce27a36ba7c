//! Candidate questions per category, in the order they are taken: each category's kinds of
//! question are interleaved so that a small count still mixes them. Fields are named as they
//! appear in the data (dotted paths for nested ones).

use super::profile::{Field, Identifier, Kind, Profile};
use crate::dataset::Record;
use crate::questions::generate::ordinal;
use crate::questions::numbers::integral;
use crate::questions::query::{Func, KeyValue, text};
use crate::questions::{Category, Filter, Position, Query};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::collections::HashSet;

/// How the answer is compared, decided once the expected value is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Text, booleans and ids.
    Exact,
    /// Long text: enough keywords.
    Fuzzy,
    /// A number read from the data, or computed exactly (sums, extremes).
    Number,
    /// A count: exact.
    Count,
    /// An average: to the cent, or 1 % below 1.
    Average,
    /// A list in any order.
    Set,
}

/// A question before its answer is computed.
#[derive(Debug, Clone)]
pub struct Draft {
    /// Category.
    pub category: Category,
    /// Text shown to the model.
    pub text: String,
    /// The query both SQL and the reference evaluate.
    pub query: Query,
    /// Comparison rule.
    pub rule: Rule,
    /// Target record of a retrieval question.
    pub position: Option<Position>,
}

/// What the candidates are drawn from.
pub struct Context<'a> {
    /// The records.
    pub records: &'a [Record],
    /// Their fields.
    pub profile: &'a Profile,
    /// How a question names one record.
    pub id: &'a Identifier,
    /// Seed of every choice.
    pub seed: u64,
}

fn rng(seed: u64, salt: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ salt)
}

/// A JSON value as it appears in question text: strings quoted, others as JSON.
fn shown(v: &Value) -> String {
    v.to_string()
}

/// Takes from each list in turn until all are empty.
fn interleave(groups: Vec<Vec<Draft>>) -> Vec<Draft> {
    let mut iters: Vec<_> = groups.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    loop {
        let before = out.len();
        for it in &mut iters {
            out.extend(it.next());
        }
        if out.len() == before {
            return out;
        }
    }
}

/// A record's id as the query compares it (text) and as the question shows it (as in the
/// data: strings quoted, numbers bare).
fn id_of(r: &Record, id: &str) -> (String, String) {
    // The identifier is set in every record (`profile::identify` checked it).
    let v = crate::questions::query::field(r, id).unwrap_or(&Value::Null);
    (text(v), shown(v))
}

/// The question text naming the record at `index` and the query reading `field` of it.
fn named(cx: &Context, index: usize, field: &str) -> (String, Query) {
    let r = &cx.records[index];
    match cx.id {
        Identifier::Field(key) => {
            let (id, id_shown) = id_of(r, key);
            (
                format!("the record whose `{key}` is {id_shown}"),
                Query::Get {
                    id,
                    field: field.to_string(),
                    key: Some(key.clone()),
                },
            )
        }
        Identifier::Fields(keys) => {
            let parts: Vec<(KeyValue, String)> = keys
                .iter()
                .map(|k| {
                    let (value, shown) = id_of(r, k);
                    let part = format!("`{k}` is {shown}");
                    (
                        KeyValue {
                            field: k.clone(),
                            value,
                        },
                        part,
                    )
                })
                .collect();
            let words: Vec<&str> = parts.iter().map(|(_, p)| p.as_str()).collect();
            (
                format!("the record whose {}", and_list(&words)),
                Query::GetByKeys {
                    keys: parts.into_iter().map(|(k, _)| k).collect(),
                    field: field.to_string(),
                },
            )
        }
        Identifier::Position => (
            format!(
                "record number {} (counting from 1, in the order given)",
                index + 1
            ),
            Query::IdAt {
                index,
                key: Some(field.to_string()),
            },
        ),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Retrieval: one field of one record named by its id, targets spread over the start, middle
/// and end thirds; at most `want`, never the same (record, field) twice.
pub fn retrieval(cx: &Context, want: usize) -> Vec<Draft> {
    let fields: Vec<&Field> = cx
        .profile
        .usable()
        .filter(|f| {
            !cx.id.is_key(&f.path)
                && matches!(
                    f.kind,
                    Some(Kind::Number | Kind::Text | Kind::Bool | Kind::List)
                )
        })
        .collect();
    let n = cx.records.len();
    let capacity = (n * fields.len()).min(want);
    let mut rng = rng(cx.seed, 0x5245_5452); // "RETR"
    let third = n.div_ceil(3).max(1);
    // Thirds of the records, cycled so targets spread over start, middle and end.
    let bounds = [
        (0, third.min(n)),
        (third.min(n - 1), (2 * third).min(n)),
        ((n - third).min(n - 1), n),
    ];
    let mut used = HashSet::new();
    let mut out = Vec::with_capacity(capacity);
    let mut round: Vec<&Field> = Vec::new();
    let mut k = 0;
    while out.len() < capacity {
        if round.is_empty() {
            round = fields.clone();
            round.shuffle(&mut rng);
        }
        let f = round.pop().expect("refilled");
        let (lo, hi) = bounds[k % 3];
        k += 1;
        // A free record in this third, else anywhere (small data runs out of pairs).
        let mut index = rng.random_range(lo..hi.max(lo + 1));
        if used.contains(&(index, f.path.clone())) {
            match (0..n)
                .map(|d| (index + d) % n)
                .find(|i| !used.contains(&(*i, f.path.clone())))
            {
                Some(i) => index = i,
                None => continue,
            }
        }
        used.insert((index, f.path.clone()));
        let (which, query) = named(cx, index, &f.path);
        let rule = match f.kind {
            Some(Kind::Number) => Rule::Number,
            Some(Kind::List) => Rule::Set,
            // Prose is graded by keywords, as the product descriptions are.
            Some(Kind::Text) if f.words >= 8 => Rule::Fuzzy,
            _ => Rule::Exact,
        };
        out.push(Draft {
            category: Category::FieldRetrieval,
            text: format!("What is the value of `{}` in {which}?", f.path),
            query,
            rule,
            position: Some(Position {
                label: position_label(index, n).to_string(),
                index,
            }),
        });
    }
    out
}

/// The third of the records `index` falls in.
fn position_label(index: usize, n: usize) -> &'static str {
    match (3 * index) / n.max(1) {
        0 => "start",
        1 => "middle",
        _ => "end",
    }
}

fn draft(category: Category, text: String, query: Query, rule: Rule) -> Draft {
    Draft {
        category,
        text,
        query,
        rule,
        position: None,
    }
}

/// Structure: record count, field names (nested objects too), sparse fields, distinct values,
/// record order.
pub fn structure(cx: &Context, want: usize) -> Vec<Draft> {
    let cat = Category::StructureAwareness;
    let mut rng = rng(cx.seed, 0x5354_5255); // "STRU"
    let p = cx.profile;
    let n = cx.records.len();
    let mut first = vec![
        draft(cat, "How many records are in the data?".into(), Query::CountRecords, Rule::Count),
        draft(
            cat,
            "List the names of the top-level fields of the records (every field that appears in any record).".into(),
            Query::Fields { of: None },
            Rule::Set,
        ),
    ];
    if p.fields.iter().any(|f| f.parent.is_none() && f.sparse()) {
        first.push(draft(
            cat,
            "List the top-level fields that are missing or null in at least one record.".into(),
            Query::SparseFields { of: None },
            Rule::Set,
        ));
    }
    let objects: Vec<&Field> = p
        .usable()
        .filter(|f| f.kind == Some(Kind::Object))
        .collect();
    let mut fields: Vec<Draft> = objects
        .iter()
        .map(|o| {
            draft(
                cat,
                format!(
                    "List the names of the fields inside `{}` (in any record).",
                    o.path
                ),
                Query::Fields {
                    of: Some(o.path.clone()),
                },
                Rule::Set,
            )
        })
        .collect();
    let mut sparse: Vec<Draft> = objects
        .iter()
        .filter(|o| p.fields.iter().any(|f| f.parent.as_deref() == Some(&o.path) && f.sparse()))
        .map(|o| {
            draft(
                cat,
                format!(
                    "List the fields inside `{}` that are missing or null in at least one record that has `{}`.",
                    o.path, o.path
                ),
                Query::SparseFields { of: Some(o.path.clone()) },
                Rule::Set,
            )
        })
        .collect();
    let mut distinct: Vec<Draft> = p
        .usable()
        .filter(|f| f.categorical() && !cx.id.is_key(&f.path))
        .map(|f| {
            draft(
                cat,
                format!(
                    "List the distinct values of `{}` (ignoring missing values).",
                    f.path
                ),
                Query::Distinct {
                    field: f.path.clone(),
                },
                Rule::Set,
            )
        })
        .collect();
    let mut count_distinct: Vec<Draft> = p
        .usable()
        .filter(|f| f.kind == Some(Kind::Text) && !cx.id.is_key(&f.path))
        .map(|f| {
            draft(
                cat,
                format!(
                    "How many distinct values does `{}` take (ignoring missing values)?",
                    f.path
                ),
                Query::CountDistinct {
                    field: f.path.clone(),
                },
                Rule::Count,
            )
        })
        .collect();
    let mut positions: Vec<usize> = (0..n).collect();
    positions.shuffle(&mut rng);
    // First and last first: they are the order questions people ask.
    positions.retain(|&i| i != 0 && i != n - 1);
    let mut order = vec![0];
    if n > 1 {
        order.push(n - 1);
    }
    order.extend(positions.iter().copied());
    let mut after: Vec<usize> = (0..n.saturating_sub(1)).collect();
    after.shuffle(&mut rng);
    let (id_at, next) = order_questions(cx, &order, &after);
    for g in [&mut fields, &mut sparse, &mut distinct, &mut count_distinct] {
        g.shuffle(&mut rng);
    }
    first.extend(interleave(vec![
        fields,
        sparse,
        distinct,
        count_distinct,
        id_at,
        next,
    ]));
    first.truncate(want);
    first
}

/// Record-order questions: the key of the record at a position, and of the record after one
/// named by its key. A composite key asks its first field by position and no "after"
/// question (the record is named by all of them); a position identifier asks neither, as its
/// retrieval questions already name records by position.
fn order_questions(cx: &Context, order: &[usize], after: &[usize]) -> (Vec<Draft>, Vec<Draft>) {
    let cat = Category::StructureAwareness;
    let n = cx.records.len();
    let Some(key) = cx.id.fields().first() else {
        return (Vec::new(), Vec::new());
    };
    let id_at = order
        .iter()
        .map(|&i| {
            let which = if i == n - 1 && n > 1 {
                "last record".to_string()
            } else {
                format!("{} record", ordinal(i + 1))
            };
            draft(
                cat,
                format!("What is the `{key}` of the {which}?"),
                Query::IdAt {
                    index: i,
                    key: Some(key.clone()),
                },
                Rule::Exact,
            )
        })
        .collect();
    let Identifier::Field(key) = cx.id else {
        return (id_at, Vec::new());
    };
    let next = after
        .iter()
        .map(|&i| {
            let (id, id_shown) = id_of(&cx.records[i], key);
            draft(
                cat,
                format!(
                    "What is the `{key}` of the record right after the one whose `{key}` is {id_shown}?"
                ),
                Query::NextId {
                    id,
                    key: Some(key.clone()),
                },
                Rule::Exact,
            )
        })
        .collect();
    (id_at, next)
}

/// Distinct values of a numeric field at the 10th, 25th, 50th, 75th and 90th percentiles.
fn percentiles(f: &Field) -> Vec<f64> {
    let mut xs = f.numbers.clone();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    if xs.len() < 5 {
        return Vec::new();
    }
    [10, 25, 50, 75, 90]
        .iter()
        .map(|q| xs[xs.len() * q / 100])
        .collect()
}

/// The median of a numeric field's distinct values.
fn median(f: &Field) -> Option<f64> {
    percentiles(f).get(2).copied()
}

/// Up to `n` values of a text or boolean field that occur more than once, most common first.
fn repeated(f: &Field, n: usize) -> Vec<Value> {
    let Some(d) = f
        .distinct
        .as_ref()
        .filter(|_| matches!(f.kind, Some(Kind::Text | Kind::Bool)))
    else {
        return Vec::new();
    };
    // A field with one value everywhere makes a trivial filter.
    if d.len() < 2 {
        return Vec::new();
    }
    let mut vs: Vec<(&String, &usize)> = d.iter().filter(|(_, c)| **c > 1).collect();
    vs.sort_by_key(|(t, c)| (std::cmp::Reverse(**c), *t));
    vs.into_iter()
        .take(n)
        .map(|(t, _)| match f.kind {
            Some(Kind::Bool) => Value::Bool(t == "true"),
            _ => Value::String(t.clone()),
        })
        .collect()
}

/// Filtering: counts of records matching a value, a numeric bound, both, or a missing value.
pub fn filtering(cx: &Context, want: usize) -> Vec<Draft> {
    let cat = Category::Filtering;
    let mut rng = rng(cx.seed, 0x4649_4c54); // "FILT"
    let p = cx.profile;
    let count =
        |text: String, filter: Filter| draft(cat, text, Query::CountWhere { filter }, Rule::Count);
    let categorical: Vec<&Field> = p
        .usable()
        .filter(|f| !cx.id.is_key(&f.path) && !repeated(f, 1).is_empty())
        .collect();
    let numeric: Vec<&Field> = p
        .usable()
        .filter(|f| f.kind == Some(Kind::Number) && !cx.id.is_key(&f.path))
        .collect();
    let mut eq = Vec::new();
    for f in &categorical {
        for v in repeated(f, 6) {
            eq.push(count(
                format!("How many records have `{}` equal to {}?", f.path, shown(&v)),
                Filter::Eq {
                    field: f.path.clone(),
                    value: v,
                },
            ));
        }
    }
    let mut bounds = Vec::new();
    for f in &numeric {
        if let [p10, p25, p50, p75, p90] = percentiles(f).as_slice() {
            for x in [p90, p50, p75] {
                bounds.push(count(
                    format!(
                        "How many records have `{}` greater than {}?",
                        f.path,
                        integral(*x)
                    ),
                    Filter::Gt {
                        field: f.path.clone(),
                        value: *x,
                    },
                ));
            }
            for x in [p10, p25] {
                bounds.push(count(
                    format!(
                        "How many records have `{}` less than {}?",
                        f.path,
                        integral(*x)
                    ),
                    Filter::Lt {
                        field: f.path.clone(),
                        value: *x,
                    },
                ));
            }
        }
    }
    let mut both = Vec::new();
    for c in &categorical {
        let Some(v) = repeated(c, 1).pop() else {
            continue;
        };
        for f in &numeric {
            if let Some(mid) = median(f).as_ref() {
                both.push(count(
                    format!(
                        "How many records have `{}` equal to {} and `{}` greater than {}?",
                        c.path,
                        shown(&v),
                        f.path,
                        integral(*mid)
                    ),
                    Filter::And {
                        all: vec![
                            Filter::Eq {
                                field: c.path.clone(),
                                value: v.clone(),
                            },
                            Filter::Gt {
                                field: f.path.clone(),
                                value: *mid,
                            },
                        ],
                    },
                ));
            }
        }
    }
    let mut missing: Vec<Draft> = p
        .usable()
        .filter(|f| f.sparse() && f.kind != Some(Kind::Object))
        .map(|f| {
            count(
                format!(
                    "How many records have no value for `{}` (missing or null)?",
                    f.path
                ),
                Filter::IsNull {
                    field: f.path.clone(),
                },
            )
        })
        .collect();
    for g in [&mut eq, &mut bounds, &mut both, &mut missing] {
        g.shuffle(&mut rng);
    }
    let mut out = interleave(vec![eq, bounds, both, missing]);
    out.truncate(want);
    out
}

/// Aggregation: sum, average, minimum and maximum of numeric fields, over all records or
/// those with a common categorical value.
pub fn aggregation(cx: &Context, want: usize) -> Vec<Draft> {
    let cat = Category::Aggregation;
    let mut rng = rng(cx.seed, 0x4147_4752); // "AGGR"
    let p = cx.profile;
    let numeric: Vec<&Field> = p
        .usable()
        .filter(|f| f.kind == Some(Kind::Number) && !cx.id.is_key(&f.path))
        .collect();
    let categorical: Vec<&Field> = p
        .usable()
        .filter(|f| !cx.id.is_key(&f.path) && !repeated(f, 1).is_empty())
        .collect();
    let funcs = [
        (Func::Sum, "sum", Rule::Number),
        (Func::Avg, "average", Rule::Average),
        (Func::Min, "minimum", Rule::Number),
        (Func::Max, "maximum", Rule::Number),
    ];
    let mut groups: Vec<Vec<Draft>> = Vec::new();
    for (func, word, rule) in funcs {
        let mut g: Vec<Draft> = numeric
            .iter()
            .map(|f| {
                draft(
                    cat,
                    format!(
                        "What is the {word} of `{}` over all records (skipping missing values)?",
                        f.path
                    ),
                    Query::Aggregate {
                        func,
                        field: f.path.clone(),
                        filter: None,
                    },
                    rule,
                )
            })
            .collect();
        g.shuffle(&mut rng);
        groups.push(g);
    }
    let mut filtered = Vec::new();
    for c in &categorical {
        for v in repeated(c, 3) {
            for f in &numeric {
                for (func, word, rule) in funcs {
                    filtered.push(draft(
                    cat,
                    format!(
                        "What is the {word} of `{}` over the records whose `{}` is {} (skipping missing values)?",
                        f.path,
                        c.path,
                        shown(&v)
                    ),
                    Query::Aggregate {
                        func,
                        field: f.path.clone(),
                        filter: Some(Filter::Eq { field: c.path.clone(), value: v.clone() }),
                    },
                    rule,
                ));
                }
            }
        }
    }
    filtered.shuffle(&mut rng);
    groups.push(filtered);
    let mut out = interleave(groups);
    out.truncate(want);
    out
}
