// SPDX-License-Identifier: GPL-2.0
// Links, queues, ECMP and failures of fabric.hpp.
#include "fabric.hpp"

#include <linux/mrc_wire.h>

#include <algorithm>

#include "kinds.hpp"

namespace mrc_sim {
namespace {

// What a switch leaves of a trimmed DATA packet: the MRC header and the
// DATA body (PSN, tsval, plane), all the receiver needs for its NACK.
constexpr size_t kTrimmedBytes = sizeof(mrc_hdr) + sizeof(mrc_data);

Time TxTime(uint64_t bytes, uint32_t gbps) { return (bytes * 8 + gbps - 1) / gbps; }

}  // namespace

Fabric::Fabric(const FabricCfg& cfg, Engine& engine, PacketPool& pool, uint64_t seed)
    : cfg_(cfg), engine_(engine), pool_(pool), rng_(seed, 0xfab) {
  leaves_ = (cfg_.hosts + cfg_.hosts_per_leaf - 1) / cfg_.hosts_per_leaf;
  per_plane_ = 2 * cfg_.hosts + 2 * leaves_ * cfg_.spines;
  links_.resize(static_cast<size_t>(per_plane_) * cfg_.planes);
  for (uint32_t p = 0; p < cfg_.planes; p++) {
    for (uint32_t h = 0; h < cfg_.hosts; h++) {
      Link& u = links_[HostUp(p, h)];
      u.kind = LinkKind::kHostUp;
      u.from = h;
      u.to = LeafOf(h);
      Link& d = links_[HostDown(p, h)];
      d.kind = LinkKind::kHostDown;
      d.from = LeafOf(h);
      d.to = h;
    }
    for (uint32_t l = 0; l < leaves_; l++) {
      for (uint32_t s = 0; s < cfg_.spines; s++) {
        Link& u = links_[LeafUp(p, l, s)];
        u.kind = LinkKind::kLeafUp;
        u.from = l;
        u.to = s;
        Link& d = links_[SpineDown(p, s, l)];
        d.kind = LinkKind::kSpineDown;
        d.from = s;
        d.to = l;
      }
    }
    for (uint32_t i = 0; i < per_plane_; i++) {
      Link& ln = links_[Base(p) + i];
      ln.plane = static_cast<uint8_t>(p);
      const bool host = ln.kind == LinkKind::kHostUp || ln.kind == LinkKind::kHostDown;
      ln.gbps = host ? cfg_.HostGbps(p) : cfg_.PlaneUplinkGbps(p);
    }
  }
  leaf_up_.assign(static_cast<size_t>(cfg_.planes) * leaves_, 1);
  spine_up_.assign(static_cast<size_t>(cfg_.planes) * cfg_.spines, 1);
  port_up_.assign(static_cast<size_t>(cfg_.planes) * cfg_.hosts, 1);
  down_links_.assign(cfg_.planes, 0);
}

bool Fabric::Send(uint32_t link, uint32_t pkt) {
  Link& ln = links_[link];
  Packet& pk = pool_[pkt];
  const Time now = engine_.now();
  const uint64_t size = pk.bytes.size() + cfg_.wire_overhead;
  if (!ln.up) {
    ln.st.drops_down++;
    pool_.Put(pkt);
    return false;
  }
  if (rng_.ChancePpm(ln.loss_ppm)) {
    ln.st.drops_gray++;
    pool_.Put(pkt);
    return false;
  }
  const bool host = ln.kind == LinkKind::kHostUp;
  if (pk.trimmed || (host && cfg_.host_ctl_prio && !pk.ect)) return SendAhead(link, pkt);
  const Time busy = ln.busy_until > now ? ln.busy_until - now : 0;
  const uint64_t backlog = busy * ln.gbps / 8;
  const uint64_t cap = host ? cfg_.host_queue_bytes : cfg_.queue_bytes;
  if (backlog + size > cap) {
    // Trimming is a switch's: the NIC's own queue never trims.
    if (cfg_.trim && !host && pk.ect && pk.bytes.size() > kTrimmedBytes) {
      pk.bytes.resize(kTrimmedBytes);
      pk.trimmed = true;
      ln.st.trims++;
      return SendAhead(link, pkt);
    }
    ln.st.drops_queue++;
    pool_.Put(pkt);
    return false;
  }
  if (backlog > ln.st.max_backlog) ln.st.max_backlog = backlog;
  if (pk.ect && backlog > cfg_.ecn_bytes && !pk.ce) {
    pk.ce = true;
    ln.st.ecn_marks++;
  }
  ln.st.tx_pkts++;
  ln.st.tx_bytes += size;
  ln.busy_until = now + busy + TxTime(size, ln.gbps);
  pk.link_gen = ln.gen;
  engine_.Schedule(ln.busy_until + cfg_.prop_ns, kEvArrive, link, pkt);
  return true;
}

// A trimmed header, or a NIC's control packet (host_ctl_prio), goes out
// ahead of the queued data (strict priority, as switches that trim and
// RDMA NICs do) from an allowance of its own, so that these packets are
// not dropped in turn. The data sent after it waits for its
// serialisation; data already scheduled is not moved (a few ns), and the
// packet on the wire is not pre-empted (counted as if it were).
bool Fabric::SendAhead(uint32_t link, uint32_t pkt) {
  Link& ln = links_[link];
  Packet& pk = pool_[pkt];
  const Time now = engine_.now();
  const uint64_t size = pk.bytes.size() + cfg_.wire_overhead;
  const Time busy = ln.prio_busy_until > now ? ln.prio_busy_until - now : 0;
  if (busy * ln.gbps / 8 + size > cfg_.trim_queue_bytes) {
    ln.st.drops_queue++;
    pool_.Put(pkt);
    return false;
  }
  const Time tx = TxTime(size, ln.gbps);
  ln.prio_busy_until = now + busy + tx;
  ln.busy_until = std::max(ln.busy_until, now) + tx;
  ln.st.tx_pkts++;
  ln.st.tx_bytes += size;
  pk.link_gen = ln.gen;
  engine_.Schedule(ln.prio_busy_until + cfg_.prop_ns, kEvArrive, link, pkt);
  return true;
}

Time Fabric::DrainedTo(uint32_t link, uint64_t bytes) const {
  const Link& ln = links_[link];
  const Time drain = TxTime(bytes, ln.gbps);
  return ln.busy_until > drain ? ln.busy_until - drain : 0;
}

bool Fabric::SendFromHost(uint32_t pkt) {
  const Packet& pk = pool_[pkt];
  return Send(HostUp(pk.plane, pk.src_host), pkt);
}

bool Fabric::PickSpine(uint32_t p, uint32_t leaf, uint32_t dst_leaf, const Packet& pk,
                       uint32_t& s) {
  const uint64_t h = Mix64((static_cast<uint64_t>(pk.src_host) << 40) ^
                           (static_cast<uint64_t>(pk.dst_host) << 20) ^ pk.ev ^
                           (static_cast<uint64_t>(leaf) << 56) ^ (static_cast<uint64_t>(p) << 62));
  if (down_links_[p] == 0) {
    s = static_cast<uint32_t>(h % cfg_.spines);
    return true;
  }
  // Leaves drop next hops whose uplink is down at once, and spines that
  // lost the destination leaf once routing converged (reroute_ns).
  cand_.clear();
  const Time now = engine_.now();
  for (uint32_t i = 0; i < cfg_.spines; i++) {
    if (!links_[LeafUp(p, leaf, i)].up) continue;
    const Link& d = links_[SpineDown(p, i, dst_leaf)];
    if (!d.up && now - d.down_since >= cfg_.reroute_ns) continue;
    cand_.push_back(i);
  }
  if (cand_.empty()) return false;
  s = cand_[h % cand_.size()];
  return true;
}

bool Fabric::Arrive(uint32_t link, uint32_t pkt) {
  Link& ln = links_[link];
  Packet& pk = pool_[pkt];
  if (pk.link_gen != ln.gen) {  // the link went down while it was on it
    ln.st.drops_down++;
    pool_.Put(pkt);
    return false;
  }
  const uint32_t p = ln.plane;
  const uint32_t dst_leaf = LeafOf(pk.dst_host);
  switch (ln.kind) {
    case LinkKind::kHostDown:
      return true;
    case LinkKind::kLeafUp:  // at spine ln.to
      Send(SpineDown(p, ln.to, dst_leaf), pkt);
      return false;
    case LinkKind::kHostUp:
    case LinkKind::kSpineDown: {  // at leaf ln.to
      if (ln.to == dst_leaf) {
        Send(HostDown(p, pk.dst_host), pkt);
        return false;
      }
      uint32_t s = 0;
      if (!PickSpine(p, ln.to, dst_leaf, pk, s)) {
        ln.st.drops_down++;  // no route: counted where it arrived
        pool_.Put(pkt);
        return false;
      }
      Send(LeafUp(p, ln.to, s), pkt);
      return false;
    }
  }
  return false;
}

void Fabric::Refresh(uint32_t p) {
  const Time now = engine_.now();
  uint32_t down = 0;
  for (uint32_t i = 0; i < per_plane_; i++) {
    Link& ln = links_[Base(p) + i];
    bool ends = true;
    switch (ln.kind) {
      case LinkKind::kHostUp:
        ends = port_up_[p * cfg_.hosts + ln.from] && leaf_up_[p * leaves_ + ln.to];
        break;
      case LinkKind::kHostDown:
        ends = port_up_[p * cfg_.hosts + ln.to] && leaf_up_[p * leaves_ + ln.from];
        break;
      case LinkKind::kLeafUp:
        ends = leaf_up_[p * leaves_ + ln.from] && spine_up_[p * cfg_.spines + ln.to];
        break;
      case LinkKind::kSpineDown:
        ends = spine_up_[p * cfg_.spines + ln.from] && leaf_up_[p * leaves_ + ln.to];
        break;
    }
    const bool up = ln.admin_up && ends;
    if (ln.up && !up) {
      ln.gen++;  // what was queued or on the wire is lost
      ln.busy_until = now;
      ln.prio_busy_until = now;
      ln.down_since = now;
      ln.st.downs++;
    }
    ln.up = up;
    down += up ? 0 : 1;
  }
  down_links_[p] = down;
}

void Fabric::SetLinkAdmin(uint32_t link, bool up) {
  links_[link].admin_up = up;
  Refresh(links_[link].plane);
}

void Fabric::SetLeaf(uint32_t p, uint32_t l, bool up) {
  leaf_up_[p * leaves_ + l] = up ? 1 : 0;
  Refresh(p);
}

void Fabric::SetSpine(uint32_t p, uint32_t s, bool up) {
  spine_up_[p * cfg_.spines + s] = up ? 1 : 0;
  Refresh(p);
}

void Fabric::SetHostPort(uint32_t h, uint32_t p, bool up) {
  port_up_[p * cfg_.hosts + h] = up ? 1 : 0;
  Refresh(p);
}

uint64_t Fabric::drops() const {
  uint64_t n = 0;
  for (const Link& ln : links_) n += ln.st.drops_queue + ln.st.drops_down + ln.st.drops_gray;
  return n;
}

uint64_t Fabric::trims() const {
  uint64_t n = 0;
  for (const Link& ln : links_) n += ln.st.trims;
  return n;
}

}  // namespace mrc_sim
