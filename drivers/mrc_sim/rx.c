// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_sim RX hand-off: the rx_handler on the sim's netdev picks the
 * UDP/IPv4 packets sent to a steered port, checks them as the IP and UDP
 * receive paths would, and hands them to mrc_offload_rx() at the MRC
 * header. Everything else, and whatever mrc does not take, goes on to the
 * normal stack as it came. Softirq, under RCU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ip.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/ip.h>

#include "mrc_sim.h"

bool mrc_sim_port_steered(const struct mrc_sim_dev *sim, __be16 port)
{
	int i;

	for (i = 0; i < MRC_SIM_MAX_PORTS; i++) {
		u16 p = READ_ONCE(sim->rx_ports[i]);

		if (p && htons(p) == port)
			return true;
	}
	return false;
}

/*
 * @skb->data is at the IP header. Hand the packet to mrc at its MRC header
 * (transport header at UDP) and return 0 if mrc took it; otherwise return
 * an error with @skb->data back at the IP header.
 */
static int mrc_sim_rx(struct mrc_sim_dev *sim, struct mrc_offload_dev *od,
		      struct sk_buff *skb)
{
	unsigned int ihl, len, mrc_len;
	const struct iphdr *iph;
	struct udphdr *uh;
	bool ce;
	int err;

	if (!pskb_may_pull(skb, sizeof(*iph)))
		return -EINVAL;
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	ihl = iph->ihl * 4;
	if (!pskb_may_pull(skb, ihl + sizeof(*uh)))
		return -EINVAL;
	iph = ip_hdr(skb);
	/* A bad IP header checksum is the stack's to count. */
	if (unlikely(ip_fast_csum((const u8 *)iph, iph->ihl)))
		return -EINVAL;
	len = ntohs(iph->tot_len);
	uh = (struct udphdr *)(skb->data + ihl);
	/* Odd UDP lengths, too, are left to the stack. */
	if (len > skb->len || len < ihl + sizeof(*uh) ||
	    ntohs(uh->len) != len - ihl)
		return -EINVAL;
	ce = INET_ECN_is_ce(iph->tos);
	/* Link-layer padding goes, as in ip_rcv(). */
	if (pskb_trim_rcsum(skb, len))
		return -ENOMEM;

	skb_pull_rcsum(skb, ihl);
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	if (skb_checksum_validate_zero_check(skb, IPPROTO_UDP, uh->check,
					     inet_compute_pseudo)) {
		err = -EBADMSG;
		goto restore_ip;
	}
	skb_pull_rcsum(skb, sizeof(*uh));

	mrc_len = skb->len;
	atomic64_inc(&sim->calls[MRC_SIM_RX]);
	err = mrc_offload_rx(od, skb, ce);
	if (!err) {
		atomic64_inc(&sim->rx_pkts);
		atomic64_add(mrc_len, &sim->rx_bytes);
		return 0;
	}
	/* -ENOENT: not mrc's, @skb untouched. */
	skb_push_rcsum(skb, sizeof(*uh));
restore_ip:
	skb_push_rcsum(skb, ihl);
	return err;
}

rx_handler_result_t mrc_sim_handle_frame(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct mrc_sim_dev *sim = rcu_dereference(skb->dev->rx_handler_data);
	struct mrc_offload_dev *od;
	const struct udphdr *uh;
	const struct iphdr *iph;
	struct udphdr _uh;
	struct iphdr _iph;

	if (skb->protocol != htons(ETH_P_IP) ||
	    skb->pkt_type != PACKET_HOST || skb_is_gso(skb))
		return RX_HANDLER_PASS;
	od = rcu_dereference(sim->od);
	if (!od)
		return RX_HANDLER_PASS;

	/* Look without touching @skb: most packets are not for us. */
	iph = skb_header_pointer(skb, 0, sizeof(_iph), &_iph);
	if (!iph || iph->version != 4 || iph->ihl < 5 ||
	    iph->protocol != IPPROTO_UDP || ip_is_fragment(iph))
		return RX_HANDLER_PASS;
	uh = skb_header_pointer(skb, iph->ihl * 4, sizeof(_uh), &_uh);
	if (!uh || !mrc_sim_port_steered(sim, uh->dest))
		return RX_HANDLER_PASS;

	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	*pskb = skb;

	return mrc_sim_rx(sim, od, skb) ? RX_HANDLER_PASS :
					  RX_HANDLER_CONSUMED;
}
