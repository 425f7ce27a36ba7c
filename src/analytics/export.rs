//! `bench export --parquet DIR`: the views as a hive-partitioned Parquet table that grows run by
//! run. Every table is partitioned by run (`ts=`) first, so a run's rows live under their own
//! folders: exporting a run again replaces only its files, other runs are never rewritten. Files
//! are written by DuckDB into a staging folder inside DIR (a name readers skip: it starts with a
//! dot) and then renamed into place one by one, so a reader never sees half a file. The shards of
//! one plan (`bench run --shard K/N`) are exported as one run, `plan-<sha>`, with one
//! `benchmark_id`: each shard writes its own files into it, so shards exported on several
//! machines into one folder read as the whole run.

use super::{Analytics, sql_string};
use anyhow::{Context, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// The three exported tables, each partitioned by these columns (in this order).
const TABLES: [(&str, &str); 3] = [
    ("results", "ts, suite, provider"),
    ("answers", "ts, suite, provider"),
    ("benchmarks", "ts"),
];

/// The hidden partition column of the staging folder that names the writer of each file.
const WRITER: &str = "bench_writer";

/// Separates the writer from the rest of a file name: `run__data_0.parquet`,
/// `shard-2-of-3__data_0.parquet`.
const WRITER_SEP: &str = "__";

/// How the rows of one run folder are exported.
#[derive(Debug, Clone, PartialEq)]
pub struct RunPart {
    /// The run folder's name (the `ts` of the views).
    pub folder: String,
    /// The run it is exported as: the folder's name, or `plan-<sha12>` for a shard.
    pub run: String,
    /// The benchmark_id its rows are given: `None` keeps theirs; a shard gets its plan's.
    pub benchmark_id: Option<String>,
    /// The prefix of its files: `run` for a whole run, `shard-K-of-N` for a shard.
    pub writer: String,
}

/// The parts of the run folders holding `logs` (one per folder; the shard, if any, from the
/// metadata line that starts each log).
pub fn run_parts(logs: &[PathBuf]) -> Result<Vec<RunPart>> {
    let mut parts: BTreeMap<String, RunPart> = BTreeMap::new();
    for log in logs {
        let folder = log
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str())
            .with_context(|| format!("'{}' is not in a run folder", log.display()))?
            .to_string();
        let shard = first_line_shard(log)?;
        let part = match shard {
            Some((index, of, sha)) => {
                let sha12: String = sha.chars().take(12).collect();
                RunPart {
                    folder: folder.clone(),
                    run: format!("plan-{sha12}"),
                    benchmark_id: Some(format!("bench_plan_{sha12}")),
                    writer: format!("shard-{index}-of-{of}"),
                }
            }
            None => RunPart {
                folder: folder.clone(),
                run: folder.clone(),
                benchmark_id: None,
                writer: "run".into(),
            },
        };
        parts.entry(folder).or_insert(part);
    }
    Ok(parts.into_values().collect())
}

/// The shard (index, of, plan sha256) of a log's metadata line, if it has one.
fn first_line_shard(log: &Path) -> Result<Option<(u64, u64, String)>> {
    let file = std::fs::File::open(log).with_context(|| format!("reading {}", log.display()))?;
    let mut line = String::new();
    std::io::BufReader::new(file).read_line(&mut line)?;
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else {
        return Ok(None);
    };
    let shard = &v["data"]["shard"];
    Ok(
        match (
            shard["index"].as_u64(),
            shard["of"].as_u64(),
            shard["plan_sha256"].as_str(),
        ) {
            (Some(i), Some(n), Some(sha)) if v["type"] == "metadata" => {
                Some((i, n, sha.to_string()))
            }
            _ => None,
        },
    )
}

/// Refuses a folder that holds an export of the layout before runs were partitions (`results/`
/// partitioned by suite first, one `benchmarks.parquet`): appending to it would mix layouts.
pub fn check_layout(dir: &Path) -> Result<()> {
    let old_results = std::fs::read_dir(dir.join("results"))
        .ok()
        .is_some_and(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("suite="))
        });
    if old_results || dir.join("benchmarks.parquet").exists() {
        anyhow::bail!(crate::UsageError::new(format!(
            "--parquet {}: holds an export of the older layout (partitioned by suite first, one \
             benchmarks.parquet); export into a new folder, or delete this one",
            dir.display()
        )));
    }
    Ok(())
}

impl Analytics {
    /// Writes `results`, `answers` and the raw `benchmarks` rows of the runs `parts` names into
    /// `dir` as Parquet, hive-partitioned by run (`ts`), then suite and provider (`benchmarks`
    /// by run only), replacing those runs' earlier files and leaving every other run's alone;
    /// returns the row count of each table.
    pub fn export_parquet(&self, dir: &Path, parts: &[RunPart]) -> Result<Vec<(String, u64)>> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create '{}'", dir.display()))?;
        check_layout(dir)?;
        let staging = dir.join(format!(".bench-export-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&staging);
        std::fs::create_dir_all(&staging)
            .with_context(|| format!("cannot create '{}'", staging.display()))?;
        let result = self.export_staged(dir, &staging, parts);
        let _ = std::fs::remove_dir_all(&staging);
        result
    }

    fn export_staged(
        &self,
        dir: &Path,
        staging: &Path,
        parts: &[RunPart],
    ) -> Result<Vec<(String, u64)>> {
        self.stage_run_parts(parts)?;
        let mut counts = Vec::new();
        for (view, partitions) in TABLES {
            let target = staging.join(view);
            // The raw rows are whole log lines (prompts included): DuckDB holds up to the flush
            // threshold of them per partition before writing (issue 28).
            let (threshold, (select, options)) = if view == "benchmarks" {
                (
                    256,
                    (
                        "v.* REPLACE (CAST(data AS VARCHAR) AS data, ",
                        ", ROW_GROUP_SIZE_BYTES '16MB'",
                    ),
                )
            } else {
                (8192, ("v.* REPLACE (", ""))
            };
            // A partitioned COPY holds up to this many rows per thread before it writes them
            // (DuckDB's default, 524,288, held 1.9 GB for a log of 2M answers; issue 28).
            self.conn.execute_batch(&format!(
                "SET partitioned_write_flush_threshold = {threshold};"
            ))?;
            let unsigned = self.unsigned_casts(view)?;
            let sql = format!(
                "COPY (SELECT {select}{unsigned}coalesce(m.run, v.ts) AS ts,
                              coalesce(m.benchmark_id, v.benchmark_id) AS benchmark_id),
                              coalesce(m.writer, 'run') AS {WRITER}
                       FROM {view} AS v LEFT JOIN bench_export_runs AS m ON m.folder = v.ts)
                 TO {} (FORMAT PARQUET, PARTITION_BY ({partitions}, {WRITER}){options})",
                sql_string(&target.to_string_lossy())
            );
            counts.push((view.to_string(), self.copy(&sql, view)?));
        }
        for (view, _) in TABLES {
            place(&staging.join(view), &dir.join(view), parts)?;
        }
        Ok(counts)
    }

    /// `CAST(c AS …) AS c, ` for each unsigned integer column of `view`: Spark, Trino and
    /// Athena have no unsigned types, so each is written as the signed type (or decimal) that
    /// holds all its values (`order_seed`, a u64, as DECIMAL(20,0)).
    fn unsigned_casts(&self, view: &str) -> Result<String> {
        let t = self.query(&format!("DESCRIBE SELECT * FROM {view}"))?;
        let mut out = String::new();
        for row in &t.rows {
            let (Some(name), Some(ty)) = (row[0].as_str(), row[1].as_str()) else {
                continue;
            };
            let signed = match ty {
                "UTINYINT" => "SMALLINT",
                "USMALLINT" => "INTEGER",
                "UINTEGER" => "BIGINT",
                "UBIGINT" => "DECIMAL(20,0)",
                "UHUGEINT" => "DECIMAL(38,0)",
                _ => continue,
            };
            let col = format!("\"{}\"", name.replace('"', "\"\""));
            out.push_str(&format!("CAST(v.{col} AS {signed}) AS {col}, "));
        }
        Ok(out)
    }

    /// The table `bench_export_runs` (folder, run, benchmark_id, writer) the export joins.
    fn stage_run_parts(&self, parts: &[RunPart]) -> Result<()> {
        let rows: Vec<String> = parts
            .iter()
            .map(|p| {
                format!(
                    "({}, {}, {}, {})",
                    sql_string(&p.folder),
                    sql_string(&p.run),
                    p.benchmark_id
                        .as_deref()
                        .map_or("NULL".to_string(), sql_string),
                    sql_string(&p.writer)
                )
            })
            .collect();
        let mut sql =
            "CREATE OR REPLACE TEMP TABLE bench_export_runs (folder VARCHAR, run VARCHAR, \
                       benchmark_id VARCHAR, writer VARCHAR);"
                .to_string();
        if !rows.is_empty() {
            sql.push_str(&format!(
                "INSERT INTO bench_export_runs VALUES {};",
                rows.join(", ")
            ));
        }
        self.conn.execute_batch(&sql)?;
        Ok(())
    }
}

/// Moves the files DuckDB wrote under `staged` (`ts=R/…/bench_writer=W/data_0.parquet`) to
/// `table` (`ts=R/…/W__data_0.parquet`), each by one rename, then deletes the files the same
/// writers had left in the same runs by an earlier export.
fn place(staged: &Path, table: &Path, parts: &[RunPart]) -> Result<()> {
    let mut written: BTreeSet<PathBuf> = BTreeSet::new();
    for file in files_under(staged)? {
        let rel = file.strip_prefix(staged).expect("found under it");
        let mut target = table.to_path_buf();
        let mut writer = None;
        for c in rel.parent().into_iter().flat_map(Path::components) {
            let c = c.as_os_str().to_string_lossy();
            match c.strip_prefix(&format!("{WRITER}=")) {
                Some(w) => writer = Some(w.to_string()),
                None => target.push(&*c),
            }
        }
        let writer = writer.with_context(|| format!("no writer in '{}'", file.display()))?;
        let name = file.file_name().expect("a file").to_string_lossy();
        std::fs::create_dir_all(&target)
            .with_context(|| format!("cannot create '{}'", target.display()))?;
        target.push(format!("{writer}{WRITER_SEP}{name}"));
        std::fs::rename(&file, &target)
            .with_context(|| format!("cannot move Parquet into '{}'", target.display()))?;
        written.insert(target);
    }
    for part in parts {
        let run_dir = table.join(format!("ts={}", part.run));
        let prefix = format!("{}{WRITER_SEP}", part.writer);
        for file in files_under(&run_dir)? {
            let ours = file
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&prefix));
            if ours && !written.contains(&file) {
                std::fs::remove_file(&file)
                    .with_context(|| format!("cannot delete '{}'", file.display()))?;
            }
        }
        remove_empty_dirs(&run_dir);
    }
    Ok(())
}

/// Every file under `dir` (none when it does not exist), sorted.
fn files_under(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Removes the empty folders under `dir` and `dir` itself when empty (best effort).
fn remove_empty_dirs(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.path().is_dir() {
                remove_empty_dirs(&e.path());
            }
        }
    }
    let _ = std::fs::remove_dir(dir);
}
