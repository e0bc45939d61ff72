// SPDX-License-Identifier: GPL-2.0
// Reply and event parsing, against messages laid out like mrc.ko's.
#include "mrc/parse.hpp"

#include <gtest/gtest.h>

#include "addresses.hpp"
#include "kernel_messages.hpp"
#include "mrc/error.hpp"

namespace {

void PutPlaneAttrs(nl_msg* msg) {
  nla_put_u32(msg, MRC_PLANE_ATTR_ID, 3);
  nla_put_u32(msg, MRC_PLANE_ATTR_IFINDEX, 5);
  nla_put_string(msg, MRC_PLANE_ATTR_IFNAME, "veth1");
  nla_put_u32(msg, MRC_PLANE_ATTR_ADDR4, V4("10.0.1.1").s_addr);
  const in6_addr addr6 = V6("fd00::1");
  nla_put(msg, MRC_PLANE_ATTR_ADDR6, sizeof(addr6), &addr6);
  nla_put_u16(msg, MRC_PLANE_ATTR_PORT, 5000);
  nla_put_u8(msg, MRC_PLANE_ATTR_STATE, MRC_PLANE_STATE_DOWN);
  nla_put_u8(msg, MRC_PLANE_ATTR_LINK, MRC_LINK_UP);
  nla_put_u32(msg, MRC_PLANE_ATTR_WEIGHT, 300);
  nla_put_u32(msg, MRC_PLANE_ATTR_MTU, 0);
}

// What mrc_sim offers, as mrc.ko puts it in the OFFLOAD nest.
void PutOffloadDevice(nl_msg* msg) {
  nla_put_string(msg, MRC_OFFLOAD_ATTR_DRIVER, "mrc_sim");
  nla_put_u32(msg, MRC_OFFLOAD_ATTR_API_VERSION, 1);
  nla_put_u32(msg, MRC_OFFLOAD_ATTR_FEATURES,
              MRC_OFFLOAD_F_TX | MRC_OFFLOAD_F_RX | MRC_OFFLOAD_F_ACK_GEN | MRC_OFFLOAD_F_NACK_GEN |
                  MRC_OFFLOAD_F_TRIM);
  nla_put_u32(msg, MRC_OFFLOAD_ATTR_EV_TABLE_SIZE, 256);
  nla_put_u32(msg, MRC_OFFLOAD_ATTR_MAX_CONNS, 1024);
  nla_put_u32(msg, MRC_OFFLOAD_ATTR_CC_ALGOS, MRC_OFFLOAD_CC_NSCC);
  nla_put_u32(msg, MRC_OFFLOAD_ATTR_MAX_SEGMENT, 0);
  nla_put_u32(msg, MRC_OFFLOAD_ATTR_CONNS, 3);
}

std::string Text(const in_addr& addr) {
  std::array<char, INET_ADDRSTRLEN> text{};
  return inet_ntop(AF_INET, &addr, text.data(), text.size());
}

std::string Text(const in6_addr& addr) {
  std::array<char, INET6_ADDRSTRLEN> text{};
  return inet_ntop(AF_INET6, &addr, text.data(), text.size());
}

// The message of a malformed reply, when parsing it throws.
template <typename Parse>
std::string ParseError(nl_msg* msg, Parse parse) {
  try {
    parse(msg);
  } catch (const mrc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Parse, Info) {
  const mrc::MsgPtr msg = KernelMessage(MRC_CMD_INFO_GET);
  KNest(msg.get(), MRC_ATTR_INFO, [&] {
    nla_put_string(msg.get(), MRC_INFO_ATTR_VERSION, "0.2.0");
    nla_put_u32(msg.get(), MRC_INFO_ATTR_FAMILY, 19);
    nla_put_u32(msg.get(), MRC_INFO_ATTR_API_VERSION, 1);
    nla_put_u32(msg.get(), MRC_INFO_ATTR_CAPS, MRC_CAP_IPV4 | MRC_CAP_IPV6);
    nla_put_u32(msg.get(), MRC_INFO_ATTR_MAX_PLANES, 16);
    nla_put_u32(msg.get(), MRC_INFO_ATTR_MAX_EV_PROFILES, 16384);
    nla_put_u32(msg.get(), MRC_INFO_ATTR_MAX_EVS, 1024);
    nla_put_u32(msg.get(), MRC_INFO_ATTR_MAX_CC_PROFILES, 1024);
    nla_put_u32(msg.get(), MRC_INFO_ATTR_EV_MAX_BITS, 16);
    KNest(msg.get(), MRC_INFO_ATTR_CC_ALGORITHMS, [&] {
      nla_put_string(msg.get(), MRC_INFO_ATTR_CC_ALGORITHM, "uet-1.0-nscc");
      nla_put_string(msg.get(), MRC_INFO_ATTR_CC_ALGORITHM, "future");
    });
  });
  const mrc::Info info = mrc::ParseInfoMessage(msg.get());
  EXPECT_EQ(info.version, "0.2.0");
  EXPECT_EQ(info.family, 19U);
  EXPECT_EQ(info.api_version, 1U);
  EXPECT_EQ(info.caps, static_cast<std::uint32_t>(MRC_CAP_IPV4 | MRC_CAP_IPV6));
  EXPECT_EQ(info.max_planes, 16U);
  EXPECT_EQ(info.max_ev_profiles, 16384U);
  EXPECT_EQ(info.max_evs, 1024U);
  EXPECT_EQ(info.max_cc_profiles, 1024U);
  EXPECT_EQ(info.ev_max_bits, 16U);
  EXPECT_EQ(info.cc_algorithms, (std::vector<std::string>{"uet-1.0-nscc", "future"}));
}

TEST(Parse, PlaneWithEveryAttribute) {
  const mrc::MsgPtr msg = KernelMessage(MRC_CMD_PLANE_GET, NLM_F_MULTI);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] {
    PutPlaneAttrs(msg.get());
    KStats(msg.get(), MRC_PLANE_ATTR_STATS, {{"PlaneRxDrop", 0}, {"PlaneTxPackets", 1ULL << 40}});
  });
  const mrc::Plane plane = mrc::ParsePlaneMessage(msg.get());
  EXPECT_EQ(plane.id, 3U);
  EXPECT_EQ(plane.ifindex, 5U);
  EXPECT_EQ(plane.ifname, "veth1");
  EXPECT_EQ(Text(*plane.addr4), "10.0.1.1");
  EXPECT_EQ(Text(*plane.addr6), "fd00::1");
  EXPECT_EQ(plane.port, 5000);
  EXPECT_EQ(plane.state, mrc::PlaneState::kDown);
  EXPECT_EQ(plane.link, mrc::LinkState::kUp);
  EXPECT_EQ(plane.weight, 300U);
  EXPECT_EQ(plane.mtu, 0U);
  EXPECT_EQ(*plane.stats, (mrc::Stats{{"PlaneRxDrop", 0}, {"PlaneTxPackets", 1ULL << 40}}));
}

TEST(Parse, PlaneWithAnOffloadDriver) {
  const mrc::MsgPtr msg = KernelMessage(MRC_CMD_PLANE_GET, NLM_F_MULTI);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] {
    PutPlaneAttrs(msg.get());
    KNest(msg.get(), MRC_PLANE_ATTR_OFFLOAD, [&] {
      nla_put_u8(msg.get(), MRC_OFFLOAD_ATTR_MODE, MRC_OFFLOAD_AUTO);
      nla_put_u8(msg.get(), MRC_OFFLOAD_ATTR_STATE, MRC_OFFLOAD_STATE_ACTIVE);
      PutOffloadDevice(msg.get());
      KStats(
          msg.get(), MRC_OFFLOAD_ATTR_STATS,
          {{"TxPkts", 10}, {"TxBytes", 1ULL << 33}, {"RxPkts", 7}, {"RxBytes", 0}, {"Errors", 0}});
    });
    KStats(msg.get(), MRC_PLANE_ATTR_STATS, {{"OffloadTxPkts", 10}, {"OffloadConns", 3}});
  });
  const mrc::Plane plane = mrc::ParsePlaneMessage(msg.get());
  EXPECT_EQ(plane.id, 3U);
  EXPECT_EQ(plane.offload_mode, mrc::OffloadMode::kAuto);
  ASSERT_TRUE(plane.offload);
  const mrc::PlaneOffload& offload = *plane.offload;
  EXPECT_EQ(offload.state, mrc::OffloadState::kActive);
  EXPECT_EQ(offload.driver, "mrc_sim");
  EXPECT_EQ(offload.api_version, 1U);
  EXPECT_EQ(offload.features,
            static_cast<std::uint32_t>(MRC_OFFLOAD_F_TX | MRC_OFFLOAD_F_RX | MRC_OFFLOAD_F_ACK_GEN |
                                       MRC_OFFLOAD_F_NACK_GEN | MRC_OFFLOAD_F_TRIM));
  EXPECT_EQ(offload.ev_table_size, 256U);
  EXPECT_EQ(offload.max_conns, 1024U);
  EXPECT_EQ(offload.cc_algos, static_cast<std::uint32_t>(MRC_OFFLOAD_CC_NSCC));
  EXPECT_EQ(offload.max_segment, 0U);
  EXPECT_EQ(offload.conns, 3U);
  EXPECT_EQ(
      *offload.stats,
      (mrc::Stats{
          {"TxPkts", 10}, {"TxBytes", 1ULL << 33}, {"RxPkts", 7}, {"RxBytes", 0}, {"Errors", 0}}));
  EXPECT_FALSE(offload.hook || offload.error);
  // The mrc side's offload counters are plane counters like the others.
  EXPECT_EQ(*plane.stats, (mrc::Stats{{"OffloadTxPkts", 10}, {"OffloadConns", 3}}));
}

TEST(Parse, PlaneWithoutAnOffloadDriver) {
  const mrc::MsgPtr msg = KernelMessage(MRC_CMD_PLANE_GET);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] {
    nla_put_u32(msg.get(), MRC_PLANE_ATTR_ID, 0);
    KNest(msg.get(), MRC_PLANE_ATTR_OFFLOAD, [&] {
      nla_put_u8(msg.get(), MRC_OFFLOAD_ATTR_MODE, MRC_OFFLOAD_OFF);
      nla_put_u8(msg.get(), MRC_OFFLOAD_ATTR_STATE, MRC_OFFLOAD_STATE_NONE);
    });
  });
  const mrc::Plane plane = mrc::ParsePlaneMessage(msg.get());
  EXPECT_EQ(plane.offload_mode, mrc::OffloadMode::kOff);
  ASSERT_TRUE(plane.offload);
  EXPECT_EQ(plane.offload->state, mrc::OffloadState::kNone);
  EXPECT_FALSE(plane.offload->driver || plane.offload->api_version || plane.offload->features ||
               plane.offload->ev_table_size || plane.offload->max_conns ||
               plane.offload->cc_algos || plane.offload->max_segment || plane.offload->conns ||
               plane.offload->stats || plane.offload->hook || plane.offload->error);
}

TEST(Parse, AbsentAttributesStayUnset) {
  const mrc::MsgPtr msg = KernelMessage(MRC_CMD_PLANE_GET);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] { nla_put_u32(msg.get(), MRC_PLANE_ATTR_ID, 0); });
  const mrc::Plane plane = mrc::ParsePlaneMessage(msg.get());
  EXPECT_EQ(plane.id, 0U);
  EXPECT_FALSE(plane.ifindex || plane.ifname || plane.addr4 || plane.addr6 || plane.port ||
               plane.state || plane.link || plane.weight || plane.mtu || plane.offload_mode ||
               plane.stats || plane.offload);
}

TEST(Parse, UnknownAttributesAreIgnored) {
  const mrc::MsgPtr msg = KernelMessage(MRC_CMD_PLANE_GET);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] {
    nla_put_u32(msg.get(), MRC_PLANE_ATTR_ID, 1);
    nla_put_u64(msg.get(), MRC_PLANE_ATTR_MAX + 5, 7);  // from a newer kernel
  });
  nla_put_u32(msg.get(), MRC_ATTR_MAX + 3, 1);
  EXPECT_EQ(mrc::ParsePlaneMessage(msg.get()).id, 1U);
}

TEST(Parse, EvProfileWithItsEvs) {
  const mrc::MsgPtr msg = KernelMessage(MRC_CMD_EV_PROFILE_GET);
  KNest(msg.get(), MRC_ATTR_EV_PROFILE, [&] {
    nla_put_u32(msg.get(), MRC_EV_PROFILE_ATTR_ID, 3);
    nla_put_u8(msg.get(), MRC_EV_PROFILE_ATTR_STATE, MRC_PROFILE_ONLINE);
    nla_put_u8(msg.get(), MRC_EV_PROFILE_ATTR_MODE, MRC_EV_MODE_EXPLICIT);
    nla_put_u32(msg.get(), MRC_EV_PROFILE_ATTR_EV_COUNT, 2);
    nla_put_u32(msg.get(), MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE, 1);
    nla_put_u32(msg.get(), MRC_EV_PROFILE_ATTR_EVENT_MASK, 12);
    nla_put_u32(msg.get(), MRC_EV_PROFILE_ATTR_SEED, 0);
    nla_put_u32(msg.get(), MRC_EV_PROFILE_ATTR_USERS, 4);
    KNest(msg.get(), MRC_EV_PROFILE_ATTR_EVS, [&] {
      KNest(msg.get(), MRC_EV_PROFILE_ATTR_EV, [&] {
        nla_put_u32(msg.get(), MRC_EV_ATTR_INDEX, 0);
        nla_put_u32(msg.get(), MRC_EV_ATTR_VALUE, 100);
        nla_put_u32(msg.get(), MRC_EV_ATTR_PLANE, 0);
        nla_put_u8(msg.get(), MRC_EV_ATTR_STATE, MRC_EV_GOOD);
      });
      KNest(msg.get(), MRC_EV_PROFILE_ATTR_EV, [&] {
        nla_put_u32(msg.get(), MRC_EV_ATTR_INDEX, 1);
        nla_put_u8(msg.get(), MRC_EV_ATTR_STATE, MRC_EV_UNPOPULATED);
      });
    });
  });
  const mrc::EvProfile p = mrc::ParseEvProfileMessage(msg.get());
  EXPECT_EQ(p.id, 3U);
  EXPECT_EQ(p.state, mrc::ProfileState::kOnline);
  EXPECT_EQ(p.mode, mrc::EvMode::kExplicit);
  EXPECT_EQ(p.count, 2U);
  EXPECT_EQ(p.min_active, 1U);
  EXPECT_EQ(p.event_mask, 12U);
  EXPECT_EQ(p.seed, 0U);
  EXPECT_EQ(p.users, 4U);
  EXPECT_FALSE(p.ev);
  ASSERT_TRUE(p.evs);
  EXPECT_EQ(*p.evs, (std::vector<mrc::Ev>{
                        {.index = 0, .value = 100, .plane = 0, .state = mrc::EvState::kGood},
                        {.index = 1, .state = mrc::EvState::kUnpopulated},
                    }));
}

TEST(Parse, CcProfileWithNscc) {
  const mrc::MsgPtr msg = KernelMessage(MRC_CMD_CC_PROFILE_GET);
  KNest(msg.get(), MRC_ATTR_CC_PROFILE, [&] {
    nla_put_u32(msg.get(), MRC_CC_PROFILE_ATTR_ID, 2);
    nla_put_u8(msg.get(), MRC_CC_PROFILE_ATTR_STATE, MRC_PROFILE_OFFLINE);
    nla_put_string(msg.get(), MRC_CC_PROFILE_ATTR_ALGORITHM, MRC_CC_ALG_NSCC);
    nla_put_u32(msg.get(), MRC_CC_PROFILE_ATTR_USERS, 0);
    KNest(msg.get(), MRC_CC_PROFILE_ATTR_NSCC, [&] {
      nla_put_u32(msg.get(), MRC_NSCC_ATTR_BASE_RTT, 8000);
      nla_put_u32(msg.get(), MRC_NSCC_ATTR_ETA, 150000);
      nla_put_u8(msg.get(), MRC_NSCC_ATTR_QA_GATE, 3);
      nla_put_u8(msg.get(), MRC_NSCC_ATTR_DISABLE_QA, 1);
    });
  });
  const mrc::CcProfile p = mrc::ParseCcProfileMessage(msg.get());
  EXPECT_EQ(p.id, 2U);
  EXPECT_EQ(p.state, mrc::ProfileState::kOffline);
  EXPECT_EQ(p.algorithm, "uet-1.0-nscc");
  EXPECT_EQ(p.users, 0U);
  EXPECT_EQ(p.nscc, (mrc::Nscc{.base_rtt = 8000, .eta = 150000, .qa_gate = 3, .disable_qa = true}));
}

TEST(Parse, ConnWithIpv6PeerAndCounters) {
  const mrc::MsgPtr msg = KernelMessage(MRC_CMD_CONN_GET);
  KNest(msg.get(), MRC_ATTR_CONN, [&] {
    nla_put_u32(msg.get(), MRC_CONN_ATTR_ID, 5);
    nla_put_u8(msg.get(), MRC_CONN_ATTR_STATE, MRC_CONN_ESTABLISHED);
    nla_put_u16(msg.get(), MRC_CONN_ATTR_LOCAL_PORT, 7000);
    nla_put_u16(msg.get(), MRC_CONN_ATTR_PEER_PORT, 40000);
    const in6_addr peer = V6("fd00::2");
    nla_put(msg.get(), MRC_CONN_ATTR_PEER_ADDR6, sizeof(peer), &peer);
    nla_put_u32(msg.get(), MRC_CONN_ATTR_EV_PROFILE, 0);
    nla_put_u32(msg.get(), MRC_CONN_ATTR_CC_PROFILE, 2);
    KStats(msg.get(), MRC_CONN_ATTR_STATS, {{"TxPackets", 10}});
  });
  const mrc::Conn c = mrc::ParseConnMessage(msg.get());
  EXPECT_EQ(c.id, 5U);
  EXPECT_EQ(c.state, mrc::ConnState::kEstablished);
  EXPECT_EQ(c.local_port, 7000);
  EXPECT_EQ(c.peer_port, 40000);
  EXPECT_FALSE(c.peer_addr4);
  EXPECT_EQ(Text(*c.peer_addr6), "fd00::2");
  EXPECT_EQ(c.ev_profile, 0U);
  EXPECT_EQ(c.cc_profile, 2U);
  EXPECT_EQ(*c.stats, (mrc::Stats{{"TxPackets", 10}}));
}

TEST(Parse, PathFlagAndRtt) {
  mrc::MsgPtr msg = KernelMessage(MRC_CMD_PATH_GET, NLM_F_MULTI);
  KNest(msg.get(), MRC_ATTR_PATH, [&] {
    nla_put_u32(msg.get(), MRC_PATH_ATTR_CONN_ID, 5);
    nla_put_u32(msg.get(), MRC_PATH_ATTR_EV, 4660);
    nla_put_u32(msg.get(), MRC_PATH_ATTR_PLANE, 1);
    nla_put_u8(msg.get(), MRC_PATH_ATTR_STATE, MRC_EV_SKIP);
    nla_put_flag(msg.get(), MRC_PATH_ATTR_PROBING);
    nla_put_u32(msg.get(), MRC_PATH_ATTR_RTT_US, 35);
  });
  mrc::Path p = mrc::ParsePathMessage(msg.get());
  EXPECT_EQ(p.conn_id, 5U);
  EXPECT_FALSE(p.ev_profile);
  EXPECT_EQ(p.ev, 4660U);
  EXPECT_EQ(p.plane, 1U);
  EXPECT_EQ(p.state, mrc::EvState::kSkip);
  EXPECT_TRUE(p.probing);
  EXPECT_EQ(p.rtt_us, 35U);

  msg = KernelMessage(MRC_CMD_PATH_GET, NLM_F_MULTI);
  KNest(msg.get(), MRC_ATTR_PATH, [&] { nla_put_u32(msg.get(), MRC_PATH_ATTR_CONN_ID, 5); });
  p = mrc::ParsePathMessage(msg.get());
  EXPECT_FALSE(p.probing);
}

TEST(Parse, StatsDumpMessages) {
  mrc::StatsReport report;
  mrc::MsgPtr msg = KernelMessage(MRC_CMD_STATS_GET, NLM_F_MULTI);
  KStats(msg.get(), MRC_ATTR_STATS, {{"SockCreate", 3}, {"SockInUse", 0}});
  mrc::ParseStatsMessage(msg.get(), report);
  for (std::uint32_t id : {0U, 4U}) {
    msg = KernelMessage(MRC_CMD_STATS_GET, NLM_F_MULTI);
    KNest(msg.get(), MRC_ATTR_PLANE, [&] {
      nla_put_u32(msg.get(), MRC_PLANE_ATTR_ID, id);
      nla_put_string(msg.get(), MRC_PLANE_ATTR_IFNAME, "veth");
      KStats(msg.get(), MRC_PLANE_ATTR_STATS, {{"PlaneRxDrop", id}});
    });
    mrc::ParseStatsMessage(msg.get(), report);
  }
  EXPECT_EQ(report.global, (mrc::Stats{{"SockCreate", 3}, {"SockInUse", 0}}));
  ASSERT_EQ(report.planes.size(), 2U);
  EXPECT_EQ(report.planes[1].id, 4U);
  EXPECT_EQ(*report.planes[1].stats, (mrc::Stats{{"PlaneRxDrop", 4}}));
}

TEST(Parse, PlaneEvent) {
  const mrc::MsgPtr msg = KernelMessage(MRC_EVENT_PLANE_DOWN);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] { PutPlaneAttrs(msg.get()); });
  nla_put_u8(msg.get(), MRC_ATTR_EVENT_REASON, MRC_REASON_NETDEV_GONE);
  const mrc::Event e = mrc::ParseEventMessage(msg.get());
  EXPECT_EQ(e.type, mrc::EventType::kPlaneDown);
  EXPECT_EQ(e.reason, mrc::EventReason::kNetdevGone);
  ASSERT_TRUE(e.plane);
  EXPECT_EQ(e.plane->ifname, "veth1");
  EXPECT_FALSE(e.ev_profile || e.cc_profile || e.conn || e.path);
}

TEST(Parse, OffloadEventOfAFailedHook) {
  const mrc::MsgPtr msg = KernelMessage(MRC_EVENT_OFFLOAD);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] {
    PutPlaneAttrs(msg.get());
    KNest(msg.get(), MRC_PLANE_ATTR_OFFLOAD, [&] {
      nla_put_u8(msg.get(), MRC_OFFLOAD_ATTR_MODE, MRC_OFFLOAD_ON);
      nla_put_u8(msg.get(), MRC_OFFLOAD_ATTR_STATE, MRC_OFFLOAD_STATE_FAILED);
      PutOffloadDevice(msg.get());
      nla_put_string(msg.get(), MRC_OFFLOAD_ATTR_HOOK, "conn_add");
      nla_put_u32(msg.get(), MRC_OFFLOAD_ATTR_ERROR, 12);
    });
  });
  nla_put_u8(msg.get(), MRC_ATTR_EVENT_REASON, MRC_REASON_OFFLOAD_ERROR);
  const mrc::Event e = mrc::ParseEventMessage(msg.get());
  EXPECT_EQ(e.type, mrc::EventType::kOffload);
  EXPECT_EQ(e.reason, mrc::EventReason::kOffloadError);
  ASSERT_TRUE(e.plane && e.plane->offload);
  EXPECT_EQ(e.plane->id, 3U);
  EXPECT_EQ(e.plane->offload_mode, mrc::OffloadMode::kOn);
  EXPECT_EQ(e.plane->offload->state, mrc::OffloadState::kFailed);
  EXPECT_EQ(e.plane->offload->driver, "mrc_sim");
  EXPECT_EQ(e.plane->offload->hook, "conn_add");
  EXPECT_EQ(e.plane->offload->error, 12U);
  EXPECT_FALSE(e.plane->offload->stats);
  EXPECT_FALSE(e.ev_profile || e.cc_profile || e.conn || e.path);
}

TEST(Parse, OffloadEventReasons) {
  for (const auto& [wire, reason] :
       {std::pair{MRC_REASON_OFFLOAD_ATTACH, mrc::EventReason::kOffloadAttach},
        std::pair{MRC_REASON_OFFLOAD_ERROR, mrc::EventReason::kOffloadError},
        std::pair{MRC_REASON_OFFLOAD_RESET, mrc::EventReason::kOffloadReset},
        std::pair{MRC_REASON_OFFLOAD_GONE, mrc::EventReason::kOffloadGone}}) {
    const mrc::MsgPtr msg = KernelMessage(MRC_EVENT_OFFLOAD);
    KNest(msg.get(), MRC_ATTR_PLANE, [&] {
      nla_put_u32(msg.get(), MRC_PLANE_ATTR_ID, 1);
      KNest(msg.get(), MRC_PLANE_ATTR_OFFLOAD, [&] {
        nla_put_u8(msg.get(), MRC_OFFLOAD_ATTR_MODE, MRC_OFFLOAD_AUTO);
        nla_put_u8(msg.get(), MRC_OFFLOAD_ATTR_STATE, MRC_OFFLOAD_STATE_NONE);
      });
    });
    nla_put_u8(msg.get(), MRC_ATTR_EVENT_REASON, static_cast<std::uint8_t>(wire));
    const mrc::Event e = mrc::ParseEventMessage(msg.get());
    EXPECT_EQ(e.type, mrc::EventType::kOffload);
    EXPECT_EQ(e.reason, reason);
  }
}

TEST(Parse, EvStateEventOfAProfile) {
  const mrc::MsgPtr msg = KernelMessage(MRC_EVENT_EV_STATE);
  KNest(msg.get(), MRC_ATTR_PATH, [&] {
    nla_put_u32(msg.get(), MRC_PATH_ATTR_CONN_ID, 0);
    nla_put_u32(msg.get(), MRC_PATH_ATTR_EV_PROFILE, 3);
    nla_put_u32(msg.get(), MRC_PATH_ATTR_EV, 100);
    nla_put_u8(msg.get(), MRC_PATH_ATTR_STATE, MRC_EV_DENIED);
  });
  nla_put_u8(msg.get(), MRC_ATTR_EVENT_REASON, MRC_REASON_ADMIN);
  const mrc::Event e = mrc::ParseEventMessage(msg.get());
  EXPECT_EQ(e.type, mrc::EventType::kEvState);
  EXPECT_EQ(e.reason, mrc::EventReason::kAdmin);
  EXPECT_EQ(e.path->ev_profile, 3U);
  EXPECT_EQ(e.path->state, mrc::EvState::kDenied);
}

TEST(Parse, PeerHeldWithBadEvs) {
  const mrc::MsgPtr msg = KPeerMessage(KernelPeer{
      .addrs = {"10.0.0.2", "fd00:1::2", "10.2.0.2"},
      .conns = 2,
      .evs = 128,
      .planes = 0b111,
      .bad_evs = {{.ev = 65535, .plane = 2, .state = MRC_EV_ASSUMED_BAD},
                  {.ev = 1, .plane = 0, .state = MRC_EV_ASSUMED_BAD}},
  });
  const mrc::Peer p = mrc::ParsePeerMessage(msg.get());
  // Addresses repeat and mix families: all of them, in the kernel's order.
  ASSERT_EQ(p.addrs.size(), 3U);
  EXPECT_EQ(Text(std::get<in_addr>(p.addrs[0])), "10.0.0.2");
  EXPECT_EQ(Text(std::get<in6_addr>(p.addrs[1])), "fd00:1::2");
  EXPECT_EQ(Text(std::get<in_addr>(p.addrs[2])), "10.2.0.2");
  EXPECT_EQ(p.conns, 2U);
  EXPECT_FALSE(p.idle_ms);
  EXPECT_EQ(p.evs, 128U);
  EXPECT_EQ(p.planes, 0b111U);
  EXPECT_EQ(p.evs_bad, 2U);
  EXPECT_EQ(p.bad_evs,
            (std::vector<mrc::PeerEv>{{.ev = 65535, .plane = 2, .state = mrc::EvState::kAssumedBad},
                                      {.ev = 1, .plane = 0, .state = mrc::EvState::kAssumedBad}}));
}

TEST(Parse, PeerIdleWithoutBadEvs) {
  const mrc::MsgPtr msg = KPeerMessage(KernelPeer{.addrs = {"fd00::2"}, .idle_ms = 59000});
  const mrc::Peer p = mrc::ParsePeerMessage(msg.get());
  ASSERT_EQ(p.addrs.size(), 1U);
  EXPECT_EQ(Text(std::get<in6_addr>(p.addrs[0])), "fd00::2");
  EXPECT_EQ(p.conns, 0U);
  EXPECT_EQ(p.idle_ms, 59000U);
  EXPECT_EQ(p.evs, 0U);
  EXPECT_EQ(p.planes, 0U);
  EXPECT_EQ(p.evs_bad, 0U);
  EXPECT_TRUE(p.bad_evs.empty());
}

TEST(Parse, MalformedPeerIsRefused) {
  // 5 bytes: one struct mrc_peer_ev and a byte that is none.
  mrc::MsgPtr msg = KernelMessage(MRC_CMD_PEER_GET, NLM_F_MULTI);
  KNest(msg.get(), MRC_ATTR_PEER, [&] {
    const std::array<std::uint8_t, 5> five{};
    nla_put(msg.get(), MRC_PEER_ATTR_BAD_EVS, five.size(), five.data());
  });
  EXPECT_EQ(ParseError(msg.get(), mrc::ParsePeerMessage),
            "malformed PEER attributes from the kernel: BAD_EVS is 5 bytes, not a multiple of 4");

  // A short address among good ones.
  msg = KernelMessage(MRC_CMD_PEER_GET, NLM_F_MULTI);
  KNest(msg.get(), MRC_ATTR_PEER, [&] {
    nla_put_u32(msg.get(), MRC_PEER_ATTR_ADDR4, V4("10.0.0.2").s_addr);
    const std::array<std::uint8_t, 15> short_addr{};
    nla_put(msg.get(), MRC_PEER_ATTR_ADDR6, short_addr.size(), short_addr.data());
    nla_put_u32(msg.get(), MRC_PEER_ATTR_ADDR4, V4("10.1.0.2").s_addr);
  });
  EXPECT_EQ(ParseError(msg.get(), mrc::ParsePeerMessage).rfind("malformed PEER attributes", 0), 0U);

  msg = KernelMessage(MRC_CMD_PEER_GET, NLM_F_MULTI);
  KNest(msg.get(), MRC_ATTR_PEER, [&] { nla_put_u16(msg.get(), MRC_PEER_ATTR_CONNS, 1); });
  EXPECT_EQ(ParseError(msg.get(), mrc::ParsePeerMessage).rfind("malformed PEER attributes", 0), 0U);

  msg = KernelMessage(MRC_CMD_PEER_GET, NLM_F_MULTI);
  KStats(msg.get(), MRC_ATTR_STATS, {{"x", 1}});
  EXPECT_EQ(ParseError(msg.get(), mrc::ParsePeerMessage),
            "the kernel's reply has no PEER attribute");
}

TEST(Parse, MalformedAttributesAreRefused) {
  mrc::MsgPtr msg = KernelMessage(MRC_CMD_PLANE_GET);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] { nla_put_u16(msg.get(), MRC_PLANE_ATTR_ID, 1); });
  EXPECT_EQ(ParseError(msg.get(), mrc::ParsePlaneMessage).rfind("malformed PLANE attributes", 0),
            0U);

  msg = KernelMessage(MRC_CMD_PLANE_GET);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] {
    const std::array<std::uint8_t, 15> short_addr{};
    nla_put(msg.get(), MRC_PLANE_ATTR_ADDR6, short_addr.size(), short_addr.data());
  });
  EXPECT_EQ(ParseError(msg.get(), mrc::ParsePlaneMessage).rfind("malformed PLANE attributes", 0),
            0U);

  msg = KernelMessage(MRC_CMD_PLANE_GET);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] { nla_put(msg.get(), MRC_PLANE_ATTR_IFNAME, 3, "abc"); });
  EXPECT_EQ(ParseError(msg.get(), mrc::ParsePlaneMessage).rfind("malformed PLANE attributes", 0),
            0U);

  msg = KernelMessage(MRC_CMD_PLANE_GET);
  KNest(msg.get(), MRC_ATTR_PLANE, [&] {
    KNest(msg.get(), MRC_PLANE_ATTR_OFFLOAD,
          [&] { nla_put_u16(msg.get(), MRC_OFFLOAD_ATTR_API_VERSION, 1); });
  });
  EXPECT_EQ(ParseError(msg.get(), mrc::ParsePlaneMessage).rfind("malformed OFFLOAD attributes", 0),
            0U);

  msg = KernelMessage(MRC_CMD_PLANE_GET);
  KStats(msg.get(), MRC_ATTR_STATS, {{"x", 1}});
  EXPECT_EQ(ParseError(msg.get(), mrc::ParsePlaneMessage),
            "the kernel's reply has no PLANE attribute");

  msg = KernelMessage(MRC_CMD_STATS_GET);
  KNest(msg.get(), MRC_ATTR_STATS, [&] {
    KNest(msg.get(), MRC_STATS_ATTR_ENTRY,
          [&] { nla_put_string(msg.get(), MRC_STATS_ATTR_NAME, "NoValue"); });
  });
  mrc::StatsReport report;
  EXPECT_EQ(ParseError(msg.get(), [&](nl_msg* m) { mrc::ParseStatsMessage(m, report); }),
            "malformed STATS entry from the kernel: NAME or VALUE missing");
}

}  // namespace
