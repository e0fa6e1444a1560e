#!/usr/bin/env python3
"""Summarise a JFR recording's execution samples: the hottest methods per thread, self and inclusive.

Usage: python3 benchmarks/jfr-hotspots.py recording.jfr [--threads weir] [--top 20]

Runs `jfr print --events jdk.ExecutionSample` (the `jfr` tool of the JDK on the PATH) and counts, for the
threads whose name starts with the given prefix, the top frame of each sample (self) and every distinct
method on each sample's stack (inclusive), as percentages of those threads' samples.
"""
import argparse
import collections
import re
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recording")
    parser.add_argument("--threads", default="weir", help="thread name prefix (default: weir)")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    text = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", args.recording],
                          check=True, capture_output=True, text=True).stdout
    per_thread = collections.Counter()
    self_counts = collections.Counter()
    inclusive = collections.Counter()
    total = 0
    for sample in text.split("jdk.ExecutionSample")[1:]:
        thread = re.search(r'sampledThread = "([^"]+)"', sample)
        name = thread.group(1) if thread else "?"
        if not name.startswith(args.threads):
            continue
        frames = re.findall(r"^\s+([\w.$<>]+)\(", sample, re.M)
        if not frames:
            continue
        total += 1
        per_thread[name] += 1
        self_counts[frames[0]] += 1
        for frame in set(frames):
            inclusive[frame] += 1
    if total == 0:
        sys.exit("no samples for threads starting with " + args.threads)
    print("samples: %d  %s" % (total, ", ".join("%s %d" % t for t in per_thread.most_common())))
    print("\nself %")
    for frame, count in self_counts.most_common(args.top):
        print("%5.1f  %s" % (100.0 * count / total, frame))
    print("\ninclusive %")
    for frame, count in inclusive.most_common(args.top):
        print("%5.1f  %s" % (100.0 * count / total, frame))


if __name__ == "__main__":
    main()
