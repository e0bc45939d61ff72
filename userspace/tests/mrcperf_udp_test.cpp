// SPDX-License-Identifier: GPL-2.0
// mrcperf --udp --pingpong over 127.0.0.1: client and echo server end to
// end, the "MRPE" end marker that closes a run, losses and stale echoes
// from a hand-written server, and a client with nobody answering.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <array>
#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "mrc/fd.hpp"
#include "mrcperf/error.hpp"
#include "mrcperf/transfer.hpp"
#include "mrcperf/udp.hpp"
#include "mrcperf_loopback.hpp"

namespace {

using mrc::Fd;
using mrcperf_test::Outcome;
using mrcperf_test::RunCli;
using nlohmann::json;
using std::chrono::milliseconds;
using UdpServerThread = mrcperf_test::ServerThread<mrcperf::UdpServer>;

sockaddr_in Loopback(std::uint16_t port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return addr;
}

sockaddr* AsSockaddr(sockaddr_in& addr) {
  return static_cast<sockaddr*>(static_cast<void*>(&addr));
}

// A UDP socket bound to 127.0.0.1 and a free port.
Fd UdpSocket(std::uint16_t& port) {
  Fd fd(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr = Loopback(0);
  EXPECT_EQ(bind(fd.get(), AsSockaddr(addr), sizeof(addr)), 0);
  socklen_t len = sizeof(addr);
  EXPECT_EQ(getsockname(fd.get(), AsSockaddr(addr), &len), 0);
  port = ntohs(addr.sin_port);
  return fd;
}

// A socket connected to the server at `port`, receiving for up to 2 s.
Fd ConnectedUdp(const std::string& port) {
  std::uint16_t unused = 0;
  Fd fd = UdpSocket(unused);
  sockaddr_in server = Loopback(static_cast<std::uint16_t>(std::stoi(port)));
  EXPECT_EQ(connect(fd.get(), AsSockaddr(server), sizeof(server)), 0);
  const timeval tv{.tv_sec = 2, .tv_usec = 0};
  EXPECT_EQ(setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
  return fd;
}

void Send(const Fd& fd, std::string_view text) {
  ASSERT_EQ(send(fd.get(), text.data(), text.size(), 0), static_cast<ssize_t>(text.size()));
}

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

TEST(MrcperfUdp, LoopbackPingpongEndsTheServerRun) {
  UdpServerThread server({"-s", "--udp", "--pingpong", "-1", "-B", "127.0.0.1", "-J"});
  const double before = Now();
  const Outcome client = RunCli({"-c", "127.0.0.1", "-p", server.port(), "--udp", "--pingpong",
                                 "--count", "500", "--warmup", "10", "--verify", "-J"});
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  // The server's -1 run ends only at the client's end marker.
  ASSERT_TRUE(server.Finished(milliseconds(5000)));
  const Outcome served = server.Wait();
  const double after = Now();
  const json c = json::parse(client.out);
  EXPECT_EQ(c["transport"], "udp");
  EXPECT_EQ(c["mode"], "datagram");
  EXPECT_EQ(c["pingpong"], true);
  EXPECT_TRUE(c["error"].is_null());
  EXPECT_TRUE(c["server"].is_null());  // UDP has no Result
  EXPECT_EQ(c["lost"], 0);
  EXPECT_EQ(c["mismatches"], 0);
  EXPECT_EQ(c["messages"], 510);
  EXPECT_EQ(c["bytes"], 510 * 64);
  EXPECT_EQ(c["latency_us"]["count"], 500);
  EXPECT_GT(c["latency_us"]["min"].get<double>(), 0.0);
  EXPECT_LE(c["latency_us"]["p50"].get<double>(), c["latency_us"]["p999"].get<double>());
  EXPECT_GE(c["start_time"].get<double>(), before);
  EXPECT_LE(c["start_time"].get<double>(), after);

  ASSERT_EQ(served.status, mrcperf::kExitOk) << served.out << served.err;
  const json s = json::parse(served.out);
  EXPECT_EQ(s["role"], "server");
  EXPECT_EQ(s["transport"], "udp");
  EXPECT_EQ(s["messages"], 510);
  EXPECT_EQ(s["bytes"], 510 * 64);
  EXPECT_EQ(s["peer"], c["local"]);
  EXPECT_EQ(s["local"], "127.0.0.1:" + server.port());
  EXPECT_TRUE(s["error"].is_null());
  EXPECT_GE(s["start_time"].get<double>(), c["start_time"].get<double>());
  EXPECT_LE(s["start_time"].get<double>(), after);
}

TEST(MrcperfUdp, ServerEchoesVerbatimAndStopsAtTheEndMarker) {
  UdpServerThread server({"-s", "--udp", "--pingpong", "-1", "-B", "127.0.0.1", "-J"});
  const Fd fd = ConnectedUdp(server.port());
  Send(fd, "MRPE");  // a repeat of an earlier run's marker: no run to end yet
  EXPECT_FALSE(server.Finished(milliseconds(200)));
  const std::string datagram = "any bytes at all, not only mrcperf's";
  Send(fd, datagram);
  std::array<char, 256> echo{};
  const ssize_t n = recv(fd.get(), echo.data(), echo.size(), 0);
  ASSERT_EQ(n, static_cast<ssize_t>(datagram.size()));
  EXPECT_EQ(std::string(echo.data(), datagram.size()), datagram);
  Send(fd, "MRPEX");  // five bytes: data, not the marker
  ASSERT_EQ(recv(fd.get(), echo.data(), echo.size(), 0), 5);
  EXPECT_FALSE(server.Finished(milliseconds(50)));
  Send(fd, "MRPE");
  ASSERT_TRUE(server.Finished(milliseconds(5000)));
  const Outcome served = server.Wait();
  EXPECT_EQ(served.status, mrcperf::kExitOk) << served.err;
  const json s = json::parse(served.out);
  EXPECT_EQ(s["messages"], 2);
  EXPECT_EQ(s["bytes"], datagram.size() + 5);
}

TEST(MrcperfUdp, ClientsTwoServesTwoRunsAndSumsThem) {
  UdpServerThread server({"-s", "--udp", "--pingpong", "--clients", "2", "-B", "127.0.0.1", "-J"});
  for (int run = 0; run < 2; ++run) {
    const Outcome client = RunCli({"-c", "127.0.0.1", "-p", server.port(), "--udp", "--pingpong",
                                   "--count", "50", "--warmup", "0", "-J"});
    ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  }
  ASSERT_TRUE(server.Finished(milliseconds(5000)));
  const Outcome served = server.Wait();
  EXPECT_EQ(served.status, mrcperf::kExitOk) << served.err;
  const json s = json::parse(served.out);
  ASSERT_EQ(s["connections"].size(), 2U);
  EXPECT_EQ(s["connections"][0]["messages"], 50);
  EXPECT_EQ(s["connections"][1]["messages"], 50);
  EXPECT_NE(s["connections"][0]["peer"], s["connections"][1]["peer"]);
  EXPECT_EQ(s["messages"], 100);
  EXPECT_EQ(s["bytes"], 100 * 64);
  EXPECT_TRUE(s["error"].is_null());
}

// 127.0.0.2 is as local as 127.0.0.1, but an echo from a wildcard-bound
// socket would leave from 127.0.0.1, and the client's connected socket
// would drop it: the server must answer from where it was reached.
TEST(MrcperfUdp, EchoLeavesFromTheAddressItCameTo) {
  UdpServerThread server({"-s", "--udp", "--pingpong", "-1", "-J"});
  const Outcome client = RunCli({"-c", "127.0.0.2", "-p", server.port(), "--udp", "--pingpong",
                                 "--count", "5", "--warmup", "0", "-J"});
  ASSERT_TRUE(server.Finished(milliseconds(5000)));
  EXPECT_EQ(server.Wait().status, mrcperf::kExitOk);
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  const json c = json::parse(client.out);
  EXPECT_EQ(c["lost"], 0);
  EXPECT_EQ(c["latency_us"]["count"], 5);
}

// A hand-written echo server on `fd`: `policy(number)` says whether to
// echo datagram `number` now (true), drop it (false), or hold it back
// until the next one (nullopt). Stops at the end marker.
void FakeEchoServer(const Fd& fd, const std::function<std::optional<bool>(std::uint64_t)>& policy) {
  std::vector<std::uint8_t> held;
  std::array<std::uint8_t, 2048> buffer{};
  for (;;) {
    sockaddr_in from{};
    socklen_t len = sizeof(from);
    const ssize_t n = recvfrom(fd.get(), buffer.data(), buffer.size(), 0, AsSockaddr(from), &len);
    ASSERT_GE(n, 4);
    const auto size = static_cast<std::size_t>(n);
    if (size == 4) {
      return;  // MRPE
    }
    const std::optional<bool> echo = policy(mrcperf::GetMessageNumber({buffer.data(), 8}));
    if (!held.empty()) {  // the late echo goes out first: stale when it arrives
      sendto(fd.get(), held.data(), held.size(), 0, AsSockaddr(from), len);
      held.clear();
    }
    if (!echo) {
      held.assign(buffer.begin(), buffer.begin() + n);
    } else if (*echo) {
      sendto(fd.get(), buffer.data(), size, 0, AsSockaddr(from), len);
    }
  }
}

TEST(MrcperfUdp, LostAndStaleEchoesAreNotSamples) {
  std::uint16_t port = 0;
  const Fd fd = UdpSocket(port);
  // Warmup 0..1; measured 2..21. Dropped: 4, 8, 12, 16, 20; 6 held back
  // and sent late, after 7 came (so 6 is lost and its echo stale).
  std::thread fake([&] {
    FakeEchoServer(fd, [](std::uint64_t number) -> std::optional<bool> {
      if (number == 6) {
        return std::nullopt;
      }
      return number == 0 || number % 4 != 0;  // the warmup's 0 is echoed
    });
  });
  const Outcome client = RunCli({"-c", "127.0.0.1", "-p", std::to_string(port), "--udp",
                                 "--pingpong", "--count", "20", "--warmup", "2", "-J"});
  fake.join();
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  const json c = json::parse(client.out);
  EXPECT_EQ(c["lost"], 6);
  EXPECT_EQ(c["latency_us"]["count"], 14);
  EXPECT_EQ(c["messages"], 16);  // 2 warmup + 14 answered
  EXPECT_EQ(c["mismatches"], 0);
  // A lost echo is waited for kUdpEchoTimeout, not counted as that long.
  EXPECT_LT(c["latency_us"]["max"].get<double>(), 200'000.0);
  EXPECT_TRUE(c["error"].is_null());
}

TEST(MrcperfUdp, NobodyAnswering) {
  std::uint16_t port = 0;
  const Fd silent = UdpSocket(port);  // takes datagrams, never answers
  const Outcome client = RunCli({"-c", "127.0.0.1", "-p", std::to_string(port), "--udp",
                                 "--pingpong", "--count", "2", "--warmup", "0", "-J"});
  EXPECT_EQ(client.status, mrcperf::kExitRuntime);
  const std::string error = "no echo came back from 127.0.0.1:" + std::to_string(port) +
                            " (is an mrcperf -s --udp there?)";
  EXPECT_EQ(client.err, "mrcperf: " + error + "\n");
  const json c = json::parse(client.out);
  EXPECT_EQ(c["error"], error);
  EXPECT_EQ(c["lost"], 2);
  EXPECT_EQ(c["latency_us"]["count"], 0);
  EXPECT_TRUE(c["latency_us"]["p50"].is_null());
}

TEST(MrcperfUdp, ClosedPortIsRefused) {
  std::uint16_t port = 0;
  {
    const Fd taken = UdpSocket(port);
  }  // closed again: the kernel answers with ICMP port unreachable
  const Outcome client = RunCli({"-c", "127.0.0.1", "-p", std::to_string(port), "--udp",
                                 "--pingpong", "--count", "3", "--warmup", "0", "-J"});
  EXPECT_EQ(client.status, mrcperf::kExitRuntime);
  const json c = json::parse(client.out);
  EXPECT_EQ(c["error"], "recv from 127.0.0.1:" + std::to_string(port) + ": Connection refused");
}

}  // namespace
