#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Fold bench/profile.sh's samples (perf script -F comm,cpu,ip,sym) by
caller: for each FUNCTION named, the share of all samples whose chain
holds it, split by what it called next ("<self>": the sample was in it).
With no FUNCTION: the samples by CPU and by what the thread was doing
(sending, receiving, idle, other).

    bench/perf_fold.py SCRIPT.txt [FUNCTION...]"""

import collections
import sys


def samples(path):
    """(comm, cpu, [frames, leaf first]) for each sample of the file."""
    out, cur = [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                if cur:
                    out.append(cur)
                cur = None
            elif cur is None:
                head = line.split()
                cur = (head[0], head[1] if len(head) > 1 else "?", [])
            else:
                parts = line.split()
                if len(parts) >= 2:
                    cur[2].append(parts[1].split("+")[0])
    if cur:
        out.append(cur)
    return out


def pct(n, total):
    return 100.0 * n / total if total else 0.0


def fold(all_samples, fn, floor=0.3):
    total, below = 0, collections.Counter()
    for _, _, frames in all_samples:
        chain = list(reversed(frames))
        if fn in chain:
            total += 1
            i = chain.index(fn)
            below[chain[i + 1] if i + 1 < len(chain) else "<self>"] += 1
    print(f"{fn}: {pct(total, len(all_samples)):.2f}%")
    for name, n in below.most_common():
        if pct(n, len(all_samples)) < floor:
            break
        print(f"   {pct(n, len(all_samples)):6.2f}% {name}")


ROLES = (("mrc_sendmsg", "send"), ("tcp_sendmsg", "send"),
         ("mrc_recvmsg", "recv"), ("tcp_recvmsg", "recv"),
         ("native_safe_halt", "idle"))


def roles(all_samples):
    count = collections.Counter()
    for comm, cpu, frames in all_samples:
        role = next((r for f, r in ROLES if f in frames), "other:" + comm)
        count[(cpu, role)] += 1
    for (cpu, role), n in sorted(count.items()):
        if pct(n, len(all_samples)) >= 0.3:
            print(f"{cpu} {role:24} {pct(n, len(all_samples)):5.1f}%")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    all_samples = samples(sys.argv[1])
    if not all_samples:
        sys.exit(f"{sys.argv[1]}: no samples")
    print(f"{len(all_samples)} samples")
    if len(sys.argv) == 2:
        roles(all_samples)
    for fn in sys.argv[2:]:
        fold(all_samples, fn)


if __name__ == "__main__":
    main()
