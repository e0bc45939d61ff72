// SPDX-License-Identifier: GPL-2.0
/*
 * Where a connection's received packets are worked on: TCP's owner and
 * backlog rule (tcp_v4_rcv()), and a sleeper's own work. While a process
 * holds the socket (lock_sock(): in sendmsg(), recvmsg()) or sleeps on
 * it (mrc_sock_wait(): for data, send space, the handshake), a datagram
 * for its connection waits in the socket's backlog, and that process
 * takes it (release_sock(), or the sleeper on waking: sock/io.c), on
 * its own CPU. Without this a host's softirq did the protocol work of
 * whichever end it delivered to: a veth transmit runs the receiver's
 * path on the sender's CPU, so in a guest whose two hosts share two
 * vCPUs one CPU ran both ends' receive paths while the other idled
 * (P10's profile). Now a receiver takes its DATA and sends its SACKs on
 * its own CPU, and a sender takes its SACKs and sends more DATA on its
 * own. A sleeper is left only what a busy CPU got (the softirq runs on
 * behalf of another task, not the idle one): an idle CPU takes it at
 * once, as before, since deferring would only add a wake-up. Deferring
 * to every sleeper cost P1 (four planes of 10 Mbit/s, every packet its
 * own datagram and its own wake-up) a quarter more CPU per byte.
 * A timer expiry that comes while packets wait here waits for them
 * (conn.c, mrc_conn_timer_fire()): an RTO must not fire for a segment
 * whose SACK is in the backlog. It moves only where the work runs: the
 * core is conn->lock's either way. SYNs (no connection yet) are taken
 * at once, and so is anything a full backlog has no room for. Our own
 * paths take the backlog in runs of one core input batch each
 * (mrc_demux_backlog_drain()); release_sock() takes what is left one
 * datagram at a time (mrc_demux_backlog()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/sock.h>

#include "conn/conn.h"
#include "conn/demux.h"
#include "conn/demux_priv.h"
#include "ctl/plane.h"
#include "pernet.h"
#include "sock/sock.h"

/*
 * Queue @skb of plane @pl on @sk's backlog, unless the backlog and the
 * receive queue hold a receive and a send buffer's worth already: then
 * false, and the softirq takes it now. The backlog only moves work to
 * another CPU; dropping there would lose what the core may still take,
 * and count a malformed packet as NO_BUFFER instead of what is wrong
 * with it (mrc_inject's oversized packets did). Under sk_lock.slock.
 */
static bool mrc_demux_backlog_add(struct mrc_plane *pl, struct sock *sk,
				  struct sk_buff *skb)
{
	u32 limit = READ_ONCE(sk->sk_rcvbuf) + READ_ONCE(sk->sk_sndbuf);

	MRC_DEMUX_CB(skb)->plane = pl->id;
	skb_dst_drop(skb);	/* the demux needs only the IP header */
	return !sk_add_backlog(sk, skb, limit);
}

/*
 * mrc_demux_defer - leave datagram @skb of plane @pl to a process of its
 * connection's socket (see the top of the file); the connection is its
 * first packet's (a batch's packets are one connection's). Softirq, RCU
 * held. Return: true if @skb was queued, false to take it now.
 */
bool mrc_demux_defer(struct mrc_plane *pl, struct sk_buff *skb)
{
	struct mrc_net *mn = mrc_pernet(dev_net(pl->dev));
	bool queued = false, wake = false;
	const struct mrc_hdr *hdr;
	struct mrc_conn *conn;
	struct mrc_hdr buf;
	struct sock *sk;

	hdr = skb_header_pointer(skb, sizeof(struct udphdr), sizeof(buf), &buf);
	if (!hdr || (hdr->ver_type & 0xf) == MRC_PKT_SYN)
		return false;
	conn = mrc_conn_lookup(mn, ntohl(hdr->dst_token));
	if (!conn)
		return false;
	sk = conn->sk;	/* held by the connection */
	bh_lock_sock(sk);
	if (sock_owned_by_user(sk)) {
		queued = mrc_demux_backlog_add(pl, sk, skb);
	} else if (READ_ONCE(mrc_sk(sk)->waiting) &&
		   (!is_idle_task(current) || sk->sk_backlog.tail)) {
		/*
		 * A sleeper wakes for the first; it takes them all. An idle
		 * CPU's packet waits behind any queued before it: taken at
		 * once, it would pass them, and the sender counts a packet
		 * lost as soon as a later one on its EV is acknowledged
		 * (ack.c, mrc_ack_ev_overtaken()). It resent 2.2% of P1h's
		 * DATA (four shaped planes, nothing lost) for that.
		 */
		wake = !sk->sk_backlog.tail;
		queued = mrc_demux_backlog_add(pl, sk, skb);
		wake &= queued;
	}
	bh_unlock_sock(sk);
	if (wake)
		sk->sk_data_ready(sk);
	mrc_conn_put(conn);
	return queued;
}

/*
 * The plane a queued datagram came on, or NULL (counted, @skb freed) if
 * it has gone since. BHs off, RCU held.
 */
static struct mrc_plane *mrc_demux_backlog_plane(struct net *net,
						 struct sk_buff *skb)
{
	u32 id = MRC_DEMUX_CB(skb)->plane;
	struct mrc_plane *pl;

	mrc_mib_inc(net, MRC_MIB_RXBACKLOG);
	pl = id < MRC_MAX_PLANES ?
	     rcu_dereference(mrc_pernet(net)->planes[id]) : NULL;
	if (!pl) {
		mrc_mib_inc(net, MRC_MIB_RXDROP_FIRST + MRC_DROP_PLANE);
		kfree_skb(skb);
	}
	return pl;
}

/*
 * mrc_demux_backlog - a datagram mrc_demux_defer() queued, taken by a
 * process of its socket (sk_backlog_rcv, from release_sock() or
 * sk_flush_backlog()): as if it came now, with BHs off, as the softirq
 * takes one. Process context.
 */
void mrc_demux_backlog(struct net *net, struct sk_buff *skb)
{
	struct mrc_plane *pl;

	local_bh_disable();
	rcu_read_lock();
	pl = mrc_demux_backlog_plane(net, skb);
	if (pl)
		mrc_demux_datagram(pl, skb);
	rcu_read_unlock();
	local_bh_enable();
}

/*
 * Datagrams of a backlog taken in one run at most: its packets wait
 * for the run's end in the connection's deferred transmit list, and
 * the softirq for its lock.
 */
#define MRC_DEMUX_RUN_MAX	16

/*
 * One run: up to MRC_DEMUX_RUN_MAX datagrams of list @skb, in order.
 * Return: the rest of the list.
 */
static struct sk_buff *mrc_demux_backlog_run(struct sock *sk,
					     struct sk_buff *skb)
{
	struct mrc_demux_run run = { .mn = mrc_pernet(sock_net(sk)) };
	struct mrc_plane *pl;
	struct sk_buff *next;
	u32 n;

	local_bh_disable();
	rcu_read_lock();
	for (n = 0; skb && n < MRC_DEMUX_RUN_MAX; n++, skb = next) {
		next = skb->next;
		skb_mark_not_on_list(skb);
		pl = mrc_demux_backlog_plane(sock_net(sk), skb);
		if (pl && !mrc_demux_run_input(&run, pl, skb)) {
			mrc_demux_run_close(&run);
			mrc_demux_datagram(pl, skb);
		}
	}
	mrc_demux_run_close(&run);
	rcu_read_unlock();
	local_bh_enable();
	return skb;
}

/*
 * mrc_demux_backlog_drain - what waits in @sk's backlog, taken by its
 * owner in runs of one lock round and one core input batch each, not
 * datagram by datagram as release_sock() takes them. A sender's backlog
 * is SACKs that came while it held the socket: one at a time, the
 * first of them ran loss detection at a time the rest were already
 * here to answer, and a packet the second acknowledged was resent
 * (2.2% of P1h's DATA: the core's batch counts losses once, at its
 * end). A receiver's DATA trains are batches of their own. Under
 * lock_sock(), process context.
 */
void mrc_demux_backlog_drain(struct sock *sk)
{
	struct sk_buff *skb;

	sock_owned_by_me(sk);
	/* as sk_flush_backlog(): no lock round for an empty backlog */
	if (!READ_ONCE(sk->sk_backlog.tail))
		return;
	spin_lock_bh(&sk->sk_lock.slock);
	skb = sk->sk_backlog.head;
	sk->sk_backlog.head = NULL;
	sk->sk_backlog.tail = NULL;
	spin_unlock_bh(&sk->sk_lock.slock);
	while (skb) {
		skb = mrc_demux_backlog_run(sk, skb);
		cond_resched();
	}
	/* as __release_sock(): what came meanwhile is counted afresh */
	spin_lock_bh(&sk->sk_lock.slock);
	sk->sk_backlog.len = 0;
	spin_unlock_bh(&sk->sk_lock.slock);
}
