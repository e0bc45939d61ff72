// SPDX-License-Identifier: GPL-2.0
/*
 * The table of peer hosts and what connections learned of the paths to
 * them (peer.h says the lifetime and locking rules).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>

#include "conn/conn.h"
#include "conn/peer.h"
#include "pernet.h"

/* One plane address of a peer, hashed in mn->peers. */
struct mrc_peer_addr {
	struct hlist_node	node;
	struct in6_addr		addr;	/* IPv4 as mapped */
	struct mrc_peer		*peer;
};

struct mrc_peer {
	struct list_head	all;		/* mn->peer_list */
	u32			holders;	/* connections holding it */
	unsigned long		idle_since;	/* jiffies holders became 0 */
	u32			naddrs;
	struct mrc_peer_addr	addrs[MRC_WIRE_MAX_PLANES];
	struct mrc_core_peer_paths paths;
};

/* @p's address as one key for both families; false if it has none. */
static bool mrc_peer_key(const struct mrc_core_plane *p, struct in6_addr *a)
{
	if (p->flags & MRC_PLANE_F_V4) {
		ipv6_addr_set_v4mapped((__force __be32)p->addr4, a);
		return true;
	}
	if (p->flags & MRC_PLANE_F_V6) {
		memcpy(a, p->addr6, sizeof(*a));
		return true;
	}
	return false;
}

static struct hlist_head *mrc_peer_bucket(struct mrc_net *mn,
					  const struct in6_addr *a)
{
	return &mn->peers[hash_32(jhash(a, sizeof(*a), 0),
				  MRC_PEER_HASH_BITS)];
}

static struct mrc_peer *mrc_peer_find(struct mrc_net *mn,
				      const struct in6_addr *a)
{
	struct mrc_peer_addr *pa;

	lockdep_assert_held(&mn->peers_lock);
	hlist_for_each_entry(pa, mrc_peer_bucket(mn, a), node)
		if (ipv6_addr_equal(&pa->addr, a))
			return pa->peer;
	return NULL;
}

/* @a names @peer too (a plane address it advertised). */
static void mrc_peer_add_addr(struct mrc_net *mn, struct mrc_peer *peer,
			      const struct in6_addr *a)
{
	struct mrc_peer_addr *pa;

	lockdep_assert_held(&mn->peers_lock);
	if (peer->naddrs >= MRC_WIRE_MAX_PLANES || mrc_peer_find(mn, a))
		return;
	pa = &peer->addrs[peer->naddrs++];
	pa->addr = *a;
	pa->peer = peer;
	hlist_add_head(&pa->node, mrc_peer_bucket(mn, a));
}

static void mrc_peer_free(struct mrc_net *mn, struct mrc_peer *peer)
{
	u32 i;

	lockdep_assert_held(&mn->peers_lock);
	for (i = 0; i < peer->naddrs; i++)
		hlist_del(&peer->addrs[i].node);
	list_del(&peer->all);
	mn->npeers--;
	kfree(peer);
}

struct mrc_peer *mrc_peer_get(struct mrc_net *mn,
			      const struct mrc_core_plane *addr)
{
	struct mrc_peer *peer;
	struct in6_addr a;

	if (!mrc_peer_key(addr, &a))
		return NULL;
	spin_lock_bh(&mn->peers_lock);
	peer = mrc_peer_find(mn, &a);
	if (!peer && mn->npeers < MRC_PEER_MAX) {
		peer = kzalloc(sizeof(*peer), GFP_ATOMIC);
		if (peer) {
			list_add(&peer->all, &mn->peer_list);
			mn->npeers++;
			mrc_peer_add_addr(mn, peer, &a);
		}
	}
	if (peer)
		peer->holders++;
	spin_unlock_bh(&mn->peers_lock);
	return peer;
}

void mrc_peer_put(struct mrc_net *mn, struct mrc_peer *peer)
{
	if (!peer)
		return;
	spin_lock_bh(&mn->peers_lock);
	if (!--peer->holders) {
		peer->idle_since = jiffies;
		/* a sweep already queued comes first: then it queues again */
		queue_delayed_work(system_power_efficient_wq, &mn->peer_sweep,
				   MRC_PEER_LINGER);
	}
	spin_unlock_bh(&mn->peers_lock);
}

struct mrc_core_peer_paths *mrc_peer_seed(struct mrc_net *mn,
					  struct mrc_peer *peer)
{
	struct mrc_core_peer_paths *pp;

	if (!peer)
		return NULL;
	pp = kmalloc(sizeof(*pp), GFP_ATOMIC);
	if (!pp)
		return NULL;
	spin_lock_bh(&mn->peers_lock);
	*pp = peer->paths;
	spin_unlock_bh(&mn->peers_lock);
	if (!pp->nevs) {
		kfree(pp);
		return NULL;
	}
	return pp;
}

void mrc_peer_learn(struct mrc_conn *conn, int ev, bool established)
{
	struct mrc_net *mn = conn->mn;
	struct mrc_peer *peer = conn->peer;
	const struct mrc_core_plane *p;
	struct in6_addr a;
	u32 id;

	lockdep_assert_held(&conn->lock);
	if (!peer || !conn->core)
		return;
	spin_lock(&mn->peers_lock);
	if (established)
		for (id = 0; id < MRC_WIRE_MAX_PLANES; id++) {
			p = mrc_core_peer_plane(conn->core, id);
			if (p && mrc_peer_key(p, &a))
				mrc_peer_add_addr(mn, peer, &a);
		}
	if (ev < 0)
		mrc_core_peer_paths_learn(conn->core, &peer->paths);
	else
		mrc_core_peer_paths_learn_ev(conn->core, &peer->paths, ev);
	spin_unlock(&mn->peers_lock);
}

static void mrc_peer_view_of(const struct mrc_peer *peer,
			     struct mrc_peer_view *v,
			     struct in6_addr addrs[MRC_WIRE_MAX_PLANES])
{
	u32 i;

	for (i = 0; i < peer->naddrs; i++)
		addrs[i] = peer->addrs[i].addr;
	v->addrs = addrs;
	v->naddrs = peer->naddrs;
	v->holders = peer->holders;
	v->idle_ms = peer->holders ? 0 :
		     jiffies_to_msecs(jiffies - peer->idle_since);
	v->paths = &peer->paths;
}

int mrc_peer_walk(struct mrc_net *mn, unsigned long *pos,
		  int (*fn)(void *arg, const struct mrc_peer_view *v),
		  void *arg)
{
	struct in6_addr addrs[MRC_WIRE_MAX_PLANES];
	struct mrc_peer_view v;
	struct mrc_peer *peer;
	unsigned long i = 0;
	int err = 0;

	spin_lock_bh(&mn->peers_lock);
	list_for_each_entry(peer, &mn->peer_list, all) {
		if (i++ < *pos)
			continue;
		mrc_peer_view_of(peer, &v, addrs);
		err = fn(arg, &v);
		if (err)
			break;
		*pos = i;
	}
	spin_unlock_bh(&mn->peers_lock);
	return err;
}

/* Free the entries no connection held for MRC_PEER_LINGER. */
static void mrc_peer_sweep(struct work_struct *work)
{
	struct mrc_net *mn = container_of(to_delayed_work(work),
					  struct mrc_net, peer_sweep);
	unsigned long next = 0, due;
	struct mrc_peer *peer, *tmp;

	spin_lock_bh(&mn->peers_lock);
	list_for_each_entry_safe(peer, tmp, &mn->peer_list, all) {
		if (peer->holders)
			continue;
		due = peer->idle_since + MRC_PEER_LINGER;
		if (time_after_eq(jiffies, due))
			mrc_peer_free(mn, peer);
		else if (!next || time_before(due, next))
			next = due;
	}
	/* jiffies may have passed @next since it was read: then at once */
	if (next)
		queue_delayed_work(system_power_efficient_wq, &mn->peer_sweep,
				   time_after(next, jiffies) ? next - jiffies : 0);
	spin_unlock_bh(&mn->peers_lock);
}

int mrc_peer_net_init(struct mrc_net *mn)
{
	u32 i;

	spin_lock_init(&mn->peers_lock);
	INIT_LIST_HEAD(&mn->peer_list);
	for (i = 0; i < ARRAY_SIZE(mn->peers); i++)
		INIT_HLIST_HEAD(&mn->peers[i]);
	INIT_DELAYED_WORK(&mn->peer_sweep, mrc_peer_sweep);
	return 0;
}

/* After the netns's connections are killed: nothing holds an entry. */
void mrc_peer_net_exit(struct mrc_net *mn)
{
	struct mrc_peer *peer, *tmp;

	cancel_delayed_work_sync(&mn->peer_sweep);
	spin_lock_bh(&mn->peers_lock);
	list_for_each_entry_safe(peer, tmp, &mn->peer_list, all) {
		WARN_ON_ONCE(peer->holders);
		mrc_peer_free(mn, peer);
	}
	spin_unlock_bh(&mn->peers_lock);
}
