// SPDX-License-Identifier: GPL-2.0
/*
 * A listener that takes TCP clients too (SOL_MRC MRC_LISTEN_TCP): at
 * listen() the MRC listener opens a TCP listener on its own address and
 * port, and accept() hands out whichever client comes first, an MRC
 * connection or a TCP one, as an MPTCP listener hands out plain TCP
 * clients: the accepted socket of a TCP client is an ordinary TCP socket
 * (its struct socket takes the TCP socket's operations). poll() on the
 * MRC listener sees both queues. This is what lets a server run under
 * mrcize serve clients that are not.
 *
 * Wake-ups: the TCP listener's sk_wq is the MRC socket's wait queue, so
 * TCP's own sk_data_ready for a new client wakes whoever waits on the
 * MRC listener (accept, poll, epoll, SIGIO) with nothing of ours in its
 * softirq path. Children start with no sk_wq (sk_clone_lock()) and get
 * their own socket's at accept, as with any TCP listener.
 *
 * Lifetime: mrc_sock.tcp_listener is set by listen() and released by
 * mrc_listen_stop(), both under lock_sock() of the MRC listener, in
 * process context, before the MRC socket and its wait queue go. sk_wq
 * changes under the TCP socket's sk_callback_lock, as in sock_graft().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <net/inet_connection_sock.h>
#include <net/sock.h>

#include "mib.h"
#include "sock/sock.h"

/* Point @tsk's wake-ups at @wq (under its sk_callback_lock). */
static void mrc_listen_tcp_set_wq(struct sock *tsk, struct socket_wq *wq)
{
	write_lock_bh(&tsk->sk_callback_lock);
	rcu_assign_pointer(tsk->sk_wq, wq);
	write_unlock_bh(&tsk->sk_callback_lock);
}

/* The TCP address of @msk's MRC bind: same address, same port. */
static int mrc_listen_tcp_addr(const struct mrc_sock *msk,
			       struct sockaddr_storage *ss)
{
	const struct sockaddr_mrc *l = &msk->local;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *in = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (l->mrc_addr_family == AF_INET) {
		in->sin_family = AF_INET;
		in->sin_port = htons(msk->port);
		in->sin_addr.s_addr = l->mrc_addr4;
		return sizeof(*in);
	}
	/* IPv6, or no address bound: the IPv6 wildcard */
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons(msk->port);
	if (l->mrc_addr_family == AF_INET6) {
		memcpy(&in6->sin6_addr, l->mrc_addr6, sizeof(in6->sin6_addr));
		in6->sin6_scope_id = l->mrc_scope_id;
	}
	return sizeof(*in6);
}

/*
 * mrc_listen_tcp_start - open @sk's TCP listener (MRC_LISTEN_TCP set) with
 * @backlog; a second listen() only changes the backlog. Under lock_sock().
 * Return: 0, or the error of the TCP socket's creation, bind or listen
 * (EADDRINUSE when TCP already has the port).
 */
int mrc_listen_tcp_start(struct sock *sk, int backlog)
{
	struct mrc_sock *msk = mrc_sk(sk);
	struct sockaddr_storage ss;
	struct socket *tsock;
	struct sock *tsk;
	int len, err;

	sock_owned_by_me(sk);
	if (msk->tcp_listener)
		return kernel_listen(msk->tcp_listener, backlog);
	len = mrc_listen_tcp_addr(msk, &ss);
	/* A user socket (kern 0): it and its children hold the netns. */
	err = __sock_create(sock_net(sk), ss.ss_family, SOCK_STREAM,
			    IPPROTO_TCP, &tsock, 0);
	if (err)
		return err;
	tsk = tsock->sk;
	tsk->sk_reuse = sk->sk_reuse;
	if (ss.ss_family == AF_INET6)
		tsk->sk_ipv6only = !!(msk->listen_tcp & MRC_LISTEN_TCP_V6ONLY);
	err = kernel_bind(tsock, (struct sockaddr *)&ss, len);
	if (!err)
		err = kernel_listen(tsock, backlog);
	if (err) {
		sock_release(tsock);
		return err;
	}
	mrc_listen_tcp_set_wq(tsk, &sk->sk_socket->wq);
	WRITE_ONCE(msk->tcp_listener, tsock);
	return 0;
}

/* Close @sk's TCP listener, resetting its unaccepted clients. */
void mrc_listen_tcp_stop(struct sock *sk)
{
	struct mrc_sock *msk = mrc_sk(sk);
	struct socket *tsock = msk->tcp_listener;

	sock_owned_by_me(sk);
	if (!tsock)
		return;
	mrc_listen_tcp_set_wq(tsock->sk, &tsock->wq);
	WRITE_ONCE(msk->tcp_listener, NULL);
	sock_release(tsock);
}

/* Has @sk's TCP listener a client to accept? Any context. */
bool mrc_listen_tcp_ready(const struct sock *sk)
{
	struct socket *tsock = READ_ONCE(mrc_sk(sk)->tcp_listener);

	return tsock &&
	       !reqsk_queue_empty(&inet_csk(tsock->sk)->icsk_accept_queue);
}

/*
 * mrc_listen_tcp_accept - give @newsock the next TCP client of @sk, if any.
 * @newsock becomes a TCP socket: it takes the TCP listener's operations,
 * and drops the reference on this module that accept() took for ours
 * (the listener's own reference keeps the module here meanwhile).
 * Under lock_sock() of @sk.
 * Return: 0, or -EAGAIN when no TCP client waits.
 */
int mrc_listen_tcp_accept(struct sock *sk, struct socket *newsock, bool kern)
{
	struct socket *tsock = mrc_sk(sk)->tcp_listener;
	int err;

	sock_owned_by_me(sk);
	if (!tsock || !mrc_listen_tcp_ready(sk))
		return -EAGAIN;
	err = tsock->ops->accept(tsock, newsock, O_NONBLOCK, kern);
	if (err)
		return err;
	newsock->ops = tsock->ops;
	module_put(THIS_MODULE);
	mrc_mib_inc(sock_net(sk), MRC_MIB_LISTENTCPACCEPT);
	return 0;
}
