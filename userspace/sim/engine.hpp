// SPDX-License-Identifier: GPL-2.0
// The discrete-event engine: simulated time in nanoseconds and one
// priority queue of events ordered by (time, sequence number), so events
// due at the same instant run in the order they were scheduled and every
// run of a seed is the same. Every event taken is folded into the digest
// and, when asked, written to the trace.
#pragma once

#include <cstdint>
#include <cstdio>
#include <queue>
#include <vector>

#include "digest.hpp"

namespace mrc_sim {

using Time = uint64_t;  // nanoseconds

inline constexpr Time kUs = 1000;
inline constexpr Time kMs = 1000 * kUs;

// What an event is about is up to its owner: `kind` picks the handler,
// `a` and `b` are its arguments (a link and a packet, a connection and a
// generation, ...).
struct Event {
  Time t = 0;
  uint64_t seq = 0;
  uint32_t kind = 0;
  uint32_t a = 0;
  uint64_t b = 0;
};

class Engine {
 public:
  void Schedule(Time t, uint32_t kind, uint32_t a, uint64_t b);
  bool Empty() const { return queue_.empty(); }
  Time NextTime() const { return queue_.top().t; }
  // The next event, now() moved to its time, digest and trace updated.
  Event Pop();

  Time now() const { return now_; }
  uint64_t events() const { return events_; }
  size_t pending() const { return queue_.size(); }
  // Fold extra words (what the event did) into the digest.
  void Mix(uint64_t word) { digest_.Add(word); }
  const Digest& digest() const { return digest_; }
  // Each event as one line "t kind a b" (nullptr: no trace).
  void set_trace(std::FILE* f) { trace_ = f; }
  std::FILE* trace() const { return trace_; }

 private:
  struct Later {
    bool operator()(const Event& x, const Event& y) const {
      return x.t != y.t ? x.t > y.t : x.seq > y.seq;
    }
  };
  std::priority_queue<Event, std::vector<Event>, Later> queue_;
  Time now_ = 0;
  uint64_t seq_ = 0;
  uint64_t events_ = 0;
  Digest digest_;
  std::FILE* trace_ = nullptr;
};

}  // namespace mrc_sim
