// SPDX-License-Identifier: GPL-2.0
/*
 * Connections on offload devices: set-up after the handshake (CC profile,
 * conn_add, the EV table), EV state changes, release at close, and the
 * data path's TX and RX hand-off. Locking and lifetimes in offload.h and
 * offload_priv.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/udp.h>

#include "pernet.h"
#include "conn/conn.h"
#include "offload/offload.h"
#include "offload/offload_priv.h"
#include "ctl/profile.h"
#include "conn/demux.h"
#include "conn/udp.h"

/* Set-up work for a connection that became established. */
struct mrc_offload_setup {
	struct work_struct	work;
	struct mrc_conn		*conn;
};

/* The CC profile of @conn as the device runs it. */
static void mrc_offload_cc_of(const struct mrc_conn *conn,
			      struct mrc_offload_cc *cc)
{
	const struct mrc_cc_profile *p = NULL;

	memset(cc, 0, sizeof(*cc));
	cc->profile = conn->cc_profile;
	cc->algo = MRC_OFFLOAD_CC_NSCC;
	rcu_read_lock();
	if (conn->cc_profile)
		p = xa_load(&conn->mn->cc_profiles, conn->cc_profile);
	if (p && p->has_config) {
		cc->base_rtt_ns = p->nscc.base_rtt;
		cc->target_delay_ns = p->nscc.target_delay;
		cc->max_cwnd = p->nscc.max_cwnd;
	}
	rcu_read_unlock();
}

/*
 * Under the connection's lock: what conn_add needs, and the slot of each
 * of the connection's EVs on @plane (U16_MAX: another plane).
 */
static bool mrc_offload_describe(struct mrc_conn *conn, u32 plane,
				 struct mrc_offload_conn *oc, u16 *slot_of,
				 u32 nevs)
{
	const struct mrc_core_plane *peer;
	struct mrc_core_ev_info ev;
	u32 idx;

	lockdep_assert_held(&conn->lock);

	if (!conn->core || mrc_core_ev_count(conn->core) != nevs)
		return false;
	peer = mrc_core_peer_plane(conn->core, plane);
	if (!peer || !(peer->flags & MRC_PLANE_F_V4))
		return false;
	oc->conn_id = conn->id;
	oc->peer_token = mrc_core_peer_token(conn->core);
	oc->plane = plane;
	oc->cc_profile = conn->cc_profile;
	oc->peer_addr4 = peer->addr4;
	oc->peer_udp_port = peer->udp_port;
	oc->nevs = 0;
	for (idx = 0; idx < nevs; idx++) {
		slot_of[idx] = U16_MAX;
		if (!mrc_core_ev_get(conn->core, idx, &ev) && ev.plane == plane)
			slot_of[idx] = oc->nevs++;
	}
	return true;
}

/* Under the connection's lock: write every EV of @b into the device. */
static int mrc_offload_program_evs(struct mrc_offload_binding *b, u32 nevs)
{
	struct mrc_offload_dev *od = b->od;
	struct mrc_core_ev_info ev;
	int err;
	u32 idx;

	lockdep_assert_held(&b->conn->lock);

	for (idx = 0; idx < nevs; idx++) {
		if (b->slot_of[idx] == U16_MAX ||
		    mrc_core_ev_get(b->conn->core, idx, &ev))
			continue;
		err = od->ops->ev_program(od->dev, b->handle, b->slot_of[idx],
					  ev.value, ev.state);
		if (err)
			return err;
	}
	return 0;
}

/* Program the CC profile, then set the connection up on the device. */
static int mrc_offload_conn_add(struct mrc_offload_binding *b,
				const struct mrc_offload_conn *oc,
				const char **hook)
{
	struct mrc_offload_dev *od = b->od;
	struct mrc_offload_cc cc;
	int err;

	*hook = "ev_table";
	if (oc->nevs > od->caps.ev_table_size)
		return -ENOSPC;
	mrc_offload_cc_of(b->conn, &cc);
	*hook = "cc_program";
	if (!(od->caps.cc_algos & cc.algo))
		return -EOPNOTSUPP;
	err = od->ops->cc_program(od->dev, &cc);
	if (err)
		return err;
	*hook = "conn_add";
	return od->ops->conn_add(od->dev, oc, &b->handle);
}

/* Publish @b once its EV table is written; false: the connection died. */
static int mrc_offload_publish(struct mrc_offload_binding *b, u32 nevs,
			       const char **hook)
{
	struct mrc_conn *conn = b->conn;
	struct mrc_conn_offload *co;
	int err = -ENOENT;

	co = rcu_dereference_protected(conn->offload,
				       lockdep_is_held(&mrc_offload_lock));
	mrc_conn_lock_bh(conn);
	*hook = NULL;
	if (conn->core) {
		err = mrc_offload_program_evs(b, nevs);
		*hook = "ev_program";
		if (!err)
			rcu_assign_pointer(co->plane[b->pl->id], b);
	}
	mrc_conn_unlock_bh(conn);
	return err;
}

static struct mrc_offload_binding *
mrc_offload_binding_new(struct mrc_offload_dev *od, struct mrc_conn *conn,
			u32 nevs)
{
	struct mrc_offload_binding *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (!b)
		return NULL;
	b->slot_of = kcalloc(nevs, sizeof(*b->slot_of), GFP_KERNEL);
	if (!b->slot_of) {
		kfree(b);
		return NULL;
	}
	b->od = od;
	b->pl = od->plane;
	b->conn = conn;
	refcount_inc(&conn->ref);
	return b;
}

static bool mrc_offload_conn_prepare(struct mrc_conn *conn)
{
	struct mrc_conn_offload *co;

	if (rcu_access_pointer(conn->offload))
		return true;
	co = kzalloc(sizeof(*co), GFP_KERNEL);
	if (!co)
		return false;
	rcu_assign_pointer(conn->offload, co);
	return true;
}

/* Set @conn up on @od. mrc_offload_lock held. */
static void mrc_offload_bind(struct mrc_offload_dev *od, struct mrc_conn *conn)
{
	struct mrc_offload_conn oc = {};
	struct mrc_offload_binding *b;
	const char *hook = NULL;
	bool ok;
	u32 nevs;
	int err;

	lockdep_assert_held(&mrc_offload_lock);

	mrc_conn_lock_bh(conn);
	nevs = conn->core ? mrc_core_ev_count(conn->core) : 0;
	mrc_conn_unlock_bh(conn);
	if (!nevs || !mrc_offload_conn_prepare(conn))
		return;
	b = mrc_offload_binding_new(od, conn, nevs);
	if (!b)
		return;
	mrc_conn_lock_bh(conn);
	ok = mrc_offload_describe(conn, b->pl->id, &oc, b->slot_of, nevs);
	mrc_conn_unlock_bh(conn);
	if (!ok)
		goto free;	/* closed, or not reachable by the device */
	err = mrc_offload_conn_add(b, &oc, &hook);
	if (err)
		goto failed;
	err = mrc_offload_publish(b, nevs, &hook);
	if (err) {
		od->ops->conn_del(od->dev, b->handle);
		if (!hook)
			goto free;
		goto failed;
	}
	list_add_tail(&b->node, &od->bindings);
	od->nconns++;
	mrc_plane_mib_add(b->pl, MRC_PLANE_MIB_OFFLOAD_CONNS, 1);
	return;

failed:
	mrc_plane_mib_add(b->pl, MRC_PLANE_MIB_OFFLOAD_CONNFAIL, 1);
	mrc_offload_hook_failed(b->pl, hook, err);
free:
	mrc_offload_binding_free(b);
}

static void mrc_offload_setup_work(struct work_struct *work)
{
	struct mrc_offload_setup *s = container_of(work,
						   struct mrc_offload_setup,
						   work);
	struct mrc_conn *conn = s->conn;
	struct mrc_offload_dev *od;

	mutex_lock(&mrc_offload_lock);
	list_for_each_entry(od, &mrc_offload_devs, node)
		if (od->plane && !od->failed &&
		    net_eq(dev_net(od->dev), conn->mn->net))
			mrc_offload_bind(od, conn);
	mutex_unlock(&mrc_offload_lock);
	mrc_conn_put(conn);
	kfree(s);
}

/*
 * mrc_offload_conn_established - set an established connection up on the
 * offload devices of its planes, from a work item. Under the connection's
 * lock. Connections established before a device appeared stay in
 * software.
 */
void mrc_offload_conn_established(struct mrc_conn *conn)
{
	struct mrc_offload_setup *s;

	lockdep_assert_held(&conn->lock);

	if (!atomic_read(&mrc_offload_planes))
		return;
	s = kmalloc(sizeof(*s), GFP_ATOMIC);
	if (!s)
		return;		/* software it is */
	INIT_WORK(&s->work, mrc_offload_setup_work);
	refcount_inc(&conn->ref);
	s->conn = conn;
	queue_work(mrc_offload_wq, &s->work);
}

/*
 * mrc_offload_conn_ev_changed - an EV of @conn changed state: rewrite its
 * slot in the device. Under the connection's lock. A failure means the
 * device's table is stale: the device is failed (connections to software).
 */
void mrc_offload_conn_ev_changed(struct mrc_conn *conn, u32 idx)
{
	struct mrc_offload_binding *b;
	struct mrc_conn_offload *co;
	struct mrc_core_ev_info ev;
	int err;

	lockdep_assert_held(&conn->lock);

	rcu_read_lock();
	co = rcu_dereference(conn->offload);
	if (!co || !conn->core || mrc_core_ev_get(conn->core, idx, &ev) ||
	    ev.plane >= MRC_MAX_PLANES)
		goto out;
	b = rcu_dereference(co->plane[ev.plane]);
	if (!b || b->slot_of[idx] == U16_MAX)
		goto out;
	err = b->od->ops->ev_program(b->od->dev, b->handle, b->slot_of[idx],
				     ev.value, ev.state);
	if (err)
		mrc_offload_queue_report(b->od, MRC_OFFLOAD_REPORT_ERROR,
					 "ev_program", err);
out:
	rcu_read_unlock();
}

/*
 * mrc_offload_conn_release - take a killed connection off its devices.
 * Process context; the core is gone, so no data-path call uses the
 * bindings any more.
 */
void mrc_offload_conn_release(struct mrc_conn *conn)
{
	struct mrc_offload_binding *b;
	struct mrc_conn_offload *co;
	u32 p;

	if (!rcu_access_pointer(conn->offload))
		return;
	mutex_lock(&mrc_offload_lock);
	co = rcu_dereference_protected(conn->offload,
				       lockdep_is_held(&mrc_offload_lock));
	for (p = 0; p < MRC_MAX_PLANES; p++) {
		b = rcu_dereference_protected(co->plane[p],
					      lockdep_is_held(&mrc_offload_lock));
		if (!b)
			continue;
		RCU_INIT_POINTER(co->plane[p], NULL);
		list_del(&b->node);
		b->od->nconns--;
		b->od->ops->conn_del(b->od->dev, b->handle);
		mrc_offload_binding_free(b);
	}
	mutex_unlock(&mrc_offload_lock);
}

/* ---- data path */

/* Under RCU: @conn's binding on @plane, or NULL for software. */
struct mrc_offload_binding *mrc_offload_tx_binding(struct mrc_conn *conn,
						   u32 plane)
{
	struct mrc_conn_offload *co = rcu_dereference(conn->offload);

	return co ? rcu_dereference(co->plane[plane]) : NULL;
}

/*
 * mrc_offload_xmit - TX hand-off of @skb (data at the MRC header) to the
 * device. Under RCU, BHs off. 0: sent; an error: @skb is still the
 * caller's, to send in software, and the device is failed.
 */
int mrc_offload_xmit(struct mrc_offload_binding *b, struct mrc_plane *pl,
		     struct sk_buff *skb, __be32 saddr,
		     const struct mrc_core_plane *peer, u32 ev, u8 ecn)
{
	struct mrc_offload_dev *od = b->od;
	struct mrc_offload_tx tx = {
		.saddr = saddr,
		.daddr = peer->addr4,
		.sport = ev,
		.dport = peer->udp_port,
		.ecn = ecn,
	};
	int err;

	if (!(od->caps.features & MRC_OFFLOAD_F_TX) ||
	    !(peer->flags & MRC_PLANE_F_V4))
		return -EOPNOTSUPP;
	err = od->ops->xmit(od->dev, b->handle, skb, &tx);
	if (!err) {
		mrc_plane_mib_add(pl, MRC_PLANE_MIB_OFFLOAD_TXPKTS, 1);
		return 0;
	}
	mrc_plane_mib_add(pl, MRC_PLANE_MIB_OFFLOAD_TXFALLBACK, 1);
	mrc_offload_queue_report(od, MRC_OFFLOAD_REPORT_ERROR, "xmit", err);
	return err;
}

int mrc_offload_rx(struct mrc_offload_dev *od, struct sk_buff *skb, bool ce)
{
	struct mrc_plane *pl = rcu_dereference(od->rx_plane);

	if (!pl || udp_hdr(skb)->dest != htons(READ_ONCE(pl->port)))
		return -ENOENT;
	mrc_plane_mib_add(pl, MRC_PLANE_MIB_OFFLOAD_RXPKTS, 1);
	/* mrc_demux_input() takes the packet at its UDP header. */
	skb_push(skb, skb->data - skb_transport_header(skb));
	mrc_demux_input(pl, skb, ce);
	return 0;
}
EXPORT_SYMBOL_GPL(mrc_offload_rx);

