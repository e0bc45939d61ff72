/* SPDX-License-Identifier: GPL-2.0 */
/* UDP encapsulation of MRC packets on planes: sockets, transmit (udp.c). */
#ifndef __MRC_UDP_H
#define __MRC_UDP_H

#include <linux/types.h>

struct mrc_conn;
struct mrc_core_plane;
struct mrc_net;
struct mrc_plane;
struct net;
struct sk_buff;
struct sk_buff_head;
struct socket;
struct ubuf_info;

/* A plane's kernel UDP sockets; v6 is NULL where IPv6 is off. */
struct mrc_udp_socks {
	struct socket	*v4;
	struct socket	*v6;
};

/*
 * DATA packets held back to go out as one UDP GSO skb (udp.c), in struct
 * mrc_conn, under its lock: @skb (NULL: no train), on @plane to @peer
 * with EV @ev, @segs packets of @seg_len bytes but the last, which is
 * shorter when @closed; @uarg: the MSG_ZEROCOPY send whose pages it
 * carries, or NULL. @tail: the skb the next packet's fragments go in,
 * @skb itself or the last on its frag_list.
 */
struct mrc_udp_train {
	struct sk_buff			*skb;
	struct sk_buff			*tail;
	struct ubuf_info		*uarg;
	const struct mrc_core_plane	*peer;
	u32				plane;
	u32				ev;
	u16				segs;
	u16				seg_len;
	bool				closed;
};

/*
 * A connection's route to its peer on one plane (udp.c), in struct
 * mrc_conn, under its lock, as TCP keeps sk_dst_cache: @dst is a
 * reference, checked with dst_check() before each use (a route or
 * address change makes it obsolete; a device going away makes it dead,
 * without waiting for us to let go: dst_dev_put()). IPv4 also keeps the
 * source address the plane had then (@saddr4_cfg, 0 for none) and the
 * one used (@saddr4). Dropped on the connection's plane changes, at
 * establishment (the peer's plane addresses are known from then on) and
 * when the connection dies.
 */
struct mrc_udp_route {
	struct dst_entry	*dst;
	__be32			saddr4;
	__be32			saddr4_cfg;
	u32			cookie;		/* IPv6: dst_check()'s */
};

int mrc_udp_open(struct net *net, struct mrc_plane *pl, u16 port,
		 struct mrc_udp_socks *socks);
void mrc_udp_close(struct mrc_udp_socks *socks);
int mrc_udp_xmit(struct mrc_net *mn, u32 plane,
		 const struct mrc_core_plane *peer, u32 ev, const void *hdr,
		 u32 hdr_len, const void *payload, u32 payload_len);
int mrc_udp_xmit_conn(struct mrc_conn *conn, u32 plane,
		      const struct mrc_core_plane *peer, u32 ev,
		      const void *hdr, u32 hdr_len, const void *payload,
		      u32 payload_len, void *ref);
void mrc_udp_flush(struct mrc_conn *conn);
void mrc_udp_tx_deferred(struct mrc_net *mn, struct sk_buff_head *q);
void mrc_udp_route_drop(struct mrc_conn *conn, u32 plane);
void mrc_udp_routes_drop(struct mrc_conn *conn);

#endif /* __MRC_UDP_H */
