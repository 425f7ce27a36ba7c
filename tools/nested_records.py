#!/usr/bin/env python3
"""Writes N nested, sparse order records as JSON Lines for the `--data` benchmark (tools/perf.sh).

Usage: python3 tools/nested_records.py N OUT.jsonl  — deterministic: the same N gives the same bytes.
Each record nests three levels (customer → address → geo), holds a list of line objects and a
list of tags, and leaves `note` out of 40 % of records and `coupon` null in some.
"""
import json
import random
import sys


def main() -> None:
    n, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(11)
    cities = ["Oslo", "Köln", "Zürich", "Lyon", "Porto", "Graz", "Turku", "Brno"]
    statuses = ["paid", "open", "shipped", "void", "refunded"]
    with open(out, "w", encoding="utf-8") as f:
        for i in range(n):
            lines = [
                {"sku": f"SKU-{rng.randrange(5000):04d}", "qty": rng.randrange(1, 9),
                 "price": round(rng.uniform(1, 400), 2)}
                for _ in range(rng.randrange(1, 4))
            ]
            r = {
                "order_id": f"O-{i:07d}",
                "status": rng.choice(statuses),
                "total": round(sum(l["qty"] * l["price"] for l in lines), 2),
                "customer": {
                    "name": f"Customer {rng.randrange(20000)}",
                    "address": {
                        "city": rng.choice(cities),
                        "zip": f"{rng.randrange(100000):05d}",
                        "geo": {"lat": round(rng.uniform(40, 65), 4), "lon": round(rng.uniform(-5, 30), 4)},
                    },
                },
                "lines": lines,
                "tags": rng.sample(["gift", "express", "b2b", "repeat", "promo"], rng.randrange(0, 3)),
                "coupon": None if rng.random() < 0.7 else f"C{rng.randrange(100)}",
            }
            if rng.random() >= 0.4:
                r["note"] = "leave at the door, ring twice" if rng.random() < 0.5 else "call first"
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
