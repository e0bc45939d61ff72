// SPDX-License-Identifier: GPL-2.0
/*
 * MSG_ZEROCOPY on SOCK_STREAM, as TCP offers it (Documentation/networking/
 * msg_zerocopy.rst), switched on with SOL_MRC MRC_ZEROCOPY: 6.1 hands
 * SOL_SOCKET options of every family but MPTCP to sock_setsockopt(),
 * which refuses SO_ZEROCOPY outside TCP, UDP and RDS. getsockopt()'s
 * SO_ZEROCOPY reads the same flag.
 *
 * A send pins the user's pages instead of copying them: each page becomes
 * a send-buffer handle (conn/buf.h) that the core's segments hold until
 * the peer acknowledges them, and every skb sent from them is tied to the
 * send's struct ubuf_info. When the last of both lets go, the kernel's
 * msg_zerocopy_callback() queues the completion on sk_error_queue, which
 * recvmsg(MSG_ERRQUEUE) reads (level SOL_IP, type IP_RECVERR, origin
 * SO_EE_ORIGIN_ZEROCOPY; SO_EE_CODE_ZEROCOPY_COPIED when the stack had to
 * copy the pages, as it does for a receiver on the same host). Sends are
 * numbered from 0 per socket, as TCP's are.
 *
 * io_uring's IORING_OP_SEND_ZC takes the same path with a struct
 * ubuf_info of its own (msg->msg_ubuf), whose release posts the request's
 * notification; it needs no switch, only SOCK_SUPPORT_ZC on the stream's
 * struct socket (mrc_sock_support_zc()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errqueue.h>
#include <linux/in.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/uio.h>
#include <net/sock.h>

#include "conn/buf.h"
#include "conn/conn.h"
#include "sock/sock.h"

/* SOL_MRC MRC_ZEROCOPY: streams only, 0 or 1. Under lock_sock(). */
int mrc_sock_set_zerocopy(struct sock *sk, u32 val)
{
	sock_owned_by_me(sk);
	if (sk->sk_type != SOCK_STREAM)
		return -EOPNOTSUPP;
	if (val > 1)
		return -EINVAL;
	sock_valbool_flag(sk, SOCK_ZEROCOPY, val);
	return 0;
}

/*
 * mrc_sock_zc_start - the MSG_ZEROCOPY send of @len bytes that @msg asks
 * for, numbered, or io_uring's that @msg carries; NULL when the bytes are
 * to be copied (no MSG_ZEROCOPY, not switched on, or an iterator of
 * kernel memory), as TCP does; or an ERR_PTR. Under lock_sock().
 */
struct ubuf_info *mrc_sock_zc_start(struct sock *sk, struct msghdr *msg,
				    size_t len)
{
	struct ubuf_info *uarg;

	sock_owned_by_me(sk);
	if (!len || sk->sk_type != SOCK_STREAM)
		return NULL;
	/* io_uring's IORING_OP_SEND_ZC: its own notification, which the send
	 * holds as TCP's does; it may pass a registered buffer (a bvec).
	 */
	if (msg->msg_ubuf) {
		net_zcopy_get(msg->msg_ubuf);
		return msg->msg_ubuf;
	}
	if (!(msg->msg_flags & MSG_ZEROCOPY) || !sock_flag(sk, SOCK_ZEROCOPY) ||
	    !user_backed_iter(&msg->msg_iter))
		return NULL;
	uarg = msg_zerocopy_realloc(sk, len, NULL);
	return uarg ?: ERR_PTR(-ENOBUFS);
}

/*
 * mrc_sock_zc_end - the send is over: drop its own reference on @uarg,
 * which completes it once its pages are released; a send that queued
 * nothing gives its number back and is never reported.
 */
void mrc_sock_zc_end(struct ubuf_info *uarg, bool queued)
{
	if (queued)
		net_zcopy_put(uarg);
	else
		net_zcopy_put_abort(uarg, true);
}

/*
 * mrc_sock_zc_piece - the next piece of a MSG_ZEROCOPY send: at most @max
 * bytes of @msg, within one user page, pinned (the iterator moves past
 * them) and described in @buf with a handle that holds the page and
 * @uarg; the caller drops that handle once the core has taken what it
 * wants (its segments hold their own). Process context.
 */
int mrc_sock_zc_piece(struct msghdr *msg, size_t max, struct ubuf_info *uarg,
		      struct mrc_core_buf *buf)
{
	struct mrc_zc_page *zc;
	struct page *page;
	size_t off;
	ssize_t n;

	n = iov_iter_get_pages2(&msg->msg_iter, &page, max, 1, &off);
	if (n <= 0)
		return n ? (int)n : -EFAULT;
	zc = mrc_buf_zc_new(page, uarg, GFP_KERNEL);
	if (!zc) {
		put_page(page);
		iov_iter_revert(&msg->msg_iter, n);
		return -ENOBUFS;
	}
	buf->data = (u8 *)page_address(page) + off;
	buf->len = n;
	buf->ref = mrc_buf_zc_ref(zc);
	return 0;
}

/* Streams take io_uring's zero-copy sends (io_uring/net.c checks this). */
void mrc_sock_support_zc(struct socket *sock)
{
	if (sock->type == SOCK_STREAM)
		set_bit(SOCK_SUPPORT_ZC, &sock->flags);
}

/* recvmsg(MSG_ERRQUEUE): the completions of MSG_ZEROCOPY sends. */
int mrc_sock_recv_error(struct sock *sk, struct msghdr *msg, size_t len)
{
	return sock_recv_errqueue(sk, msg, (int)min_t(size_t, len, INT_MAX),
				  SOL_IP, IP_RECVERR);
}
