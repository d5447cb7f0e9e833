// One-line logs on stderr.
#include "icat/log.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <string>

namespace icat {

namespace {
LogLevel min_level = LogLevel::kInfo;
std::string program = "icat";

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "debug";
    case LogLevel::kInfo: return "info";
    case LogLevel::kWarn: return "warn";
    case LogLevel::kError: return "error";
  }
  return "info";
}

std::string Now() {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  int millis = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
  return text;
}
}  // namespace

void SetLogLevel(std::string_view level) {
  if (level == "debug") min_level = LogLevel::kDebug;
  else if (level == "warn") min_level = LogLevel::kWarn;
  else if (level == "error") min_level = LogLevel::kError;
  else min_level = LogLevel::kInfo;
}

void SetLogProgram(std::string_view name) { program = name; }

void Log(LogLevel level, std::string_view text) {
  if (level < min_level) return;
  std::string line = Now() + " " + LevelName(level) + " " + program + "[" + std::to_string(getpid()) + "] ";
  for (char c : text) line += (c == '\n' || c == '\r') ? ' ' : c;  // one event, one line
  line += '\n';
  ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

}  // namespace icat
