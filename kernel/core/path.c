// SPDX-License-Identifier: GPL-2.0
/*
 * Planes as paths: each plane the connection shares with its peer has a
 * congestion window of its own (NSCC, cc_nscc.c), the bytes in flight on
 * it and its smoothed RTT (struct mrc_path), and a DATA packet goes to
 * the plane where it should arrive first.
 *
 * The choice is the earliest-completion rule of MPTCP's 6.1 scheduler
 * (mptcp_subflow_get_send(): the least queued bytes over pacing rate) and
 * of the multipath literature. A plane with a window of W bytes and a
 * round trip of R delivers about W / R; with F bytes in flight there, a
 * packet sent now waits about F * R / W behind them. Among the planes
 * whose window has room for the packet, the least wait wins; the EV
 * within the plane is ev.c's business. An idle plane waits for nothing:
 * it is taken first, however small its window, so a plane that comes
 * back (or whose window a loss cut) carries traffic again and its window
 * grows; counting the packet itself ((F + L) * R / W) left such a plane
 * idle for as long as the others had room (a plane deleted and added
 * again under traffic sent under 100 packets in 2 s in the guest).
 *
 * One window a plane, not one for the connection: a plane slower than
 * the others (a quarter of their rate in make bench's P5) fills its
 * queue, gets the ECN marks and the delay, and shrinks its own window
 * while the others keep theirs, so the traffic goes where the capacity
 * is. With one window, the slow plane's marks cut the window of every
 * plane, and its share of the EVs kept its queue full.
 *
 * Like every field of the core, touched only inside the mrc_core_*()
 * calls the environment serialises.
 */
#include "core_private.h"

/*
 * Fresh windows for the planes of @mask, which share the initial window:
 * a connection starts no faster on four planes than on one. A whole
 * initial window on every plane, as MPTCP gives each subflow, overflows
 * the queues at the first round trip where many connections start at
 * once (mrc-netsim all-to-all-loaded, mean of seeds 1-6: 2.36x ideal,
 * against 1.39x shared; a lone short transfer pays a little: smoke
 * 1.23x against 1.16x).
 */
void mrc_path_init(struct mrc_core *core, u32 mask)
{
	u32 n = 0, p;

	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++)
		n += !!(mask & (1u << p));
	for (p = 0; p < core->plane_slots; p++)
		mrc_nscc_win_init(&core->cc, &core->paths[p].win,
				  mask & (1u << p) ? n : 1);
}

/* @seg went onto tx_list (sent on seg->plane), or came off it. */
void mrc_path_sent(struct mrc_core *core, const struct mrc_seg *seg)
{
	struct mrc_path *path = &core->paths[seg->plane];
	u32 p;

	path->inflight += seg->len;
	path->sent += seg->len;
	core->path_sent += seg->len;
	if (core->path_sent < MRC_PATH_SHARE_SPAN * core->mss)
		return;
	/* Halve the history: the shares are of the recent packets. */
	core->path_sent = 0;
	for (p = 0; p < core->plane_slots; p++) {
		core->paths[p].sent /= 2;
		core->path_sent += core->paths[p].sent;
	}
}

void mrc_path_unsent(struct mrc_core *core, const struct mrc_seg *seg)
{
	core->paths[seg->plane].inflight -= seg->len;
}

static u32 mrc_path_weight(const struct mrc_path *path)
{
	return path->weight ? path->weight : MRC_PLANE_WEIGHT_DEFAULT;
}

/*
 * The heaviest weight of the usable planes (wmax), again after a change
 * of the weights or of the usable planes.
 */
void mrc_path_weigh(struct mrc_core *core)
{
	u32 p, w, wmax = 0, wsum = 0;

	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++) {
		if (!(core->usable & (1u << p)))
			continue;
		w = mrc_path_weight(&core->paths[p]);
		wmax = mrc_max(wmax, w);
		wsum += w;
	}
	core->path_wmax = (u16)wmax;
	core->path_wsum = wsum;
}

void mrc_core_plane_weight(struct mrc_core *core, u32 plane, u32 weight)
{
	if (plane >= core->plane_slots)
		return;
	if (!weight)
		weight = MRC_PLANE_WEIGHT_DEFAULT;
	core->paths[plane].weight = (u16)mrc_min(weight, MRC_PLANE_WEIGHT_MAX);
	mrc_path_weigh(core);
}

/*
 * Has @plane, lighter than the heaviest usable plane, carried more than
 * its weight's share of the recent packets (its weight over all usable
 * planes' together)? Then mrc_path_pick() passes it over while another
 * plane has room. The window alone does not hold a light plane to its
 * share where the receiver's CPU, not the network, sets the pace: the
 * receiver serves each plane's queue in turn, so a plane with a
 * hundredth of the window still got a third of the packets, at a
 * shorter round trip (a guest's unshaped planes: 332 per mille at
 * weight 1 of 100, 329 at 100), and NSCC grew the window it filled
 * to max_cwnd.
 */
static bool mrc_path_over_share(const struct mrc_core *core, u32 plane)
{
	const struct mrc_path *path = &core->paths[plane];
	u32 w = mrc_path_weight(path);

	if (w >= core->path_wmax || !path->sent)
		return false;
	return (u64)path->sent * core->path_wsum >
	       (u64)w * core->path_sent;
}

/*
 * The window @plane may fill: its congestion window, scaled by its
 * weight against the heaviest usable plane's (one MSS at least). Planes
 * of weights 100 and 50 with equal windows and round trips carry 2:1;
 * a plane of weight 1 beside ones of 100 keeps one packet or a hundredth
 * of its window in flight. Only picking the planes by weight, among
 * those with room, moved too little: where every window is full, the
 * next packet goes to whichever opens first (mrc_datapath.sh, four
 * planes with one at weight 1: its share fell from 32% to 20% only).
 */
u32 mrc_path_wnd(const struct mrc_core *core, u32 plane)
{
	const struct mrc_path *path = &core->paths[plane];
	u32 w = mrc_path_weight(path), wmax = core->path_wmax;

	if (!wmax || w >= wmax)
		return path->win.cwnd;
	return mrc_max((u32)((u64)path->win.cwnd * w / wmax), core->mss);
}

/*
 * May @len more bytes (a packet, or a train) go out on @plane now? If
 * they overshoot its window by less than an MSS: as TCP counts packets,
 * a window with any room takes one more. A plane's window is a few
 * packets at times, and one that had to fit whole packets would leave
 * most of a packet of it unused on every plane (mrc-netsim smoke, mean
 * of seeds 1-6: 1.31x ideal against 1.23x). Nor while the environment's
 * local queue of the plane is full (tx_busy(), mrc_core.h).
 */
bool mrc_path_room(const struct mrc_core *core, u32 plane, u32 len)
{
	const struct mrc_path *path = &core->paths[plane];

	if ((u64)path->inflight + len >=
	    (u64)mrc_path_wnd(core, plane) + core->mss)
		return false;
	return !core->env.ops->tx_busy ||
	       !core->env.ops->tx_busy(core->env.ctx, plane);
}

/*
 * Is the environment's local queue full on every usable plane (tx_busy())?
 * Then nothing can go out before mrc_core_tx_ready().
 */
bool mrc_path_all_busy(const struct mrc_core *core)
{
	u32 p;

	if (!core->env.ops->tx_busy || !core->usable)
		return false;
	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++)
		if ((core->usable & (1u << p)) &&
		    !core->env.ops->tx_busy(core->env.ctx, p))
			return false;
	return true;
}

/* Packets of an MSS that @plane's window takes now, at least one. */
u32 mrc_path_fit(const struct mrc_core *core, u32 plane)
{
	const struct mrc_path *path = &core->paths[plane];
	u64 room = (u64)mrc_path_wnd(core, plane) + core->mss - 1;

	if (room <= path->inflight)
		return 1;
	return mrc_max((u32)((room - path->inflight) / core->mss), 1);
}

/* Usable planes with an EV in state GOOD. */
u32 mrc_path_good_mask(const struct mrc_core *core)
{
	u32 mask = 0, p;

	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++)
		if ((core->usable & (1u << p)) && core->paths[p].good)
			mask |= 1u << p;
	return mask;
}

/*
 * The plane's round trip, or the connection's before it has its own;
 * 1 to 2^24 us, so that a cost below fits in 64 bits.
 */
static u32 mrc_path_rtt(const struct mrc_core *core, u32 plane)
{
	u32 rtt = core->paths[plane].srtt_us;

	if (!rtt)
		rtt = core->srtt_us;
	return mrc_clamp(rtt, 1, 1u << 24);
}

/* mrc_path_pick(), past-share planes left out if @shares. */
static int mrc_path_pick_of(const struct mrc_core *core, u32 mask, u32 len,
			    bool force, bool shares)
{
	const struct mrc_path *path;
	u64 cost, best_cost = 0;
	int best = -1;
	u32 p;

	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++) {
		if (!(mask & (1u << p)))
			continue;
		if (!force && !mrc_path_room(core, p, len))
			continue;
		if (shares && mrc_path_over_share(core, p))
			continue;
		path = &core->paths[p];
		/* x 256: in flight over window is a fraction. */
		cost = (u64)path->inflight * mrc_path_rtt(core, p) * 256 /
		       mrc_path_wnd(core, p);
		if (best < 0 || cost < best_cost) {
			best = (int)p;
			best_cost = cost;
		}
	}
	return best;
}

/*
 * The plane of @mask where @len bytes sent now wait least, among those
 * with room for them (any of @mask when @force); -1 if none has room.
 * Ties go to the lowest plane id. A plane past its weight's share
 * (mrc_path_over_share()) only when no other plane can take the bytes.
 */
int mrc_path_pick(const struct mrc_core *core, u32 mask, u32 len,
		  bool force)
{
	int best = mrc_path_pick_of(core, mask, len, force, true);

	return best >= 0 ? best : mrc_path_pick_of(core, mask, len, force,
						   false);
}

/* The window of the connection: its usable planes' windows together. */
u32 mrc_path_cwnd(const struct mrc_core *core)
{
	u64 sum = 0;
	u32 p;

	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++)
		if (core->usable & (1u << p))
			sum += mrc_path_wnd(core, p);
	return (u32)mrc_min64(sum, 0xffffffffu);
}

/* A round-trip sample of an EV of @plane. */
void mrc_path_rtt_sample(struct mrc_core *core, u32 plane, u32 rtt_us)
{
	core->paths[plane].srtt_us = mrc_srtt_next(core->paths[plane].srtt_us,
						   rtt_us);
}

/*
 * A SACK acknowledged paths[p].acked bytes on each plane p (ack.c counts
 * them). Its round trip and its ECN echo belong to the packet that
 * triggered it, sent on @trig_plane (MRC_WIRE_MAX_PLANES: not known;
 * then the echo goes to every plane with acknowledged bytes). Each
 * plane's window takes its own part.
 */
void mrc_path_on_sack(struct mrc_core *core, u32 trig_plane, u32 rtt_us,
		      bool ce)
{
	bool known = trig_plane < MRC_WIRE_MAX_PLANES, trig;
	u64 now = mrc_now(core);
	struct mrc_path *path;
	u32 p;

	for (p = 0; p < core->plane_slots; p++) {
		path = &core->paths[p];
		trig = p == trig_plane;
		if (!path->acked && !(trig && rtt_us))
			continue;
		mrc_nscc_on_ack(&core->cc, &path->win, now, path->acked,
				trig ? rtt_us : 0, mrc_path_rtt(core, p),
				known ? trig && ce : ce);
		path->acked = 0;
	}
}

/*
 * A packet sent on @plane was found lost: by the RTO (@timeout), which
 * halves the window, or by RACK or a NACK's gap, which takes the deepest
 * decrease off it at most once per RTT, as a trim does. Without ECN in
 * the fabric a loss is the only sign of a full queue, and NSCC alone
 * grows the window until queues overflow (mrc-netsim all-to-all-loaded,
 * mean of seeds 1-6: 3.59x ideal without this, 1.39x with it). A loss
 * that is a route's fault (a black hole, a lossy link) cuts the plane's
 * window too, which moves traffic off a lossy plane (gray-failure: 3.93x
 * to 3.19x). The price: reordering that RACK takes for loss cuts a
 * window too. Under 20 ms of jitter on a 300 us path (a TCG guest on a
 * busy host), 4.1% of DATA is resent against 2.2% before; half the cut,
 * or no cut once reordering was seen, gave 2.4-2.8% but
 * all-to-all-loaded 2.55x.
 */
void mrc_path_on_loss(struct mrc_core *core, u32 plane, bool timeout)
{
	struct mrc_path *path = &core->paths[plane];

	if (timeout)
		mrc_nscc_on_timeout(&core->cc, &path->win);
	else
		mrc_nscc_on_overflow(&core->cc, &path->win, mrc_now(core),
				     mrc_path_rtt(core, plane));
}

/* A switch on @plane trimmed a packet of ours. */
void mrc_path_on_trim(struct mrc_core *core, u32 plane)
{
	mrc_nscc_on_overflow(&core->cc, &core->paths[plane].win,
			     mrc_now(core), mrc_path_rtt(core, plane));
}
