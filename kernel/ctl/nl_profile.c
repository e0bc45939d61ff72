// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink handlers for EV and CC profiles (NEW/SET/GET/DEL). Both kinds
 * share one table discipline, described by struct mrc_nl_profile_type:
 * a change is applied to a clone, which replaces the original in the
 * xarray (RCU readers see old or new, never a mix); the old one is freed
 * after a grace period. All under mrc_net.lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/genetlink.h>

#include "pernet.h"
#include "ctl/profile.h"
#include "ctl/netlink.h"

/* Room for the attributes of either kind of profile nest. */
#define MRC_NL_PROFILE_TB_LEN	(MRC_EV_PROFILE_ATTR_MAX + 1)
static_assert(MRC_CC_PROFILE_ATTR_MAX <= MRC_EV_PROFILE_ATTR_MAX);

struct mrc_nl_profile_type {
	int	attr;		/* MRC_ATTR_EV_PROFILE or MRC_ATTR_CC_PROFILE */
	int	maxattr;
	int	id_attr;
	int	state_attr;
	u32	max_id;
	const struct nla_policy *policy;
	struct xarray *(*table)(struct mrc_net *mn);
	struct mrc_profile_hdr *(*alloc)(u32 id);
	struct mrc_profile_hdr *(*clone)(const struct mrc_profile_hdr *p);
	void	(*free)(struct mrc_profile_hdr *p);
	void	(*free_rcu)(struct mrc_profile_hdr *p);
	int	(*apply)(struct mrc_profile_hdr *p, struct nlattr **tb,
			 struct netlink_ext_ack *extack);
	int	(*fill)(struct sk_buff *skb, const struct mrc_profile_hdr *p,
			bool detail);
	/* room a detailed reply needs */
	size_t	(*size)(const struct mrc_profile_hdr *p);
	/* events for the change @old -> @new (@old NULL when created) */
	void	(*notify)(struct mrc_net *mn, const struct mrc_profile_hdr *old,
			  const struct mrc_profile_hdr *new);
};

/* ---- EV profiles ---- */

#define to_evp(h) container_of(h, struct mrc_ev_profile, hdr)
#define to_ccp(h) container_of(h, struct mrc_cc_profile, hdr)

static struct xarray *mrc_nl_evp_table(struct mrc_net *mn)
{
	return &mn->ev_profiles;
}

static struct mrc_profile_hdr *mrc_nl_evp_alloc(u32 id)
{
	struct mrc_ev_profile *p = mrc_ev_profile_alloc(id);

	return p ? &p->hdr : NULL;
}

static struct mrc_profile_hdr *mrc_nl_evp_clone(const struct mrc_profile_hdr *h)
{
	struct mrc_ev_profile *p = mrc_ev_profile_clone(to_evp(h));

	return p ? &p->hdr : NULL;
}

static void mrc_nl_evp_free(struct mrc_profile_hdr *h)
{
	mrc_ev_profile_free(to_evp(h));
}

static void mrc_nl_evp_free_rcu(struct mrc_profile_hdr *h)
{
	mrc_ev_profile_free_rcu(to_evp(h));
}

static int mrc_nl_evp_apply(struct mrc_profile_hdr *h, struct nlattr **tb,
			    struct netlink_ext_ack *extack)
{
	return mrc_ev_profile_apply(to_evp(h), tb, extack);
}

static int mrc_nl_fill_evs(struct sk_buff *skb, const struct mrc_ev_profile *p)
{
	struct nlattr *evs, *ev;
	u32 i;

	evs = nla_nest_start(skb, MRC_EV_PROFILE_ATTR_EVS);
	if (!evs)
		return -EMSGSIZE;
	for (i = 0; i < p->ev_count; i++) {
		ev = nla_nest_start(skb, MRC_EV_PROFILE_ATTR_EV);
		if (!ev ||
		    nla_put_u32(skb, MRC_EV_ATTR_INDEX, i) ||
		    nla_put_u32(skb, MRC_EV_ATTR_VALUE, p->evs[i].value) ||
		    (p->evs[i].plane != MRC_EV_ANY_PLANE &&
		     nla_put_u32(skb, MRC_EV_ATTR_PLANE, p->evs[i].plane)) ||
		    nla_put_u8(skb, MRC_EV_ATTR_STATE, p->evs[i].state)) {
			nla_nest_cancel(skb, evs);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, ev);
	}
	nla_nest_end(skb, evs);
	return 0;
}

int mrc_nl_fill_ev_profile(struct sk_buff *skb, const struct mrc_ev_profile *p,
			   bool with_evs)
{
	struct nlattr *nest = nla_nest_start(skb, MRC_ATTR_EV_PROFILE);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_EV_PROFILE_ATTR_ID, p->hdr.id) ||
	    nla_put_u8(skb, MRC_EV_PROFILE_ATTR_STATE, p->hdr.state) ||
	    nla_put_u8(skb, MRC_EV_PROFILE_ATTR_MODE, p->mode) ||
	    nla_put_u32(skb, MRC_EV_PROFILE_ATTR_EV_COUNT, p->ev_count) ||
	    nla_put_u32(skb, MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE, p->ev_min_active) ||
	    nla_put_u32(skb, MRC_EV_PROFILE_ATTR_EVENT_MASK, p->event_mask) ||
	    nla_put_u32(skb, MRC_EV_PROFILE_ATTR_SEED, p->seed) ||
	    nla_put_u32(skb, MRC_EV_PROFILE_ATTR_USERS, p->hdr.users) ||
	    (with_evs && p->evs && mrc_nl_fill_evs(skb, p))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int mrc_nl_evp_fill(struct sk_buff *skb, const struct mrc_profile_hdr *h,
			   bool detail)
{
	return mrc_nl_fill_ev_profile(skb, to_evp(h), detail);
}

/*
 * A full explicit profile lists MRC_MAX_EVS_PER_PROFILE EVs of 36 bytes
 * each: more than a fixed size reply holds.
 */
static size_t mrc_nl_evp_size(const struct mrc_profile_hdr *h)
{
	const struct mrc_ev_profile *p = to_evp(h);
	size_t ev = nla_total_size(0) + 3 * nla_total_size(sizeof(u32)) +
		    nla_total_size(sizeof(u8));

	return NLMSG_GOODSIZE + (p->evs ? nla_total_size(0) + p->ev_count * ev : 0);
}

/* Profile state changes, and EV state changes the event mask asks for. */
static void mrc_nl_evp_notify(struct mrc_net *mn, const struct mrc_profile_hdr *old,
			      const struct mrc_profile_hdr *new)
{
	const struct mrc_ev_profile *o = old ? to_evp(old) : NULL;
	const struct mrc_ev_profile *n = to_evp(new);
	u32 i;

	if (o ? o->hdr.state != n->hdr.state : n->hdr.state != MRC_PROFILE_INIT)
		mrc_nl_event_ev_profile(mn, n);
	if (!o || !o->evs || !n->evs || o->ev_count != n->ev_count)
		return;
	for (i = 0; i < n->ev_count; i++)
		if (o->evs[i].state != n->evs[i].state &&
		    o->evs[i].value == n->evs[i].value &&
		    (n->event_mask & BIT(n->evs[i].state)))
			mrc_nl_event_ev_state(mn, n->hdr.id, &n->evs[i]);
}

static const struct mrc_nl_profile_type mrc_nl_evp_type = {
	.attr		= MRC_ATTR_EV_PROFILE,
	.maxattr	= MRC_EV_PROFILE_ATTR_MAX,
	.id_attr	= MRC_EV_PROFILE_ATTR_ID,
	.state_attr	= MRC_EV_PROFILE_ATTR_STATE,
	.max_id		= MRC_MAX_EV_PROFILES,
	.policy		= mrc_ev_profile_policy,
	.table		= mrc_nl_evp_table,
	.alloc		= mrc_nl_evp_alloc,
	.clone		= mrc_nl_evp_clone,
	.free		= mrc_nl_evp_free,
	.free_rcu	= mrc_nl_evp_free_rcu,
	.apply		= mrc_nl_evp_apply,
	.fill		= mrc_nl_evp_fill,
	.size		= mrc_nl_evp_size,
	.notify		= mrc_nl_evp_notify,
};

/* ---- CC profiles ---- */

static struct xarray *mrc_nl_ccp_table(struct mrc_net *mn)
{
	return &mn->cc_profiles;
}

static struct mrc_profile_hdr *mrc_nl_ccp_alloc(u32 id)
{
	struct mrc_cc_profile *p = mrc_cc_profile_alloc(id);

	return p ? &p->hdr : NULL;
}

static struct mrc_profile_hdr *mrc_nl_ccp_clone(const struct mrc_profile_hdr *h)
{
	struct mrc_cc_profile *p = mrc_cc_profile_clone(to_ccp(h));

	return p ? &p->hdr : NULL;
}

static void mrc_nl_ccp_free(struct mrc_profile_hdr *h)
{
	mrc_cc_profile_free(to_ccp(h));
}

static void mrc_nl_ccp_free_rcu(struct mrc_profile_hdr *h)
{
	mrc_cc_profile_free_rcu(to_ccp(h));
}

static int mrc_nl_ccp_apply(struct mrc_profile_hdr *h, struct nlattr **tb,
			    struct netlink_ext_ack *extack)
{
	return mrc_cc_profile_apply(to_ccp(h), tb, extack);
}

static int mrc_nl_fill_nscc(struct sk_buff *skb, const struct mrc_nscc_params *n)
{
	struct nlattr *nest = nla_nest_start(skb, MRC_CC_PROFILE_ATTR_NSCC);

	if (!nest ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_BASE_RTT, n->base_rtt) ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_TARGET_DELAY, n->target_delay) ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_MAX_CWND, n->max_cwnd) ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_ETA, n->eta) ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_FI, n->fi) ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_FI_SCALE, n->fi_scale) ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_GAMMA, n->gamma) ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_MAX_MD_JUMP, n->max_md_jump) ||
	    nla_put_u8(skb, MRC_NSCC_ATTR_QA_GATE, n->qa_gate) ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_QA_THRESHOLD, n->qa_threshold) ||
	    nla_put_u8(skb, MRC_NSCC_ATTR_DISABLE_QA, n->disable_qa) ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_ADJUST_BYTES, n->adjust_bytes) ||
	    nla_put_u32(skb, MRC_NSCC_ATTR_ADJUST_PERIOD, n->adjust_period)) {
		if (nest)
			nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

int mrc_nl_fill_cc_profile(struct sk_buff *skb, const struct mrc_cc_profile *p)
{
	struct nlattr *nest = nla_nest_start(skb, MRC_ATTR_CC_PROFILE);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_CC_PROFILE_ATTR_ID, p->hdr.id) ||
	    nla_put_u8(skb, MRC_CC_PROFILE_ATTR_STATE, p->hdr.state) ||
	    nla_put_u32(skb, MRC_CC_PROFILE_ATTR_USERS, p->hdr.users) ||
	    (p->has_algorithm &&
	     nla_put_string(skb, MRC_CC_PROFILE_ATTR_ALGORITHM, MRC_CC_ALG_NSCC)) ||
	    (p->has_algorithm && mrc_nl_fill_nscc(skb, &p->nscc))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int mrc_nl_ccp_fill(struct sk_buff *skb, const struct mrc_profile_hdr *h,
			   bool detail)
{
	return mrc_nl_fill_cc_profile(skb, to_ccp(h));
}

static size_t mrc_nl_ccp_size(const struct mrc_profile_hdr *h)
{
	return NLMSG_GOODSIZE;
}

static void mrc_nl_ccp_notify(struct mrc_net *mn, const struct mrc_profile_hdr *old,
			      const struct mrc_profile_hdr *new)
{
	if (old ? old->state != new->state : new->state != MRC_PROFILE_INIT)
		mrc_nl_event_cc_profile(mn, to_ccp(new));
}

static const struct mrc_nl_profile_type mrc_nl_ccp_type = {
	.attr		= MRC_ATTR_CC_PROFILE,
	.maxattr	= MRC_CC_PROFILE_ATTR_MAX,
	.id_attr	= MRC_CC_PROFILE_ATTR_ID,
	.state_attr	= MRC_CC_PROFILE_ATTR_STATE,
	.max_id		= MRC_MAX_CC_PROFILES,
	.policy		= mrc_cc_profile_policy,
	.table		= mrc_nl_ccp_table,
	.alloc		= mrc_nl_ccp_alloc,
	.clone		= mrc_nl_ccp_clone,
	.free		= mrc_nl_ccp_free,
	.free_rcu	= mrc_nl_ccp_free_rcu,
	.apply		= mrc_nl_ccp_apply,
	.fill		= mrc_nl_ccp_fill,
	.size		= mrc_nl_ccp_size,
	.notify		= mrc_nl_ccp_notify,
};

/* ---- shared handlers ---- */

static struct sk_buff *mrc_nl_profile_reply(const struct mrc_nl_profile_type *t,
					    struct genl_info *info,
					    const struct mrc_profile_hdr *p)
{
	struct sk_buff *msg = genlmsg_new(t->size(p), GFP_KERNEL);
	void *hdr;

	if (!msg)
		return NULL;
	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0,
				info->genlhdr->cmd);
	if (!hdr || t->fill(msg, p, true)) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

/* Send @msg if there is one: a failed reply must not undo a change. */
static int mrc_nl_profile_send(struct sk_buff *msg, struct genl_info *info)
{
	return msg ? genlmsg_reply(msg, info) : 0;
}

/* called with mn->lock held */
static struct mrc_profile_hdr *
mrc_nl_profile_lookup(const struct mrc_nl_profile_type *t, struct mrc_net *mn,
		      struct genl_info *info, struct nlattr **tb)
{
	struct mrc_profile_hdr *p;

	lockdep_assert_held(&mn->lock);

	if (MRC_NL_REQUIRE(info->extack, info->attrs[t->attr], tb, t->id_attr,
			   "missing profile id"))
		return ERR_PTR(-EINVAL);
	p = xa_load(t->table(mn), nla_get_u32(tb[t->id_attr]));
	if (!p) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[t->id_attr], "no such profile");
		return ERR_PTR(-ENOENT);
	}
	return p;
}

/* called with mn->lock held */
static int mrc_nl_profile_insert(const struct mrc_nl_profile_type *t,
				 struct mrc_net *mn, struct mrc_profile_hdr *p,
				 struct nlattr **tb, struct netlink_ext_ack *extack)
{
	int err;

	lockdep_assert_held(&mn->lock);

	if (tb[t->id_attr]) {
		err = xa_insert(t->table(mn), p->id, p, GFP_KERNEL);
		if (err == -EBUSY) {
			NL_SET_ERR_MSG_ATTR(extack, tb[t->id_attr],
					    "profile id is already in use");
			return -EEXIST;
		}
		return err;
	}
	err = xa_alloc(t->table(mn), &p->id, p, XA_LIMIT(1, t->max_id),
		       GFP_KERNEL);
	if (err == -EBUSY) {
		NL_SET_ERR_MSG(extack, "all profile ids are in use");
		return -ENOSPC;
	}
	return err;
}

static int mrc_nl_profile_new(const struct mrc_nl_profile_type *t,
			      struct genl_info *info)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_NL_PROFILE_TB_LEN];
	struct mrc_profile_hdr *p;
	struct sk_buff *msg = NULL;
	int err;

	err = mrc_nl_parse_nest(info, t->attr, t->maxattr, t->policy, tb);
	if (err)
		return err;
	p = t->alloc(tb[t->id_attr] ? nla_get_u32(tb[t->id_attr]) : 0);
	if (!p) {
		NL_SET_ERR_MSG(info->extack, "out of memory for the profile");
		return -ENOMEM;
	}
	/* Not yet visible to anyone: a failure just frees it. */
	err = t->apply(p, tb, info->extack);
	if (err)
		goto err_free;

	mutex_lock(&mn->lock);
	err = mrc_nl_profile_insert(t, mn, p, tb, info->extack);
	if (!err) {
		t->notify(mn, NULL, p);
		msg = mrc_nl_profile_reply(t, info, p);
	}
	mutex_unlock(&mn->lock);
	if (err)
		goto err_free;
	return mrc_nl_profile_send(msg, info);

err_free:
	MRC_NL_SET_ERR_MSG_DEFAULT(info->extack, "cannot create the profile");
	t->free(p);
	return err;
}

static int mrc_nl_profile_set(const struct mrc_nl_profile_type *t,
			      struct genl_info *info)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_NL_PROFILE_TB_LEN];
	struct mrc_profile_hdr *old, *new;
	struct sk_buff *msg = NULL;
	int err;

	err = mrc_nl_parse_nest(info, t->attr, t->maxattr, t->policy, tb);
	if (err)
		return err;

	mutex_lock(&mn->lock);
	old = mrc_nl_profile_lookup(t, mn, info, tb);
	if (IS_ERR(old)) {
		err = PTR_ERR(old);
		goto out_unlock;
	}
	new = t->clone(old);
	if (!new) {
		NL_SET_ERR_MSG(info->extack, "out of memory for the profile");
		err = -ENOMEM;
		goto out_unlock;
	}
	err = t->apply(new, tb, info->extack);
	if (err) {
		MRC_NL_SET_ERR_MSG_DEFAULT(info->extack, "cannot change the profile");
		t->free(new);
		goto out_unlock;
	}
	xa_store(t->table(mn), new->id, new, GFP_KERNEL);
	t->notify(mn, old, new);
	t->free_rcu(old);
	msg = mrc_nl_profile_reply(t, info, new);
out_unlock:
	mutex_unlock(&mn->lock);
	if (err)
		return err;
	return mrc_nl_profile_send(msg, info);
}

static int mrc_nl_profile_get(const struct mrc_nl_profile_type *t,
			      struct genl_info *info)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_NL_PROFILE_TB_LEN];
	struct mrc_profile_hdr *p;
	struct sk_buff *msg = NULL;
	int err;

	err = mrc_nl_parse_nest(info, t->attr, t->maxattr, t->policy, tb);
	if (err)
		return err;
	mutex_lock(&mn->lock);
	p = mrc_nl_profile_lookup(t, mn, info, tb);
	if (IS_ERR(p))
		err = PTR_ERR(p);
	else
		msg = mrc_nl_profile_reply(t, info, p);
	mutex_unlock(&mn->lock);
	if (err)
		return err;
	if (!msg) {
		NL_SET_ERR_MSG(info->extack, "out of memory for the reply");
		return -ENOMEM;
	}
	return genlmsg_reply(msg, info);
}

static int mrc_nl_profile_del(const struct mrc_nl_profile_type *t,
			      struct genl_info *info)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_NL_PROFILE_TB_LEN];
	struct mrc_profile_hdr *p;
	int err;

	err = mrc_nl_parse_nest(info, t->attr, t->maxattr, t->policy, tb);
	if (err)
		return err;
	mutex_lock(&mn->lock);
	p = mrc_nl_profile_lookup(t, mn, info, tb);
	if (IS_ERR(p)) {
		err = PTR_ERR(p);
	} else if (p->state == MRC_PROFILE_ONLINE) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[t->id_attr],
				    "profile is ONLINE: take it OFFLINE first");
		err = -EBUSY;
	} else if (p->users) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[t->id_attr],
				    "profile is used by connections");
		err = -EBUSY;
	} else {
		xa_erase(t->table(mn), p->id);
		t->free_rcu(p);
	}
	mutex_unlock(&mn->lock);
	return err;
}

/* cb->args[0]: next profile id to send. */
static int mrc_nl_profile_dump(const struct mrc_nl_profile_type *t,
			       struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_net *mn = mrc_pernet(sock_net(skb->sk));
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct mrc_profile_hdr *p;
	unsigned long id, next = cb->args[0];
	void *hdr;

	mutex_lock(&mn->lock);
	xa_for_each_start(t->table(mn), id, p, cb->args[0]) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &mrc_genl_family,
				  NLM_F_MULTI, info->op.cmd);
		if (!hdr)
			break;
		if (t->fill(skb, p, false)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		next = id + 1;
	}
	mutex_unlock(&mn->lock);
	cb->args[0] = next;
	return skb->len;
}

/* Free every profile of a dying netns (no request can reach it now). */
static void mrc_nl_profile_flush(const struct mrc_nl_profile_type *t,
				 struct mrc_net *mn)
{
	struct mrc_profile_hdr *p;
	unsigned long id;

	xa_for_each(t->table(mn), id, p) {
		xa_erase(t->table(mn), id);
		t->free_rcu(p);
	}
	xa_destroy(t->table(mn));
}

void mrc_profiles_flush(struct mrc_net *mn)
{
	mrc_nl_profile_flush(&mrc_nl_evp_type, mn);
	mrc_nl_profile_flush(&mrc_nl_ccp_type, mn);
}

int mrc_nl_ev_profile_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_profile_new(&mrc_nl_evp_type, info);
}

int mrc_nl_ev_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_profile_set(&mrc_nl_evp_type, info);
}

int mrc_nl_ev_profile_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_profile_get(&mrc_nl_evp_type, info);
}

int mrc_nl_ev_profile_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_nl_profile_dump(&mrc_nl_evp_type, skb, cb);
}

int mrc_nl_ev_profile_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_profile_del(&mrc_nl_evp_type, info);
}

int mrc_nl_cc_profile_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_profile_new(&mrc_nl_ccp_type, info);
}

int mrc_nl_cc_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_profile_set(&mrc_nl_ccp_type, info);
}

int mrc_nl_cc_profile_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_profile_get(&mrc_nl_ccp_type, info);
}

int mrc_nl_cc_profile_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_nl_profile_dump(&mrc_nl_ccp_type, skb, cb);
}

int mrc_nl_cc_profile_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_profile_del(&mrc_nl_ccp_type, info);
}
