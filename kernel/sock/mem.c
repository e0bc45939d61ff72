// SPDX-License-Identifier: GPL-2.0
/*
 * Socket memory, charged as TCP's is: to the protocol's pool
 * (mrc_prot.memory_allocated, in pages, bounded by net.mrc.mem: "min
 * pressure max", as net.ipv4.tcp_mem) through the kernel's helpers
 * (sk_wmem_schedule(), sk_rmem_schedule(), sk_mem_charge(),
 * sk_mem_reclaim()), so that the pool's pressure, memcg's socket
 * accounting and /proc/net/protocols' "memory" and "press" columns work
 * for AF_MRC as for TCP.
 * - Send: what the core holds of the user's bytes, sent or not, until
 *   acknowledged, is sk_wmem_queued. A send schedules what it queues
 *   first. Under pressure the kernel shrinks a stream's send buffer
 *   (sk_sndbuf, not the core's) rather than refuse it, and the socket
 *   then queues no more than that until the pressure is over; a
 *   SOCK_SEQPACKET send the pool refuses waits for memory
 *   (mrc_sock_wmem_room()).
 * - Receive: every skb the socket queues (and a message being
 *   assembled) is charged at delivery. The core took the packet within
 *   the window we advertised, so a delivery is never refused: what the
 *   pool refuses is queued uncharged and counted (RcvMemOver). The window
 *   stays what the receive buffer allows: clamped under pressure (64 KiB
 *   was tried), it stalled a transfer for good, since the core sends a
 *   window update only for a step of a quarter of the buffer.
 * Locking: sk_forward_alloc and sk_wmem_queued change under the
 * connection's lock (conn->lock) only, not the socket's: deliveries and
 * acknowledgements reach the socket in softirq under conn->lock alone
 * (conn/demux.c). recvmsg() frees its skbs without that lock, so their
 * destructor only counts what they were charged (mrc_sock.rmem_freed,
 * atomic); it goes back to sk_forward_alloc at the connection's next
 * unlock (mrc_sock_mem_sync()). Once no connection refers to the socket
 * its destructor settles the rest (mrc_sock_mem_destruct()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/swap.h>
#include <net/sock.h>

#include "pernet.h"
#include "conn/conn.h"
#include "sock/sock.h"

static atomic_long_t mrc_memory_allocated;
static DEFINE_PER_CPU(int, mrc_memory_per_cpu_fw_alloc);
static struct percpu_counter mrc_sockets_allocated;
static unsigned long mrc_memory_pressure;

/* net.mrc.mem, pages; set at load as tcp_init_mem() sets tcp_mem */
long sysctl_mrc_mem[3] __read_mostly;

/*
 * What the pool lets a socket have whatever the pressure (the first
 * value; the others are unused): a send of a few segments, a receive
 * queue of a few packets.
 */
static int mrc_sysctl_wmem[3] = { 16 * 1024, 0, 0 };
static int mrc_sysctl_rmem[3] = { 16 * 1024, 0, 0 };

/* Counted per netns of the socket that crossed the line, as TCP's. */
static void mrc_enter_memory_pressure(struct sock *sk)
{
	if (!xchg(&mrc_memory_pressure, 1))
		mrc_mib_inc(sock_net(sk), MRC_MIB_MEMPRESSURES);
}

static void mrc_leave_memory_pressure(struct sock *sk)
{
	WRITE_ONCE(mrc_memory_pressure, 0);
}

void mrc_sock_mem_proto(struct proto *prot)
{
	prot->memory_allocated = &mrc_memory_allocated;
	prot->per_cpu_fw_alloc = &mrc_memory_per_cpu_fw_alloc;
	prot->sockets_allocated = &mrc_sockets_allocated;
	prot->memory_pressure = &mrc_memory_pressure;
	prot->enter_memory_pressure = mrc_enter_memory_pressure;
	prot->leave_memory_pressure = mrc_leave_memory_pressure;
	prot->sysctl_mem = sysctl_mrc_mem;
	prot->sysctl_wmem = mrc_sysctl_wmem;
	prot->sysctl_rmem = mrc_sysctl_rmem;
}

/*
 * The pool shrinks a stream's send buffer under pressure instead of
 * refusing it memory (sk_stream_moderate_sndbuf(), from the kernel's
 * schedule): give back the size the core was made with once the
 * pressure is over, unless the user set one (SO_SNDBUF).
 */
static void mrc_sock_sndbuf_restore(struct sock *sk)
{
	u32 full = mrc_sk(sk)->sndbuf_full;

	if (sk->sk_sndbuf < full && !(sk->sk_userlocks & SOCK_SNDBUF_LOCK) &&
	    !sk_under_memory_pressure(sk))
		WRITE_ONCE(sk->sk_sndbuf, full);
}

/*
 * mrc_sock_wmem_room - of the @space bytes @conn's core has room for
 * now, what its socket may queue: all of it if the pool lets it have
 * @want of them (the most this round will queue), none while it holds a
 * send buffer's worth that the pool shrank (then the core tells us at
 * the next acknowledgment: MRC_NOTE_WRITABLE) or the pool
 * refuses (mrc_sock.mem_wait: nothing may come to wake the writer, who
 * naps instead). Under conn->lock.
 */
u32 mrc_sock_wmem_room(struct mrc_conn *conn, u32 space, u32 want)
{
	struct sock *sk = conn->sk;
	u32 sndbuf;

	lockdep_assert_held(&conn->lock);
	mrc_sock_sndbuf_restore(sk);
	mrc_sk(sk)->mem_wait = false;
	sndbuf = READ_ONCE(sk->sk_sndbuf);
	if (sk->sk_type == SOCK_STREAM && sk->sk_wmem_queued >= sndbuf &&
	    sndbuf < mrc_sk(sk)->sndbuf_full) {
		/*
		 * Woken by the next acknowledgment: the core's space is
		 * also bound by its ring's free slots, so a larger need
		 * (a third of the buffer free) might never be met.
		 */
		mrc_core_send_space(conn->core, space + 1);
		mrc_mib_inc(sock_net(sk), MRC_MIB_SNDMEMWAIT);
		return 0;
	}
	if (sk_wmem_schedule(sk, min(space, want)))
		return space;
	mrc_sk(sk)->mem_wait = true;
	mrc_mib_inc(sock_net(sk), MRC_MIB_SNDMEMWAIT);
	return 0;
}

/*
 * mrc_sock_rmem_charge - charge @size bytes that @skb, on or for the
 * receive queue, holds: to sk_rmem_alloc always, to the pool when it has
 * room (see the top of the file). Under conn->lock.
 */
void mrc_sock_rmem_charge(struct mrc_conn *conn, struct sk_buff *skb,
			  u32 size)
{
	struct sock *sk = conn->sk;

	lockdep_assert_held(&conn->lock);
	atomic_add(size, &sk->sk_rmem_alloc);
	if (!sk_rmem_schedule(sk, skb, size)) {
		mrc_mib_inc(sock_net(sk), MRC_MIB_RCVMEMOVER);
		return;
	}
	sk_mem_charge(sk, size);
	MRC_SKB_CB(skb)->charged += size;
}

/* An skb of the receive queue is freed (its destructor): any context. */
void mrc_sock_rmem_uncharge(struct sk_buff *skb)
{
	struct sock *sk = skb->sk;

	atomic_sub(skb->truesize, &sk->sk_rmem_alloc);
	if (MRC_SKB_CB(skb)->charged)
		atomic_add(MRC_SKB_CB(skb)->charged, &mrc_sk(sk)->rmem_freed);
}

/* Forward what freed skbs were charged, then return whole pages. */
static void mrc_sock_rmem_settle(struct sock *sk)
{
	int freed = atomic_xchg(&mrc_sk(sk)->rmem_freed, 0);

	if (freed)
		sk_mem_uncharge(sk, freed);
}

/*
 * mrc_sock_mem_sync - @conn's socket after a lock round: sk_wmem_queued
 * follows what the core holds to send (the bytes acknowledged are given
 * back), and what freed receive skbs held goes back too. Under
 * conn->lock, before it is dropped.
 */
void mrc_sock_mem_sync(struct mrc_conn *conn)
{
	struct sock *sk = conn->sk;
	u32 queued = conn->core ? mrc_core_send_held(conn->core) : 0;
	int delta;

	lockdep_assert_held(&conn->lock);
	delta = (int)queued - sk->sk_wmem_queued;
	if (delta) {
		sk_wmem_queued_add(sk, delta);
		if (delta > 0)
			sk_mem_charge(sk, delta);
		else
			sk_mem_uncharge(sk, -delta);
	}
	mrc_sock_rmem_settle(sk);
}

/* From the socket's destructor, its queues purged and its connection gone. */
void mrc_sock_mem_destruct(struct sock *sk)
{
	WARN_ON_ONCE(sk->sk_wmem_queued);
	mrc_sock_rmem_settle(sk);
	sk_mem_reclaim_final(sk);
	WARN_ON_ONCE(sk->sk_forward_alloc);
}

int mrc_sock_mem_init(void)
{
	unsigned long limit = max(nr_free_buffer_pages() / 16, 128UL);

	sysctl_mrc_mem[0] = limit / 4 * 3;
	sysctl_mrc_mem[1] = limit;
	sysctl_mrc_mem[2] = sysctl_mrc_mem[0] * 2;
	return percpu_counter_init(&mrc_sockets_allocated, 0, GFP_KERNEL);
}

/*
 * mrc_sock_mem_pages - the pool's pages in use, exactly: with what each
 * CPU holds back from the shared count (sysctl_mem_pcpu_rsv), which
 * /proc/net/protocols leaves out.
 */
long mrc_sock_mem_pages(void)
{
	long pages = atomic_long_read(&mrc_memory_allocated);
	int cpu;

	for_each_possible_cpu(cpu)
		pages += *per_cpu_ptr(&mrc_memory_per_cpu_fw_alloc, cpu);
	return pages;
}

bool mrc_sock_mem_pressure(void)
{
	return READ_ONCE(mrc_memory_pressure);
}

/* After every socket is gone: what is left of the pool leaked. */
void mrc_sock_mem_exit(void)
{
	long left = mrc_sock_mem_pages();

	WARN(left, "mrc: %ld pages of socket memory leaked\n", left);
	percpu_counter_destroy(&mrc_sockets_allocated);
}
