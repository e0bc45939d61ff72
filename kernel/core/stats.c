// SPDX-License-Identifier: GPL-2.0
/*
 * A connection's counters (struct mrc_core_stats), and how an idle one
 * keeps them small. The counters are u64 words, moved only through
 * mrc_stat_add() (MRC_STAT_ADD, MRC_STAT_INC): in core->stats while the
 * connection has traffic; once it is idle (mrc_stats_park(): established,
 * no ring), in at most MRC_STATS_PARKED (word, value) pairs inside the
 * core, which is what an idle connection needs (its handshake moved a
 * few counters, by little): 40 bytes instead of an allocation of 344.
 * An increment while parked takes the counters back out first; if there
 * is no memory for them it goes into the pairs, and is lost only if they
 * have no room for it (a failed allocation, an idle connection and a
 * ninth counter at once). Like every field, touched only inside the
 * mrc_core_*() calls the caller serialises.
 */
#include "core_private.h"

/* u64 words of the counters: struct mrc_core_stats up to the gauges. */
#define MRC_STATS_WORDS	MRC_STAT_WORD(srtt_us)
/* The largest value a pair holds. */
#define MRC_STATS_PARKED_MAX	0xffffffffu

static u64 *mrc_stats_words(struct mrc_core_stats *stats)
{
	return (u64 *)stats;
}

/* Add @n to parked word @word; false if the pairs have no room for it. */
static bool mrc_stats_add_parked(struct mrc_core *core, u32 word, u64 n)
{
	u32 i;

	for (i = 0; i < core->stats_nparked; i++) {
		if (core->stats_parked_word[i] != word)
			continue;
		if (n > MRC_STATS_PARKED_MAX - core->stats_parked_val[i])
			return false;
		core->stats_parked_val[i] += (u32)n;
		return true;
	}
	if (i == MRC_STATS_PARKED || n > MRC_STATS_PARKED_MAX)
		return false;
	core->stats_parked_word[i] = (u8)word;
	core->stats_parked_val[i] = (u32)n;
	core->stats_nparked++;
	return true;
}

/* The counters back from the pairs. Return: 0 or -ENOMEM (still parked). */
static int mrc_stats_unpark(struct mrc_core *core)
{
	u64 *w;
	u32 i;

	core->stats = mrc_alloc(core, MRC_STATS_WORDS * sizeof(u64));
	if (!core->stats)
		return -ENOMEM;
	w = mrc_stats_words(core->stats);
	memset(w, 0, MRC_STATS_WORDS * sizeof(u64));
	for (i = 0; i < core->stats_nparked; i++)
		w[core->stats_parked_word[i]] = core->stats_parked_val[i];
	core->stats_nparked = 0;
	return 0;
}

void mrc_stat_add_slow(struct mrc_core *core, u32 word, u64 n)
{
	if (!mrc_stats_unpark(core)) {
		mrc_stats_words(core->stats)[word] += n;
		return;
	}
	mrc_stats_add_parked(core, word, n);	/* false: the count is lost */
}

/*
 * mrc_stats_park - an idle connection (as mrc_ev_park() means it) whose
 * counters fit the pairs keeps them there and frees the rest. No-op
 * otherwise.
 */
void mrc_stats_park(struct mrc_core *core)
{
	const u64 *w;
	u32 i, n = 0;

	if (!core->stats || core->sq || core->rq[0] ||
	    core->state != MRC_CORE_ESTABLISHED)
		return;
	w = mrc_stats_words(core->stats);
	for (i = 0; i < MRC_STATS_WORDS; i++) {
		if (!w[i])
			continue;
		if (n == MRC_STATS_PARKED || w[i] > MRC_STATS_PARKED_MAX)
			return;
		n++;
	}
	for (i = 0; i < MRC_STATS_WORDS; i++) {
		if (!w[i])
			continue;
		core->stats_parked_word[core->stats_nparked] = (u8)i;
		core->stats_parked_val[core->stats_nparked++] = (u32)w[i];
	}
	mrc_free(core, core->stats);
	core->stats = NULL;
}

int mrc_stats_init(struct mrc_core *core)
{
	return mrc_stats_unpark(core);
}

void mrc_stats_destroy(struct mrc_core *core)
{
	mrc_free(core, core->stats);
	core->stats = NULL;
}

size_t mrc_stats_mem_bytes(const struct mrc_core *core)
{
	return core->stats ? MRC_STATS_WORDS * sizeof(u64) : 0;
}

void mrc_core_get_stats(const struct mrc_core *core,
			struct mrc_core_stats *stats)
{
	u64 *w = mrc_stats_words(stats);
	u32 i;

	memset(stats, 0, sizeof(*stats));
	if (core->stats)
		memcpy(w, core->stats, MRC_STATS_WORDS * sizeof(u64));
	for (i = 0; i < core->stats_nparked; i++)
		w[core->stats_parked_word[i]] = core->stats_parked_val[i];
	stats->srtt_us = core->srtt_us;
	stats->rttvar_us = core->rttvar_us;
	stats->rto_us = core->rto_us;
	/* No plane usable (a handshake, every plane down): the SYN's. */
	stats->cwnd = core->usable ? mrc_path_cwnd(core) :
		      core->paths[core->syn_plane].win.cwnd;
	stats->inflight_bytes = core->tx_list.bytes;
	stats->peer_rwnd = core->peer_rwnd;
	stats->evs_good = mrc_ev_good_count(core);
	stats->planes_usable = core->usable;
	stats->longest_stall_us = core->longest_stall_us;
	if (core->outstanding && core->state != MRC_CORE_ABORTED) {
		u64 stall = core->env.ops->now_us(core->env.ctx) -
			    core->last_progress_us;

		if (stall > stats->longest_stall_us)
			stats->longest_stall_us = stall;
	}
}
