//! Progress of a run: an indicatif bar per provider (done/total, ETA, tokens in/out, $ so far)
//! on a terminal, plain log lines otherwise.

use crate::runlog::ResultRecord;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;

/// Told about a run as it goes.
pub trait Observer: Send + Sync {
    /// The run starts: per provider, its spec, calls planned and calls already done.
    fn start(&self, providers: &[(String, usize, usize)]);
    /// A call finished and was written.
    fn finished(&self, provider: usize, r: &ResultRecord, cached: bool);
    /// Something the user should read now.
    fn notice(&self, msg: &str);
    /// The run is over.
    fn finish(&self);
}

/// Prints nothing.
pub struct Silent;

impl Observer for Silent {
    fn start(&self, _: &[(String, usize, usize)]) {}
    fn finished(&self, _: usize, _: &ResultRecord, _: bool) {}
    fn notice(&self, _: &str) {}
    fn finish(&self) {}
}

#[derive(Default, Clone)]
struct Tally {
    spec: String,
    total: usize,
    done: usize,
    input: u64,
    output: u64,
    cost: f64,
    errors: usize,
    cached: usize,
}

impl Tally {
    fn add(&mut self, r: &ResultRecord, cached: bool) {
        self.done += 1;
        self.input += r.usage.input;
        self.output += r.usage.output;
        if !cached {
            self.cost += r.cost_usd.unwrap_or(0.0);
        }
        self.errors += usize::from(r.error.is_some());
        self.cached += usize::from(cached);
    }

    fn message(&self) -> String {
        let mut m = format!(
            "in {} out {} ${:.4}",
            human(self.input),
            human(self.output),
            self.cost
        );
        if self.cached > 0 {
            m.push_str(&format!(" cached {}", self.cached));
        }
        if self.errors > 0 {
            m.push_str(&format!(" errors {}", self.errors));
        }
        m
    }
}

use crate::numfmt::count as human;

/// Bars on a terminal (stderr), one log line per call otherwise.
pub struct Console {
    multi: Option<MultiProgress>,
    bars: Mutex<Vec<ProgressBar>>,
    tallies: Mutex<Vec<Tally>>,
}

impl Console {
    /// Chooses bars or lines by whether stderr is a terminal.
    pub fn new() -> Self {
        let multi = std::io::stderr()
            .is_terminal()
            .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()));
        Self {
            multi,
            bars: Mutex::new(Vec::new()),
            tallies: Mutex::new(Vec::new()),
        }
    }
}

impl Default for Console {
    fn default() -> Self {
        Self::new()
    }
}

impl Observer for Console {
    fn start(&self, providers: &[(String, usize, usize)]) {
        let mut tallies = self.tallies.lock().expect("progress lock");
        let mut bars = self.bars.lock().expect("progress lock");
        let width = providers.iter().map(|p| p.0.len()).max().unwrap_or(0);
        // A new start (the next round of `bench recommend`) counts afresh.
        tallies.clear();
        for bar in bars.drain(..) {
            bar.finish_and_clear();
        }
        for (spec, total, done) in providers {
            tallies.push(Tally {
                spec: spec.clone(),
                total: *total,
                done: *done,
                ..Tally::default()
            });
            if let Some(multi) = &self.multi {
                let bar = multi.add(ProgressBar::new(*total as u64));
                bar.set_style(
                    ProgressStyle::with_template(&format!(
                        "{{prefix:{width}}} {{bar:24}} {{pos}}/{{len}} ETA {{eta}} {{msg}}"
                    ))
                    .expect("valid template"),
                );
                bar.set_prefix(spec.clone());
                bar.set_position(*done as u64);
                bars.push(bar);
            } else {
                eprintln!("{spec}: {total} calls planned, {done} already done");
            }
        }
    }

    fn finished(&self, provider: usize, r: &ResultRecord, cached: bool) {
        let mut tallies = self.tallies.lock().expect("progress lock");
        let Some(t) = tallies.get_mut(provider) else {
            return;
        };
        t.add(r, cached);
        if self.multi.is_some() {
            if let Some(bar) = self.bars.lock().expect("progress lock").get(provider) {
                bar.set_position(t.done as u64);
                bar.set_message(t.message());
            }
        } else {
            let outcome = match &r.error {
                Some(e) => format!("error: {e}"),
                None => format!("{:.1}%", 100.0 * r.summary.weighted_accuracy),
            };
            eprintln!(
                "[{} {}/{}] {} {} {}ms{} | {}",
                t.spec,
                t.done,
                t.total,
                r.sample.tag,
                outcome,
                r.timing.provider_latency_ms,
                if cached { " (cached)" } else { "" },
                t.message()
            );
        }
    }

    fn notice(&self, msg: &str) {
        match &self.multi {
            Some(m) => {
                let _ = m.println(msg);
            }
            None => eprintln!("{msg}"),
        }
    }

    fn finish(&self) {
        let bars = self.bars.lock().expect("progress lock");
        for bar in bars.iter() {
            bar.finish();
        }
        // indicatif leaves the cursor at the end of the last bar: end its line, so what the
        // run prints next (the ranking, on stdout) starts on a line of its own.
        if self.multi.is_some() && !bars.is_empty() {
            eprintln!();
        }
    }
}
