//! Two runs side by side: pick A and B; then the renderings with the numbers `bench compare`
//! prints (`report::decisions::compare_runs`, one computation for both) and the answer pairs that differ,
//! regressions (A right, B wrong) first.

use super::html::{esc, href, page, value_text};
use super::respond::{AppState, blocking};
use super::state::State;
use axum::extract::{Query, State as Shared};
use axum::response::Response;
use serde::Deserialize;
use serde_json::Value;

/// `GET /compare?a=…&b=…`.
pub async fn handler(Shared(s): Shared<AppState>, Query(p): Query<Pick>) -> Response {
    blocking(move || page_of(&s, &p)).await
}

/// The query string of `/compare`.
#[derive(Debug, Default, Deserialize)]
pub struct Pick {
    /// Run A's folder name.
    pub a: Option<String>,
    /// Run B's folder name.
    pub b: Option<String>,
}

/// The pairs that differ: the same question of the same rendering and run index, answered
/// right by one run and wrong by the other.
const DIFFERING: &str = "
SELECT a.format, a.structure, a.variant, a.records, a.run, a.metric, a.question_id,
       a.passed AS a_passed, b.passed AS b_passed, a.actual AS a_actual, b.actual AS b_actual,
       a.expected, a.provider AS a_provider, a.model AS a_model, a.tag AS a_tag,
       b.provider AS b_provider, b.model AS b_model, b.tag AS b_tag
FROM v_answers AS a
JOIN v_answers AS b
  ON (a.format, a.structure, a.variant, a.records, a.primer, a.run, a.question_id)
   = (b.format, b.structure, b.variant, b.records, b.primer, b.run, b.question_id)
WHERE a.ts = ? AND b.ts = ? AND NOT a.warmup AND NOT b.warmup AND a.passed <> b.passed
ORDER BY a.passed DESC, a.format, a.structure, a.variant, a.records, a.run, a.question_id
LIMIT 1000";

fn picker(state: &State, p: &Pick) -> String {
    let mut out = String::from("<form class=\"pick\" method=\"get\" action=\"/compare\">");
    for (name, current) in [("a", &p.a), ("b", &p.b)] {
        out.push_str(&format!(
            "<label>run {} <select name=\"{name}\"><option value=\"\">choose</option>",
            name.to_uppercase()
        ));
        for r in &state.runs {
            let sel = if current.as_deref() == Some(&r.name) {
                " selected"
            } else {
                ""
            };
            let suite = r.suite().unwrap_or("unreadable");
            out.push_str(&format!(
                "<option value=\"{}\"{sel}>{} ({})</option>",
                esc(&r.name),
                esc(&r.name),
                esc(suite)
            ));
        }
        out.push_str("</select></label> ");
    }
    out.push_str("<button type=\"submit\">compare</button></form>");
    out
}

/// The page; a refusal of the two runs (different data, the same run) shows as its message.
pub fn page_of(state: &State, p: &Pick) -> Result<String, (u16, String)> {
    let mut body = format!("<h1>Compare two runs</h1>{}", picker(state, p));
    let (Some(a), Some(b)) = (
        p.a.as_deref().filter(|s| !s.is_empty()),
        p.b.as_deref().filter(|s| !s.is_empty()),
    ) else {
        return Ok(page("bench view — compare", &body));
    };
    let dir = |n: &str| {
        state
            .run(n)
            .map(|r| r.dir.clone())
            .ok_or_else(|| (404, format!("no run folder '{n}' under the root")))
    };
    let (a_dir, b_dir) = (dir(a)?, dir(b)?);
    match crate::report::decisions::compare_runs::compare_runs(&a_dir, &b_dir, None) {
        Err(e) => {
            body.push_str(&format!(
                "<p class=\"error\" id=\"refused\">{}</p>",
                esc(&format!("{e:#}"))
            ));
            return Ok(page("bench view — compare", &body));
        }
        Ok(c) => body.push_str(&renderings(&c)),
    }
    body.push_str(&pairs(state, a, b).map_err(|e| (500, e))?);
    Ok(page("bench view — compare", &body))
}

/// The renderings table, regressions first.
fn renderings(c: &crate::report::decisions::compare_runs::Comparison) -> String {
    let mut rows: Vec<&crate::report::decisions::compare_runs::CompareRow> =
        c.rows.iter().collect();
    rows.sort_by_key(|r| {
        (
            !r.regression,
            r.improvement,
            (r.delta_accuracy_pp * 1000.0) as i64,
        )
    });
    let mut out = format!(
        "<h2>Renderings</h2><p class=\"note\">B − A; non-inferiority margin {} pp (as `bench compare` prints them).</p>\
         <table id=\"renderings\"><thead><tr><th>rendering</th><th>A</th><th>B</th><th>Δ pp</th>\
         <th>Δ weighted pp [95 % CI]</th><th>B only / A only</th><th>McNemar p (Holm)</th><th>90 % low</th>\
         <th>Tango p (Holm)</th><th>verdict</th></tr></thead><tbody>",
        c.margin
    );
    let p = crate::numfmt::p_value;
    let pct = |x: f64| crate::numfmt::percent(Some(x));
    for r in rows {
        let weighted = match (r.delta_weighted_pp, r.delta_low_pp, r.delta_high_pp) {
            (Some(d), Some(l), Some(h)) => format!("{d:+.1} [{l:+.1}, {h:+.1}]"),
            (Some(d), _, _) => format!("{d:+.1}"),
            _ => "–".into(),
        };
        out.push_str(&format!(
            "<tr data-verdict=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{:+.1}</td><td>{}</td><td>{} / {}</td><td>{} ({})</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.verdict(),
            esc(&r.rendering()),
            pct(r.a_accuracy),
            pct(r.b_accuracy),
            r.delta_accuracy_pp,
            weighted,
            r.b_only,
            r.a_only,
            p(r.p_value),
            p(r.p_holm),
            r.ni_low_pp.map_or("–".into(), |l| format!("{l:+.1}")),
            match (r.ni_p, r.ni_p_holm) {
                (Some(x), Some(h)) => format!("{} ({})", p(x), p(h)),
                _ => "–".into(),
            },
            r.verdict(),
        ));
    }
    out.push_str("</tbody></table>");
    out
}

/// The answer pairs that differ, regressions first, each side linked to its answer page.
fn pairs(state: &State, a: &str, b: &str) -> Result<String, String> {
    let t = state
        .query(DIFFERING, &[&a, &b])
        .map_err(|e| format!("{e:#}"))?;
    let mut out = format!(
        "<h2>Answers that differ</h2><p class=\"note\">{} pairs (at most 1000 shown), regressions first.</p>\
         <table id=\"diff\"><thead><tr><th>rendering</th><th>run</th><th>question</th><th>expected</th>\
         <th>A answered</th><th>B answered</th></tr></thead><tbody>",
        t.rows.len()
    );
    for r in t.objects() {
        let s = |k: &str| r.get(k).map(value_text).unwrap_or_default();
        let regression = r.get("a_passed").and_then(Value::as_bool) == Some(true);
        let side = |x: &str, run: &str| {
            href(
                "/answer",
                &[
                    ("run", run),
                    ("provider", &s(&format!("{x}_provider"))),
                    ("model", &s(&format!("{x}_model"))),
                    ("tag", &s(&format!("{x}_tag"))),
                    ("q", &s("metric")),
                ],
            )
        };
        out.push_str(&format!(
            "<tr data-kind=\"{}\"><td>{} · {} · {} · {}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td><a href=\"{}\">{}</a></td><td><a href=\"{}\">{}</a></td></tr>",
            if regression {
                "regression"
            } else {
                "improvement"
            },
            esc(&s("format")),
            esc(&s("structure")),
            esc(&s("variant")),
            esc(&s("records")),
            esc(&s("run")),
            esc(&s("question_id")),
            esc(&s("expected")),
            side("a", a),
            esc(&s("a_actual")),
            side("b", b),
            esc(&s("b_actual")),
        ));
    }
    out.push_str("</tbody></table>");
    Ok(out)
}
