// SPDX-License-Identifier: GPL-2.0
// The fuzz corpus as a regression suite: every file of corpus/<target>/ is
// run through its target by the normal build, each in a death test of its
// own, so a file that crashes the target or breaks one of its invariants
// fails under its own name and with the invariant's message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_harness.hpp"
#include "fuzz_targets.hpp"

namespace mrc_fuzz {
namespace {

namespace fs = std::filesystem;

struct CorpusFile {
  const Target* target;
  fs::path path;
};

std::vector<CorpusFile> CorpusFiles() {
  std::vector<CorpusFile> files;
  for (const Target& t : kTargets) {
    const fs::path dir = fs::path(MRC_FUZZ_CORPUS_DIR) / t.name;
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_regular_file()) paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) files.push_back({&t, p});
  }
  return files;
}

// gtest prints a parameter with this, e.g. in a failure's headline.
void PrintTo(const CorpusFile& f, std::ostream* os) { *os << f.path.string(); }

Bytes ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A test name from target and file: letters, digits and '_' only.
std::string TestName(const ::testing::TestParamInfo<CorpusFile>& info) {
  std::string name =
      std::string(info.param.target->name) + "_" + info.param.path.filename().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return std::isalnum(c) == 0; }, '_');
  return name;
}

class FuzzCorpus : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(FuzzCorpus, Replays) {
  const CorpusFile& f = GetParam();
  const Bytes data = ReadFile(f.path);
  EXPECT_EXIT(
      {
        FailContext() = f.path.string();
        f.target->run(data.data(), data.size());
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "")
      << f.path;
}

INSTANTIATE_TEST_SUITE_P(Corpus, FuzzCorpus, ::testing::ValuesIn(CorpusFiles()), TestName);

TEST(FuzzCorpusSeeds, EveryTargetHasSome) {
  for (const Target& t : kTargets) {
    const auto files = CorpusFiles();
    const auto n = std::count_if(files.begin(), files.end(),
                                 [&](const CorpusFile& f) { return f.target == &t; });
    EXPECT_GE(n, 5) << t.name;
  }
}

// The replay can fail: a broken invariant kills the run with its message.
TEST(FuzzCorpusSeeds, BrokenInvariantFails) {
  EXPECT_DEATH(Check(false, "for the test"), "invariant broken: for the test");
}

}  // namespace
}  // namespace mrc_fuzz
