// W3C Trace Context, version 00 (https://www.w3.org/TR/trace-context/).
#include "icat/trace.hpp"

#include "icat/crypto.hpp"

namespace icat {

namespace {

bool IsLowerHex(std::string_view text, size_t length) {
  return text.size() == length && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

bool IsAllZero(std::string_view text) { return text.find_first_not_of('0') == std::string_view::npos; }

std::string NewId(size_t bytes) {
  std::string id;
  do id = HexEncode(RandomBytes(bytes));
  while (IsAllZero(id));
  return id;
}

}  // namespace

bool IsTraceparent(std::string_view text) {
  // 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>; ids must not be all zero.
  if (text.size() != 55 || text.substr(0, 3) != "00-" || text[35] != '-' || text[52] != '-') return false;
  std::string_view trace_id = text.substr(3, 32), parent_id = text.substr(36, 16), flags = text.substr(53, 2);
  return IsLowerHex(trace_id, 32) && IsLowerHex(parent_id, 16) && IsLowerHex(flags, 2) && !IsAllZero(trace_id) &&
         !IsAllZero(parent_id);
}

Trace ContinueTrace(std::string_view traceparent) {
  if (IsTraceparent(traceparent)) {
    return {std::string(traceparent.substr(3, 32)), NewId(8), std::string(traceparent.substr(53, 2))};
  }
  return {NewId(16), NewId(8), "01"};
}

std::string Trace::Traceparent() const { return "00-" + trace_id + "-" + span_id + "-" + flags; }

}  // namespace icat
