// SPDX-License-Identifier: GPL-2.0
// The segments waiting for retransmission (send.c's lost list and its
// bitmap): in PSN order whatever order the losses come in, across the PSN
// wrap of both sizes, with segments acknowledged out of the middle, and
// resent oldest first.
#include <algorithm>
#include <bit>
#include <numeric>
#include <random>
#include <span>
#include <tuple>

#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

constexpr uint32_t kSegs = 400;

// The lost map's words: a bit for each of sq_cap PSNs.
std::span<const uint64_t> LostMap(const mrc_core* c) { return {c->lost_map, c->sq_cap / 64}; }

// The lost list is sorted by PSN, its count and bitmap agree with it.
void ExpectLostListConsistent(const mrc_core* c) {
  uint32_t n = 0;
  uint64_t bits = 0;
  for (const mrc_seg* s = c->lost_list.head; s != nullptr; s = s->next, n++) {
    EXPECT_EQ(s->state, MRC_SEG_LOST);
    if (s->next != nullptr) {
      ASSERT_GT(mrc_psn_diff(s->psn, s->next->psn, c->psn24), 0);
    }
  }
  for (const uint64_t w : LostMap(c)) bits += static_cast<uint64_t>(std::popcount(w));
  EXPECT_EQ(n, c->lost_list.count);
  EXPECT_EQ(bits, c->lost_list.count);
}

// psn24, ISN
class LostList : public ::testing::TestWithParam<std::tuple<bool, uint32_t>> {};

TEST_P(LostList, PsnOrderWhateverTheOrderOfLosses) {
  const auto [psn24, isn] = GetParam();
  Net net(31);
  net.Setup(1, MRC_SYN_SEQPACKET);
  net.a.cfg.psn24 = psn24;
  net.a.scripted_random = {0x1111, isn};  // token, ISN
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  std::vector<uint32_t> resent;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    if (from == 0 && p.type == MRC_PKT_DATA && (p.flags & MRC_F_RETX) != 0)
      resent.push_back(p.data.psn);
    return from == 0;  // b hears nothing
  };
  net.a.msg_size = 1;  // a segment each
  net.a.to_send = kSegs;
  net.RunFor(100);
  mrc_core* c = net.a.core;
  ASSERT_EQ(net.a.Stats().tx_data_pkts, kSegs);
  const uint32_t first = c->snd_una;
  EXPECT_EQ(first, isn & mrc_psn_mask(psn24));

  std::vector<uint32_t> order(kSegs);
  std::iota(order.begin(), order.end(), 0U);
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  for (const uint32_t off : order) {
    mrc_seg* seg = mrc_snd_seg(c, mrc_psn_add(c, first, off));
    ASSERT_NE(seg, nullptr);
    mrc_snd_mark_lost(c, seg, 2);
    ExpectLostListConsistent(c);
  }
  EXPECT_EQ(c->lost_list.count, kSegs);
  EXPECT_EQ(c->lost_list.head->psn, first);

  // Every third one is acknowledged after all (out of the middle).
  std::vector<uint32_t> left;
  for (uint32_t off = 0; off < kSegs; off++) {
    const uint32_t psn = mrc_psn_add(c, first, off);
    if (off % 3 == 1)
      mrc_snd_ack_seg(c, mrc_snd_seg(c, psn));
    else
      left.push_back(psn);
  }
  ExpectLostListConsistent(c);
  EXPECT_EQ(c->lost_list.count, left.size());

  mrc_snd_push(c);
  EXPECT_EQ(resent, left) << "resent oldest first";
  EXPECT_EQ(c->lost_list.count, 0U);
  for (const uint64_t w : LostMap(c)) EXPECT_EQ(w, 0U);
}

INSTANTIATE_TEST_SUITE_P(Wraps, LostList,
                         ::testing::Values(std::make_tuple(false, 100U),
                                           std::make_tuple(false, 0xffffffffU - 150),
                                           std::make_tuple(true, 0xffffffU - 150)));

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
