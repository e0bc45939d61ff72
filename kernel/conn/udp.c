// SPDX-License-Identifier: GPL-2.0
/*
 * UDP encapsulation: each plane owns kernel UDP sockets (IPv4 and IPv6)
 * bound to its port and device, whose encap hook is mrc_demux_rcv()
 * (demux.c). Transmit builds the UDP/IP packet around what the core
 * produced, with the EV as UDP source port (and IPv6 flow label), ECT(0)
 * on DATA and control packets at TC_PRIO_CONTROL. The skb's head holds
 * the headers; a payload the core queued by reference (a send-buffer
 * handle, buf.h: the socket's page-fragment send buffer or a user page of
 * a MSG_ZEROCOPY send) is attached as a page fragment with a reference of
 * the skb's own, not copied, so the segment may be acknowledged and freed
 * while the packet still waits in a qdisc. A MSG_ZEROCOPY payload also
 * ties the skb to its send (skb_zcopy_set()): the sender hears of the
 * completion only once the skb is freed, and a stack that loops the
 * packet back to a local receiver copies the user's page first
 * (skb_orphan_frags_rx()).
 * A connection's packets are built and routed under its lock, and sent
 * after it is dropped (mrc_conn_unlock()): the IP output, the qdisc and
 * the device's transmit no longer hold back the connection's other CPU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/ipv6.h>
#include <linux/pkt_sched.h>
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
#include "conn/buf.h"
#include "conn/conn.h"
#include "ctl/plane.h"
#include "sock/sock.h"
#include "conn/demux.h"
#include "conn/udp.h"

/*
 * @route's cached dst, still valid, with a reference for the caller; else
 * NULL, and the cache emptied.
 */
static struct dst_entry *mrc_udp_route_get(struct mrc_udp_route *route)
{
	struct dst_entry *dst;

	if (!route || !route->dst)
		return NULL;
	dst = dst_check(route->dst, route->cookie);
	if (!dst) {
		dst_release(route->dst);
		route->dst = NULL;
		return NULL;
	}
	dst_hold(dst);
	return dst;
}

/* Keep @dst (the caller's reference stays the caller's) in @route. */
static void mrc_udp_route_set(struct mrc_udp_route *route,
			      struct dst_entry *dst, u32 cookie)
{
	if (!route)
		return;
	dst_release(route->dst);
	dst_hold(dst);
	route->dst = dst;
	route->cookie = cookie;
}

/*
 * The route from our plane @pl (source @saddr_cfg, the plane's address or
 * 0 to take the device's) to @peer, from @route's cache when it has one
 * for that source. Every EV shares it: the EV is the UDP source port the
 * fabric hashes, not something our own routing looks at (a host route
 * that hashes on ports would see one EV's choice for all, as a TCP
 * socket's cached route does). Return: the route, referenced, its source
 * in *@saddr.
 */
static struct rtable *mrc_udp_route4(struct net *net, struct mrc_plane *pl,
				     __be32 saddr_cfg,
				     const struct mrc_core_plane *peer,
				     u32 ev, struct mrc_udp_route *route,
				     __be32 *saddr)
{
	struct flowi4 fl4 = {
		.flowi4_oif = pl->dev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.daddr = peer->addr4,
		.fl4_sport = htons(ev),
		.fl4_dport = htons(peer->udp_port),
	};
	struct dst_entry *dst = NULL;
	struct rtable *rt;

	if (route && route->saddr4_cfg == saddr_cfg)
		dst = mrc_udp_route_get(route);
	if (dst) {
		*saddr = route->saddr4;
		return (struct rtable *)dst;
	}
	/*
	 * From the address connections advertise for this plane (the one
	 * set, else the device's: mrc_conn_cfg_planes()), never one the
	 * route picks: the peer takes the plane's packets from there only.
	 */
	fl4.saddr = saddr_cfg ?: inet_select_addr(pl->dev, 0,
						  RT_SCOPE_UNIVERSE);
	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return rt;
	if (route) {
		mrc_udp_route_set(route, &rt->dst, 0);
		route->saddr4_cfg = saddr_cfg;
		route->saddr4 = fl4.saddr;
	}
	*saddr = fl4.saddr;
	return rt;
}

/*
 * What a packet built under conn->lock needs to go out after it
 * (mrc_udp_tx_deferred()), in its skb->cb: its route (a reference), its
 * addresses and ports. An IPv6 packet takes its source from the plane
 * again at transmit; its route was looked up for the source it had then.
 */
struct mrc_udp_cb {
	struct dst_entry	*dst;
	union {
		struct in6_addr	daddr6;
		__be32		daddr4;
	};
	__be32			saddr4;
	u32			ev;
	__be16			dport;
	u8			plane;
	u8			ecn;
	bool			v6;
};

#define MRC_UDP_CB(skb)	((struct mrc_udp_cb *)(skb)->cb)

/*
 * Leave routed @skb (its cb filled but for the peer's port, EV, ECN and
 * plane) to be sent when @conn is unlocked (mrc_conn_unlock()). Under
 * conn->lock.
 */
static void mrc_udp_defer(struct mrc_conn *conn, struct sk_buff *skb,
			  const struct mrc_core_plane *peer, u32 plane, u32 ev,
			  u8 ecn)
{
	struct mrc_udp_cb *cb = MRC_UDP_CB(skb);

	BUILD_BUG_ON(sizeof(*cb) > sizeof(skb->cb));
	lockdep_assert_held(&conn->lock);
	cb->ev = ev;
	cb->dport = htons(peer->udp_port);
	cb->plane = plane;
	cb->ecn = ecn;
	__skb_queue_tail(&conn->tx_defer, skb);
}

static void mrc_udp_send4(struct sk_buff *skb, struct rtable *rt,
			  __be32 saddr, __be32 daddr, u32 ev, __be16 dport,
			  u8 ecn)
{
	udp_tunnel_xmit_skb(rt, NULL, skb, saddr, daddr, ecn,
			    ip4_dst_hoplimit(&rt->dst), htons(IP_DF),
			    htons(ev), dport, false, false);
}

/* @conn: send after its lock is dropped (NULL: now). */
static int mrc_udp_xmit4(struct net *net, struct mrc_conn *conn,
			 struct mrc_plane *pl, __be32 saddr_cfg,
			 const struct mrc_core_plane *peer, u32 ev, u8 ecn,
			 struct sk_buff *skb, struct mrc_udp_route *route)
{
	struct mrc_udp_cb *cb = MRC_UDP_CB(skb);
	struct rtable *rt;
	__be32 saddr;

	rt = mrc_udp_route4(net, pl, saddr_cfg, peer, ev, route, &saddr);
	if (IS_ERR(rt)) {
		kfree_skb(skb);
		return PTR_ERR(rt);
	}
	if (!conn) {
		mrc_udp_send4(skb, rt, saddr, peer->addr4, ev,
			      htons(peer->udp_port), ecn);
		return 0;
	}
	cb->dst = &rt->dst;
	cb->daddr4 = peer->addr4;
	cb->saddr4 = saddr;
	cb->v6 = false;
	mrc_udp_defer(conn, skb, peer, pl->id, ev, ecn);
	return 0;
}

/*
 * @conn's route cache for @plane (NULL: none, look the route up each
 * time), the array made on first use. Under conn->lock.
 */
static struct mrc_udp_route *mrc_udp_route_of(struct mrc_conn *conn,
					      u32 plane)
{
	if (!conn || plane >= MRC_MAX_PLANES)
		return NULL;
	lockdep_assert_held(&conn->lock);
	if (!conn->routes)
		conn->routes = kcalloc(MRC_MAX_PLANES, sizeof(*conn->routes),
				       GFP_ATOMIC);
	return conn->routes ? &conn->routes[plane] : NULL;
}

/* IPv4: the offload device first, when @conn has one on @pl. */
static int mrc_udp_xmit4_any(struct mrc_conn *conn, struct mrc_plane *pl,
			     __be32 saddr_cfg,
			     const struct mrc_core_plane *peer, u32 ev, u8 ecn,
			     struct sk_buff *skb)
{
	struct mrc_offload_binding *b;
	__be32 saddr;

	b = conn && !skb_is_gso(skb) ? mrc_offload_tx_binding(conn, pl->id) :
	    NULL;
	if (b) {
		saddr = saddr_cfg ?: inet_select_addr(pl->dev, 0,
						      RT_SCOPE_UNIVERSE);
		if (!mrc_offload_xmit(b, pl, skb, saddr, peer, ev, ecn))
			return 0;
	}
	return mrc_udp_xmit4(dev_net(pl->dev), conn, pl, saddr_cfg, peer, ev,
			     ecn, skb, mrc_udp_route_of(conn, pl->id));
}

/* As mrc_udp_route4(), for IPv6 (the source is always the plane's). */
static struct dst_entry *mrc_udp_route6(struct net *net, struct mrc_plane *pl,
					const struct in6_addr *saddr,
					const struct mrc_core_plane *peer,
					u32 ev, struct mrc_udp_route *route)
{
	struct flowi6 fl6 = {
		.flowi6_oif = pl->dev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.saddr = *saddr,
		.flowlabel = htonl(ev & 0xfffff),
		.fl6_sport = htons(ev),
		.fl6_dport = htons(peer->udp_port),
	};
	struct dst_entry *dst = mrc_udp_route_get(route);

	if (dst)
		return dst;
	memcpy(&fl6.daddr, peer->addr6, sizeof(fl6.daddr));
	dst = ipv6_stub->ipv6_dst_lookup_flow(net, NULL, &fl6, NULL);
	if (!IS_ERR(dst))
		mrc_udp_route_set(route, dst,
				  rt6_get_cookie((struct rt6_info *)dst));
	return dst;
}

/*
 * No device for the tunnel's statistics: ip6tunnel_xmit() counts into a
 * tunnel device's tstats, and a plane's device (a veth, a NIC) is none.
 */
static void mrc_udp_send6(struct sk_buff *skb, struct dst_entry *dst,
			  const struct in6_addr *saddr,
			  const struct in6_addr *daddr, u32 ev, __be16 dport,
			  u8 ecn)
{
	struct in6_addr src = *saddr, dst_addr = *daddr;

	udp_tunnel6_xmit_skb(dst, NULL, skb, NULL, &src, &dst_addr, ecn,
			     ip6_dst_hoplimit(dst), htonl(ev & 0xfffff),
			     htons(ev), dport, false);
}

/* As mrc_udp_xmit4(). */
static int mrc_udp_xmit6(struct net *net, struct mrc_conn *conn,
			 struct mrc_plane *pl, const struct in6_addr *saddr,
			 const struct mrc_core_plane *peer, u32 ev, u8 ecn,
			 struct sk_buff *skb, struct mrc_udp_route *route)
{
	struct mrc_udp_cb *cb = MRC_UDP_CB(skb);
	struct dst_entry *dst;

	dst = mrc_udp_route6(net, pl, saddr, peer, ev, route);
	if (IS_ERR(dst)) {
		kfree_skb(skb);
		return PTR_ERR(dst);
	}
	BUILD_BUG_ON(sizeof(cb->daddr6) != sizeof(peer->addr6));
	if (!conn) {
		mrc_udp_send6(skb, dst, saddr, (const void *)peer->addr6, ev,
			      htons(peer->udp_port), ecn);
		return 0;
	}
	cb->dst = dst;
	memcpy(&cb->daddr6, peer->addr6, sizeof(cb->daddr6));
	cb->v6 = true;
	mrc_udp_defer(conn, skb, peer, pl->id, ev, ecn);
	return 0;
}

/*
 * Send @skb, which mrc_udp_defer() left: an IPv6 packet from the plane's
 * address now, if it still has one. RCU held, BHs off.
 */
static void mrc_udp_send_deferred(struct mrc_net *mn, struct sk_buff *skb)
{
	struct mrc_udp_cb cb = *MRC_UDP_CB(skb);	/* IP reuses skb->cb */
	const struct mrc_plane_addr *a;
	struct mrc_plane *pl;

	if (!cb.v6) {
		mrc_udp_send4(skb, (struct rtable *)cb.dst, cb.saddr4,
			      cb.daddr4, cb.ev, cb.dport, cb.ecn);
		return;
	}
	pl = rcu_dereference(mn->planes[cb.plane]);
	a = pl ? rcu_dereference(pl->addr) : NULL;
	if (!a || !a->has_addr6) {
		dst_release(cb.dst);
		kfree_skb(skb);
		mrc_mib_inc(mn->net, MRC_MIB_TXERR);
		return;
	}
	mrc_udp_send6(skb, cb.dst, &a->addr6, &cb.daddr6, cb.ev, cb.dport,
		      cb.ecn);
}

/*
 * mrc_udp_tx_deferred - send the packets of @q, which a connection of
 * @mn built under its lock (mrc_conn_unlock()), in order. BHs off, the
 * connection's lock dropped.
 */
void mrc_udp_tx_deferred(struct mrc_net *mn, struct sk_buff_head *q)
{
	struct sk_buff *skb;

	rcu_read_lock();
	while ((skb = __skb_dequeue(q)))
		mrc_udp_send_deferred(mn, skb);
	rcu_read_unlock();
}

/* Forget @conn's route on @plane. Under conn->lock. */
void mrc_udp_route_drop(struct mrc_conn *conn, u32 plane)
{
	struct mrc_udp_route *route;

	lockdep_assert_held(&conn->lock);
	if (plane >= MRC_MAX_PLANES || !conn->routes)
		return;
	route = &conn->routes[plane];
	dst_release(route->dst);
	route->dst = NULL;
}

/* Forget every route of @conn, and the cache itself. Under conn->lock. */
void mrc_udp_routes_drop(struct mrc_conn *conn)
{
	u32 plane;

	for (plane = 0; plane < MRC_MAX_PLANES; plane++)
		mrc_udp_route_drop(conn, plane);
	kfree(conn->routes);
	conn->routes = NULL;
}

/*
 * The packet: headers in the head, with room for UDP/IP in front; the
 * payload copied after them, or, when it lies in send-buffer handle @ref
 * (buf.h; NULL: none), attached as a fragment holding its own reference.
 */
static struct sk_buff *mrc_udp_skb(const void *hdr, u32 hdr_len,
				   const void *payload, u32 payload_len,
				   void *ref)
{
	u32 room = LL_MAX_HEADER + sizeof(struct ipv6hdr) +
		   sizeof(struct udphdr);
	struct page *page = mrc_buf_page(ref);
	struct sk_buff *skb;

	skb = alloc_skb(room + hdr_len + (page ? 0 : payload_len),
			GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, room);
	skb_put_data(skb, hdr, hdr_len);
	if (page && payload_len) {
		get_page(page);
		skb_fill_page_desc(skb, 0, page,
				   (const u8 *)payload - (u8 *)page_address(page),
				   payload_len);
		skb->len += payload_len;
		skb->data_len += payload_len;
		skb->truesize += payload_len;
		skb_zcopy_set(skb, mrc_buf_uarg(ref), NULL);
	} else if (payload_len) {
		skb_put_data(skb, payload, payload_len);
	}
	return skb;
}

/*
 * mrc_udp_out - send @skb (data at the MRC header; @pkts MRC packets, more
 * than one in a GSO train) on our plane @plane to @peer, with UDP source
 * port @ev; through @conn's offload device on that plane when it has one
 * and takes the packet, else routed now and sent once @conn is unlocked
 * (mrc_udp_defer()). Consumes @skb. Any context with BHs off; @conn's
 * lock held.
 */
static int mrc_udp_out(struct mrc_net *mn, struct mrc_conn *conn, u32 plane,
		       const struct mrc_core_plane *peer, u32 ev, u8 ecn,
		       struct sk_buff *skb, u32 pkts)
{
	const struct mrc_plane_addr *a;
	struct mrc_plane *pl;
	u32 bytes = skb->len;
	__be32 saddr4;
	int err;

	rcu_read_lock();
	pl = plane < MRC_MAX_PLANES ? rcu_dereference(mn->planes[plane]) : NULL;
	err = -ENETDOWN;
	if (!pl || !mrc_plane_usable(pl)) {
		kfree_skb(skb);
		goto out;
	}
	a = rcu_dereference(pl->addr);
	saddr4 = a->has_addr4 ? a->addr4 : 0;
	if (peer->flags & MRC_PLANE_F_V4)
		err = mrc_udp_xmit4_any(conn, pl, saddr4, peer, ev, ecn, skb);
	else if ((peer->flags & MRC_PLANE_F_V6) && a->has_addr6)
		err = mrc_udp_xmit6(mn->net, conn, pl, &a->addr6, peer, ev,
				    ecn, skb, mrc_udp_route_of(conn, plane));
	else
		err = -EAFNOSUPPORT;
	if (err == -EAFNOSUPPORT)
		kfree_skb(skb);
	if (!err) {
		mrc_plane_mib_add(pl, MRC_PLANE_MIB_TXPKTS, pkts);
		mrc_plane_mib_add(pl, MRC_PLANE_MIB_TXBYTES, bytes);
		if (pkts > 1)
			mrc_plane_mib_add(pl, MRC_PLANE_MIB_TXTRAINS, 1);
	}
out:
	rcu_read_unlock();
	if (err)
		mrc_mib_inc(mn->net, MRC_MIB_TXERR);
	return err;
}

/* One MRC packet (@ref: see mrc_udp_skb()). */
static int __mrc_udp_xmit(struct mrc_net *mn, struct mrc_conn *conn,
			  u32 plane, const struct mrc_core_plane *peer, u32 ev,
			  const void *hdr, u32 hdr_len, const void *payload,
			  u32 payload_len, void *ref)
{
	struct sk_buff *skb;
	u8 ecn;

	if (!peer)
		return -EINVAL;
	skb = mrc_udp_skb(hdr, hdr_len, payload, payload_len, ref);
	if (!skb) {
		mrc_mib_inc(mn->net, MRC_MIB_TXERR);
		return -ENOBUFS;
	}
	/*
	 * ECT(0) on DATA only: switches mark data, never acknowledgements.
	 * Everything else (SACK, NACK, probes, the handshake) goes ahead of
	 * queued data where the qdisc honours priority (pfifo_fast's and
	 * prio's band 0), as RDMA NICs send acknowledgements apart from data:
	 * a SACK must not wait behind the window this host sends the other
	 * way (mrc-netsim's host_ctl_prio models the same).
	 */
	if ((((const u8 *)hdr)[0] & 0xf) == MRC_PKT_DATA) {
		ecn = INET_ECN_ECT_0;
	} else {
		ecn = INET_ECN_NOT_ECT;
		skb->priority = TC_PRIO_CONTROL;
	}
	return mrc_udp_out(mn, conn, plane, peer, ev, ecn, skb, 1);
}

/* A packet of no connection (RST, SYN answers): software only. */
int mrc_udp_xmit(struct mrc_net *mn, u32 plane,
		 const struct mrc_core_plane *peer, u32 ev, const void *hdr,
		 u32 hdr_len, const void *payload, u32 payload_len)
{
	return __mrc_udp_xmit(mn, NULL, plane, peer, ev, hdr, hdr_len,
			      payload, payload_len, NULL);
}

/*
 * Trains: the DATA packets of one burst on one plane and EV go out as one
 * UDP GSO skb (SKB_GSO_UDP_L4, gso_size one whole MRC packet), so routing,
 * the qdisc and a veth or GSO-capable device see one skb, and a peer on
 * this host takes it whole (demux_batch.c). Each packet past the first is
 * two fragments, its header (copied into a page fragment) and its payload
 * (a reference to the send buffer). When the head's MAX_SKB_FRAGS are
 * used up, the train goes on in skbs of fragments alone on its frag_list,
 * each starting at a packet, as skb_segment() can cut them and a veth
 * (NETIF_F_FRAGLIST) passes them. A train of a MSG_ZEROCOPY send keeps to
 * its head, where skb_orphan_frags_rx() can copy its pages: this many
 * packets.
 */
#define MRC_UDP_TRAIN_ZC_MAX	((MAX_SKB_FRAGS + 1) / 2)
/*
 * And no more bytes than one UDP datagram's length field can say, IPv6's
 * header included: 44 segments at MTU 1500, seven jumbo segments at 9000.
 */
#define MRC_UDP_TRAIN_BYTES	(U16_MAX - sizeof(struct ipv6hdr) - \
				 sizeof(struct udphdr))

/*
 * May a DATA packet of @len bytes on @plane / @ev, from handle @ref, join
 * the train? An skb belongs to one MSG_ZEROCOPY send at most.
 */
static bool mrc_udp_train_fits(const struct mrc_udp_train *t, u32 plane,
			       u32 ev, u32 len, const void *ref)
{
	return t->skb && !t->closed && t->plane == plane && t->ev == ev &&
	       (!t->uarg || t->segs < MRC_UDP_TRAIN_ZC_MAX) &&
	       len <= t->seg_len &&
	       t->skb->len + len <= MRC_UDP_TRAIN_BYTES &&
	       t->uarg == mrc_buf_uarg(ref);
}

/*
 * The skb the train's next packet goes in: the tail while it has room for
 * two more fragments, else a new skb of none at the end of the head's
 * frag_list. NULL without memory.
 */
static struct sk_buff *mrc_udp_train_tail(struct mrc_udp_train *t)
{
	struct sk_buff *nskb;

	if (skb_shinfo(t->tail)->nr_frags + 2 <= MAX_SKB_FRAGS)
		return t->tail;
	nskb = alloc_skb(0, GFP_ATOMIC);
	if (!nskb)
		return NULL;
	if (t->tail == t->skb)
		skb_shinfo(t->skb)->frag_list = nskb;
	else
		t->tail->next = nskb;
	t->skb->truesize += nskb->truesize;
	t->tail = nskb;
	return nskb;
}

/* Append a packet: header into a page fragment, payload by reference. */
static int mrc_udp_train_add(struct mrc_udp_train *t, const void *hdr,
			     u32 hdr_len, const void *payload, u32 payload_len,
			     void *ref)
{
	struct page *page = mrc_buf_page(ref);
	u32 len = hdr_len + payload_len;
	struct sk_buff *skb;
	struct page *hpage;
	u8 *h;
	int i;

	/* the header first: a frag_list skb is never left empty */
	h = netdev_alloc_frag(hdr_len);
	if (!h)
		return -ENOBUFS;
	skb = mrc_udp_train_tail(t);
	if (!skb) {
		skb_free_frag(h);
		return -ENOBUFS;
	}
	memcpy(h, hdr, hdr_len);
	hpage = virt_to_head_page(h);
	i = skb_shinfo(skb)->nr_frags;
	skb_fill_page_desc(skb, i, hpage, h - (u8 *)page_address(hpage),
			   hdr_len);
	get_page(page);
	skb_fill_page_desc(skb, i + 1, page,
			   (const u8 *)payload - (u8 *)page_address(page),
			   payload_len);
	if (skb != t->skb) {
		skb->len += len;
		skb->data_len += len;
		skb->truesize += len;
	}
	t->skb->len += len;
	t->skb->data_len += len;
	t->skb->truesize += len;
	t->segs++;
	/* only the last packet of a GSO skb may be shorter */
	if (len < t->seg_len)
		t->closed = true;
	return 0;
}

/* Start a train with a first packet, whose header goes in the head. */
static int mrc_udp_train_start(struct mrc_udp_train *t, u32 plane,
			       const struct mrc_core_plane *peer, u32 ev,
			       const void *hdr, u32 hdr_len,
			       const void *payload, u32 payload_len,
			       void *ref)
{
	t->skb = mrc_udp_skb(hdr, hdr_len, payload, payload_len, ref);
	if (!t->skb)
		return -ENOBUFS;
	t->tail = t->skb;
	t->uarg = mrc_buf_uarg(ref);
	t->plane = plane;
	t->peer = peer;
	t->ev = ev;
	t->segs = 1;
	t->seg_len = hdr_len + payload_len;
	t->closed = false;
	return 0;
}

/*
 * mrc_udp_flush - send @conn's train, if any: the core's flush at the end
 * of a burst (env.c), or before a packet that cannot join it. Under
 * conn->lock.
 */
void mrc_udp_flush(struct mrc_conn *conn)
{
	struct mrc_udp_train *t = &conn->train;
	struct sk_buff *skb = t->skb;

	lockdep_assert_held(&conn->lock);
	if (!skb)
		return;
	t->skb = NULL;
	if (t->segs > 1) {
		skb_shinfo(skb)->gso_size = t->seg_len;
		/*
		 * UDP_TUNNEL as well: 6.1 segments a GSO skb without it
		 * before a tunnel socket's encap_rcv, where a local peer
		 * takes the train whole (demux_batch.c). With
		 * skb->encapsulation clear, software GSO still cuts it as
		 * plain UDP (udp4_ufo_fragment()), and a device that
		 * offloads UDP segmentation but not tunnels gets it cut
		 * in software.
		 */
		skb_shinfo(skb)->gso_type = SKB_GSO_UDP_L4 |
					    SKB_GSO_UDP_TUNNEL;
		skb_shinfo(skb)->gso_segs = t->segs;
		/* UDP GSO wants the checksum partial from the UDP header on */
		skb->ip_summed = CHECKSUM_PARTIAL;
		skb->csum_start = skb_headroom(skb) - sizeof(struct udphdr);
		skb->csum_offset = offsetof(struct udphdr, check);
	}
	mrc_udp_out(conn->mn, conn, t->plane, t->peer, t->ev, INET_ECN_ECT_0,
		    skb, t->segs);
}

/* Trains go through the software path only, not an offload device. */
static bool mrc_udp_train_ok(struct mrc_conn *conn, u32 plane)
{
	bool ok;

	rcu_read_lock();
	ok = !mrc_offload_tx_binding(conn, plane);
	rcu_read_unlock();
	return ok;
}

/*
 * A packet of @conn: its offload device, if any, may send it. @ref: the
 * send-buffer handle @payload lies in (buf.h), or NULL to copy it. DATA
 * by reference joins or starts a train (sent at the core's flush);
 * anything else first sends the train, then goes out alone. Under
 * conn->lock.
 */
int mrc_udp_xmit_conn(struct mrc_conn *conn, u32 plane,
		      const struct mrc_core_plane *peer, u32 ev,
		      const void *hdr, u32 hdr_len, const void *payload,
		      u32 payload_len, void *ref)
{
	struct mrc_udp_train *t = &conn->train;

	lockdep_assert_held(&conn->lock);
	if (ref && payload_len &&
	    mrc_udp_train_fits(t, plane, ev, hdr_len + payload_len, ref) &&
	    !mrc_udp_train_add(t, hdr, hdr_len, payload, payload_len, ref))
		return 0;
	mrc_udp_flush(conn);
	if (ref && payload_len && peer && plane < MRC_MAX_PLANES &&
	    mrc_udp_train_ok(conn, plane))
		return mrc_udp_train_start(t, plane, peer, ev, hdr, hdr_len,
					   payload, payload_len, ref);
	return __mrc_udp_xmit(conn->mn, conn, plane, peer, ev, hdr, hdr_len,
			      payload, payload_len, ref);
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
	/* a train from this host arrives whole (demux_batch.c) */
	udp_set_bit(ACCEPT_L4, (*sockp)->sk);
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
