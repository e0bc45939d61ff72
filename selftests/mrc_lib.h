/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the AF_MRC kselftests: the live family number, the
 * time scale of timed steps, the per-netns counters of /proc/net/mrc_stat
 * and the way into the peer host's netns.
 */
#ifndef MRC_SELFTEST_LIB_H
#define MRC_SELFTEST_LIB_H

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

#endif /* MRC_SELFTEST_LIB_H */
