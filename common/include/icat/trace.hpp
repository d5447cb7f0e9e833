// W3C Trace Context (traceparent): the trace a request belongs to, taken from the caller when it
// sent a valid traceparent and begun here otherwise, with this request's own span in it. It goes
// into the log line, the audit entry and the webhook deliveries the request causes.
#pragma once

#include <string>
#include <string_view>

namespace icat {

struct Trace {
  std::string trace_id;  // 32 lower-case hex, not all zero
  std::string span_id;   // 16 lower-case hex: this request's (or program run's) span
  std::string flags;     // 2 hex; "01" sampled

  // "00-<trace_id>-<span_id>-<flags>": the traceparent a call made on this span's behalf sends.
  std::string Traceparent() const;
};

// The trace of an incoming traceparent header (or TRACEPARENT variable) with a new span of its own;
// a new trace, sampled, when the text is absent or not a valid version-00 traceparent (the
// specification says to restart the trace then).
Trace ContinueTrace(std::string_view traceparent);

// True when text is a valid version-00 traceparent.
bool IsTraceparent(std::string_view text);

}  // namespace icat
