/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MRC protocol core: one reliable connection sprayed over planes and
 * entropy values (EVs), written sans-I/O. It owns the connection state
 * machine, the EV set and EV states, SACK/NACK generation and processing,
 * retransmission, reassembly and NSCC congestion control. It does no I/O,
 * keeps no clock and takes no lock: everything outside comes through
 * struct mrc_core_env, so mrc.ko (kernel/conn/env.c) and the userspace
 * library (host tests with a fake clock, fuzzers, simulator) run the same
 * code.
 *
 * Concurrency: a struct mrc_core is single-threaded. The caller serialises
 * every mrc_core_*() call on one connection (mrc.ko holds the connection's
 * spinlock with BHs off). Environment callbacks run inside those calls and
 * must not call back into the same core, except for the read-only queries
 * (mrc_core_state() ... mrc_core_ev_get()).
 *
 * Memory: every allocation goes through env->alloc(), may fail at any
 * time and is never larger than MRC_CORE_MAX_ALLOC; the core answers a
 * failure with back-pressure (less send space, a NO_BUFFER NACK), never a
 * crash or lost data.
 */
#ifndef __MRC_CORE_H
#define __MRC_CORE_H

#include "core_types.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MRC_CORE_MAX_ALLOC	(64 * 1024)
#define MRC_CORE_MAX_EVS	256
#define MRC_CORE_DEFAULT_EVS	128
/* Longest EV train (cfg->train_pkts). */
#define MRC_CORE_MAX_TRAIN	64

/* Connection states (superset of enum mrc_conn_state of the netlink API). */
enum mrc_core_state {
	MRC_CORE_CLOSED,	/* never opened, or finished */
	MRC_CORE_SYN_SENT,	/* client: SYN out, waiting for SYN_ACK */
	MRC_CORE_ESTABLISHED,	/* data flows both ways */
	MRC_CORE_FIN_WAIT,	/* we sent FIN; peer may still send */
	MRC_CORE_CLOSE_WAIT,	/* peer sent FIN; we may still send */
	MRC_CORE_LAST_ACK,	/* both sent FIN; waiting for ours to be acked */
	MRC_CORE_DONE,		/* both directions finished and acknowledged */
	MRC_CORE_ABORTED,	/* RST sent or received, or timed out */
};

/* What the core tells its environment; @arg's meaning per note. */
enum mrc_core_note {
	MRC_NOTE_ESTABLISHED,	/* handshake complete (client and server) */
	MRC_NOTE_WRITABLE,	/* send space grew; arg: free bytes */
	MRC_NOTE_PEER_FIN,	/* all peer data delivered, then EOF */
	MRC_NOTE_DONE,		/* state reached MRC_CORE_DONE */
	/* fatal; arg: errno (ETIMEDOUT, ECONNRESET, ECONNREFUSED); state is
	 * MRC_CORE_ABORTED
	 */
	MRC_NOTE_ERROR,
	MRC_NOTE_EV_STATE,	/* arg: EV index whose state changed */
	MRC_NOTE_PLANE_STATE,	/* arg: plane id whose usability changed */
	/*
	 * arg: EV index whose last packet was lost (it was acknowledged
	 * before), or acknowledged (lost before): what
	 * mrc_core_peer_paths_learn() reports of it changed
	 */
	MRC_NOTE_EV_SUSPECT,
};

/* Trace points the core reports (the kernel turns them into tracepoints). */
enum mrc_core_trace {
	MRC_TRACE_TX,		/* DATA sent (new or retransmitted) */
	MRC_TRACE_RX,		/* DATA received */
	MRC_TRACE_ACK,		/* a PSN newly acknowledged; rtt_us if sampled */
	MRC_TRACE_LOSS,		/* a PSN declared lost; reason in arg */
	MRC_TRACE_NACK,		/* NACK received */
};

struct mrc_core_trace_info {
	u32	psn;
	u32	plane;
	u32	ev;
	u32	len;		/* payload bytes */
	u32	rtt_us;		/* ACK: RTT sample or 0 */
	/* LOSS: 0 = SACK gap, 1 = RTO, 2 = NACK, 3 = plane down, 4 = tail
	 * probe; TX: 1 if retransmission
	 */
	u32	arg;
	bool	ce;		/* RX: CE mark; ACK: echoed CE */
};

struct mrc_core_env_ops {
	/*
	 * Monotonic clock, microseconds. Input, timer, send and receive
	 * space calls read it at most once each (core.c, mrc_now()).
	 */
	u64	(*now_us)(void *ctx);
	/*
	 * Arm the connection's one timer at absolute time @when_us, replacing
	 * any earlier arming; 0 cancels. When it fires the environment calls
	 * mrc_core_on_timer().
	 */
	void	(*timer_arm)(void *ctx, u64 when_us);
	/*
	 * Send one packet (@hdr: header and body; @payload may be NULL) on
	 * plane @plane with entropy value @ev, addressed to the peer's plane
	 * (mrc_core_peer_plane()). DATA should carry ECT. @payload_ref is
	 * the handle of the buffer @payload lies in when it was queued with
	 * mrc_core_send_buf(): the environment may send the bytes by
	 * reference (taking its own hold on the buffer: the segment may be
	 * freed before the packet is gone) instead of copying them; NULL
	 * for the core's own memory, which is only valid during the call.
	 * Return 0, or a negative errno when it could not go out (the core
	 * treats it as lost).
	 */
	int	(*xmit)(void *ctx, u32 plane, u32 ev, const void *hdr,
			u32 hdr_len, const void *payload, u32 payload_len,
			void *payload_ref);
	/*
	 * Hand in-order bytes to the application. @flags has MRC_F_EOM on the
	 * last segment of a message. @ref is NULL when @data is the core's
	 * copy (valid during the call), else the handle rx_take() returned
	 * for them (@data NULL), which becomes the environment's if the call
	 * succeeds. Return 0 if taken, negative errno if not now: the core
	 * keeps them and retries on mrc_core_rcv_space().
	 */
	int	(*deliver)(void *ctx, const void *data, u32 len, u32 flags,
			   void *ref);
	void	(*notify)(void *ctx, enum mrc_core_note note, u32 arg);
	/* Optional; NULL when nobody listens. */
	void	(*trace)(void *ctx, enum mrc_core_trace point,
			 const struct mrc_core_trace_info *info);
	/* Never sleeps; may return NULL. */
	void	*(*alloc)(void *ctx, size_t size);
	void	(*free)(void *ctx, void *ptr);
	u32	(*random)(void *ctx);
	/*
	 * Optional, for zero-copy receive: the core keeps the payload of
	 * DATA @pkt, which carries the environment's handle of the packet
	 * (pkt->buf), as the segment's storage instead of copying it.
	 * Return the handle the core holds from now on (called only for a
	 * packet the core keeps); it goes back with deliver(), or to
	 * rx_free() if the segment is never delivered. NULL: the environment
	 * had no memory for it (mrc.ko allocates a GSO batch's slices with
	 * its first kept packet); the packet is then refused as a failed
	 * allocation is, with a NO_BUFFER NACK, and nothing is kept.
	 */
	void	*(*rx_take)(void *ctx, const struct mrc_pkt *pkt);
	void	(*rx_free)(void *ctx, void *ref);
	/*
	 * Optional, for zero-copy send (mrc_core_send_buf()): every segment
	 * that points into a buffer takes buf_get() on its handle and gives
	 * buf_put() when it is freed (acknowledged, unqueued or destroyed).
	 */
	void	(*buf_get)(void *ctx, void *ref);
	void	(*buf_put)(void *ctx, void *ref);
	/*
	 * Optional: the end of a burst of DATA xmit() calls. An environment
	 * may hold DATA packets back to send a train of them on one EV as
	 * one batch (mrc.ko: one UDP GSO skb) until this, or until an xmit()
	 * that cannot join them; the core calls it before it returns from
	 * any call that sent DATA.
	 */
	void	(*flush)(void *ctx);
	/*
	 * Optional: is the local queue of @plane (the qdisc and device
	 * mrc.ko's packets wait in, a simulated NIC's queue) past what
	 * this connection should have in it? While it is, no new DATA goes
	 * to that plane: a packet is built when it can leave soon, so its
	 * timestamp, plane and EV are chosen with what the SACKs say then
	 * (TCP's small queues, tcp_small_queue_check(), for the same
	 * reason). An environment that answers true owes the core one
	 * mrc_core_tx_ready() call once the queue has drained.
	 */
	bool	(*tx_busy)(void *ctx, u32 plane);
	/*
	 * Optional: where the core builds a packet (struct
	 * mrc_core_scratch), valid from one call into the core to its
	 * return and used by nothing else meanwhile. It is not part of the
	 * connection, so that an idle connection does not carry it: mrc.ko
	 * gives one per CPU (every core call runs with BHs off, under the
	 * connection's lock). NULL: a thread's own buffer (userspace
	 * builds only).
	 */
	struct mrc_core_scratch *(*scratch)(void *ctx);
	/*
	 * Optional: memory for struct mrc_core itself (mrc_core_size()
	 * bytes), which a kernel gives from a cache of its own rather than
	 * a kmalloc() size class that would round it up; NULL: alloc() and
	 * free().
	 */
	void	*(*core_alloc)(void *ctx);
	void	(*core_free)(void *ctx, void *core);
};

/* A packet being built, and its encoding (env ops->scratch()). */
struct mrc_core_scratch {
	struct mrc_pkt	pkt;
	u8		buf[MRC_WIRE_MAX_HDR];
};

/* Bytes of struct mrc_core (env ops->core_alloc()). */
size_t mrc_core_size(void);

/*
 * struct mrc_core_buf - bytes the environment owns, for mrc_core_send_buf():
 * @data/@len, inside the buffer whose handle is @ref (mrc.ko: the page of
 * the socket's page-fragment send buffer). The bytes must not change
 * while a segment holds the buffer.
 */
struct mrc_core_buf {
	u8		*data;
	u32		len;
	void		*ref;
};

struct mrc_core_env {
	const struct mrc_core_env_ops	*ops;
	void				*ctx;
};

/* NSCC parameters (units as enum mrc_nscc_attr: ns, bytes, ppm). */
struct mrc_core_cc {
	u32	base_rtt_ns;
	u32	target_delay_ns;
	u32	max_cwnd;
	u32	eta;
	u32	fi;
	u32	fi_scale;
	u32	gamma;
	u32	max_md_jump;
	u32	qa_threshold_ns;
	u32	adjust_bytes;
	u32	adjust_period_ns;
	u8	qa_gate;
	u8	disable_qa;
};

/*
 * struct mrc_core_peer_paths - what the connections to one peer host have
 * learned of the paths there, which the environment keeps per peer for
 * the next connection to it (mrc_core_cfg.peer_paths). That connection
 * takes the same EV values and starts with the EVs found bad already
 * avoided (ASSUMED_BAD, probed at the usual interval), its SYN on a path
 * not known bad. Every connection reports back with
 * mrc_core_peer_paths_learn() at MRC_NOTE_ESTABLISHED and at each
 * MRC_NOTE_EV_STATE and MRC_NOTE_EV_SUSPECT; the latest report wins. EV i is the path (the
 * (i % n)-th of the n planes of @planes, @evs[i]), so the states carry
 * over only to a connection with the same values and planes.
 * Lifetime and locking: the environment's; it serialises every call that
 * reads or writes one (in mrc.ko, a lock of the peer table's).
 * @nevs:	EVs in @evs (0: nothing learned yet)
 * @planes:	bit p: plane p was common to both ends
 * @ev_seed:	the seed the EV values come from (0: explicit values)
 * @evs:	EV values by index (with @ev_seed, what the seed gives: a
 *		reader needs only the seed, and a store may keep only it)
 * @bad:	bit i: EV i was ASSUMED_BAD, or its last packet lost, at the
 *		last report
 */
struct mrc_core_peer_paths {
	u32	nevs;
	u32	planes;
	u32	ev_seed;
	u16	evs[MRC_CORE_MAX_EVS];
	u64	bad[MRC_CORE_MAX_EVS / 64];
};

/*
 * struct mrc_core_cfg - how a connection is set up. Zero fields take the
 * documented default.
 * @sock_type:		MRC_SYN_STREAM or MRC_SYN_SEQPACKET
 * @local_port:		our service port (host order)
 * @peer_port:		the peer's service port (client: the one connected to)
 * @mss:		DATA payload bytes (default 1400)
 * @ev_count:		EVs of the connection (default 128, max 256), split
 *			evenly over the planes both ends have
 * @evs/@nevs:		explicit EV values from an EV profile (else drawn
 *			from one random seed: mrc_ev_seed_value(), ev.c)
 * @peer_paths:		what earlier connections to the peer learned (NULL:
 *			nothing); read in mrc_core_create() only, and only
 *			without @evs and when its EV count is @ev_count's
 * @ev_min_active:	never mark an EV bad if fewer than this stay GOOD
 * @sndbuf/@rcvbuf:	bytes the core may hold for sending / reassembly
 *			(reassembly: one MSS more for the packet that fills
 *			the gap before a full buffer)
 * @user_timeout_ms:	no ACK progress for this long aborts with ETIMEDOUT
 *			(default 30000)
 * @rto_min_us/@rto_max_us/@rto_init_us: retransmission timer: floor,
 *			ceiling of the backoff, first value (defaults 10000 /
 *			2000000 / 100000); the RTO itself follows the measured
 *			round trip (srtt + 4 rttvar), above rto_max if need be
 * @ack_delay_us:	delayed-ACK timer (default 200); @ack_every: SACK at
 *			least every this many DATA packets (default 4)
 * @probe_interval_us:	probe period for ASSUMED_BAD EVs (default 50000)
 * @train_pkts:		first transmissions in a row on one EV before the
 *			next pick (default 1: every packet sprayed); an
 *			environment can send a train as one batch
 * @psn24:		use 24-bit PSNs
 * @early_data:		client: payload bytes it may send before the SYN_ACK
 *			(its first flight, on the SYN's plane; 0: none)
 * @token:		our token (0: random); a server takes the one the
 *			client's SYN proposed for the early data to find it
 * @cc:			NSCC parameters; all zero takes defaults
 * @planes/@nplanes:	our planes, advertised in SYN / SYN_ACK
 * @plane_up:		bit p: our plane p can send now
 * @peer/@has_peer:	client only: the peer plane the SYN goes to
 */
struct mrc_core_cfg {
	u8			sock_type;
	u16			local_port;
	u16			peer_port;
	u32			mss;
	u32			ev_count;
	const u16		*evs;
	u32			nevs;
	const struct mrc_core_peer_paths *peer_paths;
	u32			ev_min_active;
	u32			sndbuf;
	u32			rcvbuf;
	u32			user_timeout_ms;
	u32			rto_min_us;
	u32			rto_max_us;
	u32			rto_init_us;
	u32			ack_delay_us;
	u32			ack_every;
	u32			probe_interval_us;
	u32			train_pkts;
	bool			psn24;
	u32			early_data;
	u32			token;
	struct mrc_core_cc	cc;
	struct mrc_core_plane	planes[MRC_WIRE_MAX_PLANES];
	u32			nplanes;
	u32			plane_up;
	/* by plane id, 1..MRC_PLANE_WEIGHT_MAX; 0: MRC_PLANE_WEIGHT_DEFAULT */
	u16			plane_weight[MRC_WIRE_MAX_PLANES];
	struct mrc_core_plane	peer;
	bool			has_peer;
};

/* Counters of one connection; all monotonic except the gauges at the end. */
struct mrc_core_stats {
	u64	tx_pkts;		/* every packet sent */
	u64	tx_data_pkts;
	u64	tx_data_bytes;		/* payload, first transmissions */
	u64	retx_pkts;
	u64	retx_bytes;
	u64	spurious_retx;		/* retransmissions found needless */
	u64	rx_pkts;		/* every packet accepted */
	u64	rx_data_pkts;
	u64	rx_data_bytes;		/* payload accepted (not duplicates) */
	u64	dup_pkts;		/* DATA already received */
	u64	ooo_pkts;		/* DATA received ahead of a gap */
	u64	delivered_bytes;	/* handed to deliver() */
	u64	acked_bytes;		/* our payload the peer acknowledged */
	u64	sacks_tx, sacks_rx;
	u64	nacks_tx, nacks_rx;
	u64	trimmed_rx;		/* trimmed DATA answered with a NACK */
	u64	ce_rx;			/* CE-marked DATA received */
	u64	ce_echoed;		/* our DATA the peer saw CE on */
	u64	probes_tx, probe_replies_rx;
	u64	rto_count;		/* retransmission timeouts */
	u64	fast_retx;		/* losses found from SACK gaps */
	u64	tail_probes;		/* oldest resent before the RTO */
	u64	ev_state_changes;
	u64	early_data_bytes;	/* payload sent before the SYN_ACK */
	u64	early_refused;		/* RSTs: early DATA beat the SYN there */
	u64	drops[MRC_DROP_MAX];	/* received packets refused, by reason */
	/* gauges */
	u32	srtt_us;
	u32	rttvar_us;
	u32	rto_us;
	u32	cwnd;			/* bytes: the usable planes' windows */
	u32	inflight_bytes;
	u32	peer_rwnd;
	u32	evs_good;		/* EVs in rotation now */
	u32	planes_usable;		/* bit p: plane p carries data now */
	/* longest time without ACK progress while data was outstanding */
	u64	longest_stall_us;
};

/* One EV of a connection. */
struct mrc_core_ev_info {
	u32	value;
	u32	plane;
	u8	state;			/* enum mrc_ev_state (mrc_netlink.h) */
	bool	probing;
	u32	srtt_us;
	u64	tx_pkts;
	u64	tx_bytes;
	u64	retx_pkts;
	u64	acked_pkts;
	u64	losses;
	u64	ce_marks;
	u64	nacks;
};

struct mrc_core;

/*
 * mrc_core_create - a connection in MRC_CORE_CLOSED with our random token.
 * Nothing is sent until mrc_core_connect() or mrc_core_accept().
 * env->random() is called for the token first (again while it returns 0;
 * not at all with cfg->token), then once for the ISN (masked to 24 bits
 * with @psn24), then for EVs; mrc_core_connect() with cfg->early_data
 * calls it for the proposed token.
 * Return: the core, or NULL (allocation failure or invalid @cfg).
 */
struct mrc_core *mrc_core_create(const struct mrc_core_cfg *cfg,
				 const struct mrc_core_env *env);
/* Frees everything; sends nothing (abort first for an RST). */
void mrc_core_destroy(struct mrc_core *core);

/*
 * Client: send SYN on cfg->peer; SYN is retried with backoff. With
 * cfg->early_data, mrc_core_send() works at once: up to that many bytes
 * go out right after the SYN (on its plane, to the token the SYN
 * proposes), the rest after the SYN_ACK; what the server could not take
 * is sent again. mrc_core_close() before the SYN_ACK then closes once
 * the handshake is done, where it would otherwise abort.
 */
int mrc_core_connect(struct mrc_core *core);
/*
 * Server: take a SYN that a listener received on @plane (already parsed),
 * answer SYN_ACK, and become ESTABLISHED. The SYN's MRC_F_PSN24 decides the
 * PSN size of both directions (cfg->psn24 of a server is ignored). A
 * retransmitted SYN given to mrc_core_input() is answered with SYN_ACK.
 * Return: 0, or -EINVAL if @syn does not fit this core's configuration.
 */
int mrc_core_accept(struct mrc_core *core, const struct mrc_pkt *syn,
		    u32 plane);

/*
 * mrc_core_input - process one received packet addressed to this core
 * (pkt->dst_token == mrc_core_token(core)), received on our plane @plane,
 * @ce: the IP header carried CE.
 * Return: MRC_DROP_NONE or the reason it was refused (also counted in
 * stats.drops). A refused packet changes no connection state.
 */
int mrc_core_input(struct mrc_core *core, const struct mrc_pkt *pkt,
		   u32 plane, bool ce);
/*
 * mrc_core_input_begin - the mrc_core_input() calls until
 * mrc_core_input_end() are one batch: packets that arrived together (one
 * GSO or GRO skb). The batch reads the clock once, re-arms the timer once
 * and sends at most one SACK for its DATA, at its end, answering its last
 * DATA packet: a gap that opens or closes inside the batch is reported
 * then, not packet by packet. Its SACKs are all taken before loss
 * detection runs, once at its end: one that arrived with them may
 * acknowledge what the first would have found overdue. Batches do not
 * nest; nothing but mrc_core_input*() may be called inside one.
 */
void mrc_core_input_begin(struct mrc_core *core);
void mrc_core_input_end(struct mrc_core *core);
/*
 * mrc_core_input_trimmed - a DATA packet for this core whose payload a
 * switch trimmed off (parsed with mrc_wire_parse_trimmed()), received on
 * our plane @plane: answered with a NACK of reason MRC_NACK_TRIMMED (or
 * a SACK if that PSN is already here), so the sender resends it at once.
 * Return: as mrc_core_input().
 */
int mrc_core_input_trimmed(struct mrc_core *core, const struct mrc_pkt *pkt,
			   u32 plane);

/*
 * mrc_core_send - queue @len bytes for sending; @fill copies them into
 * core memory (it may fail with a negative errno, e.g. -EFAULT).
 * For SOCK_SEQPACKET one call is one message (@flags must have
 * MRC_F_EOM) and it is taken whole or not at all.
 * Return: bytes queued (0: no space now, wait for MRC_NOTE_WRITABLE), or
 * negative errno (-EPIPE after close or abort, -ENOTCONN before the
 * handshake completed, -EMSGSIZE, -EINVAL for a seqpacket message without
 * MRC_F_EOM or of length 0, the error of @fill).
 */
int mrc_core_send(struct mrc_core *core, u32 len, u32 flags,
		  int (*fill)(void *arg, void *dst, u32 off, u32 len),
		  void *arg);
/*
 * Bytes mrc_core_send() would take now, if that is at least @need (a whole
 * message for SOCK_SEQPACKET, 1 for a stream; clamped to the send buffer
 * and to what its ring may grow to, where a larger message fails with
 * -EMSGSIZE at once); else 0, and
 * MRC_NOTE_WRITABLE follows as soon as @need bytes fit, so a writer may
 * check, then sleep. Also 0 while a failed allocation waits for its retry.
 * A writer that retried on less than it needs would spin. @need 0 only
 * looks: the space, whatever it is, and no note armed. A look must not
 * arm one: the smallest need armed wins, so a look's need of 1 woke a
 * writer that waits for a third of the buffer at every acknowledgment.
 */
u32 mrc_core_send_space(struct mrc_core *core, u32 need);
/*
 * mrc_core_send_buf - as mrc_core_send(), but the segments point into
 * @buf instead of copying it (zero copy: the environment's xmit gets
 * the handle with the bytes). A stream segment still being filled grows
 * in place when @buf continues it in the same buffer (an append-only
 * send buffer), so small writes still make full segments. Needs the
 * buf_get/buf_put ops. Return: as mrc_core_send().
 */
int mrc_core_send_buf(struct mrc_core *core, const struct mrc_core_buf *buf,
		      u32 flags);

/* Payload bytes queued and not yet acknowledged: O(1), unlike the next. */
u32 mrc_core_send_held(const struct mrc_core *core);

/*
 * Payload bytes queued: @queued not yet acknowledged (sent or not, TCP's
 * SIOCOUTQ), @unsent of those never sent (SIOCOUTQNSD).
 */
void mrc_core_send_queued(const struct mrc_core *core, u32 *queued,
			  u32 *unsent);

/* A local queue that tx_busy() reported full has drained: send on. */
void mrc_core_tx_ready(struct mrc_core *core);

/* The application freed receive space; @free_bytes is what it has now. */
void mrc_core_rcv_space(struct mrc_core *core, u32 free_bytes);

void mrc_core_on_timer(struct mrc_core *core);

/*
 * Graceful: FIN once every queued byte is acknowledged, retried with the
 * RTO until the peer acknowledges it with a SACK whose cum_psn and
 * trig_psn both equal end_psn (FIN consumes no PSN; no DATA SACK has
 * trig_psn == cum_psn). The peer's FIN is answered the same way, and
 * MRC_NOTE_PEER_FIN follows once every byte before it is delivered; DONE
 * when both happened. After DONE the core still answers a retransmitted
 * FIN, so keep it a while if the peer may have missed the last SACK.
 */
void mrc_core_close(struct mrc_core *core);
/* Abortive: RST now, state ABORTED, MRC_NOTE_ERROR with @err if non-zero. */
void mrc_core_abort(struct mrc_core *core, int err);

/* The user timeout of a live connection (0: the default), from now on. */
void mrc_core_set_user_timeout(struct mrc_core *core, u32 ms);

/* Our plane @plane can (not) send; in-flight data on it is resent at once. */
void mrc_core_plane_update(struct mrc_core *core, u32 plane, bool up);

/*
 * The administrator's weight of our plane @plane (1..MRC_PLANE_WEIGHT_MAX,
 * 0: the default), from the next packet on (path.c: what it means).
 */
void mrc_core_plane_weight(struct mrc_core *core, u32 plane, u32 weight);

/* Administrator: set EV @idx to GOOD / ASSUMED_BAD / DENIED. */
int mrc_core_ev_set_state(struct mrc_core *core, u32 idx, u8 state);
/* Send a probe on EV @idx now. */
int mrc_core_ev_probe(struct mrc_core *core, u32 idx);

enum mrc_core_state mrc_core_state(const struct mrc_core *core);
u32 mrc_core_token(const struct mrc_core *core);
u32 mrc_core_peer_token(const struct mrc_core *core);
/* The peer's address on plane @plane, or NULL if it has none there. */
const struct mrc_core_plane *mrc_core_peer_plane(const struct mrc_core *core,
						 u32 plane);
u32 mrc_core_peer_service_port(const struct mrc_core *core);
/*
 * Bytes the connection holds now: what the core asked env->alloc() for
 * (connection, EVs, send and receive rings, queued and held segments),
 * before the allocator's rounding; not the payload it holds in the
 * environment's buffers (mrc_core_send_buf(), rx_take()). Idle, the rings are small; they grow
 * with the traffic up to what sndbuf and rcvbuf need.
 */
size_t mrc_core_mem_bytes(const struct mrc_core *core);
void mrc_core_get_stats(const struct mrc_core *core,
			struct mrc_core_stats *stats);
u32 mrc_core_ev_count(const struct mrc_core *core);
/* Report @core's EVs into @pp (see struct mrc_core_peer_paths). */
/* Was EV @idx of @pp bad at the last report? Its plane by @pp's planes. */
bool mrc_core_peer_paths_bad(const struct mrc_core_peer_paths *pp, u32 idx);
u32 mrc_core_peer_paths_plane(const struct mrc_core_peer_paths *pp, u32 idx);
void mrc_core_peer_paths_learn(const struct mrc_core *core,
			       struct mrc_core_peer_paths *pp);
/*
 * For EV @idx's MRC_NOTE_EV_STATE or MRC_NOTE_EV_SUSPECT: the whole
 * report if what it says of @idx changed (or @pp is another connection's),
 * else nothing, in O(1): an ECN mark's SKIP is such a note, and comes as
 * often as marks do.
 */
void mrc_core_peer_paths_learn_ev(const struct mrc_core *core,
				  struct mrc_core_peer_paths *pp, u32 idx);
int mrc_core_ev_get(const struct mrc_core *core, u32 idx,
		    struct mrc_core_ev_info *info);

#ifdef __cplusplus
}
#endif

#endif /* __MRC_CORE_H */
