// SPDX-License-Identifier: GPL-2.0
// mrcd's /metrics page and the HTTP server that serves it.
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <string>

#include "mrcd/metrics.hpp"
#include "mrcd/metrics_server.hpp"

namespace {

using mrcd::FormatMetrics;
using mrcd::MetricsSnapshot;

bool Contains(const std::string& text, const std::string& line) {
  return text.find(line) != std::string::npos;
}

MetricsSnapshot SmallSnapshot() {
  MetricsSnapshot snapshot;
  mrc_tm_path path{};
  path.plane = 1;
  path.tx_pkts = 100;
  path.tx_bytes = 150000;
  path.retx_pkts = 2;
  path.acked_pkts = 97;
  path.losses = 3;
  path.nacks = 1;
  path.rx_pkts = 50;
  path.rx_bytes = 400;
  snapshot.telemetry.paths = {{mrc_tm_path_key{.netns = 9, .conn = 12, .ev = 7}, path}};
  snapshot.planes = {mrc::Plane{
      .id = 1, .ifname = "eth1", .state = mrc::PlaneState::kUp, .link = mrc::LinkState::kDown}};
  snapshot.daemon.alarms = {{"loss_burst", 2}, {"timeout", 0}};
  snapshot.daemon.actions = {{"path_bad", 1}};
  snapshot.daemon.paths_changed = 1;
  snapshot.daemon.reloads_ok = 1;
  return snapshot;
}

TEST(MrcdMetrics, SmallSnapshotExactText) {
  const std::string expected =
      R"(# HELP mrc_path_tx_packets_total Data packets sent on the path, retransmissions included.
# TYPE mrc_path_tx_packets_total counter
mrc_path_tx_packets_total{conn="12",ev="7",plane="1"} 100
# HELP mrc_path_tx_bytes_total Payload bytes sent on the path.
# TYPE mrc_path_tx_bytes_total counter
mrc_path_tx_bytes_total{conn="12",ev="7",plane="1"} 150000
# HELP mrc_path_retransmitted_packets_total Packets retransmitted on the path.
# TYPE mrc_path_retransmitted_packets_total counter
mrc_path_retransmitted_packets_total{conn="12",ev="7",plane="1"} 2
# HELP mrc_path_acked_packets_total Packets sent on the path and acknowledged.
# TYPE mrc_path_acked_packets_total counter
mrc_path_acked_packets_total{conn="12",ev="7",plane="1"} 97
# HELP mrc_path_losses_total Packets of the path declared lost (SACK gap or timeout).
# TYPE mrc_path_losses_total counter
mrc_path_losses_total{conn="12",ev="7",plane="1"} 3
# HELP mrc_path_nacks_total NACKs received naming the path's EV.
# TYPE mrc_path_nacks_total counter
mrc_path_nacks_total{conn="12",ev="7",plane="1"} 1
# HELP mrc_path_rx_packets_total Data packets received on the path.
# TYPE mrc_path_rx_packets_total counter
mrc_path_rx_packets_total{conn="12",ev="7",plane="1"} 50
# HELP mrc_path_rx_bytes_total Payload bytes received on the path.
# TYPE mrc_path_rx_bytes_total counter
mrc_path_rx_bytes_total{conn="12",ev="7",plane="1"} 400
# HELP mrc_plane_up 1 if the plane is administratively up, else 0.
# TYPE mrc_plane_up gauge
mrc_plane_up{plane="1",ifname="eth1"} 1
# HELP mrc_plane_link_up 1 if the plane's netdev has carrier, else 0.
# TYPE mrc_plane_link_up gauge
mrc_plane_link_up{plane="1",ifname="eth1"} 0
# HELP mrcd_alarms_total Alarms received from the eBPF detector.
# TYPE mrcd_alarms_total counter
mrcd_alarms_total{kind="loss_burst"} 2
mrcd_alarms_total{kind="timeout"} 0
# HELP mrcd_actions_total Actions the daemon's policy decided.
# TYPE mrcd_actions_total counter
mrcd_actions_total{kind="path_bad"} 1
# HELP mrcd_paths_marked_bad_total Paths the daemon set ASSUMED_BAD.
# TYPE mrcd_paths_marked_bad_total counter
mrcd_paths_marked_bad_total 1
# HELP mrcd_config_reloads_total Configuration reloads, by result.
# TYPE mrcd_config_reloads_total counter
mrcd_config_reloads_total{result="ok"} 1
mrcd_config_reloads_total{result="failed"} 0
# HELP mrcd_planes_held_down Planes the daemon holds down for flapping.
# TYPE mrcd_planes_held_down gauge
mrcd_planes_held_down 0
)";
  EXPECT_EQ(FormatMetrics(SmallSnapshot()), expected);
}

TEST(MrcdMetrics, EmptySnapshotHasOnlyDaemonFamilies) {
  const std::string text = FormatMetrics(MetricsSnapshot{});
  EXPECT_FALSE(Contains(text, "mrc_path_"));
  EXPECT_FALSE(Contains(text, "mrc_plane_"));
  EXPECT_FALSE(Contains(text, "mrc_link_"));
  EXPECT_TRUE(Contains(text, "mrcd_planes_held_down 0\n"));
}

TEST(MrcdMetrics, RttHistogramIsCumulative) {
  mrc_tm_plane plane{};
  plane.tx_pkts = 5;
  plane.rtt_hist[0] = 1;                       // < 2 us
  plane.rtt_hist[3] = 4;                       // 8 .. 15 us
  plane.rtt_hist[9] = 2;                       // 512 .. 1023 us
  plane.rtt_hist[MRC_TM_RTT_BUCKETS - 1] = 1;  // 8.4 s and longer
  plane.rtt_samples = 8;
  plane.rtt_sum_us = 9000000 + 1500;
  MetricsSnapshot snapshot;
  snapshot.telemetry.planes = {{mrc_tm_plane_key{.netns = 1, .plane = 2}, plane}};
  const std::string text = FormatMetrics(snapshot);

  EXPECT_TRUE(Contains(text, "mrc_plane_tx_packets_total{plane=\"2\"} 5\n"));
  EXPECT_TRUE(Contains(text, "# TYPE mrc_plane_rtt_seconds histogram\n"));
  EXPECT_TRUE(Contains(text, "mrc_plane_rtt_seconds_bucket{plane=\"2\",le=\"0.000002\"} 1\n"));
  EXPECT_TRUE(Contains(text, "mrc_plane_rtt_seconds_bucket{plane=\"2\",le=\"0.000008\"} 1\n"));
  EXPECT_TRUE(Contains(text, "mrc_plane_rtt_seconds_bucket{plane=\"2\",le=\"0.000016\"} 5\n"));
  EXPECT_TRUE(Contains(text, "mrc_plane_rtt_seconds_bucket{plane=\"2\",le=\"0.001024\"} 7\n"));
  // The last bucket is open-ended: it only shows in +Inf.
  EXPECT_TRUE(Contains(text, "mrc_plane_rtt_seconds_bucket{plane=\"2\",le=\"8.388608\"} 7\n"));
  EXPECT_FALSE(Contains(text, "le=\"16.777216\""));
  EXPECT_TRUE(Contains(text, "mrc_plane_rtt_seconds_bucket{plane=\"2\",le=\"+Inf\"} 8\n"));
  EXPECT_TRUE(Contains(text, "mrc_plane_rtt_seconds_sum{plane=\"2\"} 9.0015\n"));
  EXPECT_TRUE(Contains(text, "mrc_plane_rtt_seconds_count{plane=\"2\"} 8\n"));
}

TEST(MrcdMetrics, LinksNameTheirDevice) {
  mrc_tm_link link{};
  link.rx_bytes = 777;
  MetricsSnapshot snapshot;
  snapshot.telemetry.links = {{mrc_tm_link_key{.netns = 1, .ifindex = 4}, link},
                              {mrc_tm_link_key{.netns = 1, .ifindex = 9}, link}};
  snapshot.planes = {mrc::Plane{.id = 0, .ifindex = 4, .ifname = "veth0"}};
  const std::string text = FormatMetrics(snapshot);
  EXPECT_TRUE(Contains(text, "mrc_link_rx_bytes_total{ifindex=\"4\",ifname=\"veth0\"} 777\n"));
  EXPECT_TRUE(Contains(text, "mrc_link_rx_bytes_total{ifindex=\"9\",ifname=\"\"} 777\n"));
}

TEST(MrcdMetrics, LabelValuesAreEscaped) {
  EXPECT_EQ(mrcd::EscapeLabelValue("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  MetricsSnapshot snapshot;
  snapshot.planes = {mrc::Plane{.id = 0, .ifname = "we\"ird\\"}};
  EXPECT_TRUE(
      Contains(FormatMetrics(snapshot), "mrc_plane_up{plane=\"0\",ifname=\"we\\\"ird\\\\\"} 0\n"));
}

TEST(MrcdMetricsServer, ServesMetricsOverHttp) {
  std::atomic<int> scrapes{0};
  const mrcd::MetricsServer server("127.0.0.1", 0, [&] {
    scrapes++;
    return std::string("mrcd_up 1\n");
  });
  ASSERT_GT(server.port(), 0);
  httplib::Client client("127.0.0.1", server.port());
  const httplib::Result result = client.Get("/metrics");
  ASSERT_TRUE(result) << httplib::to_string(result.error());
  EXPECT_EQ(result->status, 200);
  EXPECT_EQ(result->body, "mrcd_up 1\n");
  EXPECT_EQ(result->get_header_value("Content-Type"), "text/plain; version=0.0.4");
  EXPECT_EQ(scrapes, 1);
  const httplib::Result other = client.Get("/other");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 404);
}

TEST(MrcdMetricsServer, StopsWhenDestroyed) {
  std::uint16_t port = 0;
  {
    const mrcd::MetricsServer server("127.0.0.1", 0, [] { return std::string(); });
    port = server.port();
  }
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(1);
  EXPECT_FALSE(client.Get("/metrics"));
}

TEST(MrcdMetricsServer, UnusableAddressThrows) {
  // 192.0.2.0/24 is TEST-NET-1: no host has it.
  try {
    const mrcd::MetricsServer server("192.0.2.1", 9477, [] { return std::string(); });
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_TRUE(Contains(error.what(), "cannot listen on 192.0.2.1 port 9477")) << error.what();
  }
}

}  // namespace
