// SPDX-License-Identifier: GPL-2.0
// A fake world for the protocol core (kernel/core/): two endpoints, each a
// struct mrc_core behind a recording environment, joined by a simulated
// multi-plane network controlled packet by packet (per-plane delay,
// jitter/reordering, seeded loss, duplication, plane down, black-holed EVs,
// arbitrary filters) and a fake clock that fires each core's one timer.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include <linux/mrc_netlink.h>

#include "mrc_core.h"
}

// struct mrc_pkt is the C union the kernel shares; its members are the API.
// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {

using Bytes = std::vector<uint8_t>;

// Deterministic pseudo-random payload: byte `i` of stream `seed`.
inline uint8_t PatternByte(uint64_t seed, uint64_t i) {
  uint64_t x = (i + seed * 0x9e3779b97f4a7c15ULL) * 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 31;
  return static_cast<uint8_t>(x ^ (x >> 17));
}

inline Bytes Pattern(uint64_t seed, size_t n, size_t from = 0) {
  Bytes b(n);
  for (size_t i = 0; i < n; i++) b[i] = PatternByte(seed, from + i);
  return b;
}

struct PlaneCfg {
  uint64_t delay_us = 50;
  uint64_t jitter_us = 0;  // extra uniform delay: reordering
  double loss = 0;
  double dup = 0;
  double ce = 0;      // probability DATA arrives CE-marked
  uint64_t rate = 0;  // bytes per microsecond each way (0: unlimited)
  bool up = true;
  std::set<uint32_t> blackhole_evs;  // EVs (UDP source ports) dropped
};

class Net;

// One side of the connection and everything the core told it.
class Endpoint {
 public:
  Endpoint(Net* net, int id) : net_(net), id_(id) {}
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;
  Endpoint(Endpoint&&) = delete;
  Endpoint& operator=(Endpoint&&) = delete;
  ~Endpoint() { Destroy(); }

  void Destroy() {
    if (core != nullptr) mrc_core_destroy(core);
    core = nullptr;
    ExpectNoHandles();
    EXPECT_LE(max_clock_reads_per_call, 1U) << "a call into the core read the clock more than once";
  }

  mrc_core_cfg cfg{};
  mrc_core* core = nullptr;
  uint64_t timer_when = 0;
  // Clock reads, and the most any one call into the core made (<= 1).
  // Stats() reads the clock too (a stall in progress) and is left out:
  // it is a query, and tests call it inside a call (from filters).
  mutable uint64_t clock_reads = 0;
  uint64_t max_clock_reads_per_call = 0;
  // Note the reads of the call that began at `before`.
  void EndCall(uint64_t before) {
    max_clock_reads_per_call = std::max(max_clock_reads_per_call, clock_reads - before);
  }

  // Application receive side.
  Bytes rx;
  std::vector<Bytes> messages;  // seqpacket: completed messages
  Bytes partial;                // seqpacket: message being assembled
  size_t app_cap = SIZE_MAX;    // unread bytes the app can hold
  size_t unread = 0;
  bool auto_read = true;  // the app reads (and reports space) at once
  uint64_t refused = 0;

  // Application send side: a pattern stream of `to_send` bytes.
  uint64_t seed = 1;
  size_t to_send = 0;
  size_t sent = 0;
  bool close_when_sent = false;
  bool closed = false;
  size_t msg_size = 0;  // seqpacket message size (0: stream)

  std::vector<std::pair<mrc_core_note, uint32_t>> notes;
  int error = 0;
  bool established = false, peer_fin = false, done = false;

  // Zero copy: the app writes into append-only chunks that the core's
  // segments reference (mrc_core_send_buf()), and received DATA reaches
  // the core as a handle it keeps (rx_take()). Every reference must be
  // given back exactly once (ExpectNoHandles()).
  struct Chunk {
    Bytes data;
    int64_t refs = 0;
  };
  bool zero_copy = false;
  size_t chunk_size = 16384;
  size_t write_size = 65536;  // most bytes one Pump() send passes
  std::map<void*, std::unique_ptr<Chunk>> chunks;
  Chunk* chunk = nullptr;  // the app's current chunk (it holds one ref)
  size_t chunk_off = 0;
  std::unique_ptr<Bytes> rx_pending;  // the packet being input
  std::map<void*, std::unique_ptr<Bytes>> rx_held;
  uint64_t data_tx_by_ref = 0, rx_taken = 0, rx_freed = 0;
  // Every rx_take_fail_every-th rx_take() finds no memory (0: never).
  uint64_t rx_take_fail_every = 0, rx_take_calls = 0, rx_take_failed = 0;
  // Queue `n` bytes of the pattern by reference (at `sent`); core's answer.
  int SendByRef(size_t n, uint32_t flags);
  void ExpectNoHandles();

  // Batching (the flush op): DATA is held back while it continues one
  // plane and EV, and sent at flush() or at an xmit() that cannot join;
  // anything still held when a core call returns fails the test.
  struct Held {
    uint32_t plane, ev;
    Bytes hdr, payload;
  };
  bool batch = false;
  std::vector<Held> held;
  uint64_t flushes = 0, batched = 0;
  std::vector<size_t> batch_sizes;  // DATA packets of each batch sent
  void FlushHeld();
  void ExpectNothingHeld() const {
    EXPECT_TRUE(held.empty()) << held.size() << " DATA packets held past the core call";
  }
  // Local queues (the tx_busy op): planes whose queue is full, and the
  // tx_busy() calls that answered true since the last mrc_core_tx_ready().
  uint32_t busy_planes = 0;
  uint64_t busy_answers = 0;
  // Clear plane `p`'s busy bit; tell the core if it was told "busy".
  void TxDrained(uint32_t p) {
    busy_planes &= ~(1U << p);
    if (busy_answers == 0 || core == nullptr) return;
    busy_answers = 0;
    const uint64_t before = clock_reads;
    mrc_core_tx_ready(core);
    EndCall(before);
    ExpectNothingHeld();
  }
  // EV of each first transmission of DATA, in order.
  std::vector<uint32_t> data_first_tx_evs;

  // Environment knobs.
  std::deque<uint32_t> scripted_random;
  std::mt19937 rng{1234};
  uint64_t alloc_fail_every = 0;                   // 0: never
  std::function<bool(size_t size)> alloc_fail_if;  // true: refuse this one
  uint64_t alloc_calls = 0, alloc_failures = 0;
  int64_t live_allocs = 0;
  size_t live_bytes = 0;  // sum of the sizes asked for, not yet freed
  std::map<void*, size_t> alloc_sizes;
  std::vector<mrc_core_trace> traces;
  std::map<uint32_t, uint64_t> data_tx_by_plane;
  std::map<uint32_t, uint64_t> data_tx_by_ev;
  // Per plane: DATA sent on it at/after a mark (see Net::MarkPlane).
  std::map<uint32_t, uint64_t> data_tx_after_mark;

  int id() const { return id_; }
  Net* net() const { return net_; }

  int NoteCount(mrc_core_note n) const {
    int c = 0;
    for (const auto& [note, arg] : notes) c += note == n ? 1 : 0;
    return c;
  }

  mrc_core_stats Stats() const {
    mrc_core_stats st{};
    const uint64_t reads = clock_reads;
    mrc_core_get_stats(core, &st);
    clock_reads = reads;
    return st;
  }

  mrc_core_ev_info Ev(uint32_t idx) const {
    mrc_core_ev_info info{};
    EXPECT_EQ(mrc_core_ev_get(core, idx, &info), 0);
    return info;
  }

  // Push pattern data while the core takes it.
  void Pump();
  // The app read everything: report the free space.
  void Read() {
    unread = 0;
    if (core != nullptr) {
      const size_t cap = app_cap == SIZE_MAX ? cfg.rcvbuf : app_cap;
      const uint64_t before = clock_reads;
      mrc_core_rcv_space(core, static_cast<uint32_t>(cap));
      EndCall(before);
    }
  }

  static const mrc_core_env_ops kOps;
  mrc_core_env Env() { return mrc_core_env{&kOps, this}; }

 private:
  Net* net_;
  int id_;
};

// Two endpoints (0 = client, 1 = server) over up to 16 planes.
class Net {
 public:
  explicit Net(uint64_t seed = 42) : rng_(seed), a(this, 0), b(this, 1) {}

  uint64_t now = 1000000;
  std::array<PlaneCfg, MRC_WIRE_MAX_PLANES> planes{};
  std::mt19937_64 rng_;
  Endpoint a;
  Endpoint b;
  bool server_listening = true;    // else SYNs are refused with RST
  bool server_silent = false;      // SYNs vanish (nobody there)
  bool server_takes_token = true;  // the server's token is the SYN's proposal
  // Return true to drop the packet (from endpoint `from`).
  std::function<bool(int from, uint32_t plane, const mrc_pkt& pkt)> filter;
  uint64_t delivered = 0, dropped = 0, duplicated = 0;
  std::map<int, uint64_t> drops_by_reason;  // as returned by mrc_core_input
  // Receive batches: packets that reach one endpoint at the same fake
  // time go to its core as one batch (mrc_core_input_begin()/_end()),
  // as the kernel hands it a GSO or GRO skb's packets.
  bool rx_batch = false;
  std::vector<size_t> rx_batch_sizes;  // packets of each batch

  Endpoint& Peer(int id) { return id == 0 ? b : a; }

  // Both endpoints with `nplanes` planes (ids 0..n-1), all up.
  void Setup(uint32_t nplanes, uint8_t sock_type = MRC_SYN_STREAM) {
    for (Endpoint* e : {&a, &b}) {
      mrc_core_cfg& c = e->cfg;
      c.sock_type = sock_type;
      c.local_port = e == &a ? 40000 : 7000;
      c.peer_port = e == &a ? 7000 : 0;
      c.nplanes = nplanes;
      for (uint32_t p = 0; p < nplanes; p++) {
        c.planes[p].id = static_cast<uint8_t>(p);
        c.planes[p].flags = MRC_PLANE_F_V4;
        c.planes[p].udp_port = 4797;
        c.planes[p].addr4 = 0x0a000000U | (p << 8) | (e == &a ? 1U : 2U);
      }
      c.plane_up = (1U << nplanes) - 1;
      c.sndbuf = 256 * 1024;
      c.rcvbuf = 256 * 1024;
      c.user_timeout_ms = 3000;
      c.rto_min_us = 2000;
      c.rto_init_us = 20000;
      c.probe_interval_us = 5000;
    }
    a.cfg.peer = b.cfg.planes[0];
    a.cfg.has_peer = true;
  }

  // Create the client and send its SYN.
  void Connect() {
    a.core = mrc_core_create(&a.cfg, &envs_[0]);
    ASSERT_NE(a.core, nullptr);
    ASSERT_EQ(mrc_core_connect(a.core), 0);
    if (a.cfg.early_data != 0) a.Pump();  // the first flight
  }

  void Xmit(int from, uint32_t plane, uint32_t ev, const void* hdr, uint32_t hdr_len,
            const void* payload, uint32_t payload_len);

  // Process the next event not later than `until`; false if none.
  bool Step(uint64_t until);
  // Run until `done()` or fake time `until`; returns done().
  bool RunUntil(const std::function<bool()>& done, uint64_t until_us);
  bool RunFor(uint64_t us) {
    return RunUntil([] { return false; }, now + us);
  }

  // Start counting DATA sent on `plane` from now on.
  void MarkPlane(uint32_t plane) {
    a.data_tx_after_mark[plane] = 0;
    b.data_tx_after_mark[plane] = 0;
  }

  bool Established() const { return a.established && b.established; }

  double Uniform() { return std::uniform_real_distribution<double>(0, 1)(rng_); }

 private:
  struct Flight {
    int to;
    uint32_t plane;
    bool ce;
    Bytes bytes;
  };
  void Deliver(const Flight& f);
  void DeliverBatch(const Flight& first, uint64_t at);
  void Enqueue(int to, uint32_t plane, bool ce, Bytes bytes, uint64_t delay);
  void ResetUnknown(const Flight& f, const mrc_pkt& pkt);

  std::array<mrc_core_env, 2> envs_{mrc_core_env{&Endpoint::kOps, &a},
                                    mrc_core_env{&Endpoint::kOps, &b}};
  std::multimap<std::pair<uint64_t, uint64_t>, Flight> queue_;
  std::array<std::array<uint64_t, MRC_WIRE_MAX_PLANES>, 2> busy_until_{};
  uint64_t seq_ = 0;
};

constexpr uint64_t kSec = 1000000;

// Both ends send 1 MiB to each other by reference, in trains of `train`
// packets that go out as batches, over `nplanes` planes.
inline void SetupTwoWayTrains(Net& net, uint32_t nplanes, uint32_t train) {
  net.Setup(nplanes);
  for (Endpoint* e : {&net.a, &net.b}) {
    e->cfg.train_pkts = train;
    e->batch = true;
    e->zero_copy = true;
    e->to_send = 1 << 20;
  }
}

// Connects a to b; fails the test unless both are established within 1 s.
inline void Establish(Net& net) {
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
}

// Runs until b received all a had to send and a saw it all acked.
inline bool Drain(Net& net, uint64_t limit_us = 30 * kSec) {
  return net.RunUntil(
      [&] {
        return net.b.rx.size() == net.a.to_send && net.a.Stats().acked_bytes == net.a.to_send;
      },
      net.now + limit_us);
}

// Runs until each end received, in order and intact, all the other had to
// send, and saw all its own acknowledged.
inline ::testing::AssertionResult DrainBoth(Net& net, uint64_t limit_us = 30 * kSec) {
  if (!net.RunUntil(
          [&] {
            return net.b.rx.size() == net.a.to_send && net.a.rx.size() == net.b.to_send &&
                   net.a.Stats().acked_bytes == net.a.to_send &&
                   net.b.Stats().acked_bytes == net.b.to_send;
          },
          net.now + limit_us)) {
    return ::testing::AssertionFailure() << "transfers both ways did not finish";
  }
  if (net.b.rx != Pattern(net.a.seed, net.a.to_send) ||
      net.a.rx != Pattern(net.b.seed, net.b.to_send)) {
    return ::testing::AssertionFailure() << "received bytes differ from the pattern";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
