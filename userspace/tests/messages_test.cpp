// SPDX-License-Identifier: GPL-2.0
// Request building: every request parsed back with libnl, attribute by
// attribute, against the types linux/mrc_netlink.h documents.
#include "mrc/messages.hpp"

#include <gtest/gtest.h>
#include <linux/mrc_netlink.h>

#include "addresses.hpp"
#include "attr_reader.hpp"
#include "mrc/parse.hpp"

namespace {

constexpr int kFamily = 0x1d;

genlmsghdr* Genl(const mrc::MsgPtr& msg) { return genlmsg_hdr(nlmsg_hdr(msg.get())); }

void ExpectHeader(const mrc::MsgPtr& msg, int cmd, bool dump) {
  const nlmsghdr* hdr = nlmsg_hdr(msg.get());
  EXPECT_EQ(hdr->nlmsg_type, kFamily);
  EXPECT_EQ(hdr->nlmsg_flags & (NLM_F_REQUEST | NLM_F_ACK), NLM_F_REQUEST | NLM_F_ACK);
  EXPECT_EQ((hdr->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP, dump);
  EXPECT_EQ(Genl(msg)->cmd, cmd);
  EXPECT_EQ(Genl(msg)->version, MRC_GENL_VERSION);
}

std::vector<int> Types(const std::map<int, nlattr*>& attrs) {
  std::vector<int> types;
  types.reserve(attrs.size());
  for (const auto& [type, attr] : attrs) {
    types.push_back(type);
  }
  return types;
}

TEST(Messages, InfoGetCarriesNothing) {
  const mrc::MsgPtr msg = mrc::InfoGetRequest(kFamily);
  ExpectHeader(msg, MRC_CMD_INFO_GET, false);
  EXPECT_TRUE(Top(msg.get()).empty());
}

TEST(Messages, PlaneAddWithEverySetting) {
  const mrc::Plane plane{
      .id = 2,
      .ifindex = 7,
      .ifname = "ignored",
      .addr4 = V4("10.0.0.1"),
      .addr6 = V6("fd00::1"),
      .port = 4797,
      .state = mrc::PlaneState::kDenied,
      .link = mrc::LinkState::kUp,
      .weight = 1000,
      .mtu = 1500,
      .offload_mode = mrc::OffloadMode::kOff,
      .stats = mrc::Stats{{"x", 1}},
      .offload = mrc::PlaneOffload{.state = mrc::OffloadState::kActive, .driver = "mrc_sim"},
  };
  const mrc::MsgPtr msg = mrc::PlaneAddRequest(kFamily, plane);
  ExpectHeader(msg, MRC_CMD_PLANE_ADD, false);
  const auto top = Top(msg.get());
  ASSERT_EQ(Types(top), std::vector<int>{MRC_ATTR_PLANE});
  const auto a = Nest(top.at(MRC_ATTR_PLANE));
  // Reply-only IFNAME, LINK and STATS are never sent.
  EXPECT_EQ(Types(a),
            (std::vector<int>{MRC_PLANE_ATTR_ID, MRC_PLANE_ATTR_IFINDEX, MRC_PLANE_ATTR_ADDR4,
                              MRC_PLANE_ATTR_ADDR6, MRC_PLANE_ATTR_PORT, MRC_PLANE_ATTR_STATE,
                              MRC_PLANE_ATTR_WEIGHT, MRC_PLANE_ATTR_MTU, MRC_PLANE_ATTR_OFFLOAD}));
  EXPECT_EQ(U32(a, MRC_PLANE_ATTR_ID), 2U);
  EXPECT_EQ(U32(a, MRC_PLANE_ATTR_IFINDEX), 7U);
  EXPECT_EQ(Bytes(a, MRC_PLANE_ATTR_ADDR4), std::string("\x0a\x00\x00\x01", 4));  // network order
  EXPECT_EQ(U32(a, MRC_PLANE_ATTR_ADDR4), V4("10.0.0.1").s_addr);
  EXPECT_EQ(Bytes(a, MRC_PLANE_ATTR_ADDR6),
            std::string("\xfd\x00\0\0\0\0\0\0\0\0\0\0\0\0\0\x01", 16));
  EXPECT_EQ(U16(a, MRC_PLANE_ATTR_PORT), 4797);  // host order
  EXPECT_EQ(U8(a, MRC_PLANE_ATTR_STATE), MRC_PLANE_STATE_DENIED);
  EXPECT_EQ(U32(a, MRC_PLANE_ATTR_WEIGHT), 1000U);
  EXPECT_EQ(U32(a, MRC_PLANE_ATTR_MTU), 1500U);
  // Of the offload, only the mode: state and driver are reply-only.
  const auto offload = Nest(a.at(MRC_PLANE_ATTR_OFFLOAD));
  EXPECT_EQ(Types(offload), std::vector<int>{MRC_OFFLOAD_ATTR_MODE});
  EXPECT_EQ(U8(offload, MRC_OFFLOAD_ATTR_MODE), MRC_OFFLOAD_OFF);
}

TEST(Messages, PlaneSetOfEachOffloadMode) {
  for (const auto& [mode, wire] : {std::pair{mrc::OffloadMode::kAuto, MRC_OFFLOAD_AUTO},
                                   std::pair{mrc::OffloadMode::kOff, MRC_OFFLOAD_OFF},
                                   std::pair{mrc::OffloadMode::kOn, MRC_OFFLOAD_ON}}) {
    const mrc::MsgPtr msg =
        mrc::PlaneSetRequest(kFamily, mrc::Plane{.id = 4, .offload_mode = mode});
    ExpectHeader(msg, MRC_CMD_PLANE_SET, false);
    const auto a = Nest(Top(msg.get()).at(MRC_ATTR_PLANE));
    EXPECT_EQ(Types(a), (std::vector<int>{MRC_PLANE_ATTR_ID, MRC_PLANE_ATTR_OFFLOAD}));
    const auto offload = Nest(a.at(MRC_PLANE_ATTR_OFFLOAD));
    EXPECT_EQ(Types(offload), std::vector<int>{MRC_OFFLOAD_ATTR_MODE});
    EXPECT_EQ(U8(offload, MRC_OFFLOAD_ATTR_MODE), wire);
  }
}

TEST(Messages, PlaneAddWithOnlyTheDevice) {
  const mrc::MsgPtr msg = mrc::PlaneAddRequest(kFamily, mrc::Plane{.ifindex = 3});
  const auto a = Nest(Top(msg.get()).at(MRC_ATTR_PLANE));
  EXPECT_EQ(Types(a), std::vector<int>{MRC_PLANE_ATTR_IFINDEX});
}

TEST(Messages, PlaneSetAndDel) {
  mrc::MsgPtr msg =
      mrc::PlaneSetRequest(kFamily, mrc::Plane{.id = 4, .state = mrc::PlaneState::kDown});
  ExpectHeader(msg, MRC_CMD_PLANE_SET, false);
  auto a = Nest(Top(msg.get()).at(MRC_ATTR_PLANE));
  EXPECT_EQ(Types(a), (std::vector<int>{MRC_PLANE_ATTR_ID, MRC_PLANE_ATTR_STATE}));
  EXPECT_EQ(U8(a, MRC_PLANE_ATTR_STATE), MRC_PLANE_STATE_DOWN);

  msg = mrc::PlaneDelRequest(kFamily, 15);
  ExpectHeader(msg, MRC_CMD_PLANE_DEL, false);
  a = Nest(Top(msg.get()).at(MRC_ATTR_PLANE));
  EXPECT_EQ(Types(a), std::vector<int>{MRC_PLANE_ATTR_ID});
  EXPECT_EQ(U32(a, MRC_PLANE_ATTR_ID), 15U);
}

TEST(Messages, GetIsADoWithAnIdAndADumpWithout) {
  struct Case {
    mrc::MsgPtr (*build)(int, std::optional<std::uint32_t>);
    int cmd;
    int object;
    int id;
  };
  for (const Case& c : {
           Case{mrc::PlaneGetRequest, MRC_CMD_PLANE_GET, MRC_ATTR_PLANE, MRC_PLANE_ATTR_ID},
           Case{mrc::EvProfileGetRequest, MRC_CMD_EV_PROFILE_GET, MRC_ATTR_EV_PROFILE,
                MRC_EV_PROFILE_ATTR_ID},
           Case{mrc::CcProfileGetRequest, MRC_CMD_CC_PROFILE_GET, MRC_ATTR_CC_PROFILE,
                MRC_CC_PROFILE_ATTR_ID},
           Case{mrc::ConnGetRequest, MRC_CMD_CONN_GET, MRC_ATTR_CONN, MRC_CONN_ATTR_ID},
       }) {
    mrc::MsgPtr msg = c.build(kFamily, 9);
    ExpectHeader(msg, c.cmd, false);
    const auto top = Top(msg.get());
    ASSERT_EQ(Types(top), std::vector<int>{c.object});
    const auto a = Nest(top.at(c.object));
    EXPECT_EQ(Types(a), std::vector<int>{c.id});
    EXPECT_EQ(U32(a, c.id), 9U);

    msg = c.build(kFamily, std::nullopt);
    ExpectHeader(msg, c.cmd, true);
    EXPECT_TRUE(Top(msg.get()).empty());
  }
}

TEST(Messages, DelOfProfiles) {
  mrc::MsgPtr msg = mrc::EvProfileDelRequest(kFamily, 16384);
  ExpectHeader(msg, MRC_CMD_EV_PROFILE_DEL, false);
  EXPECT_EQ(U32(Nest(Top(msg.get()).at(MRC_ATTR_EV_PROFILE)), MRC_EV_PROFILE_ATTR_ID), 16384U);
  msg = mrc::CcProfileDelRequest(kFamily, 1024);
  ExpectHeader(msg, MRC_CMD_CC_PROFILE_DEL, false);
  EXPECT_EQ(U32(Nest(Top(msg.get()).at(MRC_ATTR_CC_PROFILE)), MRC_CC_PROFILE_ATTR_ID), 1024U);
}

TEST(Messages, EvProfileNewWithConfiguration) {
  const mrc::MsgPtr msg =
      mrc::EvProfileNewRequest(kFamily, mrc::EvProfile{.id = 1,
                                                       .state = mrc::ProfileState::kOnline,
                                                       .mode = mrc::EvMode::kGenerated,
                                                       .count = 128,
                                                       .min_active = 64,
                                                       .event_mask = 5,
                                                       .seed = 7,
                                                       .users = 99});
  ExpectHeader(msg, MRC_CMD_EV_PROFILE_NEW, false);
  const auto a = Nest(Top(msg.get()).at(MRC_ATTR_EV_PROFILE));
  EXPECT_EQ(Types(a), (std::vector<int>{MRC_EV_PROFILE_ATTR_ID, MRC_EV_PROFILE_ATTR_STATE,
                                        MRC_EV_PROFILE_ATTR_MODE, MRC_EV_PROFILE_ATTR_EV_COUNT,
                                        MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE,
                                        MRC_EV_PROFILE_ATTR_EVENT_MASK, MRC_EV_PROFILE_ATTR_SEED}));
  EXPECT_EQ(U32(a, MRC_EV_PROFILE_ATTR_ID), 1U);
  EXPECT_EQ(U8(a, MRC_EV_PROFILE_ATTR_STATE), MRC_PROFILE_ONLINE);
  EXPECT_EQ(U8(a, MRC_EV_PROFILE_ATTR_MODE), MRC_EV_MODE_GENERATED);
  EXPECT_EQ(U32(a, MRC_EV_PROFILE_ATTR_EV_COUNT), 128U);
  EXPECT_EQ(U32(a, MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE), 64U);
  EXPECT_EQ(U32(a, MRC_EV_PROFILE_ATTR_EVENT_MASK), 5U);
  EXPECT_EQ(U32(a, MRC_EV_PROFILE_ATTR_SEED), 7U);
}

TEST(Messages, EvProfileSetWithAnExplicitList) {
  std::vector<mrc::Ev> evs;
  for (std::uint32_t i = 0; i < MRC_MAX_EVS_PER_PROFILE; i++) {
    evs.push_back(
        mrc::Ev{.index = i,
                .value = 65535 - i,
                .plane = i % 2 == 0 ? std::optional<std::uint32_t>(i % 16) : std::nullopt});
  }
  const mrc::MsgPtr msg = mrc::EvProfileSetRequest(kFamily, mrc::EvProfile{.id = 3, .evs = evs});
  ExpectHeader(msg, MRC_CMD_EV_PROFILE_SET, false);
  const auto a = Nest(Top(msg.get()).at(MRC_ATTR_EV_PROFILE));
  EXPECT_EQ(Types(a), (std::vector<int>{MRC_EV_PROFILE_ATTR_ID, MRC_EV_PROFILE_ATTR_EVS}));
  const std::vector<nlattr*> entries = Children(a.at(MRC_EV_PROFILE_ATTR_EVS));
  ASSERT_EQ(entries.size(), MRC_MAX_EVS_PER_PROFILE);
  for (std::uint32_t i = 0; i < entries.size(); i++) {
    ASSERT_EQ(nla_type(entries[i]), MRC_EV_PROFILE_ATTR_EV);
    const auto ev = Nest(entries[i]);
    EXPECT_EQ(U32(ev, MRC_EV_ATTR_INDEX), i);
    EXPECT_EQ(U32(ev, MRC_EV_ATTR_VALUE), 65535 - i);
    if (i % 2 == 0) {
      EXPECT_EQ(U32(ev, MRC_EV_ATTR_PLANE), i % 16);
    } else {
      EXPECT_EQ(ev.count(MRC_EV_ATTR_PLANE), 0U);
    }
    EXPECT_EQ(ev.count(MRC_EV_ATTR_STATE), 0U);
  }
}

TEST(Messages, EvProfileSetOfOneEvState) {
  const mrc::MsgPtr msg = mrc::EvProfileSetRequest(
      kFamily,
      mrc::EvProfile{.id = 3,
                     .ev = mrc::Ev{.value = 100, .plane = 1, .state = mrc::EvState::kDenied}});
  const auto a = Nest(Top(msg.get()).at(MRC_ATTR_EV_PROFILE));
  EXPECT_EQ(Types(a), (std::vector<int>{MRC_EV_PROFILE_ATTR_ID, MRC_EV_PROFILE_ATTR_EV}));
  const auto ev = Nest(a.at(MRC_EV_PROFILE_ATTR_EV));
  EXPECT_EQ(Types(ev), (std::vector<int>{MRC_EV_ATTR_VALUE, MRC_EV_ATTR_PLANE, MRC_EV_ATTR_STATE}));
  EXPECT_EQ(U32(ev, MRC_EV_ATTR_VALUE), 100U);
  EXPECT_EQ(U32(ev, MRC_EV_ATTR_PLANE), 1U);
  EXPECT_EQ(U8(ev, MRC_EV_ATTR_STATE), MRC_EV_DENIED);
}

TEST(Messages, CcProfileWithNscc) {
  const mrc::MsgPtr msg =
      mrc::CcProfileNewRequest(kFamily, mrc::CcProfile{.id = 5,
                                                       .state = mrc::ProfileState::kOffline,
                                                       .algorithm = MRC_CC_ALG_NSCC,
                                                       .nscc = mrc::Nscc{.base_rtt = 9000,
                                                                         .target_delay = 12000,
                                                                         .max_cwnd = 65536,
                                                                         .eta = 150000,
                                                                         .fi = 1,
                                                                         .fi_scale = 2,
                                                                         .gamma = 3,
                                                                         .max_md_jump = 1000000,
                                                                         .qa_gate = 255,
                                                                         .qa_threshold = 4,
                                                                         .disable_qa = true,
                                                                         .adjust_bytes = 5,
                                                                         .adjust_period = 6}});
  ExpectHeader(msg, MRC_CMD_CC_PROFILE_NEW, false);
  const auto a = Nest(Top(msg.get()).at(MRC_ATTR_CC_PROFILE));
  EXPECT_EQ(Types(a), (std::vector<int>{MRC_CC_PROFILE_ATTR_ID, MRC_CC_PROFILE_ATTR_STATE,
                                        MRC_CC_PROFILE_ATTR_ALGORITHM, MRC_CC_PROFILE_ATTR_NSCC}));
  EXPECT_EQ(Bytes(a, MRC_CC_PROFILE_ATTR_ALGORITHM), std::string("uet-1.0-nscc\0", 13));
  EXPECT_EQ(U8(a, MRC_CC_PROFILE_ATTR_STATE), MRC_PROFILE_OFFLINE);
  const auto n = Nest(a.at(MRC_CC_PROFILE_ATTR_NSCC));
  EXPECT_EQ(n.size(), static_cast<std::size_t>(MRC_NSCC_ATTR_MAX));
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_BASE_RTT), 9000U);
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_TARGET_DELAY), 12000U);
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_MAX_CWND), 65536U);
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_ETA), 150000U);
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_FI), 1U);
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_FI_SCALE), 2U);
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_GAMMA), 3U);
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_MAX_MD_JUMP), 1000000U);
  EXPECT_EQ(U8(n, MRC_NSCC_ATTR_QA_GATE), 255);
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_QA_THRESHOLD), 4U);
  EXPECT_EQ(U8(n, MRC_NSCC_ATTR_DISABLE_QA), 1);
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_ADJUST_BYTES), 5U);
  EXPECT_EQ(U32(n, MRC_NSCC_ATTR_ADJUST_PERIOD), 6U);
}

TEST(Messages, CcProfileWithoutNsccHasNoNest) {
  const mrc::MsgPtr msg =
      mrc::CcProfileSetRequest(kFamily, mrc::CcProfile{.id = 5, .algorithm = "nscc"});
  ExpectHeader(msg, MRC_CMD_CC_PROFILE_SET, false);
  const auto a = Nest(Top(msg.get()).at(MRC_ATTR_CC_PROFILE));
  EXPECT_EQ(Types(a), (std::vector<int>{MRC_CC_PROFILE_ATTR_ID, MRC_CC_PROFILE_ATTR_ALGORITHM}));
}

TEST(Messages, CcProfileWithOneParameter) {
  const mrc::MsgPtr msg = mrc::CcProfileSetRequest(
      kFamily, mrc::CcProfile{.id = 5, .nscc = mrc::Nscc{.disable_qa = false}});
  const auto n = Nest(Nest(Top(msg.get()).at(MRC_ATTR_CC_PROFILE)).at(MRC_CC_PROFILE_ATTR_NSCC));
  EXPECT_EQ(Types(n), std::vector<int>{MRC_NSCC_ATTR_DISABLE_QA});
  EXPECT_EQ(U8(n, MRC_NSCC_ATTR_DISABLE_QA), 0);
}

TEST(Messages, Paths) {
  mrc::MsgPtr msg = mrc::PathGetRequest(kFamily, 5);
  ExpectHeader(msg, MRC_CMD_PATH_GET, true);
  auto a = Nest(Top(msg.get()).at(MRC_ATTR_PATH));
  EXPECT_EQ(Types(a), std::vector<int>{MRC_PATH_ATTR_CONN_ID});
  EXPECT_EQ(U32(a, MRC_PATH_ATTR_CONN_ID), 5U);

  msg = mrc::PathSetRequest(
      kFamily, mrc::Path{.conn_id = 5, .ev = 4660, .state = mrc::EvState::kAssumedBad});
  ExpectHeader(msg, MRC_CMD_PATH_SET, false);
  a = Nest(Top(msg.get()).at(MRC_ATTR_PATH));
  EXPECT_EQ(Types(a),
            (std::vector<int>{MRC_PATH_ATTR_CONN_ID, MRC_PATH_ATTR_EV, MRC_PATH_ATTR_STATE}));
  EXPECT_EQ(U32(a, MRC_PATH_ATTR_EV), 4660U);
  EXPECT_EQ(U8(a, MRC_PATH_ATTR_STATE), MRC_EV_ASSUMED_BAD);

  msg = mrc::PathProbeRequest(kFamily, 5, 7);
  ExpectHeader(msg, MRC_CMD_PATH_PROBE, false);
  a = Nest(Top(msg.get()).at(MRC_ATTR_PATH));
  EXPECT_EQ(Types(a), (std::vector<int>{MRC_PATH_ATTR_CONN_ID, MRC_PATH_ATTR_EV}));
  EXPECT_EQ(U32(a, MRC_PATH_ATTR_EV), 7U);
}

TEST(Messages, StatsGetIsADumpWithoutAttributes) {
  const mrc::MsgPtr msg = mrc::StatsGetRequest(kFamily);
  ExpectHeader(msg, MRC_CMD_STATS_GET, true);
  EXPECT_TRUE(Top(msg.get()).empty());
}

TEST(Messages, PeerGetIsADumpWithoutAttributes) {
  const mrc::MsgPtr msg = mrc::PeerGetRequest(kFamily);
  ExpectHeader(msg, MRC_CMD_PEER_GET, true);
  EXPECT_TRUE(Top(msg.get()).empty());
}

TEST(Messages, BuiltPlaneParsesBack) {
  const mrc::Plane plane{.id = 1,
                         .ifindex = 2,
                         .addr4 = V4("192.0.2.1"),
                         .port = 1,
                         .state = mrc::PlaneState::kUp,
                         .weight = 3,
                         .mtu = 0,
                         .offload_mode = mrc::OffloadMode::kOn};
  const mrc::Plane back = mrc::ParsePlaneMessage(mrc::PlaneAddRequest(kFamily, plane).get());
  EXPECT_EQ(back.id, 1U);
  EXPECT_EQ(back.ifindex, 2U);
  EXPECT_EQ(back.addr4->s_addr, plane.addr4->s_addr);
  EXPECT_FALSE(back.addr6);
  EXPECT_EQ(back.port, 1);
  EXPECT_EQ(back.state, mrc::PlaneState::kUp);
  EXPECT_EQ(back.weight, 3U);
  EXPECT_EQ(back.mtu, 0U);
  EXPECT_EQ(back.offload_mode, mrc::OffloadMode::kOn);
}

}  // namespace
