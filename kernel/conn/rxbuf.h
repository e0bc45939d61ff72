/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receive-buffer handles (rxbuf.c): what the core holds for a DATA
 * packet it keeps (env->rx_take()) until it delivers it (env->deliver())
 * or drops it (env->rx_free()). A handle is one of:
 *
 * - an skb of the payload alone: the packet's own datagram, pulled to
 *   its payload (demux.c), or one made for a batch packet whose payload
 *   is not all in page fragments (mrc_rx_take_batch());
 * - a packet of a UDP GSO batch (demux_batch.c): a struct mrc_rx_slice,
 *   tagged with bit 0 of the pointer (an skb is never at an odd
 *   address), naming where the payload starts in the batch's skb (the
 *   batch itself, or one of the skbs on its frag_list). The core knows
 *   the length. The slices of one such skb live in one struct
 *   mrc_rx_train, allocated with its first kept packet, so a
 *   kept packet costs no allocation of its own; its delivery adds the
 *   payload's page fragments to an skb that collects a batch's in-order
 *   bytes for the receive queue (sock/io.c), where consecutive payloads
 *   of one sender page become one fragment.
 *
 * Lifetime: a train holds its skb while @refs is held (an skb of a
 * frag_list outlives the batch that way, as its own reference is put
 * when the batch is freed): one for the batch while it runs
 * (mrc_rx_train_put() once past that skb's packets) and one for
 * each slice handed to the core (mrc_rx_free() when delivered or
 * dropped). The last one frees the skb and the train. Softirq, or
 * process context with BHs off (the core's calls under conn->lock);
 * mrc_rx_free() also from the core's destruction, outside the lock.
 */
#ifndef __MRC_RXBUF_H
#define __MRC_RXBUF_H

#include <linux/refcount.h>
#include <linux/types.h>

struct sk_buff;
struct mrc_rx_train;

struct mrc_rx_slice {
	struct mrc_rx_train	*train;
	u32			off;	/* the payload's first byte in skb */
};

struct mrc_rx_train {
	refcount_t		refs;
	struct sk_buff		*skb;	/* the slices' */
	u32			used;	/* slices handed out */
	u32			cap;	/* the batch's packets */
	struct mrc_rx_slice	slices[];
};

#define MRC_RX_SLICE	1UL

static inline bool mrc_rx_is_slice(const void *ref)
{
	return (unsigned long)ref & MRC_RX_SLICE;
}

static inline struct mrc_rx_slice *mrc_rx_slice(const void *ref)
{
	return (struct mrc_rx_slice *)((unsigned long)ref & ~MRC_RX_SLICE);
}

void *mrc_rx_take_batch(struct mrc_rx_train **trainp, struct sk_buff *skb,
			u32 pkts, u32 off, u32 len);
void mrc_rx_train_put(struct mrc_rx_train *train);
void mrc_rx_free(void *ref);

struct sk_buff *mrc_rx_slice_skb(const void *ref, u32 len);
bool mrc_rx_append(struct sk_buff *to, const void *ref, u32 len);

#endif /* __MRC_RXBUF_H */
