// SPDX-License-Identifier: GPL-2.0
// Extended ACKs: the errno and message of NLMSG_ERROR and NLMSG_DONE, with
// the echoed request (uncapped) or without it (NLM_F_CAPPED).
#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <array>
#include <cerrno>

#include "mrc/error.hpp"
#include "mrc/netlink.hpp"
#include "mrc/netlink_socket.hpp"

namespace {

constexpr std::size_t kEchoedPayload = 24;  // genl header + two attributes

// An NLMSG_ERROR as the kernel sends it: the echoed request follows
// struct nlmsgerr unless `capped`, then the TLVs.
mrc::MsgPtr ErrorMessage(int error, bool capped, bool tlvs) {
  const int flags = (capped ? NLM_F_CAPPED : 0) | (tlvs ? NLM_F_ACK_TLVS : 0);
  mrc::MsgPtr msg(nlmsg_alloc_simple(NLMSG_ERROR, flags));
  nlmsgerr err{};
  err.error = -error;
  err.msg.nlmsg_len = NLMSG_HDRLEN + kEchoedPayload;
  err.msg.nlmsg_type = 0x1d;
  EXPECT_EQ(nlmsg_append(msg.get(), &err, sizeof(err), NLMSG_ALIGNTO), 0);
  if (!capped) {
    std::array<std::uint8_t, kEchoedPayload> echoed{};
    echoed.fill(0xee);  // garbage that must not be read as attributes
    EXPECT_EQ(nlmsg_append(msg.get(), echoed.data(), echoed.size(), NLMSG_ALIGNTO), 0);
  }
  return msg;
}

int Parse(const mrc::MsgPtr& msg, std::string& extack) {
  return mrc::ParseAckError(nlmsg_hdr(msg.get()), extack);
}

TEST(Ack, CappedErrorWithMessage) {
  const mrc::MsgPtr msg = ErrorMessage(EEXIST, true, true);
  nla_put_string(msg.get(), NLMSGERR_ATTR_MSG, "device is already a plane");
  nla_put_u32(msg.get(), NLMSGERR_ATTR_OFFS, 28);
  std::string extack;
  EXPECT_EQ(Parse(msg, extack), EEXIST);
  EXPECT_EQ(extack, "device is already a plane");
}

TEST(Ack, UncappedErrorSkipsTheEchoedRequest) {
  const mrc::MsgPtr msg = ErrorMessage(EINVAL, false, true);
  nla_put_string(msg.get(), NLMSGERR_ATTR_MSG, "Attribute failed policy validation");
  std::string extack;
  EXPECT_EQ(Parse(msg, extack), EINVAL);
  EXPECT_EQ(extack, "Attribute failed policy validation");
}

TEST(Ack, NoTlvFlagMeansNoMessage) {
  const mrc::MsgPtr msg = ErrorMessage(EPERM, true, false);
  std::string extack = "stale";
  EXPECT_EQ(Parse(msg, extack), EPERM);
  EXPECT_TRUE(extack.empty());
}

TEST(Ack, MissingAttributeWithoutMessage) {
  const mrc::MsgPtr msg = ErrorMessage(EINVAL, true, true);
  nla_put_u32(msg.get(), NLMSGERR_ATTR_MISS_TYPE, 2);
  std::string extack;
  EXPECT_EQ(Parse(msg, extack), EINVAL);
  EXPECT_EQ(extack, "required attribute 2 is missing");
}

TEST(Ack, PlainAck) {
  const mrc::MsgPtr msg = ErrorMessage(0, true, false);
  std::string extack;
  EXPECT_EQ(Parse(msg, extack), 0);
}

TEST(Ack, DoneOfAFailedDump) {
  mrc::MsgPtr msg(nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI | NLM_F_ACK_TLVS));
  int error = -ENOBUFS;
  ASSERT_EQ(nlmsg_append(msg.get(), &error, sizeof(error), NLMSG_ALIGNTO), 0);
  nla_put_string(msg.get(), NLMSGERR_ATTR_MSG, "dump interrupted");
  std::string extack;
  EXPECT_EQ(Parse(msg, extack), ENOBUFS);
  EXPECT_EQ(extack, "dump interrupted");
}

TEST(Ack, DoneOfACompleteDump) {
  mrc::MsgPtr msg(nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI));
  int done = 0;
  ASSERT_EQ(nlmsg_append(msg.get(), &done, sizeof(done), NLMSG_ALIGNTO), 0);
  std::string extack;
  EXPECT_EQ(Parse(msg, extack), 0);
}

TEST(Ack, KernelErrorText) {
  const mrc::KernelError with(EBUSY, "plane is in use");
  EXPECT_STREQ(with.what(), "plane is in use (Device or resource busy)");
  EXPECT_EQ(with.error(), EBUSY);
  EXPECT_EQ(with.extack(), "plane is in use");
  EXPECT_STREQ(mrc::KernelError(ENOENT, "").what(), "No such file or directory");
}

}  // namespace
