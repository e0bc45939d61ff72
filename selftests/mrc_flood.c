// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_flood: a handshake flood for mrc_limits.sh.
 *
 *   mrc_flood -s PORT BACKLOG     listen with BACKLOG and never accept;
 *                                 print "listening", hold until stdin closes
 *   mrc_flood -c ADDR PORT N MS   start N non-blocking connects at once,
 *                                 wait MS milliseconds, print one line:
 *                                 "established E failed F pending P"
 *
 * ADDR is an IPv4 address; AF_MRC's family is read from MRC_FAMILY_SYSFS.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/mrc.h>

static int mrc_family(void)
{
	FILE *f = fopen(MRC_FAMILY_SYSFS, "r");
	int family = -1;

	if (!f || fscanf(f, "%d", &family) != 1) {
		fprintf(stderr, "mrc_flood: cannot read %s\n", MRC_FAMILY_SYSFS);
		exit(2);
	}
	fclose(f);
	return family;
}

/* IPv4 @ip (NULL: any) and @port as an AF_MRC socket address. */
static struct sockaddr_mrc addr_of(const char *ip, const char *port)
{
	struct sockaddr_mrc sa = {
		.mrc_family = mrc_family(),
		.mrc_port = htons(atoi(port)),
		.mrc_addr_family = AF_INET,
	};

	if (ip && inet_pton(AF_INET, ip, &sa.mrc_addr4) != 1) {
		fprintf(stderr, "mrc_flood: bad address %s\n", ip);
		exit(1);
	}
	return sa;
}

static int serve(const char *port, int backlog)
{
	struct sockaddr_mrc sa = addr_of(NULL, port);
	int fd = socket(sa.mrc_family, SOCK_STREAM, 0);
	char c;

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, backlog)) {
		perror("mrc_flood: listen");
		return 2;
	}
	printf("listening\n");
	fflush(stdout);
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	close(fd);
	return 0;
}

/* Count the connects of @fds that ended (established or failed). */
static void tally(struct pollfd *fds, int n, int *est, int *failed)
{
	int err, i;
	socklen_t len;

	for (i = 0; i < n; i++) {
		if (fds[i].fd < 0 || !fds[i].revents)
			continue;
		len = sizeof(err);
		if (getsockopt(fds[i].fd, SOL_SOCKET, SO_ERROR, &err, &len) || err)
			(*failed)++;
		else
			(*est)++;
		fds[i].fd = -1;
	}
}

static int flood(const char *ip, const char *port, int n, int ms)
{
	struct sockaddr_mrc sa = addr_of(ip, port);
	struct rlimit rl = { n + 64, n + 64 };
	int i, est = 0, failed = 0, pending = 0;
	struct pollfd *fds = calloc(n, sizeof(*fds));

	if (!fds || setrlimit(RLIMIT_NOFILE, &rl)) {
		perror("mrc_flood");
		return 2;
	}
	for (i = 0; i < n; i++) {
		fds[i].fd = socket(sa.mrc_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
		fds[i].events = POLLOUT;
		if (fds[i].fd < 0 ||
		    (connect(fds[i].fd, (struct sockaddr *)&sa, sizeof(sa)) &&
		     errno != EINPROGRESS)) {
			failed++;
			fds[i].fd = -1;
		}
	}
	while (poll(fds, n, ms) > 0) {
		tally(fds, n, &est, &failed);
		if (est + failed == n)
			break;
	}
	for (i = 0; i < n; i++)
		pending += fds[i].fd >= 0;
	printf("established %d failed %d pending %d\n", est, failed, pending);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "-s"))
		return serve(argv[2], atoi(argv[3]));
	if (argc == 6 && !strcmp(argv[1], "-c"))
		return flood(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
	fprintf(stderr, "usage: mrc_flood -s PORT BACKLOG\n"
		"       mrc_flood -c ADDR PORT N MS\n");
	return 1;
}
