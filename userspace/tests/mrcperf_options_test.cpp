// SPDX-License-Identifier: GPL-2.0
// mrcperf's command line: every option, the defaults, size suffixes and
// each kind of mistake with its message.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "mrcperf/cli.hpp"
#include "mrcperf/error.hpp"
#include "mrcperf/options.hpp"

namespace {

using mrcperf::Mode;
using mrcperf::Options;
using mrcperf::ParseOptions;
using mrcperf::ParseSize;
using mrcperf::Role;
using mrcperf::TransportKind;
using mrcperf::UsageError;
using std::chrono::milliseconds;

Options Parse(std::vector<std::string_view> args) { return ParseOptions(args); }

// The message ParseOptions throws for `args`, or "" when it accepts them.
std::string Refusal(std::vector<std::string_view> args) {
  try {
    ParseOptions(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(MrcperfOptions, ServerDefaults) {
  const Options o = Parse({"-s"});
  EXPECT_EQ(o.role, Role::kServer);
  EXPECT_EQ(o.transport, TransportKind::kMrc);
  EXPECT_EQ(o.mode, Mode::kStream);
  EXPECT_EQ(o.port, 5201);
  EXPECT_FALSE(o.one_off);
  EXPECT_FALSE(o.verify);
  EXPECT_FALSE(o.json);
  EXPECT_TRUE(o.bind_host.empty());
  EXPECT_FALSE(o.timeout.has_value());
}

TEST(MrcperfOptions, ServerWithEverything) {
  const Options o = Parse({"-s", "-p", "5299", "--seqpacket", "-1", "-B", "10.0.0.1", "--verify",
                           "-J", "-i", "0.5", "--timeout", "2500"});
  EXPECT_EQ(o.port, 5299);
  EXPECT_EQ(o.mode, Mode::kSeqpacket);
  EXPECT_TRUE(o.one_off);
  EXPECT_EQ(o.bind_host, "10.0.0.1");
  EXPECT_TRUE(o.verify);
  EXPECT_TRUE(o.json);
  EXPECT_EQ(o.interval, milliseconds(500));
  EXPECT_EQ(o.timeout, milliseconds(2500));
}

TEST(MrcperfOptions, WaitServerIsAClientOption) {
  EXPECT_EQ(Parse({"-c", "h", "--wait-server", "2000"}).wait_server, milliseconds(2000));
  EXPECT_EQ(Parse({"-c", "h"}).wait_server, milliseconds(0));
  EXPECT_EQ(Refusal({"-c", "h", "--wait-server", "0"}),
            "--wait-server 0 is out of range 1..3600000");
  EXPECT_FALSE(Refusal({"-s", "--wait-server", "100"}).empty());
}

TEST(MrcperfOptions, ClientDefaultsToTenSecondsOfStream) {
  const Options o = Parse({"-c", "10.101.0.2"});
  EXPECT_EQ(o.role, Role::kClient);
  EXPECT_EQ(o.host, "10.101.0.2");
  EXPECT_EQ(o.bytes, 0U);
  EXPECT_EQ(o.duration, milliseconds(10'000));
  EXPECT_EQ(o.length, 128U * 1024U);
}

TEST(MrcperfOptions, ClientSeqpacketDefaultLength) {
  const Options o = Parse({"-c", "fd00::2", "--seqpacket", "-n", "1M"});
  EXPECT_EQ(o.mode, Mode::kSeqpacket);
  EXPECT_EQ(o.length, 4096U);
  EXPECT_EQ(o.bytes, 1U << 20U);
  EXPECT_EQ(o.duration, milliseconds(0));
}

TEST(MrcperfOptions, ClientLongFormsAndEqualsValues) {
  const Options o = Parse({"--client=host", "--port=7000", "--time=1.25", "--length=64K", "--tcp",
                           "--json", "--interval", "1", "--bind", "::1"});
  EXPECT_EQ(o.host, "host");
  EXPECT_EQ(o.port, 7000);
  EXPECT_EQ(o.duration, milliseconds(1250));
  EXPECT_EQ(o.length, 64U * 1024U);
  EXPECT_EQ(o.transport, TransportKind::kTcp);
  EXPECT_TRUE(o.json);
  EXPECT_EQ(o.interval, milliseconds(1000));
  EXPECT_EQ(o.bind_host, "::1");
}

TEST(MrcperfOptions, IntervalZeroTurnsReportsOff) {
  EXPECT_EQ(Parse({"-c", "h", "-i", "0"}).interval, milliseconds(0));
}

TEST(MrcperfOptions, HelpNeedsNoRole) { EXPECT_TRUE(Parse({"-h"}).help); }

TEST(MrcperfOptions, SizeSuffixesAreBinary) {
  EXPECT_EQ(ParseSize("0"), 0U);
  EXPECT_EQ(ParseSize("4096"), 4096U);
  EXPECT_EQ(ParseSize("1K"), 1024U);
  EXPECT_EQ(ParseSize("64k"), 65536U);
  EXPECT_EQ(ParseSize("256M"), 256ULL << 20U);
  EXPECT_EQ(ParseSize("2G"), 2ULL << 30U);
  EXPECT_EQ(ParseSize("3t"), 3ULL << 40U);
  EXPECT_EQ(ParseSize("16777215T"), 16777215ULL << 40U);
}

TEST(MrcperfOptions, BadSizes) {
  for (const std::string_view text : {"", "K", "M1", "1.5M", "-1", "1KB", "1X", " 1", "0x10"}) {
    EXPECT_THROW(ParseSize(text), UsageError) << '"' << text << '"';
  }
  EXPECT_STREQ("size 16777216T is too large",
               [] {
                 try {
                   ParseSize("16777216T");
                 } catch (const UsageError& e) {
                   return std::string(e.what());
                 }
                 return std::string();
               }()
                   .c_str());
  EXPECT_THROW(ParseSize("99999999999999999999"), UsageError);
}

TEST(MrcperfOptions, RoleIsRequiredAndUnique) {
  EXPECT_EQ(Refusal({}), "one of -s or -c is required");
  EXPECT_EQ(Refusal({"-p", "5201"}), "one of -s or -c is required");
  EXPECT_EQ(Refusal({"-s", "-c", "h"}), "-s and -c exclude each other");
  EXPECT_EQ(Refusal({"-c", "h", "-s"}), "-s and -c exclude each other");
}

TEST(MrcperfOptions, ZerocopyIsForAStreamSenderOverMrcOrTcp) {
  EXPECT_TRUE(Parse({"-c", "h", "--zerocopy"}).zerocopy);
  EXPECT_TRUE(Parse({"-c", "h", "--tcp", "--zerocopy"}).zerocopy);
  EXPECT_FALSE(Parse({"-c", "h"}).zerocopy);
  const std::string why =
      "--zerocopy sends a stream over AF_MRC or TCP: not with --seqpacket, --pingpong, --mptcp or "
      "--udp";
  EXPECT_EQ(Refusal({"-c", "h", "--zerocopy", "--seqpacket"}), why);
  EXPECT_EQ(Refusal({"-c", "h", "--zerocopy", "--pingpong"}), why);
  EXPECT_EQ(Refusal({"-c", "h", "--zerocopy", "--mptcp"}), why);
  EXPECT_EQ(Refusal({"-s", "--zerocopy"}), "--zerocopy is a client option");
}

TEST(MrcperfOptions, UnknownOptionsAndStrayWords) {
  EXPECT_EQ(Refusal({"-s", "-z"}), "option \"-z\" is unknown");
  EXPECT_EQ(Refusal({"-s", "--bogus"}), "option \"--bogus\" is unknown");
  EXPECT_EQ(Refusal({"-s", "-pp"}), "option \"-pp\" is unknown");
  EXPECT_EQ(Refusal({"-s", "extra"}), "unexpected argument \"extra\"");
  EXPECT_EQ(Refusal({"-s", "-"}), "option \"-\" is unknown");
}

TEST(MrcperfOptions, MissingAndUnwantedValues) {
  EXPECT_EQ(Refusal({"-c"}), "-c needs a value");
  EXPECT_EQ(Refusal({"-c", "h", "-n"}), "-n needs a value");
  EXPECT_EQ(Refusal({"-s", "-p"}), "-p needs a value");
  EXPECT_EQ(Refusal({"--client="}), "-c needs a server address");
  EXPECT_EQ(Refusal({"-s", "--verify=yes"}), "--verify takes no value");
  EXPECT_EQ(Refusal({"-s", "-B", ""}), "-B needs an address");
}

TEST(MrcperfOptions, BadNumbers) {
  EXPECT_EQ(Refusal({"-s", "-p", "http"}), "-p \"http\" is not a number");
  EXPECT_EQ(Refusal({"-s", "-p", "0"}), "-p 0 is out of range 1..65535");
  EXPECT_EQ(Refusal({"-s", "-p", "65536"}), "-p 65536 is out of range 1..65535");
  EXPECT_EQ(Refusal({"-s", "-p", "-1"}), "-p \"-1\" is not a number");
  EXPECT_EQ(Refusal({"-s", "-p", "80x"}), "-p \"80x\" is not a number");
  EXPECT_EQ(Refusal({"-c", "h", "-t", "soon"}), "-t \"soon\" is not a number of seconds");
  EXPECT_EQ(Refusal({"-c", "h", "-t", "0"}), "-t 0 is out of range");
  EXPECT_EQ(Refusal({"-c", "h", "-t", "nan"}), "-t \"nan\" is not a number of seconds");
  EXPECT_EQ(Refusal({"-c", "h", "-t", "1e3"}), "-t \"1e3\" is not a number of seconds");
  EXPECT_EQ(Refusal({"-c", "h", "-n", "0"}), "-n 0: nothing to send");
  EXPECT_EQ(Refusal({"-c", "h", "-l", "0"}), "-l 0 is out of range 1..16M");
  EXPECT_EQ(Refusal({"-c", "h", "-l", "17M"}), "-l 17M is out of range 1..16M");
  EXPECT_EQ(Refusal({"-s", "-i", "0.05"}), "-i 0.05 is out of range 0.1..3600 (0 turns it off)");
  EXPECT_EQ(Refusal({"-s", "-i", "3601"}), "-i 3601 is out of range");
  EXPECT_EQ(Refusal({"-s", "--timeout", "0"}), "--timeout 0 is out of range 1..3600000");
  EXPECT_EQ(Refusal({"-s", "--timeout", "1.5"}), "--timeout \"1.5\" is not a number");
}

TEST(MrcperfOptions, OptionsOfTheOtherRole) {
  EXPECT_EQ(Refusal({"-s", "-n", "1M"}), "-n is a client option");
  EXPECT_EQ(Refusal({"-s", "-t", "1"}), "-t is a client option");
  EXPECT_EQ(Refusal({"-s", "-l", "1K"}), "-l is a client option");
  EXPECT_EQ(Refusal({"-c", "h", "-1"}), "-1 is a server option");
}

TEST(MrcperfOptions, ConflictingOptions) {
  EXPECT_EQ(Refusal({"-c", "h", "-n", "1M", "-t", "3"}), "-n and -t exclude each other");
  EXPECT_EQ(Refusal({"-s", "--seqpacket", "--tcp"}),
            "--seqpacket needs AF_MRC: TCP has no message boundaries");
  EXPECT_EQ(Refusal({"-c", "h", "--seqpacket", "-l", "7"}),
            "-l 7 is too short for --seqpacket: messages carry an 8-byte number");
  EXPECT_EQ(Refusal({"-c", "h", "--seqpacket", "-l", "8"}), "");
}

TEST(MrcperfOptions, Mptcp) {
  const Options client = Parse({"-c", "h", "--mptcp"});
  EXPECT_EQ(client.transport, TransportKind::kMptcp);
  EXPECT_EQ(client.length, 128U * 1024U);
  EXPECT_EQ(Parse({"-s", "--mptcp", "-1"}).transport, TransportKind::kMptcp);
  EXPECT_EQ(mrcperf::Name(TransportKind::kMptcp), "mptcp");
  EXPECT_EQ(Refusal({"-c", "h", "--mptcp", "--seqpacket"}),
            "--seqpacket needs AF_MRC: MPTCP has no message boundaries");
  EXPECT_EQ(Refusal({"-s", "--mptcp", "--tcp"}), "--tcp, --mptcp and --udp exclude each other");
  EXPECT_EQ(Refusal({"-s", "--mptcp=1"}), "--mptcp takes no value");
}

TEST(MrcperfOptions, PingpongDefaults) {
  const Options o = Parse({"-c", "h", "--pingpong"});
  EXPECT_TRUE(o.pingpong);
  EXPECT_EQ(o.length, 64U);
  EXPECT_EQ(o.warmup, 100U);
  EXPECT_EQ(o.count, 0U);
  EXPECT_EQ(o.duration, milliseconds(10'000));
  EXPECT_EQ(o.bytes, 0U);
  EXPECT_TRUE(Parse({"-s", "--pingpong"}).pingpong);
  EXPECT_FALSE(Parse({"-c", "h"}).pingpong);
  EXPECT_EQ(Parse({"-c", "h", "--pingpong", "--seqpacket"}).length, 64U);
}

TEST(MrcperfOptions, PingpongCountWarmupAndLength) {
  const Options o =
      Parse({"-c", "h", "--pingpong", "--count", "5000", "--warmup=0", "-l", "1K", "--tcp"});
  EXPECT_EQ(o.count, 5000U);
  EXPECT_EQ(o.warmup, 0U);
  EXPECT_EQ(o.length, 1024U);
  EXPECT_EQ(o.duration, milliseconds(0));  // a count bounds the run, not the clock
  EXPECT_EQ(Parse({"-c", "h", "--pingpong", "-t", "2.5"}).duration, milliseconds(2500));
}

TEST(MrcperfOptions, PingpongMisuse) {
  EXPECT_EQ(Refusal({"-c", "h", "--count", "10"}), "--count needs --pingpong");
  EXPECT_EQ(Refusal({"-c", "h", "--warmup", "10"}), "--warmup needs --pingpong");
  EXPECT_EQ(Refusal({"-c", "h", "--pingpong", "--count", "10", "-t", "1"}),
            "--count and -t exclude each other");
  EXPECT_EQ(Refusal({"-c", "h", "--pingpong", "-n", "1M"}),
            "-n is for throughput: --pingpong runs for -t SECONDS or --count N");
  EXPECT_EQ(Refusal({"-c", "h", "--pingpong", "--count", "0"}),
            "--count 0 is out of range 1..1000000000");
  EXPECT_EQ(Refusal({"-c", "h", "--pingpong", "--count", "many"}),
            "--count \"many\" is not a number");
  EXPECT_EQ(Refusal({"-c", "h", "--pingpong", "--warmup", "1000001"}),
            "--warmup 1000001 is out of range 0..1000000");
  EXPECT_EQ(Refusal({"-s", "--pingpong", "--count", "3"}), "--count is a client option");
  EXPECT_EQ(Refusal({"-s", "--pingpong", "--warmup", "3"}), "--warmup is a client option");
  EXPECT_EQ(Refusal({"-c", "h", "--pingpong", "--seqpacket", "-l", "7"}),
            "-l 7 is too short for --seqpacket: messages carry an 8-byte number");
}

TEST(MrcperfOptions, Udp) {
  const Options client = Parse({"-c", "h", "--udp", "--pingpong", "--count", "3"});
  EXPECT_EQ(client.transport, TransportKind::kUdp);
  EXPECT_EQ(client.length, 64U);
  const Options server = Parse({"-s", "--udp", "--pingpong", "-1"});
  EXPECT_EQ(server.transport, TransportKind::kUdp);
  EXPECT_EQ(server.clients, 1U);
  EXPECT_EQ(Parse({"-c", "h", "--udp", "--pingpong", "-l", "8"}).length, 8U);
  EXPECT_EQ(Parse({"-c", "h", "--udp", "--pingpong", "-l", "65507"}).length, 65507U);
  EXPECT_EQ(mrcperf::Name(TransportKind::kUdp), "udp");
}

TEST(MrcperfOptions, UdpMisuse) {
  const std::string needs = "--udp needs --pingpong: the UDP echo measures round trips only";
  EXPECT_EQ(Refusal({"-c", "h", "--udp"}), needs);
  EXPECT_EQ(Refusal({"-s", "--udp"}), needs);
  EXPECT_EQ(Refusal({"-c", "h", "--udp", "--pingpong", "--seqpacket"}),
            "--seqpacket and --udp exclude each other");
  EXPECT_EQ(Refusal({"-c", "h", "--udp", "--tcp", "--pingpong"}),
            "--tcp, --mptcp and --udp exclude each other");
  EXPECT_EQ(Refusal({"-c", "h", "--udp", "--pingpong", "-l", "7"}),
            "-l 7 is out of range 8..65507 for --udp: datagrams carry an 8-byte sequence number");
  EXPECT_EQ(Refusal({"-c", "h", "--udp", "--pingpong", "-l", "65508"}),
            "-l 65508 is out of range 8..65507 for --udp: datagrams carry an 8-byte sequence "
            "number");
  EXPECT_EQ(Refusal({"-c", "h", "--udp", "--pingpong", "-P", "2"}),
            "-P and --udp exclude each other: the UDP echo serves one flow at a time");
}

TEST(MrcperfOptions, ParallelAndClients) {
  EXPECT_EQ(Parse({"-c", "h"}).parallel, 1U);
  EXPECT_EQ(Parse({"-c", "h", "-P", "4", "-n", "1M"}).parallel, 4U);
  EXPECT_EQ(Parse({"-c", "h", "--parallel=256"}).parallel, 256U);
  EXPECT_EQ(Parse({"-s"}).clients, 0U);  // forever
  EXPECT_EQ(Parse({"-s", "-1"}).clients, 1U);
  EXPECT_TRUE(Parse({"-s", "-1"}).one_off);
  EXPECT_EQ(Parse({"-s", "--clients", "4"}).clients, 4U);
  EXPECT_FALSE(Parse({"-s", "--clients", "4"}).one_off);
  EXPECT_EQ(Refusal({"-c", "h", "-P", "0"}), "-P 0 is out of range 1..256");
  EXPECT_EQ(Refusal({"-c", "h", "-P", "257"}), "-P 257 is out of range 1..256");
  EXPECT_EQ(Refusal({"-c", "h", "-P", "two"}), "-P \"two\" is not a number");
  EXPECT_EQ(Refusal({"-s", "--clients", "0"}), "--clients 0 is out of range 1..65535");
  EXPECT_EQ(Refusal({"-s", "-1", "--clients", "2"}),
            "-1 and --clients exclude each other (-1 is --clients 1)");
  EXPECT_EQ(Refusal({"-s", "-P", "2"}), "-P is a client option");
  EXPECT_EQ(Refusal({"-c", "h", "--clients", "2"}), "--clients is a server option");
}

TEST(MrcperfOptions, UsageNamesEveryNewOption) {
  const std::string_view usage = mrcperf::UsageText();
  for (const std::string_view word :
       {"--mptcp", "--udp", "--pingpong", "--count", "--warmup", "-P, --parallel", "--clients"}) {
    EXPECT_NE(usage.find(word), std::string_view::npos) << word;
  }
}

// The CLI turns each refusal into exit status 1 with the usage on stderr.
TEST(MrcperfOptions, MisusePrintsUsageAndExitsOne) {
  std::ostringstream out;
  std::ostringstream err;
  const std::vector<std::string_view> args{"-c", "h", "-n", "lots"};
  EXPECT_EQ(mrcperf::Run(args, out, err), mrcperf::kExitUsage);
  EXPECT_EQ(out.str(), "");
  EXPECT_TRUE(err.str().starts_with(
      "mrcperf: size \"lots\" is not a number with K, M, G or T\nUsage: mrcperf -s"))
      << err.str();
}

TEST(MrcperfOptions, HelpPrintsUsageAndSucceeds) {
  std::ostringstream out;
  std::ostringstream err;
  const std::vector<std::string_view> args{"--help"};
  EXPECT_EQ(mrcperf::Run(args, out, err), mrcperf::kExitOk);
  EXPECT_EQ(out.str(), mrcperf::UsageText());
  EXPECT_EQ(err.str(), "");
}

}  // namespace
