// SPDX-License-Identifier: GPL-2.0
// mrcctl's global behaviour: options, objects, help, exit statuses, kernel
// errors; and `mrcctl info`.
#include <gtest/gtest.h>
#include <linux/mrc_netlink.h>

#include <cerrno>
#include <nlohmann/json.hpp>

#include "fake_control.hpp"

namespace {

using mrcctl::kExitKernel;
using mrcctl::kExitOk;
using mrcctl::kExitUsage;

class Info : public Mrcctl {
 protected:
  void SetUp() override {
    kernel()->info = mrc::Info{
        .version = "0.1.0",
        .family = 19,
        .api_version = MRC_GENL_VERSION,
        .caps = MRC_CAP_EV_EVENT | MRC_CAP_EV_EXPLICIT | MRC_CAP_IPV4 | MRC_CAP_IPV6,
        .max_planes = MRC_MAX_PLANES,
        .max_ev_profiles = MRC_MAX_EV_PROFILES,
        .max_evs = MRC_MAX_EVS_PER_PROFILE,
        .max_cc_profiles = MRC_MAX_CC_PROFILES,
        .ev_max_bits = MRC_EV_MAX_BITS,
        .cc_algorithms = {MRC_CC_ALG_NSCC},
    };
  }
};

TEST_F(Mrcctl, NoArgumentsPrintsUsageAndFails) {
  const Result r = Run({});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(FirstLine(r.err), "Usage: mrcctl [ OPTIONS ] OBJECT { COMMAND | help }");
  EXPECT_TRUE(kernel()->calls.empty());
}

TEST_F(Mrcctl, UnknownObjectIsNamed) {
  const Result r = Run({"bogus"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(r.err, "Object \"bogus\" is unknown, try \"mrcctl help\".\n");
}

TEST_F(Mrcctl, AmbiguousObjectListsCandidates) {
  const Result r = Run({"c"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(r.err, "Object \"c\" is ambiguous (cc-profile, conn), try \"mrcctl help\".\n");
}

TEST_F(Mrcctl, UnknownOptionIsNamed) {
  const Result r = Run({"-z", "info"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(r.err, "Option \"-z\" is unknown, try \"mrcctl help\".\n");
}

TEST_F(Mrcctl, UnknownCommandIsNamed) {
  const Result r = Run({"plane", "frobnicate"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(r.err, "Command \"frobnicate\" is unknown, try \"mrcctl plane help\".\n");
}

TEST_F(Mrcctl, AmbiguousCommandListsCandidates) {
  const Result r = Run({"plane", "s"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(r.err, "Command \"s\" is ambiguous (set, show), try \"mrcctl plane help\".\n");
}

TEST_F(Mrcctl, HelpAndVersionSucceed) {
  EXPECT_EQ(Run({"help"}).status, kExitOk);
  EXPECT_EQ(FirstLine(Run({"help"}).out), "Usage: mrcctl [ OPTIONS ] OBJECT { COMMAND | help }");
  EXPECT_EQ(Run({"-V"}).out, "mrcctl 0.2.0\n");
  EXPECT_EQ(Run({"--Version"}).out, "mrcctl 0.2.0\n");
  EXPECT_EQ(Run({"-h"}).status, kExitOk);
}

TEST_F(Mrcctl, EveryObjectHasHelpOnStdout) {
  for (const char* object :
       {"info", "plane", "ev-profile", "cc-profile", "conn", "path", "peer", "stats", "monitor"}) {
    const Result r = Run({object, "help"});
    EXPECT_EQ(r.status, kExitOk) << object;
    EXPECT_EQ(FirstLine(r.out).rfind(std::string("Usage: mrcctl ") + object, 0), 0U)
        << object << ": " << r.out;
    EXPECT_TRUE(r.err.empty()) << object;
  }
  EXPECT_TRUE(kernel()->calls.empty());
}

TEST_F(Mrcctl, KernelErrorShowsExtackAndErrno) {
  kernel()->refuse = mrc::KernelError(EBUSY, "plane is in use by 2 connections");
  const Result r = Run({"plane", "del", "1"});
  EXPECT_EQ(r.status, kExitKernel);
  EXPECT_EQ(r.err, "Error: plane is in use by 2 connections (Device or resource busy)\n");
  EXPECT_TRUE(r.out.empty());
}

TEST_F(Mrcctl, KernelErrorWithoutExtackShowsErrno) {
  kernel()->refuse = mrc::KernelError(ENOENT, "");
  const Result r = Run({"plane", "show", "3"});
  EXPECT_EQ(r.status, kExitKernel);
  EXPECT_EQ(r.err, "Error: No such file or directory\n");
}

TEST_F(Mrcctl, MissingModuleIsAKernelFailure) {
  kernel()->missing = true;
  const Result r = Run({"plane"});
  EXPECT_EQ(r.status, kExitKernel);
  EXPECT_EQ(r.err, "Error: mrc.ko is not loaded: generic netlink family \"mrc\" not found\n");
}

TEST_F(Mrcctl, CommandLineIsCheckedBeforeTheKernel) {
  kernel()->missing = true;
  const Result r = Run({"plane", "add", "dev", "veth0", "weight", "0"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(FirstLine(r.err), "Error: weight 0 is out of range 1..1000.");
}

TEST_F(Info, PrintsModuleApiAndLimits) {
  const Result r = Run({"info"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out,
            "mrc version 0.1.0 family 19 api 1\n"
            "caps ev-event,ev-explicit,ipv4,ipv6\n"
            "limits max-planes 16 max-ev-profiles 16384 max-evs 1024 max-cc-profiles 1024 "
            "ev-max-bits 16\n"
            "cc-algorithms uet-1.0-nscc\n");
  EXPECT_EQ(kernel()->calls, std::vector<std::string>{"GetInfo"});
}

TEST_F(Info, KeywordPrefixesWork) {
  EXPECT_EQ(Run({"i"}).status, kExitOk);
  EXPECT_EQ(Run({"inf"}).status, kExitOk);
  EXPECT_EQ(Run({"-j", "i"}).status, kExitOk);
}

TEST_F(Info, JsonUsesCliKeywords) {
  const Result r = Run({"-j", "info"});
  ASSERT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out,
            R"({"version":"0.1.0","family":19,"api":1,"caps":["ev-event","ev-explicit","ipv4",)"
            R"("ipv6"],"max-planes":16,"max-ev-profiles":16384,"max-evs":1024,)"
            R"("max-cc-profiles":1024,"ev-max-bits":16,"cc-algorithms":["uet-1.0-nscc"]})"
            "\n");
}

TEST_F(Info, PrettyJsonIsIndented) {
  const Result r = Run({"-j", "-p", "info"});
  ASSERT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out.substr(0, 26), "{\n    \"version\": \"0.1.0\",\n");
  EXPECT_EQ(nlohmann::json::parse(r.out).at("family"), 19);
}

TEST_F(Info, UnknownCapabilityBitsPrintAsNumbers) {
  kernel()->info.caps = MRC_CAP_IPV4 | (1U << 30);
  const Result r = Run({"-j", "info"});
  EXPECT_EQ(nlohmann::json::parse(r.out).at("caps"),
            nlohmann::json::parse(R"(["ipv4","1073741824"])"));
}

TEST_F(Info, TrailingGarbageIsRejected) {
  const Result r = Run({"info", "now"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(FirstLine(r.err), "Error: unknown argument \"now\".");
  EXPECT_NE(r.err.find("Usage: mrcctl info"), std::string::npos);
  EXPECT_TRUE(kernel()->calls.empty());
}

}  // namespace
