// SPDX-License-Identifier: GPL-2.0
// mrcd's hold on the eBPF telemetry (ebpf/mrc_telemetry.bpf.c): loads the
// skeleton for this network namespace, pins the shared maps, attaches the
// tracepoint programs and, per plane netdev, the tc counters; delivers the
// ring buffer's alarms. Destruction detaches everything it attached and
// removes this namespace's entries (and the pins, once nobody has any).
#pragma once

#include <linux/mrc_telemetry.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "mrc/telemetry.hpp"

struct mrc_telemetry_bpf;
struct ring_buffer;

namespace mrcd {

using AlarmSink = std::function<void(const mrc_tm_alarm&)>;

class BpfTelemetry {
 public:
  // Throws mrc::Error saying which step failed (and why: missing
  // privileges, mrc.ko not loaded, no bpffs).
  BpfTelemetry(std::uint32_t netns, const mrc_tm_config& config, const std::string& pin_dir,
               AlarmSink sink);
  BpfTelemetry(const BpfTelemetry&) = delete;
  BpfTelemetry& operator=(const BpfTelemetry&) = delete;
  BpfTelemetry(BpfTelemetry&&) = delete;
  BpfTelemetry& operator=(BpfTelemetry&&) = delete;
  ~BpfTelemetry();

  void SetConfig(const mrc_tm_config& config);

  // Counts MRC's UDP packets (to/from `port`) on `ifindex` with tc
  // clsact programs. Idempotent per ifindex.
  void AttachLink(std::uint32_t ifindex, std::uint16_t port);
  void DetachLink(std::uint32_t ifindex);

  // For epoll: readable when alarms wait; then Consume() delivers them.
  [[nodiscard]] int alarm_fd() const;
  void Consume();

  [[nodiscard]] mrc::TelemetrySnapshot Read() const;

 private:
  struct Link {
    bool created_qdisc = false;
    std::uint16_t port = 0;
  };

  void ForgetNamespace() const;

  std::uint32_t netns_;
  std::string pin_dir_;
  AlarmSink sink_;
  std::unique_ptr<mrc_telemetry_bpf, void (*)(mrc_telemetry_bpf*)> skel_;
  std::unique_ptr<ring_buffer, void (*)(ring_buffer*)> ring_;
  std::unique_ptr<mrc::TelemetryReader> reader_;
  std::map<std::uint32_t, Link> links_;
};

}  // namespace mrcd
