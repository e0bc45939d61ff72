// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_peerstress: connections to one peer made and ended on every CPU at
 * once while what they learn of the paths changes the peer table they
 * share (kernel/conn/peer.h): every connection takes a reference on the
 * entry at creation, reads it (its seed) at connect, writes it at
 * establishment, at each EV note and at its end, and lets go at its
 * kill. For check-debug's KASAN and lockdep, and a test that every
 * connection still works.
 *
 *   mrc_peerstress THREADS N    (MRC_PEER_NS, MRC_PEER_ADDR as for
 *                                mrc_sockapi)
 *
 * A server forked into the peer's netns accepts THREADS x N connections
 * and reads each to its end. THREADS threads, thread i pinned to CPU
 * i % CPUs, each make N connections in turn: connect, send 4 KiB, close.
 * The caller makes the paths lossy, so that EV notes write the table
 * while others read it. Prints "threads T connections C failed F";
 * exits 1 if a connection failed or the server saw a short one.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "mrc_lib.h"

#define PORT		7710
#define MSG_BYTES	4096
#define MAX_THREADS	64

struct stresser {
	pthread_t	thread;
	int		cpu;
	int		n;
	int		family;
	int		failed;
};

/* The server's side: every connection brings MSG_BYTES, then its end. */
static int read_to_end(int fd)
{
	char buf[MSG_BYTES];
	long got = 0;
	ssize_t r;

	while ((r = recv(fd, buf, sizeof(buf), 0)) > 0)
		got += r;
	return r < 0 || got != MSG_BYTES;
}

static int send_all(int fd, const char *buf, size_t len)
{
	ssize_t w;

	while (len) {
		w = send(fd, buf, len, 0);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* One connection: 0, or -1 if any step failed. */
static int one_connection(int family)
{
	struct sockaddr_mrc peer = mrc_lib_peer_addr(family, PORT);
	char buf[MSG_BYTES];
	int fd, rc = -1;

	memset(buf, 0x5a, sizeof(buf));
	fd = socket(family, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (!connect(fd, (const struct sockaddr *)&peer, sizeof(peer)) &&
	    !send_all(fd, buf, sizeof(buf)) && !shutdown(fd, SHUT_WR) &&
	    recv(fd, buf, 1, 0) == 0)
		rc = 0;
	close(fd);
	return rc;
}

static void *stress(void *arg)
{
	struct stresser *s = arg;
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	/* fewer CPUs than asked for: the scheduler places the thread */
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	for (i = 0; i < s->n; i++)
		s->failed += one_connection(s->family) != 0;
	return NULL;
}

int main(int argc, char **argv)
{
	int family = mrc_lib_family(), threads, n, cpus, i, failed = 0;
	static struct stresser st[MAX_THREADS];
	int status = 0;
	pid_t srv;

	threads = argc > 2 ? atoi(argv[1]) : 0;
	n = argc > 2 ? atoi(argv[2]) : 0;
	if (threads <= 0 || threads > MAX_THREADS || n <= 0 || family <= 0) {
		fprintf(stderr,
			"usage: mrc_peerstress THREADS(1-%d) N (mrc.ko loaded)\n",
			MAX_THREADS);
		return 2;
	}
	srv = mrc_lib_fork_server(family, SOCK_STREAM, PORT, 0, threads * n,
				  600, read_to_end);
	if (srv < 0) {
		fprintf(stderr, "mrc_peerstress: no server\n");
		return 2;
	}
	cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	for (i = 0; i < threads; i++) {
		st[i] = (struct stresser){ .cpu = i % (cpus > 0 ? cpus : 1),
					   .n = n, .family = family };
		if (pthread_create(&st[i].thread, NULL, stress, &st[i])) {
			fprintf(stderr, "mrc_peerstress: no thread\n");
			kill(srv, SIGKILL);
			return 2;
		}
	}
	for (i = 0; i < threads; i++) {
		pthread_join(st[i].thread, NULL);
		failed += st[i].failed;
	}
	/* A failed connection leaves the server an accept short. */
	if (failed)
		kill(srv, SIGKILL);
	waitpid(srv, &status, 0);
	printf("threads %d connections %d failed %d\n", threads, threads * n,
	       failed);
	return failed || !WIFEXITED(status) || WEXITSTATUS(status) ? 1 : 0;
}
