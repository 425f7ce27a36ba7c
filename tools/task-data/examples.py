#!/usr/bin/env python3
"""Build the small real example inputs in benchmarks/examples/ (for the README's "bring your own data"
flow) from vega-datasets files.

Usage: python3 tools/task-data/examples.py PACKAGE_DIR OUT_DIR TARBALL_SHA256

PACKAGE_DIR is the extracted npm tarball, as for trim.py, whose package and hash checks (Pkg) and JSON
writer (dump) this reuses. Python 3 standard library only. Deterministic: source order kept, keys in
source order, CSV cells copied as the source text. Writes OUT_DIR/earthquakes.json,
OUT_DIR/airports.csv and OUT_DIR/PROVENANCE.md. Called by tools/task-data/build-real.sh, which pins
and verifies the package tarball.
"""

import csv
import io
import os
import sys

sys.dont_write_bytecode = True  # importing trim.py must leave no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trim import Pkg, dump, package_lines, sha256_bytes, source_lines, t_airports  # noqa: E402

EQ_KEEP = 40


def json_type(v):
    """The JSON type of a parsed value: int and float are both JSON numbers."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def walk(v, path, acc):
    """Collect, per field path (list elements as `[]`), the JSON types and the int/float split."""
    types, ints, floats = acc.setdefault(path, (set(), [0], [0]))
    types.add(json_type(v))
    if isinstance(v, bool):
        pass
    elif isinstance(v, int):
        ints[0] += 1
    elif isinstance(v, float):
        floats[0] += 1
    if isinstance(v, dict):
        for k, x in v.items():
            walk(x, f"{path}.{k}" if path else k, acc)
    elif isinstance(v, list):
        for x in v:
            walk(x, path + "[]", acc)


def e_earthquakes(p):
    src = "earthquakes.json"
    doc = p.json(src)
    feats = doc["features"]
    keep = feats[:EQ_KEEP]
    out = {k: (keep if k == "features" else v) for k, v in doc.items()}

    # Checks: a distinct non-null string id per kept feature; the same key set everywhere; no field
    # holding two JSON types (null aside). Any failure stops the build: values are never altered.
    ids = [f.get("id") for f in keep]
    if not all(isinstance(i, str) and i for i in ids) or len(set(ids)) != len(ids):
        sys.exit(f"examples.py: {src}: kept features lack distinct non-null string ids: {ids}")
    acc = {}
    for f in keep:
        walk(f, "", acc)
    mixed = {path: sorted(t - {"null"}) for path, (t, _, _) in acc.items() if len(t - {"null"}) > 1}
    if mixed:
        sys.exit(f"examples.py: {src}: fields holding more than one JSON type across kept features: {mixed}")
    shapes = {(tuple(f), tuple(f["properties"])) for f in keep}
    if len(shapes) != 1:
        sys.exit(f"examples.py: {src}: kept features differ in their keys")

    nulls = [path for path, (t, _, _) in acc.items() if t == {"null"}]
    some_null = [path for path, (t, _, _) in acc.items() if "null" in t and t != {"null"}]
    intfloat = [(path, i[0], fl[0]) for path, (t, i, fl) in acc.items() if i[0] and fl[0]]
    top = ", ".join(f"`{k}`" for k in out)
    desc = (
        f"GeoJSON kept as is except that `features` holds only the first {EQ_KEEP} features in source "
        "order (newest first, by `properties.time`); every value, key and key order unchanged. Top-level "
        f"keys as in the source, in source order: {top}. Note that `metadata.count` "
        f"({doc['metadata'].get('count')}) and `bbox` are the source's own and describe the untrimmed "
        "feed, not the kept features. Checked by the script: each kept feature has a distinct non-null "
        "string `id`; all kept features have the same keys (`" + "`, `".join(keep[0]) + "`, with "
        f"{len(keep[0]['properties'])} `properties`); no field holds two JSON types other than null. "
        "Fields null in every kept feature: " + ", ".join(f"`{x}`" for x in nulls) + ". Fields null in "
        "some: " + ", ".join(f"`{x}`" for x in some_null) + ". Numbers written sometimes without and "
        "sometimes with a fraction, as in the source (one JSON number type, but a reader that types "
        "integers apart from floats sees both): " +
        ", ".join(f"`{x}` ({i} integer, {fl} fractional)" for x, i, fl in intfloat) + "."
    )
    return out, "features", len(feats), len(keep), "pretty JSON (2-space indent, UTF-8, keys in source " \
        "order, trailing newline), as `trim.py` writes", dump(out), desc


AIRPORT_COLS = ["iata", "name", "city", "state", "latitude", "longitude"]


def e_airports(p):
    src = "airports.csv"
    text = p.raw(src).decode("utf-8")
    rows = list(csv.DictReader(text.splitlines()))
    # The filter t_airports (trim.py) applies for benchmarks/tasks/real/airports.json: state WA or OR,
    # source order, country dropped. Cells are copied as the source text (no number reformatting).
    keep = [[r[c] for c in AIRPORT_COLS] for r in rows if r["state"] in ("WA", "OR")]
    typed = t_airports(p)[0]["airports"]
    if len(typed) != len(keep) or any(
        [t[c] for c in AIRPORT_COLS] != [r[0], r[1], r[2], r[3], float(r[4]), float(r[5])]
        for t, r in zip(typed, keep)
    ):
        sys.exit("examples.py: airports.csv rows differ from the records of trim.py's airports.json")
    buf = io.StringIO(newline="")
    w = csv.writer(buf, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
    w.writerow(AIRPORT_COLS)
    w.writerows(keep)
    data = buf.getvalue().encode("utf-8")
    quoted = [r for r in keep if any(("," in c or '"' in c or "\n" in c or "\r" in c) for c in r)]
    desc = (
        "The same filter as `benchmarks/tasks/real/airports.json` (`trim.py`): kept the airports with "
        "`state` `WA` or `OR` (Pacific Northwest), in source order (by IATA/FAA code), and dropped the "
        "`country` column (always `USA` for these rows); the script checks the kept rows equal that file's "
        "records. Every cell is copied as the source text (so `latitude`/`longitude` keep their source "
        "digits; no empty cells among the kept rows). Header `" + ",".join(AIRPORT_COLS) + "`."
        + (
            " Cells quoted because they hold a comma: "
            + "; ".join(f"`{r[0]}` city `{r[2]}`" for r in quoted) + " (as in the source)."
            if quoted else ""
        )
    )
    fmt = "CSV, RFC 4180 quoting (a cell is quoted only when it holds a comma, quote or line break), " \
        "`\\n` line ends, UTF-8, trailing newline"
    return None, "rows", len(rows), len(keep), fmt, data, desc


# (output file, source path in package, builder)
EXAMPLES = [
    ("earthquakes.json", "earthquakes.json", e_earthquakes),
    ("airports.csv", "airports.csv", e_airports),
]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    pkg_dir, out_dir, tar_sha = sys.argv[1:]
    p = Pkg(pkg_dir)
    os.makedirs(out_dir, exist_ok=True)
    md = [
        "# Provenance of the example data",
        "",
        "Small real inputs for the README's \"bring your own data\" flow (`bench tokens --data FILE`). "
        "Generated by `bash tools/task-data/build-real.sh` (run from the repository root; transforms in "
        "`tools/task-data/examples.py`, which reuses the checks of `tools/task-data/trim.py`); do not edit "
        "by hand — rerun the script, which rebuilds every file here byte-identically (and "
        "`benchmarks/tasks/real/` with it).",
        "",
        *package_lines(p, tar_sha),
        "",
    ]
    for name, src, fn in EXAMPLES:
        res = p.resource(src)
        _, unit, before, after, fmt, data, desc = fn(p)
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
        md += [
            f"## {name}",
            "",
            *source_lines(res, src),
            f"- Transform: {desc}",
            f"- Output: {fmt}.",
            f"- Records ({unit}): {before} before, {after} after.",
            f"- Result: `benchmarks/examples/{name}`, {len(data)} bytes, sha256 `{sha256_bytes(data)}`.",
            "",
        ]
    md += [
        "## Rebuild",
        "",
        "```",
        "bash tools/task-data/build-real.sh",
        "```",
        "",
        "Needs npm (registry access), tar and python3 (standard library only).",
    ]
    with open(os.path.join(out_dir, "PROVENANCE.md"), "wb") as f:
        f.write(("\n".join(md).rstrip("\n") + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
