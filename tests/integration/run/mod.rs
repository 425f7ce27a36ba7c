//! `bench run` and the runner: resume, shards, faults, first checks, windows, prompts, sweeps,
//! recommendations, rescoring.

mod estimate;
mod faults;
mod first_checks;
mod pipeline;
mod prompt_wording;
mod prompts_dump;
mod recommend;
mod rescore;
mod run_cli;
mod runs;
mod shards;
mod sweep;
mod windows;
