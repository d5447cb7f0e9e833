// Logs: one line per event on stderr, key=value fields, never a secret.
#pragma once

#include <string>
#include <string_view>

namespace icat {

enum class LogLevel { kDebug, kInfo, kWarn, kError };

void SetLogLevel(std::string_view level);  // "debug", "info", "warn", "error"
void SetLogProgram(std::string_view program);  // the name each line starts with

// Writes "<time> <level> <program>[<pid>] <text>" as one line (one write(2), so lines of
// concurrent workers never interleave).
void Log(LogLevel level, std::string_view text);
inline void LogInfo(std::string_view text) { Log(LogLevel::kInfo, text); }
inline void LogWarn(std::string_view text) { Log(LogLevel::kWarn, text); }
inline void LogError(std::string_view text) { Log(LogLevel::kError, text); }

}  // namespace icat
