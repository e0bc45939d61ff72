#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One rank of a torch.distributed all_reduce job (Gloo backend, the
default TCP rendezvous), run by selftests/mrc_torch.sh in a guest:

    mrc_torch.py RANK WORLD MASTER_ADDR PORT STEPS ELEMS [MARK]

Each step all_reduces a float32 tensor of ELEMS elements whose element i
holds (rank + 1) * (step + 1) + i % 7 on rank `rank`: every sum is an
exact integer, so each reduced value is checked exactly. After step 1 the
rank touches the file MARK (if given), so the caller can fail a plane
while steps run. Rank 0 prints one JSON line: steps, checked values,
worst/median step time. Exit 0 only if every value was exact."""
import json
import os
import sys
import time

import torch
import torch.distributed as dist


def expected(world, step, elems):
    base = sum(r + 1 for r in range(world)) * (step + 1)
    return base + world * (torch.arange(elems, dtype=torch.float32) % 7)


def main():
    rank, world = int(sys.argv[1]), int(sys.argv[2])
    addr, port = sys.argv[3], int(sys.argv[4])
    steps, elems = int(sys.argv[5]), int(sys.argv[6])
    mark = sys.argv[7] if len(sys.argv) > 7 else None
    t0 = time.monotonic()
    dist.init_process_group("gloo", init_method=f"tcp://{addr}:{port}",
                            rank=rank, world_size=world)
    init_s = time.monotonic() - t0
    pattern = torch.arange(elems, dtype=torch.float32) % 7
    times, bad = [], 0
    for step in range(steps):
        x = (rank + 1) * (step + 1) + pattern
        t = time.monotonic()
        dist.all_reduce(x)
        times.append(time.monotonic() - t)
        bad += int((x != expected(world, step, elems)).sum())
        if step == 1 and mark:
            open(mark, "w").close()
    dist.barrier()
    dist.destroy_process_group()
    if rank == 0:
        srt = sorted(times)
        print(json.dumps({
            "world": world, "steps": steps, "elems": elems,
            "values_checked": steps * elems, "wrong": bad,
            "init_s": round(init_s, 3),
            "worst_step_ms": round(srt[-1] * 1000, 1),
            "median_step_ms": round(srt[len(srt) // 2] * 1000, 1),
            "total_s": round(sum(times), 3),
        }), flush=True)
    if bad:
        print(f"rank {rank}: {bad} wrong values", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
