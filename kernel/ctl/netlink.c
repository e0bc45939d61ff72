// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "mrc": attribute policies, the operations table,
 * the module query (INFO_GET) and the event group. Object handlers live in
 * nl_plane.c, nl_profile.c and nl_conn.c. Spec: include/uapi/linux/
 * mrc_netlink.h and mrc_netlink.yaml.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/genetlink.h>
#include <net/netlink.h>

#include "pernet.h"
#include "ctl/profile.h"
#include "ctl/netlink.h"

static struct netlink_range_validation mrc_mtu_range = {
	.max = MRC_PLANE_MTU_MAX,
};

static struct netlink_range_validation mrc_ev_value_range = {
	.max = (1U << MRC_EV_MAX_BITS) - 1,
};

static struct netlink_range_validation mrc_ppm_unit_range = {
	.max = 1000000,
};

/* Settable attributes only: reply-only ones are rejected (strict). */
const struct nla_policy mrc_offload_policy[MRC_OFFLOAD_ATTR_MAX + 1] = {
	[MRC_OFFLOAD_ATTR_MODE]	 = NLA_POLICY_MAX(NLA_U8, MRC_OFFLOAD_ON),
};

const struct nla_policy mrc_plane_policy[MRC_PLANE_ATTR_MAX + 1] = {
	[MRC_PLANE_ATTR_ID]	 = NLA_POLICY_MAX(NLA_U32, MRC_MAX_PLANES - 1),
	[MRC_PLANE_ATTR_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_PLANE_ATTR_ADDR4]	 = { .type = NLA_BE32 },
	[MRC_PLANE_ATTR_ADDR6]	 = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[MRC_PLANE_ATTR_PORT]	 = NLA_POLICY_MIN(NLA_U16, 1),
	[MRC_PLANE_ATTR_STATE]	 = NLA_POLICY_MAX(NLA_U8, MRC_PLANE_STATE_DENIED),
	[MRC_PLANE_ATTR_WEIGHT]	 = NLA_POLICY_RANGE(NLA_U32, 1, MRC_PLANE_WEIGHT_MAX),
	[MRC_PLANE_ATTR_MTU]	 = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_mtu_range),
	[MRC_PLANE_ATTR_OFFLOAD] = NLA_POLICY_NESTED(mrc_offload_policy),
};

static const struct nla_policy mrc_ev_policy[MRC_EV_ATTR_MAX + 1] = {
	[MRC_EV_ATTR_INDEX] = NLA_POLICY_MAX(NLA_U32, MRC_MAX_EVS_PER_PROFILE - 1),
	[MRC_EV_ATTR_VALUE] = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_ev_value_range),
	[MRC_EV_ATTR_PLANE] = NLA_POLICY_MAX(NLA_U32, MRC_MAX_PLANES - 1),
	[MRC_EV_ATTR_STATE] = NLA_POLICY_MAX(NLA_U8, MRC_EV_DENIED),
};

#define MRC_EV_STATE_MASK (BIT(MRC_EV_GOOD) | BIT(MRC_EV_SKIP) | \
			   BIT(MRC_EV_ASSUMED_BAD) | BIT(MRC_EV_DENIED))

const struct nla_policy mrc_ev_profile_policy[MRC_EV_PROFILE_ATTR_MAX + 1] = {
	[MRC_EV_PROFILE_ATTR_ID]	 = NLA_POLICY_RANGE(NLA_U32, 1, MRC_MAX_EV_PROFILES),
	[MRC_EV_PROFILE_ATTR_STATE]	 = NLA_POLICY_MAX(NLA_U8, MRC_PROFILE_ONLINE),
	[MRC_EV_PROFILE_ATTR_MODE]	 = NLA_POLICY_MAX(NLA_U8, MRC_EV_MODE_GENERATED),
	[MRC_EV_PROFILE_ATTR_EV_COUNT]	 = NLA_POLICY_RANGE(NLA_U32, 1, MRC_MAX_EVS_PER_PROFILE),
	[MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE] = NLA_POLICY_MAX(NLA_U32, MRC_MAX_EVS_PER_PROFILE),
	[MRC_EV_PROFILE_ATTR_EVENT_MASK] = NLA_POLICY_MASK(NLA_U32, MRC_EV_STATE_MASK),
	[MRC_EV_PROFILE_ATTR_SEED]	 = { .type = NLA_U32 },
	[MRC_EV_PROFILE_ATTR_EVS]	 = NLA_POLICY_NESTED_ARRAY(mrc_ev_policy),
	[MRC_EV_PROFILE_ATTR_EV]	 = NLA_POLICY_NESTED(mrc_ev_policy),
};

static const struct nla_policy mrc_nscc_policy[MRC_NSCC_ATTR_MAX + 1] = {
	[MRC_NSCC_ATTR_BASE_RTT]	= NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_NSCC_ATTR_TARGET_DELAY]	= NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_NSCC_ATTR_MAX_CWND]	= NLA_POLICY_MIN(NLA_U32, 1500),
	[MRC_NSCC_ATTR_ETA]		= { .type = NLA_U32 },
	[MRC_NSCC_ATTR_FI]		= { .type = NLA_U32 },
	[MRC_NSCC_ATTR_FI_SCALE]	= { .type = NLA_U32 },
	[MRC_NSCC_ATTR_GAMMA]		= NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_ppm_unit_range),
	[MRC_NSCC_ATTR_MAX_MD_JUMP]	= NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_ppm_unit_range),
	[MRC_NSCC_ATTR_QA_GATE]		= { .type = NLA_U8 },
	[MRC_NSCC_ATTR_QA_THRESHOLD]	= { .type = NLA_U32 },
	[MRC_NSCC_ATTR_DISABLE_QA]	= NLA_POLICY_MAX(NLA_U8, 1),
	[MRC_NSCC_ATTR_ADJUST_BYTES]	= { .type = NLA_U32 },
	[MRC_NSCC_ATTR_ADJUST_PERIOD]	= { .type = NLA_U32 },
};

const struct nla_policy mrc_cc_profile_policy[MRC_CC_PROFILE_ATTR_MAX + 1] = {
	[MRC_CC_PROFILE_ATTR_ID]	= NLA_POLICY_RANGE(NLA_U32, 1, MRC_MAX_CC_PROFILES),
	[MRC_CC_PROFILE_ATTR_STATE]	= NLA_POLICY_MAX(NLA_U8, MRC_PROFILE_ONLINE),
	[MRC_CC_PROFILE_ATTR_ALGORITHM]	= { .type = NLA_NUL_STRING, .len = 31 },
	[MRC_CC_PROFILE_ATTR_NSCC]	= NLA_POLICY_NESTED(mrc_nscc_policy),
};

const struct nla_policy mrc_conn_policy[MRC_CONN_ATTR_MAX + 1] = {
	[MRC_CONN_ATTR_ID] = { .type = NLA_U32 },
};

const struct nla_policy mrc_path_policy[MRC_PATH_ATTR_MAX + 1] = {
	[MRC_PATH_ATTR_CONN_ID]	= { .type = NLA_U32 },
	[MRC_PATH_ATTR_EV]	= NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_ev_value_range),
	[MRC_PATH_ATTR_PLANE]	= NLA_POLICY_MAX(NLA_U32, MRC_MAX_PLANES - 1),
	[MRC_PATH_ATTR_STATE]	= NLA_POLICY_MAX(NLA_U8, MRC_EV_DENIED),
};

/* Each command accepts exactly one object nest (or nothing). */
static const struct nla_policy mrc_nl_none_policy[MRC_ATTR_MAX + 1] = {};

static const struct nla_policy mrc_nl_plane_req[MRC_ATTR_MAX + 1] = {
	[MRC_ATTR_PLANE] = NLA_POLICY_NESTED(mrc_plane_policy),
};

static const struct nla_policy mrc_nl_ev_profile_req[MRC_ATTR_MAX + 1] = {
	[MRC_ATTR_EV_PROFILE] = NLA_POLICY_NESTED(mrc_ev_profile_policy),
};

static const struct nla_policy mrc_nl_cc_profile_req[MRC_ATTR_MAX + 1] = {
	[MRC_ATTR_CC_PROFILE] = NLA_POLICY_NESTED(mrc_cc_profile_policy),
};

static const struct nla_policy mrc_nl_conn_req[MRC_ATTR_MAX + 1] = {
	[MRC_ATTR_CONN] = NLA_POLICY_NESTED(mrc_conn_policy),
};

static const struct nla_policy mrc_nl_path_req[MRC_ATTR_MAX + 1] = {
	[MRC_ATTR_PATH] = NLA_POLICY_NESTED(mrc_path_policy),
};

int mrc_nl_parse_nest(struct genl_info *info, int type, int maxtype,
		      const struct nla_policy *policy, struct nlattr **tb)
{
	if (GENL_REQ_ATTR_CHECK(info, type)) {
		NL_SET_ERR_MSG(info->extack, "missing object attribute for this command");
		return -EINVAL;
	}
	return nla_parse_nested(tb, maxtype, info->attrs[type], policy,
				info->extack);
}

int mrc_nl_put_stat(struct sk_buff *skb, const char *name, u64 value)
{
	struct nlattr *entry = nla_nest_start(skb, MRC_STATS_ATTR_ENTRY);

	if (!entry)
		return -EMSGSIZE;
	if (nla_put_string(skb, MRC_STATS_ATTR_NAME, name) ||
	    nla_put_u64_64bit(skb, MRC_STATS_ATTR_VALUE, value,
			      MRC_STATS_ATTR_PAD)) {
		nla_nest_cancel(skb, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, entry);
	return 0;
}

static int mrc_nl_fill_info(struct sk_buff *skb)
{
	struct nlattr *info, *algs;
	u32 caps = MRC_CAP_EV_PROFILE_MODIFY_ONLINE |
		   MRC_CAP_CC_PROFILE_MODIFY_ONLINE | MRC_CAP_EV_EVENT |
		   MRC_CAP_EV_EXPLICIT | MRC_CAP_EV_GENERATED |
		   MRC_CAP_IPV4 | MRC_CAP_IPV6;

	info = nla_nest_start(skb, MRC_ATTR_INFO);
	if (!info)
		return -EMSGSIZE;
	if (nla_put_string(skb, MRC_INFO_ATTR_VERSION, MRC_MODULE_VERSION) ||
	    nla_put_u32(skb, MRC_INFO_ATTR_FAMILY, mrc_family) ||
	    nla_put_u32(skb, MRC_INFO_ATTR_API_VERSION, MRC_GENL_VERSION) ||
	    nla_put_u32(skb, MRC_INFO_ATTR_CAPS, caps) ||
	    nla_put_u32(skb, MRC_INFO_ATTR_MAX_PLANES, MRC_MAX_PLANES) ||
	    nla_put_u32(skb, MRC_INFO_ATTR_MAX_EV_PROFILES, MRC_MAX_EV_PROFILES) ||
	    nla_put_u32(skb, MRC_INFO_ATTR_MAX_EVS, MRC_MAX_EVS_PER_PROFILE) ||
	    nla_put_u32(skb, MRC_INFO_ATTR_MAX_CC_PROFILES, MRC_MAX_CC_PROFILES) ||
	    nla_put_u32(skb, MRC_INFO_ATTR_EV_MAX_BITS, MRC_EV_MAX_BITS))
		goto err_cancel;
	algs = nla_nest_start(skb, MRC_INFO_ATTR_CC_ALGORITHMS);
	if (!algs ||
	    nla_put_string(skb, MRC_INFO_ATTR_CC_ALGORITHM, MRC_CC_ALG_NSCC))
		goto err_cancel;
	nla_nest_end(skb, algs);
	nla_nest_end(skb, info);
	return 0;

err_cancel:
	nla_nest_cancel(skb, info);
	return -EMSGSIZE;
}

static int mrc_nl_info_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG(info->extack, "out of memory for the reply");
		return -ENOMEM;
	}
	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0, info->genlhdr->cmd);
	if (!hdr || mrc_nl_fill_info(msg)) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG(info->extack, "the reply does not fit its message");
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* Build and send one event; @fill adds the object nest. */
void mrc_nl_event_obj(struct mrc_net *mn, u8 event, u8 reason,
		      int (*fill)(struct sk_buff *skb, const void *obj),
		      const void *obj)
{
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&mrc_genl_family, mn->net, 0))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &mrc_genl_family, 0, event);
	if (!hdr || fill(msg, obj) ||
	    (reason && nla_put_u8(msg, MRC_ATTR_EVENT_REASON, reason))) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&mrc_genl_family, mn->net, msg, 0, 0,
				GFP_KERNEL);
}

static int mrc_nl_event_fill_plane(struct sk_buff *skb, const void *obj)
{
	return mrc_nl_fill_plane(skb, obj, false);
}

void mrc_nl_event_plane(struct mrc_net *mn, u8 event,
			const struct mrc_plane *pl, u8 reason)
{
	mrc_nl_event_obj(mn, event, reason, mrc_nl_event_fill_plane, pl);
}

static int mrc_nl_event_fill_ev_profile(struct sk_buff *skb, const void *obj)
{
	return mrc_nl_fill_ev_profile(skb, obj, false);
}

void mrc_nl_event_ev_profile(struct mrc_net *mn, const struct mrc_ev_profile *p)
{
	mrc_nl_event_obj(mn, MRC_EVENT_PROFILE_STATE, MRC_REASON_ADMIN,
			 mrc_nl_event_fill_ev_profile, p);
}

static int mrc_nl_event_fill_cc_profile(struct sk_buff *skb, const void *obj)
{
	return mrc_nl_fill_cc_profile(skb, obj);
}

void mrc_nl_event_cc_profile(struct mrc_net *mn, const struct mrc_cc_profile *p)
{
	mrc_nl_event_obj(mn, MRC_EVENT_PROFILE_STATE, MRC_REASON_ADMIN,
			 mrc_nl_event_fill_cc_profile, p);
}

struct mrc_nl_ev_event {
	u32			profile_id;
	const struct mrc_ev	*ev;
};

static int mrc_nl_event_fill_ev(struct sk_buff *skb, const void *obj)
{
	const struct mrc_nl_ev_event *e = obj;
	struct nlattr *path = nla_nest_start(skb, MRC_ATTR_PATH);

	if (!path)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_PATH_ATTR_CONN_ID, 0) ||
	    nla_put_u32(skb, MRC_PATH_ATTR_EV_PROFILE, e->profile_id) ||
	    nla_put_u32(skb, MRC_PATH_ATTR_EV, e->ev->value) ||
	    (e->ev->plane < MRC_MAX_PLANES &&
	     nla_put_u32(skb, MRC_PATH_ATTR_PLANE, e->ev->plane)) ||
	    nla_put_u8(skb, MRC_PATH_ATTR_STATE, e->ev->state)) {
		nla_nest_cancel(skb, path);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, path);
	return 0;
}

void mrc_nl_event_ev_state(struct mrc_net *mn, u32 profile_id,
			   const struct mrc_ev *ev)
{
	struct mrc_nl_ev_event e = { .profile_id = profile_id, .ev = ev };

	mrc_nl_event_obj(mn, MRC_EVENT_EV_STATE, MRC_REASON_ADMIN,
			 mrc_nl_event_fill_ev, &e);
}

#define MRC_NL_OP(_cmd, _doit, _dumpit, _policy, _flags) {	\
	.cmd = _cmd, .doit = _doit, .dumpit = _dumpit,		\
	.policy = _policy, .maxattr = MRC_ATTR_MAX,		\
	.flags = _flags,					\
}

/* Reads are open to everyone; changes need CAP_NET_ADMIN in the netns. */
static const struct genl_ops mrc_nl_ops[] = {
	MRC_NL_OP(MRC_CMD_INFO_GET, mrc_nl_info_get_doit, NULL,
		  mrc_nl_none_policy, 0),
	MRC_NL_OP(MRC_CMD_PLANE_ADD, mrc_nl_plane_add_doit, NULL,
		  mrc_nl_plane_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_PLANE_DEL, mrc_nl_plane_del_doit, NULL,
		  mrc_nl_plane_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_PLANE_GET, mrc_nl_plane_get_doit,
		  mrc_nl_plane_get_dumpit, mrc_nl_plane_req, 0),
	MRC_NL_OP(MRC_CMD_PLANE_SET, mrc_nl_plane_set_doit, NULL,
		  mrc_nl_plane_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_EV_PROFILE_NEW, mrc_nl_ev_profile_new_doit, NULL,
		  mrc_nl_ev_profile_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_EV_PROFILE_SET, mrc_nl_ev_profile_set_doit, NULL,
		  mrc_nl_ev_profile_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_EV_PROFILE_GET, mrc_nl_ev_profile_get_doit,
		  mrc_nl_ev_profile_get_dumpit, mrc_nl_ev_profile_req, 0),
	MRC_NL_OP(MRC_CMD_EV_PROFILE_DEL, mrc_nl_ev_profile_del_doit, NULL,
		  mrc_nl_ev_profile_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_CC_PROFILE_NEW, mrc_nl_cc_profile_new_doit, NULL,
		  mrc_nl_cc_profile_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_CC_PROFILE_SET, mrc_nl_cc_profile_set_doit, NULL,
		  mrc_nl_cc_profile_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_CC_PROFILE_GET, mrc_nl_cc_profile_get_doit,
		  mrc_nl_cc_profile_get_dumpit, mrc_nl_cc_profile_req, 0),
	MRC_NL_OP(MRC_CMD_CC_PROFILE_DEL, mrc_nl_cc_profile_del_doit, NULL,
		  mrc_nl_cc_profile_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_CONN_GET, mrc_nl_conn_get_doit,
		  mrc_nl_conn_get_dumpit, mrc_nl_conn_req, 0),
	MRC_NL_OP(MRC_CMD_PATH_GET, NULL, mrc_nl_path_get_dumpit,
		  mrc_nl_path_req, 0),
	MRC_NL_OP(MRC_CMD_PATH_SET, mrc_nl_path_set_doit, NULL,
		  mrc_nl_path_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_PATH_PROBE, mrc_nl_path_probe_doit, NULL,
		  mrc_nl_path_req, GENL_UNS_ADMIN_PERM),
	MRC_NL_OP(MRC_CMD_STATS_GET, NULL, mrc_nl_stats_get_dumpit,
		  mrc_nl_none_policy, 0),
	MRC_NL_OP(MRC_CMD_PEER_GET, NULL, mrc_nl_peer_get_dumpit,
		  mrc_nl_none_policy, 0),
};

static const struct genl_multicast_group mrc_nl_mcgrps[] = {
	{ .name = MRC_GENL_MCGRP_EVENTS, },
};

struct genl_family mrc_genl_family __ro_after_init = {
	.name		= MRC_GENL_NAME,
	.version	= MRC_GENL_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,	/* mrc_net.lock serialises what needs it */
	.module		= THIS_MODULE,
	.ops		= mrc_nl_ops,
	.n_ops		= ARRAY_SIZE(mrc_nl_ops),
	.resv_start_op	= MRC_CMD_MAX + 1,
	.mcgrps		= mrc_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(mrc_nl_mcgrps),
};

int mrc_netlink_init(void)
{
	return genl_register_family(&mrc_genl_family);
}

void mrc_netlink_exit(void)
{
	genl_unregister_family(&mrc_genl_family);
}
