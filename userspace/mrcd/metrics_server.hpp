// SPDX-License-Identifier: GPL-2.0
// The HTTP endpoint Prometheus scrapes: GET /metrics on its own thread,
// from a page provider the daemon supplies (which must be thread-safe:
// it runs on the server's thread).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace mrcd {

class MetricsServer {
 public:
  using Provider = std::function<std::string()>;

  // Listens on address:port (port 0: one the kernel picks, see port()).
  // Throws std::runtime_error saying which address could not be bound.
  MetricsServer(const std::string& address, std::uint16_t port, Provider provider);
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;
  MetricsServer(MetricsServer&&) = delete;
  MetricsServer& operator=(MetricsServer&&) = delete;
  ~MetricsServer();  // stops serving and joins the thread

  [[nodiscard]] std::uint16_t port() const { return port_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;  // keeps <httplib.h> out of the daemon
  std::uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace mrcd
