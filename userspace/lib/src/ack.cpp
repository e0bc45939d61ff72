// SPDX-License-Identifier: GPL-2.0
// The errno and extended ACK (NETLINK_EXT_ACK) of NLMSG_ERROR and
// NLMSG_DONE messages, read with libnl's attribute parser.
#include <linux/netlink.h>

#include <cstring>
#include <string>

#include "attrs.hpp"
#include "mrc/netlink_socket.hpp"

namespace mrc {
namespace {

constexpr auto kExtackPolicy = detail::MakePolicy<NLMSGERR_ATTR_MAX>({
    {NLMSGERR_ATTR_MSG, NLA_STRING},
    {NLMSGERR_ATTR_OFFS, NLA_U32},
    {NLMSGERR_ATTR_MISS_TYPE, NLA_U32},
});

// Bytes between the netlink header and the TLVs: struct nlmsgerr, plus the
// echoed request unless the kernel capped it (NLM_F_CAPPED).
int ErrorHeaderLen(const nlmsghdr* hdr, const nlmsgerr& err) {
  int len = sizeof(nlmsgerr);
  if ((hdr->nlmsg_flags & NLM_F_CAPPED) == 0 && err.msg.nlmsg_len > NLMSG_HDRLEN) {
    len += static_cast<int>(err.msg.nlmsg_len - NLMSG_HDRLEN);
  }
  return len;
}

std::string ReadExtack(nlmsghdr* hdr, int hdrlen) {
  if ((hdr->nlmsg_flags & NLM_F_ACK_TLVS) == 0) {
    return {};
  }
  std::array<nlattr*, NLMSGERR_ATTR_MAX + 1> tb{};
  if (nlmsg_parse(hdr, hdrlen, tb.data(), NLMSGERR_ATTR_MAX, kExtackPolicy.data()) < 0) {
    return {};
  }
  if (const nlattr* msg = tb[NLMSGERR_ATTR_MSG]) {
    return detail::AttrString(msg);
  }
  if (const nlattr* miss = tb[NLMSGERR_ATTR_MISS_TYPE]) {
    return "required attribute " + std::to_string(nla_get_u32(miss)) + " is missing";
  }
  return {};
}

}  // namespace

int ParseAckError(nlmsghdr* hdr, std::string& extack) {
  extack.clear();
  int error = 0;
  int hdrlen = 0;
  const auto datalen = static_cast<std::size_t>(nlmsg_datalen(hdr));
  if (hdr->nlmsg_type == NLMSG_ERROR && datalen >= sizeof(nlmsgerr)) {
    nlmsgerr err{};
    std::memcpy(&err, nlmsg_data(hdr), sizeof(err));
    error = -err.error;
    hdrlen = ErrorHeaderLen(hdr, err);
  } else if (hdr->nlmsg_type == NLMSG_DONE && datalen >= sizeof(int)) {
    int done = 0;
    std::memcpy(&done, nlmsg_data(hdr), sizeof(done));
    error = -done;
    hdrlen = sizeof(int);
  } else {
    return 0;
  }
  extack = ReadExtack(hdr, hdrlen);
  return error;
}

}  // namespace mrc
