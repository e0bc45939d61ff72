// SPDX-License-Identifier: GPL-2.0
// Helpers of the mrcperf end-to-end tests on loopback: the command line
// run in-process with its output captured, and a server (connected or
// UDP) on a free port serving in its own thread.
#pragma once

#include <future>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "mrcperf/cli.hpp"
#include "mrcperf/options.hpp"

namespace mrcperf_test {

struct Outcome {
  int status = -1;
  std::string out;
  std::string err;
};

inline Outcome RunCli(std::vector<std::string> words) {
  const std::vector<std::string_view> args(words.begin(), words.end());
  std::ostringstream out;
  std::ostringstream err;
  Outcome run;
  run.status = mrcperf::Run(args, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

// A server of `args` (-s and the rest; -p is replaced by a free port the
// kernel picks) running Serve() in its own thread.
template <typename ServerType = mrcperf::Server>
class ServerThread {
 public:
  explicit ServerThread(const std::vector<std::string_view>& args) {
    mrcperf::Options options = mrcperf::ParseOptions(args);
    options.port = 0;  // the CLI refuses 0; the kernel picks a free port
    server_ = std::make_unique<ServerType>(options, out_, err_);
    result_ = std::async(std::launch::async, [this] { return server_->Serve(); });
  }
  ServerThread(const ServerThread&) = delete;
  ServerThread& operator=(const ServerThread&) = delete;
  ServerThread(ServerThread&&) = delete;
  ServerThread& operator=(ServerThread&&) = delete;
  ~ServerThread() = default;

  [[nodiscard]] std::string port() const { return std::to_string(server_->port()); }

  // True once Serve() returned, waiting at most `timeout`.
  bool Finished(std::chrono::milliseconds timeout) const {
    return result_.wait_for(timeout) == std::future_status::ready;
  }

  Outcome Wait() {
    Outcome run;
    run.status = result_.get();
    run.out = out_.str();
    run.err = err_.str();
    return run;
  }

 private:
  std::ostringstream out_;
  std::ostringstream err_;
  std::unique_ptr<ServerType> server_;
  std::future<int> result_;
};

}  // namespace mrcperf_test
