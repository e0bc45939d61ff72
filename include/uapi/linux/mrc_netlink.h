/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MRC generic netlink API: family "mrc", version 1, multicast group
 * "events". Per network namespace. Documented in
 * mrc_netlink.yaml next to this header; keep the two in step.
 *
 * Objects and their nests:
 *   MRC_ATTR_INFO       module version, capabilities and limits
 *   MRC_ATTR_PLANE      a plane: one netdev + local addresses + UDP port
 *   MRC_ATTR_EV_PROFILE an entropy-value profile (OCP MRC EV profile)
 *   MRC_ATTR_CC_PROFILE a congestion-control profile (OCP MRC CC profile)
 *   MRC_ATTR_CONN       a connection
 *   MRC_ATTR_PATH       one EV of a connection (plane x entropy value)
 *   MRC_ATTR_STATS      counters: a list of (name, value) entries
 *   MRC_ATTR_PEER       a peer host: what its connections learned of the paths
 * Requests carry one object nest; replies, dumps and events carry the same
 * nest with every attribute filled in.
 */
#ifndef _UAPI_LINUX_MRC_NETLINK_H
#define _UAPI_LINUX_MRC_NETLINK_H

#include <linux/types.h>

#define MRC_GENL_NAME		"mrc"
#define MRC_GENL_VERSION	1
#define MRC_GENL_MCGRP_EVENTS	"events"

/* Software path defaults and limits (also reported by MRC_CMD_INFO_GET). */
#define MRC_DEFAULT_UDP_PORT	4797	/* RoCEv2's 4791 is left to rdma_rxe */
#define MRC_MAX_PLANES		16	/* per netns */
#define MRC_MAX_EV_PROFILES	16384	/* per netns */
#define MRC_MAX_EVS_PER_PROFILE	1024
#define MRC_MAX_CC_PROFILES	1024	/* per netns */
#define MRC_EV_MAX_BITS		16	/* EV values are 0 .. 2^16 - 1 */
#define MRC_PLANE_WEIGHT_MAX	1000
#define MRC_PLANE_WEIGHT_DEFAULT 100
#define MRC_PLANE_MTU_MIN	576	/* 0 means: follow the netdev's MTU */
#define MRC_PLANE_MTU_MAX	65535
#define MRC_CC_ALG_NSCC		"uet-1.0-nscc"	/* "nscc" is accepted as alias */

enum mrc_cmd {
	MRC_CMD_UNSPEC,
	MRC_CMD_INFO_GET,	/* do: -> INFO */
	MRC_CMD_PLANE_ADD,	/* do: PLANE{IFINDEX, [settable]} -> PLANE */
	MRC_CMD_PLANE_DEL,	/* do: PLANE{ID} */
	MRC_CMD_PLANE_GET,	/* do: PLANE{ID} -> PLANE; dump: all planes */
	MRC_CMD_PLANE_SET,	/* do: PLANE{ID, [settable but IFINDEX]} -> PLANE */
	MRC_CMD_EV_PROFILE_NEW,	/* do: EV_PROFILE{[ID] [config]} -> EV_PROFILE */
	MRC_CMD_EV_PROFILE_SET,	/* do: EV_PROFILE{ID, [STATE config EV_OP]} -> EV_PROFILE */
	MRC_CMD_EV_PROFILE_GET,	/* do: EV_PROFILE{ID} -> EV_PROFILE (+EVS); dump: all */
	MRC_CMD_EV_PROFILE_DEL,	/* do: EV_PROFILE{ID}; refused while ONLINE */
	MRC_CMD_CC_PROFILE_NEW,	/* do: CC_PROFILE{[ID] [config]} -> CC_PROFILE */
	MRC_CMD_CC_PROFILE_SET,	/* do: CC_PROFILE{ID, [STATE ALGORITHM NSCC]} -> CC_PROFILE */
	MRC_CMD_CC_PROFILE_GET,	/* do: CC_PROFILE{ID} -> CC_PROFILE; dump: all */
	MRC_CMD_CC_PROFILE_DEL,	/* do: CC_PROFILE{ID}; refused while ONLINE */
	MRC_CMD_CONN_GET,	/* do: CONN{ID} -> CONN; dump: all connections */
	MRC_CMD_PATH_GET,	/* dump: PATH{CONN_ID} -> one PATH per EV */
	MRC_CMD_PATH_SET,	/* do: PATH{CONN_ID, EV, STATE} */
	MRC_CMD_PATH_PROBE,	/* do: PATH{CONN_ID, EV}: probe now */
	MRC_CMD_STATS_GET,	/* dump: -> STATS (global), then PLANE{ID, STATS} a plane */
	MRC_CMD_PEER_GET,	/* dump: -> PEER, one a peer host the netns knows */

	__MRC_CMD_MAX
};

#define MRC_CMD_MAX (__MRC_CMD_MAX - 1)

/*
 * Events on the "events" group use these values as the genl command. Each
 * carries the object nest its dump would (PLANE, EV_PROFILE, CONN, PATH)
 * and MRC_ATTR_EVENT_REASON where one applies.
 */
enum mrc_event {
	MRC_EVENT_UNSPEC = 128,
	MRC_EVENT_PLANE_NEW,		/* PLANE, REASON */
	MRC_EVENT_PLANE_DEL,		/* PLANE, REASON */
	MRC_EVENT_PLANE_UP,		/* PLANE, REASON: usable (state up, link up) */
	MRC_EVENT_PLANE_DOWN,		/* PLANE, REASON: no longer usable */
	MRC_EVENT_PROFILE_STATE,	/* EV_PROFILE or CC_PROFILE, REASON: state
					 * changed
					 */
	MRC_EVENT_EV_STATE,		/* PATH (profile or connection EV), REASON
					 * (profile EVs)
					 */
	MRC_EVENT_CONN_ESTABLISHED,	/* CONN */
	MRC_EVENT_CONN_CLOSED,		/* CONN, REASON */
	MRC_EVENT_OFFLOAD,		/* PLANE (with OFFLOAD), REASON: the
					 * plane's offload changed state
					 */

	__MRC_EVENT_MAX
};

#define MRC_EVENT_MAX (__MRC_EVENT_MAX - 1)

enum mrc_event_reason {
	MRC_REASON_NONE,
	MRC_REASON_ADMIN,	/* changed by a netlink request */
	MRC_REASON_LINK,	/* the netdev went down or lost carrier */
	MRC_REASON_NETDEV_GONE,	/* the netdev was unregistered or moved */
	MRC_REASON_PEER,	/* the peer closed or reset */
	MRC_REASON_TIMEOUT,	/* retries exhausted */
	MRC_REASON_OFFLOAD_ATTACH,	/* an offload driver took the plane */
	MRC_REASON_OFFLOAD_ERROR,	/* a hook failed or the driver reported
					 * an error: connections fell back to
					 * software
					 */
	MRC_REASON_OFFLOAD_RESET,	/* the device reset: its connections
					 * fell back to software
					 */
	MRC_REASON_OFFLOAD_GONE,	/* the driver unregistered (unbind) */
};

enum mrc_attr {
	MRC_ATTR_UNSPEC,
	MRC_ATTR_INFO,		/* nest: enum mrc_info_attr */
	MRC_ATTR_PLANE,		/* nest: enum mrc_plane_attr */
	MRC_ATTR_EV_PROFILE,	/* nest: enum mrc_ev_profile_attr */
	MRC_ATTR_CC_PROFILE,	/* nest: enum mrc_cc_profile_attr */
	MRC_ATTR_CONN,		/* nest: enum mrc_conn_attr */
	MRC_ATTR_PATH,		/* nest: enum mrc_path_attr */
	MRC_ATTR_STATS,		/* nest: enum mrc_stats_attr */
	MRC_ATTR_EVENT_REASON,	/* u8: enum mrc_event_reason */
	MRC_ATTR_PAD,
	MRC_ATTR_PEER,		/* nest: enum mrc_peer_attr */

	__MRC_ATTR_MAX
};

#define MRC_ATTR_MAX (__MRC_ATTR_MAX - 1)

/* Capabilities (MRC_INFO_ATTR_CAPS), after the OCP control API's options. */
enum mrc_cap {
	MRC_CAP_EV_PROFILE_MODIFY_ONLINE = 1 << 0,
	MRC_CAP_CC_PROFILE_MODIFY_ONLINE = 1 << 1,
	MRC_CAP_EV_EVENT		 = 1 << 2,
	MRC_CAP_EV_EXPLICIT		 = 1 << 3,
	MRC_CAP_EV_GENERATED		 = 1 << 4,
	MRC_CAP_EV_PROBE		 = 1 << 6,
	MRC_CAP_IPV4			 = 1 << 16,
	MRC_CAP_IPV6			 = 1 << 17,
};

enum mrc_info_attr {
	MRC_INFO_ATTR_UNSPEC,
	MRC_INFO_ATTR_VERSION,		/* string: module version */
	MRC_INFO_ATTR_FAMILY,		/* u32: live AF_MRC number */
	MRC_INFO_ATTR_API_VERSION,	/* u32: MRC_GENL_VERSION */
	MRC_INFO_ATTR_CAPS,		/* u32: enum mrc_cap bits */
	MRC_INFO_ATTR_MAX_PLANES,	/* u32 */
	MRC_INFO_ATTR_MAX_EV_PROFILES,	/* u32 */
	MRC_INFO_ATTR_MAX_EVS,		/* u32: EVs per profile */
	MRC_INFO_ATTR_MAX_CC_PROFILES,	/* u32 */
	MRC_INFO_ATTR_EV_MAX_BITS,	/* u32 */
	MRC_INFO_ATTR_CC_ALGORITHMS,	/* nest: MRC_INFO_ATTR_CC_ALGORITHM strings */
	MRC_INFO_ATTR_CC_ALGORITHM,	/* string, inside CC_ALGORITHMS */

	__MRC_INFO_ATTR_MAX
};

#define MRC_INFO_ATTR_MAX (__MRC_INFO_ATTR_MAX - 1)

/* Administrative state of a plane. */
enum mrc_plane_state {
	MRC_PLANE_STATE_UP,		/* use it when its link is up */
	MRC_PLANE_STATE_DOWN,		/* do not use it */
	MRC_PLANE_STATE_DENIED,		/* do not use it, peers told not to */
};

/* Operational state of a plane's netdev. */
enum mrc_link_state {
	MRC_LINK_DOWN,
	MRC_LINK_UP,			/* IFF_UP and carrier */
};

enum mrc_plane_attr {
	MRC_PLANE_ATTR_UNSPEC,
	MRC_PLANE_ATTR_ID,		/* u32: 0 .. MRC_MAX_PLANES - 1 */
	MRC_PLANE_ATTR_IFINDEX,		/* u32: the plane's netdev */
	MRC_PLANE_ATTR_IFNAME,		/* string: reply only */
	MRC_PLANE_ATTR_ADDR4,		/* u32 (network order): local IPv4 */
	MRC_PLANE_ATTR_ADDR6,		/* binary[16]: local IPv6 */
	MRC_PLANE_ATTR_PORT,		/* u16: local UDP port (default 4797) */
	MRC_PLANE_ATTR_STATE,		/* u8: enum mrc_plane_state */
	MRC_PLANE_ATTR_LINK,		/* u8: enum mrc_link_state, reply only */
	MRC_PLANE_ATTR_WEIGHT,		/* u32: 1 .. MRC_PLANE_WEIGHT_MAX */
	MRC_PLANE_ATTR_MTU,		/* u32: 0 or MTU_MIN .. MTU_MAX */
	MRC_PLANE_ATTR_STATS,		/* nest: enum mrc_stats_attr, reply only */
	MRC_PLANE_ATTR_PAD,
	MRC_PLANE_ATTR_OFFLOAD,		/* nest: enum mrc_offload_attr; requests
					 * carry MODE only
					 */

	__MRC_PLANE_ATTR_MAX
};

#define MRC_PLANE_ATTR_MAX (__MRC_PLANE_ATTR_MAX - 1)

/*
 * Offload of a plane to its NIC. A driver registers offload ops for a
 * netdev (include/net/mrc_offload.h); a plane on that netdev then sets up
 * its connections on the device unless its mode is OFF. Whatever the
 * device cannot do, refuses or loses falls back to the software path.
 * Documented in Documentation/offload.rst.
 */
enum mrc_offload_mode {
	MRC_OFFLOAD_AUTO,	/* offload when a driver offers it (default) */
	MRC_OFFLOAD_OFF,	/* software only */
	MRC_OFFLOAD_ON,		/* offload required: setting it on a netdev
				 * without an offload driver is refused
				 */
};

enum mrc_offload_state {
	MRC_OFFLOAD_STATE_NONE,		/* software: no driver, or mode OFF */
	MRC_OFFLOAD_STATE_ACTIVE,	/* new connections go to the device */
	MRC_OFFLOAD_STATE_FAILED,	/* the device reported an error: software
					 * until the driver reports a reset
					 */
};

/* What a device can do (MRC_OFFLOAD_ATTR_FEATURES). */
enum mrc_offload_feature {
	MRC_OFFLOAD_F_TX	= 1 << 0,	/* takes MRC packets to encapsulate
						 * and send (TX hand-off)
						 */
	MRC_OFFLOAD_F_RX	= 1 << 1,	/* steers received MRC packets to
						 * MRC (RX hand-off)
						 */
	MRC_OFFLOAD_F_ACK_GEN	= 1 << 2,	/* generates ACKs */
	MRC_OFFLOAD_F_NACK_GEN	= 1 << 3,	/* generates NACKs for trimmed
						 * packets
						 */
	MRC_OFFLOAD_F_TRIM	= 1 << 4,	/* understands trimmed packets */
	MRC_OFFLOAD_F_SEGMENT	= 1 << 5,	/* segments large sends */
	MRC_OFFLOAD_F_IPV6	= 1 << 6,	/* all of the above over IPv6 */
};

/* Congestion control algorithms a device runs (MRC_OFFLOAD_ATTR_CC_ALGOS). */
enum mrc_offload_cc_algo {
	MRC_OFFLOAD_CC_NSCC	= 1 << 0,	/* MRC_CC_ALG_NSCC */
};

enum mrc_offload_attr {
	MRC_OFFLOAD_ATTR_UNSPEC,
	MRC_OFFLOAD_ATTR_MODE,		/* u8: enum mrc_offload_mode */
	MRC_OFFLOAD_ATTR_STATE,		/* u8: enum mrc_offload_state */
	MRC_OFFLOAD_ATTR_DRIVER,	/* string: the driver's name */
	MRC_OFFLOAD_ATTR_API_VERSION,	/* u32: MRC_OFFLOAD_API_VERSION the
					 * driver was built for
					 */
	MRC_OFFLOAD_ATTR_FEATURES,	/* u32: enum mrc_offload_feature bits */
	MRC_OFFLOAD_ATTR_EV_TABLE_SIZE,	/* u32: EVs per connection */
	MRC_OFFLOAD_ATTR_MAX_CONNS,	/* u32: connections the device holds */
	MRC_OFFLOAD_ATTR_CC_ALGOS,	/* u32: enum mrc_offload_cc_algo bits */
	MRC_OFFLOAD_ATTR_MAX_SEGMENT,	/* u32: largest segmented send, 0 = none */
	MRC_OFFLOAD_ATTR_CONNS,		/* u32: connections on the device now */
	MRC_OFFLOAD_ATTR_HOOK,		/* string: the hook that failed (events) */
	MRC_OFFLOAD_ATTR_ERROR,		/* u32: its errno (events) */
	MRC_OFFLOAD_ATTR_STATS,		/* nest: enum mrc_stats_attr, the device's
					 * own counters read back
					 */

	__MRC_OFFLOAD_ATTR_MAX
};

#define MRC_OFFLOAD_ATTR_MAX (__MRC_OFFLOAD_ATTR_MAX - 1)

/* Profile life cycle, from the OCP MRC control API. */
enum mrc_profile_state {
	MRC_PROFILE_INIT,	/* created, not configured */
	MRC_PROFILE_OFFLINE,	/* configured, not usable, modifiable */
	MRC_PROFILE_ONLINE,	/* usable; only limited changes */
};

enum mrc_ev_mode {
	MRC_EV_MODE_AUTO,	/* the module picks EVs per connection */
	MRC_EV_MODE_EXPLICIT,	/* the administrator lists every EV */
	MRC_EV_MODE_GENERATED,	/* the module generates EVs from a seed */
};

/* EV (path) states. Event masks use bit (1 << state). */
enum mrc_ev_state {
	MRC_EV_GOOD,		/* in rotation */
	MRC_EV_SKIP,		/* out for one rotation (ECN-heavy SACK, trim) */
	MRC_EV_ASSUMED_BAD,	/* out until probes succeed */
	MRC_EV_DENIED,		/* out by the administrator */
	MRC_EV_UNPOPULATED,	/* explicit profile slot not filled yet */
};

enum mrc_ev_profile_attr {
	MRC_EV_PROFILE_ATTR_UNSPEC,
	MRC_EV_PROFILE_ATTR_ID,		/* u32: 1 .. MRC_MAX_EV_PROFILES */
	MRC_EV_PROFILE_ATTR_STATE,	/* u8: enum mrc_profile_state (target on SET) */
	MRC_EV_PROFILE_ATTR_MODE,	/* u8: enum mrc_ev_mode */
	MRC_EV_PROFILE_ATTR_EV_COUNT,	/* u32: 1 .. MRC_MAX_EVS_PER_PROFILE */
	MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE, /* u32: <= EV_COUNT */
	MRC_EV_PROFILE_ATTR_EVENT_MASK,	/* u32: bits (1 << enum mrc_ev_state),
					 * GOOD .. DENIED
					 */
	MRC_EV_PROFILE_ATTR_SEED,	/* u32: generated mode seed */
	MRC_EV_PROFILE_ATTR_EVS,	/* nest: MRC_EV_PROFILE_ATTR_EV entries */
	MRC_EV_PROFILE_ATTR_EV,		/* nest: enum mrc_ev_attr */
	MRC_EV_PROFILE_ATTR_USERS,	/* u32: connections using it, reply only */

	__MRC_EV_PROFILE_ATTR_MAX
};

#define MRC_EV_PROFILE_ATTR_MAX (__MRC_EV_PROFILE_ATTR_MAX - 1)

/*
 * One EV. In EV_PROFILE_SET: with EVS, explicit EVs to store (slot INDEX
 * gets VALUE on PLANE); with a single EV{VALUE, [PLANE], STATE}, an EV
 * state change (MODIFY_EV_STATE of the OCP API).
 */
enum mrc_ev_attr {
	MRC_EV_ATTR_UNSPEC,
	MRC_EV_ATTR_INDEX,		/* u32: slot in the profile's EV array */
	MRC_EV_ATTR_VALUE,		/* u32: entropy value, < 2^MRC_EV_MAX_BITS */
	MRC_EV_ATTR_PLANE,		/* u32: plane id */
	MRC_EV_ATTR_STATE,		/* u8: enum mrc_ev_state */

	__MRC_EV_ATTR_MAX
};

#define MRC_EV_ATTR_MAX (__MRC_EV_ATTR_MAX - 1)

enum mrc_cc_profile_attr {
	MRC_CC_PROFILE_ATTR_UNSPEC,
	MRC_CC_PROFILE_ATTR_ID,		/* u32: 1 .. MRC_MAX_CC_PROFILES */
	MRC_CC_PROFILE_ATTR_STATE,	/* u8: enum mrc_profile_state (target on SET) */
	MRC_CC_PROFILE_ATTR_ALGORITHM,	/* string: MRC_CC_ALG_NSCC */
	MRC_CC_PROFILE_ATTR_NSCC,	/* nest: enum mrc_nscc_attr */
	MRC_CC_PROFILE_ATTR_USERS,	/* u32: connections using it, reply only */

	__MRC_CC_PROFILE_ATTR_MAX
};

#define MRC_CC_PROFILE_ATTR_MAX (__MRC_CC_PROFILE_ATTR_MAX - 1)

/*
 * NSCC parameters (UET 1.0). Times in ns, sizes in bytes; the OCP API's
 * float gains are carried as parts per million (eta 0.15 -> 150000).
 */
enum mrc_nscc_attr {
	MRC_NSCC_ATTR_UNSPEC,
	MRC_NSCC_ATTR_BASE_RTT,		/* u32 ns */
	MRC_NSCC_ATTR_TARGET_DELAY,	/* u32 ns, >= BASE_RTT */
	MRC_NSCC_ATTR_MAX_CWND,		/* u32 bytes */
	MRC_NSCC_ATTR_ETA,		/* u32 ppm */
	MRC_NSCC_ATTR_FI,		/* u32 ppm */
	MRC_NSCC_ATTR_FI_SCALE,		/* u32 ppm */
	MRC_NSCC_ATTR_GAMMA,		/* u32 ppm */
	MRC_NSCC_ATTR_MAX_MD_JUMP,	/* u32 ppm, <= 1000000 */
	MRC_NSCC_ATTR_QA_GATE,		/* u8 */
	MRC_NSCC_ATTR_QA_THRESHOLD,	/* u32 ns */
	MRC_NSCC_ATTR_DISABLE_QA,	/* u8: 0 or 1 */
	MRC_NSCC_ATTR_ADJUST_BYTES,	/* u32 bytes */
	MRC_NSCC_ATTR_ADJUST_PERIOD,	/* u32 ns */

	__MRC_NSCC_ATTR_MAX
};

#define MRC_NSCC_ATTR_MAX (__MRC_NSCC_ATTR_MAX - 1)

enum mrc_conn_state {
	MRC_CONN_CLOSED,
	MRC_CONN_CONNECTING,
	MRC_CONN_ESTABLISHED,
	MRC_CONN_CLOSING,
};

enum mrc_conn_attr {
	MRC_CONN_ATTR_UNSPEC,
	MRC_CONN_ATTR_ID,		/* u32 */
	MRC_CONN_ATTR_STATE,		/* u8: enum mrc_conn_state */
	MRC_CONN_ATTR_LOCAL_PORT,	/* u16: service port */
	MRC_CONN_ATTR_PEER_PORT,	/* u16 */
	MRC_CONN_ATTR_PEER_ADDR4,	/* u32 (network order) */
	MRC_CONN_ATTR_PEER_ADDR6,	/* binary[16] */
	MRC_CONN_ATTR_EV_PROFILE,	/* u32: profile id, 0 = default */
	MRC_CONN_ATTR_CC_PROFILE,	/* u32: profile id, 0 = default */
	MRC_CONN_ATTR_STATS,		/* nest: enum mrc_stats_attr */
	MRC_CONN_ATTR_PAD,

	__MRC_CONN_ATTR_MAX
};

#define MRC_CONN_ATTR_MAX (__MRC_CONN_ATTR_MAX - 1)

enum mrc_path_attr {
	MRC_PATH_ATTR_UNSPEC,
	MRC_PATH_ATTR_CONN_ID,		/* u32 (0 in profile EV events) */
	MRC_PATH_ATTR_EV_PROFILE,	/* u32: set in profile EV events */
	MRC_PATH_ATTR_EV,		/* u32: entropy value */
	MRC_PATH_ATTR_PLANE,		/* u32: plane id */
	MRC_PATH_ATTR_STATE,		/* u8: enum mrc_ev_state */
	MRC_PATH_ATTR_PROBING,		/* flag: a probe is outstanding */
	MRC_PATH_ATTR_RTT_US,		/* u32: smoothed RTT */
	MRC_PATH_ATTR_STATS,		/* nest: enum mrc_stats_attr */
	MRC_PATH_ATTR_PAD,

	__MRC_PATH_ATTR_MAX
};

#define MRC_PATH_ATTR_MAX (__MRC_PATH_ATTR_MAX - 1)

/*
 * A peer host of the namespace's peer table (net.mrc.peer_paths): what
 * its connections learned of the paths there, which the next connection
 * to it starts from (docs/architecture.md). An entry no connection
 * holds lingers a minute.
 */
enum mrc_peer_attr {
	MRC_PEER_ATTR_UNSPEC,
	MRC_PEER_ATTR_ADDR4,		/* u32 (network order): a plane address;
					 * one attribute an address
					 */
	MRC_PEER_ATTR_ADDR6,		/* binary[16]: likewise */
	MRC_PEER_ATTR_CONNS,		/* u32: connections holding the entry */
	MRC_PEER_ATTR_IDLE_MS,		/* u32: ms since the last let go
					 * (only when none holds it)
					 */
	MRC_PEER_ATTR_EVS,		/* u32: EVs learned (0: nothing yet) */
	MRC_PEER_ATTR_PLANES,		/* u32: bit p, plane p both ends had */
	MRC_PEER_ATTR_EVS_BAD,		/* u32: of the EVs, those found bad */
	MRC_PEER_ATTR_BAD_EVS,		/* binary: struct mrc_peer_ev[], the bad
					 * EVs (packed: 256 of them fit a
					 * dump message of one page)
					 */

	__MRC_PEER_ATTR_MAX
};

#define MRC_PEER_ATTR_MAX (__MRC_PEER_ATTR_MAX - 1)

/* One EV of MRC_PEER_ATTR_BAD_EVS. */
struct mrc_peer_ev {
	__u16	ev;			/* entropy value */
	__u8	plane;			/* plane id */
	__u8	state;			/* enum mrc_ev_state */
};

/*
 * Counters are self-describing, like ethtool's: a STATS nest holds one
 * ENTRY nest per counter with its stable NAME and VALUE. Names are the
 * kernel's (kernel/mib.c) and never change meaning.
 */
enum mrc_stats_attr {
	MRC_STATS_ATTR_UNSPEC,
	MRC_STATS_ATTR_ENTRY,		/* nest: NAME + VALUE */
	MRC_STATS_ATTR_NAME,		/* string */
	MRC_STATS_ATTR_VALUE,		/* u64 */
	MRC_STATS_ATTR_PAD,

	__MRC_STATS_ATTR_MAX
};

#define MRC_STATS_ATTR_MAX (__MRC_STATS_ATTR_MAX - 1)

#endif /* _UAPI_LINUX_MRC_NETLINK_H */
