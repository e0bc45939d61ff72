/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC offload API: how a NIC driver plugs into the mrc module.
 *
 * A driver registers an ops table for a netdev. A plane on that netdev
 * whose offload mode is not OFF (enum mrc_offload_mode) then steers its UDP
 * port to the device, programs the CC profiles its connections use, and
 * sets each established connection up on the device with its EV table.
 * The protocol core in mrc.ko stays the owner of every byte: it keeps each
 * packet until it is acknowledged, so whatever the device refuses, loses or
 * takes down with it is sent again in software. Documentation/offload.rst
 * has the full contract; the short form is here, next to each hook.
 *
 * Contexts and locks
 *   P  process context, may sleep; mrc holds its offload mutex
 *      (mrc_offload_lock), so P hooks of all devices are serialised
 *      and never run concurrently with register/unregister.
 *   A  atomic: BHs off, under the connection's spinlock and RCU; must not
 *      sleep. Runs concurrently with other A hooks of other connections.
 *
 * Lifetime
 *   A connection handle (*handle from conn_add) stays valid until conn_del
 *   returns; mrc calls conn_del exactly once for every successful conn_add,
 *   also after an error or reset report, and before unregister returns.
 *   After mrc_offload_unregister() returns, mrc calls no hook of the device
 *   again and holds no reference to it: the driver may free everything.
 *
 * Version: MRC_OFFLOAD_API_VERSION grows when a hook is added or changes
 * meaning; mrc refuses a driver built for a version it does not know.
 */
#ifndef __NET_MRC_OFFLOAD_H
#define __NET_MRC_OFFLOAD_H

#include <linux/mrc_netlink.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/types.h>

#define MRC_OFFLOAD_API_VERSION	1

struct mrc_offload_dev;

/* What the device can do; filled by the caps hook. */
struct mrc_offload_caps {
	u32	features;	/* enum mrc_offload_feature bits */
	u32	ev_table_size;	/* EVs of one connection on this plane */
	u32	max_conns;	/* connections the device holds */
	u32	cc_algos;	/* enum mrc_offload_cc_algo bits */
	u32	max_segment;	/* largest segmented send, 0 = none */
};

/* A CC profile as the device runs it (NSCC; units as enum mrc_nscc_attr). */
struct mrc_offload_cc {
	u32	profile;	/* CC profile id, 0 = the default profile */
	u32	algo;		/* one enum mrc_offload_cc_algo bit */
	u32	base_rtt_ns;
	u32	target_delay_ns;
	u32	max_cwnd;
};

/* One connection to set up on the device. */
struct mrc_offload_conn {
	u32	conn_id;	/* local token: the id mrcctl shows */
	u32	peer_token;
	u32	plane;		/* mrc plane id of this device */
	u32	cc_profile;	/* programmed before conn_add */
	u32	nevs;		/* EVs of the connection on this plane */
	__be32	peer_addr4;	/* 0 when the peer is IPv6-only */
	u16	peer_udp_port;
};

/* How to send one packet handed off by xmit. */
struct mrc_offload_tx {
	__be32	saddr;
	__be32	daddr;
	u16	sport;		/* the EV: the fabric's ECMP hashes it */
	u16	dport;
	u8	ecn;		/* INET_ECN_* for the outer header */
};

/* Counters the device keeps; read back by the stats hook. */
struct mrc_offload_stats {
	u64	tx_pkts;
	u64	tx_bytes;
	u64	rx_pkts;
	u64	rx_bytes;
	u64	errors;
};

struct mrc_offload_ops {
	u32	version;	/* MRC_OFFLOAD_API_VERSION built against */
	const char *driver;	/* shown by mrcctl plane show */

	/* P: what the device can do. Called once at register and again
	 * after a reset.
	 */
	int	(*caps)(struct net_device *dev, struct mrc_offload_caps *caps);
	/* P: deliver received UDP packets to @port on this device to
	 * mrc_offload_rx() (on), or stop doing so (off). Off cannot fail.
	 * Version 1 steers one port a device at a time (one plane).
	 */
	int	(*rx_steer)(struct net_device *dev, u16 port, bool on);
	/* P: (re)program a CC profile before connections use it. */
	int	(*cc_program)(struct net_device *dev,
			      const struct mrc_offload_cc *cc);
	/* P: set a connection up; its EVs follow through ev_program. */
	int	(*conn_add)(struct net_device *dev,
			    const struct mrc_offload_conn *conn, void **handle);
	/* A: write EV table slot @slot (0 .. nevs - 1) of a connection:
	 * entropy value @ev in state @state (enum mrc_ev_state). Called for
	 * every slot after conn_add, then on every EV state change, under
	 * the connection's spinlock. An error on a state change fails the
	 * device (its table is stale).
	 */
	int	(*ev_program)(struct net_device *dev, void *handle, u32 slot,
			      u32 ev, u8 state);
	/* P: take a connection down. Cannot fail. */
	void	(*conn_del)(struct net_device *dev, void *handle);
	/* A: send @skb (data at the MRC header, headroom for IP and UDP) as
	 * @tx says. 0: the device owns @skb. An error: @skb is untouched,
	 * mrc sends it in software and fails the device (every connection
	 * to software until a RESET report). A device that lost a
	 * connection's state may drop the packet and return 0: the core
	 * retransmits it.
	 */
	int	(*xmit)(struct net_device *dev, void *handle, struct sk_buff *skb,
			const struct mrc_offload_tx *tx);
	/* P: read counters, of one connection or (@handle NULL) the device. */
	int	(*stats)(struct net_device *dev, void *handle,
			 struct mrc_offload_stats *stats);
};

/*
 * Driver -> mrc reports (mrc_offload_report).
 * ERROR: the device failed; mrc moves every connection to software and
 *	uses the device again only after a RESET.
 * RESET: the device reset and lost its state; its connections move to
 *	software, new ones are offloaded again.
 */
enum mrc_offload_report {
	MRC_OFFLOAD_REPORT_ERROR,
	MRC_OFFLOAD_REPORT_RESET,
};

/* P, RTNL may be held: offer offload for @dev. ERR_PTR on failure. */
struct mrc_offload_dev *mrc_offload_register(struct net_device *dev,
					     const struct mrc_offload_ops *ops);
/* P, RTNL may be held: connections fall back to software; no hook is
 * called after this returns. Stop calling mrc_offload_rx() and
 * mrc_offload_report() first (netdev_rx_handler_unregister() waits for
 * the handlers in flight): @od is freed here.
 */
void mrc_offload_unregister(struct mrc_offload_dev *od);
/* Any context: report an error (@err: its errno) or a reset. */
void mrc_offload_report(struct mrc_offload_dev *od,
			enum mrc_offload_report what, int err);
/* Softirq (an rx_handler), RCU held: RX hand-off of one received MRC
 * packet. @skb->data is at the MRC header, its transport header is the
 * UDP header (checksum verified), @ce says the outer IP header was
 * CE-marked. Consumes @skb on 0; any error (-ENOENT: no plane of @od
 * has the UDP port) leaves @skb to the driver, for the normal stack.
 */
int mrc_offload_rx(struct mrc_offload_dev *od, struct sk_buff *skb, bool ce);

#endif /* __NET_MRC_OFFLOAD_H */
