//! `bench` binary: parses the command line and dispatches; no logic lives here.

use bench::cli::{Cli, Command};
use bench::error::{Reported, Stopped, one_line};
use bench::{UsageError, commands};
use clap::Parser;
use clap::error::ErrorKind;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Bad flag values get one line naming the value and the allowed ones; the rest as clap prints them.
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::InvalidValue | ErrorKind::ValueValidation
            ) =>
        {
            // clap puts the allowed values on the line after the first; keep them, drop the
            // tips and the pointer to --help that follow a blank line.
            let text = e.to_string();
            let head: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{}", head.join(" "));
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    let result = match &cli.command {
        Command::Generate(args) => commands::generate::execute(args),
        Command::Run(args) => commands::run::execute(args),
        Command::Tokens(args) => commands::tokens::execute(args),
        Command::Query(args) => commands::query::execute(args),
        Command::Export(args) => commands::export::execute(args),
        Command::Sql(args) => commands::sql::execute(args),
        Command::Report(args) => commands::report::execute(args),
        Command::Compare(args) => commands::compare::execute(args),
        Command::Recommend(args) => commands::recommend::execute(args),
        Command::Sweep(args) => commands::sweep::execute(args),
        Command::Merge(args) => commands::merge::execute(args),
        Command::InitConfig(args) => commands::init_config::execute(args),
        Command::Perf(args) => commands::perf::execute(args),
        Command::View(args) => commands::view::execute(args),
        Command::Rescore(args) => commands::rescore::execute(args),
        Command::Import(args) => commands::import::execute(args),
        Command::ListTasks(args) => commands::tasks::list(args),
        Command::Formats(args) => commands::formats::list(args),
        Command::DumpPrompts(args) => commands::prompts::dump(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of stdout has gone (`bench … | head`): end quietly, as `rg` does.
        Err(e) if bench::out::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<Reported>().is_some() => {
            ExitCode::from(e.downcast_ref::<Reported>().map_or(1, |r| r.code))
        }
        Err(e) => {
            eprintln!("error: {}", one_line(&format!("{e:#}")));
            ExitCode::from(if let Some(s) = e.downcast_ref::<Stopped>() {
                s.code
            } else if e.downcast_ref::<UsageError>().is_some() {
                2
            } else {
                1
            })
        }
    }
}
