// SPDX-License-Identifier: GPL-2.0
/*
 * Module BTF: /sys/kernel/btf/mrc exists and an fentry program attaches to
 * an mrc.ko function (ebpf/mrc_probe.bpf.c) and sees every socket() call.
 */
#include <errno.h>
#include <unistd.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kselftest_harness.h"
#include "mrc_lib.h"

TEST(module_btf_present)
{
	EXPECT_EQ(0, access("/sys/kernel/btf/mrc", R_OK));
}

TEST(fentry_counts_socket_calls)
{
	const char *build = getenv("MRC_BUILD");
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_link *link;
	char path[512];
	__u64 calls = 0;
	__u32 key = 0;
	int family = mrc_lib_family(), map_fd, i, fd;

	ASSERT_GT(family, 0);
	ASSERT_NE(NULL, build) TH_LOG("MRC_BUILD not set");
	snprintf(path, sizeof(path), "%s/ebpf/mrc_probe.bpf.o", build);

	obj = bpf_object__open_file(path, NULL);
	ASSERT_EQ(0, libbpf_get_error(obj)) TH_LOG("open %s", path);
	ASSERT_EQ(0, bpf_object__load(obj));
	prog = bpf_object__find_program_by_name(obj, "mrc_probe_create");
	ASSERT_NE(NULL, prog);
	link = bpf_program__attach(prog);
	ASSERT_EQ(0, libbpf_get_error(link));
	map_fd = bpf_object__find_map_fd_by_name(obj, "mrc_probe_creates");
	ASSERT_GE(map_fd, 0);

	for (i = 0; i < 5; i++) {
		fd = socket(family, SOCK_SEQPACKET, 0);
		ASSERT_GE(fd, 0);
		close(fd);
	}
	/* Rejected calls still enter the constructor. */
	EXPECT_EQ(-1, socket(family, SOCK_DGRAM, 0));
	EXPECT_EQ(-1, socket(family, SOCK_STREAM, 17));

	ASSERT_EQ(0, bpf_map_lookup_elem(map_fd, &key, &calls));
	EXPECT_EQ(7ULL, calls);

	bpf_link__destroy(link);
	bpf_object__close(obj);
}

TEST_HARNESS_MAIN
