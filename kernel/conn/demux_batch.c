// SPDX-License-Identifier: GPL-2.0
/*
 * The receive demux's batches. A UDP GSO skb carries MRC packets of
 * gso_size bytes back to back behind its one UDP header: a train of this
 * host's own (udp.c) reaching a peer on the same host (veth, loopback)
 * whole. The plane sockets accept SKB_GSO_UDP_L4 and a train also says
 * SKB_GSO_UDP_TUNNEL, without which 6.1 segments it before encap_rcv
 * (udp_unexpected_gso()): an skb, a copied head and a checksum pass over
 * the payload for every packet, then a second head for the pull of its
 * MRC header. Here the DATA packets of one connection go to its core in
 * one lock round and one core input batch (mrc_core_input_begin(): one
 * clock read, one timer re-arm, one SACK for the batch, or one for each
 * 64 PSNs it reaches past a gap) with one reader wake-up, and a packet
 * the core keeps costs no allocation of its own: a slice of the batch's
 * skb (rxbuf.h), whose pages its delivery adds to the receive queue
 * (sock/io.c). A train longer than an skb's fragments carries the rest
 * on its frag_list (udp.c), each skb there starting at a packet: those
 * packets are sliced from the skb they lie in, with a train of slices
 * each. Anything but DATA is taken alone, from a copy, in order with the
 * DATA around it, after the batch before it is closed. Every packet is
 * counted as demux.c counts one datagram.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/udp.h>

#include "conn/conn.h"
#include "conn/demux_priv.h"
#include "conn/rxbuf.h"
#include "ctl/plane.h"
#include "pernet.h"
#include "sock/sock.h"

struct mrc_demux_batch {
	struct mrc_demux_run	run;	/* its connection, mn */
	struct mrc_plane	*pl;
	struct sk_buff		*skb;	/* data at its UDP header */
	struct sk_buff		*piece;	/* @skb or one on its frag_list */
	u32			pkts;	/* packets in @piece */
	struct mrc_rx_train	*train;	/* @piece's kept packets (rxbuf.h) */
	bool			ce;
};

/*
 * mrc_demux_run_close - the run is done with its connection: the core's
 * input batch ends (its SACK, its loss detection), the reader hears,
 * unlock. BHs off, RCU held.
 */
void mrc_demux_run_close(struct mrc_demux_run *run)
{
	struct mrc_conn *conn = run->conn;

	if (!conn)
		return;
	run->conn = NULL;
	if (conn->core)
		mrc_core_input_end(conn->core);
	mrc_sock_input_done(conn);
	mrc_conn_unlock(conn);
	mrc_conn_put(conn);
}

/*
 * mrc_demux_run_conn - the connection with local token @token, locked,
 * its core in an input batch: the one of the packet before when it is
 * the same. NULL if there is none (or it is killed). BHs off, RCU held.
 */
struct mrc_conn *mrc_demux_run_conn(struct mrc_demux_run *run, u32 token)
{
	struct mrc_conn *conn = run->conn;

	if (conn && conn->id == token && conn->core)
		return conn;
	mrc_demux_run_close(run);
	conn = mrc_conn_lookup(run->mn, token);
	if (!conn)
		return NULL;
	mrc_conn_lock(conn);
	if (!conn->core) {
		mrc_conn_unlock(conn);
		mrc_conn_put(conn);
		return NULL;
	}
	conn->rx_batch = true;
	mrc_core_input_begin(conn->core);
	run->conn = conn;
	return conn;
}

/* A packet of the batch that is not DATA: alone, parsed from a copy. */
static int mrc_demux_batch_other(struct mrc_demux_batch *b, u32 off, u32 len)
{
	struct mrc_pkt pkt;
	int reason;
	u8 *buf;

	mrc_demux_run_close(&b->run);
	buf = kmalloc(len, GFP_ATOMIC | __GFP_NOWARN);
	if (!buf)
		return MRC_DROP_NO_BUFFER;
	reason = MRC_DROP_SHORT;
	if (!skb_copy_bits(b->piece, off, buf, len))
		reason = mrc_wire_parse(buf, len, &pkt);
	if (!reason)
		reason = mrc_demux_dispatch(b->run.mn, b->pl, b->skb, &pkt, b->ce);
	kfree(buf);
	return reason;
}

/* The packet of @len bytes at @off of b->piece. Return: its drop reason. */
static int mrc_demux_batch_pkt(struct mrc_demux_batch *b, u32 off, u32 len)
{
	u8 buf[sizeof(struct mrc_hdr) + sizeof(struct mrc_data)];
	struct mrc_demux_hold hold = {
		.skb = b->piece, .pkts = b->pkts, .train = &b->train,
	};
	u32 need = min_t(u32, len, sizeof(buf));
	struct mrc_conn *conn;
	struct mrc_pkt pkt;
	const u8 *head;
	int reason;

	head = skb_header_pointer(b->piece, off, need, buf);
	if (!head || need < sizeof(struct mrc_hdr) ||
	    (head[offsetof(struct mrc_hdr, ver_type)] & 0xf) != MRC_PKT_DATA)
		return mrc_demux_batch_other(b, off, len);
	reason = mrc_wire_parse_head(head, need, len, &pkt);
	if (reason)
		return reason;
	hold.off = off + len - pkt.payload_len;
	pkt.buf = &hold;
	conn = mrc_demux_run_conn(&b->run, pkt.dst_token);
	if (!conn)	/* the RST, as for one datagram */
		return mrc_demux_dispatch(b->run.mn, b->pl, b->skb, &pkt, b->ce);
	return mrc_demux_conn_input(conn, &pkt, b->pl->id, b->skb, b->ce);
}

/*
 * The packets of @piece, bytes [@off, @end) of it, @seg bytes each but
 * the last. Return: how many.
 */
static u32 mrc_demux_batch_piece(struct mrc_demux_batch *b,
				 struct sk_buff *piece, u32 off, u32 end,
				 u32 seg)
{
	u32 len;

	mrc_rx_train_put(b->train);
	b->train = NULL;
	b->piece = piece;
	b->pkts = end > off ? DIV_ROUND_UP(end - off, seg) : 0;
	for (; off < end; off += len) {
		len = min(seg, end - off);
		mrc_demux_count(b->run.mn, b->pl, mrc_demux_batch_pkt(b, off, len),
				sizeof(struct udphdr) + len);
	}
	return b->pkts;
}

/*
 * Where @skb's own bytes end (its head and page fragments), and whether
 * each skb of its frag_list starts at a packet of @seg bytes: else the
 * batch is cut as one, its frag_list's bytes copied.
 */
static u32 mrc_demux_batch_own(const struct sk_buff *skb, u32 seg)
{
	const struct skb_shared_info *si = skb_shinfo(skb);
	u32 own = skb_headlen(skb), len, i;
	const struct sk_buff *piece;

	for (i = 0; i < si->nr_frags; i++)
		own += skb_frag_size(&si->frags[i]);
	len = own - sizeof(struct udphdr);
	skb_walk_frags(skb, piece) {
		if (len % seg)
			return skb->len;
		len = piece->len;
	}
	return own;
}

/*
 * mrc_demux_batch - the packets of UDP GSO @skb of plane @pl, in order;
 * consumes @skb. Softirq, RCU held, data at the UDP header, as
 * mrc_demux_input().
 */
void mrc_demux_batch(struct mrc_plane *pl, struct sk_buff *skb, bool ce)
{
	struct mrc_demux_batch b = {
		.run.mn = mrc_pernet(dev_net(pl->dev)),
		.pl = pl,
		.skb = skb,
		.ce = ce,
	};
	u32 seg = skb_shinfo(skb)->gso_size, own, pkts;
	struct sk_buff *piece;

	/* a MSG_ZEROCOPY sender may reuse its pages once the skb is gone */
	if (skb_orphan_frags_rx(skb, GFP_ATOMIC)) {
		mrc_demux_count(b.run.mn, pl, MRC_DROP_NO_BUFFER, skb->len);
		kfree_skb(skb);
		return;
	}
	own = mrc_demux_batch_own(skb, seg);
	pkts = mrc_demux_batch_piece(&b, skb, sizeof(struct udphdr), own, seg);
	if (own < skb->len) {
		skb_walk_frags(skb, piece)
			pkts += mrc_demux_batch_piece(&b, piece, 0, piece->len,
						      seg);
	}
	mrc_demux_run_close(&b.run);
	mrc_rx_train_put(b.train);
	mrc_plane_mib_add(pl, MRC_PLANE_MIB_RXBATCHES, 1);
	mrc_plane_mib_add(pl, MRC_PLANE_MIB_RXBATCHPKTS, pkts);
	consume_skb(skb);
}
