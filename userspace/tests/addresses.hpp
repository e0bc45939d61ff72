// SPDX-License-Identifier: GPL-2.0
// Address literals for tests.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>

#include <stdexcept>
#include <string>

inline in_addr V4(const std::string& text) {
  in_addr addr{};
  if (inet_pton(AF_INET, text.c_str(), &addr) != 1) {
    throw std::invalid_argument(text);
  }
  return addr;
}

inline in6_addr V6(const std::string& text) {
  in6_addr addr{};
  if (inet_pton(AF_INET6, text.c_str(), &addr) != 1) {
    throw std::invalid_argument(text);
  }
  return addr;
}
