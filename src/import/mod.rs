//! `bench import`: answers that other format benchmarks published become run folders in bench's
//! own log schema, marked imported with their provenance, so rankings, `compare`, the report
//! and `bench view` read them unchanged. One file per source behind [`Importer`]; adding a
//! source is its file and one line of [`IMPORTERS`].

mod grade;
mod hoeltig;
mod hoeltig_data;
mod source;
pub mod summary;
mod table;
mod tealeaf;
mod toon;
pub mod verdict;
mod write;

use crate::UsageError;
pub use source::{Answer, Element, Importer, Options, Published};
pub use write::{Written, write_runs};

/// Every source `bench import --from` knows.
pub const IMPORTERS: &[&dyn Importer] = &[
    &toon::Toon,
    &hoeltig::Hoeltig,
    &tealeaf::Tealeaf,
    &table::Table,
];

/// The importer named `name`, or a one-line error naming the known ones.
pub fn importer(name: &str) -> Result<&'static dyn Importer, UsageError> {
    IMPORTERS
        .iter()
        .copied()
        .find(|i| i.name() == name)
        .ok_or_else(|| {
            let known: Vec<String> = IMPORTERS
                .iter()
                .map(|i| format!("{} ({})", i.name(), i.about()))
                .collect();
            UsageError::new(format!(
                "--from {name}: no such source; known: {}",
                known.join(", ")
            ))
        })
}

/// The answers of every model of `run` as one model, `all N models`, each model's answers a
/// run of the questions of its own (model i's run r becomes run i·R + r, R the most runs of
/// any model): bench's paired statistics then pool the models, pairing answers by question and
/// model and clustering the bootstrap by question. None when the run has one model.
pub fn pooled(run: &Published) -> Option<Published> {
    let mut models: Vec<&str> = run.answers.iter().map(|a| a.model.as_str()).collect();
    models.sort_unstable();
    models.dedup();
    if models.len() < 2 {
        return None;
    }
    let most = run.answers.iter().map(|a| a.run).max().unwrap_or(1);
    let name = format!("all {} models", models.len());
    let answers = run
        .answers
        .iter()
        .map(|a| {
            let i = models.binary_search(&a.model.as_str()).unwrap_or(0) as u32;
            Answer {
                model: name.clone(),
                run: i * most + a.run,
                ..a.clone()
            }
        })
        .collect();
    Some(Published {
        about: run.about.clone(),
        description: format!(
            "{}, pooled: {} as one model, each model's answers a run of its own",
            run.description,
            models.join(", ")
        ),
        answers,
    })
}
