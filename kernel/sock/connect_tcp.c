// SPDX-License-Identifier: GPL-2.0
/*
 * A connect() that falls back to TCP (SOL_MRC MRC_CONNECT_TCP): when the
 * peer refuses the MRC handshake (a reset, an ICMP unreachable) or does
 * not answer within the option's milliseconds, the socket connects over
 * TCP to the same address and port and from then on carries a TCP
 * connection, as an MPTCP socket falls back to plain TCP. The caller
 * keeps its descriptor: a blocking connect() returns TCP's outcome, a
 * non-blocking one stays in progress until TCP's handshake ends, and
 * poll, epoll, send, receive, shutdown, ioctls, the names and the
 * options that are not SOL_SOCKET's go to the TCP socket. This is what
 * lets mrcize's clients reach TCP-only servers without blocking.
 *
 * The switch runs in process context (a work item), because creating a
 * socket may sleep: the core's refusal (softirq) or the timeout queues
 * it. It aborts the MRC connection, opens the TCP socket, points its
 * wake-ups (sk_wq) at the MRC socket's wait queue and its error reports
 * at the MRC socket's sk_err (SO_ERROR is read there), starts a
 * non-blocking connect and then publishes it in @tcp_sock of struct
 * mrc_connect_tcp.
 *
 * Lifetime: struct mrc_connect_tcp is allocated when the option is first
 * set (under lock_sock()) and freed at release, after its work item is
 * cancelled. Its @tcp_sock is written once, under lock_sock(), and
 * released at release too; a socket call (which holds the file) may use
 * it without the lock. The TCP socket's sk_user_data (our sock) and
 * sk_error_report change under its sk_callback_lock, and
 * mrc_connect_tcp_error() reads them under it, so an error report after
 * release finds TCP's own callback again.
 *
 * SOL_SOCKET options are read and written on the MRC socket (6.1 sends
 * them to no protocol but MPTCP): the ones that change how data moves
 * are copied to the TCP socket when it opens and before each forwarded
 * call (mrc_connect_tcp_sync()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/mrc_netlink.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/sock.h>

#include "mib.h"
#include "conn/conn.h"
#include "sock/sock.h"

/* TCP socket @tsk's errors are its MRC socket's too (SO_ERROR reads there). */
static void mrc_connect_tcp_error(struct sock *tsk)
{
	struct sock *sk;

	read_lock_bh(&tsk->sk_callback_lock);
	sk = tsk->sk_user_data;
	if (sk) {
		WRITE_ONCE(sk->sk_err, READ_ONCE(tsk->sk_err));
		sk->sk_error_report(sk);	/* wakes the shared wait queue */
	}
	read_unlock_bh(&tsk->sk_callback_lock);
}

/* Hook TCP socket @tsock's wake-ups and errors to @sk, or (@sk NULL) undo. */
static void mrc_connect_tcp_hook(struct sock *sk, struct socket *tsock)
{
	struct sock *tsk = tsock->sk;
	struct mrc_connect_tcp *ct;

	write_lock_bh(&tsk->sk_callback_lock);
	if (sk) {
		ct = mrc_sk(sk)->connect_tcp;
		ct->tcp_error_report = tsk->sk_error_report;
		tsk->sk_user_data = sk;
		tsk->sk_error_report = mrc_connect_tcp_error;
		rcu_assign_pointer(tsk->sk_wq, &sk->sk_socket->wq);
	} else {
		ct = mrc_sk(tsk->sk_user_data)->connect_tcp;
		tsk->sk_error_report = ct->tcp_error_report;
		tsk->sk_user_data = NULL;
		rcu_assign_pointer(tsk->sk_wq, &tsock->wq);
	}
	write_unlock_bh(&tsk->sk_callback_lock);
}

/*
 * mrc_connect_tcp_sync - copy the SOL_SOCKET options that shape a
 * connection's behaviour from @sk to its TCP socket @tsk: time-outs,
 * low-water mark, priority, mark, linger, buffer sizes set by the user,
 * keep-alive, MSG_ZEROCOPY's switch. Any context that may sleep.
 */
void mrc_connect_tcp_sync(struct sock *sk, struct sock *tsk)
{
	u8 locks = sk->sk_userlocks;	/* a bit-field: no READ_ONCE */

	WRITE_ONCE(tsk->sk_rcvtimeo, READ_ONCE(sk->sk_rcvtimeo));
	WRITE_ONCE(tsk->sk_sndtimeo, READ_ONCE(sk->sk_sndtimeo));
	WRITE_ONCE(tsk->sk_rcvlowat, READ_ONCE(sk->sk_rcvlowat));
	WRITE_ONCE(tsk->sk_priority, READ_ONCE(sk->sk_priority));
	WRITE_ONCE(tsk->sk_mark, READ_ONCE(sk->sk_mark));
	WRITE_ONCE(tsk->sk_lingertime, READ_ONCE(sk->sk_lingertime));
	if (sock_flag(sk, SOCK_LINGER) != sock_flag(tsk, SOCK_LINGER))
		sock_valbool_flag(tsk, SOCK_LINGER, sock_flag(sk, SOCK_LINGER));
	if (sock_flag(sk, SOCK_ZEROCOPY) != sock_flag(tsk, SOCK_ZEROCOPY))
		sock_valbool_flag(tsk, SOCK_ZEROCOPY,
				  sock_flag(sk, SOCK_ZEROCOPY));
	if (locks & SOCK_SNDBUF_LOCK)
		WRITE_ONCE(tsk->sk_sndbuf, READ_ONCE(sk->sk_sndbuf));
	if (locks & SOCK_RCVBUF_LOCK)
		WRITE_ONCE(tsk->sk_rcvbuf, READ_ONCE(sk->sk_rcvbuf));
	if (sock_flag(sk, SOCK_KEEPOPEN) != sock_flag(tsk, SOCK_KEEPOPEN)) {
		/* as sk_setsockopt(SO_KEEPALIVE) does it */
		lock_sock(tsk);
		if (tsk->sk_prot->keepalive)
			tsk->sk_prot->keepalive(tsk, sock_flag(sk, SOCK_KEEPOPEN));
		sock_valbool_flag(tsk, SOCK_KEEPOPEN,
				  sock_flag(sk, SOCK_KEEPOPEN));
		release_sock(tsk);
	}
}

/* @addr as the TCP address it names; return its length. */
static int mrc_connect_tcp_addr(const struct sockaddr_mrc *addr,
				struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *in = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (addr->mrc_addr_family == AF_INET) {
		in->sin_family = AF_INET;
		in->sin_port = addr->mrc_port;
		in->sin_addr.s_addr = addr->mrc_addr4;
		return sizeof(*in);
	}
	in6->sin6_family = AF_INET6;
	in6->sin6_port = addr->mrc_port;
	memcpy(&in6->sin6_addr, addr->mrc_addr6, sizeof(in6->sin6_addr));
	in6->sin6_scope_id = addr->mrc_scope_id;
	return sizeof(*in6);
}

/*
 * Drop @sk's MRC connection, resetting it; under lock_sock(). Return:
 * false when the handshake ended after all (its SYN_ACK came as the time
 * ran out): the socket keeps MRC.
 */
static bool mrc_connect_tcp_drop_conn(struct sock *sk)
{
	struct mrc_conn *conn = mrc_sk(sk)->conn;

	sock_owned_by_me(sk);
	if (!conn)
		return true;
	mrc_conn_lock_bh(conn);
	if (conn->state == MRC_CONN_ESTABLISHED) {
		mrc_conn_unlock_bh(conn);
		return false;
	}
	conn->orphan = true;	/* its notes leave the socket alone */
	if (conn->core)
		mrc_core_abort(conn->core, 0);
	mrc_conn_unlock_bh(conn);
	mrc_sock_detach(sk);
	mrc_conn_kill(conn);
	mrc_conn_put(conn);
	return true;
}

/* Open @sk's TCP socket and start its connect; under lock_sock(). */
static int mrc_connect_tcp_open(struct sock *sk)
{
	struct mrc_sock *msk = mrc_sk(sk);
	struct sockaddr_storage ss;
	struct socket *tsock;
	int len, err;

	sock_owned_by_me(sk);
	len = mrc_connect_tcp_addr(&msk->peer, &ss);
	/* A user socket (kern 0): it holds the netns, as our own does. */
	err = __sock_create(sock_net(sk), ss.ss_family, SOCK_STREAM,
			    IPPROTO_TCP, &tsock, 0);
	if (err)
		return err;
	mrc_connect_tcp_sync(sk, tsock->sk);
	mrc_connect_tcp_hook(sk, tsock);
	err = kernel_connect(tsock, (struct sockaddr *)&ss, len, O_NONBLOCK);
	if (err && err != -EINPROGRESS) {
		mrc_connect_tcp_hook(NULL, tsock);
		sock_release(tsock);
		return err;
	}
	WRITE_ONCE(msk->connect_tcp->tcp_sock, tsock);
	return 0;
}

static void mrc_connect_tcp_work(struct work_struct *work)
{
	struct mrc_connect_tcp *ct = container_of(to_delayed_work(work),
						  struct mrc_connect_tcp, work);
	struct sock *sk = ct->sk;
	int err;

	lock_sock(sk);
	if (sock_flag(sk, SOCK_DEAD) || ct->tcp_sock ||
	    sk->sk_state != TCP_SYN_SENT)
		goto out;
	if (!mrc_connect_tcp_drop_conn(sk))
		goto out;
	if (!READ_ONCE(ct->why))
		ct->why = MRC_CONNECT_TCP_TIMEOUT;
	err = mrc_connect_tcp_open(sk);
	mrc_mib_inc(sock_net(sk), err ? MRC_MIB_CONNECTTCPFAIL :
		    MRC_MIB_CONNECTTCP);
	if (err) {
		WRITE_ONCE(sk->sk_err, -err);
		WRITE_ONCE(sk->sk_state, TCP_CLOSE);
		sk->sk_shutdown = SHUTDOWN_MASK;
		sk_error_report(sk);
	}
	sk->sk_state_change(sk);	/* connect() and poll() look again */
out:
	release_sock(sk);
}

/*
 * mrc_connect_tcp_unreachable - connect() found no plane that routes to
 * @addr (@err): go TCP at once if the socket asked for it. Under
 * lock_sock(). Return: 0 when TCP's connect started (the socket is
 * connecting), else @err or TCP's error.
 */
int mrc_connect_tcp_unreachable(struct sock *sk,
				const struct sockaddr_mrc *addr, int err)
{
	struct mrc_connect_tcp *ct = mrc_sk(sk)->connect_tcp;

	sock_owned_by_me(sk);
	if (!ct || !ct->ms || (err != -ENETUNREACH && err != -EHOSTUNREACH))
		return err;
	mrc_sk(sk)->peer = *addr;
	ct->why = MRC_CONNECT_TCP_UNREACHABLE;
	err = mrc_connect_tcp_open(sk);
	mrc_mib_inc(sock_net(sk), err ? MRC_MIB_CONNECTTCPFAIL :
		    MRC_MIB_CONNECTTCP);
	if (err)
		return err;
	sk->sk_state = TCP_SYN_SENT;
	sk->sk_socket->state = SS_CONNECTING;
	return 0;
}

/* MRC_CONNECT_TCP set to @ms; under lock_sock(), before connect(). */
int mrc_connect_tcp_set(struct sock *sk, u32 ms)
{
	struct mrc_connect_tcp *ct = mrc_sk(sk)->connect_tcp;

	sock_owned_by_me(sk);
	if (sk->sk_type != SOCK_STREAM)
		return -EOPNOTSUPP;
	if (mrc_sk(sk)->conn || sk->sk_state != TCP_CLOSE || mrc_tcp_sock(sk))
		return -EISCONN;
	if (!ct && ms) {
		ct = kzalloc(sizeof(*ct), GFP_KERNEL);
		if (!ct)
			return -ENOMEM;
		ct->sk = sk;
		INIT_DELAYED_WORK(&ct->work, mrc_connect_tcp_work);
		WRITE_ONCE(mrc_sk(sk)->connect_tcp, ct);
	}
	if (ct)
		ct->ms = ms;
	return 0;
}

/* MRC_CONNECT_TCP, or (@why) MRC_CONNECT_TCP_USED; under lock_sock(). */
u32 mrc_connect_tcp_get(const struct sock *sk, bool why)
{
	struct mrc_connect_tcp *ct = mrc_sk(sk)->connect_tcp;

	if (!ct)
		return 0;
	return why ? (ct->tcp_sock ? ct->why : 0) : ct->ms;
}

/*
 * Start the wait for the MRC handshake; connect() under lock_sock(). The
 * work item runs once, whichever of this and a refusal queues it first.
 */
void mrc_connect_tcp_arm(struct sock *sk)
{
	struct mrc_connect_tcp *ct = mrc_sk(sk)->connect_tcp;

	sock_owned_by_me(sk);
	if (ct && ct->ms)
		queue_delayed_work(system_wq, &ct->work, msecs_to_jiffies(ct->ms));
}

/*
 * mrc_connect_tcp_refused - the core refused @sk's handshake: go TCP now
 * if the socket asked for it. Under the connection's spinlock (softirq).
 * Return: true when the fallback takes over (the socket stays connecting).
 */
bool mrc_connect_tcp_refused(struct sock *sk)
{
	struct mrc_connect_tcp *ct = READ_ONCE(mrc_sk(sk)->connect_tcp);

	if (!ct || !ct->ms)
		return false;
	WRITE_ONCE(ct->why, MRC_CONNECT_TCP_REFUSED);
	mod_delayed_work(system_wq, &ct->work, 0);
	return true;
}

/*
 * Release: stop a pending switch and close the TCP socket, if any. Not
 * under lock_sock() (the work item takes it); after sock_orphan().
 */
void mrc_connect_tcp_release(struct sock *sk)
{
	struct mrc_connect_tcp *ct = mrc_sk(sk)->connect_tcp;

	if (!ct)
		return;
	cancel_delayed_work_sync(&ct->work);
	if (ct->tcp_sock) {
		mrc_connect_tcp_hook(NULL, ct->tcp_sock);
		sock_release(ct->tcp_sock);
	}
	WRITE_ONCE(mrc_sk(sk)->connect_tcp, NULL);
	kfree(ct);
}

/*
 * mrc_connect_tcp_connect - connect() once the socket went TCP: TCP's
 * answer (EALREADY, a wait for the handshake, 0 once, then EISCONN).
 */
int mrc_connect_tcp_connect(struct socket *sock,
			    const struct sockaddr_mrc *addr, int flags)
{
	struct socket *tsock = mrc_tcp_sock(sock->sk);
	struct sockaddr_storage ss;
	int len, err;

	len = mrc_connect_tcp_addr(addr, &ss);
	mrc_connect_tcp_sync(sock->sk, tsock->sk);
	err = tsock->ops->connect(tsock, (struct sockaddr *)&ss, len, flags);
	/* the error was reported here: SO_ERROR no longer has it */
	if (err && err != -EINPROGRESS && err != -EALREADY)
		WRITE_ONCE(sock->sk->sk_err, 0);
	sock->state = READ_ONCE(tsock->state);
	return err;
}

/* getsockname()/getpeername() of the TCP connection, as AF_MRC names. */
int mrc_connect_tcp_getname(struct socket *sock, struct sockaddr_mrc *addr,
			    int peer)
{
	struct socket *tsock = mrc_tcp_sock(sock->sk);
	struct sockaddr_storage ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	int len;

	len = tsock->ops->getname(tsock, (struct sockaddr *)&ss, peer);
	if (len < 0)
		return len;
	if (ss.ss_family == AF_INET) {
		mrc_sock_fill_addr(addr, AF_INET, &in->sin_addr,
				   ntohs(in->sin_port));
	} else {
		mrc_sock_fill_addr(addr, AF_INET6, &in6->sin6_addr,
				   ntohs(in6->sin6_port));
		addr->mrc_scope_id = in6->sin6_scope_id;
	}
	return sizeof(*addr);
}
