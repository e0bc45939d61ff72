// SPDX-License-Identifier: GPL-2.0
/*
 * Data on AF_MRC sockets: sendmsg() copies into the core, the core's
 * in-order deliveries become skbs on sk_receive_queue that recvmsg()
 * reads (SOCK_STREAM: bytes; SOCK_SEQPACKET: whole messages, queued only
 * once complete), poll() and shutdown().
 *
 * A stream byte is copied twice, as TCP's are: sendmsg() copies it from
 * the user into the socket's page-fragment send buffer (sk->sk_frag,
 * append-only; a page is reused once nothing refers to it), the core's
 * segments and the skbs sent from them refer to those pages (conn/udp.c);
 * the receiver's core keeps each DATA skb (or slice of a GSO batch,
 * conn/rxbuf.h) as its segment and delivers it to the receive queue as
 * it is (a batch's slices as fragments of one skb), where recvmsg()
 * copies it to the user. With MSG_ZEROCOPY (zerocopy.c) the first copy
 * goes too: the segments refer to the user's pinned pages. A SOCK_SEQPACKET
 * message is copied once too, into one page fragment, when it fits one
 * (up to 32 KiB); a bigger one goes through a bounce buffer, which the
 * core copies again (a message is queued whole).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/sockios.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <asm/ioctls.h>

#include "pernet.h"
#include "conn/buf.h"
#include "conn/conn.h"
#include "conn/demux.h"
#include "conn/rxbuf.h"
#include "sock/sock.h"

/*
 * mrc_sock_flush - take what waited in @sk's backlog for us (the
 * connection's packets: conn/demux_defer.c, in runs of one core input
 * batch each), then a timer expiry that waited for them
 * (mrc_conn_timer_fire()). Under lock_sock(). Before release_sock()
 * too, which would take them one at a time.
 */
void mrc_sock_flush(struct sock *sk)
{
	struct mrc_conn *conn = mrc_sk(sk)->conn;

	mrc_demux_backlog_drain(sk);
	sk_flush_backlog(sk);
	if (conn)
		mrc_conn_timer_deferred(conn);
}

/*
 * mrc_sock_detach - @sk lets go of its connection, which it returns (NULL:
 * it had none). Under sk_lock.slock, so that a timer expiry either finds
 * the connection here and is left to us (mrc_conn_timer_defer()), which
 * runs it now, or finds none and runs at once; with BHs off, since the
 * receive softirq takes the slock too (conn/demux_defer.c). Under
 * lock_sock().
 */
struct mrc_conn *mrc_sock_detach(struct sock *sk)
{
	struct mrc_conn *conn = mrc_sk(sk)->conn;

	sock_owned_by_me(sk);
	spin_lock_bh(&sk->sk_lock.slock);
	mrc_sk(sk)->conn = NULL;
	spin_unlock_bh(&sk->sk_lock.slock);
	if (conn)
		mrc_conn_timer_deferred(conn);
	return conn;
}

/*
 * mrc_sock_wait - sleep until @ready(sk), an error, a signal or *@timeo
 * runs out. Called and returns under lock_sock(), dropped while asleep.
 * While we sleep, the connection's packets wait in the backlog for us
 * (@waiting, conn/demux_defer.c): we take them on waking, on our CPU.
 * Return: 0 when ready, -EAGAIN on timeout, or a signal's error.
 */
int mrc_sock_wait(struct sock *sk, long *timeo, bool (*ready)(struct sock *))
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	WRITE_ONCE(mrc_sk(sk)->waiting, true);
	while (!(mrc_sock_flush(sk), ready(sk))) {
		if (!*timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(*timeo);
			break;
		}
		sk_wait_event(sk, timeo,
			      ready(sk) || READ_ONCE(sk->sk_backlog.tail),
			      &wait);
	}
	WRITE_ONCE(mrc_sk(sk)->waiting, false);
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/*
 * Send space if at least @need bytes fit (see mrc_core_send_space()),
 * and the socket's memory pool lets us queue up to @want of them (0:
 * do not ask, poll()'s query); when it does not, none, and the send
 * waits with a timeout (mrc_sock_send_wait()).
 */
static u32 mrc_sock_send_space(struct sock *sk, u32 need, u32 want)
{
	struct mrc_conn *conn = mrc_sk(sk)->conn;
	u32 space = 0;

	if (!conn)
		return 0;
	mrc_conn_lock_bh(conn);
	if (conn->core)
		space = mrc_core_send_space(conn->core, need);
	if (space && want)
		space = mrc_sock_wmem_room(conn, space, want);
	mrc_conn_unlock_bh(conn);
	return space;
}

/*
 * What a stream writer with @left bytes to go waits for: as TCP's
 * sk_stream_write_space(), a third of the buffer free (or all it has
 * left), not the next acknowledged segment: one wake-up and one lock
 * round per large copy instead of one per acknowledgment.
 */
static u32 mrc_sock_stream_need(const struct sock *sk, size_t left)
{
	u32 third = max_t(u32, READ_ONCE(sk->sk_sndbuf) / 3, 1);

	return clamp_t(size_t, left, 1, third);
}

/* In SYN_SENT the core has room only for early data (net.mrc.early_data). */
static bool mrc_sock_send_ready(struct sock *sk)
{
	return sk->sk_err || (sk->sk_shutdown & SEND_SHUTDOWN) ||
	       (sk->sk_state != TCP_SYN_RECV &&
		mrc_sock_send_space(sk, mrc_sk(sk)->send_need,
				    mrc_sk(sk)->send_need));
}

static int mrc_sock_fill_copy(void *arg, void *dst, u32 off, u32 len)
{
	memcpy(dst, (const u8 *)arg + off, len);
	return 0;
}

/*
 * Why a send cannot proceed, or 0. A pending socket error is only looked
 * at here: it is consumed by mrc_sock_send_error() when the call returns it,
 * so a send that moved some bytes first still leaves it for the next one.
 */
static int mrc_sock_send_check(struct sock *sk)
{
	int err = READ_ONCE(sk->sk_err);

	if (err)
		return -err;
	if (sk->sk_shutdown & SEND_SHUTDOWN)
		return -EPIPE;
	if (!mrc_sk(sk)->conn || sk->sk_state == TCP_LISTEN)
		return -ENOTCONN;
	return 0;
}

/* The error a send returns: consumes the socket error it reports. */
static int mrc_sock_send_error(struct sock *sk, int flags, int err)
{
	if (err == -READ_ONCE(sk->sk_err))
		return sock_error(sk) ?: err;
	if (err == -EPIPE && !(flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	return err;
}

/* Queue @len bytes of @buf into the core. Return: bytes taken or -errno. */
static int mrc_sock_send_to_core(struct sock *sk, void *buf, u32 len, u32 flags)
{
	struct mrc_conn *conn = mrc_sk(sk)->conn;
	int n = -EPIPE;

	mrc_conn_lock_bh(conn);
	if (conn->core)
		n = mrc_core_send(conn->core, len, flags, mrc_sock_fill_copy, buf);
	mrc_conn_unlock_bh(conn);
	return n;
}

/*
 * Wait for send space: 0 when there may be some (the caller looks
 * again), or an error. In naps of at most 200 ms: the memory pool may
 * refuse us (mem.c) between a check and the sleep, with nothing queued
 * that an acknowledgment would wake us for, and the end of its pressure
 * wakes nobody. A writer it refused looks again within 2-200 ms, as
 * sk_stream_wait_memory()'s does.
 */
static int mrc_sock_send_wait(struct sock *sk, long *timeo)
{
	long left, nap;
	int err;

	set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
	nap = mrc_sk(sk)->mem_wait ? get_random_u32_below(HZ / 5) + 2 : HZ / 5;
	nap = min(*timeo, nap);
	left = nap;
	err = mrc_sock_wait(sk, &left, mrc_sock_send_ready);
	if (*timeo != MAX_SCHEDULE_TIMEOUT)
		*timeo -= nap - left;
	if (err == -EAGAIN && *timeo)
		err = 0;	/* the caller looks again */
	return err ? err : mrc_sock_send_check(sk);
}

/*
 * A message too big for one page fragment of the send buffer: copied
 * into a bounce buffer first, which the core copies in turn.
 */
static int mrc_sock_send_bounced(struct sock *sk, struct msghdr *msg,
				 size_t len, long *timeo)
{
	void *buf;
	int n, err;

	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOBUFS;
	err = -EFAULT;
	if (!copy_from_iter_full(buf, len, &msg->msg_iter))
		goto out;
	for (;;) {
		n = mrc_sock_send_to_core(sk, buf, len, MRC_F_EOM);
		if (n) {
			err = n < 0 ? n : (int)len;
			break;
		}
		err = mrc_sock_send_wait(sk, timeo);
		if (err)
			break;
		/* One vCPU: let ksoftirqd take the ACKs we wait for. */
		cond_resched();
	}
out:
	kvfree(buf);
	return err;
}

/*
 * Queue @buf in the core by reference (@flags: MRC_F_EOM for a whole
 * message). Return: bytes taken or -errno.
 */
static int mrc_sock_send_ref(struct sock *sk, const struct mrc_core_buf *buf,
			     u32 flags)
{
	struct mrc_conn *conn = mrc_sk(sk)->conn;
	int n = -EPIPE;

	mrc_conn_lock_bh(conn);
	if (conn->core)
		n = mrc_core_send_buf(conn->core, buf, flags);
	mrc_conn_unlock_bh(conn);
	return n;
}

/*
 * Room for at least @least and at most @most bytes in the socket's page
 * fragment (a 32 KiB page, or a 4 KiB one when that allocation failed):
 * its place in @buf, nothing copied yet. Return: false if there is less
 * room than @least.
 */
static bool mrc_sock_frag_room(struct sock *sk, size_t least, size_t most,
			       struct mrc_core_buf *buf)
{
	struct page_frag *pfrag = &sk->sk_frag;

	if (least > SZ_32K || !skb_page_frag_refill(least, pfrag, sk->sk_allocation) ||
	    pfrag->size - pfrag->offset < least)
		return false;
	buf->data = (u8 *)page_address(pfrag->page) + pfrag->offset;
	buf->len = min_t(size_t, most, pfrag->size - pfrag->offset);
	buf->ref = pfrag->page;
	return true;
}

/*
 * A message, queued whole or not at all, with a stream byte's one copy
 * when it fits a page fragment. The fragment's offset moves only once
 * the core has taken the message. A refusal undoes the copy and waits;
 * the wait drops the socket lock, another sender of this socket may
 * write the same place meanwhile, so the copy is made again after it.
 */
static int mrc_sock_send_message(struct sock *sk, struct msghdr *msg, size_t len,
				 long *timeo)
{
	struct mrc_core_buf buf;
	int n, err;

	if (!len || len > READ_ONCE(sk->sk_sndbuf))
		return -EMSGSIZE;
	for (;;) {
		/* all of it in one fragment, or the bounce buffer */
		if (!mrc_sock_frag_room(sk, len, len, &buf))
			return mrc_sock_send_bounced(sk, msg, len, timeo);
		if (!copy_from_iter_full(buf.data, len, &msg->msg_iter))
			return -EFAULT;
		n = mrc_sock_send_ref(sk, &buf, MRC_F_EOM);
		if (n > 0) {
			sk->sk_frag.offset += n;
			return n;
		}
		iov_iter_revert(&msg->msg_iter, len);
		if (n < 0)
			return n;
		err = mrc_sock_send_wait(sk, timeo);
		if (err)
			return err;
		cond_resched();
	}
}

/*
 * The next piece of a copied stream send: at most @max bytes copied from
 * the user into the socket's page fragments (outside the connection
 * lock: it may fault), described in @buf. Consecutive pieces continue
 * one page, so the core's last segment keeps growing in place across
 * small writes.
 */
static int mrc_sock_frag_piece(struct sock *sk, struct msghdr *msg,
			       size_t max, struct mrc_core_buf *buf)
{
	if (!mrc_sock_frag_room(sk, 32, max, buf))
		return -ENOBUFS;
	if (!copy_from_iter_full(buf->data, buf->len, &msg->msg_iter))
		return -EFAULT;
	return 0;
}

/*
 * A stream send, queued in the core by reference piece by piece: the
 * one copy into the send buffer, or (@uarg, MSG_ZEROCOPY) the user's
 * pinned pages themselves (zerocopy.c).
 */
static int mrc_sock_send_stream(struct sock *sk, struct msghdr *msg, size_t len,
				long *timeo, struct ubuf_info *uarg)
{
	struct mrc_core_buf buf;
	size_t sent = 0, max;
	u32 space;
	int n, err = 0;

	while (sent < len) {
		/*
		 * What waited for us in the backlog while we held the
		 * socket (conn/demux_defer.c) is taken between chunks, as
		 * TCP's sendmsg() does, not after the whole send.
		 */
		mrc_sock_flush(sk);
		/* any room will do now; a wait is for a third of it */
		space = mrc_sock_send_space(sk, 0,
					    min_t(size_t, len - sent, SZ_64K));
		if (!space) {
			mrc_sk(sk)->send_need = mrc_sock_stream_need(sk,
								     len - sent);
			err = mrc_sock_send_wait(sk, timeo);
			if (err)
				break;
			cond_resched();
			continue;
		}
		max = min_t(size_t, len - sent, space);
		err = uarg ? mrc_sock_zc_piece(msg, max, uarg, &buf) :
			     mrc_sock_frag_piece(sk, msg, max, &buf);
		if (err)
			break;
		n = mrc_sock_send_ref(sk, &buf, 0);
		if (uarg)
			mrc_buf_put(buf.ref);	/* segments hold their own */
		else if (n > 0)
			sk->sk_frag.offset += n;
		if (n < 0) {
			iov_iter_revert(&msg->msg_iter, buf.len);
			err = n;
			break;
		}
		if (n < buf.len)
			iov_iter_revert(&msg->msg_iter, buf.len - n);
		sent += n;
	}
	return sent ? (int)sent : err;
}

/* A stream send, zero copy when it asks for it and may (zerocopy.c). */
static int mrc_sock_send_bytes(struct sock *sk, struct msghdr *msg,
			       size_t len, long *timeo)
{
	struct ubuf_info *uarg = mrc_sock_zc_start(sk, msg, len);
	int err;

	if (IS_ERR(uarg))
		return PTR_ERR(uarg);
	err = mrc_sock_send_stream(sk, msg, len, timeo, uarg);
	if (uarg)
		mrc_sock_zc_end(uarg, err > 0);
	return err;
}

/*
 * sendto(MSG_FASTOPEN) on an unconnected stream socket, as TCP's: connect
 * to msg_name without waiting, so that what the call sends goes out right
 * behind the SYN (net.mrc.early_data; else it waits for the handshake).
 * On a socket already connecting or connected the flag is ignored.
 */
static int mrc_sock_fastopen(struct socket *sock, struct msghdr *msg)
{
	int err;

	if (sock->type != SOCK_STREAM)
		return -EOPNOTSUPP;
	if (sock->state != SS_UNCONNECTED)
		return 0;
	if (!msg->msg_name)
		return -EDESTADDRREQ;
	err = mrc_connect(sock, msg->msg_name, msg->msg_namelen, O_NONBLOCK);
	return err == -EINPROGRESS ? 0 : err;
}

int mrc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct socket *tsock = mrc_tcp_sock(sock->sk);
	struct sock *sk = sock->sk;
	bool stream;
	long timeo;
	int err;

	if (tsock) {
		mrc_connect_tcp_sync(sk, tsock->sk);
		return tsock->ops->sendmsg(tsock, msg, len);
	}

	/*
	 * sendfile() and splice() come through sock_no_sendpage() with
	 * MSG_SENDPAGE_NOTLAST while more pages follow: MSG_MORE's meaning,
	 * and like it no reason to hold bytes back (they are copied once,
	 * from the page into the send buffer, as write()'s are).
	 */
	if (msg->msg_flags & ~(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_EOR |
			       MSG_MORE | MSG_WAITALL | MSG_SENDPAGE_NOTLAST |
			       MSG_ZEROCOPY | MSG_FASTOPEN))
		return -EOPNOTSUPP;
	if (msg->msg_flags & MSG_FASTOPEN) {
		err = mrc_sock_fastopen(sock, msg);
		if (err)
			return err;
	}
	if (len > INT_MAX)
		len = INT_MAX;
	lock_sock(sk);
	/*
	 * A message goes whole or waits; a stream takes any room (0: a look
	 * that arms no wake-up), or waits for a third of its buffer.
	 */
	stream = sk->sk_type != SOCK_SEQPACKET;
	mrc_sk(sk)->send_need = stream ? 0 : (u32)len;
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	err = mrc_sock_send_check(sk);
	if (!err && !mrc_sock_send_ready(sk)) {
		if (stream)
			mrc_sk(sk)->send_need = mrc_sock_stream_need(sk, len);
		err = mrc_sock_send_wait(sk, &timeo);
	}
	if (!err) {
		if (!stream)
			err = mrc_sock_send_message(sk, msg, len, &timeo);
		else
			err = mrc_sock_send_bytes(sk, msg, len, &timeo);
	}
	if (err < 0)
		err = mrc_sock_send_error(sk, msg->msg_flags, err);
	mrc_sock_flush(sk);
	release_sock(sk);
	return err;
}

/*
 * A new skb for @conn's receive queue, charged to sk_rmem_alloc and the
 * memory pool (mem.c). Under conn->lock.
 */
static void mrc_sock_rx_own(struct mrc_conn *conn, struct sk_buff *skb,
			    u32 flags)
{
	MRC_SKB_CB(skb)->consumed = 0;
	MRC_SKB_CB(skb)->charged = 0;
	MRC_SKB_CB(skb)->eom = !!(flags & MRC_F_EOM);
	skb->sk = conn->sk;
	skb->destructor = mrc_sock_rmem_uncharge;
	mrc_sock_rmem_charge(conn, skb, skb->truesize);
}

/* Queue the batch's skb of slices, if it has one (conn->rx_build). */
static void mrc_sock_rx_build_queue(struct mrc_conn *conn)
{
	if (!conn->rx_build)
		return;
	skb_queue_tail(&conn->sk->sk_receive_queue, conn->rx_build);
	conn->rx_build = NULL;
}

/*
 * A stream's slice (conn/rxbuf.h) in a batch: its page fragments join
 * the batch's skb (conn->rx_build), a new one when that is full, so a
 * batch costs the reader an skb or two, not one a packet.
 */
static int mrc_sock_deliver_slice(struct mrc_conn *conn, void *ref, u32 len)
{
	struct sk_buff *skb = conn->rx_build;

	if (skb && !mrc_rx_append(skb, ref, len)) {
		mrc_sock_rx_build_queue(conn);
		skb = NULL;
	}
	if (!skb) {
		skb = alloc_skb(0, GFP_ATOMIC | __GFP_NOWARN);
		if (!skb)
			return -ENOBUFS;
		if (!mrc_rx_append(skb, ref, len)) {
			kfree_skb(skb);
			return -ENOBUFS;
		}
		mrc_sock_rx_own(conn, skb, 0);
		conn->rx_build = skb;
	} else {
		mrc_sock_rmem_charge(conn, skb, len);
	}
	mrc_rx_free(ref);
	conn->rx_wake = true;	/* at the batch's end */
	return 0;
}

/*
 * The core delivers in-order bytes; under the connection's spinlock:
 * the handle it kept (@ref, conn/rxbuf.h): a packet's skb queued as it
 * is, a batch's slice added to the batch's skb (a stream) or made an
 * skb of its own; or (@ref NULL) a copy of @data. The receive queue is
 * charged to sk_rmem_alloc; the core keeps the peer within the window
 * we report, so nothing is refused for space here.
 */
int mrc_sock_deliver(struct mrc_conn *conn, const void *data, u32 len,
		     u32 flags, void *ref)
{
	struct sock *sk = conn->sk;
	struct sk_buff *skb = ref;

	lockdep_assert_held(&conn->lock);

	if (conn->orphan || (sk->sk_shutdown & RCV_SHUTDOWN)) {
		mrc_rx_free(ref);	/* nobody will read it: discard */
		conn->rx_after_close |= conn->orphan;
		return 0;
	}
	if (mrc_rx_is_slice(ref)) {
		if (conn->rx_batch && sk->sk_type != SOCK_SEQPACKET)
			return mrc_sock_deliver_slice(conn, ref, len);
		skb = mrc_rx_slice_skb(ref, len);
		if (!skb)
			return -ENOBUFS;
		mrc_rx_free(ref);
	} else if (!skb) {
		skb = alloc_skb(len, GFP_ATOMIC | __GFP_NOWARN);
		if (!skb)
			return -ENOBUFS;
		skb_put_data(skb, data, len);
	}
	mrc_sock_rx_own(conn, skb, flags);

	if (sk->sk_type != SOCK_SEQPACKET) {
		mrc_sock_rx_build_queue(conn);	/* the bytes before these */
		skb_queue_tail(&sk->sk_receive_queue, skb);
	} else {
		__skb_queue_tail(&conn->rx_partial, skb);
		conn->rx_partial_truesize += skb->truesize;
		if (!(flags & MRC_F_EOM)) {
			conn->rx_partial_grew = true;
			return 0;
		}
		conn->rx_partial_truesize = 0;
		spin_lock(&sk->sk_receive_queue.lock);
		skb_queue_splice_tail_init(&conn->rx_partial,
					   &sk->sk_receive_queue);
		atomic_inc(&mrc_sk(sk)->rx_msgs);
		spin_unlock(&sk->sk_receive_queue.lock);
	}
	if (conn->rx_batch)
		conn->rx_wake = true;	/* at the batch's end */
	else
		sk->sk_data_ready(sk);
	return 0;
}

/*
 * The room the application has: its buffer less what it holds, not
 * counting a SOCK_SEQPACKET message still being assembled. It cannot read
 * that one before the rest arrives, so counting it would close the window
 * on the very segments that complete a message larger than the buffer
 * (the core refuses DATA while the application has no room). Not without
 * bound, or a peer that never ends its message fills memory: up to twice
 * (truesize over payload) what a default send buffer can send as one
 * message, or our own buffer if larger. Under conn->lock.
 */
static u32 mrc_sock_space(struct mrc_conn *conn)
{
	struct sock *sk = conn->sk;
	int rcvbuf = READ_ONCE(sk->sk_rcvbuf);
	int partial = min_t(u32, conn->rx_partial_truesize,
			    2 * max(rcvbuf, MRC_DEFAULT_BUF));
	int held = atomic_read(&sk->sk_rmem_alloc) - partial;
	int space = rcvbuf - max(held, 0);

	lockdep_assert_held(&conn->lock);

	return max(space, 0);
}

/* Tell the core how much the application can take now. */
void mrc_sock_rcv_space(struct sock *sk)
{
	struct mrc_conn *conn = mrc_sk(sk)->conn;

	if (!conn)
		return;
	mrc_conn_lock_bh(conn);
	if (conn->core)
		mrc_core_rcv_space(conn->core, mrc_sock_space(conn));
	mrc_conn_unlock_bh(conn);
}

/*
 * After an input: a segment joined the message being
 * assembled, which the core counted against the application's room;
 * give that room back (see mrc_sock_space()). Not from the delivery
 * itself, which runs inside the core.
 */
static void mrc_sock_partial_space(struct mrc_conn *conn)
{
	lockdep_assert_held(&conn->lock);

	if (!conn->rx_partial_grew || !conn->core)
		return;
	conn->rx_partial_grew = false;
	mrc_core_rcv_space(conn->core, mrc_sock_space(conn));
}

/*
 * After an input under conn->lock: the reader is woken once for all a
 * batch delivered (conn->rx_wake). New data for a socket the application
 * has closed aborts the connection, as TCP resets it: nobody will read
 * it, and the sender should hear so now. Discarding it instead let the
 * sender fill the window it was given: the core counts what it delivers
 * against the application's room, which nothing gave back, and the last
 * segments were refused (NO_BUFFER) until the sender's user timeout.
 */
void mrc_sock_input_done(struct mrc_conn *conn)
{
	lockdep_assert_held(&conn->lock);

	conn->rx_batch = false;
	mrc_sock_rx_build_queue(conn);
	if (conn->rx_wake) {
		conn->rx_wake = false;
		conn->sk->sk_data_ready(conn->sk);
	}
	if (conn->rx_after_close && conn->core) {
		conn->rx_after_close = false;
		mrc_core_abort(conn->core, ECONNRESET);
		return;
	}
	mrc_sock_partial_space(conn);
}

static bool mrc_sock_recv_ready(struct sock *sk)
{
	if (sk->sk_err || (sk->sk_shutdown & RCV_SHUTDOWN))
		return true;
	if (sk->sk_type == SOCK_SEQPACKET)
		return atomic_read(&mrc_sk(sk)->rx_msgs) > 0;
	return !skb_queue_empty_lockless(&sk->sk_receive_queue);
}

/* Why nothing can be read now: 0 (EOF), an error, or -EAGAIN to wait. */
static int mrc_sock_recv_empty(struct sock *sk)
{
	int err = sock_error(sk);

	if (err)
		return err;
	if (sk->sk_shutdown & RCV_SHUTDOWN)
		return 0;
	if (!mrc_sk(sk)->conn && sk->sk_state != TCP_SYN_SENT)
		return -ENOTCONN;
	return -EAGAIN;
}

static int mrc_sock_recv_stream(struct sock *sk, struct msghdr *msg, size_t len,
				int flags, long *timeo)
{
	int target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);
	bool peek = flags & MSG_PEEK;
	struct sk_buff *skb, *tmp;
	size_t copied = 0;
	u32 chunk;
	int err;

	while (copied < len) {
		skb_queue_walk_safe(&sk->sk_receive_queue, skb, tmp) {
			u32 start = MRC_SKB_CB(skb)->consumed;

			chunk = min_t(size_t, skb->len - start, len - copied);
			if (skb_copy_datagram_msg(skb, start, msg, chunk))
				return copied ? (int)copied : -EFAULT;
			copied += chunk;
			if (!peek) {
				MRC_SKB_CB(skb)->consumed += chunk;
				if (MRC_SKB_CB(skb)->consumed == skb->len) {
					skb_unlink(skb, &sk->sk_receive_queue);
					kfree_skb(skb);
				}
			}
			if (copied == len)
				break;
		}
		if (copied >= target || peek)
			break;
		err = mrc_sock_recv_empty(sk);
		if (err != -EAGAIN)
			return copied ? (int)copied : err;
		/* A reader that waits for more (MSG_WAITALL) made room. */
		if (copied)
			mrc_sock_rcv_space(sk);
		err = mrc_sock_wait(sk, timeo, mrc_sock_recv_ready);
		if (err)
			return copied ? (int)copied : err;
	}
	return copied;
}

static int mrc_sock_recv_message(struct sock *sk, struct msghdr *msg, size_t len,
				 int flags)
{
	bool peek = flags & MSG_PEEK;
	struct sk_buff *skb, *tmp;
	size_t copied = 0, total = 0;
	u32 chunk;
	bool eom = false;

	skb_queue_walk_safe(&sk->sk_receive_queue, skb, tmp) {
		chunk = min_t(size_t, skb->len, len - copied);
		if (chunk && skb_copy_datagram_msg(skb, 0, msg, chunk))
			return -EFAULT;
		copied += chunk;
		total += skb->len;
		eom = MRC_SKB_CB(skb)->eom;
		if (!peek) {
			skb_unlink(skb, &sk->sk_receive_queue);
			kfree_skb(skb);
		}
		if (eom)
			break;
	}
	if (!peek)
		atomic_dec(&mrc_sk(sk)->rx_msgs);
	if (total > copied)
		msg->msg_flags |= MSG_TRUNC;
	msg->msg_flags |= MSG_EOR;
	return flags & MSG_TRUNC ? (int)total : (int)copied;
}

int mrc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		int flags)
{
	struct socket *tsock = mrc_tcp_sock(sock->sk);
	struct sock *sk = sock->sk;
	long timeo;
	int err;

	if (tsock) {
		mrc_connect_tcp_sync(sk, tsock->sk);
		return tsock->ops->recvmsg(tsock, msg, len, flags);
	}

	if (flags & MSG_ERRQUEUE)
		return mrc_sock_recv_error(sk, msg, len);
	if (flags & ~(MSG_DONTWAIT | MSG_PEEK | MSG_WAITALL | MSG_TRUNC |
		      MSG_CMSG_CLOEXEC | MSG_NOSIGNAL))
		return -EOPNOTSUPP;
	lock_sock(sk);
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	if (sk->sk_type == SOCK_STREAM) {
		err = mrc_sock_recv_stream(sk, msg, len, flags, &timeo);
	} else {
		while (!atomic_read(&mrc_sk(sk)->rx_msgs)) {
			err = mrc_sock_recv_empty(sk);
			if (err != -EAGAIN)
				goto out;
			err = mrc_sock_wait(sk, &timeo, mrc_sock_recv_ready);
			if (err)
				goto out;
		}
		err = mrc_sock_recv_message(sk, msg, len, flags);
	}
out:
	if (!(flags & MSG_PEEK))
		mrc_sock_rcv_space(sk);
	mrc_sock_flush(sk);
	release_sock(sk);
	return err;
}

/*
 * EPOLLOUT: a stream may write when a third of its buffer is free (as
 * TCP's sk_stream_is_writeable()); a seqpacket writer hears
 * when a message of half the send buffer fits (as sock_writeable() tells
 * datagram writers).
 */
static u32 mrc_sock_poll_need(const struct sock *sk)
{
	return sk->sk_type == SOCK_SEQPACKET ? READ_ONCE(sk->sk_sndbuf) / 2 :
	       mrc_sock_stream_need(sk, SIZE_MAX);
}

/*
 * The state is read only after sock_poll_wait() has put the caller on the
 * wait queue (its barrier pairs with the one in the wakers' wq_has_sleeper,
 * as tcp_poll() relies on): a state read first could predate the
 * SYN_ACK, whose wake-up would then come before the caller listens, and an
 * epoll set would never hear that a non-blocking connect completed.
 */
__poll_t mrc_poll(struct file *file, struct socket *sock,
		  struct poll_table_struct *wait)
{
	struct sock *sk = sock->sk;
	struct socket *tsock;
	__poll_t mask = 0;
	u8 state, shutdown;

	/* TCP's wake-ups come to our wait queue (connect_tcp.c) */
	sock_poll_wait(file, sock, wait);
	tsock = mrc_tcp_sock(sk);
	state = READ_ONCE(sk->sk_state);
	shutdown = READ_ONCE(sk->sk_shutdown);
	if (tsock)
		return tsock->ops->poll(file, tsock, NULL);
	if (state == TCP_LISTEN)
		return list_empty_careful(&mrc_sk(sk)->accept_q) &&
		       !mrc_listen_tcp_ready(sk) ? 0 : EPOLLIN | EPOLLRDNORM;
	if (state == TCP_SYN_SENT)
		return 0;
	if (READ_ONCE(sk->sk_err))
		mask |= EPOLLERR;
	if (shutdown == SHUTDOWN_MASK || state == TCP_CLOSE)
		mask |= EPOLLHUP;
	if (shutdown & RCV_SHUTDOWN)
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	if (mrc_sock_recv_ready(sk) && !(mask & EPOLLERR))
		mask |= EPOLLIN | EPOLLRDNORM;
	/* MSG_ZEROCOPY completions wait to be read (zerocopy.c) */
	if (!skb_queue_empty_lockless(&sk->sk_error_queue))
		mask |= EPOLLERR;
	if (state == TCP_CLOSE && !mrc_sk(sk)->conn) {
		mask |= EPOLLOUT | EPOLLWRNORM;	/* like an unconnected TCP */
	} else if (!(shutdown & SEND_SHUTDOWN)) {
		if (mrc_sock_send_space(sk, mrc_sock_poll_need(sk), 0))
			mask |= EPOLLOUT | EPOLLWRNORM;
		else
			set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
	}
	return mask;
}

/*
 * SIOCINQ: a stream's unread bytes; for SOCK_SEQPACKET the length of the
 * next message (only whole ones are queued), as AF_UNIX answers.
 */
static int mrc_sock_inq(struct sock *sk)
{
	struct sk_buff *skb;
	int n = 0;

	spin_lock_bh(&sk->sk_receive_queue.lock);
	skb_queue_walk(&sk->sk_receive_queue, skb) {
		n += skb->len - MRC_SKB_CB(skb)->consumed;
		if (sk->sk_type == SOCK_SEQPACKET && MRC_SKB_CB(skb)->eom)
			break;
	}
	spin_unlock_bh(&sk->sk_receive_queue.lock);
	return n;
}

/* SIOCOUTQ (unacknowledged) or SIOCOUTQNSD (never sent) payload bytes. */
static int mrc_sock_outq(struct sock *sk, bool unsent_only)
{
	struct mrc_conn *conn = mrc_sk(sk)->conn;
	u32 queued = 0, unsent = 0;

	if (!conn || sk->sk_state == TCP_SYN_SENT ||
	    sk->sk_state == TCP_SYN_RECV)
		return 0;
	mrc_conn_lock_bh(conn);
	if (conn->core)
		mrc_core_send_queued(conn->core, &queued, &unsent);
	mrc_conn_unlock_bh(conn);
	return unsent_only ? unsent : queued;
}

/*
 * The queue sizes TCP's ioctls give (tcp_ioctl()), with its errors: EINVAL
 * on a listener. Other commands go to the generic socket ioctls.
 */
int mrc_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct socket *tsock = mrc_tcp_sock(sock->sk);
	struct sock *sk = sock->sk;
	int answ;

	if (tsock)
		return tsock->ops->ioctl(tsock, cmd, arg);

	switch (cmd) {
	case SIOCINQ:
	case SIOCOUTQ:
	case SIOCOUTQNSD:
		break;
	default:
		return -ENOIOCTLCMD;
	}
	lock_sock(sk);
	if (sk->sk_state == TCP_LISTEN) {
		release_sock(sk);
		return -EINVAL;
	}
	if (cmd == SIOCINQ)
		answ = mrc_sock_inq(sk);
	else
		answ = mrc_sock_outq(sk, cmd == SIOCOUTQNSD);
	release_sock(sk);
	return put_user(answ, (int __user *)arg);
}

int mrc_shutdown(struct socket *sock, int how)
{
	struct socket *tsock = mrc_tcp_sock(sock->sk);
	struct sock *sk = sock->sk;
	struct mrc_conn *conn;
	int err = 0;

	if (tsock)
		return tsock->ops->shutdown(tsock, how);

	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	lock_sock(sk);
	conn = mrc_sk(sk)->conn;
	if (sk->sk_state == TCP_LISTEN && how != SHUT_WR) {
		mrc_listen_stop(sk);
	} else if (!conn) {
		err = -ENOTCONN;
	} else {
		if (how != SHUT_WR)
			sk->sk_shutdown |= RCV_SHUTDOWN;
		if (how != SHUT_RD) {
			sk->sk_shutdown |= SEND_SHUTDOWN;
			mrc_conn_lock_bh(conn);
			if (conn->core)
				mrc_core_close(conn->core);
			mrc_conn_unlock_bh(conn);
		}
	}
	sk->sk_state_change(sk);
	release_sock(sk);
	return err;
}
