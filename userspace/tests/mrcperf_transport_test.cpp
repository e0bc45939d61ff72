// SPDX-License-Identifier: GPL-2.0
// mrcperf's addresses: struct sockaddr_mrc built from IPv4/IPv6 text the
// way the uapi header lays it out, and TCP addresses for --tcp.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <linux/mrc.h>
#include <netinet/in.h>

#include <array>
#include <cstddef>
#include <cstring>

#include "mrcperf/error.hpp"
#include "mrcperf/transport.hpp"

namespace {

using mrcperf::Transport;

sockaddr_mrc AsMrc(const mrcperf::Endpoint& endpoint) {
  sockaddr_mrc mrc{};
  EXPECT_EQ(endpoint.len, sizeof(mrc));
  std::memcpy(&mrc, &endpoint.addr, sizeof(mrc));
  return mrc;
}

// The address union's bytes (it is anonymous, so reached by offset).
std::array<std::uint8_t, 16> AddressBytes(const sockaddr_mrc& mrc) {
  std::array<std::uint8_t, 16> bytes{};
  const auto* base = static_cast<const std::uint8_t*>(static_cast<const void*>(&mrc));
  std::memcpy(bytes.data(), base + offsetof(sockaddr_mrc, mrc_addr6), bytes.size());
  return bytes;
}

TEST(MrcperfTransport, MrcIpv4Address) {
  const auto endpoint = Transport::Mrc(MRC_AF_DEFAULT).Resolve("10.101.0.2", 5201);
  EXPECT_EQ(endpoint.domain, MRC_AF_DEFAULT);
  EXPECT_EQ(endpoint.text, "10.101.0.2:5201");
  const sockaddr_mrc mrc = AsMrc(endpoint);
  EXPECT_EQ(mrc.mrc_family, MRC_AF_DEFAULT);
  EXPECT_EQ(mrc.mrc_port, htons(5201));
  EXPECT_EQ(mrc.mrc_addr_family, AF_INET);
  EXPECT_EQ(mrc.mrc_reserved, 0);
  EXPECT_EQ(AddressBytes(mrc),
            (std::array<std::uint8_t, 16>{10, 101, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(MrcperfTransport, MrcIpv6AddressAndLiveFamily) {
  const auto endpoint = Transport::Mrc(27).Resolve("fd00::1:2", 80);
  EXPECT_EQ(endpoint.domain, 27);
  EXPECT_EQ(endpoint.text, "[fd00::1:2]:80");
  const sockaddr_mrc mrc = AsMrc(endpoint);
  EXPECT_EQ(mrc.mrc_family, 27);
  EXPECT_EQ(mrc.mrc_addr_family, AF_INET6);
  in6_addr expected{};
  ASSERT_EQ(inet_pton(AF_INET6, "fd00::1:2", &expected), 1);
  std::array<std::uint8_t, 16> expected_bytes{};
  std::memcpy(expected_bytes.data(), &expected, sizeof(expected));
  EXPECT_EQ(AddressBytes(mrc), expected_bytes);
  EXPECT_EQ(mrc.mrc_scope_id, 0U);
}

TEST(MrcperfTransport, MrcWildcardIsIpv4Any) {
  const auto endpoint = Transport::Mrc(19).Resolve("", 5201);
  EXPECT_EQ(endpoint.text, "0.0.0.0:5201");
  EXPECT_EQ(AsMrc(endpoint).mrc_addr_family, AF_INET);
}

TEST(MrcperfTransport, TcpAddresses) {
  const Transport tcp = Transport::For(mrcperf::TransportKind::kTcp);
  const auto v4 = tcp.Resolve("127.0.0.1", 5299);
  EXPECT_EQ(v4.domain, AF_INET);
  EXPECT_EQ(v4.len, sizeof(sockaddr_in));
  EXPECT_EQ(v4.text, "127.0.0.1:5299");
  const auto v6 = tcp.Resolve("::1", 5299);
  EXPECT_EQ(v6.domain, AF_INET6);
  EXPECT_EQ(v6.len, sizeof(sockaddr_in6));
  EXPECT_EQ(v6.text, "[::1]:5299");
}

TEST(MrcperfTransport, MptcpAndUdpAddressesAreIp) {
  for (const auto kind : {mrcperf::TransportKind::kMptcp, mrcperf::TransportKind::kUdp}) {
    const Transport transport = Transport::For(kind);
    EXPECT_EQ(transport.kind(), kind);
    const auto v4 = transport.Resolve("127.0.0.1", 5299);
    EXPECT_EQ(v4.domain, AF_INET);
    EXPECT_EQ(v4.len, sizeof(sockaddr_in));
    EXPECT_EQ(v4.text, "127.0.0.1:5299");
    EXPECT_EQ(transport.Resolve("::1", 1).text, "[::1]:1");
  }
}

// Without MPTCP in the kernel (or with net.mptcp.enabled=0) the socket
// cannot open; the message must say why. Either outcome is a pass, but
// each is checked for what it must be.
TEST(MrcperfTransport, MptcpSocketIsMptcpOrSaysWhy) {
  const Transport mptcp = Transport::For(mrcperf::TransportKind::kMptcp);
  const auto local = mptcp.Resolve("127.0.0.1", 0);
  try {
    const mrc::Fd fd = mptcp.Listen(local, mrcperf::Mode::kStream);
    int protocol = 0;
    socklen_t len = sizeof(protocol);
    ASSERT_EQ(getsockopt(fd.get(), SOL_SOCKET, SO_PROTOCOL, &protocol, &len), 0);
    EXPECT_EQ(protocol, 262);  // IPPROTO_MPTCP
    EXPECT_NO_THROW(mptcp.ApplyTimeout(fd.get(), std::chrono::milliseconds(1500)));
  } catch (const mrcperf::RuntimeError& e) {
    EXPECT_EQ(std::string(e.what()), mrcperf::kMptcpUnavailable);
  }
}

TEST(MrcperfTransport, UdpSocketIsADatagramSocket) {
  const Transport udp = Transport::For(mrcperf::TransportKind::kUdp);
  const mrc::Fd fd = udp.Bind(udp.Resolve("127.0.0.1", 0), mrcperf::Mode::kStream);
  int type = 0;
  socklen_t len = sizeof(type);
  ASSERT_EQ(getsockopt(fd.get(), SOL_SOCKET, SO_TYPE, &type, &len), 0);
  EXPECT_EQ(type, SOCK_DGRAM);
  EXPECT_NE(mrcperf::PortOf(udp.LocalOf(fd.get())), 0);
  EXPECT_NO_THROW(udp.ApplyTimeout(fd.get(), std::chrono::milliseconds(100)));
}

TEST(MrcperfTransport, UnresolvableNameIsARuntimeError) {
  const Transport tcp = Transport::For(mrcperf::TransportKind::kTcp);
  EXPECT_THROW((void)tcp.Resolve("no such host.invalid", 1), mrcperf::RuntimeError);
  EXPECT_THROW((void)tcp.Resolve("300.1.1.1x", 1), mrcperf::RuntimeError);
}

}  // namespace
