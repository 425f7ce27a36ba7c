//! Integration tests, one binary: each test binary links DuckDB, so one link instead of seven.

#[path = "report/analytics.rs"]
mod analytics;
#[path = "cli/anywhere.rs"]
mod anywhere;
#[path = "data/as_written.rs"]
mod as_written;
#[path = "data/bad_files.rs"]
mod bad_files;
#[path = "batch/batch_api/mod.rs"]
mod batch_api;
#[path = "batch/batch_run.rs"]
mod batch_run;
#[path = "providers/billed.rs"]
mod billed;
#[path = "view/browser.rs"]
mod browser;
#[path = "view/cdp.rs"]
mod cdp;
#[path = "cli/basics.rs"]
mod cli;
#[path = "structure/cli_docs.rs"]
mod cli_docs;
#[path = "report/compare.rs"]
mod compare;
#[path = "providers/contracts.rs"]
mod contracts;
#[path = "suites/corrupted.rs"]
mod corrupted;
#[path = "providers/counting.rs"]
mod counting;
#[path = "providers/dead_endpoint.rs"]
mod dead_endpoint;
#[path = "report/decisions.rs"]
mod decisions;
#[path = "structure/doc_links.rs"]
mod doc_links;
#[path = "structure/docs_behave.rs"]
mod docs_behave;
#[path = "formats/documents.rs"]
mod documents;
#[path = "report/empty_log.rs"]
mod empty_log;
#[path = "run/estimate.rs"]
mod estimate;
#[path = "cli/exit_codes.rs"]
mod exit_codes;
#[path = "report/experiments.rs"]
mod experiments;
#[path = "run/faults.rs"]
mod faults;
#[path = "run/first_checks.rs"]
mod first_checks;
#[path = "batch/gemini_batch_run.rs"]
mod gemini_batch_run;
#[path = "suites/grading.rs"]
mod grading;
#[path = "import/toon.rs"]
mod import;
#[path = "import/import_hoeltig.rs"]
mod import_hoeltig;
#[path = "import/import_tealeaf.rs"]
mod import_tealeaf;
#[path = "cli/latest.rs"]
mod latest;
#[path = "providers/local_model.rs"]
mod local_model;
#[path = "structure/module_graph.rs"]
mod module_graph;
#[path = "structure/names.rs"]
mod names;
#[path = "formats/outside_readers.rs"]
mod outside_readers;
#[path = "run/pipeline.rs"]
mod pipeline;
#[path = "cli/pipes.rs"]
mod pipes;
#[path = "run/prompt_wording.rs"]
mod prompt_wording;
#[path = "run/prompts_dump.rs"]
mod prompts_dump;
#[path = "formats/properties.rs"]
mod properties;
#[path = "providers/wires.rs"]
mod providers;
#[path = "suites/question_file.rs"]
mod question_file;
#[path = "run/recommend.rs"]
mod recommend;
#[path = "report/statistics.rs"]
mod report;
#[path = "report/report_cli.rs"]
mod report_cli;
#[path = "run/rescore.rs"]
mod rescore;
#[path = "formats/roundtrip.rs"]
mod roundtrip;
#[path = "run/run_cli.rs"]
mod run_cli;
#[path = "run/runs.rs"]
mod runs;
#[path = "providers/served.rs"]
mod served;
#[path = "run/shards.rs"]
mod shards;
#[path = "formats/sizes.rs"]
mod sizes;
#[path = "report/spark.rs"]
mod spark;
#[path = "report/staging.rs"]
mod staging;
#[path = "formats/stream.rs"]
mod stream;
#[path = "suites/suite_plans.rs"]
mod suite_plans;
#[path = "run/sweep.rs"]
mod sweep;
#[path = "suites/tasks.rs"]
mod tasks;
#[path = "suites/tasks_run.rs"]
mod tasks_run;
#[path = "formats/tealeaf.rs"]
mod tealeaf;
#[path = "suites/tealeaf_tasks.rs"]
mod tealeaf_tasks;
#[path = "cli/terminal.rs"]
mod terminal;
#[path = "providers/tokens.rs"]
mod tokens;
#[path = "formats/toon_fixtures.rs"]
mod toon_fixtures;
#[path = "formats/toon_golden.rs"]
mod toon_golden;
#[path = "data/userdata.rs"]
mod userdata;
#[path = "data/userdata_keys.rs"]
mod userdata_keys;
#[path = "data/userdata_run.rs"]
mod userdata_run;
#[path = "view/pages.rs"]
mod view;
#[path = "report/views.rs"]
mod views;
#[path = "run/windows.rs"]
mod windows;
#[path = "batch/write_batch.rs"]
mod write_batch;
#[path = "suites/write_run.rs"]
mod write_run;

/// The stdout of a command that must have succeeded; its stderr is the failure message.
fn success_stdout(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every file under `dir`, in path order (the folders walked, not listed).
fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}
