#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reads the module's tracepoints as trace_pipe prints them, from a real
run (`cat /sys/kernel/tracing/trace_pipe` with events/mrc enabled) or from
`mrc-netsim --trace`, and tells what happened around a fault on one plane.

    mrc_trace.py TRACE --plane P [--fault-at SECONDS] [--netns N]
                 [--peer-netns N] [--bin-us N] [--json OUT] [--png OUT]

The fault time is --fault-at (trace clock, seconds) or else the first
mrc_sim_fault line naming plane P; the plane counts as healed at the
next one whose what= ends in "-up". A real run marks a command's start
(what=port-down) and its end (what=port-down-done): the link went in
between, and fault_cmd_us says how long that was. With --peer-netns (the
receiver), the fault is placed at the last mrc_rx on plane P there
within that span: nothing arrived after the link went. --netns keeps one host's lines (the
simulator's host index, or the namespace inode a real trace shows), else
every sender counts. Printed as `key=value` lines, and as
JSON with --json:
  data_tx_before / data_tx_after   mrc_tx on plane P before / after the fault
  leave_us      fault to the last mrc_tx on plane P that follows it while
                the plane is still dead (0: nothing was sent on it after)
  retx_after    retransmissions (mrc_tx arg=1) on other planes after it
  losses        mrc_loss lines with reason SACK gap or RTO (as mrc_paths
                counts them), per plane
  srtt_us       median RTT sample (mrc_ack rtt_us) before the fault
  leave_rtts    leave_us / srtt_us
--png draws the Mbit/s each plane was handed (mrc_tx payload) in bins of
--bin-us, against the time since the fault."""

import argparse
import json
import re
import statistics
import subprocess
import sys
from collections import defaultdict

LINE = re.compile(r"\s(\d+\.\d+): (?:tracing_mark_write: )?(mrc_\w+): (.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")
LOSS_PATH_FAULT = 1  # arg <= this: SACK gap (0) or RTO (1)


def events(path):
    """(time in s, event name, {field: value}) for every mrc_ line."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.search(line)
            if not m:
                continue
            fields = {}
            for k, v in FIELD.findall(m.group(3)):
                fields[k] = int(v) if v.lstrip("-").isdigit() else v
            yield float(m.group(1)), m.group(2), fields


def fault_window(evs, plane, fault_at):
    """The fault's time, when the plane came back (None: never), and when
    the command that caused the fault had ended (None: not marked)."""
    start, back, done = fault_at, None, None
    for t, name, f in evs:
        if name != "mrc_sim_fault" or f.get("plane") != plane:
            continue
        what = str(f.get("what", ""))
        if start is None and not what.endswith("-up"):
            start = t
        elif start is not None and back is None and what.endswith("-up"):
            back = t
        elif start is not None and back is None and done is None and what.endswith("-done"):
            done = t
    return start, back, done


def analyse(evs, plane, fault_at, bin_us, netns, peer):
    start, back, done = fault_window(evs, plane, fault_at)
    if start is None:
        sys.exit("mrc_trace: no fault on plane %d in the trace; give --fault-at" % plane)
    marked = start
    if peer is not None and done is not None:
        last_rx = [t for t, name, f in evs if name == "mrc_rx" and f.get("netns") == peer
                   and f.get("plane") == plane and start <= t <= done]
        start = max(last_rx, default=start)
    end_dead = back if back is not None else float("inf")
    r = {"plane": plane, "fault_at_s": start, "healed_at_s": back,
         "fault_cmd_us": (done - marked) * 1e6 if done is not None else 0.0,
         "fault_from": "marker" if start == marked else "last rx at the peer",
         "data_tx_before": 0, "data_tx_after": 0, "leave_us": 0.0,
         "retx_after": 0, "losses": defaultdict(int), "tx_pkts": defaultdict(int)}
    rtts = []
    bins = defaultdict(lambda: defaultdict(int))
    for t, name, f in evs:
        if netns is not None and f.get("netns") != netns:
            continue
        p = f.get("plane")
        if name == "mrc_tx":
            r["tx_pkts"][p] += 1
            bins[int((t - start) * 1e6 // bin_us)][p] += f.get("len", 0)
            if p == plane:
                if t < start:
                    r["data_tx_before"] += 1
                elif t < end_dead:
                    r["data_tx_after"] += 1
                    r["leave_us"] = max(r["leave_us"], (t - start) * 1e6)
            elif t >= start and f.get("arg") == 1:
                r["retx_after"] += 1
        elif name == "mrc_loss" and f.get("arg", 9) <= LOSS_PATH_FAULT:
            r["losses"][p] += 1
        elif name == "mrc_ack" and t < start and f.get("rtt_us", 0) > 0:
            rtts.append(f["rtt_us"])
    r["srtt_us"] = statistics.median(rtts) if rtts else None
    r["leave_rtts"] = (r["leave_us"] / r["srtt_us"]) if r["srtt_us"] else None
    r["losses"] = dict(sorted(r["losses"].items()))
    r["tx_pkts"] = dict(sorted(r["tx_pkts"].items()))
    return r, bins


def plot(bins, bin_us, out):
    planes = sorted({p for b in bins.values() for p in b})
    data = out + ".dat"
    with open(data, "w", encoding="utf-8") as f:
        for b in sorted(bins):
            row = [b * bin_us / 1000.0] + [bins[b].get(p, 0) * 8 / bin_us for p in planes]
            f.write(" ".join("%g" % v for v in row) + "\n")
    lines = ", ".join("'%s' using 1:%d with steps title 'plane %d'" % (data, i + 2, p)
                      for i, p in enumerate(planes))
    script = f"""set terminal pngcairo size 900,400 noenhanced
set output '{out}'
set xlabel 'ms since the fault'
set ylabel 'Mbit/s handed to the plane'
set arrow from 0,graph 0 to 0,graph 1 nohead dashtype 2
set key outside right
plot {lines}
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("--plane", type=int, required=True)
    ap.add_argument("--fault-at", type=float)
    ap.add_argument("--netns", type=int)
    ap.add_argument("--peer-netns", type=int)
    ap.add_argument("--bin-us", type=float, default=10.0)
    ap.add_argument("--json")
    ap.add_argument("--png")
    a = ap.parse_args()
    evs = list(events(a.trace))
    r, bins = analyse(evs, a.plane, a.fault_at, a.bin_us, a.netns, a.peer_netns)
    for k, v in r.items():
        print("%s=%s" % (k, json.dumps(v, separators=(",", ":"))))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(r, f, indent=1)
    if a.png:
        plot(bins, a.bin_us, a.png)


if __name__ == "__main__":
    main()
