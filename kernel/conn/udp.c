// SPDX-License-Identifier: GPL-2.0
/*
 * UDP encapsulation: each plane owns kernel UDP sockets (IPv4 and IPv6)
 * bound to its port and device, whose encap hook is mrc_demux_rcv()
 * (demux.c). Transmit builds the UDP/IP packet around what the core
 * produced, with the EV as UDP source port (and IPv6 flow label) and
 * ECT(0) set.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/addrconf.h>
#include <net/inet_ecn.h>
#include <net/ip6_route.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "offload/offload.h"
#include "pernet.h"
#include "conn/conn.h"
#include "ctl/plane.h"
#include "sock/sock.h"
#include "conn/demux.h"
#include "conn/udp.h"

static int mrc_udp_xmit4(struct net *net, struct mrc_plane *pl, __be32 saddr,
			 const struct mrc_core_plane *peer, u32 ev, u8 ecn,
			 struct sk_buff *skb)
{
	struct flowi4 fl4 = {
		.flowi4_oif = pl->dev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.daddr = peer->addr4,
		.saddr = saddr,
		.fl4_sport = htons(ev),
		.fl4_dport = htons(peer->udp_port),
	};
	struct rtable *rt = ip_route_output_key(net, &fl4);

	if (IS_ERR(rt)) {
		kfree_skb(skb);
		return PTR_ERR(rt);
	}
	udp_tunnel_xmit_skb(rt, NULL, skb, fl4.saddr, fl4.daddr,
			    ecn, ip4_dst_hoplimit(&rt->dst),
			    htons(IP_DF), htons(ev), htons(peer->udp_port),
			    false, false);
	return 0;
}

/* IPv4: the offload device first, when @conn has one on @pl. */
static int mrc_udp_xmit4_any(struct mrc_conn *conn, struct mrc_plane *pl,
			     __be32 saddr, const struct mrc_core_plane *peer,
			     u32 ev, u8 ecn, struct sk_buff *skb)
{
	struct mrc_offload_binding *b;

	b = conn ? mrc_offload_tx_binding(conn, pl->id) : NULL;
	if (b && !mrc_offload_xmit(b, pl, skb, saddr, peer, ev, ecn))
		return 0;
	return mrc_udp_xmit4(dev_net(pl->dev), pl, saddr, peer, ev, ecn, skb);
}

static int mrc_udp_xmit6(struct net *net, struct mrc_plane *pl,
			 const struct in6_addr *saddr,
			 const struct mrc_core_plane *peer, u32 ev, u8 ecn,
			 struct sk_buff *skb)
{
	struct flowi6 fl6 = {
		.flowi6_oif = pl->dev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.saddr = *saddr,
		.flowlabel = htonl(ev & 0xfffff),
		.fl6_sport = htons(ev),
		.fl6_dport = htons(peer->udp_port),
	};
	struct dst_entry *dst;

	memcpy(&fl6.daddr, peer->addr6, sizeof(fl6.daddr));
	dst = ipv6_stub->ipv6_dst_lookup_flow(net, NULL, &fl6, NULL);
	if (IS_ERR(dst)) {
		kfree_skb(skb);
		return PTR_ERR(dst);
	}
	return udp_tunnel6_xmit_skb(dst, NULL, skb, pl->dev, &fl6.saddr,
				    &fl6.daddr, ecn,
				    ip6_dst_hoplimit(dst), fl6.flowlabel,
				    htons(ev), htons(peer->udp_port), false);
}

/*
 * __mrc_udp_xmit - send one MRC packet on our plane @plane to @peer, with
 * UDP source port @ev; through @conn's offload device on that plane when
 * it has one and takes the packet. Any context with BHs off.
 */
static int __mrc_udp_xmit(struct mrc_net *mn, struct mrc_conn *conn,
			  u32 plane, const struct mrc_core_plane *peer, u32 ev,
			  const void *hdr, u32 hdr_len, const void *payload,
			  u32 payload_len)
{
	u32 room = LL_MAX_HEADER + sizeof(struct ipv6hdr) +
		   sizeof(struct udphdr);
	const struct mrc_plane_addr *a;
	struct mrc_plane *pl;
	struct sk_buff *skb;
	__be32 saddr4;
	u8 ecn;
	int err;

	if (plane >= MRC_MAX_PLANES || !peer)
		return -EINVAL;
	rcu_read_lock();
	pl = rcu_dereference(mn->planes[plane]);
	err = -ENETDOWN;
	if (!pl || !mrc_plane_usable(pl))
		goto out;
	err = -ENOBUFS;
	skb = alloc_skb(room + hdr_len + payload_len, GFP_ATOMIC);
	if (!skb)
		goto out;
	skb_reserve(skb, room);
	skb_put_data(skb, hdr, hdr_len);
	if (payload_len)
		skb_put_data(skb, payload, payload_len);

	/* ECT(0) on DATA only: switches mark data, never acknowledgements. */
	ecn = (((const u8 *)hdr)[0] & 0xf) == MRC_PKT_DATA ? INET_ECN_ECT_0 :
	      INET_ECN_NOT_ECT;
	a = rcu_dereference(pl->addr);
	/*
	 * From the address connections advertise for this plane (the one
	 * set, else the device's: mrc_conn_cfg_planes()), never one the
	 * route picks: the peer takes the plane's packets from there only.
	 */
	saddr4 = a->has_addr4 ? a->addr4 :
		 inet_select_addr(pl->dev, 0, RT_SCOPE_UNIVERSE);
	if (peer->flags & MRC_PLANE_F_V4)
		err = mrc_udp_xmit4_any(conn, pl, saddr4, peer, ev, ecn, skb);
	else if ((peer->flags & MRC_PLANE_F_V6) && a->has_addr6)
		err = mrc_udp_xmit6(mn->net, pl, &a->addr6, peer, ev, ecn,
				    skb);
	else
		err = -EAFNOSUPPORT;
	if (err == -EAFNOSUPPORT)
		kfree_skb(skb);
	if (!err) {
		mrc_plane_mib_add(pl, MRC_PLANE_MIB_TXPKTS, 1);
		mrc_plane_mib_add(pl, MRC_PLANE_MIB_TXBYTES,
				  hdr_len + payload_len);
	}
out:
	rcu_read_unlock();
	if (err)
		mrc_mib_inc(mn->net, MRC_MIB_TXERR);
	return err;
}

/* A packet of no connection (RST, SYN answers): software only. */
int mrc_udp_xmit(struct mrc_net *mn, u32 plane,
		 const struct mrc_core_plane *peer, u32 ev, const void *hdr,
		 u32 hdr_len, const void *payload, u32 payload_len)
{
	return __mrc_udp_xmit(mn, NULL, plane, peer, ev, hdr, hdr_len,
			      payload, payload_len);
}

/* A packet of @conn: its offload device, if any, may send it. */
int mrc_udp_xmit_conn(struct mrc_conn *conn, u32 plane,
		      const struct mrc_core_plane *peer, u32 ev,
		      const void *hdr, u32 hdr_len, const void *payload,
		      u32 payload_len)
{
	return __mrc_udp_xmit(conn->mn, conn, plane, peer, ev, hdr, hdr_len,
			      payload, payload_len);
}

static int mrc_udp_sock(struct net *net, struct mrc_plane *pl, int family,
			u16 port, struct socket **sockp)
{
	struct udp_tunnel_sock_cfg tun = {
		.sk_user_data = pl,
		.encap_type = 1,
		.encap_rcv = mrc_demux_rcv,
		.encap_err_lookup = mrc_demux_err_lookup,
		.encap_err_rcv = mrc_demux_err,
	};
	struct udp_port_cfg cfg = {
		.family = family,
		.local_udp_port = htons(port),
		.bind_ifindex = pl->dev->ifindex,
		.use_udp_checksums = 1,
		.use_udp6_tx_checksums = 1,
		.use_udp6_rx_checksums = 1,
		.ipv6_v6only = 1,
	};
	int err;

	if (family == AF_INET)
		err = udp_sock_create4(net, &cfg, sockp);
	else
		err = udp_sock_create6(net, &cfg, sockp);
	if (err)
		return err;
	setup_udp_tunnel_sock(net, *sockp, &tun);
	return 0;
}

/*
 * mrc_udp_open - bind @pl's sockets to UDP @port on its device.
 * IPv6 is optional (the host may have it disabled). Process context.
 */
int mrc_udp_open(struct net *net, struct mrc_plane *pl, u16 port,
		 struct mrc_udp_socks *socks)
{
	int err;

	socks->v4 = NULL;
	socks->v6 = NULL;
	err = mrc_udp_sock(net, pl, AF_INET, port, &socks->v4);
	if (err)
		return err;
	err = mrc_udp_sock(net, pl, AF_INET6, port, &socks->v6);
	if (err && err != -EAFNOSUPPORT) {
		mrc_udp_close(socks);
		return err;
	}
	return 0;
}

/* Process context; RX readers in flight finish under RCU. */
void mrc_udp_close(struct mrc_udp_socks *socks)
{
	if (socks->v4)
		udp_tunnel_sock_release(socks->v4);
	if (socks->v6)
		udp_tunnel_sock_release(socks->v6);
	socks->v4 = NULL;
	socks->v6 = NULL;
}
