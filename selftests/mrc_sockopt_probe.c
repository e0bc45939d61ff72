// SPDX-License-Identifier: GPL-2.0
/*
 * Every IPPROTO_TCP and SOL_SOCKET option of a TCP socket, read and then
 * written back, in each state a program meets: fresh, listening, accepted,
 * connected. One line per (state, option); run once plainly (the kernel's
 * TCP answers) and once under mrcize (the shim's), the two outputs must
 * agree (selftests/mrc_mrcize.sh compares them).
 *
 *   mrc_sockopt_probe server PORT       listens on [::]:PORT, serves one client
 *   mrc_sockopt_probe client PEER PORT  probes a fresh socket, then connects
 *
 * Line: STATE LEVEL NAME get RC ERRNO LEN VALUE set RC ERRNO [bad RC ERRNO]
 * VALUE is the int read (or "-" when the answer is not an int); "bad" is a
 * write of -1 and of a 2-byte value, on fresh sockets only.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PROBE_TCP_MAX 40	/* past TCP_TX_DELAY (37), 6.1's last */
#define PROBE_SO_MAX 80		/* past SO_RCVMARK (75) */

/* Options a round trip would disturb the rest of the probe with. */
static int probe_skip(int level, int name)
{
	/*
	 * Written back, a filter read as garbage would drop the connection's
	 * packets, and a device binding would move it off its planes.
	 */
	return level == SOL_SOCKET &&
	       (name == SO_ATTACH_FILTER || name == SO_ATTACH_BPF ||
		name == SO_ATTACH_REUSEPORT_CBPF || name == SO_ATTACH_REUSEPORT_EBPF ||
		name == SO_BINDTODEVICE || name == SO_BINDTOIFINDEX);
}

static const char *probe_level(int level)
{
	return level == SOL_SOCKET ? "SOL_SOCKET" : "IPPROTO_TCP";
}

static void probe_one(int fd, const char *state, int level, int name, int bad)
{
	unsigned char buf[512] = { 0 };
	socklen_t len = sizeof(buf);
	int rc, err, v;

	if (probe_skip(level, name))
		return;
	rc = getsockopt(fd, level, name, buf, &len);
	err = rc ? errno : 0;
	printf("%s %s %d get %d %d %u ", state, probe_level(level), name, rc, err,
	       rc ? 0 : (unsigned int)len);
	if (!rc && len == sizeof(int)) {
		memcpy(&v, buf, sizeof(v));
		printf("%d", v);
	} else {
		printf("-");
	}
	rc = setsockopt(fd, level, name, buf, rc ? sizeof(int) : len);
	printf(" set %d %d", rc, rc ? errno : 0);
	if (bad) {
		v = -1;
		rc = setsockopt(fd, level, name, &v, sizeof(v));
		printf(" bad %d %d", rc, rc ? errno : 0);
		rc = setsockopt(fd, level, name, &v, 2);
		printf(" %d %d", rc, rc ? errno : 0);
	}
	printf("\n");
}

/* Each option of both levels on @fd; @bad: also the invalid writes. */
static void probe_all(int fd, const char *state, int bad)
{
	int name;

	for (name = 1; name <= PROBE_TCP_MAX; name++)
		probe_one(fd, state, IPPROTO_TCP, name, bad);
	for (name = 1; name <= PROBE_SO_MAX; name++)
		probe_one(fd, state, SOL_SOCKET, name, bad);
	fflush(stdout);
}

/* The invalid writes each get a socket of their own: they change it. */
static void probe_fresh(int domain)
{
	int name, fd;

	for (name = 1; name <= PROBE_TCP_MAX + PROBE_SO_MAX; name++) {
		int level = name <= PROBE_TCP_MAX ? IPPROTO_TCP : SOL_SOCKET;
		int opt = name <= PROBE_TCP_MAX ? name : name - PROBE_TCP_MAX;

		fd = socket(domain, SOCK_STREAM, 0);
		if (fd < 0) {
			perror("socket");
			exit(1);
		}
		probe_one(fd, "fresh", level, opt, 1);
		close(fd);
	}
	fflush(stdout);
}

/*
 * MRC_PROBE_SYNC names a file the server creates once it has probed its
 * accepted socket; the client closes only then. A server that probed
 * after the client's FIN would see CLOSE_WAIT's answers (TCP_QUICKACK,
 * TCP_ZEROCOPY_RECEIVE), whichever side of the race a run fell on. A
 * file, not a byte on the connection: data in a queue changes answers too.
 */
static void probe_sync_post(void)
{
	const char *path = getenv("MRC_PROBE_SYNC");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "w");
	if (f)
		fclose(f);
}

static void probe_sync_wait(void)
{
	const char *path = getenv("MRC_PROBE_SYNC");
	int i;

	for (i = 0; path && i < 300 && access(path, F_OK); i++)
		usleep(100000);
}

static int probe_server(int port)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(port) };
	int one = 1, zero = 0, ls, fd;
	char c;

	ls = socket(AF_INET6, SOCK_STREAM, 0);
	if (ls < 0 || setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    setsockopt(ls, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)) ||
	    bind(ls, (struct sockaddr *)&a, sizeof(a)) || listen(ls, 4)) {
		perror("server");
		return 1;
	}
	probe_all(ls, "listen", 0);
	fprintf(stderr, "listening\n");
	fd = accept(ls, NULL, NULL);
	if (fd < 0) {
		perror("accept");
		return 1;
	}
	probe_all(fd, "accepted", 0);
	probe_sync_post();
	/* The client's close ends it; its probe must not race our close. */
	while (read(fd, &c, 1) > 0)
		;
	close(fd);
	close(ls);
	return 0;
}

static int probe_client(const char *peer, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd, i;

	if (inet_pton(AF_INET, peer, &a.sin_addr) != 1) {
		fprintf(stderr, "not an IPv4 address: %s\n", peer);
		return 2;
	}
	probe_fresh(AF_INET);
	for (i = 0;; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof(a)))
			break;
		if (i == 100) {
			perror("connect");
			return 1;
		}
		close(fd);
		usleep(100000);
	}
	probe_all(fd, "connected", 0);
	probe_sync_wait();
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "server"))
		return probe_server(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "client"))
		return probe_client(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: %s server PORT | client PEER PORT\n", argv[0]);
	return 2;
}
