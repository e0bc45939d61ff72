// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_MRC socket family: socket creation for SOCK_STREAM and
 * SOCK_SEQPACKET, service ports (bind), names, options, release and the
 * proto_ops tables. Connection set-up is in connect.c and listen.c, data in
 * io.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <linux/random.h>
#include <linux/socket.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "pernet.h"
#include "conn/conn.h"
#include "conn/demux.h"
#include "ctl/profile.h"
#include "sock/sock.h"

#define MRC_PORT_EPHEMERAL_LOW	32768
#define MRC_PORT_EPHEMERAL_HIGH	60999
#define MRC_DEFAULT_USER_TIMEOUT_MS 30000
/*
 * MRC_TRAIN's default: DATA packets in a row on one EV, sent as one UDP
 * GSO skb (conn/udp.c). 44 segments at an MTU of 1500 fill the 64 KiB
 * one skb can say, as TCP's GSO skbs do; jumbo segments stop at seven
 * (the train's byte bound). Against 8, in alternating quick runs (issue
 * 24's note): P10 more goodput at less CPU per byte, P1 and P3 as they
 * were, P1h within its noise.
 */
#define MRC_SOCK_DEF_TRAIN	44
/* The core's default delayed-SACK count (MRC_CORE_DEF_ACK_EVERY). */
#define MRC_SOCK_MIN_ACK_EVERY	4

/*
 * release_sock(), after the backlog: a timer expiry that waited for it
 * (conn/conn.c, mrc_conn_timer_defer()). Under sk_lock.slock, BHs off.
 */
static void mrc_sock_release_cb(struct sock *sk)
{
	struct mrc_conn *conn = mrc_sk(sk)->conn;

	if (conn)
		mrc_conn_timer_deferred(conn);
}

struct proto mrc_prot = {
	.name		= "MRC",
	.owner		= THIS_MODULE,
	.obj_size	= sizeof(struct mrc_sock),
	.release_cb	= mrc_sock_release_cb,
};

void mrc_sock_fill_addr(struct sockaddr_mrc *addr, int family,
			const void *ip, u16 port)
{
	memset(addr, 0, sizeof(*addr));
	addr->mrc_family = mrc_family;
	addr->mrc_port = htons(port);
	addr->mrc_addr_family = family;
	if (family == AF_INET && ip)
		memcpy(&addr->mrc_addr4, ip, 4);
	else if (family == AF_INET6 && ip)
		memcpy(addr->mrc_addr6, ip, 16);
}

/*
 * Check an address handed to bind() or connect().
 * Return: 0 when @uaddr is a well-formed struct sockaddr_mrc.
 */
int mrc_addr_validate(const struct sockaddr *uaddr, int addr_len)
{
	const struct sockaddr_mrc *addr = (const struct sockaddr_mrc *)uaddr;

	if (addr_len < (int)sizeof(*addr))
		return -EINVAL;
	if (addr->mrc_family != mrc_family)
		return -EAFNOSUPPORT;
	if (addr->mrc_addr_family != AF_INET &&
	    addr->mrc_addr_family != AF_INET6)
		return -EAFNOSUPPORT;
	if (addr->mrc_reserved)
		return -EINVAL;
	return 0;
}

static bool mrc_port_ephemeral(u32 port)
{
	return port >= MRC_PORT_EPHEMERAL_LOW && port <= MRC_PORT_EPHEMERAL_HIGH;
}

/*
 * Claim service port @port (0: an ephemeral one) for @sk. Under
 * lock_sock(). Return: 0 or -EADDRINUSE.
 */
int mrc_port_bind(struct sock *sk, u16 port)
{
	struct mrc_net *mn = mrc_pernet(sock_net(sk));
	struct mrc_sock *msk = mrc_sk(sk);
	u32 span = MRC_PORT_EPHEMERAL_HIGH - MRC_PORT_EPHEMERAL_LOW + 1;
	u32 start, i;
	int err = -EADDRINUSE;

	mutex_lock(&mn->lock);
	if (port) {
		err = xa_insert_bh(&mn->ports, port, msk, GFP_KERNEL);
	} else if (mn->ports_ephemeral < span) {
		/* a free one is there: the count saves a walk of them all */
		start = get_random_u32_below(span);
		for (i = 0; i < span && err; i++) {
			port = MRC_PORT_EPHEMERAL_LOW + (start + i) % span;
			err = xa_insert_bh(&mn->ports, port, msk, GFP_KERNEL);
		}
	}
	if (!err && mrc_port_ephemeral(port))
		mn->ports_ephemeral++;
	mutex_unlock(&mn->lock);
	if (err)
		return err == -EBUSY ? -EADDRINUSE : err;
	msk->port = port;
	msk->port_hashed = true;
	msk->local.mrc_port = htons(port);
	return 0;
}

/*
 * connect()'s automatic bind: an ephemeral port of its own while one is
 * free; then one that another connecting socket holds. A connection is
 * known by its token (as a TCP one is by its four-tuple), so only a
 * listener or an explicit bind needs a port to itself, and a netns is
 * not limited to the 28,232 ephemeral ports' worth of connections.
 * Under lock_sock(). Return: 0 or -EADDRINUSE.
 */
int mrc_port_connect_bind(struct sock *sk)
{
	struct mrc_net *mn = mrc_pernet(sock_net(sk));
	u32 span = MRC_PORT_EPHEMERAL_HIGH - MRC_PORT_EPHEMERAL_LOW + 1;
	struct mrc_sock *msk = mrc_sk(sk), *holder;
	u32 start, i, port = 0;
	int err;

	err = mrc_port_bind(sk, 0);
	if (!err)
		msk->port_shareable = true;
	if (err != -EADDRINUSE)
		return err;
	mutex_lock(&mn->lock);
	start = get_random_u32_below(span);
	for (i = 0; i < span && !port; i++) {
		port = MRC_PORT_EPHEMERAL_LOW + (start + i) % span;
		holder = xa_load(&mn->ports, port);
		if (!holder || !READ_ONCE(holder->port_shareable))
			port = 0;
	}
	mutex_unlock(&mn->lock);
	if (!port)
		return -EADDRINUSE;
	msk->port = port;
	msk->local.mrc_port = htons(port);
	return 0;
}

void mrc_port_unbind(struct sock *sk)
{
	struct mrc_net *mn = mrc_pernet(sock_net(sk));
	struct mrc_sock *msk = mrc_sk(sk);

	if (!msk->port_hashed)
		return;
	mutex_lock(&mn->lock);
	xa_erase_bh(&mn->ports, msk->port);
	if (mrc_port_ephemeral(msk->port))
		mn->ports_ephemeral--;
	mutex_unlock(&mn->lock);
	msk->port_hashed = false;
	msk->port_shareable = false;
}

/* Is @addr one of this netns's plane addresses (or the wildcard)? */
static bool mrc_addr_is_local(struct net *net, const struct sockaddr_mrc *a)
{
	struct mrc_core_cfg *cfg;
	bool found = false;
	u32 i;

	if (a->mrc_addr_family == AF_INET && !a->mrc_addr4)
		return true;
	if (a->mrc_addr_family == AF_INET6 &&
	    ipv6_addr_any((const struct in6_addr *)a->mrc_addr6))
		return true;
	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return false;
	mrc_conn_cfg_planes(mrc_pernet(net), cfg);
	for (i = 0; i < cfg->nplanes && !found; i++) {
		if (a->mrc_addr_family == AF_INET)
			found = cfg->planes[i].addr4 == a->mrc_addr4;
		else
			found = !memcmp(cfg->planes[i].addr6, a->mrc_addr6, 16);
	}
	kfree(cfg);
	return found;
}

static int mrc_bind(struct socket *sock, struct sockaddr *uaddr, int addr_len)
{
	const struct sockaddr_mrc *addr = (const struct sockaddr_mrc *)uaddr;
	struct sock *sk = sock->sk;
	int err = mrc_addr_validate(uaddr, addr_len);

	if (err)
		return err;
	if (!mrc_addr_is_local(sock_net(sk), addr))
		return -EADDRNOTAVAIL;
	lock_sock(sk);
	if (mrc_sk(sk)->port_hashed || sk->sk_state != TCP_CLOSE ||
	    mrc_sk(sk)->conn) {
		err = -EINVAL;
	} else {
		mrc_sk(sk)->local = *addr;
		err = mrc_port_bind(sk, ntohs(addr->mrc_port));
	}
	release_sock(sk);
	return err;
}

static int mrc_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct sockaddr_mrc *addr = (struct sockaddr_mrc *)uaddr;

	if (mrc_tcp_sock(sock->sk))
		return mrc_connect_tcp_getname(sock, addr, peer);
	lock_sock(sock->sk);
	if (peer) {
		if (!msk->conn) {
			release_sock(sock->sk);
			return -ENOTCONN;
		}
		*addr = msk->peer;
	} else {
		*addr = msk->local;
		addr->mrc_family = mrc_family;
	}
	release_sock(sock->sk);
	return sizeof(*addr);
}

/* Socket options become the core configuration at connect/accept. */
int mrc_sock_core_cfg(struct sock *sk, struct mrc_core_cfg *cfg)
{
	struct mrc_net *mn = mrc_pernet(sock_net(sk));
	struct mrc_sock *msk = mrc_sk(sk);
	struct mrc_cc_profile *cc;
	struct mrc_ev_profile *ev;
	int err = 0;

	cfg->sock_type = sk->sk_type == SOCK_SEQPACKET ? MRC_SYN_SEQPACKET :
			 MRC_SYN_STREAM;
	cfg->local_port = msk->port;
	cfg->sndbuf = READ_ONCE(sk->sk_sndbuf);
	msk->sndbuf_full = cfg->sndbuf;
	cfg->rcvbuf = READ_ONCE(sk->sk_rcvbuf);
	cfg->user_timeout_ms = msk->user_timeout_ms;
	cfg->ev_count = msk->ev_count;
	cfg->train_pkts = msk->train;
	/*
	 * A SACK a train, not two: the core's 4 split every train of 8, and
	 * each SACK is a packet through the stack both ways.
	 */
	if (msk->train > MRC_SOCK_MIN_ACK_EVERY)
		cfg->ack_every = msk->train;
	mrc_conn_cfg_planes(mn, cfg);

	rcu_read_lock();
	if (msk->ev_profile) {
		ev = xa_load(&mn->ev_profiles, msk->ev_profile);
		if (!ev || ev->hdr.state != MRC_PROFILE_ONLINE) {
			err = -ENOENT;
		} else {
			cfg->ev_count = ev->ev_count;
			cfg->ev_min_active = ev->ev_min_active;
		}
	}
	if (msk->cc_profile && !err) {
		cc = xa_load(&mn->cc_profiles, msk->cc_profile);
		if (!cc || cc->hdr.state != MRC_PROFILE_ONLINE) {
			err = -ENOENT;
		} else {
			cfg->cc.base_rtt_ns = cc->nscc.base_rtt;
			cfg->cc.target_delay_ns = cc->nscc.target_delay;
			cfg->cc.max_cwnd = cc->nscc.max_cwnd;
			cfg->cc.eta = cc->nscc.eta;
			cfg->cc.fi = cc->nscc.fi;
			cfg->cc.fi_scale = cc->nscc.fi_scale;
			cfg->cc.gamma = cc->nscc.gamma;
			cfg->cc.max_md_jump = cc->nscc.max_md_jump;
			cfg->cc.qa_threshold_ns = cc->nscc.qa_threshold;
			cfg->cc.adjust_bytes = cc->nscc.adjust_bytes;
			cfg->cc.adjust_period_ns = cc->nscc.adjust_period;
			cfg->cc.qa_gate = cc->nscc.qa_gate;
			cfg->cc.disable_qa = cc->nscc.disable_qa;
		}
	}
	rcu_read_unlock();
	return err;
}

/*
 * MRC_LISTEN_TCP: stream sockets only; on a listener it takes effect at
 * once (the TCP listener opens or closes). Under lock_sock().
 */
static int mrc_sock_set_listen_tcp(struct sock *sk, u32 val)
{
	struct mrc_sock *msk = mrc_sk(sk);
	int err = 0;

	if (val & ~(MRC_LISTEN_TCP_ON | MRC_LISTEN_TCP_V6ONLY))
		return -EINVAL;
	if (sk->sk_type != SOCK_STREAM)
		return -EOPNOTSUPP;
	if (msk->conn)
		return -EISCONN;
	if (sk->sk_state == TCP_LISTEN && msk->tcp_listener &&
	    (val & MRC_LISTEN_TCP_V6ONLY) !=
	    (msk->listen_tcp & MRC_LISTEN_TCP_V6ONLY))
		return -EINVAL;	/* bound already: close it first */
	msk->listen_tcp = val & MRC_LISTEN_TCP_ON ? val : 0;
	if (sk->sk_state != TCP_LISTEN)
		return 0;
	if (msk->listen_tcp)
		err = mrc_listen_tcp_start(sk, READ_ONCE(sk->sk_max_ack_backlog));
	else
		mrc_listen_tcp_stop(sk);
	if (err)
		msk->listen_tcp = 0;
	return err;
}

static int mrc_setsockopt(struct socket *sock, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *msk = mrc_sk(sk);
	struct socket *tsock = mrc_tcp_sock(sk);
	int err = 0;
	u32 val;

	if (level != SOL_MRC && tsock)
		return tsock->ops->setsockopt(tsock, level, optname, optval,
					      optlen);
	if (level != SOL_MRC)
		return -ENOPROTOOPT;
	if (optlen < sizeof(val))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;

	lock_sock(sk);
	/*
	 * Profiles and the EV count shape a connection when it is made: a
	 * connected socket refuses them and keeps what it had. The user
	 * timeout also applies to the live connection, like TCP's.
	 */
	if (msk->conn && (optname == MRC_EV_PROFILE ||
			  optname == MRC_CC_PROFILE ||
			  optname == MRC_EV_COUNT || optname == MRC_TRAIN)) {
		err = -EISCONN;
		goto out;
	}
	switch (optname) {
	case MRC_EV_PROFILE:
		msk->ev_profile = val;
		break;
	case MRC_CC_PROFILE:
		msk->cc_profile = val;
		break;
	case MRC_USER_TIMEOUT:
		if (!val) {
			err = -EINVAL;
			break;
		}
		msk->user_timeout_ms = val;
		if (msk->conn)
			mrc_conn_set_user_timeout(msk->conn, val);
		break;
	case MRC_EV_COUNT:
		if (!val || val > MRC_CORE_MAX_EVS)
			err = -EINVAL;
		else
			msk->ev_count = val;
		break;
	case MRC_TRAIN:
		if (!val || val > MRC_CORE_MAX_TRAIN)
			err = -EINVAL;
		else
			msk->train = val;
		break;
	case MRC_LISTEN_TCP:
		err = mrc_sock_set_listen_tcp(sk, val);
		break;
	case MRC_CONNECT_TCP:
		err = mrc_connect_tcp_set(sk, val);
		break;
	case MRC_ZEROCOPY:
		err = mrc_sock_set_zerocopy(sk, val);
		break;
	case MRC_CONN_ID:
	case MRC_CONN_INFO:
	case MRC_CONNECT_TCP_USED:
		err = -EPERM;	/* read-only */
		break;
	default:
		err = -ENOPROTOOPT;
	}
out:
	release_sock(sk);
	return err;
}

static void mrc_conn_info_fill(struct mrc_conn *conn,
			       struct mrc_conn_info *info)
{
	struct mrc_core_stats st;

	memset(info, 0, sizeof(*info));
	info->len = sizeof(*info);
	info->id = conn->id;
	mrc_conn_lock_bh(conn);
	info->state = conn->state;
	if (conn->core) {
		mrc_core_get_stats(conn->core, &st);
		info->srtt_us = st.srtt_us;
		info->rto_us = st.rto_us;
		info->cwnd = st.cwnd;
		info->evs_good = st.evs_good;
		info->planes_usable = st.planes_usable;
		info->tx_data_bytes = st.tx_data_bytes;
		info->retx_pkts = st.retx_pkts;
		info->rx_data_bytes = st.rx_data_bytes;
		info->dup_pkts = st.dup_pkts;
		info->rto_count = st.rto_count;
		info->longest_stall_us = st.longest_stall_us;
		info->early_data_bytes = st.early_data_bytes;
		info->early_refused = st.early_refused;
	}
	mrc_conn_unlock_bh(conn);
}

static int mrc_getsockopt(struct socket *sock, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	struct mrc_sock *msk = mrc_sk(sock->sk);
	struct socket *tsock = mrc_tcp_sock(sock->sk);
	struct mrc_conn_info info;
	u32 val = 0;
	void *src = &val;
	int len, size = sizeof(val), err = 0;

	if (level != SOL_MRC && tsock)
		return tsock->ops->getsockopt(tsock, level, optname, optval,
					      optlen);
	if (level != SOL_MRC)
		return -ENOPROTOOPT;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;

	lock_sock(sock->sk);
	switch (optname) {
	case MRC_EV_PROFILE:
		val = msk->ev_profile;
		break;
	case MRC_CC_PROFILE:
		val = msk->cc_profile;
		break;
	case MRC_USER_TIMEOUT:
		val = msk->user_timeout_ms;
		break;
	case MRC_EV_COUNT:
		val = msk->ev_count;
		break;
	case MRC_TRAIN:
		val = msk->train;
		break;
	case MRC_LISTEN_TCP:
		val = msk->listen_tcp;
		break;
	case MRC_CONNECT_TCP:
		val = mrc_connect_tcp_get(sock->sk, false);
		break;
	case MRC_CONNECT_TCP_USED:
		val = mrc_connect_tcp_get(sock->sk, true);
		break;
	case MRC_ZEROCOPY:
		val = sock_flag(sock->sk, SOCK_ZEROCOPY);
		break;
	case MRC_CONN_ID:
	case MRC_CONN_INFO:
		if (!msk->conn) {
			err = -ENOTCONN;
		} else if (optname == MRC_CONN_ID) {
			val = msk->conn->id;
		} else {
			mrc_conn_info_fill(msk->conn, &info);
			src = &info;
			size = sizeof(info);
		}
		break;
	default:
		err = -ENOPROTOOPT;
	}
	release_sock(sock->sk);
	if (err)
		return err;
	len = min(len, size);
	if (put_user(len, optlen) || copy_to_user(optval, src, len))
		return -EFAULT;
	return 0;
}

/*
 * Close: a listener refuses its unaccepted children; a connection ends
 * gracefully (FIN after every queued byte) unless unread data makes it an
 * abort, as TCP does. The connection lingers, orphaned, until the core
 * finishes or gives up after the user timeout.
 */
static int mrc_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct mrc_conn *conn;
	bool finished = true, linger = false;

	if (!sk)
		return 0;

	lock_sock(sk);
	if (sk->sk_state == TCP_LISTEN)
		mrc_listen_stop(sk);
	mrc_port_unbind(sk);
	conn = mrc_sock_detach(sk);
	if (conn) {
		mrc_conn_lock_bh(conn);
		conn->orphan = true;
		if (conn->core) {
			if (!skb_queue_empty(&sk->sk_receive_queue) ||
			    (sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime))
				mrc_core_abort(conn->core, 0);
			else
				mrc_core_close(conn->core);
			switch (mrc_core_state(conn->core)) {
			case MRC_CORE_DONE:
				linger = !conn->dying;
				conn->dying = true;
				break;
			case MRC_CORE_CLOSED:
			case MRC_CORE_ABORTED:
				break;
			default:
				finished = false;
			}
		}
		mrc_conn_unlock_bh(conn);
	}
	sk->sk_shutdown = SHUTDOWN_MASK;
	skb_queue_purge(&sk->sk_receive_queue);
	sock_orphan(sk);
	release_sock(sk);
	mrc_connect_tcp_release(sk);

	if (conn) {
		if (linger)
			mrc_conn_schedule_kill(conn, MRC_CONN_DONE_LINGER);
		else if (finished)
			mrc_conn_kill(conn);
		mrc_conn_put(conn);
	}
	mrc_mib_inc(sock_net(sk), MRC_MIB_SOCKRELEASE);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, -1);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

/* .family is filled in by mrc_socket_init() before registration. */
#define MRC_PROTO_OPS_COMMON				\
	.owner		= THIS_MODULE,			\
	.release	= mrc_release,			\
	.bind		= mrc_bind,			\
	.connect	= mrc_connect,			\
	.socketpair	= sock_no_socketpair,		\
	.accept		= mrc_accept,			\
	.getname	= mrc_getname,			\
	.poll		= mrc_poll,			\
	.ioctl		= mrc_ioctl,			\
	.listen		= mrc_listen,			\
	.shutdown	= mrc_shutdown,			\
	.setsockopt	= mrc_setsockopt,		\
	.getsockopt	= mrc_getsockopt,		\
	.sendmsg	= mrc_sendmsg,			\
	.recvmsg	= mrc_recvmsg,			\
	.mmap		= sock_no_mmap,			\
	.sendpage	= sock_no_sendpage

static struct proto_ops mrc_stream_ops __ro_after_init = {
	MRC_PROTO_OPS_COMMON,
};

static struct proto_ops mrc_seqpacket_ops __ro_after_init = {
	MRC_PROTO_OPS_COMMON,
};

const struct proto_ops *mrc_sock_ops(int type)
{
	return type == SOCK_SEQPACKET ? &mrc_seqpacket_ops : &mrc_stream_ops;
}

static void mrc_sock_destruct(struct sock *sk)
{
	skb_queue_purge(&sk->sk_receive_queue);
	/* MSG_ZEROCOPY completions nobody read (zerocopy.c) */
	skb_queue_purge(&sk->sk_error_queue);
	mrc_sock_mem_destruct(sk);
	sk_sockets_allocated_dec(sk);
}

/*
 * Lockdep classes of our own: by default a sock's lock class is named
 * after its family number, and ours is borrowed from an unused family
 * (AF_ECONET on 6.1), which made lockdep reports misleading.
 */
static struct lock_class_key mrc_slock_key;
static struct lock_class_key mrc_sk_lock_key;

/*
 * sk_backlog_rcv: a datagram that came while a process held or slept on
 * the socket, taken by that process (conn/demux_defer.c).
 */
static int mrc_sock_backlog_rcv(struct sock *sk, struct sk_buff *skb)
{
	mrc_demux_backlog(sock_net(sk), skb);
	return 0;
}

/*
 * mrc_sock_alloc - a new AF_MRC sock; @sock is NULL for a child made by
 * a listener (softirq, @gfp atomic).
 */
struct sock *mrc_sock_alloc(struct net *net, struct socket *sock, int type,
			    gfp_t gfp, int kern)
{
	struct mrc_sock *msk;
	struct sock *sk;

	sk = sk_alloc(net, mrc_family, gfp, &mrc_prot, kern);
	if (!sk)
		return NULL;
	sock_lock_init_class_and_name(sk, "slock-AF_MRC", &mrc_slock_key,
				      "sk_lock-AF_MRC", &mrc_sk_lock_key);
	sock_init_data(sock, sk);
	sk->sk_type = type;
	sk->sk_protocol = MRC_PROTO_DEFAULT;
	sk->sk_state = TCP_CLOSE;
	sk->sk_destruct = mrc_sock_destruct;
	sk->sk_backlog_rcv = mrc_sock_backlog_rcv;
	sk->sk_sndbuf = MRC_DEFAULT_BUF;
	sk->sk_rcvbuf = MRC_DEFAULT_BUF;

	msk = mrc_sk(sk);
	spin_lock_init(&msk->accept_lock);
	INIT_LIST_HEAD(&msk->accept_q);
	INIT_LIST_HEAD(&msk->accept_node);
	atomic_set(&msk->rx_msgs, 0);
	atomic_set(&msk->rmem_freed, 0);
	msk->user_timeout_ms = MRC_DEFAULT_USER_TIMEOUT_MS;
	msk->ev_count = MRC_CORE_DEFAULT_EVS;
	msk->train = MRC_SOCK_DEF_TRAIN;
	msk->local.mrc_family = mrc_family;
	sock_prot_inuse_add(net, &mrc_prot, 1);
	sk_sockets_allocated_inc(sk);
	mrc_mib_inc(net, MRC_MIB_SOCKCREATE);
	return sk;
}

static int mrc_create(struct net *net, struct socket *sock, int protocol,
		      int kern)
{
	if (sock->type != SOCK_STREAM && sock->type != SOCK_SEQPACKET) {
		mrc_mib_inc(net, MRC_MIB_SOCKREJECT);
		return -ESOCKTNOSUPPORT;
	}
	if (protocol != MRC_PROTO_DEFAULT) {
		mrc_mib_inc(net, MRC_MIB_SOCKREJECT);
		return -EPROTONOSUPPORT;
	}

	sock->ops = mrc_sock_ops(sock->type);
	sock->state = SS_UNCONNECTED;
	mrc_sock_support_zc(sock);
	if (!mrc_sock_alloc(net, sock, sock->type, GFP_KERNEL, kern))
		return -ENOMEM;
	return 0;
}

static struct net_proto_family mrc_family_ops __ro_after_init = {
	.create	= mrc_create,
	.owner	= THIS_MODULE,
};

int mrc_socket_init(void)
{
	int err;

	mrc_stream_ops.family = mrc_family;
	mrc_seqpacket_ops.family = mrc_family;
	mrc_family_ops.family = mrc_family;

	err = mrc_sock_mem_init();
	if (err)
		return err;
	mrc_sock_mem_proto(&mrc_prot);
	err = proto_register(&mrc_prot, 1);
	if (err)
		goto err_mem;

	err = sock_register(&mrc_family_ops);
	if (err) {
		pr_err("address family %d is taken (%d); load with family=<free number below %d>\n",
		       mrc_family, err, AF_MAX);
		goto err_proto;
	}
	return 0;

err_proto:
	proto_unregister(&mrc_prot);
err_mem:
	mrc_sock_mem_exit();
	return err;
}

void mrc_socket_exit(void)
{
	sock_unregister(mrc_family);
	proto_unregister(&mrc_prot);
	mrc_sock_mem_exit();
}
