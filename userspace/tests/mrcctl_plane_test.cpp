// SPDX-License-Identifier: GPL-2.0
// mrcctl plane: grammar, what reaches the kernel, and how planes print.
#include <gtest/gtest.h>
#include <linux/mrc_netlink.h>

#include <cstring>

#include "addresses.hpp"
#include "fake_control.hpp"

namespace {

using mrcctl::kExitKernel;
using mrcctl::kExitOk;
using mrcctl::kExitUsage;

mrc::Plane Veth0() {
  return mrc::Plane{
      .id = 0,
      .ifindex = 4,
      .ifname = "veth0",
      .addr4 = V4("10.0.0.1"),
      .addr6 = V6("fd00::1"),
      .port = 4797,
      .state = mrc::PlaneState::kUp,
      .link = mrc::LinkState::kUp,
      .weight = 100,
      .mtu = 0,
  };
}

mrc::Plane Veth1() {
  return mrc::Plane{
      .id = 3,
      .ifindex = 5,
      .ifname = "veth1",
      .addr4 = V4("10.0.1.1"),
      .port = 4797,
      .state = mrc::PlaneState::kDenied,
      .link = mrc::LinkState::kDown,
      .weight = 1000,
      .mtu = 1500,
  };
}

// veth0 offloaded to mrc_sim.
mrc::Plane OffloadedVeth0() {
  mrc::Plane plane = Veth0();
  plane.offload_mode = mrc::OffloadMode::kAuto;
  plane.offload = mrc::PlaneOffload{
      .state = mrc::OffloadState::kActive,
      .driver = "mrc_sim",
      .api_version = 1,
      .features = MRC_OFFLOAD_F_TX | MRC_OFFLOAD_F_RX | MRC_OFFLOAD_F_ACK_GEN |
                  MRC_OFFLOAD_F_NACK_GEN | MRC_OFFLOAD_F_TRIM,
      .ev_table_size = 256,
      .max_conns = 1024,
      .cc_algos = MRC_OFFLOAD_CC_NSCC,
      .max_segment = 0,
      .conns = 3,
      .stats =
          mrc::Stats{
              {"TxPkts", 10}, {"TxBytes", 12000}, {"RxPkts", 0}, {"RxBytes", 0}, {"Errors", 0}},
  };
  return plane;
}

constexpr const char* kVeth0Text =
    "plane 0 dev veth0 ifindex 4 addr 10.0.0.1 addr6 fd00::1 port 4797 state up link up "
    "weight 100 mtu auto\n";
constexpr const char* kVeth1Text =
    "plane 3 dev veth1 ifindex 5 addr 10.0.1.1 port 4797 state denied link down weight 1000 "
    "mtu 1500\n";

bool Same(const in_addr& a, const in_addr& b) { return a.s_addr == b.s_addr; }
bool Same(const in6_addr& a, const in6_addr& b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

class Plane : public Mrcctl {
 protected:
  void SetUp() override {
    kernel()->planes = {Veth0(), Veth1()};
    kernel()->plane_reply = Veth0();
  }

  // Runs a command that must fail on the command line; returns the
  // error line (the usage follows it).
  std::string UsageError(const std::vector<std::string_view>& args) {
    const Result r = Run(args);
    EXPECT_EQ(r.status, kExitUsage);
    EXPECT_NE(r.err.find("\nUsage: mrcctl plane add dev NAME"), std::string::npos) << r.err;
    EXPECT_TRUE(kernel()->calls.empty());
    EXPECT_TRUE(r.out.empty());
    return FirstLine(r.err);
  }
};

TEST_F(Plane, AddSendsEveryGivenAttribute) {
  const Result r = Run({"plane", "add", "dev", "veth0", "id", "2", "addr", "10.0.0.1", "addr",
                        "fd00::1", "port", "5000", "weight", "7", "mtu", "9000", "state", "down"});
  ASSERT_EQ(r.status, kExitOk) << r.err;
  ASSERT_TRUE(kernel()->plane_sent);
  const mrc::Plane& sent = *kernel()->plane_sent;
  EXPECT_EQ(sent.ifindex, 4U);
  EXPECT_EQ(sent.id, 2U);
  ASSERT_TRUE(sent.addr4 && sent.addr6);
  EXPECT_TRUE(Same(*sent.addr4, V4("10.0.0.1")));
  EXPECT_TRUE(Same(*sent.addr6, V6("fd00::1")));
  EXPECT_EQ(sent.port, 5000);
  EXPECT_EQ(sent.weight, 7U);
  EXPECT_EQ(sent.mtu, 9000U);
  EXPECT_EQ(sent.state, mrc::PlaneState::kDown);
  EXPECT_FALSE(sent.ifname || sent.link || sent.stats);
  EXPECT_EQ(r.out, kVeth0Text);  // the kernel's view of the new plane
}

TEST_F(Plane, AddSendsOnlyWhatWasGiven) {
  ASSERT_EQ(Run({"plane", "add", "dev", "veth1"}).status, kExitOk);
  const mrc::Plane& sent = *kernel()->plane_sent;
  EXPECT_EQ(sent.ifindex, 5U);
  EXPECT_FALSE(sent.id || sent.addr4 || sent.addr6 || sent.port || sent.weight || sent.mtu ||
               sent.state);
}

TEST_F(Plane, KeywordsAndValuesAcceptPrefixes) {
  ASSERT_EQ(Run({"pl", "a", "d", "veth0", "w", "9", "m", "a", "st", "den", "addr6", "::1"}).status,
            kExitOk);
  const mrc::Plane& sent = *kernel()->plane_sent;
  EXPECT_EQ(sent.weight, 9U);
  EXPECT_EQ(sent.mtu, 0U);  // "a" = auto
  EXPECT_EQ(sent.state, mrc::PlaneState::kDenied);
  EXPECT_TRUE(Same(*sent.addr6, V6("::1")));
}

TEST_F(Plane, AddWithoutAReplyPrintsNothing) {
  kernel()->plane_reply.reset();
  const Result r = Run({"plane", "add", "dev", "veth0"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_TRUE(r.out.empty());
}

TEST_F(Plane, UnknownDeviceLikeIp) {
  const Result r = Run({"plane", "add", "dev", "nosuch"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(r.err, "Error: Cannot find device \"nosuch\".\n");
  EXPECT_TRUE(kernel()->calls.empty());
}

TEST_F(Plane, AddErrors) {
  EXPECT_EQ(UsageError({"plane", "add"}), "Error: dev NAME is required.");
  EXPECT_EQ(UsageError({"plane", "add", "addr", "10.0.0.1"}), "Error: dev NAME is required.");
  EXPECT_EQ(UsageError({"plane", "add", "dev"}), "Error: \"dev\" needs a value.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "bogus"}),
            "Error: unknown argument \"bogus\".");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "3"}), "Error: unknown argument \"3\".");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "a", "10.0.0.1"}),
            "Error: argument \"a\" is ambiguous: addr, addr6.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "dev", "veth1"}),
            "Error: duplicate \"dev\".");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "weight", "1", "we", "2"}),
            "Error: duplicate \"weight\".");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "addr", "10.0.0.1", "addr", "10.0.0.2"}),
            "Error: only one IPv4 addr may be given.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "addr", "::1", "addr6", "::2"}),
            "Error: only one IPv6 addr may be given.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "addr", "10.0.0.256"}),
            "Error: addr \"10.0.0.256\" is not an IPv4 or IPv6 address.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "addr6", "10.0.0.1"}),
            "Error: addr6 \"10.0.0.1\" is not an IPv6 address.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "id", "16"}),
            "Error: id 16 is out of range 0..15.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "id", "x"}),
            "Error: id \"x\" is not a number.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "id", "-1"}),
            "Error: id \"-1\" is not a number.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "port", "0"}),
            "Error: port 0 is out of range 1..65535.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "port", "65536"}),
            "Error: port 65536 is out of range 1..65535.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "weight", "1001"}),
            "Error: weight 1001 is out of range 1..1000.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "weight", "99999999999999999999999"}),
            "Error: weight 99999999999999999999999 is out of range 1..1000.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "mtu", "575"}),
            "Error: mtu 575 is out of range 576..65535 (or 0 for auto).");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "mtu", "65536"}),
            "Error: mtu 65536 is out of range 0..65535.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "state", "sideways"}),
            "Error: state \"sideways\" is not one of up, down, denied.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "state", "d"}),
            "Error: state \"d\" is ambiguous: down, denied.");
}

TEST_F(Plane, DelByPositionalIdIdOrDevice) {
  ASSERT_EQ(Run({"plane", "del", "3"}).status, kExitOk);
  EXPECT_EQ(kernel()->id_sent, 3U);
  ASSERT_EQ(Run({"plane", "delete", "id", "7"}).status, kExitOk);
  EXPECT_EQ(kernel()->id_sent, 7U);
  ASSERT_EQ(Run({"plane", "d", "dev", "veth1"}).status, kExitOk);
  EXPECT_EQ(kernel()->id_sent, 3U);  // looked up by ifindex 5
  EXPECT_EQ(kernel()->calls,
            (std::vector<std::string>{"DelPlane", "DelPlane", "DumpPlanes", "DelPlane"}));
}

TEST_F(Plane, DelErrors) {
  EXPECT_EQ(UsageError({"plane", "del"}), "Error: plane ID or dev NAME is required.");
  EXPECT_EQ(UsageError({"plane", "del", "1", "dev", "veth0"}),
            "Error: give either the plane ID or dev NAME, not both.");
  EXPECT_EQ(UsageError({"plane", "del", "1", "2"}), "Error: duplicate \"id\".");
  EXPECT_EQ(UsageError({"plane", "del", "1", "weight", "3"}),
            "Error: unknown argument \"weight\".");
}

TEST_F(Plane, DelOnADeviceWithoutPlaneFails) {
  const Result r = Run({"plane", "del", "dev", "lo"});
  EXPECT_EQ(r.status, kExitKernel);
  EXPECT_EQ(r.err, "Error: no plane on device \"lo\"\n");
}

TEST_F(Plane, SetSendsIdAndChanges) {
  const Result r = Run({"plane", "set", "dev", "veth0", "state", "down", "weight", "50", "mtu",
                        "1400", "port", "4800", "addr", "10.9.9.9"});
  ASSERT_EQ(r.status, kExitOk) << r.err;
  const mrc::Plane& sent = *kernel()->plane_sent;
  EXPECT_EQ(sent.id, 0U);
  EXPECT_FALSE(sent.ifindex);  // SET takes no IFINDEX
  EXPECT_EQ(sent.state, mrc::PlaneState::kDown);
  EXPECT_EQ(sent.weight, 50U);
  EXPECT_EQ(sent.mtu, 1400U);
  EXPECT_EQ(sent.port, 4800);
  EXPECT_TRUE(Same(*sent.addr4, V4("10.9.9.9")));
  EXPECT_FALSE(sent.addr6);
  EXPECT_EQ(r.out, kVeth0Text);
}

TEST_F(Plane, SetByIdNeedsNoLookup) {
  ASSERT_EQ(Run({"plane", "set", "3", "state", "up"}).status, kExitOk);
  EXPECT_EQ(kernel()->calls, std::vector<std::string>{"SetPlane"});
  EXPECT_EQ(kernel()->plane_sent->id, 3U);
}

TEST_F(Plane, SetErrors) {
  EXPECT_EQ(UsageError({"plane", "set", "state", "up"}),
            "Error: plane ID or dev NAME is required.");
  EXPECT_EQ(UsageError({"plane", "set", "1", "weight", "0"}),
            "Error: weight 0 is out of range 1..1000.");
  EXPECT_EQ(UsageError({"plane", "set", "1", "state"}), "Error: \"state\" needs a value.");
}

TEST_F(Plane, AddAndSetSendTheOffloadMode) {
  ASSERT_EQ(Run({"plane", "add", "dev", "veth0", "offload", "on"}).status, kExitOk);
  EXPECT_EQ(kernel()->plane_sent->offload_mode, mrc::OffloadMode::kOn);
  EXPECT_FALSE(kernel()->plane_sent->offload);
  ASSERT_EQ(Run({"plane", "set", "3", "offload", "off"}).status, kExitOk);
  EXPECT_EQ(kernel()->plane_sent->offload_mode, mrc::OffloadMode::kOff);
  ASSERT_EQ(Run({"plane", "set", "dev", "veth1", "of", "a"}).status, kExitOk);
  EXPECT_EQ(kernel()->plane_sent->offload_mode, mrc::OffloadMode::kAuto);
  EXPECT_EQ(kernel()->plane_sent->id, 3U);
  ASSERT_EQ(Run({"plane", "set", "3", "weight", "5"}).status, kExitOk);
  EXPECT_FALSE(kernel()->plane_sent->offload_mode);
}

TEST_F(Plane, OffloadErrors) {
  EXPECT_EQ(UsageError({"plane", "set", "0", "offload", "maybe"}),
            "Error: offload \"maybe\" is not one of on, off, auto.");
  EXPECT_EQ(UsageError({"plane", "set", "0", "offload", "o"}),
            "Error: offload \"o\" is ambiguous: on, off.");
  EXPECT_EQ(UsageError({"plane", "set", "0", "offload"}), "Error: \"offload\" needs a value.");
  EXPECT_EQ(UsageError({"plane", "add", "dev", "veth0", "offload", "on", "offload", "off"}),
            "Error: duplicate \"offload\".");
  EXPECT_EQ(UsageError({"plane", "show", "offload", "on"}), "Error: unknown argument \"offload\".");
}

TEST_F(Plane, UsageNamesTheOffloadModes) {
  const Result r = Run({"plane", "help"});
  EXPECT_NE(r.out.find("[ offload OFFLOAD ]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("OFFLOAD := { on | off | auto }"), std::string::npos) << r.out;
}

TEST_F(Plane, ShowOffloadModeWithoutADriver) {
  mrc::Plane plane = Veth1();
  plane.offload_mode = mrc::OffloadMode::kOff;
  plane.offload = mrc::PlaneOffload{.state = mrc::OffloadState::kNone};
  kernel()->planes = {plane};
  EXPECT_EQ(Run({"plane"}).out,
            "plane 3 dev veth1 ifindex 5 addr 10.0.1.1 port 4797 state denied link down "
            "weight 1000 mtu 1500 offload off\n");
  EXPECT_EQ(Run({"-s", "plane"}).out, Run({"plane"}).out);
  EXPECT_EQ(Run({"-j", "plane"}).out,
            R"([{"id":3,"dev":"veth1","ifindex":5,"addr":"10.0.1.1","port":4797,)"
            R"("state":"denied","link":"down","weight":1000,"mtu":1500,)"
            R"("offload":{"mode":"off","state":"none"}}])"
            "\n");
}

TEST_F(Plane, ShowOffloadDeviceAndItsCounters) {
  kernel()->planes = {OffloadedVeth0()};
  const std::string head =
      "plane 0 dev veth0 ifindex 4 addr 10.0.0.1 addr6 fd00::1 port 4797 state up link up "
      "weight 100 mtu auto offload auto\n"
      "    offload active driver mrc_sim api 1 features tx,rx,ack-gen,nack-gen,trim ev-table 256 "
      "max-conns 1024 cc nscc conns 3\n"
      "        device\n"
      "            TxPkts  10\n"
      "            TxBytes 12000\n";
  EXPECT_EQ(Run({"plane"}).out, head);
  EXPECT_EQ(Run({"-s", "plane"}).out, head +
                                          "            RxPkts  0\n"
                                          "            RxBytes 0\n"
                                          "            Errors  0\n");
}

TEST_F(Plane, ShowOffloadDeviceAsJson) {
  kernel()->planes = {OffloadedVeth0()};
  const std::string plane =
      R"([{"id":0,"dev":"veth0","ifindex":4,"addr":"10.0.0.1","addr6":"fd00::1","port":4797,)"
      R"("state":"up","link":"up","weight":100,"mtu":0,)"
      R"("offload":{"mode":"auto","state":"active","driver":"mrc_sim","api_version":1,)"
      R"("features":["tx","rx","ack-gen","nack-gen","trim"],"ev_table_size":256,)"
      R"("max_conns":1024,"cc_algos":["nscc"],"max_segment":0,"conns":3,)";
  EXPECT_EQ(Run({"-j", "plane"}).out, plane + R"("stats":{"TxPkts":10,"TxBytes":12000}}}])"
                                              "\n");
  EXPECT_EQ(Run({"-j", "-s", "plane"}).out,
            plane + R"("stats":{"TxPkts":10,"TxBytes":12000,"RxPkts":0,"RxBytes":0,"Errors":0}}}])"
                    "\n");
}

TEST_F(Plane, ShowOffloadBeforeThePlaneCounters) {
  mrc::Plane plane = OffloadedVeth0();
  plane.offload->state = mrc::OffloadState::kFailed;
  plane.offload->features = MRC_OFFLOAD_F_SEGMENT | MRC_OFFLOAD_F_IPV6 | (1U << 20);
  plane.offload->cc_algos = 0;
  plane.offload->max_segment = 65536;
  plane.offload->stats = mrc::Stats{{"Errors", 2}};
  plane.stats = mrc::Stats{{"OffloadTxPkts", 0}, {"OffloadErrors", 2}};
  kernel()->planes = {plane};
  const Result r = Run({"plane"});
  EXPECT_EQ(r.out.substr(r.out.find('\n') + 1),
            "    offload failed driver mrc_sim api 1 features segment,ipv6,1048576 ev-table 256 "
            "max-conns 1024 cc none max-segment 65536 conns 3\n"
            "        device\n"
            "            Errors 2\n"
            "    OffloadErrors 2\n");
}

TEST_F(Plane, ShowOffloadDeviceWithoutNonZeroCounters) {
  mrc::Plane plane = OffloadedVeth0();
  plane.offload->stats = mrc::Stats{{"TxPkts", 0}};
  kernel()->planes = {plane};
  const Result r = Run({"plane"});
  EXPECT_EQ(r.out.substr(r.out.find('\n') + 1),
            "    offload active driver mrc_sim api 1 features tx,rx,ack-gen,nack-gen,trim "
            "ev-table 256 max-conns 1024 cc nscc conns 3\n");
}

TEST_F(Plane, ShowIsTheDefaultCommand) {
  for (const auto& args :
       {std::vector<std::string_view>{"plane"}, std::vector<std::string_view>{"plane", "show"},
        std::vector<std::string_view>{"plane", "list"},
        std::vector<std::string_view>{"pl", "sh"}}) {
    const Result r = Run(args);
    EXPECT_EQ(r.status, kExitOk);
    EXPECT_EQ(r.out, std::string(kVeth0Text) + kVeth1Text);
  }
}

TEST_F(Plane, ShowOneByIdOrDevice) {
  Result r = Run({"plane", "show", "3"});
  EXPECT_EQ(r.out, kVeth1Text);
  EXPECT_EQ(kernel()->calls.back(), "GetPlane");
  r = Run({"plane", "show", "id", "0"});
  EXPECT_EQ(r.out, kVeth0Text);
  r = Run({"plane", "show", "dev", "veth1"});
  EXPECT_EQ(r.out, kVeth1Text);
  EXPECT_EQ(kernel()->calls.back(), "DumpPlanes");
  r = Run({"plane", "show", "dev", "lo"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_TRUE(r.out.empty());
}

TEST_F(Plane, ShowJsonUsesCliKeywords) {
  const Result r = Run({"-j", "plane", "show"});
  ASSERT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out, R"([{"id":0,"dev":"veth0","ifindex":4,"addr":"10.0.0.1","addr6":"fd00::1",)"
                   R"("port":4797,"state":"up","link":"up","weight":100,"mtu":0},)"
                   R"({"id":3,"dev":"veth1","ifindex":5,"addr":"10.0.1.1","port":4797,)"
                   R"("state":"denied","link":"down","weight":1000,"mtu":1500}])"
                   "\n");
}

TEST_F(Plane, ShowJsonOfNothingIsAnEmptyArray) {
  kernel()->planes.clear();
  EXPECT_EQ(Run({"-j", "plane"}).out, "[]\n");
  EXPECT_EQ(Run({"plane"}).out, "");
}

TEST_F(Plane, UnknownStateValuesPrintAsNumbers) {
  mrc::Plane odd = Veth1();
  odd.state = static_cast<mrc::PlaneState>(9);
  kernel()->planes = {odd};
  EXPECT_NE(Run({"plane"}).out.find(" state 9 "), std::string::npos);
}

}  // namespace
