/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Connections: the kernel's side of one protocol core (core/mrc_core.h).
 * A connection joins an AF_MRC socket, a struct mrc_core and a timer, and
 * sits in mrc_net.tokens under its local token, which is also the id the
 * control plane shows, and in mrc_net.conns under a dense index for walks.
 *
 * Locking: @lock (a spinlock, BHs off in process context) serialises every
 * call into @core; the core's environment callbacks (env.c) run under
 * it. It nests inside lock_sock() and mrc_net.lock and outside the socket
 * queue locks. RX looks connections up under RCU and takes a reference.
 * It is taken with mrc_conn_lock() and dropped with mrc_conn_unlock(),
 * which sends what the core built under it (@tx_defer) once it is
 * dropped, with BHs still off.
 *
 * Lifetime: references are held by the tables (one for both, dropped by
 * mrc_conn_kill(): the killer is whoever unhashes the token), by the
 * socket (dropped at release) and briefly by RX and netlink.
 * mrc_conn_kill() unhashes the connection, stops the timer and destroys
 * the core; the memory goes after the last reference and an RCU grace
 * period. A connection holds a reference on its socket.
 */
#ifndef __MRC_CONN_H
#define __MRC_CONN_H

#include <linux/hrtimer.h>
#include <linux/in6.h>
#include <linux/refcount.h>
#include <linux/rhashtable-types.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <linux/mrc_netlink.h>

#include "core/mrc_core.h"
#include "conn/udp.h"

struct mrc_conn_offload;
struct mrc_net;
struct mrc_syn_peer;
struct sock;

struct mrc_conn {
	spinlock_t		lock;		/* see the comment above */
	struct mrc_core		*core;		/* NULL once killed */
	struct mrc_core_env	env;		/* ops + this connection */
	struct mrc_net		*mn;
	struct sock		*sk;
	u32			id;		/* = the core's local token */
	u32			idx;		/* key in mrc_net.conns */
	struct rhash_head	token_node;	/* in mrc_net.tokens */
	u32			peer_token;	/* server: the client's token */
	/* server: its entry in mrc_net.syn_peers, if it got one */
	struct mrc_syn_peer	*syn_peer;
	bool			server;
	bool			orphan;		/* socket released; lingering */
	bool			dying;		/* kill scheduled or done */
	refcount_t		ref;
	struct hrtimer		timer;
	struct delayed_work	kill_work;
	/*
	 * seqpacket: segments of the message being received, their truesize
	 * (charged to sk_rmem_alloc, but not readable yet) and whether this
	 * input added one (sock/io.c, mrc_sock_partial_space()); under @lock
	 */
	struct sk_buff_head	rx_partial;
	u32			rx_partial_truesize;
	bool			rx_partial_grew;
	/*
	 * new data came for a released socket, which discards it: the
	 * input's end aborts the connection (mrc_sock_input_done()); under
	 * @lock
	 */
	bool			rx_after_close;
	/*
	 * a receive batch is under way (conn/demux_batch.c): the reader is
	 * woken once at its end (mrc_sock_input_done()), not for every
	 * segment delivered, if one was (@rx_wake). A lone packet wakes it
	 * at its delivery, before the core sends its SACK: under TCG that
	 * SACK's transmit cost a 64-byte ping-pong 120-150 us of p50 when
	 * the wake-up waited for it (P6). Under @lock.
	 */
	bool			rx_batch;
	bool			rx_wake;
	/*
	 * MRC_CONN_TIMER_DEFERRED: the timer fired while packets waited in
	 * the socket's backlog (conn.c, mrc_conn_timer_defer()); atomic
	 * bit operations. The process that takes the backlog runs the
	 * expiry, from release_cb under sk_lock.slock: the socket's slock
	 * comes before @lock, and nothing takes the slock under @lock.
	 */
	unsigned long		deferred;
	/*
	 * stream: the batch's in-order bytes of slices (conn/rxbuf.h), in
	 * page fragments of one skb, queued at the batch's end; charged to
	 * sk_rmem_alloc as it grows. NULL outside a batch. Under @lock.
	 */
	struct sk_buff		*rx_build;
	/*
	 * packets built and routed under @lock, sent when it is dropped
	 * (mrc_conn_unlock()); added to and spliced off under @lock
	 */
	struct sk_buff_head	tx_defer;
	/* DATA held back for one GSO skb (udp.c); under @lock */
	struct mrc_udp_train	train;
	/*
	 * a route per plane to the peer (udp.h), allocated by the first
	 * packet that needs one and freed when every route is dropped (at
	 * ESTABLISHED, at kill), so an idle connection holds none and the
	 * struct fits a 512-byte object; under @lock
	 */
	struct mrc_udp_route	*routes;
	/* what this host knows of the peer's paths (peer.h); held from
	 * create to kill, NULL if the table had no room
	 */
	struct mrc_peer		*peer;
	/* bindings to offload devices (offload.h); NULL until the first */
	struct mrc_conn_offload __rcu *offload;

	/* what the control plane shows; fixed after the handshake */
	u8			state;		/* enum mrc_conn_state */
	u16			local_port;
	u16			peer_port;
	bool			peer_is_v6;
	__be32			peer_addr4;
	struct in6_addr		peer_addr6;
	u32			ev_profile;
	u32			cc_profile;
	struct rcu_head		rcu;
};

struct mrc_conn *mrc_conn_create(struct mrc_net *mn, struct sock *sk,
				 struct mrc_core_cfg *cfg,
				 const struct mrc_core_plane *peer_addr,
				 bool server);
void mrc_conn_put(struct mrc_conn *conn);
struct mrc_conn *mrc_conn_lookup(struct mrc_net *mn, u32 id);
struct mrc_conn *mrc_conn_get_idx(struct mrc_net *mn, unsigned long idx);
void mrc_conn_kill(struct mrc_conn *conn);
void mrc_conn_set_user_timeout(struct mrc_conn *conn, u32 ms);
void mrc_conn_schedule_kill(struct mrc_conn *conn, unsigned long delay);
void mrc_conn_timer_deferred(struct mrc_conn *conn);
void __mrc_conn_unlock(struct mrc_conn *conn);

/* Lock @conn from softirq (or with BHs off). */
static inline void mrc_conn_lock(struct mrc_conn *conn)
{
	spin_lock(&conn->lock);
}

/* Lock @conn from process context. */
static inline void mrc_conn_lock_bh(struct mrc_conn *conn)
{
	local_bh_disable();
	spin_lock(&conn->lock);
}

/* Unlock @conn, then send the packets it built (conn.c). */
static inline void mrc_conn_unlock(struct mrc_conn *conn)
{
	__mrc_conn_unlock(conn);
}

static inline void mrc_conn_unlock_bh(struct mrc_conn *conn)
{
	__mrc_conn_unlock(conn);
	local_bh_enable();
}

/* Bits of mrc_conn.deferred. */
#define MRC_CONN_TIMER_DEFERRED	0

/*
 * How long a finished orphan stays to answer a retransmitted FIN whose
 * SACK was lost (TCP's TIME_WAIT, kept short: FINs are retried at the RTO).
 */
#define MRC_CONN_DONE_LINGER	(HZ / 2)

/* For every live connection of @mn: tell the core plane @plane's state. */
void mrc_conn_plane_changed(struct mrc_net *mn, u32 plane, bool up);
/* Plane @plane's weight changed: every connection of @mn takes it. */
void mrc_conn_plane_weight(struct mrc_net *mn, u32 plane, u32 weight);
/* Kill every connection of a dying netns. */
void mrc_conn_flush(struct mrc_net *mn);

/* Fill a core configuration's plane list from @mn's planes. */
void mrc_conn_cfg_planes(struct mrc_net *mn, struct mrc_core_cfg *cfg);

/*
 * A server connection's entry in mrc_net.syn_peers, under the client's
 * token, so that a retransmitted SYN finds the child it already made.
 * The first SYN claims it before the child exists (@conn NULL: a child
 * being built); the child is published in @conn once its peer fields are
 * set. Removed by mrc_conn_kill(), or by the SYN whose child failed;
 * freed after an RCU grace period. RCU readers.
 */
struct mrc_syn_peer {
	struct rhash_head	node;
	u32			token;
	struct mrc_conn __rcu	*conn;
	struct rcu_head		rcu;
};

struct mrc_syn_peer *mrc_syn_peer_claim(struct mrc_net *mn, u32 token,
					int *err);
struct mrc_syn_peer *mrc_syn_peer_find(struct mrc_net *mn, u32 token);
void mrc_syn_peer_drop(struct mrc_net *mn, struct mrc_syn_peer *sp);

int mrc_conn_net_init(struct mrc_net *mn);
void mrc_conn_net_exit(struct mrc_net *mn);

extern const struct mrc_core_env_ops mrc_conn_env_ops;

int mrc_conn_init(void);
void mrc_conn_exit(void);

#endif /* __MRC_CONN_H */
