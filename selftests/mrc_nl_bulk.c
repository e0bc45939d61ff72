// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "mrc" at scale and at its edges, without mrcctl:
 * 10,000 EV profiles created and dumped whole (resumable dumps), strict
 * policies rejecting unknown and reply-only attributes with an extack
 * message, and namespace isolation. Each test runs in a fresh netns.
 */
#include <errno.h>
#include <sched.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <linux/mrc_netlink.h>

#include "kselftest_harness.h"

struct mrc_nl {
	struct nl_sock *sk;
	int family;
	int error;		/* errno of the last NLMSG_ERROR, negative */
	int done;		/* the last request got its ACK or error */
	char extack[256];
};

static int mrc_nl_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)err - 1;
	struct mrc_nl *nl = arg;
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	int ack_len = sizeof(*nlh) + sizeof(*err);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		ack_len += err->msg.nlmsg_len - sizeof(*nlh);
	nl->error = err->error;
	nl->done = 1;
	nl->extack[0] = '\0';
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    !nla_parse(tb, NLMSGERR_ATTR_MAX,
		       (struct nlattr *)((char *)nlh + ack_len),
		       nlh->nlmsg_len - ack_len, NULL) && tb[NLMSGERR_ATTR_MSG])
		snprintf(nl->extack, sizeof(nl->extack), "%s",
			 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	return NL_STOP;
}

static int mrc_nl_ack_cb(struct nl_msg *msg, void *arg)
{
	((struct mrc_nl *)arg)->done = 1;
	return NL_STOP;
}

static int mrc_nl_open(struct mrc_nl *nl)
{
	int one = 1;

	nl->sk = nl_socket_alloc();
	if (!nl->sk || genl_connect(nl->sk))
		return -1;
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	nl_socket_modify_err_cb(nl->sk, NL_CB_CUSTOM, mrc_nl_err_cb, nl);
	nl_socket_modify_cb(nl->sk, NL_CB_ACK, NL_CB_CUSTOM, mrc_nl_ack_cb, nl);
	nl_socket_set_buffer_size(nl->sk, 1 << 20, 1 << 20);
	nl->family = genl_ctrl_resolve(nl->sk, MRC_GENL_NAME);
	return nl->family < 0 ? -1 : 0;
}

static struct nl_msg *mrc_nl_msg(struct mrc_nl *nl, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags, cmd,
		    MRC_GENL_VERSION);
	return msg;
}

/*
 * Send and read until the ACK or the error: a reply message comes first
 * and ends one nl_recvmsgs() round on its own. Returns 0 or -errno.
 */
static int mrc_nl_do(struct mrc_nl *nl, struct nl_msg *msg)
{
	int err;

	nl->error = 0;
	nl->done = 0;
	nl->extack[0] = '\0';
	nl_socket_modify_cb(nl->sk, NL_CB_VALID, NL_CB_DEFAULT, NULL, NULL);
	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return -EIO;
	do {
		err = nl_recvmsgs_default(nl->sk);
	} while (!nl->done && err >= 0);
	if (nl->error)
		return nl->error;
	return err < 0 ? -EIO : 0;
}

static int mrc_nl_count_cb(struct nl_msg *msg, void *arg)
{
	(*(int *)arg)++;
	return NL_OK;
}

/* Number of messages a dump of @cmd returns, or a negative errno. */
static int mrc_nl_dump_count(struct mrc_nl *nl, int cmd)
{
	struct nl_msg *msg = mrc_nl_msg(nl, cmd, NLM_F_DUMP);
	int count = 0, err;

	nl_socket_modify_cb(nl->sk, NL_CB_VALID, NL_CB_CUSTOM, mrc_nl_count_cb,
			    &count);
	nl->error = 0;
	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return -EIO;
	err = nl_recvmsgs_default(nl->sk);
	if (nl->error)
		return nl->error;
	return err ? -EIO : count;
}

static int mrc_nl_new_ev_profile(struct mrc_nl *nl, int id)
{
	struct nl_msg *msg = mrc_nl_msg(nl, MRC_CMD_EV_PROFILE_NEW, NLM_F_ACK);
	struct nlattr *nest = nla_nest_start(msg, MRC_ATTR_EV_PROFILE);

	if (id)
		nla_put_u32(msg, MRC_EV_PROFILE_ATTR_ID, id);
	nla_put_u8(msg, MRC_EV_PROFILE_ATTR_MODE, MRC_EV_MODE_GENERATED);
	nla_put_u32(msg, MRC_EV_PROFILE_ATTR_EV_COUNT, 8);
	nla_nest_end(msg, nest);
	return mrc_nl_do(nl, msg);
}

FIXTURE(mrc_nl)
{
	struct mrc_nl nl;
};

FIXTURE_SETUP(mrc_nl)
{
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	ASSERT_EQ(0, mrc_nl_open(&self->nl)) TH_LOG("family mrc not found");
}

FIXTURE_TEARDOWN(mrc_nl)
{
	nl_socket_free(self->nl.sk);
}

/*
 * 10,000 requests and a dump ran past the harness's default 30 s on the
 * debug kernel (KASAN, lockdep, kmemleak under TCG): a generous bound,
 * not a speed goal.
 */
TEST_F_TIMEOUT(mrc_nl, dump_of_10000_profiles_is_complete, 300)
{
	int i, err = 0;

	for (i = 0; i < 10000 && !err; i++)
		err = mrc_nl_new_ev_profile(&self->nl, 0);
	ASSERT_EQ(0, err) TH_LOG("profile #%d: %s", i, self->nl.extack);
	EXPECT_EQ(10000, mrc_nl_dump_count(&self->nl, MRC_CMD_EV_PROFILE_GET));
	/* Ids were allocated 1..10000: the next explicit one is taken. */
	EXPECT_EQ(-EEXIST, mrc_nl_new_ev_profile(&self->nl, 10000));
	EXPECT_STREQ("profile id is already in use", self->nl.extack);
}

TEST_F(mrc_nl, profile_table_has_a_limit)
{
	EXPECT_EQ(0, mrc_nl_new_ev_profile(&self->nl, MRC_MAX_EV_PROFILES));
	EXPECT_EQ(-ERANGE, mrc_nl_new_ev_profile(&self->nl, MRC_MAX_EV_PROFILES + 1));
	EXPECT_NE(0, self->nl.extack[0]);
}

TEST_F(mrc_nl, unknown_attribute_rejected_with_extack)
{
	struct nl_msg *msg = mrc_nl_msg(&self->nl, MRC_CMD_PLANE_ADD, NLM_F_ACK);
	struct nlattr *nest = nla_nest_start(msg, MRC_ATTR_PLANE);

	nla_put_u32(msg, MRC_PLANE_ATTR_IFINDEX, 1);
	nla_put_u32(msg, MRC_PLANE_ATTR_MAX + 1, 7);
	nla_nest_end(msg, nest);
	EXPECT_EQ(-EINVAL, mrc_nl_do(&self->nl, msg));
	EXPECT_NE(0, self->nl.extack[0]);
}

TEST_F(mrc_nl, reply_only_attribute_rejected)
{
	struct nl_msg *msg = mrc_nl_msg(&self->nl, MRC_CMD_PLANE_ADD, NLM_F_ACK);
	struct nlattr *nest = nla_nest_start(msg, MRC_ATTR_PLANE);

	nla_put_u32(msg, MRC_PLANE_ATTR_IFINDEX, 1);
	nla_put_u8(msg, MRC_PLANE_ATTR_LINK, MRC_LINK_UP);
	nla_nest_end(msg, nest);
	EXPECT_EQ(-EINVAL, mrc_nl_do(&self->nl, msg));
	EXPECT_NE(0, self->nl.extack[0]);
}

TEST_F(mrc_nl, wrong_nest_for_command_rejected)
{
	struct nl_msg *msg = mrc_nl_msg(&self->nl, MRC_CMD_PLANE_ADD, NLM_F_ACK);
	struct nlattr *nest = nla_nest_start(msg, MRC_ATTR_EV_PROFILE);

	nla_put_u32(msg, MRC_EV_PROFILE_ATTR_ID, 1);
	nla_nest_end(msg, nest);
	EXPECT_EQ(-EINVAL, mrc_nl_do(&self->nl, msg));
}

TEST_F(mrc_nl, missing_ifindex_named)
{
	struct nl_msg *msg = mrc_nl_msg(&self->nl, MRC_CMD_PLANE_ADD, NLM_F_ACK);
	struct nlattr *nest = nla_nest_start(msg, MRC_ATTR_PLANE);

	nla_put_u16(msg, MRC_PLANE_ATTR_PORT, 5000);
	nla_nest_end(msg, nest);
	EXPECT_EQ(-EINVAL, mrc_nl_do(&self->nl, msg));
	EXPECT_STREQ("missing device (ifindex)", self->nl.extack);
}

TEST_F(mrc_nl, loopback_cannot_be_a_plane)
{
	struct nl_msg *msg = mrc_nl_msg(&self->nl, MRC_CMD_PLANE_ADD, NLM_F_ACK);
	struct nlattr *nest = nla_nest_start(msg, MRC_ATTR_PLANE);

	nla_put_u32(msg, MRC_PLANE_ATTR_IFINDEX, 1);	/* lo in a new netns */
	nla_nest_end(msg, nest);
	EXPECT_EQ(-EINVAL, mrc_nl_do(&self->nl, msg));
	EXPECT_STREQ("the loopback device cannot be a plane", self->nl.extack);
}

TEST_F(mrc_nl, profiles_do_not_leak_across_namespaces)
{
	struct mrc_nl other;

	ASSERT_EQ(0, mrc_nl_new_ev_profile(&self->nl, 0));
	ASSERT_EQ(1, mrc_nl_dump_count(&self->nl, MRC_CMD_EV_PROFILE_GET));
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	ASSERT_EQ(0, mrc_nl_open(&other));
	EXPECT_EQ(0, mrc_nl_dump_count(&other, MRC_CMD_EV_PROFILE_GET));
	/* The first socket still speaks for the namespace it was opened in. */
	EXPECT_EQ(1, mrc_nl_dump_count(&self->nl, MRC_CMD_EV_PROFILE_GET));
	nl_socket_free(other.sk);
}

TEST_F(mrc_nl, unknown_cc_algorithm_rejected_by_kernel)
{
	struct nl_msg *msg = mrc_nl_msg(&self->nl, MRC_CMD_CC_PROFILE_NEW, NLM_F_ACK);
	struct nlattr *nest = nla_nest_start(msg, MRC_ATTR_CC_PROFILE);

	nla_put_string(msg, MRC_CC_PROFILE_ATTR_ALGORITHM, "cubic");
	nla_nest_end(msg, nest);
	EXPECT_EQ(-EINVAL, mrc_nl_do(&self->nl, msg));
	EXPECT_STREQ("unknown congestion control algorithm (known: uet-1.0-nscc)",
		     self->nl.extack);
	EXPECT_EQ(0, mrc_nl_dump_count(&self->nl, MRC_CMD_CC_PROFILE_GET));
}

TEST_F(mrc_nl, skip_is_not_an_administrative_ev_state)
{
	struct nl_msg *msg;
	struct nlattr *nest, *ev;

	msg = mrc_nl_msg(&self->nl, MRC_CMD_EV_PROFILE_NEW, NLM_F_ACK);
	nest = nla_nest_start(msg, MRC_ATTR_EV_PROFILE);
	nla_put_u32(msg, MRC_EV_PROFILE_ATTR_ID, 1);
	nla_put_u8(msg, MRC_EV_PROFILE_ATTR_MODE, MRC_EV_MODE_EXPLICIT);
	nla_put_u32(msg, MRC_EV_PROFILE_ATTR_EV_COUNT, 1);
	nla_put_u8(msg, MRC_EV_PROFILE_ATTR_STATE, MRC_PROFILE_OFFLINE);
	nla_nest_end(msg, nest);
	ASSERT_EQ(0, mrc_nl_do(&self->nl, msg));

	msg = mrc_nl_msg(&self->nl, MRC_CMD_EV_PROFILE_SET, NLM_F_ACK);
	nest = nla_nest_start(msg, MRC_ATTR_EV_PROFILE);
	nla_put_u32(msg, MRC_EV_PROFILE_ATTR_ID, 1);
	ev = nla_nest_start(msg, MRC_EV_PROFILE_ATTR_EV);
	nla_put_u32(msg, MRC_EV_ATTR_VALUE, 0);
	nla_put_u8(msg, MRC_EV_ATTR_STATE, MRC_EV_SKIP);
	nla_nest_end(msg, ev);
	nla_nest_end(msg, nest);
	/* The only slot is unpopulated: no such EV, whatever the state. */
	EXPECT_EQ(-EINVAL, mrc_nl_do(&self->nl, msg));
	EXPECT_STREQ("EV state must be good, assumed-bad or denied", self->nl.extack);
}

TEST_HARNESS_MAIN
