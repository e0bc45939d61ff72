// SPDX-License-Identifier: GPL-2.0
// The fake world of the fuzz targets: endpoints around struct mrc_core
// (kernel/core/) with one fake clock, a counting allocator that can be told
// to fail, a record of every packet a core sent, a handshake done without a
// network, and the invariants every target checks after each step. Built
// twice: into the libFuzzer binaries (clang, sanitizers) and into the
// corpus replay test of the normal build: it needs nothing but the C++
// standard library.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

extern "C" {
#include <linux/mrc_netlink.h>

#include "mrc_core.h"
}

namespace mrc_fuzz {

using Bytes = std::vector<uint8_t>;

// A broken invariant: say which, then abort. libFuzzer keeps the input as
// a crash; the replay test's death test reports the corpus file.
[[noreturn]] void Fail(const std::string& what);
// Printed after a failure's message (the replay test: the corpus file).
std::string& FailContext();
inline void Check(bool ok, const char* what) {
  if (!ok) Fail(what);
}

// The bytes an application writes (or a fake sender sends) from stream
// offset `off` on: at least 64 KiB of a pattern whose period is a prime, so
// no MSS divides it and a segment at the wrong offset shows.
inline constexpr uint32_t kPatternPeriod = 65521;
const uint8_t* Pattern(uint64_t off);

// Reads a fuzz input front to back; past the end every read gives 0.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool Empty() const { return pos_ >= size_; }
  size_t Left() const { return Empty() ? 0 : size_ - pos_; }
  // Little-endian; the low part is read first (the operands of | are
  // unsequenced, so each is read into a variable of its own).
  uint8_t U8() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint16_t U16() {
    const uint8_t lo = U8();
    return static_cast<uint16_t>(lo | U8() << 8);
  }
  uint32_t U32() {
    const uint16_t lo = U16();
    return lo | static_cast<uint32_t>(U16()) << 16;
  }
  uint64_t U64() {
    const uint32_t lo = U32();
    return lo | static_cast<uint64_t>(U32()) << 32;
  }
  // The next `n` bytes as a reader of their own (fixed-size records).
  ByteReader Take(size_t n) {
    const size_t k = n < Left() ? n : Left();
    ByteReader r(data_ + pos_, k);
    pos_ += k;
    return r;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// One packet a core sent.
struct Sent {
  uint32_t plane = 0;
  uint32_t ev = 0;
  Bytes bytes;  // header, body and payload, as on the wire
};

// How a connection is set up: decoded from the first bytes of an input.
struct Options {
  uint8_t sock_type = MRC_SYN_STREAM;
  bool psn24 = false;
  uint32_t client_isn = 0;
  uint32_t mss = 1400;
  uint32_t nevs = 4;
  uint32_t nplanes = 2;
  uint32_t sndbuf = 256 * 1024;
  uint32_t rcvbuf = 64 * 1024;
  uint32_t fail_every = 0;  // after the handshake, every n-th alloc fails
  uint32_t initial = 0;     // bytes the client's app writes at once
  uint8_t seed = 0;         // target-specific

  static constexpr size_t kBytes = 4;
  static Options Decode(ByteReader& in);
  // The inverse, for the corpus generator (`initial` in 1 KiB steps).
  Bytes Encode() const;
};

// The packets a core sent, oldest first: a ring whose buffers are reused,
// so a warm ring allocates nothing per packet. It grows to kMax, more
// than a core ever has in flight (MRC_CORE_MAX_SEGS), so only a core
// that sends far beyond its window loses the oldest.
class Outbox {
 public:
  static constexpr size_t kMax = 16384;
  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }
  const Sent& operator[](size_t i) const { return slots_[(head_ + i) % slots_.size()]; }
  const Sent& front() const { return (*this)[0]; }
  void pop_front() {
    head_ = (head_ + 1) % slots_.size();
    count_--;
  }
  void clear() { head_ = count_ = 0; }
  // A slot at the back for a new packet.
  Sent& push_back() {
    if (count_ == slots_.size()) {
      if (slots_.size() < kMax) {
        // Unwrap, then double: the oldest first again.
        std::rotate(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(head_),
                    slots_.end());
        head_ = 0;
        slots_.resize(std::max<size_t>(64, slots_.size() * 2));
      } else {
        pop_front();
      }
    }
    return slots_[(head_ + count_++) % slots_.size()];
  }

 private:
  std::vector<Sent> slots_;
  size_t head_ = 0;
  size_t count_ = 0;
};

class World;

// One core and what its environment saw.
class Endpoint {
 public:
  Endpoint(World* world, int id) : world_(world), id_(id) {}
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;
  Endpoint(Endpoint&&) = delete;
  Endpoint& operator=(Endpoint&&) = delete;
  ~Endpoint() { Destroy(); }

  mrc_core_cfg cfg{};
  mrc_core* core = nullptr;
  uint64_t timer_when = 0;
  Outbox outbox;
  std::deque<uint32_t> randoms;
  uint64_t alloc_calls = 0;
  uint64_t fail_every = 0;  // 0: never
  uint64_t alloc_failures = 0;
  int64_t live_allocs = 0;
  size_t live_bytes = 0;
  Bytes scratch;          // ReceivePkt()'s datagram
  mrc_core_stats last{};  // stats at the previous Check()
  // The application reads what it is given at once and says so
  // (mrc_core_rcv_space(rcvbuf)) after each packet and timer.
  bool auto_read = false;
  uint64_t unread = 0;

  // Hooks of the target; each may be empty.
  std::function<void(const Sent&, const mrc_pkt&)> on_xmit;
  std::function<int(const uint8_t*, uint32_t, uint32_t)> on_deliver;
  std::function<void(mrc_core_note, uint32_t)> on_note;

  int id() const { return id_; }
  World* world() const { return world_; }
  mrc_core_env Env() { return mrc_core_env{&kOps, this}; }
  mrc_core_stats Stats() const;
  // Destroy the core; every byte it allocated must come back.
  void Destroy();
  // Parse `bytes` like a receiving host, then give it to the core.
  // Return: the parser's or the core's drop reason.
  int Receive(const Bytes& bytes, uint32_t plane, bool ce);
  // Build `pkt` with the wire builder and Receive() it; -1 if the builder
  // refuses it (no peer could have sent it).
  int ReceivePkt(const mrc_pkt& pkt, uint32_t plane, bool ce);
  // Invariants of any core, whatever it was fed.
  void CheckInvariants();
  // With auto_read: report the room the application made.
  void AppRead();

  static const mrc_core_env_ops kOps;

 private:
  World* world_;
  int id_;
};

// Two endpoints (a: client, b: server) and the clock.
class World {
 public:
  World() = default;
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  World(World&&) = delete;
  World& operator=(World&&) = delete;

  uint64_t now = 1000000;
  Endpoint a{this, 0};
  Endpoint b{this, 1};

  // Both cores configured from `o`; a's SYN given to b directly, b's
  // SYN_ACK to a as well unless !complete (then it waits in b's outbox
  // and a in SYN_SENT). Return: true if b is established (and a, if
  // complete).
  bool Handshake(const Options& o, bool complete = true);
  // a's create with its allocator failing on every `fail_every`-th call:
  // a failure must free all it took.
  void CreateFailing(const Options& o, uint64_t fail_every);
  // Only b, accepting the SYN a client with `o` would send (a stays
  // empty): the receive-side targets play the client themselves.
  bool Accept(const Options& o);
  // The SYN a client configured with `o` sends (for Accept()).
  static mrc_pkt ClientSyn(const Options& o);
  // Move the clock `us` on, firing the timers due on the way in order;
  // after kMaxFirings (a probe timer keeps firing for seconds) the rest
  // fire late, at the end, as on a busy host. Bounds an input's work.
  void Advance(uint64_t us);
  static constexpr int kMaxFirings = 32;
  // Fire `e`'s timer if it is due now.
  void FireDue(Endpoint& e);
  // Give up to `n` packets of `from`'s outbox to the other endpoint; bit i
  // of `drop` loses the i-th instead, bit i of `ce` marks it CE.
  // Return: packets delivered.
  size_t Forward(Endpoint& from, size_t n, uint32_t drop, uint32_t ce = 0);

  Endpoint& Peer(const Endpoint& e) { return &e == &a ? b : a; }
};

// Configure `e` as a client (a) or server (b) of a connection with `o`.
void Configure(Endpoint& e, const Options& o, bool client);

}  // namespace mrc_fuzz
