//! Integration tests, one binary: each test binary links DuckDB, so one link instead of seven.

mod analytics;
mod anywhere;
mod as_written;
mod bad_files;
mod batch_api;
mod batch_run;
mod billed;
mod browser;
mod cdp;
mod cli;
mod cli_docs;
mod compare;
mod contracts;
mod corrupted;
mod counting;
mod dead_endpoint;
mod decisions;
mod doc_links;
mod docs_behave;
mod documents;
mod empty_log;
mod estimate;
mod exit_codes;
mod experiments;
mod faults;
mod first_checks;
mod gemini_batch_run;
mod grading;
mod import;
mod import_hoeltig;
mod import_tealeaf;
mod latest;
mod local_model;
mod module_graph;
mod names;
mod outside_readers;
mod pipeline;
mod pipes;
mod prompt_wording;
mod prompts_dump;
mod properties;
mod providers;
mod question_file;
mod recommend;
mod report;
mod report_cli;
mod rescore;
mod roundtrip;
mod run_cli;
mod runs;
mod served;
mod shards;
mod sizes;
mod spark;
mod staging;
mod stream;
mod suite_plans;
mod sweep;
mod tasks;
mod tasks_run;
mod tealeaf;
mod tealeaf_tasks;
mod terminal;
mod tokens;
mod toon_fixtures;
mod toon_golden;
mod userdata;
mod userdata_keys;
mod userdata_run;
mod view;
mod views;
mod windows;
mod write_batch;
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
