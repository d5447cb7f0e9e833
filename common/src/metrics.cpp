// The shared metrics region of a program and its rendering (metrics.hpp).
#include "icat/metrics.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <map>
#include <stdexcept>

namespace icat::metrics {

namespace {

constexpr size_t kStatusCount = std::size(kStatuses);
constexpr size_t kBucketCount = std::size(kBuckets);
constexpr size_t kMetricCount = static_cast<size_t>(Metric::kCount);
constexpr char kMagic[8] = {'i', 'c', 'a', 't', 'm', 'e', 't', '2'};
constexpr size_t kNameBytes = 96;

using Counter = std::atomic<uint64_t>;
static_assert(Counter::is_always_lock_free, "counters are shared between processes");

struct RouteSeries {
  Counter by_status[kStatusCount + 1];  // the last: any other status
  Counter by_bucket[kBucketCount + 1];  // not cumulative; the last: above every bound (+Inf)
  Counter micros;                       // the sum of durations
};

enum WorkerState : uint8_t { kNoWorker = 0, kIdle = 1, kBusy = 2 };

// The file's layout; a reader checks the magic and the size, so a change of layout changes kMagic.
struct Region {
  char magic[8];
  char program[32];
  uint64_t route_count;
  char route_names[kMaxRoutes][kNameBytes];
  Counter values[kMetricCount];
  RouteSeries routes[kMaxRoutes + 1];  // the last: unrouted requests
  std::atomic<uint8_t> workers[kMaxWorkers];
};

struct Definition {
  std::string_view family, labels, type, programs, help;
};

constexpr Definition kDefinitions[] = {
#define ICAT_METRIC(id, family, labels, type, programs, help) {family, labels, type, programs, help},
#include "icat/metrics.def"
#undef ICAT_METRIC
};

Region* region = nullptr;  // this program's, once Open made it
std::string region_path;
size_t worker_slot = kMaxWorkers;  // none until the parent gives one

void CopyName(char* to, size_t size, std::string_view from) {
  size_t n = std::min(from.size(), size - 1);
  std::memcpy(to, from.data(), n);
  to[n] = '\0';
}

size_t StatusIndex(int status) {
  for (size_t i = 0; i < kStatusCount; i++) {
    if (kStatuses[i] == status) return i;
  }
  return kStatusCount;
}

size_t BucketIndex(double seconds) {
  for (size_t i = 0; i < kBucketCount; i++) {
    if (seconds <= kBuckets[i]) return i;
  }
  return kBucketCount;
}

// ------------------------------------------------------------------ rendering

// A label value as the text format wants it: backslash, double quote and newline escaped.
std::string Escape(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

// The shortest text that reads back as the same double (0.0025, not 0.0025000000000000001).
std::string Number(double value) {
  char text[32];
  auto [end, error] = std::to_chars(text, text + sizeof text, value);
  return std::string(text, end);
}

// Text of one family: its HELP and TYPE, then its samples; nothing when it has no sample.
class Page {
 public:
  void Family(std::string_view name, std::string_view type, std::string_view help) {
    Flush();
    head_ = "# HELP " + std::string(name) + " " + std::string(help) + "\n# TYPE " + std::string(name) + " " +
            std::string(type) + "\n";
  }
  void Sample(std::string_view name, const std::string& labels, const std::string& value) {
    samples_ += std::string(name) + "{" + labels + "} " + value + "\n";
  }
  std::string Finish() {
    Flush();
    return std::move(text_);
  }

 private:
  void Flush() {
    if (!samples_.empty()) text_ += head_ + samples_;
    samples_.clear();
  }
  std::string text_, head_, samples_;
};

struct Mapped {
  const Region* region;
  std::string group;
  bool IsPool() const { return group != "dispatcher"; }
  bool Keeps(std::string_view programs) const {
    auto has = [&](std::string_view word) { return programs.find(word) != std::string_view::npos; };
    return (IsPool() && has("pool")) || (group == "admission" && has("admission")) ||
           (group == "auth" && has("auth")) || (group == "dispatcher" && has("dispatcher"));
  }
};

std::string GroupLabel(const Mapped& m) { return "group=\"" + Escape(m.group) + "\""; }

std::string RouteName(const Region& r, size_t route) {
  if (route == kUnrouted) return "(unrouted)";
  return std::string(r.route_names[route], strnlen(r.route_names[route], kNameBytes));
}

// The route indexes of a region, the unrouted series last.
std::vector<size_t> RouteIndexes(const Region& r) {
  std::vector<size_t> indexes;
  for (size_t i = 0; i < std::min<uint64_t>(r.route_count, kMaxRoutes); i++) indexes.push_back(i);
  indexes.push_back(kUnrouted);
  return indexes;
}

void RenderRequests(Page& page, const std::vector<Mapped>& all) {
  page.Family("icat_requests_total", "counter", "Requests answered, by group, route pattern and HTTP status.");
  for (const Mapped& m : all) {
    for (size_t route : RouteIndexes(*m.region)) {
      const RouteSeries& series = m.region->routes[route];
      for (size_t s = 0; s <= kStatusCount; s++) {
        uint64_t count = series.by_status[s].load(std::memory_order_relaxed);
        if (count == 0) continue;
        std::string status = s < kStatusCount ? std::to_string(kStatuses[s]) : "other";
        page.Sample("icat_requests_total",
                    GroupLabel(m) + ",route=\"" + Escape(RouteName(*m.region, route)) + "\",status=\"" + status + "\"",
                    std::to_string(count));
      }
    }
  }
}

void RenderDurations(Page& page, const std::vector<Mapped>& all) {
  page.Family("icat_request_duration_seconds", "histogram",
              "Time from the request reaching the worker to its reply, by group and route pattern.");
  for (const Mapped& m : all) {
    for (size_t route : RouteIndexes(*m.region)) {
      const RouteSeries& series = m.region->routes[route];
      uint64_t total = 0;
      for (const Counter& bucket : series.by_bucket) total += bucket.load(std::memory_order_relaxed);
      if (total == 0) continue;  // a route never asked for
      std::string labels = GroupLabel(m) + ",route=\"" + Escape(RouteName(*m.region, route)) + "\"";
      uint64_t cumulative = 0;
      for (size_t b = 0; b <= kBucketCount; b++) {
        cumulative += series.by_bucket[b].load(std::memory_order_relaxed);
        std::string bound = b < kBucketCount ? Number(kBuckets[b]) : "+Inf";
        page.Sample("icat_request_duration_seconds_bucket", labels + ",le=\"" + bound + "\"", std::to_string(cumulative));
      }
      double seconds = static_cast<double>(series.micros.load(std::memory_order_relaxed)) / 1e6;
      page.Sample("icat_request_duration_seconds_sum", labels, Number(seconds));
      page.Sample("icat_request_duration_seconds_count", labels, std::to_string(cumulative));  // the +Inf bucket
    }
  }
}

void RenderWorkers(Page& page, const std::vector<Mapped>& all) {
  page.Family("icat_workers", "gauge", "Workers of the pool, by state: serving a request (busy) or waiting (idle).");
  for (const Mapped& m : all) {
    if (!m.IsPool()) continue;
    int busy = 0, idle = 0;
    for (const auto& state : m.region->workers) {
      uint8_t s = state.load(std::memory_order_relaxed);
      busy += s == kBusy;
      idle += s == kIdle;
    }
    page.Sample("icat_workers", GroupLabel(m) + ",state=\"busy\"", std::to_string(busy));
    page.Sample("icat_workers", GroupLabel(m) + ",state=\"idle\"", std::to_string(idle));
  }
}

// The rows of metrics.def, family by family in the table's order.
void RenderTable(Page& page, const std::vector<Mapped>& all) {
  std::string_view family;
  for (size_t i = 0; i < kMetricCount; i++) {
    const Definition& d = kDefinitions[i];
    if (d.family != family) {
      page.Family(d.family, d.type, d.help);
      family = d.family;
    }
    for (const Mapped& m : all) {
      if (!m.Keeps(d.programs)) continue;
      std::string labels = GroupLabel(m) + (d.labels.empty() ? "" : "," + std::string(d.labels));
      page.Sample(d.family, labels, std::to_string(m.region->values[i].load(std::memory_order_relaxed)));
    }
  }
}

// The metrics files of dir, each mapped read-only (unmapped by the caller).
std::vector<Mapped> MapDirectory(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* entry = readdir(d)) {
      std::string name = entry->d_name;
      if (name.size() > 8 && name.compare(name.size() - 8, 8, ".metrics") == 0) names.push_back(name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  std::vector<Mapped> all;
  for (const std::string& name : names) {
    int fd = open((dir + "/" + name).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    void* address = MAP_FAILED;
    if (fstat(fd, &st) == 0 && static_cast<size_t>(st.st_size) == sizeof(Region)) {
      address = mmap(nullptr, sizeof(Region), PROT_READ, MAP_SHARED, fd, 0);
    }
    close(fd);
    if (address == MAP_FAILED) continue;
    auto* r = static_cast<const Region*>(address);
    if (std::memcmp(r->magic, kMagic, sizeof kMagic) != 0) {
      munmap(address, sizeof(Region));
      continue;
    }
    all.push_back({r, std::string(r->program, strnlen(r->program, sizeof r->program))});
  }
  return all;
}

}  // namespace

void Open(const std::string& dir, std::string_view program, const std::vector<std::string>& route_names) {
  if (dir.empty()) return;
  if (route_names.size() > kMaxRoutes) throw std::runtime_error("metrics: more than 48 routes");
  std::string path = dir + "/" + std::string(program) + ".metrics";
  // A new file each time, never one a reader still maps with old numbers: write it, then rename.
  std::string temporary = path + ".new";
  int fd = open(temporary.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("metrics: cannot create " + temporary + ": " + std::strerror(errno));
  void* address = MAP_FAILED;
  if (ftruncate(fd, sizeof(Region)) == 0) {
    address = mmap(nullptr, sizeof(Region), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  int error = errno;
  close(fd);
  if (address == MAP_FAILED) {
    unlink(temporary.c_str());
    throw std::runtime_error("metrics: cannot map " + temporary + ": " + std::strerror(error));
  }
  auto* r = static_cast<Region*>(address);  // zero-filled by ftruncate: every counter starts at 0
  CopyName(r->program, sizeof r->program, program);
  r->route_count = route_names.size();
  for (size_t i = 0; i < route_names.size(); i++) CopyName(r->route_names[i], kNameBytes, route_names[i]);
  std::memcpy(r->magic, kMagic, sizeof kMagic);  // last: a reader takes the file only once complete
  if (rename(temporary.c_str(), path.c_str()) != 0) {
    error = errno;
    munmap(address, sizeof(Region));
    unlink(temporary.c_str());
    throw std::runtime_error("metrics: cannot create " + path + ": " + std::strerror(error));
  }
  region = r;
  region_path = path;
}

void Close() {
  if (!region) return;
  unlink(region_path.c_str());
  munmap(region, sizeof(Region));
  region = nullptr;
}

void Add(Metric metric, uint64_t amount) {
  if (region) region->values[static_cast<size_t>(metric)].fetch_add(amount, std::memory_order_relaxed);
}

void Set(Metric gauge, uint64_t value) {
  if (region) region->values[static_cast<size_t>(gauge)].store(value, std::memory_order_relaxed);
}

void CountRequest(size_t route, int status, double seconds) {
  if (!region) return;
  RouteSeries& series = region->routes[std::min(route, kUnrouted)];
  series.by_status[StatusIndex(status)].fetch_add(1, std::memory_order_relaxed);
  series.by_bucket[BucketIndex(seconds)].fetch_add(1, std::memory_order_relaxed);
  series.micros.fetch_add(static_cast<uint64_t>(std::max(0.0, seconds) * 1e6), std::memory_order_relaxed);
}

void SetWorkerSlot(size_t slot) {
  worker_slot = slot;
  SetBusy(false);
}

void SetBusy(bool busy) {
  if (region && worker_slot < kMaxWorkers) {
    region->workers[worker_slot].store(busy ? kBusy : kIdle, std::memory_order_relaxed);
  }
}

void ClearWorkerSlot(size_t slot) {
  if (region && slot < kMaxWorkers) region->workers[slot].store(kNoWorker, std::memory_order_relaxed);
}

std::string RenderDirectory(const std::string& dir) {
  std::vector<Mapped> all = MapDirectory(dir);
  Page page;
  RenderRequests(page, all);
  RenderDurations(page, all);
  RenderWorkers(page, all);
  RenderTable(page, all);
  for (const Mapped& m : all) munmap(const_cast<Region*>(m.region), sizeof(Region));
  return page.Finish();
}

}  // namespace icat::metrics
