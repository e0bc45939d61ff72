// SPDX-License-Identifier: GPL-2.0
/*
 * The receive demux: a datagram that reached a plane's UDP socket
 * (mrc_demux_rcv(), the encap hook) or the offload RX path
 * (mrc_demux_input()) is parsed by the core's wire parser and handed to
 * its connection when it comes from the peer's address on that plane, to
 * a listener when it is a SYN, or answered with a RST; every drop is
 * counted by reason, per netns and per plane. A DATA packet's skb is not
 * copied: the core keeps it as the segment (mrc_demux_take()) and the
 * socket queues it for the reader.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/udp.h>

#include "conn/conn.h"
#include "conn/demux.h"
#include "conn/demux_priv.h"
#include "conn/rxbuf.h"
#include "conn/udp.h"
#include "ctl/plane.h"
#include "pernet.h"
#include "sock/sock.h"

static bool mrc_demux_ce(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		return INET_ECN_is_ce(ip_hdr(skb)->tos);
	return INET_ECN_is_ce(ipv6_get_dsfield(ipv6_hdr(skb)));
}

/*
 * Did @skb come from the address the peer advertised for @plane? The
 * token names the connection and the plane pairs the addresses, so a
 * packet with the right tokens from any other source (spoofed, or the
 * peer's address on another plane) is not the peer's: a "plane" drop,
 * before it can touch the connection (a forged RST would abort it).
 * Planes the peer did not advertise are left to the core, which counts
 * them the same; so is the SYN_ACK, which may come from another of the
 * server's addresses than the one connect() named.
 * Called with conn->lock held, conn->core set.
 */
static bool mrc_demux_from_peer(const struct mrc_conn *conn, u32 plane,
				const struct sk_buff *skb)
{
	const struct mrc_core *core = conn->core;
	const struct mrc_core_plane *peer;

	lockdep_assert_held(&conn->lock);
	if (mrc_core_state(core) == MRC_CORE_SYN_SENT)
		return true;
	peer = mrc_core_peer_plane(core, plane);
	if (!peer)
		return true;
	if (skb->protocol == htons(ETH_P_IP))
		return (peer->flags & MRC_PLANE_F_V4) &&
		       peer->addr4 == ip_hdr(skb)->saddr;
	return (peer->flags & MRC_PLANE_F_V6) &&
	       !memcmp(peer->addr6, &ipv6_hdr(skb)->saddr,
		       sizeof(peer->addr6));
}

/*
 * Parsed @pkt, which came in @skb on our plane @plane, to @conn's core if
 * it comes from the peer's address there. Under conn->lock, conn->core
 * set. Return: the drop reason.
 */
int mrc_demux_conn_input(struct mrc_conn *conn, const struct mrc_pkt *pkt,
			 u32 plane, const struct sk_buff *skb, bool ce)
{
	if (!mrc_demux_from_peer(conn, plane, skb))
		return MRC_DROP_PLANE;
	return mrc_core_input(conn->core, pkt, plane, ce);
}

/* Hand a parsed packet to its connection. Return: the drop reason. */
static int mrc_demux_to_conn(struct mrc_net *mn, const struct mrc_pkt *pkt,
			     u32 plane, const struct sk_buff *skb, bool ce)
{
	struct mrc_conn *conn = mrc_conn_lookup(mn, pkt->dst_token);
	int reason = MRC_DROP_NO_CONN;

	if (!conn)
		return reason;
	mrc_conn_lock(conn);
	if (conn->core)
		reason = mrc_demux_conn_input(conn, pkt, plane, skb, ce);
	mrc_sock_input_done(conn);
	mrc_conn_unlock(conn);
	mrc_conn_put(conn);
	return reason;
}

/*
 * A packet for a connection we do not have (it was closed, timed out, or
 * the host restarted): answer with an RST so the peer stops at once
 * instead of retransmitting into nothing until its user timeout. The
 * tokens are the packet's, swapped, so only the connection that sent it
 * accepts the RST. The peer's MRC port is not in the packet: planes use
 * one port on both ends, so ours is the answer's destination. Never for
 * an RST (no ping-pong), and rate-limited per namespace.
 */
static void mrc_demux_reset(struct mrc_net *mn, struct mrc_plane *pl,
			    const struct sk_buff *skb, const struct mrc_pkt *pkt)
{
	struct mrc_core_plane peer = {
		.id = pl->id,
		.udp_port = ntohs(udp_hdr(skb)->dest),
	};
	u8 buf[sizeof(struct mrc_hdr) + sizeof(struct mrc_rst)];
	u32 len;

	if (pkt->type == MRC_PKT_RST || !pkt->src_token ||
	    !__ratelimit(&mn->rst_limit))
		return;
	if (skb->protocol == htons(ETH_P_IP)) {
		peer.flags = MRC_PLANE_F_V4;
		peer.addr4 = ip_hdr(skb)->saddr;
	} else {
		peer.flags = MRC_PLANE_F_V6;
		memcpy(peer.addr6, &ipv6_hdr(skb)->saddr, sizeof(peer.addr6));
	}
	len = mrc_wire_build_reset(pkt, buf, sizeof(buf));
	if (len && !mrc_udp_xmit(mn, pl->id, &peer, pkt->ev, buf, len,
				 NULL, 0))
		mrc_mib_inc(mn->net, MRC_MIB_TXRSTNOCONN);
}

/*
 * Parse @skb's MRC packet (data at the UDP header) from its head, after
 * pulling into the head what must be there: the header and, for DATA, its
 * fixed body; the payload may stay in the skb's pages, where the core
 * keeps it (mrc_demux_take()). Any other packet is pulled whole.
 * Return: the drop reason.
 */
static int mrc_demux_parse(struct sk_buff *skb, struct mrc_pkt *pkt)
{
	u32 off = sizeof(struct udphdr), len = skb->len - off, need;

	need = min_t(u32, len, sizeof(struct mrc_hdr));
	if (!pskb_may_pull(skb, off + need))
		return MRC_DROP_NO_BUFFER;
	if (len >= sizeof(struct mrc_hdr)) {
		u8 type = skb->data[off + offsetof(struct mrc_hdr, ver_type)];

		need = min(mrc_wire_head_len(type & 0xf, len), len);
		if (!pskb_may_pull(skb, off + need))
			return MRC_DROP_NO_BUFFER;
	}
	return mrc_wire_parse_head(skb->data + off,
				   min_t(u32, skb_headlen(skb) - off, len), len,
				   pkt);
}

/*
 * mrc_demux_take - env->rx_take: the core keeps DATA @pkt as its
 * segment's storage. pkt->buf is the demux's hold (demux_priv.h): on a
 * packet's own skb (mrc_demux_input()), given up here, so the skb, pulled
 * to the payload and freed of its route and socket, is the core's; or on
 * a GSO batch, of which the core gets a slice (rxbuf.h; NULL without
 * memory). Under conn->lock.
 */
void *mrc_demux_take(const struct mrc_pkt *pkt)
{
	struct mrc_demux_hold *hold = pkt->buf;
	struct sk_buff *skb = hold->skb;

	if (hold->train)
		return mrc_rx_take_batch(hold->train, skb, hold->pkts,
					 hold->off, pkt->payload_len);
	hold->skb = NULL;
	/* the headers are in the head: mrc_demux_parse() */
	__skb_pull(skb, skb->len - pkt->payload_len);
	skb_orphan(skb);
	skb_dst_drop(skb);
	nf_reset_ct(skb);
	return skb;
}

/*
 * Hand parsed @pkt of plane @pl to a listener (SYN) or its connection;
 * answer a packet of no connection with an RST. @skb: the datagram it
 * came in (its IP header and UDP ports), a GSO batch's for its packets.
 * Return: the drop reason.
 */
int mrc_demux_dispatch(struct mrc_net *mn, struct mrc_plane *pl,
		       const struct sk_buff *skb, const struct mrc_pkt *pkt,
		       bool ce)
{
	int reason;

	if (pkt->type == MRC_PKT_SYN)
		return mrc_listen_syn(mn, pl->id, pkt);
	reason = mrc_demux_to_conn(mn, pkt, pl->id, skb, ce);
	if (reason == MRC_DROP_NO_CONN)
		mrc_demux_reset(mn, pl, skb, pkt);
	return reason;
}

/* Count one packet of @bytes (from its UDP header) of @pl as @reason. */
void mrc_demux_count(struct mrc_net *mn, struct mrc_plane *pl, int reason,
		     u32 bytes)
{
	if (reason) {
		mrc_plane_mib_add(pl, MRC_PLANE_MIB_RXDROP, 1);
		mrc_mib_inc(mn->net, MRC_MIB_RXDROP_FIRST + reason);
	} else {
		mrc_plane_mib_add(pl, MRC_PLANE_MIB_RXPKTS, 1);
		mrc_plane_mib_add(pl, MRC_PLANE_MIB_RXBYTES, bytes);
	}
}

/*
 * mrc_demux_input - one received packet of plane @pl: parse it, hand it to
 * its connection or listener, count it. Softirq, RCU held, checksum
 * verified, data at the UDP header; consumes @skb, or gives a DATA
 * packet to the connection that keeps it (mrc_demux_take()). From the UDP
 * socket or from an offload device's RX hand-off.
 */
void mrc_demux_input(struct mrc_plane *pl, struct sk_buff *skb, bool ce)
{
	struct mrc_net *mn = mrc_pernet(dev_net(pl->dev));
	/* hold.skb: NULL once a connection took it */
	struct mrc_demux_hold hold = { .skb = skb };
	u32 bytes = skb->len;
	struct mrc_pkt pkt;
	int reason;

	reason = mrc_demux_parse(skb, &pkt);
	if (!reason) {
		if (pkt.type == MRC_PKT_DATA)
			pkt.buf = &hold;
		reason = mrc_demux_dispatch(mn, pl, skb, &pkt, ce);
	}
	mrc_demux_count(mn, pl, reason, bytes);
	if (hold.skb)
		consume_skb(hold.skb);
}

/*
 * mrc_demux_run_input - datagram @skb of plane @pl, one of a run of a
 * socket's backlog (demux_defer.c): a DATA, SACK or NACK packet of a
 * connection goes to its core in the run's input batch, opened on the
 * first. False for anything else (a GSO train, another type, a packet
 * of no connection, one that does not parse), which the caller takes
 * alone, as a datagram, once the run is closed: as its own skb, @skb
 * is then untouched but for the pull of its header. True: consumed.
 * BHs off, RCU held, data at the UDP header.
 */
bool mrc_demux_run_input(struct mrc_demux_run *run, struct mrc_plane *pl,
			 struct sk_buff *skb)
{
	struct mrc_demux_hold hold = { .skb = skb };
	u32 bytes = skb->len;
	struct mrc_conn *conn;
	struct mrc_pkt pkt;
	int reason;

	if (skb_is_gso(skb) || mrc_demux_parse(skb, &pkt))
		return false;
	if (pkt.type != MRC_PKT_DATA && pkt.type != MRC_PKT_SACK &&
	    pkt.type != MRC_PKT_NACK)
		return false;
	conn = mrc_demux_run_conn(run, pkt.dst_token);
	if (!conn)
		return false;
	if (pkt.type == MRC_PKT_DATA)
		pkt.buf = &hold;
	reason = mrc_demux_conn_input(conn, &pkt, pl->id, skb,
				      mrc_demux_ce(skb));
	mrc_demux_count(run->mn, pl, reason, bytes);
	if (hold.skb)
		consume_skb(hold.skb);
	return true;
}

/*
 * A datagram of plane @pl, data at its UDP header: a UDP GSO skb (a train
 * of our own from this host, udp.c) arrives whole and is taken as one
 * batch (demux_batch.c). BHs off, RCU held.
 */
void mrc_demux_datagram(struct mrc_plane *pl, struct sk_buff *skb)
{
	if (skb_is_gso(skb))
		mrc_demux_batch(pl, skb, mrc_demux_ce(skb));
	else
		mrc_demux_input(pl, skb, mrc_demux_ce(skb));
}

/* UDP encap_rcv: softirq, RCU held, checksum verified, data at UDP header. */
int mrc_demux_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct mrc_plane *pl = rcu_dereference_sk_user_data(sk);

	if (!pl)
		consume_skb(skb);
	else if (!mrc_demux_defer(pl, skb))
		mrc_demux_datagram(pl, skb);
	return 0;
}

/* Is @skb, an ICMP error for a datagram of @sk, a port unreachable? */
static bool mrc_demux_port_unreach(const struct sock *sk,
				   const struct sk_buff *skb)
{
	if (sk->sk_family == AF_INET)
		return icmp_hdr(skb)->type == ICMP_DEST_UNREACH &&
		       icmp_hdr(skb)->code == ICMP_PORT_UNREACH;
	return icmp6_hdr(skb)->icmp6_type == ICMPV6_DEST_UNREACH &&
	       icmp6_hdr(skb)->icmp6_code == ICMPV6_PORT_UNREACH;
}

/*
 * UDP encap_err_lookup: is the plane socket @sk the sender of the
 * datagram an ICMP error quotes? Our datagrams leave from the EV's source
 * port, not from the port @sk is bound to, so UDP finds @sk only by the
 * destination port (as for VXLAN) and asks us: ours if @sk is a plane's.
 * Return: 0 to take the error.
 */
int mrc_demux_err_lookup(struct sock *sk, struct sk_buff *skb)
{
	return rcu_dereference_sk_user_data(sk) ? 0 : -ENOENT;
}

/*
 * mrc_demux_err - an ICMP error about a datagram we sent (UDP
 * encap_err_rcv: softirq, RCU held; skb->data at the quoted IP header,
 * its UDP header @udp_offset bytes on). A port unreachable for our SYN
 * means the peer's host serves no MRC on that address: the connect()
 * fails with ECONNREFUSED at once, as TCP's does on the same ICMP in
 * SYN_SENT (tcp_v4_err()), instead of repeating SYNs until the user
 * timeout. That is what lets a caller (mrcize) fall back to TCP at
 * once. The quoted SYN must carry the connection's token, which an
 * off-path sender cannot guess. Other errors are left to the core's
 * loss detection.
 */
void mrc_demux_err(struct sock *sk, struct sk_buff *skb, unsigned int udp_offset)
{
	struct mrc_plane *pl = rcu_dereference_sk_user_data(sk);
	u8 buf[MRC_WIRE_MAX_HDR];
	unsigned int off = udp_offset + sizeof(struct udphdr);
	struct mrc_conn *conn;
	struct mrc_net *mn;
	struct mrc_pkt pkt;
	bool refused = false;
	u32 len;

	if (!pl || !mrc_demux_port_unreach(sk, skb) || skb->len <= off)
		return;
	/*
	 * The quoted SYN, whole: an IPv4 ICMP error of Linux quotes 548
	 * bytes of the datagram (576 in all), 520 of them MRC's, more than
	 * the 420 of a SYN with 16 planes; IPv6 quotes up to 1232.
	 */
	len = min_t(u32, skb->len - off, sizeof(buf));
	if (skb_copy_bits(skb, off, buf, len) ||
	    mrc_wire_parse(buf, len, &pkt) || pkt.type != MRC_PKT_SYN)
		return;
	mn = mrc_pernet(sock_net(sk));
	conn = mrc_conn_lookup(mn, pkt.src_token);
	if (!conn)
		return;
	mrc_conn_lock(conn);
	if (conn->core && mrc_core_state(conn->core) == MRC_CORE_SYN_SENT) {
		mrc_core_abort(conn->core, ECONNREFUSED);
		refused = true;
	}
	mrc_conn_unlock(conn);
	mrc_conn_put(conn);
	if (refused)
		mrc_mib_inc(mn->net, MRC_MIB_CONNREFUSEDICMP);
}
