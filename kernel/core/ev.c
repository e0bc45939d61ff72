// SPDX-License-Identifier: GPL-2.0
/*
 * Entropy values (EVs) of a connection: building the set, splitting it
 * over the planes both ends share, EV states and probes, and the weighted
 * spraying scheduler that picks an EV for every DATA packet.
 *
 * Every DATA packet first gets a plane (path.c: where it waits least,
 * among the planes with room in their own window), then an EV of that
 * plane by smooth weighted round-robin over its GOOD EVs: every pick adds
 * each candidate's weight to its credit, takes the candidate with the
 * most credit and charges it the sum of the weights.
 * With equal weights that is a plain rotation (a different EV every
 * packet); an EV of weight w gets w / sum of the packets.
 *
 * Weight rule (1 .. MRC_EV_WEIGHT_FULL): an RTT sample on the EV moves
 * its smoothed RTT; the weight then steps by one towards
 * FULL * 2 * min_rtt / ev_srtt (full up to twice the connection's minimum
 * RTT, falling beyond). A loss quarters it, so a lossy route gets little;
 * clean ACKs step it back up. An ECN echo leaves it (see mrc_ev_on_ack()).
 *
 * States: SKIP (ECN echo or TRIMMED NACK) leaves the rotation for as many
 * picks as there were GOOD EVs (one rotation). MRC_EV_BAD_LOSSES losses in
 * a row with no ACK in between, or a retransmission timeout, make an EV
 * ASSUMED_BAD unless fewer than ev_min_active GOOD EVs would be left; it
 * is probed (mrc_ev_probe_wait()) and GOOD again when a reply comes.
 * DENIED only comes from mrc_core_ev_set_state(). When no GOOD EV is left
 * on a usable plane the others (not DENIED) are used round-robin, so a
 * connection whose every path failed recovers when one heals.
 */
#include "core_private.h"

/* Random EV values lie in the UDP source port range above the well-known. */
#define MRC_EV_VALUE_MIN	1024u

/* Slots of the by-value table for @nevs EVs: a power of two >= 2 x. */
static u32 mrc_ev_hash_slots(u32 nevs)
{
	u32 n = 2;

	while (n < 2 * nevs)
		n <<= 1;
	return n;
}

/* Multiplicative hashing: the product's middle bits mix every value bit. */
static u32 mrc_ev_hash(const struct mrc_core *core, u32 value)
{
	return ((value * 0x9e3779b1u) >> 16) & core->ev_hash_mask;
}

/*
 * The slot of the by-value table that holds @value, or the empty slot
 * where a linear probe for it ends. The table has twice as many slots as
 * EVs, so a probe always meets an empty one.
 */
static u32 mrc_ev_hash_slot(const struct mrc_core *core, u32 value)
{
	u32 h = mrc_ev_hash(core, value);

	while (core->ev_hash[h] &&
	       core->evs[core->ev_hash[h] - 1u].value != value)
		h = (h + 1) & core->ev_hash_mask;
	return h;
}

/* EV @idx into the by-value table, unless its value is there already. */
static void mrc_ev_hash_add(struct mrc_core *core, u32 idx)
{
	u32 h = mrc_ev_hash_slot(core, core->evs[idx].value);

	if (!core->ev_hash[h])
		core->ev_hash[h] = (u16)(idx + 1);
}

/* A 32-bit mix (the "lowbias32" hash): every input bit moves every output's. */
static u32 mrc_ev_mix(u32 x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

/* A permutation of the 16-bit values keyed by @seed: four Feistel rounds. */
static u32 mrc_ev_permute(u32 seed, u32 v)
{
	u32 l = v >> 8, r = v & 0xff, t, k;

	for (k = 0; k < 4; k++) {
		t = l ^ (mrc_ev_mix(seed ^ mrc_ev_mix(k << 8 | r)) & 0xff);
		l = r;
		r = t;
	}
	return l << 8 | r;
}

/*
 * mrc_ev_seed_value - EV @idx's value under @seed: the keyed permutation
 * of MRC_EV_VALUE_MIN + @idx, applied again while it falls below
 * MRC_EV_VALUE_MIN (cycle walking: a permutation of the range itself).
 * So one random 32-bit seed gives a connection distinct values, spread
 * as random ones are, and a parked connection or the peer table keeps
 * 4 bytes instead of 2 an EV. Stable: values are on the wire.
 */
u16 mrc_ev_seed_value(u32 seed, u32 idx)
{
	u32 v = MRC_EV_VALUE_MIN + idx;

	do
		v = mrc_ev_permute(seed, v);
	while (v < MRC_EV_VALUE_MIN);
	return (u16)v;
}

/* EV @idx's value, parked or not. */
u16 mrc_ev_value(const struct mrc_core *core, u32 idx)
{
	if (core->evs)
		return core->evs[idx].value;
	if (core->ev_parked)
		return core->ev_parked[idx];
	return mrc_ev_seed_value(core->ev_seed, idx);
}

void mrc_ev_destroy(struct mrc_core *core)
{
	mrc_free(core, core->evs);
	core->evs = NULL;
	mrc_free(core, core->ev_hash);
	core->ev_hash = NULL;
	mrc_free(core, core->ev_parked);
	core->ev_parked = NULL;
	core->evs_parked = false;
}

/* Bytes of the EV table, its index and (once allocated) its counters. */
size_t mrc_ev_mem_bytes(const struct mrc_core *core)
{
	size_t n = core->evs ? core->nevs : 0;

	if (core->evs_parked)
		return core->ev_parked ? core->nevs * sizeof(*core->ev_parked) :
					 0;
	return n * (sizeof(*core->evs) +
		    (core->ev_stats ? sizeof(*core->ev_stats) : 0)) +
	       (core->ev_hash ? (size_t)(core->ev_hash_mask + 1) *
				sizeof(*core->ev_hash) : 0);
}

/* The table of @n EVs and its index, zeroed; the caller fills them. */
static int mrc_ev_table_alloc(struct mrc_core *core, u32 n)
{
	u32 slots = mrc_ev_hash_slots(n);
	size_t size = n * sizeof(*core->evs);

	/* on failure mrc_ev_destroy() frees what was allocated */
	core->ev_hash = mrc_alloc(core, slots * sizeof(*core->ev_hash));
	if (!core->ev_hash)
		return -ENOMEM;
	memset(core->ev_hash, 0, slots * sizeof(*core->ev_hash));
	core->ev_hash_mask = slots - 1;
	core->evs = mrc_alloc(core, size);
	if (!core->evs)
		return -ENOMEM;
	memset(core->evs, 0, size);
	return 0;
}

/* EV @idx's plane as mrc_ev_assign_planes() gives it (or will again). */
static u8 mrc_ev_plane_of(const struct mrc_core *core, u32 idx)
{
	u32 p = mrc_peer_plane_of(core->common_mask, idx);

	return (u8)(p < MRC_WIRE_MAX_PLANES ? p : core->syn_plane);
}

/* An EV as mrc_ev_init() made it: nothing learned, nothing changed. */
static bool mrc_ev_pristine(const struct mrc_core *core, u32 idx)
{
	const struct mrc_ev *ev = &core->evs[idx];

	return ev->state == MRC_EV_GOOD && !ev->probing &&
	       !ev->losses_in_row && !ev->skip_left &&
	       ev->weight == MRC_EV_WEIGHT_FULL && !ev->credit &&
	       !ev->srtt_us && !ev->probe_id && !ev->acked_tx &&
	       !ev->next_probe_us && ev->plane == mrc_ev_plane_of(core, idx);
}

/*
 * mrc_ev_park - an established connection that has carried nothing, and
 * whose EVs are all as they were made, keeps only their seed (ev_seed),
 * or for explicit values those (2 bytes an EV), instead of the table and
 * its index (4.5 KiB for 128): most of an idle connection's memory.
 * mrc_ev_unpark() makes the same table again when traffic starts, or
 * anything else needs it. No-op if any condition fails or the
 * allocation does.
 */
void mrc_ev_park(struct mrc_core *core)
{
	u32 i;

	if (!core->evs || core->sq || core->rq[0] || core->ev_stats ||
	    core->evs_bad || core->evs_skip || core->train_left ||
	    core->seed_planes || core->state != MRC_CORE_ESTABLISHED)
		return;
	for (i = 0; i < core->nevs; i++)
		if (!mrc_ev_pristine(core, i))
			return;
	if (!core->ev_seed) {
		core->ev_parked = mrc_alloc(core, core->nevs *
						  sizeof(*core->ev_parked));
		if (!core->ev_parked)
			return;
		for (i = 0; i < core->nevs; i++)
			core->ev_parked[i] = core->evs[i].value;
	}
	core->evs_parked = true;
	mrc_free(core, core->evs);
	core->evs = NULL;
	mrc_free(core, core->ev_hash);
	core->ev_hash = NULL;
}

/*
 * The EV table back, as it was parked. Every core call that may read or
 * change an EV calls this first (core.c); the table-free ones (getters)
 * read ev_parked. Return: 0, or -ENOMEM (still parked: the call does
 * what it can without EVs, as under memory pressure).
 */
int mrc_ev_unpark(struct mrc_core *core)
{
	struct mrc_ev *ev;
	u32 i;

	if (!core->evs_parked)
		return 0;
	if (mrc_ev_table_alloc(core, core->nevs)) {
		mrc_free(core, core->evs);
		core->evs = NULL;
		mrc_free(core, core->ev_hash);
		core->ev_hash = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < core->nevs; i++) {
		ev = &core->evs[i];
		ev->value = core->ev_parked ? core->ev_parked[i] :
			    mrc_ev_seed_value(core->ev_seed, i);
		ev->state = MRC_EV_GOOD;
		ev->weight = MRC_EV_WEIGHT_FULL;
		ev->plane = mrc_ev_plane_of(core, i);
		mrc_ev_hash_add(core, i);
	}
	mrc_free(core, core->ev_parked);
	core->ev_parked = NULL;
	core->evs_parked = false;
	return 0;
}

int mrc_ev_init(struct mrc_core *core, const struct mrc_core_cfg *cfg)
{
	const u16 *values = NULL;
	u32 n = cfg->ev_count, i;

	if (!n)
		n = cfg->evs && cfg->nevs ? cfg->nevs : MRC_CORE_DEFAULT_EVS;
	if (cfg->evs && cfg->nevs && n > cfg->nevs)
		n = cfg->nevs;
	n = mrc_min(n, MRC_CORE_MAX_EVS);
	if (mrc_ev_table_alloc(core, n))
		return -ENOMEM;
	core->nevs = n;
	/* Every EV on the handshake's plane until the planes are known. */
	core->ev_stride = 1;
	core->paths[core->syn_plane].first_ev = 0;
	core->paths[core->syn_plane].good = (u16)n;
	if (cfg->evs && cfg->nevs)
		values = cfg->evs;
	else
		mrc_peer_seed_evs(core, cfg, n, &values);
	while (!values && !core->ev_seed)
		core->ev_seed = core->env.ops->random(core->env.ctx);
	for (i = 0; i < n; i++) {
		core->evs[i].value = values ? values[i] :
				     mrc_ev_seed_value(core->ev_seed, i);
		core->evs[i].state = MRC_EV_GOOD;
		core->evs[i].weight = MRC_EV_WEIGHT_FULL;
		core->evs[i].plane = (u8)core->syn_plane;
		mrc_ev_hash_add(core, i);
	}
	core->ev_min_active = cfg->ev_min_active ? cfg->ev_min_active : n / 4;
	core->ev_min_active = mrc_min(core->ev_min_active, n);
	return 0;
}

/*
 * EV i goes to the (i % n)-th of the n shared planes, so each plane has
 * as many EVs as the others and its EVs are every n-th from its first
 * (struct mrc_path: the pick within a plane walks only those).
 */
void mrc_ev_assign_planes(struct mrc_core *core)
{
	u8 ids[MRC_WIRE_MAX_PLANES];
	u32 p, n = 0, i;
	struct mrc_ev *ev;

	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++)
		if (core->common_mask & (1u << p))
			ids[n++] = (u8)p;
	if (!n)
		return;
	for (p = 0; p < core->plane_slots; p++)
		core->paths[p].good = 0;
	core->ev_stride = n;
	for (i = 0; i < core->nevs; i++) {
		ev = &core->evs[i];
		ev->plane = ids[i % n];
		if (i < n)
			core->paths[ev->plane].first_ev = (u16)i;
		if (ev->state == MRC_EV_GOOD)
			core->paths[ev->plane].good++;
	}
}

/* The EV of @value (a SACK's or NACK's echo): index or -1. */
int mrc_ev_find(const struct mrc_core *core, u32 value)
{
	u16 slot;

	if (!core->ev_hash)
		return -1;	/* parked: nothing was sent on any EV */
	slot = core->ev_hash[mrc_ev_hash_slot(core, value)];
	return slot ? (int)slot - 1 : -1;
}

/* An EV value for a control packet that needs no particular one. */
u16 mrc_ev_any_value(const struct mrc_core *core)
{
	return core->evs || core->evs_parked ? mrc_ev_value(core, 0) : 0;
}

static bool mrc_ev_on_usable(const struct mrc_core *core,
			     const struct mrc_ev *ev)
{
	return core->usable & (1u << ev->plane);
}

u32 mrc_ev_good_count(const struct mrc_core *core)
{
	u32 i, n = 0;

	if (core->evs_parked) {
		/* all GOOD, as made */
		for (i = 0; i < core->nevs; i++)
			n += !!(core->usable & (1u << mrc_ev_plane_of(core, i)));
		return n;
	}
	for (i = 0; i < core->nevs; i++)
		if (core->evs[i].state == MRC_EV_GOOD &&
		    mrc_ev_on_usable(core, &core->evs[i]))
			n++;
	return n;
}

void mrc_ev_set(struct mrc_core *core, u32 idx, u8 state)
{
	struct mrc_ev *ev = &core->evs[idx];

	if (ev->state == state)
		return;
	if (ev->state == MRC_EV_ASSUMED_BAD)
		core->evs_bad--;
	if (ev->state == MRC_EV_SKIP)
		core->evs_skip--;
	if (ev->state == MRC_EV_GOOD)
		core->paths[ev->plane].good--;
	if (state == MRC_EV_GOOD)
		core->paths[ev->plane].good++;
	ev->state = state;
	ev->probing = 0;
	if (state == MRC_EV_ASSUMED_BAD) {
		core->evs_bad++;
		ev->next_probe_us = mrc_now(core) + core->probe_interval_us;
	}
	if (state == MRC_EV_SKIP) {
		core->evs_skip++;
		ev->skip_left = (u16)mrc_max(mrc_ev_good_count(core), 1);
	}
	if (state == MRC_EV_GOOD)
		ev->losses_in_row = 0;
	MRC_STAT_INC(core, ev_state_changes);
	mrc_core_notify(core, MRC_NOTE_EV_STATE, idx);
}

/*
 * One pick of smooth weighted round-robin among the GOOD EVs of @plane
 * but @avoid_ev; -1 if none qualifies.
 */
static int mrc_ev_swrr(struct mrc_core *core, u32 plane, u32 avoid_ev)
{
	struct mrc_ev *ev;
	s32 total = 0;
	int best = -1;
	u32 i;

	for (i = core->paths[plane].first_ev; i < core->nevs;
	     i += core->ev_stride) {
		ev = &core->evs[i];
		if (ev->state != MRC_EV_GOOD || i == avoid_ev)
			continue;
		ev->credit += ev->weight;
		total += ev->weight;
		if (best < 0 || ev->credit > core->evs[best].credit)
			best = (int)i;
	}
	if (best >= 0)
		core->evs[best].credit -= (s16)total;
	return best;
}

/* No GOOD EV: use the others (not DENIED) of usable planes in turn. */
static int mrc_ev_fallback(struct mrc_core *core, u32 plane_mask)
{
	struct mrc_ev *ev;
	u32 k, i;

	for (k = 0; k < core->nevs; k++) {
		i = (core->ev_rr + k) % core->nevs;
		ev = &core->evs[i];
		if (ev->state != MRC_EV_DENIED &&
		    (plane_mask & core->usable & (1u << ev->plane))) {
			core->ev_rr = i + 1;
			return (int)i;
		}
	}
	return -1;
}

/* One DATA packet went out: SKIP EVs are a pick closer to GOOD. */
static void mrc_ev_rotate(struct mrc_core *core)
{
	struct mrc_ev *ev;
	u32 i;

	if (!core->evs_skip)
		return;
	for (i = 0; i < core->nevs; i++) {
		ev = &core->evs[i];
		if (ev->state == MRC_EV_SKIP && (!ev->skip_left ||
						 !--ev->skip_left))
			mrc_ev_set(core, i, MRC_EV_GOOD);
	}
}

/* An EV of @plane for DATA: a GOOD one, else any not DENIED; or -1. */
static int mrc_ev_pick_in(struct mrc_core *core, u32 plane, u32 avoid_ev)
{
	int idx = -1;

	if (core->paths[plane].good) {
		idx = mrc_ev_swrr(core, plane, avoid_ev);
		if (idx < 0)
			idx = mrc_ev_swrr(core, plane, MRC_EV_NONE);
	}
	if (idx < 0)
		idx = mrc_ev_fallback(core, 1u << plane);
	/* Every EV of the plane DENIED: any other not DENIED. */
	if (idx < 0)
		idx = mrc_ev_fallback(core, 0xffff);
	return idx;
}

/*
 * The EV for the next DATA packet (@len bytes): first the plane (path.c:
 * where it waits least, among the planes with room in their window,
 * any of them if @force), then an EV of it. A retransmission prefers
 * neither @avoid_ev nor plane @avoid_plane (its last route). Planes with
 * a GOOD EV come first; with none, the others take their turn, so a
 * connection whose every path failed recovers when one heals. Return:
 * index, or -1 (no room, or no EV at all).
 */
int mrc_ev_pick(struct mrc_core *core, u32 avoid_ev, u32 avoid_plane,
		u32 len, bool force)
{
	u32 mask = mrc_path_good_mask(core);
	int plane = -1, idx;

	if (!core->evs)
		return -1;	/* parked: mrc_ev_unpark() found no memory */
	if (!mask)
		mask = core->usable;
	if (avoid_plane < MRC_WIRE_MAX_PLANES)
		plane = mrc_path_pick(core, mask & ~(1u << avoid_plane), len,
				      force);
	if (plane < 0)
		plane = mrc_path_pick(core, mask, len, force);
	if (plane < 0)
		return -1;
	idx = mrc_ev_pick_in(core, (u32)plane, avoid_ev);
	if (idx >= 0)
		mrc_ev_rotate(core);
	return idx;
}

/* May EV @idx carry DATA now (GOOD, on a usable plane)? */
bool mrc_ev_usable(const struct mrc_core *core, u32 idx)
{
	const struct mrc_ev *ev = &core->evs[idx];

	return ev->state == MRC_EV_GOOD && mrc_ev_on_usable(core, ev);
}

/* An EV on @plane for a control packet; -1 if the plane has none. */
int mrc_ev_pick_plane(struct mrc_core *core, u32 plane)
{
	u32 k, i;

	if (!core->evs)
		return -1;	/* parked */
	for (k = 0; k < core->nevs; k++) {
		i = (core->ev_rr + k) % core->nevs;
		if (core->evs[i].plane == plane &&
		    core->evs[i].state == MRC_EV_GOOD) {
			core->ev_rr = i + 1;
			return (int)i;
		}
	}
	for (i = 0; i < core->nevs; i++)
		if (core->evs[i].plane == plane)
			return (int)i;
	return -1;
}

void mrc_ev_on_loss(struct mrc_core *core, u32 idx, bool timeout)
{
	struct mrc_ev *ev = &core->evs[idx];

	ev->weight = ev->weight >= 8 ? ev->weight / 4 : 1;
	if (!ev->losses_in_row)
		mrc_core_notify(core, MRC_NOTE_EV_SUSPECT, idx);
	if (ev->losses_in_row < 255)
		ev->losses_in_row++;
	if (ev->state != MRC_EV_GOOD && ev->state != MRC_EV_SKIP)
		return;
	if (!timeout && ev->losses_in_row < MRC_EV_BAD_LOSSES)
		return;
	/* ev_min_active: keep enough GOOD EVs whatever the losses say. */
	if (ev->state == MRC_EV_GOOD && mrc_ev_on_usable(core, ev) &&
	    mrc_ev_good_count(core) <= core->ev_min_active)
		return;
	mrc_ev_set(core, idx, MRC_EV_ASSUMED_BAD);
}

void mrc_ev_on_skip(struct mrc_core *core, u32 idx)
{
	struct mrc_ev *ev = &core->evs[idx];

	if (ev->state != MRC_EV_GOOD)
		return;
	if (mrc_ev_good_count(core) <= 1)
		return;
	mrc_ev_set(core, idx, MRC_EV_SKIP);
}

/*
 * Every RTT sample of an EV: RACK's bound on the shortest wait (ack.c). A
 * 0 us sample counts as 1 (0 is "none"): an average that falls to 0 is
 * "none" too.
 */
static void mrc_ev_rtt_floor(struct mrc_core *core, u32 rtt_us)
{
	rtt_us = mrc_max(rtt_us, 1);
	if (!core->rtt_floor_us || rtt_us < core->rtt_floor_us)
		core->rtt_floor_us = rtt_us;
}

void mrc_ev_on_ack(struct mrc_core *core, u32 idx, u32 rtt_us, bool ce)
{
	struct mrc_ev *ev = &core->evs[idx];
	u32 target = MRC_EV_WEIGHT_FULL;

	if (ev->losses_in_row) {
		ev->losses_in_row = 0;
		mrc_core_notify(core, MRC_NOTE_EV_SUSPECT, idx);
	}
	if (rtt_us) {
		mrc_ev_rtt_floor(core, rtt_us);
		ev->srtt_us = mrc_srtt_next(ev->srtt_us, rtt_us);
		mrc_path_rtt_sample(core, ev->plane, rtt_us);
	}
	/*
	 * A mark skips the EV for a rotation but leaves its weight: where
	 * every route of a plane is loaded alike (a 1:1 fabric's uplinks),
	 * marks fall on EVs at random, and halving the weight of each marked
	 * one turned that chance into a lasting share, piling the plane onto
	 * a few routes. In mrc-netsim's 16-host permutation without a fault
	 * (seed 1) the median spine queue's peak went from 51 KB to 193 KB
	 * and the worst to 523 KB; packets 40 us late on those routes filled
	 * the peer's window past a gap (1.45x ideal, 1.21x without halving).
	 * The delay a route's queue adds still lowers its weight below.
	 */
	if (ce) {
		if (core->ev_stats)
			core->ev_stats[idx].ce_marks++;
		mrc_ev_on_skip(core, idx);
		return;
	}
	if (core->min_rtt_us && ev->srtt_us > 2 * core->min_rtt_us)
		target = mrc_clamp(MRC_EV_WEIGHT_FULL * 2 * core->min_rtt_us /
				   ev->srtt_us, 1, MRC_EV_WEIGHT_FULL);
	if (ev->weight < (s32)target)
		ev->weight++;
	else if (ev->weight > (s32)target)
		ev->weight--;
}

/*
 * How long after a probe of @ev the next one goes out. A probe's reply
 * takes a round trip, and a loaded path's round trip (its queues) can be
 * many probe intervals: so never sooner than the RTO, which is the round
 * trip and its variation, and twice as long after each probe that went
 * unanswered (MRC_EV_PROBE_MAX_SHIFT times at most, and never longer than
 * rto_max: a path that heals is back within that). Probing at a fixed
 * interval shorter than the round trip never saw a reply to the latest
 * probe, kept every such EV ASSUMED_BAD and, with dozens of them per
 * connection, sent more probes than data (bench P7, issue 20).
 */
static u64 mrc_ev_probe_wait(const struct mrc_core *core,
			     const struct mrc_ev *ev)
{
	u32 base = mrc_max(core->probe_interval_us, core->rto_us);
	u32 shift = mrc_min(ev->probing ? ev->probing - 1u : 0,
			    MRC_EV_PROBE_MAX_SHIFT);

	return mrc_min64((u64)base << shift, mrc_max(base, core->rto_max_us));
}

/*
 * Probe EV @idx. Every probe until a reply carries the same id, so a late
 * reply to an earlier one is as good as a reply to the latest (its tsval
 * echo still gives its own round trip); a state change starts a new id.
 */
int mrc_ev_send_probe(struct mrc_core *core, u32 idx)
{
	struct mrc_pkt_probe *pr = &mrc_tx_pkt(core)->probe;
	struct mrc_ev *ev = &core->evs[idx];
	u64 now = mrc_now(core);

	if (!(core->common_mask & core->local_up & (1u << ev->plane))) {
		ev->next_probe_us = now + core->probe_interval_us;
		return -ENETDOWN;
	}
	mrc_pkt_init(core, MRC_PKT_PROBE);
	if (!ev->probing) {
		core->probe_seq++;
		ev->probe_id = core->probe_seq << 8 | idx;
	}
	if (ev->probing < 255)
		ev->probing++;
	ev->next_probe_us = now + mrc_ev_probe_wait(core, ev);
	pr->probe_id = ev->probe_id;
	pr->tsval = (u32)now;
	pr->plane = ev->plane;
	pr->plane_up = (u16)(core->local_up & core->our_mask);
	MRC_STAT_INC(core, probes_tx);
	mrc_snd_pkt(core, ev->plane, ev->value, NULL, 0, NULL);
	return 0;
}

static void mrc_ev_peer_planes(struct mrc_core *core, u16 plane_up)
{
	if (plane_up == core->peer_up)
		return;
	core->peer_up = plane_up;
	mrc_core_update_usable(core);
}

void mrc_ev_on_probe(struct mrc_core *core, const struct mrc_pkt *pkt,
		     u32 plane)
{
	struct mrc_pkt_probe *pr = &mrc_tx_pkt(core)->probe;

	mrc_ev_peer_planes(core, pkt->probe.plane_up);
	mrc_pkt_init(core, MRC_PKT_PROBE_REPLY);
	pr->probe_id = pkt->probe.probe_id;
	pr->tsval = pkt->probe.tsval;
	pr->plane = (u16)plane;
	pr->plane_up = (u16)(core->local_up & core->our_mask);
	mrc_snd_pkt(core, plane, pkt->ev, NULL, 0, NULL);
}

/*
 * Only a reply to the probes in flight on its EV counts (one id since the
 * last reply): any other says nothing about a route (and a forged one
 * would bring an ASSUMED_BAD EV back and plant its RTT). Return: drop
 * reason.
 */
int mrc_ev_on_probe_reply(struct mrc_core *core, const struct mrc_pkt *pkt,
			  u32 plane)
{
	u32 idx = pkt->probe.probe_id & 0xff;
	struct mrc_ev *ev;
	u32 rtt;

	if (idx >= core->nevs)
		return MRC_DROP_STATE;
	ev = &core->evs[idx];
	if (ev->value != pkt->ev || !ev->probing ||
	    ev->probe_id != pkt->probe.probe_id)
		return MRC_DROP_STATE;
	MRC_STAT_INC(core, probe_replies_rx);
	mrc_ev_peer_planes(core, pkt->probe.plane_up);
	ev->probing = 0;
	rtt = (u32)mrc_now(core) - pkt->probe.tsval;
	if (rtt < 60u * 1000 * 1000) {
		ev->srtt_us = mrc_srtt_next(ev->srtt_us, rtt);
		mrc_ev_rtt_floor(core, rtt);
	}
	if (ev->state == MRC_EV_ASSUMED_BAD) {
		ev->weight = MRC_EV_WEIGHT_FULL / 2;
		mrc_ev_set(core, idx, MRC_EV_GOOD);
		mrc_snd_push(core);
	}
	return MRC_DROP_NONE;
}

/* Earliest probe due on an ASSUMED_BAD EV of a plane we can send on. */
u64 mrc_ev_probe_deadline(const struct mrc_core *core)
{
	u32 live = core->common_mask & core->local_up, i;
	const struct mrc_ev *ev;
	u64 when = 0;

	if (!core->evs_bad)
		return 0;
	for (i = 0; i < core->nevs; i++) {
		ev = &core->evs[i];
		if (ev->state != MRC_EV_ASSUMED_BAD ||
		    !(live & (1u << ev->plane)))
			continue;
		if (!when || ev->next_probe_us < when)
			when = ev->next_probe_us;
	}
	return when;
}

void mrc_ev_on_timer(struct mrc_core *core, u64 now)
{
	u32 i;

	if (!core->evs_bad)
		return;
	for (i = 0; i < core->nevs; i++)
		if (core->evs[i].state == MRC_EV_ASSUMED_BAD &&
		    core->evs[i].next_probe_us <= now)
			mrc_ev_send_probe(core, i);
}

int mrc_core_ev_set_state(struct mrc_core *core, u32 idx, u8 state)
{
	if (idx >= core->nevs)
		return -ENOENT;
	if (state != MRC_EV_GOOD && state != MRC_EV_ASSUMED_BAD &&
	    state != MRC_EV_DENIED)
		return -EINVAL;
	if (mrc_ev_unpark(core))
		return -ENOMEM;
	mrc_ev_set(core, idx, state);
	if (state == MRC_EV_GOOD)
		mrc_snd_push(core);
	mrc_core_rearm(core);
	return 0;
}

int mrc_core_ev_probe(struct mrc_core *core, u32 idx)
{
	int err;

	if (idx >= core->nevs)
		return -ENOENT;
	if (!core->peer_token || core->state == MRC_CORE_ABORTED ||
	    core->state == MRC_CORE_SYN_SENT)
		return -ENOTCONN;
	if (mrc_ev_unpark(core))
		return -ENOMEM;
	err = mrc_ev_send_probe(core, idx);
	mrc_core_rearm(core);
	return err;
}

u32 mrc_core_ev_count(const struct mrc_core *core)
{
	return core->nevs;
}

int mrc_core_ev_get(const struct mrc_core *core, u32 idx,
		    struct mrc_core_ev_info *info)
{
	const struct mrc_ev *ev;

	if (idx >= core->nevs)
		return -ENOENT;
	memset(info, 0, sizeof(*info));
	if (core->evs_parked) {
		info->value = mrc_ev_value(core, idx);
		info->plane = mrc_ev_plane_of(core, idx);
		info->state = MRC_EV_GOOD;
		return 0;	/* nothing sent: every counter is 0 */
	}
	ev = &core->evs[idx];
	info->value = ev->value;
	info->plane = ev->plane;
	info->state = ev->state;
	info->probing = ev->probing;
	info->srtt_us = ev->srtt_us;
	if (!core->ev_stats)
		return 0;	/* nothing sent yet: every counter is 0 */
	info->tx_pkts = core->ev_stats[idx].tx_pkts;
	info->tx_bytes = core->ev_stats[idx].tx_bytes;
	info->retx_pkts = core->ev_stats[idx].retx_pkts;
	info->acked_pkts = core->ev_stats[idx].acked_pkts;
	info->losses = core->ev_stats[idx].losses;
	info->ce_marks = core->ev_stats[idx].ce_marks;
	info->nacks = core->ev_stats[idx].nacks;
	return 0;
}
