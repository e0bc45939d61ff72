// SPDX-License-Identifier: GPL-2.0
/*
 * Send side of the protocol core: the segment queue (a ring of segment
 * pointers indexed by PSN, grown on demand), copying application data in,
 * the transmit scheduler (congestion and peer windows), retransmission of
 * lost segments, the retransmission timer with exponential backoff, the
 * zero-window persist probe and the FIN.
 */
#include "core_private.h"

/* Smallest power of two >= @n (n <= 2^31), without recursion. */
static u32 mrc_pow2(u32 n)
{
	u32 p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* The ring starts small; sq_cap is what sndbuf may need (see mrc_core). */
/* lost_map's bytes: a bit for each of sq_cap PSNs (at least 64). */
static size_t mrc_lost_map_bytes(const struct mrc_core *core)
{
	return core->sq_cap / 64 * sizeof(*core->lost_map);
}

/*
 * The send side's allocations wait for the first segment (mrc_snd_start()):
 * a connection that never sends holds no ring, lost map or EV counters.
 */
int mrc_snd_init(struct mrc_core *core)
{
	u32 cap = core->sndbuf / core->mss * 2 + 16;

	core->sq_cap = mrc_clamp(mrc_pow2(cap), MRC_CORE_MIN_RING,
				 MRC_CORE_MAX_SEGS);
	return 0;
}

static void mrc_snd_stop(struct mrc_core *core)
{
	mrc_free(core, core->lost_map);
	core->lost_map = NULL;
	mrc_free(core, core->ev_stats);
	core->ev_stats = NULL;
	mrc_free(core, core->sq);
	core->sq = NULL;
	core->sq_mask = 0;
}

/*
 * The first segment is about to be queued: a ring of @size slots (a power
 * of 2, at least MRC_CORE_MIN_RING), the lost map and the EV counters,
 * and the receive ring if there is none yet (mrc_rcv_ring_make()).
 * Return: 0, or -ENOMEM with nothing of the send side allocated.
 */
static int mrc_snd_start(struct mrc_core *core, u32 size)
{
	size_t stats = (size_t)core->nevs * sizeof(*core->ev_stats);

	if (mrc_ev_unpark(core) || mrc_rcv_ring_make(core))
		return -ENOMEM;
	core->lost_map = mrc_alloc(core, mrc_lost_map_bytes(core));
	core->ev_stats = mrc_alloc(core, stats);
	core->sq = mrc_alloc(core, size * sizeof(*core->sq));
	if (!core->lost_map || !core->ev_stats || !core->sq) {
		mrc_snd_stop(core);
		return -ENOMEM;
	}
	memset(core->lost_map, 0, mrc_lost_map_bytes(core));
	memset(core->ev_stats, 0, stats);
	memset(core->sq, 0, size * sizeof(*core->sq));
	core->sq_mask = size - 1;
	return 0;
}

void mrc_snd_destroy(struct mrc_core *core)
{
	u32 i;

	if (core->sq)
		for (i = 0; i <= core->sq_mask; i++)
			mrc_seg_free(core, core->sq[i]);
	mrc_snd_stop(core);
}

struct mrc_seg *mrc_snd_seg(const struct mrc_core *core, u32 psn)
{
	return core->sq ? core->sq[psn & core->sq_mask] : NULL;
}

static void mrc_list_add(struct mrc_seg_list *l, struct mrc_seg *seg)
{
	seg->next = NULL;
	seg->prev = l->tail;
	if (l->tail)
		l->tail->next = seg;
	else
		l->head = seg;
	l->tail = seg;
	l->bytes += seg->len;
	l->count++;
}

/* lost_map's bit for @psn: live PSNs span less than sq_cap, a power of 2. */
static u32 mrc_lost_bit(const struct mrc_core *core, u32 psn)
{
	return psn & (core->sq_cap - 1);
}

/*
 * The lost segment with the highest PSN below @psn (back to snd_una), or
 * NULL: lost_map read backwards 64 PSNs a word, so at most
 * MRC_CORE_MAX_SEGS / 64 words, where walking the lost list could take a
 * step per lost segment for each one marked lost (quadratic when an RTO or
 * RACK marks old segments while a large window waits for retransmission).
 */
static struct mrc_seg *mrc_lost_before(const struct mrc_core *core, u32 psn)
{
	u32 left = (u32)mrc_diff(core, core->snd_una, psn), idx, n;
	u32 mask = mrc_psn_mask(core->psn24);
	struct mrc_seg *seg;
	u64 w;

	while (left) {
		/* bits of the candidates psn - n .. psn - 1, in one word */
		idx = mrc_lost_bit(core, psn - 1);
		n = mrc_min(left, (idx & 63) + 1);
		w = core->lost_map[idx / 64] >> ((idx & 63) + 1 - n);
		if (n < 64)
			w &= (1ull << n) - 1;
		if (w) {
			seg = mrc_snd_seg(core,
					  (psn - n + fls64(w) - 1) & mask);
			if (WARN_ON_ONCE(!seg || seg->state != MRC_SEG_LOST))
				return NULL;
			return seg;
		}
		psn = (psn - n) & mask;
		left -= n;
	}
	return NULL;
}

/* Lost segments are kept in PSN order: the oldest is resent first. */
static void mrc_lost_add(struct mrc_core *core, struct mrc_seg *seg)
{
	struct mrc_seg_list *l = &core->lost_list;
	struct mrc_seg *at = mrc_lost_before(core, seg->psn);
	u32 bit = mrc_lost_bit(core, seg->psn);

	if (!at) {
		seg->prev = NULL;
		seg->next = l->head;
		if (l->head)
			l->head->prev = seg;
		else
			l->tail = seg;
		l->head = seg;
	} else {
		seg->prev = at;
		seg->next = at->next;
		if (at->next)
			at->next->prev = seg;
		else
			l->tail = seg;
		at->next = seg;
	}
	l->bytes += seg->len;
	l->count++;
	core->lost_map[bit / 64] |= 1ull << (bit & 63);
}

static void mrc_lost_del(struct mrc_core *core, struct mrc_seg *seg)
{
	u32 bit = mrc_lost_bit(core, seg->psn);

	mrc_list_del(&core->lost_list, seg);
	core->lost_map[bit / 64] &= ~(1ull << (bit & 63));
}

void mrc_list_del(struct mrc_seg_list *l, struct mrc_seg *seg)
{
	if (seg->prev)
		seg->prev->next = seg->next;
	else
		l->head = seg->next;
	if (seg->next)
		seg->next->prev = seg->prev;
	else
		l->tail = seg->prev;
	seg->next = NULL;
	seg->prev = NULL;
	l->bytes -= seg->len;
	l->count--;
}

/* Take @seg off tx_list, keeping RACK's resume point on the list. */
void mrc_snd_tx_del(struct mrc_core *core, struct mrc_seg *seg)
{
	if (core->rack_resume == seg)
		core->rack_resume = seg->next;
	mrc_path_unsent(core, seg);
	mrc_list_del(&core->tx_list, seg);
}

/* PSNs from snd_una to snd_end: the live span of the ring. */
static u32 mrc_snd_used(const struct mrc_core *core)
{
	return (u32)mrc_diff(core, core->snd_una, core->snd_end);
}

/* Segments the ring can still take, growing to its cap. */
static u32 mrc_snd_slots(const struct mrc_core *core)
{
	return core->sq_cap - mrc_snd_used(core);
}

/* The last queued, never sent stream segment, if it has room. */
static struct mrc_seg *mrc_snd_tail_room(const struct mrc_core *core)
{
	struct mrc_seg *seg;

	if (core->sock_type != MRC_SYN_STREAM || core->snd_nxt == core->snd_end)
		return NULL;
	seg = mrc_snd_seg(core, mrc_psn_add(core, core->snd_end,
					    mrc_psn_mask(core->psn24)));
	if (!seg || seg->state != MRC_SEG_QUEUED || seg->len >= core->mss)
		return NULL;
	return seg;
}

u32 mrc_snd_space(const struct mrc_core *core)
{
	struct mrc_seg *tail = mrc_snd_tail_room(core);
	u32 space, room;

	if (!mrc_core_can_send_data(core) || core->closing)
		return 0;
	space = core->queued_bytes < core->sndbuf ?
		core->sndbuf - core->queued_bytes : 0;
	room = mrc_snd_slots(core) * core->mss;
	if (tail)
		room += core->mss - tail->len;
	return mrc_min(space, room);
}

/*
 * A writer that cannot go on sleeps until @need bytes fit. With several
 * waiting (a sender and a poller), the smallest need wins: waking the
 * others early only makes them check again.
 */
static void mrc_snd_want(struct mrc_core *core, u32 need)
{
	need = mrc_max(need, 1);
	if (!core->want_writable || need < core->want_space)
		core->want_space = need;
	core->want_writable = true;
}

u32 mrc_core_send_space(struct mrc_core *core, u32 need)
{
	u32 space = core->alloc_retry ? 0 : mrc_snd_space(core);

	if (!need)
		return space;	/* a look: nobody waits on it */
	/* no more than an empty ring holds, or the writer never wakes */
	need = mrc_clamp(need, 1, mrc_min(core->sndbuf,
					  core->sq_cap * core->mss));
	if (space >= need)
		return space;
	mrc_snd_want(core, need);
	return 0;
}

u32 mrc_core_send_held(const struct mrc_core *core)
{
	return core->queued_bytes;
}

void mrc_core_send_queued(const struct mrc_core *core, u32 *queued,
			  u32 *unsent)
{
	const struct mrc_seg *seg;
	u32 psn;

	*queued = core->queued_bytes;
	*unsent = 0;
	for (psn = core->snd_nxt; psn != core->snd_end; psn++) {
		seg = core->sq[psn & core->sq_mask];
		if (seg)
			*unsent += seg->len;
	}
}

/*
 * An allocation for queueing failed. Back-pressure: no send space until
 * the retry timer, then the writer hears MRC_NOTE_WRITABLE.
 */
static void mrc_snd_alloc_failed(struct mrc_core *core)
{
	if (!core->alloc_retry) {
		core->alloc_retry = true;
		core->alloc_retry_us = mrc_now(core) + MRC_CORE_ALLOC_RETRY_US;
	}
	core->want_writable = true;
}

/*
 * Make room in the ring for @n more segments after snd_end (the caller
 * checked mrc_snd_slots()), doubling it as often as needed. Every live
 * PSN lies in snd_una + [0, old size): each old slot is moved to its
 * PSN's slot in the new ring, where it has no rival. Call before placing
 * segments past snd_end.
 * Return: 0, or -ENOMEM (no room now: back-pressure as for a segment).
 */
static int mrc_snd_reserve(struct mrc_core *core, u32 n)
{
	u32 need = mrc_snd_used(core) + n, size = core->sq_mask + 1;
	struct mrc_seg **sq;
	u32 i, psn;

	if (core->sq && need <= size)
		return 0;
	if (WARN_ON_ONCE(need > core->sq_cap))
		return -ENOSPC;
	if (!core->sq) {
		size = MRC_CORE_MIN_RING;
		while (size < need)
			size <<= 1;
		if (!mrc_snd_start(core, size))
			return 0;
		mrc_snd_alloc_failed(core);
		return -ENOMEM;
	}
	while (size < need)
		size <<= 1;
	sq = mrc_alloc(core, size * sizeof(*sq));
	if (!sq) {
		mrc_snd_alloc_failed(core);
		return -ENOMEM;
	}
	memset(sq, 0, size * sizeof(*sq));
	for (i = 0; i <= core->sq_mask; i++) {
		psn = mrc_psn_add(core, core->snd_una, i);
		sq[psn & (size - 1)] = core->sq[psn & core->sq_mask];
	}
	mrc_free(core, core->sq);
	core->sq = sq;
	core->sq_mask = size - 1;
	return 0;
}

/*
 * Where queued bytes come from: copied in by @fill (mrc_core_send()), or
 * left where they are in @buf (mrc_core_send_buf()).
 */
struct mrc_snd_src {
	int			(*fill)(void *arg, void *dst, u32 off, u32 len);
	void			*arg;
	const struct mrc_core_buf *buf;
};

/*
 * A segment for bytes of @src from @off on: with room for @cap bytes
 * after the struct when they are copied, pointing into the buffer (and
 * holding it) when not.
 */
static struct mrc_seg *mrc_seg_alloc(struct mrc_core *core,
				     const struct mrc_snd_src *src, u32 off,
				     u32 cap)
{
	u32 size = sizeof(struct mrc_seg) + (src->buf ? 0 : cap);
	struct mrc_seg *seg = mrc_alloc(core, size);

	if (!seg) {
		mrc_snd_alloc_failed(core);
		return NULL;
	}
	memset(seg, 0, sizeof(*seg));
	seg->state = MRC_SEG_QUEUED;
	seg->cap = cap;
	core->seg_mem += size;
	if (src->buf) {
		seg->data = src->buf->data + off;
		seg->ref = src->buf->ref;
		core->env.ops->buf_get(core->env.ctx, seg->ref);
	} else {
		seg->data = (u8 *)(seg + 1);
	}
	return seg;
}

void mrc_seg_free(struct mrc_core *core, struct mrc_seg *seg)
{
	if (!seg)
		return;
	core->seg_mem -= sizeof(*seg) + (seg->ref ? 0 : seg->cap);
	if (seg->ref)
		core->env.ops->buf_put(core->env.ctx, seg->ref);
	mrc_free(core, seg);
}

/*
 * May @seg, a stream segment not yet sent, take @src's bytes from @off
 * on? A copy goes into its own room; a reference only continues it in
 * the same buffer.
 */
static bool mrc_seg_continues(const struct mrc_seg *seg,
			      const struct mrc_snd_src *src, u32 off)
{
	if (!src->buf)
		return !seg->ref;
	return seg->ref == src->buf->ref &&
	       seg->data + seg->len == src->buf->data + off;
}

/* Put @len bytes of @src from @off on at the end of @seg. */
static int mrc_seg_fill(struct mrc_seg *seg, const struct mrc_snd_src *src,
			u32 off, u32 len)
{
	if (src->buf)
		return 0;	/* already there: mrc_seg_continues() */
	return src->fill(src->arg, seg->data + seg->len, off, len);
}

static int mrc_snd_stream(struct mrc_core *core, u32 len,
			  const struct mrc_snd_src *src)
{
	u32 done = 0, n;
	struct mrc_seg *seg;
	int err;

	len = mrc_min(len, mrc_snd_space(core));
	seg = mrc_snd_tail_room(core);
	if (seg && !mrc_seg_continues(seg, src, 0))
		seg = NULL;
	while (done < len) {
		if (!seg) {
			if (!mrc_snd_slots(core) || mrc_snd_reserve(core, 1))
				break;
			seg = mrc_seg_alloc(core, src, done, core->mss);
			if (!seg)
				break;
			seg->psn = core->snd_end;
			core->sq[seg->psn & core->sq_mask] = seg;
			core->snd_end = mrc_psn_add(core, core->snd_end, 1);
		}
		n = mrc_min(len - done, core->mss - seg->len);
		err = mrc_seg_fill(seg, src, done, n);
		if (err < 0) {
			if (!seg->len) {
				core->snd_end = seg->psn;
				core->sq[seg->psn & core->sq_mask] = NULL;
				mrc_seg_free(core, seg);
			}
			return done ? (int)done : err;
		}
		seg->len += n;
		core->queued_bytes += n;
		done += n;
		seg = NULL;
	}
	return (int)done;
}

/* Free the segments put in the ring from @psn on but not yet published. */
static void mrc_snd_unqueue(struct mrc_core *core, u32 psn, u32 n)
{
	u32 i, slot;

	for (i = 0; i < n; i++) {
		slot = mrc_psn_add(core, psn, i) & core->sq_mask;
		mrc_seg_free(core, core->sq[slot]);
		core->sq[slot] = NULL;
	}
}

static int mrc_snd_msg(struct mrc_core *core, u32 len, u32 flags,
		       const struct mrc_snd_src *src)
{
	u32 nseg, i, off, n, psn = core->snd_end;
	struct mrc_seg *seg;
	int err;

	if (!(flags & MRC_F_EOM) || !len)
		return -EINVAL;
	nseg = (len + core->mss - 1) / core->mss;
	/* never fits: the buffer, or the ring it may grow to, is smaller */
	if (len > core->sndbuf || nseg > core->sq_cap)
		return -EMSGSIZE;
	if (core->queued_bytes + len > core->sndbuf ||
	    mrc_snd_slots(core) < nseg || mrc_snd_reserve(core, nseg))
		return 0;
	for (i = 0, off = 0; i < nseg; i++, off += n) {
		n = mrc_min(len - off, core->mss);
		seg = mrc_seg_alloc(core, src, off, n);
		if (!seg) {
			mrc_snd_unqueue(core, psn, i);
			return 0;
		}
		seg->psn = mrc_psn_add(core, psn, i);
		seg->flags = (i == 0 ? MRC_F_SOM : 0) |
			     (i == nseg - 1 ? MRC_F_EOM : 0);
		core->sq[seg->psn & core->sq_mask] = seg;
		err = mrc_seg_fill(seg, src, off, n);
		if (err < 0) {
			mrc_snd_unqueue(core, psn, i + 1);
			return err;
		}
		seg->len = n;
	}
	core->snd_end = mrc_psn_add(core, psn, nseg);
	core->queued_bytes += len;
	return (int)len;
}

/*
 * Something waits for the peer's ACK: the user timeout runs from now. Set
 * when data is queued, not only when it is sent, so a connection with no
 * usable plane still gives up after the user timeout.
 */
static void mrc_snd_mark_outstanding(struct mrc_core *core)
{
	if (core->outstanding)
		return;
	core->outstanding = true;
	core->last_progress_us = mrc_now(core);
}

static int mrc_snd_queue(struct mrc_core *core, u32 len, u32 flags,
			 const struct mrc_snd_src *src)
{
	int ret;

	if (core->closing || core->state == MRC_CORE_ABORTED ||
	    core->state == MRC_CORE_DONE)
		return -EPIPE;
	if (!mrc_core_can_send_data(core))
		return -ENOTCONN;
	if (core->sock_type == MRC_SYN_SEQPACKET)
		ret = mrc_snd_msg(core, len, flags, src);
	else
		ret = mrc_snd_stream(core, len, src);
	if (ret >= 0 && (u32)ret < len)
		mrc_snd_want(core, core->sock_type == MRC_SYN_SEQPACKET ?
				    len : 1);
	if (ret > 0) {
		mrc_snd_mark_outstanding(core);
		mrc_snd_push(core);
	}
	mrc_core_rearm(core);
	return ret;
}

int mrc_core_send(struct mrc_core *core, u32 len, u32 flags,
		  int (*fill)(void *arg, void *dst, u32 off, u32 len),
		  void *arg)
{
	struct mrc_snd_src src = { .fill = fill, .arg = arg };
	int n;

	mrc_clock_enter(core);
	n = mrc_snd_queue(core, len, flags, &src);
	mrc_clock_leave(core);
	return n;
}

int mrc_core_send_buf(struct mrc_core *core, const struct mrc_core_buf *buf,
		      u32 flags)
{
	struct mrc_snd_src src = { .buf = buf };
	int n;

	if (!core->env.ops->buf_get || !core->env.ops->buf_put || !buf->ref)
		return -EINVAL;
	mrc_clock_enter(core);
	n = mrc_snd_queue(core, buf->len, flags, &src);
	mrc_clock_leave(core);
	return n;
}

/*
 * Bytes the send side holds: the ring, the lost map and every live
 * segment (seg_mem: the struct, and the room after it of a segment that
 * copies).
 */
size_t mrc_snd_mem_bytes(const struct mrc_core *core)
{
	if (!core->sq)
		return core->seg_mem;
	return ((size_t)core->sq_mask + 1) * sizeof(*core->sq) +
	       mrc_lost_map_bytes(core) + core->seg_mem;
}

void mrc_snd_writable(struct mrc_core *core)
{
	u32 space;

	if (!core->want_writable || core->alloc_retry)
		return;
	space = mrc_snd_space(core);
	if (space < mrc_max(core->want_space, 1))
		return;
	core->want_writable = false;
	core->want_space = 0;
	mrc_core_notify(core, MRC_NOTE_WRITABLE, space);
}

/* What may be in flight: the planes' windows together, the peer's. */
static u32 mrc_snd_limit(const struct mrc_core *core)
{
	return mrc_min(mrc_path_cwnd(core), core->peer_rwnd);
}

/*
 * May @seg go out now (peer window, PSN window)? The congestion windows
 * are the planes' own: mrc_ev_pick() takes a plane with room for it.
 */
static bool mrc_snd_window_ok(const struct mrc_core *core,
			      const struct mrc_seg *seg)
{
	u32 inflight = core->tx_list.bytes;

	if ((u32)mrc_diff(core, core->snd_una, seg->psn) >= core->peer_psn_win)
		return false;
	/*
	 * The peer always takes the segment its cum_psn waits for, even with
	 * a window closed by data held past the gap (recv.c, mrc_rcv_fits()):
	 * resending it needs no window, only congestion room. Unless the peer
	 * refused it for lack of memory: then it waits for the RTO.
	 */
	if (seg->psn == core->snd_una && seg->state == MRC_SEG_LOST &&
	    !core->una_refused)
		return true;
	return inflight + seg->len <= core->peer_rwnd;
}

/*
 * Ask for a prompt SACK of @seg? When the window is full (its SACK opens
 * it), or when nothing follows it, unless one asked for already is still
 * to come: the messages of a run that trickles in faster than it is
 * acked each asked for one, and made as many SACKs as DATA packets (a
 * profile of 1400-byte SOCK_SEQPACKET messages: 35.6k SACKs for 35.9k
 * DATA, the sender's vCPU 16% in taking them). Those between are answered
 * by the peer's every-ack_every SACKs, its delayed one, or the prompt
 * SACK of the next that asks.
 */
static bool mrc_snd_is_last(const struct mrc_core *core,
			    const struct mrc_seg *seg)
{
	u32 next_new = core->snd_nxt;

	if (seg->state == MRC_SEG_QUEUED)
		next_new = mrc_psn_add(core, next_new, 1);
	if (core->tx_list.bytes + seg->len + core->mss > mrc_snd_limit(core))
		return true;
	if (core->lost_list.head && core->lost_list.head != seg)
		return false;
	if (core->lost_list.count > 1)
		return false;
	return next_new == core->snd_end &&
	       (!core->tx_list.head || !core->ack_now_out);
}

/*
 * The EV for @seg, on a plane with room for it in its window unless
 * @force. A retransmission avoids its last route; a first transmission
 * rides the current train (train_pkts in a row on one EV, which the
 * environment may send as one batch) while its EV stays good and its
 * plane has room.
 */
static int mrc_snd_pick_ev(struct mrc_core *core, const struct mrc_seg *seg,
			   bool retx, bool force)
{
	int idx;

	if (retx)
		return mrc_ev_pick(core, seg->ev_idx, seg->plane, seg->len,
				   force);
	if (core->train_left && mrc_ev_usable(core, core->train_ev) &&
	    mrc_path_room(core, core->evs[core->train_ev].plane, seg->len)) {
		core->train_left--;
		return (int)core->train_ev;
	}
	/*
	 * A new train is as long as its plane's window lets it be: a plane
	 * whose window is shorter than a train still carries its packets
	 * (and its window grows), where waiting for room for a whole train
	 * left it idle for as long as another plane had that room.
	 */
	idx = mrc_ev_pick(core, MRC_EV_NONE, MRC_WIRE_MAX_PLANES, seg->len,
			  force);
	if (idx >= 0) {
		core->train_ev = (u32)idx;
		core->train_left = mrc_min(core->train_pkts,
					   mrc_path_fit(core,
							core->evs[idx].plane)) - 1;
	}
	return idx;
}

/*
 * Transmit (or retransmit) @seg on a freshly picked EV; @force: even if
 * no plane has room for it (the RTO's resend).
 */
static int mrc_snd_xmit(struct mrc_core *core, struct mrc_seg *seg,
			bool force)
{
	bool retx = seg->tx_count > 0;
	struct mrc_pkt_data *d = &mrc_tx_pkt(core)->data;
	u64 now = mrc_now(core);
	struct mrc_ev *ev;
	bool last;
	int idx;

	idx = mrc_snd_pick_ev(core, seg, retx, force);
	if (idx < 0)
		return -ENOENT;
	ev = &core->evs[idx];
	last = mrc_snd_is_last(core, seg);
	if (seg->state == MRC_SEG_LOST)
		mrc_lost_del(core, seg);
	else
		core->snd_nxt = mrc_psn_add(core, core->snd_nxt, 1);
	seg->state = MRC_SEG_INFLIGHT;
	mrc_list_add(&core->tx_list, seg);
	/* A RACK scan that reached the end resumes at what comes next. */
	if (core->rack_scan_ok && !core->rack_resume)
		core->rack_resume = seg;
	seg->tx_seq = core->tx_seq++;
	seg->sent_us = now;
	seg->ev_idx = (u16)idx;
	seg->plane = ev->plane;
	mrc_path_sent(core, seg);
	if (seg->tx_count < 255)
		seg->tx_count++;
	core->last_tx_us = now;

	core->tail_ack_now = last;
	if (last)
		core->ack_now_out = true;
	mrc_pkt_init(core, MRC_PKT_DATA);
	mrc_tx_pkt(core)->flags |=
		seg->flags | (retx ? MRC_F_RETX : 0) |
		(last ? MRC_F_ACK_NOW : 0) |
		(core->state == MRC_CORE_SYN_SENT ? MRC_F_EARLY : 0);
	d->psn = seg->psn;
	d->tsval = (u32)now ? (u32)now : 1;
	d->plane = ev->plane;
	mrc_snd_pkt(core, ev->plane, ev->value, seg->data, seg->len,
		    seg->ref);
	core->ev_stats[seg->ev_idx].tx_pkts++;
	core->ev_stats[seg->ev_idx].tx_bytes += seg->len;
	if (retx) {
		core->ev_stats[seg->ev_idx].retx_pkts++;
		MRC_STAT_INC(core, retx_pkts);
		MRC_STAT_ADD(core, retx_bytes, seg->len);
	} else {
		MRC_STAT_INC(core, tx_data_pkts);
		MRC_STAT_ADD(core, tx_data_bytes, seg->len);
	}
	if (core->state == MRC_CORE_SYN_SENT)
		MRC_STAT_ADD(core, early_data_bytes, seg->len);
	mrc_core_trace(core, MRC_TRACE_TX, seg->psn, ev->plane, ev->value,
		       seg->len, 0, retx, false);
	mrc_snd_mark_outstanding(core);
	return 0;
}

/* May DATA go out now? Before the SYN_ACK only the first flight. */
static bool mrc_snd_active(const struct mrc_core *core)
{
	if (core->state == MRC_CORE_SYN_SENT)
		return core->early_on;
	return core->state == MRC_CORE_ESTABLISHED ||
	       core->state == MRC_CORE_CLOSE_WAIT ||
	       core->state == MRC_CORE_FIN_WAIT ||
	       core->state == MRC_CORE_LAST_ACK;
}

/*
 * Hold the first packet of a train back until the whole train fits a
 * plane's window and the peer's (a train under way is never held), as TCP
 * defers a TSO skb (tcp_tso_should_defer()): with a train's worth in
 * flight, its SACKs will open a window soon, and a full train is one
 * batch for the environment (a GSO skb) where a window opened a packet
 * or two at a time would send trains of a packet or two, each answered by
 * a SACK of its own. Never when no window can hold two trains, nor for
 * fewer queued packets than a train (nothing more would come), nor while
 * a plane is idle.
 */
static bool mrc_snd_defer(const struct mrc_core *core,
			  const struct mrc_seg *seg)
{
	u32 train = core->train_pkts * core->mss, p, mask;
	u32 inflight = core->tx_list.bytes;
	bool wide = false;

	if (core->train_pkts == 1 || core->train_left ||
	    seg->state != MRC_SEG_QUEUED || inflight < train ||
	    (u32)mrc_diff(core, core->snd_nxt, core->snd_end) <
	    core->train_pkts)
		return false;
	if (core->peer_rwnd >= 2 * train && inflight + train > core->peer_rwnd)
		return true;
	mask = mrc_path_good_mask(core);
	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++) {
		if (!(mask & (1u << p)))
			continue;
		/* An idle plane takes what it can now (mrc_snd_pick_ev()). */
		if (!core->paths[p].inflight || mrc_path_room(core, p, train))
			return false;
		wide |= mrc_path_wnd(core, p) >= 2 * train;
	}
	return wide;
}

/* The next segment to send: lost ones first, then new ones. */
static struct mrc_seg *mrc_snd_next(const struct mrc_core *core)
{
	if (core->lost_list.head)
		return core->lost_list.head;
	if (core->snd_nxt == core->snd_end)
		return NULL;
	return mrc_snd_seg(core, core->snd_nxt);
}

/* The burst is over: a train the environment holds goes out now. */
static void mrc_snd_flush(struct mrc_core *core)
{
	if (core->env.ops->flush)
		core->env.ops->flush(core->env.ctx);
}

/*
 * Send what the windows allow. Every DATA transmission happens here or
 * right before a call of it (the RTO), so its flush ends every burst.
 */
void mrc_snd_push(struct mrc_core *core)
{
	struct mrc_seg *seg;

	/* A train is one batch: it never spans two bursts. */
	core->train_left = 0;
	if (mrc_snd_active(core)) {
		while ((seg = mrc_snd_next(core)) != NULL) {
			if (!mrc_snd_window_ok(core, seg) ||
			    mrc_snd_defer(core, seg))
				break;
			if (mrc_snd_xmit(core, seg, false))
				break;
		}
	}
	mrc_snd_flush(core);
	if (mrc_snd_active(core))
		mrc_snd_maybe_fin(core);
}

/* Take @seg out of flight and queue it for retransmission. */
void mrc_snd_mark_lost(struct mrc_core *core, struct mrc_seg *seg, u32 why)
{
	struct mrc_ev *ev = &core->evs[seg->ev_idx];

	if (seg->state != MRC_SEG_INFLIGHT)
		return;
	mrc_snd_tx_del(core, seg);
	seg->state = MRC_SEG_LOST;
	mrc_lost_add(core, seg);
	mrc_core_trace(core, MRC_TRACE_LOSS, seg->psn, seg->plane, ev->value,
		       seg->len, 0, why, false);
	if (why == 0)
		MRC_STAT_INC(core, fast_retx);
	if (why == 0 || why == 1) {
		core->ev_stats[seg->ev_idx].losses++;
		mrc_ev_on_loss(core, seg->ev_idx, why == 1);
		mrc_path_on_loss(core, seg->plane, why == 1);
	}
}

/* @seg is acknowledged: forget it. */
void mrc_snd_ack_seg(struct mrc_core *core, struct mrc_seg *seg)
{
	struct mrc_ev *ev = &core->evs[seg->ev_idx];

	if (seg->state == MRC_SEG_INFLIGHT)
		mrc_snd_tx_del(core, seg);
	else if (seg->state == MRC_SEG_LOST)
		mrc_lost_del(core, seg);
	if (!core->rack_valid ||
	    (s32)(seg->tx_seq - core->rack_hi) > 0) {
		core->rack_hi = seg->tx_seq;
		core->rack_valid = true;
	}
	/*
	 * Which copy of a resent segment arrived is not known: crediting the
	 * latest would call lost what was sent before it on that EV, whose
	 * resends' first copies then do the same (a storm, fuzz_ack's
	 * regress-rack-scan corpus). Only a first transmission speaks for
	 * its EV.
	 */
	if (seg->tx_count == 1 &&
	    (!ev->acked_tx || (s32)(seg->tx_seq + 1 - ev->acked_tx) > 0))
		ev->acked_tx = seg->tx_seq + 1;
	core->ev_stats[seg->ev_idx].acked_pkts++;
	core->queued_bytes -= seg->len;
	MRC_STAT_ADD(core, acked_bytes, seg->len);
	core->sq[seg->psn & core->sq_mask] = NULL;
	mrc_seg_free(core, seg);
}

/*
 * An RST answered early DATA sent on EV @value after the SYN_ACK came
 * (it beat the SYN there): what the first flight sent on that EV and is
 * still in flight was refused, and goes out again now instead of waiting
 * for a later SACK's gap or the RTO. No loss is charged to the EV.
 */
void mrc_snd_early_refused(struct mrc_core *core, u32 value)
{
	struct mrc_seg *seg = core->tx_list.head, *next;
	bool any = false;

	while (seg) {
		next = seg->next;
		if (mrc_diff(core, seg->psn, core->early_end) > 0 &&
		    seg->tx_count == 1 && core->evs[seg->ev_idx].value == value) {
			mrc_snd_mark_lost(core, seg, 3);
			any = true;
		}
		seg = next;
	}
	if (any)
		mrc_snd_push(core);
}

/* Planes in @mask died: what is in flight there goes out elsewhere. */
void mrc_snd_plane_down(struct mrc_core *core, u32 mask)
{
	struct mrc_seg *seg = core->tx_list.head, *next;

	while (seg) {
		next = seg->next;
		if (mask & (1u << seg->plane))
			mrc_snd_mark_lost(core, seg, 3);
		seg = next;
	}
}

static u64 mrc_snd_rto(const struct mrc_core *core)
{
	u64 rto = (u64)core->rto_us << core->backoff;
	u64 cap = mrc_max(core->rto_max_us, core->rto_us);

	return mrc_min64(rto, cap);
}

/*
 * The tail probe (RACK-TLP, RFC 8985): when nothing has gone out for two
 * round trips and the newest segment in flight is past its own reorder
 * wait, it is resent on another route, once until snd_una moves, before
 * the RTO (a segment resent already is in loss recovery: the RTO's).
 * RACK needs a later transmission acked, and the last packet of a burst
 * has none; the RTO's floor (10 ms in the module) is many round trips.
 * The probe's SACK is that later transmission for every older segment
 * still missing (ack.c). A tail that asked for no prompt SACK
 * (mrc_snd_is_last()) may be answered only after the peer's ACK delay,
 * taken to be ours, as RFC 8985 adds it for a flight of one. When it is
 * due; 0: not now.
 */
static u64 mrc_snd_tlp_due(const struct mrc_core *core)
{
	const struct mrc_seg *tail = core->tx_list.tail;
	u64 wait = 2ull * core->srtt_us;

	if (!tail || tail->tx_count > 1 || core->tlp_sent ||
	    core->lost_list.head || !core->srtt_us || core->backoff)
		return 0;
	if (!core->tail_ack_now)
		wait += core->ack_delay_us;
	return mrc_max64(core->last_tx_us + wait,
			 tail->sent_us + mrc_ack_reorder_wait(core, tail));
}

/* When the retransmission (or persist, or FIN) timer is due; 0: never. */
u64 mrc_snd_deadline(const struct mrc_core *core)
{
	u64 rto, tlp;

	if (!mrc_snd_active(core))
		return 0;
	if (core->tx_list.head) {
		rto = core->tx_list.head->sent_us +
		      mrc_max64(mrc_snd_rto(core),
				mrc_ack_reorder_wait(core, core->tx_list.head));
		tlp = mrc_snd_tlp_due(core);
		if (tlp && tlp < rto)
			rto = tlp;
		if (core->rack_due_us && core->rack_due_us < rto)
			return core->rack_due_us;
		return rto;
	}
	if (core->fin_sent && !core->fin_acked)
		return core->last_tx_us + mrc_snd_rto(core);
	if (!core->lost_list.head && core->snd_nxt == core->snd_end)
		return 0;
	/*
	 * DATA waits with nothing in flight: a probe of the peer's window,
	 * unless the local queues hold it back (mrc_core_tx_ready() comes).
	 */
	if (mrc_path_all_busy(core))
		return 0;
	return core->last_tx_us + mrc_snd_rto(core);
}

static void mrc_snd_fin(struct mrc_core *core)
{
	int idx = mrc_ev_pick(core, MRC_EV_NONE, MRC_WIRE_MAX_PLANES, 0, true);
	struct mrc_ev *ev;

	core->last_tx_us = mrc_now(core);
	if (idx < 0)
		return;
	ev = &core->evs[idx];
	mrc_pkt_init(core, MRC_PKT_FIN);
	mrc_tx_pkt(core)->fin_end_psn = core->fin_psn;
	mrc_snd_pkt(core, ev->plane, ev->value, NULL, 0, NULL);
}

void mrc_snd_maybe_fin(struct mrc_core *core)
{
	if (!core->closing || core->fin_sent || core->snd_una != core->snd_end)
		return;
	if (!mrc_snd_active(core) || core->state == MRC_CORE_SYN_SENT)
		return;
	core->fin_sent = true;
	mrc_snd_mark_outstanding(core);
	mrc_snd_fin(core);
}

void mrc_snd_on_timer(struct mrc_core *core, u64 now)
{
	struct mrc_seg *seg;
	u64 due;

	if (core->rack_due_us && now >= core->rack_due_us) {
		mrc_ack_detect_losses(core);
		mrc_snd_push(core);
	}
	due = mrc_snd_deadline(core);
	if (!due || now < due)
		return;
	due = mrc_snd_tlp_due(core);
	if (due && now >= due) {
		/* Not a loss yet: neither the EV nor a window pays for it. */
		core->tlp_sent = true;
		MRC_STAT_INC(core, tail_probes);
		mrc_snd_mark_lost(core, core->tx_list.tail, 4);
		mrc_snd_push(core);
		return;
	}
	if (core->backoff < MRC_CORE_MAX_BACKOFF)
		core->backoff++;
	core->last_tx_us = now;
	seg = core->tx_list.head;
	if (seg) {
		MRC_STAT_INC(core, rto_count);
		mrc_snd_mark_lost(core, seg, 1);
	} else if (core->fin_sent && !core->fin_acked) {
		MRC_STAT_INC(core, rto_count);
		mrc_snd_fin(core);
		return;
	}
	/* Resend the oldest (or probe a closed window) whatever the window. */
	seg = mrc_snd_next(core);
	if (seg && (u32)mrc_diff(core, core->snd_una, seg->psn) <
		   core->peer_psn_win)
		mrc_snd_xmit(core, seg, true);
	mrc_snd_push(core);
}
