// SPDX-License-Identifier: GPL-2.0
/*
 * CC profiles: the congestion-control algorithm (UET 1.0 NSCC) and its
 * parameters, with the INIT/OFFLINE/ONLINE state machine of the OCP MRC
 * control API (mrc_ctl_modify_cc_profile()): OFFLINE needs the algorithm,
 * ONLINE needs its configuration; ONLINE profiles may be tuned.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>

#include "ctl/profile.h"

/* Starting point for NSCC; every value can be overridden per profile. */
static const struct mrc_nscc_params mrc_nscc_defaults = {
	.base_rtt	= 10000,	/* 10 us */
	.target_delay	= 15000,	/* 15 us */
	.max_cwnd	= 1 << 20,
	.eta		= 150000,	/* 0.15 */
	.fi		= 10000,	/* 0.01 */
	.fi_scale	= 1000000,	/* 1.0 */
	.gamma		= 800000,	/* 0.8 */
	.max_md_jump	= 500000,	/* 0.5 */
	.qa_threshold	= 40000,	/* 40 us */
	.adjust_bytes	= 65536,
	.adjust_period	= 50000,	/* 50 us */
	.qa_gate	= 3,
	.disable_qa	= 0,
};

struct mrc_cc_profile *mrc_cc_profile_alloc(u32 id)
{
	struct mrc_cc_profile *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (p)
		p->hdr.id = id;
	return p;
}

struct mrc_cc_profile *mrc_cc_profile_clone(const struct mrc_cc_profile *p)
{
	return kmemdup(p, sizeof(*p), GFP_KERNEL);
}

void mrc_cc_profile_free(struct mrc_cc_profile *p)
{
	kfree(p);
}

void mrc_cc_profile_free_rcu(struct mrc_cc_profile *p)
{
	kfree_rcu(p, rcu);
}

static int mrc_cc_profile_algorithm(struct mrc_cc_profile *p, struct nlattr *alg,
				    struct netlink_ext_ack *extack)
{
	if (nla_strcmp(alg, MRC_CC_ALG_NSCC) && nla_strcmp(alg, "nscc")) {
		NL_SET_ERR_MSG_ATTR(extack, alg,
				    "unknown congestion control algorithm (known: uet-1.0-nscc)");
		return -EINVAL;
	}
	if (p->hdr.state == MRC_PROFILE_ONLINE) {
		NL_SET_ERR_MSG_ATTR(extack, alg,
				    "CC profile is ONLINE: take it OFFLINE to change the algorithm");
		return -EBUSY;
	}
	if (!p->has_algorithm)
		p->nscc = mrc_nscc_defaults;
	p->has_algorithm = true;
	return 0;
}

static void mrc_nscc_get(const struct nlattr *attr, u32 *field)
{
	if (attr)
		*field = nla_get_u32(attr);
}

static int mrc_cc_profile_nscc(struct mrc_cc_profile *p, struct nlattr *nest,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_NSCC_ATTR_MAX + 1];
	struct mrc_nscc_params *n = &p->nscc;
	int err;

	if (!p->has_algorithm) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "set the algorithm before its parameters");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, MRC_NSCC_ATTR_MAX, nest, NULL, extack);
	if (err)
		return err;
	mrc_nscc_get(tb[MRC_NSCC_ATTR_BASE_RTT], &n->base_rtt);
	mrc_nscc_get(tb[MRC_NSCC_ATTR_TARGET_DELAY], &n->target_delay);
	mrc_nscc_get(tb[MRC_NSCC_ATTR_MAX_CWND], &n->max_cwnd);
	mrc_nscc_get(tb[MRC_NSCC_ATTR_ETA], &n->eta);
	mrc_nscc_get(tb[MRC_NSCC_ATTR_FI], &n->fi);
	mrc_nscc_get(tb[MRC_NSCC_ATTR_FI_SCALE], &n->fi_scale);
	mrc_nscc_get(tb[MRC_NSCC_ATTR_GAMMA], &n->gamma);
	mrc_nscc_get(tb[MRC_NSCC_ATTR_MAX_MD_JUMP], &n->max_md_jump);
	mrc_nscc_get(tb[MRC_NSCC_ATTR_QA_THRESHOLD], &n->qa_threshold);
	mrc_nscc_get(tb[MRC_NSCC_ATTR_ADJUST_BYTES], &n->adjust_bytes);
	mrc_nscc_get(tb[MRC_NSCC_ATTR_ADJUST_PERIOD], &n->adjust_period);
	if (tb[MRC_NSCC_ATTR_QA_GATE])
		n->qa_gate = nla_get_u8(tb[MRC_NSCC_ATTR_QA_GATE]);
	if (tb[MRC_NSCC_ATTR_DISABLE_QA])
		n->disable_qa = nla_get_u8(tb[MRC_NSCC_ATTR_DISABLE_QA]);

	if (n->target_delay < n->base_rtt) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_NSCC_ATTR_TARGET_DELAY] ?:
				    tb[MRC_NSCC_ATTR_BASE_RTT],
				    "target_delay must not be below base_rtt");
		return -EINVAL;
	}
	p->has_config = true;
	return 0;
}

/*
 * Apply one request (attributes of an MRC_ATTR_CC_PROFILE nest) to @p:
 * down if asked, algorithm, parameters, then up. Callers apply to a clone.
 */
int mrc_cc_profile_apply(struct mrc_cc_profile *p, struct nlattr **tb,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *why = tb[MRC_CC_PROFILE_ATTR_STATE];
	u8 target = why ? nla_get_u8(why) : p->hdr.state;
	int err;

	if (target < p->hdr.state && p->hdr.state == MRC_PROFILE_ONLINE) {
		if (p->hdr.users) {
			NL_SET_ERR_MSG_ATTR(extack, why,
					    "CC profile is used by connections");
			return -EBUSY;
		}
		p->hdr.state = MRC_PROFILE_OFFLINE;
	}
	if (target == MRC_PROFILE_INIT && p->hdr.state == MRC_PROFILE_OFFLINE) {
		p->has_algorithm = false;
		p->has_config = false;
		memset(&p->nscc, 0, sizeof(p->nscc));
		p->hdr.state = MRC_PROFILE_INIT;
	}
	if (tb[MRC_CC_PROFILE_ATTR_ALGORITHM]) {
		err = mrc_cc_profile_algorithm(p, tb[MRC_CC_PROFILE_ATTR_ALGORITHM],
					       extack);
		if (err)
			return err;
	}
	if (tb[MRC_CC_PROFILE_ATTR_NSCC]) {
		err = mrc_cc_profile_nscc(p, tb[MRC_CC_PROFILE_ATTR_NSCC], extack);
		if (err)
			return err;
	}
	if (p->hdr.state == MRC_PROFILE_INIT && target > MRC_PROFILE_INIT) {
		if (!p->has_algorithm) {
			NL_SET_ERR_MSG_ATTR(extack, why,
					    "CC profile needs an algorithm to go OFFLINE");
			return -EINVAL;
		}
		p->hdr.state = MRC_PROFILE_OFFLINE;
	}
	if (p->hdr.state == MRC_PROFILE_OFFLINE && target == MRC_PROFILE_ONLINE) {
		if (!p->has_config) {
			NL_SET_ERR_MSG_ATTR(extack, why,
					    "CC profile needs its parameters to go ONLINE");
			return -EINVAL;
		}
		p->hdr.state = MRC_PROFILE_ONLINE;
	}
	return 0;
}
