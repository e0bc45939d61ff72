// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_sim TX hand-off (the xmit hook): mrc gives the device an MRC packet
 * and the device puts it in UDP/IPv4 and sends it, as a NIC with MRC
 * offload would. Here the "device" is the kernel's own UDP tunnel path,
 * routed out of the sim's netdev. Atomic context (BHs off, under mrc's
 * connection spinlock), possibly on several CPUs at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ip.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/route.h>
#include <net/udp_tunnel.h>

#include "mrc_sim.h"

int mrc_sim_xmit(struct net_device *dev, void *handle, struct sk_buff *skb,
		 const struct mrc_offload_tx *tx)
{
	struct mrc_sim_conn *c = handle;
	struct mrc_sim_dev *sim = c->sim;
	unsigned int len;
	struct flowi4 fl4;
	struct rtable *rt;
	int err;

	atomic64_inc(&sim->calls[MRC_SIM_XMIT]);
	if (!test_and_set_bit(0, &c->xmitted))
		mrc_sim_log(sim, "xmit conn=%u", c->conn_id);
	err = mrc_sim_inject(sim, MRC_SIM_XMIT);
	if (err) {
		atomic64_inc(&c->errors);
		return err;
	}
	if (!tx->daddr)
		return -EAFNOSUPPORT;	/* IPv4 only */

	/* Until mrc deletes it, a connection lost in a reset eats packets. */
	if (READ_ONCE(c->lost)) {
		kfree_skb(skb);
		return 0;
	}

	/* Nothing may touch @skb before we know we can send it. */
	memset(&fl4, 0, sizeof(fl4));
	fl4.flowi4_oif = dev->ifindex;
	fl4.flowi4_proto = IPPROTO_UDP;
	fl4.saddr = tx->saddr;
	fl4.daddr = tx->daddr;
	fl4.fl4_sport = htons(tx->sport);
	fl4.fl4_dport = htons(tx->dport);
	rt = ip_route_output_key(dev_net(dev), &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	if (rt->dst.dev != dev) {
		ip_rt_put(rt);
		return -ENETUNREACH;
	}
	/* Room for our headers, in a header area of our own: on failure
	 * @skb is left as it was.
	 */
	err = skb_cow_head(skb, LL_RESERVED_SPACE(dev) +
			   sizeof(struct iphdr) + sizeof(struct udphdr));
	if (err) {
		ip_rt_put(rt);
		return err;
	}

	len = skb->len;
	/* iptunnel_xmit() counts into skb->dev's tstats: not ours to touch
	 * (a plain netdev may have none). ip_output() sets skb->dev again.
	 */
	skb->dev = NULL;
	udp_tunnel_xmit_skb(rt, NULL, skb, fl4.saddr, fl4.daddr, tx->ecn,
			    ip4_dst_hoplimit(&rt->dst), htons(IP_DF),
			    htons(tx->sport), htons(tx->dport), false, false);

	atomic64_inc(&c->tx_pkts);
	atomic64_add(len, &c->tx_bytes);
	atomic64_inc(&sim->tx_pkts);
	atomic64_add(len, &sim->tx_bytes);
	return 0;
}
