// SPDX-License-Identifier: GPL-2.0
// mrcize's pure parts: address translation both ways, port lists, and
// the read+write copies behind the sendfile()/splice() fallbacks.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>

#include "addr.h"

namespace {

constexpr int kFamily = 19;

sockaddr_in V4(const char* ip, uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  EXPECT_EQ(inet_pton(AF_INET, ip, &a.sin_addr), 1);
  return a;
}

sockaddr_in6 V6(const char* ip, uint16_t port, uint32_t scope = 0) {
  sockaddr_in6 a{};
  a.sin6_family = AF_INET6;
  a.sin6_port = htons(port);
  a.sin6_scope_id = scope;
  EXPECT_EQ(inet_pton(AF_INET6, ip, &a.sin6_addr), 1);
  return a;
}

const sockaddr* Sa(const auto& a) { return reinterpret_cast<const sockaddr*>(&a); }

std::string Ip6(const sockaddr_in6& a) {
  std::array<char, INET6_ADDRSTRLEN> buf{};
  return inet_ntop(AF_INET6, &a.sin6_addr, buf.data(), buf.size());
}

TEST(MrcizeAddr, V4ToMrc) {
  const auto a = V4("10.100.0.2", 5201);
  sockaddr_mrc m{};
  ASSERT_EQ(mrcize_to_mrc(Sa(a), sizeof(a), AF_INET, kFamily, &m), 0);
  EXPECT_EQ(m.mrc_family, kFamily);
  EXPECT_EQ(m.mrc_addr_family, AF_INET);
  EXPECT_EQ(ntohs(m.mrc_port), 5201);
  EXPECT_EQ(m.mrc_addr4, a.sin_addr.s_addr);
  EXPECT_EQ(m.mrc_reserved, 0);
}

TEST(MrcizeAddr, V6ToMrcKeepsScope) {
  const auto a = V6("fe80::1", 80, 7);
  sockaddr_mrc m{};
  ASSERT_EQ(mrcize_to_mrc(Sa(a), sizeof(a), AF_INET6, kFamily, &m), 0);
  EXPECT_EQ(m.mrc_addr_family, AF_INET6);
  EXPECT_EQ(std::memcmp(m.mrc_addr6, &a.sin6_addr, 16), 0);
  EXPECT_EQ(m.mrc_scope_id, 7u);
  EXPECT_EQ(ntohs(m.mrc_port), 80);
}

TEST(MrcizeAddr, V4MappedBecomesV4) {
  const auto a = V6("::ffff:10.101.0.1", 6379);
  sockaddr_mrc m{};
  ASSERT_EQ(mrcize_to_mrc(Sa(a), sizeof(a), AF_INET6, kFamily, &m), 0);
  EXPECT_EQ(m.mrc_addr_family, AF_INET);
  EXPECT_EQ(m.mrc_addr4, inet_addr("10.101.0.1"));
}

TEST(MrcizeAddr, RfcLengthV6HasNoScope) {
  auto a = V6("fd00:100::2", 1, 9);
  sockaddr_mrc m{};
  ASSERT_EQ(mrcize_to_mrc(Sa(a), 24, AF_INET6, kFamily, &m), 0);
  EXPECT_EQ(m.mrc_scope_id, 0u);
}

TEST(MrcizeAddr, BadLengthsAndFamilies) {
  const auto a4 = V4("10.0.0.1", 1);
  const auto a6 = V6("fd00::1", 1);
  sockaddr_mrc m{};
  EXPECT_EQ(mrcize_to_mrc(Sa(a4), sizeof(a4) - 1, AF_INET, kFamily, &m), -EINVAL);
  EXPECT_EQ(mrcize_to_mrc(Sa(a4), 0, AF_INET, kFamily, &m), -EINVAL);
  EXPECT_EQ(mrcize_to_mrc(nullptr, sizeof(a4), AF_INET, kFamily, &m), -EINVAL);
  EXPECT_EQ(mrcize_to_mrc(Sa(a6), 23, AF_INET6, kFamily, &m), -EINVAL);
  EXPECT_EQ(mrcize_to_mrc(Sa(a6), sizeof(a6), AF_INET, kFamily, &m), -EAFNOSUPPORT);
  EXPECT_EQ(mrcize_to_mrc(Sa(a4), sizeof(a6), AF_INET6, kFamily, &m), -EAFNOSUPPORT);
  sockaddr_in unspec = a4;
  unspec.sin_family = AF_UNSPEC;
  EXPECT_EQ(mrcize_to_mrc(Sa(unspec), sizeof(unspec), AF_INET, kFamily, &m), -EAFNOSUPPORT);
}

TEST(MrcizeAddr, FromMrcV4) {
  sockaddr_mrc m{};
  m.mrc_family = kFamily;
  m.mrc_addr_family = AF_INET;
  m.mrc_port = htons(5201);
  m.mrc_addr4 = inet_addr("10.100.0.1");
  sockaddr_storage ss{};
  ASSERT_EQ(mrcize_from_mrc(&m, AF_INET, &ss), sizeof(sockaddr_in));
  const auto& in4 = reinterpret_cast<const sockaddr_in&>(ss);
  EXPECT_EQ(in4.sin_family, AF_INET);
  EXPECT_EQ(ntohs(in4.sin_port), 5201);
  EXPECT_EQ(in4.sin_addr.s_addr, m.mrc_addr4);

  // An AF_INET6 socket sees IPv4 peers as v4-mapped addresses.
  ASSERT_EQ(mrcize_from_mrc(&m, AF_INET6, &ss), sizeof(sockaddr_in6));
  const auto& in6 = reinterpret_cast<const sockaddr_in6&>(ss);
  EXPECT_EQ(in6.sin6_family, AF_INET6);
  EXPECT_EQ(ntohs(in6.sin6_port), 5201);
  EXPECT_EQ(Ip6(in6), "::ffff:10.100.0.1");
}

TEST(MrcizeAddr, FromMrcV6) {
  const auto a = V6("fd00:103::2", 443, 3);
  sockaddr_mrc m{};
  ASSERT_EQ(mrcize_to_mrc(Sa(a), sizeof(a), AF_INET6, kFamily, &m), 0);
  sockaddr_storage ss{};
  ASSERT_EQ(mrcize_from_mrc(&m, AF_INET6, &ss), sizeof(sockaddr_in6));
  const auto& in6 = reinterpret_cast<const sockaddr_in6&>(ss);
  EXPECT_EQ(Ip6(in6), "fd00:103::2");
  EXPECT_EQ(ntohs(in6.sin6_port), 443);
  EXPECT_EQ(in6.sin6_scope_id, 3u);
}

TEST(MrcizeAddr, UnboundIsTheWildcardOfTheSocketsFamily) {
  sockaddr_mrc m{};
  m.mrc_family = kFamily;
  sockaddr_storage ss{};
  ASSERT_EQ(mrcize_from_mrc(&m, AF_INET, &ss), sizeof(sockaddr_in));
  EXPECT_EQ(reinterpret_cast<const sockaddr_in&>(ss).sin_addr.s_addr, INADDR_ANY);
  ASSERT_EQ(mrcize_from_mrc(&m, AF_INET6, &ss), sizeof(sockaddr_in6));
  EXPECT_EQ(Ip6(reinterpret_cast<const sockaddr_in6&>(ss)), "::");
}

TEST(MrcizeAddr, RoundTrip) {
  for (const char* ip : {"10.100.0.1", "192.0.2.200"}) {
    const auto a = V4(ip, 7000);
    sockaddr_mrc m{};
    ASSERT_EQ(mrcize_to_mrc(Sa(a), sizeof(a), AF_INET, kFamily, &m), 0);
    sockaddr_storage ss{};
    ASSERT_EQ(mrcize_from_mrc(&m, AF_INET, &ss), sizeof(a));
    EXPECT_EQ(std::memcmp(&ss, &a, sizeof(a)), 0) << ip;
  }
}

TEST(MrcizeAddr, CopyOutTruncatesAndReportsFullLength) {
  const auto a = V6("fd00::5", 9);
  std::array<unsigned char, 8> small{};
  socklen_t len = small.size();
  mrcize_copy_out(&a, sizeof(a), reinterpret_cast<sockaddr*>(small.data()), &len);
  EXPECT_EQ(len, sizeof(a));
  EXPECT_EQ(std::memcmp(small.data(), &a, small.size()), 0);
  mrcize_copy_out(&a, sizeof(a), nullptr, &len);  // no buffer: nothing happens
}

TEST(MrcizeAddr, Loopback) {
  const auto lo4 = V4("127.0.0.53", 1);
  const auto lo6 = V6("::1", 1);
  const auto mapped = V6("::ffff:127.0.0.1", 1);
  const auto plane = V4("10.100.0.2", 1);
  const auto plane6 = V6("fd00:100::2", 1);
  EXPECT_TRUE(mrcize_is_loopback(Sa(lo4), sizeof(lo4)));
  EXPECT_TRUE(mrcize_is_loopback(Sa(lo6), sizeof(lo6)));
  EXPECT_TRUE(mrcize_is_loopback(Sa(mapped), sizeof(mapped)));
  EXPECT_FALSE(mrcize_is_loopback(Sa(plane), sizeof(plane)));
  EXPECT_FALSE(mrcize_is_loopback(Sa(plane6), sizeof(plane6)));
  EXPECT_FALSE(mrcize_is_loopback(Sa(lo4), 4));
  EXPECT_EQ(mrcize_port(Sa(plane), sizeof(plane)), 1);
  EXPECT_EQ(mrcize_port(Sa(plane), 3), -1);
}

TEST(MrcizePorts, ParseAndMatch) {
  mrcize_ports p{};
  ASSERT_EQ(mrcize_ports_parse("5201,6379,7000-7100", &p), 0);
  EXPECT_EQ(p.n, 3);
  EXPECT_TRUE(mrcize_ports_match(&p, 5201));
  EXPECT_TRUE(mrcize_ports_match(&p, 7050));
  EXPECT_TRUE(mrcize_ports_match(&p, 7100));
  EXPECT_FALSE(mrcize_ports_match(&p, 7101));
  EXPECT_FALSE(mrcize_ports_match(&p, 22));
  ASSERT_EQ(mrcize_ports_parse("", &p), 0);
  EXPECT_TRUE(mrcize_ports_match(&p, 22));  // empty: every port
  ASSERT_EQ(mrcize_ports_parse(nullptr, &p), 0);
  EXPECT_TRUE(mrcize_ports_match(&p, 22));
}

TEST(MrcizePorts, Malformed) {
  mrcize_ports p{};
  for (const char* bad : {"x", "0", "65536", "10-5", "1,", ",1", "1;2", "-5", "5-", " 5", "1--2"}) {
    EXPECT_EQ(mrcize_ports_parse(bad, &p), -EINVAL) << bad;
    EXPECT_EQ(p.n, 0) << bad;
  }
}

struct Fds {
  int fd[2]{-1, -1};
  ~Fds() {
    for (int f : fd)
      if (f >= 0) close(f);
  }
};

TEST(MrcizeCopy, FileToSocketWithOffset) {
  char path[] = "/tmp/mrcize-copy-XXXXXX";
  const int file = mkstemp(path);
  ASSERT_GE(file, 0);
  unlink(path);
  std::string data(200000, '\0');
  for (size_t i = 0; i < data.size(); i++) data[i] = static_cast<char>(i * 7);
  ASSERT_EQ(write(file, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  Fds sp;
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sp.fd), 0);
  const int buf = 1 << 20;
  setsockopt(sp.fd[0], SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
  setsockopt(sp.fd[1], SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));

  off_t off = 1000;
  const ssize_t n = mrcize_copy_file(sp.fd[0], file, &off, 100000);
  ASSERT_EQ(n, 100000);
  EXPECT_EQ(off, 101000);
  EXPECT_EQ(lseek(file, 0, SEEK_CUR), static_cast<off_t>(data.size()));  // untouched
  std::string got(100000, '\0');
  size_t have = 0;
  while (have < got.size()) {
    const ssize_t r = read(sp.fd[1], got.data() + have, got.size() - have);
    ASSERT_GT(r, 0);
    have += static_cast<size_t>(r);
  }
  EXPECT_EQ(got, data.substr(1000, 100000));

  // Without an offset: from the file position, which advances; EOF ends it.
  ASSERT_EQ(lseek(file, 199990, SEEK_SET), 199990);
  EXPECT_EQ(mrcize_copy_file(sp.fd[0], file, nullptr, 100), 10);
  EXPECT_EQ(lseek(file, 0, SEEK_CUR), 200000);
  close(file);
}

TEST(MrcizeCopy, FullNonBlockingSocketGivesBackUnsentBytes) {
  char path[] = "/tmp/mrcize-copy-XXXXXX";
  const int file = mkstemp(path);
  ASSERT_GE(file, 0);
  unlink(path);
  const std::string data(4 << 20, 'x');
  ASSERT_EQ(write(file, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  ASSERT_EQ(lseek(file, 0, SEEK_SET), 0);
  Fds sp;
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sp.fd), 0);
  const ssize_t n = mrcize_copy_file(sp.fd[0], file, nullptr, data.size());
  ASSERT_GT(n, 0);
  ASSERT_LT(n, static_cast<ssize_t>(data.size()));  // the peer reads nothing
  EXPECT_EQ(lseek(file, 0, SEEK_CUR), n);           // what was not sent is unread
  errno = 0;
  EXPECT_EQ(mrcize_copy_file(sp.fd[0], file, nullptr, data.size()), -1);
  EXPECT_EQ(errno, EAGAIN);
  EXPECT_EQ(lseek(file, 0, SEEK_CUR), n);
  close(file);
}

TEST(MrcizeCopy, PipeToSocketAndBack) {
  Fds pipe_in, sp, pipe_out;
  ASSERT_EQ(pipe(pipe_in.fd), 0);
  ASSERT_EQ(pipe(pipe_out.fd), 0);
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sp.fd), 0);
  ASSERT_EQ(write(pipe_in.fd[1], "hello mrc", 9), 9);
  EXPECT_EQ(mrcize_copy_stream(sp.fd[0], pipe_in.fd[0], 4096, false), 9);
  EXPECT_EQ(mrcize_copy_stream(pipe_out.fd[1], sp.fd[1], 4, false), 4);
  EXPECT_EQ(mrcize_copy_stream(pipe_out.fd[1], sp.fd[1], 4096, true), 5);
  std::array<char, 16> buf{};
  ASSERT_EQ(read(pipe_out.fd[0], buf.data(), buf.size()), 9);
  EXPECT_EQ(std::string(buf.data(), 9), "hello mrc");
  errno = 0;
  EXPECT_EQ(mrcize_copy_stream(pipe_out.fd[1], sp.fd[1], 4096, true), -1);
  EXPECT_EQ(errno, EAGAIN);
}

}  // namespace
