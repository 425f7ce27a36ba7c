#!/usr/bin/env python3
"""Trim vega-datasets files into the small vendored task data in benchmarks/tasks/real/.

Usage: python3 tools/task-data/trim.py PACKAGE_DIR OUT_DIR TARBALL_SHA256

PACKAGE_DIR is the extracted npm tarball (the folder holding package.json, datapackage.json
and data/). Python 3 standard library only. Every transform is deterministic: filters on field
values, source record order kept, keys in source order; output is pretty JSON (2-space indent,
UTF-8, trailing newline). Also writes OUT_DIR/PROVENANCE.md describing each file.
Called by tools/task-data/build-real.sh, which pins and verifies the package tarball.
"""

import csv
import hashlib
import json
import os
import sys

PACKAGE = "vega-datasets"
VERSION = "3.2.1"


def sha256_bytes(b):
    return hashlib.sha256(b).hexdigest()


def dump(doc):
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


class Pkg:
    def __init__(self, root):
        self.root = root
        with open(os.path.join(root, "package.json"), encoding="utf-8") as f:
            pj = json.load(f)
        if pj.get("name") != PACKAGE or pj.get("version") != VERSION:
            sys.exit(f"trim.py: expected {PACKAGE}@{VERSION}, found {pj.get('name')}@{pj.get('version')}")
        self.package_license = pj.get("license")
        with open(os.path.join(root, "datapackage.json"), encoding="utf-8") as f:
            dp = json.load(f)
        self.resources = {r["path"]: r for r in dp["resources"]}

    def resource(self, path):
        return self.resources[path]

    def raw(self, path):
        """Bytes of data/<path>, checked against the hash datapackage.json records for it (a git blob
        sha1: sha1 of b"blob <size>\\0" + content) and its byte count."""
        with open(os.path.join(self.root, "data", path), "rb") as f:
            b = f.read()
        want = self.resource(path).get("hash", "")
        algo, _, digest = want.partition(":")
        blob = hashlib.sha1(b"blob %d\0" % len(b) + b).hexdigest()
        if algo != "sha1" or blob != digest or len(b) != self.resource(path).get("bytes"):
            sys.exit(f"trim.py: data/{path} does not match datapackage.json hash {want}")
        return b

    def json(self, path):
        return json.loads(self.raw(path).decode("utf-8"))

    def csv(self, path):
        """CSV rows as dicts, typed by the datapackage.json schema (integer -> int, number -> float,
        everything else kept as text; an empty cell becomes null)."""
        types = {f["name"]: f.get("type", "string") for f in self.resource(path)["schema"]["fields"]}
        text = self.raw(path).decode("utf-8")
        rows = []
        for rec in csv.DictReader(text.splitlines()):
            out = {}
            for k, v in rec.items():
                t = types[k]
                if v == "":
                    out[k] = None
                elif t == "integer":
                    out[k] = int(v)
                elif t == "number":
                    out[k] = float(v)
                else:
                    out[k] = v
            rows.append(out)
        return rows


# ---- the transforms ---------------------------------------------------------------------------
# Each returns (document, rows_before, rows_after, transform description in Markdown).


def t_seattle_weather(p):
    rows = p.csv("seattle-weather.csv")
    keep = [r for r in rows if "2015-01-01" <= r["date"] <= "2015-06-30"]
    desc = (
        "CSV parsed with the column types of `datapackage.json` (`precipitation`, `temp_max`, `temp_min`, "
        "`wind` as numbers; `date`, `weather` as text). Kept the rows with `date` from `2015-01-01` to "
        "`2015-06-30` inclusive (first half of 2015), in source order; all columns kept. "
        "Wrapped as `{\"seattle_weather\": [...]}`."
    )
    return {"seattle_weather": keep}, len(rows), len(keep), desc


def t_gapminder(p):
    rows = p.json("gapminder.json")
    field = next(f for f in p.resource("gapminder.json")["schema"]["fields"] if f["name"] == "cluster")
    labels = {c["value"]: c["label"] for c in field["categories"]}
    keep = []
    for r in rows:
        if r["year"] not in (1955, 2005):
            continue
        out = {}
        for k, v in r.items():
            if k == "cluster":
                out["region"] = labels[v]
            else:
                out[k] = v
        keep.append(out)
    desc = (
        "Kept the records with `year` 1955 or 2005 (the first and last year), in source order "
        "(country by country). The integer `cluster` column is replaced, in place, by a text column "
        "`region` holding the category label `datapackage.json` gives for that code "
        "(0 south_asia, 1 europe_central_asia, 2 sub_saharan_africa, 3 america, 4 east_asia_pacific, "
        "5 middle_east_north_africa). Other values unchanged. Wrapped as `{\"gapminder\": [...]}`."
    )
    return {"gapminder": keep}, len(rows), len(keep), desc


def t_airports(p):
    rows = p.csv("airports.csv")
    keep = []
    for r in rows:
        if r["state"] in ("WA", "OR"):
            keep.append({k: v for k, v in r.items() if k != "country"})
    desc = (
        "CSV parsed with the column types of `datapackage.json` (`latitude`, `longitude` as numbers, the "
        "rest as text). Kept the airports with `state` `WA` or `OR` (Pacific Northwest), in source order "
        "(by IATA/FAA code); dropped the `country` column (always `USA` for these rows). "
        "Wrapped as `{\"airports\": [...]}`."
    )
    return {"airports": keep}, len(rows), len(keep), desc


EQ_PROPS = ["mag", "place", "time", "felt", "alert", "status", "tsunami", "sig", "net", "magType", "type"]


def t_earthquakes(p):
    doc = p.json("earthquakes.json")
    feats = doc["features"]
    keep = []
    for f in feats:
        mag = f["properties"].get("mag")
        if mag is None or mag < 4.5:
            continue
        out = {}
        for k, v in f.items():
            if k == "properties":
                out[k] = {pk: v[pk] for pk in v if pk in EQ_PROPS}
            else:
                out[k] = v
        keep.append(out)
    meta = {k: doc["metadata"][k] for k in ("generated", "url", "title", "api")}
    desc = (
        "GeoJSON kept nested. Kept the features with `properties.mag` >= 4.5, in source order (newest first). "
        "Each kept feature keeps `type`, `geometry` (Point, coordinates [longitude, latitude, depth km]) and "
        "`id` unchanged; its `properties` keep only " + ", ".join(f"`{k}`" for k in EQ_PROPS) +
        " (dropped: `updated`, `tz`, `url`, `detail`, `cdi`, `mmi`, `code`, `ids`, `sources`, `types`, `nst`, "
        "`dmin`, `rms`, `gap`, `title`). Top level: `type`, `metadata` reduced to `generated`, `url`, `title`, "
        "`api` (dropped `status` and `count`, which described the untrimmed feed), `bbox` dropped (it bounded "
        "the untrimmed feed), then `features`."
    )
    out_doc = {"type": doc["type"], "metadata": meta, "features": keep}
    return out_doc, len(feats), len(keep), desc


def t_penguins(p):
    rows = p.json("penguins.json")
    keep = [r for i, r in enumerate(rows) if i % 3 == 0]
    desc = (
        "Kept every third record in source order (0-based record index divisible by 3: records 0, 3, 6, ...), "
        "a deterministic systematic sample that keeps all three species and islands; all fields and nulls "
        "unchanged. Wrapped as `{\"penguins\": [...]}`."
    )
    return {"penguins": keep}, len(rows), len(keep), desc


EMP_COLS = [
    "month", "nonfarm", "private", "construction", "manufacturing", "retail_trade",
    "financial_activities", "professional_and_business_services", "education_and_health_services",
    "leisure_and_hospitality", "government", "nonfarm_change",
]


def t_us_employment(p):
    rows = p.csv("us-employment.csv")
    keep = [{k: r[k] for k in EMP_COLS} for r in rows if "2008-01-01" <= r["month"] <= "2011-12-01"]
    desc = (
        "CSV parsed with the column types of `datapackage.json` (`integer` columns as integers, "
        "`number` columns such as `retail_trade` as floats, `month` as text). Kept the months "
        "`2008-01-01` to `2011-12-01` inclusive (the recession and early recovery), in source order, "
        "and only the columns " + ", ".join(f"`{c}`" for c in EMP_COLS) +
        " (in that order). Values are thousands of jobs, seasonally adjusted. "
        "Wrapped as `{\"us_employment\": [...]}`."
    )
    return {"us_employment": keep}, len(rows), len(keep), desc


def t_co2(p):
    rows = p.csv("co2-concentration.csv")
    keep = [r for r in rows if "2000-01-01" <= r["Date"] <= "2019-12-01"]
    desc = (
        "CSV parsed with the column types of `datapackage.json` (`CO2`, `adjusted CO2` as numbers, `Date` as "
        "text). Kept the monthly rows dated `2000-01-01` to `2019-12-01` inclusive, in source order; all "
        "columns kept. Wrapped as `{\"co2_concentration\": [...]}`."
    )
    return {"co2_concentration": keep}, len(rows), len(keep), desc


# (output name, source path in package, transform)
DATASETS = [
    ("seattle_weather", "seattle-weather.csv", t_seattle_weather),
    ("gapminder", "gapminder.json", t_gapminder),
    ("airports", "airports.csv", t_airports),
    ("earthquakes", "earthquakes.json", t_earthquakes),
    ("penguins", "penguins.json", t_penguins),
    ("us_employment", "us-employment.csv", t_us_employment),
    ("co2_concentration", "co2-concentration.csv", t_co2),
]


def licence_text(res):
    parts = []
    for lic in res.get("licenses", []):
        name = lic.get("name")
        title = lic.get("title")
        label = " / ".join(x for x in (name, title) if x)
        if lic.get("path"):
            label += f" (<{lic['path']}>)"
        parts.append(label)
    return "; ".join(parts) if parts else "(none stated)"


def sources_text(res):
    out = []
    for s in res.get("sources", []):
        t = s.get("title", "").strip().replace("\n", " ")
        out.append(f"{t} (<{s['path']}>)" if s.get("path") else t)
    return out


def package_lines(p: "Pkg", tar_sha: str) -> list:
    """The PROVENANCE.md lines on the package: name, tarball hash, licence, the source checks."""
    return [
        f"- Package: npm `{PACKAGE}@{VERSION}` (<https://www.npmjs.com/package/{PACKAGE}/v/{VERSION}>), "
        "repository <https://github.com/vega/vega-datasets>.",
        f"- Tarball `{PACKAGE}-{VERSION}.tgz` sha256: `{tar_sha}` (pinned and checked by the script).",
        f"- Package licence: {p.package_license} — per the package's README and `datapackage.json`, this "
        "covers the package code only; each dataset keeps the licence of its original source, recorded "
        "per file below exactly as `datapackage.json` states it (the package notes this metadata is a "
        "starting point, not legal advice).",
        "- Each source file is checked against the `hash` (a git blob sha1) and `bytes` that `datapackage.json` "
        "records for it.",
    ]


def source_lines(res: dict, src: str) -> list:
    """The PROVENANCE.md lines on one source file: path and hash, description, origin, licence."""
    desc_lines = " ".join(res.get("description", "").split())
    return [
        f"- Source: `{PACKAGE}@{VERSION}`, `package/data/{src}` (`datapackage.json` resource "
        f"`{res['name']}`, git blob sha1 `{res['hash'].split(':', 1)[1]}`, {res['bytes']} bytes).",
        f"- Package description: {desc_lines}",
        "- Upstream origin: " + "; ".join(sources_text(res)) + ".",
        f"- Licence (as the package states it): {licence_text(res)}.",
    ]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    pkg_dir, out_dir, tar_sha = sys.argv[1:]
    p = Pkg(pkg_dir)
    os.makedirs(out_dir, exist_ok=True)
    md = [
        "# Provenance of the vendored real-world task data",
        "",
        "Generated by `bash tools/task-data/build-real.sh` (transforms in `tools/task-data/trim.py`); "
        "do not edit by hand — rerun the script, which rebuilds every file here byte-identically.",
        "",
        *package_lines(p, tar_sha),
        "- Output: pretty JSON (2-space indent, UTF-8, keys in source order, trailing newline).",
        "",
    ]
    for name, src, fn in DATASETS:
        res = p.resource(src)
        doc, before, after, desc = fn(p)
        data = dump(doc)
        out_path = os.path.join(out_dir, name + ".json")
        with open(out_path, "wb") as f:
            f.write(data)
        md += [
            f"## {name}.json",
            "",
            *source_lines(res, src),
            f"- Transform: {desc}",
            f"- Records: {before} before, {after} after.",
            f"- Result: `benchmarks/tasks/real/{name}.json`, {len(data)} bytes, sha256 `{sha256_bytes(data)}`.",
            "",
        ]
    with open(os.path.join(out_dir, "PROVENANCE.md"), "wb") as f:
        f.write(("\n".join(md).rstrip("\n") + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
