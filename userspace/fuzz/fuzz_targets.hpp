// SPDX-License-Identifier: GPL-2.0
// The fuzz targets and the byte layout of their inputs, shared by the
// libFuzzer entry points, the corpus replay test and the seed generator.
//
// fuzz_wire takes any bytes. fuzz_ack and fuzz_reasm take Options::kBytes
// of connection options (fuzz_harness.hpp) followed by fixed-size records,
// one step each: byte 0 is the opcode (modulo the op count), the others its
// arguments, laid out as the comment of each op says (multi-byte fields
// little-endian). A short last record reads as zero-padded.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace mrc_fuzz {

int FuzzWire(const uint8_t* data, size_t size);
int FuzzAck(const uint8_t* data, size_t size);
int FuzzReasm(const uint8_t* data, size_t size);

struct Target {
  const char* name;
  int (*run)(const uint8_t* data, size_t size);
};

inline constexpr std::array<Target, 3> kTargets = {{
    {"fuzz_wire", FuzzWire},
    {"fuzz_ack", FuzzAck},
    {"fuzz_reasm", FuzzReasm},
}};

// fuzz_ack: a (client) sends, b (server) receives and its application
// reads at once (unless told not to); the input forges what a hears.
// "mode" bytes: bit0 flips MRC_F_PSN24, bit1 spoils src_token, bit2 spoils
// dst_token. PSN offsets count from a's ISN. After the records, unless a
// took a forged packet, seconds of a clean network must deliver and
// acknowledge everything, without a retransmission storm.
namespace ack {
inline constexpr size_t kRecord = 16;
inline constexpr size_t kMaxRecords = 32;  // more are ignored
enum Op : uint8_t {
  // [1] mode; bits 3-4 trig_psn: 0 a sent DATA (record [5]), 1 cum - 1,
  //     2 cum + [6] % 8, 3 that DATA + 64; bits 5-6 ts_echo: 0 that DATA's
  //     tsval, 1 zero, 2 now - [6] * 16, 3 now + [6]; bit7: echo_ev is EV
  //     [7] & 15 rather than that DATA's
  // [2] arrival plane (low nibble), ce_count (high nibble)
  // [3-4] cum_psn: bit15 clear: offset % (PSNs sent + 3); set: ISN - low 15
  // [5] which recently sent DATA  [6] delta  [7] bit4: cc_flags CE; bits
  //     5-7: sack_base from cum & ~63 moved by {0, 0, -64, 64, 128, -128,
  //     192, 4096}
  // [8-13] bitmap bits 0-47, shifted left by [14] % 17
  // [15] rwnd: bits 0-2 {1 MiB, 0, 1, mss, 64 KiB, ~0, bits 3-6 KiB,
  //      16 mss}; bit7: plane_up is [2]'s high nibble, else all planes
  kSack,
  // [1] mode; bit3: psn of sent DATA [5]; bits 4-7: reason 1 + n % 7,
  //     15: 0 (invalid)
  // [2] plane  [3-4] psn offset % (PSNs sent + 2)  [5] which DATA
  // [6-7] cum_psn offset % (PSNs sent + 2)  [8] 0: that DATA's EV, else
  //     EV [8] & 15
  kNack,
  // [1] mode  [2] plane  [3-6] probe_id  [7-8] plane_up  [9-12] tsval
  kProbe,
  // [1] mode; bit3: probe_id [4-7] rather than a's probe [3]; bit4: wrong
  //     EV; bit7: plane_up [8-9] rather than all
  // [2] plane  [10] tsval: the probe's minus [10] * 16
  kProbeReply,
  // [1-2] microseconds << ([3] % 14), timers fire on the way
  kAdvance,
  // [1] packets 1 + n % 16 of a's to b; [2-5] bit i: lose the i-th;
  // [6] bit i: the i-th arrives CE-marked
  kToPeer,
  // the same from b to a
  kFromPeer,
  // [1-2] n % 16 Ki: stream: n + 1 bytes; seqpacket: a message of
  //     1 + n % sndbuf. [3] bit0: the copy faults from byte [4-5] on;
  //     bit1: ask mrc_core_send_space() first (need: 1 + [4-5] % n for a
  //     stream) and write what it offers
  kWrite,
  // a closes
  kClose,
  // [1-4] an application has this much room: a's, or with [5] bit0 b's,
  //     whose application then stops reading if [5] bit1 is set (else
  //     reads again)
  kRcvSpace,
  // [1] plane % 16  [2] bit0: up; bit1: on b rather than a
  kPlane,
  // [1] EV index  [2] enum mrc_ev_state (raw)  [3] bit0: probe it instead
  kEvAdmin,
  // [1] % 7: FIN (end: b's ISN + [2-3]), RST, SYN, SYN_ACK, DATA (psn: b's
  //     ISN + [2-3], [4-5] % 2000 + 1 bytes, flags [6]); 5: a aborts
  //     (errno [2]); 6: b closes
  // [7] mode  [8] plane
  // Options::seed bit6: a's create fails at allocation 1 + seed % 4;
  // bit7: the SYN_ACK waits in b's outbox, a in SYN_SENT.
  kControl,
  // the oldest [1] packets a sent are lost
  kLose,
  // 1 + [1] % 8 round trips: a's packets to b, [2-3] + 1 microseconds,
  // b's to a (16 at most each way); bit i of [4] ([5]) loses a's (b's)
  // i-th packet of each round
  kPump,
  kOpCount,
};
}  // namespace ack

// fuzz_reasm: b receives DATA the input forges as a's. The fake sender
// is consistent: segment k (PSN offset k from its ISN) has a length and a
// message end fixed by (Options::seed, k), its bytes a function of k.
namespace reasm {
inline constexpr size_t kRecord = 8;
inline constexpr size_t kMaxRecords = 64;
enum Op : uint8_t {
  // [1-2] PSN: bits 14-15 mode, bits 0-13 v: 0 next needed + v % 64,
  //       1 offset v, 2 the window's edge: delivered + (256 << v % 6) +
  //       (int8)(v >> 3) % 8, 3 behind: next needed - 1 - v % 64
  // [3] copies 1 + n % 4 (bits 0-1); bit2 CE; bit3 ACK_NOW; bits 4-7
  //     arrival plane
  // [4] bit7 clear: as the consistent sender; set: an impostor whose
  //     length is {1, mss + 1, 9000, 65523, 100, 1000, the real one, the
  //     real one - 1} by bits 0-2, SOM/EOM {the real ones, both, none,
  //     EOM} by bits 3-4, bit5: other bytes
  // [5] mode (bit0 PSN24 flip, bit1 bad src_token, bit2 bad dst_token,
  //     bit3 MRC_F_RETX)
  // [6-7] tsval
  kData,
  // [1-2] microseconds << ([3] % 14)
  kAdvance,
  // [1] the application reads: 0 everything; 1 nothing, stop reading;
  //     2 half; 3 room for [2-3] bytes from now on
  kRead,
  // [1-2] FIN end: offset of the next needed PSN + (int16)n % 4
  kFin,
  // [1] % 4: RST, PROBE, plane [2] % 4 down/up ([3] bit0), b closes
  kControl,
  kOpCount,
};
}  // namespace reasm

}  // namespace mrc_fuzz
