/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wire parser and builder: struct mrc_pkt (host byte order) <-> the bytes
 * of include/uapi/linux/mrc_wire.h. Plain C, no allocation, no state, so
 * the kernel, the host tests and the fuzzers run the very same code.
 */
#ifndef __MRC_CORE_WIRE_H
#define __MRC_CORE_WIRE_H

#include "core_types.h"
#include <linux/mrc_wire.h>

/* Why a received packet was dropped; every drop is counted by reason. */
enum mrc_drop_reason {
	MRC_DROP_NONE,
	MRC_DROP_SHORT,		/* shorter than its header or body */
	MRC_DROP_VERSION,	/* unknown wire version */
	MRC_DROP_TYPE,		/* unknown packet type */
	MRC_DROP_LENGTH,	/* body_len disagrees with the datagram */
	MRC_DROP_MALFORMED,	/* a field holds an impossible value */
	MRC_DROP_NO_CONN,	/* no connection or listener for it */
	MRC_DROP_TOKEN,		/* token does not match the connection */
	MRC_DROP_STATE,		/* not acceptable in the connection's state */
	MRC_DROP_PSN_WINDOW,	/* PSN outside the receive window */
	MRC_DROP_DUPLICATE,	/* data already received */
	MRC_DROP_NO_BUFFER,	/* no memory or receive space */
	MRC_DROP_PLANE,		/* arrived on a plane the connection lacks */
	MRC_DROP_ACK,		/* acknowledges data never sent */
	MRC_DROP_CSUM,		/* UDP checksum or IP header invalid */
	__MRC_DROP_MAX
};

#define MRC_DROP_MAX __MRC_DROP_MAX

const char *mrc_drop_reason_name(int reason);

/* A plane address as advertised in SYN / SYN_ACK. */
struct mrc_core_plane {
	u8	id;
	u8	flags;		/* MRC_PLANE_F_V4 / MRC_PLANE_F_V6 */
	u16	udp_port;
	u32	addr4;		/* network byte order, as on the wire */
	u8	addr6[16];
};

struct mrc_pkt_data {
	u32	psn;
	u32	tsval;
	u16	plane;
};

struct mrc_pkt_sack {
	u32	cum_psn;
	u32	sack_base;
	u64	bitmap;
	u32	trig_psn;
	u32	echo_ev;
	u32	ts_echo;
	u32	rwnd;
	u32	rcv_bytes;
	u16	ooo_count;
	u8	ce_count;
	u8	cc_flags;
	u16	plane_up;
};

struct mrc_pkt_nack {
	u32	psn;
	u32	cum_psn;
	u32	echo_ev;
	u8	reason;
};

struct mrc_pkt_probe {
	u32	probe_id;
	u32	tsval;
	u16	plane;
	u16	plane_up;
};

struct mrc_pkt_syn {
	u32	isn;
	u32	rwnd;
	u16	src_port;
	u16	dst_port;
	u16	mss;
	u8	sock_type;
	u8	nplanes;
	u16	ev_count;
	struct mrc_core_plane planes[MRC_WIRE_MAX_PLANES];
};

/*
 * struct mrc_pkt - one packet in host byte order.
 * @payload/@payload_len: DATA payload; points into the parsed buffer, or
 *	NULL when the payload is not in it (mrc_wire_parse_head()).
 * @buf: the environment's handle of the received packet, for the core's
 *	env->rx_take() (zero-copy receive); NULL: the core copies @payload.
 *	The parser sets it NULL; a receiver sets it after parsing.
 */
struct mrc_pkt {
	u8	type;		/* enum mrc_pkt_type */
	u8	flags;		/* MRC_F_* */
	u32	dst_token;
	u32	src_token;
	u32	ev;
	union {
		struct mrc_pkt_data	data;
		struct mrc_pkt_sack	sack;
		struct mrc_pkt_nack	nack;
		struct mrc_pkt_probe	probe;
		struct mrc_pkt_syn	syn;
		u32			fin_end_psn;
		u32			rst_reason;
	};
	const u8	*payload;
	u32		payload_len;
	void		*buf;
};

/* Largest header + body mrc_wire_build() writes (SYN with 16 planes). */
#define MRC_WIRE_MAX_HDR (sizeof(struct mrc_hdr) + sizeof(struct mrc_syn) + \
			  MRC_WIRE_MAX_PLANES * sizeof(struct mrc_wire_plane))

/*
 * mrc_wire_parse - check and decode one UDP payload.
 * Return: MRC_DROP_NONE (0) and *@pkt filled, or the drop reason.
 */
int mrc_wire_parse(const void *buf, u32 len, struct mrc_pkt *pkt);
/*
 * mrc_wire_parse_head - as mrc_wire_parse() for a packet of @len bytes of
 * which only the first @head_len are at @buf, the rest elsewhere (the
 * pages of an skb). A DATA packet's header and fixed body must be in the
 * head, its payload may not be (pkt->payload is then NULL); any other
 * type must be whole. Return: as mrc_wire_parse(), MRC_DROP_SHORT if the
 * head lacks what must be in it.
 */
int mrc_wire_parse_head(const void *buf, u32 head_len, u32 len,
			struct mrc_pkt *pkt);
/* Bytes mrc_wire_parse_head() needs in the head of a packet of @type. */
u32 mrc_wire_head_len(u8 type, u32 len);

/*
 * mrc_wire_parse_trimmed - decode a DATA packet whose payload a switch
 * trimmed off instead of dropping the packet (the fabric marks it so, e.g.
 * by DSCP; this parser does not look). The header and DATA body must be
 * whole; body_len still counts the payload that was cut, bytes past the
 * body are ignored, and @pkt gets no payload (payload_len 0).
 * Return: MRC_DROP_NONE (0) and *@pkt filled, or the drop reason.
 */
int mrc_wire_parse_trimmed(const void *buf, u32 len, struct mrc_pkt *pkt);

/*
 * mrc_wire_build - encode @pkt's header and body (not the payload; its
 * length is taken from @pkt->payload_len for body_len) into @buf.
 * Return: bytes written, or 0 if @buflen is too small or @pkt is invalid.
 */
u32 mrc_wire_build(const struct mrc_pkt *pkt, void *buf, u32 buflen);

/*
 * mrc_wire_build_reset - encode into @buf the RST a host answers @pkt
 * with when no connection has its dst_token: the tokens swapped (only
 * the sender accepts it), its EV, and MRC_F_EARLY echoed (early DATA that
 * beat its SYN: the client waits for the SYN's answer).
 * Return: as mrc_wire_build().
 */
u32 mrc_wire_build_reset(const struct mrc_pkt *pkt, void *buf, u32 buflen);

/* PSN arithmetic modulo 2^24 or 2^32 (serial number comparison). */
static inline u32 mrc_psn_mask(bool psn24)
{
	return psn24 ? 0xffffffu : 0xffffffffu;
}

/* Signed distance from @a to @b (b - a) in the PSN space. */
static inline s32 mrc_psn_diff(u32 a, u32 b, bool psn24)
{
	u32 d = (b - a) & mrc_psn_mask(psn24);

	if (psn24)
		return (d & 0x800000u) ? (s32)d - 0x1000000 : (s32)d;
	return (s32)d;
}

#endif /* __MRC_CORE_WIRE_H */
