/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the AF_MRC kselftests: the live family number, the
 * time scale of timed steps, the per-netns counters of /proc/net/mrc_stat,
 * the way into the peer host's netns and a server forked there.
 */
#ifndef MRC_SELFTEST_LIB_H
#define MRC_SELFTEST_LIB_H

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/mrc.h>

/* AF_MRC as the loaded module registered it; -1 if mrc.ko is not loaded. */
static inline int mrc_lib_family(void)
{
	FILE *f = fopen(MRC_FAMILY_SYSFS, "r");
	int family = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &family) != 1)
		family = -1;
	fclose(f);
	return family;
}

/* MRC_TIME_SCALE: how much longer timed steps take (a debug kernel: 3). */
static inline int mrc_lib_time_scale(void)
{
	const char *scale = getenv("MRC_TIME_SCALE");

	return scale && atoi(scale) > 1 ? atoi(scale) : 1;
}

/* Value of counter @name in this netns's /proc/net/mrc_stat, or -1. */
static inline long long mrc_lib_stat(const char *name)
{
	FILE *f = fopen("/proc/net/mrc_stat", "r");
	char key[64];
	long long val, found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2) {
		if (!strcmp(key, name)) {
			found = val;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Move the calling thread into the peer's netns (MRC_PEER_NS, default
 * mrc-b). Return: 0, or -1 with errno.
 */
static inline int mrc_lib_enter_peer_ns(void)
{
	char path[128];
	int fd, err;

	snprintf(path, sizeof(path), "/run/netns/%s",
		 getenv("MRC_PEER_NS") ?: "mrc-b");
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	err = setns(fd, CLONE_NEWNET);
	close(fd);
	return err;
}

/* An IPv4 sockaddr_mrc of @family: @ip (NULL: any) and @port. */
static inline struct sockaddr_mrc mrc_lib_addr(int family, int port,
					       const char *ip)
{
	struct sockaddr_mrc a = { .mrc_family = family,
				  .mrc_port = htons(port),
				  .mrc_addr_family = AF_INET };

	if (ip)
		inet_pton(AF_INET, ip, &a.mrc_addr4);
	return a;
}

/* The peer's address (MRC_PEER_ADDR, default 10.100.0.2) and @port. */
static inline struct sockaddr_mrc mrc_lib_peer_addr(int family, int port)
{
	return mrc_lib_addr(family, port, getenv("MRC_PEER_ADDR") ?:
			    "10.100.0.2");
}

/*
 * Fork a server into the peer's netns: a listener of @family and @type on
 * @port (with SO_RCVBUF @rcvbuf unless 0) that runs @serve on each of @n
 * accepted sockets in turn (then closes it) and exits 0 if every call
 * returned 0, 1x otherwise (10: no netns, 11: no listener, 12: accept
 * failed, 14: a @serve failed); it gives up after @secs seconds (times
 * the time scale).
 * Return: its pid once it listens, or -1.
 */
static inline pid_t mrc_lib_fork_server(int family, int type, int port,
					int rcvbuf, int n, int secs,
					int (*serve)(int fd))
{
	struct sockaddr_mrc any = mrc_lib_addr(family, port, NULL);
	int ready[2], fd, c, rc = 0;
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
	alarm(secs * mrc_lib_time_scale());
	if (mrc_lib_enter_peer_ns())
		_exit(10);
	fd = socket(family, type, 0);
	if (fd < 0 || (rcvbuf && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
					    sizeof(rcvbuf))) ||
	    bind(fd, (struct sockaddr *)&any, sizeof(any)) || listen(fd, 64) ||
	    write(ready[1], &b, 1) != 1)
		_exit(11);
	while (n--) {
		c = accept(fd, NULL, NULL);
		if (c < 0)
			_exit(12);
		rc |= serve ? serve(c) : 0;
		close(c);
	}
	_exit(rc ? 14 : 0);
}

#endif /* MRC_SELFTEST_LIB_H */
