// SPDX-License-Identifier: GPL-2.0
/*
 * NIC offload: the registry drivers join (include/net/mrc_offload.h), the
 * association of a registered device with the plane on its netdev, and the
 * bindings that put a connection's traffic on a plane through the device.
 *
 * The protocol core keeps every packet until it is acknowledged, so the
 * device is only ever a faster way out and in: when a hook fails, the
 * device reports an error or a reset, or the driver unbinds, the affected
 * connections lose their bindings and carry on in software; what the
 * device had taken and not delivered is retransmitted by the core.
 *
 * Locking and lifetimes are in offload.h. A struct mrc_offload_dev lives
 * from mrc_offload_register() to mrc_offload_unregister(); bindings hold
 * a reference on their connection and go when the connection is killed,
 * when the device fails or unbinds, or when the plane goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/mrc_offload.h>
#include <net/netlink.h>

#include "pernet.h"
#include "conn/conn.h"
#include "ctl/netlink.h"
#include "offload/offload.h"
#include "offload/offload_priv.h"
#include "ctl/plane.h"

/* The registry, device <-> plane association and bindings (offload.h). */
DEFINE_MUTEX(mrc_offload_lock);
LIST_HEAD(mrc_offload_devs);
struct workqueue_struct *mrc_offload_wq;
atomic_t mrc_offload_planes = ATOMIC_INIT(0);

/* ---- events */

struct mrc_offload_event {
	const struct mrc_plane	*pl;
	const char		*hook;
	int			err;
};

static int mrc_offload_fill_event(struct sk_buff *skb, const void *obj)
{
	const struct mrc_offload_event *e = obj;

	return mrc_nl_fill_plane_note(skb, e->pl, e->hook, e->err);
}

/* Under mrc_offload_lock: the plane is alive while it has a device. */
static void mrc_offload_event(const struct mrc_plane *pl, u8 reason,
			      const char *hook, int err)
{
	struct mrc_offload_event e = { .pl = pl, .hook = hook, .err = err };

	mrc_nl_event_obj(mrc_pernet(dev_net(pl->dev)), MRC_EVENT_OFFLOAD,
			 reason, mrc_offload_fill_event, &e);
}

/* A hook failed in process context: count it and tell listeners. */
void mrc_offload_hook_failed(struct mrc_plane *pl, const char *hook, int err)
{
	mrc_plane_mib_add(pl, MRC_PLANE_MIB_OFFLOAD_ERRORS, 1);
	mrc_offload_event(pl, MRC_REASON_OFFLOAD_ERROR, hook, err);
}

/* ---- bindings */

void mrc_offload_binding_free(struct mrc_offload_binding *b)
{
	mrc_conn_put(b->conn);
	kfree(b->slot_of);
	kfree(b);
}

/* Unpublish every binding of @od; the caller waits for RCU, then frees. */
static void mrc_offload_unbind_all(struct mrc_offload_dev *od,
				   struct list_head *gone)
{
	struct mrc_offload_binding *b;
	struct mrc_conn_offload *co;

	lockdep_assert_held(&mrc_offload_lock);
	list_for_each_entry(b, &od->bindings, node) {
		co = rcu_dereference_protected(b->conn->offload,
					       lockdep_is_held(&mrc_offload_lock));
		RCU_INIT_POINTER(co->plane[b->pl->id], NULL);
		mrc_plane_mib_add(b->pl, MRC_PLANE_MIB_OFFLOAD_FALLBACKS, 1);
	}
	list_splice_init(&od->bindings, gone);
	od->nconns = 0;
}

/* After a grace period: no data-path call uses the bindings any more. */
static void mrc_offload_release_all(struct mrc_offload_dev *od,
				    struct list_head *gone)
{
	struct mrc_offload_binding *b, *tmp;

	lockdep_assert_held(&mrc_offload_lock);
	list_for_each_entry_safe(b, tmp, gone, node) {
		od->ops->conn_del(od->dev, b->handle);
		mrc_offload_binding_free(b);
	}
}

/* Move every connection of @od to software. */
static void mrc_offload_fall_back(struct mrc_offload_dev *od)
{
	LIST_HEAD(gone);

	mrc_offload_unbind_all(od, &gone);
	if (list_empty(&gone))
		return;
	synchronize_rcu();
	mrc_offload_release_all(od, &gone);
}

/* ---- plane association */

static struct mrc_offload_dev *mrc_offload_find(const struct net_device *dev)
{
	struct mrc_offload_dev *od;

	lockdep_assert_held(&mrc_offload_lock);
	list_for_each_entry(od, &mrc_offload_devs, node)
		if (od->dev == dev)
			return od;
	return NULL;
}

/* Steer @od's plane's UDP port to the device (RX hand-off). */
static int mrc_offload_steer(struct mrc_offload_dev *od)
{
	struct mrc_plane *pl = od->plane;
	u16 port = READ_ONCE(pl->port);
	int err;

	if (!(od->caps.features & MRC_OFFLOAD_F_RX))
		return 0;
	err = od->ops->rx_steer(od->dev, port, true);
	if (err) {
		od->failed = true;
		mrc_offload_hook_failed(pl, "rx_steer", err);
		return err;
	}
	od->steered_port = port;
	rcu_assign_pointer(od->rx_plane, pl);
	return 0;
}

static void mrc_offload_unsteer(struct mrc_offload_dev *od)
{
	if (!rcu_access_pointer(od->rx_plane))
		return;
	RCU_INIT_POINTER(od->rx_plane, NULL);
	od->ops->rx_steer(od->dev, od->steered_port, false);
	synchronize_rcu();	/* no mrc_offload_rx() on the plane after this */
}

/* Stop using @od: connections to software, RX back to the UDP stack. */
static void mrc_offload_stop(struct mrc_offload_dev *od)
{
	mrc_offload_fall_back(od);
	mrc_offload_unsteer(od);
}

static void mrc_offload_attach(struct mrc_offload_dev *od,
			       struct mrc_plane *pl)
{
	od->plane = pl;
	rcu_assign_pointer(pl->offload, od);
	atomic_inc(&mrc_offload_planes);
	if (!od->failed && !mrc_offload_steer(od))
		mrc_offload_event(pl, MRC_REASON_OFFLOAD_ATTACH, NULL, 0);
}

static void mrc_offload_detach(struct mrc_offload_dev *od, u8 reason)
{
	struct mrc_plane *pl = od->plane;

	if (!pl)
		return;
	mrc_offload_stop(od);
	RCU_INIT_POINTER(pl->offload, NULL);
	od->plane = NULL;
	atomic_dec(&mrc_offload_planes);
	if (reason)
		mrc_offload_event(pl, reason, NULL, 0);
}

/*
 * mrc_offload_plane_check - refuse offload mode ON for a netdev no driver
 * offloads. Process context, mrc_net.lock held.
 */
int mrc_offload_plane_check(struct net_device *dev,
			    const struct mrc_plane_cfg *cfg,
			    struct netlink_ext_ack *extack)
{
	bool found;

	if (!cfg->set_offload || cfg->offload_mode != MRC_OFFLOAD_ON)
		return 0;
	mutex_lock(&mrc_offload_lock);
	found = mrc_offload_find(dev);
	mutex_unlock(&mrc_offload_lock);
	if (found)
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, cfg->tb[MRC_PLANE_ATTR_OFFLOAD],
			    "offload on: no MRC offload driver is registered for this device");
	return -EOPNOTSUPP;
}

/*
 * mrc_offload_plane_apply - bring @pl's association in line with its
 * offload mode and port, after an add or a change. mrc_net.lock held.
 */
void mrc_offload_plane_apply(struct mrc_plane *pl)
{
	struct mrc_offload_dev *od;

	mutex_lock(&mrc_offload_lock);
	od = rcu_dereference_protected(pl->offload,
				       lockdep_is_held(&mrc_offload_lock));
	if (READ_ONCE(pl->offload_mode) == MRC_OFFLOAD_OFF) {
		if (od)
			mrc_offload_detach(od, MRC_REASON_ADMIN);
	} else if (!od) {
		od = mrc_offload_find(pl->dev);
		if (od && !od->plane)
			mrc_offload_attach(od, pl);
	} else if (rcu_access_pointer(od->rx_plane) &&
		   od->steered_port != READ_ONCE(pl->port)) {
		/* The port changed: steer the new one. */
		mrc_offload_unsteer(od);
		mrc_offload_steer(od);
	}
	mutex_unlock(&mrc_offload_lock);
}

/* The plane goes away: its device stops serving it. mrc_net.lock held. */
void mrc_offload_plane_del(struct mrc_plane *pl)
{
	struct mrc_offload_dev *od;

	mutex_lock(&mrc_offload_lock);
	od = rcu_dereference_protected(pl->offload,
				       lockdep_is_held(&mrc_offload_lock));
	if (od)
		mrc_offload_detach(od, MRC_REASON_NONE);
	mutex_unlock(&mrc_offload_lock);
}

/* ---- netlink */

static int mrc_offload_put_stats(struct sk_buff *skb,
				 const struct mrc_offload_dev *od)
{
	struct mrc_offload_stats st = {};
	struct nlattr *nest;

	if (od->ops->stats(od->dev, NULL, &st)) {
		this_cpu_inc(od->plane->mib->mibs[MRC_PLANE_MIB_OFFLOAD_ERRORS]);
		return 0;	/* no read-back this time; not an error */
	}
	nest = nla_nest_start(skb, MRC_OFFLOAD_ATTR_STATS);
	if (!nest ||
	    mrc_nl_put_stat(skb, "TxPkts", st.tx_pkts) ||
	    mrc_nl_put_stat(skb, "TxBytes", st.tx_bytes) ||
	    mrc_nl_put_stat(skb, "RxPkts", st.rx_pkts) ||
	    mrc_nl_put_stat(skb, "RxBytes", st.rx_bytes) ||
	    mrc_nl_put_stat(skb, "Errors", st.errors))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int mrc_offload_put_dev(struct sk_buff *skb,
			       const struct mrc_offload_dev *od)
{
	return nla_put_u8(skb, MRC_OFFLOAD_ATTR_STATE, od->failed ?
			  MRC_OFFLOAD_STATE_FAILED : MRC_OFFLOAD_STATE_ACTIVE) ||
	       nla_put_string(skb, MRC_OFFLOAD_ATTR_DRIVER, od->driver) ||
	       nla_put_u32(skb, MRC_OFFLOAD_ATTR_API_VERSION,
			   od->ops->version) ||
	       nla_put_u32(skb, MRC_OFFLOAD_ATTR_FEATURES, od->caps.features) ||
	       nla_put_u32(skb, MRC_OFFLOAD_ATTR_EV_TABLE_SIZE,
			   od->caps.ev_table_size) ||
	       nla_put_u32(skb, MRC_OFFLOAD_ATTR_MAX_CONNS,
			   od->caps.max_conns) ||
	       nla_put_u32(skb, MRC_OFFLOAD_ATTR_CC_ALGOS, od->caps.cc_algos) ||
	       nla_put_u32(skb, MRC_OFFLOAD_ATTR_MAX_SEGMENT,
			   od->caps.max_segment) ||
	       nla_put_u32(skb, MRC_OFFLOAD_ATTR_CONNS, od->nconns);
}

/*
 * __mrc_offload_fill - the OFFLOAD nest of @pl, mrc_offload_lock held.
 * With @with_stats the device's counters are read back (a P hook); @hook
 * and @err name a failure (events).
 */
int __mrc_offload_fill(struct sk_buff *skb, const struct mrc_plane *pl,
		       bool with_stats, const char *hook, int err)
{
	struct mrc_offload_dev *od;
	struct nlattr *nest;

	lockdep_assert_held(&mrc_offload_lock);
	od = rcu_dereference_protected(pl->offload,
				       lockdep_is_held(&mrc_offload_lock));
	nest = nla_nest_start(skb, MRC_PLANE_ATTR_OFFLOAD);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, MRC_OFFLOAD_ATTR_MODE, READ_ONCE(pl->offload_mode)) ||
	    (!od && nla_put_u8(skb, MRC_OFFLOAD_ATTR_STATE,
			       MRC_OFFLOAD_STATE_NONE)) ||
	    (od && mrc_offload_put_dev(skb, od)) ||
	    (od && with_stats && mrc_offload_put_stats(skb, od)) ||
	    (hook && (nla_put_string(skb, MRC_OFFLOAD_ATTR_HOOK, hook) ||
		      nla_put_u32(skb, MRC_OFFLOAD_ATTR_ERROR, -err)))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Process context, mrc_net.lock held (replies, dumps, plane events). */
int mrc_offload_fill(struct sk_buff *skb, const struct mrc_plane *pl,
		     bool with_stats)
{
	int err;

	mutex_lock(&mrc_offload_lock);
	err = __mrc_offload_fill(skb, pl, with_stats, NULL, 0);
	mutex_unlock(&mrc_offload_lock);
	return err;
}

/* ---- driver registration and reports */

/* Any context: queue a report; an ERROR overrides a pending RESET. */
void mrc_offload_queue_report(struct mrc_offload_dev *od, u8 what,
			      const char *hook, int err)
{
	unsigned long flags;

	spin_lock_irqsave(&od->report_lock, flags);
	if (!od->dead && (!od->report_pending ||
			  what == MRC_OFFLOAD_REPORT_ERROR)) {
		od->report_what = what;
		od->report_hook = hook;
		od->report_err = err;
		if (!od->report_pending)
			queue_work(mrc_offload_wq, &od->report_work);
		od->report_pending = true;
	}
	spin_unlock_irqrestore(&od->report_lock, flags);
}

/* The device failed: everything to software until a reset. */
static void mrc_offload_fail(struct mrc_offload_dev *od, const char *hook,
			     int err)
{
	mrc_offload_stop(od);
	od->failed = true;
	if (od->plane)
		mrc_offload_hook_failed(od->plane, hook, err);
}

/* The device reset and lost its state: capabilities and steering anew. */
static void mrc_offload_reset(struct mrc_offload_dev *od)
{
	struct mrc_offload_caps caps;
	int err;

	mrc_offload_stop(od);
	err = od->ops->caps(od->dev, &caps);
	if (err) {
		mrc_offload_fail(od, "caps", err);
		return;
	}
	od->caps = caps;
	od->failed = false;
	if (od->plane) {
		mrc_offload_event(od->plane, MRC_REASON_OFFLOAD_RESET, NULL, 0);
		mrc_offload_steer(od);
	}
}

static void mrc_offload_report_work(struct work_struct *work)
{
	struct mrc_offload_dev *od = container_of(work, struct mrc_offload_dev,
						  report_work);
	const char *hook;
	int err;
	u8 what;

	mutex_lock(&mrc_offload_lock);
	spin_lock_irq(&od->report_lock);
	what = od->report_what;
	hook = od->report_hook;
	err = od->report_err;
	od->report_pending = false;
	spin_unlock_irq(&od->report_lock);

	if (what == MRC_OFFLOAD_REPORT_ERROR)
		mrc_offload_fail(od, hook ?: "report", err);
	else
		mrc_offload_reset(od);
	mutex_unlock(&mrc_offload_lock);
}

void mrc_offload_report(struct mrc_offload_dev *od,
			enum mrc_offload_report what, int err)
{
	mrc_offload_queue_report(od, what, NULL, err);
}
EXPORT_SYMBOL_GPL(mrc_offload_report);

static bool mrc_offload_ops_valid(const struct mrc_offload_ops *ops)
{
	return ops && ops->version == MRC_OFFLOAD_API_VERSION && ops->caps &&
	       ops->rx_steer && ops->cc_program && ops->conn_add &&
	       ops->ev_program && ops->conn_del && ops->xmit && ops->stats;
}

/* The plane on @dev, if any; mrc_offload_lock keeps it (see plane_del). */
static struct mrc_plane *mrc_offload_plane_of(struct net_device *dev)
{
	struct mrc_net *mn = mrc_pernet(dev_net(dev));
	struct mrc_plane *pl, *found = NULL;
	u32 id;

	rcu_read_lock();
	for (id = 0; id < MRC_MAX_PLANES && !found; id++) {
		pl = rcu_dereference(mn->planes[id]);
		if (pl && pl->dev == dev)
			found = pl;
	}
	rcu_read_unlock();
	return found;
}

struct mrc_offload_dev *mrc_offload_register(struct net_device *dev,
					     const struct mrc_offload_ops *ops)
{
	struct mrc_offload_dev *od;
	struct mrc_plane *pl;
	int err;

	if (!dev || !mrc_offload_ops_valid(ops))
		return ERR_PTR(-EINVAL);
	od = kzalloc(sizeof(*od), GFP_KERNEL);
	if (!od)
		return ERR_PTR(-ENOMEM);
	od->dev = dev;
	od->ops = ops;
	strscpy(od->driver, ops->driver ?: "unknown", sizeof(od->driver));
	INIT_LIST_HEAD(&od->bindings);
	spin_lock_init(&od->report_lock);
	INIT_WORK(&od->report_work, mrc_offload_report_work);

	mutex_lock(&mrc_offload_lock);
	err = mrc_offload_find(dev) ? -EEXIST : ops->caps(dev, &od->caps);
	if (err) {
		mutex_unlock(&mrc_offload_lock);
		kfree(od);
		return ERR_PTR(err);
	}
	list_add_tail(&od->node, &mrc_offload_devs);
	pl = mrc_offload_plane_of(dev);
	if (pl && READ_ONCE(pl->offload_mode) != MRC_OFFLOAD_OFF &&
	    !rcu_access_pointer(pl->offload))
		mrc_offload_attach(od, pl);
	mutex_unlock(&mrc_offload_lock);
	return od;
}
EXPORT_SYMBOL_GPL(mrc_offload_register);

void mrc_offload_unregister(struct mrc_offload_dev *od)
{
	spin_lock_irq(&od->report_lock);
	od->dead = true;
	spin_unlock_irq(&od->report_lock);
	cancel_work_sync(&od->report_work);

	mutex_lock(&mrc_offload_lock);
	list_del(&od->node);
	mrc_offload_detach(od, MRC_REASON_OFFLOAD_GONE);
	mutex_unlock(&mrc_offload_lock);
	kfree(od);
}
EXPORT_SYMBOL_GPL(mrc_offload_unregister);

int mrc_offload_init(void)
{
	mrc_offload_wq = alloc_workqueue("mrc_offload", WQ_UNBOUND, 0);
	return mrc_offload_wq ? 0 : -ENOMEM;
}

void mrc_offload_exit(void)
{
	destroy_workqueue(mrc_offload_wq);
}
