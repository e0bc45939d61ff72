// SPDX-License-Identifier: GPL-2.0
/*
 * MRC_CMD_PEER_GET: the namespace's peer table (kernel/conn/peer.h), one
 * PEER nest a peer host: its plane addresses, the connections holding
 * it, and what they learned of the paths there (the bad EVs by value).
 * A bad EV is reported ASSUMED_BAD: the next connection starts it so.
 */
#include <net/genetlink.h>
#include <net/ipv6.h>

#include "pernet.h"
#include "conn/peer.h"
#include "ctl/netlink.h"

static int mrc_nl_put_peer_addr(struct sk_buff *skb, const struct in6_addr *a)
{
	if (ipv6_addr_v4mapped(a))
		return nla_put_in_addr(skb, MRC_PEER_ATTR_ADDR4, a->s6_addr32[3]);
	return nla_put_in6_addr(skb, MRC_PEER_ATTR_ADDR6, a);
}

/* The bad EVs of @pp, packed (struct mrc_peer_ev); @bad of them. */
static int mrc_nl_put_peer_bad(struct sk_buff *skb,
			       const struct mrc_core_peer_paths *pp, u32 bad)
{
	struct nlattr *attr;
	struct mrc_peer_ev *e;
	u32 i;

	attr = nla_reserve(skb, MRC_PEER_ATTR_BAD_EVS, bad * sizeof(*e));
	if (!attr)
		return -EMSGSIZE;
	e = nla_data(attr);
	for (i = 0; i < pp->nevs; i++) {
		if (!mrc_core_peer_paths_bad(pp, i))
			continue;
		e->ev = pp->evs[i];
		e->plane = (u8)mrc_core_peer_paths_plane(pp, i);
		e->state = MRC_EV_ASSUMED_BAD;
		e++;
	}
	return 0;
}

static int mrc_nl_fill_peer(struct sk_buff *skb, const struct mrc_peer_view *v)
{
	const struct mrc_core_peer_paths *pp = v->paths;
	struct nlattr *nest = nla_nest_start(skb, MRC_ATTR_PEER);
	u32 i, bad = 0;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < v->naddrs; i++)
		if (mrc_nl_put_peer_addr(skb, &v->addrs[i]))
			goto err_cancel;
	for (i = 0; i < pp->nevs; i++)
		bad += mrc_core_peer_paths_bad(pp, i);
	if (nla_put_u32(skb, MRC_PEER_ATTR_CONNS, v->holders) ||
	    (!v->holders &&
	     nla_put_u32(skb, MRC_PEER_ATTR_IDLE_MS, v->idle_ms)) ||
	    nla_put_u32(skb, MRC_PEER_ATTR_EVS, pp->nevs) ||
	    nla_put_u32(skb, MRC_PEER_ATTR_PLANES, pp->planes) ||
	    nla_put_u32(skb, MRC_PEER_ATTR_EVS_BAD, bad) ||
	    (bad && mrc_nl_put_peer_bad(skb, pp, bad)))
		goto err_cancel;
	nla_nest_end(skb, nest);
	return 0;

err_cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

struct mrc_nl_peer_dump {
	struct sk_buff		*skb;
	struct netlink_callback	*cb;
};

/* One message a peer (with 256 bad EVs about 1.2 KB). */
static int mrc_nl_peer_msg(void *arg, const struct mrc_peer_view *v)
{
	struct mrc_nl_peer_dump *d = arg;
	void *hdr;

	hdr = genlmsg_put(d->skb, NETLINK_CB(d->cb->skb).portid,
			  d->cb->nlh->nlmsg_seq, &mrc_genl_family,
			  NLM_F_MULTI, MRC_CMD_PEER_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (mrc_nl_fill_peer(d->skb, v)) {
		genlmsg_cancel(d->skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(d->skb, hdr);
	return 0;
}

int mrc_nl_peer_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_net *mn = mrc_pernet(sock_net(skb->sk));
	struct mrc_nl_peer_dump d = { .skb = skb, .cb = cb };
	unsigned long pos = cb->args[0];
	int err;

	err = mrc_peer_walk(mn, &pos, mrc_nl_peer_msg, &d);
	cb->args[0] = pos;
	/* a peer too big for an empty message would stop the dump forever */
	if (err && !skb->len)
		return err;
	return skb->len;
}
