// SPDX-License-Identifier: GPL-2.0
#include "bpf_telemetry.hpp"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "mrc/error.hpp"
#include "mrc_telemetry.skel.h"

namespace mrcd {
namespace {

constexpr const char* kBpffs = "/sys/fs/bpf";

[[noreturn]] void Fail(const std::string& what, int err) {
  const int e = err < 0 ? -err : err;
  std::string text = what + ": " + std::strerror(e);
  if (e == EPERM || e == EACCES) {
    text += " (needs CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN and, on 6.1, CAP_SYS_ADMIN)";
  }
  throw mrc::Error(text);
}

// libbpf pins under pin_dir, which must be on a bpf filesystem.
void EnsureBpffs() {
  struct statfs fs {};
  if (statfs(kBpffs, &fs) == 0 && fs.f_type == BPF_FS_MAGIC) {
    return;
  }
  if (mount("bpf", kBpffs, "bpf", 0, nullptr) != 0) {
    Fail(std::string("no bpf filesystem on ") + kBpffs + " and mounting one failed", errno);
  }
}

template <typename Key>
void DeleteNamespace(int fd, std::uint32_t netns, bool& empty) {
  std::vector<Key> mine;
  Key key{};
  bool first = true;
  Key prev{};
  empty = true;
  while (bpf_map_get_next_key(fd, first ? nullptr : &prev, &key) == 0) {
    first = false;
    prev = key;
    if (key.netns == netns) {
      mine.push_back(key);
    } else {
      empty = false;
    }
  }
  for (const Key& k : mine) {
    bpf_map_delete_elem(fd, &k);
  }
}

bpf_tc_hook Hook(std::uint32_t ifindex, bpf_tc_attach_point where) {
  bpf_tc_hook hook{};
  hook.sz = sizeof(hook);
  hook.ifindex = static_cast<int>(ifindex);
  hook.attach_point = where;
  return hook;
}

bpf_tc_opts TcOpts(int prog_fd) {
  bpf_tc_opts opts{};
  opts.sz = sizeof(opts);
  opts.handle = 0x4d5243;  // "MRC"
  opts.priority = 1;
  opts.prog_fd = prog_fd;
  return opts;
}

}  // namespace

BpfTelemetry::BpfTelemetry(std::uint32_t netns, const mrc_tm_config& config,
                           const std::string& pin_dir, AlarmSink sink)
    : netns_(netns),
      pin_dir_(pin_dir),
      sink_(std::move(sink)),
      skel_(nullptr, mrc_telemetry_bpf__destroy),
      ring_(nullptr, ring_buffer__free) {
  EnsureBpffs();
  LIBBPF_OPTS(bpf_object_open_opts, opts, .pin_root_path = pin_dir_.c_str());
  skel_.reset(mrc_telemetry_bpf__open_opts(&opts));
  if (!skel_) {
    Fail("cannot open the telemetry eBPF object", errno);
  }
  skel_->rodata->filter_netns = netns_;
  // tc programs are attached per plane later, not by __attach().
  bpf_program__set_autoattach(skel_->progs.mrc_tm_tc_ingress, false);
  bpf_program__set_autoattach(skel_->progs.mrc_tm_tc_egress, false);
  if (const int err = mrc_telemetry_bpf__load(skel_.get()); err != 0) {
    Fail("cannot load the telemetry eBPF programs (is mrc.ko loaded, with BTF?)", err);
  }
  SetConfig(config);
  if (const int err = mrc_telemetry_bpf__attach(skel_.get()); err != 0) {
    Fail("cannot attach to the mrc tracepoints", err);
  }
  auto on_alarm = [](void* ctx, void* data, std::size_t size) -> int {
    if (size >= sizeof(mrc_tm_alarm)) {
      static_cast<BpfTelemetry*>(ctx)->sink_(*static_cast<const mrc_tm_alarm*>(data));
    }
    return 0;
  };
  ring_.reset(ring_buffer__new(bpf_map__fd(skel_->maps.mrc_alarms), on_alarm, this, nullptr));
  if (!ring_) {
    Fail("cannot open the alarm ring buffer", errno);
  }
  reader_ =
      mrc::TelemetryFromFds(bpf_map__fd(skel_->maps.mrc_paths), bpf_map__fd(skel_->maps.mrc_planes),
                            bpf_map__fd(skel_->maps.mrc_links));
}

BpfTelemetry::~BpfTelemetry() {
  while (!links_.empty()) {
    DetachLink(links_.begin()->first);
  }
  ring_.reset();
  ForgetNamespace();
  skel_.reset();
}

void BpfTelemetry::ForgetNamespace() const {
  bool paths_empty = false;
  bool planes_empty = false;
  bool links_empty = false;
  bool config_empty = true;
  DeleteNamespace<mrc_tm_path_key>(bpf_map__fd(skel_->maps.mrc_paths), netns_, paths_empty);
  DeleteNamespace<mrc_tm_plane_key>(bpf_map__fd(skel_->maps.mrc_planes), netns_, planes_empty);
  DeleteNamespace<mrc_tm_link_key>(bpf_map__fd(skel_->maps.mrc_links), netns_, links_empty);
  const int cfg_fd = bpf_map__fd(skel_->maps.mrc_tm_config);
  bpf_map_delete_elem(cfg_fd, &netns_);
  std::uint32_t other = 0;
  config_empty = bpf_map_get_next_key(cfg_fd, nullptr, &other) != 0;
  if (paths_empty && planes_empty && links_empty && config_empty) {
    // The last mrcd: leave no pins behind.
    bpf_object__unpin_maps(skel_->obj, nullptr);
    rmdir(pin_dir_.c_str());
  }
}

void BpfTelemetry::SetConfig(const mrc_tm_config& config) {
  const int err =
      bpf_map_update_elem(bpf_map__fd(skel_->maps.mrc_tm_config), &netns_, &config, BPF_ANY);
  if (err != 0) {
    Fail("cannot write the detector thresholds", errno);
  }
}

void BpfTelemetry::AttachLink(std::uint32_t ifindex, std::uint16_t port) {
  if (links_.contains(ifindex)) {
    return;
  }
  const std::uint8_t yes = 1;
  bpf_map_update_elem(bpf_map__fd(skel_->maps.mrc_tm_ports), &port, &yes, BPF_ANY);
  Link link{.created_qdisc = false, .port = port};
  bpf_tc_hook hook =
      Hook(ifindex, static_cast<bpf_tc_attach_point>(BPF_TC_INGRESS | BPF_TC_EGRESS));
  const int created = bpf_tc_hook_create(&hook);
  if (created != 0 && created != -EEXIST) {
    Fail("cannot add a clsact qdisc to ifindex " + std::to_string(ifindex), created);
  }
  link.created_qdisc = created == 0;
  const std::pair<bpf_tc_attach_point, bpf_program*> progs[] = {
      {BPF_TC_INGRESS, skel_->progs.mrc_tm_tc_ingress},
      {BPF_TC_EGRESS, skel_->progs.mrc_tm_tc_egress}};
  links_[ifindex] = link;
  for (const auto& [where, prog] : progs) {
    bpf_tc_hook h = Hook(ifindex, where);
    bpf_tc_opts o = TcOpts(bpf_program__fd(prog));
    o.flags = BPF_TC_F_REPLACE;
    if (const int err = bpf_tc_attach(&h, &o); err != 0) {
      DetachLink(ifindex);
      Fail("cannot attach the tc counters to ifindex " + std::to_string(ifindex), err);
    }
  }
}

void BpfTelemetry::DetachLink(std::uint32_t ifindex) {
  const auto it = links_.find(ifindex);
  if (it == links_.end()) {
    return;
  }
  for (const bpf_tc_attach_point where : {BPF_TC_INGRESS, BPF_TC_EGRESS}) {
    bpf_tc_hook h = Hook(ifindex, where);
    bpf_tc_opts o = TcOpts(0);
    bpf_tc_detach(&h, &o);  // the netdev may be gone already
  }
  if (it->second.created_qdisc) {
    bpf_tc_hook h = Hook(ifindex, static_cast<bpf_tc_attach_point>(BPF_TC_INGRESS | BPF_TC_EGRESS));
    bpf_tc_hook_destroy(&h);
  }
  links_.erase(it);
}

int BpfTelemetry::alarm_fd() const { return ring_buffer__epoll_fd(ring_.get()); }

void BpfTelemetry::Consume() { ring_buffer__consume(ring_.get()); }

mrc::TelemetrySnapshot BpfTelemetry::Read() const { return reader_->Read(netns_); }

}  // namespace mrcd
