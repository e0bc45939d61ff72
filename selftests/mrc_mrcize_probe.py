#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Socket semantics under mrcize (run by selftests/mrc_mrcize.sh inside a
guest): `server PORT` echoes two connections on an AF_INET6 wildcard
listener; `client PEER PORT` checks what a TCP program sees: SO_DOMAIN/
SO_PROTOCOL/SO_TYPE, option read-back, a non-blocking connect that returns
at once, finished by select(), peer names (plain and v4-mapped), copies made by socket.dup()
and numbers freed by os.closerange(), echo, shutdown. Exit 0 when
every check held; each failure is printed."""
import errno
import os
import select
import socket
import sys
import time

failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def server(port):
    ls = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    ls.bind(("::", port))
    ls.listen(4)
    check("listener SO_ACCEPTCONN", ls.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN), 1)
    check("listener name", ls.getsockname()[:2], ("::", port))
    print("listening", flush=True)
    for _ in range(2):
        c, peer = ls.accept()
        check("accepted peer is v4-mapped", peer[0].startswith("::ffff:10.100.0."), True)
        check("accepted getpeername", c.getpeername(), peer)
        check("accepted SO_DOMAIN", c.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN),
              socket.AF_INET6)
        while True:
            data = c.recv(65536)
            if not data:
                break
            c.sendall(data)
        c.close()


def dup_and_close_range(s, peer, port):
    """A copy made by fcntl(F_DUPFD_CLOEXEC) (socket.dup) is the same TCP
    socket to the program; a number freed by close_range() (os.closerange)
    is no longer taken for one."""
    d = s.dup()
    check("dup'd getpeername", d.getpeername(), (peer, port))
    check("dup'd SO_PROTOCOL", d.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL),
          socket.IPPROTO_TCP)
    fd = d.detach()
    os.closerange(fd, fd + 1)
    a, b = socket.socketpair()
    check("socketpair on the number close_range freed",
          (a.fileno(), a.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN)),
          (fd, socket.AF_UNIX))
    a.close()
    b.close()


def client(peer, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    check("SO_DOMAIN", s.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN), socket.AF_INET)
    check("SO_PROTOCOL", s.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL),
          socket.IPPROTO_TCP)
    check("SO_TYPE", s.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE), socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    check("TCP_NODELAY read back", s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY), 1)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, 5000)
    check("TCP_USER_TIMEOUT read back",
          s.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT), 5000)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    check("SO_KEEPALIVE", s.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE), 1)
    s.setblocking(False)
    t0 = time.monotonic()
    rc = s.connect_ex((peer, port))
    check("non-blocking connect", rc in (0, errno.EINPROGRESS), True)
    # mrcize's fallback to TCP must not make it wait (1 s: generous)
    check("non-blocking connect returns at once", time.monotonic() - t0 < 1, True)
    _, w, _ = select.select([], [s], [], 10)
    check("writable once connected", w, [s])
    check("SO_ERROR", s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR), 0)
    check("getpeername", s.getpeername(), (peer, port))
    check("getsockname family", len(s.getsockname()), 2)
    dup_and_close_range(s, peer, port)
    info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    check("TCP_INFO state ESTABLISHED", info[0], 1)
    s.setblocking(True)
    msg = b"mrcize " * 10000
    s.sendall(msg)
    s.shutdown(socket.SHUT_WR)
    got = b""
    while True:
        data = s.recv(65536)
        if not data:
            break
        got += data
    check("echo", got == msg, True)
    s.close()

    s6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s6.settimeout(10)
    s6.connect(("::ffff:" + peer, port))
    check("v4-mapped getpeername", s6.getpeername()[:2], ("::ffff:" + peer, port))
    s6.sendall(b"six")
    s6.shutdown(socket.SHUT_WR)
    check("v4-mapped echo", s6.recv(16), b"six")
    s6.close()


def main():
    if sys.argv[1] == "server":
        server(int(sys.argv[2]))
    else:
        client(sys.argv[2], int(sys.argv[3]))
    for f in failures:
        print("FAIL", f, flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
