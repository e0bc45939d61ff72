// SPDX-License-Identifier: GPL-2.0
/*
 * The active side of AF_MRC connection set-up: connect() (SYN on the
 * plane that routes to the peer), the peer's address as the socket sees
 * it, and the core's state notes turned into socket state and wake-ups.
 * The passive side is listen.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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

/* mrc_route_plane(): a local address that is no plane's */
#define MRC_LOCAL_ANY_PLANE	(-1000)

/* The plane whose device is @dev, or -ENETUNREACH. */
static int mrc_dev_plane(struct mrc_net *mn, const struct net_device *dev)
{
	struct mrc_plane *pl;
	int id, plane = -ENETUNREACH;

	rcu_read_lock();
	for (id = 0; id < MRC_MAX_PLANES; id++) {
		pl = rcu_dereference(mn->planes[id]);
		if (pl && pl->dev == dev) {
			plane = id;
			break;
		}
	}
	rcu_read_unlock();
	return plane;
}

/*
 * The plane whose device routes to @addr, or -ENETUNREACH. An address of
 * this host (@local set) routes through the loopback device: its plane is
 * the one whose device holds the address, MRC_LOCAL_ANY_PLANE when none
 * does (127.0.0.1, an address of a device that is no plane).
 */
static int mrc_route_plane(struct mrc_net *mn, const struct sockaddr_mrc *a,
			   bool *local)
{
	const struct net_device *dev;
	struct dst_entry *dst;
	struct flowi6 fl6 = {};
	struct rtable *rt;
	int plane = -ENETUNREACH;

	rcu_read_lock();
	if (a->mrc_addr_family == AF_INET) {
		rt = ip_route_output(mn->net, a->mrc_addr4, 0, 0, 0);
		if (IS_ERR(rt))
			goto out;
		dst = &rt->dst;
		*local = rt->rt_type == RTN_LOCAL;
		/* a local route's rt_iif is the device with the address */
		dev = *local ? dev_get_by_index_rcu(mn->net, rt->rt_iif) :
		      dst->dev;
	} else {
		memcpy(&fl6.daddr, a->mrc_addr6, sizeof(fl6.daddr));
		fl6.flowi6_oif = a->mrc_scope_id;
		dst = ip6_route_output(mn->net, NULL, &fl6);
		if (dst->error) {
			dst_release(dst);
			goto out;
		}
		*local = dst->dev->flags & IFF_LOOPBACK;
		/* a local route's idev is the device with the address */
		dev = *local ? ip6_dst_idev(dst)->dev : dst->dev;
	}
	if (dev)
		plane = mrc_dev_plane(mn, dev);
	dst_release(dst);
	if (plane < 0 && *local)
		plane = MRC_LOCAL_ANY_PLANE;
out:
	rcu_read_unlock();
	return plane;
}

/*
 * A connection to this host is carried like any other, over the planes,
 * each plane's packets addressed to this host's own address on that
 * plane and looped back by the routing (both ends demux by token). The
 * SYN goes to the address of plane @plane, or of the first plane with
 * an address of @family when the destination is no plane's. Return: the
 * index in @cfg->planes, or -ENETUNREACH.
 */
static int mrc_local_peer(struct mrc_core_cfg *cfg, int plane, int family)
{
	u32 want = family == AF_INET ? MRC_PLANE_F_V4 : MRC_PLANE_F_V6;
	struct mrc_core_plane *p;
	u32 i;

	for (i = 0; i < cfg->nplanes; i++) {
		p = &cfg->planes[i];
		if (!(p->flags & want) || !(cfg->plane_up & BIT(p->id)))
			continue;
		if (plane == MRC_LOCAL_ANY_PLANE || p->id == plane)
			break;
	}
	if (i == cfg->nplanes)
		return -ENETUNREACH;
	cfg->peer.flags = want;
	cfg->peer.addr4 = p->addr4;
	memcpy(cfg->peer.addr6, p->addr6, sizeof(cfg->peer.addr6));
	return i;
}

void mrc_sock_set_peer(struct mrc_conn *conn, struct mrc_sock *msk,
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
	return sk->sk_state != TCP_SYN_SENT || mrc_tcp_sock(sk);
}

/* Start the handshake; under lock_sock(). */
static int mrc_connect_start(struct sock *sk, const struct sockaddr_mrc *addr)
{
	struct mrc_net *mn = mrc_pernet(sock_net(sk));
	struct mrc_sock *msk = mrc_sk(sk);
	struct mrc_core_cfg *cfg;
	struct mrc_conn *conn;
	bool local = false;
	int plane, err, i;

	plane = mrc_route_plane(mn, addr, &local);
	if (plane < 0 && plane != MRC_LOCAL_ANY_PLANE)
		return plane;
	if (!msk->port) {
		err = mrc_port_connect_bind(sk);
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
	if (local) {
		i = mrc_local_peer(cfg, plane, addr->mrc_addr_family);
		if (i < 0)
			goto out;
	} else {
		for (i = 0; i < cfg->nplanes; i++)
			if (cfg->planes[i].id == plane)
				break;
		if (i == cfg->nplanes)
			goto out;
		if (addr->mrc_addr_family == AF_INET) {
			cfg->peer.flags = MRC_PLANE_F_V4;
			cfg->peer.addr4 = addr->mrc_addr4;
		} else {
			cfg->peer.flags = MRC_PLANE_F_V6;
			memcpy(cfg->peer.addr6, addr->mrc_addr6, 16);
		}
	}
	/* Peers use the same UDP port on a plane until the SYN_ACK says. */
	cfg->has_peer = true;
	cfg->peer.id = cfg->planes[i].id;
	cfg->peer.udp_port = cfg->planes[i].udp_port;
	cfg->peer_port = ntohs(addr->mrc_port);
	/* Not with a TCP fallback armed: what went early would be MRC's. */
	if ((READ_ONCE(mn->early_data) & MRC_EARLY_DATA_CONNECT) &&
	    !(msk->connect_tcp && msk->connect_tcp->ms))
		cfg->early_data = min_t(u32, MRC_EARLY_DATA_BYTES,
					cfg->sndbuf);

	err = -ENOMEM;
	conn = mrc_conn_create(mn, sk, cfg, &cfg->peer, false);
	if (!conn)
		goto out;
	mrc_sock_set_peer(conn, msk, &cfg->peer, cfg->peer_port);
	if (local)	/* getpeername() names what connect() named */
		msk->peer = *addr;
	msk->conn = conn;
	if (local)
		mrc_mib_inc(mn->net, MRC_MIB_CONNLOCAL);
	sk->sk_state = TCP_SYN_SENT;
	sk->sk_socket->state = SS_CONNECTING;
	if (msk->connect_tcp)	/* TCP connects to what connect() named */
		msk->peer = *addr;
	mrc_mib_inc(mn->net, MRC_MIB_CONNOPEN);
	mrc_conn_lock_bh(conn);
	conn->state = MRC_CONN_CONNECTING;
	err = mrc_core_connect(conn->core);
	mrc_conn_unlock_bh(conn);
	if (!err)
		mrc_connect_tcp_arm(sk);
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
	if (mrc_tcp_sock(sk))
		return mrc_connect_tcp_connect(sock, (void *)uaddr, flags);
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
			err = mrc_connect_tcp_unreachable(sk, (void *)uaddr, err);
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
	if (mrc_tcp_sock(sk)) {	/* the rest of the wait is TCP's */
		release_sock(sk);
		return mrc_connect_tcp_connect(sock, (void *)uaddr, flags);
	}
done:
	err = sock_error(sk);
	if (!err && sk->sk_state != TCP_ESTABLISHED)
		err = -ECONNREFUSED;
	sock->state = err ? SS_UNCONNECTED : SS_CONNECTED;
out:
	release_sock(sk);
	return err;
}

/* The connection of @sk ended, with error @err (0: none) if @error. */
static void mrc_sock_closed(struct sock *sk, u32 err, bool error)
{
	if (err)
		WRITE_ONCE(sk->sk_err, err);
	WRITE_ONCE(sk->sk_state, TCP_CLOSE);
	sk->sk_shutdown = SHUTDOWN_MASK;
	sk->sk_state_change(sk);
	if (error)
		sk_error_report(sk);
}

/* The core's state notes; under the connection's spinlock. */
void mrc_sock_notify(struct mrc_conn *conn, int note, u32 arg)
{
	struct sock *sk = conn->sk;
	bool connecting;

	lockdep_assert_held(&conn->lock);

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
	case MRC_NOTE_EV_SUSPECT:
		break;	/* for the peer table only (conn/env.c) */
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
		connecting = conn->state == MRC_CONN_CONNECTING;
		conn->state = MRC_CONN_CLOSED;
		if (note == MRC_NOTE_ERROR && arg)
			mrc_mib_inc(sock_net(sk), arg == ETIMEDOUT ?
				    MRC_MIB_CONNTIMEOUT : MRC_MIB_CONNRESET);
		/* A released socket, or one gone TCP, is not this conn's. */
		if (!conn->orphan &&
		    !(connecting && note == MRC_NOTE_ERROR &&
		      mrc_connect_tcp_refused(sk)))
			mrc_sock_closed(sk, note == MRC_NOTE_ERROR ? arg : 0,
					note == MRC_NOTE_ERROR);
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
