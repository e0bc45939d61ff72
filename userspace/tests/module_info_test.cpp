// SPDX-License-Identifier: GPL-2.0
#include "mrc/module_info.hpp"

#include <gtest/gtest.h>
#include <linux/mrc.h>

#include <fstream>

#include "mrc/error.hpp"
#include "sysfs_fixture.hpp"

namespace {

TEST(ParseFamily, AcceptsSysfsText) {
  EXPECT_EQ(mrc::ParseFamily("19\n"), 19);
  EXPECT_EQ(mrc::ParseFamily(" 25 "), 25);
  EXPECT_EQ(mrc::ParseFamily("45"), 45);
}

TEST(ParseFamily, MatchesUapiDefault) {
  EXPECT_EQ(mrc::ParseFamily(std::to_string(MRC_AF_DEFAULT)), MRC_AF_DEFAULT);
}

TEST(ParseFamily, RejectsGarbage) {
  for (const char* text : {"", "\n", "x19", "19x", "1 9", "0x13", "-"}) {
    EXPECT_THROW(mrc::ParseFamily(text), mrc::Error) << '"' << text << '"';
  }
}

TEST(ParseFamily, RejectsOutOfRangeWithReason) {
  for (const char* text : {"0", "-1", "46", "99999999999"}) {
    EXPECT_THROW(mrc::ParseFamily(text), mrc::Error) << text;
  }
  try {
    mrc::ParseFamily("46");
    FAIL() << "46 accepted";
  } catch (const mrc::Error& e) {
    EXPECT_STREQ(e.what(), "AF_MRC family 46 is out of range 1..45");
  }
}

TEST_F(FakeSysfs, ReadsLoadedModule) {
  WriteModule("19\n", "0.1.0\n");
  const mrc::ModuleInfo info = mrc::ReadModuleInfo(ModuleDir());
  EXPECT_EQ(info.family, 19);
  EXPECT_EQ(info.version, "0.1.0");
}

TEST_F(FakeSysfs, MissingModuleSaysHowToLoadIt) {
  try {
    mrc::ReadModuleInfo(ModuleDir());
    FAIL() << "no error for a missing module";
  } catch (const mrc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("mrc.ko is not loaded"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("modprobe mrc"), std::string::npos);
  }
}

TEST_F(FakeSysfs, MissingParameterNamesTheFile) {
  WriteModule(std::nullopt, "0.1.0\n");
  try {
    mrc::ReadModuleInfo(ModuleDir());
    FAIL() << "no error for a missing parameter";
  } catch (const mrc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("parameters/family"), std::string::npos);
  }
}

}  // namespace
