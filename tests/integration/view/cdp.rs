//! A small Chrome DevTools protocol client for the browser tests: start headless Chromium,
//! open a tab, navigate, evaluate JavaScript, collect console errors, take screenshots.
//!
//! Written here rather than taken from `headless_chrome`: that crate generates its protocol
//! types in a build script whose build-dependencies (serde with `derive`) change the features of
//! the build-dependencies libduckdb-sys shares, so adding it rebuilt DuckDB's C++ (measured: the
//! first `cargo build --tests` after adding it recompiled libduckdb-sys), and `cargo run` and
//! `cargo test` would then each build DuckDB once. A WebSocket (`tungstenite`) and five protocol
//! methods are all these tests need.

use base64::Engine;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The Chromium to drive: `$BENCH_CHROMIUM`, or `None` (with a notice) when it is not set.
pub fn chromium() -> Option<PathBuf> {
    let Some(path) = std::env::var_os("BENCH_CHROMIUM") else {
        eprintln!(
            "skipping: BENCH_CHROMIUM not set (the path of a Chromium binary; .ci/run sets it)"
        );
        return None;
    };
    let path = PathBuf::from(path);
    assert!(
        path.is_file(),
        "BENCH_CHROMIUM={} is not a file (apt-get install chromium)",
        path.display()
    );
    Some(path)
}

/// A headless Chromium and one tab of it, attached over the DevTools protocol.
pub struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
    /// Console errors, uncaught exceptions and error log entries seen so far, as text.
    pub errors: Vec<String>,
    loaded: bool,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts Chromium headless on a fresh profile, off the network: the flags keep it from
    /// calling Google's hosts at start (refused on a closed machine, FINDINGS.md).
    pub fn launch(path: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(path)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,1600",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
        // Chromium prints its browser endpoint on stderr once it listens.
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let mut url = None;
        let mut seen = Vec::new();
        for line in stderr.lines() {
            let line = line.unwrap();
            if let Some(at) = line.find("ws://") {
                url = Some(line[at..].trim().to_string());
                break;
            }
            seen.push(line);
        }
        let url = url.unwrap_or_else(|| panic!("Chromium did not listen:\n{}", seen.join("\n")));
        let (ws, _) = tungstenite::connect(url.as_str()).expect("DevTools WebSocket");
        let mut b = Browser {
            child,
            ws,
            session: String::new(),
            next_id: 0,
            errors: Vec::new(),
            loaded: false,
            _profile: profile,
        };
        let target = b.call("Target.createTarget", json!({"url": "about:blank"}));
        let attached = b.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            b.call(domain, json!({}));
        }
        b
    }

    /// Sends one command (to the tab once attached) and waits for its result, keeping the
    /// events that arrive meanwhile.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        self.ws.send(Message::text(msg.to_string())).unwrap();
        loop {
            let reply = self.read();
            if reply["id"] == id {
                if let Some(e) = reply.get("error") {
                    panic!("{method}: {e}");
                }
                return reply["result"].clone();
            }
            self.event(&reply);
        }
    }

    fn read(&mut self) -> Value {
        loop {
            match self.ws.read().expect("DevTools message") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
                Message::Close(_) => panic!("Chromium closed the DevTools connection"),
                _ => continue,
            }
        }
    }

    fn event(&mut self, e: &Value) {
        let p = &e["params"];
        let line = match e["method"].as_str().unwrap_or("") {
            "Page.loadEventFired" => {
                self.loaded = true;
                None
            }
            "Runtime.exceptionThrown" => Some(format!(
                "exception: {} {}",
                p["exceptionDetails"]["text"], p["exceptionDetails"]["exception"]["description"]
            )),
            "Runtime.consoleAPICalled"
                if matches!(p["type"].as_str(), Some("error" | "assert")) =>
            {
                Some(format!("console.{}: {}", p["type"], p["args"]))
            }
            "Log.entryAdded" if p["entry"]["level"] == "error" => Some(format!(
                "log: {} ({})",
                p["entry"]["text"], p["entry"]["url"]
            )),
            _ => None,
        };
        if let Some(line) = line {
            self.errors.push(line);
        }
    }

    /// Opens `url` and waits for its load event (30 s at most).
    pub fn goto(&mut self, url: &str) {
        self.loaded = false;
        let r = self.call("Page.navigate", json!({"url": url}));
        assert!(r.get("errorText").is_none(), "{url}: {}", r["errorText"]);
        self.wait_load();
    }

    /// A JavaScript expression's value (JSON), an exception in it failing the test.
    pub fn eval(&mut self, js: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": js, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{js}: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Clicks the first element matching `selector` and waits for the page it opens.
    pub fn click(&mut self, selector: &str) {
        let js = format!(
            "(() => {{ const e = document.querySelector({}); if (!e) return false; e.click(); return true; }})()",
            json!(selector)
        );
        assert_eq!(self.eval(&js), json!(true), "no element {selector}");
        self.wait_load();
    }

    /// Waits for the next page load (30 s at most): after a navigation a script started.
    pub fn wait_load(&mut self) {
        let start = Instant::now();
        while !self.loaded {
            assert!(start.elapsed() < Duration::from_secs(30), "no page loaded");
            let e = self.read();
            self.event(&e);
        }
        self.loaded = false;
    }

    /// The address of the page shown.
    pub fn url(&mut self) -> String {
        self.eval("location.href")
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Keeps a PNG of the page as `$BENCH_SCREENSHOTS/<name>.png` when that is set.
    pub fn screenshot(&mut self, name: &str) {
        let Some(dir) = std::env::var_os("BENCH_SCREENSHOTS") else {
            return;
        };
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().unwrap())
            .unwrap();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(Path::new(&dir).join(format!("{name}.png")), png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
