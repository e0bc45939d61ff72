// SPDX-License-Identifier: GPL-2.0
/*
 * Acknowledgment processing of the protocol core: SACK (cumulative PSN
 * plus a 64-PSN bitmap), NACK by reason, loss detection and the RTT
 * estimator (RFC 6298 from the timestamp echo).
 *
 * Loss detection is RACK-like: a segment in flight is lost once a segment
 * transmitted MRC_CORE_REORDER_PKTS transmissions after it has been acked
 * (transmissions, not PSNs, so a retransmission that gets through exposes
 * every older one that did not) and it has been out longer than its EV's
 * RTT allows (mrc_ack_reorder_wait(): a slow plane is not a lossy one);
 * the reorder timer re-checks those not yet old enough. A segment whose
 * EV has had a later transmission acked is lost with no wait: an EV is
 * one route, and a route keeps order. A NACK loses its PSN at once; the
 * retransmission timer (send.c) catches the rest.
 *
 * The reordering window adapts, as RACK's does with DSACK: a retransmitted
 * segment acknowledged sooner after its retransmission than any path's
 * round trip was acknowledged for its first transmission, so the
 * retransmission was needless; each one widens the window by a quarter
 * RTT (up to MRC_CORE_REORDER_MAX_STEPS), and every 16 smoothed RTTs
 * without one narrow it by a step again.
 */
#include "core_private.h"

void mrc_ack_rtt_sample(struct mrc_core *core, u32 rtt)
{
	u32 delta, var;

	if (!rtt)
		rtt = 1;
	if (!core->min_rtt_us || rtt < core->min_rtt_us)
		core->min_rtt_us = rtt;
	if (!core->srtt_us) {
		core->srtt_us = rtt;
		core->rttvar_us = rtt / 2;
	} else {
		delta = core->srtt_us > rtt ? core->srtt_us - rtt :
					      rtt - core->srtt_us;
		core->rttvar_us = (3 * core->rttvar_us + delta) / 4;
		core->srtt_us = (7 * core->srtt_us + rtt) / 8;
	}
	var = mrc_max(4 * core->rttvar_us, 1);
	/*
	 * Not capped at rto_max, which bounds the backoff (mrc_snd_rto()):
	 * an RTO below the measured round trip fires on every packet, marks
	 * its EV bad and probes it. Round trips of seconds are real on a
	 * loaded 1 Mbit/s queue or a debug kernel under TCG.
	 */
	core->rto_us = mrc_clamp(core->srtt_us + var, core->rto_min_us,
				 MRC_CORE_RTO_CEIL_US);
}

/*
 * How long after its transmission @seg may still be on its way: its EV's
 * smoothed RTT (planes and routes differ; else its plane's) plus a quarter
 * per reordering step, plus the round trips' variation (rttvar, never
 * less than MRC_CORE_REORDER_MARGIN_US); an RTO while the plane is
 * unknown. The peer's ACK delay is not waited for: a packet past a gap,
 * or one that closes a gap, is SACKed at once (recv.c), and only such a
 * packet's SACK can show that a later one arrived first. Waiting for it
 * (20 us in mrc-netsim, 200 us in the module) left a packet lost on a
 * failing route for 70-80 us where its EV's round trip was 8-20 us, with
 * the peer's window full behind it.
 */
static u64 mrc_ack_wait_for(const struct mrc_core *core, u32 rtt)
{
	return (u64)rtt + (u64)(rtt / 4) * (1 + core->reo_steps) +
	       mrc_max(core->rttvar_us, MRC_CORE_REORDER_MARGIN_US);
}

u64 mrc_ack_reorder_wait(const struct mrc_core *core,
			 const struct mrc_seg *seg)
{
	u32 rtt = core->evs[seg->ev_idx].srtt_us;

	if (!rtt)
		rtt = core->paths[seg->plane].srtt_us;
	if (!rtt)
		return core->rto_us;
	return mrc_ack_wait_for(core, rtt);
}

/*
 * No segment's wait is shorter: EV and plane RTTs are averages of samples,
 * none below rtt_floor_us; without one it is the RTO.
 */
static u64 mrc_ack_min_reorder_wait(const struct mrc_core *core)
{
	u64 wait = core->rto_us;

	if (core->rtt_floor_us)
		wait = mrc_min64(wait, mrc_ack_wait_for(core,
							core->rtt_floor_us));
	return wait;
}

/* A needless retransmission of @seg was just found: widen the window. */
static void mrc_ack_spurious(struct mrc_core *core, const struct mrc_seg *seg,
			     u64 now)
{
	if (seg->tx_count < 2 || !core->min_rtt_us ||
	    now - seg->sent_us >= core->min_rtt_us / 2)
		return;
	MRC_STAT_INC(core, spurious_retx);
	if (core->reo_steps < MRC_CORE_REORDER_MAX_STEPS)
		core->reo_steps++;
	core->reo_step_us = now;
}

/* Narrow the window by a step after 16 smoothed RTTs without a widening. */
static void mrc_ack_reorder_decay(struct mrc_core *core, u64 now)
{
	if (core->reo_steps &&
	    now - core->reo_step_us > 16ull * core->srtt_us) {
		core->reo_steps--;
		core->reo_step_us = now;
		core->rack_scan_ok = false;	/* every wait just shrank */
	}
}

/*
 * Was a later transmission on @seg's EV acked? An EV is one route, and a
 * route keeps order: @seg is lost, however long its wait.
 */
static bool mrc_ack_ev_overtaken(const struct mrc_core *core,
				 const struct mrc_seg *seg)
{
	u32 hi = core->evs[seg->ev_idx].acked_tx;

	return hi && (s32)(hi - 1 - seg->tx_seq) > 0;
}

/*
 * Were enough transmissions after @seg acked for it to be lost once its
 * wait is over? MRC_CORE_REORDER_PKTS of them; or, when fewer were sent
 * after it, the newest of all: nothing more will come to count (the last
 * packets of a burst, a tail probe's SACK). Waiting for three that never
 * come left such a segment to the RTO, many round trips on a fabric of
 * microseconds (ack_test.cpp's lost tail: 2 ms on a 20 us round trip).
 * It holds for a prefix of tx_list, which is in transmission order.
 */
static bool mrc_ack_overtaken(const struct mrc_core *core,
			      const struct mrc_seg *seg)
{
	s32 later = (s32)(core->rack_hi - seg->tx_seq);

	return later >= MRC_CORE_REORDER_PKTS ||
	       (later > 0 && core->rack_hi == core->tx_seq - 1);
}

/*
 * tx_list is in transmission order: once a segment was sent too recently
 * for the shortest wait of any, so was every one after it, and the scan
 * stops there; the timer then comes back no later than that segment
 * could be due. Segments with longer waits (a slower EV or plane) that
 * the scan passed over stay passed over until the earliest of their due
 * times: until then a scan resumes where the last one stopped, so each
 * SACK costs the segments it newly reaches, not the whole window (the
 * fuzzer found windows where the full walk dominated). An RTT sample that
 * shortens a passed-over segment's wait takes effect at that time.
 */
void mrc_ack_detect_losses(struct mrc_core *core)
{
	struct mrc_seg *seg = core->tx_list.head, *next;
	u64 now = mrc_now(core), due, first = 0, min_wait;

	if (!core->rack_valid) {
		core->rack_due_us = 0;
		return;
	}
	mrc_ack_reorder_decay(core, now);
	if (core->rack_scan_ok && core->rack_due_us && now < core->rack_due_us) {
		seg = core->rack_resume;
		first = core->rack_due_us;
	}
	min_wait = mrc_ack_min_reorder_wait(core);
	while (seg && mrc_ack_overtaken(core, seg)) {
		next = seg->next;
		if (mrc_ack_ev_overtaken(core, seg)) {
			mrc_snd_mark_lost(core, seg, 0);
			seg = next;
			continue;
		}
		if (seg->sent_us + min_wait > now) {
			due = seg->sent_us + min_wait;
			if (!first || due < first)
				first = due;
			break;
		}
		due = seg->sent_us + mrc_ack_reorder_wait(core, seg);
		if (now >= due)
			mrc_snd_mark_lost(core, seg, 0);
		else if (!first || due < first)
			first = due;
		seg = next;
	}
	core->rack_due_us = first;
	core->rack_resume = seg;
	core->rack_scan_ok = true;
}

/* PSN @psn was sent (before snd_nxt)? */
static bool mrc_ack_sent(const struct mrc_core *core, u32 psn)
{
	return mrc_diff(core, core->snd_nxt, psn) < 0;
}

/* Was PSN @psn sent and is it still unacknowledged data of ours? */
static struct mrc_seg *mrc_ack_unacked(const struct mrc_core *core, u32 psn)
{
	if (mrc_diff(core, core->snd_una, psn) < 0 || !mrc_ack_sent(core, psn))
		return NULL;
	return mrc_snd_seg(core, psn);
}

/* Refuse a SACK that acknowledges something we never sent. */
static int mrc_ack_check_sack(const struct mrc_core *core,
			      const struct mrc_pkt_sack *s, bool fin_ack)
{
	u32 i;

	if (mrc_diff(core, core->snd_nxt, s->cum_psn) > 0)
		return MRC_DROP_ACK;
	if (!fin_ack && !mrc_ack_sent(core, s->trig_psn) &&
	    mrc_diff(core, s->cum_psn, s->trig_psn) >= 0)
		return MRC_DROP_ACK;
	/* any bit at or past snd_nxt, however far: never sent */
	for (i = 0; i < 64; i++)
		if ((s->bitmap & (1ull << i)) &&
		    mrc_diff(core, core->snd_nxt,
			     mrc_psn_add(core, s->sack_base, i)) >= 0)
			return MRC_DROP_ACK;
	return MRC_DROP_NONE;
}

static u32 mrc_ack_one(struct mrc_core *core, struct mrc_seg *seg,
		       u32 trig, u32 rtt)
{
	u32 len = seg->len;

	core->paths[seg->plane].acked += len;
	mrc_ack_spurious(core, seg, mrc_now(core));
	mrc_core_trace(core, MRC_TRACE_ACK, seg->psn, seg->plane,
		       core->evs[seg->ev_idx].value, len,
		       seg->psn == trig ? rtt : 0, 0, false);
	mrc_snd_ack_seg(core, seg);
	return len;
}

/* Everything before @cum and the bitmap's set bits are acknowledged. */
static u32 mrc_ack_range(struct mrc_core *core, const struct mrc_pkt_sack *s,
			 u32 rtt)
{
	u32 acked = 0, i, psn, una = core->snd_una;
	struct mrc_seg *seg;

	while (mrc_diff(core, core->snd_una, s->cum_psn) > 0) {
		seg = mrc_snd_seg(core, core->snd_una);
		if (seg)
			acked += mrc_ack_one(core, seg, s->trig_psn, rtt);
		core->snd_una = mrc_psn_add(core, core->snd_una, 1);
	}
	for (i = 0; i < 64; i++) {
		if (!(s->bitmap & (1ull << i)))
			continue;
		psn = mrc_psn_add(core, s->sack_base, i);
		seg = mrc_ack_unacked(core, psn);
		if (seg)
			acked += mrc_ack_one(core, seg, s->trig_psn, rtt);
	}
	while (core->snd_una != core->snd_nxt &&
	       !mrc_snd_seg(core, core->snd_una))
		core->snd_una = mrc_psn_add(core, core->snd_una, 1);
	if (core->snd_una != una) {
		core->una_refused = false;
		core->tlp_sent = false;
	}
	return acked;
}

/*
 * RTT of the SACK's triggering transmission, 0 if none may be taken;
 * *resent says whether that transmission was a resent copy.
 */
static u32 mrc_ack_rtt(struct mrc_core *core, const struct mrc_pkt_sack *s,
		       bool *resent)
{
	struct mrc_seg *seg;
	u32 rtt;

	*resent = false;
	if (!s->ts_echo)
		return 0;
	/*
	 * Only from a segment still unacknowledged: the echo of one
	 * acknowledged already (a duplicate, a replay, the FIN's SACK) is as
	 * old as that segment, not a round trip.
	 *
	 * A resent segment counts only while the RTO is backed off (it
	 * fired and nothing was acknowledged since): when the round trip is
	 * longer than the RTO, every packet is resent before its SACK comes,
	 * Karn's rule leaves no sample and the RTO stays below the round
	 * trip for good. The echo says which copy the SACK answers, so the
	 * sample is a true round trip of that copy. Outside a backoff a
	 * resent copy travelled in a loss episode (a burst of resends, a
	 * queue behind a link that was down) and its round trip inflated
	 * the RTO: in mrc-netsim, link-flap went from 2.51x to 10.95x of
	 * ideal when every resent copy was measured.
	 */
	seg = mrc_ack_unacked(core, s->trig_psn);
	if (!seg)
		return 0;
	*resent = seg->tx_count > 1;
	if (*resent && !core->backoff)
		return 0;
	rtt = (u32)mrc_now(core) - s->ts_echo;
	if (rtt > 60u * 1000 * 1000)
		return 0;
	return rtt ? rtt : 1;
}

static void mrc_ack_peer_planes(struct mrc_core *core, u16 plane_up)
{
	if (plane_up == core->peer_up)
		return;
	core->peer_up = plane_up;
	mrc_core_update_usable(core);
}

/*
 * Is the SACK older than the one the peer's window came from? SACKs take
 * different planes and overtake each other, and an old one reports room
 * the peer has since filled (the simulator saw NO_BUFFER refusals on
 * loss-free paths). rcv_bytes, the peer's in-order byte count, orders
 * them, and with an equal count the packets it holds past a gap
 * (ooo_count), which only grow until the count moves: while a gap
 * stands, every late SACK reported more room than was left (mrc-netsim's
 * spine-failure, seed 1: 1522 NO_BUFFER refusals and as many resent
 * packets). Equal in both may still open the window (the application
 * read), as TCP's window update does.
 */
static bool mrc_ack_stale(const struct mrc_core *core,
			  const struct mrc_pkt_sack *s)
{
	s32 newer = (s32)(s->rcv_bytes - core->rwnd_rcv_bytes);

	return core->rwnd_from_sack &&
	       (newer < 0 || (!newer && s->ooo_count < core->rwnd_ooo));
}

/* The peer's window from a SACK that is not stale (mrc_ack_stale()). */
static void mrc_ack_window(struct mrc_core *core,
			   const struct mrc_pkt_sack *s)
{
	core->peer_rwnd = s->rwnd;
	core->rwnd_rcv_bytes = s->rcv_bytes;
	core->rwnd_ooo = s->ooo_count;
	core->rwnd_from_sack = true;
}

int mrc_ack_sack(struct mrc_core *core, const struct mrc_pkt *pkt, u32 plane)
{
	const struct mrc_pkt_sack *s = &pkt->sack;
	bool fin_ack, ce, resent, stale;
	u32 rtt, acked;
	int reason, idx;

	if (!!(pkt->flags & MRC_F_PSN24) != core->psn24)
		return MRC_DROP_MALFORMED;
	fin_ack = core->fin_sent && s->cum_psn == core->fin_psn &&
		  s->trig_psn == core->fin_psn;
	reason = mrc_ack_check_sack(core, s, fin_ack);
	if (reason)
		return reason;
	MRC_STAT_INC(core, sacks_rx);
	core->ack_now_out = false;	/* mrc_snd_is_last() */
	/*
	 * A stale SACK's plane_up is as old as its window: one sent while a
	 * plane of the peer was down, overtaken by one sent once it was up
	 * again, took the plane away again and lost what was in flight there
	 * (mrc-netsim's link-flap: 70 packets after each of a host link's
	 * returns, resent as if the plane had died).
	 */
	stale = mrc_ack_stale(core, s);
	if (!stale)
		mrc_ack_peer_planes(core, s->plane_up);
	rtt = mrc_ack_rtt(core, s, &resent);
	if (rtt)
		mrc_ack_rtt_sample(core, rtt);
	/*
	 * A resent copy's round trip only lifts the RTO above the path's:
	 * it was sent in a loss episode, and as a delay, EV or reordering
	 * signal it slowed mrc-netsim's link-flap (2.51x to 3.98x of ideal).
	 */
	if (resent)
		rtt = 0;
	acked = mrc_ack_range(core, s, rtt);
	if (!stale)
		mrc_ack_window(core, s);
	ce = s->ce_count || (s->cc_flags & MRC_SACK_CE);
	if (ce)
		MRC_STAT_ADD(core, ce_echoed, s->ce_count ? s->ce_count : 1);
	idx = s->echo_ev ? mrc_ev_find(core, s->echo_ev) : -1;
	if (idx >= 0)
		mrc_ev_on_ack(core, idx, rtt, s->cc_flags & MRC_SACK_CE);
	mrc_path_on_sack(core, idx >= 0 ? core->evs[idx].plane :
			 MRC_WIRE_MAX_PLANES, rtt, ce);
	/* A closed window that is still reported means the peer is alive. */
	if (acked || s->rwnd < core->mss)
		mrc_core_progress(core);
	if (core->in_batch)
		core->batch_rack = true;	/* mrc_core_input_end() */
	else
		mrc_ack_detect_losses(core);
	if (fin_ack)
		mrc_core_fin_acked(core);
	if (core->snd_una == core->snd_end && !core->lost_list.head &&
	    (!core->fin_sent || core->fin_acked))
		core->outstanding = false;
	if (acked)
		mrc_snd_writable(core);
	mrc_snd_push(core);
	return MRC_DROP_NONE;
}

/*
 * A NACK of @seg names the gap its peer waits for (@cum_psn). If the
 * gap's last transmission went out before @seg's, which arrived, and the
 * reorder wait has passed since, that transmission is lost. A peer whose
 * buffer is full of data held past the gap refuses every segment but
 * the gap (NO_BUFFER) and acknowledges nothing, so neither RACK nor a
 * SACK would ever find a lost retransmission of the gap: only RTOs, one
 * segment in flight each, backing off (2 s for a 350 us transfer in
 * mrc-netsim's link-flap, seed 4).
 */
static void mrc_ack_nack_gap(struct mrc_core *core, const struct mrc_seg *seg,
			     u32 cum_psn)
{
	struct mrc_seg *gap = mrc_ack_unacked(core, cum_psn);

	if (!gap || gap == seg || gap->state != MRC_SEG_INFLIGHT ||
	    (s32)(seg->tx_seq - gap->tx_seq) <= 0)
		return;
	if (mrc_now(core) >= gap->sent_us + mrc_ack_reorder_wait(core, gap))
		mrc_snd_mark_lost(core, gap, 0);
}

/* A NACK loses its PSN at once; the reason says what else to learn. */
int mrc_ack_nack(struct mrc_core *core, const struct mrc_pkt *pkt, u32 plane)
{
	const struct mrc_pkt_nack *n = &pkt->nack;
	struct mrc_seg *seg;
	int idx;
	s32 win;

	if (!!(pkt->flags & MRC_F_PSN24) != core->psn24)
		return MRC_DROP_MALFORMED;
	if (!mrc_ack_sent(core, n->psn) ||
	    mrc_diff(core, core->snd_nxt, n->cum_psn) > 0)
		return MRC_DROP_ACK;
	MRC_STAT_INC(core, nacks_rx);
	/*
	 * Whatever the reason, the peer got our DATA's header: it is there
	 * and a path reaches it. A NACK is no acknowledgment (the backoff
	 * stays), but a busy fabric that trims, a full peer that refuses or
	 * a PSN window that is too narrow is no dead peer either.
	 */
	mrc_core_peer_alive(core);
	idx = mrc_ev_find(core, n->echo_ev);
	mrc_core_trace(core, MRC_TRACE_NACK, n->psn, plane, n->echo_ev, 0, 0,
		       n->reason, false);
	if (idx >= 0 && core->ev_stats)
		core->ev_stats[idx].nacks++;
	seg = mrc_ack_unacked(core, n->psn);
	if (!seg || seg->state != MRC_SEG_INFLIGHT)
		return MRC_DROP_NONE;
	mrc_ack_nack_gap(core, seg, n->cum_psn);
	switch (n->reason) {
	case MRC_NACK_TRIMMED:
		if (idx >= 0)
			mrc_ev_on_skip(core, idx);
		break;
	case MRC_NACK_PSN_OUT_OF_WINDOW:
		/*
		 * Learn the peer's PSN window; it is never widened again: the
		 * NACKs for the PSNs past the edge follow the one for the edge,
		 * and taking each one's wider window would resend the refused
		 * PSNs into the same refusal, over and over.
		 */
		win = mrc_diff(core, n->cum_psn, n->psn);
		core->peer_psn_win = mrc_min(core->peer_psn_win,
					     win > 64 ? (u32)win : 64);
		break;
	case MRC_NACK_NO_BUFFER:
		/*
		 * Wait for a SACK that opens the window (or the persist probe):
		 * the peer's application (or memory) is not ready. The backoff
		 * stays: the probes slow down as they wait.
		 */
		core->peer_rwnd = 0;
		if (seg->psn == core->snd_una)
			core->una_refused = true;
		break;
	default:
		break;
	}
	mrc_snd_mark_lost(core, seg, 2);
	mrc_snd_push(core);
	/*
	 * A trim (at the last hop too, where every EV meets) is a queue
	 * that overflowed: a smaller window from now on, once the trimmed
	 * packet went out again under the old one.
	 */
	if (n->reason == MRC_NACK_TRIMMED ||
	    n->reason == MRC_NACK_TRIMMED_LASTHOP)
		mrc_path_on_trim(core, seg->plane);
	return MRC_DROP_NONE;
}
