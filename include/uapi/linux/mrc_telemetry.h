/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MRC eBPF telemetry: the maps ebpf/mrc_telemetry.bpf.c keeps, pinned under
 * MRC_TM_PIN_DIR with BTF (so `bpftool map dump pinned` prints named
 * fields), and the alarm records it puts on its ring buffer. Shared by the
 * eBPF programs, mrcd and `mrcctl telemetry`. Documented in
 * mrc_telemetry.rst next to this header; keep the two in step.
 *
 * Every key starts with the network namespace's inode number (the one
 * `stat -L -c %i /proc/self/ns/net` prints): tracepoints fire for every
 * namespace, and each loader counts only its own.
 */
#ifndef _UAPI_LINUX_MRC_TELEMETRY_H
#define _UAPI_LINUX_MRC_TELEMETRY_H

#ifndef __VMLINUX_H__	/* eBPF programs get the types from vmlinux.h */
#include <linux/types.h>
#endif

#define MRC_TM_PIN_DIR		"/sys/fs/bpf/mrc"
#define MRC_TM_MAX_PATHS	65536	/* (netns, conn, EV) entries, LRU */
#define MRC_TM_MAX_PLANES	256	/* (netns, plane) entries */
#define MRC_TM_MAX_LINKS	256	/* (netns, ifindex) entries */
#define MRC_TM_RTT_BUCKETS	24	/* [0] < 2 us, [b] 2^b .. 2^(b+1)-1 us */
#define MRC_TM_RINGBUF_BYTES	(256 * 1024)
#define MRC_TM_SCAN_PLANES	16	/* planes 0..15 get the plane detector */

/* Map "mrc_paths": one EV of one connection. */
struct mrc_tm_path_key {
	__u32	netns;
	__u32	conn;		/* connection id (mrcctl conn show) */
	__u32	ev;		/* entropy value */
};

/*
 * Counters (the first seven have the module's per-path counter of the same
 * name: TxPkts, TxBytes, RetxPkts, AckedPkts, Losses, Nacks) and the
 * detector's state for that path.
 */
struct mrc_tm_path {
	__u32	plane;
	__u32	state;		/* enum mrc_ev_state, from mrc_ev_state */
	__u64	tx_pkts;	/* data packets sent, retransmissions included */
	__u64	tx_bytes;	/* their payload bytes */
	__u64	retx_pkts;
	__u64	acked_pkts;
	__u64	losses;		/* declared lost by SACK gap or RTO */
	__u64	rto_losses;	/* of which by retransmission timeout */
	__u64	nacks;		/* NACKs received naming this EV */
	__u64	rx_pkts;	/* data packets received on this EV */
	__u64	rx_bytes;
	__u64	rx_ce;		/* of which CE-marked */
	__u64	last_tx_ns;	/* bpf_ktime_get_ns() of the last send */
	__u64	last_ack_ns;	/* ... of the last acknowledged packet */
	__u64	unacked_since_ns; /* first send after the last ACK, or 0 */
	__u64	burst_start_ns;	/* start of the current loss-burst window */
	__u32	burst_losses;	/* losses in that window */
	__u32	alarms;		/* alarms raised for this path */
	__u64	last_alarm_ns;
};

/* Map "mrc_planes": totals of all paths of a plane, and its RTT spread. */
struct mrc_tm_plane_key {
	__u32	netns;
	__u32	plane;
};

struct mrc_tm_plane {
	__u64	tx_pkts;
	__u64	tx_bytes;
	__u64	retx_pkts;
	__u64	acked_pkts;
	__u64	losses;
	__u64	nacks;
	__u64	rx_pkts;
	__u64	rx_bytes;
	__u64	rx_ce;
	__u64	rtt_samples;
	__u64	rtt_sum_us;
	__u64	rtt_hist[MRC_TM_RTT_BUCKETS];	/* log2 buckets, see above */
	__u64	last_ack_ns;	/* detector: last ACK of any path of the plane */
	__u64	burst_start_ns;	/* unused */
	__u32	burst_losses;	/* losses since the plane's last ACK */
	__u32	alarms;
	__u64	last_alarm_ns;
};

/* Map "mrc_links": UDP packets to/from MRC ports seen by tc on a netdev. */
struct mrc_tm_link_key {
	__u32	netns;
	__u32	ifindex;
};

struct mrc_tm_link {
	__u64	tx_pkts;
	__u64	tx_bytes;
	__u64	rx_pkts;
	__u64	rx_bytes;
	__u64	last_tx_ns;
	__u64	last_rx_ns;
};

/* Detector thresholds: map "mrc_tm_config", one entry per netns. */
struct mrc_tm_config {
	__u32	burst_losses;	/* this many losses within burst_window_ns */
	__u32	plane_burst_losses; /* the same over all paths of a plane */
	__u64	burst_window_ns;
	__u64	ack_timeout_ns;	/* sends but no ACK for this long */
	__u64	alarm_gap_ns;	/* at most one alarm per path this often */
	__u64	plane_dark_ns;	/* a path or plane loss burst alarms only
				 * after this long without an ACK there
				 * while other paths were acked (a host
				 * stall silences all of them at once)
				 */
};

#define MRC_TM_DEFAULT_BURST_LOSSES	3
#define MRC_TM_DEFAULT_PLANE_BURST_LOSSES 8
#define MRC_TM_DEFAULT_BURST_WINDOW_NS	(50ULL * 1000 * 1000)
#define MRC_TM_DEFAULT_ACK_TIMEOUT_NS	(200ULL * 1000 * 1000)
#define MRC_TM_DEFAULT_ALARM_GAP_NS	(100ULL * 1000 * 1000)
#define MRC_TM_DEFAULT_PLANE_DARK_NS	(100ULL * 1000 * 1000)

enum mrc_tm_alarm_kind {
	MRC_TM_ALARM_LOSS_BURST = 1,	/* burst_losses within the window */
	MRC_TM_ALARM_TIMEOUT,		/* a retransmission timeout, and no
					 * ACK on the path for ack_timeout
					 */
	MRC_TM_ALARM_NO_ACK,		/* sending, nothing acked for too long */
	MRC_TM_ALARM_EV_STATE,		/* the module changed the EV's state */
	MRC_TM_ALARM_PLANE_LOSS_BURST,	/* plane_burst_losses on one plane
					 * and no ACK from it for
					 * plane_dark_ns while the other
					 * planes were acked within the last
					 * quarter of that time (ev: the
					 * path of the last loss)
					 */
};

/* Ring buffer "mrc_alarms": one record per alarm, with its evidence. */
struct mrc_tm_alarm {
	__u64	time_ns;	/* bpf_ktime_get_ns() (CLOCK_MONOTONIC) */
	__u32	kind;		/* enum mrc_tm_alarm_kind */
	__u32	netns;
	__u32	conn;
	__u32	ev;
	__u32	plane;
	__u32	state;		/* EV state (EV_STATE alarms) */
	__u32	burst_losses;	/* losses in the current window (of the
				 * plane for PLANE_LOSS_BURST)
				 */
	__u32	pad;
	__u64	since_ack_ns;	/* time since this path's last ACK, or 0 */
	__u64	tx_pkts;	/* path counters at the time of the alarm */
	__u64	losses;
};

#endif /* _UAPI_LINUX_MRC_TELEMETRY_H */
