// One-line logs on stderr, as text or as JSON objects.
#include "icat/log.hpp"

#include <unistd.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <ctime>
#include <string>

namespace icat {

namespace {
LogLevel min_level = LogLevel::kInfo;
bool json_format = false;
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

void ConfigureLogs(std::string_view level, std::string_view format) {
  if (level == "debug") min_level = LogLevel::kDebug;
  else if (level == "warn") min_level = LogLevel::kWarn;
  else if (level == "error") min_level = LogLevel::kError;
  else min_level = LogLevel::kInfo;
  json_format = format == "json";
}

void SetLogProgram(std::string_view name) { program = name; }

namespace {

bool IsKey(std::string_view word) {
  return !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string_view::npos;
}

bool IsWholeNumber(std::string_view value) {
  return !value.empty() && value.size() < 16 && value.find_first_not_of("0123456789") == std::string_view::npos;
}

// The text's key=value fields as members (a value in double quotes may hold spaces), the other
// words as "msg".
void WriteFields(rapidjson::Writer<rapidjson::StringBuffer>& w, std::string_view text) {
  std::string msg;
  size_t at = 0;
  while (at < text.size()) {
    if (text[at] == ' ') {
      at++;
      continue;
    }
    size_t end = text.find(' ', at);
    std::string_view word = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    size_t eq = word.find('=');
    if (eq != std::string_view::npos && IsKey(word.substr(0, eq))) {
      std::string_view key = word.substr(0, eq), value = word.substr(eq + 1);
      if (!value.empty() && value.front() == '"') {
        size_t close = text.find('"', at + eq + 2);
        if (close != std::string_view::npos) {
          value = text.substr(at + eq + 2, close - (at + eq + 2));
          end = close + 1 < text.size() ? close + 1 : std::string_view::npos;
        }
      }
      w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
      if (value == "-") w.Null();
      else if (IsWholeNumber(value)) w.Int64(std::stoll(std::string(value)));
      else w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
    } else {
      if (!msg.empty()) msg += ' ';
      msg += word;
    }
    at = end == std::string_view::npos ? text.size() : end;
  }
  if (!msg.empty()) {
    w.Key("msg");
    w.String(msg.data(), static_cast<rapidjson::SizeType>(msg.size()));
  }
}

std::string JsonLine(LogLevel level, std::string_view text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("time");
  w.String(Now().c_str());
  w.Key("level");
  w.String(LevelName(level));
  w.Key("program");
  w.String(program.c_str());
  w.Key("pid");
  w.Int(static_cast<int>(getpid()));
  WriteFields(w, text);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

void Log(LogLevel level, std::string_view text) {
  if (level < min_level) return;
  std::string line;
  if (json_format) {
    line = JsonLine(level, text);  // the writer escapes newlines: one event, one line
  } else {
    line = Now() + " " + LevelName(level) + " " + program + "[" + std::to_string(getpid()) + "] ";
    for (char c : text) line += (c == '\n' || c == '\r') ? ' ' : c;  // one event, one line
  }
  line += '\n';
  ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

}  // namespace icat
