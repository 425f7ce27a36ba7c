//! The Spark SQL form of the DuckDB SQL of `sql/` (`bench sql --dialect spark FILE`), made from
//! the same source each time, so the statistics have one definition. A small rewriter of the
//! DuckDB idioms those files use, not a general translator: macros become temporary SQL
//! functions (arguments DOUBLE), views temporary views, DuckDB's list functions and lambdas
//! Spark's higher-order functions, ordered aggregates sorted arrays, `getvariable('x')` the
//! session variable `x`, and every ORDER BY item without a NULLS clause gets DuckDB's default,
//! NULLS LAST. A construct it does not know how to carry over is refused by name, never passed
//! through changed in meaning.

use anyhow::{Result, bail};
use std::collections::{BTreeMap, BTreeSet};

#[path = "spark_tokens.rs"]
mod tokens;
use tokens::{Tok, closing, find_order_by, lex, order_end, prev_is, skip, split_commas, words};

/// Words after which `[` opens a list literal rather than a subscript.
const BEFORE_LIST: [&str; 14] = [
    "then", "else", "when", "select", "and", "or", "not", "as", "in", "return", "by", "is", "case",
    "on",
];

/// The translation of one script: the Spark statements and the session variables they read.
#[derive(Debug, Default)]
pub struct Spark {
    /// The statements, each without its `;`.
    pub statements: Vec<String>,
    /// The names of the `getvariable` variables read (declared as STRING, default NULL).
    pub variables: BTreeSet<String>,
}

/// The Spark SQL of a DuckDB script of `sql/` (statements separated by `;`).
pub fn translate(sql: &str) -> Result<Spark> {
    let mut t = Translator::default();
    let statements = t.script(sql)?;
    Ok(Spark {
        statements,
        variables: t.variables,
    })
}

/// A macro: its parameters and body.
type Macro = (Vec<String>, Vec<Tok>);

/// Translates statements, remembering the macros defined so far (expanded where called, as
/// DuckDB does: Spark refuses its SQL functions inside lambdas) and the variables read.
#[derive(Default)]
struct Translator {
    variables: BTreeSet<String>,
    macros: BTreeMap<String, Macro>,
    depth: usize,
}

impl Translator {
    /// The statements of a script, macro definitions left out (they are expanded).
    fn script(&mut self, sql: &str) -> Result<Vec<String>> {
        let toks = lex(sql);
        let mut out = Vec::new();
        let mut start = 0;
        for i in 0..=toks.len() {
            if i == toks.len() || toks[i].is_op(";") {
                let stmt = &toks[start..i];
                start = i + 1;
                if stmt.iter().all(|t| matches!(t, Tok::Space(_))) {
                    continue;
                }
                if let Some(s) = self.statement(stmt)? {
                    out.push(s.trim().to_string());
                }
            }
        }
        Ok(out)
    }
}

impl Translator {
    fn statement(&mut self, toks: &[Tok]) -> Result<Option<String>> {
        let i = skip(toks, 0);
        let head: Vec<String> = toks[i..]
            .iter()
            .filter(|t| !matches!(t, Tok::Space(_)))
            .take(4)
            .map(|t| t.text().to_ascii_lowercase())
            .collect();
        let head: Vec<&str> = head.iter().map(String::as_str).collect();
        Ok(match head.as_slice() {
            ["create", "or", "replace", "macro"] => {
                self.macro_def(&toks[i..])?;
                None
            }
            ["create", "or", "replace", "view"] => {
                let view = toks[i..]
                    .iter()
                    .position(|t| t.is_word("view"))
                    .expect("seen")
                    + i;
                Some(format!(
                    "CREATE OR REPLACE TEMPORARY VIEW{}",
                    self.expr(&toks[view + 1..])?
                ))
            }
            _ => Some(self.expr(toks)?),
        })
    }

    /// Remembers `CREATE OR REPLACE MACRO f(a, b) AS body`.
    fn macro_def(&mut self, toks: &[Tok]) -> Result<()> {
        let open = toks
            .iter()
            .position(|t| t.is_op("("))
            .ok_or_else(|| anyhow::anyhow!("a macro without parameters"))?;
        let name = toks[..open]
            .iter()
            .rev()
            .find(|t| matches!(t, Tok::Word(_)))
            .map(|t| t.text().to_ascii_lowercase())
            .unwrap_or_default();
        let close = closing(toks, open)?;
        let params = words(&toks[open + 1..close])
            .into_iter()
            .map(|p| p.to_ascii_lowercase())
            .collect();
        let body_at = skip(toks, close + 1);
        if !toks.get(body_at).is_some_and(|t| t.is_word("as")) {
            bail!("macro {name}: expected AS after its parameters");
        }
        self.macros
            .insert(name, (params, toks[body_at + 1..].to_vec()));
        Ok(())
    }

    /// A call of a macro: its body with each parameter replaced by its argument, in
    /// parentheses, then translated.
    fn expand(&mut self, name: &str, inner: &[Tok]) -> Result<String> {
        let (params, body) = self.macros[name].clone();
        let args = split_commas(inner)?;
        if args.len() != params.len() {
            bail!(
                "macro {name} takes {} arguments, given {}",
                params.len(),
                args.len()
            );
        }
        let mut toks = vec![Tok::Op("(".into())];
        for t in body {
            match &t {
                Tok::Word(w) if params.contains(&w.to_ascii_lowercase()) => {
                    let k = params
                        .iter()
                        .position(|p| *p == w.to_ascii_lowercase())
                        .expect("found");
                    toks.push(Tok::Op("(".into()));
                    toks.extend(args[k].iter().cloned());
                    toks.push(Tok::Op(")".into()));
                }
                _ => toks.push(t),
            }
        }
        toks.push(Tok::Op(")".into()));
        self.depth += 1;
        if self.depth > 64 {
            bail!("macro {name} expands without end");
        }
        let out = self.expr(&toks);
        self.depth -= 1;
        out
    }

    /// Translates a run of tokens (an expression, a clause, a whole query).
    fn expr(&mut self, toks: &[Tok]) -> Result<String> {
        let mut out = String::new();
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            match t {
                Tok::Word(w) if w.eq_ignore_ascii_case("lambda") => {
                    let colon = (i..toks.len())
                        .find(|&j| toks[j].is_op(":"))
                        .ok_or_else(|| anyhow::anyhow!("lambda without ':'"))?;
                    let params = words(&toks[i + 1..colon]);
                    if params.len() == 1 {
                        out.push_str(&format!("{} ->", params[0]));
                    } else {
                        out.push_str(&format!("({}) ->", params.join(", ")));
                    }
                    i = colon + 1;
                    continue;
                }
                Tok::Word(w) if w.eq_ignore_ascii_case("order") => {
                    let by = skip(toks, i + 1);
                    if toks.get(by).is_some_and(|t| t.is_word("by")) {
                        let end = order_end(toks, by + 1)?;
                        out.push_str("ORDER BY ");
                        out.push_str(&self.order_items(&toks[by + 1..end])?);
                        i = end;
                        continue;
                    }
                }
                Tok::Word(w) => {
                    let open = skip(toks, i + 1);
                    if toks.get(open).is_some_and(|t| t.is_op("(")) {
                        let close = closing(toks, open)?;
                        let lateral = w.eq_ignore_ascii_case("unnest") && prev_is(toks, i, ",");
                        if lateral {
                            out.push_str("LATERAL ");
                        }
                        let gap: String = toks[i + 1..open].iter().map(Tok::text).collect();
                        out.push_str(&self.call(w, &gap, &toks[open + 1..close])?);
                        i = close + 1;
                        continue;
                    }
                }
                Tok::Op(o) if o == "[" => {
                    let close = closing(toks, i)?;
                    let inner = &toks[i + 1..close];
                    out.push_str(&self.bracket(toks, i, inner)?);
                    i = close + 1;
                    continue;
                }
                Tok::Op(o) if o == "(" => {
                    let close = closing(toks, i)?;
                    out.push('(');
                    out.push_str(&self.expr(&toks[i + 1..close])?);
                    out.push(')');
                    i = close + 1;
                    continue;
                }
                _ => {}
            }
            out.push_str(t.text());
            i += 1;
        }
        Ok(out)
    }

    /// A list literal (`[a, b]` → `array(a, b)`) or a subscript (1-based list index → 0-based;
    /// a string key of a map stays).
    fn bracket(&mut self, toks: &[Tok], at: usize, inner: &[Tok]) -> Result<String> {
        let before = toks[..at]
            .iter()
            .rev()
            .find(|t| !matches!(t, Tok::Space(_)));
        let subscript = match before {
            Some(Tok::Word(w)) => !BEFORE_LIST.contains(&w.to_ascii_lowercase().as_str()),
            Some(Tok::Op(o)) => o == ")" || o == "]",
            Some(Tok::Quoted(_)) => true,
            _ => false,
        };
        if !subscript {
            return Ok(format!("array({})", self.expr(inner)?));
        }
        let index: Vec<&Tok> = inner
            .iter()
            .filter(|t| !matches!(t, Tok::Space(_)))
            .collect();
        match index.as_slice() {
            [Tok::Num(n)] => {
                let n: i64 = n.parse()?;
                Ok(format!("[{}]", n - 1))
            }
            [Tok::Str(s)] => Ok(format!("[{s}]")),
            _ => bail!(
                "a list subscript that is not a number ([{}]): Spark counts from 0, DuckDB from 1",
                inner.iter().map(Tok::text).collect::<String>()
            ),
        }
    }

    /// ORDER BY items, each given NULLS LAST (DuckDB's default; Spark's is NULLS FIRST when
    /// ascending) unless it says.
    fn order_items(&mut self, toks: &[Tok]) -> Result<String> {
        let items = split_commas(toks)?;
        let mut out = Vec::new();
        for item in items {
            let text = self.expr(item)?;
            let has_nulls = item.iter().any(|t| t.is_word("nulls"));
            let trimmed = text.trim_end();
            let tail = &text[trimmed.len()..];
            out.push(if has_nulls {
                text.trim_start().to_string()
            } else {
                format!("{} NULLS LAST{tail}", trimmed.trim_start())
            });
        }
        Ok(out.join(", "))
    }

    /// The sort keys of an ordered aggregate: `named_struct('k0', y0, …, 'v', x)` fields.
    fn sort_struct(&mut self, order: &[Tok], value: &str) -> Result<String> {
        let by = skip(order, 1) + 1;
        let mut fields = Vec::new();
        for (k, item) in split_commas(&order[by..])?.into_iter().enumerate() {
            let w: Vec<String> = words(item).iter().map(|w| w.to_ascii_lowercase()).collect();
            if w.iter().any(|w| w == "desc" || w == "nulls") {
                bail!("an ordered aggregate with DESC or NULLS has no Spark form here");
            }
            fields.push(format!("'k{k}', {}", self.expr(item)?.trim()));
        }
        Ok(format!("named_struct({}, 'v', {value})", fields.join(", ")))
    }

    /// A function call: DuckDB's name and arguments in Spark's form (`gap`: the spaces between
    /// the name and its parenthesis).
    fn call(&mut self, name: &str, gap: &str, inner: &[Tok]) -> Result<String> {
        const KNOWN: [&str; 14] = [
            "list",
            "sum",
            "string_agg",
            "getvariable",
            "list_transform",
            "list_sum",
            "list_avg",
            "list_reduce",
            "range",
            "map",
            "json_keys",
            "json_extract_string",
            "unnest",
            "list_prepend",
        ];
        let lower = name.to_ascii_lowercase();
        if self.macros.contains_key(&lower) {
            return self.expand(&lower, inner);
        }
        if lower == "lgamma" {
            // Spark has no lgamma: ln((x − 1)!) as a sum of logs, exact at the whole numbers
            // the McNemar macro gives it (null elsewhere, never a wrong number).
            let x = self.expr(inner)?;
            return Ok(format!(
                "(CASE WHEN ({x}) >= 1 AND ({x}) = floor({x}) THEN aggregate(sequence(1, \
                 greatest(CAST(({x}) AS BIGINT) - 1, 1)), 0D, (a__, j__) -> a__ + ln(j__)) END)"
            ));
        }
        if !KNOWN.contains(&lower.as_str()) {
            // Any other call (or a keyword before parentheses: OVER, IN, AS, FILTER) keeps its
            // text, its inside translated.
            return Ok(format!("{name}{gap}({})", self.expr(inner)?));
        }
        let order = find_order_by(inner)?;
        let (args_toks, order) = match order {
            Some(o) => (&inner[..o], Some(&inner[o..])),
            None => (inner, None),
        };
        let mut args = Vec::new();
        for a in split_commas(args_toks)? {
            args.push(self.expr(a)?.trim().to_string());
        }
        let arity = |n: usize| -> Result<()> {
            if args.len() != n {
                bail!(
                    "{name} with {} arguments has no Spark form here",
                    args.len()
                );
            }
            Ok(())
        };
        Ok(match (lower.as_str(), order) {
            ("list", o) => {
                arity(1)?;
                let s = match o {
                    Some(o) => self.sort_struct(o, &args[0])?,
                    None => format!("named_struct('v', {})", args[0]),
                };
                let sorted = if o.is_some() { "array_sort" } else { "" };
                format!("transform({sorted}(collect_list({s})), e__ -> e__.v)")
            }
            ("sum", Some(o)) => {
                arity(1)?;
                let s = self.sort_struct(o, &args[0])?;
                format!(
                    "aggregate(transform(array_sort(collect_list({s})), e__ -> e__.v), \
                     CAST(NULL AS DOUBLE), (a__, v__) -> CASE WHEN v__ IS NULL THEN a__ \
                     ELSE coalesce(a__, 0D) + v__ END)"
                )
            }
            ("sum", None) => format!("sum({})", args.join(", ")),
            ("string_agg", Some(o)) => {
                arity(2)?;
                let by = skip(o, 1) + 1;
                format!(
                    "string_agg({}, {}) WITHIN GROUP (ORDER BY {})",
                    args[0],
                    args[1],
                    self.order_items(&o[by..])?
                )
            }
            ("string_agg", None) => format!("string_agg({})", args.join(", ")),
            (_, Some(_)) => bail!("{name}(… ORDER BY …) has no Spark form here"),
            ("getvariable", None) => {
                arity(1)?;
                let var = args[0].trim_matches('\'').to_string();
                if var.is_empty() || !var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    bail!("getvariable({}) is not a plain name", args[0]);
                }
                self.variables.insert(var.clone());
                var
            }
            ("list_transform", None) => format!("transform({})", args.join(", ")),
            ("list_sum", None) => {
                arity(1)?;
                format!(
                    "aggregate({}, CAST(NULL AS DOUBLE), (a__, v__) -> CASE WHEN v__ IS NULL \
                     THEN a__ ELSE coalesce(a__, 0D) + v__ END)",
                    args[0]
                )
            }
            ("list_avg", None) => {
                arity(1)?;
                format!(
                    "aggregate({}, array(0D, 0D), (a__, v__) -> array(a__[0] + v__, a__[1] + 1), \
                     a__ -> a__[0] / a__[1])",
                    args[0]
                )
            }
            ("list_reduce", None) => {
                if args.len() != 3 {
                    bail!(
                        "list_reduce needs its initial value (third argument) for Spark's aggregate"
                    );
                }
                format!("aggregate({}, {}, {})", args[0], args[2], args[1])
            }
            ("list_prepend", None) => {
                arity(2)?;
                format!("concat(array({}), {})", args[0], args[1])
            }
            ("range", None) => {
                let (from, to) = match args.as_slice() {
                    [to] => ("0".to_string(), to.clone()),
                    [from, to] => (from.clone(), to.clone()),
                    _ => bail!("range with {} arguments has no Spark form here", args.len()),
                };
                format!(
                    "filter(sequence(CAST({from} AS BIGINT), CAST({to} AS BIGINT)), \
                     i__ -> i__ < CAST({to} AS BIGINT))"
                )
            }
            ("map", None) => {
                arity(2)?;
                format!("map_from_arrays({}, {})", args[0], args[1])
            }
            ("json_keys", None) => match args.as_slice() {
                [j] => format!("json_object_keys({j})"),
                [j, path] => format!("json_object_keys(get_json_object({j}, {path}))"),
                _ => bail!("json_keys with {} arguments", args.len()),
            },
            ("json_extract_string", None) => {
                arity(2)?;
                format!("get_json_object({}, {})", args[0], args[1])
            }
            ("unnest", None) => {
                arity(1)?;
                format!("explode({})", args[0])
            }
            _ => unreachable!("every known name has an arm"),
        })
    }
}

/// The Spark script for `file`: the session variables it and the derived views read, the
/// derived views of `sql/views.sql` (its macros expanded where called), then `file`'s own
/// statements.
pub fn script(views_derived: &str, file: &str) -> Result<Spark> {
    let mut t = Translator::default();
    let mut body = t.script(views_derived)?;
    body.extend(t.script(file)?);
    let mut statements: Vec<String> = t
        .variables
        .iter()
        .map(|v| format!("DECLARE OR REPLACE VARIABLE {v} STRING DEFAULT NULL"))
        .collect();
    statements.extend(body);
    Ok(Spark {
        statements,
        variables: t.variables,
    })
}

#[cfg(test)]
mod tests;
