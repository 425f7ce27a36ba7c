#!/usr/bin/env python3
"""Reads a bench rendering with an outside reader (Python's standard library, nothing bench
wrote) and checks that the values it reads equal the source records.

    outside_readers.py FORMAT RENDERING SOURCE.json

FORMAT is tsv or psv (read by `csv` with delimiter "\\t" or "|"), html_table (read by
`html.parser`, character references converted), ini (read by `configparser`, keys kept as
written, no interpolation) or markdown_kv_blocks: a JSON list of the code blocks a Markdown
parser found under the `## Record N` headings of a markdown_kv rendering (the Markdown itself is
parsed by pulldown-cmark in tests/integration/formats/outside_readers.rs; Python has no Markdown parser
of its own). SOURCE.json is the document the rendering was made from: an array of records, or
an object holding one under one key. A cell is compared as bench writes it: null is the empty
cell, true/false are lower case, a number equals the source number. INI and Markdown-KV keys
are paths read by the rules of docs/markdown_kv.md, and values are typed text, so their records
are compared whole, nested fields included. Prints one `ok` line, or the first difference and
exits 1.
"""

import configparser
import csv
import json
import re
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


NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def kv_value(text):
    """A leaf as bench writes it: null, true/false, [], {}, a JSON string, a number, else text."""
    fixed = {"null": None, "true": True, "false": False}
    if text in fixed:
        return fixed[text]
    if text in ("[]", "{}"):
        return json.loads(text)
    if text.startswith('"'):
        return json.loads(text)
    if NUMBER.fullmatch(text):
        return json.loads(text)
    return text


PATH = re.compile(r'"(?:[^"\\]|\\.)*"|\[[0-9]+\]|[^.\["]+|\.')


def kv_path(text):
    """The steps of a dotted path: keys (bare or JSON strings) and [i] list positions."""
    steps, pos = [], 0
    for m in PATH.finditer(text):
        if m.start() != pos:
            sys.exit(f"path {text!r}: cannot read from {text[pos:]!r}")
        pos = m.end()
        tok = m.group()
        if tok == ".":
            continue
        if tok.startswith("["):
            steps.append(int(tok[1:-1]))
        else:
            steps.append(json.loads(tok) if tok.startswith('"') else tok)
    if pos != len(text):
        sys.exit(f"path {text!r}: cannot read from {text[pos:]!r}")
    return steps


def kv_record(pairs):
    """A record rebuilt from (path, value) pairs."""
    root = {}
    for path, value in pairs:
        steps = kv_path(path)
        node = root
        for step, nxt in zip(steps, steps[1:]):
            empty = [] if isinstance(nxt, int) else {}
            if isinstance(step, int):
                if step == len(node):
                    node.append(empty)
                node = node[step]
            else:
                node = node.setdefault(step, empty)
        last = steps[-1]
        if isinstance(last, int):
            node.append(kv_value(value))
        else:
            node[last] = kv_value(value)
    return root


def read_ini(path):
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read(path, encoding="utf-8")
    names = parser.sections()
    want = [f"Record {i + 1}" for i in range(len(names))]
    if names != want:
        sys.exit(f"{path}: sections {names[:3]}..., expected Record 1, Record 2, ...")
    return [kv_record(parser.items(n)) for n in names]


def read_kv_blocks(path):
    with open(path, encoding="utf-8") as f:
        blocks = json.load(f)
    out = []
    for block in blocks:
        pairs = []
        for line in block.splitlines():
            key, sep, value = line.partition(": ")
            if not sep:
                sys.exit(f"{path}: line {line!r} is not 'key: value'")
            pairs.append((key, value))
        out.append(kv_record(pairs))
    return out


def same_doc(got, want):
    """Typed equality: numbers by value, objects key by key in order, lists item by item."""
    if isinstance(want, bool) or want is None or isinstance(want, str):
        return got == want and type(got) is type(want)
    if isinstance(want, (int, float)):
        return not isinstance(got, bool) and isinstance(got, (int, float)) and got == want
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(same_doc, got, want))
    return (
        isinstance(got, dict)
        and list(got) == list(want)
        and all(same_doc(got[k], want[k]) for k in want)
    )


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
    if fmt not in (*DELIMITERS, "html_table", "ini", "markdown_kv_blocks"):
        sys.exit(f"unknown format {fmt!r}: expected tsv, psv, html_table, ini or markdown_kv_blocks")
    with open(source, encoding="utf-8") as f:
        want = records(json.load(f))
    if fmt in ("ini", "markdown_kv_blocks"):
        got = read_ini(rendering) if fmt == "ini" else read_kv_blocks(rendering)
        if len(got) != len(want):
            sys.exit(f"{rendering}: {len(got)} records read, the source has {len(want)}")
        for i, (g, w) in enumerate(zip(got, want)):
            if not same_doc(g, w):
                sys.exit(f"{rendering}: record {i}: read {g!r}, source {w!r}")
        print(f"ok: {fmt} {rendering}: {len(got)} records equal the source, nested fields included")
        return
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
