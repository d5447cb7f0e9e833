-- E-mail channels (issue 32, docs/notifications.md): a notification channel of type email holds a
-- list of addresses instead of a URL, each confirmed by a link before anything but its confirmation
-- mail goes to it, each with its own one-click unsubscribe (RFC 8058). A channel may instead send a
-- daily or weekly digest (its sending: sql/V0036). Runs as the owner role (icat_owner).

ALTER TABLE notification_channels DROP CONSTRAINT notification_channels_type_check;
ALTER TABLE notification_channels ADD CONSTRAINT notification_channels_type_check
  CHECK (type IN ('slack', 'teams', 'email'));
-- An e-mail channel has addresses (notification_addresses) and no URL; the others a URL.
ALTER TABLE notification_channels ALTER COLUMN url DROP NOT NULL;
ALTER TABLE notification_channels ADD CONSTRAINT notification_channels_url_of_type
  CHECK ((type = 'email') = (url IS NULL));
-- digest NULL: a mail per event; daily or weekly: one digest mail per period and no mail per event,
-- so such a channel may subscribe to no event.
ALTER TABLE notification_channels ADD COLUMN digest text CHECK (digest IN ('daily', 'weekly'));
ALTER TABLE notification_channels ADD CONSTRAINT notification_channels_digest_of_email
  CHECK (digest IS NULL OR type = 'email');
ALTER TABLE notification_channels DROP CONSTRAINT notification_channels_events_check;
ALTER TABLE notification_channels ADD CONSTRAINT notification_channels_events_check
  CHECK (cardinality(events) > 0 OR digest IS NOT NULL);

-- An address of an e-mail channel. Its tokens are sent in mails and only their SHA-256 kept here:
-- the confirmation link's (valid until confirm_expires_at) and the unsubscribe link's.
CREATE TABLE notification_addresses (
  id                        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  channel_id                uuid NOT NULL REFERENCES notification_channels ON DELETE CASCADE,
  tenant_id                 uuid NOT NULL REFERENCES tenants ON DELETE CASCADE,
  address                   text NOT NULL CHECK (length(address) BETWEEN 3 AND 254),
  state                     text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'confirmed', 'unsubscribed')),
  confirm_token_sha256      bytea UNIQUE,
  confirm_expires_at        timestamptz,
  unsubscribe_token_sha256  bytea UNIQUE,
  confirmed_at              timestamptz,
  unsubscribed_at           timestamptz,
  created_at                timestamptz NOT NULL DEFAULT now(),
  UNIQUE (channel_id, address)              -- the address as the portal normalised it (domain lower case)
);
CREATE INDEX notification_addresses_tenant ON notification_addresses (tenant_id);

ALTER TABLE notification_addresses ENABLE ROW LEVEL SECURITY;
ALTER TABLE notification_addresses FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON notification_addresses USING (tenant_id = current_tenant())
  WITH CHECK (tenant_id = current_tenant());
CREATE POLICY owner ON notification_addresses TO CURRENT_USER USING (owner_sees_all()) WITH CHECK (owner_sees_all());
GRANT SELECT, INSERT, DELETE, UPDATE ON notification_addresses TO icat_app;

-- The confirm and unsubscribe links need no session, so no tenant is set when they come: these
-- find the tenant of a token's address (and nothing else), after which the handler works as that
-- tenant. 'confirm' tokens count until they expire; a used token finds nothing (its hash is gone).
CREATE FUNCTION notification_address_tenant(p_kind text, p_token_sha256 bytea) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS
$$ SELECT tenant_id FROM notification_addresses
   WHERE (p_kind = 'confirm' AND confirm_token_sha256 = p_token_sha256 AND state = 'pending'
          AND confirm_expires_at > now())
      OR (p_kind = 'unsubscribe' AND unsubscribe_token_sha256 = p_token_sha256 AND state = 'confirmed') $$;
REVOKE ALL ON FUNCTION notification_address_tenant(text, bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION notification_address_tenant(text, bytea) TO icat_app;

-- A delivery to an e-mail channel goes to one of its addresses: one row per (event, channel,
-- address). Deliveries to the other channels keep one row per (event, channel).
ALTER TABLE deliveries ADD COLUMN address_id uuid REFERENCES notification_addresses ON DELETE CASCADE;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_address_of_channel CHECK (address_id IS NULL OR channel_id IS NOT NULL);
DROP INDEX deliveries_event_channel;
CREATE UNIQUE INDEX deliveries_event_channel ON deliveries (event_id, channel_id) WHERE address_id IS NULL;
CREATE UNIQUE INDEX deliveries_event_address ON deliveries (event_id, address_id) WHERE address_id IS NOT NULL;
