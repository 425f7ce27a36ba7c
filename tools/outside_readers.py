#!/usr/bin/env python3
"""Reads a bench rendering with an outside reader (Python's standard library, nothing bench
wrote) and checks that the values it reads equal the source records.

    outside_readers.py FORMAT RENDERING SOURCE.json

FORMAT is tsv or psv (read by `csv` with delimiter "\\t" or "|") or html_table (read by
`html.parser`, character references converted). SOURCE.json is the document
the rendering was made from: an array of records, or an object holding one under one key. A
cell is compared as bench writes it: null is the empty cell, true/false are lower case, a
number equals the source number. Prints one `ok` line, or the first difference and exits 1.
"""

import csv
import json
import sys
from html.parser import HTMLParser

DELIMITERS = {"tsv": "\t", "psv": "|"}


class Cells(HTMLParser):
    """Every <th>/<td> text, row by row."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self.rows[-1].append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def read(fmt, path):
    with open(path, encoding="utf-8", newline="") as f:
        if fmt in DELIMITERS:
            return list(csv.DictReader(f, delimiter=DELIMITERS[fmt]))
        p = Cells()
        p.feed(f.read())
        p.close()
        header, *body = p.rows
        return [dict(zip(header, row)) for row in body]


def records(doc):
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict) and len(doc) == 1:
        return next(iter(doc.values()))
    sys.exit(f"source: expected records or one key holding them, got {type(doc).__name__}")


def same(cell, want):
    if want is None:
        return cell == ""
    if isinstance(want, bool):
        return cell == ("true" if want else "false")
    if isinstance(want, (int, float)):
        try:
            return float(cell) == float(want)
        except ValueError:
            return False
    return cell == want


def main():
    fmt, rendering, source = sys.argv[1:4]
    if fmt not in (*DELIMITERS, "html_table"):
        sys.exit(f"unknown format {fmt!r}: expected tsv, psv or html_table")
    with open(source, encoding="utf-8") as f:
        want = records(json.load(f))
    rows = read(fmt, rendering)
    if len(rows) != len(want):
        sys.exit(f"{rendering}: {len(rows)} rows read, the source has {len(want)} records")
    cells = 0
    for i, (row, rec) in enumerate(zip(rows, want)):
        extra = set(rec) - set(row)
        if extra:
            sys.exit(f"{rendering}: record {i}: fields {sorted(extra)} have no column")
        for key, cell in row.items():
            cells += 1
            if not same(cell, rec.get(key)):
                sys.exit(f"{rendering}: record {i}, field {key!r}: read {cell!r}, source {rec.get(key)!r}")
    print(f"ok: {fmt} {rendering}: {len(rows)} records, {cells} cells equal the source")


if __name__ == "__main__":
    main()
