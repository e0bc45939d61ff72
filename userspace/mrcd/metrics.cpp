// SPDX-License-Identifier: GPL-2.0
#include "metrics.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace mrcd {
namespace {

using Labels = std::vector<std::pair<std::string_view, std::string>>;

// Builds the page one family (HELP, TYPE, samples) at a time.
class Page {
 public:
  void Family(std::string_view name, std::string_view type, std::string_view help) {
    text_ += "# HELP " + std::string(name) + " " + EscapeHelp(help) + "\n";
    text_ += "# TYPE " + std::string(name) + " " + std::string(type) + "\n";
  }

  void Sample(std::string_view name, const Labels& labels, std::string_view value) {
    text_ += name;
    if (!labels.empty()) {
      text_ += '{';
      for (std::size_t i = 0; i < labels.size(); i++) {
        text_ += (i ? "," : "") + std::string(labels[i].first) + "=\"" +
                 EscapeLabelValue(labels[i].second) + '"';
      }
      text_ += '}';
    }
    text_ += ' ';
    text_ += value;
    text_ += '\n';
  }

  void Sample(std::string_view name, const Labels& labels, std::uint64_t value) {
    Sample(name, labels, std::to_string(value));
  }

  [[nodiscard]] std::string Take() { return std::move(text_); }

 private:
  static std::string EscapeHelp(std::string_view help) {
    std::string escaped;
    for (const char c : help) {
      escaped += c == '\\' ? "\\\\" : c == '\n' ? "\\n" : std::string(1, c);
    }
    return escaped;
  }

  std::string text_;
};

// Shortest decimal that reads back as `value`: 0.000002, not 2e-06.
std::string FormatDouble(double value) {
  std::array<char, 64> buffer{};
  const auto result =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed);
  return {buffer.data(), result.ptr};
}

template <typename Value>
struct Counter {
  std::string_view name;
  std::string_view help;
  __u64 Value::*field;
};

constexpr std::array<Counter<mrc_tm_path>, 8> kPathCounters{{
    {"mrc_path_tx_packets_total", "Data packets sent on the path, retransmissions included.",
     &mrc_tm_path::tx_pkts},
    {"mrc_path_tx_bytes_total", "Payload bytes sent on the path.", &mrc_tm_path::tx_bytes},
    {"mrc_path_retransmitted_packets_total", "Packets retransmitted on the path.",
     &mrc_tm_path::retx_pkts},
    {"mrc_path_acked_packets_total", "Packets sent on the path and acknowledged.",
     &mrc_tm_path::acked_pkts},
    {"mrc_path_losses_total", "Packets of the path declared lost (SACK gap or timeout).",
     &mrc_tm_path::losses},
    {"mrc_path_nacks_total", "NACKs received naming the path's EV.", &mrc_tm_path::nacks},
    {"mrc_path_rx_packets_total", "Data packets received on the path.", &mrc_tm_path::rx_pkts},
    {"mrc_path_rx_bytes_total", "Payload bytes received on the path.", &mrc_tm_path::rx_bytes},
}};

constexpr std::array<Counter<mrc_tm_plane>, 9> kPlaneCounters{{
    {"mrc_plane_tx_packets_total", "Data packets sent on the plane, retransmissions included.",
     &mrc_tm_plane::tx_pkts},
    {"mrc_plane_tx_bytes_total", "Payload bytes sent on the plane.", &mrc_tm_plane::tx_bytes},
    {"mrc_plane_retransmitted_packets_total", "Packets retransmitted on the plane.",
     &mrc_tm_plane::retx_pkts},
    {"mrc_plane_acked_packets_total", "Packets sent on the plane and acknowledged.",
     &mrc_tm_plane::acked_pkts},
    {"mrc_plane_losses_total", "Packets of the plane declared lost (SACK gap or timeout).",
     &mrc_tm_plane::losses},
    {"mrc_plane_nacks_total", "NACKs received for the plane's paths.", &mrc_tm_plane::nacks},
    {"mrc_plane_rx_packets_total", "Data packets received on the plane.", &mrc_tm_plane::rx_pkts},
    {"mrc_plane_rx_bytes_total", "Payload bytes received on the plane.", &mrc_tm_plane::rx_bytes},
    {"mrc_plane_rx_ce_packets_total", "Data packets received on the plane with ECN CE.",
     &mrc_tm_plane::rx_ce},
}};

constexpr std::array<Counter<mrc_tm_link>, 4> kLinkCounters{{
    {"mrc_link_tx_packets_total", "MRC UDP packets sent on the netdev.", &mrc_tm_link::tx_pkts},
    {"mrc_link_tx_bytes_total", "Bytes of MRC UDP packets sent on the netdev.",
     &mrc_tm_link::tx_bytes},
    {"mrc_link_rx_packets_total", "MRC UDP packets received on the netdev.", &mrc_tm_link::rx_pkts},
    {"mrc_link_rx_bytes_total", "Bytes of MRC UDP packets received on the netdev.",
     &mrc_tm_link::rx_bytes},
}};

// One counter family per field, one sample per map entry.
template <typename Key, typename Value, std::size_t N, typename LabelsOf>
void AddCounters(Page& page, const std::array<Counter<Value>, N>& counters,
                 const std::vector<std::pair<Key, Value>>& entries, LabelsOf labels_of) {
  if (entries.empty()) {
    return;
  }
  for (const Counter<Value>& counter : counters) {
    page.Family(counter.name, "counter", counter.help);
    for (const auto& [key, value] : entries) {
      page.Sample(counter.name, labels_of(key), value.*counter.field);
    }
  }
}

Labels PathLabels(const mrc_tm_path_key& key, const mrc_tm_path& path) {
  return {{"conn", std::to_string(key.conn)},
          {"ev", std::to_string(key.ev)},
          {"plane", std::to_string(path.plane)}};
}

void AddPaths(Page& page, const mrc::PathEntries& paths) {
  if (paths.empty()) {
    return;
  }
  for (const auto& counter : kPathCounters) {
    page.Family(counter.name, "counter", counter.help);
    for (const auto& [key, path] : paths) {
      page.Sample(counter.name, PathLabels(key, path), path.*counter.field);
    }
  }
}

// Bucket b holds RTTs below 2^(b+1) us; the last one also everything
// longer, so its bound is +Inf.
void AddRttHistogram(Page& page, const mrc::PlaneEntries& planes) {
  constexpr std::string_view kName = "mrc_plane_rtt_seconds";
  page.Family(kName, "histogram", "Round-trip times measured on the plane.");
  for (const auto& [key, plane] : planes) {
    const std::string id = std::to_string(key.plane);
    std::uint64_t cumulative = 0;
    for (std::size_t b = 0; b + 1 < MRC_TM_RTT_BUCKETS; b++) {
      cumulative += plane.rtt_hist[b];
      const double bound = static_cast<double>(1ULL << (b + 1)) / 1e6;
      page.Sample("mrc_plane_rtt_seconds_bucket", {{"plane", id}, {"le", FormatDouble(bound)}},
                  cumulative);
    }
    cumulative += plane.rtt_hist[MRC_TM_RTT_BUCKETS - 1];
    // The map is updated field by field: never let +Inf fall below a bucket.
    const std::uint64_t count = std::max<std::uint64_t>(cumulative, plane.rtt_samples);
    page.Sample("mrc_plane_rtt_seconds_bucket", {{"plane", id}, {"le", "+Inf"}}, count);
    page.Sample("mrc_plane_rtt_seconds_sum", {{"plane", id}},
                FormatDouble(static_cast<double>(plane.rtt_sum_us) / 1e6));
    page.Sample("mrc_plane_rtt_seconds_count", {{"plane", id}}, count);
  }
}

std::string IfnameOf(const std::vector<mrc::Plane>& planes, std::uint32_t ifindex) {
  for (const mrc::Plane& plane : planes) {
    if (plane.ifindex == ifindex && plane.ifname) {
      return *plane.ifname;
    }
  }
  return "";
}

void AddPlaneStates(Page& page, const std::vector<mrc::Plane>& planes) {
  if (planes.empty()) {
    return;
  }
  const auto labels = [](const mrc::Plane& plane) {
    return Labels{{"plane", plane.id ? std::to_string(*plane.id) : ""},
                  {"ifname", plane.ifname.value_or("")}};
  };
  page.Family("mrc_plane_up", "gauge", "1 if the plane is administratively up, else 0.");
  for (const mrc::Plane& plane : planes) {
    page.Sample("mrc_plane_up", labels(plane), plane.state == mrc::PlaneState::kUp ? 1U : 0U);
  }
  page.Family("mrc_plane_link_up", "gauge", "1 if the plane's netdev has carrier, else 0.");
  for (const mrc::Plane& plane : planes) {
    page.Sample("mrc_plane_link_up", labels(plane), plane.link == mrc::LinkState::kUp ? 1U : 0U);
  }
}

void AddByKind(Page& page, std::string_view name, std::string_view help,
               const std::map<std::string, std::uint64_t>& counts) {
  page.Family(name, "counter", help);
  for (const auto& [kind, count] : counts) {
    page.Sample(name, {{"kind", kind}}, count);
  }
}

void AddDaemon(Page& page, const DaemonCounters& daemon) {
  AddByKind(page, "mrcd_alarms_total", "Alarms received from the eBPF detector.", daemon.alarms);
  AddByKind(page, "mrcd_actions_total", "Actions the daemon's policy decided.", daemon.actions);
  page.Family("mrcd_paths_marked_bad_total", "counter", "Paths the daemon set ASSUMED_BAD.");
  page.Sample("mrcd_paths_marked_bad_total", {}, daemon.paths_changed);
  page.Family("mrcd_config_reloads_total", "counter", "Configuration reloads, by result.");
  page.Sample("mrcd_config_reloads_total", {{"result", "ok"}}, daemon.reloads_ok);
  page.Sample("mrcd_config_reloads_total", {{"result", "failed"}}, daemon.reloads_failed);
  page.Family("mrcd_planes_held_down", "gauge", "Planes the daemon holds down for flapping.");
  page.Sample("mrcd_planes_held_down", {}, daemon.planes_held_down);
}

}  // namespace

std::string EscapeLabelValue(std::string_view value) {
  std::string escaped;
  for (const char c : value) {
    switch (c) {
      case '\\':
        escaped += "\\\\";
        break;
      case '"':
        escaped += "\\\"";
        break;
      case '\n':
        escaped += "\\n";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

std::string FormatMetrics(const MetricsSnapshot& snapshot) {
  Page page;
  const mrc::TelemetrySnapshot& telemetry = snapshot.telemetry;
  AddPaths(page, telemetry.paths);
  AddCounters(page, kPlaneCounters, telemetry.planes, [](const mrc_tm_plane_key& key) {
    return Labels{{"plane", std::to_string(key.plane)}};
  });
  if (!telemetry.planes.empty()) {
    AddRttHistogram(page, telemetry.planes);
  }
  AddCounters(page, kLinkCounters, telemetry.links, [&](const mrc_tm_link_key& key) {
    return Labels{{"ifindex", std::to_string(key.ifindex)},
                  {"ifname", IfnameOf(snapshot.planes, key.ifindex)}};
  });
  AddPlaneStates(page, snapshot.planes);
  AddDaemon(page, snapshot.daemon);
  return page.Take();
}

}  // namespace mrcd
