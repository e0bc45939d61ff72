// SPDX-License-Identifier: GPL-2.0
/*
 * Receive side of the protocol core: placing DATA in a PSN-indexed ring in
 * any order (the ring grows on demand up to the PSN window), duplicate
 * suppression, in-order delivery, SACK generation (immediate or delayed
 * and batched), NACKs (for refused and for trimmed DATA), the advertised
 * window and the peer's FIN.
 *
 * A SACK's trig_psn is the PSN of the DATA that triggered it, or
 * cum_psn - 1 when it answers no particular packet (delayed timer after
 * the echo was used, window update, plane announcement). Only the SACK
 * that acknowledges a FIN has trig_psn == cum_psn == end_psn
 * (mrc_wire.rst: "acknowledges it with a SACK whose cum_psn is end_psn").
 */
#include "core_private.h"

/* The slot of @psn in a ring of @mask + 1 slots cut in chunks. */
static struct mrc_rslot *mrc_rq_at(struct mrc_rslot *const *rq, u32 mask,
				   u32 psn)
{
	u32 i = psn & mask;

	return &rq[i / MRC_RQ_CHUNK_SLOTS][i % MRC_RQ_CHUNK_SLOTS];
}

/* The slot of @psn, which lies in rcv_dlv + [0, rq_mask]. */
static struct mrc_rslot *mrc_rcv_slot(const struct mrc_core *core, u32 psn)
{
	return mrc_rq_at(core->rq, core->rq_mask, psn);
}

static void mrc_rq_free(struct mrc_core *core, struct mrc_rslot **rq)
{
	u32 i;

	for (i = 0; i < MRC_RQ_CHUNKS; i++) {
		mrc_free(core, rq[i]);
		rq[i] = NULL;
	}
}

/* A zeroed ring of @size slots (a power of two, <= MRC_CORE_MAX_RCV_WIN). */
static int mrc_rq_alloc(struct mrc_core *core, struct mrc_rslot **rq,
			u32 size)
{
	u32 chunk = mrc_min(size, MRC_RQ_CHUNK_SLOTS), i;

	for (i = 0; i < MRC_RQ_CHUNKS; i++)
		rq[i] = NULL;
	for (i = 0; i < size / chunk; i++) {
		rq[i] = mrc_alloc(core, chunk * sizeof(**rq));
		if (!rq[i]) {
			mrc_rq_free(core, rq);
			return -ENOMEM;
		}
		memset(rq[i], 0, chunk * sizeof(**rq));
	}
	return 0;
}

/*
 * The PSN window, rq_cap, is what rcvbuf may need; the ring waits for the
 * first DATA, starts small and grows into it (see struct mrc_core).
 */
int mrc_rcv_init(struct mrc_core *core)
{
	u32 cap = MRC_CORE_MIN_RCV_WIN;

	while (cap < MRC_CORE_MAX_RCV_WIN && cap < core->rcvbuf / core->mss * 2)
		cap <<= 1;
	core->rq_cap = cap;
	return 0;
}

/* Does the ring have a slot for the PSN @off after rcv_dlv? */
static bool mrc_rcv_in_ring(const struct mrc_core *core, u32 off)
{
	return core->rq[0] && off <= core->rq_mask;
}

/*
 * Make the ring hold @need PSNs from rcv_dlv (need <= rq_cap): the first
 * DATA's ring of MRC_CORE_MIN_RING slots or more, or the ring doubled.
 * Every held PSN lies in rcv_dlv + [0, old size): each old slot is moved
 * to its PSN's slot in the new ring, where it has no rival.
 * Return: 0 or -ENOMEM (the ring is left as it was).
 */
static int mrc_rcv_grow(struct mrc_core *core, u32 need)
{
	struct mrc_rslot *rq[MRC_RQ_CHUNKS];
	u32 size = core->rq_mask + 1, i, psn;

	if (WARN_ON_ONCE(need > core->rq_cap))
		return -ENOSPC;
	if (!core->rq[0])
		size = MRC_CORE_MIN_RING;
	while (size < need)
		size <<= 1;
	if (mrc_rq_alloc(core, rq, size))
		return -ENOMEM;
	if (core->rq[0]) {
		for (i = 0; i <= core->rq_mask; i++) {
			psn = mrc_psn_add(core, core->rcv_dlv, i);
			*mrc_rq_at(rq, size - 1, psn) =
				*mrc_rcv_slot(core, psn);
		}
		mrc_rq_free(core, core->rq);
	}
	memcpy(core->rq, rq, sizeof(rq));
	core->rq_mask = size - 1;
	return 0;
}

/* Empty a slot, freeing the copy or the environment's packet it held. */
static void mrc_rslot_clear(struct mrc_core *core, struct mrc_rslot *s)
{
	if (s->state == MRC_RSLOT_REF)
		core->env.ops->rx_free(core->env.ctx, s->ptr);
	else
		mrc_free(core, s->ptr);
	memset(s, 0, sizeof(*s));
}

void mrc_rcv_destroy(struct mrc_core *core)
{
	u32 i;

	if (!core->rq[0])
		return;
	for (i = 0; i <= core->rq_mask; i++)
		mrc_rslot_clear(core, mrc_rq_at(core->rq, core->rq_mask, i));
	mrc_rq_free(core, core->rq);
}

/*
 * The receive ring of a connection about to send (mrc_snd_start()): a
 * sender whose send side takes what its memory cap allows must still be
 * able to hold its peer's answer, so it does not wait for that DATA.
 * Return: 0 or -ENOMEM.
 */
int mrc_rcv_ring_make(struct mrc_core *core)
{
	return core->rq[0] ? 0 : mrc_rcv_grow(core, 1);
}

/*
 * Bytes the receive side holds: the ring (whose slots are the held
 * segments) and the copied payloads (not the packets kept with rx_take()).
 */
size_t mrc_rcv_mem_bytes(const struct mrc_core *core)
{
	size_t ring = core->rq[0] ? (size_t)core->rq_mask + 1 : 0;

	return ring * sizeof(struct mrc_rslot) + core->held_bytes -
	       core->held_ref_bytes;
}

/*
 * Bytes we can still take beyond cum_psn. Holding nothing, with an
 * application that can take something, we always take the next in-order
 * segment (mrc_rcv_fits()), so say at least one MSS: a buffer smaller
 * than a segment (a tiny SO_RCVBUF, a jumbo MSS) would otherwise hold the
 * sender, which sends whole segments, to one persist probe per segment.
 * The application then holds at most one segment over its buffer.
 */
u32 mrc_rcv_rwnd(const struct mrc_core *core)
{
	u32 room = mrc_min(core->app_free, core->rcvbuf);

	if (!core->held_bytes && core->app_free)
		return mrc_max(room, core->mss);
	return room > core->held_bytes ? room - core->held_bytes : 0;
}

/* Packets held ahead of a gap. */
static u32 mrc_rcv_ooo(const struct mrc_core *core)
{
	return core->held_pkts - (u32)mrc_diff(core, core->rcv_dlv,
					       core->rcv_nxt);
}

/* Is PSN @psn (at or after rcv_nxt, inside the ring) held? */
static bool mrc_rcv_held(const struct mrc_core *core, u32 psn)
{
	s32 d = mrc_diff(core, core->rcv_dlv, psn);

	return d >= 0 && mrc_rcv_in_ring(core, (u32)d) &&
	       mrc_rcv_slot(core, psn)->state != MRC_RSLOT_EMPTY;
}

static u64 mrc_rcv_bitmap(const struct mrc_core *core, u32 base)
{
	u64 map = 0;
	u32 i, psn;

	for (i = 0; i < 64; i++) {
		psn = mrc_psn_add(core, base, i);
		if (mrc_diff(core, core->rcv_nxt, psn) < 0 ||
		    mrc_rcv_held(core, psn))
			map |= 1ull << i;
	}
	return map;
}

/* EV for a control packet on @plane: the echoed one if it came there. */
static u32 mrc_rcv_reply_ev(struct mrc_core *core, u32 plane, u32 rx_plane,
			    u32 rx_ev)
{
	int idx;

	if (plane == rx_plane && rx_ev)
		return rx_ev;
	idx = mrc_ev_pick_plane(core, plane);
	return idx < 0 ? mrc_ev_any_value(core) : core->evs[idx].value;
}

void mrc_rcv_send_sack(struct mrc_core *core, u32 plane, bool fin_ack)
{
	struct mrc_pkt_sack *s = &mrc_tx_pkt(core)->sack;
	u32 reply = mrc_core_plane_for_reply(core, plane);
	u32 trig, mask = mrc_psn_mask(core->psn24);
	bool fresh = core->unacked_pkts > 0;

	mrc_pkt_init(core, MRC_PKT_SACK);
	if (fin_ack)
		trig = core->peer_fin_psn;
	else if (fresh)
		trig = core->last_psn;
	else
		trig = mrc_psn_add(core, core->rcv_nxt, mask);
	s->cum_psn = core->rcv_nxt;
	s->sack_base = trig & ~63u & mask;
	s->bitmap = mrc_rcv_bitmap(core, s->sack_base);
	s->trig_psn = trig;
	s->echo_ev = fresh ? core->last_ev : 0;
	s->ts_echo = fresh ? core->last_tsval : 0;
	s->rwnd = mrc_rcv_rwnd(core);
	s->rcv_bytes = core->rcv_in_order;
	s->ooo_count = (u16)mrc_min(mrc_rcv_ooo(core), 0xffff);
	s->ce_count = core->ce_pending;
	s->cc_flags = fresh && core->last_ce ? MRC_SACK_CE : 0;
	s->plane_up = (u16)(core->local_up & core->our_mask);
	core->last_adv_rwnd = s->rwnd;
	mrc_snd_pkt(core, reply,
		    mrc_rcv_reply_ev(core, reply, core->last_plane,
				     fresh ? core->last_ev : 0), NULL, 0, NULL);
	MRC_STAT_INC(core, sacks_tx);
	core->unacked_pkts = 0;
	core->ce_pending = 0;
	core->ack_due_us = 0;
	core->batch_sack = false;
}

static void mrc_rcv_send_nack(struct mrc_core *core,
			      const struct mrc_pkt *pkt, u32 plane, u8 reason)
{
	struct mrc_pkt_nack *n = &mrc_tx_pkt(core)->nack;
	u32 reply = mrc_core_plane_for_reply(core, plane);

	mrc_pkt_init(core, MRC_PKT_NACK);
	n->psn = pkt->data.psn;
	n->cum_psn = core->rcv_nxt;
	n->echo_ev = pkt->ev;
	n->reason = reason;
	mrc_snd_pkt(core, reply,
		    mrc_rcv_reply_ev(core, reply, plane, pkt->ev), NULL, 0,
		    NULL);
	MRC_STAT_INC(core, nacks_tx);
}

void mrc_rcv_deliver(struct mrc_core *core)
{
	static const u8 empty[1];	/* an empty payload's copy */
	const void *data;
	struct mrc_rslot *s;
	bool ref;
	u32 flags;

	while (core->rcv_dlv != core->rcv_nxt) {
		s = mrc_rcv_slot(core, core->rcv_dlv);
		ref = s->state == MRC_RSLOT_REF;
		flags = core->sock_type == MRC_SYN_SEQPACKET ?
			s->flags & (MRC_F_SOM | MRC_F_EOM) : 0;
		data = ref ? NULL : s->ptr ? s->ptr : empty;
		if (core->env.ops->deliver(core->env.ctx, data, s->len, flags,
					   ref ? s->ptr : NULL) < 0)
			break;
		MRC_STAT_ADD(core, delivered_bytes, s->len);
		core->app_free = core->app_free > s->len ?
				 core->app_free - s->len : 0;
		core->held_bytes -= s->len;
		core->held_pkts--;
		if (ref) {
			core->held_ref_bytes -= s->len;
			memset(s, 0, sizeof(*s));	/* the environment's now */
		} else {
			mrc_rslot_clear(core, s);
		}
		core->rcv_dlv = mrc_psn_add(core, core->rcv_dlv, 1);
	}
	if (core->peer_fin && !core->peer_fin_noted &&
	    core->rcv_dlv == core->peer_fin_psn) {
		core->peer_fin_noted = true;
		mrc_core_notify(core, MRC_NOTE_PEER_FIN, 0);
		mrc_core_check_done(core);
	}
}

/*
 * Room for @len more bytes at PSN @psn? None while the application can
 * take nothing: what comes then is a zero-window probe, and taking each
 * one would grow the application's queue by a segment a probe for as long
 * as it does not read. Within rcvbuf, always. Beyond it, only the packet
 * that fills the gap (rcv_nxt, with nothing in order left for the
 * application): the buffer may be full of data past the gap, which only
 * that packet can ever release, so refusing it would refuse every
 * retransmission of it too and stall the connection for good. Taking it
 * costs at most one MSS over rcvbuf, and delivering it frees the rest.
 */
static bool mrc_rcv_fits(const struct mrc_core *core, u32 psn, u32 len)
{
	if (!core->app_free)
		return false;
	if (core->held_bytes + len <= core->rcvbuf)
		return true;
	return psn == core->rcv_nxt && core->rcv_dlv == core->rcv_nxt &&
	       len <= core->mss;
}

/*
 * Store DATA @pkt at its PSN (at or after rcv_nxt). The window is rq_cap
 * PSNs from rcv_dlv whatever the ring's size now: a PSN inside it but
 * past the ring grows the ring. A failed grow is a failed allocation, a
 * NO_BUFFER NACK (the peer resends), never PSN_OUT_OF_WINDOW, which would
 * narrow the peer's PSN window for good. Return: drop reason.
 */
static int mrc_rcv_place(struct mrc_core *core, const struct mrc_pkt *pkt,
			 u32 plane)
{
	u32 psn = pkt->data.psn, len = pkt->payload_len;
	u32 off = (u32)mrc_diff(core, core->rcv_dlv, psn);
	bool take = pkt->buf && core->env.ops->rx_take;
	void *copy = NULL;
	struct mrc_rslot *s;
	bool ok;

	if (off >= core->rq_cap) {
		mrc_rcv_send_nack(core, pkt, plane,
				  MRC_NACK_PSN_OUT_OF_WINDOW);
		return MRC_DROP_PSN_WINDOW;
	}
	if (mrc_rcv_held(core, psn))
		return MRC_DROP_DUPLICATE;
	ok = mrc_rcv_fits(core, psn, len) && (take || pkt->payload) &&
	     (mrc_rcv_in_ring(core, off) || !mrc_rcv_grow(core, off + 1));
	if (ok && !take && len) {
		copy = mrc_alloc(core, len);
		ok = !!copy;
	}
	/* zero copy: the packet itself is the segment's storage */
	if (ok && take) {
		copy = core->env.ops->rx_take(core->env.ctx, pkt);
		ok = !!copy;
	}
	if (!ok) {
		mrc_rcv_send_nack(core, pkt, plane, MRC_NACK_NO_BUFFER);
		return MRC_DROP_NO_BUFFER;
	}
	s = mrc_rcv_slot(core, psn);
	s->len = len;
	s->flags = pkt->flags & (MRC_F_SOM | MRC_F_EOM);
	if (take) {
		s->state = MRC_RSLOT_REF;
		s->ptr = copy;
		core->held_ref_bytes += len;
	} else {
		s->state = MRC_RSLOT_COPY;
		s->ptr = copy;
		if (len)
			memcpy(copy, pkt->payload, len);
	}
	core->held_bytes += len;
	core->held_pkts++;
	return MRC_DROP_NONE;
}

/* Advance cum_psn over what is now contiguous (never past the ring). */
static void mrc_rcv_advance(struct mrc_core *core)
{
	struct mrc_rslot *s;

	while (mrc_rcv_in_ring(core, (u32)mrc_diff(core, core->rcv_dlv,
						   core->rcv_nxt))) {
		s = mrc_rcv_slot(core, core->rcv_nxt);
		if (s->state == MRC_RSLOT_EMPTY)
			break;
		core->rcv_in_order += s->len;
		core->rcv_nxt = mrc_psn_add(core, core->rcv_nxt, 1);
	}
}

/*
 * @pkt is the next SACK's trigger. A SACK's bitmap covers only the 64
 * PSNs around its trigger (mrc_rcv_send_sack()): one an input batch owes
 * for a trigger in another 64, past the cumulative ACK, goes now, or the
 * batch's one SACK would leave the PSNs of that 64 unreported while a
 * gap holds the cumulative ACK below them, and the sender would count
 * them lost.
 */
static void mrc_rcv_note_trigger(struct mrc_core *core,
				 const struct mrc_pkt *pkt, u32 plane,
				  bool ce)
{
	if (core->batch_sack &&
	    ((core->last_psn ^ pkt->data.psn) & ~63u &
	     mrc_psn_mask(core->psn24)) &&
	    mrc_diff(core, core->rcv_nxt, core->last_psn) >= 0)
		mrc_rcv_send_sack(core, core->batch_sack_plane, false);
	core->last_psn = pkt->data.psn;
	core->last_ev = pkt->ev;
	core->last_tsval = pkt->data.tsval;
	core->last_plane = plane;
	core->last_ce = ce;
	core->unacked_pkts++;
	if (ce && core->ce_pending < 255)
		core->ce_pending++;
}

/*
 * The DATA packet just noted asks for a SACK: now, or, inside an input
 * batch, one at its end (mrc_core_input_end()) for all the batch brought.
 */
static void mrc_rcv_sack_due(struct mrc_core *core, u32 plane)
{
	if (!core->in_batch) {
		mrc_rcv_send_sack(core, plane, false);
		return;
	}
	core->batch_sack = true;
	core->batch_sack_plane = plane;
}

/* A copy of data we hold: the SACK that said so may have been lost. */
static void mrc_rcv_dup(struct mrc_core *core, const struct mrc_pkt *pkt,
			u32 plane, bool ce)
{
	MRC_STAT_INC(core, dup_pkts);
	mrc_rcv_note_trigger(core, pkt, plane, ce);
	mrc_rcv_sack_due(core, plane);
}

int mrc_rcv_data(struct mrc_core *core, const struct mrc_pkt *pkt,
		 u32 plane, bool ce)
{
	u32 psn = pkt->data.psn;
	bool now, ooo, closes;
	int reason;

	if (core->state == MRC_CORE_SYN_SENT)
		return MRC_DROP_STATE;
	if (!!(pkt->flags & MRC_F_PSN24) != core->psn24)
		return MRC_DROP_MALFORMED;
	if (mrc_diff(core, core->rcv_nxt, psn) < 0) {
		mrc_rcv_dup(core, pkt, plane, ce);
		return MRC_DROP_DUPLICATE;
	}
	if (core->peer_fin || !mrc_core_can_rcv_data(core))
		return MRC_DROP_STATE;
	reason = mrc_rcv_place(core, pkt, plane);
	if (reason == MRC_DROP_DUPLICATE)
		mrc_rcv_dup(core, pkt, plane, ce);
	if (reason != MRC_DROP_NONE)
		return reason;
	ooo = psn != core->rcv_nxt;
	closes = !ooo && mrc_rcv_ooo(core) > 1;
	MRC_STAT_INC(core, rx_data_pkts);
	MRC_STAT_ADD(core, rx_data_bytes, pkt->payload_len);
	if (ce)
		MRC_STAT_INC(core, ce_rx);
	if (ooo)
		MRC_STAT_INC(core, ooo_pkts);
	mrc_rcv_advance(core);
	mrc_core_trace(core, MRC_TRACE_RX, psn, plane, pkt->ev,
		       pkt->payload_len, 0, 0, ce);
	mrc_rcv_note_trigger(core, pkt, plane, ce);
	mrc_rcv_deliver(core);
	/*
	 * SACK at once when a gap opens or stands (@ooo, mrc_rcv_ooo()) and
	 * when it closes (@closes: this packet, the one the gap waited for,
	 * releases data held past it): the sender's RACK does not wait out
	 * our ACK delay (ack.c), and a sender whose window the held data
	 * filled can send again.
	 */
	now = ooo || closes || ce || (pkt->flags & MRC_F_ACK_NOW) ||
	      mrc_rcv_ooo(core) || core->unacked_pkts >= core->ack_every;
	if (now)
		mrc_rcv_sack_due(core, plane);
	else if (!core->ack_due_us)
		core->ack_due_us = mrc_now(core) + core->ack_delay_us;
	return MRC_DROP_NONE;
}

/*
 * A switch cut this DATA packet's payload instead of dropping it (packet
 * trimming): answer at once with a TRIMMED NACK, so the sender resends
 * the PSN now and rests the EV (ack.c) instead of waiting for a SACK gap
 * or the RTO. The packet carries no data, so nothing is stored.
 * Return: drop reason (MRC_DROP_NONE: the NACK went out).
 */
int mrc_rcv_trimmed(struct mrc_core *core, const struct mrc_pkt *pkt,
		    u32 plane)
{
	u32 psn = pkt->data.psn;
	s32 off;

	if (core->state == MRC_CORE_SYN_SENT)
		return MRC_DROP_STATE;
	if (!!(pkt->flags & MRC_F_PSN24) != core->psn24)
		return MRC_DROP_MALFORMED;
	off = mrc_diff(core, core->rcv_nxt, psn);
	if (off < 0 || mrc_rcv_held(core, psn)) {
		/* A whole copy is here: the sender only lacks the SACK. */
		mrc_rcv_dup(core, pkt, plane, false);
		return MRC_DROP_DUPLICATE;
	}
	if (core->peer_fin || !mrc_core_can_rcv_data(core))
		return MRC_DROP_STATE;
	if ((u32)mrc_diff(core, core->rcv_dlv, psn) >= core->rq_cap) {
		/* As mrc_rcv_place(): resending it would be refused again. */
		mrc_rcv_send_nack(core, pkt, plane,
				  MRC_NACK_PSN_OUT_OF_WINDOW);
		return MRC_DROP_PSN_WINDOW;
	}
	MRC_STAT_INC(core, trimmed_rx);
	mrc_rcv_send_nack(core, pkt, plane, MRC_NACK_TRIMMED);
	return MRC_DROP_NONE;
}

int mrc_rcv_fin(struct mrc_core *core, const struct mrc_pkt *pkt, u32 plane)
{
	u32 end = pkt->fin_end_psn;

	if (core->peer_fin) {
		if (end != core->peer_fin_psn)
			return MRC_DROP_STATE;
		mrc_rcv_send_sack(core, plane, true);
		return MRC_DROP_NONE;
	}
	if (!mrc_core_can_rcv_data(core) || end != core->rcv_nxt)
		return MRC_DROP_STATE;
	core->peer_fin = true;
	core->peer_fin_psn = end;
	if (core->state == MRC_CORE_ESTABLISHED)
		core->state = MRC_CORE_CLOSE_WAIT;
	else
		core->state = MRC_CORE_LAST_ACK;
	mrc_rcv_send_sack(core, plane, true);
	mrc_rcv_deliver(core);
	return MRC_DROP_NONE;
}

/*
 * Is the window worth a SACK of its own? When it has grown by a good part
 * of the buffer (not for every byte the application reads), and always
 * when it lets through a whole segment that the last one did not: a
 * sender that cannot send a segment sends nothing until told.
 */
static bool mrc_rcv_window_news(const struct mrc_core *core)
{
	u32 rwnd = mrc_rcv_rwnd(core), was = core->last_adv_rwnd;
	u32 step = mrc_max(core->mss, core->rcvbuf / 4);

	if (was < core->mss && rwnd >= core->mss)
		return true;
	return was < core->rcvbuf / 2 && rwnd >= was + step;
}

void mrc_core_rcv_space(struct mrc_core *core, u32 free_bytes)
{
	core->app_free = free_bytes;
	if (core->state == MRC_CORE_CLOSED || core->state == MRC_CORE_ABORTED ||
	    core->state == MRC_CORE_SYN_SENT)
		return;
	if (mrc_ev_unpark(core))
		return;	/* parked: nothing was received to deliver */
	mrc_clock_enter(core);
	mrc_rcv_deliver(core);
	if (!core->peer_fin && mrc_rcv_window_news(core))
		mrc_rcv_send_sack(core, core->last_plane, false);
	if (core->state != MRC_CORE_ABORTED)
		mrc_core_rearm(core);
	mrc_clock_leave(core);
}

void mrc_rcv_on_timer(struct mrc_core *core, u64 now)
{
	if (core->ack_due_us && now >= core->ack_due_us)
		mrc_rcv_send_sack(core, core->last_plane, false);
}
