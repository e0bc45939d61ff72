/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Planes: one netdev of the host in one independent network, with the
 * local addresses and UDP port MRC uses on it. Registry per netns.
 */
#ifndef __MRC_PLANE_H
#define __MRC_PLANE_H

#include <linux/in6.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/mrc_netlink.h>

#include "conn/udp.h"

struct mrc_net;
struct mrc_offload_dev;
struct netlink_ext_ack;

/* Local addresses, swapped whole under RCU so readers never see a mix. */
struct mrc_plane_addr {
	__be32			addr4;
	struct in6_addr		addr6;
	bool			has_addr4;
	bool			has_addr6;
	struct rcu_head		rcu;
};

enum mrc_plane_mib_field {
	MRC_PLANE_MIB_NUM = 0,
	MRC_PLANE_MIB_TXPKTS,		/* packets sent on this plane */
	MRC_PLANE_MIB_TXBYTES,		/* bytes sent on this plane */
	MRC_PLANE_MIB_RXPKTS,		/* packets received on this plane */
	MRC_PLANE_MIB_RXBYTES,		/* bytes received on this plane */
	MRC_PLANE_MIB_RXDROP,		/* received packets dropped */
	MRC_PLANE_MIB_LINKDOWN,		/* times the netdev went down */
	MRC_PLANE_MIB_OFFLOAD_TXPKTS,	/* packets the offload device sent */
	MRC_PLANE_MIB_OFFLOAD_TXFALLBACK, /* ... refused: sent in software */
	MRC_PLANE_MIB_OFFLOAD_RXPKTS,	/* packets the device handed up */
	MRC_PLANE_MIB_OFFLOAD_CONNS,	/* connections set up on the device */
	MRC_PLANE_MIB_OFFLOAD_CONNFAIL,	/* ... whose set-up failed: software */
	/* connections moved back to software (error, reset, unbind, mode off) */
	MRC_PLANE_MIB_OFFLOAD_FALLBACKS,
	MRC_PLANE_MIB_OFFLOAD_ERRORS,	/* hook failures and error reports */
	MRC_PLANE_MIB_TXTRAINS,		/* GSO skbs of several packets sent */
	MRC_PLANE_MIB_RXBATCHES,	/* GSO skbs received whole */
	MRC_PLANE_MIB_RXBATCHPKTS,	/* the packets they carried */
	__MRC_PLANE_MIB_MAX
};

#define MRC_PLANE_MIB_MAX __MRC_PLANE_MIB_MAX

struct mrc_plane_mib {
	unsigned long mibs[MRC_PLANE_MIB_MAX];
};

/*
 * struct mrc_plane - a plane.
 * @id:		index in mrc_net.planes[], fixed for the plane's life
 * @dev:	the netdev, referenced until the plane is freed
 * @addr:	local addresses; writers hold mrc_net.lock
 * @state:	enum mrc_plane_state, set by the administrator
 * @link:	enum mrc_link_state, follows @dev (written under RTNL)
 * @port:	local UDP port
 * @weight:	share of traffic relative to other planes
 * @mtu:	0 to follow @dev, else the MTU MRC uses
 * @offload_mode: enum mrc_offload_mode
 * @offload:	the offload device serving the plane, or NULL; written
 *		under mrc_offload_lock (offload.h)
 * @mib:	per-cpu counters
 * @socks:	UDP sockets bound to @port on @dev; replaced under
 *		mrc_net.lock, their user data (this plane) read by RX under RCU
 *
 * Scalars are written with WRITE_ONCE() under mrc_net.lock and read with
 * READ_ONCE() by RCU readers. The object is freed after a grace period
 * once it left mrc_net.planes[].
 */
struct mrc_plane {
	u32				id;
	struct net_device		*dev;
	netdevice_tracker		dev_tracker;
	struct mrc_plane_addr __rcu	*addr;
	u8				state;
	u8				link;
	u16				port;
	u32				weight;
	u32				mtu;
	u8				offload_mode;
	struct mrc_offload_dev __rcu	*offload;
	struct mrc_plane_mib __percpu	*mib;
	struct mrc_udp_socks		socks;
	struct rcu_head			rcu;
};

/* Requested plane settings; @set_* say which fields a request carries. */
struct mrc_plane_cfg {
	u32		id;
	int		ifindex;
	__be32		addr4;
	struct in6_addr	addr6;
	u16		port;
	u8		state;
	u32		weight;
	u32		mtu;
	u8		offload_mode;
	bool		set_id, set_addr4, set_addr6, set_port, set_state,
			set_weight, set_mtu, set_offload;
	struct nlattr	**tb;	/* request attributes, to name the bad one */
};

struct mrc_plane *__mrc_plane_get(struct mrc_net *mn, u32 id);
int __mrc_plane_add(struct mrc_net *mn, const struct mrc_plane_cfg *cfg,
		    struct mrc_plane **out, struct netlink_ext_ack *extack);
int __mrc_plane_set(struct mrc_net *mn, struct mrc_plane *pl,
		    const struct mrc_plane_cfg *cfg,
		    struct netlink_ext_ack *extack);
void __mrc_plane_del(struct mrc_net *mn, struct mrc_plane *pl);
bool mrc_plane_usable(const struct mrc_plane *pl);
u64 mrc_plane_mib_read(const struct mrc_plane *pl, int field);

/* Adds @n to counter @field of @pl (any context: per-cpu). */
static inline void mrc_plane_mib_add(struct mrc_plane *pl, int field, u64 n)
{
	this_cpu_add(pl->mib->mibs[field], n);
}

const char *mrc_plane_mib_name(int field);

void mrc_plane_flush(struct mrc_net *mn);
int mrc_plane_init(void);
void mrc_plane_exit(void);

#endif /* __MRC_PLANE_H */
