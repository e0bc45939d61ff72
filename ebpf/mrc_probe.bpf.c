// SPDX-License-Identifier: GPL-2.0
/*
 * Smallest proof that BPF can attach to mrc.ko functions through module
 * BTF: counts calls of the AF_MRC socket constructor. The telemetry
 * programs build on the same mechanism.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* Single slot: number of socket(AF_MRC, ...) calls seen. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} mrc_probe_creates SEC(".maps");

SEC("fentry/mrc_create")
int BPF_PROG(mrc_probe_create, struct net *net, struct socket *sock,
	     int protocol, int kern)
{
	__u32 key = 0;
	__u64 *calls = bpf_map_lookup_elem(&mrc_probe_creates, &key);

	if (calls)
		__sync_fetch_and_add(calls, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
