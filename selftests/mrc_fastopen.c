// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_fastopen: data in the first flight (net.mrc.early_data). Over
 * planes with a delay (the caller shapes them, so that the handshake is
 * not over before the first send, as it is on bare veth), three clients
 * each send 20,000 bytes to a server in the peer's netns that reads to
 * EOF, checks every byte and answers the count:
 *
 *   fastopen   sendto(MSG_FASTOPEN): part of the bytes left before the
 *              SYN_ACK (MRC_CONN_INFO early_data_bytes, at most 64 KiB)
 *   nonblock   a send() right after a non-blocking connect(): the same
 *   off        sendto(MSG_FASTOPEN) with net.mrc.early_data 0 here: none
 *
 *   mrc_fastopen      (MRC_PEER_NS, MRC_PEER_ADDR as for mrc_sockapi)
 *
 * Prints each client's early bytes; exits 1 if any check failed. The
 * sysctl is put back as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "mrc_lib.h"

#define PORT 7800
#define BYTES 20000
#define CLIENTS 3
#define SYSCTL "/proc/sys/net/mrc/early_data"

static unsigned char byte_at(size_t off)
{
	return (unsigned char)(off * 2654435761u >> 13);
}

/* Read @c to EOF, check the bytes, answer how many: 0 if all were right. */
static int serve(int c)
{
	static unsigned char buf[65536];
	unsigned long long total = 0;
	ssize_t n, i;

	while ((n = recv(c, buf, sizeof(buf), 0)) > 0) {
		for (i = 0; i < n; i++)
			if (buf[i] != byte_at(total + i))
				return 1;
		total += n;
	}
	if (n < 0)
		return 1;
	return send(c, &total, sizeof(total), 0) != sizeof(total);
}

static int sysctl_rw(int set)
{
	FILE *f = fopen(SYSCTL, set < 0 ? "r" : "w");
	int v = -1;

	if (!f)
		return -1;
	if (set < 0 ? fscanf(f, "%d", &v) != 1 : fprintf(f, "%d\n", set) < 0)
		v = -1;
	if (fclose(f))
		v = -1;
	return set < 0 ? v : 0;
}

/* Send BYTES on a connecting @fd, wait for the count; its early bytes or -1. */
static long long finish(int fd, bool fastopen, const struct sockaddr_mrc *peer)
{
	static unsigned char buf[BYTES];
	struct mrc_conn_info info;
	socklen_t len = sizeof(info);
	unsigned long long echoed = 0;
	long long early = -1;
	size_t i;
	ssize_t n;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = byte_at(i);
	n = fastopen ? sendto(fd, buf, sizeof(buf), MSG_FASTOPEN,
			      (const struct sockaddr *)peer, sizeof(*peer)) :
		       send(fd, buf, sizeof(buf), 0);
	if (n != (ssize_t)sizeof(buf)) {
		fprintf(stderr, "send: %zd, %s\n", n, strerror(errno));
		goto out;
	}
	if (shutdown(fd, SHUT_WR) ||
	    recv(fd, &echoed, sizeof(echoed), MSG_WAITALL) != sizeof(echoed) ||
	    echoed != sizeof(buf) ||
	    getsockopt(fd, SOL_MRC, MRC_CONN_INFO, &info, &len) ||
	    info.len != sizeof(info) || info.tx_data_bytes != sizeof(buf)) {
		fprintf(stderr, "transfer: echoed %llu, %s\n", echoed,
			strerror(errno));
		goto out;
	}
	early = (long long)info.early_data_bytes;
out:
	close(fd);
	return early;
}

/* A send() right after a non-blocking connect(), on a blocking socket. */
static long long nonblocking(int family, const struct sockaddr_mrc *peer)
{
	int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK, 0);

	if (fd < 0 ||
	    (connect(fd, (const struct sockaddr *)peer, sizeof(*peer)) &&
	     errno != EINPROGRESS) ||
	    fcntl(fd, F_SETFL, 0)) {
		perror("connect");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return finish(fd, false, peer);
}

static long long fastopen(int family, const struct sockaddr_mrc *peer)
{
	int fd = socket(family, SOCK_STREAM, 0);

	return fd < 0 ? -1 : finish(fd, true, peer);
}

int main(void)
{
	int family = mrc_lib_family(), was = sysctl_rw(-1), status = 0;
	struct sockaddr_mrc peer = mrc_lib_peer_addr(family, PORT);
	long long fo, nb, off;
	bool ok;
	pid_t srv;

	if (family <= 0 || was != 3) {
		fprintf(stderr, "mrc_fastopen: mrc.ko not loaded, or %s is %d, not 3\n",
			SYSCTL, was);
		return 2;
	}
	srv = mrc_lib_fork_server(family, SOCK_STREAM, PORT, 0, CLIENTS, 120,
				  serve);
	if (srv < 0)
		return 2;
	fo = fastopen(family, &peer);
	nb = nonblocking(family, &peer);
	off = sysctl_rw(0) ? -1 : fastopen(family, &peer);
	sysctl_rw(was);
	if (waitpid(srv, &status, 0) != srv)
		status = -1;
	printf("early bytes: fastopen %lld nonblock %lld off %lld; server %d\n",
	       fo, nb, off, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	/* a few packets at least, 64 KiB at most */
	ok = fo > 4000 && fo <= 65536 && nb > 4000 && nb <= 65536 &&
	     off == 0 && WIFEXITED(status) && !WEXITSTATUS(status);
	return ok ? 0 : 1;
}
