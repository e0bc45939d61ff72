// SPDX-License-Identifier: GPL-2.0
/*
 * What earlier connections learned of the paths to a peer, handed to the
 * next connection there (struct mrc_core_peer_paths, mrc_core.h): the EV
 * values, and which were bad. A new connection takes the values, sends
 * its SYN on a path not known bad, and once the handshake names the
 * planes both ends share (the same as when the states were learned)
 * starts with those EVs ASSUMED_BAD: no DATA goes into a spine or link
 * that an earlier connection found dead, and the usual probes bring an
 * EV back when its path heals. The environment keeps the table and its
 * lock; this file only reads it at create and writes it when told.
 */
#include "core_private.h"

static bool mrc_peer_bit(const u64 *map, u32 i)
{
	return map[i / 64] >> (i % 64) & 1;
}

/*
 * EV @idx's plane under plane mask @planes, as mrc_ev_assign_planes()
 * gives it; MRC_WIRE_MAX_PLANES for an empty mask.
 */
u32 mrc_peer_plane_of(u32 planes, u32 idx)
{
	u32 n = 0, p, k;

	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++)
		n += planes >> p & 1;
	if (!n)
		return MRC_WIRE_MAX_PLANES;
	k = idx % n;
	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++)
		if ((planes >> p & 1) && !k--)
			return p;
	return MRC_WIRE_MAX_PLANES;
}

/*
 * mrc_peer_seed_evs - the EV values of a core being created with @n EVs:
 * cfg->peer_paths's, when it has @n and cfg names no values of its own;
 * the states it gives wait for mrc_peer_seed_apply().
 * Return: @n with *@evs set, or 0 (no seed).
 */
u32 mrc_peer_seed_evs(struct mrc_core *core, const struct mrc_core_cfg *cfg,
		      u32 n, const u16 **evs)
{
	const struct mrc_core_peer_paths *pp = cfg->peer_paths;

	if (!pp || (cfg->evs && cfg->nevs) || !pp->nevs || pp->nevs != n)
		return 0;
	memcpy(core->seed_bad, pp->bad, sizeof(core->seed_bad));
	core->seed_planes = pp->planes;
	core->ev_seed = pp->ev_seed;
	*evs = pp->ev_seed ? NULL : pp->evs;
	return n;
}

/*
 * The handshake told the shared planes (mrc_core_learn_peer()): if they
 * are the seed's, its bad EVs start ASSUMED_BAD, as many as leave
 * ev_min_active GOOD. The seed is spent either way.
 */
void mrc_peer_seed_apply(struct mrc_core *core)
{
	u32 i;

	if (core->seed_planes && core->seed_planes == core->common_mask)
		for (i = 0; i < core->nevs; i++)
			if (mrc_peer_bit(core->seed_bad, i) &&
			    core->evs[i].state == MRC_EV_GOOD &&
			    mrc_ev_good_count(core) > core->ev_min_active)
				mrc_ev_set(core, i, MRC_EV_ASSUMED_BAD);
	core->seed_planes = 0;
}

/*
 * The EV of the next SYN or SYN_ACK: the next in turn that is GOOD and,
 * by the seed, not bad on the SYN's plane; the next in turn if none is.
 */
u32 mrc_peer_syn_ev(struct mrc_core *core)
{
	u32 k, i;

	for (k = 0; k < core->nevs; k++) {
		i = (core->ev_rr + k) % core->nevs;
		if (core->evs[i].state != MRC_EV_GOOD)
			continue;
		if (core->seed_planes && mrc_peer_bit(core->seed_bad, i) &&
		    mrc_peer_plane_of(core->seed_planes, i) == core->syn_plane)
			continue;
		core->ev_rr = i + 1;
		return i;
	}
	return core->ev_rr++ % core->nevs;
}

/*
 * What the next connection should avoid: an EV ASSUMED_BAD, or one whose
 * last packet was lost. A dead path's EV seldom gets there (its weight
 * falls to a quarter at the first loss, so it is rarely picked again
 * for a second), but its last word is a loss; one congestion drop marks
 * a live EV too, and the next connection's probe clears it.
 */
static bool mrc_peer_ev_bad(const struct mrc_ev *ev)
{
	return ev->state == MRC_EV_ASSUMED_BAD ||
	       (ev->state == MRC_EV_GOOD && ev->losses_in_row);
}

/*
 * Is @pp @core's own report (same EV count, planes and values)? The seed
 * stands for the values; without one, two values stand for all: another
 * connection's set matches them by chance once in 2^32.
 */
static bool mrc_peer_paths_ours(const struct mrc_core *core,
				const struct mrc_core_peer_paths *pp, u32 idx)
{
	if (pp->nevs != core->nevs || pp->planes != core->common_mask ||
	    pp->ev_seed != core->ev_seed)
		return false;
	return core->ev_seed || (pp->evs[0] == core->evs[0].value &&
				 pp->evs[idx] == core->evs[idx].value);
}

bool mrc_core_peer_paths_bad(const struct mrc_core_peer_paths *pp, u32 idx)
{
	return idx < pp->nevs && mrc_peer_bit(pp->bad, idx);
}

u32 mrc_core_peer_paths_plane(const struct mrc_core_peer_paths *pp, u32 idx)
{
	return mrc_peer_plane_of(pp->planes, idx);
}

void mrc_core_peer_paths_learn_ev(const struct mrc_core *core,
				  struct mrc_core_peer_paths *pp, u32 idx)
{
	u64 bit = 1ull << (idx % 64);

	if (idx >= core->nevs || !core->peer_learned || !core->evs)
		return;	/* parked: nothing changed since it was learned */
	if (mrc_peer_paths_ours(core, pp, idx) &&
	    !(pp->bad[idx / 64] & bit) == !mrc_peer_ev_bad(&core->evs[idx]))
		return;
	mrc_core_peer_paths_learn(core, pp);
}

void mrc_core_peer_paths_learn(const struct mrc_core *core,
			       struct mrc_core_peer_paths *pp)
{
	u32 i;

	/*
	 * Before the handshake the EVs have no planes yet, or (early data)
	 * only the ones we took the peer to have.
	 */
	if (!core->peer_learned || (!core->evs && !core->evs_parked))
		return;
	pp->nevs = core->nevs;
	pp->planes = core->common_mask;
	pp->ev_seed = core->ev_seed;
	memset(pp->bad, 0, sizeof(pp->bad));
	for (i = 0; i < core->nevs; i++)
		pp->evs[i] = mrc_ev_value(core, i);
	if (core->evs_parked)
		return;	/* every EV as it was made, none bad */
	for (i = 0; i < core->nevs; i++) {
		if (mrc_peer_ev_bad(&core->evs[i]))
			pp->bad[i / 64] |= 1ull << (i % 64);
	}
}
