// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_pollrace: a non-blocking connect() must be reported to an epoll
 * set however close the handshake's answer comes to the moment the socket
 * joins the set (Gloo, torch.distributed's backend, connects this way and
 * waits forever for a completion it was not told of).
 *
 *   mrc_pollrace N      (MRC_PEER_NS, MRC_PEER_ADDR as for mrc_sockapi)
 *
 * A server forked into the peer's netns accepts and closes N connections.
 * For each, the client connects non-blocking and, until epoll reports the
 * socket, adds it to an epoll set, looks, and takes it out again: every
 * addition polls the socket while the SYN_ACK may land (the caller delays
 * the planes so that it lands at a random moment). A socket that poll()
 * finds writable while the epoll set, a second later, still has not
 * reported it lost its wake-up. Prints "connects N cycles C missed M";
 * exits 1 if any wake-up was lost or a connect failed.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "mrc_lib.h"

#define PORT 7700
#define CONFIRM_MS 1000

/*
 * One connect; its epoll cycles are added to *@cycles. Return 0 when epoll
 * reported it, 1 when it lost its wake-up, -1 when the connect failed.
 */
static int race_one(int family, const struct sockaddr_mrc *peer, int ep,
		    long *cycles)
{
	struct epoll_event ev = { .events = EPOLLOUT };
	struct pollfd pfd = { .events = POLLOUT };
	int fd, err = 0, rc = -1;
	socklen_t len = sizeof(err);

	fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)peer, sizeof(*peer)) &&
	    errno != EINPROGRESS)
		goto out;
	pfd.fd = fd;
	for (;;) {
		++*cycles;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
			goto out;
		if (epoll_wait(ep, &ev, 1, 0) == 1)
			break;
		if (poll(&pfd, 1, 0) == 1) {
			/* ready now: the set must say so, if late */
			if (epoll_wait(ep, &ev, 1, CONFIRM_MS) != 1) {
				rc = 1;
				goto out;
			}
			break;
		}
		if (epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL))
			goto out;
	}
	if (!getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) && !err)
		rc = 0;
out:
	close(fd);	/* leaves the epoll set too */
	return rc;
}

int main(int argc, char **argv)
{
	int family = mrc_lib_family(), n = argc > 1 ? atoi(argv[1]) : 0;
	struct sockaddr_mrc peer = mrc_lib_peer_addr(family, PORT);
	int ep, i, r, missed = 0, failed = 0, status = 0;
	long cycles = 0;
	pid_t srv;

	if (n <= 0 || family <= 0) {
		fprintf(stderr, "usage: mrc_pollrace N (mrc.ko loaded)\n");
		return 2;
	}
	ep = epoll_create1(0);
	srv = mrc_lib_fork_server(family, SOCK_STREAM, PORT, 0, n, 120, NULL);
	if (ep < 0 || srv < 0) {
		fprintf(stderr, "mrc_pollrace: no epoll set or server\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		r = race_one(family, &peer, ep, &cycles);
		missed += r == 1;
		failed += r < 0;
	}
	/* A failed connect leaves the server an accept short. */
	if (failed)
		kill(srv, SIGKILL);
	waitpid(srv, &status, 0);
	printf("connects %d cycles %ld missed %d failed %d\n", n, cycles,
	       missed, failed);
	return missed || failed || !WIFEXITED(status) ||
	       WEXITSTATUS(status) ? 1 : 0;
}
