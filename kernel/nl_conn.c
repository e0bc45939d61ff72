// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink handlers for connections and their paths (CONN_GET, PATH_GET/
 * SET/PROBE). They read mrc_net.conns, which the data path fills; until a
 * connection exists every lookup answers "no such connection".
 */
#include <net/genetlink.h>

#include "protocol.h"
#include "conn.h"
#include "netlink.h"

static int mrc_nl_fill_conn(struct sk_buff *skb, const struct mrc_conn *c)
{
	struct nlattr *nest = nla_nest_start(skb, MRC_ATTR_CONN);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_CONN_ATTR_ID, c->id) ||
	    nla_put_u8(skb, MRC_CONN_ATTR_STATE, c->state) ||
	    nla_put_u16(skb, MRC_CONN_ATTR_LOCAL_PORT, c->local_port) ||
	    nla_put_u16(skb, MRC_CONN_ATTR_PEER_PORT, c->peer_port) ||
	    (!c->peer_is_v6 &&
	     nla_put_in_addr(skb, MRC_CONN_ATTR_PEER_ADDR4, c->peer_addr4)) ||
	    (c->peer_is_v6 &&
	     nla_put_in6_addr(skb, MRC_CONN_ATTR_PEER_ADDR6, &c->peer_addr6)) ||
	    nla_put_u32(skb, MRC_CONN_ATTR_EV_PROFILE, c->ev_profile) ||
	    nla_put_u32(skb, MRC_CONN_ATTR_CC_PROFILE, c->cc_profile)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* called with mn->lock held; @id_attr names the attribute in errors */
static struct mrc_conn *mrc_nl_conn_lookup(struct mrc_net *mn,
					   struct nlattr *id_attr,
					   struct netlink_ext_ack *extack)
{
	struct mrc_conn *c = xa_load(&mn->conns, nla_get_u32(id_attr));

	if (!c)
		NL_SET_ERR_MSG_ATTR(extack, id_attr, "no such connection");
	return c;
}

int mrc_nl_conn_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_CONN_ATTR_MAX + 1];
	struct sk_buff *msg;
	struct mrc_conn *c;
	void *hdr;
	int err;

	err = mrc_nl_parse_nest(info, MRC_ATTR_CONN, MRC_CONN_ATTR_MAX,
				mrc_conn_policy, tb);
	if (err)
		return err;
	if (MRC_NL_REQUIRE(info->extack, info->attrs[MRC_ATTR_CONN], tb,
			   MRC_CONN_ATTR_ID, "missing connection id"))
		return -EINVAL;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&mn->lock);
	c = mrc_nl_conn_lookup(mn, tb[MRC_CONN_ATTR_ID], info->extack);
	if (!c) {
		err = -ENOENT;
	} else {
		hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0,
					info->genlhdr->cmd);
		err = hdr ? mrc_nl_fill_conn(msg, c) : -EMSGSIZE;
		if (!err)
			genlmsg_end(msg, hdr);
	}
	mutex_unlock(&mn->lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: next connection id to send. */
int mrc_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_net *mn = mrc_pernet(sock_net(skb->sk));
	unsigned long id, next = cb->args[0];
	struct mrc_conn *c;
	void *hdr;

	mutex_lock(&mn->lock);
	xa_for_each_start(&mn->conns, id, c, cb->args[0]) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &mrc_genl_family,
				  NLM_F_MULTI, MRC_CMD_CONN_GET);
		if (!hdr)
			break;
		if (mrc_nl_fill_conn(skb, c)) {
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

/*
 * Paths need a connection. The per-connection path table arrives with the
 * data path; until then an existing connection has none to show or change.
 */
static int mrc_nl_path_check(struct mrc_net *mn, struct nlattr *nest,
			     struct nlattr **tb, bool need_ev,
			     struct netlink_ext_ack *extack)
{
	int err;

	err = nla_parse_nested(tb, MRC_PATH_ATTR_MAX, nest, mrc_path_policy,
			       extack);
	if (err)
		return err;
	if (MRC_NL_REQUIRE(extack, nest, tb, MRC_PATH_ATTR_CONN_ID,
			   "missing connection id") ||
	    (need_ev && MRC_NL_REQUIRE(extack, nest, tb, MRC_PATH_ATTR_EV,
				       "missing EV")))
		return -EINVAL;
	mutex_lock(&mn->lock);
	err = mrc_nl_conn_lookup(mn, tb[MRC_PATH_ATTR_CONN_ID], extack) ?
	      0 : -ENOENT;
	mutex_unlock(&mn->lock);
	if (!err) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_PATH_ATTR_CONN_ID],
				    "connection has no path table");
		err = -EOPNOTSUPP;
	}
	return err;
}

int mrc_nl_path_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct nlattr *tb[MRC_PATH_ATTR_MAX + 1];
	struct nlattr *nest = info->attrs[MRC_ATTR_PATH];

	if (!nest) {
		NL_SET_ERR_MSG(cb->extack, "a path dump needs a connection id");
		return -EINVAL;
	}
	return mrc_nl_path_check(mrc_pernet(sock_net(skb->sk)), nest, tb, false,
				 cb->extack);
}

int mrc_nl_path_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[MRC_PATH_ATTR_MAX + 1];

	if (GENL_REQ_ATTR_CHECK(info, MRC_ATTR_PATH)) {
		NL_SET_ERR_MSG(info->extack, "missing path attribute");
		return -EINVAL;
	}
	return mrc_nl_path_check(mrc_pernet(genl_info_net(info)),
				 info->attrs[MRC_ATTR_PATH], tb, true,
				 info->extack);
}

int mrc_nl_path_probe_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_path_set_doit(skb, info);
}
