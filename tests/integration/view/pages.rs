//! `bench view` over a root made by the real runner with test doubles: the runs page lists
//! every run, filters narrow the answers, an answer page highlights the asked record, the
//! two-run page lists a planted regression first, and the security rules hold (no writes,
//! nothing outside the run's folder, HTML from folder names and replies shown as text).

use crate::support::doubles::run_double as run;
use std::net::SocketAddr;
use std::path::Path;

/// Starts the viewer on a free loopback port and returns its base URL.
async fn serve(root: &Path) -> String {
    let bound = bench::view::bind(root, SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let url = format!("http://{}", bound.addr);
    tokio::spawn(bound.serve());
    url
}

async fn get(url: &str) -> (u16, String) {
    let r = reqwest::get(url).await.unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

/// The `data-answer-id` rows of an answers page, each as its whole `<tr …>…</tr>` text.
fn rows(page: &str) -> Vec<&str> {
    page.split("<tr data-answer-id=")
        .skip(1)
        .map(|r| r.split("</tr>").next().unwrap())
        .collect()
}

fn total(page: &str) -> usize {
    let at = page.find("data-total=\"").expect("a count") + 12;
    page[at..].split('"').next().unwrap().parse().unwrap()
}

fn name(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_list_filter_highlight_and_compare() {
    let tmp = tempfile::tempdir().unwrap();
    let a = run(tmp.path(), "old", &[], 31).await;
    let b = run(tmp.path(), "new", &[("csv", 15)], 31).await;
    let (an, bn) = (name(&a), name(&b));
    let base = serve(tmp.path()).await;

    let (status, runs) = get(&format!("{base}/")).await;
    assert_eq!(status, 200);
    for n in [&an, &bn] {
        assert!(
            runs.contains(&format!("<tr data-run=\"{n}\">")),
            "{n} missing: {runs}"
        );
    }

    // 2 runs × 4 formats × 124 answers; B's csv got q001–q015 wrong.
    let (_, all) = get(&format!("{base}/answers")).await;
    assert_eq!(total(&all), 2 * 4 * 124);
    assert_eq!(rows(&all).len(), 50, "the first page of 50");
    let (_, failed) = get(&format!("{base}/answers?passed=false&per=100")).await;
    assert_eq!(total(&failed), 15);
    assert!(
        rows(&failed)
            .iter()
            .all(|r| r.contains("class=\"failed\"") && r.contains("<td>csv</td>"))
    );
    let (_, csv) = get(&format!("{base}/answers?format=csv&run={an}&per=500")).await;
    assert_eq!(total(&csv), 124);
    assert!(
        rows(&csv)
            .iter()
            .all(|r| r.contains("<td>csv</td>") && r.contains(&an))
    );
    let (_, searched) = get(&format!("{base}/answers?q=WRONG")).await;
    assert_eq!(
        total(&searched),
        15,
        "the text search finds the planted answer"
    );
    let (_, page2) = get(&format!(
        "{base}/answers?passed=false&per=10&page=2&sort=question&dir=desc"
    ))
    .await;
    assert_eq!(rows(&page2).len(), 5);
    assert!(rows(&page2)[0].contains("q005"), "{}", rows(&page2)[0]);
    let (status, bad) = get(&format!("{base}/answers?passed=maybe")).await;
    assert_eq!(status, 400);
    assert!(
        bad.contains("passed=maybe: expected true or false"),
        "{bad}"
    );

    // One answer: its page from the link in the list, the asked record highlighted.
    let first = rows(&failed)[0];
    let link = first
        .split("href=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&");
    let (status, one) = get(&format!("{base}{link}")).await;
    assert_eq!(status, 200, "{one}");
    assert!(one.contains("What is the"), "the question: {one}");
    assert!(
        one.contains("<dt>expected</dt>") && one.contains("WRONG"),
        "{one}"
    );
    let hl = one
        .split("class=\"hl\"")
        .nth(1)
        .expect("a highlighted record");
    let hl = hl.split("</mark>").next().unwrap();
    let asked = one
        .split("The record asked about (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    assert!(asked.starts_with("PROD-"), "{asked}");
    assert!(
        hl.contains(asked) && hl.lines().count() == 1,
        "one CSV row: {hl}"
    );

    // Two runs: the renderings with compare's numbers and the differing pairs, regressions first.
    let (status, cmp) = get(&format!("{base}/compare?a={an}&b={bn}")).await;
    assert_eq!(status, 200, "{cmp}");
    assert!(
        cmp.contains("<tr data-verdict=\"regression\"><td>csv · flat · mandatory · 31</td>"),
        "{cmp}"
    );
    let diff = cmp.split("<table id=\"diff\">").nth(1).unwrap();
    let kinds: Vec<&str> = diff
        .split("<tr data-kind=\"")
        .skip(1)
        .map(|r| r.split('"').next().unwrap())
        .collect();
    assert_eq!(kinds.len(), 15);
    assert!(kinds.iter().all(|k| *k == "regression"));
    let (_, back) = get(&format!("{base}/compare?a={bn}&b={an}")).await;
    assert!(back.contains("<tr data-kind=\"improvement\">"));

    // The report, read live, and its files served read-only.
    let (status, report) = get(&format!("{base}/report/{bn}/")).await;
    assert_eq!(status, 200);
    assert!(report.contains("bench report"), "{report:.300}");
    assert_eq!(
        get(&format!("{base}/report/{bn}/metadata.json")).await.0,
        200
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_writes_nothing_outside_and_html_is_text() {
    let tmp = tempfile::tempdir().unwrap();
    let a = run(tmp.path(), "old", &[], 31).await;
    // A folder name full of HTML, and a reply full of it.
    let evil = "<img src=x onerror=alert(1)>";
    let dir = a.parent().unwrap().join(evil);
    std::fs::rename(&a, &dir).unwrap();
    let log = dir.join("formats.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let tag = lines[1]["data"]["sample"]["tag"]
        .as_str()
        .unwrap()
        .to_string();
    lines[1]["data"]["sample"]["output"]["content"] = "<script>alert(1)</script>".into();
    let out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    std::fs::write(&log, out.join("\n") + "\n").unwrap();
    // A file outside the root, and a symlink to it inside the run's folder.
    let outside = tmp.path().join("secret.txt");
    std::fs::write(&outside, "TOPSECRET-CONTENT").unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("formats").join("link.txt")).unwrap();
    let base = serve(tmp.path()).await;
    let client = reqwest::Client::new();

    let (_, runs) = get(&format!("{base}/")).await;
    assert!(
        runs.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{runs}"
    );
    assert!(!runs.contains(evil));
    let r = client
        .get(format!("{base}/answer"))
        .query(&[
            ("run", evil),
            ("provider", "double"),
            ("model", "old"),
            ("tag", &tag),
            ("q", "q001"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let one = r.text().await.unwrap();
    assert!(
        one.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{one}"
    );
    assert!(!one.contains("<script>alert(1)"));

    let run = bench::view::segment(evil);
    for (path, status) in [
        (format!("/report/{run}/metadata.json"), 200),
        (format!("/report/{run}/..%2Fformats.jsonl"), 403),
        (format!("/report/{run}/..%2F..%2F..%2Fsecret.txt"), 403),
        (format!("/report/{run}/%2Fetc%2Fpasswd"), 403),
        (format!("/report/{run}/link.txt"), 403),
        (
            format!("/report/{run}/..%2F..%2F..%2F..%2F..%2Fno-such-file"),
            403,
        ),
        ("/report/no-such-run/metadata.json".to_string(), 404),
    ] {
        let r = client.get(format!("{base}{path}")).send().await.unwrap();
        let code = r.status().as_u16();
        let body = r.text().await.unwrap();
        assert_eq!(code, status, "{path}: {body}");
        assert!(!body.contains("TOPSECRET"), "{path}: {body}");
    }
    for path in [
        "/",
        "/answers",
        "/answer",
        "/compare",
        &format!("/report/{run}/"),
    ] {
        for method in [
            reqwest::Method::POST,
            reqwest::Method::PUT,
            reqwest::Method::DELETE,
        ] {
            let r = client
                .request(method.clone(), format!("{base}{path}"))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 405, "{method} {path}");
        }
    }
}

/// The answers of `run` matching the text `q`, as links to their answer pages.
async fn links(base: &str, run: &str, q: &str) -> Vec<String> {
    let (_, page) = get(&format!("{base}/answers?run={run}&q={q}&per=500")).await;
    rows(&page)
        .iter()
        .map(|r| {
            r.split("href=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .replace("&amp;", "&")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tasks_write_and_corrupted_answers_show_their_facts_diff_and_defect() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    let cache = tmp.path().join("cache");
    let r = root.to_str().unwrap();
    for (suite, formats) in [
        ("tasks", "csv,json_compact"),
        ("write", "json_compact"),
        ("corrupted", "csv"),
    ] {
        crate::support::bench(&cache)
            .args([
                "run",
                "--suite",
                suite,
                "--formats",
                formats,
                "--runs",
                "1",
                "--no-report",
                "--output-root",
                r,
            ])
            .assert()
            .success();
        std::thread::sleep(std::time::Duration::from_millis(1100));
    }
    let run_of = |suite: &str| {
        std::fs::read_dir(root.join("benchmarks"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.join(format!("{suite}.jsonl")).exists())
            .unwrap()
    };
    // Plant a field in the first write reply: the diff shows it as written only.
    let log = run_of("write").join("write.jsonl");
    let mut lines: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let reply = lines[1]["data"]["sample"]["output"]["content"]
        .as_str()
        .unwrap()
        .to_string();
    let body = reply
        .lines()
        .filter(|l| !l.starts_with("```"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut doc: serde_json::Value = serde_json::from_str(&body).unwrap();
    doc["planted_field"] = serde_json::json!(1);
    lines[1]["data"]["sample"]["output"]["content"] = format!("```json\n{doc}\n```").into();
    let planted_tag = lines[1]["data"]["sample"]["tag"]
        .as_str()
        .unwrap()
        .to_string();
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    std::fs::write(&log, text.join("\n") + "\n").unwrap();
    let base = serve(&root).await;

    let tasks = name(&run_of("tasks"));
    let fact = &links(&base, &tasks, "%23").await[0];
    let (status, page) = get(&format!("{base}{fact}")).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("every fact of the task"), "{page}");
    assert!(
        page.split("<table id=\"facts\">")
            .nth(1)
            .unwrap()
            .matches("<tr class=")
            .count()
            >= 2
    );
    assert!(
        !page.contains("holds no data"),
        "a task's data block shows: {page}"
    );

    let corrupted = name(&run_of("corrupted"));
    let mut seen = false;
    for link in links(&base, &corrupted, "PROD-").await {
        let (_, page) = get(&format!("{base}{link}")).await;
        if page.contains("data-defect=\"duplicate\"")
            && page.contains("<dt>rule</dt><dd>exact</dd>")
        {
            let hl = page
                .split("class=\"hl\"")
                .nth(1)
                .expect("the duplicated record highlighted");
            let expected = page
                .split("<dt>expected</dt><dd>")
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap();
            assert!(
                hl.split("</mark>").next().unwrap().contains(expected),
                "{hl:.300}"
            );
            seen = true;
        }
    }
    assert!(seen, "a duplicate question about a record");

    let write = name(&run_of("write"));
    let (_, list) = get(&format!("{base}/answers?run={write}&per=500")).await;
    let link = rows(&list)
        .into_iter()
        .filter_map(|r| r.split("href=\"").nth(1))
        .map(|h| h.split('"').next().unwrap().replace("&amp;", "&"))
        .find(|h| h.contains(&format!("tag={}&", planted_tag.replace(':', "%3A"))))
        .expect("the planted call's answer is listed");
    let (status, page) = get(&format!("{base}{link}")).await;
    assert_eq!(status, 200, "{page}");
    let diff = page
        .split("<pre id=\"write-diff\">")
        .nth(1)
        .expect("a diff")
        .split("</pre>")
        .next()
        .unwrap();
    assert!(
        diff.contains("data-diff=\"ins\">+   &quot;planted_field&quot;: 1</span>"),
        "{diff}"
    );
    // The closing bracket before it gains a comma: the one line of the gold that changes.
    assert_eq!(diff.matches("data-diff=\"del\"").count(), 1, "{diff}");
}

/// The answers are read from the logs once into `<root>/.bench-view/answers.duckdb`: a second
/// start reuses it (same file, same pages), a new run makes the next start build it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_answers_database_is_built_once_and_again_when_a_log_changes() {
    let tmp = tempfile::tempdir().unwrap();
    run(tmp.path(), "old", &[("csv", 3)], 31).await;
    let db = tmp.path().join(".bench-view").join("answers.duckdb");
    let first = serve(tmp.path()).await;
    let (_, page) = get(&format!("{first}/answers?sort=question&dir=desc")).await;
    assert_eq!(total(&page), 4 * 124);
    let built = std::fs::metadata(&db)
        .expect("the database file")
        .modified()
        .unwrap();

    let again = serve(tmp.path()).await;
    let (_, same) = get(&format!("{again}/answers?sort=question&dir=desc")).await;
    assert_eq!(
        std::fs::metadata(&db).unwrap().modified().unwrap(),
        built,
        "reused, not built again"
    );
    assert_eq!(rows(&same), rows(&page), "the same rows, ids and order");

    std::thread::sleep(std::time::Duration::from_millis(1100));
    let b = run(tmp.path(), "new", &[], 31).await;
    let third = serve(tmp.path()).await;
    let (_, all) = get(&format!("{third}/answers")).await;
    assert_eq!(total(&all), 2 * 4 * 124, "the new run's answers are read");
    assert!(std::fs::metadata(&db).unwrap().modified().unwrap() > built);
    // The newest run is listed first (id 1), as before.
    assert!(rows(&all)[0].starts_with("\"1\""), "{}", rows(&all)[0]);
    assert!(rows(&all)[0].contains(&name(&b)), "{}", rows(&all)[0]);
    let (_, failed) = get(&format!("{third}/answers?passed=false")).await;
    assert_eq!(total(&failed), 3);
}

#[test]
fn the_command_prints_its_url_warns_off_loopback_and_refuses_a_root_without_runs() {
    use std::io::{BufRead, BufReader};
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    let cache = tmp.path().join("cache");
    crate::support::bench(&cache)
        .args(crate::support::ONE_TABLE_RUN)
        .args([
            "--runs",
            "1",
            "--no-report",
            "--output-root",
            root.to_str().unwrap(),
        ])
        .assert()
        .success();
    let bin = assert_cmd::cargo::cargo_bin("bench");
    let mut child = std::process::Command::new(&bin)
        .args([
            "view",
            root.to_str().unwrap(),
            "--port",
            "0",
            "--host",
            "0.0.0.0",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let mut warning = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut warning)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(first.starts_with("bench view: http://0.0.0.0:"), "{first}");
    assert!(
        warning.starts_with("warning: --host 0.0.0.0 is not a loopback address"),
        "{warning}"
    );

    let out = crate::support::bench(&cache)
        .args([
            "view",
            tmp.path().join("nothing").to_str().unwrap(),
            "--port",
            "0",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: ") && err.lines().count() == 1,
        "{err}"
    );
    assert!(
        err.contains("nothing") && err.contains("`bench run`"),
        "a missing root names itself and how runs get there: {err}"
    );
    assert!(err.contains("nothing"), "names the folder: {err}");
}
