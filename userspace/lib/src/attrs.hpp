// SPDX-License-Identifier: GPL-2.0
// Private to libmrc: libnl validation policies written as tables, and a
// parsed attribute set with typed getters, used by parse.cpp.
#pragma once

#include <netinet/in.h>
#include <netlink/attr.h>
#include <netlink/errno.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>

#include "mrc/error.hpp"

namespace mrc::detail {

struct PolicyEntry {
  int attr = 0;
  std::uint16_t type = NLA_UNSPEC;
  std::uint16_t len = 0;  // exact payload size of binary attributes
};

template <int Max>
using Policy = std::array<nla_policy, Max + 1>;

template <int Max>
constexpr Policy<Max> MakePolicy(std::initializer_list<PolicyEntry> entries) {
  Policy<Max> policy{};
  for (const PolicyEntry& entry : entries) {
    policy.at(static_cast<std::size_t>(entry.attr)) =
        nla_policy{.type = entry.type, .minlen = entry.len, .maxlen = entry.len};
  }
  return policy;
}

// Reads a string attribute; tolerates a missing NUL.
inline std::string AttrString(const nlattr* attr) {
  const auto* text = static_cast<const char*>(nla_data(attr));
  return {text, strnlen(text, static_cast<std::size_t>(nla_len(attr)))};
}

// The attributes of one nest (or of a message), validated by a policy.
template <int Max>
class Attrs {
 public:
  Attrs(nlattr* nest, const Policy<Max>& policy, const char* what) {
    Check(nla_parse_nested(attrs_.data(), Max, nest, policy.data()), what);
  }

  // Already parsed by the caller (e.g. genlmsg_parse()).
  Attrs() = default;
  [[nodiscard]] nlattr** data() { return attrs_.data(); }

  static void Check(int err, const char* what) {
    if (err < 0) {
      throw Error(std::string("malformed ") + what +
                  " attributes from the kernel: " + nl_geterror(err));
    }
  }

  [[nodiscard]] nlattr* operator[](int type) const {
    return attrs_.at(static_cast<std::size_t>(type));
  }

  [[nodiscard]] std::optional<std::uint8_t> U8(int type) const {
    return Get<std::uint8_t>(type, nla_get_u8);
  }
  [[nodiscard]] std::optional<std::uint16_t> U16(int type) const {
    return Get<std::uint16_t>(type, nla_get_u16);
  }
  [[nodiscard]] std::optional<std::uint32_t> U32(int type) const {
    return Get<std::uint32_t>(type, nla_get_u32);
  }
  [[nodiscard]] std::optional<std::uint64_t> U64(int type) const {
    return Get<std::uint64_t>(type, nla_get_u64);
  }
  [[nodiscard]] bool Flag(int type) const { return (*this)[type] != nullptr; }

  template <typename E>
  [[nodiscard]] std::optional<E> Enum(int type) const {
    const auto raw = U8(type);
    return raw ? std::optional<E>(static_cast<E>(*raw)) : std::nullopt;
  }

  [[nodiscard]] std::optional<std::string> String(int type) const {
    const nlattr* attr = (*this)[type];
    return attr != nullptr ? std::optional<std::string>(AttrString(attr)) : std::nullopt;
  }

  [[nodiscard]] std::optional<in_addr> Addr4(int type) const {
    const auto raw = U32(type);
    return raw ? std::optional<in_addr>(in_addr{.s_addr = *raw}) : std::nullopt;
  }

  [[nodiscard]] std::optional<in6_addr> Addr6(int type) const {
    const nlattr* attr = (*this)[type];
    if (attr == nullptr) {
      return std::nullopt;
    }
    in6_addr addr{};
    std::memcpy(&addr, nla_data(attr), sizeof(addr));  // the policy checked the size
    return addr;
  }

 private:
  template <typename T, typename Getter>
  [[nodiscard]] std::optional<T> Get(int type, Getter getter) const {
    const nlattr* attr = (*this)[type];
    return attr != nullptr ? std::optional<T>(static_cast<T>(getter(attr))) : std::nullopt;
  }

  std::array<nlattr*, Max + 1> attrs_{};
};

}  // namespace mrc::detail
