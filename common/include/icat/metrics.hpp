// Prometheus metrics of one program (a handler pool, the dispatcher). Its counters live in a
// file-backed shared mapping, <ICAT_METRICS_DIR>/<program>.metrics, that every process of the
// program updates with relaxed atomic adds (a pool's workers are forked from the parent that
// created it), and that icat-metrics reads and renders in the text format (docs/operations.md).
// Nothing is sent anywhere and nothing blocks: a request costs a few atomic adds. Before Open, or
// with an empty directory (metrics off), every call does nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace icat::metrics {

enum class Metric {
#define ICAT_METRIC(id, family, labels, type, programs, help) id,
#include "icat/metrics.def"
#undef ICAT_METRIC
  kCount
};

// The statuses requests are counted by: every status errors.def gives, and the successes the
// handlers answer (a unit test checks errors.def against it). Any other is counted as "other".
inline constexpr int kStatuses[] = {200, 201, 202, 204, 304, 400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 503};
// Upper bounds, in seconds, of the request-duration histogram's buckets (then +Inf).
inline constexpr double kBuckets[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
inline constexpr size_t kMaxRoutes = 48;    // per program; Open refuses a longer table
inline constexpr size_t kMaxWorkers = 512;  // the most --workers allows
inline constexpr size_t kUnrouted = kMaxRoutes;  // the route index of a request no route matched

// Starts keeping the metrics of `program` (a group name, or "dispatcher") in dir/program.metrics,
// created afresh. route_names name the per-route series ("GET /v1/images"), in the order of the
// route indexes CountRequest is given. An empty dir turns metrics off. Throws std::runtime_error.
void Open(const std::string& dir, std::string_view program, const std::vector<std::string>& route_names);

// Removes the file (a clean stop), so a program that is gone shows no stale numbers.
void Close();

void Add(Metric metric, uint64_t amount = 1);
void Set(Metric gauge, uint64_t value);

// One answered request: its route index (kUnrouted when none matched), status and duration.
void CountRequest(size_t route, int status, double seconds);

// Pool workers. The parent gives each worker a slot (0 .. workers-1) right after fork; a worker
// marks itself busy while it serves a request; the parent marks a dead worker's slot empty.
void SetWorkerSlot(size_t slot);
void SetBusy(bool busy);
void ClearWorkerSlot(size_t slot);

// Every <program>.metrics file in dir, as one Prometheus text-format (0.0.4) page: each family
// once, each series labelled with its group (the program). Files that are not metrics files of
// this layout are skipped.
std::string RenderDirectory(const std::string& dir);

}  // namespace icat::metrics
