// SPDX-License-Identifier: GPL-2.0
#include "metrics_server.hpp"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <stdexcept>

#include "metrics.hpp"

namespace mrcd {

struct MetricsServer::Impl {
  httplib::Server server;
  std::atomic<bool> finished{false};  // listen_after_bind() returned
};

MetricsServer::MetricsServer(const std::string& address, std::uint16_t port, Provider provider)
    : impl_(std::make_unique<Impl>()) {
  impl_->server.Get("/metrics", [provider = std::move(provider)](const httplib::Request&,
                                                                 httplib::Response& response) {
    response.set_content(provider(), std::string(kMetricsContentType).c_str());
  });
  const int bound = port == 0 ? impl_->server.bind_to_any_port(address)
                              : (impl_->server.bind_to_port(address, port) ? port : -1);
  if (bound <= 0) {
    throw std::runtime_error("metrics endpoint: cannot listen on " + address + " port " +
                             std::to_string(port) +
                             " (address not local, port in use, or not permitted)");
  }
  port_ = static_cast<std::uint16_t>(bound);
  thread_ = std::thread([impl = impl_.get()] {
    impl->server.listen_after_bind();
    impl->finished = true;
  });
  // stop() only works on a running server: wait until it runs, so that
  // the destructor cannot race with the start of the thread.
  while (!impl_->server.is_running() && !impl_->finished) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

MetricsServer::~MetricsServer() {
  impl_->server.stop();
  thread_.join();
}

}  // namespace mrcd
