// SPDX-License-Identifier: GPL-2.0
// The bytes a flow carries: byte `off` of flow `flow` is a mix of both, so
// a byte delivered twice, out of order or from another flow shows.
#pragma once

#include <cstdint>

#include "rng.hpp"

namespace mrc_sim {

inline uint64_t PatternWord(uint32_t flow, uint64_t word) {
  return Mix64((static_cast<uint64_t>(flow) << 40) ^ word);
}

// Write bytes [off, off + len) of flow `flow` to dst.
inline void PatternFill(uint32_t flow, uint64_t off, uint8_t* dst, uint32_t len) {
  uint64_t w = PatternWord(flow, off / 8);
  for (uint32_t i = 0; i < len; i++, off++) {
    if (i != 0 && off % 8 == 0) w = PatternWord(flow, off / 8);
    dst[i] = static_cast<uint8_t>(w >> (8 * (off % 8)));
  }
}

// True if src holds bytes [off, off + len) of flow `flow`.
inline bool PatternCheck(uint32_t flow, uint64_t off, const uint8_t* src, uint32_t len) {
  uint64_t w = PatternWord(flow, off / 8);
  for (uint32_t i = 0; i < len; i++, off++) {
    if (i != 0 && off % 8 == 0) w = PatternWord(flow, off / 8);
    if (src[i] != static_cast<uint8_t>(w >> (8 * (off % 8)))) return false;
  }
  return true;
}

}  // namespace mrc_sim
