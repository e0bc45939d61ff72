// SPDX-License-Identifier: GPL-2.0
// Planes as paths: room in a plane's window, and the plane a packet goes
// to (earliest expected completion).
#include <array>
#include <memory>

#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

namespace mrc_test {
namespace {

constexpr uint32_t kMss = 1000;

// An environment of nothing but a tx_busy op: ctx is the busy planes' mask.
bool MaskBusy(void* ctx, uint32_t plane) {
  return (*static_cast<uint32_t*>(ctx) & (1U << plane)) != 0;
}
const mrc_core_env_ops kBusyOps = [] {
  mrc_core_env_ops ops{};
  ops.tx_busy = MaskBusy;
  return ops;
}();
const mrc_core_env_ops kNoOps = {};

// A core with the path table of every plane id (mrc_core_create() makes
// it, sized by the planes in use).
struct PathCore : mrc_core {
  std::array<mrc_path, MRC_WIRE_MAX_PLANES> slots{};
};

// A core with only what path.c reads: planes 0..n-1 usable, each with a
// window of `cwnd` bytes and a round trip of `rtt` us.
std::unique_ptr<PathCore> Paths(uint32_t n, uint32_t cwnd, uint32_t rtt) {
  auto core = std::make_unique<PathCore>();
  core->paths = core->slots.data();
  core->plane_slots = MRC_WIRE_MAX_PLANES;
  core->env.ops = &kNoOps;
  core->mss = kMss;
  for (uint32_t p = 0; p < n; p++) {
    core->usable |= 1U << p;
    core->paths[p].win.cwnd = cwnd;
    core->paths[p].srtt_us = rtt;
  }
  return core;
}

// `n` packets of an MSS, each to the plane mrc_path_pick() names, which
// then has it in flight: how many each of planes 0..3 got.
std::array<uint32_t, 4> Send(mrc_core* core, uint32_t mask, int n) {
  std::array<uint32_t, 4> sent{};
  for (int i = 0; i < n; i++) {
    const int p = mrc_path_pick(core, mask, kMss, false);
    EXPECT_GE(p, 0);
    if (p < 0) break;
    core->paths[p].inflight += kMss;
    sent.at(static_cast<size_t>(p))++;
  }
  return sent;
}

TEST(CorePath, RoomAllowsLessThanAnMssOver) {
  auto core = Paths(1, 10 * kMss, 100);
  core->paths[0].inflight = 9 * kMss + 500;
  EXPECT_TRUE(mrc_path_room(core.get(), 0, kMss));  // 500 over
  core->paths[0].inflight = 10 * kMss;
  EXPECT_FALSE(mrc_path_room(core.get(), 0, kMss));  // a whole MSS over
  // A train of 4 fits only where 4 packets (less an MSS) of room are.
  core->paths[0].inflight = 7 * kMss;
  EXPECT_FALSE(mrc_path_room(core.get(), 0, 4 * kMss));
  core->paths[0].inflight = 6 * kMss + 1;
  EXPECT_TRUE(mrc_path_room(core.get(), 0, 4 * kMss));
}

// A plane whose local queue is full (tx_busy) has no room, however open
// its window; a forced send (the RTO's) still goes.
TEST(CorePath, BusyLocalQueueLeavesNoRoom) {
  auto core = Paths(2, 10 * kMss, 100);
  uint32_t busy = 1U << 0;
  core->env = mrc_core_env{&kBusyOps, &busy};
  EXPECT_FALSE(mrc_path_room(core.get(), 0, kMss));
  EXPECT_TRUE(mrc_path_room(core.get(), 1, kMss));
  EXPECT_EQ(Send(core.get(), 0x3, 5)[1], 5U);
  busy = 0x3;
  EXPECT_EQ(mrc_path_pick(core.get(), 0x3, kMss, false), -1);
  EXPECT_GE(mrc_path_pick(core.get(), 0x3, kMss, true), 0);
  busy = 0;
  EXPECT_EQ(mrc_path_pick(core.get(), 0x3, kMss, false), 0);
}

TEST(CorePath, EqualPlanesTakeTurns) {
  auto core = Paths(4, 10 * kMss, 100);
  for (const uint32_t n : Send(core.get(), 0xf, 40)) EXPECT_EQ(n, 10U);
  // Every window full: no plane has room, unless forced.
  EXPECT_EQ(mrc_path_pick(core.get(), 0xf, kMss, false), -1);
  EXPECT_GE(mrc_path_pick(core.get(), 0xf, kMss, true), 0);
}

// A plane with a quarter of the window at the same RTT delivers a
// quarter as fast: it gets a quarter as many of the packets.
TEST(CorePath, ShareFollowsWindowOverRtt) {
  auto core = Paths(2, 40 * kMss, 100);
  core->paths[1].win.cwnd = 10 * kMss;
  std::array<uint32_t, 4> sent = Send(core.get(), 0x3, 50);
  EXPECT_EQ(sent[0], 40U);
  EXPECT_EQ(sent[1], 10U);
  // The same windows, but plane 1's round trip is four times longer
  // (its queue): it gets a sixteenth.
  core = Paths(2, 40 * kMss, 100);
  core->paths[1].win.cwnd = 10 * kMss;
  core->paths[1].srtt_us = 400;
  sent = Send(core.get(), 0x3, 34);
  EXPECT_EQ(sent[0], 32U);
  EXPECT_EQ(sent[1], 2U);
}

// The administrator's weights scale the window each plane may fill
// against the heaviest usable plane's: equal windows at weights 100 and
// 50 carry 2:1, and a plane of weight 1 keeps one packet in flight.
TEST(CorePath, WeightsScaleTheWindows) {
  auto core = Paths(2, 40 * kMss, 100);
  mrc_core_plane_weight(core.get(), 0, 100);
  mrc_core_plane_weight(core.get(), 1, 50);
  std::array<uint32_t, 4> sent = Send(core.get(), 0x3, 60);
  EXPECT_EQ(sent[0], 40U);
  EXPECT_EQ(sent[1], 20U);
  EXPECT_EQ(mrc_path_pick(core.get(), 0x3, kMss, false), -1);
  EXPECT_EQ(mrc_path_cwnd(core.get()), 60 * kMss);
  core = Paths(2, 10 * kMss, 100);
  mrc_core_plane_weight(core.get(), 1, 1);
  sent = Send(core.get(), 0x3, 11);
  EXPECT_EQ(sent[0], 10U);
  EXPECT_EQ(sent[1], 1U);
  // Plane 0 no longer usable: plane 1 is the heaviest, its whole window.
  core->usable = 0x2;
  mrc_path_weigh(core.get());
  EXPECT_EQ(mrc_path_wnd(core.get(), 1), 10 * kMss);
  // 0 is the default, and nothing goes above the maximum.
  mrc_core_plane_weight(core.get(), 1, 0);
  EXPECT_EQ(core->paths[1].weight, MRC_PLANE_WEIGHT_DEFAULT);
  mrc_core_plane_weight(core.get(), 1, 5000);
  EXPECT_EQ(core->paths[1].weight, MRC_PLANE_WEIGHT_MAX);
}

// Where every packet is acknowledged before the next goes out (a
// receiver whose CPU sets the pace serves each plane in turn), windows
// never fill and hold no plane to its weight: the share of the recent
// packets does. Plane 0 at weight 1 beside plane 1 at 100 would win
// every tie (the lowest id); it gets about its hundred-and-first.
TEST(CorePath, ALightPlaneKeepsToItsShare) {
  auto core = Paths(2, 100 * kMss, 100);
  mrc_core_plane_weight(core.get(), 0, 1);
  mrc_core_plane_weight(core.get(), 1, 100);
  std::array<uint32_t, 2> sent{};
  mrc_seg seg{};
  seg.len = kMss;
  for (int i = 0; i < 10100; i++) {
    const int p = mrc_path_pick(core.get(), 0x3, kMss, false);
    ASSERT_GE(p, 0);
    seg.plane = static_cast<uint8_t>(p);
    mrc_path_sent(core.get(), &seg);
    mrc_path_unsent(core.get(), &seg);
    sent.at(static_cast<size_t>(p))++;
  }
  EXPECT_GE(sent[0], 50U);
  EXPECT_LE(sent[0], 200U);
  // Alone with room, a plane past its share still carries the packet.
  core->paths[1].inflight = 200 * kMss;
  EXPECT_EQ(mrc_path_pick(core.get(), 0x3, kMss, false), 0);
  // Equal weights: no plane is past its share, the lowest id wins ties.
  mrc_core_plane_weight(core.get(), 0, 100);
  core->paths[1].inflight = 0;
  EXPECT_EQ(mrc_path_pick(core.get(), 0x3, kMss, false), 0);
}

TEST(CorePath, MaskAndWindowsAreHonoured) {
  auto core = Paths(3, 10 * kMss, 100);
  EXPECT_EQ(mrc_path_pick(core.get(), 0x4, kMss, false), 2);
  EXPECT_EQ(mrc_path_pick(core.get(), 0x0, kMss, false), -1);
  core->paths[0].inflight = 10 * kMss;
  EXPECT_EQ(mrc_path_pick(core.get(), 0x3, kMss, false), 1);
  // The connection's window: its usable planes' together.
  EXPECT_EQ(mrc_path_cwnd(core.get()), 30 * kMss);
  core->usable = 0x1;
  EXPECT_EQ(mrc_path_cwnd(core.get()), 10 * kMss);
}

}  // namespace
}  // namespace mrc_test
