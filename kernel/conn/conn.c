// SPDX-License-Identifier: GPL-2.0
/*
 * Connection objects: creation around a protocol core, lookup by token,
 * and the kill path that unhashes, stops and frees them. Locking and
 * lifetime rules are in conn.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/ipv6.h>
#include <linux/mrc_wire.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/sock.h>

#include "pernet.h"
#include "conn/conn.h"
#include "conn/mem.h"
#include "conn/peer.h"
#include "offload/offload.h"
#include "ctl/plane.h"
#include "sock/sock.h"

static struct workqueue_struct *mrc_conn_wq;

static const struct rhashtable_params mrc_conn_token_params = {
	.key_len		= sizeof(u32),
	.key_offset		= offsetof(struct mrc_conn, id),
	.head_offset		= offsetof(struct mrc_conn, token_node),
	.automatic_shrinking	= true,
};

static const struct rhashtable_params mrc_syn_peer_params = {
	.key_len		= sizeof(u32),
	.key_offset		= offsetof(struct mrc_syn_peer, token),
	.head_offset		= offsetof(struct mrc_syn_peer, node),
	.automatic_shrinking	= true,
};

int mrc_conn_net_init(struct mrc_net *mn)
{
	if (rhashtable_init(&mn->tokens, &mrc_conn_token_params))
		return -ENOMEM;
	if (rhashtable_init(&mn->syn_peers, &mrc_syn_peer_params)) {
		rhashtable_destroy(&mn->tokens);
		return -ENOMEM;
	}
	return 0;
}

/* After mrc_conn_flush(): every table is empty. */
void mrc_conn_net_exit(struct mrc_net *mn)
{
	WARN_ON_ONCE(atomic_read(&mn->tokens.nelems) ||
		     atomic_read(&mn->syn_peers.nelems));
	rhashtable_destroy(&mn->tokens);
	rhashtable_destroy(&mn->syn_peers);
	xa_destroy(&mn->conns);
}

/*
 * Claim @token in syn_peers for a child not built yet; softirq. Return:
 * the entry, or NULL with *@err -EEXIST if the token has one already
 * (mrc_syn_peer_find() tells whose), or another error.
 */
struct mrc_syn_peer *mrc_syn_peer_claim(struct mrc_net *mn, u32 token,
					int *err)
{
	struct mrc_syn_peer *sp = kzalloc(sizeof(*sp), GFP_ATOMIC);

	if (!sp) {
		*err = -ENOMEM;
		return NULL;
	}
	sp->token = token;
	*err = rhashtable_lookup_insert_fast(&mn->syn_peers, &sp->node,
					     mrc_syn_peer_params);
	if (*err) {
		kfree(sp);
		return NULL;
	}
	return sp;
}

/* Under RCU: the entry of @token, or NULL. */
struct mrc_syn_peer *mrc_syn_peer_find(struct mrc_net *mn, u32 token)
{
	return rhashtable_lookup(&mn->syn_peers, &token, mrc_syn_peer_params);
}

/* Unhash and free @sp (RCU readers may still see it); any context. */
void mrc_syn_peer_drop(struct mrc_net *mn, struct mrc_syn_peer *sp)
{
	rhashtable_remove_fast(&mn->syn_peers, &sp->node, mrc_syn_peer_params);
	kfree_rcu(sp, rcu);
}

/*
 * An expiry while the connection's packets wait in its socket's backlog
 * for a process (demux_defer.c) waits for them: one of them may be the
 * SACK of what an RTO would resend. That process runs it once it took
 * them (mrc_conn_timer_deferred()). Softirq.
 */
static bool mrc_conn_timer_defer(struct mrc_conn *conn)
{
	struct sock *sk = conn->sk;
	bool defer;

	bh_lock_sock(sk);
	/* a socket that let go of us runs no expiry (mrc_sock_detach()) */
	defer = (sock_owned_by_user(sk) || READ_ONCE(mrc_sk(sk)->waiting)) &&
		sk->sk_backlog.tail && mrc_sk(sk)->conn == conn;
	if (defer) {
		set_bit(MRC_CONN_TIMER_DEFERRED, &conn->deferred);
		mrc_mib_inc(conn->mn->net, MRC_MIB_TIMERDEFERRED);
	}
	bh_unlock_sock(sk);
	return defer;
}

/*
 * mrc_conn_timer_deferred - the expiry mrc_conn_timer_defer() left for
 * us, if any, now that the backlog is taken: from sock/io.c's
 * mrc_sock_flush() and mrc_sock_detach(), and the socket's release_cb.
 * Process context, under lock_sock() (release_cb: also under
 * sk_lock.slock, BHs off).
 */
void mrc_conn_timer_deferred(struct mrc_conn *conn)
{
	if (!test_and_clear_bit(MRC_CONN_TIMER_DEFERRED, &conn->deferred))
		return;
	mrc_conn_lock_bh(conn);
	if (conn->core)
		mrc_core_on_timer(conn->core);
	mrc_conn_unlock_bh(conn);
}

/*
 * __mrc_conn_unlock - drop @conn's lock, then send what was built under
 * it: the IP output, the qdisc and the device (a veth's transmit hands
 * the packet to the receiving host) run while another CPU may take the
 * connection. Packets sent after one unlock on two CPUs may leave out of
 * order, as packets on two EVs may arrive: the receiver's PSN bitmap
 * takes either. BHs off.
 */
void __mrc_conn_unlock(struct mrc_conn *conn)
{
	struct sk_buff_head q;

	lockdep_assert_held(&conn->lock);
	mrc_sock_mem_sync(conn);
	__skb_queue_head_init(&q);
	skb_queue_splice_init(&conn->tx_defer, &q);
	spin_unlock(&conn->lock);
	if (!skb_queue_empty(&q))
		mrc_udp_tx_deferred(conn->mn, &q);
}

static enum hrtimer_restart mrc_conn_timer_fire(struct hrtimer *timer)
{
	struct mrc_conn *conn = container_of(timer, struct mrc_conn, timer);

	if (mrc_conn_timer_defer(conn))
		return HRTIMER_NORESTART;
	mrc_conn_lock(conn);
	if (conn->core)
		mrc_core_on_timer(conn->core);
	mrc_conn_unlock(conn);
	return HRTIMER_NORESTART;
}

static void mrc_conn_kill_work(struct work_struct *work)
{
	struct mrc_conn *conn = container_of(to_delayed_work(work),
					     struct mrc_conn, kill_work);

	mrc_conn_kill(conn);
	mrc_conn_put(conn);
}

static void mrc_conn_free_rcu(struct rcu_head *head)
{
	struct mrc_conn *conn = container_of(head, struct mrc_conn, rcu);

	kfree(rcu_dereference_protected(conn->offload, 1));
	mrc_mem_conn_free(conn);
}

void mrc_conn_put(struct mrc_conn *conn)
{
	if (!refcount_dec_and_test(&conn->ref))
		return;
	/* Every unlock sent what was built under the lock. */
	WARN_ON_ONCE(!skb_queue_empty(&conn->tx_defer));
	/* The socket holds the netns, so its mrc_net is still there. */
	mrc_mem_uncharge(conn->mn, sizeof(*conn));
	sock_put(conn->sk);
	call_rcu(&conn->rcu, mrc_conn_free_rcu);
}

/*
 * mrc_conn_create - a connection for @sk around a new core built from
 * @cfg, hashed under its token; its peer, found by @peer_addr (one of
 * the peer's plane addresses) in the netns's table, gives the core what
 * earlier connections there learned of the paths. Any context.
 * Return: the connection with two references (the table's and the
 * caller's), or NULL.
 */
struct mrc_conn *mrc_conn_create(struct mrc_net *mn, struct sock *sk,
				 struct mrc_core_cfg *cfg,
				 const struct mrc_core_plane *peer_addr,
				 bool server)
{
	struct mrc_core_peer_paths *seed;
	struct mrc_conn *conn;
	bool have_idx;
	int tries;

	if (!mrc_mem_charge(mn, sizeof(*conn)))
		return NULL;
	conn = mrc_mem_conn_zalloc(sizeof(*conn));
	if (!conn) {
		mrc_mem_uncharge(mn, sizeof(*conn));
		return NULL;
	}
	spin_lock_init(&conn->lock);
	refcount_set(&conn->ref, 2);
	hrtimer_init(&conn->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	conn->timer.function = mrc_conn_timer_fire;
	INIT_DELAYED_WORK(&conn->kill_work, mrc_conn_kill_work);
	skb_queue_head_init(&conn->rx_partial);
	__skb_queue_head_init(&conn->tx_defer);
	conn->mn = mn;
	conn->sk = sk;
	conn->server = server;
	conn->env.ops = &mrc_conn_env_ops;
	conn->env.ctx = conn;
	conn->peer = READ_ONCE(mn->peer_paths) ?
		     mrc_peer_get(mn, peer_addr) : NULL;
	seed = mrc_peer_seed(mn, conn->peer);
	cfg->peer_paths = seed;

	/*
	 * The index is reserved first (it loads as NULL): once the token is
	 * hashed, RX may find the connection, and storing it in its walk
	 * slot can no longer fail.
	 * A 32-bit random token collides rarely; then draw another. So does
	 * cfg->token, the one a client proposed for its early data.
	 */
	have_idx = !xa_alloc_bh(&mn->conns, &conn->idx, NULL, xa_limit_32b,
				GFP_ATOMIC);
	for (tries = 0; have_idx && tries < 4; tries++) {
		conn->core = mrc_core_create(cfg, &conn->env);
		if (!conn->core)
			break;
		conn->id = mrc_core_token(conn->core);
		if (!rhashtable_lookup_insert_fast(&mn->tokens,
						   &conn->token_node,
						   mrc_conn_token_params))
			break;
		mrc_core_destroy(conn->core);
		conn->core = NULL;
		cfg->token = 0;	/* a proposed one is taken: draw one */
	}
	cfg->peer_paths = NULL;
	kfree(seed);
	if (conn->core) {
		/* the reserved slot takes it without allocating */
		xa_store_bh(&mn->conns, conn->idx, conn, GFP_ATOMIC);
	} else if (have_idx) {
		xa_erase_bh(&mn->conns, conn->idx);
	}
	if (!conn->core) {
		mrc_peer_put(mn, conn->peer);
		mrc_mem_conn_free(conn);
		mrc_mem_uncharge(mn, sizeof(*conn));
		return NULL;
	}
	sock_hold(sk);
	return conn;
}

/* Under RCU or any context: the connection with token @id, referenced. */
struct mrc_conn *mrc_conn_lookup(struct mrc_net *mn, u32 id)
{
	struct mrc_conn *conn;

	rcu_read_lock();
	conn = rhashtable_lookup(&mn->tokens, &id, mrc_conn_token_params);
	if (conn && !refcount_inc_not_zero(&conn->ref))
		conn = NULL;
	rcu_read_unlock();
	return conn;
}

/* Any context: the connection at index @idx of mrc_net.conns, referenced. */
struct mrc_conn *mrc_conn_get_idx(struct mrc_net *mn, unsigned long idx)
{
	struct mrc_conn *conn;

	rcu_read_lock();
	conn = xa_load(&mn->conns, idx);
	if (conn && !refcount_inc_not_zero(&conn->ref))
		conn = NULL;
	rcu_read_unlock();
	return conn;
}

/*
 * mrc_conn_kill - unhash @conn, stop its timer and destroy its core.
 * Process context; the caller holds a reference. Idempotent.
 */
void mrc_conn_kill(struct mrc_conn *conn)
{
	struct mrc_net *mn = conn->mn;
	struct mrc_core *core;

	mrc_conn_lock_bh(conn);
	core = conn->core;
	conn->dying = true;
	mrc_conn_unlock_bh(conn);
	if (!core)
		return;

	/* Under the bucket lock: one killer finds it, another does not. */
	if (rhashtable_remove_fast(&mn->tokens, &conn->token_node,
				   mrc_conn_token_params))
		return;	/* another killer got here first */
	xa_erase_bh(&mn->conns, conn->idx);
	if (conn->syn_peer) {
		mrc_syn_peer_drop(mn, conn->syn_peer);
		conn->syn_peer = NULL;
	}
	hrtimer_cancel(&conn->timer);
	mrc_conn_lock_bh(conn);
	mrc_peer_learn(conn, -1, false);	/* its last word on the paths */
	conn->core = NULL;
	conn->state = MRC_CONN_CLOSED;
	/* Every input ended with its batch's skb queued (sock/io.c). */
	if (WARN_ON_ONCE(conn->rx_build)) {
		kfree_skb(conn->rx_build);
		conn->rx_build = NULL;
	}
	/* Every core call that sent DATA ended with a flush (udp.c). */
	if (WARN_ON_ONCE(conn->train.skb)) {
		kfree_skb(conn->train.skb);
		conn->train.skb = NULL;
	}
	mrc_udp_routes_drop(conn);
	mrc_conn_unlock_bh(conn);
	/* Nothing can arm the timer once the core is gone. */
	hrtimer_cancel(&conn->timer);
	mrc_core_destroy(core);
	mrc_peer_put(mn, conn->peer);
	conn->peer = NULL;
	mrc_offload_conn_release(conn);
	skb_queue_purge(&conn->rx_partial);
	/* A kill still waiting (a lingering orphan) has nothing left to do. */
	if (cancel_delayed_work(&conn->kill_work))
		mrc_conn_put(conn);
	mrc_conn_put(conn);	/* the table's reference */
}

/* Process context: @conn's user timeout from now on (setsockopt). */
void mrc_conn_set_user_timeout(struct mrc_conn *conn, u32 ms)
{
	mrc_conn_lock_bh(conn);
	if (conn->core)
		mrc_core_set_user_timeout(conn->core, ms);
	mrc_conn_unlock_bh(conn);
}

/* Any context: kill @conn from process context after @delay jiffies. */
void mrc_conn_schedule_kill(struct mrc_conn *conn, unsigned long delay)
{
	refcount_inc(&conn->ref);
	if (!queue_delayed_work(mrc_conn_wq, &conn->kill_work, delay))
		mrc_conn_put(conn);
}

/* Run @fn on every live connection of @mn, each under its lock. */
static void mrc_conn_for_each(struct mrc_net *mn,
			      void (*fn)(struct mrc_conn *conn, void *arg),
			      void *arg, bool kill)
{
	struct mrc_conn *conn;
	unsigned long idx;

	xa_for_each(&mn->conns, idx, conn) {
		conn = mrc_conn_get_idx(mn, idx);
		if (!conn)
			continue;
		mrc_conn_lock_bh(conn);
		if (conn->core)
			fn(conn, arg);
		mrc_conn_unlock_bh(conn);
		if (kill)
			mrc_conn_kill(conn);
		mrc_conn_put(conn);
	}
}

struct mrc_plane_change {
	u32	plane;
	bool	up;
};

static void mrc_conn_plane_update(struct mrc_conn *conn, void *arg)
{
	const struct mrc_plane_change *c = arg;

	/* a plane that went away or came back: look its route up again */
	mrc_udp_route_drop(conn, c->plane);
	mrc_core_plane_update(conn->core, c->plane, c->up);
}

void mrc_conn_plane_changed(struct mrc_net *mn, u32 plane, bool up)
{
	struct mrc_plane_change change = { .plane = plane, .up = up };

	mrc_conn_for_each(mn, mrc_conn_plane_update, &change, false);
}

struct mrc_plane_weight {
	u32	plane;
	u32	weight;
};

static void mrc_conn_plane_weight_one(struct mrc_conn *conn, void *arg)
{
	const struct mrc_plane_weight *w = arg;

	mrc_core_plane_weight(conn->core, w->plane, w->weight);
}

void mrc_conn_plane_weight(struct mrc_net *mn, u32 plane, u32 weight)
{
	struct mrc_plane_weight w = { .plane = plane, .weight = weight };

	mrc_conn_for_each(mn, mrc_conn_plane_weight_one, &w, false);
}

static void mrc_conn_reset(struct mrc_conn *conn, void *arg)
{
	mrc_core_abort(conn->core, 0);
}

void mrc_conn_flush(struct mrc_net *mn)
{
	mrc_conn_for_each(mn, mrc_conn_reset, NULL, true);
	/*
	 * A delayed kill that had started when ours came found the table
	 * slot first and is still running: wait for it, so that nothing of
	 * the dying netns (its peer table, its memory counters) is touched
	 * after this returns.
	 */
	flush_workqueue(mrc_conn_wq);
}

/* An IPv4 address for a plane without a configured one: the device's. */
static __be32 mrc_conn_dev_addr4(struct net_device *dev)
{
	return inet_select_addr(dev, 0, RT_SCOPE_UNIVERSE);
}

/*
 * What a DATA packet adds to its payload on the wire, IPv6's header
 * counted whatever the family, so one segment size fits every plane of
 * either: the payload of a plane's MTU is its MTU less this.
 */
#define MRC_CONN_MSS_OVERHEAD	(sizeof(struct ipv6hdr) + \
				 sizeof(struct udphdr) + \
				 sizeof(struct mrc_hdr) + sizeof(struct mrc_data))

/*
 * The smallest MTU a plane's size counts with: what "mrcctl plane set
 * mtu" takes. A device below it (an IPv4 link may go down to 68) cannot
 * carry a useful segment; the others set the size, and that plane's
 * packets are cut by IPv4 or lost, so its EVs are found bad.
 */
#define MRC_CONN_MIN_MTU	576

/* The MTU MRC uses on @pl: the operator's or its device's. Under RCU. */
static u32 mrc_conn_plane_mtu(const struct mrc_plane *pl)
{
	return READ_ONCE(pl->mtu) ?: READ_ONCE(pl->dev->mtu);
}

/*
 * Describe every plane of @mn with an address to the core. Planes pair by
 * id across hosts: plane N is the same network everywhere. The segment
 * size follows the smallest MTU among them (a segment may be sent, and
 * resent, on any plane), as TCP's MSS follows the route's: 1424 bytes at
 * 1500, 8924 on a fabric of 9000-byte frames (the handshake then takes
 * the smaller of the two ends'). With no plane the core's default holds.
 */
void mrc_conn_cfg_planes(struct mrc_net *mn, struct mrc_core_cfg *cfg)
{
	u32 id, m, mtu = U32_MAX;
	struct mrc_core_plane *cp;
	struct mrc_plane_addr *a;
	struct mrc_plane *pl;

	BUILD_BUG_ON(MRC_MAX_PLANES > MRC_WIRE_MAX_PLANES);
	cfg->nplanes = 0;
	cfg->plane_up = 0;
	rcu_read_lock();
	for (id = 0; id < MRC_MAX_PLANES; id++) {
		pl = rcu_dereference(mn->planes[id]);
		if (!pl)
			continue;
		a = rcu_dereference(pl->addr);
		cp = &cfg->planes[cfg->nplanes];
		memset(cp, 0, sizeof(*cp));
		cp->id = id;
		cp->udp_port = READ_ONCE(pl->port);
		cp->addr4 = a->has_addr4 ? a->addr4 : mrc_conn_dev_addr4(pl->dev);
		if (cp->addr4)
			cp->flags |= MRC_PLANE_F_V4;
		if (a->has_addr6) {
			memcpy(cp->addr6, &a->addr6, sizeof(cp->addr6));
			cp->flags |= MRC_PLANE_F_V6;
		}
		if (!cp->flags)
			continue;	/* unreachable: no address at all */
		if (mrc_plane_usable(pl))
			cfg->plane_up |= BIT(id);
		cfg->plane_weight[id] = (u16)READ_ONCE(pl->weight);
		m = mrc_conn_plane_mtu(pl);
		if (m >= MRC_CONN_MIN_MTU)
			mtu = min(mtu, m);
		cfg->nplanes++;
	}
	rcu_read_unlock();
	if (mtu != U32_MAX)
		cfg->mss = min_t(u32, mtu - MRC_CONN_MSS_OVERHEAD, U16_MAX);
}

int mrc_conn_init(void)
{
	mrc_conn_wq = alloc_workqueue("mrc_conn", WQ_UNBOUND, 0);
	return mrc_conn_wq ? 0 : -ENOMEM;
}

void mrc_conn_exit(void)
{
	destroy_workqueue(mrc_conn_wq);
}
