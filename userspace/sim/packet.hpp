// SPDX-License-Identifier: GPL-2.0
// Packets in flight and the pool that recycles them: a packet is an index
// into the pool, so events stay small and a warm pool allocates nothing.
#pragma once

#include <cstdint>
#include <vector>

namespace mrc_sim {

struct Packet {
  std::vector<uint8_t> bytes;  // MRC header, body and payload as on the wire
  uint32_t src_host = 0;
  uint32_t dst_host = 0;
  uint32_t dst_ep = 0;  // the endpoint it is addressed to (demux by the sim)
  uint32_t ev = 0;      // UDP source port: what ECMP hashes
  uint32_t link_gen = 0;
  uint8_t plane = 0;
  bool ect = false;  // ECN-capable (DATA)
  bool ce = false;
  bool trimmed = false;  // DATA whose payload a switch cut off
};

class PacketPool {
 public:
  uint32_t Get() {
    if (free_.empty()) {
      slots_.emplace_back();
      return static_cast<uint32_t>(slots_.size() - 1);
    }
    const uint32_t i = free_.back();
    free_.pop_back();
    return i;
  }
  void Put(uint32_t i) {
    slots_[i].bytes.clear();
    slots_[i].ce = false;
    slots_[i].trimmed = false;
    free_.push_back(i);
  }
  Packet& operator[](uint32_t i) { return slots_[i]; }
  size_t live() const { return slots_.size() - free_.size(); }
  size_t capacity() const { return slots_.size(); }

 private:
  std::vector<Packet> slots_;
  std::vector<uint32_t> free_;
};

}  // namespace mrc_sim
