// SPDX-License-Identifier: GPL-2.0
// The environment the simulator gives each core (struct mrc_core_env_ops).
#include "endpoint.hpp"

#include <cstdlib>

#include "pattern.hpp"
#include "sim.hpp"
#include "tracer.hpp"

namespace mrc_sim {
namespace {

Endpoint& Ep(void* ctx) { return *static_cast<Endpoint*>(ctx); }

uint64_t EnvNow(void* ctx) { return Ep(ctx).sim->NowUs(); }

void EnvTimerArm(void* ctx, uint64_t when_us) {
  Endpoint& ep = Ep(ctx);
  ep.sim->ArmTimer(ep, when_us);
}

int EnvXmit(void* ctx, uint32_t plane, uint32_t ev, const void* hdr, uint32_t hdr_len,
            const void* payload, uint32_t payload_len, void* /*payload_ref*/) {
  Endpoint& ep = Ep(ctx);
  return ep.sim->Xmit(ep, plane, ev, hdr, hdr_len, payload, payload_len);
}

bool EnvTxBusy(void* ctx, uint32_t plane) {
  Endpoint& ep = Ep(ctx);
  return ep.sim->TxBusy(ep, plane);
}

int EnvDeliver(void* ctx, const void* data, uint32_t len, uint32_t /*flags*/, void* /*ref*/) {
  Endpoint& ep = Ep(ctx);
  if (ep.rcvd + len > ep.total ||
      !PatternCheck(ep.flow, ep.rcvd, static_cast<const uint8_t*>(data), len))
    ep.corrupt = true;
  ep.rcvd += len;
  ep.unread += len;
  ep.sim->Delivered(ep);
  return 0;
}

void EnvNotify(void* ctx, mrc_core_note note, uint32_t arg) {
  Endpoint& ep = Ep(ctx);
  switch (note) {
    case MRC_NOTE_ESTABLISHED:
      ep.established = true;
      ep.LearnPaths();
      break;
    case MRC_NOTE_PEER_FIN:
      ep.peer_fin = true;
      break;
    case MRC_NOTE_DONE:
      ep.done = true;
      break;
    case MRC_NOTE_ERROR:
      ep.error = static_cast<int>(arg);
      break;
    case MRC_NOTE_EV_SUSPECT:
      ep.LearnEv(arg);
      break;
    case MRC_NOTE_EV_STATE:
      ep.LearnEv(arg);
      if (Tracer* t = ep.sim->tracer(); t != nullptr) t->EvState(ep, arg, ep.sim->engine().now());
      break;
    case MRC_NOTE_WRITABLE:
    case MRC_NOTE_PLANE_STATE:
      break;
  }
  if (note != MRC_NOTE_EV_STATE && note != MRC_NOTE_PLANE_STATE && note != MRC_NOTE_EV_SUSPECT)
    ep.sim->WakeApp(ep);
}

// The core's C allocator: malloc and free are its contract.
void* EnvAlloc(void* /*ctx*/, size_t size) {
  return std::malloc(size);  // NOLINT(cppcoreguidelines-no-malloc)
}

void EnvFree(void* /*ctx*/, void* ptr) {
  std::free(ptr);  // NOLINT(cppcoreguidelines-no-malloc)
}

uint32_t EnvRandom(void* ctx) { return Ep(ctx).rng.Next32(); }

void EnvTrace(void* ctx, mrc_core_trace point, const mrc_core_trace_info* info) {
  Endpoint& ep = Ep(ctx);
  ep.sim->tracer()->Point(ep, point, *info, ep.sim->engine().now());
}

}  // namespace

const mrc_core_env_ops Endpoint::kOps = {
    .now_us = EnvNow,
    .timer_arm = EnvTimerArm,
    .xmit = EnvXmit,
    .deliver = EnvDeliver,
    .notify = EnvNotify,
    .trace = nullptr,
    .alloc = EnvAlloc,
    .free = EnvFree,
    .random = EnvRandom,
    // Copies: no zero-copy handles, no batching.
    .rx_take = nullptr,
    .rx_free = nullptr,
    .buf_get = nullptr,
    .buf_put = nullptr,
    .flush = nullptr,
    .tx_busy = EnvTxBusy,
    .scratch = nullptr,  // a thread's own (core.c)
    .core_alloc = nullptr,
    .core_free = nullptr,
};

// Only a traced run pays for the tracepoints' calls. (kOps is constant
// initialised, so it is complete before this runs.)
const mrc_core_env_ops Endpoint::kTracedOps = [] {
  mrc_core_env_ops ops = Endpoint::kOps;
  ops.trace = EnvTrace;
  return ops;
}();

mrc_core_env Endpoint::Env() {
  return mrc_core_env{sim->tracer() != nullptr ? &kTracedOps : &kOps, this};
}

}  // namespace mrc_sim
