/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink family "mrc": shared between the handler files
 * (netlink.c, nl_plane.c, nl_profile.c, nl_conn.c, nl_peer.c) and the
 * objects that raise events (plane.c).
 */
#ifndef __MRC_NETLINK_H
#define __MRC_NETLINK_H

#include <net/genetlink.h>
#include <linux/mrc_netlink.h>

struct mrc_net;
struct mrc_plane;
struct mrc_ev_profile;
struct mrc_cc_profile;
struct mrc_ev;
struct mrc_conn;

extern struct genl_family mrc_genl_family;

/* Policies of the object nests (netlink.c). */
extern const struct nla_policy mrc_offload_policy[MRC_OFFLOAD_ATTR_MAX + 1];
extern const struct nla_policy mrc_plane_policy[MRC_PLANE_ATTR_MAX + 1];
extern const struct nla_policy mrc_ev_profile_policy[MRC_EV_PROFILE_ATTR_MAX + 1];
extern const struct nla_policy mrc_cc_profile_policy[MRC_CC_PROFILE_ATTR_MAX + 1];
extern const struct nla_policy mrc_conn_policy[MRC_CONN_ATTR_MAX + 1];
extern const struct nla_policy mrc_path_policy[MRC_PATH_ATTR_MAX + 1];

/* Fill one object nest; -EMSGSIZE when @skb is full. */
int mrc_nl_fill_plane(struct sk_buff *skb, const struct mrc_plane *pl,
		      bool with_stats);
/* A plane in an offload event, mrc_offload_lock held (offload/registry.c). */
int mrc_nl_fill_plane_note(struct sk_buff *skb, const struct mrc_plane *pl,
			   const char *hook, int err);
int mrc_nl_fill_ev_profile(struct sk_buff *skb, const struct mrc_ev_profile *p,
			   bool with_evs);
int mrc_nl_fill_cc_profile(struct sk_buff *skb, const struct mrc_cc_profile *p);
int mrc_nl_put_stat(struct sk_buff *skb, const char *name, u64 value);

/*
 * NL_REQ_ATTR_CHECK() of 6.1 only marks the missing attribute; also say
 * in words what is missing. @msg must be a string literal.
 */
#define MRC_NL_REQUIRE(extack, nest, tb, type, msg) ({			\
	struct netlink_ext_ack *__mrc_ext = (extack);			\
	bool __missing = NL_REQ_ATTR_CHECK(__mrc_ext, nest, tb, type);	\
	if (__missing)							\
		NL_SET_ERR_MSG(__mrc_ext, msg);				\
	__missing;							\
})

/*
 * Every refused request says why: @msg (a string literal) unless the code
 * that failed, or a policy, said something more precise already.
 */
#define MRC_NL_SET_ERR_MSG_DEFAULT(extack, msg) do {			\
	struct netlink_ext_ack *__mrc_dext = (extack);			\
	if (__mrc_dext && !__mrc_dext->_msg)				\
		NL_SET_ERR_MSG(__mrc_dext, msg);			\
} while (0)

/* Parse the object nest @type of a request; it must be present. */
int mrc_nl_parse_nest(struct genl_info *info, int type, int maxtype,
		      const struct nla_policy *policy, struct nlattr **tb);

/* One event whose object nest @fill adds; process context. */
void mrc_nl_event_obj(struct mrc_net *mn, u8 event, u8 reason,
		      int (*fill)(struct sk_buff *skb, const void *obj),
		      const void *obj);
/* Events to the "events" group of @mn's netns; called with mn->lock held. */
void mrc_nl_event_plane(struct mrc_net *mn, u8 event,
			const struct mrc_plane *pl, u8 reason);
void mrc_nl_event_ev_profile(struct mrc_net *mn, const struct mrc_ev_profile *p);
void mrc_nl_event_cc_profile(struct mrc_net *mn, const struct mrc_cc_profile *p);
void mrc_nl_event_ev_state(struct mrc_net *mn, u32 profile_id,
			   const struct mrc_ev *ev);

/* Connection events (nl_conn.c); under the connection's lock, any context. */
void mrc_nl_event_conn(struct mrc_conn *conn, u8 event, u8 reason);
void mrc_nl_event_conn_ev(struct mrc_conn *conn, u32 idx);

/* Handlers, one file an object. */
int mrc_nl_plane_add_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_plane_del_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_plane_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_plane_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_plane_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_stats_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

int mrc_nl_ev_profile_new_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_ev_profile_del_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_new_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_cc_profile_del_doit(struct sk_buff *skb, struct genl_info *info);

int mrc_nl_conn_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_path_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_path_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_path_probe_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_peer_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* __MRC_NETLINK_H */
