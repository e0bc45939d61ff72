/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc's side of NIC offload (registry.c): the registry of offload devices
 * (include/net/mrc_offload.h is the driver's side), which plane each one
 * serves, and the bindings of connections to devices.
 *
 * Locking: mrc_offload_lock (a mutex in registry.c) guards the registry,
 * every plane <-> device association (mrc_plane.offload, the device's
 * plane), the binding lists and every process-context hook call. Order:
 * rtnl_lock, mrc_net.lock, mrc_offload_lock, a connection's spinlock.
 * The data path reads associations and bindings under RCU.
 */
#ifndef __MRC_OFFLOAD_H
#define __MRC_OFFLOAD_H

#include <linux/rcupdate.h>
#include <linux/types.h>
#include <linux/mrc_netlink.h>

struct mrc_conn;
struct mrc_core_plane;
struct mrc_net;
struct mrc_offload_binding;
struct mrc_plane;
struct mrc_plane_cfg;
struct net_device;
struct netlink_ext_ack;
struct sk_buff;

/*
 * A connection's bindings, one slot a plane; allocated at the first
 * binding, freed with the connection. Slots: RCU readers (TX, EV state
 * changes), written under mrc_offload_lock.
 */
struct mrc_conn_offload {
	struct mrc_offload_binding __rcu	*plane[MRC_MAX_PLANES];
};

/* A failure to name in an offload event. */
struct mrc_offload_note {
	const char	*hook;
	int		err;
};

/* Plane life cycle (mrc_net.lock held). */
int mrc_offload_plane_check(struct net_device *dev,
			    const struct mrc_plane_cfg *cfg,
			    struct netlink_ext_ack *extack);
void mrc_offload_plane_apply(struct mrc_plane *pl);
void mrc_offload_plane_del(struct mrc_plane *pl);
int mrc_offload_fill(struct sk_buff *skb, const struct mrc_plane *pl,
		     bool with_stats);
int __mrc_offload_fill(struct sk_buff *skb, const struct mrc_plane *pl,
		       bool with_stats, const char *hook, int err);

/* Connections. */
void mrc_offload_conn_established(struct mrc_conn *conn);
void mrc_offload_conn_ev_changed(struct mrc_conn *conn, u32 idx);
void mrc_offload_conn_release(struct mrc_conn *conn);

/* Data path, under RCU with BHs off. */
struct mrc_offload_binding *mrc_offload_tx_binding(struct mrc_conn *conn,
						   u32 plane);
int mrc_offload_xmit(struct mrc_offload_binding *b, struct mrc_plane *pl,
		     struct sk_buff *skb, __be32 saddr,
		     const struct mrc_core_plane *peer, u32 ev, u8 ecn);

int mrc_offload_init(void);
void mrc_offload_exit(void);

#endif /* __MRC_OFFLOAD_H */
