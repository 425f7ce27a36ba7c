//! A user's data file that bench cannot read gets one line in the user's terms, through every
//! command that takes `--data`: the file, where (line, column, byte), what is wrong and what to
//! do; never DuckDB's message with bench's internal SQL in it. Exit 2 (bad input).

use crate::support::bench;

/// Each bad file, and what its one line must say.
const FILES: &[(&str, &[u8], &str)] = &[
    // Latin-1 `é` (0xE9) in the second line, the header being line 1.
    (
        "latin1.csv",
        b"id,name\n1,caf\xE9\n2,tea\n",
        "not UTF-8: line 2, column 6 (byte 0xE9",
    ),
    (
        "trailing.json",
        b"[\n  {\"id\": 1},\n  {\"id\": 2},\n]\n",
        "not valid JSON: line 4, column 1: trailing comma",
    ),
    (
        "latin1.json",
        b"[{\"id\": 1, \"name\": \"caf\xE9\"}]\n",
        "not UTF-8: line 1, column 24 (byte 0xE9",
    ),
    (
        "broken.jsonl",
        b"{\"id\": 1}\n{\"id\": 2,}\n",
        "not valid JSON: line 2, column 10",
    ),
    ("empty.csv", b"", "the file is empty"),
];

/// DuckDB's words and bench's SQL, which no message a user's file causes may show.
const INTERNAL: &[&str] = &[
    "SELECT",
    "read_csv",
    "read_json",
    "LINE 1",
    "sample_size",
    "CREATE",
    "encoding=",
];

#[test]
fn a_bad_data_file_gets_one_line_in_the_users_terms_from_run_tokens_and_generate() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes, says) in FILES {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let file = path.to_str().unwrap();
        let out_dir = dir.path().join("out");
        let out_dir = out_dir.to_str().unwrap();
        let commands: [&[&str]; 3] = [
            &[
                "run",
                "--data",
                file,
                "--runs",
                "1",
                "--no-report",
                "--output-root",
                out_dir,
            ],
            &["tokens", "--data", file],
            &["generate", "--data", file, "--output", out_dir],
        ];
        for args in commands {
            let out = bench(dir.path()).args(args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            let shown = format!("bench {}: {err}", args[0]);
            assert_eq!(out.status.code(), Some(2), "{shown}");
            assert_eq!(err.trim_end().lines().count(), 1, "{shown}");
            assert!(err.contains(file), "{shown}");
            assert!(err.contains(says), "{shown}");
            for word in INTERNAL {
                assert!(!err.contains(word), "{word}: {shown}");
            }
        }
    }
}
