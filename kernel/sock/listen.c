// SPDX-License-Identifier: GPL-2.0
/*
 * The passive side of AF_MRC connection set-up: listen(), accept(), and
 * the children a listener makes when a SYN arrives (softirq, under no
 * socket lock: see mrc_listen_syn()); duplicate SYNs of a peer already
 * being answered, refusals when no one listens or the backlog is full.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <net/sock.h>

#include "conn/conn.h"
#include "conn/udp.h"
#include "ctl/netlink.h"
#include "ctl/plane.h"
#include "offload/offload.h"
#include "pernet.h"
#include "sock/sock.h"

int mrc_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;
	int err = 0;

	lock_sock(sk);
	if (sock->state != SS_UNCONNECTED || mrc_sk(sk)->conn ||
	    mrc_tcp_sock(sk)) {
		err = -EINVAL;
		goto out;
	}
	if (!mrc_sk(sk)->port_hashed)
		err = mrc_port_bind(sk, 0);
	if (!err && mrc_sk(sk)->listen_tcp)
		err = mrc_listen_tcp_start(sk, backlog);
	if (!err) {
		WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
		WRITE_ONCE(sk->sk_state, TCP_LISTEN);
	}
out:
	release_sock(sk);
	return err;
}

static bool mrc_accept_ready(struct sock *sk)
{
	return !list_empty_careful(&mrc_sk(sk)->accept_q) ||
	       mrc_listen_tcp_ready(sk) || sk->sk_state != TCP_LISTEN;
}

static struct sock *mrc_accept_dequeue(struct sock *sk)
{
	struct mrc_sock *msk = mrc_sk(sk), *child;

	spin_lock_bh(&msk->accept_lock);
	child = list_first_entry_or_null(&msk->accept_q, struct mrc_sock,
					 accept_node);
	if (child) {
		list_del_init(&child->accept_node);
		sk_acceptq_removed(sk);
	}
	spin_unlock_bh(&msk->accept_lock);
	return child ? &child->sk : NULL;
}

int mrc_accept(struct socket *sock, struct socket *newsock, int flags,
	       bool kern)
{
	struct sock *sk = sock->sk, *child;
	long timeo;
	int err = -EINVAL;

	lock_sock(sk);
	if (sk->sk_state != TCP_LISTEN)
		goto out;
	timeo = sock_rcvtimeo(sk, flags & O_NONBLOCK);
	while (!(child = mrc_accept_dequeue(sk))) {
		err = mrc_listen_tcp_accept(sk, newsock, kern);
		if (err != -EAGAIN)
			goto out;	/* a TCP client, or its error */
		if (!timeo)
			goto out;
		err = mrc_sock_wait(sk, &timeo, mrc_accept_ready);
		if (err)
			goto out;
		err = -EINVAL;
		if (sk->sk_state != TCP_LISTEN)
			goto out;
	}
	/* The child's lock nests in the listener's (same lock class). */
	lock_sock_nested(child, SINGLE_DEPTH_NESTING);
	sock_graft(child, newsock);
	newsock->ops = sock->ops;
	newsock->state = SS_CONNECTED;
	release_sock(child);
	err = 0;
out:
	if (!err)	/* an MRC child or a TCP one (listen_tcp.c) */
		mrc_sock_support_zc(newsock);
	release_sock(sk);
	return err;
}

/* Free a child that never got a struct socket. */
static void mrc_child_free(struct sock *child)
{
	sock_prot_inuse_add(sock_net(child), &mrc_prot, -1);
	sock_put(child);
}

/*
 * Throw away a child nobody accepted: reset its connection. From process
 * context (listener closing) it is killed at once, else soon.
 */
static void mrc_child_drop(struct sock *child, bool can_sleep)
{
	struct mrc_conn *conn = mrc_sk(child)->conn;

	mrc_sk(child)->conn = NULL;
	mrc_conn_lock_bh(conn);
	conn->orphan = true;
	if (conn->core)
		mrc_core_abort(conn->core, 0);
	mrc_conn_unlock_bh(conn);
	if (can_sleep)
		mrc_conn_kill(conn);
	else
		mrc_conn_schedule_kill(conn, 0);
	mrc_conn_put(conn);
	mrc_child_free(child);
}

/* The listener closes: no new children; unaccepted ones are reset. */
void mrc_listen_stop(struct sock *sk)
{
	struct mrc_sock *msk = mrc_sk(sk);
	struct sock *child;

	spin_lock_bh(&msk->accept_lock);
	WRITE_ONCE(sk->sk_state, TCP_CLOSE);
	spin_unlock_bh(&msk->accept_lock);
	mrc_listen_tcp_stop(sk);
	mrc_port_unbind(sk);
	while ((child = mrc_accept_dequeue(sk)))
		mrc_child_drop(child, true);
}

/* Refuse a SYN nobody listens for with an RST on the plane it came in. */
static void mrc_listen_refuse(struct mrc_net *mn, u32 plane,
			      const struct mrc_pkt *syn)
{
	struct mrc_pkt rst = {
		.type = MRC_PKT_RST,
		.dst_token = syn->src_token,
		.src_token = get_random_u32() | 1,
		.ev = syn->ev,
		.rst_reason = ECONNREFUSED,
	};
	u8 buf[sizeof(struct mrc_hdr) + sizeof(struct mrc_rst)];
	u32 i, len;

	if (!__ratelimit(&mn->rst_limit))
		return;
	/* never the proposed token: the client would take it for early data's */
	if (rst.src_token == syn->dst_token)
		rst.src_token ^= 2;
	len = mrc_wire_build(&rst, buf, sizeof(buf));
	for (i = 0; i < syn->syn.nplanes && len; i++)
		if (syn->syn.planes[i].id == plane)
			mrc_udp_xmit(mn, plane, &syn->syn.planes[i], syn->ev,
				     buf, len, NULL, 0);
}

static struct sock *mrc_listener_get(struct mrc_net *mn,
				     const struct mrc_pkt *syn)
{
	struct mrc_sock *msk;
	struct sock *sk = NULL;

	/*
	 * Under the xarray lock, not RCU: a listener leaves the table before
	 * its last reference goes, and sockets are not RCU-freed (an RCU-freed
	 * sock would hold the module past close and make rmmod fail).
	 */
	xa_lock(&mn->ports);
	msk = xa_load(&mn->ports, syn->syn.dst_port);
	if (msk && READ_ONCE(msk->sk.sk_state) == TCP_LISTEN) {
		sk = &msk->sk;
		sock_hold(sk);
	}
	xa_unlock(&mn->ports);
	return sk;
}

/* A retransmitted SYN goes to the connection it already made. */
/*
 * Whether @conn is the child made for @syn's sender: a token is random,
 * so two clients may share one; their port and addresses tell them apart.
 * The fields compared are set before @conn is published in syn_peers.
 */
static bool mrc_listen_same_peer(const struct mrc_conn *conn,
				 const struct mrc_pkt *syn)
{
	const struct mrc_core_plane *p;
	u32 i;

	if (conn->peer_port != syn->syn.src_port)
		return false;
	for (i = 0; i < syn->syn.nplanes; i++) {
		p = &syn->syn.planes[i];
		if (conn->peer_is_v6 ?
		    !memcmp(&conn->peer_addr6, p->addr6, sizeof(p->addr6)) :
		    conn->peer_addr4 == p->addr4)
			return true;
	}
	return false;
}

static int mrc_listen_dup_syn(struct mrc_net *mn, u32 plane,
			      const struct mrc_pkt *syn)
{
	struct mrc_syn_peer *sp;
	struct mrc_conn *conn;
	int reason = MRC_DROP_NO_CONN;

	rcu_read_lock();
	sp = mrc_syn_peer_find(mn, syn->src_token);
	conn = sp ? rcu_dereference(sp->conn) : NULL;
	if (conn && !refcount_inc_not_zero(&conn->ref))
		conn = NULL;
	rcu_read_unlock();
	if (!conn)
		return -ENOENT;
	if (!mrc_listen_same_peer(conn, syn)) {
		mrc_conn_put(conn);
		return -ENOENT;
	}
	mrc_conn_lock(conn);
	if (conn->core)
		reason = mrc_core_input(conn->core, syn, plane, false);
	mrc_conn_unlock(conn);
	mrc_conn_put(conn);
	return reason;
}

/*
 * Claim @syn's token in syn_peers before its child exists. The client
 * resends a SYN on two EVs at once, and two CPUs may take the copies
 * together: without the claim both built a child, the client kept
 * whichever SYN_ACK came first, and the application could accept the
 * other, which never saw a byte (its peer later reset them both).
 * Return: true to build a child (*@claim is its entry, or NULL if another
 * peer holds the token); false if another SYN of this sender is being
 * (or was just) turned into a child, or the claim failed.
 */
static bool mrc_listen_claim(struct mrc_net *mn, const struct mrc_pkt *syn,
			     struct mrc_syn_peer **claim)
{
	struct mrc_syn_peer *sp;
	struct mrc_conn *conn;
	bool other_peer;
	int err;

	*claim = mrc_syn_peer_claim(mn, syn->src_token, &err);
	if (*claim)
		return true;
	if (err != -EEXIST)
		return false;
	/* An entry without a connection: a child still being built. */
	rcu_read_lock();
	sp = mrc_syn_peer_find(mn, syn->src_token);
	conn = sp ? rcu_dereference(sp->conn) : NULL;
	other_peer = conn && !mrc_listen_same_peer(conn, syn);
	rcu_read_unlock();
	return other_peer;
}

/*
 * Take a place in @parent's accept queue for a child about to be built,
 * or false if it is full. The check and the count are one step under
 * accept_lock: checked without it, two SYNs taken on two CPUs at once
 * both found room and the queue ended one over its bound (make
 * check-debug of 47d14f4: 10 children for a backlog of 8). Its
 * SYN_ACK goes out before the child is queued, so the place must be
 * held from before it. mrc_listen_unreserve() gives it back.
 */
static bool mrc_listen_reserve(struct sock *parent)
{
	struct mrc_sock *pmsk = mrc_sk(parent);
	bool room;

	spin_lock(&pmsk->accept_lock);
	room = !sk_acceptq_is_full(parent);
	if (room)
		sk_acceptq_added(parent);
	spin_unlock(&pmsk->accept_lock);
	return room;
}

static void mrc_listen_unreserve(struct sock *parent)
{
	struct mrc_sock *pmsk = mrc_sk(parent);

	spin_lock(&pmsk->accept_lock);
	sk_acceptq_removed(parent);
	spin_unlock(&pmsk->accept_lock);
}

/* The SYN sender's address on @plane (else its first): its peer key. */
static const struct mrc_core_plane *
mrc_listen_syn_addr(const struct mrc_pkt *syn, u32 plane)
{
	u32 i;

	for (i = 0; i < syn->syn.nplanes; i++)
		if (syn->syn.planes[i].id == plane)
			return &syn->syn.planes[i];
	return &syn->syn.planes[0];
}

/*
 * Build the child of @parent for @syn, in the accept-queue place
 * mrc_listen_reserve() took; softirq. Return: 0 once the child is
 * queued, else the drop reason (and the place is the caller's to give
 * back).
 */
static int mrc_listen_child(struct mrc_net *mn, struct sock *parent,
			    u32 plane, const struct mrc_pkt *syn)
{
	struct mrc_sock *pmsk = mrc_sk(parent), *cmsk;
	struct mrc_syn_peer *claim;
	struct mrc_core_cfg *cfg;
	struct mrc_conn *conn;
	struct sock *child;
	int err = MRC_DROP_NO_BUFFER;
	u32 i;

	if (!mrc_listen_claim(mn, syn, &claim))
		return MRC_DROP_DUPLICATE;
	cfg = kzalloc(sizeof(*cfg), GFP_ATOMIC);
	child = mrc_sock_alloc(sock_net(parent), NULL, parent->sk_type,
			       GFP_ATOMIC, 0);
	if (!cfg || !child)
		goto out;
	cmsk = mrc_sk(child);
	cmsk->ev_profile = pmsk->ev_profile;
	cmsk->cc_profile = pmsk->cc_profile;
	cmsk->user_timeout_ms = pmsk->user_timeout_ms;
	cmsk->ev_count = pmsk->ev_count;
	cmsk->port = pmsk->port;
	cmsk->local = pmsk->local;
	child->sk_sndbuf = parent->sk_sndbuf;
	child->sk_rcvbuf = parent->sk_rcvbuf;
	/* as a TCP child's socket flags are its listener's */
	if (sock_flag(parent, SOCK_ZEROCOPY))
		sock_set_flag(child, SOCK_ZEROCOPY);
	if (mrc_sock_core_cfg(child, cfg))
		goto out;
	cfg->peer_port = syn->syn.src_port;
	/* the token the client's early data is sent to (if free here) */
	if (READ_ONCE(mn->early_data) & MRC_EARLY_DATA_ACCEPT)
		cfg->token = syn->dst_token;

	conn = mrc_conn_create(mn, child, cfg, mrc_listen_syn_addr(syn, plane),
			       true);
	if (!conn)
		goto out;
	for (i = 0; i < syn->syn.nplanes; i++)
		if (syn->syn.planes[i].id == plane)
			mrc_sock_set_peer(conn, cmsk, &syn->syn.planes[i],
					  syn->syn.src_port);
	/* Two peers with one token (rare): the second one's child is not in
	 * syn_peers, so its retransmitted SYNs make new children; the first
	 * connection stays intact. Its peer fields are set: publish it.
	 */
	conn->peer_token = syn->src_token;
	if (claim) {
		conn->syn_peer = claim;
		rcu_assign_pointer(claim->conn, conn);
		claim = NULL;
	}
	cmsk->conn = conn;
	child->sk_state = TCP_SYN_RECV;

	mrc_conn_lock(conn);
	err = mrc_core_accept(conn->core, syn, plane) ? MRC_DROP_MALFORMED : 0;
	mrc_conn_unlock(conn);
	if (err) {
		mrc_child_drop(child, false);
		child = NULL;
		goto out;
	}
	/* mrc_listen_stop() may have drained the queue since we looked. */
	spin_lock(&pmsk->accept_lock);
	if (READ_ONCE(parent->sk_state) == TCP_LISTEN) {
		list_add_tail(&cmsk->accept_node, &pmsk->accept_q);
		err = 0;
	} else {
		err = MRC_DROP_NO_CONN;
	}
	spin_unlock(&pmsk->accept_lock);
	if (err) {
		mrc_child_drop(child, false);
	} else {
		mrc_mib_inc(mn->net, MRC_MIB_CONNACCEPT);
		parent->sk_data_ready(parent);
	}
	child = NULL;
out:
	if (claim)
		mrc_syn_peer_drop(mn, claim);
	if (child)
		mrc_child_free(child);
	kfree(cfg);
	return err;
}

/*
 * mrc_listen_syn - a SYN arrived on @plane (softirq): resend the SYN_ACK
 * of a connection it already made, or make a child of the listener on
 * its port, or refuse it.
 * Return: the drop reason, 0 if taken.
 */
int mrc_listen_syn(struct mrc_net *mn, u32 plane, const struct mrc_pkt *syn)
{
	struct sock *parent;
	int reason;

	reason = mrc_listen_dup_syn(mn, plane, syn);
	if (reason != -ENOENT)
		return reason;

	parent = mrc_listener_get(mn, syn);
	if (!parent || parent->sk_type != (syn->syn.sock_type ==
					   MRC_SYN_SEQPACKET ?
					   SOCK_SEQPACKET : SOCK_STREAM)) {
		mrc_listen_refuse(mn, plane, syn);
		reason = MRC_DROP_NO_CONN;
	} else if (!mrc_listen_reserve(parent)) {
		reason = MRC_DROP_NO_BUFFER;	/* the client retries */
	} else {
		reason = mrc_listen_child(mn, parent, plane, syn);
		if (reason)
			mrc_listen_unreserve(parent);
	}
	if (parent)
		sock_put(parent);
	return reason;
}
