// SPDX-License-Identifier: GPL-2.0
// mrcd: MRC path telemetry and failure handling daemon. See daemon.hpp.
#include <getopt.h>
#include <linux/mrc_telemetry.h>

#include <array>
#include <iostream>
#include <string>

#include "config.hpp"
#include "daemon.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

void Usage(std::ostream& out) {
  out << "Usage: mrcd --config FILE [ --pin-dir DIR ] [ --check ]\n"
         "       mrcd { --help | --version }\n"
         "  -c, --config FILE   the configuration (TOML, see mrcd.conf.example)\n"
         "  -d, --pin-dir DIR   where the telemetry maps are pinned (default " MRC_TM_PIN_DIR
         ")\n"
         "  -n, --check         parse the configuration, print it is valid, exit\n"
         "Signals: SIGHUP re-reads the configuration, SIGTERM/SIGINT stop.\n";
}

}  // namespace

int main(int argc, char** argv) {
  mrcd::DaemonOptions options{.config_path = "", .pin_dir = MRC_TM_PIN_DIR};
  bool check = false;
  const std::array<option, 6> long_options{{{"config", required_argument, nullptr, 'c'},
                                            {"pin-dir", required_argument, nullptr, 'd'},
                                            {"check", no_argument, nullptr, 'n'},
                                            {"help", no_argument, nullptr, 'h'},
                                            {"version", no_argument, nullptr, 'V'},
                                            {nullptr, 0, nullptr, 0}}};
  int opt = 0;
  while ((opt = getopt_long(argc, argv, "c:d:nhV", long_options.data(), nullptr)) != -1) {
    switch (opt) {
      case 'c':
        options.config_path = optarg;
        break;
      case 'd':
        options.pin_dir = optarg;
        break;
      case 'n':
        check = true;
        break;
      case 'h':
        Usage(std::cout);
        return kExitOk;
      case 'V':
        std::cout << "mrcd 0.1.0\n";
        return kExitOk;
      default:
        Usage(std::cerr);
        return kExitUsage;
    }
  }
  if (optind != argc || options.config_path.empty()) {
    std::cerr << "mrcd: "
              << (optind != argc ? "unexpected argument \"" + std::string(argv[optind]) + "\""
                                 : "--config FILE is required")
              << '\n';
    Usage(std::cerr);
    return kExitUsage;
  }
  if (check) {
    try {
      mrcd::LoadConfig(options.config_path);
    } catch (const mrcd::ConfigError& e) {
      std::cerr << "mrcd: " << e.what() << '\n';
      return kExitFailure;
    }
    std::cout << options.config_path << ": valid\n";
    return kExitOk;
  }
  return mrcd::RunDaemon(options);
}
