// SPDX-License-Identifier: GPL-2.0
/*
 * Connection life of the protocol core: create/destroy, the handshake
 * (SYN, SYN_ACK, duplicate SYN), teardown (FIN both ways, RST), the state
 * machine, input dispatch by packet type and the one timer every other
 * deadline (RTO, delayed SACK, probes, user timeout) is multiplexed on.
 */
#include "core_private.h"

/*
 * The clock is read once per call into the core, at its first use, and
 * that time serves the whole call (as TCP's tcp_mstamp serves one
 * input): a call takes microseconds, and a clock read is not free (a
 * guest under TCG reads the HPET, an emulated device, for every one).
 * The hot entry points (input, timer, send, receive space) bracket
 * themselves with mrc_clock_enter()/mrc_clock_leave(); any other call
 * reads the clock each time it asks.
 */
u64 mrc_now(struct mrc_core *core)
{
	if (!core->clock_depth)
		return core->env.ops->now_us(core->env.ctx);
	if (!core->clock_read) {
		core->clock_us = core->env.ops->now_us(core->env.ctx);
		core->clock_read = true;
	}
	return core->clock_us;
}

void mrc_clock_enter(struct mrc_core *core)
{
	core->clock_depth++;
}

void mrc_clock_leave(struct mrc_core *core)
{
	if (!--core->clock_depth)
		core->clock_read = false;
}

void *mrc_alloc(struct mrc_core *core, size_t size)
{
	if (size > MRC_CORE_MAX_ALLOC)
		return NULL;
	return core->env.ops->alloc(core->env.ctx, size);
}

void mrc_free(struct mrc_core *core, void *ptr)
{
	if (ptr)
		core->env.ops->free(core->env.ctx, ptr);
}

/*
 * At the end of a call: an idle connection gives back what it does not
 * need (its EV table, its counters; ev.c and stats.c say when).
 */
static void mrc_core_park(struct mrc_core *core)
{
	mrc_ev_park(core);
	mrc_stats_park(core);
}

void mrc_core_notify(struct mrc_core *core, enum mrc_core_note note, u32 arg)
{
	core->env.ops->notify(core->env.ctx, note, arg);
}

void mrc_core_trace(struct mrc_core *core, enum mrc_core_trace point,
		    u32 psn, u32 plane, u32 ev, u32 len, u32 rtt, u32 arg,
		    bool ce)
{
	struct mrc_core_trace_info info;

	if (!core->env.ops->trace)
		return;
	info.psn = psn;
	info.plane = plane;
	info.ev = ev;
	info.len = len;
	info.rtt_us = rtt;
	info.arg = arg;
	info.ce = ce;
	core->env.ops->trace(core->env.ctx, point, &info);
}

#ifndef __KERNEL__
static __thread struct mrc_core_scratch mrc_core_thread_scratch;
#endif

static struct mrc_core_scratch *mrc_scratch(struct mrc_core *core)
{
	if (core->env.ops->scratch)
		return core->env.ops->scratch(core->env.ctx);
#ifndef __KERNEL__
	return &mrc_core_thread_scratch;
#else
	return NULL;	/* mrc.ko always gives one */
#endif
}

/*
 * The packet being built (mrc_pkt_init() to mrc_snd_pkt()): no other
 * packet is built in between, and nothing reads it after it is sent.
 */
struct mrc_pkt *mrc_tx_pkt(struct mrc_core *core)
{
	return &mrc_scratch(core)->pkt;
}

size_t mrc_core_size(void)
{
	return sizeof(struct mrc_core);
}

/* Start building a packet of @type to the peer in mrc_tx_pkt(). */
void mrc_pkt_init(struct mrc_core *core, u8 type)
{
	struct mrc_pkt *pkt = mrc_tx_pkt(core);

	memset(pkt, 0, sizeof(*pkt));
	pkt->type = type;
	pkt->flags = core->psn24 ? MRC_F_PSN24 : 0;
	/* A SYN's dst_token is the token it proposes (early data), or 0. */
	if (type == MRC_PKT_SYN)
		pkt->dst_token = core->early_on ? core->early_token : 0;
	else
		pkt->dst_token = core->peer_token;
	pkt->src_token = core->token;
}

/* Encode mrc_tx_pkt() and hand it to the environment. */
int mrc_snd_pkt(struct mrc_core *core, u32 plane, u32 ev,
		const void *payload, u32 len, void *ref)
{
	struct mrc_core_scratch *s = mrc_scratch(core);
	struct mrc_pkt *pkt = &s->pkt;
	u32 hlen;

	pkt->ev = ev;
	pkt->payload = payload;
	pkt->payload_len = len;
	hlen = mrc_wire_build(pkt, s->buf, sizeof(s->buf));
	if (!hlen)
		return -EINVAL;
	MRC_STAT_INC(core, tx_pkts);
	return core->env.ops->xmit(core->env.ctx, plane, ev, s->buf, hlen,
				   payload, len, ref);
}

/*
 * Planes that carry data: shared, up here and (as far as we know) there;
 * before the SYN_ACK (early data), the SYN's, the only peer address known.
 */
void mrc_core_update_usable(struct mrc_core *core)
{
	u32 base = core->common_mask & core->local_up & core->peer_mask;
	u32 usable = base & core->peer_up;
	u32 old = core->usable;
	u32 changed, p;

	/* A peer that reports no plane up is not believed: keep trying. */
	if (!usable)
		usable = base;
	core->usable = usable;
	changed = old ^ usable;
	if (!changed)
		return;
	mrc_path_weigh(core);
	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++)
		if (changed & (1u << p))
			mrc_core_notify(core, MRC_NOTE_PLANE_STATE, p);
	if (old & ~usable)
		mrc_snd_plane_down(core, old & ~usable);
}

/* The first usable plane from @from on, cyclically; @none if none is. */
static u32 mrc_core_usable_from(const struct mrc_core *core, u32 from,
				u32 none)
{
	u32 i, p;

	for (i = 0; i < MRC_WIRE_MAX_PLANES; i++) {
		p = (from + i) % MRC_WIRE_MAX_PLANES;
		if (core->usable & (1u << p))
			return p;
	}
	return none;
}

/* Plane for a reply to a packet that came in on @plane. */
u32 mrc_core_plane_for_reply(const struct mrc_core *core, u32 plane)
{
	if (plane < MRC_WIRE_MAX_PLANES && (core->usable & (1u << plane)))
		return plane;
	return mrc_core_usable_from(core, 0, plane);
}

bool mrc_core_can_send_data(const struct mrc_core *core)
{
	return core->state == MRC_CORE_ESTABLISHED ||
	       core->state == MRC_CORE_CLOSE_WAIT ||
	       (core->state == MRC_CORE_SYN_SENT && core->early_token);
}

bool mrc_core_can_rcv_data(const struct mrc_core *core)
{
	return core->state == MRC_CORE_ESTABLISHED ||
	       core->state == MRC_CORE_FIN_WAIT;
}

/* ACK progress: the stall clock restarts, the backoff is forgotten. */
void mrc_core_progress(struct mrc_core *core)
{
	u64 now = mrc_now(core);

	if (core->outstanding) {
		u64 stall = now - core->last_progress_us;

		if (stall > core->longest_stall_us)
			core->longest_stall_us = stall;
	}
	core->last_progress_us = now;
	core->backoff = 0;
}

/*
 * The peer answered what we sent without acknowledging it (a NACK): it is
 * there, and so is a path to it. The user timeout measures how long we
 * have had no such sign, so it starts again; the backoff stays.
 */
void mrc_core_peer_alive(struct mrc_core *core)
{
	core->last_progress_us = mrc_now(core);
}

static void mrc_core_set_state(struct mrc_core *core,
			       enum mrc_core_state state)
{
	core->state = state;
}

/* Fatal end: ABORTED, optional RST, MRC_NOTE_ERROR(@err) if non-zero. */
void mrc_core_fail(struct mrc_core *core, int err, bool send_rst)
{
	u32 plane;

	if (send_rst && core->peer_token && core->nevs &&
	    core->state != MRC_CORE_CLOSED && core->state != MRC_CORE_ABORTED) {
		plane = mrc_core_plane_for_reply(core, core->syn_plane);
		mrc_pkt_init(core, MRC_PKT_RST);
		mrc_tx_pkt(core)->rst_reason = err > 0 ? err : ECONNRESET;
		mrc_snd_pkt(core, plane, mrc_ev_any_value(core), NULL, 0, NULL);
	}
	mrc_core_set_state(core, MRC_CORE_ABORTED);
	core->ack_due_us = 0;
	core->timer_armed = 0;
	core->env.ops->timer_arm(core->env.ctx, 0);
	if (err)
		mrc_core_notify(core, MRC_NOTE_ERROR, err);
}

void mrc_core_check_done(struct mrc_core *core)
{
	if (core->state == MRC_CORE_DONE || core->state == MRC_CORE_ABORTED)
		return;
	if (core->fin_acked && core->peer_fin_noted) {
		mrc_core_set_state(core, MRC_CORE_DONE);
		mrc_core_notify(core, MRC_NOTE_DONE, 0);
	}
}

void mrc_core_fin_acked(struct mrc_core *core)
{
	if (!core->fin_sent || core->fin_acked)
		return;
	core->fin_acked = true;
	core->outstanding = false;
	mrc_core_progress(core);
	mrc_core_check_done(core);
}

static u32 mrc_cfg_or(u32 v, u32 def)
{
	return v ? v : def;
}

static u64 mrc_core_user_timeout_us(u32 ms)
{
	return (u64)mrc_cfg_or(ms, MRC_CORE_DEF_USER_TIMEOUT_MS) * 1000;
}

/* The tables by plane id (struct mrc_core says why their size). */
static int mrc_core_planes_make(struct mrc_core *core,
				const struct mrc_core_cfg *cfg)
{
	u32 mask = core->our_mask;

	if (cfg->has_peer)
		mask |= 1u << cfg->peer.id;
	core->plane_slots = (u32)fls64(mask);
	core->planes = mrc_alloc(core, 2 * core->plane_slots *
				 sizeof(*core->planes));
	core->paths = mrc_alloc(core, core->plane_slots *
				sizeof(*core->paths));
	if (!core->planes || !core->paths)
		return -ENOMEM;
	memset(core->planes, 0, 2 * core->plane_slots * sizeof(*core->planes));
	memset(core->paths, 0, core->plane_slots * sizeof(*core->paths));
	core->peer_planes = core->planes + core->plane_slots;
	return 0;
}

static void mrc_core_planes_free(struct mrc_core *core)
{
	mrc_free(core, core->planes);
	mrc_free(core, core->paths);
}

static size_t mrc_core_planes_mem_bytes(const struct mrc_core *core)
{
	return core->plane_slots *
	       (2 * sizeof(*core->planes) + sizeof(*core->paths));
}

static int mrc_core_apply_cfg(struct mrc_core *core, const struct mrc_core_cfg *cfg)
{
	u32 i, id;

	if (cfg->sock_type != MRC_SYN_STREAM &&
	    cfg->sock_type != MRC_SYN_SEQPACKET)
		return -EINVAL;
	if (!cfg->nplanes || cfg->nplanes > MRC_WIRE_MAX_PLANES)
		return -EINVAL;
	core->sock_type = cfg->sock_type;
	core->local_port = cfg->local_port;
	core->peer_port = cfg->peer_port;
	core->cfg_mss = mrc_cfg_or(cfg->mss, MRC_CORE_DEF_MSS);
	if (core->cfg_mss < MRC_CORE_MIN_MSS || core->cfg_mss > 0xffff)
		return -EINVAL;
	core->mss = core->cfg_mss;
	core->sndbuf = mrc_cfg_or(cfg->sndbuf, MRC_CORE_DEF_BUF);
	core->rcvbuf = mrc_cfg_or(cfg->rcvbuf, MRC_CORE_DEF_BUF);
	core->user_timeout_us = mrc_core_user_timeout_us(cfg->user_timeout_ms);
	core->rto_min_us = mrc_cfg_or(cfg->rto_min_us, MRC_CORE_DEF_RTO_MIN_US);
	core->rto_max_us = mrc_cfg_or(cfg->rto_max_us, MRC_CORE_DEF_RTO_MAX_US);
	if (core->rto_max_us < core->rto_min_us)
		core->rto_max_us = core->rto_min_us;
	core->rto_init_us = mrc_cfg_or(cfg->rto_init_us,
				       MRC_CORE_DEF_RTO_INIT_US);
	/* rto_max bounds the backoff; the estimate may exceed it (ack.c). */
	core->rto_us = mrc_clamp(core->rto_init_us, core->rto_min_us,
				 MRC_CORE_RTO_CEIL_US);
	core->ack_delay_us = mrc_cfg_or(cfg->ack_delay_us,
					MRC_CORE_DEF_ACK_DELAY_US);
	core->ack_every = mrc_cfg_or(cfg->ack_every, MRC_CORE_DEF_ACK_EVERY);
	core->train_pkts = mrc_clamp(cfg->train_pkts, 1, MRC_CORE_MAX_TRAIN);
	core->probe_interval_us = mrc_cfg_or(cfg->probe_interval_us,
					     MRC_CORE_DEF_PROBE_US);
	core->psn24 = cfg->psn24;
	core->early_bytes = cfg->early_data;
	for (i = 0; i < cfg->nplanes; i++) {
		id = cfg->planes[i].id;
		if (id >= MRC_WIRE_MAX_PLANES || (core->our_mask & (1u << id)))
			return -EINVAL;
		core->our_mask |= 1u << id;
	}
	if (cfg->has_peer && cfg->peer.id >= MRC_WIRE_MAX_PLANES)
		return -EINVAL;
	if (mrc_core_planes_make(core, cfg))
		return -ENOMEM;
	for (i = 0; i < cfg->nplanes; i++)
		core->planes[cfg->planes[i].id] = cfg->planes[i];
	for (i = 0; i < core->plane_slots; i++)
		mrc_core_plane_weight(core, i, cfg->plane_weight[i]);
	core->local_up = cfg->plane_up & core->our_mask;
	core->peer_up = 0xffff;
	if (cfg->has_peer) {
		id = cfg->peer.id;
		core->peer_planes[id] = cfg->peer;
		core->peer_mask = 1u << id;
		core->syn_plane = id;
	}
	core->peer_rwnd = core->mss;
	core->peer_psn_win = 0x7fffffff;
	core->app_free = core->rcvbuf;
	core->last_adv_rwnd = core->rcvbuf;
	return 0;
}

static u32 mrc_core_random_token(struct mrc_core *core)
{
	u32 t;

	do {
		t = core->env.ops->random(core->env.ctx);
	} while (!t);
	return t;
}

/* Give struct mrc_core itself back to whichever op gave it. */
static void mrc_core_free(struct mrc_core *core)
{
	const struct mrc_core_env env = core->env;

	if (env.ops->core_free)
		env.ops->core_free(env.ctx, core);
	else
		env.ops->free(env.ctx, core);
}

/*
 * The environment's random() is called first for the token (again while it
 * returns 0), then once for the ISN, then for the EV values' seed (again
 * while it returns 0; none if the values are given): tests rely on it.
 */
struct mrc_core *mrc_core_create(const struct mrc_core_cfg *cfg,
				 const struct mrc_core_env *env)
{
	struct mrc_core *core;

	if (!cfg || !env || !env->ops)
		return NULL;
	core = env->ops->core_alloc ? env->ops->core_alloc(env->ctx) :
	       env->ops->alloc(env->ctx, sizeof(*core));
	if (!core)
		return NULL;
	memset(core, 0, sizeof(*core));
	core->env = *env;
	if (mrc_core_apply_cfg(core, cfg) || mrc_stats_init(core))
		goto err_free;
	core->token = cfg->token ? cfg->token : mrc_core_random_token(core);
	core->isn = core->env.ops->random(core->env.ctx) &
		    mrc_psn_mask(core->psn24);
	core->snd_una = core->isn;
	core->snd_nxt = core->isn;
	core->snd_end = core->isn;
	core->fin_psn = core->isn;
	if (mrc_ev_init(core, cfg))
		goto err_evs;
	if (mrc_snd_init(core))
		goto err_send;	/* it may have allocated part */
	if (mrc_rcv_init(core))
		goto err_send;
	mrc_nscc_init(&core->cc, &cfg->cc, core->mss);
	mrc_path_init(core, 0);
	core->state = MRC_CORE_CLOSED;
	return core;

err_send:
	mrc_snd_destroy(core);
err_evs:
	mrc_ev_destroy(core);
err_free:
	mrc_stats_destroy(core);
	mrc_core_planes_free(core);
	mrc_core_free(core);
	return NULL;
}

void mrc_core_destroy(struct mrc_core *core)
{
	if (!core)
		return;
	core->env.ops->timer_arm(core->env.ctx, 0);
	mrc_rcv_destroy(core);
	mrc_snd_destroy(core);
	mrc_ev_destroy(core);
	mrc_stats_destroy(core);
	mrc_core_planes_free(core);
	mrc_core_free(core);
}

/* When the SYN is sent again: backed off, but never beyond the RTO cap. */
static u64 mrc_core_syn_due(const struct mrc_core *core)
{
	u64 wait = (u64)core->rto_us << core->backoff;

	if (wait > core->rto_max_us)
		wait = core->rto_max_us;
	return core->last_tx_us + wait;
}

/* SYN or SYN_ACK with our planes, on the handshake plane. */
static void mrc_core_send_syn(struct mrc_core *core, u8 type)
{
	struct mrc_pkt_syn *syn;
	u32 p, n = 0;

	mrc_pkt_init(core, type);
	syn = &mrc_tx_pkt(core)->syn;
	syn->isn = core->isn;
	syn->rwnd = mrc_rcv_rwnd(core);
	syn->src_port = core->local_port;
	syn->dst_port = core->peer_port;
	syn->mss = (u16)core->cfg_mss;
	syn->sock_type = core->sock_type;
	syn->ev_count = (u16)core->nevs;
	for (p = 0; p < MRC_WIRE_MAX_PLANES; p++)
		if (core->our_mask & (1u << p))
			syn->planes[n++] = core->planes[p];
	syn->nplanes = (u8)n;
	core->last_tx_us = mrc_now(core);
	mrc_snd_pkt(core, core->syn_plane,
		    core->evs[mrc_peer_syn_ev(core)].value, NULL, 0, NULL);
}

/* Learn the peer from a SYN or SYN_ACK. Return: 0 or -EINVAL. */
static int mrc_core_learn_peer(struct mrc_core *core, const struct mrc_pkt *p)
{
	const struct mrc_pkt_syn *syn = &p->syn;
	u32 i, mask = 0;

	if (syn->sock_type != core->sock_type)
		return -EINVAL;
	for (i = 0; i < syn->nplanes; i++)
		mask |= 1u << syn->planes[i].id;
	if (!(mask & core->our_mask))
		return -EINVAL;
	for (i = 0; i < syn->nplanes; i++)
		if (syn->planes[i].id < core->plane_slots)
			core->peer_planes[syn->planes[i].id] = syn->planes[i];
	core->peer_mask = mask;
	core->common_mask = mask & core->our_mask;
	core->peer_token = p->src_token;
	core->peer_isn = syn->isn;
	core->rcv_nxt = syn->isn;
	core->rcv_dlv = syn->isn;
	core->peer_fin_psn = syn->isn;
	core->peer_rwnd = syn->rwnd;
	core->peer_mss = syn->mss;
	if (syn->mss < core->mss)
		core->mss = syn->mss;
	core->cc.mss = core->mss;
	if (!core->peer_port)
		core->peer_port = syn->src_port;
	mrc_ev_assign_planes(core);
	mrc_path_init(core, core->common_mask);
	mrc_core_update_usable(core);
	mrc_peer_seed_apply(core);
	core->peer_learned = true;
	return 0;
}

/*
 * Ready the first flight. Until the SYN_ACK names the peer's planes, we
 * know its address on the SYN's plane only: DATA goes there, within that
 * plane's initial window and the early-data budget (the peer's window
 * for now). The EVs take the planes they will most likely have, so that
 * the SYN_ACK seldom moves one that is in flight: a peer known from
 * earlier connections (the seed) has its planes as then, and its bad EVs
 * are avoided from the first packet; an unknown one is taken to have
 * ours, as the hosts of one fabric do.
 */
static void mrc_core_early_start(struct mrc_core *core)
{
	u32 syn_bit = core->peer_mask & core->our_mask;

	if (!core->early_bytes || !syn_bit)
		return;
	core->early_token = mrc_core_random_token(core);
	core->early_on = true;
	core->peer_token = core->early_token;
	core->peer_rwnd = core->early_bytes;
	if (core->seed_planes & syn_bit) {
		core->common_mask = core->seed_planes & core->our_mask;
		mrc_ev_assign_planes(core);
		/* ev_min_active counts GOOD EVs on all the planes, as then */
		core->usable = core->common_mask & core->local_up;
		mrc_peer_seed_apply(core);
	} else {
		core->common_mask = core->our_mask;
		mrc_ev_assign_planes(core);
	}
	/* the connection's whole initial window, on the one plane it has */
	mrc_path_init(core, syn_bit);
	mrc_core_update_usable(core);
}

int mrc_core_connect(struct mrc_core *core)
{
	if (core->state != MRC_CORE_CLOSED || !core->peer_mask)
		return -EINVAL;
	mrc_core_early_start(core);
	mrc_core_set_state(core, MRC_CORE_SYN_SENT);
	core->outstanding = true;
	core->last_progress_us = mrc_now(core);
	mrc_core_send_syn(core, MRC_PKT_SYN);
	mrc_core_rearm(core);
	return 0;
}

int mrc_core_accept(struct mrc_core *core, const struct mrc_pkt *syn,
		    u32 plane)
{
	if (core->state != MRC_CORE_CLOSED || syn->type != MRC_PKT_SYN ||
	    !syn->src_token)
		return -EINVAL;
	if (plane >= MRC_WIRE_MAX_PLANES || !(core->our_mask & (1u << plane)))
		return -EINVAL;
	/* The client chose the PSN size; both directions use it. */
	if (syn->flags & MRC_F_PSN24) {
		core->psn24 = true;
		core->isn &= mrc_psn_mask(true);
		core->snd_una = core->isn;
		core->snd_nxt = core->isn;
		core->snd_end = core->isn;
		core->fin_psn = core->isn;
	} else {
		core->psn24 = false;
	}
	if (mrc_core_learn_peer(core, syn))
		return -EINVAL;
	core->syn_plane = plane;
	core->peer_port = syn->syn.src_port;
	mrc_core_set_state(core, MRC_CORE_ESTABLISHED);
	core->last_progress_us = mrc_now(core);
	mrc_core_send_syn(core, MRC_PKT_SYN_ACK);
	mrc_core_notify(core, MRC_NOTE_ESTABLISHED, 0);
	mrc_core_rearm(core);
	mrc_core_park(core);
	return 0;
}

static int mrc_core_on_syn_ack(struct mrc_core *core, const struct mrc_pkt *p)
{
	/* Early DATA went to a token the server did not take, or to none. */
	bool resend = core->early_token &&
		      (core->early_refused || p->src_token != core->early_token);

	if (core->state != MRC_CORE_SYN_SENT)
		return MRC_DROP_STATE;
	if (!!(p->flags & MRC_F_PSN24) != core->psn24)
		return MRC_DROP_MALFORMED;
	if (mrc_core_learn_peer(core, p)) {
		mrc_core_fail(core, ECONNREFUSED, false);
		return MRC_DROP_NONE;
	}
	core->early_token = 0;
	core->early_on = false;
	core->early_end = core->snd_nxt;
	/* not lost on their EVs: no loss is charged (plane_down's rule) */
	if (resend)
		mrc_snd_plane_down(core, 0xffff);
	mrc_core_set_state(core, MRC_CORE_ESTABLISHED);
	core->outstanding = core->tx_list.head || core->lost_list.head;
	mrc_core_progress(core);
	mrc_core_notify(core, MRC_NOTE_ESTABLISHED, 0);
	if (core->closing)
		mrc_core_set_state(core, MRC_CORE_FIN_WAIT);
	mrc_snd_push(core);
	return MRC_DROP_NONE;
}

static int mrc_core_on_rst(struct mrc_core *core, const struct mrc_pkt *p)
{
	if (core->state == MRC_CORE_ABORTED || core->state == MRC_CORE_CLOSED)
		return MRC_DROP_STATE;
	/*
	 * Early DATA found no connection there: it beat the SYN, which may
	 * still make one (a refused SYN's RST lacks the flag). It is sent
	 * again after the SYN_ACK, or at once if that is already here.
	 */
	if (p->flags & MRC_F_EARLY) {
		if (core->state == MRC_CORE_SYN_SENT)
			core->early_refused = true;
		else
			mrc_snd_early_refused(core, p->ev);
		MRC_STAT_INC(core, early_refused);
		return MRC_DROP_STATE;
	}
	mrc_core_fail(core, core->state == MRC_CORE_SYN_SENT ?
			    ECONNREFUSED : ECONNRESET, false);
	return MRC_DROP_NONE;
}

/* Check a packet's tokens, state and plane before it may touch anything. */
static int mrc_core_admit(struct mrc_core *core, const struct mrc_pkt *pkt,
			  u32 plane)
{
	if (core->state == MRC_CORE_CLOSED || core->state == MRC_CORE_ABORTED)
		return MRC_DROP_STATE;
	if (mrc_ev_unpark(core))
		return MRC_DROP_NO_BUFFER;
	if (core->state == MRC_CORE_SYN_SENT) {
		if (pkt->dst_token != core->token)
			return MRC_DROP_TOKEN;
		if (pkt->type == MRC_PKT_SYN_ACK || pkt->type == MRC_PKT_RST)
			return MRC_DROP_NONE;
		return MRC_DROP_STATE;
	}
	if (pkt->src_token != core->peer_token)
		return MRC_DROP_TOKEN;
	/* a SYN's dst_token is a proposal, whether or not we took it */
	if (pkt->type == MRC_PKT_SYN)
		return MRC_DROP_NONE;
	if (pkt->dst_token != core->token)
		return MRC_DROP_TOKEN;
	if (plane >= MRC_WIRE_MAX_PLANES ||
	    !(core->common_mask & (1u << plane)))
		return MRC_DROP_PLANE;
	return MRC_DROP_NONE;
}

/*
 * SYN_ACK for a repeated SYN. The plane of the last answer may carry the
 * client's SYNs in but not our answers out (a TX path dead one way), so
 * each answer takes the next plane both ends can use.
 */
static void mrc_core_answer_syn_again(struct mrc_core *core)
{
	u32 last = core->syn_plane;

	core->syn_plane = mrc_core_usable_from(core, last + 1, last);
	mrc_core_send_syn(core, MRC_PKT_SYN_ACK);
}

static int mrc_core_dispatch(struct mrc_core *core, const struct mrc_pkt *pkt,
			     u32 plane, bool ce)
{
	switch (pkt->type) {
	case MRC_PKT_DATA:
		return mrc_rcv_data(core, pkt, plane, ce);
	case MRC_PKT_SACK:
		return mrc_ack_sack(core, pkt, plane);
	case MRC_PKT_NACK:
		return mrc_ack_nack(core, pkt, plane);
	case MRC_PKT_PROBE:
		mrc_ev_on_probe(core, pkt, plane);
		return MRC_DROP_NONE;
	case MRC_PKT_PROBE_REPLY:
		return mrc_ev_on_probe_reply(core, pkt, plane);
	case MRC_PKT_SYN:
		/* Our SYN_ACK was lost: the client asks again. */
		if (core->state == MRC_CORE_SYN_SENT)
			return MRC_DROP_STATE;
		mrc_core_answer_syn_again(core);
		return MRC_DROP_NONE;
	case MRC_PKT_SYN_ACK:
		return mrc_core_on_syn_ack(core, pkt);
	case MRC_PKT_FIN:
		return mrc_rcv_fin(core, pkt, plane);
	case MRC_PKT_RST:
		return mrc_core_on_rst(core, pkt);
	}
	return MRC_DROP_TYPE;
}

/* Count what mrc_core_input*() made of a packet; rearm the timer. */
static int mrc_core_input_done(struct mrc_core *core, int reason)
{
	if (reason != MRC_DROP_NONE) {
		if (reason > 0 && reason < MRC_DROP_MAX)
			mrc_stat_add(core, MRC_STAT_WORD(drops) + reason, 1);
	} else {
		MRC_STAT_INC(core, rx_pkts);
	}
	if (core->state != MRC_CORE_ABORTED && !core->in_batch)
		mrc_core_rearm(core);
	return reason;
}

void mrc_core_input_begin(struct mrc_core *core)
{
	mrc_clock_enter(core);
	core->in_batch = true;
}

void mrc_core_input_end(struct mrc_core *core)
{
	bool sack = core->batch_sack, rack = core->batch_rack;

	core->in_batch = false;
	core->batch_sack = false;
	core->batch_rack = false;
	if (core->state != MRC_CORE_ABORTED && core->state != MRC_CORE_CLOSED) {
		if (sack)
			mrc_rcv_send_sack(core, core->batch_sack_plane, false);
		if (rack) {
			mrc_ack_detect_losses(core);
			mrc_snd_push(core);
		}
		mrc_core_rearm(core);
		mrc_core_park(core);
	}
	mrc_clock_leave(core);
}

int mrc_core_input(struct mrc_core *core, const struct mrc_pkt *pkt,
		   u32 plane, bool ce)
{
	int reason;

	mrc_clock_enter(core);
	reason = mrc_core_admit(core, pkt, plane);
	if (reason == MRC_DROP_NONE)
		reason = mrc_core_dispatch(core, pkt, plane, ce);
	reason = mrc_core_input_done(core, reason);
	if (!core->in_batch)
		mrc_core_park(core);
	mrc_clock_leave(core);
	return reason;
}

int mrc_core_input_trimmed(struct mrc_core *core, const struct mrc_pkt *pkt,
			   u32 plane)
{
	int reason;

	mrc_clock_enter(core);
	reason = mrc_core_admit(core, pkt, plane);
	if (reason == MRC_DROP_NONE)
		reason = pkt->type == MRC_PKT_DATA ?
			 mrc_rcv_trimmed(core, pkt, plane) : MRC_DROP_TYPE;
	reason = mrc_core_input_done(core, reason);
	if (!core->in_batch)
		mrc_core_park(core);
	mrc_clock_leave(core);
	return reason;
}

static void mrc_core_timer_run(struct mrc_core *core)
{
	u64 now = mrc_now(core);

	core->timer_armed = 0;
	if (core->state == MRC_CORE_CLOSED || core->state == MRC_CORE_ABORTED)
		return;
	if (core->outstanding &&
	    now - core->last_progress_us >= core->user_timeout_us) {
		mrc_core_fail(core, ETIMEDOUT,
			      core->state != MRC_CORE_SYN_SENT);
		return;
	}
	if (core->state == MRC_CORE_SYN_SENT) {
		if (now >= mrc_core_syn_due(core)) {
			if (core->backoff < MRC_CORE_MAX_BACKOFF)
				core->backoff++;
			if (core->backoff >= MRC_CORE_EARLY_SYNS)
				core->early_on = false;
			/* Two entropy values: a dead spine or link on the one
			 * path a lone SYN hashes onto does not cost a backoff.
			 */
			mrc_core_send_syn(core, MRC_PKT_SYN);
			if (core->nevs > 1)
				mrc_core_send_syn(core, MRC_PKT_SYN);
		}
		mrc_core_rearm(core);
		return;
	}
	if (core->alloc_retry && now >= core->alloc_retry_us) {
		core->alloc_retry = false;
		mrc_snd_writable(core);
	}
	mrc_rcv_on_timer(core, now);
	mrc_ev_on_timer(core, now);
	mrc_snd_on_timer(core, now);
	if (core->state != MRC_CORE_ABORTED)
		mrc_core_rearm(core);
}

void mrc_core_tx_ready(struct mrc_core *core)
{
	if (mrc_ev_unpark(core))
		return;	/* parked: nothing was waiting to go */
	mrc_clock_enter(core);
	mrc_snd_push(core);
	if (core->state != MRC_CORE_ABORTED)
		mrc_core_rearm(core);
	mrc_clock_leave(core);
}

void mrc_core_on_timer(struct mrc_core *core)
{
	mrc_clock_enter(core);
	if (mrc_ev_unpark(core)) {
		/* no memory for the EVs now: try again a little later */
		core->alloc_retry = true;
		core->alloc_retry_us = mrc_now(core) + MRC_CORE_ALLOC_RETRY_US;
		core->timer_armed = 0;
		mrc_core_rearm(core);
	} else {
		mrc_core_timer_run(core);
		mrc_core_park(core);
	}
	mrc_clock_leave(core);
}

static u64 mrc_min_deadline(u64 a, u64 b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return a < b ? a : b;
}

/* Arm the one timer at the earliest of every pending deadline. */
void mrc_core_rearm(struct mrc_core *core)
{
	u64 when = 0;

	if (core->state == MRC_CORE_CLOSED || core->state == MRC_CORE_ABORTED)
		return;
	if (core->state == MRC_CORE_SYN_SENT) {
		when = mrc_core_syn_due(core);
	} else {
		when = mrc_snd_deadline(core);
		when = mrc_min_deadline(when, core->ack_due_us);
		when = mrc_min_deadline(when, mrc_ev_probe_deadline(core));
		if (core->alloc_retry)
			when = mrc_min_deadline(when, core->alloc_retry_us);
	}
	if (core->outstanding)
		when = mrc_min_deadline(when, core->last_progress_us +
					core->user_timeout_us);
	/*
	 * A later deadline leaves the timer as it is: it fires early, finds
	 * nothing due and arms the right time then (mrc_core_on_timer()).
	 * The deadline moves on with nearly every packet (the RTO of the
	 * oldest, the delayed SACK); re-arming a kernel hrtimer each time
	 * costs more than the odd early expiry.
	 */
	if (when == core->timer_armed ||
	    (when && core->timer_armed && when > core->timer_armed))
		return;
	core->timer_armed = when;
	core->env.ops->timer_arm(core->env.ctx, when);
}

void mrc_core_close(struct mrc_core *core)
{
	switch (core->state) {
	case MRC_CORE_ESTABLISHED:
		mrc_core_set_state(core, MRC_CORE_FIN_WAIT);
		break;
	case MRC_CORE_CLOSE_WAIT:
		mrc_core_set_state(core, MRC_CORE_LAST_ACK);
		break;
	case MRC_CORE_SYN_SENT:
		/* Early data queued: closed once the handshake is done. */
		if (core->early_token && core->snd_end != core->snd_una)
			break;
		fallthrough;
	case MRC_CORE_CLOSED:
		mrc_core_fail(core, 0, false);
		return;
	default:
		return;
	}
	core->closing = true;
	core->fin_psn = core->snd_end;
	/* parked and no memory: the FIN first goes at its retransmission */
	mrc_ev_unpark(core);
	mrc_snd_maybe_fin(core);
	mrc_core_rearm(core);
}

void mrc_core_abort(struct mrc_core *core, int err)
{
	if (core->state == MRC_CORE_ABORTED)
		return;
	mrc_core_fail(core, err, core->state != MRC_CORE_SYN_SENT);
}

void mrc_core_set_user_timeout(struct mrc_core *core, u32 ms)
{
	core->user_timeout_us = mrc_core_user_timeout_us(ms);
	mrc_core_rearm(core);	/* a shorter timeout may be due sooner */
}

void mrc_core_plane_update(struct mrc_core *core, u32 plane, bool up)
{
	u32 bit;

	if (plane >= MRC_WIRE_MAX_PLANES || !(core->our_mask & (1u << plane)))
		return;
	bit = 1u << plane;
	if (up == !!(core->local_up & bit))
		return;
	if (up)
		core->local_up |= bit;
	else
		core->local_up &= ~bit;
	if (core->state == MRC_CORE_CLOSED || core->state == MRC_CORE_ABORTED ||
	    core->state == MRC_CORE_SYN_SENT)
		return;
	mrc_core_update_usable(core);
	/* parked: nothing in flight; the peer hears of the plane later */
	if (mrc_ev_unpark(core))
		return;
	/* Tell the peer at once that it may use this plane again. */
	if (up && (core->usable & bit) && core->state != MRC_CORE_DONE)
		mrc_rcv_send_sack(core, plane, false);
	mrc_snd_push(core);
	mrc_core_rearm(core);
}

enum mrc_core_state mrc_core_state(const struct mrc_core *core)
{
	return core->state;
}

u32 mrc_core_token(const struct mrc_core *core)
{
	return core->token;
}

u32 mrc_core_peer_token(const struct mrc_core *core)
{
	return core->peer_token;
}

const struct mrc_core_plane *mrc_core_peer_plane(const struct mrc_core *core,
						 u32 plane)
{
	if (plane >= core->plane_slots || !(core->peer_mask & (1u << plane)))
		return NULL;
	return &core->peer_planes[plane];
}

u32 mrc_core_peer_service_port(const struct mrc_core *core)
{
	return core->peer_port;
}

size_t mrc_core_mem_bytes(const struct mrc_core *core)
{
	return sizeof(*core) + mrc_core_planes_mem_bytes(core) +
	       mrc_stats_mem_bytes(core) + mrc_ev_mem_bytes(core) +
	       mrc_snd_mem_bytes(core) + mrc_rcv_mem_bytes(core);
}

