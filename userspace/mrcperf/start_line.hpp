// SPDX-License-Identifier: GPL-2.0
// The start line of a run of several connections (-P N): each connection
// takes a ticket, connects, and waits at the line; the transfers start
// together once every connection has connected or given up, as iperf3's
// streams do. A connection that starts early takes the buffers and the
// window the later ones would get (under net.mrc.mem_max, even the memory
// a later connect() needs) and measures a different run.
#pragma once

#include <barrier>
#include <cstddef>
#include <utility>

namespace mrcperf {

class StartLine {
 public:
  explicit StartLine(std::size_t connections)
      : barrier_(static_cast<std::ptrdiff_t>(connections)) {}

  // One connection's place at the line. Wait() once connected; a ticket
  // destroyed without waiting (the connect failed) leaves the line, so
  // the others do not wait for it. A ticket of no line waits for nobody.
  class Ticket {
   public:
    explicit Ticket(StartLine* line) : line_(line) {}
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    Ticket(Ticket&&) = delete;
    Ticket& operator=(Ticket&&) = delete;
    ~Ticket() {
      if (line_ != nullptr) {
        line_->barrier_.arrive_and_drop();
      }
    }

    void Wait() {
      if (line_ != nullptr) {
        std::exchange(line_, nullptr)->barrier_.arrive_and_wait();
      }
    }

   private:
    StartLine* line_;
  };

 private:
  std::barrier<> barrier_;
};

}  // namespace mrcperf
