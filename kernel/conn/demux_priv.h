/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the receive demux: what demux.c (one datagram) and
 * demux_batch.c (a UDP GSO skb of many) share.
 */
#ifndef __MRC_DEMUX_PRIV_H
#define __MRC_DEMUX_PRIV_H

#include <linux/skbuff.h>
#include <linux/types.h>

struct mrc_conn;
struct mrc_net;
struct mrc_pkt;
struct mrc_plane;
struct mrc_rx_train;
struct sk_buff;

/*
 * Where a datagram held in a socket's backlog came from (skb->cb; the
 * UDP layer is done with it once encap_rcv has the skb).
 */
struct mrc_demux_cb {
	u32	plane;
};

#define MRC_DEMUX_CB(skb) ((struct mrc_demux_cb *)&((skb)->cb[0]))

/*
 * What a DATA packet's pkt->buf points to while the core looks at it:
 * where its payload is, for mrc_demux_take(). Either the packet's own
 * skb (@train NULL), which the core takes whole (@skb is then NULL, and
 * the demux no longer frees it), or an skb of a GSO batch (the batch's
 * own or one on its frag_list), which stays the batch's: the core gets a
 * slice of the @off.. bytes the packet's payload spans in it, from the
 * train (*@train, rxbuf.h) of that skb's @pkts packets.
 */
struct mrc_demux_hold {
	struct sk_buff		*skb;
	u32			off;
	u32			pkts;
	struct mrc_rx_train	**train;
};

/*
 * A run of packets for one connection in one lock round and one core
 * input batch (mrc_core_input_begin()): a GSO skb's (demux_batch.c), or
 * a socket backlog's (demux_defer.c). @conn: locked, NULL before the
 * first packet and once closed.
 */
struct mrc_demux_run {
	struct mrc_net		*mn;
	struct mrc_conn		*conn;
};

struct mrc_conn *mrc_demux_run_conn(struct mrc_demux_run *run, u32 token);
void mrc_demux_run_close(struct mrc_demux_run *run);
bool mrc_demux_run_input(struct mrc_demux_run *run, struct mrc_plane *pl,
			 struct sk_buff *skb);

int mrc_demux_conn_input(struct mrc_conn *conn, const struct mrc_pkt *pkt,
			 u32 plane, const struct sk_buff *skb, bool ce);
int mrc_demux_dispatch(struct mrc_net *mn, struct mrc_plane *pl,
		       const struct sk_buff *skb, const struct mrc_pkt *pkt,
		       bool ce);
void mrc_demux_count(struct mrc_net *mn, struct mrc_plane *pl, int reason,
		     u32 bytes);

void mrc_demux_datagram(struct mrc_plane *pl, struct sk_buff *skb);
void mrc_demux_batch(struct mrc_plane *pl, struct sk_buff *skb, bool ce);
bool mrc_demux_defer(struct mrc_plane *pl, struct sk_buff *skb);

#endif /* __MRC_DEMUX_PRIV_H */
