// Logs: one line per event on stderr, key=value fields, never a secret; or, with the format
// "json", the same line as one JSON object (ICAT_LOG_FORMAT).
#pragma once

#include <string>
#include <string_view>

namespace icat {

enum class LogLevel { kDebug, kInfo, kWarn, kError };

// level: "debug", "info", "warn", "error"; format: "text" or "json" (ICAT_LOG_LEVEL, ICAT_LOG_FORMAT).
void ConfigureLogs(std::string_view level, std::string_view format);
void SetLogProgram(std::string_view program);  // the name each line starts with

// Writes "<time> <level> <program>[<pid>] <text>" as one line (one write(2), so lines of
// concurrent workers never interleave). In the json format the line is {"time", "level",
// "program", "pid", each key=value of text as a member (key="quoted value" too; whole numbers as
// numbers, "-" as null), "msg": the rest of text}.
void Log(LogLevel level, std::string_view text);
inline void LogInfo(std::string_view text) { Log(LogLevel::kInfo, text); }
inline void LogWarn(std::string_view text) { Log(LogLevel::kWarn, text); }
inline void LogError(std::string_view text) { Log(LogLevel::kError, text); }

}  // namespace icat
