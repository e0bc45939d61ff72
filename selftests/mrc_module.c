// SPDX-License-Identifier: GPL-2.0
/*
 * mrc.ko life cycle: load/unload loops, the "family" parameter and its
 * validation, unload refused while a socket is open, unload while another
 * netns is alive. Every test leaves the module loaded with defaults.
 * Needs MRC_KO (path of mrc.ko) and CAP_SYS_MODULE.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "mrc_lib.h"

static int mrc_load(const char *params)
{
	const char *ko = getenv("MRC_KO");
	int fd, ret;

	if (!ko)
		return -EINVAL;
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

static int mrc_unload(void)
{
	return syscall(SYS_delete_module, "mrc", O_NONBLOCK) ? -errno : 0;
}

static int mrc_loaded(void)
{
	return access("/sys/module/mrc", F_OK) == 0;
}

/* Every test starts and ends with mrc.ko loaded with default parameters. */
FIXTURE(mrc_module)
{
};

FIXTURE_SETUP(mrc_module)
{
	ASSERT_NE(NULL, getenv("MRC_KO"));
	if (!mrc_loaded())
		ASSERT_EQ(0, mrc_load(""));
}

FIXTURE_TEARDOWN(mrc_module)
{
	if (mrc_loaded() && mrc_lib_family() != MRC_AF_DEFAULT)
		mrc_unload();
	if (!mrc_loaded())
		EXPECT_EQ(0, mrc_load(""));
}

/* 30 rounds: about a second each on a debug kernel, past the default 30 s. */
TEST_F_TIMEOUT(mrc_module, load_unload_loop, 300)
{
	int i, fd;

	for (i = 0; i < 30; i++) {
		ASSERT_EQ(0, mrc_unload()) TH_LOG("round %d", i);
		ASSERT_FALSE(mrc_loaded());
		ASSERT_EQ(0, mrc_load("")) TH_LOG("round %d", i);
		ASSERT_EQ(MRC_AF_DEFAULT, mrc_lib_family());
		fd = socket(MRC_AF_DEFAULT, SOCK_STREAM, 0);
		ASSERT_GE(fd, 0);
		close(fd);
	}
}

TEST_F(mrc_module, family_parameter_validated)
{
	ASSERT_EQ(0, mrc_unload());
	EXPECT_EQ(-EINVAL, mrc_load("family=0"));
	EXPECT_EQ(-EINVAL, mrc_load("family=-3"));
	EXPECT_EQ(-EINVAL, mrc_load("family=46"));
	EXPECT_EQ(-EINVAL, mrc_load("family=banana"));
	/* AF_INET is registered: the module must refuse, not shadow it. */
	EXPECT_EQ(-EEXIST, mrc_load("family=2"));
	EXPECT_FALSE(mrc_loaded());
}

TEST_F(mrc_module, family_parameter_moves_family)
{
	int fd;

	ASSERT_EQ(0, mrc_unload());
	ASSERT_EQ(0, mrc_load("family=25"));
	EXPECT_EQ(25, mrc_lib_family());
	fd = socket(25, SOCK_SEQPACKET, 0);
	EXPECT_GE(fd, 0);
	close(fd);
	errno = 0;
	EXPECT_EQ(-1, socket(MRC_AF_DEFAULT, SOCK_STREAM, 0));
	EXPECT_EQ(EAFNOSUPPORT, errno);
}

TEST_F(mrc_module, unload_refused_with_open_socket)
{
	int fd = socket(MRC_AF_DEFAULT, SOCK_STREAM, 0);
	int err;

	ASSERT_GE(fd, 0);
	err = mrc_unload();
	EXPECT_TRUE(err == -EWOULDBLOCK || err == -EBUSY) TH_LOG("err %d", err);
	EXPECT_TRUE(mrc_loaded());
	/* The refused unload must leave the socket fully usable. */
	errno = 0;
	EXPECT_EQ(-1, send(fd, "x", 1, MSG_NOSIGNAL));
	EXPECT_EQ(ENOTCONN, errno);
	close(fd);
	EXPECT_EQ(0, mrc_unload());
}

TEST_F(mrc_module, unload_with_live_namespace)
{
	int ready[2], status;
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNET))
			_exit(1);
		close(socket(MRC_AF_DEFAULT, SOCK_STREAM, 0));
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	/* The module goes while the netns still exists, then comes back. */
	EXPECT_EQ(0, mrc_unload());
	EXPECT_EQ(0, mrc_load(""));
	EXPECT_EQ(0, kill(pid, SIGKILL));
	EXPECT_EQ(pid, waitpid(pid, &status, 0));
	close(ready[0]);
	close(ready[1]);
}

TEST_HARNESS_MAIN
