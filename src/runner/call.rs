//! One combination: the provider calls for each run, graded and logged one by one.

use crate::grading::{grade, summarize};
use crate::layout::{Rendering, Writer};
use crate::prompt::{Prompt, extract_answers};
use crate::providers::{Provider, Request, Usage};
use crate::questions::Question;
use crate::records::{JsonlWriter, Line, Output, ProviderConfig, ResultRecord, Sample, Timing};
use anyhow::Result;
use serde_json::json;
use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// A finished call, for progress display.
pub struct Progress<'a> {
    /// Calls finished so far.
    pub done: usize,
    /// Calls planned.
    pub total: usize,
    /// The result just written.
    pub result: &'a ResultRecord,
}

/// State shared by every call of a run.
pub struct Context<'a> {
    /// Id of the run.
    pub benchmark_id: &'a str,
    /// The run log.
    pub log: &'a mut JsonlWriter,
    /// The artifacts folder.
    pub artifacts: &'a mut Writer,
    /// Record count.
    pub n: usize,
    /// Whether artifacts need a per-provider folder.
    pub multi_provider: bool,
    /// Calls finished.
    pub done: usize,
    /// Calls planned.
    pub total: usize,
    /// Progress sink.
    pub progress: &'a dyn Fn(Progress),
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

impl Context<'_> {
    fn provider_dir(&self, p: &dyn Provider, sub: &str) -> PathBuf {
        if self.multi_provider {
            let safe = |s: &str| {
                s.replace(
                    |c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '.',
                    "_",
                )
            };
            PathBuf::from(sub).join(format!("{}_{}", safe(p.name()), safe(p.model())))
        } else {
            PathBuf::from(sub)
        }
    }

    /// Runs the optional warm-up and `runs` full calls for one rendering and provider.
    pub async fn combination(
        &mut self,
        p: &dyn Provider,
        r: &Rendering,
        questions: &[Question],
        runs: u32,
    ) -> Result<Vec<ResultRecord>> {
        let prompt = Prompt::render(r.format, &r.text, questions);
        let messages = prompt.messages();
        let mut out = Vec::new();
        let first = if p.caches_prompts() { 0 } else { 1 };
        for run in first..=runs {
            let record = self.call(p, r, questions, &messages, run).await;
            self.log.append(&Line::Result(Box::new(record.clone())))?;
            let name = format!(
                "answers_for_{}_{}_{}_records_{}.json",
                r.structure,
                r.variant,
                self.n,
                if run == 0 {
                    "warmup".into()
                } else {
                    run.to_string()
                }
            );
            let raw = json!({"tag": record.sample.tag, "output": record.sample.output.content, "error": record.error});
            self.artifacts.artifact(
                &self
                    .provider_dir(p, "responses")
                    .join(r.format.name())
                    .join(name),
                &raw,
            )?;
            if run > 0 {
                self.done += 1;
                (self.progress)(Progress {
                    done: self.done,
                    total: self.total,
                    result: &record,
                });
            }
            out.push(record);
        }
        let validation = json!({
            "format": r.format, "structure": r.structure, "variant": r.variant, "records": self.n,
            "provider": p.name(), "model": p.model(),
            "runs": out.iter().filter(|x| !x.warmup).map(|x| json!({"run": x.run, "summary": x.summary, "error": x.error, "metrics": x.metrics})).collect::<Vec<_>>(),
        });
        let name = format!(
            "{}_{}_{}_{}_validation.json",
            r.format, r.structure, r.variant, self.n
        );
        self.artifacts
            .artifact(&self.provider_dir(p, "results").join(name), &validation)?;
        Ok(out)
    }

    async fn call(
        &self,
        p: &dyn Provider,
        r: &Rendering,
        questions: &[Question],
        messages: &[crate::prompt::Message],
        run: u32,
    ) -> ResultRecord {
        let start_ms = now_ms();
        let started = Instant::now();
        let response = p
            .complete(&Request {
                messages,
                questions,
            })
            .await;
        let latency = started.elapsed().as_millis() as u64;
        let end_ms = now_ms();
        let graded_at = Instant::now();
        let (output, usage, error, metrics) = match response {
            Ok(resp) => {
                let answers = extract_answers(&resp.output);
                let metrics = grade(questions, answers.as_ref());
                (resp.output, resp.usage, None, metrics)
            }
            Err(e) => (
                String::new(),
                Usage::default(),
                Some(e.to_string()),
                grade(questions, None),
            ),
        };
        let summary = summarize(&metrics);
        let run_tag = if run == 0 {
            "warmup".to_string()
        } else {
            format!("run{run}")
        };
        ResultRecord {
            benchmark_id: self.benchmark_id.to_string(),
            provider_config: ProviderConfig {
                provider: p.name().into(),
                model: p.model().into(),
                model_params: p.params(),
            },
            sample: Sample {
                duration_ms: latency,
                tag: format!(
                    "{}_{}_{}_{}_{run_tag}",
                    r.format, r.structure, r.variant, self.n
                ),
                input: messages.to_vec(),
                output: Output { content: output },
                model: p.model().into(),
                model_params: p.params(),
                start_time_ms: start_ms,
                end_time_ms: end_ms,
                url: p.url(),
            },
            metrics,
            summary,
            timing: Timing {
                provider_latency_ms: latency,
                evaluation_time_ms: graded_at.elapsed().as_millis() as u64,
            },
            format: r.format,
            structure: r.structure,
            variant: r.variant,
            records: self.n,
            run,
            warmup: run == 0,
            usage,
            data_stats: r.stats.clone(),
            cost_usd: 0.0,
            error,
        }
    }
}
