// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC congestion control (after UET's network-signal-based CC): a window
 * in bytes driven by the ECN echo of each SACK crossed with the queueing
 * delay (RTT sample minus base RTT) against a target:
 *
 *   no ECN, delay <= target: proportional increase,
 *	cwnd += acked * eta * (target - delay) / target   (eta in ppm)
 *   no ECN, delay > target: fair increase,
 *	cwnd += fi / fi_scale * mss * acked / cwnd  (fi/fi_scale MSS per RTT)
 *   ECN, delay > target: multiplicative decrease, at most once per RTT,
 *	cwnd -= cwnd * min(gamma * (delay - target) / delay, max_md_jump)
 *   ECN, delay <= target: hold (the mark is another path's business).
 *
 * The parameters (struct mrc_nscc) are the connection's; each plane has a
 * window of its own (struct mrc_nscc_win, path.c), with its own minimum
 * RTT as the base when none is configured.
 *
 * Integer math only. Defaults (a zero field of struct mrc_core_cc), chosen
 * for software paths with RTTs of 0.1 to 5 ms:
 *   base_rtt	0: the window's minimum RTT sample
 *   target_delay	1000 us
 *   max_cwnd	4 MiB
 *   eta	1000000 ppm (up to doubling per RTT while the path is empty)
 *   fi/fi_scale	1/1 (one MSS per RTT)
 *   gamma	1000000 ppm, max_md_jump 500000 ppm (at most halve)
 * The initial window is 10 MSS (at least 16 KiB), which the planes'
 * windows share (mrc_nscc_win_init()); a window never falls below one
 * MSS. A retransmission timeout halves it; a trimmed packet (TRIMMED
 * NACK) or a lost one takes max_md_jump off it, at most once per RTT.
 * qa_gate, qa_threshold, adjust_bytes and adjust_period are accepted but
 * not used (no quick adapt).
 */
#include "core_private.h"

#define MRC_NSCC_PPM			1000000u
#define MRC_NSCC_DEF_TARGET_US		1000u
#define MRC_NSCC_DEF_MAX_CWND		(4u * 1024 * 1024)
#define MRC_NSCC_DEF_ETA		MRC_NSCC_PPM
#define MRC_NSCC_DEF_GAMMA		MRC_NSCC_PPM
#define MRC_NSCC_DEF_MAX_MD		(MRC_NSCC_PPM / 2)
#define MRC_NSCC_INIT_SEGS		10u
#define MRC_NSCC_INIT_MIN		(16u * 1024)

static u32 mrc_nscc_or(u32 v, u32 def)
{
	return v ? v : def;
}

void mrc_nscc_init(struct mrc_nscc *cc, const struct mrc_core_cc *cfg,
		   u32 mss)
{
	memset(cc, 0, sizeof(*cc));
	cc->mss = mss;
	cc->base_rtt_us = cfg->base_rtt_ns / 1000;
	cc->target_delay_us = cfg->target_delay_ns ?
			      mrc_max(cfg->target_delay_ns / 1000, 1) :
			      MRC_NSCC_DEF_TARGET_US;
	cc->max_cwnd = mrc_max(mrc_nscc_or(cfg->max_cwnd,
					   MRC_NSCC_DEF_MAX_CWND), mss);
	cc->eta = mrc_nscc_or(cfg->eta, MRC_NSCC_DEF_ETA);
	cc->fi = mrc_nscc_or(cfg->fi, 1);
	cc->fi_scale = mrc_nscc_or(cfg->fi_scale, 1);
	cc->gamma = mrc_nscc_or(cfg->gamma, MRC_NSCC_DEF_GAMMA);
	cc->max_md_jump = mrc_min(mrc_nscc_or(cfg->max_md_jump,
					      MRC_NSCC_DEF_MAX_MD),
				  MRC_NSCC_PPM);
}

/* A window's start: a @share-th of the initial window, one MSS at least. */
void mrc_nscc_win_init(const struct mrc_nscc *cc, struct mrc_nscc_win *w,
		       u32 share)
{
	memset(w, 0, sizeof(*w));
	w->cwnd = mrc_max(MRC_NSCC_INIT_SEGS * cc->mss, MRC_NSCC_INIT_MIN);
	w->cwnd = mrc_clamp(w->cwnd / mrc_max(share, 1), cc->mss,
			    cc->max_cwnd);
}

static void mrc_nscc_add(const struct mrc_nscc *cc, struct mrc_nscc_win *w,
			 u64 inc)
{
	u64 cwnd = w->cwnd + inc;

	w->cwnd = (u32)(cwnd > cc->max_cwnd ? cc->max_cwnd : cwnd);
}

enum mrc_nscc_quadrant mrc_nscc_on_ack(const struct mrc_nscc *cc,
				       struct mrc_nscc_win *w, u64 now_us,
				       u32 acked, u32 rtt_us, u32 srtt_us,
				       bool ecn)
{
	u32 sample = rtt_us ? rtt_us : srtt_us, base, delay, frac;
	enum mrc_nscc_quadrant q;
	bool high;

	if (rtt_us && (!w->min_rtt_us || rtt_us < w->min_rtt_us))
		w->min_rtt_us = rtt_us;
	base = cc->base_rtt_us ? cc->base_rtt_us : w->min_rtt_us;
	delay = sample > base ? sample - base : 0;
	high = delay > cc->target_delay_us;
	if (!ecn)
		q = high ? MRC_NSCC_FAIR : MRC_NSCC_PROPORTIONAL;
	else
		q = high ? MRC_NSCC_DECREASE : MRC_NSCC_HOLD;

	switch (q) {
	case MRC_NSCC_PROPORTIONAL:
		mrc_nscc_add(cc, w, (u64)acked * cc->eta / MRC_NSCC_PPM *
				    (cc->target_delay_us - delay) /
				    cc->target_delay_us);
		break;
	case MRC_NSCC_FAIR:
		/* fi/fi_scale MSS each time a window's worth is acked. */
		w->acked_since += acked;
		if (w->acked_since >= w->cwnd) {
			w->acked_since -= w->cwnd;
			mrc_nscc_add(cc, w, (u64)cc->fi * cc->mss / cc->fi_scale);
		}
		break;
	case MRC_NSCC_DECREASE:
		if (w->last_md_us && now_us - w->last_md_us < sample)
			break;
		frac = (u32)mrc_min64((u64)cc->gamma * (delay -
						       cc->target_delay_us) /
				      mrc_max(delay, 1), cc->max_md_jump);
		w->cwnd -= (u32)((u64)w->cwnd * frac / MRC_NSCC_PPM);
		w->cwnd = mrc_max(w->cwnd, cc->mss);
		w->last_md_us = now_us;
		break;
	case MRC_NSCC_HOLD:
		break;
	}
	return q;
}

/*
 * A queue overflowed: a switch trimmed a packet of ours, a surer sign
 * than an ECN mark that the window is too big (UET treats it so), or a
 * packet was found lost (path.c: where the fabric does not mark ECN, the
 * only sign there is). The deepest decrease ECN could bring, at most
 * once per RTT.
 */
void mrc_nscc_on_overflow(const struct mrc_nscc *cc, struct mrc_nscc_win *w,
			  u64 now_us, u32 srtt_us)
{
	if (w->last_md_us && now_us - w->last_md_us < srtt_us)
		return;
	w->cwnd -= (u32)((u64)w->cwnd * cc->max_md_jump / MRC_NSCC_PPM);
	w->cwnd = mrc_max(w->cwnd, cc->mss);
	w->last_md_us = now_us;
}

void mrc_nscc_on_timeout(const struct mrc_nscc *cc, struct mrc_nscc_win *w)
{
	w->cwnd = mrc_max(w->cwnd / 2, cc->mss);
}
