#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Python programs that selftests/mrc_mrcize.sh runs under mrcize in a
guest, with a plane killed while they run:

    asyncio-server ADDR PORT CONNS
        asyncio.start_server echo server: echoes CONNS connections until
        each client's EOF, then prints a JSON line and exits.
    asyncio-client ADDR PORT CONNS BYTES RATE MARK
        CONNS concurrent asyncio.open_connection clients; each sends
        BYTES pseudo-random bytes (seeded by its index) at RATE bytes/s,
        then EOF, and compares the echo byte for byte.
    http-get URL BYTES RATE MARK COUNT
        COUNT concurrent urllib.request fetches of URL, each read at RATE
        bytes/s; prints "SHA256  fetch-N BYTES" for each.
    sink BYTES RATE MARK
        reads standard input at RATE bytes/s (curl's output: curl 7.88's
        --limit-rate does not hold it back); prints "SHA256  stdin BYTES".

The clients pace themselves so that the transfer lasts BYTES / RATE
seconds however fast the guest is, and touch the file MARK once every
connection has a quarter of its data: the caller kills a plane then,
while every connection is carrying data. The asyncio client exits 0 only
if every echo was exact; the others print what they got, for the caller
to compare."""
import asyncio
import hashlib
import json
import random
import sys
import threading
import time
import urllib.request

CHUNK = 65536


def pattern(index, size):
    """The bytes connection `index` sends: the same on any run."""
    return random.Random(index).randbytes(size)


class Progress:
    """Bytes each connection got back; touches the mark once all of them
    reached a quarter of `size`."""

    def __init__(self, conns, size, mark):
        self.got = [0] * conns
        self.size = size
        self.mark = mark
        self.marked = False
        self.lock = threading.Lock()

    def add(self, index, n):
        with self.lock:
            self.got[index] += n
            if not self.marked and min(self.got) >= self.size // 4:
                self.marked = True
                open(self.mark, "w").close()


def pace_delay(start, done, rate):
    """Seconds to wait so that `done` bytes since `start` stay at `rate`."""
    return max(0.0, start + done / rate - time.monotonic())


# ---- asyncio streams

async def echo(reader, writer, state):
    total = 0
    while data := await reader.read(CHUNK):
        writer.write(data)
        await writer.drain()
        total += len(data)
    writer.close()
    await writer.wait_closed()
    state["bytes"] += total
    state["left"] -= 1
    if state["left"] == 0:
        state["done"].set()


async def asyncio_server(addr, port, conns):
    state = {"bytes": 0, "left": conns, "done": asyncio.Event()}
    server = await asyncio.start_server(
        lambda r, w: echo(r, w, state), addr, port)
    print("listening", flush=True)
    await state["done"].wait()
    server.close()
    await server.wait_closed()
    print(json.dumps({"connections": conns, "bytes": state["bytes"]}),
          flush=True)
    return 0


async def send_paced(writer, data, rate):
    start = time.monotonic()
    for off in range(0, len(data), CHUNK):
        writer.write(data[off:off + CHUNK])
        await writer.drain()
        await asyncio.sleep(pace_delay(start, off + CHUNK, rate))
    writer.write_eof()


async def receive(reader, index, progress):
    got = bytearray()
    while data := await reader.read(CHUNK):
        got += data
        progress.add(index, len(data))
    return bytes(got)


async def one_client(addr, port, index, rate, progress):
    """One connection: its echo compared byte for byte with what it sent."""
    data = pattern(index, progress.size)
    reader, writer = await asyncio.open_connection(addr, port)
    sender = asyncio.create_task(send_paced(writer, data, rate))
    got = await receive(reader, index, progress)
    await sender
    writer.close()
    await writer.wait_closed()
    if got != data:
        print(f"connection {index}: {len(got)} bytes back of {len(data)},"
              f" first difference at {first_difference(got, data)}",
              file=sys.stderr)
    return got == data


def first_difference(a, b):
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y),
                min(len(a), len(b)))


async def asyncio_client(addr, port, conns, size, rate, mark):
    progress = Progress(conns, size, mark)
    t0 = time.monotonic()
    exact = await asyncio.gather(*(one_client(addr, port, i, rate, progress)
                                   for i in range(conns)))
    print(json.dumps({"connections": conns, "bytes_each": size,
                      "exact": sum(exact),
                      "seconds": round(time.monotonic() - t0, 2)}),
          flush=True)
    return 0 if all(exact) else 1


# ---- urllib.request from http.server, and curl's output

def read_paced(stream, index, rate, progress):
    """SHA-256 and length of what `stream` gives, read at `rate`."""
    digest, n = hashlib.sha256(), 0
    start = time.monotonic()
    while data := stream.read(CHUNK):
        digest.update(data)
        n += len(data)
        progress.add(index, len(data))
        time.sleep(pace_delay(start, n, rate))
    return digest.hexdigest(), n


def fetch(url, index, rate, progress, results):
    with urllib.request.urlopen(url, timeout=60) as resp:
        digest, n = read_paced(resp, index, rate, progress)
    results[index] = f"{digest}  fetch-{index} {n}"


def http_get(url, size, rate, mark, count):
    progress = Progress(count, size, mark)
    results = [None] * count
    threads = [threading.Thread(target=fetch,
                                args=(url, i, rate, progress, results))
               for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for line in results:
        print(line if line else "fetch failed", flush=True)
    return 0 if all(results) else 1


def sink(size, rate, mark):
    digest, n = read_paced(sys.stdin.buffer, 0, rate,
                           Progress(1, size, mark))
    print(f"{digest}  stdin {n}", flush=True)
    return 0


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "asyncio-server":
        return asyncio.run(asyncio_server(args[0], int(args[1]),
                                          int(args[2])))
    if cmd == "asyncio-client":
        return asyncio.run(asyncio_client(args[0], int(args[1]),
                                          int(args[2]), int(args[3]),
                                          int(args[4]), args[5]))
    if cmd == "http-get":
        return http_get(args[0], int(args[1]), int(args[2]), args[3],
                        int(args[4]))
    if cmd == "sink":
        return sink(int(args[0]), int(args[1]), args[2])
    sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    sys.exit(main())
