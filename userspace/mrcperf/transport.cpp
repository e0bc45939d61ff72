// SPDX-License-Identifier: GPL-2.0
// Sockets for AF_MRC, TCP, MPTCP and UDP: names to addresses, listen,
// connect with a deadline, timeouts.
#include "transport.hpp"

#include <arpa/inet.h>
#include <linux/mrc.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "error.hpp"
#include "mrc/error.hpp"
#include "mrc/module_info.hpp"

// Older C libraries lack it; the number is the kernel's ABI.
#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

namespace mrcperf {
namespace {

constexpr int kBacklog = 16;
// Where the IPv4/IPv6 union of struct sockaddr_mrc starts; reached by
// offset because the union is anonymous.
constexpr std::size_t kMrcAddressOffset = offsetof(sockaddr_mrc, mrc_addr6);

int ReadMrcFamily() {
  std::ifstream in(MRC_FAMILY_SYSFS);
  if (!in) {
    throw RuntimeError("AF_MRC is not available: cannot read " + std::string(MRC_FAMILY_SYSFS) +
                       " (is mrc.ko loaded? --tcp runs over TCP)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return mrc::ParseFamily(text.str());
  } catch (const mrc::Error& e) {
    throw RuntimeError(e.what());
  }
}

std::string AddressText(int family, const void* addr, std::uint16_t port) {
  std::array<char, INET6_ADDRSTRLEN> buf{};
  if (inet_ntop(family, addr, buf.data(), buf.size()) == nullptr) {
    return "?";
  }
  const std::string ip(buf.data());
  return (family == AF_INET6 ? "[" + ip + "]" : ip) + ":" + std::to_string(port);
}

// The first address getaddrinfo() gives for `host`, as an IP socket address.
sockaddr_storage LookUp(std::string_view host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string name(host);
  const std::string service = std::to_string(port);
  const int err = getaddrinfo(name.c_str(), service.c_str(), &hints, &found);
  if (err != 0) {
    throw RuntimeError("address " + name + ": " + gai_strerror(err));
  }
  const std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owner(found, freeaddrinfo);
  sockaddr_storage addr{};
  std::memcpy(&addr, found->ai_addr, found->ai_addrlen);
  return addr;
}

// An IPv4 or IPv6 socket address -> struct sockaddr_mrc with the same
// address and port.
sockaddr_storage ToMrc(const sockaddr_storage& ip, int mrc_family) {
  sockaddr_storage storage{};
  sockaddr_mrc mrc{};
  mrc.mrc_family = static_cast<__kernel_sa_family_t>(mrc_family);
  mrc.mrc_addr_family = ip.ss_family;
  auto* address = static_cast<std::uint8_t*>(static_cast<void*>(&mrc)) + kMrcAddressOffset;
  if (ip.ss_family == AF_INET) {
    sockaddr_in in{};
    std::memcpy(&in, &ip, sizeof(in));
    mrc.mrc_port = in.sin_port;
    std::memcpy(address, &in.sin_addr, sizeof(in.sin_addr));
  } else {
    sockaddr_in6 in6{};
    std::memcpy(&in6, &ip, sizeof(in6));
    mrc.mrc_port = in6.sin6_port;
    std::memcpy(address, &in6.sin6_addr, sizeof(in6.sin6_addr));
    mrc.mrc_scope_id = in6.sin6_scope_id;
  }
  std::memcpy(&storage, &mrc, sizeof(mrc));
  return storage;
}

socklen_t LengthOf(const sockaddr_storage& addr, TransportKind kind) {
  if (kind == TransportKind::kMrc) {
    return sizeof(sockaddr_mrc);
  }
  return addr.ss_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
}

int SocketType(TransportKind kind, Mode mode) {
  if (kind == TransportKind::kUdp) {
    return SOCK_DGRAM;
  }
  return mode == Mode::kSeqpacket ? SOCK_SEQPACKET : SOCK_STREAM;
}

// The errors socket() gives for IPPROTO_MPTCP where MPTCP is compiled out
// (EPROTONOSUPPORT, also for IPv6 without CONFIG_MPTCP_IPV6), turned off
// by net.mptcp.enabled=0 (ENOPROTOOPT), or unknown to an old kernel.
bool MptcpMissing(int error) {
  return error == EPROTONOSUPPORT || error == ENOPROTOOPT || error == EINVAL;
}

// Both are TCP as far as the socket options go.
bool TcpLike(TransportKind kind) {
  return kind == TransportKind::kTcp || kind == TransportKind::kMptcp;
}

// The generic views of a socket address that the socket calls take.
const sockaddr* AsSockaddr(const sockaddr_storage& addr) {
  return static_cast<const sockaddr*>(static_cast<const void*>(&addr));
}

sockaddr* AsSockaddr(sockaddr_storage& addr) {
  return static_cast<sockaddr*>(static_cast<void*>(&addr));
}

}  // namespace

Transport Transport::For(TransportKind kind) {
  return {kind, kind == TransportKind::kMrc ? ReadMrcFamily() : 0};
}

Endpoint Transport::Resolve(std::string_view host, std::uint16_t port) const {
  sockaddr_storage ip{};
  if (host.empty()) {
    sockaddr_in any{};
    any.sin_family = AF_INET;
    any.sin_port = htons(port);
    any.sin_addr.s_addr = htonl(INADDR_ANY);
    std::memcpy(&ip, &any, sizeof(any));
  } else {
    ip = LookUp(host, port);
  }
  const sockaddr_storage addr = kind_ == TransportKind::kMrc ? ToMrc(ip, mrc_family_) : ip;
  return Describe(addr, LengthOf(addr, kind_));
}

Endpoint Transport::Describe(const sockaddr_storage& addr, socklen_t len) const {
  Endpoint endpoint{.addr = addr, .len = len, .domain = addr.ss_family, .text = "?"};
  if (kind_ == TransportKind::kMrc) {
    sockaddr_mrc mrc{};
    std::memcpy(&mrc, &addr, sizeof(mrc));
    endpoint.domain = mrc_family_;
    const auto* ip =
        static_cast<const std::uint8_t*>(static_cast<const void*>(&mrc)) + kMrcAddressOffset;
    endpoint.text = AddressText(mrc.mrc_addr_family, ip, ntohs(mrc.mrc_port));
  } else if (addr.ss_family == AF_INET) {
    sockaddr_in in{};
    std::memcpy(&in, &addr, sizeof(in));
    endpoint.text = AddressText(AF_INET, &in.sin_addr, ntohs(in.sin_port));
  } else if (addr.ss_family == AF_INET6) {
    sockaddr_in6 in6{};
    std::memcpy(&in6, &addr, sizeof(in6));
    endpoint.text = AddressText(AF_INET6, &in6.sin6_addr, ntohs(in6.sin6_port));
  }
  return endpoint;
}

Fd Transport::Socket(const Endpoint& endpoint, Mode mode) const {
  const int protocol = kind_ == TransportKind::kMptcp ? IPPROTO_MPTCP : 0;
  Fd fd(socket(endpoint.domain, SocketType(kind_, mode) | SOCK_CLOEXEC, protocol));
  if (!fd.valid()) {
    if (kind_ == TransportKind::kMptcp && MptcpMissing(errno)) {
      throw RuntimeError(std::string(kMptcpUnavailable));
    }
    throw SystemError("socket", errno);
  }
  return fd;
}

Fd Transport::Bind(const Endpoint& local, Mode mode) const {
  Fd fd = Socket(local, mode);
  const int on = 1;
  if (TcpLike(kind_) && setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) < 0) {
    throw SystemError("setsockopt SO_REUSEADDR", errno);
  }
  if (bind(fd.get(), AsSockaddr(local.addr), local.len) < 0) {
    throw SystemError("bind " + local.text, errno);
  }
  return fd;
}

Fd Transport::Listen(const Endpoint& local, Mode mode) const {
  Fd fd = Bind(local, mode);
  if (listen(fd.get(), kBacklog) < 0) {
    throw SystemError("listen " + local.text, errno);
  }
  return fd;
}

Fd Transport::Connect(const Endpoint& remote, const std::optional<Endpoint>& local, Mode mode,
                      std::optional<std::chrono::milliseconds> timeout) const {
  Fd fd = Socket(remote, mode);
  if (local && bind(fd.get(), AsSockaddr(local->addr), local->len) < 0) {
    throw SystemError("bind " + local->text, errno);
  }
  if (timeout) {
    // Both AF_MRC and TCP bound a blocking connect() by SO_SNDTIMEO and
    // then fail it with EINPROGRESS (or EAGAIN).
    ApplyTimeout(fd.get(), *timeout);
  }
  if (connect(fd.get(), AsSockaddr(remote.addr), remote.len) < 0) {
    const bool timed_out = timeout && (errno == EINPROGRESS || errno == EAGAIN);
    throw SystemError("connect " + remote.text, timed_out ? ETIMEDOUT : errno);
  }
  return fd;
}

void Transport::ApplyTimeout(int fd, std::chrono::milliseconds timeout) const {
  const auto ms = timeout.count();
  const timeval tv{.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};
  if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0) {
    throw SystemError("setsockopt SO_SNDTIMEO", errno);
  }
  if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
    throw SystemError("setsockopt SO_RCVTIMEO", errno);
  }
  if (kind_ == TransportKind::kUdp) {
    return;  // nothing goes unacknowledged
  }
  const auto user_timeout = static_cast<std::uint32_t>(ms);
  const int level = kind_ == TransportKind::kMrc ? SOL_MRC : IPPROTO_TCP;
  const int option = kind_ == TransportKind::kMrc ? MRC_USER_TIMEOUT : TCP_USER_TIMEOUT;
  if (setsockopt(fd, level, option, &user_timeout, sizeof(user_timeout)) < 0) {
    // MPTCP passes TCP options on to its subflows one by one as kernels
    // learn them (TCP_USER_TIMEOUT came late): without it the SO_*TIMEO
    // bounds above still hold.
    if (kind_ == TransportKind::kMptcp && (errno == ENOPROTOOPT || errno == EOPNOTSUPP)) {
      return;
    }
    throw SystemError(kind_ == TransportKind::kMrc ? "setsockopt MRC_USER_TIMEOUT"
                                                   : "setsockopt TCP_USER_TIMEOUT",
                      errno);
  }
}

std::uint16_t PortOf(const Endpoint& endpoint) {
  const auto colon = endpoint.text.rfind(':');
  return static_cast<std::uint16_t>(std::stoul(endpoint.text.substr(colon + 1)));
}

void SetNoDelay(int fd) {
  const int on = 1;
  (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
}

Endpoint Transport::LocalOf(int fd) const {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(fd, AsSockaddr(addr), &len) < 0) {
    throw SystemError("getsockname", errno);
  }
  return Describe(addr, len);
}

Endpoint Transport::PeerOf(int fd) const {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getpeername(fd, AsSockaddr(addr), &len) < 0) {
    throw SystemError("getpeername", errno);
  }
  return Describe(addr, len);
}

}  // namespace mrcperf
