//! What a dry run's token counts rest on, model by model: the provider's own counts
//! (`--count-with-provider`), else the offline vocabulary nearest the model, labelled as an
//! approximation, with the ratio of billed to offline tokens that earlier runs of that model
//! measured when the output root holds any.

use super::counter::{CountCache, Counter};
use crate::runner::model::Model;
use crate::runner::plan::Matrix;
use crate::tokens::Tokenizer;
use anyhow::Result;
use std::io::BufRead;
use std::path::Path;

/// Result lines read per model for the billed/offline ratio (the newest runs first).
const RATIO_LINES: usize = 500;

/// One model's counts of each combination's first prompt and of its data.
pub struct Basis {
    /// Per combination, in plan order: the first prompt's tokens and the data's tokens.
    pub combos: Vec<(u64, u64)>,
    /// What they rest on, for the estimate's notes.
    pub note: String,
}

/// Counts in the offline vocabulary nearest `m`'s model; `root` holds earlier runs.
pub fn offline(matrix: &Matrix, m: &Model, root: &Path) -> Basis {
    let (vocab, own) = Tokenizer::nearest(m.provider.name(), m.provider.model());
    let combos = matrix
        .combos
        .iter()
        .map(|c| {
            let first = &c.units[0];
            let prompt = if vocab == Tokenizer::O200kBase {
                u64::from(first.tokens)
            } else {
                first
                    .messages
                    .iter()
                    .map(|x| vocab.count(&x.content))
                    .sum::<usize>() as u64
            };
            let data = vocab.count(&first.messages[0].content[..first.cache_prefix]) as u64;
            (prompt, data)
        })
        .collect();
    let spec = m.config.spec();
    let model = m.provider.model();
    let note = if own {
        format!(
            "{spec}: prompt tokens in {}, {model}'s own vocabulary, counted here",
            vocab.name()
        )
    } else {
        let earlier = match earlier_ratio(root, m, vocab) {
            Some((r, n)) => format!(
                "; earlier runs of {model} billed {r:.2}× that ({n} calls under {})",
                root.display()
            ),
            None => format!(
                "; no earlier run of {model} under {} to compare its bills with",
                root.display()
            ),
        };
        format!(
            "{spec}: prompt tokens in {}, the offline vocabulary nearest {model}: an \
             approximation of its own tokens{earlier} (--count-with-provider counts with the \
             provider)",
            vocab.name()
        )
    };
    Basis { combos, note }
}

/// Counts by `m`'s provider: each combination's first prompt and its data share.
pub async fn counted(matrix: &Matrix, m: &Model, cache: Option<CountCache>) -> Result<Basis> {
    let spec = m.config.spec();
    let mut counter = Counter::new(m.provider.as_ref(), cache, m.config.rpm).map_err(|why| {
        crate::UsageError::new(format!(
            "--count-with-provider: {spec} has no token counter: {why}"
        ))
    })?;
    let combos = counter
        .shares(&matrix.combos)
        .await
        .map_err(|e| anyhow::anyhow!("--count-with-provider: {spec}: {e}"))?
        .iter()
        .map(|s| (s.prompt, s.data()))
        .collect();
    let note = format!(
        "{spec}: prompt tokens counted by {} (each rendering's first prompt; its other prompts \
         differ by their questions, counted offline): {} counts, {} from the cache",
        counter.basis(),
        counter.sent + counter.hits,
        counter.hits
    );
    Ok(Basis { combos, note })
}

/// Billed prompt tokens over the offline count of the same prompts in `vocab`, from the newest
/// runs of `m`'s model under `root` (answered, uncached calls), and how many calls it rests on.
pub fn earlier_ratio(root: &Path, m: &Model, vocab: Tokenizer) -> Option<(f64, usize)> {
    let (provider, model) = (m.provider.name(), m.provider.model());
    let mut logs: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("benchmarks"))
        .ok()?
        .flatten()
        .filter_map(|e| crate::report::data::run_log(&e.path()).ok())
        .collect();
    logs.sort();
    let (mut billed, mut offline, mut n) = (0u64, 0u64, 0usize);
    for log in logs.iter().rev() {
        let Ok(file) = std::fs::File::open(log) else {
            continue;
        };
        for line in std::io::BufReader::new(file).lines().map_while(Result::ok) {
            if n >= RATIO_LINES {
                break;
            }
            if let Some((b, text)) = billed_call(&line, provider, model) {
                billed += b;
                offline += vocab.count(&text) as u64;
                n += 1;
            }
        }
    }
    (n > 0 && offline > 0).then(|| (billed as f64 / offline as f64, n))
}

/// A result line's billed prompt tokens and its prompt text, when it is an answered, uncached
/// call of `provider`'s `model` whose prompt the log holds whole.
fn billed_call(line: &str, provider: &str, model: &str) -> Option<(u64, String)> {
    // Cheap test first: most lines of a big log are another model's or not results.
    if !line.starts_with(r#"{"type":"result""#) || !line.contains(model) {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let d = v.get("data")?;
    let cfg = d.get("provider_config")?;
    if cfg.get("provider")?.as_str()? != provider || cfg.get("model")?.as_str()? != model {
        return None;
    }
    if d.get("cached").and_then(|c| c.as_bool()) == Some(true) || !d["error"].is_null() {
        return None;
    }
    let input = d.get("usage")?.get("input")?.as_u64().filter(|n| *n > 0)?;
    let messages = d.get("sample")?.get("input")?.as_array()?;
    let text: Vec<&str> = messages
        .iter()
        .filter_map(|m| m.get("content")?.as_str())
        .collect();
    // A rendering over 4 MiB is not repeated in the log: its prompt cannot be counted again.
    if text
        .iter()
        .any(|t| t.contains("[rendering not repeated in the run log"))
    {
        return None;
    }
    Some((input, text.concat()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_answered_uncached_calls_of_the_model_count() {
        let line = |provider: &str, cached: bool, error: &str| {
            format!(
                r#"{{"type":"result","data":{{"provider_config":{{"provider":"{provider}","model":"m-1"}},"cached":{cached},"error":{error},"usage":{{"input":12}},"sample":{{"input":[{{"role":"user","content":"ab"}},{{"role":"user","content":"cd"}}]}}}}}}"#
            )
        };
        assert_eq!(
            billed_call(&line("anthropic", false, "null"), "anthropic", "m-1"),
            Some((12, "abcd".into()))
        );
        assert_eq!(
            billed_call(&line("gemini", false, "null"), "anthropic", "m-1"),
            None
        );
        assert_eq!(
            billed_call(&line("anthropic", true, "null"), "anthropic", "m-1"),
            None
        );
        assert_eq!(
            billed_call(
                &line("anthropic", false, "\"HTTP 500\""),
                "anthropic",
                "m-1"
            ),
            None
        );
    }
}
