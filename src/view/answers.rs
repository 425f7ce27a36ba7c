//! The Answers page: every graded answer, filtered, sorted and paged by DuckDB. Filter values
//! are bound as parameters; a sort is one of a fixed list of columns. Nothing the browser sends
//! becomes SQL text.

use super::html::{esc, href, page, value_text};
use super::respond::{AppState, blocking};
use super::state::State;
use super::store::FACETS;
use axum::extract::{Query, State as Shared};
use axum::response::Response;
use serde::Deserialize;
use serde_json::Value;

/// `GET /answers?…`.
pub async fn handler(Shared(s): Shared<AppState>, Query(f): Query<Filter>) -> Response {
    blocking(move || page_of(&s, &f).map_err(|e| (400, e))).await
}

/// The query string of `/answers` (every field optional).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct Filter {
    /// Run folder name.
    pub run: Option<String>,
    /// Suite.
    pub suite: Option<String>,
    /// `provider:model`.
    pub model: Option<String>,
    /// Format.
    pub format: Option<String>,
    /// Structure.
    pub structure: Option<String>,
    /// Variant.
    pub variant: Option<String>,
    /// Record count.
    pub size: Option<String>,
    /// Question category.
    pub category: Option<String>,
    /// Wrong-answer kind.
    pub failure: Option<String>,
    /// Instruction wording.
    pub wording: Option<String>,
    /// `true` or `false`.
    pub passed: Option<String>,
    /// Text searched in the question id, expected and actual answer and reason.
    pub q: Option<String>,
    /// Sort column (see [`SORTS`]).
    pub sort: Option<String>,
    /// `asc` or `desc`.
    pub dir: Option<String>,
    /// 1-based page.
    pub page: Option<String>,
    /// Answers per page (at most 500).
    pub per: Option<String>,
}

/// The columns one may sort by: (query value, column).
pub const SORTS: [(&str, &str); 10] = [
    ("id", "id"),
    ("run", "ts"),
    ("model", "model_label"),
    ("format", "format"),
    ("size", "records"),
    ("category", "category"),
    ("question", "question_id"),
    ("passed", "passed"),
    ("failure", "failure"),
    ("score", "score"),
];

/// A value of a filter as the query string had it (empty counts as unset).
fn set(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

impl Filter {
    fn facet(&self, name: &str) -> Option<&str> {
        set(match name {
            "run" => &self.run,
            "suite" => &self.suite,
            "model" => &self.model,
            "format" => &self.format,
            "structure" => &self.structure,
            "variant" => &self.variant,
            "size" => &self.size,
            "category" => &self.category,
            "failure" => &self.failure,
            "wording" => &self.wording,
            _ => &None,
        })
    }

    /// Every set parameter as (name, value), for links that keep the filters.
    fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut out: Vec<(&'static str, String)> = FACETS
            .iter()
            .filter_map(|(n, _)| self.facet(n).map(|v| (*n, v.to_string())))
            .collect();
        for (n, v) in [
            ("passed", &self.passed),
            ("q", &self.q),
            ("sort", &self.sort),
            ("dir", &self.dir),
            ("per", &self.per),
        ] {
            if let Some(v) = set(v) {
                out.push((n, v.to_string()));
            }
        }
        out
    }
}

/// The WHERE clause and its parameters, or a one-line reason a value is refused.
fn where_clause(f: &Filter) -> Result<(String, Vec<Box<dyn duckdb::ToSql>>), String> {
    let mut conds = vec!["true".to_string()];
    let mut params: Vec<Box<dyn duckdb::ToSql>> = Vec::new();
    for (name, column) in FACETS {
        let Some(v) = f.facet(name) else { continue };
        if name == "size" {
            let n: i64 = v
                .parse()
                .map_err(|_| format!("size={v}: not a record count (a whole number)"))?;
            params.push(Box::new(n));
        } else {
            params.push(Box::new(v.to_string()));
        }
        conds.push(format!("{column} = ?"));
    }
    if let Some(p) = set(&f.passed) {
        let b = match p {
            "true" => true,
            "false" => false,
            other => return Err(format!("passed={other}: expected true or false")),
        };
        conds.push("passed = ?".into());
        params.push(Box::new(b));
    }
    if let Some(q) = set(&f.q) {
        conds.push(
            "(contains(lower(question_id), lower(?)) OR contains(lower(coalesce(expected, '')), lower(?)) \
             OR contains(lower(coalesce(actual, '')), lower(?)) OR contains(lower(coalesce(reason, '')), lower(?)))"
                .into(),
        );
        for _ in 0..4 {
            params.push(Box::new(q.to_string()));
        }
    }
    Ok((conds.join(" AND "), params))
}

/// A positive whole number from the query string, or the default.
fn number(v: &Option<String>, name: &str, default: i64, max: i64) -> Result<i64, String> {
    match set(v) {
        None => Ok(default),
        Some(s) => match s.parse::<i64>() {
            Ok(n) if n >= 1 && n <= max => Ok(n),
            _ => Err(format!(
                "{name}={s}: expected a whole number from 1 to {max}"
            )),
        },
    }
}

/// One page of answers and the total that match.
pub struct Paged {
    /// Matching answers in all.
    pub total: i64,
    /// This page's rows, objects keyed by column.
    pub rows: Vec<serde_json::Map<String, Value>>,
    /// 1-based page.
    pub page: i64,
    /// Rows per page.
    pub per: i64,
}

/// Runs the filter: a count and one page, sorted with the id as tie-break.
pub fn query(state: &State, f: &Filter) -> Result<Paged, String> {
    let (cond, params) = where_clause(f)?;
    let per = number(&f.per, "per", 50, 500)?;
    let page = number(&f.page, "page", 1, i64::MAX / 1000)?;
    let sort = match set(&f.sort) {
        None => "id",
        Some(s) => SORTS
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, c)| *c)
            .ok_or_else(|| {
                format!(
                    "sort={s}: expected one of {}",
                    SORTS.map(|s| s.0).join(", ")
                )
            })?,
    };
    let dir = match set(&f.dir) {
        None | Some("asc") => "ASC",
        Some("desc") => "DESC",
        Some(d) => return Err(format!("dir={d}: expected asc or desc")),
    };
    let refs: Vec<&dyn duckdb::ToSql> = params.iter().map(|b| b.as_ref()).collect();
    let total = state
        .query(
            &format!("SELECT count(*) FROM v_answers WHERE {cond}"),
            &refs,
        )
        .map_err(|e| format!("{e:#}"))?
        .rows
        .first()
        .and_then(|r| r[0].as_i64())
        .unwrap_or(0);
    let mut all = refs.clone();
    let (limit, offset) = (per, (page - 1) * per);
    all.push(&limit);
    all.push(&offset);
    // Two steps: the page's ids (reading only the filtered and sorted columns), then their
    // rows. One query would carry every column of every candidate row through the sort.
    let ids = state
        .query(
            &format!(
                "SELECT id FROM v_answers WHERE {cond} ORDER BY {sort} {dir} NULLS LAST, id LIMIT ? OFFSET ?"
            ),
            &all,
        )
        .map_err(|e| format!("{e:#}"))?;
    let ids: Vec<i64> = ids.rows.iter().filter_map(|r| r[0].as_i64()).collect();
    let mut rows = Vec::new();
    if !ids.is_empty() {
        // Numbers DuckDB gave, not text from the browser.
        let list = ids
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT id, ts, suite, provider, model, model_label, format, structure, variant, records, run, \
             wording, tag, metric, question_id, category, validation, passed, expected, actual, failure, \
             normalization, call_error FROM v_answers WHERE id IN ({list})"
        );
        let t = state.query(&sql, &[]).map_err(|e| format!("{e:#}"))?;
        let mut by_id: std::collections::HashMap<i64, serde_json::Map<String, Value>> = t
            .objects()
            .filter_map(|r| Some((r.get("id")?.as_i64()?, r)))
            .collect();
        rows = ids.iter().filter_map(|id| by_id.remove(id)).collect();
    }
    Ok(Paged {
        total,
        rows,
        page,
        per,
    })
}

/// The link to one answer's page (stable: names the run, call and question, not a row number).
pub fn answer_href(r: &serde_json::Map<String, Value>) -> String {
    let s = |k: &str| {
        r.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    href(
        "/answer",
        &[
            ("run", &s("ts")),
            ("provider", &s("provider")),
            ("model", &s("model")),
            ("tag", &s("tag")),
            ("q", &s("metric")),
        ],
    )
}

/// The filter form: a menu per facet and the text search.
fn form(state: &State, f: &Filter) -> String {
    let mut out = String::from("<form class=\"filters\" method=\"get\" action=\"/answers\">");
    for (name, _) in FACETS {
        let current = f.facet(name).unwrap_or_default();
        out.push_str(&format!(
            "<label>{name} <select name=\"{name}\"><option value=\"\">all</option>"
        ));
        for v in state.facets.get(name).into_iter().flatten() {
            let sel = if v == current { " selected" } else { "" };
            out.push_str(&format!("<option{sel}>{}</option>", esc(v)));
        }
        out.push_str("</select></label>");
    }
    let passed = set(&f.passed).unwrap_or_default();
    out.push_str("<label>passed <select name=\"passed\"><option value=\"\">all</option>");
    for v in ["true", "false"] {
        let sel = if v == passed { " selected" } else { "" };
        out.push_str(&format!("<option{sel}>{v}</option>"));
    }
    out.push_str(&format!(
        "</select></label><label>text <input name=\"q\" value=\"{}\"></label>",
        esc(set(&f.q).unwrap_or_default())
    ));
    for (n, v) in [("sort", &f.sort), ("dir", &f.dir), ("per", &f.per)] {
        if let Some(v) = set(v) {
            out.push_str(&format!(
                "<input type=\"hidden\" name=\"{n}\" value=\"{}\">",
                esc(v)
            ));
        }
    }
    out.push_str("<button type=\"submit\">filter</button> <a href=\"/answers\">clear</a></form>");
    out
}

/// A column heading that sorts by it (ascending, or descending when it already sorts so).
fn sort_head(f: &Filter, key: &str, label: &str) -> String {
    let mut pairs: Vec<(&str, String)> = f
        .pairs()
        .into_iter()
        .filter(|(n, _)| *n != "sort" && *n != "dir")
        .collect();
    let desc = set(&f.sort) == Some(key) && set(&f.dir) != Some("desc");
    pairs.push(("sort", key.into()));
    if desc {
        pairs.push(("dir", "desc".into()));
    }
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(n, v)| (*n, v.as_str())).collect();
    format!(
        "<th><a href=\"{}\">{}</a></th>",
        href("/answers", &refs),
        esc(label)
    )
}

/// The Answers page (or the reason a filter is refused, as the page's one error line).
pub fn page_of(state: &State, f: &Filter) -> Result<String, String> {
    let p = query(state, f)?;
    let mut body = format!("<h1>Answers</h1>{}", form(state, f));
    let last = ((p.total + p.per - 1) / p.per).max(1);
    body.push_str(&format!(
        "<p id=\"count\" data-total=\"{}\">{} answers match · page {} of {}</p>",
        p.total, p.total, p.page, last
    ));
    body.push_str("<table id=\"answers\"><thead><tr>");
    for (key, label) in [
        ("id", "#"),
        ("run", "run"),
        ("model", "model"),
        ("format", "format"),
        ("size", "rendering"),
        ("question", "question"),
        ("category", "category"),
    ] {
        body.push_str(&sort_head(f, key, label));
    }
    body.push_str("<th>expected</th><th>answer</th>");
    body.push_str(&sort_head(f, "passed", "passed"));
    body.push_str(&sort_head(f, "failure", "failure"));
    body.push_str("</tr></thead><tbody>");
    for r in &p.rows {
        let t = |k: &str| esc(&r.get(k).map(value_text).unwrap_or_default());
        let passed = r.get("passed").and_then(Value::as_bool) == Some(true);
        body.push_str(&format!(
            "<tr data-answer-id=\"{}\" class=\"{}\"><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{} · {} · {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            t("id"),
            if passed { "passed" } else { "failed" },
            answer_href(r),
            t("id"),
            t("ts"),
            t("model_label"),
            t("format"),
            t("structure"),
            t("variant"),
            t("records"),
            t("question_id"),
            t("category"),
            t("expected"),
            t("actual"),
            if passed { "yes" } else { "no" },
            t("failure"),
        ));
    }
    body.push_str("</tbody></table>");
    body.push_str(&pager(f, p.page, last));
    Ok(page("bench view — answers", &body))
}

/// Links to the first, previous, next and last page, the filters kept.
fn pager(f: &Filter, page: i64, last: i64) -> String {
    let to = |n: i64| {
        let mut pairs = f.pairs();
        pairs.push(("page", n.to_string()));
        let refs: Vec<(&str, &str)> = pairs.iter().map(|(n, v)| (*n, v.as_str())).collect();
        href("/answers", &refs)
    };
    let mut out = String::from("<nav class=\"pages\">");
    for (label, n, rel) in [
        ("first", 1, "first"),
        ("previous", page - 1, "prev"),
        ("next", page + 1, "next"),
        ("last", last, "last"),
    ] {
        if n >= 1 && n <= last && n != page {
            out.push_str(&format!("<a rel=\"{rel}\" href=\"{}\">{label}</a>", to(n)));
        } else {
            out.push_str(&format!("<span>{label}</span>"));
        }
    }
    out.push_str("</nav>");
    out
}
