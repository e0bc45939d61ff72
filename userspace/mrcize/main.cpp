// SPDX-License-Identifier: GPL-2.0
// mrcize: run a program with its TCP sockets carried by AF_MRC. See cli.hpp.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string_view>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
  try {
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    if (ec) exe = argv[0];
    mrcize::Plan plan;
    const int status = mrcize::Parse(args, mrcize::FindLibrary(exe, std::getenv("MRCIZE_LIB")),
                                     std::getenv("LD_PRELOAD"), plan, std::cout, std::cerr);
    if (status != mrcize::kExitOk || plan.argv.empty()) return status;
    for (const auto& [name, value] : plan.env) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> cargv;
    for (auto& a : plan.argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execvp(cargv[0], cargv.data());
    const int err = errno;
    std::cerr << "mrcize: cannot run " << plan.argv[0] << ": " << std::strerror(err) << "\n";
    return err == ENOENT ? mrcize::kExitNotFound : mrcize::kExitCannotExec;
  } catch (...) {
    return mrcize::kExitCannotExec;
  }
}
