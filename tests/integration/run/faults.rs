//! Faults of the machine, not of the provider: the output folder's disk fills up mid-run
//! (a small tmpfs, when the test may mount one), and a read-only output root.

use crate::support::{ONE_TABLE_RUN, bench, parse, run_dir, run_in};
use bench::runlog::Line;
use std::path::Path;
use std::process::Command;

/// A tmpfs mounted at a folder for the test's life, unmounted on drop.
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    /// Mounts `size` at `at`; `None` (with the reason) when this machine does not let the
    /// test mount (not root, no mount namespace).
    fn mount(at: &Path, size: &str) -> Result<Self, String> {
        std::fs::create_dir_all(at).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
        }
        Ok(Self(at.to_path_buf()))
    }

    fn mount_option(&self, options: &str) -> bool {
        Command::new("mount")
            .args(["-o", options])
            .arg(&self.0)
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Twenty samples of one table, without a report: a run long enough to fill a small disk.
const TWENTY: [&str; 3] = ["--runs", "20", "--no-report"];

/// The disk fills up after a few result lines: one line naming the file and the way out, no
/// half-written line left behind, exit 1; with space freed, `--resume` ends with every sample
/// exactly once. Then the same folder made read-only: refused before any call.
#[test]
fn a_full_disk_stops_the_run_cleanly_and_resume_completes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("disk");
    // Each result line of this plan is about 15 kB; 400 kB holds a few lines and the artifacts.
    let disk = match Tmpfs::mount(&root, "400k") {
        Ok(d) => d,
        Err(why) => {
            eprintln!("skipped: cannot mount a tmpfs to fill ({why})");
            return;
        }
    };
    let cache = tmp.path().join("cache");
    let out = run_in(tmp.path(), &ONE_TABLE_RUN)
        .args(TWENTY)
        .root(&root)
        .output();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let dir = run_dir(&root);
    let log = dir.join("formats.jsonl");
    // One line: the file that could not be written (the log, or an artifact when that filled
    // the disk first) and the way out; no warning per artifact, no error again at the exit.
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("error:") || l.starts_with("warning:"))
        .collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(
        said[0].starts_with(&format!("error: cannot append to '{}': ", log.display()))
            || said[0].starts_with(&format!("error: cannot write '{}/", dir.display())),
        "{err}"
    );
    assert!(
        said[0].ends_with(&format!(
            ": No space left on device (os error 28); the run stops: free space, then \
             `bench run --resume {}`",
            dir.display()
        )),
        "{err}"
    );
    assert_eq!(err.matches("No space left").count(), 1, "{err}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.ends_with('\n'), "the log ends in a whole line");
    let before = parse(&log)
        .iter()
        .filter(|l| matches!(l, Line::Result(_)))
        .count();
    assert!((1..20).contains(&before), "{before} lines fitted");

    assert!(
        disk.mount_option("remount,size=20m"),
        "remount to free space"
    );
    let out = bench(&cache)
        .args(["run", "--no-report", "--resume"])
        .arg(&dir)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    super::run_cli::assert_each_sample_once(&dir, 20);

    // Full before the first call (the run's data files do not fit): one line, the same way out,
    // and --resume completes that run too once there is room.
    let early = tmp.path().join("early");
    let small = Tmpfs::mount(&early, "40k").expect("a second tmpfs");
    let out = run_in(tmp.path(), &ONE_TABLE_RUN)
        .args(TWENTY)
        .root(&early)
        .output();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let dir = run_dir(&early);
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("error:") || l.starts_with("warning:"))
        .collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(
        said[0].starts_with(&format!("error: cannot write '{}/", dir.display()))
            && said[0].ends_with(&format!(
                ": No space left on device (os error 28); the run stops: free space, then \
                 `bench run --resume {}`",
                dir.display()
            )),
        "{err}"
    );
    assert!(small.mount_option("remount,size=20m"), "remount");
    let out = bench(&cache)
        .args(["run", "--no-report", "--resume"])
        .arg(&dir)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    super::run_cli::assert_each_sample_once(&dir, 20);

    // Read-only: refused before a run folder (or a call) exists.
    assert!(disk.mount_option("remount,ro"), "remount read-only");
    let out = run_in(tmp.path(), &ONE_TABLE_RUN)
        .args(TWENTY)
        .root(&root)
        .output();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("error: cannot write to '{}", root.display()))
            && err.contains("Read-only file system"),
        "{err}"
    );
    assert!(!err.contains("calls planned"), "{err}");
}

/// One chat call to an OpenAI-compatible server at `base`; its error text, if it failed.
async fn call(base: &str) -> Option<String> {
    let mut cfg = bench::providers::ModelConfig::from_spec("openai-compatible:m").unwrap();
    cfg.base_url = Some(base.to_string());
    cfg.timeout_secs = Some(20.0);
    let p = bench::providers::build(&cfg, &crate::support::mocks::fake_env).unwrap();
    let messages = [bench::prompt::Message::new("user", "hi")];
    let req = bench::providers::Request {
        messages: &messages,
        cache_prefix: 0,
        settings: Default::default(),
        answerable: None,
        schema: None,
    };
    p.complete(&req).await.err().map(|e| e.to_string())
}

/// A 50 MB reply and an endless chunked one: bench stops reading at 16 MiB and records an
/// error, instead of holding whatever the server sends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runaway_reply_is_cut_at_the_size_limit_and_is_an_error() {
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .set_body_raw(vec![b' '; 50 << 20], "application/json"),
        )
        .mount(&server)
        .await;
    let err = call(&format!("{}/v1", server.uri()))
        .await
        .expect("an error");
    assert!(
        err.contains("the response body passed 16 MiB; stopped reading it"),
        "{err}"
    );

    // A server that streams a chunked body forever.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut s, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                let _ = s.read(&mut buf).await;
                let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                            transfer-encoding: chunked\r\n\r\n";
                if s.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                let chunk = format!("{:x}\r\n{}\r\n", 65536, " ".repeat(65536));
                while s.write_all(chunk.as_bytes()).await.is_ok() {}
            });
        }
    });
    let started = std::time::Instant::now();
    let err = call(&format!("http://{addr}/v1")).await.expect("an error");
    assert!(err.contains("the response body passed 16 MiB"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}
