//! `bench view [ROOT]`: loads the root's runs, binds the address (loopback unless told
//! otherwise, with a warning), prints the URL and serves until stopped.

use crate::cli::ViewArgs;
use anyhow::{Context, Result};
use std::net::SocketAddr;

/// `bench view`.
pub fn execute(args: &ViewArgs) -> Result<()> {
    if !args.host.is_loopback() {
        eprintln!(
            "warning: --host {} is not a loopback address: anyone who can reach this machine can \
             read these runs (prompts, replies, data)",
            args.host
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let started = std::time::Instant::now();
        let bound = crate::view::bind(&args.root, SocketAddr::new(args.host, args.port)).await?;
        let url = format!("http://{}/", bound.addr);
        crate::outln!(
            "bench view: {} (loaded in {:.1} s; Ctrl-C stops)",
            url,
            started.elapsed().as_secs_f64()
        )?;
        if args.open {
            open_browser(&url);
        }
        bound.serve().await
    })
}

/// Opens `url` in the default browser; a failure is a warning (the URL is printed anyway).
fn open_browser(url: &str) {
    let (program, pre): (&str, &[&str]) = if cfg!(target_os = "macos") {
        ("open", &[])
    } else if cfg!(windows) {
        ("cmd", &["/C", "start", ""])
    } else {
        ("xdg-open", &[])
    };
    if let Err(e) = std::process::Command::new(program)
        .args(pre)
        .arg(url)
        .spawn()
    {
        eprintln!("warning: --open: cannot start {program}: {e}; open {url} yourself");
    }
}
