// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "cli.hpp"
#include "sysfs_fixture.hpp"

namespace {

struct Result {
  int status;
  std::string out;
  std::string err;
};

class MrcctlCli : public FakeSysfs {
 protected:
  [[nodiscard]] Result Run(std::vector<std::string_view> args) const {
    std::ostringstream out;
    std::ostringstream err;
    const mrcctl::Environment env{.sysfs_module_dir = ModuleDir()};
    const int status = mrcctl::Run(args, out, err, env);
    return {status, out.str(), err.str()};
  }
};

TEST_F(MrcctlCli, NoArgumentsPrintsUsageAndFails) {
  const Result r = Run({});
  EXPECT_EQ(r.status, mrcctl::kExitUsage);
  EXPECT_NE(r.err.find("Usage: mrcctl"), std::string::npos);
}

TEST_F(MrcctlCli, UnknownObjectIsNamed) {
  const Result r = Run({"bogus"});
  EXPECT_EQ(r.status, mrcctl::kExitUsage);
  EXPECT_EQ(r.err, "Object \"bogus\" is unknown, try \"mrcctl help\".\n");
}

TEST_F(MrcctlCli, UnknownOptionIsNamed) {
  const Result r = Run({"-z", "info"});
  EXPECT_EQ(r.status, mrcctl::kExitUsage);
  EXPECT_EQ(r.err, "Option \"-z\" is unknown, try \"mrcctl help\".\n");
}

TEST_F(MrcctlCli, InfoPrintsFamilyAndVersion) {
  WriteModule("19\n", "0.1.0\n");
  const Result r = Run({"info"});
  EXPECT_EQ(r.status, mrcctl::kExitOk);
  EXPECT_EQ(r.out, "mrc version 0.1.0 family 19\n");
}

TEST_F(MrcctlCli, KeywordPrefixesWork) {
  WriteModule("25\n", "0.1.0\n");
  EXPECT_EQ(Run({"i"}).out, "mrc version 0.1.0 family 25\n");
  EXPECT_EQ(Run({"inf"}).status, mrcctl::kExitOk);
}

TEST_F(MrcctlCli, InfoJsonUsesCliKeywords) {
  WriteModule("19\n", "0.1.0\n");
  const Result r = Run({"-j", "info"});
  ASSERT_EQ(r.status, mrcctl::kExitOk);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("family"), 19);
  EXPECT_EQ(doc.at("version"), "0.1.0");
}

TEST_F(MrcctlCli, InfoWithoutModuleFailsClearly) {
  const Result r = Run({"info"});
  EXPECT_EQ(r.status, mrcctl::kExitFailure);
  EXPECT_NE(r.err.find("Error: mrc.ko is not loaded"), std::string::npos);
  EXPECT_TRUE(r.out.empty());
}

TEST_F(MrcctlCli, TrailingGarbageIsRejected) {
  WriteModule("19\n", "0.1.0\n");
  const Result r = Run({"info", "now"});
  EXPECT_EQ(r.status, mrcctl::kExitUsage);
  EXPECT_NE(r.err.find("\"now\""), std::string::npos);
}

TEST_F(MrcctlCli, HelpAndVersionSucceed) {
  EXPECT_EQ(Run({"help"}).status, mrcctl::kExitOk);
  EXPECT_EQ(Run({"-V"}).out, "mrcctl 0.1.0\n");
}

}  // namespace
