-- Notification channels (issue 32, docs/notifications.md): a tenant's Slack and Microsoft Teams
-- incoming webhooks, where people read about events. They are fed by the webhooks' outbox: an
-- event's delivery goes to a webhook subscription or to a channel, with the same claims, leases,
-- retries, fairness and log. Runs as the owner role (icat_owner).

-- The one severity ranking in SQL, as SeverityRank (common/include/icat/vocabulary.hpp) ranks:
-- critical 4, high 3, medium 2, low 1, anything else 0. Compared with it by
-- tests/integration/vocabulary_test.cpp.
CREATE FUNCTION severity_rank(p_severity text) RETURNS integer LANGUAGE sql IMMUTABLE AS
$$ SELECT coalesce(array_position(ARRAY['low', 'medium', 'high', 'critical'], p_severity), 0) $$;

CREATE TABLE notification_channels (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id        uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  type             text NOT NULL CHECK (type IN ('slack', 'teams')),
  name             text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  url              text NOT NULL,           -- the incoming webhook's URL: a secret, never shown again
  events           text[] NOT NULL CHECK (cardinality(events) > 0),
  min_severity     text CHECK (min_severity IN ('critical', 'high', 'medium', 'low', 'unknown')),
  image_ids        uuid[] NOT NULL DEFAULT '{}',  -- empty: every image
  active           boolean NOT NULL DEFAULT true,
  disabled_reason  text,
  refusals         integer NOT NULL DEFAULT 0,    -- refusals for good (a 4xx) since the last delivery
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_channels_tenant ON notification_channels (tenant_id, created_at);

ALTER TABLE notification_channels ENABLE ROW LEVEL SECURITY;
ALTER TABLE notification_channels FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON notification_channels USING (tenant_id = current_tenant())
  WITH CHECK (tenant_id = current_tenant());
CREATE POLICY owner ON notification_channels TO CURRENT_USER USING (owner_sees_all()) WITH CHECK (owner_sees_all());
GRANT SELECT, INSERT, DELETE, UPDATE ON notification_channels TO icat_app;

-- Whether a channel wants an event's data: of one of its images (when it names any), and, when the
-- event carries vulnerabilities and the channel a minimum severity, at least one that severe.
CREATE FUNCTION channel_wants(p_image_ids uuid[], p_min_severity text, p_data jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS
$$ SELECT (cardinality(p_image_ids) = 0 OR p_data -> 'image' ->> 'id' = ANY (p_image_ids::text[]))
      AND (p_min_severity IS NULL OR jsonb_typeof(p_data -> 'vulnerabilities') IS DISTINCT FROM 'array'
           OR EXISTS (SELECT FROM jsonb_array_elements(p_data -> 'vulnerabilities') v
                      WHERE severity_rank(v ->> 'severity') >= severity_rank(p_min_severity))) $$;

-- A delivery goes to exactly one of a webhook subscription and a channel.
ALTER TABLE deliveries ALTER COLUMN webhook_id DROP NOT NULL;
ALTER TABLE deliveries ADD COLUMN channel_id uuid REFERENCES notification_channels ON DELETE CASCADE;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_one_target CHECK (num_nonnulls(webhook_id, channel_id) = 1);
CREATE UNIQUE INDEX deliveries_event_channel ON deliveries (event_id, channel_id);
CREATE INDEX deliveries_channel ON deliveries (channel_id, created_at DESC) WHERE channel_id IS NOT NULL;
