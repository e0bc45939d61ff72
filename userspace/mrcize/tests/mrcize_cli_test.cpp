// SPDX-License-Identifier: GPL-2.0
// mrcize's command line: Parse() and the real binary's usage errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"
#include "run_helper.hpp"

namespace {

using mrcize_test::RunCmd;

struct Parsed {
  int status;
  mrcize::Plan plan;
  std::string out, err;
};

Parsed ParseArgs(std::vector<std::string_view> args, const char* preload = nullptr,
                 std::optional<std::string> lib = std::string("/opt/mrc/lib/libmrcize.so")) {
  Parsed p{};
  std::ostringstream out, err;
  p.status = mrcize::Parse(args, lib, preload, p.plan, out, err);
  p.out = out.str();
  p.err = err.str();
  return p;
}

std::string EnvOf(const mrcize::Plan& plan, const std::string& name) {
  for (const auto& [n, v] : plan.env)
    if (n == name) return v;
  return "<unset>";
}

TEST(MrcizeCli, RunSetsPreloadAndKeepsArgs) {
  const auto p = ParseArgs({"run", "iperf3", "-s", "--one-off"});
  ASSERT_EQ(p.status, mrcize::kExitOk) << p.err;
  EXPECT_EQ(p.plan.argv, (std::vector<std::string>{"iperf3", "-s", "--one-off"}));
  EXPECT_EQ(EnvOf(p.plan, "LD_PRELOAD"), "/opt/mrc/lib/libmrcize.so");
  EXPECT_EQ(EnvOf(p.plan, "MRCIZE_FALLBACK"), "<unset>");
  EXPECT_TRUE(p.err.empty());
}

TEST(MrcizeCli, PrependsToAnExistingPreload) {
  const auto p = ParseArgs({"run", "true"}, "/usr/lib/libother.so");
  ASSERT_EQ(p.status, mrcize::kExitOk);
  EXPECT_EQ(EnvOf(p.plan, "LD_PRELOAD"), "/opt/mrc/lib/libmrcize.so /usr/lib/libother.so");
}

TEST(MrcizeCli, Options) {
  const auto p = ParseArgs({"run", "--fallback", "--debug", "--ports", "5201,7000-7010",
                            "--timeout", "500", "--", "--weird-cmd", "-x"});
  ASSERT_EQ(p.status, mrcize::kExitOk) << p.err;
  EXPECT_EQ(EnvOf(p.plan, "MRCIZE_FALLBACK"), "1");
  EXPECT_EQ(EnvOf(p.plan, "MRCIZE_DEBUG"), "1");
  EXPECT_EQ(EnvOf(p.plan, "MRCIZE_PORTS"), "5201,7000-7010");
  EXPECT_EQ(EnvOf(p.plan, "MRCIZE_TIMEOUT_MS"), "500");
  EXPECT_EQ(p.plan.argv, (std::vector<std::string>{"--weird-cmd", "-x"}));
}

TEST(MrcizeCli, FallbackIsTheDefault) {
  const auto dflt = ParseArgs({"run", "true"});
  ASSERT_EQ(dflt.status, mrcize::kExitOk);
  EXPECT_EQ(EnvOf(dflt.plan, "MRCIZE_FALLBACK"), "<unset>") << "unset: the shim falls back";
  const auto off = ParseArgs({"run", "--no-fallback", "true"});
  ASSERT_EQ(off.status, mrcize::kExitOk);
  EXPECT_EQ(EnvOf(off.plan, "MRCIZE_FALLBACK"), "0");
  const auto help = ParseArgs({"help"});
  EXPECT_NE(help.out.find("--no-fallback"), std::string::npos);
}

TEST(MrcizeCli, HelpGoesToStdout) {
  const auto p = ParseArgs({"help"});
  EXPECT_EQ(p.status, mrcize::kExitOk);
  EXPECT_NE(p.out.find("Usage: mrcize run"), std::string::npos);
  EXPECT_TRUE(p.plan.argv.empty());
}

TEST(MrcizeCli, Misuse) {
  const std::vector<std::vector<std::string_view>> bad{
      {},
      {"run"},
      {"run", "--fallback"},
      {"run", "--"},
      {"run", "--bogus", "true"},
      {"run", "--ports"},
      {"run", "--ports", "x", "true"},
      {"run", "--ports", "", "true"},
      {"run", "--ports", "9-1", "true"},
      {"run", "--timeout", "0", "true"},
      {"run", "--timeout", "5s", "true"},
  };
  for (const auto& args : bad) {
    const auto p = ParseArgs(args);
    EXPECT_EQ(p.status, mrcize::kExitUsage) << (args.empty() ? "" : args.back());
    EXPECT_NE(p.err.find("Usage: mrcize run"), std::string::npos);
    EXPECT_TRUE(p.plan.argv.empty());
  }
  const auto unknown = ParseArgs({"launch", "true"});
  EXPECT_EQ(unknown.status, mrcize::kExitUsage);
  EXPECT_EQ(unknown.err, "Command \"launch\" is unknown, try \"mrcize help\".\n");
}

TEST(MrcizeCli, NoLibrary) {
  const auto p = ParseArgs({"run", "true"}, nullptr, std::nullopt);
  EXPECT_EQ(p.status, mrcize::kExitNoLibrary);
  EXPECT_NE(p.err.find("libmrcize.so not found"), std::string::npos);
  EXPECT_TRUE(p.plan.argv.empty());
}

TEST(MrcizeCli, FindsTheShimBesideTheBinary) {
  const auto lib = mrcize::FindLibrary(MRCIZE_BIN, nullptr);
  ASSERT_TRUE(lib.has_value());
  EXPECT_EQ(*lib, std::filesystem::weakly_canonical(MRCIZE_SHIM).string());
  EXPECT_FALSE(mrcize::FindLibrary(MRCIZE_BIN, "/nonexistent/libmrcize.so").has_value());
}

TEST(MrcizeCli, FindsTheShimWhenInstalled) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("mrcize-prefix-" + std::to_string(getpid()));
  fs::create_directories(root / "bin");
  fs::create_directories(root / "lib");
  fs::copy_file(MRCIZE_SHIM, root / "lib" / "libmrcize.so");
  const auto lib = mrcize::FindLibrary((root / "bin" / "mrcize").string(), nullptr);
  fs::remove_all(root);
  ASSERT_TRUE(lib.has_value());
  EXPECT_EQ(*lib, (root / "lib" / "libmrcize.so").string());
}

TEST(MrcizeBinary, UsageErrorsExitOne) {
  for (const auto& args :
       std::vector<std::vector<std::string>>{{MRCIZE_BIN},
                                             {MRCIZE_BIN, "run"},
                                             {MRCIZE_BIN, "bogus"},
                                             {MRCIZE_BIN, "run", "-q", "true"}}) {
    const auto r = RunCmd(args);
    EXPECT_EQ(r.status, 1) << args.back();
    EXPECT_TRUE(r.out.empty());
    EXPECT_FALSE(r.err.empty());
  }
  const auto help = RunCmd({MRCIZE_BIN, "help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("Usage: mrcize run"), std::string::npos);
}

TEST(MrcizeBinary, ExecsTheCommandWithThePreload) {
  const auto r = RunCmd({MRCIZE_BIN, "run", "--ports", "5201", "sh", "-c",
                         "echo \"$LD_PRELOAD|$MRCIZE_PORTS|$MRCIZE_FALLBACK\""},
                        {"LD_PRELOAD="});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, std::filesystem::weakly_canonical(MRCIZE_SHIM).string() + "|5201|\n");
}

TEST(MrcizeBinary, MissingCommand) {
  const auto r = RunCmd({MRCIZE_BIN, "run", "/nonexistent/mrcize-cmd"});
  EXPECT_EQ(r.status, mrcize::kExitNotFound);
  EXPECT_NE(r.err.find("cannot run /nonexistent/mrcize-cmd"), std::string::npos);
}

}  // namespace
