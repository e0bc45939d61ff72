// SPDX-License-Identifier: GPL-2.0
/*
 * EV profiles: configuration, EV arrays (explicit, generated, auto), EV
 * state changes with the ev_min_active guard, and the INIT/OFFLINE/ONLINE
 * state machine of the OCP MRC control API (mrc_ctl_modify_ev_profile()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/netlink.h>

#include "ctl/profile.h"
#include "ctl/netlink.h"

#define MRC_EV_SPACE	BIT(MRC_EV_MAX_BITS)

struct mrc_ev_profile *mrc_ev_profile_alloc(u32 id)
{
	struct mrc_ev_profile *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (p)
		p->hdr.id = id;
	return p;
}

struct mrc_ev_profile *mrc_ev_profile_clone(const struct mrc_ev_profile *p)
{
	struct mrc_ev_profile *c = kmemdup(p, sizeof(*p), GFP_KERNEL);

	if (!c)
		return NULL;
	if (p->evs) {
		c->evs = kvmalloc_array(p->ev_count, sizeof(*p->evs), GFP_KERNEL);
		if (!c->evs) {
			kfree(c);
			return NULL;
		}
		memcpy(c->evs, p->evs, p->ev_count * sizeof(*p->evs));
	}
	return c;
}

void mrc_ev_profile_free(struct mrc_ev_profile *p)
{
	if (!p)
		return;
	kvfree(p->evs);
	kfree(p);
}

static void mrc_ev_profile_free_cb(struct rcu_head *head)
{
	mrc_ev_profile_free(container_of(head, struct mrc_ev_profile, rcu));
}

void mrc_ev_profile_free_rcu(struct mrc_ev_profile *p)
{
	call_rcu(&p->rcu, mrc_ev_profile_free_cb);
}

/*
 * Distinct pseudo-random EV values from @p->seed: the same seed gives the
 * same array, so generated profiles are reproducible across hosts.
 */
static int mrc_ev_generate(struct mrc_ev_profile *p)
{
	unsigned long *used = bitmap_zalloc(MRC_EV_SPACE, GFP_KERNEL);
	u32 x = p->seed ?: 0x9e3779b9, i = 0, v;

	if (!used)
		return -ENOMEM;
	while (i < p->ev_count) {
		/* xorshift32: cheap, full period, good enough to spread EVs */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		v = x & (MRC_EV_SPACE - 1);
		if (test_and_set_bit(v, used))
			continue;
		p->evs[i].value = v;
		p->evs[i].plane = MRC_EV_ANY_PLANE;
		p->evs[i].state = MRC_EV_GOOD;
		i++;
	}
	bitmap_free(used);
	return 0;
}

/* (Re)build the EV array for the current mode and count. */
static int mrc_ev_profile_build(struct mrc_ev_profile *p)
{
	u32 i;

	kvfree(p->evs);
	p->evs = kvcalloc(p->ev_count, sizeof(*p->evs), GFP_KERNEL);
	if (!p->evs)
		return -ENOMEM;
	if (p->mode == MRC_EV_MODE_EXPLICIT) {
		for (i = 0; i < p->ev_count; i++) {
			p->evs[i].plane = MRC_EV_ANY_PLANE;
			p->evs[i].state = MRC_EV_UNPOPULATED;
		}
		return 0;
	}
	if (!(p->given & MRC_EVP_GIVEN_SEED))
		p->seed = get_random_u32();
	return mrc_ev_generate(p);
}

static u32 mrc_ev_profile_good(const struct mrc_ev_profile *p)
{
	u32 i, good = 0;

	for (i = 0; i < p->ev_count; i++)
		good += p->evs[i].state == MRC_EV_GOOD;
	return good;
}

/* Mode, count, seed and min_active: only outside ONLINE. */
static int mrc_ev_profile_config(struct mrc_ev_profile *p, struct nlattr **tb,
				 struct netlink_ext_ack *extack)
{
	bool rebuild = false;

	if (tb[MRC_EV_PROFILE_ATTR_MODE] || tb[MRC_EV_PROFILE_ATTR_EV_COUNT] ||
	    tb[MRC_EV_PROFILE_ATTR_SEED] || tb[MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE]) {
		if (p->hdr.state == MRC_PROFILE_ONLINE) {
			NL_SET_ERR_MSG(extack,
				       "EV profile is ONLINE: only the event mask and EV states can change");
			return -EBUSY;
		}
	}
	if (tb[MRC_EV_PROFILE_ATTR_MODE]) {
		p->mode = nla_get_u8(tb[MRC_EV_PROFILE_ATTR_MODE]);
		p->given |= MRC_EVP_GIVEN_MODE;
		rebuild = true;
	}
	if (tb[MRC_EV_PROFILE_ATTR_EV_COUNT]) {
		p->ev_count = nla_get_u32(tb[MRC_EV_PROFILE_ATTR_EV_COUNT]);
		p->given |= MRC_EVP_GIVEN_COUNT;
		rebuild = true;
	}
	if (tb[MRC_EV_PROFILE_ATTR_SEED]) {
		p->seed = nla_get_u32(tb[MRC_EV_PROFILE_ATTR_SEED]);
		p->given |= MRC_EVP_GIVEN_SEED;
		rebuild = true;
	}
	if (tb[MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE]) {
		p->ev_min_active = nla_get_u32(tb[MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE]);
		p->given |= MRC_EVP_GIVEN_MIN_ACTIVE;
	}
	if (tb[MRC_EV_PROFILE_ATTR_EVENT_MASK]) {
		p->event_mask = nla_get_u32(tb[MRC_EV_PROFILE_ATTR_EVENT_MASK]);
		p->given |= MRC_EVP_GIVEN_EVENT_MASK;
	}
	if ((p->given & MRC_EVP_GIVEN_COUNT) && p->ev_min_active > p->ev_count) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE] ?:
				    tb[MRC_EV_PROFILE_ATTR_EV_COUNT],
				    "ev_min_active is larger than ev_count");
		return -EINVAL;
	}
	/* An OFFLINE profile gets its EVs again; explicit slots are cleared. */
	if (rebuild && p->hdr.state == MRC_PROFILE_OFFLINE)
		return mrc_ev_profile_build(p);
	return 0;
}

static int mrc_ev_profile_set_evs(struct mrc_ev_profile *p, struct nlattr *evs,
				  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_EV_ATTR_MAX + 1], *ev;
	u32 idx, i, j;
	int rem, err;

	if (p->hdr.state == MRC_PROFILE_INIT || p->mode != MRC_EV_MODE_EXPLICIT) {
		NL_SET_ERR_MSG_ATTR(extack, evs,
				    "EVs can only be listed for an explicit profile that left INIT");
		return -EINVAL;
	}
	nla_for_each_nested(ev, evs, rem) {
		err = nla_parse_nested(tb, MRC_EV_ATTR_MAX, ev, NULL, extack);
		if (err)
			return err;
		if (MRC_NL_REQUIRE(extack, ev, tb, MRC_EV_ATTR_INDEX,
				   "each listed EV needs an index") ||
		    MRC_NL_REQUIRE(extack, ev, tb, MRC_EV_ATTR_VALUE,
				   "each listed EV needs a value"))
			return -EINVAL;
		idx = nla_get_u32(tb[MRC_EV_ATTR_INDEX]);
		if (idx >= p->ev_count) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_EV_ATTR_INDEX],
					    "EV index is beyond ev_count");
			return -ERANGE;
		}
		p->evs[idx].value = nla_get_u32(tb[MRC_EV_ATTR_VALUE]);
		p->evs[idx].plane = tb[MRC_EV_ATTR_PLANE] ?
			nla_get_u32(tb[MRC_EV_ATTR_PLANE]) : MRC_EV_ANY_PLANE;
		p->evs[idx].state = MRC_EV_GOOD;
	}
	for (i = 0; i < p->ev_count; i++)
		for (j = i + 1; j < p->ev_count; j++)
			if (p->evs[i].state != MRC_EV_UNPOPULATED &&
			    p->evs[i].value == p->evs[j].value &&
			    p->evs[i].plane == p->evs[j].plane &&
			    p->evs[j].state != MRC_EV_UNPOPULATED) {
				NL_SET_ERR_MSG_ATTR(extack, evs,
						    "the same EV is listed twice");
				return -EINVAL;
			}
	return 0;
}

/* OCP MODIFY_EV_STATE: one EV, found by value (and plane when given). */
static int mrc_ev_profile_set_ev_state(struct mrc_ev_profile *p,
				       struct nlattr *ev,
				       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_EV_ATTR_MAX + 1];
	struct mrc_ev *found = NULL;
	u32 i, value, plane;
	u8 state;
	int err;

	err = nla_parse_nested(tb, MRC_EV_ATTR_MAX, ev, NULL, extack);
	if (err)
		return err;
	if (MRC_NL_REQUIRE(extack, ev, tb, MRC_EV_ATTR_VALUE,
			   "an EV state change needs the EV value") ||
	    MRC_NL_REQUIRE(extack, ev, tb, MRC_EV_ATTR_STATE,
			   "an EV state change needs the new state"))
		return -EINVAL;
	value = nla_get_u32(tb[MRC_EV_ATTR_VALUE]);
	plane = tb[MRC_EV_ATTR_PLANE] ? nla_get_u32(tb[MRC_EV_ATTR_PLANE]) :
		MRC_EV_ANY_PLANE;
	state = nla_get_u8(tb[MRC_EV_ATTR_STATE]);
	if (state != MRC_EV_GOOD && state != MRC_EV_ASSUMED_BAD &&
	    state != MRC_EV_DENIED) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_EV_ATTR_STATE],
				    "EV state must be good, assumed-bad or denied");
		return -EINVAL;
	}
	for (i = 0; p->evs && i < p->ev_count; i++) {
		if (p->evs[i].value == value && p->evs[i].state != MRC_EV_UNPOPULATED &&
		    (plane == MRC_EV_ANY_PLANE || p->evs[i].plane == plane)) {
			found = &p->evs[i];
			break;
		}
	}
	if (!found) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_EV_ATTR_VALUE],
				    "no such EV in this profile");
		return -ENOENT;
	}
	if (found->state == MRC_EV_GOOD && state != MRC_EV_GOOD &&
	    mrc_ev_profile_good(p) <= p->ev_min_active) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_EV_ATTR_STATE],
				    "would leave fewer GOOD EVs than ev_min_active");
		return -EBUSY;
	}
	found->state = state;
	return 0;
}

static int mrc_ev_profile_up(struct mrc_ev_profile *p, u8 target,
			     struct nlattr *why, struct netlink_ext_ack *extack)
{
	u32 need = MRC_EVP_GIVEN_MODE | MRC_EVP_GIVEN_COUNT;
	int err;

	if (p->hdr.state == MRC_PROFILE_INIT && target > MRC_PROFILE_INIT) {
		if ((p->given & need) != need) {
			NL_SET_ERR_MSG_ATTR(extack, why,
					    "EV profile needs mode and count to go OFFLINE");
			return -EINVAL;
		}
		err = mrc_ev_profile_build(p);
		if (err)
			return err;
		p->hdr.state = MRC_PROFILE_OFFLINE;
	}
	return 0;
}

static int mrc_ev_profile_online(struct mrc_ev_profile *p, struct nlattr *why,
				 struct netlink_ext_ack *extack)
{
	u32 need = MRC_EVP_GIVEN_MIN_ACTIVE | MRC_EVP_GIVEN_EVENT_MASK;
	u32 i;

	if ((p->given & need) != need) {
		NL_SET_ERR_MSG_ATTR(extack, why,
				    "EV profile needs min-active and event mask to go ONLINE");
		return -EINVAL;
	}
	for (i = 0; i < p->ev_count; i++) {
		if (p->evs[i].state == MRC_EV_UNPOPULATED) {
			NL_SET_ERR_MSG_ATTR(extack, why,
					    "every explicit EV slot must be filled before ONLINE");
			return -EINVAL;
		}
	}
	p->hdr.state = MRC_PROFILE_ONLINE;
	return 0;
}

static int mrc_ev_profile_down(struct mrc_ev_profile *p, u8 target,
			       struct nlattr *why, struct netlink_ext_ack *extack)
{
	if (p->hdr.state == MRC_PROFILE_ONLINE && target < MRC_PROFILE_ONLINE) {
		if (p->hdr.users) {
			NL_SET_ERR_MSG_ATTR(extack, why,
					    "EV profile is used by connections");
			return -EBUSY;
		}
		p->hdr.state = MRC_PROFILE_OFFLINE;
	}
	if (p->hdr.state == MRC_PROFILE_OFFLINE && target == MRC_PROFILE_INIT) {
		kvfree(p->evs);
		p->evs = NULL;
		p->given = 0;
		p->mode = MRC_EV_MODE_AUTO;
		p->ev_count = 0;
		p->ev_min_active = 0;
		p->event_mask = 0;
		p->seed = 0;
		p->hdr.state = MRC_PROFILE_INIT;
	}
	return 0;
}

/*
 * Apply one request (attributes of an MRC_ATTR_EV_PROFILE nest) to @p.
 * Order: down if asked, configuration, up to OFFLINE, EV changes, up to
 * ONLINE.
 * On error @p is left half-changed: callers apply to a clone.
 */
int mrc_ev_profile_apply(struct mrc_ev_profile *p, struct nlattr **tb,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *why = tb[MRC_EV_PROFILE_ATTR_STATE];
	u8 target = why ? nla_get_u8(why) : p->hdr.state;
	int err;

	if (tb[MRC_EV_PROFILE_ATTR_EVS] && tb[MRC_EV_PROFILE_ATTR_EV]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_EV_PROFILE_ATTR_EV],
				    "give either an EV list or one EV state change");
		return -EINVAL;
	}
	if (target < p->hdr.state) {
		err = mrc_ev_profile_down(p, target, why, extack);
		if (err)
			return err;
	}
	err = mrc_ev_profile_config(p, tb, extack);
	if (!err)
		err = mrc_ev_profile_up(p, target, why, extack);
	if (!err && tb[MRC_EV_PROFILE_ATTR_EVS])
		err = mrc_ev_profile_set_evs(p, tb[MRC_EV_PROFILE_ATTR_EVS], extack);
	if (!err && tb[MRC_EV_PROFILE_ATTR_EV]) {
		if (p->hdr.state == MRC_PROFILE_INIT) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_EV_PROFILE_ATTR_EV],
					    "EV profile is INIT and has no EVs");
			return -ENOENT;
		}
		err = mrc_ev_profile_set_ev_state(p, tb[MRC_EV_PROFILE_ATTR_EV],
						  extack);
	}
	if (!err && target == MRC_PROFILE_ONLINE && p->hdr.state == MRC_PROFILE_OFFLINE)
		err = mrc_ev_profile_online(p, why, extack);
	return err;
}
