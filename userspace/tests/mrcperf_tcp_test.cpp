// SPDX-License-Identifier: GPL-2.0
// mrcperf end to end over TCP on 127.0.0.1: a server and a client in two
// threads, driven through the command line; a proxy that flips one byte;
// peers that stall, refuse, or never answer.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <array>
#include <future>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "mrc/fd.hpp"
#include "mrcperf/cli.hpp"
#include "mrcperf/error.hpp"
#include "mrcperf/options.hpp"
#include "mrcperf/protocol.hpp"
#include "mrcperf_loopback.hpp"

namespace {

using mrc::Fd;
using nlohmann::json;

using mrcperf_test::Outcome;
using mrcperf_test::RunCli;

std::vector<std::string_view> TcpServerArgs(std::vector<std::string_view> extra) {
  std::vector<std::string_view> args{"-s", "--tcp", "-1", "-B", "127.0.0.1", "-J"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// A -1 TCP server on 127.0.0.1 and a free port, serving in its own thread.
class ServerThread : public mrcperf_test::ServerThread<> {
 public:
  explicit ServerThread(std::vector<std::string_view> extra = {})
      : mrcperf_test::ServerThread<>(TcpServerArgs(std::move(extra))) {}
};

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

const sockaddr* AsSockaddr(const sockaddr_in& addr) {
  return static_cast<const sockaddr*>(static_cast<const void*>(&addr));
}

Fd TcpSocket() { return Fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)); }

// A bound TCP socket on 127.0.0.1; listening when `listen_too`.
Fd BoundSocket(bool listen_too, std::uint16_t& port) {
  Fd fd = TcpSocket();
  sockaddr_in addr = Loopback(0);
  EXPECT_EQ(bind(fd.get(), AsSockaddr(addr), sizeof(addr)), 0);
  socklen_t len = sizeof(addr);
  EXPECT_EQ(getsockname(fd.get(), AsSockaddr(addr), &len), 0);
  port = ntohs(addr.sin_port);
  if (listen_too) {
    EXPECT_EQ(listen(fd.get(), 4), 0);
  }
  return fd;
}

Fd ConnectTo(std::uint16_t port) {
  Fd fd = TcpSocket();
  const sockaddr_in addr = Loopback(port);
  EXPECT_EQ(connect(fd.get(), AsSockaddr(addr), sizeof(addr)), 0);
  return fd;
}

// Copies `from` to `to` until EOF, flipping the byte at stream offset
// `flip` when given, then half-closes `to`.
void Pump(int from, int to, std::optional<std::uint64_t> flip) {
  std::vector<std::uint8_t> buffer(std::size_t{64} * 1024);
  std::uint64_t offset = 0;
  for (;;) {
    const ssize_t n = recv(from, buffer.data(), buffer.size(), 0);
    if (n <= 0) {
      break;
    }
    const auto size = static_cast<std::uint64_t>(n);
    if (flip && *flip >= offset && *flip < offset + size) {
      buffer[*flip - offset] ^= 0x04U;
    }
    for (ssize_t sent = 0; sent < n;) {
      const ssize_t m =
          send(to, buffer.data() + sent, static_cast<std::size_t>(n - sent), MSG_NOSIGNAL);
      if (m <= 0) {
        return;
      }
      sent += m;
    }
    offset += size;
  }
  shutdown(to, SHUT_WR);
}

TEST(MrcperfTcp, VerifiedTransferOf8MiB) {
  ServerThread server({"-i", "0.1"});
  const Outcome client = RunCli(
      {"--tcp", "-c", "127.0.0.1", "-p", server.port(), "-n", "8M", "--verify", "-J", "-i", "0.1"});
  const Outcome served = server.Wait();
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  EXPECT_EQ(client.err, "");
  const json c = json::parse(client.out);  // exactly one object: parse() refuses trailing text
  EXPECT_EQ(c["role"], "client");
  EXPECT_EQ(c["transport"], "tcp");
  EXPECT_EQ(c["mode"], "stream");
  EXPECT_EQ(c["bytes"], 8 << 20);
  EXPECT_TRUE(c["error"].is_null());
  EXPECT_EQ(c["peer"], "127.0.0.1:" + server.port());
  EXPECT_EQ(c["server"]["bytes"], 8 << 20);
  EXPECT_EQ(c["server"]["mismatches"], 0);
  EXPECT_GT(c["bits_per_second"].get<double>(), 0);
  std::uint64_t interval_bytes = 0;
  for (const auto& interval : c["intervals"]) {
    interval_bytes += interval["bytes"].get<std::uint64_t>();
  }
  EXPECT_EQ(interval_bytes, 8U << 20U);

  ASSERT_EQ(served.status, mrcperf::kExitOk) << served.out << served.err;
  const json s = json::parse(served.out);
  EXPECT_EQ(s["role"], "server");
  EXPECT_EQ(s["bytes"], 8 << 20);
  EXPECT_EQ(s["mismatches"], 0);
  EXPECT_EQ(s["verify"], true);
  EXPECT_TRUE(s["error"].is_null());
  EXPECT_GE(s["longest_gap_ms"].get<double>(), 0);
}

// --zerocopy over the host's TCP: every send completes exactly once (a
// completion counted twice or never fails the run), the ring's buffers
// are refilled only after their completions, so the server's check of
// every byte holds. On loopback the kernel copies the pages for the
// receiver, so completions say "copied".
TEST(MrcperfTcp, ZerocopyTransferCompletesEverySend) {
  ServerThread server;
  const Outcome client = RunCli({"--tcp", "-c", "127.0.0.1", "-p", server.port(), "-n", "8M", "-l",
                                 "64K", "--verify", "--zerocopy", "-J"});
  const Outcome served = server.Wait();
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  const json c = json::parse(client.out);
  EXPECT_EQ(c["server"]["bytes"], 8 << 20);
  EXPECT_EQ(c["server"]["mismatches"], 0);
  const std::uint64_t sends = c["zerocopy"]["sends"];
  EXPECT_GE(sends, 128U);  // 8 MiB in sends of at most 64 KiB
  EXPECT_EQ(c["zerocopy"]["completed"], sends);
  EXPECT_LE(c["zerocopy"]["copied"].get<std::uint64_t>(), sends);
  EXPECT_EQ(served.status, mrcperf::kExitOk) << served.out << served.err;
}

TEST(MrcperfTcp, TimeBoundTransferAgreesOnTheByteCount) {
  ServerThread server;
  const Outcome client =
      RunCli({"--tcp", "-c", "127.0.0.1", "-p", server.port(), "-t", "0.3", "-l", "1000", "-J"});
  const Outcome served = server.Wait();
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  const json c = json::parse(client.out);
  const json s = json::parse(served.out);
  EXPECT_GT(c["bytes"].get<std::uint64_t>(), 0U);
  EXPECT_EQ(c["bytes"], s["bytes"]);
  EXPECT_EQ(c["server"]["bytes"], s["bytes"]);
  EXPECT_GE(c["seconds"].get<double>(), 0.3);
  EXPECT_LT(c["seconds"].get<double>(), 5.0);
  EXPECT_FALSE(s["verify"].get<bool>());
}

TEST(MrcperfTcp, TextOutput) {
  ServerThread server;
  const Outcome client =
      RunCli({"--tcp", "-c", "127.0.0.1", "-p", server.port(), "-n", "1M", "--verify", "-i", "10"});
  server.Wait();
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.err;
  EXPECT_NE(client.out.find("Connected 127.0.0.1:"), std::string::npos) << client.out;
  EXPECT_NE(client.out.find(": sent 1.0 MiB in "), std::string::npos) << client.out;
  EXPECT_NE(client.out.find("server: received 1.0 MiB in "), std::string::npos) << client.out;
  EXPECT_NE(client.out.find(", 0 mismatches, longest gap "), std::string::npos) << client.out;
  EXPECT_NE(client.out.find("[   0.00-"), std::string::npos) << client.out;  // the last interval
}

TEST(MrcperfTcp, CorruptingProxyMakesBothSidesExitThree) {
  ServerThread server({"--verify"});
  std::uint16_t proxy_port = 0;
  const Fd listener = BoundSocket(true, proxy_port);
  std::thread proxy([&] {
    const Fd client(accept(listener.get(), nullptr, nullptr));
    const Fd upstream = ConnectTo(static_cast<std::uint16_t>(std::stoi(server.port())));
    Pump(client.get(), upstream.get(), mrcperf::kHelloSize + 3'141'593);  // data byte 3141593
    Pump(upstream.get(), client.get(), std::nullopt);
  });
  const Outcome client = RunCli(
      {"--tcp", "-c", "127.0.0.1", "-p", std::to_string(proxy_port), "-n", "4M", "--verify", "-J"});
  proxy.join();
  const Outcome served = server.Wait();
  EXPECT_EQ(client.status, mrcperf::kExitMismatch) << client.out << client.err;
  const json c = json::parse(client.out);
  EXPECT_EQ(c["bytes"], 4 << 20);
  EXPECT_EQ(c["server"]["bytes"], 4 << 20);
  EXPECT_EQ(c["server"]["mismatches"], 1);
  EXPECT_EQ(c["server"]["first_mismatch_offset"], 3'141'593);
  EXPECT_TRUE(c["error"].is_null());
  EXPECT_EQ(served.status, mrcperf::kExitMismatch);
  const json s = json::parse(served.out);
  EXPECT_EQ(s["mismatches"], 1);
  EXPECT_EQ(s["first_mismatch_offset"], 3'141'593);
}

TEST(MrcperfTcp, ConnectionRefused) {
  std::uint16_t port = 0;
  const Fd unused = BoundSocket(false, port);  // bound, never listening
  const Outcome client =
      RunCli({"--tcp", "-c", "127.0.0.1", "-p", std::to_string(port), "-n", "1M", "-J"});
  EXPECT_EQ(client.status, mrcperf::kExitRuntime);
  const std::string error = "connect 127.0.0.1:" + std::to_string(port) + ": Connection refused";
  EXPECT_EQ(client.err, "mrcperf: " + error + "\n");
  const json c = json::parse(client.out);
  EXPECT_EQ(c["error"], error);
  EXPECT_EQ(c["bytes"], 0);
  EXPECT_TRUE(c["server"].is_null());
}

TEST(MrcperfTcp, WaitServerGivesUpWhenNobodyListens) {
  std::uint16_t port = 0;
  const Fd unused = BoundSocket(false, port);
  const auto start = std::chrono::steady_clock::now();
  const Outcome client = RunCli({"--tcp", "-c", "127.0.0.1", "-p", std::to_string(port), "-n", "1M",
                                 "--wait-server", "300", "-J"});
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
  EXPECT_EQ(client.status, mrcperf::kExitRuntime);
  EXPECT_EQ(json::parse(client.out)["error"],
            "connect 127.0.0.1:" + std::to_string(port) + ": Connection refused");
}

TEST(MrcperfTcp, WaitServerConnectsToALateServer) {
  std::uint16_t port = 0;
  std::string port_text;
  {
    const Fd probe = BoundSocket(false, port);  // a free port, released again
    port_text = std::to_string(port);
  }
  auto client = std::async(std::launch::async, [&] {
    return RunCli({"--tcp", "-c", "127.0.0.1", "-p", port_text, "-n", "1M", "--verify",
                   "--wait-server", "5000", "-J"});
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const Outcome served =
      RunCli({"-s", "--tcp", "-1", "-B", "127.0.0.1", "-p", port_text, "--verify", "-J"});
  const Outcome sent = client.get();
  EXPECT_EQ(sent.status, 0) << sent.err;
  EXPECT_EQ(served.status, 0) << served.err;
  EXPECT_EQ(json::parse(served.out)["bytes"], 1U << 20U);
}

TEST(MrcperfTcp, PeerThatStopsReadingTimesOut) {
  std::uint16_t port = 0;
  const Fd listener = BoundSocket(true, port);
  const auto start = std::chrono::steady_clock::now();
  const Outcome client = RunCli({"--tcp", "-c", "127.0.0.1", "-p", std::to_string(port), "-n", "4G",
                                 "--timeout", "300", "-J"});
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(client.status, mrcperf::kExitRuntime);
  EXPECT_EQ(client.err,
            "mrcperf: send to 127.0.0.1:" + std::to_string(port) + ": Connection timed out\n");
  const json c = json::parse(client.out);
  EXPECT_GT(c["bytes"].get<std::uint64_t>(), 0U);  // the socket buffers took some
  EXPECT_GE(c["longest_gap_ms"].get<double>(), 290.0);
  EXPECT_LT(elapsed, std::chrono::seconds(10));
}

TEST(MrcperfTcp, ServerThatNeverAnswersIsARuntimeError) {
  std::uint16_t port = 0;
  const Fd listener = BoundSocket(true, port);
  std::thread mute([&] {
    const Fd peer(accept(listener.get(), nullptr, nullptr));
    std::array<char, 4096> sink{};
    while (recv(peer.get(), sink.data(), sink.size(), 0) > 0) {
    }
  });
  const Outcome client =
      RunCli({"--tcp", "-c", "127.0.0.1", "-p", std::to_string(port), "-n", "1M", "-J"});
  mute.join();
  EXPECT_EQ(client.status, mrcperf::kExitRuntime);
  EXPECT_EQ(json::parse(client.out)["error"],
            "server 127.0.0.1:" + std::to_string(port) + " closed the connection without a result");
}

TEST(MrcperfTcp, ServerRefusesANonMrcperfClient) {
  ServerThread server;
  {
    const Fd peer = ConnectTo(static_cast<std::uint16_t>(std::stoi(server.port())));
    const std::string request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n0123456789abc";
    ASSERT_EQ(send(peer.get(), request.data(), request.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(request.size()));
  }
  const Outcome served = server.Wait();
  EXPECT_EQ(served.status, mrcperf::kExitRuntime);
  const json s = json::parse(served.out);
  EXPECT_EQ(s["error"], "hello has a bad magic number: not an mrcperf peer");
  EXPECT_EQ(served.err, "mrcperf: hello has a bad magic number: not an mrcperf peer\n");
}

TEST(MrcperfTcp, BindFailureIsARuntimeError) {
  std::uint16_t port = 0;
  const Fd taken = BoundSocket(true, port);
  const Outcome served =
      RunCli({"-s", "--tcp", "-1", "-B", "127.0.0.1", "-p", std::to_string(port)});
  EXPECT_EQ(served.status, mrcperf::kExitRuntime);
  EXPECT_EQ(served.err,
            "mrcperf: bind 127.0.0.1:" + std::to_string(port) + ": Address already in use\n");
}

}  // namespace
