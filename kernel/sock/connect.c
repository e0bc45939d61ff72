// SPDX-License-Identifier: GPL-2.0
/*
 * Connection set-up and state for AF_MRC sockets: connect() (SYN on the
 * plane that routes to the peer), listen()/accept() with children made by
 * the listener when a SYN arrives (softirq), and the core's state notes
 * turned into socket state and wake-ups.
 */
#include <linux/slab.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include <net/sock.h>

#include "offload/offload.h"
#include "pernet.h"
#include "conn/conn.h"
#include "ctl/netlink.h"
#include "ctl/plane.h"
#include "sock/sock.h"
#include "conn/udp.h"

/* The plane whose device routes to @addr, or -ENETUNREACH. */
static int mrc_route_plane(struct mrc_net *mn, const struct sockaddr_mrc *a)
{
	struct net_device *dev = NULL;
	struct mrc_plane *pl;
	struct dst_entry *dst;
	struct flowi6 fl6 = {};
	struct rtable *rt;
	int id, plane = -ENETUNREACH;

	if (a->mrc_addr_family == AF_INET) {
		rt = ip_route_output(mn->net, a->mrc_addr4, 0, 0, 0);
		if (IS_ERR(rt))
			return -ENETUNREACH;
		dst = &rt->dst;
	} else {
		memcpy(&fl6.daddr, a->mrc_addr6, sizeof(fl6.daddr));
		fl6.flowi6_oif = a->mrc_scope_id;
		dst = ip6_route_output(mn->net, NULL, &fl6);
		if (dst->error) {
			dst_release(dst);
			return -ENETUNREACH;
		}
	}
	dev = dst->dev;
	rcu_read_lock();
	for (id = 0; id < MRC_MAX_PLANES; id++) {
		pl = rcu_dereference(mn->planes[id]);
		if (pl && pl->dev == dev) {
			plane = id;
			break;
		}
	}
	rcu_read_unlock();
	dst_release(dst);
	return plane;
}

static void mrc_conn_set_peer(struct mrc_conn *conn, struct mrc_sock *msk,
			      const struct mrc_core_plane *peer, u16 port)
{
	conn->peer_port = port;
	conn->local_port = msk->port;
	conn->peer_is_v6 = !(peer->flags & MRC_PLANE_F_V4);
	conn->peer_addr4 = peer->addr4;
	memcpy(&conn->peer_addr6, peer->addr6, sizeof(conn->peer_addr6));
	if (conn->peer_is_v6)
		mrc_sock_fill_addr(&msk->peer, AF_INET6, peer->addr6, port);
	else
		mrc_sock_fill_addr(&msk->peer, AF_INET, &peer->addr4, port);
	conn->ev_profile = msk->ev_profile;
	conn->cc_profile = msk->cc_profile;
}

static bool mrc_connect_done(struct sock *sk)
{
	return sk->sk_state != TCP_SYN_SENT;
}

/* Start the handshake; under lock_sock(). */
static int mrc_connect_start(struct sock *sk, const struct sockaddr_mrc *addr)
{
	struct mrc_net *mn = mrc_pernet(sock_net(sk));
	struct mrc_sock *msk = mrc_sk(sk);
	struct mrc_core_cfg *cfg;
	struct mrc_conn *conn;
	int plane, err;
	u32 i;

	plane = mrc_route_plane(mn, addr);
	if (plane < 0)
		return plane;
	if (!msk->port_hashed) {
		err = mrc_port_bind(sk, 0);
		if (err)
			return err;
	}
	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	err = mrc_sock_core_cfg(sk, cfg);
	if (err)
		goto out;
	err = -ENETUNREACH;
	for (i = 0; i < cfg->nplanes; i++)
		if (cfg->planes[i].id == plane)
			break;
	if (i == cfg->nplanes)
		goto out;
	/* Peers use the same UDP port on a plane until the SYN_ACK says. */
	cfg->has_peer = true;
	cfg->peer.id = plane;
	cfg->peer.udp_port = cfg->planes[i].udp_port;
	if (addr->mrc_addr_family == AF_INET) {
		cfg->peer.flags = MRC_PLANE_F_V4;
		cfg->peer.addr4 = addr->mrc_addr4;
	} else {
		cfg->peer.flags = MRC_PLANE_F_V6;
		memcpy(cfg->peer.addr6, addr->mrc_addr6, 16);
	}
	cfg->peer_port = ntohs(addr->mrc_port);

	err = -ENOMEM;
	conn = mrc_conn_create(mn, sk, cfg, false);
	if (!conn)
		goto out;
	mrc_conn_set_peer(conn, msk, &cfg->peer, cfg->peer_port);
	msk->conn = conn;
	sk->sk_state = TCP_SYN_SENT;
	sk->sk_socket->state = SS_CONNECTING;
	mrc_mib_inc(mn->net, MRC_MIB_CONNOPEN);
	spin_lock_bh(&conn->lock);
	conn->state = MRC_CONN_CONNECTING;
	err = mrc_core_connect(conn->core);
	spin_unlock_bh(&conn->lock);
out:
	kfree(cfg);
	return err;
}

int mrc_connect(struct socket *sock, struct sockaddr *uaddr, int addr_len,
		int flags)
{
	struct sock *sk = sock->sk;
	long timeo;
	int err = mrc_addr_validate(uaddr, addr_len);

	if (err)
		return err;
	lock_sock(sk);
	switch (sock->state) {
	case SS_CONNECTED:
		err = -EISCONN;
		goto out;
	case SS_CONNECTING:
		err = -EALREADY;
		if (sk->sk_state != TCP_SYN_SENT)
			goto done;
		break;
	default:
		if (sk->sk_state == TCP_LISTEN || mrc_sk(sk)->conn) {
			err = -EISCONN;
			goto out;
		}
		err = mrc_connect_start(sk, (const struct sockaddr_mrc *)uaddr);
		if (err)
			goto out;
		err = -EINPROGRESS;
	}
	timeo = sock_sndtimeo(sk, flags & O_NONBLOCK);
	if (!timeo)
		goto out;
	err = mrc_sock_wait(sk, &timeo, mrc_connect_done);
	if (err)
		goto out;
done:
	err = sock_error(sk);
	if (!err && sk->sk_state != TCP_ESTABLISHED)
		err = -ECONNREFUSED;
	sock->state = err ? SS_UNCONNECTED : SS_CONNECTED;
out:
	release_sock(sk);
	return err;
}

int mrc_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;
	int err = 0;

	lock_sock(sk);
	if (sock->state != SS_UNCONNECTED || mrc_sk(sk)->conn) {
		err = -EINVAL;
		goto out;
	}
	if (!mrc_sk(sk)->port_hashed)
		err = mrc_port_bind(sk, 0);
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
	       sk->sk_state != TCP_LISTEN;
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
		err = -EAGAIN;
		if (!timeo)
			goto out;
		err = mrc_sock_wait(sk, &timeo, mrc_accept_ready);
		if (err)
			goto out;
		err = -EINVAL;
		if (sk->sk_state != TCP_LISTEN)
			goto out;
	}
	lock_sock(child);
	sock_graft(child, newsock);
	newsock->ops = sock->ops;
	newsock->state = SS_CONNECTED;
	release_sock(child);
	err = 0;
out:
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
	spin_lock_bh(&conn->lock);
	conn->orphan = true;
	if (conn->core)
		mrc_core_abort(conn->core, 0);
	spin_unlock_bh(&conn->lock);
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
	struct mrc_conn *conn;
	int reason = MRC_DROP_NO_CONN;

	rcu_read_lock();
	conn = xa_load(&mn->syn_peers, syn->src_token);
	if (conn && !refcount_inc_not_zero(&conn->ref))
		conn = NULL;
	rcu_read_unlock();
	if (!conn)
		return -ENOENT;
	if (!mrc_listen_same_peer(conn, syn)) {
		mrc_conn_put(conn);
		return -ENOENT;
	}
	spin_lock(&conn->lock);
	if (conn->core)
		reason = mrc_core_input(conn->core, syn, plane, false);
	spin_unlock(&conn->lock);
	mrc_conn_put(conn);
	return reason;
}

/*
 * Claim @syn's token in syn_peers before its child exists. The client
 * resends a SYN on two EVs at once, and two CPUs may take the copies
 * together: without the claim both built a child, the client kept
 * whichever SYN_ACK came first, and the application could accept the
 * other, which never saw a byte (its peer later reset them both).
 * Return: true if claimed; false if another SYN of this sender is being
 * (or was just) turned into a child.
 */
static bool mrc_listen_claim(struct mrc_net *mn, const struct mrc_pkt *syn,
			     bool *claimed)
{
	struct mrc_conn *conn;
	bool other_peer;

	*claimed = !xa_insert(&mn->syn_peers, syn->src_token, NULL,
			      GFP_ATOMIC);
	if (*claimed)
		return true;
	/* A reserved slot loads as NULL: a child still being built. */
	rcu_read_lock();
	conn = xa_load(&mn->syn_peers, syn->src_token);
	other_peer = conn && !mrc_listen_same_peer(conn, syn);
	rcu_read_unlock();
	return other_peer;
}

/* Build the child of @parent for @syn; softirq. */
static int mrc_listen_child(struct mrc_net *mn, struct sock *parent,
			    u32 plane, const struct mrc_pkt *syn)
{
	struct mrc_sock *pmsk = mrc_sk(parent), *cmsk;
	struct mrc_core_cfg *cfg;
	struct mrc_conn *conn;
	struct sock *child;
	int err = MRC_DROP_NO_BUFFER;
	bool claimed;
	u32 i;

	if (!mrc_listen_claim(mn, syn, &claimed))
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
	if (mrc_sock_core_cfg(child, cfg))
		goto out;
	cfg->peer_port = syn->syn.src_port;

	conn = mrc_conn_create(mn, child, cfg, true);
	if (!conn)
		goto out;
	for (i = 0; i < syn->syn.nplanes; i++)
		if (syn->syn.planes[i].id == plane)
			mrc_conn_set_peer(conn, cmsk, &syn->syn.planes[i],
					  syn->syn.src_port);
	/* Two peers with one token (rare): the second one's child is not in
	 * syn_peers, so its retransmitted SYNs make new children; the first
	 * connection stays intact. A claimed slot takes the store without
	 * allocating.
	 */
	if (claimed) {
		conn->peer_token = syn->src_token;
		xa_store(&mn->syn_peers, conn->peer_token, conn, GFP_ATOMIC);
		claimed = false;
	}
	cmsk->conn = conn;
	child->sk_state = TCP_SYN_RECV;

	spin_lock(&conn->lock);
	err = mrc_core_accept(conn->core, syn, plane) ? MRC_DROP_MALFORMED : 0;
	spin_unlock(&conn->lock);
	if (err) {
		mrc_child_drop(child, false);
		child = NULL;
		goto out;
	}
	/* mrc_listen_stop() may have drained the queue since we looked. */
	spin_lock(&pmsk->accept_lock);
	if (READ_ONCE(parent->sk_state) == TCP_LISTEN) {
		list_add_tail(&cmsk->accept_node, &pmsk->accept_q);
		sk_acceptq_added(parent);
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
	if (claimed)
		xa_release(&mn->syn_peers, syn->src_token);
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
	} else if (sk_acceptq_is_full(parent)) {
		reason = MRC_DROP_NO_BUFFER;	/* the client retries */
	} else {
		reason = mrc_listen_child(mn, parent, plane, syn);
	}
	if (parent)
		sock_put(parent);
	return reason;
}

/* The core's state notes; under the connection's spinlock. */
void mrc_sock_notify(struct mrc_conn *conn, int note, u32 arg)
{
	struct sock *sk = conn->sk;

	switch (note) {
	case MRC_NOTE_ESTABLISHED:
		conn->state = MRC_CONN_ESTABLISHED;
		WRITE_ONCE(sk->sk_state, TCP_ESTABLISHED);
		sk->sk_state_change(sk);
		mrc_nl_event_conn(conn, MRC_EVENT_CONN_ESTABLISHED, 0);
		mrc_offload_conn_established(conn);
		break;
	case MRC_NOTE_EV_STATE:
		mrc_offload_conn_ev_changed(conn, arg);
		mrc_nl_event_conn_ev(conn, arg);
		break;
	case MRC_NOTE_WRITABLE:
		sk->sk_write_space(sk);
		break;
	case MRC_NOTE_PEER_FIN:
		conn->state = MRC_CONN_CLOSING;
		sk->sk_shutdown |= RCV_SHUTDOWN;
		sk->sk_state_change(sk);
		sk->sk_data_ready(sk);
		break;
	case MRC_NOTE_DONE:
	case MRC_NOTE_ERROR:
		conn->state = MRC_CONN_CLOSED;
		if (note == MRC_NOTE_ERROR && arg) {
			WRITE_ONCE(sk->sk_err, arg);
			mrc_mib_inc(sock_net(sk), arg == ETIMEDOUT ?
				    MRC_MIB_CONNTIMEOUT : MRC_MIB_CONNRESET);
		}
		WRITE_ONCE(sk->sk_state, TCP_CLOSE);
		sk->sk_shutdown = SHUTDOWN_MASK;
		sk->sk_state_change(sk);
		if (note == MRC_NOTE_ERROR)
			sk_error_report(sk);
		mrc_nl_event_conn(conn, MRC_EVENT_CONN_CLOSED,
				  note == MRC_NOTE_DONE ? MRC_REASON_NONE :
				  arg == ETIMEDOUT ? MRC_REASON_TIMEOUT :
				  MRC_REASON_PEER);
		if (conn->orphan && !conn->dying) {
			conn->dying = true;
			mrc_conn_schedule_kill(conn, note == MRC_NOTE_DONE ?
					       MRC_CONN_DONE_LINGER : 0);
		}
		break;
	default:
		break;
	}
}
