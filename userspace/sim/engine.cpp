// SPDX-License-Identifier: GPL-2.0
// The event queue of engine.hpp.
#include "engine.hpp"

#include <cinttypes>

namespace mrc_sim {

void Engine::Schedule(Time t, uint32_t kind, uint32_t a, uint64_t b) {
  queue_.push(Event{t < now_ ? now_ : t, seq_++, kind, a, b});
}

Event Engine::Pop() {
  const Event ev = queue_.top();
  queue_.pop();
  now_ = ev.t;
  events_++;
  digest_.Add(ev.t);
  digest_.Add(static_cast<uint64_t>(ev.kind) << 32 | ev.a);
  digest_.Add(ev.b);
  if (trace_ != nullptr)
    std::fprintf(trace_, "%" PRIu64 " %u %u %" PRIu64 "\n", ev.t, ev.kind, ev.a, ev.b);
  return ev;
}

}  // namespace mrc_sim
