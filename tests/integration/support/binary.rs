//! Running the `bench` binary and reading what it wrote: the one command builder, its run
//! folders, run logs and stdout, and the files under a folder.

use assert_cmd::Command;
use bench::runlog::{Line, Metadata, ResultRecord};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

/// The variables that would reach a real provider: never passed on to a test's binary.
const KEY_ENVS: [&str; 5] = [
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "OPENAI_BASE_URL",
];

/// `bench run` of one table: CSV, flat, mandatory (the smallest plan with real calls).
pub const ONE_TABLE_RUN: [&str; 7] = [
    "run",
    "--formats",
    "csv",
    "--structures",
    "flat",
    "--variants",
    "mandatory",
];

/// The `bench` binary as a user without keys runs it, caching under `cache`.
pub fn bench(cache: &Path) -> Command {
    let mut c = binary();
    c.env("BENCH_CACHE_DIR", cache);
    c
}

/// The `bench` binary as a user without keys runs it, with the user's own cache folder (for
/// commands that neither call a provider nor count tokens online).
pub fn binary() -> Command {
    let mut c = Command::cargo_bin("bench").unwrap();
    for k in KEY_ENVS {
        c.env_remove(k);
    }
    c
}

/// `bench args… --output-root DIR/data`, caching under `DIR/cache`: the one way a test runs a
/// command that writes a run. Arguments a test adds go before the root; `ok` runs it and must
/// succeed.
pub fn run_in(dir: &Path, args: &[&str]) -> RunIn {
    RunIn {
        cache: dir.join("cache"),
        root: dir.join("data"),
        args: args.iter().map(OsString::from).collect(),
        envs: Vec::new(),
        timeout: None,
    }
}

/// A command that writes its run under a root, not yet run (see [`run_in`]).
pub struct RunIn {
    cache: PathBuf,
    root: PathBuf,
    args: Vec<OsString>,
    envs: Vec<(String, String)>,
    timeout: Option<Duration>,
}

impl RunIn {
    /// Writes under `root` instead of `DIR/data`.
    pub fn root(mut self, root: &Path) -> Self {
        self.root = root.to_path_buf();
        self
    }

    /// `args` after those given so far.
    pub fn args<S: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = S>) -> Self {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    /// `name=value` in its environment (the key a mock server expects).
    pub fn env(mut self, name: &str, value: &str) -> Self {
        self.envs.push((name.into(), value.into()));
        self
    }

    /// Killed after `limit`, so a run that would wait for ever fails its test instead.
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = Some(limit);
        self
    }

    /// The command line, as a user without keys but those given would type it.
    fn command(&self) -> std::process::Command {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench"));
        for k in KEY_ENVS {
            c.env_remove(k);
        }
        c.env("BENCH_CACHE_DIR", &self.cache);
        c.envs(self.envs.iter().map(|(k, v)| (k, v)));
        c.args(&self.args).arg("--output-root").arg(&self.root);
        c
    }

    /// Runs it to its end, whatever the exit.
    pub fn output(self) -> Output {
        let mut cmd = Command::from_std(self.command());
        if let Some(limit) = self.timeout {
            cmd.timeout(limit);
        }
        cmd.output().unwrap()
    }

    /// Runs it off the async runtime a mock server lives on, to its end, whatever the exit.
    pub async fn output_blocking(self) -> Output {
        tokio::task::spawn_blocking(move || self.output())
            .await
            .unwrap()
    }

    /// Starts it in the background, its output thrown away.
    fn spawn(self) -> std::process::Child {
        let mut cmd = self.command();
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
        cmd.spawn().unwrap()
    }

    /// Starts it in the background and kills it (SIGKILL: no handler runs) once `reached` holds,
    /// checked every 20 ms; fails the test when it exits first, or when `reached` has not held
    /// within a minute (`never` says what never came).
    pub async fn kill_when(self, never: &str, reached: impl Fn() -> bool) {
        let mut child = self.spawn();
        let started = std::time::Instant::now();
        while !reached() {
            assert!(started.elapsed() < Duration::from_secs(60), "{never}");
            assert!(child.try_wait().unwrap().is_none(), "bench exited early");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }

    /// Runs it; it must succeed (else its arguments, stderr and stdout are the failure).
    pub fn ok(self) -> Ran {
        let root = self.root.clone();
        let line: Vec<_> = self
            .args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let line = line.join(" ");
        let out = self.output();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "bench {line}: {stderr}\n{stdout}");
        Ran {
            root,
            stdout,
            stderr,
        }
    }
}

/// What a command that succeeded printed, and where its runs are.
pub struct Ran {
    /// The `--output-root` it was given.
    pub root: PathBuf,
    /// What it printed on stdout.
    pub stdout: String,
    /// What it printed on stderr.
    pub stderr: String,
}

impl Ran {
    /// The run folder it wrote (the newest under its root).
    pub fn dir(&self) -> PathBuf {
        run_dir(&self.root)
    }

    /// Every line of its run's log `log` (`formats.jsonl`, `write.jsonl`, …).
    pub fn lines(&self, log: &str) -> Vec<Line> {
        parse(&self.dir().join(log))
    }

    /// The metadata line of its run's log `log`.
    pub fn metadata(&self, log: &str) -> Metadata {
        match self.lines(log).into_iter().next() {
            Some(Line::Metadata(m)) => *m,
            _ => panic!("{log}: no metadata line first"),
        }
    }

    /// The result lines of its run's log `log`.
    pub fn results(&self, log: &str) -> Vec<ResultRecord> {
        results(&self.lines(log)).into_iter().cloned().collect()
    }
}

/// The newest run folder under `root/benchmarks`.
pub fn run_dir(root: &Path) -> PathBuf {
    let mut dirs: Vec<_> = std::fs::read_dir(root.join("benchmarks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs.pop().unwrap()
}

/// Every line of a run log.
pub fn parse(jsonl: &Path) -> Vec<Line> {
    std::fs::read_to_string(jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:.80}")))
        .collect()
}

/// The result lines of a run log.
pub fn results(lines: &[Line]) -> Vec<&ResultRecord> {
    lines
        .iter()
        .filter_map(|l| match l {
            Line::Result(r) => Some(r.as_ref()),
            _ => None,
        })
        .collect()
}

/// The stdout of a command that must have succeeded; its stderr is the failure message.
pub fn success_stdout(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every file under `dir`, in path order (the folders walked, not listed).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
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

/// `key` is in no file under `dir` and in nothing `outputs` printed.
pub fn assert_key_nowhere(key: &str, dir: &Path, outputs: &[&Output]) {
    for f in files_under(dir) {
        let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
        assert!(!text.contains(key), "the key is in {}", f.display());
    }
    for o in outputs {
        assert!(!String::from_utf8_lossy(&o.stderr).contains(key));
        assert!(!String::from_utf8_lossy(&o.stdout).contains(key));
    }
}
