// SPDX-License-Identifier: GPL-2.0
// mrcize on the build host, where mrc.ko is never loaded: stock iperf3
// under `mrcize run --fallback` must still work, over plain TCP.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "run_helper.hpp"

namespace {

using mrcize_test::RunCmd;

// A non-loopback IPv4 address of this host (loopback stays TCP by rule,
// so it would prove less), else 127.0.0.1.
std::string HostAddress() {
  ifaddrs* list = nullptr;
  std::string found = "127.0.0.1";
  if (getifaddrs(&list) != 0) return found;
  for (ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    if ((i->ifa_flags & IFF_LOOPBACK) || !(i->ifa_flags & IFF_UP)) continue;
    char buf[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, buf, sizeof(buf));
    found = buf;
    break;
  }
  freeifaddrs(list);
  return found;
}

int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  socklen_t len = sizeof(a);
  int port = 0;
  if (fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  if (fd >= 0) close(fd);
  return port;
}

bool HaveIperf3() { return RunCmd({"iperf3", "--version"}).status == 0; }

TEST(MrcizeRun, ModuleIsNotLoadedOnTheHost) {
  struct stat st {};
  // The premise of this file: if it ever fails, someone loaded mrc.ko on
  // the build host, which the project forbids.
  EXPECT_NE(stat("/sys/module/mrc", &st), 0);
}

TEST(MrcizeRun, Iperf3FallsBackToTcpWithoutTheModule) {
  ASSERT_TRUE(HaveIperf3()) << "iperf3 is in scripts/deps.sh";
  const std::string addr = HostAddress();
  const std::string port = std::to_string(FreePort());
  mrcize_test::TempFile sout, serr;
  const pid_t server = mrcize_test::Spawn(
      {MRCIZE_BIN, "run", "--fallback", "--debug", "iperf3", "-s", "-1", "-B", addr, "-p", port},
      {}, sout.path(), serr.path());
  ASSERT_GT(server, 0);
  // Clients only once the server listens (ss, which does not connect:
  // iperf3 -1 serves exactly one connection).
  for (int i = 0; i < 100; i++) {
    if (RunCmd({"sh", "-c", "ss -Hltn 'sport = :" + port + "' | grep -q ."}).status == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  mrcize_test::Result client;
  // A refused try costs nothing: try again.
  for (int i = 0; i < 50; i++) {
    client = RunCmd({MRCIZE_BIN, "run", "--fallback", "--debug", "iperf3", "-c", addr, "-p", port,
                     "-t", "1", "-J"});
    if (client.status == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  // SIGKILL: iperf3 waiting for its one client has been seen to outlive
  // a SIGTERM, which left this test waiting for ever.
  if (client.status != 0) kill(server, SIGKILL);
  const int sstatus = mrcize_test::Wait(server);
  ASSERT_EQ(client.status, 0) << client.out << client.err;
  EXPECT_EQ(sstatus, 0) << serr.Read();

  const auto j = nlohmann::json::parse(client.out);
  EXPECT_FALSE(j.contains("error")) << j.dump();
  EXPECT_GT(j["end"]["sum_received"]["bytes"].get<double>(), 0);
  // Both sides saw that AF_MRC is missing and kept TCP.
  EXPECT_NE(client.err.find("AF_MRC unavailable"), std::string::npos) << client.err;
  EXPECT_NE(serr.Read().find("AF_MRC unavailable"), std::string::npos) << serr.Read();
  EXPECT_EQ(client.err.find("fd "), std::string::npos) << "no socket was mapped: " << client.err;
}

TEST(MrcizeRun, UdpAndUnixSocketsAreUntouched) {
  // Under the shim with no module, a shell's own tools still work: a
  // unix-socket and a UDP round trip through python3.
  const auto r =
      RunCmd({MRCIZE_BIN, "run", "--debug", "python3", "-c",
              "import socket\n"
              "a, b = socket.socketpair()\n"
              "a.send(b'x'); assert b.recv(1) == b'x'\n"
              "u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(('127.0.0.1', 0))\n"
              "u.sendto(b'y', u.getsockname()); assert u.recv(1) == b'y'\n"
              "t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
              "assert t.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN) == socket.AF_INET\n"
              "print('ok')\n"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "ok\n");
}

}  // namespace
