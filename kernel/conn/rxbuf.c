// SPDX-License-Identifier: GPL-2.0
/*
 * Receive-buffer handles: see rxbuf.h for what they are and how long
 * they live.
 */
#include <linux/overflow.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "conn/rxbuf.h"

/*
 * The page fragments bytes [@off, @off + @len) of @skb lie in: how many
 * (return), the first (*@first) and where its bytes start in @skb
 * (*@pos); 0 if some of the bytes lie in the head or past the fragments
 * (a frag_list).
 */
static u32 mrc_rx_frags_of(const struct sk_buff *skb, u32 off, u32 len,
			   u32 *first, u32 *pos)
{
	const struct skb_shared_info *si = skb_shinfo(skb);
	u32 end = off + len, at = skb_headlen(skb), n = 0, i;

	if (off < at || !len)
		return 0;
	for (i = 0; i < si->nr_frags && at < end; i++) {
		u32 size = skb_frag_size(&si->frags[i]);

		if (at + size > off && !n++) {
			*first = i;
			*pos = at;
		}
		at += size;
	}
	return at >= end ? n : 0;
}

/*
 * Add bytes [@off, @off + @len) of @skb, which lie in its page fragments,
 * to the fragments of @to, each with a page reference of its own; a
 * fragment that continues @to's last one in the same page extends it.
 * False, with @to unchanged, if they do not fit.
 */
static bool mrc_rx_append_frags(struct sk_buff *to, const struct sk_buff *skb,
				u32 off, u32 len)
{
	const skb_frag_t *frags = skb_shinfo(skb)->frags;
	u32 first = 0, pos = 0, end = off + len, n, i, from, upto, nr;
	struct page *page;

	n = mrc_rx_frags_of(skb, off, len, &first, &pos);
	if (!n)
		return false;
	nr = skb_shinfo(to)->nr_frags;
	if (skb_can_coalesce(to, nr, skb_frag_page(&frags[first]),
			     skb_frag_off(&frags[first]) + off - pos))
		n--;
	if (nr + n > MAX_SKB_FRAGS)
		return false;
	for (i = first; pos < end; pos += skb_frag_size(&frags[i]), i++) {
		from = max(off, pos);
		upto = min(end, pos + skb_frag_size(&frags[i]));
		page = skb_frag_page(&frags[i]);
		nr = skb_shinfo(to)->nr_frags;
		if (skb_can_coalesce(to, nr, page,
				     skb_frag_off(&frags[i]) + from - pos)) {
			skb_frag_size_add(&skb_shinfo(to)->frags[nr - 1],
					  upto - from);
			continue;
		}
		get_page(page);
		skb_fill_page_desc(to, nr, page,
				   skb_frag_off(&frags[i]) + from - pos,
				   upto - from);
	}
	to->len += len;
	to->data_len += len;
	to->truesize += len;
	return true;
}

/*
 * A new skb holding bytes [@off, @off + @len) of @skb: what lies in
 * @skb's page fragments referenced, as skb_segment() does, what lies in
 * its head copied; all of it copied if it reaches into a frag_list or
 * needs more fragments than an skb has. NULL without memory.
 */
static struct sk_buff *mrc_rx_skb_of(const struct sk_buff *skb, u32 off,
				     u32 len)
{
	u32 head = off < skb_headlen(skb) ?
		   min(off + len, skb_headlen(skb)) - off : 0;
	struct sk_buff *nskb;

	nskb = alloc_skb(head, GFP_ATOMIC | __GFP_NOWARN);
	if (!nskb)
		return NULL;
	if (head)
		skb_put_data(nskb, skb->data + off, head);
	if (len == head ||
	    mrc_rx_append_frags(nskb, skb, off + head, len - head))
		return nskb;
	kfree_skb(nskb);
	nskb = alloc_skb(len, GFP_ATOMIC | __GFP_NOWARN);
	if (nskb && skb_copy_bits(skb, off, skb_put(nskb, len), len)) {
		kfree_skb(nskb);
		nskb = NULL;
	}
	return nskb;
}

/*
 * mrc_rx_take_batch - the handle of the packet whose payload is bytes
 * [@off, @off + @len) of @skb, one of a GSO batch's skbs holding @pkts of
 * its packets, kept by the core: a slice of @skb's train (*@trainp, made
 * here by the first packet kept), or an skb of its own where the payload
 * is not all in page fragments. The pages of a MSG_ZEROCOPY send are
 * never shared: the batch made them the kernel's first
 * (skb_orphan_frags_rx()). NULL without memory.
 */
void *mrc_rx_take_batch(struct mrc_rx_train **trainp, struct sk_buff *skb,
			u32 pkts, u32 off, u32 len)
{
	struct mrc_rx_train *train = *trainp;
	u32 first, pos;

	if (!mrc_rx_frags_of(skb, off, len, &first, &pos))
		return mrc_rx_skb_of(skb, off, len);
	if (!train) {
		train = kmalloc(struct_size(train, slices, pkts),
				GFP_ATOMIC | __GFP_NOWARN);
		if (!train)
			return NULL;
		refcount_set(&train->refs, 1);	/* the batch's */
		train->skb = skb_get(skb);
		train->used = 0;
		train->cap = pkts;
		*trainp = train;
	}
	/* a packet is kept once: never more slices than packets */
	if (WARN_ON_ONCE(train->used == train->cap))
		return NULL;
	train->slices[train->used].train = train;
	train->slices[train->used].off = off;
	refcount_inc(&train->refs);
	return (void *)((unsigned long)&train->slices[train->used++] |
			MRC_RX_SLICE);
}

/* Drop a reference of @train (NULL: none); the last frees it. */
void mrc_rx_train_put(struct mrc_rx_train *train)
{
	if (!train || !refcount_dec_and_test(&train->refs))
		return;
	consume_skb(train->skb);
	kfree(train);
}

/* Release handle @ref (NULL: none): its packet is delivered or dropped. */
void mrc_rx_free(void *ref)
{
	if (mrc_rx_is_slice(ref))
		mrc_rx_train_put(mrc_rx_slice(ref)->train);
	else
		kfree_skb(ref);
}

/*
 * An skb of the @len payload bytes of slice @ref, which stays the
 * caller's to free. NULL without memory.
 */
struct sk_buff *mrc_rx_slice_skb(const void *ref, u32 len)
{
	const struct mrc_rx_slice *s = mrc_rx_slice(ref);

	return mrc_rx_skb_of(s->train->skb, s->off, len);
}

/*
 * Add the @len payload bytes of slice @ref to @to's page fragments (its
 * truesize grows by @len); false, with @to unchanged, if they do not
 * fit. @ref stays the caller's to free.
 */
bool mrc_rx_append(struct sk_buff *to, const void *ref, u32 len)
{
	const struct mrc_rx_slice *s = mrc_rx_slice(ref);

	return mrc_rx_append_frags(to, s->train->skb, s->off, len);
}
