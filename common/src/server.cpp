// The pre-forking server: the parent only keeps workers alive; workers serve FastCGI.
#include "icat/server.hpp"

#include <fcgiapp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <thread>

#include "icat/log.hpp"
#include "icat/metrics.hpp"

namespace icat {

namespace {
volatile sig_atomic_t stop_requested = 0;
size_t worker_slot = kNoWorkerSlot;

void OnStopSignal(int) { stop_requested = 1; }

// No SA_RESTART: a blocked accept() or waitpid() returns EINTR so the loop sees the flag.
void InstallStopHandler() {
  struct sigaction action {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
}

int OpenListenSocket(const ServerOptions& options) {
  if (options.socket.empty()) return 0;  // FastCGI convention: the socket is fd 0
  bool is_unix = options.socket.find(':') == std::string::npos;
  if (is_unix) unlink(options.socket.c_str());  // a stale socket of a killed server
  int fd = FCGX_OpenSocket(options.socket.c_str(), 128);
  if (fd < 0) return -1;
  if (is_unix) chmod(options.socket.c_str(), static_cast<mode_t>(options.socket_mode));
  return fd;
}

// Workers by pid, each with its slot in the metrics (0 .. workers-1; a replacement takes the slot
// of the worker it replaces).
using Workers = std::map<pid_t, size_t>;

pid_t StartWorker(int listen_fd, const std::function<int(int)>& worker_main, size_t slot) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  worker_slot = slot;
  metrics::SetWorkerSlot(slot);
  stop_requested = 0;
  InstallStopHandler();
  AllowStopSignal(false);
  _exit(worker_main(listen_fd));
}

void StopWorkers(Workers& workers, int grace_seconds) {
  for (const auto& [pid, slot] : workers) kill(pid, SIGTERM);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(grace_seconds);
  while (!workers.empty() && std::chrono::steady_clock::now() < deadline) {
    pid_t pid = waitpid(-1, nullptr, WNOHANG);
    if (pid > 0) workers.erase(pid);
    else std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (const auto& [pid, slot] : workers) {
    LogWarn("worker " + std::to_string(pid) + " did not stop in time; killing it");
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  workers.clear();
}

std::string DescribeExit(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}
}  // namespace

bool StopRequested() { return stop_requested != 0; }

size_t WorkerSlot() { return worker_slot; }

void AllowStopSignal(bool allow) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigprocmask(allow ? SIG_UNBLOCK : SIG_BLOCK, &set, nullptr);
}

int RunPreforkServer(const ServerOptions& options, const std::function<int(int listen_fd)>& worker_main) {
  if (FCGX_Init() != 0) {
    LogError("FCGX_Init failed");
    return 1;
  }
  int listen_fd = OpenListenSocket(options);
  if (listen_fd < 0) {
    LogError("cannot listen on " + options.socket + ": " + std::strerror(errno));
    return 1;
  }
  InstallStopHandler();
  // nginx may close a connection mid-reply (client gone); that is an error to log, not a death.
  signal(SIGPIPE, SIG_IGN);
  Workers workers;
  for (int i = 0; i < options.workers; i++) {
    size_t slot = static_cast<size_t>(i);
    workers[StartWorker(listen_fd, worker_main, slot)] = slot;
  }
  LogInfo("serving on " + (options.socket.empty() ? std::string("fd 0") : options.socket) + " with " +
          std::to_string(options.workers) + " workers");

  auto last_respawn = std::chrono::steady_clock::time_point{};
  while (!stop_requested) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) continue;  // EINTR: a stop signal, checked by the loop
    auto dead = workers.find(pid);
    if (dead == workers.end()) continue;
    size_t slot = dead->second;
    workers.erase(dead);
    metrics::ClearWorkerSlot(slot);
    if (options.on_worker_exit) options.on_worker_exit(slot);
    metrics::Add(metrics::Metric::kWorkerRestarts);
    LogWarn("worker " + std::to_string(pid) + " " + DescribeExit(status) + "; starting a new one");
    // A worker that dies at once (bad config, crash at start) must not spin the CPU.
    if (std::chrono::steady_clock::now() - last_respawn < std::chrono::milliseconds(200)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    last_respawn = std::chrono::steady_clock::now();
    if (!stop_requested) workers[StartWorker(listen_fd, worker_main, slot)] = slot;
  }
  LogInfo("stopping " + std::to_string(workers.size()) + " workers");
  StopWorkers(workers, options.stop_grace_seconds);
  if (!options.socket.empty() && options.socket.find(':') == std::string::npos) unlink(options.socket.c_str());
  return 0;
}

}  // namespace icat
