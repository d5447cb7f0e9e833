-- Each running icat-dispatcher writes its row here every few seconds, even when it has nothing to
-- deliver, and deletes it when it stops cleanly; GET /api/status reads the rows (docs/operations.md,
-- "Health"). A row whose beat is older than three of its own intervals belongs to a dispatcher that
-- died or hangs.
--
-- No row-level security: the rows name processes, not tenants, and hold nothing of any tenant. The
-- dispatcher and the status pool both connect as icat_app, which gets only what they do: read the
-- rows, write a beat, delete a row (its own at a clean stop, day-old ones of dispatchers that died).
CREATE TABLE dispatcher_heartbeats (
  dispatcher     text PRIMARY KEY,             -- host:pid
  every_seconds  integer NOT NULL CHECK (every_seconds > 0),
  started_at     timestamptz NOT NULL DEFAULT now(),
  beat_at        timestamptz NOT NULL DEFAULT now()
);

GRANT SELECT, INSERT, DELETE, UPDATE (beat_at) ON dispatcher_heartbeats TO icat_app;
