// SPDX-License-Identifier: GPL-2.0
// NetlinkSocket against real netlink, without mrc.ko: the kernel's own
// "nlctrl" family (dumps, replies with ACK, extended ACK errors), and a
// user-space stand-in for mrc.ko that answers with 10,000-entry dumps.
#include "mrc/netlink_socket.hpp"

#include <gtest/gtest.h>
#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "kernel_messages.hpp"
#include "mrc/client.hpp"
#include "mrc/messages.hpp"
#include "mrc/parse.hpp"

namespace {

// CTRL_CMD_GETFAMILY for `name`, or a dump of every family.
mrc::MsgPtr GetFamily(const char* name) {
  mrc::MsgPtr msg =
      mrc::NewRequest(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, name != nullptr ? 0 : NLM_F_DUMP);
  if (name != nullptr) {
    nla_put_string(msg.get(), CTRL_ATTR_FAMILY_NAME, name);
  }
  return msg;
}

std::string FamilyName(nl_msg* msg) {
  std::array<nlattr*, CTRL_ATTR_MAX + 1> tb{};
  EXPECT_EQ(genlmsg_parse(nlmsg_hdr(msg), 0, tb.data(), CTRL_ATTR_MAX, nullptr), 0);
  return tb[CTRL_ATTR_FAMILY_NAME] != nullptr ? nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]) : "";
}

TEST(KernelNetlink, MissingMrcFamilyIsExplained) {
  try {
    const mrc::Client client;
    GTEST_SKIP() << "mrc.ko is loaded on this host";
  } catch (const mrc::KernelError& e) {
    FAIL() << e.what();
  } catch (const mrc::Error& e) {
    EXPECT_STREQ(e.what(), "mrc.ko is not loaded: generic netlink family \"mrc\" not found");
  }
}

TEST(KernelNetlink, DumpReadsEveryPartUntilDone) {
  mrc::NetlinkSocket sock;
  std::vector<std::string> names;
  sock.Transact(GetFamily(nullptr).get(),
                [&](nl_msg* reply) { names.push_back(FamilyName(reply)); });
  EXPECT_NE(std::find(names.begin(), names.end(), "nlctrl"), names.end());
  // The socket is ready for the next request: nothing was left unread.
  std::vector<std::string> again;
  sock.Transact(GetFamily(nullptr).get(),
                [&](nl_msg* reply) { again.push_back(FamilyName(reply)); });
  EXPECT_EQ(again, names);
}

TEST(KernelNetlink, DoReadsTheReplyAndTheAck) {
  mrc::NetlinkSocket sock;
  for (int i = 0; i < 3; i++) {
    std::vector<std::string> names;
    sock.Transact(GetFamily("nlctrl").get(),
                  [&](nl_msg* reply) { names.push_back(FamilyName(reply)); });
    EXPECT_EQ(names, std::vector<std::string>{"nlctrl"});
  }
}

TEST(KernelNetlink, ErrnoWithoutExtack) {
  mrc::NetlinkSocket sock;
  try {
    sock.Transact(GetFamily("nosuchfamily").get(), [](nl_msg* /*reply*/) {});
    FAIL() << "no error";
  } catch (const mrc::KernelError& e) {
    EXPECT_EQ(e.error(), ENOENT);
  }
}

TEST(KernelNetlink, ExtackOfAPolicyViolation) {
  mrc::NetlinkSocket sock;
  try {
    sock.Transact(GetFamily("a-family-name-far-longer-than-GENL_NAMSIZ").get(),
                  [](nl_msg* /*reply*/) {});
    FAIL() << "no error";
  } catch (const mrc::KernelError& e) {
    EXPECT_EQ(e.error(), EINVAL);
    EXPECT_EQ(e.extack(), "Attribute failed policy validation");
    EXPECT_STREQ(e.what(), "Attribute failed policy validation (Invalid argument)");
  }
  // The socket survives the error.
  sock.Transact(GetFamily("nlctrl").get(), [](nl_msg* /*reply*/) {});
}

// A user-space netlink socket playing mrc.ko: it reads one request and
// sends back what the test scripted. Sending to another socket's port
// needs CAP_NET_ADMIN on NETLINK_GENERIC.
class FakeMrcKo {
 public:
  FakeMrcKo() : sock_(nl_socket_alloc()) {
    EXPECT_EQ(nl_connect(sock_.get(), NETLINK_GENERIC), 0);
    nl_socket_set_buffer_size(sock_.get(), 1 << 20, 1 << 20);
  }

  [[nodiscard]] std::uint32_t port() const { return nl_socket_get_local_port(sock_.get()); }

  // Receives one request; returns its header.
  nlmsghdr Receive() {
    sockaddr_nl from{};
    unsigned char* raw = nullptr;
    const int len = nl_recv(sock_.get(), &from, &raw, nullptr);
    const std::unique_ptr<unsigned char, decltype(&std::free)> buf(raw, &std::free);
    nlmsghdr hdr{};
    EXPECT_GE(len, static_cast<int>(sizeof(hdr)));
    if (len >= static_cast<int>(sizeof(hdr))) {
      std::memcpy(&hdr, buf.get(), sizeof(hdr));
    }
    nl_socket_set_peer_port(sock_.get(), from.nl_pid);
    return hdr;
  }

  // Sends `messages` in one datagram (like a kernel dump skb).
  void Send(const std::vector<mrc::MsgPtr>& messages, const nlmsghdr& request) {
    std::vector<unsigned char> datagram;
    for (const mrc::MsgPtr& msg : messages) {
      nlmsghdr* hdr = nlmsg_hdr(msg.get());
      hdr->nlmsg_seq = request.nlmsg_seq;
      hdr->nlmsg_pid = request.nlmsg_pid;
      const auto* bytes = static_cast<const unsigned char*>(static_cast<void*>(hdr));
      datagram.insert(datagram.end(), bytes, bytes + NLMSG_ALIGN(hdr->nlmsg_len));
    }
    ASSERT_GE(nl_sendto(sock_.get(), datagram.data(), datagram.size()), 0);
  }

  static mrc::MsgPtr Done(int error) {
    mrc::MsgPtr msg(nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI));
    nlmsg_append(msg.get(), &error, sizeof(error), NLMSG_ALIGNTO);
    return msg;
  }

  static mrc::MsgPtr Error(int error, const char* text) {
    mrc::MsgPtr msg(
        nlmsg_alloc_simple(NLMSG_ERROR, text != nullptr ? NLM_F_CAPPED | NLM_F_ACK_TLVS : 0));
    nlmsgerr err{};
    err.error = -error;
    err.msg.nlmsg_len = NLMSG_HDRLEN;
    nlmsg_append(msg.get(), &err, sizeof(err), NLMSG_ALIGNTO);
    if (text != nullptr) {
      nla_put_string(msg.get(), NLMSGERR_ATTR_MSG, text);
    }
    return msg;
  }

  static mrc::MsgPtr PlaneMessage(std::uint32_t id, int flags) {
    mrc::MsgPtr msg = KernelMessage(MRC_CMD_PLANE_GET, flags);
    KNest(msg.get(), MRC_ATTR_PLANE, [&] { nla_put_u32(msg.get(), MRC_PLANE_ATTR_ID, id); });
    return msg;
  }

 private:
  mrc::SockPtr sock_;
};

class UserPeer : public ::testing::Test {
 protected:
  // Skips unless this process may unicast between netlink sockets: a
  // throw-away socket sends the stand-in a probe, which it then drops.
  void SetUp() override {
    client_.SetPeer(peer().port());
    const mrc::SockPtr prober(nl_socket_alloc());
    ASSERT_EQ(nl_connect(prober.get(), NETLINK_GENERIC), 0);
    nl_socket_set_peer_port(prober.get(), peer_.port());
    const mrc::MsgPtr probe = mrc::NewRequest(kMrcFamily, MRC_CMD_INFO_GET);
    if (nl_send_auto(prober.get(), probe.get()) < 0) {
      GTEST_SKIP() << "netlink unicast between sockets needs CAP_NET_ADMIN";
    }
    peer_.Receive();
  }

  FakeMrcKo& peer() { return peer_; }
  mrc::NetlinkSocket& client() { return client_; }

 private:
  FakeMrcKo peer_;
  mrc::NetlinkSocket client_;
};

TEST_F(UserPeer, TenThousandPlanesArriveInOrder) {
  constexpr std::uint32_t kPlanes = 10000;
  constexpr std::uint32_t kPerDatagram = 100;
  std::jthread kernel([this] {
    const nlmsghdr request = peer().Receive();
    EXPECT_NE(request.nlmsg_flags & NLM_F_DUMP, 0);
    for (std::uint32_t first = 0; first < kPlanes; first += kPerDatagram) {
      std::vector<mrc::MsgPtr> part;
      for (std::uint32_t id = first; id < first + kPerDatagram; id++) {
        part.push_back(FakeMrcKo::PlaneMessage(id, NLM_F_MULTI));
      }
      peer().Send(part, request);
    }
    std::vector<mrc::MsgPtr> done;
    done.push_back(FakeMrcKo::Done(0));
    peer().Send(done, request);
  });
  std::vector<std::uint32_t> ids;
  client().Transact(mrc::PlaneGetRequest(kMrcFamily, std::nullopt).get(),
                    [&](nl_msg* reply) { ids.push_back(*mrc::ParsePlaneMessage(reply).id); });
  ASSERT_EQ(ids.size(), kPlanes);
  for (std::uint32_t i = 0; i < kPlanes; i++) {
    ASSERT_EQ(ids[i], i);
  }
}

TEST_F(UserPeer, ReplyThenAckInSeparateDatagrams) {
  std::jthread kernel([this] {
    const nlmsghdr request = peer().Receive();
    EXPECT_NE(request.nlmsg_flags & NLM_F_ACK, 0);
    std::vector<mrc::MsgPtr> reply;
    reply.push_back(FakeMrcKo::PlaneMessage(7, 0));
    peer().Send(reply, request);
    std::vector<mrc::MsgPtr> ack;
    ack.push_back(FakeMrcKo::Error(0, nullptr));
    peer().Send(ack, request);
  });
  std::vector<std::uint32_t> ids;
  client().Transact(mrc::PlaneAddRequest(kMrcFamily, mrc::Plane{.ifindex = 1}).get(),
                    [&](nl_msg* reply) { ids.push_back(*mrc::ParsePlaneMessage(reply).id); });
  EXPECT_EQ(ids, std::vector<std::uint32_t>{7});
}

TEST_F(UserPeer, ErrorWithExtack) {
  std::jthread kernel([this] {
    const nlmsghdr request = peer().Receive();
    std::vector<mrc::MsgPtr> error;
    error.push_back(FakeMrcKo::Error(EEXIST, "device is already a plane"));
    peer().Send(error, request);
  });
  try {
    client().Transact(mrc::PlaneAddRequest(kMrcFamily, mrc::Plane{.ifindex = 1}).get(),
                      [](nl_msg* /*reply*/) {});
    FAIL() << "no error";
  } catch (const mrc::KernelError& e) {
    EXPECT_EQ(e.error(), EEXIST);
    EXPECT_STREQ(e.what(), "device is already a plane (File exists)");
  }
}

TEST_F(UserPeer, DumpFailingHalfWay) {
  std::jthread kernel([this] {
    const nlmsghdr request = peer().Receive();
    std::vector<mrc::MsgPtr> part;
    part.push_back(FakeMrcKo::PlaneMessage(0, NLM_F_MULTI));
    part.push_back(FakeMrcKo::Done(-EINTR));
    peer().Send(part, request);
  });
  std::size_t replies = 0;
  try {
    client().Transact(mrc::PlaneGetRequest(kMrcFamily, std::nullopt).get(),
                      [&](nl_msg* /*reply*/) { replies++; });
    FAIL() << "no error";
  } catch (const mrc::KernelError& e) {
    EXPECT_EQ(e.error(), EINTR);
  }
  EXPECT_EQ(replies, 1U);
}

}  // namespace
