// SPDX-License-Identifier: GPL-2.0
/*
 * Path telemetry and failure detection for mrc.ko.
 *
 * BTF tracepoint programs on the module's mrc_tx/rx/ack/loss/nack and
 * mrc_ev_state count per path (connection x EV), per plane (with a log2 RTT
 * histogram) and raise alarms on the ring buffer when a path loses a burst
 * of packets, hits a retransmission timeout or sends without being acked
 * for too long. tc programs on the plane netdevs count MRC's UDP packets
 * per link. Map layouts: include/uapi/linux/mrc_telemetry.h.
 *
 * Tracepoints fire for every namespace; a loader sets filter_netns to its
 * own and counts only that one, so one loader per namespace can share the
 * pinned maps. Counters are updated atomically; the detector state of a
 * path (burst window, ACK clock) is updated without locks, so two CPUs
 * racing on one path may lose an update: that delays an alarm by at most
 * one packet and never raises a false one on a healthy path.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_endian.h>

#include <linux/mrc_telemetry.h>

/* The module's own trace record (kernel/core/mrc_core.h), relocated by
 * CO-RE against mrc.ko's BTF.
 */
struct mrc_core_trace_info {
	__u32 psn;
	__u32 plane;
	__u32 ev;
	__u32 len;
	__u32 rtt_us;
	__u32 arg;
	bool ce;
} __attribute__((preserve_access_index));

#define MRC_LOSS_SACK	0
#define MRC_LOSS_RTO	1
#define MRC_EV_STATE_GOOD 0

#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86DD
#define TC_ACT_OK	0

const volatile __u32 filter_netns;

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MRC_TM_MAX_PATHS);
	__type(key, struct mrc_tm_path_key);
	__type(value, struct mrc_tm_path);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} mrc_paths SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MRC_TM_MAX_PLANES);
	__type(key, struct mrc_tm_plane_key);
	__type(value, struct mrc_tm_plane);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} mrc_planes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MRC_TM_MAX_LINKS);
	__type(key, struct mrc_tm_link_key);
	__type(value, struct mrc_tm_link);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} mrc_links SEC(".maps");

/* Detector thresholds per namespace, written by mrcd. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct mrc_tm_config);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} mrc_tm_config SEC(".maps");

/* UDP ports of this loader's planes (host order), for the tc counters. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u16);
	__type(value, __u8);
} mrc_tm_ports SEC(".maps");

/* Alarms of this loader only: not pinned. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, MRC_TM_RINGBUF_BYTES);
} mrc_alarms SEC(".maps");

/* Zeroed templates for new entries (.bss: a static const would land in a
 * merged constant section that the kernel's BTF check refuses).
 */
static struct mrc_tm_path zero_path;
static struct mrc_tm_plane zero_plane;
static struct mrc_tm_link zero_link;

static struct mrc_tm_config *tm_config(void)
{
	__u32 key = filter_netns;

	return bpf_map_lookup_elem(&mrc_tm_config, &key);
}

/* A threshold of this namespace, or its default before mrcd wrote one. */
#define CFG(field, dflt) ({						\
	struct mrc_tm_config *cfg_ = tm_config();			\
	cfg_ ? cfg_->field : (dflt);					\
})

/* [0]: last ACK on any plane of this namespace (a plane is dark only if
 * the others are not); [1]: when the planes were last judged. Not pinned
 * (one per loader).
 */
#define MRC_TM_SCAN_NS	(10ULL * 1000 * 1000)

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} mrc_tm_any_ack SEC(".maps");

/* No ACK since @last_ack for at least @min, while the namespace's other
 * paths were acked within the last quarter of that time. A host that
 * stalls, or a burst dropped on every plane at once, silences everything
 * together: that is no path's fault.
 */
static bool silent(__u64 last_ack, __u64 now, __u64 min)
{
	__u64 quiet = now - last_ack, *any_ack;
	__u32 zero = 0;

	any_ack = bpf_map_lookup_elem(&mrc_tm_any_ack, &zero);
	if (!any_ack || !last_ack)
		return false;
	return quiet >= min && now - *any_ack < quiet / 4;
}

static struct mrc_tm_path *path_of(__u32 netns, __u32 conn, __u32 ev,
				   __u32 plane)
{
	struct mrc_tm_path_key key = { .netns = netns, .conn = conn, .ev = ev };
	struct mrc_tm_path *path = bpf_map_lookup_elem(&mrc_paths, &key);

	if (path)
		return path;
	bpf_map_update_elem(&mrc_paths, &key, &zero_path, BPF_NOEXIST);
	path = bpf_map_lookup_elem(&mrc_paths, &key);
	if (path)
		path->plane = plane;
	return path;
}

static struct mrc_tm_plane *plane_of(__u32 netns, __u32 plane)
{
	struct mrc_tm_plane_key key = { .netns = netns, .plane = plane };
	struct mrc_tm_plane *pl = bpf_map_lookup_elem(&mrc_planes, &key);

	if (pl)
		return pl;
	bpf_map_update_elem(&mrc_planes, &key, &zero_plane, BPF_NOEXIST);
	return bpf_map_lookup_elem(&mrc_planes, &key);
}

static void raise_alarm(struct mrc_tm_path *path, __u32 kind, __u32 conn,
			__u32 ev, __u32 losses, __u64 now)
{
	struct mrc_tm_alarm *a;

	a = bpf_ringbuf_reserve(&mrc_alarms, sizeof(*a), 0);
	if (!a)
		return;
	a->time_ns = now;
	a->kind = kind;
	a->netns = filter_netns;
	a->conn = conn;
	a->ev = ev;
	a->plane = path->plane;
	a->state = path->state;
	a->burst_losses = losses;
	a->pad = 0;
	a->since_ack_ns = path->last_ack_ns ? now - path->last_ack_ns : 0;
	a->tx_pkts = path->tx_pkts;
	a->losses = path->losses;
	bpf_ringbuf_submit(a, 0);
	path->alarms++;
	path->last_alarm_ns = now;
}

/* A failure alarm for @path unless one went out less than alarm_gap ago. */
static void alarm(struct mrc_tm_path *path, __u32 kind, __u32 conn, __u32 ev,
		  __u64 now)
{
	if (path->last_alarm_ns &&
	    now - path->last_alarm_ns <
		    CFG(alarm_gap_ns, MRC_TM_DEFAULT_ALARM_GAP_NS))
		return;
	raise_alarm(path, kind, conn, ev, path->burst_losses, now);
}

static __u32 log2_bucket(__u32 v)
{
	__u32 b = 0;

	if (v >= 1 << 16) {
		v >>= 16;
		b += 16;
	}
	if (v >= 1 << 8) {
		v >>= 8;
		b += 8;
	}
	if (v >= 1 << 4) {
		v >>= 4;
		b += 4;
	}
	if (v >= 1 << 2) {
		v >>= 2;
		b += 2;
	}
	if (v >= 1 << 1)
		b += 1;
	return b < MRC_TM_RTT_BUCKETS ? b : MRC_TM_RTT_BUCKETS - 1;
}

/* Losses on a whole plane with no ACK from it in between: a plane that
 * went dark shows here long before any single one of its paths, each of
 * which carries only a small share of the traffic, has lost enough. A
 * host that stalls (or a burst dropped on every plane) loses on all
 * planes at once: only a plane silent for plane_dark_ns while the others
 * kept being acked counts.
 */
static bool plane_dark(const struct mrc_tm_plane *pl, __u64 now)
{
	return silent(pl->last_ack_ns, now,
		      CFG(plane_dark_ns, MRC_TM_DEFAULT_PLANE_DARK_NS));
}

/* Where a plane's last loss was seen, for its alarm record. */
struct mrc_tm_suspect {
	__u32 conn;
	__u32 ev;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MRC_TM_SCAN_PLANES);
	__type(key, __u32);
	__type(value, struct mrc_tm_suspect);
} mrc_tm_suspects SEC(".maps");

static void plane_alarm(struct mrc_tm_plane *pl, __u32 plane, __u64 now)
{
	__u32 slot = plane % MRC_TM_SCAN_PLANES;
	struct mrc_tm_suspect *sus;
	struct mrc_tm_alarm *a;

	if (pl->burst_losses <
	    CFG(plane_burst_losses, MRC_TM_DEFAULT_PLANE_BURST_LOSSES) ||
	    !plane_dark(pl, now))
		return;
	if (pl->last_alarm_ns && now - pl->last_alarm_ns <
	    CFG(alarm_gap_ns, MRC_TM_DEFAULT_ALARM_GAP_NS))
		return;
	sus = bpf_map_lookup_elem(&mrc_tm_suspects, &slot);
	a = bpf_ringbuf_reserve(&mrc_alarms, sizeof(*a), 0);
	if (!sus || !a) {
		if (a)
			bpf_ringbuf_discard(a, 0);
		return;
	}
	a->time_ns = now;
	a->kind = MRC_TM_ALARM_PLANE_LOSS_BURST;
	a->netns = filter_netns;
	a->conn = sus->conn;
	a->ev = sus->ev;
	a->plane = plane;
	a->state = 0;
	a->burst_losses = pl->burst_losses;
	a->pad = 0;
	a->since_ack_ns = now - pl->last_ack_ns;
	a->tx_pkts = pl->tx_pkts;
	a->losses = pl->losses;
	bpf_ringbuf_submit(a, 0);
	pl->alarms++;
	pl->last_alarm_ns = now;
}

/* Losses on a plane since its last ACK. The plane is judged when they
 * reach plane_burst_losses and again on every ACK of the namespace (see
 * scan_planes): a plane the module stopped using after a few losses
 * shows no further loss, but stays dark while the others are acked.
 */
static void plane_loss(struct mrc_tm_plane *pl, __u32 plane, __u32 conn,
		       __u32 ev, __u64 now)
{
	__u32 slot = plane % MRC_TM_SCAN_PLANES;
	struct mrc_tm_suspect sus = { .conn = conn, .ev = ev };

	pl->burst_losses++;
	bpf_map_update_elem(&mrc_tm_suspects, &slot, &sus, BPF_ANY);
	plane_alarm(pl, plane, now);
}

static void scan_planes(__u64 now)
{
	struct mrc_tm_plane_key key = { .netns = filter_netns };
	struct mrc_tm_plane *pl;
	__u32 i;

	for (i = 0; i < MRC_TM_SCAN_PLANES; i++) {
		key.plane = i;
		pl = bpf_map_lookup_elem(&mrc_planes, &key);
		if (pl && pl->burst_losses)
			plane_alarm(pl, i, now);
	}
}

SEC("tp_btf/mrc_tx")
int BPF_PROG(mrc_tm_tx, __u32 netns, __u32 conn,
	     const struct mrc_core_trace_info *info)
{
	__u32 len = info->len, ev = info->ev, retx = info->arg;
	struct mrc_tm_path *path;
	struct mrc_tm_plane *pl;
	__u64 now;

	if (netns != filter_netns)
		return 0;
	path = path_of(netns, conn, ev, info->plane);
	pl = plane_of(netns, info->plane);
	if (!path || !pl)
		return 0;
	now = bpf_ktime_get_ns();
	__sync_fetch_and_add(&path->tx_pkts, 1);
	__sync_fetch_and_add(&path->tx_bytes, len);
	__sync_fetch_and_add(&pl->tx_pkts, 1);
	__sync_fetch_and_add(&pl->tx_bytes, len);
	if (retx) {
		__sync_fetch_and_add(&path->retx_pkts, 1);
		__sync_fetch_and_add(&pl->retx_pkts, 1);
	}
	path->plane = info->plane;
	path->last_tx_ns = now;
	if (!path->unacked_since_ns)
		path->unacked_since_ns = now;
	else if (now - path->unacked_since_ns >
		 CFG(ack_timeout_ns, MRC_TM_DEFAULT_ACK_TIMEOUT_NS) &&
		 silent(path->last_ack_ns, now,
			CFG(ack_timeout_ns, MRC_TM_DEFAULT_ACK_TIMEOUT_NS)))
		alarm(path, MRC_TM_ALARM_NO_ACK, conn, ev, now);
	return 0;
}

SEC("tp_btf/mrc_ack")
int BPF_PROG(mrc_tm_ack, __u32 netns, __u32 conn,
	     const struct mrc_core_trace_info *info)
{
	__u32 rtt = info->rtt_us, ev = info->ev, zero = 0, scan_slot = 1;
	struct mrc_tm_path *path;
	struct mrc_tm_plane *pl;
	__u64 *any_ack, *last_scan;

	if (netns != filter_netns)
		return 0;
	path = path_of(netns, conn, ev, info->plane);
	pl = plane_of(netns, info->plane);
	if (!path || !pl)
		return 0;
	__sync_fetch_and_add(&path->acked_pkts, 1);
	__sync_fetch_and_add(&pl->acked_pkts, 1);
	path->last_ack_ns = bpf_ktime_get_ns();
	path->unacked_since_ns = 0;
	path->burst_losses = 0;
	pl->last_ack_ns = path->last_ack_ns;
	pl->burst_losses = 0;
	any_ack = bpf_map_lookup_elem(&mrc_tm_any_ack, &zero);
	if (any_ack)
		*any_ack = path->last_ack_ns;
	/* Judging the planes costs a lookup each: at most every 10 ms,
	 * not on every ACK.
	 */
	last_scan = bpf_map_lookup_elem(&mrc_tm_any_ack, &scan_slot);
	if (last_scan && path->last_ack_ns - *last_scan >= MRC_TM_SCAN_NS) {
		*last_scan = path->last_ack_ns;
		scan_planes(path->last_ack_ns);
	}
	if (rtt) {
		__sync_fetch_and_add(&pl->rtt_samples, 1);
		__sync_fetch_and_add(&pl->rtt_sum_us, rtt);
		__sync_fetch_and_add(&pl->rtt_hist[log2_bucket(rtt)], 1);
	}
	return 0;
}

SEC("tp_btf/mrc_loss")
int BPF_PROG(mrc_tm_loss, __u32 netns, __u32 conn,
	     const struct mrc_core_trace_info *info)
{
	__u32 why = info->arg, ev = info->ev;
	struct mrc_tm_path *path;
	struct mrc_tm_plane *pl;
	__u64 now;

	/* Only SACK-gap and RTO losses are the path's fault (the module's
	 * Losses counter agrees); NACK and plane-down re-sends are not.
	 */
	if (netns != filter_netns || why > MRC_LOSS_RTO)
		return 0;
	path = path_of(netns, conn, ev, info->plane);
	pl = plane_of(netns, info->plane);
	if (!path || !pl)
		return 0;
	now = bpf_ktime_get_ns();
	__sync_fetch_and_add(&path->losses, 1);
	__sync_fetch_and_add(&pl->losses, 1);
	if (why == MRC_LOSS_RTO) {
		/* A retransmission timeout marks everything in flight lost,
		 * on every path: evidence against this path only if it has
		 * been silent for ack_timeout as well.
		 */
		__sync_fetch_and_add(&path->rto_losses, 1);
		if (silent(path->last_ack_ns, now,
			   CFG(ack_timeout_ns, MRC_TM_DEFAULT_ACK_TIMEOUT_NS)))
			alarm(path, MRC_TM_ALARM_TIMEOUT, conn, ev, now);
		return 0;
	}
	/* A SACK-gap loss: later packets got through elsewhere. */
	if (now - path->burst_start_ns >
	    CFG(burst_window_ns, MRC_TM_DEFAULT_BURST_WINDOW_NS)) {
		path->burst_start_ns = now;
		path->burst_losses = 0;
	}
	path->burst_losses++;
	if (path->burst_losses >=
	    CFG(burst_losses, MRC_TM_DEFAULT_BURST_LOSSES) &&
	    silent(path->last_ack_ns, now,
		   CFG(plane_dark_ns, MRC_TM_DEFAULT_PLANE_DARK_NS)))
		alarm(path, MRC_TM_ALARM_LOSS_BURST, conn, ev, now);
	plane_loss(pl, info->plane, conn, ev, now);
	return 0;
}

SEC("tp_btf/mrc_nack")
int BPF_PROG(mrc_tm_nack, __u32 netns, __u32 conn,
	     const struct mrc_core_trace_info *info)
{
	struct mrc_tm_path *path;
	struct mrc_tm_plane *pl;

	if (netns != filter_netns)
		return 0;
	path = path_of(netns, conn, info->ev, info->plane);
	pl = plane_of(netns, info->plane);
	if (!path || !pl)
		return 0;
	__sync_fetch_and_add(&path->nacks, 1);
	__sync_fetch_and_add(&pl->nacks, 1);
	return 0;
}

SEC("tp_btf/mrc_rx")
int BPF_PROG(mrc_tm_rx, __u32 netns, __u32 conn,
	     const struct mrc_core_trace_info *info)
{
	__u32 len = info->len;
	bool ce = info->ce;
	struct mrc_tm_path *path;
	struct mrc_tm_plane *pl;

	if (netns != filter_netns)
		return 0;
	path = path_of(netns, conn, info->ev, info->plane);
	pl = plane_of(netns, info->plane);
	if (!path || !pl)
		return 0;
	__sync_fetch_and_add(&path->rx_pkts, 1);
	__sync_fetch_and_add(&path->rx_bytes, len);
	__sync_fetch_and_add(&pl->rx_pkts, 1);
	__sync_fetch_and_add(&pl->rx_bytes, len);
	if (ce) {
		__sync_fetch_and_add(&path->rx_ce, 1);
		__sync_fetch_and_add(&pl->rx_ce, 1);
	}
	return 0;
}

SEC("tp_btf/mrc_ev_state")
int BPF_PROG(mrc_tm_ev_state, __u32 netns, __u32 conn, __u32 index, __u32 ev,
	     __u32 plane, __u8 state)
{
	struct mrc_tm_path *path;

	if (netns != filter_netns)
		return 0;
	path = path_of(netns, conn, ev, plane);
	if (!path)
		return 0;
	path->state = state;
	if (state == MRC_EV_STATE_GOOD) {
		/* Back in rotation: judge it afresh. */
		path->unacked_since_ns = 0;
		path->burst_losses = 0;
	}
	raise_alarm(path, MRC_TM_ALARM_EV_STATE, conn, ev, path->burst_losses,
		    bpf_ktime_get_ns());
	return 0;
}

/* MRC's UDP packets on a plane netdev, either direction. */
static int count_link(struct __sk_buff *skb, bool ingress)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct mrc_tm_link_key key = { .netns = filter_netns,
				       .ifindex = skb->ifindex };
	struct ethhdr *eth = data;
	struct mrc_tm_link *link;
	struct udphdr *udp;
	__u16 port;
	__u8 proto;

	if ((void *)(eth + 1) > end)
		return TC_ACT_OK;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = (void *)(eth + 1);

		if ((void *)(ip + 1) > end || ip->ihl != 5)
			return TC_ACT_OK;
		proto = ip->protocol;
		udp = (void *)(ip + 1);
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = (void *)(eth + 1);

		if ((void *)(ip6 + 1) > end)
			return TC_ACT_OK;
		proto = ip6->nexthdr;
		udp = (void *)(ip6 + 1);
	} else {
		return TC_ACT_OK;
	}
	if (proto != IPPROTO_UDP || (void *)(udp + 1) > end)
		return TC_ACT_OK;
	/* Data goes to the peer's plane port from an EV (the source port):
	 * a packet is MRC's when either end is a plane port.
	 */
	port = bpf_ntohs(udp->dest);
	if (!bpf_map_lookup_elem(&mrc_tm_ports, &port)) {
		port = bpf_ntohs(udp->source);
		if (!bpf_map_lookup_elem(&mrc_tm_ports, &port))
			return TC_ACT_OK;
	}
	link = bpf_map_lookup_elem(&mrc_links, &key);
	if (!link) {
		bpf_map_update_elem(&mrc_links, &key, &zero_link, BPF_NOEXIST);
		link = bpf_map_lookup_elem(&mrc_links, &key);
		if (!link)
			return TC_ACT_OK;
	}
	if (ingress) {
		__sync_fetch_and_add(&link->rx_pkts, 1);
		__sync_fetch_and_add(&link->rx_bytes, skb->len);
		link->last_rx_ns = bpf_ktime_get_ns();
	} else {
		__sync_fetch_and_add(&link->tx_pkts, 1);
		__sync_fetch_and_add(&link->tx_bytes, skb->len);
		link->last_tx_ns = bpf_ktime_get_ns();
	}
	return TC_ACT_OK;
}

SEC("tc")
int mrc_tm_tc_ingress(struct __sk_buff *skb)
{
	return count_link(skb, true);
}

SEC("tc")
int mrc_tm_tc_egress(struct __sk_buff *skb)
{
	return count_link(skb, false);
}

char LICENSE[] SEC("license") = "GPL";
