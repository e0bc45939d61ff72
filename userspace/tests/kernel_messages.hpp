// SPDX-License-Identifier: GPL-2.0
// Messages written the way mrc.ko writes them (genlmsg_put, nla_put_*,
// u64 counters padded like nla_put_u64_64bit), independent of libmrc's
// builders so parsing is tested against the kernel's layout.
#pragma once

#include <gtest/gtest.h>
#include <linux/mrc_netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include <string>
#include <utility>
#include <vector>

#include "addresses.hpp"
#include "mrc/netlink.hpp"

inline constexpr int kMrcFamily = 0x1d;

// A message from the kernel: reply (cmd) or event (cmd = event type).
inline mrc::MsgPtr KernelMessage(std::uint8_t cmd, int flags = 0) {
  mrc::MsgPtr msg(nlmsg_alloc_size(65536));
  EXPECT_NE(genlmsg_put(msg.get(), 0, 42, kMrcFamily, 0, flags, cmd, MRC_GENL_VERSION), nullptr);
  return msg;
}

// Wraps what `body` adds in nest `type`.
template <typename Body>
void KNest(nl_msg* msg, int type, Body&& body) {
  nlattr* nest = nla_nest_start(msg, type);
  ASSERT_NE(nest, nullptr);
  std::forward<Body>(body)();
  nla_nest_end(msg, nest);
}

// nla_put_u64_64bit(): a PAD attribute first when VALUE's payload would
// not be 8-byte aligned.
inline void KPutU64(nl_msg* msg, int type, std::uint64_t value, int pad) {
  const nlmsghdr* hdr = nlmsg_hdr(msg);
  if ((hdr->nlmsg_len + NLA_HDRLEN) % 8 != 0) {
    nla_put(msg, pad, 0, nullptr);
  }
  nla_put_u64(msg, type, value);
}

inline void KStats(nl_msg* msg, int type,
                   const std::vector<std::pair<std::string, std::uint64_t>>& counters) {
  KNest(msg, type, [&] {
    for (const auto& counter : counters) {
      KNest(msg, MRC_STATS_ATTR_ENTRY, [&] {
        nla_put_string(msg, MRC_STATS_ATTR_NAME, counter.first.c_str());
        KPutU64(msg, MRC_STATS_ATTR_VALUE, counter.second, MRC_STATS_ATTR_PAD);
      });
    }
  });
}

// A peer of the PEER_GET dump, for KPeerMessage().
struct KernelPeer {
  std::vector<std::string> addrs{};  // IPv4 or IPv6 literals
  std::uint32_t conns = 0;
  std::uint32_t idle_ms = 0;  // sent only when conns is 0
  std::uint32_t evs = 0;
  std::uint32_t planes = 0;
  std::vector<mrc_peer_ev> bad_evs{};  // sent only when there are any
};

// One message of the PEER_GET dump as mrc_nl_fill_peer() writes it: an
// ADDR4 or ADDR6 an address, CONNS, IDLE_MS, EVS, PLANES, EVS_BAD, then
// BAD_EVS packed.
inline mrc::MsgPtr KPeerMessage(const KernelPeer& peer) {
  mrc::MsgPtr msg = KernelMessage(MRC_CMD_PEER_GET, NLM_F_MULTI);
  nl_msg* m = msg.get();
  KNest(m, MRC_ATTR_PEER, [&] {
    for (const std::string& addr : peer.addrs) {
      if (addr.find(':') == std::string::npos) {
        nla_put_u32(m, MRC_PEER_ATTR_ADDR4, V4(addr).s_addr);
      } else {
        const in6_addr addr6 = V6(addr);
        nla_put(m, MRC_PEER_ATTR_ADDR6, sizeof(addr6), &addr6);
      }
    }
    nla_put_u32(m, MRC_PEER_ATTR_CONNS, peer.conns);
    if (peer.conns == 0) {
      nla_put_u32(m, MRC_PEER_ATTR_IDLE_MS, peer.idle_ms);
    }
    nla_put_u32(m, MRC_PEER_ATTR_EVS, peer.evs);
    nla_put_u32(m, MRC_PEER_ATTR_PLANES, peer.planes);
    nla_put_u32(m, MRC_PEER_ATTR_EVS_BAD, static_cast<std::uint32_t>(peer.bad_evs.size()));
    if (!peer.bad_evs.empty()) {
      nla_put(m, MRC_PEER_ATTR_BAD_EVS, static_cast<int>(peer.bad_evs.size() * sizeof(mrc_peer_ev)),
              peer.bad_evs.data());
    }
  });
  return msg;
}
