// The pre-forking FastCGI server: a parent keeping N workers alive.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace icat {

struct ServerOptions {
  std::string socket;  // unix socket path, ":port" or "host:port"; empty: inherit fd 0
  int workers = 2;
  // Unix sockets: nginx started as root runs its workers as another user, who must connect. The
  // directory holding the socket is the guard; under systemd the socket unit sets its own mode.
  int socket_mode = 0666;
  int stop_grace_seconds = 10;
  // Called in the parent when a worker has died, with its slot, before a new worker takes the slot:
  // what the dead worker held in memory shared by the pool is given back here.
  std::function<void(size_t slot)> on_worker_exit;
};

// Opens the listening socket, forks `workers` processes running worker_main(listen_fd), respawns
// any that die, and on SIGTERM/SIGINT lets each finish its request in flight, then returns 0.
int RunPreforkServer(const ServerOptions& options, const std::function<int(int listen_fd)>& worker_main);

// Inside a worker: its slot, 0 .. workers - 1, given by the parent (a replacement takes the slot of
// the worker it replaces); kNoWorkerSlot in a process that is no pool worker.
inline constexpr size_t kNoWorkerSlot = static_cast<size_t>(-1);
size_t WorkerSlot();

// Inside a worker: true once the parent asked it to stop.
bool StopRequested();

// Inside a worker: SIGTERM is held back while a request is served and let in only around accept.
void AllowStopSignal(bool allow);

}  // namespace icat
