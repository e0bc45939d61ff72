/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MRC wire format, version 1. Every MRC packet is a UDP datagram (IPv4 or
 * IPv6) to the plane's UDP port (default MRC_DEFAULT_UDP_PORT). The UDP
 * source port carries the packet's entropy value (EV) so that the fabric's
 * ECMP hash picks a route per EV; on IPv6 the flow label carries it too.
 *
 * The UDP payload is one struct mrc_hdr followed by the type's body. All
 * multi-byte fields are big-endian (network order). Lengths and offsets
 * are in bytes. Receivers drop (and count) packets whose version is not
 * MRC_WIRE_VERSION, whose type is unknown, or that are shorter than their
 * type's body. Field tables: include/uapi/linux/mrc_wire.rst.
 */
#ifndef _UAPI_LINUX_MRC_WIRE_H
#define _UAPI_LINUX_MRC_WIRE_H

#include <linux/types.h>

#define MRC_WIRE_VERSION	1

enum mrc_pkt_type {
	MRC_PKT_DATA		= 1,	/* payload bytes */
	MRC_PKT_SACK		= 2,	/* selective acknowledgment */
	MRC_PKT_NACK		= 3,	/* negative acknowledgment */
	MRC_PKT_PROBE		= 4,	/* path probe */
	MRC_PKT_PROBE_REPLY	= 5,	/* answer to a probe, same EV */
	MRC_PKT_SYN		= 6,	/* connection request */
	MRC_PKT_SYN_ACK		= 7,	/* connection accepted */
	MRC_PKT_FIN		= 8,	/* no more data after fin_psn */
	MRC_PKT_RST		= 9,	/* connection aborted */
	__MRC_PKT_MAX
};

/* mrc_hdr.flags */
#define MRC_F_PSN24	0x01	/* PSNs are 24-bit (compare modulo 2^24) */
#define MRC_F_SOM	0x02	/* DATA: first segment of a message */
#define MRC_F_EOM	0x04	/* DATA: last segment of a message */
#define MRC_F_ACK_NOW	0x08	/* DATA: ask for an immediate SACK */
#define MRC_F_RETX	0x10	/* DATA: a retransmission */
#define MRC_F_EARLY	0x20	/* DATA: first flight, before the SYN_ACK;
				 * RST: the answer to such DATA
				 */

/*
 * struct mrc_hdr - common header of every packet (16 bytes).
 * @ver_type:	version << 4 | enum mrc_pkt_type
 * @flags:	MRC_F_*
 * @body_len:	bytes after this header (body + payload)
 * @dst_token:	the receiver's connection token; in a SYN, 0 or the token
 *		the client proposes for the server (early data)
 * @src_token:	the sender's connection token
 * @ev:		entropy value this packet was sent with (its UDP source port)
 */
struct mrc_hdr {
	__u8	ver_type;
	__u8	flags;
	__be16	body_len;
	__be32	dst_token;
	__be32	src_token;
	__be32	ev;
};

/* struct mrc_data - DATA body, payload follows (12 bytes). */
struct mrc_data {
	__be32	psn;		/* packet sequence number */
	__be32	tsval;		/* sender's clock, microseconds, echoed */
	__be16	plane;		/* sender's plane id */
	__be16	reserved;
};

/* mrc_sack.cc_flags */
#define MRC_SACK_CE	0x01	/* the triggering packet had CE set */

/*
 * struct mrc_sack - selective acknowledgment (48 bytes).
 * @cum_psn:	every PSN before this one has been received
 * @sack_base:	first PSN covered by @bitmap (a multiple of 64)
 * @bitmap:	bit i set: PSN sack_base + i received
 * @trig_psn:	PSN of the DATA packet that triggered this SACK
 * @echo_ev:	EV of that packet
 * @ts_echo:	tsval of that packet
 * @rwnd:	bytes the receiver can take beyond @cum_psn's data
 * @rcv_bytes:	payload bytes received in order so far (low 32 bits)
 * @ooo_count:	packets held out of order
 * @ce_count:	CE-marked packets since the previous SACK
 * @cc_flags:	MRC_SACK_*
 * @plane_up:	bit p set: the receiver's plane p is up
 */
struct mrc_sack {
	__be32	cum_psn;
	__be32	sack_base;
	__be64	bitmap;
	__be32	trig_psn;
	__be32	echo_ev;
	__be32	ts_echo;
	__be32	rwnd;
	__be32	rcv_bytes;
	__be16	ooo_count;
	__u8	ce_count;
	__u8	cc_flags;
	__be16	plane_up;
	__be16	reserved;
	__be32	reserved2;
};

enum mrc_nack_reason {
	MRC_NACK_TRIMMED		= 1,
	MRC_NACK_TRIMMED_LASTHOP	= 2,
	MRC_NACK_NO_BITMAP		= 3,
	MRC_NACK_NO_BUFFER		= 4,
	MRC_NACK_NO_RESOURCE		= 5,
	MRC_NACK_PSN_OUT_OF_WINDOW	= 6,
	MRC_NACK_UNEXPECTED		= 7,
};

/* struct mrc_nack - negative acknowledgment (16 bytes). */
struct mrc_nack {
	__be32	psn;		/* the refused or trimmed PSN */
	__be32	cum_psn;	/* as in SACK */
	__be32	echo_ev;
	__u8	reason;		/* enum mrc_nack_reason */
	__u8	reserved[3];
};

/* struct mrc_probe - PROBE and PROBE_REPLY body (12 bytes). */
struct mrc_probe {
	__be32	probe_id;	/* echoed by the reply */
	__be32	tsval;		/* echoed by the reply */
	__be16	plane;		/* plane the probe went out on */
	__be16	plane_up;	/* sender's up planes, as in SACK */
};

/* One plane address advertised in SYN / SYN_ACK (24 bytes). */
#define MRC_PLANE_F_V4	0x01
#define MRC_PLANE_F_V6	0x02
struct mrc_wire_plane {
	__u8	plane;		/* plane id; peers pair planes by id */
	__u8	flags;		/* MRC_PLANE_F_* */
	__be16	udp_port;
	__be32	addr4;
	__u8	addr6[16];
};

/*
 * struct mrc_syn - SYN and SYN_ACK body (20 bytes), then @nplanes
 * struct mrc_wire_plane.
 * @isn:	first PSN the sender will use
 * @rwnd:	initial receive window, bytes
 * @src_port:	sender's service port (sockaddr_mrc.mrc_port)
 * @dst_port:	service port asked for (SYN) or the listener's (SYN_ACK)
 * @mss:	largest DATA payload the sender accepts
 * @sock_type:	1 = stream, 2 = seqpacket (must match the listener)
 * @nplanes:	planes advertised
 * @ev_count:	EVs the sender wants per connection (informative)
 */
struct mrc_syn {
	__be32	isn;
	__be32	rwnd;
	__be16	src_port;
	__be16	dst_port;
	__be16	mss;
	__u8	sock_type;
	__u8	nplanes;
	__be16	ev_count;
	__be16	reserved;
};

#define MRC_SYN_STREAM		1
#define MRC_SYN_SEQPACKET	2
#define MRC_WIRE_MAX_PLANES	16

/* struct mrc_fin - FIN body (4 bytes): the PSN after the last DATA. */
struct mrc_fin {
	__be32	end_psn;
};

/* struct mrc_rst - RST body (4 bytes). */
struct mrc_rst {
	__be32	reason;		/* an errno value, informative */
};

#endif /* _UAPI_LINUX_MRC_WIRE_H */
