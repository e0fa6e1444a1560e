#!/usr/bin/env python3
"""Summarises benchmarks/run-ab.sh's JMH JSON files: one row per figure (benchmark, parameters, and the
gc profiler's allocation rate per operation), the mean of the rounds' scores on each side with their
range, and B/A."""
import glob
import json
import os
import sys
from collections import defaultdict


def figures(path):
    with open(path) as f:
        for run in json.load(f):
            name = run["benchmark"].rsplit(".", 2)[-2] + "." + run["benchmark"].rsplit(".", 1)[-1]
            params = ",".join(f"{k}={v}" for k, v in sorted((run.get("params") or {}).items()))
            label = name + (f" [{params}]" if params else "")
            yield label, run["primaryMetric"]["score"], run["primaryMetric"]["scoreUnit"]
            alloc = (run.get("secondaryMetrics") or {}).get("gc.alloc.rate.norm")
            if alloc:
                yield label + " alloc", alloc["score"], alloc["scoreUnit"]


def main(directory):
    scores = defaultdict(lambda: {"A": [], "B": []})
    units = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        side = os.path.basename(path)[0]
        for label, score, unit in figures(path):
            scores[label][side].append(score)
            units[label] = unit
    print("| figure | unit | A: mean (min–max) | B: mean (min–max) | B/A |")
    print("|---|---|---|---|---|")
    for label in sorted(scores):
        a, b = scores[label]["A"], scores[label]["B"]
        if not a or not b:
            continue
        ma, mb = sum(a) / len(a), sum(b) / len(b)
        ratio = f"{mb / ma:.2f}" if ma else "–"
        fmt = (lambda v: f"{v:,.3f}") if "B/op" in units[label] else (lambda v: f"{v:,.0f}")
        print(f"| {label} | {units[label]} | {fmt(ma)} ({fmt(min(a))}–{fmt(max(a))}) | "
              f"{fmt(mb)} ({fmt(min(b))}–{fmt(max(b))}) | {ratio} |")


if __name__ == "__main__":
    main(sys.argv[1])
