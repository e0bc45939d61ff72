#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Draws an `mrc-netsim --json` report as PNG plots (gnuplot).

    mrc_sim_plot.py REPORT.json OUTDIR

OUTDIR gets:
  completion.png   every flow's completion time as a CDF, against the
                   ideal (its bytes at line rate on every plane)
  links.png        utilisation of every link, sorted, one curve per tier
  queues.png       each link's deepest queue and its drops, by tier
  flows.png        completion / ideal against retransmitted packets
and prints one line per plot."""

import json
import subprocess
import sys
from pathlib import Path

TIERS = ["host-leaf", "leaf-spine", "spine-leaf", "leaf-host"]


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def write(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(" ".join("%g" % v for v in row) + "\n")


def title(rep):
    return "%s: %d hosts x %d planes, seed %d" % (rep["scenario"], rep["hosts"],
                                                   rep["planes"], rep["seed"])


def ideal_us(rep, flow):
    gbps = rep.get("gbps", 100)
    return flow["bytes"] * 8 / (gbps * 1000.0 * rep["planes"])


def completion(rep, out):
    done = sorted(f["completion_us"] for f in rep["flows"] if f["completion_us"] >= 0)
    ideal = sorted(ideal_us(rep, f) for f in rep["flows"])
    n = len(done)
    write(out / "completion.dat", [(v, (i + 1) / n) for i, v in enumerate(done)])
    write(out / "ideal.dat", [(v, (i + 1) / len(ideal)) for i, v in enumerate(ideal)])
    gnuplot(f"""set terminal pngcairo size 900,450 noenhanced
set output '{out / "completion.png"}'
set title '{title(rep)}: flow completion'
set xlabel 'us'
set ylabel 'fraction of flows'
set logscale x
set key bottom right
plot '{out / "completion.dat"}' with steps title 'simulated', \\
     '{out / "ideal.dat"}' with steps dashtype 2 title 'ideal (line rate, every plane)'
""")
    return "%d of %d flows done" % (n, len(rep["flows"]))


def by_tier(rep, key):
    tiers = {}
    for link in rep["links"]:
        tiers.setdefault(link["kind"], []).append(link[key])
    return {t: sorted(v, reverse=True) for t, v in tiers.items()}


def tier_plot(rep, out, key, name, ylabel, logy=False):
    tiers = by_tier(rep, key)
    plots = []
    for tier in TIERS:
        if tier not in tiers:
            continue
        vals = tiers[tier]
        data = out / ("%s-%s.dat" % (name, tier))
        write(data, [(i / max(len(vals) - 1, 1), v) for i, v in enumerate(vals)])
        plots.append("'%s' with lines title '%s'" % (data, tier))
    gnuplot(f"""set terminal pngcairo size 900,450 noenhanced
set output '{out / (name + ".png")}'
set title '{title(rep)}: {ylabel}, every link sorted'
set xlabel 'links of the tier (fraction, busiest first)'
set ylabel '{ylabel}'
{"set logscale y" if logy else ""}
plot {", ".join(plots)}
""")
    return ", ".join("%s max %g" % (t, tiers[t][0]) for t in TIERS if t in tiers)


def flows(rep, out):
    rows = [(f["retx_pkts"], f["completion_us"] / ideal_us(rep, f))
            for f in rep["flows"] if f["completion_us"] >= 0]
    write(out / "flows.dat", rows)
    gnuplot(f"""set terminal pngcairo size 900,450 noenhanced
set output '{out / "flows.png"}'
set title '{title(rep)}: each flow'
set xlabel 'retransmitted packets'
set ylabel 'completion / ideal'
plot '{out / "flows.dat"}' with points pointtype 7 pointsize 0.5 notitle
""")
    worst = max((r[1] for r in rows), default=0)
    return "worst completion/ideal %.2f" % worst


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rep = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    print("completion.png:", completion(rep, out))
    print("links.png: utilisation", tier_plot(rep, out, "utilisation", "links", "utilisation"))
    print("queues.png: deepest queue (bytes)",
          tier_plot(rep, out, "max_queue_bytes", "queues", "deepest queue (bytes)"))
    print("flows.png:", flows(rep, out))


if __name__ == "__main__":
    main()
