// SPDX-License-Identifier: GPL-2.0
// Reading the pinned telemetry maps: a key walk with bpf_map_get_next_key
// and one lookup per key. Entries may come and go during the walk (the LRU
// path map evicts); a key that vanished is skipped, not an error.
#include "mrc/telemetry.hpp"

#include <bpf/bpf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <tuple>

#include "mrc/error.hpp"
#include "mrc/fd.hpp"

namespace mrc {
namespace {

auto Fields(const mrc_tm_path_key& k) { return std::tie(k.netns, k.conn, k.ev); }
auto Fields(const mrc_tm_plane_key& k) { return std::tie(k.netns, k.plane); }
auto Fields(const mrc_tm_link_key& k) { return std::tie(k.netns, k.ifindex); }

template <typename Key, typename Value>
std::vector<std::pair<Key, Value>> Dump(int fd, std::uint32_t netns) {
  std::vector<std::pair<Key, Value>> out;
  Key key{};
  std::optional<Key> prev;
  while (bpf_map_get_next_key(fd, prev ? &*prev : nullptr, &key) == 0) {
    prev = key;
    Value value{};
    if (key.netns != netns || bpf_map_lookup_elem(fd, &key, &value) != 0) {
      continue;
    }
    out.emplace_back(key, value);
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return Fields(a.first) < Fields(b.first); });
  return out;
}

class FdTelemetry final : public TelemetryReader {
 public:
  FdTelemetry(int paths, int planes, int links) : paths_(paths), planes_(planes), links_(links) {}

  TelemetrySnapshot Read(std::uint32_t netns) override {
    return {Dump<mrc_tm_path_key, mrc_tm_path>(paths_, netns),
            Dump<mrc_tm_plane_key, mrc_tm_plane>(planes_, netns),
            Dump<mrc_tm_link_key, mrc_tm_link>(links_, netns)};
  }

 private:
  int paths_;
  int planes_;
  int links_;
};

int OpenPin(const std::string& dir, const char* name) {
  const std::string path = dir + "/" + name;
  const int fd = bpf_obj_get(path.c_str());
  if (fd < 0) {
    const int err = errno;
    throw Error("cannot open " + path + ": " + std::strerror(err) +
                (err == ENOENT ? " (is mrcd running?)" : ""));
  }
  return fd;
}

class PinnedTelemetry final : public TelemetryReader {
 public:
  explicit PinnedTelemetry(const std::string& dir)
      : paths_(OpenPin(dir, "mrc_paths")),
        planes_(OpenPin(dir, "mrc_planes")),
        links_(OpenPin(dir, "mrc_links")),
        reader_(paths_.get(), planes_.get(), links_.get()) {}

  TelemetrySnapshot Read(std::uint32_t netns) override { return reader_.Read(netns); }

 private:
  mrc::Fd paths_;
  mrc::Fd planes_;
  mrc::Fd links_;
  FdTelemetry reader_;
};

}  // namespace

std::unique_ptr<TelemetryReader> OpenPinnedTelemetry(const std::string& dir) {
  return std::make_unique<PinnedTelemetry>(dir);
}

std::unique_ptr<TelemetryReader> TelemetryFromFds(int paths_fd, int planes_fd, int links_fd) {
  return std::make_unique<FdTelemetry>(paths_fd, planes_fd, links_fd);
}

std::uint32_t CurrentNetns() {
  struct stat st {};
  if (stat("/proc/self/ns/net", &st) != 0) {
    throw Error(std::string("cannot stat /proc/self/ns/net: ") + std::strerror(errno));
  }
  return static_cast<std::uint32_t>(st.st_ino);
}

std::string AlarmKindName(std::uint32_t kind) {
  switch (kind) {
    case MRC_TM_ALARM_LOSS_BURST:
      return "loss_burst";
    case MRC_TM_ALARM_TIMEOUT:
      return "timeout";
    case MRC_TM_ALARM_NO_ACK:
      return "no_ack";
    case MRC_TM_ALARM_EV_STATE:
      return "ev_state";
    case MRC_TM_ALARM_PLANE_LOSS_BURST:
      return "plane_loss_burst";
    default:
      return "alarm_" + std::to_string(kind);
  }
}

}  // namespace mrc
