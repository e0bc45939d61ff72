// SPDX-License-Identifier: GPL-2.0
// Whole mrcperf sessions over AF_UNIX socketpairs: SOCK_SEQPACKET stands in
// for AF_MRC's message mode until the kernel data path exists. Also a
// hand-driven client that sends lost, reordered, corrupted, over-long and
// truncated messages to a real server session.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <array>
#include <future>
#include <vector>

#include "mrc/fd.hpp"
#include "mrcperf/error.hpp"
#include "mrcperf/io.hpp"
#include "mrcperf/options.hpp"
#include "mrcperf/pattern.hpp"
#include "mrcperf/session.hpp"
#include "mrcperf_socketpair.hpp"

namespace {

using mrc::Fd;
using mrcperf::Hello;
using mrcperf::Mode;
using mrcperf::Options;
using mrcperf::Report;
using mrcperf::Result;

using mrcperf_test::Conn;
using mrcperf_test::Pair;
using mrcperf_test::Parse;
using mrcperf_test::SocketPair;
using Outcome = mrcperf_test::Sessions;

Outcome RunBothSides(int type, const Options& client_options, const Options& server_options) {
  return mrcperf_test::RunBothSides(type, client_options, server_options, 0xfeed);
}

TEST(MrcperfSession, SeqpacketVerifiedMessagesArriveWhole) {
  // 1 MiB in 1000-byte messages: the last one is 576 bytes.
  const Outcome o = RunBothSides(
      SOCK_SEQPACKET, Parse({"-c", "x", "--seqpacket", "-n", "1M", "-l", "1000", "--verify"}),
      Parse({"-s", "--seqpacket", "--verify"}));
  ASSERT_FALSE(o.client.error) << *o.client.error;
  ASSERT_FALSE(o.server.error) << *o.server.error;
  EXPECT_EQ(o.client.stats.bytes, 1U << 20U);
  EXPECT_EQ(o.client.stats.messages, 1049U);
  EXPECT_EQ(o.server.stats.bytes, 1U << 20U);
  EXPECT_EQ(o.server.stats.messages, 1049U);
  EXPECT_EQ(o.server.stats.mismatches, 0U);
  EXPECT_EQ(o.server.stats.bad_messages, 0U);
  EXPECT_TRUE(o.server.verify);
  ASSERT_TRUE(o.client.server);
  EXPECT_EQ(*o.client.server, mrcperf::ResultOf(o.server.stats));
  EXPECT_EQ(mrcperf::ExitStatus(o.client), mrcperf::kExitOk);
}

TEST(MrcperfSession, SeqpacketTimeBound) {
  const Outcome o =
      RunBothSides(SOCK_SEQPACKET, Parse({"-c", "x", "--seqpacket", "-t", "0.2", "--verify"}),
                   Parse({"-s", "--seqpacket"}));
  ASSERT_FALSE(o.client.error) << *o.client.error;
  EXPECT_GT(o.server.stats.messages, 10U);
  EXPECT_EQ(o.server.stats.bytes, o.server.stats.messages * 4096);
  EXPECT_EQ(o.client.server->messages, o.client.stats.messages);
  EXPECT_EQ(o.server.stats.mismatches + o.server.stats.bad_messages, 0U);
  EXPECT_GE(o.client.stats.duration, std::chrono::milliseconds(200));
}

TEST(MrcperfSession, StreamOverUnixSocketWithOddChunks) {
  const Outcome o = RunBothSides(
      SOCK_STREAM, Parse({"-c", "x", "-n", "3M", "-l", "12345", "--verify"}), Parse({"-s"}));
  ASSERT_FALSE(o.client.error) << *o.client.error;
  EXPECT_EQ(o.server.stats.bytes, 3U << 20U);
  EXPECT_EQ(o.server.stats.mismatches, 0U);
  EXPECT_EQ(o.server.stats.messages, 0U);
}

TEST(MrcperfSession, ModeMismatchIsRefused) {
  // A stream client on a message socket: its Hello still arrives whole.
  const Outcome o =
      RunBothSides(SOCK_SEQPACKET, Parse({"-c", "x", "-n", "1M"}), Parse({"-s", "--seqpacket"}));
  ASSERT_TRUE(o.server.error);
  EXPECT_EQ(*o.server.error, "client asks for stream mode, this server runs seqpacket");
  ASSERT_TRUE(o.client.error);
  EXPECT_EQ(mrcperf::ExitStatus(o.client), mrcperf::kExitRuntime);
}

TEST(MrcperfSession, ServerVerifyNeedsAVerifyingClient) {
  const Outcome o =
      RunBothSides(SOCK_STREAM, Parse({"-c", "x", "-n", "64K"}), Parse({"-s", "--verify"}));
  ASSERT_TRUE(o.server.error);
  EXPECT_EQ(*o.server.error, "client does not send a --verify pattern; this server requires it");
  EXPECT_EQ(mrcperf::ExitStatus(o.client), mrcperf::kExitRuntime);
}

// A client written by hand, to send what mrcperf never would.
class BadSeqpacketClient : public ::testing::Test {
 protected:
  void Start(const Hello& hello) {
    hello_ = hello;
    server_ = std::async(std::launch::async, [this] {
      return mrcperf::RunServerSession(Conn(pair_.server, "client"), Parse({"-s", "--seqpacket"}),
                                       {});
    });
    mrcperf::SendRecord(pair_.client.get(), Mode::kSeqpacket, mrcperf::Encode(hello), "server");
  }

  void SendMessage(std::uint64_t number, std::size_t length, std::size_t flip = 0) const {
    std::vector<std::uint8_t> message(length);
    mrcperf::Pattern(hello_.seed).Fill(number * hello_.length, message);
    mrcperf::PutMessageNumber(number, message);
    if (flip != 0) {
      message.at(flip) ^= 0x01U;
    }
    ASSERT_EQ(send(pair_.client.get(), message.data(), message.size(), 0),
              static_cast<ssize_t>(message.size()));
  }

  Result Finish() {
    EXPECT_EQ(shutdown(pair_.client.get(), SHUT_WR), 0);
    std::array<std::uint8_t, mrcperf::kResultSize> bytes{};
    EXPECT_TRUE(mrcperf::ReceiveRecord(pair_.client.get(), Mode::kSeqpacket, bytes, "server"));
    report_ = server_.get();
    return mrcperf::DecodeResult(bytes);
  }

  [[nodiscard]] const Report& report() const { return report_; }
  [[nodiscard]] const Pair& pair() const { return pair_; }

 private:
  Pair pair_ = SocketPair(SOCK_SEQPACKET);
  Hello hello_;
  std::future<Report> server_;
  Report report_;
};

TEST_F(BadSeqpacketClient, LostCorruptedAndMisSizedMessagesAreCounted) {
  Start({.mode = Mode::kSeqpacket, .verify = true, .length = 100, .total_bytes = 450, .seed = 9});
  SendMessage(0, 100);
  SendMessage(1, 100, 50);  // one bit flipped at stream offset 150
  SendMessage(3, 100);      // message 2 lost
  SendMessage(4, 60);       // the last one must be 50 bytes
  const Result result = Finish();
  EXPECT_EQ(result.messages, 4U);
  EXPECT_EQ(result.bytes, 360U);
  EXPECT_EQ(result.bad_messages, 2U);
  EXPECT_EQ(result.mismatches, 1U);
  EXPECT_EQ(result.first_mismatch, 150U);
  ASSERT_TRUE(report().error);
  EXPECT_EQ(*report().error, "short transfer: expected 450 bytes, received 360");
  EXPECT_EQ(mrcperf::ExitStatus(report()), mrcperf::kExitMismatch);
}

TEST_F(BadSeqpacketClient, ReorderedMessagesAreBadButTheirDataChecksClean) {
  Start({.mode = Mode::kSeqpacket,
         .verify = true,
         .length = 64,
         .duration = std::chrono::milliseconds(1000),
         .seed = 3});
  SendMessage(0, 64);
  SendMessage(2, 64);
  SendMessage(1, 64);
  SendMessage(3, 64);
  const Result result = Finish();
  EXPECT_EQ(result.messages, 4U);
  EXPECT_EQ(result.bad_messages, 3U);  // 2 early, 1 late, 3 after a resync on 1
  EXPECT_EQ(result.mismatches, 0U);
  EXPECT_FALSE(report().error);
}

TEST_F(BadSeqpacketClient, OverlongMessageIsTruncatedAndBad) {
  Start({.mode = Mode::kSeqpacket,
         .verify = true,
         .length = 100,
         .duration = std::chrono::milliseconds(1000),
         .seed = 4});
  SendMessage(0, 150);
  SendMessage(1, 100);
  const Result result = Finish();
  EXPECT_EQ(result.messages, 2U);
  EXPECT_EQ(result.bytes, 200U);  // what recv() delivered
  EXPECT_EQ(result.bad_messages, 1U);
  EXPECT_EQ(result.mismatches, 0U);
}

TEST_F(BadSeqpacketClient, TinyLastMessageCarriesTheLowBytesOfItsNumber) {
  Start({.mode = Mode::kSeqpacket, .verify = true, .length = 300, .total_bytes = 302, .seed = 5});
  SendMessage(0, 300);
  SendMessage(1, 2);
  const Result result = Finish();
  EXPECT_EQ(result.bytes, 302U);
  EXPECT_EQ(result.bad_messages, 0U);
  EXPECT_FALSE(report().error);
}

TEST_F(BadSeqpacketClient, GarbageHelloIsRefused) {
  auto server = std::async(std::launch::async, [this] {
    return mrcperf::RunServerSession(Conn(pair().server, "client"), Parse({"-s", "--seqpacket"}),
                                     {});
  });
  const std::array<std::uint8_t, 40> junk{'G', 'E', 'T', ' ', '/'};
  ASSERT_EQ(send(pair().client.get(), junk.data(), junk.size(), 0), 40);
  const Report report = server.get();
  ASSERT_TRUE(report.error);
  EXPECT_EQ(*report.error, "hello has a bad magic number: not an mrcperf peer");
  EXPECT_EQ(mrcperf::ExitStatus(report), mrcperf::kExitRuntime);
}

}  // namespace
