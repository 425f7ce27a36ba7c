#!/usr/bin/env python3
"""Run a SQL file of bench's sql/ on Apache Spark over a `bench export --parquet` folder.

    python3 tools/spark/bench_sql.py EXPORT_DIR sql/FILE.sql [more files...]

Registers the export's tables (results/, answers/, benchmarks/, hive-partitioned by run, suite
and provider) as the temporary views `results`, `answers` and `benchmarks`, runs the Spark form
of the file that `bench sql --dialect spark FILE` prints (the derived views and macros of
sql/views.sql, then the file: one source, never a second copy), and prints the result as CSV
with the header of `bench query --format csv FILE`, so the two compare with `diff`. With
several files, each result follows a line `==> FILE` (one Spark session for all of them).

bench is found as $BENCH_BIN, else `bench` on PATH. pyspark (PyPI `pyspark`, 4.x) and Java 17
must be installed (see README.md). `--var NAME=VALUE` sets a variable the SQL reads with
getvariable (bench_baseline, bench_margin). Spark runs local[*], or at the master given by
$BENCH_SPARK_MASTER.
"""

import argparse
import csv
import decimal
import json
import os
import re
import shutil
import subprocess
import sys
import time


def bench_binary():
    path = os.environ.get("BENCH_BIN") or shutil.which("bench")
    if not path:
        sys.exit("bench_sql.py: no bench binary: set BENCH_BIN or put bench on PATH")
    return path


def spark_statements(bench, sql_file):
    """The statements of `bench sql --dialect spark FILE`."""
    out = subprocess.run(
        [bench, "sql", "--dialect", "spark", sql_file], capture_output=True, text=True
    )
    if out.returncode != 0:
        sys.exit(f"bench_sql.py: {out.stderr.strip()}")
    text = "\n".join(l for l in out.stdout.splitlines() if not l.startswith("--"))
    return [s.strip() for s in re.split(r";\n\n", text) if s.strip().rstrip(";").strip()]


def session():
    # Imported here so --help works without pyspark.
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(os.environ.get("BENCH_SPARK_MASTER", "local[*]"))
        .appName("bench_sql")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        # DuckDB's semantics: x / 0 is NULL, not an error.
        .config("spark.sql.ansi.enabled", "false")
        # Partition values stay text (ts=2026-01-02_03-04-05 is no date), as DuckDB reads them.
        .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "4")
    )
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def register(spark, export_dir):
    """The export's three tables as temporary views; returns their row counts."""
    counts = {}
    for table in ("results", "answers", "benchmarks"):
        path = os.path.join(export_dir, table)
        if not os.path.isdir(path):
            sys.exit(f"bench_sql.py: {path}: no such folder (is {export_dir} a bench export?)")
        df = spark.read.option("basePath", path).option("mergeSchema", "true").parquet(path)
        df.createOrReplaceTempView(table)
        counts[table] = df.count()
    return counts


def number(x):
    """A float as serde_json prints it (Rust's ryu): 1.0, 0.00001, 1e-6, 1e16."""
    if x != x or x in (float("inf"), float("-inf")):
        return ""  # serde_json has no NaN; bench prints null
    if x == 0:
        return "-0.0" if str(x).startswith("-") else "0.0"
    sign, digits, exp = decimal.Decimal(repr(x)).normalize().as_tuple()
    d = "".join(map(str, digits))
    n = len(d)
    kk = n + exp  # the position of the decimal point relative to the digits
    s = "-" if sign else ""
    if 0 <= exp and kk <= 16:
        return f"{s}{d}{'0' * exp}.0"
    if 0 < kk <= 16:
        return f"{s}{d[:kk]}.{d[kk:]}"
    if -5 < kk <= 0:
        return f"{s}0.{'0' * -kk}{d}"
    mant = d if n == 1 else f"{d[0]}.{d[1:]}"
    return f"{s}{mant}e{kk - 1}"


def ordered_maps(df):
    """Each map column as its entries, so a map prints in its order, as DuckDB's does."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import MapType

    cols = [
        F.map_entries(F.col(f"`{f.name}`")).alias(f.name)
        if isinstance(f.dataType, MapType)
        else F.col(f"`{f.name}`")
        for f in df.schema.fields
    ]
    maps = {f.name for f in df.schema.fields if isinstance(f.dataType, MapType)}
    return df.select(*cols), maps


def to_json(v):
    """A Spark value as the JSON bench prints for a DuckDB value (value.rs)."""
    from pyspark.sql import Row

    if isinstance(v, Row):
        return {k: to_json(x) for k, x in v.asDict().items()}
    if isinstance(v, dict):
        return {str(k): to_json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [to_json(x) for x in v]
    if isinstance(v, decimal.Decimal):
        # A whole decimal (a u64 seed) stays exact, as bench prints it.
        return int(v) if v == v.to_integral_value() and v.as_tuple().exponent >= 0 else float(v)
    return v


def dumps(v):
    """Compact JSON with serde_json's numbers."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return number(v) or "null"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{" + ",".join(f"{dumps(str(k))}:{dumps(x)}" for k, x in v.items()) + "}"
    return "[" + ",".join(dumps(x) for x in v) + "]"


def cell(v):
    """One CSV cell as `bench query --format csv` writes it."""
    v = to_json(v)
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    return dumps(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("export_dir")
    ap.add_argument("sql_files", nargs="+")
    ap.add_argument("--var", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--timings", action="store_true", help="say each step's seconds on stderr")
    ap.add_argument(
        "--counts", action="store_true", help="first print each table's rows (section `counts`)"
    )
    args = ap.parse_args()
    bench = bench_binary()
    t0 = time.monotonic()
    spark = session()
    t1 = time.monotonic()
    counts = register(spark, args.export_dir)
    t2 = time.monotonic()
    if args.timings:
        print(f"spark session {t1 - t0:.1f} s; tables {counts} read in {t2 - t1:.1f} s",
              file=sys.stderr)
    if args.counts:
        print("==> counts")
        print("table,rows")
        for table, n in counts.items():
            print(f"{table},{n}")
    for f in args.sql_files:
        t = time.monotonic()
        if len(args.sql_files) > 1 or args.counts:
            print(f"==> {f}", flush=True)
        # Declared by the script (DECLARE OR REPLACE VARIABLE …); set after it runs once.
        statements = spark_statements(bench, f)
        for s in statements[:-1]:
            spark.sql(s)
        for var in args.var:
            name, _, value = var.partition("=")
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                sys.exit(f"bench_sql.py: --var {var}: expected NAME=VALUE")
            if not any(s.startswith(f"DECLARE OR REPLACE VARIABLE {name} ") for s in statements):
                continue  # this file does not read it
            spark.sql(f"SET VAR {name} = :v", args={"v": value})
        df, maps = ordered_maps(spark.sql(statements[-1]))
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(df.columns)
        for row in df.collect():
            writer.writerow(
                [
                    cell(None if v is None else {e[0]: e[1] for e in v}) if name in maps else cell(v)
                    for name, v in zip(df.columns, row)
                ]
            )
        sys.stdout.flush()
        if args.timings:
            print(f"{f}: {time.monotonic() - t:.1f} s", file=sys.stderr)
    spark.stop()


if __name__ == "__main__":
    main()
