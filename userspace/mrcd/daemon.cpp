// SPDX-License-Identifier: GPL-2.0
// The daemon's event loop. Threads: this one (epoll: alarms, signals,
// queued netlink events, the tick) owns the policy and the control
// socket; one thread blocks in Control::Listen on a socket of its own and
// queues events; the metrics server answers on its own thread and reads
// only the maps and `counters_` (under `mutex_`).
#include "daemon.hpp"

#include <linux/mrc_netlink.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "actuator.hpp"
#include "apply.hpp"
#include "bpf_telemetry.hpp"
#include "config.hpp"
#include "log.hpp"
#include "metrics.hpp"
#include "metrics_server.hpp"
#include "mrc/client.hpp"
#include "mrc/error.hpp"
#include "mrc/fd.hpp"
#include "mrc/telemetry.hpp"
#include "policy.hpp"

namespace mrcd {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;

// A descriptor that must exist: creation failures become mrc::Error.
mrc::Fd Checked(int fd, const char* what) {
  if (fd < 0) {
    throw mrc::Error(std::string("cannot create ") + what + ": " + std::strerror(errno));
  }
  return mrc::Fd(fd);
}

void Signal(int fd) {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto n = write(fd, &one, sizeof(one));
}

void Drain(int fd) {
  std::uint64_t count = 0;
  [[maybe_unused]] const auto n = read(fd, &count, sizeof(count));
}

// Netlink events, handed from the listener thread to the loop.
class EventQueue {
 public:
  EventQueue() : wake_(Checked(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC), "an eventfd")) {}

  void Push(mrc::Event event) {
    {
      const std::lock_guard lock(mutex_);
      events_.push_back(std::move(event));
    }
    Signal(wake_.get());
  }

  std::deque<mrc::Event> Take() {
    Drain(wake_.get());
    const std::lock_guard lock(mutex_);
    return std::exchange(events_, {});
  }

  [[nodiscard]] int fd() const { return wake_.get(); }

 private:
  mrc::Fd wake_;
  std::mutex mutex_;
  std::deque<mrc::Event> events_;
};

// The listener thread: Control::Listen until `stop` becomes readable.
class Listener {
 public:
  Listener(EventQueue& queue, Logger& log)
      : stop_(Checked(eventfd(0, EFD_CLOEXEC), "an eventfd")), thread_([this, &queue, &log] {
          try {
            mrc::Client client;
            client.Listen(
                [&queue](const mrc::Event& event) {
                  queue.Push(event);
                  return true;
                },
                stop_.get(),
                [&log] {
                  log.Warn("netlink events lost", {{"reason", "overrun"}});
                });
          } catch (const std::exception& e) {
            log.Error("netlink listener stopped", {{"error", e.what()}});
          }
        }) {}
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  Listener(Listener&&) = delete;
  Listener& operator=(Listener&&) = delete;
  ~Listener() {
    Signal(stop_.get());
    thread_.join();
  }

 private:
  mrc::Fd stop_;
  std::thread thread_;
};

sigset_t HandledSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

std::int64_t UnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class Runner {
 public:
  Runner(const DaemonOptions& options, Config config, Logger& log)
      : options_(options), config_(std::move(config)), log_(log), policy_(config_.detect) {}

  int Run();

 private:
  void Apply(const Config* previous, const Config& next);
  void AttachPlanes();
  void OnAlarm(const mrc_tm_alarm& record);
  void OnEvent(const mrc::Event& event);
  void Execute(const std::vector<Action>& actions);
  void Reload();
  void StartMetrics();
  std::string Metrics();
  bool Dispatch(int fd, int signal_fd, int timer_fd, EventQueue& queue);

  DaemonOptions options_;
  Config config_;
  Logger& log_;
  mrc::Client control_;
  std::mutex mutex_;  // policy_ and reloads_: the metrics thread reads them
  Policy policy_;
  bool resync_ = false;      // the last reload failed half-way
  DaemonCounters counters_;  // reloads and paths changed; the rest is policy_'s
  std::unique_ptr<BpfTelemetry> telemetry_;
  std::unique_ptr<MetricsServer> metrics_;
};

void Runner::Apply(const Config* previous, const Config& next) {
  for (const std::string& change : ApplyConfig(control_, previous, next, SystemIfindexResolver())) {
    log_.Info("change", {{"what", change}});
  }
}

// tc counters on every plane's netdev (new planes too, after a reload).
void Runner::AttachPlanes() {
  const std::vector<mrc::Plane> planes = control_.DumpPlanes();
  std::set<std::uint32_t> ids;
  for (const mrc::Plane& plane : planes) {
    if (plane.id) {
      ids.insert(*plane.id);
    }
  }
  {
    const std::lock_guard lock(mutex_);
    policy_.set_planes(std::move(ids));
  }
  for (const mrc::Plane& plane : planes) {
    if (!plane.ifindex) {
      continue;
    }
    try {
      telemetry_->AttachLink(*plane.ifindex, plane.port.value_or(MRC_DEFAULT_UDP_PORT));
    } catch (const mrc::Error& e) {
      log_.Warn("no tc counters", {{"ifname", plane.ifname.value_or("?")}, {"error", e.what()}});
    }
  }
}

void Runner::OnAlarm(const mrc_tm_alarm& record) {
  const Alarm alarm = AlarmFrom(record);
  log_.Log(alarm.kind == MRC_TM_ALARM_EV_STATE ? LogLevel::kDebug : LogLevel::kInfo, "alarm",
           {{"kind", mrc::AlarmKindName(record.kind)},
            {"conn", alarm.conn},
            {"ev", alarm.ev},
            {"plane", alarm.plane},
            {"state", alarm.state},
            {"burst_losses", alarm.burst_losses},
            {"since_ack_ms", alarm.since_ack_ns / 1000000},
            {"unix_ms", UnixMs()}});
  std::vector<Action> actions;
  {
    const std::lock_guard lock(mutex_);
    actions = policy_.OnAlarm(alarm);
  }
  Execute(actions);
}

void Runner::Execute(const std::vector<Action>& actions) {
  for (const Action& action : actions) {
    try {
      const std::size_t changed = mrcd::Execute(control_, action);
      {
        const std::lock_guard lock(mutex_);
        counters_.paths_changed += changed;
      }
      log_.Info("action", {{"action", std::string(ActionKindName(action.kind))},
                           {"conn", action.conn},
                           {"ev", action.ev},
                           {"plane", action.plane},
                           {"paths", changed},
                           {"reason", action.reason},
                           {"unix_ms", UnixMs()}});
    } catch (const std::exception& e) {
      log_.Error("action failed", {{"action", std::string(ActionKindName(action.kind))},
                                   {"plane", action.plane},
                                   {"error", e.what()}});
    }
  }
}

void Runner::OnEvent(const mrc::Event& event) {
  const std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  switch (event.type) {
    case mrc::EventType::kPlaneUp:
    case mrc::EventType::kPlaneDown:
      if (event.plane && event.plane->id && event.reason == mrc::EventReason::kLink) {
        const bool up = event.type == mrc::EventType::kPlaneUp;
        policy_.OnPlaneLink(*event.plane->id, up, now);
        log_.Info("link", {{"plane", *event.plane->id}, {"up", up}});
      }
      break;
    case mrc::EventType::kEvState:
      if (event.path && event.path->conn_id && event.path->ev && event.path->state) {
        policy_.OnPathState(*event.path->conn_id, *event.path->ev, event.path->plane.value_or(0),
                            *event.path->state);
      }
      break;
    case mrc::EventType::kConnClosed:
      if (event.conn && event.conn->id) {
        policy_.OnConnClosed(*event.conn->id);
      }
      break;
    default:
      break;
  }
}

void Runner::Reload() {
  try {
    Config next = LoadConfig(options_.config_path);
    Apply(resync_ ? nullptr : &config_, next);
    resync_ = false;
    telemetry_->SetConfig(ToTmConfig(next.detect));
    {
      const std::lock_guard lock(mutex_);
      policy_.set_detect(next.detect);
      ++counters_.reloads_ok;
    }
    log_.set_threshold(next.daemon.log_level);
    if (next.daemon.metrics_address != config_.daemon.metrics_address ||
        next.daemon.metrics_port != config_.daemon.metrics_port) {
      metrics_.reset();
      config_.daemon = next.daemon;
      StartMetrics();
    }
    config_ = std::move(next);
    AttachPlanes();
    log_.Info("reload", {{"config", options_.config_path}, {"result", "applied"}});
  } catch (const std::exception& e) {
    // A refused request may have left part of `next` applied: compare
    // with the kernel itself next time.
    resync_ = dynamic_cast<const ApplyError*>(&e) != nullptr;
    const std::lock_guard lock(mutex_);
    ++counters_.reloads_failed;
    log_.Error("reload", {{"config", options_.config_path},
                          {"result", "kept the running configuration"},
                          {"error", e.what()}});
  }
}

std::string Runner::Metrics() {
  MetricsSnapshot snap;
  snap.telemetry = telemetry_->Read();
  try {
    mrc::Client client;  // this thread's own socket
    snap.planes = client.DumpPlanes();
  } catch (const std::exception&) {
    // mrc.ko unreachable: the maps still answer.
  }
  const std::lock_guard lock(mutex_);
  snap.daemon = counters_;
  snap.daemon.alarms = policy_.counters().alarms;
  snap.daemon.actions = policy_.counters().actions;
  snap.daemon.planes_held_down = policy_.HeldPlanes().size();
  return FormatMetrics(snap);
}

void Runner::StartMetrics() {
  if (config_.daemon.metrics_port == 0) {
    return;
  }
  metrics_ = std::make_unique<MetricsServer>(
      config_.daemon.metrics_address, config_.daemon.metrics_port, [this] { return Metrics(); });
  log_.Info("metrics",
            {{"address", config_.daemon.metrics_address}, {"port", config_.daemon.metrics_port}});
}

// One ready descriptor; false when it is time to stop.
bool Runner::Dispatch(int fd, int signal_fd, int timer_fd, EventQueue& queue) {
  if (fd == signal_fd) {
    signalfd_siginfo info{};
    if (read(signal_fd, &info, sizeof(info)) != sizeof(info)) {
      return true;
    }
    if (info.ssi_signo == SIGHUP) {
      Reload();
      return true;
    }
    log_.Info("stopping", {{"signal", strsignal(static_cast<int>(info.ssi_signo))}});
    return false;
  }
  if (fd == timer_fd) {
    Drain(timer_fd);
    std::vector<Action> actions;
    {
      const std::lock_guard lock(mutex_);
      actions = policy_.OnTick(std::chrono::steady_clock::now());
    }
    Execute(actions);
    return true;
  }
  if (fd == queue.fd()) {
    for (const mrc::Event& event : queue.Take()) {
      OnEvent(event);
      if (event.type == mrc::EventType::kPlaneNew || event.type == mrc::EventType::kPlaneDel) {
        AttachPlanes();
      }
    }
    return true;
  }
  telemetry_->Consume();
  return true;
}

int Runner::Run() {
  Apply(nullptr, config_);
  telemetry_ = std::make_unique<BpfTelemetry>(mrc::CurrentNetns(), ToTmConfig(config_.detect),
                                              options_.pin_dir,
                                              [this](const mrc_tm_alarm& a) { OnAlarm(a); });
  AttachPlanes();
  StartMetrics();

  const sigset_t signals = HandledSignals();
  const mrc::Fd signal_fd = Checked(signalfd(-1, &signals, SFD_CLOEXEC), "a signalfd");
  const mrc::Fd timer_fd = Checked(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC), "a timerfd");
  const auto poll_ns = static_cast<long>(config_.detect.poll_ms) * 1000000L;
  itimerspec tick{};
  tick.it_interval.tv_sec = poll_ns / 1000000000L;
  tick.it_interval.tv_nsec = poll_ns % 1000000000L;
  tick.it_value = tick.it_interval;
  timerfd_settime(timer_fd.get(), 0, &tick, nullptr);
  EventQueue queue;
  const Listener listener(queue, log_);
  const mrc::Fd epoll = Checked(epoll_create1(EPOLL_CLOEXEC), "an epoll instance");
  for (const int fd : {signal_fd.get(), timer_fd.get(), queue.fd(), telemetry_->alarm_fd()}) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    epoll_ctl(epoll.get(), EPOLL_CTL_ADD, fd, &ev);
  }
  log_.Info("ready", {{"config", options_.config_path},
                      {"planes", config_.planes.size()},
                      {"pins", options_.pin_dir},
                      {"netns", mrc::CurrentNetns()}});
  for (;;) {
    std::array<epoll_event, 8> ready{};
    const int n = epoll_wait(epoll.get(), ready.data(), static_cast<int>(ready.size()), -1);
    for (int i = 0; i < n; ++i) {
      if (!Dispatch(ready[static_cast<std::size_t>(i)].data.fd, signal_fd.get(), timer_fd.get(),
                    queue)) {
        return kExitOk;
      }
    }
  }
}

}  // namespace

int RunDaemon(const DaemonOptions& options) {
  Logger log;
  Config config;
  try {
    config = LoadConfig(options.config_path);
  } catch (const ConfigError& e) {
    std::cerr << "mrcd: " << e.what() << '\n';
    return kExitFailure;
  }
  log.set_threshold(config.daemon.log_level);
  // Before any thread starts, so that all of them inherit the mask.
  const sigset_t signals = HandledSignals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  try {
    int status = kExitOk;
    {
      Runner runner(options, std::move(config), log);
      status = runner.Run();
    }  // everything detached and unpinned here
    log.Info("exit", {{"status", status}});
    return status;
  } catch (const std::exception& e) {
    log.Error("cannot run", {{"error", e.what()}});
    return kExitFailure;
  }
}

}  // namespace mrcd
