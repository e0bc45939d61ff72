// SPDX-License-Identifier: GPL-2.0
// Whole mrcperf sessions, client and server, over an AF_UNIX socketpair:
// shared by the session and ping-pong tests.
#pragma once

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <future>
#include <string>
#include <string_view>
#include <vector>

#include "mrc/fd.hpp"
#include "mrcperf/options.hpp"
#include "mrcperf/report.hpp"
#include "mrcperf/session.hpp"

namespace mrcperf_test {

struct Pair {
  mrc::Fd client;
  mrc::Fd server;
};

inline Pair SocketPair(int type) {
  std::array<int, 2> fds{};
  EXPECT_EQ(socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, fds.data()), 0);
  return {mrc::Fd(fds[0]), mrc::Fd(fds[1])};
}

inline mrcperf::Options Parse(std::vector<std::string_view> args) {
  return mrcperf::ParseOptions(args);
}

inline mrcperf::Connection Conn(const mrc::Fd& fd, const std::string& peer) {
  return {.fd = fd.get(), .transport = mrcperf::TransportKind::kTcp, .local = "me", .peer = peer};
}

struct Sessions {
  mrcperf::Report client;
  mrcperf::Report server;
};

// The client session with `seed` against a server session on a socketpair
// of `type`; the server's end is closed when its session returns.
inline Sessions RunBothSides(int type, const mrcperf::Options& client_options,
                             const mrcperf::Options& server_options, std::uint64_t seed) {
  Pair pair = SocketPair(type);
  auto server = std::async(std::launch::async, [&] {
    mrcperf::Report report =
        mrcperf::RunServerSession(Conn(pair.server, "client"), server_options, {});
    pair.server.Reset();
    return report;
  });
  mrcperf::Report client =
      mrcperf::RunClientSession(Conn(pair.client, "server"), client_options, seed, {});
  return {std::move(client), server.get()};
}

}  // namespace mrcperf_test
