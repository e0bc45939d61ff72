// SPDX-License-Identifier: GPL-2.0
/*
 * MRC wire format (include/uapi/linux/mrc_wire.rst): mrc_wire_parse() checks
 * and decodes one UDP payload into a struct mrc_pkt, mrc_wire_build() encodes
 * one. Both run the same semantic checks (mrc_wire_check()), so the builder
 * never emits a packet that a peer's parser would drop.
 * mrc_wire_parse_trimmed() reads what is left of a DATA packet whose
 * payload a switch cut off (packet trimming).
 */
#include "wire.h"

/* body_len is a 16-bit field: header-less bytes one datagram can carry. */
#define MRC_WIRE_MAX_BODY	0xffffu
#define MRC_PSN24_MASK		0xffffffu
#define MRC_SACK_BITS		64

/* Field @f of wire struct @s at @p, big-endian, whatever @p's alignment. */
#define WIRE_GET16(p, s, f)	get_unaligned_be16((p) + offsetof(struct s, f))
#define WIRE_GET32(p, s, f)	get_unaligned_be32((p) + offsetof(struct s, f))
#define WIRE_GET64(p, s, f)	get_unaligned_be64((p) + offsetof(struct s, f))
#define WIRE_GET8(p, s, f)	((p)[offsetof(struct s, f)])
#define WIRE_PUT16(v, p, s, f)	put_unaligned_be16(v, (p) + offsetof(struct s, f))
#define WIRE_PUT32(v, p, s, f)	put_unaligned_be32(v, (p) + offsetof(struct s, f))
#define WIRE_PUT64(v, p, s, f)	put_unaligned_be64(v, (p) + offsetof(struct s, f))
#define WIRE_PUT8(v, p, s, f)	((p)[offsetof(struct s, f)] = (v))

/* Fixed body size of each type; SYN and SYN_ACK add their planes. */
static const u16 mrc_wire_body_size[__MRC_PKT_MAX] = {
	[MRC_PKT_DATA]		= sizeof(struct mrc_data),
	[MRC_PKT_SACK]		= sizeof(struct mrc_sack),
	[MRC_PKT_NACK]		= sizeof(struct mrc_nack),
	[MRC_PKT_PROBE]		= sizeof(struct mrc_probe),
	[MRC_PKT_PROBE_REPLY]	= sizeof(struct mrc_probe),
	[MRC_PKT_SYN]		= sizeof(struct mrc_syn),
	[MRC_PKT_SYN_ACK]	= sizeof(struct mrc_syn),
	[MRC_PKT_FIN]		= sizeof(struct mrc_fin),
	[MRC_PKT_RST]		= sizeof(struct mrc_rst),
};

static const char * const mrc_drop_reason_names[MRC_DROP_MAX] = {
	[MRC_DROP_NONE]		= "none",
	[MRC_DROP_SHORT]	= "short",
	[MRC_DROP_VERSION]	= "version",
	[MRC_DROP_TYPE]		= "type",
	[MRC_DROP_LENGTH]	= "length",
	[MRC_DROP_MALFORMED]	= "malformed",
	[MRC_DROP_NO_CONN]	= "no-conn",
	[MRC_DROP_TOKEN]	= "token",
	[MRC_DROP_STATE]	= "state",
	[MRC_DROP_PSN_WINDOW]	= "psn-window",
	[MRC_DROP_DUPLICATE]	= "duplicate",
	[MRC_DROP_NO_BUFFER]	= "no-buffer",
	[MRC_DROP_PLANE]	= "plane",
	[MRC_DROP_ACK]		= "ack",
	[MRC_DROP_CSUM]		= "csum",
};

const char *mrc_drop_reason_name(int reason)
{
	if (reason < 0 || reason >= MRC_DROP_MAX ||
	    !mrc_drop_reason_names[reason])
		return "unknown";
	return mrc_drop_reason_names[reason];
}

static bool mrc_wire_type_known(u8 type)
{
	return type >= MRC_PKT_DATA && type < __MRC_PKT_MAX;
}

static bool mrc_wire_is_syn(u8 type)
{
	return type == MRC_PKT_SYN || type == MRC_PKT_SYN_ACK;
}

/* Bytes of @type's body for @nplanes advertised planes (SYN, SYN_ACK). */
static u32 mrc_wire_body_len(u8 type, u32 nplanes)
{
	u32 len = mrc_wire_body_size[type];

	if (mrc_wire_is_syn(type))
		len += nplanes * sizeof(struct mrc_wire_plane);
	return len;
}

/* A PSN must fit the PSN space the packet announces (MRC_F_PSN24). */
static bool mrc_wire_psn_ok(const struct mrc_pkt *pkt, u32 psn)
{
	return !(pkt->flags & MRC_F_PSN24) || psn <= MRC_PSN24_MASK;
}

static bool mrc_wire_plane_id_ok(u32 plane)
{
	return plane < MRC_WIRE_MAX_PLANES;
}

/*
 * Tokens: the SYN cannot know the receiver's (its dst_token is 0 or the
 * one it proposes for early data); every other packet must.
 */
static int mrc_wire_check_tokens(const struct mrc_pkt *pkt)
{
	if (!pkt->src_token)
		return MRC_DROP_TOKEN;
	if (pkt->type == MRC_PKT_SYN)
		return MRC_DROP_NONE;
	return pkt->dst_token ? MRC_DROP_NONE : MRC_DROP_TOKEN;
}

static int mrc_wire_check_sack(const struct mrc_pkt *pkt)
{
	const struct mrc_pkt_sack *sack = &pkt->sack;

	if (sack->sack_base % MRC_SACK_BITS)
		return MRC_DROP_MALFORMED;
	if (!mrc_wire_psn_ok(pkt, sack->cum_psn) ||
	    !mrc_wire_psn_ok(pkt, sack->sack_base) ||
	    !mrc_wire_psn_ok(pkt, sack->trig_psn))
		return MRC_DROP_MALFORMED;
	return MRC_DROP_NONE;
}

static int mrc_wire_check_nack(const struct mrc_pkt *pkt)
{
	const struct mrc_pkt_nack *nack = &pkt->nack;

	if (nack->reason < MRC_NACK_TRIMMED ||
	    nack->reason > MRC_NACK_UNEXPECTED)
		return MRC_DROP_MALFORMED;
	if (!mrc_wire_psn_ok(pkt, nack->psn) ||
	    !mrc_wire_psn_ok(pkt, nack->cum_psn))
		return MRC_DROP_MALFORMED;
	return MRC_DROP_NONE;
}

static bool mrc_wire_plane_ok(const struct mrc_core_plane *pl)
{
	const u8 families = MRC_PLANE_F_V4 | MRC_PLANE_F_V6;

	return mrc_wire_plane_id_ok(pl->id) && pl->udp_port &&
	       (pl->flags & families) && !(pl->flags & ~families);
}

/* Peers pair planes by id, so each id may be advertised once. */
static int mrc_wire_check_syn(const struct mrc_pkt *pkt)
{
	const struct mrc_pkt_syn *syn = &pkt->syn;
	u32 seen = 0;
	u32 i;

	if (!syn->nplanes || syn->nplanes > MRC_WIRE_MAX_PLANES)
		return MRC_DROP_MALFORMED;
	if (syn->sock_type != MRC_SYN_STREAM &&
	    syn->sock_type != MRC_SYN_SEQPACKET)
		return MRC_DROP_MALFORMED;
	if (syn->mss < 64 || !mrc_wire_psn_ok(pkt, syn->isn))
		return MRC_DROP_MALFORMED;
	for (i = 0; i < syn->nplanes; i++) {
		const struct mrc_core_plane *pl = &syn->planes[i];

		if (!mrc_wire_plane_ok(pl) || (seen & (1u << pl->id)))
			return MRC_DROP_MALFORMED;
		seen |= 1u << pl->id;
	}
	return MRC_DROP_NONE;
}

/* The checks that need no buffer: shared by the parser and the builder. */
static int mrc_wire_check(const struct mrc_pkt *pkt)
{
	int ret = mrc_wire_check_tokens(pkt);

	if (ret)
		return ret;

	switch (pkt->type) {
	case MRC_PKT_DATA:
		if (!pkt->payload_len ||
		    !mrc_wire_psn_ok(pkt, pkt->data.psn) ||
		    !mrc_wire_plane_id_ok(pkt->data.plane))
			return MRC_DROP_MALFORMED;
		return MRC_DROP_NONE;
	case MRC_PKT_SACK:
		return mrc_wire_check_sack(pkt);
	case MRC_PKT_NACK:
		return mrc_wire_check_nack(pkt);
	case MRC_PKT_PROBE:
	case MRC_PKT_PROBE_REPLY:
		if (!mrc_wire_plane_id_ok(pkt->probe.plane))
			return MRC_DROP_MALFORMED;
		return MRC_DROP_NONE;
	case MRC_PKT_SYN:
	case MRC_PKT_SYN_ACK:
		return mrc_wire_check_syn(pkt);
	case MRC_PKT_FIN:
		if (!mrc_wire_psn_ok(pkt, pkt->fin_end_psn))
			return MRC_DROP_MALFORMED;
		return MRC_DROP_NONE;
	case MRC_PKT_RST:
		return MRC_DROP_NONE;
	}
	return MRC_DROP_TYPE;
}

static void mrc_wire_get_data(const u8 *b, struct mrc_pkt_data *data)
{
	data->psn = WIRE_GET32(b, mrc_data, psn);
	data->tsval = WIRE_GET32(b, mrc_data, tsval);
	data->plane = WIRE_GET16(b, mrc_data, plane);
}

static void mrc_wire_get_sack(const u8 *b, struct mrc_pkt_sack *sack)
{
	sack->cum_psn = WIRE_GET32(b, mrc_sack, cum_psn);
	sack->sack_base = WIRE_GET32(b, mrc_sack, sack_base);
	sack->bitmap = WIRE_GET64(b, mrc_sack, bitmap);
	sack->trig_psn = WIRE_GET32(b, mrc_sack, trig_psn);
	sack->echo_ev = WIRE_GET32(b, mrc_sack, echo_ev);
	sack->ts_echo = WIRE_GET32(b, mrc_sack, ts_echo);
	sack->rwnd = WIRE_GET32(b, mrc_sack, rwnd);
	sack->rcv_bytes = WIRE_GET32(b, mrc_sack, rcv_bytes);
	sack->ooo_count = WIRE_GET16(b, mrc_sack, ooo_count);
	sack->ce_count = WIRE_GET8(b, mrc_sack, ce_count);
	sack->cc_flags = WIRE_GET8(b, mrc_sack, cc_flags);
	sack->plane_up = WIRE_GET16(b, mrc_sack, plane_up);
}

static void mrc_wire_get_nack(const u8 *b, struct mrc_pkt_nack *nack)
{
	nack->psn = WIRE_GET32(b, mrc_nack, psn);
	nack->cum_psn = WIRE_GET32(b, mrc_nack, cum_psn);
	nack->echo_ev = WIRE_GET32(b, mrc_nack, echo_ev);
	nack->reason = WIRE_GET8(b, mrc_nack, reason);
}

static void mrc_wire_get_probe(const u8 *b, struct mrc_pkt_probe *probe)
{
	probe->probe_id = WIRE_GET32(b, mrc_probe, probe_id);
	probe->tsval = WIRE_GET32(b, mrc_probe, tsval);
	probe->plane = WIRE_GET16(b, mrc_probe, plane);
	probe->plane_up = WIRE_GET16(b, mrc_probe, plane_up);
}

static void mrc_wire_get_plane(const u8 *b, struct mrc_core_plane *pl)
{
	pl->id = WIRE_GET8(b, mrc_wire_plane, plane);
	pl->flags = WIRE_GET8(b, mrc_wire_plane, flags);
	pl->udp_port = WIRE_GET16(b, mrc_wire_plane, udp_port);
	/* addresses stay in network order, as struct mrc_core_plane says */
	memcpy(&pl->addr4, b + offsetof(struct mrc_wire_plane, addr4),
	       sizeof(pl->addr4));
	memcpy(pl->addr6, b + offsetof(struct mrc_wire_plane, addr6),
	       sizeof(pl->addr6));
}

/*
 * The SYN body announces its plane count, so its length is only known
 * here: fewer planes than announced is a truncation, more is garbage.
 */
static int mrc_wire_get_syn(const u8 *b, u32 body_len,
			    struct mrc_pkt_syn *syn)
{
	u32 i;

	syn->nplanes = WIRE_GET8(b, mrc_syn, nplanes);
	if (!syn->nplanes || syn->nplanes > MRC_WIRE_MAX_PLANES)
		return MRC_DROP_MALFORMED;
	if (body_len < mrc_wire_body_len(MRC_PKT_SYN, syn->nplanes))
		return MRC_DROP_SHORT;
	if (body_len > mrc_wire_body_len(MRC_PKT_SYN, syn->nplanes))
		return MRC_DROP_MALFORMED;

	syn->isn = WIRE_GET32(b, mrc_syn, isn);
	syn->rwnd = WIRE_GET32(b, mrc_syn, rwnd);
	syn->src_port = WIRE_GET16(b, mrc_syn, src_port);
	syn->dst_port = WIRE_GET16(b, mrc_syn, dst_port);
	syn->mss = WIRE_GET16(b, mrc_syn, mss);
	syn->sock_type = WIRE_GET8(b, mrc_syn, sock_type);
	syn->ev_count = WIRE_GET16(b, mrc_syn, ev_count);
	b += sizeof(struct mrc_syn);
	for (i = 0; i < syn->nplanes; i++, b += sizeof(struct mrc_wire_plane))
		mrc_wire_get_plane(b, &syn->planes[i]);
	return MRC_DROP_NONE;
}

static void mrc_wire_get_hdr(const u8 *b, struct mrc_pkt *pkt)
{
	pkt->type = WIRE_GET8(b, mrc_hdr, ver_type) & 0xf;
	pkt->flags = WIRE_GET8(b, mrc_hdr, flags);
	pkt->dst_token = WIRE_GET32(b, mrc_hdr, dst_token);
	pkt->src_token = WIRE_GET32(b, mrc_hdr, src_token);
	pkt->ev = WIRE_GET32(b, mrc_hdr, ev);
	pkt->buf = NULL;
}

/*
 * Decode @body (length already checked against the type's fixed size);
 * a DATA payload is at b + fixed when @whole, elsewhere if not.
 */
static int mrc_wire_get_body(const u8 *b, u32 body_len, bool whole,
			     struct mrc_pkt *pkt)
{
	u32 fixed = mrc_wire_body_size[pkt->type];

	pkt->payload = NULL;
	pkt->payload_len = 0;
	if (pkt->type == MRC_PKT_DATA) {
		mrc_wire_get_data(b, &pkt->data);
		pkt->payload = whole ? b + fixed : NULL;
		pkt->payload_len = body_len - fixed;
		return MRC_DROP_NONE;
	}
	if (mrc_wire_is_syn(pkt->type))
		return mrc_wire_get_syn(b, body_len, &pkt->syn);
	if (body_len != fixed)
		return MRC_DROP_MALFORMED;

	switch (pkt->type) {
	case MRC_PKT_SACK:
		mrc_wire_get_sack(b, &pkt->sack);
		break;
	case MRC_PKT_NACK:
		mrc_wire_get_nack(b, &pkt->nack);
		break;
	case MRC_PKT_PROBE:
	case MRC_PKT_PROBE_REPLY:
		mrc_wire_get_probe(b, &pkt->probe);
		break;
	case MRC_PKT_FIN:
		pkt->fin_end_psn = WIRE_GET32(b, mrc_fin, end_psn);
		break;
	case MRC_PKT_RST:
		pkt->rst_reason = WIRE_GET32(b, mrc_rst, reason);
		break;
	}
	return MRC_DROP_NONE;
}

u32 mrc_wire_head_len(u8 type, u32 len)
{
	if (type == MRC_PKT_DATA)
		return sizeof(struct mrc_hdr) + sizeof(struct mrc_data);
	return len;
}

int mrc_wire_parse_head(const void *buf, u32 head_len, u32 len,
			struct mrc_pkt *pkt)
{
	const u8 *b = buf;
	u32 body_len;
	u8 ver_type;
	int ret;

	if (len < sizeof(struct mrc_hdr) || head_len < sizeof(struct mrc_hdr) ||
	    head_len > len)
		return MRC_DROP_SHORT;
	ver_type = WIRE_GET8(b, mrc_hdr, ver_type);
	if ((ver_type >> 4) != MRC_WIRE_VERSION)
		return MRC_DROP_VERSION;
	if (!mrc_wire_type_known(ver_type & 0xf))
		return MRC_DROP_TYPE;
	body_len = WIRE_GET16(b, mrc_hdr, body_len);
	if (body_len != len - sizeof(struct mrc_hdr))
		return MRC_DROP_LENGTH;
	if (body_len < mrc_wire_body_size[ver_type & 0xf])
		return MRC_DROP_SHORT;
	if (head_len < len &&
	    head_len < mrc_wire_head_len(ver_type & 0xf, len))
		return MRC_DROP_SHORT;

	mrc_wire_get_hdr(b, pkt);
	ret = mrc_wire_get_body(b + sizeof(struct mrc_hdr), body_len,
				head_len == len, pkt);
	if (ret)
		return ret;
	return mrc_wire_check(pkt);
}

int mrc_wire_parse(const void *buf, u32 len, struct mrc_pkt *pkt)
{
	return mrc_wire_parse_head(buf, len, len, pkt);
}

int mrc_wire_parse_trimmed(const void *buf, u32 len, struct mrc_pkt *pkt)
{
	const u8 *b = buf;
	u8 ver_type;
	int ret;

	if (len < sizeof(struct mrc_hdr) + sizeof(struct mrc_data))
		return MRC_DROP_SHORT;
	ver_type = WIRE_GET8(b, mrc_hdr, ver_type);
	if ((ver_type >> 4) != MRC_WIRE_VERSION)
		return MRC_DROP_VERSION;
	if ((ver_type & 0xf) != MRC_PKT_DATA)
		return MRC_DROP_TYPE;
	/* body_len still counts the payload the switch cut: there was one */
	if (WIRE_GET16(b, mrc_hdr, body_len) <= sizeof(struct mrc_data))
		return MRC_DROP_MALFORMED;

	mrc_wire_get_hdr(b, pkt);
	mrc_wire_get_data(b + sizeof(struct mrc_hdr), &pkt->data);
	pkt->payload = NULL;
	pkt->payload_len = 0;
	ret = mrc_wire_check_tokens(pkt);
	if (ret)
		return ret;
	if (!mrc_wire_psn_ok(pkt, pkt->data.psn) ||
	    !mrc_wire_plane_id_ok(pkt->data.plane))
		return MRC_DROP_MALFORMED;
	return MRC_DROP_NONE;
}

static void mrc_wire_put_data(const struct mrc_pkt_data *data, u8 *b)
{
	WIRE_PUT32(data->psn, b, mrc_data, psn);
	WIRE_PUT32(data->tsval, b, mrc_data, tsval);
	WIRE_PUT16(data->plane, b, mrc_data, plane);
}

static void mrc_wire_put_sack(const struct mrc_pkt_sack *sack, u8 *b)
{
	WIRE_PUT32(sack->cum_psn, b, mrc_sack, cum_psn);
	WIRE_PUT32(sack->sack_base, b, mrc_sack, sack_base);
	WIRE_PUT64(sack->bitmap, b, mrc_sack, bitmap);
	WIRE_PUT32(sack->trig_psn, b, mrc_sack, trig_psn);
	WIRE_PUT32(sack->echo_ev, b, mrc_sack, echo_ev);
	WIRE_PUT32(sack->ts_echo, b, mrc_sack, ts_echo);
	WIRE_PUT32(sack->rwnd, b, mrc_sack, rwnd);
	WIRE_PUT32(sack->rcv_bytes, b, mrc_sack, rcv_bytes);
	WIRE_PUT16(sack->ooo_count, b, mrc_sack, ooo_count);
	WIRE_PUT8(sack->ce_count, b, mrc_sack, ce_count);
	WIRE_PUT8(sack->cc_flags, b, mrc_sack, cc_flags);
	WIRE_PUT16(sack->plane_up, b, mrc_sack, plane_up);
}

static void mrc_wire_put_nack(const struct mrc_pkt_nack *nack, u8 *b)
{
	WIRE_PUT32(nack->psn, b, mrc_nack, psn);
	WIRE_PUT32(nack->cum_psn, b, mrc_nack, cum_psn);
	WIRE_PUT32(nack->echo_ev, b, mrc_nack, echo_ev);
	WIRE_PUT8(nack->reason, b, mrc_nack, reason);
}

static void mrc_wire_put_probe(const struct mrc_pkt_probe *probe, u8 *b)
{
	WIRE_PUT32(probe->probe_id, b, mrc_probe, probe_id);
	WIRE_PUT32(probe->tsval, b, mrc_probe, tsval);
	WIRE_PUT16(probe->plane, b, mrc_probe, plane);
	WIRE_PUT16(probe->plane_up, b, mrc_probe, plane_up);
}

static void mrc_wire_put_plane(const struct mrc_core_plane *pl, u8 *b)
{
	WIRE_PUT8(pl->id, b, mrc_wire_plane, plane);
	WIRE_PUT8(pl->flags, b, mrc_wire_plane, flags);
	WIRE_PUT16(pl->udp_port, b, mrc_wire_plane, udp_port);
	memcpy(b + offsetof(struct mrc_wire_plane, addr4), &pl->addr4,
	       sizeof(pl->addr4));
	memcpy(b + offsetof(struct mrc_wire_plane, addr6), pl->addr6,
	       sizeof(pl->addr6));
}

static void mrc_wire_put_syn(const struct mrc_pkt_syn *syn, u8 *b)
{
	u32 i;

	WIRE_PUT32(syn->isn, b, mrc_syn, isn);
	WIRE_PUT32(syn->rwnd, b, mrc_syn, rwnd);
	WIRE_PUT16(syn->src_port, b, mrc_syn, src_port);
	WIRE_PUT16(syn->dst_port, b, mrc_syn, dst_port);
	WIRE_PUT16(syn->mss, b, mrc_syn, mss);
	WIRE_PUT8(syn->sock_type, b, mrc_syn, sock_type);
	WIRE_PUT8(syn->nplanes, b, mrc_syn, nplanes);
	WIRE_PUT16(syn->ev_count, b, mrc_syn, ev_count);
	b += sizeof(struct mrc_syn);
	for (i = 0; i < syn->nplanes; i++, b += sizeof(struct mrc_wire_plane))
		mrc_wire_put_plane(&syn->planes[i], b);
}

static void mrc_wire_put_body(const struct mrc_pkt *pkt, u8 *b)
{
	switch (pkt->type) {
	case MRC_PKT_DATA:
		mrc_wire_put_data(&pkt->data, b);
		break;
	case MRC_PKT_SACK:
		mrc_wire_put_sack(&pkt->sack, b);
		break;
	case MRC_PKT_NACK:
		mrc_wire_put_nack(&pkt->nack, b);
		break;
	case MRC_PKT_PROBE:
	case MRC_PKT_PROBE_REPLY:
		mrc_wire_put_probe(&pkt->probe, b);
		break;
	case MRC_PKT_SYN:
	case MRC_PKT_SYN_ACK:
		mrc_wire_put_syn(&pkt->syn, b);
		break;
	case MRC_PKT_FIN:
		WIRE_PUT32(pkt->fin_end_psn, b, mrc_fin, end_psn);
		break;
	case MRC_PKT_RST:
		WIRE_PUT32(pkt->rst_reason, b, mrc_rst, reason);
		break;
	}
}

u32 mrc_wire_build_reset(const struct mrc_pkt *pkt, void *buf, u32 buflen)
{
	struct mrc_pkt rst = {
		.type = MRC_PKT_RST,
		.flags = pkt->flags & (MRC_F_PSN24 | MRC_F_EARLY),
		.dst_token = pkt->src_token,
		.src_token = pkt->dst_token,
		.ev = pkt->ev,
		.rst_reason = ECONNRESET,
	};

	return mrc_wire_build(&rst, buf, buflen);
}

u32 mrc_wire_build(const struct mrc_pkt *pkt, void *buf, u32 buflen)
{
	u32 body_len, len, nplanes = 0;
	u8 *b = buf;

	if (!mrc_wire_type_known(pkt->type) || mrc_wire_check(pkt))
		return 0;
	if (mrc_wire_is_syn(pkt->type))
		nplanes = pkt->syn.nplanes;
	body_len = mrc_wire_body_len(pkt->type, nplanes);
	len = sizeof(struct mrc_hdr) + body_len;
	if (pkt->type == MRC_PKT_DATA) {
		if (pkt->payload_len > MRC_WIRE_MAX_BODY - body_len)
			return 0;
		body_len += pkt->payload_len;
	}
	if (buflen < len)
		return 0;

	/* reserved fields go out as zero */
	memset(b, 0, len);
	WIRE_PUT8(MRC_WIRE_VERSION << 4 | pkt->type, b, mrc_hdr, ver_type);
	WIRE_PUT8(pkt->flags, b, mrc_hdr, flags);
	WIRE_PUT16(body_len, b, mrc_hdr, body_len);
	WIRE_PUT32(pkt->dst_token, b, mrc_hdr, dst_token);
	WIRE_PUT32(pkt->src_token, b, mrc_hdr, src_token);
	WIRE_PUT32(pkt->ev, b, mrc_hdr, ev);
	mrc_wire_put_body(pkt, b + sizeof(struct mrc_hdr));
	return len;
}
