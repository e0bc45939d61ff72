// SPDX-License-Identifier: GPL-2.0
// The network: per plane a two-tier Clos (hosts -> leaf -> spine -> leaf
// -> host) of one-way links with rate, propagation delay, a finite
// tail-drop queue and an ECN marking threshold; ECMP by hashing (src, dst,
// EV) at each leaf over the spines it can use; and the failures a
// scenario schedules (link down/up, switch down/up, gray loss, NIC port
// down/up). A queue is the link's backlog: the time its transmitter stays
// busy, so a packet costs one event per hop. With trimming on, a switch
// queue that would tail-drop a DATA packet sends its header instead, ahead
// of the queued data (strict priority, a small allowance of its own).
// A host's NIC sends its control packets (SACK, NACK, probes, handshake:
// everything but DATA) the same way when host_ctl_prio is on, as RDMA and
// UET NICs schedule acknowledgements apart from data and as mrc.ko asks
// Linux's qdiscs to (TC_PRIO_CONTROL): a SACK does not wait behind the
// window of data its host sends the other way. A core builds no new DATA
// for a plane whose NIC queue holds more than host_tsq_bytes (the core's
// tx_busy(), as TCP's small queues keep a socket's share of a qdisc
// short): it sends when the queue has drained, with the RTT samples and
// EV states of that moment, and a SACK's RTT is the fabric's, not the
// sender's own queue (which marked 835 of smoke's 1,024 SACKs CE).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine.hpp"
#include "packet.hpp"
#include "rng.hpp"

namespace mrc_sim {

struct FabricCfg {
  uint32_t hosts = 2;
  uint32_t planes = 4;
  uint32_t hosts_per_leaf = 16;
  uint32_t spines = 4;
  uint32_t gbps = 100;                          // host links
  uint32_t uplink_gbps = 0;                     // leaf-spine links (0: gbps); a leaf's
                                                // oversubscription is hosts_per_leaf * gbps
                                                // / (spines * uplink_gbps)
  Time prop_ns = 500;                           // every link
  uint32_t queue_bytes = 512 * 1024;            // switch egress queue
  uint32_t host_queue_bytes = 4 * 1024 * 1024;  // NIC transmit queue
  uint32_t ecn_bytes = 64 * 1024;               // mark CE above this backlog
  uint32_t wire_overhead = 66;                  // Ethernet + IP + UDP + preamble/IFG
  Time reroute_ns = 50 * kUs;                   // other leaves route around a dead
                                                // spine downlink after this long
  bool trim = false;                            // trim DATA instead of tail-dropping it
  uint32_t trim_queue_bytes = 64 * 1024;        // trimmed headers a switch queue holds
                                                // (and control packets a NIC holds)
  uint32_t host_tsq_bytes = 32 * 1024;          // a core sends no new DATA on a plane
                                                // while its host's NIC queue there holds
                                                // more (the core's tx_busy(); 0: off)
  bool host_ctl_prio = true;                    // a NIC sends control packets (not DATA)
                                                // ahead of its queued data

  std::vector<uint32_t> plane_gbps;  // host links of plane p (absent or 0:
                                     // gbps); its uplinks scale alike

  uint32_t UplinkGbps() const { return uplink_gbps != 0 ? uplink_gbps : gbps; }
  uint32_t HostGbps(uint32_t plane) const {
    return plane < plane_gbps.size() && plane_gbps[plane] != 0 ? plane_gbps[plane] : gbps;
  }
  uint32_t PlaneUplinkGbps(uint32_t plane) const {
    return std::max<uint32_t>(
        1, static_cast<uint32_t>(static_cast<uint64_t>(UplinkGbps()) * HostGbps(plane) / gbps));
  }
};

enum class LinkKind : uint8_t { kHostUp, kHostDown, kLeafUp, kSpineDown };

struct LinkStats {
  uint64_t tx_pkts = 0;
  uint64_t tx_bytes = 0;
  uint64_t drops_queue = 0;  // tail drop
  uint64_t drops_down = 0;   // link down (at send or in flight)
  uint64_t drops_gray = 0;   // silent random loss
  uint64_t trims = 0;        // DATA sent on as its header instead of a tail drop
  uint64_t downs = 0;        // times the link went down
  uint64_t ecn_marks = 0;
  uint64_t max_backlog = 0;  // bytes
};

struct Link {
  LinkKind kind = LinkKind::kHostUp;
  uint8_t plane = 0;
  uint32_t from = 0;  // host, leaf or spine index, by kind
  uint32_t to = 0;
  bool admin_up = true;
  bool up = true;  // admin and both ends up
  uint32_t gen = 0;
  uint32_t loss_ppm = 0;
  uint32_t gbps = 0;
  Time busy_until = 0;
  Time prio_busy_until = 0;  // trimmed headers and NIC control packets, sent ahead of
                             // busy_until's data
  Time down_since = 0;
  LinkStats st;
};

class Fabric {
 public:
  Fabric(const FabricCfg& cfg, Engine& engine, PacketPool& pool, uint64_t seed);

  const FabricCfg& cfg() const { return cfg_; }
  uint32_t leaves() const { return leaves_; }
  uint32_t LeafOf(uint32_t host) const { return host / cfg_.hosts_per_leaf; }

  uint32_t HostUp(uint32_t p, uint32_t h) const { return Base(p) + h; }
  uint32_t HostDown(uint32_t p, uint32_t h) const { return Base(p) + cfg_.hosts + h; }
  uint32_t LeafUp(uint32_t p, uint32_t l, uint32_t s) const {
    return Base(p) + 2 * cfg_.hosts + l * cfg_.spines + s;
  }
  uint32_t SpineDown(uint32_t p, uint32_t s, uint32_t l) const {
    return Base(p) + 2 * cfg_.hosts + leaves_ * cfg_.spines + s * leaves_ + l;
  }
  const std::vector<Link>& links() const { return links_; }

  // When `link`'s queue will hold no more than `bytes` (now or earlier
  // if it does already).
  Time DrainedTo(uint32_t link, uint64_t bytes) const;
  // Put packet `pkt` on the host's NIC port for its plane. False: dropped
  // (the packet is back in the pool).
  bool SendFromHost(uint32_t pkt);
  // An arrival event at the far end of `link`: forwards the packet, or
  // returns true when it reached its destination host (the caller owns it).
  bool Arrive(uint32_t link, uint32_t pkt);

  // Failures. Each returns nothing; HostPlaneUp() tells what hosts see.
  void SetLinkAdmin(uint32_t link, bool up);
  void SetLeaf(uint32_t p, uint32_t l, bool up);
  void SetSpine(uint32_t p, uint32_t s, bool up);
  void SetHostPort(uint32_t h, uint32_t p, bool up);
  void SetLoss(uint32_t link, uint32_t ppm) { links_[link].loss_ppm = ppm; }
  // Carrier on host h's port for plane p: what the kernel calls plane up.
  bool HostPlaneUp(uint32_t h, uint32_t p) const { return links_[HostUp(p, h)].up; }

  uint64_t drops() const;
  uint64_t trims() const;

 private:
  uint32_t Base(uint32_t p) const { return p * per_plane_; }
  bool Send(uint32_t link, uint32_t pkt);
  bool SendAhead(uint32_t link, uint32_t pkt);
  bool PickSpine(uint32_t p, uint32_t leaf, uint32_t dst_leaf, const Packet& pk, uint32_t& s);
  void Refresh(uint32_t p);

  FabricCfg cfg_;
  Engine& engine_;
  PacketPool& pool_;
  Rng rng_;
  uint32_t leaves_ = 0;
  uint32_t per_plane_ = 0;
  std::vector<Link> links_;
  std::vector<uint8_t> leaf_up_;      // [p * leaves + l]
  std::vector<uint8_t> spine_up_;     // [p * spines + s]
  std::vector<uint8_t> port_up_;      // [p * hosts + h]
  std::vector<uint32_t> down_links_;  // per plane: links not up
  std::vector<uint32_t> cand_;        // scratch for PickSpine
};

}  // namespace mrc_sim
