//! Expected answers by SQL: the records go into an in-memory DuckDB table `s(pos, rec JSON)`
//! and each question's query is translated to SQL over it. This is a second, independent
//! implementation of the query semantics: the reference answerer evaluates the same query in
//! Rust (`Query::evaluate`) on what it decodes from a rendering, so agreement between the two
//! on every format is the proof that renderings, answer key and evaluator are all right.

use crate::analytics::sql_string;
use crate::dataset::Record;
use crate::questions::query::Func;
use crate::questions::sql::{db_err, integral, raw_records};
use crate::questions::{Filter, Query};
use duckdb::Connection;
use serde_json::Value;

/// The records loaded into DuckDB.
pub struct Truth(Connection);

impl Truth {
    /// Loads `records` (in order: `pos` is the 0-based index) into a fresh in-memory DuckDB.
    pub fn load(records: &[Record]) -> Result<Self, String> {
        let c = raw_records(records)?;
        c.execute_batch(
            "CREATE TABLE s AS SELECT pos, txt AS rec FROM raw ORDER BY pos; DROP TABLE raw",
        )
        .map_err(db_err)?;
        Ok(Self(c))
    }

    /// The query's answer computed by SQL, as JSON (integral numbers as integers).
    pub fn eval(&self, q: &Query) -> Result<Value, String> {
        let sql = format!("SELECT to_json(({}))::VARCHAR", sql(q)?);
        let text: Option<String> = self
            .0
            .query_row(&sql, [], |r| r.get(0))
            .map_err(|e| format!("{}: {sql}", db_err(e)))?;
        Ok(match text {
            None => Value::Null,
            Some(t) => integral(serde_json::from_str(&t).map_err(|e| format!("{e}: {t}"))?),
        })
    }
}

/// A JSON Pointer (`/a/b`) for path segments.
fn pointer<'a>(segments: impl IntoIterator<Item = &'a str>) -> String {
    segments
        .into_iter()
        .map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// The JSON value at a dotted field path of `rec`, with `query::field`'s rule: the key
/// itself, else the dotted path into nested objects. SQL NULL when absent.
fn at(path: &str) -> String {
    let whole = sql_string(&pointer([path]));
    if path.contains('.') {
        let nested = sql_string(&pointer(path.split('.')));
        format!("coalesce(json_extract(rec, {whole}), json_extract(rec, {nested}))")
    } else {
        format!("json_extract(rec, {whole})")
    }
}

/// The value at `path` as text (strings unquoted, other scalars as JSON), as ids compare.
fn text_at(path: &str) -> String {
    format!("json_extract_string({}, '$')", at(path))
}

const NUMERIC: &str = "('BIGINT', 'UBIGINT', 'DOUBLE')";

/// The number at `path`, NULL when absent, null or not a number; a string of plain decimal
/// text (`20.50`, a number kept as written) is its number, as `query::number` reads it.
fn num_at(path: &str) -> String {
    let v = at(path);
    format!(
        "CASE WHEN json_type({v}) IN {NUMERIC} THEN CAST(json_extract_string({v}, '$') AS DOUBLE) \
         WHEN json_type({v}) = 'VARCHAR' AND regexp_full_match(json_extract_string({v}, '$'), \
         '-?[0-9]+(\\.[0-9]+)?') THEN CAST(json_extract_string({v}, '$') AS DOUBLE) END"
    )
}

/// The SQL of a filter over `rec`.
fn filter(f: &Filter) -> Result<String, String> {
    let bound = |x: &f64| format!("CAST({x:?} AS DOUBLE)");
    Ok(match f {
        Filter::Eq { field, value } => equals(field, value),
        Filter::Ne { field, value } => format!(
            "(coalesce(json_type({v}), 'NULL') <> 'NULL' AND NOT ({eq}))",
            v = at(field),
            eq = equals(field, value)
        ),
        Filter::Gt { field, value } => {
            format!("coalesce({} > {}, false)", num_at(field), bound(value))
        }
        Filter::Lt { field, value } => {
            format!("coalesce({} < {}, false)", num_at(field), bound(value))
        }
        Filter::Ge { field, value } => {
            format!("coalesce({} >= {}, false)", num_at(field), bound(value))
        }
        Filter::Le { field, value } => {
            format!("coalesce({} <= {}, false)", num_at(field), bound(value))
        }
        Filter::IsNull { field } => format!("coalesce(json_type({}), 'NULL') = 'NULL'", at(field)),
        Filter::And { all } => {
            let parts = all.iter().map(filter).collect::<Result<Vec<_>, _>>()?;
            format!("({})", parts.join(" AND "))
        }
        Filter::LtField { .. } => return Err("no SQL translation for lt_field".into()),
    })
}

/// Equality of the value at `field` with a JSON scalar, typed as in the data.
fn equals(field: &str, value: &Value) -> String {
    let v = at(field);
    match value {
        // As `Filter::Eq`: a string meets a number or boolean with the same text (a field of
        // mixed types is compared as text).
        Value::String(s) => format!(
            "coalesce(json_type({v}) IN ('VARCHAR', 'BOOLEAN', 'BIGINT', 'UBIGINT', 'DOUBLE') \
             AND json_extract_string({v}, '$') = {}, false)",
            sql_string(s)
        ),
        Value::Bool(b) => format!(
            "coalesce(json_type({v}) = 'BOOLEAN' AND json_extract_string({v}, '$') = '{b}', false)"
        ),
        Value::Number(n) => format!(
            "coalesce({} = CAST({:?} AS DOUBLE), false)",
            num_at(field),
            n.as_f64().unwrap_or(f64::NAN)
        ),
        _ => format!("coalesce(json_type({v}), 'NULL') = 'NULL'"),
    }
}

/// The objects `Fields`/`SparseFields` look at: the records, or the objects at `of`.
fn objects(of: Option<&str>) -> String {
    let o = of.map_or_else(|| "rec".to_string(), at);
    format!("(SELECT pos, {o} AS o FROM s WHERE json_type({o}) = 'OBJECT')")
}

/// CTEs `o` (the objects) and `k(k, p, i)`: each key with the position of the first object
/// that has it and its index there, so a list of keys follows first appearance, as
/// `Query::evaluate` does (`list(DISTINCT …)` has no defined order: a rescore once listed the
/// same keys in another order).
fn keys_in_order(of: Option<&str>) -> String {
    format!(
        "o AS {}, u AS (SELECT pos, unnest(json_keys(o)) AS k, \
         unnest(generate_series(1, len(json_keys(o)))) AS i FROM o), \
         k AS (SELECT k, min(pos) AS p, arg_min(i, pos) AS i FROM u GROUP BY k)",
        objects(of)
    )
}

/// The SQL of a query: one value.
fn sql(q: &Query) -> Result<String, String> {
    Ok(match q {
        Query::Get { id, field, key } => format!(
            "SELECT {} FROM s WHERE {} = {} ORDER BY pos LIMIT 1",
            at(field),
            text_at(key.as_deref().unwrap_or("id")),
            sql_string(id)
        ),
        Query::GetByKeys { keys, field } => {
            let cond: Vec<String> = keys
                .iter()
                .map(|k| format!("{} = {}", text_at(&k.field), sql_string(&k.value)))
                .collect();
            format!(
                "SELECT {} FROM s WHERE {} ORDER BY pos LIMIT 1",
                at(field),
                cond.join(" AND ")
            )
        }
        Query::CountRecords => "SELECT count(*) FROM s".into(),
        Query::Distinct { field } => format!(
            "SELECT coalesce(list(DISTINCT t ORDER BY t), []) FROM (SELECT {} AS t FROM s \
             WHERE coalesce(json_type({}), 'NULL') <> 'NULL')",
            text_at(field),
            at(field)
        ),
        Query::CountDistinct { field } => format!(
            "SELECT count(DISTINCT {}) FROM s WHERE coalesce(json_type({}), 'NULL') <> 'NULL'",
            text_at(field),
            at(field)
        ),
        Query::IdAt { index, key } => format!(
            "SELECT {} FROM s WHERE pos = {index}",
            at(key.as_deref().unwrap_or("id"))
        ),
        Query::NextId { id, key } => {
            let key = key.as_deref().unwrap_or("id");
            format!(
                "SELECT {} FROM s WHERE pos = (SELECT min(pos) + 1 FROM s WHERE {} = {})",
                at(key),
                text_at(key),
                sql_string(id)
            )
        }
        Query::CountWhere { filter: f } => format!("SELECT count(*) FROM s WHERE {}", filter(f)?),
        Query::Aggregate {
            func,
            field,
            filter: f,
        } => {
            let agg = match func {
                Func::Sum => "sum",
                Func::Avg => "avg",
                Func::Min => "min",
                Func::Max => "max",
                Func::Count => "count",
            };
            let cond = match f {
                Some(f) => format!(" WHERE {}", filter(f)?),
                None => String::new(),
            };
            format!("SELECT {agg}({}) FROM s{cond}", num_at(field))
        }
        Query::Fields { of } => format!(
            "WITH {} SELECT coalesce(list(k ORDER BY p, i), []) FROM k",
            keys_in_order(of.as_deref())
        ),
        Query::SparseFields { of } => {
            // A key is sparse when some object lacks it or holds null there.
            format!(
                "WITH {} SELECT coalesce(list(k ORDER BY p, i), []) FROM k WHERE EXISTS (SELECT 1 FROM o WHERE \
                 coalesce(json_type(json_extract(o.o, '/' || replace(replace(k.k, '~', '~0'), '/', '~1'))), 'NULL') = 'NULL')",
                keys_in_order(of.as_deref())
            )
        }
        other => return Err(format!("no SQL translation for {other:?}")),
    })
}
