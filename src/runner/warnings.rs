//! What a run warns about at its end, from what its calls returned: renderings where more
//! than 5 % of calls stopped at the output-token limit (a cut-off is not a wrong answer),
//! renderings where no answer parsed and the output carries chat-template markers (a server
//! applying the wrong chat template, which otherwise shows only as 0 %), and calls whose
//! server counted fewer prompt tokens than half the data block alone (a server that cut the
//! prompt to its context window without an error, as Ollama does at its `num_ctx`).

use crate::numfmt::thousands;
use crate::providers::Finish;
use crate::runlog::ResultRecord;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Tokens of common chat templates; in a model's output they mean the template leaked.
pub const MARKERS: [&str; 12] = [
    "<|im_start|>",
    "<|im_end|>",
    "<start_of_turn>",
    "<end_of_turn>",
    "[INST]",
    "[/INST]",
    "<|start_header_id|>",
    "<|eot_id|>",
    "<|endoftext|>",
    "<|user|>",
    "<|assistant|>",
    "<|system|>",
];

/// Share of calls ended by length above which a rendering is warned about.
pub const LENGTH_SHARE: f64 = 0.05;

/// A call whose server counted fewer prompt tokens than this share of the data block's
/// o200k_base tokens was cut: no model's vocabulary needs half as many tokens as o200k_base
/// for the same text (SmolLM2's needs 1.2–1.4 times as many), and the prompt holds more than
/// the data.
pub const CUT_PROMPT_SHARE: f64 = 0.5;

#[derive(Default)]
struct Tally {
    calls: usize,
    length: usize,
    parsed: usize,
    marker: Option<&'static str>,
    max_tokens: u32,
    /// Calls whose prompt the server cut, and the last one's (prompt tokens, data tokens).
    cut_prompts: usize,
    cut_example: (u64, u64),
}

/// Counts per (model, rendering), filled as results are written.
#[derive(Default)]
pub struct Signals {
    by: Mutex<BTreeMap<(String, String), Tally>>,
}

impl Signals {
    /// Counts one finished call (warm-ups and failed calls say nothing about the reply).
    pub fn observe(&self, r: &ResultRecord, max_tokens: u32) {
        if r.warmup || r.error.is_some() {
            return;
        }
        let model = format!("{}:{}", r.provider_config.provider, r.provider_config.model);
        let task = r
            .task
            .as_deref()
            .map(|t| format!("{t} "))
            .unwrap_or_default();
        let rendering = format!(
            "{task}{} {} {} {} records{}",
            r.format,
            r.structure,
            r.variant,
            r.records,
            if r.primer { " primer" } else { "" }
        );
        let unparseable = !r.metrics.is_empty()
            && r.metrics
                .iter()
                .all(|m| m.reason.as_deref() == Some("unparseable"));
        let mut by = self.by.lock().expect("signals lock");
        let t = by.entry((model, rendering)).or_default();
        t.calls += 1;
        t.length += usize::from(r.finish == Some(Finish::Length));
        t.parsed += usize::from(!unparseable);
        t.max_tokens = max_tokens;
        let data = r.data_stats.tokens.get("o200k_base").copied().unwrap_or(0) as u64;
        if r.usage.input > 0 && (r.usage.input as f64) < CUT_PROMPT_SHARE * data as f64 {
            t.cut_prompts += 1;
            t.cut_example = (r.usage.input, data);
        }
        if t.marker.is_none() {
            t.marker = MARKERS
                .into_iter()
                .find(|m| r.sample.output.content.contains(m));
        }
    }

    /// One line per problem found, worst first within each kind.
    pub fn warnings(&self) -> Vec<String> {
        let by = self.by.lock().expect("signals lock");
        let mut out = Vec::new();
        for ((model, rendering), t) in by.iter() {
            let share = t.length as f64 / t.calls.max(1) as f64;
            if share > LENGTH_SHARE {
                out.push(format!(
                    "warning: {model}, {rendering}: {} of {} calls ({:.0} %) stopped at the output \
                     limit (max_tokens {}); their unanswered questions count as `truncated`, not \
                     wrong: raise max_tokens (config `max_tokens`) to measure them",
                    t.length,
                    t.calls,
                    100.0 * share,
                    t.max_tokens
                ));
            }
        }
        for ((model, rendering), t) in by.iter() {
            if let (0, Some(marker)) = (t.parsed, t.marker)
                && t.calls > 0
            {
                out.push(format!(
                    "warning: {model}, {rendering}: no answer parsed in any of {} calls and the \
                     output contains the chat-template marker {marker}: the server's chat template \
                     is likely wrong for this model (llama.cpp: pass --chat-template NAME, or \
                     --jinja with a GGUF that carries its template)",
                    t.calls
                ));
            }
        }
        for ((model, rendering), t) in by.iter().filter(|(_, t)| t.cut_prompts > 0) {
            let (input, data) = t.cut_example;
            out.push(format!(
                "warning: {model}, {rendering}: {} of {} calls were counted by the server as {} \
                 prompt tokens, fewer than half the data block's {} (o200k_base): the server \
                 likely cut the prompt to its context window without an error (Ollama does, at \
                 its num_ctx: raise it, e.g. OLLAMA_CONTEXT_LENGTH); these answers rest on part \
                 of the data",
                t.cut_prompts,
                t.calls,
                thousands(input as i64),
                thousands(data as i64)
            ));
        }
        out
    }
}
