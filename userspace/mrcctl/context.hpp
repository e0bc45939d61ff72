// SPDX-License-Identifier: GPL-2.0
// What every object handler gets: the global options, the output streams,
// and the kernel connection, opened on first use so that command line
// mistakes are reported without mrc.ko.
#pragma once

#include <memory>
#include <ostream>

#include "cli.hpp"
#include "mrc/control.hpp"

namespace mrcctl {

struct Options {
  bool json = false;    // -j
  bool pretty = false;  // -p
  bool stats = false;   // -s: zero counters too
};

class Context {
 public:
  Context(const Options& opts, std::ostream& out, std::ostream& err, const Environment& env)
      : opts_(opts), out_(out), err_(err), env_(env) {}

  [[nodiscard]] const Options& opts() const { return opts_; }
  [[nodiscard]] std::ostream& out() const { return out_; }
  [[nodiscard]] std::ostream& err() const { return err_; }
  [[nodiscard]] const Environment& env() const { return env_; }

  mrc::Control& control() {
    if (!control_) {
      control_ = env_.connect();
    }
    return *control_;
  }

  // The ifindex of device `name`; throws `Cannot find device "name".`
  [[nodiscard]] std::uint32_t Ifindex(std::string_view name) const;

 private:
  Options opts_;
  std::ostream& out_;
  std::ostream& err_;
  const Environment& env_;
  std::unique_ptr<mrc::Control> control_;
};

}  // namespace mrcctl
