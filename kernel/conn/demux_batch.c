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
 * one lock round with one reader wake-up, and a packet the core keeps
 * costs one skb that references the batch's pages (mrc_demux_slice()).
 * Each packet is still its own mrc_core_input(), not one core input batch
 * (mrc_core_input_begin()): the batch's one SACK at its end cost P1 (four
 * planes of 10 Mbit/s) 2.5% of its goodput, 0.99x -> 0.96-0.97x of the
 * limit in four quick runs, and back at 0.99x without it, while P10 was
 * the same either way (bench/run --quick). Anything but DATA is taken
 * alone, from a copy, in order with the DATA around it. Every packet is
 * counted as demux.c counts one datagram.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/udp.h>

#include "conn/conn.h"
#include "conn/demux_priv.h"
#include "ctl/plane.h"
#include "pernet.h"
#include "sock/sock.h"

/*
 * How the bytes [@off, @off + @len) of @skb lie: in its head (*@head
 * bytes, copied into the slice) and in how many page fragments; false if
 * some lie past the fragments (a frag_list) or need more fragments than
 * an skb has, so the slice is a copy.
 */
static bool mrc_demux_slice_fits(const struct sk_buff *skb, u32 off, u32 len,
				 u32 *head)
{
	const struct skb_shared_info *si = skb_shinfo(skb);
	u32 end = off + len, pos = skb_headlen(skb), frags = 0, i;

	*head = off < pos ? min(end, pos) - off : 0;
	for (i = 0; i < si->nr_frags && pos < end; i++) {
		u32 size = skb_frag_size(&si->frags[i]);

		if (pos + size > off)
			frags++;
		pos += size;
	}
	return pos >= end && frags <= MAX_SKB_FRAGS;
}

/*
 * mrc_demux_slice - a new skb holding bytes [@off, @off + @len) of @skb
 * (a packet's payload in a batch): what lies in @skb's page fragments
 * referenced, as skb_segment() does, what lies in its head copied; all of
 * it copied if it reaches into a frag_list. The pages of a MSG_ZEROCOPY
 * send are never shared: mrc_demux_batch() made them the kernel's first.
 * Softirq; NULL without memory.
 */
struct sk_buff *mrc_demux_slice(const struct sk_buff *skb, u32 off, u32 len)
{
	const struct skb_shared_info *si = skb_shinfo(skb);
	u32 end = off + len, pos = skb_headlen(skb), head, i, from, to;
	struct sk_buff *n;
	int nr = 0;

	if (!mrc_demux_slice_fits(skb, off, len, &head)) {
		n = alloc_skb(len, GFP_ATOMIC | __GFP_NOWARN);
		if (n && skb_copy_bits(skb, off, skb_put(n, len), len)) {
			kfree_skb(n);
			n = NULL;
		}
		return n;
	}
	n = alloc_skb(head, GFP_ATOMIC | __GFP_NOWARN);
	if (!n)
		return NULL;
	if (head)
		skb_put_data(n, skb->data + off, head);
	for (i = 0; i < si->nr_frags && pos < end;
	     pos += skb_frag_size(&si->frags[i]), i++) {
		const skb_frag_t *f = &si->frags[i];

		from = max(off, pos);
		to = min(end, pos + skb_frag_size(f));
		if (from >= to)
			continue;
		skb_fill_page_desc(n, nr, skb_frag_page(f),
				   skb_frag_off(f) + from - pos, to - from);
		skb_frag_ref(n, nr++);
		n->len += to - from;
		n->data_len += to - from;
		n->truesize += to - from;
	}
	return n;
}

struct mrc_demux_batch {
	struct mrc_net		*mn;
	struct mrc_plane	*pl;
	struct sk_buff		*skb;	/* data at its UDP header */
	struct mrc_conn		*conn;	/* locked */
	bool			ce;
};

/* The batch is done with its connection: the reader hears, unlock. */
static void mrc_demux_batch_close(struct mrc_demux_batch *b)
{
	struct mrc_conn *conn = b->conn;

	if (!conn)
		return;
	b->conn = NULL;
	mrc_sock_input_done(conn);
	spin_unlock(&conn->lock);
	mrc_conn_put(conn);
}

/*
 * The connection with local token @token, locked: the one of the packet
 * before when it is the same. NULL if there is none (or it is killed).
 */
static struct mrc_conn *mrc_demux_batch_conn(struct mrc_demux_batch *b,
					     u32 token)
{
	struct mrc_conn *conn = b->conn;

	if (conn && conn->id == token)
		return conn;
	mrc_demux_batch_close(b);
	conn = mrc_conn_lookup(b->mn, token);
	if (!conn)
		return NULL;
	spin_lock(&conn->lock);
	if (!conn->core) {
		spin_unlock(&conn->lock);
		mrc_conn_put(conn);
		return NULL;
	}
	conn->rx_batch = true;
	b->conn = conn;
	return conn;
}

/* A packet of the batch that is not DATA: alone, parsed from a copy. */
static int mrc_demux_batch_other(struct mrc_demux_batch *b, u32 off, u32 len)
{
	struct mrc_pkt pkt;
	int reason;
	u8 *buf;

	mrc_demux_batch_close(b);
	buf = kmalloc(len, GFP_ATOMIC | __GFP_NOWARN);
	if (!buf)
		return MRC_DROP_NO_BUFFER;
	reason = MRC_DROP_SHORT;
	if (!skb_copy_bits(b->skb, off, buf, len))
		reason = mrc_wire_parse(buf, len, &pkt);
	if (!reason)
		reason = mrc_demux_dispatch(b->mn, b->pl, b->skb, &pkt, b->ce);
	kfree(buf);
	return reason;
}

/* The packet of @len bytes at @off. Return: its drop reason. */
static int mrc_demux_batch_pkt(struct mrc_demux_batch *b, u32 off, u32 len)
{
	u8 buf[sizeof(struct mrc_hdr) + sizeof(struct mrc_data)];
	struct mrc_demux_hold hold = { .skb = b->skb, .batch = true };
	u32 need = min_t(u32, len, sizeof(buf));
	struct mrc_conn *conn;
	struct mrc_pkt pkt;
	const u8 *head;
	int reason;

	head = skb_header_pointer(b->skb, off, need, buf);
	if (!head || need < sizeof(struct mrc_hdr) ||
	    (head[offsetof(struct mrc_hdr, ver_type)] & 0xf) != MRC_PKT_DATA)
		return mrc_demux_batch_other(b, off, len);
	reason = mrc_wire_parse_head(head, need, len, &pkt);
	if (reason)
		return reason;
	hold.off = off + len - pkt.payload_len;
	pkt.buf = &hold;
	conn = mrc_demux_batch_conn(b, pkt.dst_token);
	if (!conn)	/* the RST, as for one datagram */
		return mrc_demux_dispatch(b->mn, b->pl, b->skb, &pkt, b->ce);
	return mrc_demux_conn_input(conn, &pkt, b->pl->id, b->skb, b->ce);
}

/*
 * mrc_demux_batch - the packets of UDP GSO @skb of plane @pl, in order;
 * consumes @skb. Softirq, RCU held, data at the UDP header, as
 * mrc_demux_input().
 */
void mrc_demux_batch(struct mrc_plane *pl, struct sk_buff *skb, bool ce)
{
	struct mrc_demux_batch b = {
		.mn = mrc_pernet(dev_net(pl->dev)),
		.pl = pl,
		.skb = skb,
		.ce = ce,
	};
	u32 seg = skb_shinfo(skb)->gso_size, off = sizeof(struct udphdr), len;
	u32 pkts = 0;

	/* a MSG_ZEROCOPY sender may reuse its pages once the skb is gone */
	if (skb_orphan_frags_rx(skb, GFP_ATOMIC)) {
		mrc_demux_count(b.mn, pl, MRC_DROP_NO_BUFFER, skb->len);
		kfree_skb(skb);
		return;
	}
	for (; off < skb->len; off += len, pkts++) {
		len = min(seg, skb->len - off);
		mrc_demux_count(b.mn, pl, mrc_demux_batch_pkt(&b, off, len),
				sizeof(struct udphdr) + len);
	}
	mrc_demux_batch_close(&b);
	mrc_plane_mib_add(pl, MRC_PLANE_MIB_RXBATCHES, 1);
	mrc_plane_mib_add(pl, MRC_PLANE_MIB_RXBATCHPKTS, pkts);
	consume_skb(skb);
}
