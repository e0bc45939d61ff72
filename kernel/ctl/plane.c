// SPDX-License-Identifier: GPL-2.0
/*
 * Plane registry of a netns: add, change and remove planes, and keep each
 * plane in step with its netdev (NETDEV_UP/DOWN/CHANGE set the link state,
 * NETDEV_UNREGISTER removes the plane and drops the device reference).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/netlink.h>

#include "pernet.h"
#include "ctl/plane.h"
#include "ctl/netlink.h"
#include "conn/conn.h"
#include "offload/offload.h"

static const char * const mrc_plane_mib_names[MRC_PLANE_MIB_MAX] = {
	[MRC_PLANE_MIB_TXPKTS]		= "PlaneTxPkts",
	[MRC_PLANE_MIB_TXBYTES]		= "PlaneTxBytes",
	[MRC_PLANE_MIB_RXPKTS]		= "PlaneRxPkts",
	[MRC_PLANE_MIB_RXBYTES]		= "PlaneRxBytes",
	[MRC_PLANE_MIB_RXDROP]		= "PlaneRxDrop",
	[MRC_PLANE_MIB_LINKDOWN]	= "PlaneLinkDown",
	[MRC_PLANE_MIB_OFFLOAD_TXPKTS]	= "OffloadTxPkts",
	[MRC_PLANE_MIB_OFFLOAD_TXFALLBACK] = "OffloadTxFallback",
	[MRC_PLANE_MIB_OFFLOAD_RXPKTS]	= "OffloadRxPkts",
	[MRC_PLANE_MIB_OFFLOAD_CONNS]	= "OffloadConns",
	[MRC_PLANE_MIB_OFFLOAD_CONNFAIL] = "OffloadConnFail",
	[MRC_PLANE_MIB_OFFLOAD_FALLBACKS] = "OffloadFallbacks",
	[MRC_PLANE_MIB_OFFLOAD_ERRORS]	= "OffloadErrors",
	[MRC_PLANE_MIB_TXTRAINS]	= "PlaneTxTrains",
	[MRC_PLANE_MIB_RXBATCHES]	= "PlaneRxBatches",
	[MRC_PLANE_MIB_RXBATCHPKTS]	= "PlaneRxBatchPkts",
};

const char *mrc_plane_mib_name(int field)
{
	return mrc_plane_mib_names[field];
}

u64 mrc_plane_mib_read(const struct mrc_plane *pl, int field)
{
	return MRC_MIB_FOLD(pl->mib, field);
}

/* called with mn->lock held */
struct mrc_plane *__mrc_plane_get(struct mrc_net *mn, u32 id)
{
	lockdep_assert_held(&mn->lock);
	if (id >= MRC_MAX_PLANES)
		return NULL;
	return rcu_dereference_protected(mn->planes[id],
					 lockdep_is_held(&mn->lock));
}

static u8 mrc_plane_link_of(const struct net_device *dev)
{
	return netif_running(dev) && netif_carrier_ok(dev) ?
	       MRC_LINK_UP : MRC_LINK_DOWN;
}

bool mrc_plane_usable(const struct mrc_plane *pl)
{
	return READ_ONCE(pl->state) == MRC_PLANE_STATE_UP &&
	       READ_ONCE(pl->link) == MRC_LINK_UP;
}

static void mrc_plane_free_rcu(struct rcu_head *head)
{
	struct mrc_plane *pl = container_of(head, struct mrc_plane, rcu);

	kfree(rcu_dereference_protected(pl->addr, 1));
	free_percpu(pl->mib);
	/* Dropped only now: RCU readers may still use pl->dev until here. */
	netdev_put(pl->dev, &pl->dev_tracker);
	kfree(pl);
}

/* Reject an address another plane of this netns already uses. */
static int mrc_plane_check_conflicts(struct mrc_net *mn,
				     const struct mrc_plane_cfg *cfg,
				     const struct mrc_plane *self,
				     struct netlink_ext_ack *extack)
{
	const struct mrc_plane_addr *a;
	struct mrc_plane *pl;
	u32 id;

	for (id = 0; id < MRC_MAX_PLANES; id++) {
		pl = __mrc_plane_get(mn, id);
		if (!pl || pl == self)
			continue;
		a = rcu_dereference_protected(pl->addr, 1);
		if (cfg->set_addr4 && a->has_addr4 && a->addr4 == cfg->addr4) {
			NL_SET_ERR_MSG_ATTR(extack, cfg->tb[MRC_PLANE_ATTR_ADDR4],
					    "address is already used by another plane");
			return -EEXIST;
		}
		if (cfg->set_addr6 && a->has_addr6 &&
		    ipv6_addr_equal(&a->addr6, &cfg->addr6)) {
			NL_SET_ERR_MSG_ATTR(extack, cfg->tb[MRC_PLANE_ATTR_ADDR6],
					    "address is already used by another plane");
			return -EEXIST;
		}
	}
	return 0;
}

static int mrc_plane_check_mtu(const struct mrc_plane_cfg *cfg,
			       const struct net_device *dev,
			       struct netlink_ext_ack *extack)
{
	if (cfg->set_mtu && cfg->mtu && cfg->mtu > READ_ONCE(dev->mtu)) {
		NL_SET_ERR_MSG_ATTR(extack, cfg->tb[MRC_PLANE_ATTR_MTU],
				    "MTU is larger than the device's MTU");
		return -EINVAL;
	}
	return 0;
}

/* New address set: @old with the changes of @cfg applied. */
static struct mrc_plane_addr *mrc_plane_addr_new(const struct mrc_plane_addr *old,
						 const struct mrc_plane_cfg *cfg)
{
	struct mrc_plane_addr *a = kzalloc(sizeof(*a), GFP_KERNEL);

	if (!a)
		return NULL;
	if (old)
		*a = *old;
	if (cfg->set_addr4) {
		a->addr4 = cfg->addr4;
		a->has_addr4 = true;
	}
	if (cfg->set_addr6) {
		a->addr6 = cfg->addr6;
		a->has_addr6 = true;
	}
	return a;
}

static int mrc_plane_pick_id(struct mrc_net *mn, const struct mrc_plane_cfg *cfg,
			     struct netlink_ext_ack *extack)
{
	u32 id;

	if (cfg->set_id) {
		if (__mrc_plane_get(mn, cfg->id)) {
			NL_SET_ERR_MSG_ATTR(extack, cfg->tb[MRC_PLANE_ATTR_ID],
					    "plane id is already in use");
			return -EEXIST;
		}
		return cfg->id;
	}
	for (id = 0; id < MRC_MAX_PLANES; id++)
		if (!__mrc_plane_get(mn, id))
			return id;
	NL_SET_ERR_MSG(extack, "all plane ids are in use");
	return -ENOSPC;
}

static struct mrc_plane *mrc_plane_alloc(struct net_device *dev,
					 const struct mrc_plane_cfg *cfg)
{
	struct mrc_plane_addr *addr;
	struct mrc_plane *pl;

	pl = kzalloc(sizeof(*pl), GFP_KERNEL);
	if (!pl)
		return NULL;
	pl->mib = alloc_percpu(struct mrc_plane_mib);
	if (!pl->mib)
		goto err_free_pl;
	addr = mrc_plane_addr_new(NULL, cfg);
	if (!addr)
		goto err_free_mib;
	RCU_INIT_POINTER(pl->addr, addr);

	pl->state = cfg->set_state ? cfg->state : MRC_PLANE_STATE_UP;
	pl->port = cfg->set_port ? cfg->port : MRC_DEFAULT_UDP_PORT;
	pl->weight = cfg->set_weight ? cfg->weight : MRC_PLANE_WEIGHT_DEFAULT;
	pl->mtu = cfg->set_mtu ? cfg->mtu : 0;
	pl->offload_mode = cfg->set_offload ? cfg->offload_mode :
			   MRC_OFFLOAD_AUTO;
	pl->link = mrc_plane_link_of(dev);
	pl->dev = dev;
	netdev_hold(dev, &pl->dev_tracker, GFP_KERNEL);
	return pl;

err_free_mib:
	free_percpu(pl->mib);
err_free_pl:
	kfree(pl);
	return NULL;
}

/* called with rtnl_lock() and mn->lock held */
int __mrc_plane_add(struct mrc_net *mn, const struct mrc_plane_cfg *cfg,
		    struct mrc_plane **out, struct netlink_ext_ack *extack)
{
	struct net_device *dev;
	struct mrc_plane *pl;
	int id, err;
	u32 i;

	ASSERT_RTNL();
	lockdep_assert_held(&mn->lock);

	dev = __dev_get_by_index(mn->net, cfg->ifindex);
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(extack, cfg->tb[MRC_PLANE_ATTR_IFINDEX],
				    "no such device in this network namespace");
		return -ENODEV;
	}
	if (dev->flags & IFF_LOOPBACK) {
		NL_SET_ERR_MSG_ATTR(extack, cfg->tb[MRC_PLANE_ATTR_IFINDEX],
				    "the loopback device cannot be a plane");
		return -EINVAL;
	}
	for (i = 0; i < MRC_MAX_PLANES; i++) {
		pl = __mrc_plane_get(mn, i);
		if (pl && pl->dev == dev) {
			NL_SET_ERR_MSG_ATTR(extack, cfg->tb[MRC_PLANE_ATTR_IFINDEX],
					    "device is already a plane");
			return -EEXIST;
		}
	}
	err = mrc_plane_check_conflicts(mn, cfg, NULL, extack);
	if (err)
		return err;
	err = mrc_plane_check_mtu(cfg, dev, extack);
	if (err)
		return err;
	err = mrc_offload_plane_check(dev, cfg, extack);
	if (err)
		return err;
	id = mrc_plane_pick_id(mn, cfg, extack);
	if (id < 0)
		return id;

	pl = mrc_plane_alloc(dev, cfg);
	if (!pl)
		return -ENOMEM;
	pl->id = id;
	err = mrc_udp_open(mn->net, pl, pl->port, &pl->socks);
	if (err) {
		NL_SET_ERR_MSG_ATTR(extack, cfg->tb[MRC_PLANE_ATTR_PORT],
				    "cannot bind the plane's UDP port on its device");
		mrc_plane_free_rcu(&pl->rcu);
		return err;
	}
	rcu_assign_pointer(mn->planes[id], pl);
	mrc_offload_plane_apply(pl);
	/* A plane added again under its old id comes back to connections. */
	if (mrc_plane_usable(pl))
		mrc_conn_plane_changed(mn, id, true);
	*out = pl;
	return 0;
}

/* called with mn->lock held */
int __mrc_plane_set(struct mrc_net *mn, struct mrc_plane *pl,
		    const struct mrc_plane_cfg *cfg,
		    struct netlink_ext_ack *extack)
{
	bool was_usable = mrc_plane_usable(pl);
	struct mrc_plane_addr *old, *addr;
	struct mrc_udp_socks socks;
	int err;

	lockdep_assert_held(&mn->lock);

	err = mrc_plane_check_conflicts(mn, cfg, pl, extack);
	if (err)
		return err;
	err = mrc_plane_check_mtu(cfg, pl->dev, extack);
	if (err)
		return err;
	err = mrc_offload_plane_check(pl->dev, cfg, extack);
	if (err)
		return err;

	if (cfg->set_port && cfg->port != pl->port) {
		err = mrc_udp_open(mn->net, pl, cfg->port, &socks);
		if (err) {
			NL_SET_ERR_MSG_ATTR(extack, cfg->tb[MRC_PLANE_ATTR_PORT],
					    "cannot bind the plane's UDP port on its device");
			return err;
		}
		swap(socks, pl->socks);
		mrc_udp_close(&socks);
	}
	if (cfg->set_addr4 || cfg->set_addr6) {
		old = rcu_dereference_protected(pl->addr,
						lockdep_is_held(&mn->lock));
		addr = mrc_plane_addr_new(old, cfg);
		if (!addr)
			return -ENOMEM;
		rcu_assign_pointer(pl->addr, addr);
		kfree_rcu(old, rcu);
	}
	if (cfg->set_state)
		WRITE_ONCE(pl->state, cfg->state);
	if (cfg->set_port)
		WRITE_ONCE(pl->port, cfg->port);
	if (cfg->set_weight && cfg->weight != pl->weight) {
		WRITE_ONCE(pl->weight, cfg->weight);
		mrc_conn_plane_weight(mn, pl->id, cfg->weight);
	}
	if (cfg->set_mtu)
		WRITE_ONCE(pl->mtu, cfg->mtu);
	if (cfg->set_offload)
		WRITE_ONCE(pl->offload_mode, cfg->offload_mode);
	mrc_offload_plane_apply(pl);
	if (was_usable != mrc_plane_usable(pl))
		mrc_conn_plane_changed(mn, pl->id, !was_usable);
	return 0;
}

/* called with mn->lock held; the plane is freed after a grace period */
void __mrc_plane_del(struct mrc_net *mn, struct mrc_plane *pl)
{
	lockdep_assert_held(&mn->lock);
	RCU_INIT_POINTER(mn->planes[pl->id], NULL);
	/* After the unpublish: see mrc_offload_plane_of(). */
	mrc_offload_plane_del(pl);
	mrc_udp_close(&pl->socks);
	mrc_conn_plane_changed(mn, pl->id, false);
	call_rcu(&pl->rcu, mrc_plane_free_rcu);
}

/* Remove every plane of a dying netns. */
void mrc_plane_flush(struct mrc_net *mn)
{
	struct mrc_plane *pl;
	u32 id;

	mutex_lock(&mn->lock);
	for (id = 0; id < MRC_MAX_PLANES; id++) {
		pl = __mrc_plane_get(mn, id);
		if (pl)
			__mrc_plane_del(mn, pl);
	}
	mutex_unlock(&mn->lock);
}

/* Link state follows the netdev; tell listeners when usability flips. */
static void __mrc_plane_link_changed(struct mrc_net *mn, struct mrc_plane *pl)
{
	bool was_usable = mrc_plane_usable(pl);
	u8 link = mrc_plane_link_of(pl->dev);

	if (link == pl->link)
		return;
	WRITE_ONCE(pl->link, link);
	if (link == MRC_LINK_DOWN)
		mrc_plane_mib_add(pl, MRC_PLANE_MIB_LINKDOWN, 1);
	if (was_usable == mrc_plane_usable(pl))
		return;
	mrc_nl_event_plane(mn, was_usable ? MRC_EVENT_PLANE_DOWN :
			   MRC_EVENT_PLANE_UP, pl, MRC_REASON_LINK);
	mrc_conn_plane_changed(mn, pl->id, !was_usable);
}

static int mrc_plane_netdev_event(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct mrc_net *mn = mrc_pernet(dev_net(dev));
	struct mrc_plane *pl;
	u32 id;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_UNREGISTER:
		break;
	default:
		return NOTIFY_DONE;
	}

	mutex_lock(&mn->lock);
	for (id = 0; id < MRC_MAX_PLANES; id++) {
		pl = __mrc_plane_get(mn, id);
		if (!pl || pl->dev != dev)
			continue;
		if (event == NETDEV_UNREGISTER) {
			mrc_mib_inc(mn->net, MRC_MIB_PLANENETDEVGONE);
			mrc_nl_event_plane(mn, MRC_EVENT_PLANE_DEL, pl,
					   MRC_REASON_NETDEV_GONE);
			__mrc_plane_del(mn, pl);
		} else {
			__mrc_plane_link_changed(mn, pl);
		}
	}
	mutex_unlock(&mn->lock);
	return NOTIFY_DONE;
}

static struct notifier_block mrc_plane_netdev_nb = {
	.notifier_call = mrc_plane_netdev_event,
};

int mrc_plane_init(void)
{
	return register_netdevice_notifier(&mrc_plane_netdev_nb);
}

void mrc_plane_exit(void)
{
	unregister_netdevice_notifier(&mrc_plane_netdev_nb);
}
