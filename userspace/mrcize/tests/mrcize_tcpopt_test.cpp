// SPDX-License-Identifier: GPL-2.0
// mrcize's TCP and SOL_SOCKET option answers (tcpopt.c): the table names
// every option of the 6.1 headers, so a new one cannot go unanswered
// silently, and the answers follow 6.1's do_tcp_{set,get}sockopt(). The
// guest compares them with a real 6.1 TCP socket (mrc_mrcize.sh); this
// host's kernel is not 6.1, so here the rules are checked one by one.
#include <gtest/gtest.h>
#include <linux/version.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include "tcpopt.h"

namespace {

constexpr int kTcpNodelay = 1, kTcpMaxseg = 2, kTcpKeepidle = 4, kTcpLinger2 = 8;
constexpr int kTcpDeferAccept = 9, kTcpWindowClamp = 10, kTcpCongestion = 13;
constexpr int kTcpMd5sig = 14, kTcpUserTimeout = 18, kTcpRepair = 19;
constexpr int kTcpQueueSeq = 21, kTcpFastopen = 23, kTcpFastopenConnect = 30;
constexpr int kTcpUlp = 31, kTcpZerocopyReceive = 35, kTcpInq = 36;

// name -> number of every "#define PREFIX... N" in @path between @from
// and @to (empty: to the end).
std::map<std::string, int> HeaderOptions(const std::string& path, const std::string& prefix,
                                         const std::string& from, const std::string& to) {
  std::ifstream in(path);
  std::map<std::string, int> found;
  const std::regex def("^#define\\s+(" + prefix + "[A-Z0-9_]+)\\s+([0-9]+)\\b");
  bool inside = from.empty();
  for (std::string line; std::getline(in, line);) {
    if (!inside && line.find(from) != std::string::npos) {
      inside = true;
    }
    if (inside && !to.empty() && line.find(to) != std::string::npos) {
      break;
    }
    std::smatch m;
    if (inside && std::regex_search(line, m, def)) {
      found[m[1]] = std::stoi(m[2]);
    }
  }
  return found;
}

void ExpectAllInTable(int level, const std::map<std::string, int>& header) {
  for (const auto& [id, name] : header) {
    const mrcize_opt_desc* d = mrcize_opt_find_desc(level, name);
    ASSERT_NE(d, nullptr) << id << " (" << name << ") has no answer in tcpopt.c";
    EXPECT_EQ(d->id, id) << "option " << name;
  }
}

TEST(MrcizeTcpopt, HeadersAreLinux61) {
  // The rules copy 6.1; headers of another kernel would test other rules.
  EXPECT_EQ(LINUX_VERSION_CODE >> 8, 0x601);
}

TEST(MrcizeTcpopt, TableNamesEveryTcpOption) {
  const auto tcp =
      HeaderOptions("/usr/include/linux/tcp.h", "TCP_", "TCP socket options", "TCP_REPAIR_ON");
  ASSERT_GE(tcp.size(), 36U) << "the TCP option block of linux/tcp.h moved";
  ExpectAllInTable(IPPROTO_TCP, tcp);
}

TEST(MrcizeTcpopt, TableNamesEverySocketOption) {
  auto so = HeaderOptions("/usr/include/asm-generic/socket.h", "SO_", "", "");
  ASSERT_GE(so.size(), 70U);
  ExpectAllInTable(SOL_SOCKET, so);
}

TEST(MrcizeTcpopt, EveryEntryIsInTheHeadersAndSaysHow) {
  auto tcp =
      HeaderOptions("/usr/include/linux/tcp.h", "TCP_", "TCP socket options", "TCP_REPAIR_ON");
  auto so = HeaderOptions("/usr/include/asm-generic/socket.h", "SO_", "", "");
  size_t n = 0;
  const mrcize_opt_desc* t = mrcize_opt_table(&n);
  for (size_t i = 0; i < n; i++) {
    const auto& hdr = t[i].level == IPPROTO_TCP ? tcp : so;
    ASSERT_TRUE(hdr.count(t[i].id)) << t[i].id;
    EXPECT_EQ(hdr.at(t[i].id), t[i].name) << t[i].id;
    if (t[i].how != MRCIZE_OPT_KERNEL) {
      EXPECT_NE(t[i].note, nullptr) << t[i].id;
    }
  }
}

class TcpRules : public ::testing::Test {
 protected:
  // NOLINTNEXTLINE(cppcoreguidelines-non-private-member-variables-in-classes): TEST_F bodies set it
  mrcize_opt_ctx ctx{};
  void SetUp() override {
    ctx.state = MRCIZE_TCP_CLOSE;
    ctx.mss = 1400;
    ctx.rcvbuf = 131072;
    ctx.keepalive_time = 7200;
    ctx.keepalive_intvl = 75;
    ctx.keepalive_probes = 9;
    ctx.syn_retries = 6;
    ctx.fin_timeout = 60;
    ctx.fastopen = 1;
    ctx.available_cc = "reno cubic\n";
  }
  int Set(int name, int v, socklen_t len = sizeof(int)) {
    return mrcize_tcp_setsockopt(&ctx, name, &v, len);
  }
  // The int read back, with @kept as the value the program set (if any).
  int Get(int name, const int* kept = nullptr) {
    ctx.kept = kept;
    ctx.kept_len = kept != nullptr ? sizeof(int) : 0;
    int v = -12345;
    socklen_t len = sizeof(v);
    EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, name, &v, &len), 0) << "option " << name;
    EXPECT_EQ(len, sizeof(int));
    ctx.kept = nullptr;
    return v;
  }
};

TEST_F(TcpRules, IntOptionsCheckLengthThenRange) {
  EXPECT_EQ(Set(kTcpNodelay, 1, 2), -EINVAL);
  EXPECT_EQ(Set(kTcpNodelay, -7), 0);
  EXPECT_EQ(Set(kTcpKeepidle, 0), -EINVAL);
  EXPECT_EQ(Set(kTcpKeepidle, 32767), 0);
  EXPECT_EQ(Set(kTcpKeepidle, 32768), -EINVAL);
  EXPECT_EQ(Set(kTcpMaxseg, 87), -EINVAL);
  EXPECT_EQ(Set(kTcpMaxseg, 0), 0);
  EXPECT_EQ(Set(kTcpMaxseg, 32768), -EINVAL);
  EXPECT_EQ(Set(kTcpInq, 2), -EINVAL);
  EXPECT_EQ(Set(kTcpUserTimeout, -1), -EINVAL);
  EXPECT_EQ(Set(15, 0), -ENOPROTOOPT) << "no option 15 in 6.1";
  EXPECT_EQ(Set(38, 0), -ENOPROTOOPT) << "6.1 ends at TCP_TX_DELAY";
}

TEST_F(TcpRules, StateDependentWrites) {
  EXPECT_EQ(Set(kTcpWindowClamp, 0), 0);
  EXPECT_EQ(Set(kTcpFastopen, 5), 0);
  EXPECT_EQ(Set(kTcpFastopenConnect, 1), 0);
  EXPECT_EQ(Set(kTcpQueueSeq, 1), -EINVAL);
  ctx.state = MRCIZE_TCP_ESTABLISHED;
  EXPECT_EQ(Set(kTcpWindowClamp, 0), -EINVAL);
  EXPECT_EQ(Set(kTcpFastopen, 5), -EINVAL);
  EXPECT_EQ(Set(kTcpFastopenConnect, 1), -EINVAL);
  EXPECT_EQ(Set(kTcpQueueSeq, 1), -EPERM);
  ctx.state = MRCIZE_TCP_CLOSE;
  ctx.fastopen = 0;
  EXPECT_EQ(Set(kTcpFastopenConnect, 1), -EOPNOTSUPP);
}

TEST_F(TcpRules, WhatCannotApplyFailsAsTcpOutsideRepairOrWithoutMd5) {
  EXPECT_EQ(Set(kTcpRepair, 1), -EPERM);
  EXPECT_EQ(Set(kTcpMd5sig, 0), -EINVAL) << "shorter than struct tcp_md5sig";
  std::array<unsigned char, 216> key{};
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpMd5sig, key.data(), key.size()), -ENOPROTOOPT);
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpUlp, "tls", 3), -ENOENT);
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpUlp, "tls", 0), -EINVAL);
  std::array<unsigned char, 128> zc{};
  socklen_t len = 8;
  EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, kTcpZerocopyReceive, zc.data(), &len), -EINVAL);
  len = zc.size();
  EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, kTcpZerocopyReceive, zc.data(), &len), 0)
      << "nothing ready to map, as TCP answers";
  EXPECT_EQ(len, 64U) << "struct tcp_zerocopy_receive";
  zc[100] = 1;
  len = zc.size();
  EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, kTcpZerocopyReceive, zc.data(), &len), -EINVAL)
      << "bytes past the struct must be zero";
  zc[100] = 0;
  zc[1] = 1;  // address not page-aligned
  len = zc.size();
  EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, kTcpZerocopyReceive, zc.data(), &len), -EINVAL);
  zc[1] = 0;
  ctx.state = MRCIZE_TCP_LISTEN;
  len = zc.size();
  EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, kTcpZerocopyReceive, zc.data(), &len), -ENOTCONN);
  len = sizeof(int);
  EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, kTcpMd5sig, zc.data(), &len), -ENOPROTOOPT);
  EXPECT_EQ(Get(kTcpRepair), 0);
}

TEST_F(TcpRules, DefaultsAreTcpsAndSysctls) {
  EXPECT_EQ(Get(kTcpNodelay), 0);
  EXPECT_EQ(Get(kTcpKeepidle), 7200);
  EXPECT_EQ(Get(kTcpLinger2), 60);
  EXPECT_EQ(Get(kTcpMaxseg), MRCIZE_TCP_MSS_DEFAULT);
  EXPECT_EQ(Get(kTcpWindowClamp), 0);
  EXPECT_EQ(Get(kTcpUserTimeout), 0);
  ctx.state = MRCIZE_TCP_ESTABLISHED;
  EXPECT_EQ(Get(kTcpMaxseg), 1400);
  EXPECT_EQ(Get(kTcpWindowClamp), 65536);
}

TEST_F(TcpRules, KeptValuesReadBackAsTcpNormalisesThem) {
  const int seven = 7;
  const int five = 5;
  const int minus = -3;
  const int big = 1000;
  const int small = 10;
  EXPECT_EQ(Get(kTcpNodelay, &seven), 1);
  EXPECT_EQ(Get(kTcpDeferAccept, &five), 7) << "rounded up to whole SYN-ACK retries";
  EXPECT_EQ(Get(kTcpLinger2, &minus), -1);
  EXPECT_EQ(Get(kTcpLinger2, &big), 120);
  EXPECT_EQ(Get(kTcpWindowClamp, &small), 1140);
  EXPECT_EQ(Get(kTcpMaxseg, &big), 1000);
  ctx.state = MRCIZE_TCP_ESTABLISHED;
  EXPECT_EQ(Get(kTcpMaxseg, &big), 1400) << "connected: the real segment size";
  EXPECT_EQ(mrcize_defer_accept_secs(0), 0);
  EXPECT_EQ(mrcize_defer_accept_secs(1), 1);
  EXPECT_EQ(mrcize_defer_accept_secs(2), 3);
}

TEST_F(TcpRules, ReadsTruncateAsTcp) {
  std::array<char, 32> buf{};
  socklen_t len = 2;
  EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, kTcpKeepidle, buf.data(), &len), 0);
  EXPECT_EQ(len, 2U);
  len = static_cast<socklen_t>(-1);
  EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, kTcpKeepidle, buf.data(), &len), -EINVAL);
  len = buf.size();
  EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, kTcpCongestion, buf.data(), &len), 0);
  EXPECT_EQ(len, 16U);
  EXPECT_STREQ(buf.data(), MRCIZE_CC_NAME);
  len = buf.size();
  EXPECT_EQ(mrcize_tcp_getsockopt(&ctx, kTcpUlp, buf.data(), &len), 0);
  EXPECT_EQ(len, 0U) << "no ULP";
}

TEST_F(TcpRules, CongestionNamesTcpKnowsAreAccepted) {
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpCongestion, "cubic", 5), 0);
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpCongestion, "cubic\0\0", 7), 0);
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpCongestion, MRCIZE_CC_NAME, 4), 0);
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpCongestion, "cub", 3), -ENOENT);
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpCongestion, "bbr", 3), -ENOENT);
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpCongestion, "", 0), -EINVAL);
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpCongestion, nullptr, 5), -EFAULT);
  EXPECT_EQ(mrcize_tcp_setsockopt(&ctx, kTcpNodelay, nullptr, 4), -EFAULT);
}

TEST(MrcizeTcpInfo, SixOneLayoutFromMrcFigures) {
  mrcize_tcp_info_src src{};
  src.state = MRCIZE_TCP_ESTABLISHED;
  src.srtt_us = 800;
  src.mss = 1400;
  src.cwnd_bytes = 14000;
  std::array<unsigned char, 512> buf{};
  socklen_t len = buf.size();
  ASSERT_EQ(mrcize_tcp_info(&src, buf.data(), &len), 0);
  EXPECT_EQ(len, 232U) << "6.1's struct tcp_info";
  EXPECT_EQ(buf[0], 1) << "TCP_ESTABLISHED";
  src.state = MRCIZE_TCP_LISTEN;
  len = 1;
  ASSERT_EQ(mrcize_tcp_info(&src, buf.data(), &len), 0);
  EXPECT_EQ(len, 1U);
  EXPECT_EQ(buf[0], 10) << "TCP_LISTEN";
}

}  // namespace
