-- W3C trace context (issue 15, docs/operations.md "Tracing"): the trace an audit entry belongs to,
-- and the traceparent that an event's webhook deliveries pass on (the span of the request or the
-- ingest that caused the event), so one trace leads from the caller through the service's logs and
-- audit log to the receiver's logs. Old rows have none.
ALTER TABLE audit_log ADD COLUMN trace_id text CHECK (trace_id ~ '^[0-9a-f]{32}$');
ALTER TABLE events ADD COLUMN traceparent text
  CHECK (traceparent ~ '^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$');
