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
