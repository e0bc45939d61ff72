// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink handlers for planes (PLANE_ADD/DEL/GET/SET) and counters
 * (STATS_GET). Locking: rtnl_lock() then mrc_net.lock around every change,
 * mrc_net.lock alone for reads; replies and events are built under it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <net/genetlink.h>

#include "pernet.h"
#include "ctl/plane.h"
#include "ctl/netlink.h"
#include "offload/offload.h"

/* The plane nest; @note, if any, names an offload failure (events). */
static int mrc_nl_fill_plane_with(struct sk_buff *skb,
				  const struct mrc_plane *pl, bool with_stats,
				  const struct mrc_offload_note *note)
{
	const struct mrc_plane_addr *a;
	struct nlattr *nest, *stats;
	int i;

	nest = nla_nest_start(skb, MRC_ATTR_PLANE);
	if (!nest)
		return -EMSGSIZE;
	rcu_read_lock();
	a = rcu_dereference(pl->addr);
	if (nla_put_u32(skb, MRC_PLANE_ATTR_ID, pl->id) ||
	    nla_put_u32(skb, MRC_PLANE_ATTR_IFINDEX, pl->dev->ifindex) ||
	    nla_put_string(skb, MRC_PLANE_ATTR_IFNAME, pl->dev->name) ||
	    (a->has_addr4 && nla_put_in_addr(skb, MRC_PLANE_ATTR_ADDR4, a->addr4)) ||
	    (a->has_addr6 && nla_put_in6_addr(skb, MRC_PLANE_ATTR_ADDR6, &a->addr6)) ||
	    nla_put_u16(skb, MRC_PLANE_ATTR_PORT, READ_ONCE(pl->port)) ||
	    nla_put_u8(skb, MRC_PLANE_ATTR_STATE, READ_ONCE(pl->state)) ||
	    nla_put_u8(skb, MRC_PLANE_ATTR_LINK, READ_ONCE(pl->link)) ||
	    nla_put_u32(skb, MRC_PLANE_ATTR_WEIGHT, READ_ONCE(pl->weight)) ||
	    nla_put_u32(skb, MRC_PLANE_ATTR_MTU, READ_ONCE(pl->mtu))) {
		rcu_read_unlock();
		goto err_cancel;
	}
	rcu_read_unlock();
	if (note ? __mrc_offload_fill(skb, pl, false, note->hook, note->err) :
		   mrc_offload_fill(skb, pl, with_stats))
		goto err_cancel;

	if (with_stats) {
		stats = nla_nest_start(skb, MRC_PLANE_ATTR_STATS);
		if (!stats)
			goto err_cancel;
		for (i = MRC_PLANE_MIB_NUM + 1; i < MRC_PLANE_MIB_MAX; i++)
			if (mrc_nl_put_stat(skb, mrc_plane_mib_name(i),
					    mrc_plane_mib_read(pl, i)))
				goto err_cancel;
		nla_nest_end(skb, stats);
	}
	nla_nest_end(skb, nest);
	return 0;

err_cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

int mrc_nl_fill_plane(struct sk_buff *skb, const struct mrc_plane *pl,
		      bool with_stats)
{
	return mrc_nl_fill_plane_with(skb, pl, with_stats, NULL);
}

int mrc_nl_fill_plane_note(struct sk_buff *skb, const struct mrc_plane *pl,
			   const char *hook, int err)
{
	const struct mrc_offload_note note = { .hook = hook, .err = err };

	return mrc_nl_fill_plane_with(skb, pl, false, &note);
}

/* The OFFLOAD nest of a request: its mode (validated by the policy). */
static int mrc_nl_plane_offload_cfg(struct genl_info *info, struct nlattr **tb,
				    struct mrc_plane_cfg *cfg)
{
	struct nlattr *otb[MRC_OFFLOAD_ATTR_MAX + 1];
	struct nlattr *nest = tb[MRC_PLANE_ATTR_OFFLOAD];
	int err;

	if (!nest)
		return 0;
	err = nla_parse_nested(otb, MRC_OFFLOAD_ATTR_MAX, nest,
			       mrc_offload_policy, info->extack);
	if (err)
		return err;
	if (MRC_NL_REQUIRE(info->extack, nest, otb, MRC_OFFLOAD_ATTR_MODE,
			   "offload: missing mode"))
		return -EINVAL;
	cfg->offload_mode = nla_get_u8(otb[MRC_OFFLOAD_ATTR_MODE]);
	cfg->set_offload = true;
	return 0;
}

/* Request attributes -> plane settings, with checks policies cannot do. */
static int mrc_nl_plane_cfg(struct genl_info *info, struct nlattr **tb,
			    struct mrc_plane_cfg *cfg)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *attr;
	int type;

	memset(cfg, 0, sizeof(*cfg));
	cfg->tb = tb;
	if (tb[MRC_PLANE_ATTR_ID]) {
		cfg->id = nla_get_u32(tb[MRC_PLANE_ATTR_ID]);
		cfg->set_id = true;
	}
	if (tb[MRC_PLANE_ATTR_IFINDEX])
		cfg->ifindex = nla_get_u32(tb[MRC_PLANE_ATTR_IFINDEX]);
	attr = tb[MRC_PLANE_ATTR_ADDR4];
	if (attr) {
		cfg->addr4 = nla_get_in_addr(attr);
		if (ipv4_is_zeronet(cfg->addr4) || ipv4_is_multicast(cfg->addr4) ||
		    ipv4_is_lbcast(cfg->addr4) || ipv4_is_loopback(cfg->addr4)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "address must be a unicast, non-loopback IPv4 address");
			return -EINVAL;
		}
		cfg->set_addr4 = true;
	}
	attr = tb[MRC_PLANE_ATTR_ADDR6];
	if (attr) {
		cfg->addr6 = nla_get_in6_addr(attr);
		type = ipv6_addr_type(&cfg->addr6);
		if (type & (IPV6_ADDR_ANY | IPV6_ADDR_MULTICAST |
			    IPV6_ADDR_LOOPBACK | IPV6_ADDR_MAPPED)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "address must be a unicast, non-loopback IPv6 address");
			return -EINVAL;
		}
		cfg->set_addr6 = true;
	}
	if (tb[MRC_PLANE_ATTR_PORT]) {
		cfg->port = nla_get_u16(tb[MRC_PLANE_ATTR_PORT]);
		cfg->set_port = true;
	}
	if (tb[MRC_PLANE_ATTR_STATE]) {
		cfg->state = nla_get_u8(tb[MRC_PLANE_ATTR_STATE]);
		cfg->set_state = true;
	}
	if (tb[MRC_PLANE_ATTR_WEIGHT]) {
		cfg->weight = nla_get_u32(tb[MRC_PLANE_ATTR_WEIGHT]);
		cfg->set_weight = true;
	}
	attr = tb[MRC_PLANE_ATTR_MTU];
	if (attr) {
		cfg->mtu = nla_get_u32(attr);
		if (cfg->mtu && cfg->mtu < MRC_PLANE_MTU_MIN) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "MTU must be 0 (follow the device) or at least 576");
			return -EINVAL;
		}
		cfg->set_mtu = true;
	}
	return mrc_nl_plane_offload_cfg(info, tb, cfg);
}

static struct sk_buff *mrc_nl_plane_reply(struct genl_info *info,
					  const struct mrc_plane *pl)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	void *hdr;

	if (!msg)
		return NULL;
	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0,
				info->genlhdr->cmd);
	if (!hdr || mrc_nl_fill_plane(msg, pl, true)) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

/* Find the plane named by the request's ID; called with mn->lock held. */
static struct mrc_plane *mrc_nl_plane_lookup(struct mrc_net *mn,
					     struct genl_info *info,
					     struct nlattr **tb)
{
	struct nlattr *nest = info->attrs[MRC_ATTR_PLANE];
	struct mrc_plane *pl;

	lockdep_assert_held(&mn->lock);

	if (MRC_NL_REQUIRE(info->extack, nest, tb, MRC_PLANE_ATTR_ID,
			   "missing plane id"))
		return ERR_PTR(-EINVAL);
	pl = __mrc_plane_get(mn, nla_get_u32(tb[MRC_PLANE_ATTR_ID]));
	if (!pl) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PLANE_ATTR_ID],
				    "no such plane");
		return ERR_PTR(-ENOENT);
	}
	return pl;
}

int mrc_nl_plane_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_PLANE_ATTR_MAX + 1];
	struct sk_buff *msg = NULL;
	struct mrc_plane_cfg cfg;
	struct mrc_plane *pl;
	int err;

	err = mrc_nl_parse_nest(info, MRC_ATTR_PLANE, MRC_PLANE_ATTR_MAX,
				mrc_plane_policy, tb);
	if (err)
		return err;
	if (MRC_NL_REQUIRE(info->extack, info->attrs[MRC_ATTR_PLANE], tb,
			   MRC_PLANE_ATTR_IFINDEX, "missing device (ifindex)"))
		return -EINVAL;
	err = mrc_nl_plane_cfg(info, tb, &cfg);
	if (err)
		return err;

	rtnl_lock();
	mutex_lock(&mn->lock);
	err = __mrc_plane_add(mn, &cfg, &pl, info->extack);
	if (!err) {
		mrc_nl_event_plane(mn, MRC_EVENT_PLANE_NEW, pl, MRC_REASON_ADMIN);
		msg = mrc_nl_plane_reply(info, pl);
	}
	mutex_unlock(&mn->lock);
	rtnl_unlock();
	if (err) {
		MRC_NL_SET_ERR_MSG_DEFAULT(info->extack, "cannot add the plane");
		return err;
	}
	return msg ? genlmsg_reply(msg, info) : 0;
}

int mrc_nl_plane_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_PLANE_ATTR_MAX + 1];
	struct mrc_plane *pl;
	int err;

	err = mrc_nl_parse_nest(info, MRC_ATTR_PLANE, MRC_PLANE_ATTR_MAX,
				mrc_plane_policy, tb);
	if (err)
		return err;

	mutex_lock(&mn->lock);
	pl = mrc_nl_plane_lookup(mn, info, tb);
	if (IS_ERR(pl)) {
		err = PTR_ERR(pl);
	} else {
		mrc_nl_event_plane(mn, MRC_EVENT_PLANE_DEL, pl, MRC_REASON_ADMIN);
		__mrc_plane_del(mn, pl);
	}
	mutex_unlock(&mn->lock);
	return err;
}

int mrc_nl_plane_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_PLANE_ATTR_MAX + 1];
	struct sk_buff *msg = NULL;
	struct mrc_plane_cfg cfg;
	struct mrc_plane *pl;
	bool was_usable;
	int err;

	err = mrc_nl_parse_nest(info, MRC_ATTR_PLANE, MRC_PLANE_ATTR_MAX,
				mrc_plane_policy, tb);
	if (err)
		return err;
	if (tb[MRC_PLANE_ATTR_IFINDEX]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PLANE_ATTR_IFINDEX],
				    "a plane's device cannot change: delete and add it");
		return -EINVAL;
	}
	err = mrc_nl_plane_cfg(info, tb, &cfg);
	if (err)
		return err;

	mutex_lock(&mn->lock);
	pl = mrc_nl_plane_lookup(mn, info, tb);
	if (IS_ERR(pl)) {
		err = PTR_ERR(pl);
		goto out_unlock;
	}
	was_usable = mrc_plane_usable(pl);
	err = __mrc_plane_set(mn, pl, &cfg, info->extack);
	if (err) {
		MRC_NL_SET_ERR_MSG_DEFAULT(info->extack, "cannot change the plane");
		goto out_unlock;
	}
	if (was_usable != mrc_plane_usable(pl))
		mrc_nl_event_plane(mn, was_usable ? MRC_EVENT_PLANE_DOWN :
				   MRC_EVENT_PLANE_UP, pl, MRC_REASON_ADMIN);
	msg = mrc_nl_plane_reply(info, pl);
out_unlock:
	mutex_unlock(&mn->lock);
	if (err)
		return err;
	return msg ? genlmsg_reply(msg, info) : 0;
}

int mrc_nl_plane_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_PLANE_ATTR_MAX + 1];
	struct sk_buff *msg = NULL;
	struct mrc_plane *pl;
	int err;

	err = mrc_nl_parse_nest(info, MRC_ATTR_PLANE, MRC_PLANE_ATTR_MAX,
				mrc_plane_policy, tb);
	if (err)
		return err;
	mutex_lock(&mn->lock);
	pl = mrc_nl_plane_lookup(mn, info, tb);
	if (IS_ERR(pl))
		err = PTR_ERR(pl);
	else
		msg = mrc_nl_plane_reply(info, pl);
	mutex_unlock(&mn->lock);
	if (err)
		return err;
	if (!msg) {
		NL_SET_ERR_MSG(info->extack, "out of memory for the reply");
		return -ENOMEM;
	}
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: next plane id to send. */
int mrc_nl_plane_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_net *mn = mrc_pernet(sock_net(skb->sk));
	struct mrc_plane *pl;
	u32 id;
	void *hdr;

	mutex_lock(&mn->lock);
	for (id = cb->args[0]; id < MRC_MAX_PLANES; id++) {
		pl = __mrc_plane_get(mn, id);
		if (!pl)
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &mrc_genl_family,
				  NLM_F_MULTI, MRC_CMD_PLANE_GET);
		if (!hdr)
			break;
		if (mrc_nl_fill_plane(skb, pl, true)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&mn->lock);
	cb->args[0] = id;
	return skb->len;
}

static int mrc_nl_fill_global_stats(struct sk_buff *skb, struct net *net)
{
	struct nlattr *stats = nla_nest_start(skb, MRC_ATTR_STATS);
	int i;

	if (!stats)
		return -EMSGSIZE;
	if (mrc_nl_put_stat(skb, "SockInUse", sock_prot_inuse_get(net, &mrc_prot)))
		goto err_cancel;
	for (i = MRC_MIB_NUM + 1; i < MRC_MIB_MAX; i++)
		if (mrc_nl_put_stat(skb, mrc_mib_name(i), mrc_mib_read(net, i)))
			goto err_cancel;
	nla_nest_end(skb, stats);
	return 0;

err_cancel:
	nla_nest_cancel(skb, stats);
	return -EMSGSIZE;
}

/*
 * One message with the netns counters, then one PLANE{ID, STATS} a plane.
 * cb->args[0]: 0 before the global message, then 1 + next plane id.
 */
int mrc_nl_stats_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct mrc_net *mn = mrc_pernet(net);
	struct mrc_plane *pl;
	void *hdr;
	u32 id;

	if (cb->args[0] == 0) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &mrc_genl_family,
				  NLM_F_MULTI, MRC_CMD_STATS_GET);
		if (!hdr)
			return skb->len;
		if (mrc_nl_fill_global_stats(skb, net)) {
			genlmsg_cancel(skb, hdr);
			return skb->len;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = 1;
	}
	mutex_lock(&mn->lock);
	for (id = cb->args[0] - 1; id < MRC_MAX_PLANES; id++) {
		pl = __mrc_plane_get(mn, id);
		if (!pl)
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &mrc_genl_family,
				  NLM_F_MULTI, MRC_CMD_STATS_GET);
		if (!hdr)
			break;
		if (mrc_nl_fill_plane(skb, pl, true)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&mn->lock);
	cb->args[0] = id + 1;
	return skb->len;
}
