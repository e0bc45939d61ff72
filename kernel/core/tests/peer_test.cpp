// SPDX-License-Identifier: GPL-2.0
// What one connection learned of the paths to its peer, handed to the
// next one (peer.c): the same EV values, the EVs found dead avoided from
// the first packet on, and only where the planes are the same.
#include <set>
#include <utility>

#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

using Path = std::pair<uint32_t, uint32_t>;  // (plane, EV value)

// a's DATA and SYNs on `dead` vanish, as behind a dead spine link; the
// packets that vanished are counted by type.
struct DeadPaths {
  std::set<Path> dead;
  const std::set<Path>* learned = nullptr;
  std::map<uint8_t, uint64_t> lost;          // by packet type
  std::map<uint8_t, uint64_t> lost_learned;  // of those, on `learned`
  void Install(Net& net) {
    net.filter = [this](int from, uint32_t plane, const mrc_pkt& p) {
      if (from != 0 || dead.count({plane, p.ev}) == 0) return false;
      lost[p.type]++;
      if (learned != nullptr && learned->count({plane, p.ev}) != 0) lost_learned[p.type]++;
      return true;
    };
  }
};

// A first connection over 2 planes, every 4th of its EVs dead (a's
// side), sends 8 MB; `pp` gets what it learned, and `dp` which of the
// dead paths it learned of (a dead EV it never tried is not known).
void LearnDeadPaths(mrc_core_peer_paths& pp, DeadPaths& dp, std::set<Path>& learned) {
  Net net;
  net.Setup(2);
  Establish(net);
  for (uint32_t i = 0; i < mrc_core_ev_count(net.a.core); i += 4)
    dp.dead.insert({net.a.Ev(i).plane, net.a.Ev(i).value});
  dp.Install(net);
  net.a.to_send = 8000000;
  ASSERT_TRUE(Drain(net));
  mrc_core_peer_paths_learn(net.a.core, &pp);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < pp.nevs; i++) {
    if (((pp.bad[i / 64] >> (i % 64)) & 1) == 0) continue;
    bad++;
    const Path path{net.a.Ev(i).plane, pp.evs[i]};
    EXPECT_EQ(dp.dead.count(path), 1U) << "EV " << i << " called bad on a live path";
    learned.insert(path);
  }
  ASSERT_GT(bad, 0U) << "the first connection found no dead EV";
  dp.lost.clear();
}

// Early data to a known peer: the first flight, sent before the SYN_ACK,
// already keeps off the EVs an earlier connection found dead; and a
// connection that never got its SYN_ACK teaches the table nothing.
TEST(CorePeerPaths, FirstFlightAvoidsWhatAnEarlierConnectionLearned) {
  mrc_core_peer_paths pp{};
  DeadPaths dp;
  std::set<Path> learned;
  LearnDeadPaths(pp, dp, learned);

  Net net;
  net.Setup(2);
  net.a.cfg.peer_paths = &pp;
  net.a.cfg.early_data = 64 * 1024;
  net.a.to_send = 12000;
  dp.learned = &learned;
  dp.Install(net);
  uint64_t early_pkts = 0;
  auto dead_filter = net.filter;
  net.filter = [&](int from, uint32_t plane, const mrc_pkt& p) {
    if (from == 0 && p.type == MRC_PKT_DATA && (p.flags & MRC_F_EARLY) != 0) early_pkts++;
    return dead_filter(from, plane, p);
  };
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == 12000; }, net.now + kSec));
  EXPECT_GE(early_pkts, 8U);
  EXPECT_EQ(dp.lost_learned[MRC_PKT_DATA], 0U) << "DATA into a path known dead";
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, 12000));

  Net refused;
  refused.Setup(2);
  refused.server_listening = false;
  refused.a.cfg.early_data = 64 * 1024;
  refused.a.to_send = 12000;
  refused.Connect();
  ASSERT_TRUE(refused.RunUntil([&] { return refused.a.error != 0; }, refused.now + kSec));
  const mrc_core_peer_paths before = pp;
  mrc_core_peer_paths_learn(refused.a.core, &pp);
  EXPECT_EQ(std::memcmp(&before, &pp, sizeof(pp)), 0);
}

TEST(CorePeerPaths, LearnRecordsValuesPlanesAndBadEvs) {
  Net net;
  net.Setup(2);
  mrc_core_peer_paths pp{};
  net.Connect();
  mrc_core_peer_paths_learn(net.a.core, &pp);
  EXPECT_EQ(pp.nevs, 0U) << "learned before the handshake named the planes";
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  ASSERT_EQ(mrc_core_ev_set_state(net.a.core, 5, MRC_EV_DENIED), 0);
  mrc_ev_set(net.a.core, 9, MRC_EV_ASSUMED_BAD);
  mrc_core_peer_paths_learn(net.a.core, &pp);
  ASSERT_EQ(pp.nevs, mrc_core_ev_count(net.a.core));
  EXPECT_EQ(pp.planes, 3U);
  for (uint32_t i = 0; i < pp.nevs; i++) {
    EXPECT_EQ(pp.evs[i], net.a.Ev(i).value);
    EXPECT_EQ((pp.bad[i / 64] >> (i % 64)) & 1, i == 9 ? 1U : 0U) << "EV " << i;
  }
  // An EV's note that changes nothing of it leaves the report alone;
  // one that does rewrites it whole.
  mrc_ev_set(net.a.core, 12, MRC_EV_ASSUMED_BAD);
  mrc_core_peer_paths_learn_ev(net.a.core, &pp, 9);
  EXPECT_EQ(pp.bad[0], 1ULL << 9) << "EV 9's note, which changed nothing, rewrote the report";
  mrc_ev_set(net.a.core, 9, MRC_EV_GOOD);
  mrc_core_peer_paths_learn_ev(net.a.core, &pp, 9);
  EXPECT_EQ(pp.bad[0], 1ULL << 12);
  // A report that is another connection's is replaced whole.
  mrc_core_peer_paths other = pp;
  other.ev_seed ^= 1;
  other.evs[0] ^= 1;
  other.bad[1] = 1;
  mrc_core_peer_paths_learn_ev(net.a.core, &other, 3);
  EXPECT_EQ(other.ev_seed, pp.ev_seed);
  EXPECT_EQ(other.evs[0], pp.evs[0]);
  EXPECT_EQ(other.bad[0], 1ULL << 12);
  EXPECT_EQ(other.bad[1], 0U);
}

// A connection after it, with the same values, over the same dead
// paths: 1 MB, and what it lost there (`seeded`: given `pp`).
DeadPaths NextConnection(const mrc_core_peer_paths& pp, const DeadPaths& first,
                         const std::set<Path>& learned, bool seeded) {
  DeadPaths dp;
  dp.dead = first.dead;
  dp.learned = &learned;
  Net net;
  net.Setup(2);
  if (seeded) {
    net.a.cfg.peer_paths = &pp;
  } else {
    net.a.cfg.evs = pp.evs;  // the same paths, no states
    net.a.cfg.nevs = pp.nevs;
  }
  dp.Install(net);
  Establish(net);
  for (uint32_t i = 0; i < pp.nevs; i++) {
    EXPECT_EQ(net.a.Ev(i).value, pp.evs[i]);
    const bool was_bad = ((pp.bad[i / 64] >> (i % 64)) & 1) != 0;
    EXPECT_EQ(net.a.Ev(i).state == MRC_EV_ASSUMED_BAD, seeded && was_bad) << "EV " << i;
  }
  net.a.to_send = 1000000;
  EXPECT_TRUE(Drain(net));
  EXPECT_EQ(net.b.rx.size(), net.a.to_send);
  return dp;
}

// The next connection takes the values, starts with the dead EVs learned
// of ASSUMED_BAD, and sends neither its SYN nor any DATA into them;
// without the seed the same connection loses DATA there.
TEST(CorePeerPaths, NextConnectionSendsNothingIntoKnownDeadPaths) {
  mrc_core_peer_paths pp{};
  DeadPaths first;
  std::set<Path> learned;
  LearnDeadPaths(pp, first, learned);
  DeadPaths with = NextConnection(pp, first, learned, true);
  DeadPaths without = NextConnection(pp, first, learned, false);
  EXPECT_EQ(with.lost_learned[MRC_PKT_SYN], 0U);
  EXPECT_EQ(with.lost_learned[MRC_PKT_DATA], 0U);
  EXPECT_GT(without.lost_learned[MRC_PKT_DATA], 0U);
  EXPECT_LT(with.lost[MRC_PKT_DATA], without.lost[MRC_PKT_DATA]);
}

// States learned over other planes say nothing of these: a connection
// with 3 planes takes the values but starts with every EV GOOD.
TEST(CorePeerPaths, OtherPlanesTakeNoState) {
  mrc_core_peer_paths pp{};
  DeadPaths dp;
  std::set<Path> learned;
  LearnDeadPaths(pp, dp, learned);
  Net net;
  net.Setup(3);
  net.a.cfg.peer_paths = &pp;
  Establish(net);
  for (uint32_t i = 0; i < pp.nevs; i++) {
    EXPECT_EQ(net.a.Ev(i).value, pp.evs[i]);
    EXPECT_EQ(net.a.Ev(i).state, MRC_EV_GOOD) << "EV " << i;
  }
}

// A seed that calls every EV bad leaves ev_min_active of them GOOD, and
// one for another EV count is not taken at all.
TEST(CorePeerPaths, SeedKeepsEvMinActiveAndMatchesTheCount) {
  Net first;
  first.Setup(2);
  Establish(first);
  mrc_core_peer_paths pp{};
  mrc_core_peer_paths_learn(first.a.core, &pp);
  for (uint64_t& w : pp.bad) w = ~0ULL;
  Net net;
  net.Setup(2);
  net.a.cfg.peer_paths = &pp;
  net.a.cfg.ev_min_active = 16;
  Establish(net);
  uint32_t good = 0;
  for (uint32_t i = 0; i < pp.nevs; i++) good += net.a.Ev(i).state == MRC_EV_GOOD ? 1 : 0;
  EXPECT_EQ(good, 16U);
  Net other;
  other.Setup(2);
  other.a.cfg.peer_paths = &pp;
  other.a.cfg.ev_count = 64;
  other.a.rng.seed(99);  // not the values the first connection drew
  Establish(other);
  EXPECT_NE(other.a.Ev(0).value, pp.evs[0]);
  for (uint32_t i = 0; i < 64; i++) EXPECT_EQ(other.a.Ev(i).state, MRC_EV_GOOD);
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
