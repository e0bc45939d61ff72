/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EV and CC profiles, after the OCP MRC control API: a profile is created
 * in INIT, configured, and walks INIT -> OFFLINE -> ONLINE -> OFFLINE ->
 * INIT. Requests are applied to a clone that replaces the original only
 * when the whole request succeeded, so a rejected request changes nothing.
 */
#ifndef __MRC_PROFILE_H
#define __MRC_PROFILE_H

#include <linux/rcupdate.h>
#include <linux/types.h>
#include <linux/mrc_netlink.h>

struct nlattr;
struct netlink_ext_ack;

#define MRC_EV_ANY_PLANE	U32_MAX	/* EV usable on every plane */

/*
 * struct mrc_profile_hdr - what every profile has; first member of each.
 * @id:		key in its mrc_net table
 * @state:	enum mrc_profile_state
 * @users:	connections using the profile; OFFLINE and deletion wait for 0
 */
struct mrc_profile_hdr {
	u32	id;
	u8	state;
	u32	users;
};

/* One entropy value of a profile. */
struct mrc_ev {
	u32	value;
	u32	plane;		/* plane id or MRC_EV_ANY_PLANE */
	u8	state;		/* enum mrc_ev_state, WRITE_ONCE() by writers */
};

/* Which configuration a profile has been given (OCP transition rules). */
enum {
	MRC_EVP_GIVEN_MODE		= BIT(0),
	MRC_EVP_GIVEN_COUNT		= BIT(1),
	MRC_EVP_GIVEN_MIN_ACTIVE	= BIT(2),
	MRC_EVP_GIVEN_EVENT_MASK	= BIT(3),
	MRC_EVP_GIVEN_SEED		= BIT(4),
};

/*
 * struct mrc_ev_profile - an EV profile.
 * @evs:	@ev_count EVs once the profile left INIT, NULL in INIT
 * Lives in mrc_net.ev_profiles; replaced whole (RCU) on every change.
 */
struct mrc_ev_profile {
	struct mrc_profile_hdr hdr;
	u8		mode;
	u32		given;
	u32		ev_count;
	u32		ev_min_active;
	u32		event_mask;
	u32		seed;
	struct mrc_ev	*evs;
	struct rcu_head	rcu;
};

struct mrc_ev_profile *mrc_ev_profile_alloc(u32 id);
struct mrc_ev_profile *mrc_ev_profile_clone(const struct mrc_ev_profile *p);
void mrc_ev_profile_free(struct mrc_ev_profile *p);
void mrc_ev_profile_free_rcu(struct mrc_ev_profile *p);
int mrc_ev_profile_apply(struct mrc_ev_profile *p, struct nlattr **tb,
			 struct netlink_ext_ack *extack);

/* NSCC parameters, units as in enum mrc_nscc_attr. */
struct mrc_nscc_params {
	u32	base_rtt;
	u32	target_delay;
	u32	max_cwnd;
	u32	eta;
	u32	fi;
	u32	fi_scale;
	u32	gamma;
	u32	max_md_jump;
	u32	qa_threshold;
	u32	adjust_bytes;
	u32	adjust_period;
	u8	qa_gate;
	u8	disable_qa;
};

/* struct mrc_cc_profile - a CC profile; same life cycle as EV profiles. */
struct mrc_cc_profile {
	struct mrc_profile_hdr	hdr;
	bool			has_algorithm;
	bool			has_config;
	struct mrc_nscc_params	nscc;
	struct rcu_head		rcu;
};

struct mrc_cc_profile *mrc_cc_profile_alloc(u32 id);
struct mrc_cc_profile *mrc_cc_profile_clone(const struct mrc_cc_profile *p);
void mrc_cc_profile_free(struct mrc_cc_profile *p);
void mrc_cc_profile_free_rcu(struct mrc_cc_profile *p);
int mrc_cc_profile_apply(struct mrc_cc_profile *p, struct nlattr **tb,
			 struct netlink_ext_ack *extack);

#endif /* __MRC_PROFILE_H */
