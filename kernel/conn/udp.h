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
struct socket;

/* A plane's kernel UDP sockets; v6 is NULL where IPv6 is off. */
struct mrc_udp_socks {
	struct socket	*v4;
	struct socket	*v6;
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
		      u32 payload_len);

#endif /* __MRC_UDP_H */
