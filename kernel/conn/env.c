// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel environment of the protocol core: clock, the connection's
 * hrtimer, UDP transmit, delivery into the socket, state notes, memory and
 * randomness. Every callback runs under the connection's spinlock, which
 * xmit, deliver and notify assert; alloc, free, timer_arm, rx_free and
 * buf_put also run from mrc_core_create() and mrc_core_destroy(), before
 * the connection is published and after it is unhashed, without it.
 *
 * Buffers (zero copy): a send buffer handle is a page of the socket's
 * page-fragment send buffer (sock/io.c) or a user page of a MSG_ZEROCOPY
 * send (buf.h); a segment holds a reference on the handle and every skb
 * sent from it a page reference of its own (udp.c); a received handle
 * is the DATA packet's skb, taken from the demux (demux.c), which becomes
 * the socket's at delivery or is freed with the connection.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "pernet.h"
#include "conn/buf.h"
#include "conn/conn.h"
#include "conn/demux.h"
#include "conn/mem.h"
#include "conn/peer.h"
#include "conn/rxbuf.h"
#include "sock/sock.h"
#include "conn/trace.h"
#include "conn/udp.h"

static u64 mrc_env_now_us(void *ctx)
{
	return div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

/* hrtimer_start() re-arms a pending or running timer; no wait needed. */
static void mrc_env_timer_arm(void *ctx, u64 when_us)
{
	struct mrc_conn *conn = ctx;

	if (!when_us) {
		hrtimer_try_to_cancel(&conn->timer);
		return;
	}
	hrtimer_start(&conn->timer, ns_to_ktime(when_us * NSEC_PER_USEC),
		      HRTIMER_MODE_ABS_SOFT);
}

static int mrc_env_xmit(void *ctx, u32 plane, u32 ev, const void *hdr,
			u32 hdr_len, const void *payload, u32 payload_len,
			void *payload_ref)
{
	struct mrc_conn *conn = ctx;
	u8 type = ((const struct mrc_hdr *)hdr)->ver_type & 0xf;

	lockdep_assert_held(&conn->lock);
	/*
	 * The netns counts what its connections send, so the count outlives
	 * them (a connection's own counters go with it).
	 */
	if (type == MRC_PKT_DATA)
		this_cpu_inc(conn->mn->mib->mibs[MRC_MIB_TXDATAPKTS]);
	else if (type == MRC_PKT_PROBE)
		this_cpu_inc(conn->mn->mib->mibs[MRC_MIB_PROBESTX]);
	/* A read-only query of the calling core: safe inside a callback. */
	return mrc_udp_xmit_conn(conn, plane,
				 mrc_core_peer_plane(conn->core, plane), ev,
				 hdr, hdr_len, payload, payload_len,
				 payload_ref);
}

static int mrc_env_deliver(void *ctx, const void *data, u32 len, u32 flags,
			   void *ref)
{
	return mrc_sock_deliver(ctx, data, len, flags, ref);
}

static void *mrc_env_rx_take(void *ctx, const struct mrc_pkt *pkt)
{
	struct mrc_conn *conn = ctx;

	lockdep_assert_held(&conn->lock);
	return mrc_demux_take(pkt);
}

/* A received packet the connection never delivered (it went away). */
static void mrc_env_rx_free(void *ctx, void *ref)
{
	mrc_rx_free(ref);
}

static void mrc_env_buf_get(void *ctx, void *ref)
{
	mrc_buf_get(ref);
}

static void mrc_env_buf_put(void *ctx, void *ref)
{
	mrc_buf_put(ref);
}

static void mrc_env_flush(void *ctx)
{
	mrc_udp_flush(ctx);
}

static void mrc_env_notify(void *ctx, enum mrc_core_note note, u32 arg)
{
	/*
	 * The peer's plane addresses are known from here on; a client's SYN
	 * went to the address connect() named, which may not be one of them.
	 */
	if (note == MRC_NOTE_ESTABLISHED)
		mrc_udp_routes_drop(ctx);
	/* what the next connection to this peer takes (peer.h) */
	if (note == MRC_NOTE_ESTABLISHED)
		mrc_peer_learn(ctx, -1, true);
	else if (note == MRC_NOTE_EV_STATE || note == MRC_NOTE_EV_SUSPECT)
		mrc_peer_learn(ctx, (int)arg, false);
	mrc_sock_notify(ctx, note, arg);
}

static void mrc_env_trace(void *ctx, enum mrc_core_trace point,
			  const struct mrc_core_trace_info *info)
{
	struct mrc_conn *conn = ctx;
	u32 netns = conn->mn->net->ns.inum;

	switch (point) {
	case MRC_TRACE_TX:
		trace_mrc_tx(netns, conn->id, info);
		break;
	case MRC_TRACE_RX:
		trace_mrc_rx(netns, conn->id, info);
		break;
	case MRC_TRACE_ACK:
		trace_mrc_ack(netns, conn->id, info);
		break;
	case MRC_TRACE_LOSS:
		trace_mrc_loss(netns, conn->id, info);
		break;
	case MRC_TRACE_NACK:
		trace_mrc_nack(netns, conn->id, info);
		break;
	}
}

/* The core's memory is charged to the connection's netns (mem.h). */
static void *mrc_env_alloc(void *ctx, size_t size)
{
	struct mrc_conn *conn = ctx;

	return mrc_mem_alloc(conn->mn, size, GFP_ATOMIC);
}

static void mrc_env_free(void *ctx, void *ptr)
{
	struct mrc_conn *conn = ctx;

	mrc_mem_free(conn->mn, ptr);
}

/*
 * Packets are built per CPU: every core call runs under conn->lock with
 * BHs off, so nothing else on this CPU builds one until it returns (a
 * packet sent to a local peer waits in the backlog for the softirq).
 */
static DEFINE_PER_CPU(struct mrc_core_scratch, mrc_env_scratch_pcpu);

static struct mrc_core_scratch *mrc_env_scratch(void *ctx)
{
	struct mrc_conn *conn = ctx;

	lockdep_assert_held(&conn->lock);
	WARN_ON_ONCE(preemptible());
	return this_cpu_ptr(&mrc_env_scratch_pcpu);
}

static void *mrc_env_core_alloc(void *ctx)
{
	struct mrc_conn *conn = ctx;

	return mrc_mem_core_alloc(conn->mn);
}

static void mrc_env_core_free(void *ctx, void *core)
{
	struct mrc_conn *conn = ctx;

	mrc_mem_core_free(conn->mn, core);
}

static u32 mrc_env_random(void *ctx)
{
	return get_random_u32();
}

const struct mrc_core_env_ops mrc_conn_env_ops = {
	.now_us		= mrc_env_now_us,
	.timer_arm	= mrc_env_timer_arm,
	.xmit		= mrc_env_xmit,
	.deliver	= mrc_env_deliver,
	.notify		= mrc_env_notify,
	.trace		= mrc_env_trace,
	.alloc		= mrc_env_alloc,
	.free		= mrc_env_free,
	.random		= mrc_env_random,
	.rx_take	= mrc_env_rx_take,
	.rx_free	= mrc_env_rx_free,
	.buf_get	= mrc_env_buf_get,
	.buf_put	= mrc_env_buf_put,
	.flush		= mrc_env_flush,
	.scratch	= mrc_env_scratch,
	.core_alloc	= mrc_env_core_alloc,
	.core_free	= mrc_env_core_free,
	/* No tx_busy yet: nothing counts what waits in the qdiscs. */
};
