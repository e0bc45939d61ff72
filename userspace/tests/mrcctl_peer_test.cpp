// SPDX-License-Identifier: GPL-2.0
// mrcctl peer: the peer table, from PEER_GET messages laid out as mrc.ko
// writes them to text and JSON; its grammar.
#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fake_control.hpp"
#include "kernel_messages.hpp"

namespace {

using mrcctl::kExitKernel;
using mrcctl::kExitOk;
using mrcctl::kExitUsage;

// Held by 3 connections over planes 0 and 1, two EVs found bad.
KernelPeer HeldPeer() {
  return KernelPeer{
      .addrs = {"10.0.0.2", "10.1.0.2"},
      .conns = 3,
      .evs = 128,
      .planes = 0b11,
      .bad_evs = {{.ev = 40123, .plane = 1, .state = MRC_EV_ASSUMED_BAD},
                  {.ev = 7, .plane = 0, .state = MRC_EV_ASSUMED_BAD}},
  };
}

// No connection holds it: it lingers, and its first connection learned
// nothing.
KernelPeer IdlePeer() { return KernelPeer{.addrs = {"10.0.0.3"}, .idle_ms = 1234}; }

KernelPeer Ipv6Peer() {
  return KernelPeer{.addrs = {"fd00::2", "fd00:1::2"}, .conns = 1, .evs = 64, .planes = 0b101};
}

class Peer : public Mrcctl {
 protected:
  void Answer(const std::vector<KernelPeer>& peers) {
    for (const KernelPeer& peer : peers) {
      kernel()->peer_messages.push_back(KPeerMessage(peer));
    }
  }

  // The first line of stderr of a usage error, after checking it is one.
  std::string UsageError(const std::vector<std::string_view>& args) {
    const Result r = Run(args);
    EXPECT_EQ(r.status, kExitUsage);
    EXPECT_NE(r.err.find("\nUsage: mrcctl peer show\n"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_TRUE(kernel()->calls.empty());
    return FirstLine(r.err);
  }
};

TEST_F(Peer, TextIsOneBlockPerPeerWithItsBadEvsIndented) {
  Answer({HeldPeer()});
  const Result r = Run({"peer", "show"});
  EXPECT_EQ(r.status, kExitOk) << r.err;
  EXPECT_EQ(r.out,
            "peer 10.0.0.2 10.1.0.2 conns 3 evs 128 planes 0,1 bad 2\n"
            "    ev 40123 plane 1 assumed-bad\n"
            "    ev 7 plane 0 assumed-bad\n");
  EXPECT_TRUE(r.err.empty());
  EXPECT_EQ(kernel()->calls, std::vector<std::string>{"DumpPeers"});
}

TEST_F(Peer, IdleEntryShowsItsIdleTimeInsteadOfConns) {
  Answer({IdlePeer()});
  EXPECT_EQ(Run({"peer"}).out, "peer 10.0.0.3 idle 1234ms evs 0 planes none bad 0\n");
  EXPECT_EQ(Run({"-j", "peer"}).out,
            R"([{"addrs":["10.0.0.3"],"conns":0,"idle_ms":1234,"evs":0,"planes":[],)"
            R"("evs_bad":0,"bad_evs":[]}])"
            "\n");
}

TEST_F(Peer, Ipv6Addresses) {
  Answer({Ipv6Peer()});
  EXPECT_EQ(Run({"peer"}).out, "peer fd00::2 fd00:1::2 conns 1 evs 64 planes 0,2 bad 0\n");
  EXPECT_EQ(Run({"-j", "peer"}).out,
            R"([{"addrs":["fd00::2","fd00:1::2"],"conns":1,"evs":64,"planes":[0,2],)"
            R"("evs_bad":0,"bad_evs":[]}])"
            "\n");
}

TEST_F(Peer, EveryPeerInTheKernelsOrder) {
  Answer({HeldPeer(), IdlePeer(), Ipv6Peer()});
  const Result r = Run({"peer", "show"});
  EXPECT_EQ(r.out,
            "peer 10.0.0.2 10.1.0.2 conns 3 evs 128 planes 0,1 bad 2\n"
            "    ev 40123 plane 1 assumed-bad\n"
            "    ev 7 plane 0 assumed-bad\n"
            "peer 10.0.0.3 idle 1234ms evs 0 planes none bad 0\n"
            "peer fd00::2 fd00:1::2 conns 1 evs 64 planes 0,2 bad 0\n");
}

TEST_F(Peer, JsonIsAnArrayOfObjects) {
  Answer({HeldPeer(), IdlePeer()});
  const Result r = Run({"-j", "peer", "show"});
  EXPECT_EQ(r.status, kExitOk) << r.err;
  EXPECT_EQ(r.out, R"([{"addrs":["10.0.0.2","10.1.0.2"],"conns":3,"evs":128,"planes":[0,1],)"
                   R"("evs_bad":2,"bad_evs":[{"ev":40123,"plane":1,"state":"assumed-bad"},)"
                   R"({"ev":7,"plane":0,"state":"assumed-bad"}]},)"
                   R"({"addrs":["10.0.0.3"],"conns":0,"idle_ms":1234,"evs":0,"planes":[],)"
                   R"("evs_bad":0,"bad_evs":[]}])"
                   "\n");
  EXPECT_TRUE(nlohmann::json::accept(r.out));
}

TEST_F(Peer, PrettyJsonIsIndented) {
  Answer({Ipv6Peer()});
  EXPECT_EQ(Run({"-j", "-p", "peer"}).out,
            "[\n"
            "    {\n"
            "        \"addrs\": [\n"
            "            \"fd00::2\",\n"
            "            \"fd00:1::2\"\n"
            "        ],\n"
            "        \"conns\": 1,\n"
            "        \"evs\": 64,\n"
            "        \"planes\": [\n"
            "            0,\n"
            "            2\n"
            "        ],\n"
            "        \"evs_bad\": 0,\n"
            "        \"bad_evs\": []\n"
            "    }\n"
            "]\n");
}

// A later kernel may report other states: each is named as everywhere.
TEST_F(Peer, BadEvStatesAreNamed) {
  KernelPeer peer = IdlePeer();
  peer.bad_evs = {{.ev = 9, .plane = 2, .state = MRC_EV_DENIED},
                  {.ev = 10, .plane = 2, .state = 200}};
  Answer({peer});
  EXPECT_EQ(Run({"peer"}).out,
            "peer 10.0.0.3 idle 1234ms evs 0 planes none bad 2\n"
            "    ev 9 plane 2 denied\n"
            "    ev 10 plane 2 200\n");
}

TEST_F(Peer, EmptyTablePrintsNothingOrAnEmptyArray) {
  Result r = Run({"peer", "show"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  r = Run({"-j", "peer", "show"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out, "[]\n");
  EXPECT_EQ(Run({"-j", "-p", "peer"}).out, "[]\n");
  EXPECT_EQ(kernel()->calls, (std::vector<std::string>{"DumpPeers", "DumpPeers", "DumpPeers"}));
}

TEST_F(Peer, ListAliasAndPrefixesShowToo) {
  Answer({IdlePeer()});
  const std::string want = "peer 10.0.0.3 idle 1234ms evs 0 planes none bad 0\n";
  for (const std::vector<std::string_view>& args : std::vector<std::vector<std::string_view>>{
           {"peer"}, {"peer", "list"}, {"pe", "sh"}, {"peer", "l"}, {"peer", "s"}}) {
    const Result r = Run(args);
    EXPECT_EQ(r.status, kExitOk) << args.front() << " " << args.back();
    EXPECT_EQ(r.out, want) << args.front() << " " << args.back();
  }
}

// A BAD_EVS whose length is no multiple of struct mrc_peer_ev: refused
// with the reason, nothing printed, not read past.
TEST_F(Peer, MalformedBadEvsIsRefused) {
  Answer({HeldPeer()});
  mrc::MsgPtr msg = KernelMessage(MRC_CMD_PEER_GET, NLM_F_MULTI);
  KNest(msg.get(), MRC_ATTR_PEER, [&] {
    nla_put_u32(msg.get(), MRC_PEER_ATTR_ADDR4, V4("10.0.0.9").s_addr);
    nla_put_u32(msg.get(), MRC_PEER_ATTR_CONNS, 1);
    nla_put_u32(msg.get(), MRC_PEER_ATTR_EVS_BAD, 1);
    const std::array<std::uint8_t, 6> six{1, 2, 3, 4, 5, 6};
    nla_put(msg.get(), MRC_PEER_ATTR_BAD_EVS, six.size(), six.data());
  });
  kernel()->peer_messages.push_back(std::move(msg));
  for (const char* option : {"-s", "-j"}) {
    const Result r = Run({option, "peer"});
    EXPECT_EQ(r.status, kExitKernel);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err,
              "Error: malformed PEER attributes from the kernel: BAD_EVS is 6 bytes, not a "
              "multiple of 4\n");
  }
}

TEST_F(Peer, HelpIsOnStdout) {
  const Result r = Run({"peer", "help"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out,
            "Usage: mrcctl peer show\n"
            "       mrcctl peer help\n"
            "       (empty unless sysctl net.mrc.peer_paths is 1)\n");
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(kernel()->calls.empty());
}

TEST_F(Peer, ExtraArgumentsAreUsageErrors) {
  EXPECT_EQ(UsageError({"peer", "show", "10.0.0.2"}), "Error: unknown argument \"10.0.0.2\".");
  EXPECT_EQ(UsageError({"peer", "list", "id", "1"}), "Error: unknown argument \"id\".");
  EXPECT_EQ(UsageError({"peer", "help", "show"}), "Error: unknown argument \"show\".");
  EXPECT_EQ(UsageError({"-j", "peer", "show", "x"}), "Error: unknown argument \"x\".");
}

TEST_F(Peer, UnknownCommandIsNamed) {
  const Result r = Run({"peer", "del"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(r.err, "Command \"del\" is unknown, try \"mrcctl peer help\".\n");
  EXPECT_TRUE(kernel()->calls.empty());
}

TEST_F(Peer, CommandLineIsCheckedBeforeTheKernel) {
  kernel()->missing = true;
  EXPECT_EQ(Run({"peer", "show", "x"}).status, kExitUsage);
  const Result r = Run({"peer"});
  EXPECT_EQ(r.status, kExitKernel);
  EXPECT_EQ(r.err, "Error: mrc.ko is not loaded: generic netlink family \"mrc\" not found\n");
}

TEST_F(Peer, KernelRefusalIsAKernelFailure) {
  kernel()->refuse = mrc::KernelError(EOPNOTSUPP, "");
  const Result r = Run({"peer"});
  EXPECT_EQ(r.status, kExitKernel);
  EXPECT_EQ(r.err, "Error: Operation not supported\n");
}

TEST_F(Mrcctl, PeerIsAnObjectOfTheMainUsage) {
  const Result r = Run({"help"});
  EXPECT_NE(r.out.find("| path | peer |"), std::string::npos) << r.out;
  EXPECT_EQ(Run({"p"}).err,
            "Object \"p\" is ambiguous (plane, path, peer), try \"mrcctl help\".\n");
}

}  // namespace
