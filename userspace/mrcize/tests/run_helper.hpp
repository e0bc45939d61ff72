// SPDX-License-Identifier: GPL-2.0
// Runs a command for mrcize's tests: exit status, stdout and stderr.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace mrcize_test {

struct Result {
  int status = -1;  // exit status, or -1 if it did not exit normally
  std::string out, err;
};

class TempFile {
 public:
  TempFile() {
    const int fd = mkstemp(path_.data());
    if (fd >= 0) close(fd);
  }
  ~TempFile() { unlink(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }
  std::string Read() const {
    std::ifstream in(path_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

 private:
  std::string path_ = "/tmp/mrcize-test-XXXXXX";
};

// Starts argv with `env` added to this process's environment.
inline pid_t Spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                   const std::string& out_path, const std::string& err_path) {
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  std::vector<std::string> envs;
  for (char** e = environ; *e != nullptr; e++) {
    const std::string_view cur(*e);
    bool overridden = false;
    for (const auto& x : env)
      overridden |= cur.substr(0, cur.find('=') + 1) == x.substr(0, x.find('=') + 1);
    if (!overridden) envs.emplace_back(cur);
  }
  envs.insert(envs.end(), env.begin(), env.end());
  std::vector<char*> cenv;
  for (auto& e : envs) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_TRUNC, 0);
  pid_t pid = -1;
  if (posix_spawnp(&pid, cargv[0], &fa, nullptr, cargv.data(), cenv.data()) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

inline int Wait(pid_t pid) {
  int ws = 0;
  if (pid < 0 || waitpid(pid, &ws, 0) != pid) return -1;
  return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

inline Result RunCmd(const std::vector<std::string>& argv,
                     const std::vector<std::string>& env = {}) {
  TempFile out, err;
  Result r;
  r.status = Wait(Spawn(argv, env, out.path(), err.path()));
  r.out = out.Read();
  r.err = err.Read();
  return r;
}

}  // namespace mrcize_test
