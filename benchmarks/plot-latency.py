#!/usr/bin/env python3
"""Plot HdrHistogram percentile distributions (.hgrm) as an SVG, standard library only.

Input: text files written by Java HdrHistogram's
``Histogram.outputPercentileDistribution(PrintStream, Double outputValueUnitScalingRatio)``:

           Value     Percentile TotalCount 1/(1-Percentile)

           0.095 0.000000000000          1           1.00
           ...
          12.351 1.000000000000      10000
    #[Mean    =        1.234, StdDeviation   =        0.567]
    #[Max     =       12.351, Total count    =        10000]
    #[Buckets =           21, SubBuckets     =         2048]

The last row (percentile 1.0) has no finite 1/(1-p); it is drawn as the max value
at the rightmost x tick. The CSV variant (useCsvFormat=true, "Infinity") is also read.
Values are plotted in whatever unit the file was scaled to; --unit only labels the axis.

Output: with -o, a standalone SVG in the classic HdrHistogram style: x = percentile on
a log scale of 1/(1-p) (ticks 0%, 90%, 99%, 99.9%, ...), y = latency (linear, or log
with --log-y), one coloured line per file plus a legend. With --csv, a table of
p50/p90/p99/p99.9/p99.99/max per file on stdout (first row whose percentile >= target).

Usage:
    python3 benchmarks/plot-latency.py -o out.svg --title "..." --unit µs \\
        label1=path1.hgrm label2=path2.hgrm ...
A bare path (no "label=" prefix) is labelled with the file stem.
"""
import argparse
import math
import os
import sys
from xml.sax.saxutils import escape

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
CSV_TARGETS = [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p99.9", 0.999), ("p99.99", 0.9999)]
W, H, ML, MR, MT, MB = 900, 560, 80, 40, 50, 60  # canvas size and margins


def parse_hgrm(path):
    """Return (rows, max_value); rows are (value, percentile) with percentile in [0, 1]."""
    rows, max_value = [], None
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    for line in lines:
        line = line.strip()
        if line.startswith("#[Max"):
            max_value = float(line.split("=")[1].split(",")[0])
            continue
        if not line or line.startswith("#") or "Percentile" in line:
            continue
        fields = line.replace(",", " ").split()
        try:
            rows.append((float(fields[0]), float(fields[1])))
        except (ValueError, IndexError):
            sys.exit(f"{path}: cannot parse row: {line!r}")
    if not rows:
        sys.exit(f"{path}: no percentile rows found")
    return rows, max_value if max_value is not None else rows[-1][0]


def percentile_at(rows, target, max_value):
    """Value of the first row whose percentile >= target (max if none reaches it)."""
    for value, pct in rows:
        if pct >= target - 1e-12:
            return value
    return max_value


def nice_step(span, n=6):
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)


def fmt(v):
    """Axis-label number: compact, exponent form only for huge values."""
    return f"{v:.6g}" if abs(v) < 1e6 else f"{v:.3g}"


def fmt_csv(v):
    """Table number: the file's own precision (3 decimals), trailing zeros dropped."""
    return f"{v:.3f}".rstrip("0").rstrip(".")


def pct_label(decade):
    """Tick label for x = log10(1/(1-p)): 0 -> 0%, 1 -> 90%, 3 -> 99.9%."""
    return "0%" if decade == 0 else f"{100 - 100 / 10 ** decade:.{max(decade - 2, 0)}f}%"


def render_svg(series, title, unit, log_y):
    # x = log10(1/(1-p)). The axis ends at 99.999% (or the last decade the data fully
    # reaches); points beyond it, and the p == 1.0 max row, are drawn at the right edge.
    finite = [math.log10(1 / (1 - p)) for _, rows, _ in series for _, p in rows if p < 1]
    x_max = max(5, math.floor(max(finite, default=0) + 1e-9))
    values = [v for _, rows, mx in series for v, _ in rows] + [mx for _, _, mx in series]
    if log_y:
        positive = [v for v in values if v > 0] or [1.0]
        y_lo = 10 ** math.floor(math.log10(min(positive)))
        y_hi = 10 ** math.ceil(math.log10(max(positive)))
        y_hi = y_hi * 10 if y_hi == y_lo else y_hi
        y_ticks = [10 ** e for e in range(round(math.log10(y_lo)), round(math.log10(y_hi)) + 1)]
        ty = lambda v: math.log10(max(v, y_lo))
    else:
        step = nice_step(max(values) or 1.0)
        y_lo, y_hi = 0.0, step * math.ceil((max(values) or 1.0) / step)
        y_ticks = [i * step for i in range(round(y_hi / step) + 1)]
        ty = lambda v: v
    pw, ph = W - ML - MR, H - MT - MB
    sx = lambda x: ML + pw * x / x_max
    sy = lambda v: MT + ph * (1 - (ty(v) - ty(y_lo)) / (ty(y_hi) - ty(y_lo)))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="{MT / 2 + 6}" text-anchor="middle" font-size="16" '
           f'font-weight="bold">{escape(title)}</text>']
    for d in range(x_max + 1):  # vertical grid + percentile labels
        x = sx(d)
        out.append(f'<line x1="{x:.1f}" y1="{MT}" x2="{x:.1f}" y2="{MT + ph}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{MT + ph + 18}" text-anchor="middle">{pct_label(d)}</text>')
    for v in y_ticks:  # horizontal grid + latency labels
        y = sy(v)
        out.append(f'<line x1="{ML}" y1="{y:.1f}" x2="{ML + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{ML - 6}" y="{y + 4:.1f}" text-anchor="end">{fmt(v)}</text>')
    out.append(f'<rect x="{ML}" y="{MT}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>')
    out.append(f'<text x="{ML + pw / 2}" y="{H - 15}" text-anchor="middle">Percentile</text>')
    y_label = f"Latency ({escape(unit)})" if unit else "Latency"
    out.append(f'<text transform="translate(20 {MT + ph / 2}) rotate(-90)" '
               f'text-anchor="middle">{y_label}</text>')

    legend_w = 50 + 7 * max(len(label) for label, _, _ in series)  # drawn over the lines
    legend = [f'<rect x="{ML + 6}" y="{MT + 8}" width="{legend_w}" height="{18 * len(series) + 6}" '
              f'fill="white" fill-opacity="0.85" stroke="#ccc"/>']
    for i, (label, rows, max_value) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        pts = [(sx(min(math.log10(1 / (1 - p)), x_max)), sy(v)) for v, p in rows if p < 1]
        pts.append((sx(x_max), sy(max_value)))  # max value at the rightmost tick
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                   f'stroke-width="2" stroke-linejoin="round"/>')
        ly = MT + 20 + 18 * i  # legend, top-left inside the plot area
        legend.append(f'<line x1="{ML + 12}" y1="{ly}" x2="{ML + 36}" y2="{ly}" '
                      f'stroke="{colour}" stroke-width="3"/>')
        legend.append(f'<text x="{ML + 42}" y="{ly + 4}">{escape(label)}</text>')
    out += legend
    out.append("</svg>")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + "\n".join(out) + "\n"


def split_spec(spec):
    """'label=path' -> (label, path); bare path -> (file stem, path)."""
    if "=" in spec and not os.path.exists(spec):
        label, path = spec.split("=", 1)
        if label:
            return label, path
        spec = path
    return os.path.splitext(os.path.basename(spec))[0], spec


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", metavar="[label=]path.hgrm")
    ap.add_argument("-o", "--output", help="SVG file to write")
    ap.add_argument("--title", default="Latency by Percentile Distribution")
    ap.add_argument("--unit", default="", help="latency unit for the y-axis label, e.g. µs")
    ap.add_argument("--log-y", action="store_true", help="logarithmic latency axis")
    ap.add_argument("--csv", action="store_true", help="print p50..p99.99/max table on stdout")
    args = ap.parse_args()
    if not args.output and not args.csv:
        ap.error("nothing to do: give -o OUT.svg and/or --csv")

    series = []
    for spec in args.files:
        label, path = split_spec(spec)
        rows, max_value = parse_hgrm(path)
        series.append((label, rows, max_value))

    if args.csv:
        print(",".join(["label"] + [n for n, _ in CSV_TARGETS] + ["max"]))
        for label, rows, mx in series:
            cells = [fmt_csv(percentile_at(rows, t, mx)) for _, t in CSV_TARGETS] + [fmt_csv(mx)]
            print(",".join([label if "," not in label else f'"{label}"'] + cells))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(render_svg(series, args.title, args.unit, args.log_y))
        print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
