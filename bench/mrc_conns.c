// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_conns: hold many idle connections open, for P9 of `make bench`
 * (memory per connection from the kernel's slab counters).
 *
 *   mrc_conns -s PORT [--tcp]                 accept and hold, forever
 *   mrc_conns -c ADDR PORT N [--evs K] [--tcp]
 *                       open N connections (K EVs each), print "ready N",
 *                       hold them until stdin closes
 *
 * ADDR is an IPv4 address. AF_MRC is read from MRC_FAMILY_SYSFS.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/mrc.h>

static int use_tcp;

static int mrc_family(void)
{
	FILE *f = fopen(MRC_FAMILY_SYSFS, "r");
	int family = -1;

	if (!f || fscanf(f, "%d", &family) != 1) {
		fprintf(stderr, "mrc_conns: cannot read %s: is mrc.ko loaded?\n",
			MRC_FAMILY_SYSFS);
		exit(2);
	}
	fclose(f);
	return family;
}

/* The socket address of ADDR:PORT (ADDR NULL: any) for the family in use. */
static socklen_t make_addr(struct sockaddr_storage *ss, const char *addr, int port)
{
	memset(ss, 0, sizeof(*ss));
	if (use_tcp) {
		struct sockaddr_in *in = (struct sockaddr_in *)ss;

		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		if (addr && inet_pton(AF_INET, addr, &in->sin_addr) != 1)
			return 0;
		return sizeof(*in);
	}
	struct sockaddr_mrc *m = (struct sockaddr_mrc *)ss;

	m->mrc_family = mrc_family();
	m->mrc_port = htons(port);
	m->mrc_addr_family = AF_INET;
	if (addr && inet_pton(AF_INET, addr, &m->mrc_addr4) != 1)
		return 0;
	return sizeof(*m);
}

static int new_socket(void)
{
	int fd = socket(use_tcp ? AF_INET : mrc_family(), SOCK_STREAM, 0);

	if (fd < 0) {
		perror("mrc_conns: socket");
		exit(2);
	}
	return fd;
}

/* Room for many descriptors: the hard limit, as root may raise it. */
static void raise_fd_limit(void)
{
	struct rlimit rl = { 1 << 20, 1 << 20 };

	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		getrlimit(RLIMIT_NOFILE, &rl);
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int serve(int port)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, NULL, port);
	int one = 1, lfd = new_socket();

	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&ss, len) < 0 || listen(lfd, 4096) < 0) {
		perror("mrc_conns: bind/listen");
		return 2;
	}
	for (;;) {
		/* Accepted sockets stay open until the process is killed. */
		if (accept(lfd, NULL, NULL) < 0 && errno != EINTR) {
			perror("mrc_conns: accept");
			return 2;
		}
	}
}

static int hold(const char *addr, int port, long n, int evs)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, addr, port);
	char buf[16];
	long i;

	if (!len) {
		fprintf(stderr, "mrc_conns: \"%s\" is not an IPv4 address\n", addr);
		return 1;
	}
	for (i = 0; i < n; i++) {
		int fd = new_socket();
		__u32 count = evs;

		if (!use_tcp && evs &&
		    setsockopt(fd, SOL_MRC, MRC_EV_COUNT, &count, sizeof(count)) < 0) {
			perror("mrc_conns: MRC_EV_COUNT");
			return 2;
		}
		if (connect(fd, (struct sockaddr *)&ss, len) < 0) {
			fprintf(stderr, "mrc_conns: connection %ld: %s\n", i, strerror(errno));
			return 2;
		}
		if ((i + 1) % 10000 == 0)
			fprintf(stderr, "mrc_conns: %ld connected\n", i + 1);
	}
	printf("ready %ld\n", n);
	fflush(stdout);
	while (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
		;
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "Usage: mrc_conns -s PORT [--tcp]\n"
			"       mrc_conns -c ADDR PORT N [--evs K] [--tcp]\n");
	return 1;
}

int main(int argc, char **argv)
{
	int evs = 0, args = argc;

	if (argc > 1 && !strcmp(argv[argc - 1], "--tcp")) {
		use_tcp = 1;
		args--;
	}
	raise_fd_limit();
	if (args == 3 && !strcmp(argv[1], "-s"))
		return serve(atoi(argv[2]));
	if (args == 7 && !strcmp(argv[5], "--evs"))
		evs = atoi(argv[6]);
	else if (args != 5)
		return usage();
	if (strcmp(argv[1], "-c") || atol(argv[4]) <= 0 || evs < 0 || evs > 256)
		return usage();
	return hold(argv[2], atoi(argv[3]), atol(argv[4]), evs);
}
