// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace state: a new netns gets its own /proc/net/mrc_stat
 * starting from zero, sockets work there, and its traffic does not show in
 * the parent's counters. Needs root (unshare(CLONE_NEWNET)).
 */
#include <errno.h>
#include <sched.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "mrc_lib.h"

/* Child: enter a fresh netns, check its counters, exit 0 on success. */
static int mrc_netns_child(int family, int nsock)
{
	int i, fd;

	if (unshare(CLONE_NEWNET))
		return 10;
	if (mrc_lib_stat("SockCreate") != 0 || mrc_lib_stat("SockInUse") != 0)
		return 11;
	for (i = 0; i < nsock; i++) {
		fd = socket(family, SOCK_STREAM, 0);
		if (fd < 0)
			return 12;
		/* Leave them open: the netns dies with this process. */
	}
	if (mrc_lib_stat("SockCreate") != nsock)
		return 13;
	if (mrc_lib_stat("SockInUse") != nsock)
		return 14;
	return 0;
}

TEST(fresh_namespace_has_its_own_counters)
{
	int family = mrc_lib_family();
	long long parent_created;
	int status;
	pid_t pid;

	ASSERT_GT(family, 0);
	parent_created = mrc_lib_stat("SockCreate");
	ASSERT_GE(parent_created, 0);

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(mrc_netns_child(family, 7));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(parent_created, mrc_lib_stat("SockCreate"));
}

/*
 * The harness's 30 s are not enough for 20 namespaces under the debug
 * kernel on a busy machine (make check-debug, 26 Nov): a fixture, for
 * TEST_F_TIMEOUT.
 */
FIXTURE(netns_rounds) {};
FIXTURE_SETUP(netns_rounds) {}
FIXTURE_TEARDOWN(netns_rounds) {}

TEST_F_TIMEOUT(netns_rounds, many_namespaces_come_and_go, 600)
{
	int family = mrc_lib_family();
	int i, status;
	pid_t pid;

	ASSERT_GT(family, 0);
	for (i = 0; i < 20; i++) {
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0)
			_exit(mrc_netns_child(family, 3));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("round %d", i);
	}
}

TEST_HARNESS_MAIN
