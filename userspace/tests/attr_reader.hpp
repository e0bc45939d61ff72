// SPDX-License-Identifier: GPL-2.0
// Reading a built message back with libnl, attribute by attribute, so the
// tests can check each type, size, nesting flag and value.
#pragma once

#include <gtest/gtest.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

// The attributes of a stream, by type; a type seen twice fails the test.
inline std::map<int, nlattr*> ByType(const std::vector<nlattr*>& attrs) {
  std::map<int, nlattr*> by_type;
  for (nlattr* attr : attrs) {
    EXPECT_TRUE(by_type.emplace(nla_type(attr), attr).second)
        << "attribute " << nla_type(attr) << " twice";
  }
  return by_type;
}

inline std::vector<nlattr*> Children(nlattr* nest) {
  EXPECT_NE(nest->nla_type & NLA_F_NESTED, 0) << "nest without NLA_F_NESTED";
  std::vector<nlattr*> children;
  nlattr* pos = nullptr;
  int rem = 0;
  nla_for_each_nested(pos, nest, rem) { children.push_back(pos); }
  EXPECT_EQ(rem, 0) << "trailing bytes in a nest";
  return children;
}

inline std::map<int, nlattr*> Nest(nlattr* nest) { return ByType(Children(nest)); }

// The top-level attributes of a generic netlink message.
inline std::map<int, nlattr*> Top(nl_msg* msg) {
  genlmsghdr* genl = genlmsg_hdr(nlmsg_hdr(msg));
  std::vector<nlattr*> attrs;
  nlattr* pos = nullptr;
  int rem = 0;
  nla_for_each_attr(pos, genlmsg_attrdata(genl, 0), genlmsg_attrlen(genl, 0), rem) {
    attrs.push_back(pos);
  }
  EXPECT_EQ(rem, 0);
  return ByType(attrs);
}

inline std::uint8_t U8(const std::map<int, nlattr*>& attrs, int type) {
  const nlattr* attr = attrs.at(type);
  EXPECT_EQ(nla_len(attr), 1) << "attribute " << type << " is not a u8";
  return nla_get_u8(attr);
}

inline std::uint16_t U16(const std::map<int, nlattr*>& attrs, int type) {
  const nlattr* attr = attrs.at(type);
  EXPECT_EQ(nla_len(attr), 2) << "attribute " << type << " is not a u16";
  return nla_get_u16(attr);
}

inline std::uint32_t U32(const std::map<int, nlattr*>& attrs, int type) {
  const nlattr* attr = attrs.at(type);
  EXPECT_EQ(nla_len(attr), 4) << "attribute " << type << " is not a u32";
  return nla_get_u32(attr);
}

inline std::string Bytes(const std::map<int, nlattr*>& attrs, int type) {
  const nlattr* attr = attrs.at(type);
  return {static_cast<const char*>(nla_data(attr)), static_cast<std::size_t>(nla_len(attr))};
}
