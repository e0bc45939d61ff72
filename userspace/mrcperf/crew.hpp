// SPDX-License-Identifier: GPL-2.0
// Threads for a server that never ends: each runs its work to the end on
// its own, and the finished ones are joined and dropped at the next
// Spawn, so a long-lived server does not pile up thread handles.
#pragma once

#include <atomic>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

namespace mrcperf {

class Crew {
 public:
  template <typename Work>
  void Spawn(Work&& work) {
    std::erase_if(members_, [](const Member& m) { return m.done->load(); });
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::jthread thread([done, work = std::forward<Work>(work)]() mutable {
      work();
      done->store(true);
    });
    members_.push_back({std::move(thread), std::move(done)});
  }

 private:
  struct Member {
    std::jthread thread;  // joined when dropped
    std::shared_ptr<std::atomic<bool>> done;
  };
  std::vector<Member> members_;
};

}  // namespace mrcperf
