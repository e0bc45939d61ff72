// SPDX-License-Identifier: GPL-2.0
// A throw-away directory shaped like /sys/module/mrc, removed after each test.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

class FakeSysfs : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "mrc-sysfs-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }

  void TearDown() override { std::filesystem::remove_all(root_); }

  [[nodiscard]] std::filesystem::path ModuleDir() const { return root_ / "mrc"; }

  // Creates the module directory; std::nullopt leaves a file out.
  void WriteModule(const std::optional<std::string>& family,
                   const std::optional<std::string>& version) const {
    std::filesystem::create_directories(ModuleDir() / "parameters");
    if (family) {
      std::ofstream(ModuleDir() / "parameters" / "family") << *family;
    }
    if (version) {
      std::ofstream(ModuleDir() / "version") << *version;
    }
  }

 private:
  std::filesystem::path root_;
};
