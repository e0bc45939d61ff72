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

static struct sockaddr_mrc addr_of(int family, const char *ip)
{
	struct sockaddr_mrc a = { .mrc_family = family,
				  .mrc_port = htons(PORT),
				  .mrc_addr_family = AF_INET };

	if (ip)
		inet_pton(AF_INET, ip, &a.mrc_addr4);
	return a;
}

/* Accept and close @n connections in the peer's netns; the pid once it listens. */
static pid_t start_server(int family, int n)
{
	struct sockaddr_mrc any = addr_of(family, NULL);
	int ready[2], fd, c;
	char b = 0;
	pid_t pid;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid) {
		close(ready[1]);
		if (pid > 0 && read(ready[0], &b, 1) != 1)
			pid = -1;
		close(ready[0]);
		return pid;
	}
	alarm(120 * mrc_lib_time_scale());
	if (mrc_lib_enter_peer_ns())
		_exit(10);
	fd = socket(family, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&any, sizeof(any)) || listen(fd, 64) ||
	    write(ready[1], &b, 1) != 1)
		_exit(11);
	while (n--) {
		c = accept(fd, NULL, NULL);
		if (c < 0)
			_exit(12);
		close(c);
	}
	_exit(0);
}

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
	struct sockaddr_mrc peer = addr_of(family, getenv("MRC_PEER_ADDR") ?:
					   "10.100.0.2");
	int ep, i, r, missed = 0, failed = 0, status = 0;
	long cycles = 0;
	pid_t srv;

	if (n <= 0 || family <= 0) {
		fprintf(stderr, "usage: mrc_pollrace N (mrc.ko loaded)\n");
		return 2;
	}
	ep = epoll_create1(0);
	srv = start_server(family, n);
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
