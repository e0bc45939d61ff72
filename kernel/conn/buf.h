/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Send-buffer handles (buf.c): the @ref of a struct mrc_core_buf, which
 * the core's segments hold with buf_get()/buf_put() (env.c) and udp.c
 * turns into skb fragments. A handle is one of:
 *
 * - a page of the socket's page-fragment send buffer (sock/io.c): the
 *   handle is the struct page itself, held with get_page();
 * - a user page pinned by a MSG_ZEROCOPY send (sock/zerocopy.c): a
 *   struct mrc_zc_page, tagged with bit 0 of the pointer (a struct page
 *   is never at an odd address). It holds the page and a reference on
 *   the send's struct ubuf_info, so the sender's completion notification
 *   (msg_zerocopy_callback()) waits until no segment refers to the page
 *   any more (the peer has acknowledged it, or the connection is gone)
 *   and, through skb_zcopy_set() on every skb sent from it, until no
 *   packet does either.
 *
 * Lifetime: a struct mrc_zc_page lives while @refs is held (the send
 * that made it, each segment): the last mrc_buf_put() releases the page
 * and the ubuf_info reference. Any context (segments are freed under the
 * connection's lock with BHs off, and outside it when the core is
 * destroyed).
 */
#ifndef __MRC_BUF_H
#define __MRC_BUF_H

#include <linux/refcount.h>
#include <linux/types.h>

struct page;
struct ubuf_info;

struct mrc_zc_page {
	refcount_t		refs;
	struct page		*page;
	struct ubuf_info	*uarg;
};

#define MRC_BUF_ZC	1UL

static inline bool mrc_buf_is_zc(const void *ref)
{
	return (unsigned long)ref & MRC_BUF_ZC;
}

static inline struct mrc_zc_page *mrc_buf_zc(const void *ref)
{
	return (struct mrc_zc_page *)((unsigned long)ref & ~MRC_BUF_ZC);
}

static inline void *mrc_buf_zc_ref(struct mrc_zc_page *zc)
{
	return (void *)((unsigned long)zc | MRC_BUF_ZC);
}

/* The page @ref's bytes lie in; NULL for no handle. */
static inline struct page *mrc_buf_page(const void *ref)
{
	return mrc_buf_is_zc(ref) ? mrc_buf_zc(ref)->page : (struct page *)ref;
}

/* The MSG_ZEROCOPY send @ref belongs to, or NULL. */
static inline struct ubuf_info *mrc_buf_uarg(const void *ref)
{
	return mrc_buf_is_zc(ref) ? mrc_buf_zc(ref)->uarg : NULL;
}

struct mrc_zc_page *mrc_buf_zc_new(struct page *page, struct ubuf_info *uarg,
				   gfp_t gfp);
void mrc_buf_get(void *ref);
void mrc_buf_put(void *ref);

#endif /* __MRC_BUF_H */
