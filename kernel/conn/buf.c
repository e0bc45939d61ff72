// SPDX-License-Identifier: GPL-2.0
/*
 * Send-buffer handles: references on send-buffer pages and on the user
 * pages of MSG_ZEROCOPY sends (rules in buf.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "conn/buf.h"

/*
 * mrc_buf_zc_new - a handle for user page @page (the caller's page
 * reference becomes the handle's) of MSG_ZEROCOPY send @uarg (a
 * reference of its own), with one reference for the caller.
 */
struct mrc_zc_page *mrc_buf_zc_new(struct page *page, struct ubuf_info *uarg,
				   gfp_t gfp)
{
	struct mrc_zc_page *zc = kmalloc(sizeof(*zc), gfp);

	if (!zc)
		return NULL;
	refcount_set(&zc->refs, 1);
	zc->page = page;
	zc->uarg = uarg;
	net_zcopy_get(uarg);
	return zc;
}

void mrc_buf_get(void *ref)
{
	if (mrc_buf_is_zc(ref))
		refcount_inc(&mrc_buf_zc(ref)->refs);
	else
		get_page(ref);
}

void mrc_buf_put(void *ref)
{
	struct mrc_zc_page *zc;

	if (!mrc_buf_is_zc(ref)) {
		put_page(ref);
		return;
	}
	zc = mrc_buf_zc(ref);
	if (!refcount_dec_and_test(&zc->refs))
		return;
	put_page(zc->page);
	/* The last one queues the sender's completion notification. */
	net_zcopy_put(zc->uarg);
	kfree(zc);
}
