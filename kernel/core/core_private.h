/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private declarations shared by the files of the protocol core: the
 * connection object, segments, the EV table, NSCC state and the functions
 * each file offers the others. Nothing outside kernel/core/ includes this
 * but the host unit tests (NSCC).
 */
#ifndef __MRC_CORE_PRIVATE_H
#define __MRC_CORE_PRIVATE_H

#include "mrc_core.h"
#include <linux/mrc_netlink.h>	/* enum mrc_ev_state */

#ifdef __cplusplus
extern "C" {
#endif

/* Constants of the core (see the file that uses each for the why). */
#define MRC_CORE_DEF_MSS		1400
#define MRC_CORE_MIN_MSS		64
#define MRC_CORE_DEF_BUF		(1024 * 1024)
#define MRC_CORE_DEF_USER_TIMEOUT_MS	30000
#define MRC_CORE_DEF_RTO_MIN_US		10000
#define MRC_CORE_DEF_RTO_MAX_US		2000000
#define MRC_CORE_DEF_RTO_INIT_US	100000
/* The RTO estimate's own ceiling: rto_max bounds the backoff, not this. */
#define MRC_CORE_RTO_CEIL_US		60000000
#define MRC_CORE_DEF_ACK_DELAY_US	200
#define MRC_CORE_DEF_ACK_EVERY		4
#define MRC_CORE_DEF_PROBE_US		50000
/* SYNs (first and one retry) that propose a token, for early data */
#define MRC_CORE_EARLY_SYNS		2
#define MRC_CORE_MAX_BACKOFF		16
/* Send ring: at most this many segments queued (pointer ring <= 64 KiB). */
#define MRC_CORE_MAX_SEGS		8192
/* Receive window in PSNs (a ring of MRC_RQ_CHUNKS chunks of slots). */
#define MRC_CORE_MAX_RCV_WIN		8192
#define MRC_CORE_MIN_RCV_WIN		256
/* Slots both rings start with (one SACK bitmap); they double on demand. */
#define MRC_CORE_MIN_RING		64
/* A PSN is lost once a packet sent this many transmissions later is acked. */
#define MRC_CORE_REORDER_PKTS		3
/*
 * The least slack a reordered packet gets on top of its round trip before
 * it is called lost (ack.c, mrc_ack_wait_for(): the RTT variation when
 * that is more). Deep queues vary the round trip by far more than a
 * quarter of it: with the variation as the slack, mrc-netsim's
 * all-to-all-loaded resent 272 packets where none was lost, with a fixed
 * 20 us 722.
 */
#define MRC_CORE_REORDER_MARGIN_US	20
#define MRC_CORE_REORDER_MAX_STEPS	16
/* Losses in a row (no ACK between) on one EV that make it ASSUMED_BAD. */
#define MRC_EV_BAD_LOSSES		2
/* Full EV weight; ECN halves it, a loss quarters it, clean ACKs add one. */
#define MRC_EV_WEIGHT_FULL		16
/* Doublings of the wait after unanswered probes of one EV (ev.c). */
#define MRC_EV_PROBE_MAX_SHIFT		4
/* Retry period after an allocation failure refused a send. */
#define MRC_CORE_ALLOC_RETRY_US		1000
/* Nonzero counters an idle connection keeps in the core (stats.c). */
#define MRC_STATS_PARKED		8
/* "No EV to avoid" for mrc_ev_pick(). */
#define MRC_EV_NONE			0xffffffffu

static inline u32 mrc_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

static inline u32 mrc_max(u32 a, u32 b)
{
	return a > b ? a : b;
}

static inline u32 mrc_clamp(u32 v, u32 lo, u32 hi)
{
	return mrc_min(mrc_max(v, lo), hi);
}

/* A smoothed RTT after @sample: 7/8 of the old, or the sample if none. */
static inline u32 mrc_srtt_next(u32 srtt, u32 sample)
{
	return srtt ? (7 * srtt + sample) / 8 : sample;
}

static inline u64 mrc_min64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 mrc_max64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/* Segment states. */
enum mrc_seg_state {
	MRC_SEG_QUEUED,		/* never sent */
	MRC_SEG_INFLIGHT,	/* on core->tx_list */
	MRC_SEG_LOST,		/* on core->lost_list, waiting to be resent */
};

/*
 * One DATA segment of our send queue. Its payload follows the struct
 * (@ref NULL, room for @cap bytes), or lies in a buffer of the
 * environment whose handle is @ref (mrc_core_send_buf(); the segment
 * holds a buf_get() on it).
 */
struct mrc_seg {
	struct mrc_seg	*next;		/* tx_list or lost_list */
	struct mrc_seg	*prev;
	u64		sent_us;
	u32		tx_seq;		/* transmission order, for RACK */
	u32		psn;
	u32		len;
	u16		ev_idx;		/* EV of the last transmission */
	u8		plane;
	u8		flags;		/* MRC_F_SOM / MRC_F_EOM */
	u8		state;		/* enum mrc_seg_state */
	u8		tx_count;
	u32		cap;
	u8		*data;
	void		*ref;
};

/*
 * One slot of the receive ring: the segment held at its PSN for in-order
 * delivery, in the slot itself so that a received packet costs the core
 * no allocation. @ptr is the environment's packet (MRC_RSLOT_REF, from
 * rx_take()) or a copy of the payload (MRC_RSLOT_COPY; NULL for an empty
 * payload). An empty slot is all zero.
 */
enum mrc_rslot_state {
	MRC_RSLOT_EMPTY,
	MRC_RSLOT_COPY,
	MRC_RSLOT_REF,
};

struct mrc_rslot {
	void	*ptr;
	u32	len;
	u8	flags;		/* MRC_F_SOM / MRC_F_EOM */
	u8	state;		/* enum mrc_rslot_state */
};

/*
 * The receive ring is cut in chunks of at most MRC_CORE_MAX_ALLOC bytes:
 * a window of MRC_CORE_MAX_RCV_WIN slots takes MRC_RQ_CHUNKS of them.
 */
#define MRC_RQ_CHUNK_SLOTS	(MRC_CORE_MAX_ALLOC / sizeof(struct mrc_rslot))
#define MRC_RQ_CHUNKS		\
	((MRC_CORE_MAX_RCV_WIN + MRC_RQ_CHUNK_SLOTS - 1) / MRC_RQ_CHUNK_SLOTS)

struct mrc_seg_list {
	struct mrc_seg	*head;		/* oldest */
	struct mrc_seg	*tail;
	u32		bytes;
	u32		count;
};

/*
 * What the sender knows of one EV: 32 bytes, so that the 128 EVs of an
 * idle connection take one 4 KiB allocation; the counters, which only
 * sent segments move, are apart (struct mrc_ev_stats).
 */
struct mrc_ev {
	u16	value;
	u8	plane;
	u8	state;			/* enum mrc_ev_state */
	u8	probing;		/* probes since the last reply */
	u8	losses_in_row;
	u16	skip_left;		/* SKIP: picks until GOOD again */
	/* 1 .. MRC_EV_WEIGHT_FULL; credit stays within +- a plane's total */
	s16	weight;
	s16	credit;			/* smooth weighted round-robin */
	u32	srtt_us;
	u32	probe_id;		/* of every probe since the last reply */
	u32	acked_tx;		/* 1 + the latest tx_seq acked (0: none) */
	u64	next_probe_us;
};

/* One EV's counters (mrc_core_ev_get()); see mrc_core.ev_stats. */
struct mrc_ev_stats {
	u64	tx_pkts;
	u64	tx_bytes;
	u64	retx_pkts;
	u64	acked_pkts;
	u64	losses;
	u64	ce_marks;
	u64	nacks;
};

/* NSCC's parameters, one set a connection (cc_nscc.c). */
struct mrc_nscc {
	u32	mss;
	u32	base_rtt_us;		/* 0: learn each window's minimum */
	u32	target_delay_us;
	u32	max_cwnd;
	u32	eta;			/* proportional gain, ppm of acked */
	u32	fi;			/* fair increase, bytes per RTT x ... */
	u32	fi_scale;
	u32	gamma;			/* MD gain, ppm */
	u32	max_md_jump;		/* ppm of cwnd per decrease */
};

/* One window NSCC drives: a plane's (path.c). */
struct mrc_nscc_win {
	u32	cwnd;			/* bytes */
	u32	min_rtt_us;
	u32	acked_since;		/* bytes acked since the last update */
	u64	last_md_us;
};

enum mrc_nscc_quadrant {
	MRC_NSCC_PROPORTIONAL,	/* no ECN, low delay */
	MRC_NSCC_FAIR,		/* no ECN, high delay */
	MRC_NSCC_DECREASE,	/* ECN, high delay */
	MRC_NSCC_HOLD,		/* ECN, low delay */
};

void mrc_nscc_init(struct mrc_nscc *cc, const struct mrc_core_cc *cfg,
		   u32 mss);
void mrc_nscc_win_init(const struct mrc_nscc *cc, struct mrc_nscc_win *w,
		       u32 share);
/* One ACK: @acked new bytes, @rtt_us sample (0: none), @ecn echoed CE. */
enum mrc_nscc_quadrant mrc_nscc_on_ack(const struct mrc_nscc *cc,
				       struct mrc_nscc_win *w, u64 now_us,
				       u32 acked, u32 rtt_us, u32 srtt_us,
				       bool ecn);
void mrc_nscc_on_timeout(const struct mrc_nscc *cc, struct mrc_nscc_win *w);
void mrc_nscc_on_overflow(const struct mrc_nscc *cc, struct mrc_nscc_win *w,
			  u64 now_us, u32 srtt_us);

/* The packets of MSS size over which mrc_path_over_share() counts shares. */
#define MRC_PATH_SHARE_SPAN	256u

/*
 * One plane as a path of the connection (path.c): its own window and
 * what is in flight on it, its smoothed RTT, and where its EVs are.
 * EV i is on the (i % ev_stride)-th common plane (mrc_ev_assign_planes()),
 * so a plane's EVs are first_ev, first_ev + ev_stride, ...
 */
struct mrc_path {
	struct mrc_nscc_win	win;
	u32			inflight;	/* bytes on tx_list sent here */
	u32			srtt_us;	/* of every EV of the plane */
	u32			acked;		/* one SACK's bytes (ack.c) */
	u32			sent;		/* bytes, decaying (path.c) */
	u16			good;		/* EVs in state GOOD */
	u16			first_ev;
	u16			weight;		/* the administrator's (path.c) */
};

struct mrc_core {
	struct mrc_core_env	env;
	enum mrc_core_state	state;
	u8			sock_type;
	bool			psn24;
	bool			closing;	/* close() called */
	bool			fin_sent;
	bool			fin_acked;
	bool			peer_fin;	/* FIN received */
	bool			peer_fin_noted;
	bool			want_writable;
	u32			want_space;	/* bytes the writer waits for */
	bool			alloc_retry;
	bool			ack_pending_now;
	u32			token;
	u32			peer_token;
	/*
	 * Data in the first flight (client): the token our SYN proposed for
	 * the server's end, which DATA sent before the SYN_ACK carries as
	 * its dst_token (0: no early data); whether SYNs still propose it
	 * and DATA may still go out (a SYN retried twice stops: an older
	 * peer drops a SYN with a dst_token); the bytes such DATA may have
	 * in flight; set when the server answered one with an RST (it had
	 * no connection for the token yet: it arrived before the SYN); the
	 * PSN after the last segment first sent that way.
	 */
	u32			early_token;
	bool			early_on;
	u32			early_bytes;
	bool			early_refused;
	u32			early_end;	/* snd_nxt at the SYN_ACK */
	bool			peer_learned;	/* its SYN or SYN_ACK came */
	u16			local_port;
	u16			peer_port;
	u32			mss;		/* our segment size */
	u32			cfg_mss;
	u32			sndbuf;
	u32			rcvbuf;
	u32			ack_delay_us;
	u32			ack_every;
	u32			probe_interval_us;
	u32			train_pkts;
	u64			user_timeout_us;
	u32			rto_min_us;
	u32			rto_max_us;
	u32			rto_init_us;

	/*
	 * Planes: ids are bits. The tables by plane id hold plane_slots
	 * entries, ids 0 .. plane_slots - 1: the highest id of ours (or of
	 * the handshake plane the caller named) and below, fixed at create,
	 * so that a host of 4 planes pays for 4, not MRC_WIRE_MAX_PLANES
	 * (1,536 bytes of an idle connection's 2,600 went to the 16 slots).
	 * Paths exist only for planes of ours, and a peer's plane past the
	 * last slot could carry nothing of ours. One allocation holds
	 * planes then peer_planes (the addresses), another paths; both are
	 * made by mrc_core_create() and freed by mrc_core_destroy().
	 */
	struct mrc_core_plane	*planes;	/* ours, by id */
	struct mrc_core_plane	*peer_planes;	/* the peer's, by id */
	u32			plane_slots;
	u32			our_mask;
	u32			peer_mask;
	u32			common_mask;
	u32			local_up;
	u32			peer_up;
	u32			usable;		/* planes carrying data now */
	u32			syn_plane;	/* plane of handshake packets */
	struct mrc_path		*paths;		/* by id, plane_slots */
	u16			path_wmax;	/* mrc_path_weigh() */
	u32			path_wsum;	/* mrc_path_weigh() */
	u32			path_sent;	/* paths[].sent together */
	u32			ev_stride;	/* see struct mrc_path */

	/* EVs */
	struct mrc_ev		*evs;
	u32			nevs;
	u32			ev_rr;		/* fallback round-robin cursor */
	/*
	 * Every EV's counters, by index: NULL until the first segment is
	 * queued, then allocated with the send ring (mrc_snd_reserve()) and
	 * freed with it, so an idle connection does not carry them. Every
	 * counter but nacks moves only for a segment; nacks checks.
	 */
	struct mrc_ev_stats	*ev_stats;
	/*
	 * EVs by value: open addressing, EV index + 1 in each used slot
	 * (0: empty), at least twice as many slots as EVs, an allocation
	 * of its own (with the EVs, 128 of them would need 4.5 KiB, which
	 * an allocator rounds to 8); filled at create (EV values never
	 * change).
	 */
	u16			*ev_hash;
	u32			ev_hash_mask;
	/*
	 * EV values: EV i's is mrc_ev_seed_value(ev_seed, i), or for a
	 * connection given explicit values (cfg->evs, or a peer table of
	 * such), ev_seed is 0 and each EV has its own.
	 */
	u32			ev_seed;
	/*
	 * Parked (mrc_ev_park()): evs and ev_hash are NULL, and ev_parked
	 * holds the values if ev_seed cannot make them again; else NULL.
	 */
	bool			evs_parked;
	u32			ev_min_active;
	u16			*ev_parked;
	/*
	 * The states cfg->peer_paths gave (peer.c): bit i of seed_bad, EV i
	 * was bad on the planes seed_planes (0: no seed), applied once the
	 * handshake tells the planes both ends share, then cleared.
	 */
	u64			seed_bad[MRC_CORE_MAX_EVS / 64];
	u32			seed_planes;
	u32			evs_bad;	/* ASSUMED_BAD count */
	u32			evs_skip;	/* SKIP count */
	u32			train_ev;	/* EV of the current train */
	u32			train_left;	/* packets it may still carry */
	u32			probe_seq;

	/*
	 * The rings, sq and rq, indexed by PSN & mask: sq holds segment
	 * pointers, rq the held segments themselves (struct mrc_rslot, in
	 * chunks: mrc_rcv_slot()). Neither exists before it is needed (sq:
	 * the first segment queued, with the lost map and ev_stats, and rq
	 * too, so that a sender at its memory cap can still take an answer;
	 * else rq: the first DATA to hold), so an idle connection holds
	 * none. Each starts
	 * with MRC_CORE_MIN_RING slots and doubles in the call that needs
	 * the room (sq: queueing a segment, mrc_snd_reserve();
	 * rq: DATA inside the window but past the ring, mrc_rcv_grow()) up
	 * to sq_cap / rq_cap, the size fixed at create from sndbuf /
	 * rcvbuf. Windows and send space are reckoned against the caps,
	 * never against the current size. A grow moves every live PSN to
	 * psn & new_mask: the live span (snd_una..snd_end, rcv_dlv..rcv_dlv
	 * + rq_mask) is no wider than the old ring, so no two collide. A
	 * failed grow is "no room now": send space waits for the allocation
	 * retry; the DATA is dropped with a NO_BUFFER NACK.
	 * Rings never shrink. Lifetime and locking: created by the first
	 * segment, replaced only by a grow, freed in
	 * mrc_core_destroy(); like every field, touched only inside the
	 * mrc_core_*() calls the caller serialises (mrc.ko: the connection
	 * lock), and nothing keeps a pointer into a ring across a grow (the
	 * send segments themselves never move; a receive slot does).
	 */

	/* send side */
	struct mrc_seg		**sq;		/* ring by PSN */
	u32			sq_mask;	/* current slots - 1 */
	u32			sq_cap;		/* slots it may grow to */
	u32			isn;
	u32			snd_una;	/* oldest unacked PSN */
	u32			snd_nxt;	/* next PSN sent for the first time */
	u32			snd_end;	/* next PSN to assign */
	u32			fin_psn;
	u32			queued_bytes;	/* unacked + unsent */
	u32			seg_mem;	/* env->alloc() bytes of segments */
	struct mrc_seg_list	tx_list;	/* in flight, send order */
	struct mrc_seg_list	lost_list;	/* waiting for retransmission */
	/*
	 * bit psn & (sq_cap - 1): that PSN is on lost_list (send.c); sq_cap
	 * bits, allocated with sq, so that the connection itself fits a
	 * 4 KiB allocation (a kernel kmalloc class; MRC_CORE_MAX_SEGS bits
	 * inside it took it past one)
	 */
	u64			*lost_map;
	u32			tx_seq;
	u32			rack_hi;	/* highest tx_seq acked */
	u64			rack_due_us;	/* reorder timer, 0: off */
	/*
	 * RACK's scan resumes (ack.c): when rack_scan_ok, every segment of
	 * tx_list before rack_resume (NULL: all of it) was examined by an
	 * earlier scan and none is due before rack_due_us. send.c keeps
	 * rack_resume on tx_list as segments come and go.
	 */
	struct mrc_seg		*rack_resume;
	bool			rack_valid;	/* rack_hi is set */
	bool			rack_scan_ok;
	u32			reo_steps;	/* reordering window widenings */
	u32			rtt_floor_us;	/* lowest RTT sample of any EV */
	u64			reo_step_us;	/* when reo_steps last changed */
	u32			peer_rwnd;
	/* rcv_bytes of the SACK peer_rwnd came from (ack.c) */
	u32			rwnd_rcv_bytes;
	u16			rwnd_ooo;	/* the SACK's ooo_count */
	bool			rwnd_from_sack;
	bool			una_refused;	/* NO_BUFFER NACK for snd_una */
	u32			peer_psn_win;
	u32			peer_mss;
	u32			srtt_us;
	u32			rttvar_us;
	u32			rto_us;
	u32			min_rtt_us;
	u32			backoff;
	u64			last_tx_us;	/* handshake/FIN/persist send */
	u64			last_progress_us;
	u64			longest_stall_us;	/* that has ended */
	bool			tlp_sent;	/* tail probe since snd_una moved */
	bool			tail_ack_now;	/* the newest DATA asked for a SACK */
	bool			ack_now_out;	/* ... and none came since one did */
	bool			outstanding;	/* stall clock running */
	struct mrc_nscc		cc;

	/* receive side */
	struct mrc_rslot	*rq[MRC_RQ_CHUNKS];	/* ring by PSN */
	u32			rq_mask;	/* current slots - 1 */
	u32			rq_cap;		/* slots it may grow to: window */
	u32			peer_isn;
	u32			rcv_nxt;	/* cum_psn: next PSN expected */
	u32			rcv_dlv;	/* next PSN to deliver */
	u32			peer_fin_psn;
	u32			held_bytes;
	u32			held_pkts;
	u32			held_ref_bytes;	/* of those, in rx_take() handles */
	u32			app_free;
	u32			last_adv_rwnd;
	u32			rcv_in_order;	/* rcv_bytes */
	u32			unacked_pkts;	/* DATA since the last SACK */
	u8			ce_pending;
	u64			ack_due_us;	/* 0: no delayed SACK */
	/* the packet a delayed SACK answers */
	u32			last_psn;
	u32			last_ev;
	u32			last_tsval;
	u32			last_plane;
	bool			last_ce;
	/* an input batch: mrc_core_input_begin() to mrc_core_input_end() */
	bool			in_batch;
	bool			batch_sack;	/* a SACK due at its end */
	bool			batch_rack;	/* loss detection due there */
	u32			batch_sack_plane;

	/* the clock of the current call into the core: mrc_now() */
	u64			clock_us;
	u8			clock_depth;	/* mrc_clock_enter() nesting */
	bool			clock_read;	/* clock_us is this call's */

	/* timer */
	u64			timer_armed;
	u64			alloc_retry_us;

	/*
	 * The counters (stats.c): words of struct mrc_core_stats up to its
	 * gauges, allocated while the connection has traffic, else (NULL)
	 * the stats_nparked nonzero ones as (word, value) pairs.
	 */
	struct mrc_core_stats	*stats;
	u32			stats_parked_val[MRC_STATS_PARKED];
	u8			stats_parked_word[MRC_STATS_PARKED];
	u8			stats_nparked;
};

/* core.c */
u64 mrc_now(struct mrc_core *core);
void mrc_clock_enter(struct mrc_core *core);
void mrc_clock_leave(struct mrc_core *core);
void *mrc_alloc(struct mrc_core *core, size_t size);
void mrc_free(struct mrc_core *core, void *ptr);

/*
 * PSN arithmetic in the connection's PSN space. Inline: every packet sent,
 * acknowledged or received takes several (a call each was 1.2% of a P10
 * guest's samples in perf).
 */
static inline u32 mrc_psn_add(const struct mrc_core *core, u32 psn, u32 n)
{
	return (psn + n) & mrc_psn_mask(core->psn24);
}

static inline s32 mrc_diff(const struct mrc_core *core, u32 a, u32 b)
{
	return mrc_psn_diff(a, b, core->psn24);
}

struct mrc_pkt *mrc_tx_pkt(struct mrc_core *core);
void mrc_pkt_init(struct mrc_core *core, u8 type);
int mrc_snd_pkt(struct mrc_core *core, u32 plane, u32 ev,
		const void *payload, u32 len, void *ref);
void mrc_core_notify(struct mrc_core *core, enum mrc_core_note note,
		     u32 arg);
void mrc_core_trace(struct mrc_core *core, enum mrc_core_trace point,
		    u32 psn, u32 plane, u32 ev, u32 len, u32 rtt, u32 arg,
		    bool ce);
void mrc_core_fail(struct mrc_core *core, int err, bool send_rst);
void mrc_core_rearm(struct mrc_core *core);
void mrc_core_progress(struct mrc_core *core);
void mrc_core_peer_alive(struct mrc_core *core);
bool mrc_core_can_send_data(const struct mrc_core *core);
bool mrc_core_can_rcv_data(const struct mrc_core *core);
void mrc_core_check_done(struct mrc_core *core);
void mrc_core_fin_acked(struct mrc_core *core);
u32 mrc_core_plane_for_reply(const struct mrc_core *core, u32 plane);
void mrc_core_update_usable(struct mrc_core *core);

/* send.c */
int mrc_snd_init(struct mrc_core *core);
void mrc_snd_destroy(struct mrc_core *core);
void mrc_snd_push(struct mrc_core *core);
u32 mrc_snd_space(const struct mrc_core *core);
void mrc_snd_mark_lost(struct mrc_core *core, struct mrc_seg *seg,
		       u32 why);
void mrc_snd_ack_seg(struct mrc_core *core, struct mrc_seg *seg);
void mrc_snd_plane_down(struct mrc_core *core, u32 plane_mask);
void mrc_snd_early_refused(struct mrc_core *core, u32 value);
u64 mrc_snd_deadline(const struct mrc_core *core);
void mrc_snd_on_timer(struct mrc_core *core, u64 now);
void mrc_snd_maybe_fin(struct mrc_core *core);
struct mrc_seg *mrc_snd_seg(const struct mrc_core *core, u32 psn);
void mrc_list_del(struct mrc_seg_list *l, struct mrc_seg *seg);
void mrc_snd_tx_del(struct mrc_core *core, struct mrc_seg *seg);
void mrc_snd_writable(struct mrc_core *core);
void mrc_seg_free(struct mrc_core *core, struct mrc_seg *seg);
size_t mrc_snd_mem_bytes(const struct mrc_core *core);

/* recv.c */
int mrc_rcv_init(struct mrc_core *core);
void mrc_rcv_destroy(struct mrc_core *core);
int mrc_rcv_data(struct mrc_core *core, const struct mrc_pkt *pkt,
		 u32 plane, bool ce);
int mrc_rcv_fin(struct mrc_core *core, const struct mrc_pkt *pkt,
		u32 plane);
int mrc_rcv_trimmed(struct mrc_core *core, const struct mrc_pkt *pkt,
		    u32 plane);
void mrc_rcv_deliver(struct mrc_core *core);
void mrc_rcv_send_sack(struct mrc_core *core, u32 plane, bool fin_ack);
u32 mrc_rcv_rwnd(const struct mrc_core *core);
void mrc_rcv_on_timer(struct mrc_core *core, u64 now);
size_t mrc_rcv_mem_bytes(const struct mrc_core *core);
int mrc_rcv_ring_make(struct mrc_core *core);

/* ack.c */
int mrc_ack_sack(struct mrc_core *core, const struct mrc_pkt *pkt,
		 u32 plane);
int mrc_ack_nack(struct mrc_core *core, const struct mrc_pkt *pkt,
		 u32 plane);
void mrc_ack_rtt_sample(struct mrc_core *core, u32 rtt_us);
void mrc_ack_detect_losses(struct mrc_core *core);
u64 mrc_ack_reorder_wait(const struct mrc_core *core,
			 const struct mrc_seg *seg);

/* path.c */
void mrc_path_init(struct mrc_core *core, u32 mask);
void mrc_path_sent(struct mrc_core *core, const struct mrc_seg *seg);
void mrc_path_unsent(struct mrc_core *core, const struct mrc_seg *seg);
bool mrc_path_all_busy(const struct mrc_core *core);
bool mrc_path_room(const struct mrc_core *core, u32 plane, u32 len);
u32 mrc_path_fit(const struct mrc_core *core, u32 plane);
u32 mrc_path_good_mask(const struct mrc_core *core);
int mrc_path_pick(const struct mrc_core *core, u32 mask, u32 len,
		  bool force);
u32 mrc_path_cwnd(const struct mrc_core *core);
u32 mrc_path_wnd(const struct mrc_core *core, u32 plane);
void mrc_path_weigh(struct mrc_core *core);
void mrc_path_rtt_sample(struct mrc_core *core, u32 plane, u32 rtt_us);
void mrc_path_on_sack(struct mrc_core *core, u32 trig_plane, u32 rtt_us,
		      bool ce);
void mrc_path_on_loss(struct mrc_core *core, u32 plane, bool timeout);
void mrc_path_on_trim(struct mrc_core *core, u32 plane);

/* ev.c */
int mrc_ev_init(struct mrc_core *core, const struct mrc_core_cfg *cfg);
void mrc_ev_destroy(struct mrc_core *core);
size_t mrc_ev_mem_bytes(const struct mrc_core *core);
void mrc_ev_assign_planes(struct mrc_core *core);
void mrc_ev_park(struct mrc_core *core);
int mrc_ev_unpark(struct mrc_core *core);
u16 mrc_ev_any_value(const struct mrc_core *core);
u16 mrc_ev_seed_value(u32 seed, u32 idx);
u16 mrc_ev_value(const struct mrc_core *core, u32 idx);
u32 mrc_peer_plane_of(u32 planes, u32 idx);
int mrc_ev_pick(struct mrc_core *core, u32 avoid_ev, u32 avoid_plane,
		u32 len, bool force);
int mrc_ev_pick_plane(struct mrc_core *core, u32 plane);
bool mrc_ev_usable(const struct mrc_core *core, u32 idx);
int mrc_ev_find(const struct mrc_core *core, u32 value);
void mrc_ev_set(struct mrc_core *core, u32 idx, u8 state);
void mrc_ev_on_loss(struct mrc_core *core, u32 idx, bool timeout);
void mrc_ev_on_ack(struct mrc_core *core, u32 idx, u32 rtt_us, bool ce);
void mrc_ev_on_skip(struct mrc_core *core, u32 idx);
int mrc_ev_send_probe(struct mrc_core *core, u32 idx);
void mrc_ev_on_probe(struct mrc_core *core, const struct mrc_pkt *pkt,
		     u32 plane);
int mrc_ev_on_probe_reply(struct mrc_core *core, const struct mrc_pkt *pkt,
			  u32 plane);
u64 mrc_ev_probe_deadline(const struct mrc_core *core);
void mrc_ev_on_timer(struct mrc_core *core, u64 now);
u32 mrc_ev_good_count(const struct mrc_core *core);

/* stats.c */
int mrc_stats_init(struct mrc_core *core);
void mrc_stats_destroy(struct mrc_core *core);
void mrc_stats_park(struct mrc_core *core);
size_t mrc_stats_mem_bytes(const struct mrc_core *core);
void mrc_stat_add_slow(struct mrc_core *core, u32 word, u64 n);

/* Add @n to counter word @word of struct mrc_core_stats (stats.c). */
static inline void mrc_stat_add(struct mrc_core *core, u32 word, u64 n)
{
	if (core->stats)
		((u64 *)core->stats)[word] += n;
	else
		mrc_stat_add_slow(core, word, n);
}

/* Counter word of struct mrc_core_stats's @field (stats.c). */
#define MRC_STAT_WORD(field)						\
	(offsetof(struct mrc_core_stats, field) / sizeof(u64))
#define MRC_STAT_ADD(core, field, n)					\
	mrc_stat_add(core, MRC_STAT_WORD(field), n)
#define MRC_STAT_INC(core, field)	MRC_STAT_ADD(core, field, 1)

/* peer.c */
u32 mrc_peer_seed_evs(struct mrc_core *core, const struct mrc_core_cfg *cfg,
		      u32 n, const u16 **evs);
void mrc_peer_seed_apply(struct mrc_core *core);
u32 mrc_peer_syn_ev(struct mrc_core *core);

#ifdef __cplusplus
}
#endif

#endif /* __MRC_CORE_PRIVATE_H */
