// SPDX-License-Identifier: GPL-2.0
// Packet trimming (kernel/core/: mrc_wire_parse_trimmed(),
// mrc_core_input_trimmed()): what is left of a DATA packet whose payload a
// switch cut off parses to its header, and the receiver answers it with a
// TRIMMED NACK that makes the sender resend at once, without a timeout.
#include <array>
#include <cstdint>
#include <vector>

#include "harness.hpp"

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

// The header and DATA body of `pkt` as a switch leaves them after
// trimming: body_len still counts the payload, the payload is gone.
Bytes Trim(const mrc_pkt& pkt) {
  std::array<uint8_t, MRC_WIRE_MAX_HDR> buf{};
  const uint32_t n = mrc_wire_build(&pkt, buf.data(), static_cast<uint32_t>(buf.size()));
  EXPECT_NE(n, 0U);
  return {buf.begin(), buf.begin() + n};
}

mrc_pkt Data(uint32_t psn, uint32_t payload_len) {
  mrc_pkt p{};
  p.type = MRC_PKT_DATA;
  p.dst_token = 0x1111;
  p.src_token = 0x2222;
  p.ev = 0x4242;
  p.data.psn = psn;
  p.data.tsval = 77;
  p.data.plane = 3;
  p.payload_len = payload_len;
  return p;
}

TEST(WireTrimmed, HeaderOfTrimmedDataParses) {
  const Bytes b = Trim(Data(1234, 4096));
  mrc_pkt out{};
  // The whole-packet parser refuses it: body_len counts 4096 bytes more.
  EXPECT_EQ(mrc_wire_parse(b.data(), static_cast<uint32_t>(b.size()), &out), MRC_DROP_LENGTH);
  ASSERT_EQ(mrc_wire_parse_trimmed(b.data(), static_cast<uint32_t>(b.size()), &out), MRC_DROP_NONE);
  EXPECT_EQ(out.type, MRC_PKT_DATA);
  EXPECT_EQ(out.data.psn, 1234U);
  EXPECT_EQ(out.data.tsval, 77U);
  EXPECT_EQ(out.data.plane, 3U);
  EXPECT_EQ(out.ev, 0x4242U);
  EXPECT_EQ(out.dst_token, 0x1111U);
  EXPECT_EQ(out.payload_len, 0U);
  EXPECT_EQ(out.payload, nullptr);
  // A switch may leave more than the header (a fixed trim size).
  Bytes longer = b;
  longer.resize(b.size() + 36, 0xee);
  EXPECT_EQ(mrc_wire_parse_trimmed(longer.data(), static_cast<uint32_t>(longer.size()), &out),
            MRC_DROP_NONE);
}

TEST(WireTrimmed, RefusesWhatCannotBeTrimmedData) {
  mrc_pkt out{};
  const Bytes b = Trim(Data(5, 100));
  EXPECT_EQ(mrc_wire_parse_trimmed(b.data(), static_cast<uint32_t>(b.size() - 1), &out),
            MRC_DROP_SHORT);
  Bytes v = b;
  v[0] = static_cast<uint8_t>(2 << 4 | MRC_PKT_DATA);
  EXPECT_EQ(mrc_wire_parse_trimmed(v.data(), static_cast<uint32_t>(v.size()), &out),
            MRC_DROP_VERSION);
  Bytes sack = b;
  sack[0] = static_cast<uint8_t>(MRC_WIRE_VERSION << 4 | MRC_PKT_SACK);
  EXPECT_EQ(mrc_wire_parse_trimmed(sack.data(), static_cast<uint32_t>(sack.size()), &out),
            MRC_DROP_TYPE);
  // body_len says there never was a payload: nothing was trimmed.
  Bytes empty = b;
  empty[2] = 0;
  empty[3] = sizeof(struct mrc_data);
  EXPECT_EQ(mrc_wire_parse_trimmed(empty.data(), static_cast<uint32_t>(empty.size()), &out),
            MRC_DROP_MALFORMED);
  Bytes t(b);  // dst_token 0: only a SYN may have it
  t[4] = t[5] = t[6] = t[7] = 0;
  EXPECT_EQ(mrc_wire_parse_trimmed(t.data(), static_cast<uint32_t>(t.size()), &out),
            MRC_DROP_TOKEN);
}

// Trim every `every`-th first transmission of a's DATA on its way to b and
// hand what is left to b's mrc_core_input_trimmed().
struct Trimmer {
  explicit Trimmer(Net& n, uint32_t e) : net(n), every(e) {
    net.filter = [this](int from, uint32_t plane, const mrc_pkt& pkt) {
      if (from != 0 || pkt.type != MRC_PKT_DATA || (pkt.flags & MRC_F_RETX) != 0) return false;
      if (++seen % every != 0) return false;
      const Bytes b = Trim(pkt);
      mrc_pkt t{};
      EXPECT_EQ(mrc_wire_parse_trimmed(b.data(), static_cast<uint32_t>(b.size()), &t),
                MRC_DROP_NONE);
      const int r = mrc_core_input_trimmed(net.b.core, &t, plane);
      EXPECT_EQ(r, MRC_DROP_NONE) << "psn " << pkt.data.psn;
      trimmed++;
      return true;  // the payload never arrives
    };
  }
  Net& net;
  uint32_t every;
  uint64_t seen = 0;
  uint64_t trimmed = 0;
};

TEST(CoreTrimmed, NackResendsAtOnceWithoutTimeout) {
  Net net;
  net.Setup(4);
  Trimmer trim(net, 10);
  net.Connect();
  net.a.to_send = 512 * 1024;
  ASSERT_TRUE(net.RunUntil(
      [&] {
        return net.b.rx.size() == net.a.to_send && net.a.Stats().acked_bytes == net.a.to_send;
      },
      net.now + 10 * kSec));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send)) << "payload corrupted";
  ASSERT_GT(trim.trimmed, 10U);
  const mrc_core_stats rx = net.b.Stats();
  const mrc_core_stats tx = net.a.Stats();
  EXPECT_EQ(rx.trimmed_rx, trim.trimmed);
  EXPECT_GE(rx.nacks_tx, trim.trimmed);
  EXPECT_EQ(tx.nacks_rx, rx.nacks_tx);
  EXPECT_GE(tx.retx_pkts, trim.trimmed);
  // Every trimmed PSN was resent on its NACK, none waited for the RTO.
  EXPECT_EQ(tx.rto_count, 0U);
  uint64_t ev_nacks = 0;
  for (uint32_t i = 0; i < mrc_core_ev_count(net.a.core); i++) ev_nacks += net.a.Ev(i).nacks;
  EXPECT_EQ(ev_nacks, tx.nacks_rx);
}

// A trim is the fabric's queue overflowing: the sender's window shrinks
// by max_md_jump (half by default), once per RTT however many trims the
// same overflow produced.
// One plane: each plane has its own window (path.c), and a trim cuts the
// window of the plane it happened on; with one, that is the connection's.
TEST(CoreTrimmed, TrimShrinksTheWindowOncePerRtt) {
  Net net;
  net.Setup(1);
  uint64_t trims = 0;
  net.filter = [&](int from, uint32_t plane, const mrc_pkt& pkt) {
    if (from != 0 || pkt.type != MRC_PKT_DATA || (pkt.flags & MRC_F_RETX) != 0) return false;
    // Trim 4 packets in a row once the window has grown.
    if (trims >= 4 || net.a.Stats().cwnd < 64 * 1024) return false;
    const Bytes b = Trim(pkt);
    mrc_pkt t{};
    EXPECT_EQ(mrc_wire_parse_trimmed(b.data(), static_cast<uint32_t>(b.size()), &t), MRC_DROP_NONE);
    EXPECT_EQ(mrc_core_input_trimmed(net.b.core, &t, plane), MRC_DROP_NONE);
    trims++;
    return true;
  };
  net.Connect();
  net.a.to_send = 4 * 1024 * 1024;
  // The window just before a hears of the first trim, and just after.
  uint32_t before = 0;
  ASSERT_TRUE(net.RunUntil(
      [&] {
        if (net.a.Stats().nacks_rx >= 1) return true;
        before = net.a.Stats().cwnd;
        return false;
      },
      net.now + 10 * kSec));
  const uint32_t after_first = net.a.Stats().cwnd;
  EXPECT_EQ(after_first, before / 2) << "the first trim's NACK halves the window";
  // The rest of the burst comes within the RTT: no second cut.
  ASSERT_TRUE(net.RunUntil([&] { return net.a.Stats().nacks_rx >= 4; }, net.now + 10 * kSec));
  EXPECT_GE(net.a.Stats().cwnd, after_first);
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == net.a.to_send; }, net.now + 10 * kSec));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send)) << "payload corrupted";
}

TEST(CoreTrimmed, TrimmedCopyOfHeldDataGetsASack) {
  Net net;
  net.Setup(2);
  net.Connect();
  net.a.to_send = 64 * 1024;
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == net.a.to_send; }, net.now + kSec));
  // A late trimmed copy of PSN isn+1, long received.
  mrc_pkt late{};
  bool got = false;
  net.filter = [&](int from, uint32_t, const mrc_pkt& pkt) {
    if (from == 0 && pkt.type == MRC_PKT_DATA && !got) {
      late = pkt;
      got = true;
    }
    return false;
  };
  net.a.to_send += 4096;
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == net.a.to_send; }, net.now + kSec));
  ASSERT_TRUE(got);
  late.data.psn -= 8;
  const Bytes b = Trim(late);
  mrc_pkt t{};
  ASSERT_EQ(mrc_wire_parse_trimmed(b.data(), static_cast<uint32_t>(b.size()), &t), MRC_DROP_NONE);
  const mrc_core_stats before = net.b.Stats();
  EXPECT_EQ(mrc_core_input_trimmed(net.b.core, &t, 0), MRC_DROP_DUPLICATE);
  const mrc_core_stats after = net.b.Stats();
  EXPECT_EQ(after.trimmed_rx, before.trimmed_rx);
  EXPECT_EQ(after.nacks_tx, before.nacks_tx);
  EXPECT_EQ(after.sacks_tx, before.sacks_tx + 1);
  EXPECT_EQ(after.drops[MRC_DROP_DUPLICATE], before.drops[MRC_DROP_DUPLICATE] + 1);
}

// A fabric that trims every copy of every DATA packet for longer than the
// user timeout is a busy network, not a dead peer: each TRIMMED NACK says
// the peer is there and a path reaches it, so the user timeout starts
// again (issue 20: ETIMEDOUT must mean the peer or every path is gone).
// The transfer goes on once the queues drain.
TEST(CoreTrimmed, TrimmingLongerThanTheUserTimeoutIsNoTimeout) {
  Net net;
  net.Setup(4);
  for (Endpoint* e : {&net.a, &net.b}) e->cfg.user_timeout_ms = 1000;
  uint64_t trimmed = 0;
  uint64_t trim_until = 0;
  net.filter = [&](int from, uint32_t plane, const mrc_pkt& pkt) {
    if (from != 0 || pkt.type != MRC_PKT_DATA || net.now >= trim_until) return false;
    const Bytes b = Trim(pkt);
    mrc_pkt t{};
    EXPECT_EQ(mrc_wire_parse_trimmed(b.data(), static_cast<uint32_t>(b.size()), &t), MRC_DROP_NONE);
    mrc_core_input_trimmed(net.b.core, &t, plane);
    trimmed++;
    return true;
  };
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  trim_until = net.now + 3 * kSec;  // three user timeouts
  net.a.to_send = 256 * 1024;
  ASSERT_TRUE(net.RunUntil(
      [&] {
        return net.a.error != 0 ||
               (net.b.rx.size() == net.a.to_send && net.a.Stats().acked_bytes == net.a.to_send);
      },
      net.now + 10 * kSec));
  EXPECT_EQ(net.a.error, 0) << "the sender gave up on a live peer";
  EXPECT_GT(trimmed, 100U);
  EXPECT_GE(net.now, trim_until) << "nothing got through while every packet was trimmed";
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send)) << "payload corrupted";
}

TEST(CoreTrimmed, ClientBeforeHandshakeRefuses) {
  Net net;
  net.Setup(1);
  net.server_silent = true;
  net.Connect();
  mrc_pkt p = Data(9, 100);
  p.dst_token = mrc_core_token(net.a.core);
  const Bytes b = Trim(p);
  mrc_pkt t{};
  ASSERT_EQ(mrc_wire_parse_trimmed(b.data(), static_cast<uint32_t>(b.size()), &t), MRC_DROP_NONE);
  EXPECT_EQ(mrc_core_input_trimmed(net.a.core, &t, 0), MRC_DROP_STATE);
  EXPECT_EQ(net.a.Stats().nacks_tx, 0U);
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
