// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink for connections and their paths (EVs): CONN_GET (do/dump) with
 * the core's counters, PATH_GET dump per EV, PATH_SET (administrator EV
 * state), PATH_PROBE, and the connection/EV events. Every read takes a
 * snapshot under the connection's spinlock, then fills the message.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/genetlink.h>

#include "pernet.h"
#include "conn/conn.h"
#include "ctl/netlink.h"
#include "conn/trace.h"

/*
 * Counter names of a connection (CONN_GET) and an EV (PATH_GET): u64
 * fields of the core's snapshots, in the order they are sent (mib.h).
 */
struct mrc_nl_stat {
	const char	*name;
	size_t		off;
};

#define MRC_STAT(name, field) { name, offsetof(struct mrc_core_stats, field) }
#define MRC_EV_STAT(name, field) \
	{ name, offsetof(struct mrc_core_ev_info, field) }

static const struct mrc_nl_stat mrc_conn_stats[] = {
	MRC_STAT("TxPkts", tx_pkts),
	MRC_STAT("TxDataPkts", tx_data_pkts),
	MRC_STAT("TxDataBytes", tx_data_bytes),
	MRC_STAT("RetxPkts", retx_pkts),
	MRC_STAT("RetxBytes", retx_bytes),
	MRC_STAT("SpuriousRetx", spurious_retx),
	MRC_STAT("RxPkts", rx_pkts),
	MRC_STAT("RxDataPkts", rx_data_pkts),
	MRC_STAT("RxDataBytes", rx_data_bytes),
	MRC_STAT("DupPkts", dup_pkts),
	MRC_STAT("OooPkts", ooo_pkts),
	MRC_STAT("DeliveredBytes", delivered_bytes),
	MRC_STAT("AckedBytes", acked_bytes),
	MRC_STAT("SacksTx", sacks_tx),
	MRC_STAT("SacksRx", sacks_rx),
	MRC_STAT("NacksTx", nacks_tx),
	MRC_STAT("NacksRx", nacks_rx),
	MRC_STAT("CeRx", ce_rx),
	MRC_STAT("CeEchoed", ce_echoed),
	MRC_STAT("ProbesTx", probes_tx),
	MRC_STAT("ProbeRepliesRx", probe_replies_rx),
	MRC_STAT("RtoCount", rto_count),
	MRC_STAT("FastRetx", fast_retx),
	MRC_STAT("TailProbes", tail_probes),
	MRC_STAT("EarlyDataBytes", early_data_bytes),
	MRC_STAT("EarlyRefused", early_refused),
	MRC_STAT("EvStateChanges", ev_state_changes),
	MRC_STAT("LongestStallUs", longest_stall_us),
};

static const struct mrc_nl_stat mrc_ev_stats[] = {
	MRC_EV_STAT("TxPkts", tx_pkts),
	MRC_EV_STAT("TxBytes", tx_bytes),
	MRC_EV_STAT("RetxPkts", retx_pkts),
	MRC_EV_STAT("AckedPkts", acked_pkts),
	MRC_EV_STAT("Losses", losses),
	MRC_EV_STAT("CeMarks", ce_marks),
	MRC_EV_STAT("Nacks", nacks),
};

/* Each u64 counter of @table, read from the snapshot at @base. */
static int mrc_nl_put_stat_table(struct sk_buff *skb, const void *base,
				 const struct mrc_nl_stat *table, int n)
{
	u64 value;
	int i;

	for (i = 0; i < n; i++) {
		memcpy(&value, (const u8 *)base + table[i].off, sizeof(value));
		if (mrc_nl_put_stat(skb, table[i].name, value))
			return -EMSGSIZE;
	}
	return 0;
}

static int mrc_nl_put_conn_stats(struct sk_buff *skb,
				 const struct mrc_core_stats *st)
{
	struct nlattr *nest = nla_nest_start(skb, MRC_CONN_ATTR_STATS);
	int i;

	if (!nest)
		return -EMSGSIZE;
	if (mrc_nl_put_stat_table(skb, st, mrc_conn_stats,
				  ARRAY_SIZE(mrc_conn_stats)) ||
	    mrc_nl_put_stat(skb, "SrttUs", st->srtt_us) ||
	    mrc_nl_put_stat(skb, "RtoUs", st->rto_us) ||
	    mrc_nl_put_stat(skb, "Cwnd", st->cwnd) ||
	    mrc_nl_put_stat(skb, "InflightBytes", st->inflight_bytes) ||
	    mrc_nl_put_stat(skb, "PeerRwnd", st->peer_rwnd) ||
	    mrc_nl_put_stat(skb, "EvsGood", st->evs_good) ||
	    mrc_nl_put_stat(skb, "PlanesUsable", st->planes_usable))
		goto err;
	for (i = MRC_DROP_NONE + 1; i < MRC_DROP_MAX; i++)
		if (st->drops[i] &&
		    mrc_nl_put_stat(skb, mrc_mib_name(MRC_MIB_RXDROP_FIRST + i),
				    st->drops[i]))
			goto err;
	nla_nest_end(skb, nest);
	return 0;
err:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* What one CONN nest shows, copied under the connection's lock. */
struct mrc_conn_snap {
	struct mrc_conn		*conn;
	u8			state;
	bool			has_stats;
	struct mrc_core_stats	st;
};

/* Under conn->lock. */
static void __mrc_conn_snap(struct mrc_conn *conn, struct mrc_conn_snap *s)
{
	lockdep_assert_held(&conn->lock);

	s->conn = conn;
	s->state = conn->state;
	s->has_stats = conn->core;
	if (conn->core)
		mrc_core_get_stats(conn->core, &s->st);
}

static int mrc_nl_fill_conn(struct sk_buff *skb, const struct mrc_conn_snap *s)
{
	const struct mrc_conn *c = s->conn;
	struct nlattr *nest = nla_nest_start(skb, MRC_ATTR_CONN);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_CONN_ATTR_ID, c->id) ||
	    nla_put_u8(skb, MRC_CONN_ATTR_STATE, s->state) ||
	    nla_put_u16(skb, MRC_CONN_ATTR_LOCAL_PORT, c->local_port) ||
	    nla_put_u16(skb, MRC_CONN_ATTR_PEER_PORT, c->peer_port) ||
	    (!c->peer_is_v6 &&
	     nla_put_in_addr(skb, MRC_CONN_ATTR_PEER_ADDR4, c->peer_addr4)) ||
	    (c->peer_is_v6 &&
	     nla_put_in6_addr(skb, MRC_CONN_ATTR_PEER_ADDR6, &c->peer_addr6)) ||
	    nla_put_u32(skb, MRC_CONN_ATTR_EV_PROFILE, c->ev_profile) ||
	    nla_put_u32(skb, MRC_CONN_ATTR_CC_PROFILE, c->cc_profile) ||
	    (s->has_stats && mrc_nl_put_conn_stats(skb, &s->st))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int mrc_nl_conn_put_msg(struct sk_buff *skb, u32 portid, u32 seq,
			       int flags, u8 cmd, struct mrc_conn *conn)
{
	struct mrc_conn_snap *s;
	void *hdr;
	int err = -ENOMEM;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return err;
	mrc_conn_lock_bh(conn);
	__mrc_conn_snap(conn, s);
	mrc_conn_unlock_bh(conn);
	err = -EMSGSIZE;
	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags, cmd);
	if (hdr) {
		err = mrc_nl_fill_conn(skb, s);
		if (err)
			genlmsg_cancel(skb, hdr);
		else
			genlmsg_end(skb, hdr);
	}
	kfree(s);
	return err;
}

/* A referenced connection named by @id_attr, or NULL with extack set. */
static struct mrc_conn *mrc_nl_conn_lookup(struct mrc_net *mn,
					   struct nlattr *id_attr,
					   struct netlink_ext_ack *extack)
{
	struct mrc_conn *c = mrc_conn_lookup(mn, nla_get_u32(id_attr));

	if (!c)
		NL_SET_ERR_MSG_ATTR(extack, id_attr, "no such connection");
	return c;
}

int mrc_nl_conn_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_CONN_ATTR_MAX + 1];
	struct mrc_conn *conn;
	struct sk_buff *msg;
	int err;

	err = mrc_nl_parse_nest(info, MRC_ATTR_CONN, MRC_CONN_ATTR_MAX,
				mrc_conn_policy, tb);
	if (err)
		return err;
	if (MRC_NL_REQUIRE(info->extack, info->attrs[MRC_ATTR_CONN], tb,
			   MRC_CONN_ATTR_ID, "missing connection id"))
		return -EINVAL;
	conn = mrc_nl_conn_lookup(mn, tb[MRC_CONN_ATTR_ID], info->extack);
	if (!conn)
		return -ENOENT;
	err = -ENOMEM;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (msg)
		err = mrc_nl_conn_put_msg(msg, info->snd_portid, info->snd_seq,
					  0, info->genlhdr->cmd, conn);
	mrc_conn_put(conn);
	if (err) {
		NL_SET_ERR_MSG(info->extack, "cannot build the reply");
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: index (in mrc_net.conns) of the next connection to send. */
int mrc_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_net *mn = mrc_pernet(sock_net(skb->sk));
	unsigned long idx;
	struct mrc_conn *conn;
	int err = 0;

	xa_for_each_start(&mn->conns, idx, conn, cb->args[0]) {
		conn = mrc_conn_get_idx(mn, idx);
		if (!conn)
			continue;
		err = mrc_nl_conn_put_msg(skb, NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, NLM_F_MULTI,
					  MRC_CMD_CONN_GET, conn);
		mrc_conn_put(conn);
		if (err)
			break;
		cb->args[0] = idx + 1;
	}
	if (err == -ENOMEM) {
		NL_SET_ERR_MSG(cb->extack, "out of memory for the dump");
		return err;
	}
	return skb->len;
}

static int mrc_nl_fill_path(struct sk_buff *skb, u32 conn_id,
			    const struct mrc_core_ev_info *ev)
{
	struct nlattr *nest = nla_nest_start(skb, MRC_ATTR_PATH), *st;

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_PATH_ATTR_CONN_ID, conn_id) ||
	    nla_put_u32(skb, MRC_PATH_ATTR_EV, ev->value) ||
	    nla_put_u32(skb, MRC_PATH_ATTR_PLANE, ev->plane) ||
	    nla_put_u8(skb, MRC_PATH_ATTR_STATE, ev->state) ||
	    (ev->probing && nla_put_flag(skb, MRC_PATH_ATTR_PROBING)) ||
	    nla_put_u32(skb, MRC_PATH_ATTR_RTT_US, ev->srtt_us))
		goto err;
	st = nla_nest_start(skb, MRC_PATH_ATTR_STATS);
	if (!st || mrc_nl_put_stat_table(skb, ev, mrc_ev_stats,
					 ARRAY_SIZE(mrc_ev_stats)))
		goto err;
	nla_nest_end(skb, st);
	nla_nest_end(skb, nest);
	return 0;
err:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* Copy EV @idx of @conn; false when there is none (or no core). */
static bool mrc_nl_ev_get(struct mrc_conn *conn, u32 idx,
			  struct mrc_core_ev_info *ev)
{
	bool ok = false;

	mrc_conn_lock_bh(conn);
	if (conn->core)
		ok = !mrc_core_ev_get(conn->core, idx, ev);
	mrc_conn_unlock_bh(conn);
	return ok;
}

/* Parse a PATH nest; return the referenced connection it names. */
static struct mrc_conn *mrc_nl_path_conn(struct mrc_net *mn,
					 struct nlattr *nest, struct nlattr **tb,
					 bool need_ev,
					 struct netlink_ext_ack *extack)
{
	if (!nest) {
		NL_SET_ERR_MSG(extack, "missing path attribute");
		return ERR_PTR(-EINVAL);
	}
	if (nla_parse_nested(tb, MRC_PATH_ATTR_MAX, nest, mrc_path_policy,
			     extack))
		return ERR_PTR(-EINVAL);
	if (MRC_NL_REQUIRE(extack, nest, tb, MRC_PATH_ATTR_CONN_ID,
			   "missing connection id") ||
	    (need_ev && MRC_NL_REQUIRE(extack, nest, tb, MRC_PATH_ATTR_EV,
				       "missing EV")))
		return ERR_PTR(-EINVAL);
	return mrc_nl_conn_lookup(mn, tb[MRC_PATH_ATTR_CONN_ID], extack) ?:
	       ERR_PTR(-ENOENT);
}

/* cb->args[0]: next EV index; cb->args[1]: connection id. */
int mrc_nl_path_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct mrc_net *mn = mrc_pernet(sock_net(skb->sk));
	struct nlattr *tb[MRC_PATH_ATTR_MAX + 1];
	struct mrc_core_ev_info ev;
	struct mrc_conn *conn;
	u32 idx;
	void *hdr;

	conn = mrc_nl_path_conn(mn, info->attrs[MRC_ATTR_PATH], tb, false,
				cb->extack);
	if (IS_ERR(conn))
		return PTR_ERR(conn);
	for (idx = cb->args[0]; mrc_nl_ev_get(conn, idx, &ev); idx++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &mrc_genl_family,
				  NLM_F_MULTI, MRC_CMD_PATH_GET);
		if (!hdr)
			break;
		if (mrc_nl_fill_path(skb, conn->id, &ev)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = idx;
	mrc_conn_put(conn);
	return skb->len;
}

/* Index of the EV with value @value, or -ENOENT. */
static int mrc_nl_ev_index(struct mrc_conn *conn, u32 value)
{
	struct mrc_core_ev_info ev;
	u32 idx;

	for (idx = 0; mrc_nl_ev_get(conn, idx, &ev); idx++)
		if (ev.value == value)
			return idx;
	return -ENOENT;
}

/* PATH_SET and PATH_PROBE: one EV of one connection. */
static int mrc_nl_path_do(struct genl_info *info, bool probe)
{
	struct mrc_net *mn = mrc_pernet(genl_info_net(info));
	struct nlattr *tb[MRC_PATH_ATTR_MAX + 1];
	struct mrc_conn *conn;
	int idx, err = -ENOENT;

	conn = mrc_nl_path_conn(mn, info->attrs[MRC_ATTR_PATH], tb, true,
				info->extack);
	if (IS_ERR(conn))
		return PTR_ERR(conn);
	if (!probe && MRC_NL_REQUIRE(info->extack, info->attrs[MRC_ATTR_PATH],
				     tb, MRC_PATH_ATTR_STATE, "missing state")) {
		err = -EINVAL;
		goto out;
	}
	idx = mrc_nl_ev_index(conn, nla_get_u32(tb[MRC_PATH_ATTR_EV]));
	if (idx < 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PATH_ATTR_EV],
				    "the connection has no such EV");
		goto out;
	}
	mrc_conn_lock_bh(conn);
	if (!conn->core)
		err = -ENOENT;
	else if (probe)
		err = mrc_core_ev_probe(conn->core, idx);
	else
		err = mrc_core_ev_set_state(conn->core, idx,
					    nla_get_u8(tb[MRC_PATH_ATTR_STATE]));
	mrc_conn_unlock_bh(conn);
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PATH_ATTR_EV],
				    "the connection has no such EV any more");
	else if (err && probe)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PATH_ATTR_EV],
				    "cannot probe this EV now");
	else if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_PATH_ATTR_STATE],
				    "state not allowed for a connection EV");
out:
	mrc_conn_put(conn);
	return err;
}

int mrc_nl_path_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_path_do(info, false);
}

int mrc_nl_path_probe_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_path_do(info, true);
}

/* Events, from the core's notes: under conn->lock, any context. */
void mrc_nl_event_conn(struct mrc_conn *conn, u8 event, u8 reason)
{
	struct net *net = conn->mn->net;
	struct mrc_conn_snap *s;
	struct sk_buff *msg;
	void *hdr;

	lockdep_assert_held(&conn->lock);

	if (!genl_has_listeners(&mrc_genl_family, net, 0))
		return;
	s = kmalloc(sizeof(*s), GFP_ATOMIC);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_ATOMIC);
	if (!s || !msg)
		goto err;
	__mrc_conn_snap(conn, s);
	hdr = genlmsg_put(msg, 0, 0, &mrc_genl_family, 0, event);
	if (!hdr || mrc_nl_fill_conn(msg, s) ||
	    (reason && nla_put_u8(msg, MRC_ATTR_EVENT_REASON, reason)))
		goto err;
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&mrc_genl_family, net, msg, 0, 0, GFP_ATOMIC);
	kfree(s);
	return;
err:
	nlmsg_free(msg);
	kfree(s);
}

void mrc_nl_event_conn_ev(struct mrc_conn *conn, u32 idx)
{
	struct net *net = conn->mn->net;
	struct mrc_core_ev_info ev;
	struct sk_buff *msg;
	void *hdr;

	lockdep_assert_held(&conn->lock);

	if (!conn->core || mrc_core_ev_get(conn->core, idx, &ev))
		return;
	trace_mrc_ev_state(net->ns.inum, conn->id, idx, ev.value, ev.plane,
			   ev.state);
	if (!genl_has_listeners(&mrc_genl_family, net, 0))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_ATOMIC);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &mrc_genl_family, 0, MRC_EVENT_EV_STATE);
	if (!hdr || mrc_nl_fill_path(msg, conn->id, &ev)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&mrc_genl_family, net, msg, 0, 0, GFP_ATOMIC);
}
