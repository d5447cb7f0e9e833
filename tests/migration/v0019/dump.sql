--
-- PostgreSQL database dump
--

\restrict Z90MPji07iYY2jAqNne50HI2wEKll7Vv06dNnIN1d6IMZpuOFnOAx4La6NTfiYD

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: active_admins_besides(uuid, uuid); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.active_admins_besides(p_tenant_id uuid, p_user_id uuid) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('tenant_admins'), hashtext(p_tenant_id::text));
  RETURN (SELECT count(*) FROM users u WHERE u.tenant_id = p_tenant_id AND u.id <> p_user_id
          AND u.role = 'admin' AND u.disabled_at IS NULL AND u.has_password);
END $$;


ALTER FUNCTION public.active_admins_besides(p_tenant_id uuid, p_user_id uuid) OWNER TO icat_owner;

--
-- Name: audit_log_number(); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.audit_log_number() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('audit_log'), hashtext(NEW.tenant_id::text));
  NEW.id := COALESCE((SELECT max(id) FROM audit_log WHERE tenant_id = NEW.tenant_id), 0) + 1;
  RETURN NEW;
END $$;


ALTER FUNCTION public.audit_log_number() OWNER TO icat_owner;

--
-- Name: auth_api_key(bytea); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.auth_api_key(p_key_hash bytea) RETURNS TABLE(key_id uuid, tenant_id uuid, scopes text[], expires_at timestamp with time zone, revoked_at timestamp with time zone)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$ SELECT id, tenant_id, scopes, expires_at, revoked_at FROM api_keys WHERE key_hash = p_key_hash $$;


ALTER FUNCTION public.auth_api_key(p_key_hash bytea) OWNER TO icat_owner;

--
-- Name: auth_change_password(uuid, text, text); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.auth_change_password(p_user_id uuid, p_old_hash text, p_new_hash text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
BEGIN
  IF p_new_hash IS NULL OR p_new_hash NOT LIKE '$scrypt$%' THEN
    RAISE EXCEPTION 'not a scrypt hash' USING ERRCODE = '22023';
  END IF;
  UPDATE users SET password_hash = p_new_hash
    WHERE id = p_user_id AND tenant_id = current_tenant() AND password_hash = p_old_hash AND disabled_at IS NULL;
  RETURN FOUND;
END $_$;


ALTER FUNCTION public.auth_change_password(p_user_id uuid, p_old_hash text, p_new_hash text) OWNER TO icat_owner;

--
-- Name: auth_complete_setup(bytea, text); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.auth_complete_setup(p_token_hash bytea, p_password_hash text) RETURNS TABLE(user_id uuid, email text, role text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
DECLARE v_user uuid;
BEGIN
  IF p_password_hash IS NULL OR p_password_hash NOT LIKE '$scrypt$%' THEN
    RAISE EXCEPTION 'not a scrypt hash' USING ERRCODE = '22023';
  END IF;
  UPDATE setup_tokens s SET used_at = now()
    WHERE s.tenant_id = current_tenant() AND s.token_hash = p_token_hash AND s.used_at IS NULL
      AND s.expires_at > now()
    RETURNING s.user_id INTO v_user;
  IF v_user IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY UPDATE users u SET password_hash = p_password_hash
    WHERE u.id = v_user AND u.tenant_id = current_tenant() AND u.password_hash IS NULL AND u.disabled_at IS NULL
    RETURNING u.id, u.email, u.role;
END $_$;


ALTER FUNCTION public.auth_complete_setup(p_token_hash bytea, p_password_hash text) OWNER TO icat_owner;

--
-- Name: auth_login_user(text); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.auth_login_user(p_email text) RETURNS TABLE(tenant_id uuid, user_id uuid, email text, role text, password_hash text, disabled boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$ SELECT t.id, u.id, u.email, u.role, u.password_hash, u.disabled_at IS NOT NULL
   FROM tenants t
   LEFT JOIN users u ON u.tenant_id = t.id AND lower(u.email) = lower(p_email)
   WHERE t.id = current_tenant() $$;


ALTER FUNCTION public.auth_login_user(p_email text) OWNER TO icat_owner;

--
-- Name: current_tenant(); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.current_tenant() RETURNS uuid
    LANGUAGE sql STABLE
    AS $$ SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid $$;


ALTER FUNCTION public.current_tenant() OWNER TO icat_owner;

--
-- Name: dispatch_backlog(); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.dispatch_backlog(OUT waiting bigint, OUT oldest_seconds bigint) RETURNS record
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$ SELECT count(*), COALESCE(EXTRACT(EPOCH FROM now() - min(since))::bigint, 0)
   FROM (SELECT created_at AS since FROM events WHERE fanned_out_at IS NULL
         UNION ALL
         SELECT next_attempt_at FROM deliveries WHERE state = 'pending' AND next_attempt_at <= now()) due $$;


ALTER FUNCTION public.dispatch_backlog(OUT waiting bigint, OUT oldest_seconds bigint) OWNER TO icat_owner;

--
-- Name: dispatch_prune(interval); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.dispatch_prune(p_keep interval) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE removed bigint;
BEGIN
  DELETE FROM deliveries WHERE state <> 'pending' AND updated_at < now() - p_keep;
  GET DIAGNOSTICS removed = ROW_COUNT;
  DELETE FROM events e WHERE e.fanned_out_at < now() - p_keep
    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id);
  RETURN removed;
END $$;


ALTER FUNCTION public.dispatch_prune(p_keep interval) OWNER TO icat_owner;

--
-- Name: dispatch_tenants_with_work(integer); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.dispatch_tenants_with_work(p_limit integer) RETURNS TABLE(tenant_id uuid)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$ SELECT tenant_id FROM events WHERE fanned_out_at IS NULL
   UNION
   SELECT tenant_id FROM deliveries WHERE state = 'pending' AND next_attempt_at <= now()
   LIMIT p_limit $$;


ALTER FUNCTION public.dispatch_tenants_with_work(p_limit integer) OWNER TO icat_owner;

--
-- Name: owner_sees_all(); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.owner_sees_all() RETURNS boolean
    LANGUAGE sql STABLE
    AS $$ SELECT session_user = current_user OR current_tenant() IS NULL $$;


ALTER FUNCTION public.owner_sees_all() OWNER TO icat_owner;

--
-- Name: purl_key(text); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.purl_key(p_purl text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT split_part(split_part(p_purl, '?', 1), '#', 1) $$;


ALTER FUNCTION public.purl_key(p_purl text) OWNER TO icat_owner;

--
-- Name: purl_key_any_version(text); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.purl_key_any_version(p_purl text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$ SELECT regexp_replace(purl_key(p_purl), '@[^/@]*$', '') $_$;


ALTER FUNCTION public.purl_key_any_version(p_purl text) OWNER TO icat_owner;

--
-- Name: purl_keys(text[]); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.purl_keys(p_purls text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT ARRAY(SELECT purl_key(p) FROM unnest(p_purls) p) $$;


ALTER FUNCTION public.purl_keys(p_purls text[]) OWNER TO icat_owner;

--
-- Name: rfc3339(timestamp with time zone); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.rfc3339(timestamp with time zone) RETURNS text
    LANGUAGE sql STABLE
    AS $_$ SELECT to_char($1 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') $_$;


ALTER FUNCTION public.rfc3339(timestamp with time zone) OWNER TO icat_owner;

--
-- Name: rfc3339_us(timestamp with time zone); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.rfc3339_us(timestamp with time zone) RETURNS text
    LANGUAGE sql STABLE
    AS $_$ SELECT to_char($1 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') $_$;


ALTER FUNCTION public.rfc3339_us(timestamp with time zone) OWNER TO icat_owner;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: scans; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.scans (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    version_id uuid NOT NULL,
    scanner_name text NOT NULL,
    scanner_version text,
    scanned_at timestamp with time zone NOT NULL,
    vulndb_updated_at timestamp with time zone,
    input_sha256 text NOT NULL,
    critical_count integer DEFAULT 0 NOT NULL,
    high_count integer DEFAULT 0 NOT NULL,
    medium_count integer DEFAULT 0 NOT NULL,
    low_count integer DEFAULT 0 NOT NULL,
    unknown_count integer DEFAULT 0 NOT NULL,
    findings_critical integer DEFAULT 0 NOT NULL,
    findings_high integer DEFAULT 0 NOT NULL,
    findings_medium integer DEFAULT 0 NOT NULL,
    findings_low integer DEFAULT 0 NOT NULL,
    findings_unknown integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    fixable_count integer DEFAULT 0 NOT NULL,
    vex_excluded_count integer DEFAULT 0 NOT NULL
);


ALTER TABLE public.scans OWNER TO icat_owner;

--
-- Name: scan_recount(uuid); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.scan_recount(p_scan_id uuid) RETURNS public.scans
    LANGUAGE sql
    AS $$ WITH finding AS (
     SELECT x.vuln_id, x.severity, x.fix_state, COALESCE(vx.status = 'not_affected', false) AS excluded
     FROM scans s JOIN image_versions v ON v.id = s.version_id JOIN vulnerabilities x ON x.scan_id = s.id
     LEFT JOIN LATERAL vex_statement_for(v.image_id, v.id, x.vuln_id, x.aliases, x.purl) vx ON true
     WHERE s.id = p_scan_id AND x.fix_state <> 'not-affected'),
   vuln AS (
     SELECT vuln_id, min(array_position(ARRAY['critical', 'high', 'medium', 'low', 'unknown'], severity)) AS rank,
            bool_or(fix_state = 'fixed') AS fixable
     FROM finding WHERE NOT excluded GROUP BY vuln_id),
   totals AS (
     SELECT (SELECT count(*) FILTER (WHERE rank = 1) FROM vuln) AS critical,
            (SELECT count(*) FILTER (WHERE rank = 2) FROM vuln) AS high,
            (SELECT count(*) FILTER (WHERE rank = 3) FROM vuln) AS medium,
            (SELECT count(*) FILTER (WHERE rank = 4) FROM vuln) AS low,
            (SELECT count(*) FILTER (WHERE rank = 5) FROM vuln) AS unknown,
            (SELECT count(*) FILTER (WHERE fixable) FROM vuln) AS fixable,
            count(*) FILTER (WHERE NOT excluded AND severity = 'critical') AS findings_critical,
            count(*) FILTER (WHERE NOT excluded AND severity = 'high') AS findings_high,
            count(*) FILTER (WHERE NOT excluded AND severity = 'medium') AS findings_medium,
            count(*) FILTER (WHERE NOT excluded AND severity = 'low') AS findings_low,
            count(*) FILTER (WHERE NOT excluded AND severity = 'unknown') AS findings_unknown,
            count(DISTINCT vuln_id) FILTER (WHERE excluded AND vuln_id NOT IN (SELECT vuln_id FROM vuln)) AS excluded
     FROM finding)
   UPDATE scans s SET critical_count = t.critical, high_count = t.high, medium_count = t.medium,
     low_count = t.low, unknown_count = t.unknown, findings_critical = t.findings_critical,
     findings_high = t.findings_high, findings_medium = t.findings_medium, findings_low = t.findings_low,
     findings_unknown = t.findings_unknown, fixable_count = t.fixable, vex_excluded_count = t.excluded
   FROM totals t WHERE s.id = p_scan_id
   RETURNING s.* $$;


ALTER FUNCTION public.scan_recount(p_scan_id uuid) OWNER TO icat_owner;

--
-- Name: users_keep_an_admin(); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.users_keep_an_admin() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
  IF OLD.role <> 'admin' OR OLD.disabled_at IS NOT NULL OR OLD.password_hash IS NULL THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.role = 'admin' AND NEW.disabled_at IS NULL AND NEW.password_hash IS NOT NULL
     AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NEW;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM tenants WHERE id = OLD.tenant_id) THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF active_admins_besides(OLD.tenant_id, OLD.id) = 0 THEN
    RAISE EXCEPTION 'user % is the last active admin of its tenant', OLD.id USING ERRCODE = 'IC001';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;


ALTER FUNCTION public.users_keep_an_admin() OWNER TO icat_owner;

--
-- Name: vex_statement_for(uuid, uuid, text, text[], text); Type: FUNCTION; Schema: public; Owner: icat_owner
--

CREATE FUNCTION public.vex_statement_for(p_image_id uuid, p_version_id uuid, p_vuln_id text, p_aliases text[], p_purl text) RETURNS TABLE(statement_id bigint, status text, justification text, impact_statement text, statement_time timestamp with time zone, author text)
    LANGUAGE sql STABLE
    AS $$ SELECT st.id, st.status, st.justification, st.impact_statement, st.statement_time, d.author
   FROM vex_statements st JOIN vex_documents d ON d.id = st.document_id
   WHERE st.image_id = p_image_id AND (st.version_id IS NULL OR st.version_id = p_version_id)
     AND st.vuln_ids && (ARRAY[p_vuln_id] || p_aliases)
     AND (st.subcomponent_keys = '{}'
          OR st.subcomponent_keys && ARRAY[purl_key(p_purl), purl_key_any_version(p_purl)])
   ORDER BY st.statement_time DESC, st.version_id IS NULL, st.subcomponent_keys = '{}', st.id DESC
   LIMIT 1 $$;


ALTER FUNCTION public.vex_statement_for(p_image_id uuid, p_version_id uuid, p_vuln_id text, p_aliases text[], p_purl text) OWNER TO icat_owner;

--
-- Name: admission_decisions; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.admission_decisions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    request_uid text NOT NULL,
    operation text NOT NULL,
    kind text NOT NULL,
    namespace text,
    name text,
    images jsonb NOT NULL,
    allowed boolean NOT NULL,
    mode text NOT NULL,
    dry_run boolean DEFAULT false NOT NULL,
    reasons jsonb DEFAULT '[]'::jsonb NOT NULL,
    key_prefix text,
    CONSTRAINT admission_decisions_key_prefix_check CHECK ((char_length(key_prefix) <= 14))
);
ALTER TABLE ONLY public.admission_decisions ALTER COLUMN images SET COMPRESSION lz4;
ALTER TABLE ONLY public.admission_decisions ALTER COLUMN reasons SET COMPRESSION lz4;

ALTER TABLE ONLY public.admission_decisions FORCE ROW LEVEL SECURITY;


ALTER TABLE public.admission_decisions OWNER TO icat_owner;

--
-- Name: admission_policies; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.admission_policies (
    tenant_id uuid NOT NULL,
    policy jsonb NOT NULL,
    updated_by uuid,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.admission_policies FORCE ROW LEVEL SECURITY;


ALTER TABLE public.admission_policies OWNER TO icat_owner;

--
-- Name: api_keys; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.api_keys (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id uuid NOT NULL,
    name text NOT NULL,
    prefix text NOT NULL,
    key_hash bytea NOT NULL,
    scopes text[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by uuid,
    expires_at timestamp with time zone,
    last_used_at timestamp with time zone,
    revoked_at timestamp with time zone,
    CONSTRAINT api_keys_key_hash_check CHECK ((length(key_hash) = 32)),
    CONSTRAINT api_keys_name_check CHECK (((length(name) >= 1) AND (length(name) <= 100))),
    CONSTRAINT api_keys_scopes_check CHECK (((cardinality(scopes) > 0) AND (scopes <@ ARRAY['read:catalog'::text, 'read:sbom'::text, 'read:vulns'::text, 'admission'::text])))
);

ALTER TABLE ONLY public.api_keys FORCE ROW LEVEL SECURITY;


ALTER TABLE public.api_keys OWNER TO icat_owner;

--
-- Name: audit_log; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.audit_log (
    id bigint NOT NULL,
    tenant_id uuid NOT NULL,
    at timestamp with time zone DEFAULT now() NOT NULL,
    actor text NOT NULL,
    action text NOT NULL,
    target text,
    client_ip text,
    request_id text,
    detail jsonb DEFAULT '{}'::jsonb NOT NULL,
    trace_id text,
    CONSTRAINT audit_log_trace_id_check CHECK ((trace_id ~ '^[0-9a-f]{32}$'::text))
);

ALTER TABLE ONLY public.audit_log FORCE ROW LEVEL SECURITY;


ALTER TABLE public.audit_log OWNER TO icat_owner;

--
-- Name: cve_watches; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.cve_watches (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id uuid NOT NULL,
    cve_id text NOT NULL,
    note text,
    created_by uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT cve_watches_cve_id_check CHECK ((cve_id ~ '^(CVE-[0-9]{4}-[0-9]{4,}|GHSA-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})$'::text))
);

ALTER TABLE ONLY public.cve_watches FORCE ROW LEVEL SECURITY;


ALTER TABLE public.cve_watches OWNER TO icat_owner;

--
-- Name: deliveries; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.deliveries (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id uuid NOT NULL,
    event_id uuid NOT NULL,
    webhook_id uuid NOT NULL,
    state text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    last_status integer,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT deliveries_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text])))
);

ALTER TABLE ONLY public.deliveries FORCE ROW LEVEL SECURITY;


ALTER TABLE public.deliveries OWNER TO icat_owner;

--
-- Name: dispatcher_heartbeats; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.dispatcher_heartbeats (
    dispatcher text NOT NULL,
    every_seconds integer NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    beat_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT dispatcher_heartbeats_every_seconds_check CHECK ((every_seconds > 0))
);


ALTER TABLE public.dispatcher_heartbeats OWNER TO icat_owner;

--
-- Name: events; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.events (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id uuid NOT NULL,
    type text NOT NULL,
    payload jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    fanned_out_at timestamp with time zone,
    traceparent text,
    CONSTRAINT events_traceparent_check CHECK ((traceparent ~ '^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$'::text))
);

ALTER TABLE ONLY public.events FORCE ROW LEVEL SECURITY;


ALTER TABLE public.events OWNER TO icat_owner;

--
-- Name: feature_requests; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.feature_requests (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id uuid NOT NULL,
    type text NOT NULL,
    title text NOT NULL,
    description text NOT NULL,
    image_id uuid,
    cve_id text,
    package_name text,
    status text DEFAULT 'open'::text NOT NULL,
    created_by uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT feature_requests_status_check CHECK ((status = ANY (ARRAY['open'::text, 'planned'::text, 'done'::text, 'declined'::text]))),
    CONSTRAINT feature_requests_type_check CHECK ((type = ANY (ARRAY['feature'::text, 'package'::text, 'bug'::text])))
);

ALTER TABLE ONLY public.feature_requests FORCE ROW LEVEL SECURITY;


ALTER TABLE public.feature_requests OWNER TO icat_owner;

--
-- Name: image_versions; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.image_versions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    image_id uuid NOT NULL,
    tag text NOT NULL,
    digest text NOT NULL,
    size_bytes bigint,
    base_os text,
    hardening_tags text[] DEFAULT '{}'::text[] NOT NULL,
    published_at timestamp with time zone DEFAULT now() NOT NULL,
    latest_scan_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT image_versions_digest_check CHECK ((digest ~ '^sha256:[0-9a-f]{64}$'::text)),
    CONSTRAINT image_versions_size_bytes_check CHECK ((size_bytes >= 0)),
    CONSTRAINT image_versions_tag_check CHECK ((tag ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$'::text))
);

ALTER TABLE ONLY public.image_versions FORCE ROW LEVEL SECURITY;


ALTER TABLE public.image_versions OWNER TO icat_owner;

--
-- Name: images; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.images (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    base_os text,
    repository text NOT NULL,
    latest_version_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT images_name_check CHECK ((name ~ '^[a-z0-9][a-z0-9._/-]{0,127}$'::text))
);

ALTER TABLE ONLY public.images FORCE ROW LEVEL SECURITY;


ALTER TABLE public.images OWNER TO icat_owner;

--
-- Name: licenses; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.licenses (
    tenant_id uuid NOT NULL,
    image_id uuid NOT NULL,
    granted_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.licenses FORCE ROW LEVEL SECURITY;


ALTER TABLE public.licenses OWNER TO icat_owner;

--
-- Name: refresh_tokens; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.refresh_tokens (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id uuid NOT NULL,
    user_id uuid NOT NULL,
    family_id uuid NOT NULL,
    token_hash bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    revoked_at timestamp with time zone
);

ALTER TABLE ONLY public.refresh_tokens FORCE ROW LEVEL SECURITY;


ALTER TABLE public.refresh_tokens OWNER TO icat_owner;

--
-- Name: sboms; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.sboms (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    scan_id uuid NOT NULL,
    format text NOT NULL,
    spec_version text NOT NULL,
    sha256 text NOT NULL,
    size_bytes bigint NOT NULL,
    tool_name text,
    tool_version text,
    signature text NOT NULL,
    signing_key_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    completeness json,
    CONSTRAINT sboms_completeness_check CHECK ((json_typeof(completeness) = 'object'::text)),
    CONSTRAINT sboms_format_check CHECK ((format = ANY (ARRAY['spdx'::text, 'cyclonedx'::text]))),
    CONSTRAINT sboms_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text))
);


ALTER TABLE public.sboms OWNER TO icat_owner;

--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.schema_migrations (
    version integer NOT NULL,
    file text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.schema_migrations OWNER TO icat_owner;

--
-- Name: setup_tokens; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.setup_tokens (
    user_id uuid NOT NULL,
    tenant_id uuid NOT NULL,
    token_hash bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT setup_tokens_token_hash_check CHECK ((octet_length(token_hash) = 32))
);

ALTER TABLE ONLY public.setup_tokens FORCE ROW LEVEL SECURITY;


ALTER TABLE public.setup_tokens OWNER TO icat_owner;

--
-- Name: signing_keys; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.signing_keys (
    id text NOT NULL,
    algorithm text NOT NULL,
    public_key_pem text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT signing_keys_algorithm_check CHECK ((algorithm = 'Ed25519'::text)),
    CONSTRAINT signing_keys_id_check CHECK ((id ~ '^[0-9a-f]{16}$'::text))
);


ALTER TABLE public.signing_keys OWNER TO icat_owner;

--
-- Name: tenants; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.tenants (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    subdomain text NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT tenants_subdomain_check CHECK ((subdomain ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'::text))
);


ALTER TABLE public.tenants OWNER TO icat_owner;

--
-- Name: users; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.users (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id uuid NOT NULL,
    email text NOT NULL,
    password_hash text,
    role text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    disabled_at timestamp with time zone,
    has_password boolean GENERATED ALWAYS AS ((password_hash IS NOT NULL)) STORED,
    last_login_at timestamp with time zone,
    CONSTRAINT users_email_check CHECK ((email ~ '^[^@\s]+@[^@\s]+$'::text)),
    CONSTRAINT users_role_check CHECK ((role = ANY (ARRAY['admin'::text, 'user'::text, 'viewer'::text])))
);

ALTER TABLE ONLY public.users FORCE ROW LEVEL SECURITY;


ALTER TABLE public.users OWNER TO icat_owner;

--
-- Name: vex_documents; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.vex_documents (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    format text NOT NULL,
    document_ref text,
    author text NOT NULL,
    role text,
    issued_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone,
    version integer NOT NULL,
    sha256 text NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT vex_documents_format_check CHECK ((format = ANY (ARRAY['openvex'::text, 'cyclonedx'::text]))),
    CONSTRAINT vex_documents_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text))
);


ALTER TABLE public.vex_documents OWNER TO icat_owner;

--
-- Name: vex_served_documents; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.vex_served_documents (
    version_id uuid NOT NULL,
    format text NOT NULL,
    document_version integer NOT NULL,
    sha256 text NOT NULL,
    size_bytes bigint NOT NULL,
    signature text NOT NULL,
    signing_key_id text NOT NULL,
    generated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT vex_served_documents_document_version_check CHECK ((document_version >= 1)),
    CONSTRAINT vex_served_documents_format_check CHECK ((format = ANY (ARRAY['openvex'::text, 'cyclonedx'::text]))),
    CONSTRAINT vex_served_documents_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT vex_served_documents_size_bytes_check CHECK ((size_bytes > 0))
);


ALTER TABLE public.vex_served_documents OWNER TO icat_owner;

--
-- Name: vex_statements; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.vex_statements (
    id bigint NOT NULL,
    document_id uuid NOT NULL,
    image_id uuid NOT NULL,
    version_id uuid,
    product text NOT NULL,
    vuln_id text NOT NULL,
    aliases text[] DEFAULT '{}'::text[] NOT NULL,
    vuln_ids text[] GENERATED ALWAYS AS ((ARRAY[vuln_id] || aliases)) STORED,
    subcomponents text[] DEFAULT '{}'::text[] NOT NULL,
    subcomponent_keys text[] GENERATED ALWAYS AS (public.purl_keys(subcomponents)) STORED,
    status text NOT NULL,
    justification text,
    impact_statement text,
    action_statement text,
    statement_time timestamp with time zone NOT NULL,
    CONSTRAINT vex_statements_justification_check CHECK ((justification = ANY (ARRAY['component_not_present'::text, 'vulnerable_code_not_present'::text, 'vulnerable_code_not_in_execute_path'::text, 'vulnerable_code_cannot_be_controlled_by_adversary'::text, 'inline_mitigations_already_exist'::text]))),
    CONSTRAINT vex_statements_status_check CHECK ((status = ANY (ARRAY['not_affected'::text, 'affected'::text, 'fixed'::text, 'under_investigation'::text])))
);


ALTER TABLE public.vex_statements OWNER TO icat_owner;

--
-- Name: vex_statements_id_seq; Type: SEQUENCE; Schema: public; Owner: icat_owner
--

ALTER TABLE public.vex_statements ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.vex_statements_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: vulnerabilities; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.vulnerabilities (
    id bigint NOT NULL,
    scan_id uuid NOT NULL,
    vuln_id text NOT NULL,
    aliases text[] DEFAULT '{}'::text[] NOT NULL,
    package_name text NOT NULL,
    package_version text,
    package_type text,
    purl text,
    severity text NOT NULL,
    cvss_score numeric(3,1),
    fix_state text NOT NULL,
    fixed_version text,
    title text,
    primary_url text,
    severity_sources json DEFAULT '[]'::json NOT NULL,
    severity_source text,
    CONSTRAINT vulnerabilities_fix_state_check CHECK ((fix_state = ANY (ARRAY['fixed'::text, 'not-fixed'::text, 'wont-fix'::text, 'unknown'::text, 'not-affected'::text]))),
    CONSTRAINT vulnerabilities_severity_check CHECK ((severity = ANY (ARRAY['critical'::text, 'high'::text, 'medium'::text, 'low'::text, 'unknown'::text])))
);


ALTER TABLE public.vulnerabilities OWNER TO icat_owner;

--
-- Name: vulnerabilities_id_seq; Type: SEQUENCE; Schema: public; Owner: icat_owner
--

ALTER TABLE public.vulnerabilities ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.vulnerabilities_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: vulnerability_first_seen; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.vulnerability_first_seen (
    version_id uuid NOT NULL,
    vuln_id text NOT NULL,
    first_seen_at timestamp with time zone NOT NULL
);


ALTER TABLE public.vulnerability_first_seen OWNER TO icat_owner;

--
-- Name: webhooks; Type: TABLE; Schema: public; Owner: icat_owner
--

CREATE TABLE public.webhooks (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    tenant_id uuid NOT NULL,
    url text NOT NULL,
    events text[] NOT NULL,
    active boolean DEFAULT true NOT NULL,
    secret text NOT NULL,
    disabled_reason text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT webhooks_events_check CHECK (((cardinality(events) > 0) AND (events <@ ARRAY['scan.completed'::text, 'vulnerability.detected'::text, 'vulnerability.fixed'::text, 'cve_watch.matched'::text, 'vex.updated'::text, 'ping'::text])))
);

ALTER TABLE ONLY public.webhooks FORCE ROW LEVEL SECURITY;


ALTER TABLE public.webhooks OWNER TO icat_owner;

--
-- Data for Name: admission_decisions; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.admission_decisions (id, tenant_id, created_at, request_uid, operation, kind, namespace, name, images, allowed, mode, dry_run, reasons, key_prefix) FROM stdin;
901dac6b-7f16-42f8-a42c-b559a40d7d5f	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:46.229163+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "outcome": "failed", "reference": "registry.example.test/hardened/nginx:1.27.3", "versionId": "ecf31f80-ea88-4795-bc16-ac392ade6736", "containers": ["container app"], "normalised": "registry.example.test/hardened/nginx:1.27.3", "vendorNotAffectedCves": ["CVE-2023-45853"]}]	f	enforce	f	[{"cves": ["CVE-2024-45490"], "rule": "severityThreshold", "image": "registry.example.test/hardened/nginx:1.27.3", "message": "1 vulnerability with a fix at or above high in nginx:1.27.3: CVE-2024-45490"}, {"cves": ["CVE-2024-2236", "CVE-2024-45490"], "rule": "denyWatchedCves", "image": "registry.example.test/hardened/nginx:1.27.3", "message": "2 CVEs on your watch list in nginx:1.27.3: CVE-2024-2236, CVE-2024-45490"}]	icat_live_EPzC
a025ff78-a626-4177-9788-d63e1e48a786	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:46.256028+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "outcome": "failed", "reference": "registry.example.test/hardened/nginx:1.27.2", "versionId": "9305de1c-4363-43db-910c-bce1d38db630", "containers": ["container app"], "normalised": "registry.example.test/hardened/nginx:1.27.2", "vendorNotAffectedCves": ["CVE-2023-45853"]}]	f	enforce	f	[{"cves": ["CVE-2024-45490", "CVE-2024-6119"], "rule": "severityThreshold", "image": "registry.example.test/hardened/nginx:1.27.2", "message": "2 vulnerabilities with a fix at or above high in nginx:1.27.2: CVE-2024-45490, CVE-2024-6119"}, {"cves": ["CVE-2024-2236", "CVE-2024-45490"], "rule": "denyWatchedCves", "image": "registry.example.test/hardened/nginx:1.27.2", "message": "2 CVEs on your watch list in nginx:1.27.2: CVE-2024-2236, CVE-2024-45490"}]	icat_live_EPzC
6615dd4e-58ee-4de6-b573-9ae2f9e8cfcc	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:46.278597+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": "72b5ccd8-fe12-442d-a94d-562ed648b4be", "outcome": "passed", "reference": "registry.example.test/hardened/python:3.13.1", "versionId": "74d16d2f-c7f9-453f-9df6-8c770a05b3d8", "containers": ["container app"], "normalised": "registry.example.test/hardened/python:3.13.1", "vendorNotAffectedCves": ["CVE-2024-2236"]}]	t	enforce	f	[]	icat_live_EPzC
f67a1443-c39f-4249-9e80-8962a6924baf	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:46.29905+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": "30a931ea-a0f4-49b2-ad81-f29cf318163c", "outcome": "failed", "reference": "registry.example.test/hardened/postgres:15.10", "versionId": "8e39030e-bdb1-46f3-81a1-ed5153c7e9bb", "containers": ["container app"], "normalised": "registry.example.test/hardened/postgres:15.10"}]	f	enforce	f	[{"cves": [], "rule": "requireScan", "image": "registry.example.test/hardened/postgres:15.10", "message": "postgres:15.10 has never been scanned, so its vulnerabilities are unknown"}]	icat_live_EPzC
2d5e0e70-b742-4d9c-bc70-ebf2ad2d0cb6	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:46.319688+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": null, "outcome": "failed", "reference": "registry.example.test/hardened/redis:7.4.1", "versionId": null, "containers": ["container app"], "normalised": "registry.example.test/hardened/redis:7.4.1"}]	f	enforce	f	[{"cves": [], "rule": "requireCatalogImages", "image": "registry.example.test/hardened/redis:7.4.1", "message": "registry.example.test/hardened/redis:7.4.1 is not a version of your licensed catalogue"}]	icat_live_EPzC
6d9cb55b-6de0-43ec-a771-aa37d2f6f382	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:46.346017+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": null, "outcome": "failed", "reference": "docker.io/library/busybox:1.36", "versionId": null, "containers": ["container app"], "normalised": "docker.io/library/busybox:1.36"}]	f	enforce	f	[{"cves": [], "rule": "requireCatalogImages", "image": "docker.io/library/busybox:1.36", "message": "docker.io/library/busybox:1.36 is not a version of your licensed catalogue"}]	icat_live_EPzC
780f7106-55b9-4ab4-b603-b09d923d0ce5	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	2026-11-25 11:52:46.36633+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "outcome": "failed", "reference": "registry.example.test/hardened/nginx:1.27.3", "versionId": "ecf31f80-ea88-4795-bc16-ac392ade6736", "containers": ["container app"], "normalised": "registry.example.test/hardened/nginx:1.27.3", "vendorNotAffectedCves": ["CVE-2023-45853"]}]	f	enforce	f	[{"cves": ["CVE-2024-45490"], "rule": "severityThreshold", "image": "registry.example.test/hardened/nginx:1.27.3", "message": "1 vulnerability at or above critical in nginx:1.27.3: CVE-2024-45490; not counted, as the vendor's VEX marks them not_affected: CVE-2023-45853"}]	icat_live_xMF9
4eed904b-c82d-45f9-baaa-18ca060e92d6	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	2026-11-25 11:52:46.38707+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "outcome": "failed", "reference": "registry.example.test/hardened/nginx:1.27.2", "versionId": "9305de1c-4363-43db-910c-bce1d38db630", "containers": ["container app"], "normalised": "registry.example.test/hardened/nginx:1.27.2", "vendorNotAffectedCves": ["CVE-2023-45853"]}]	f	enforce	f	[{"cves": ["CVE-2024-45490"], "rule": "severityThreshold", "image": "registry.example.test/hardened/nginx:1.27.2", "message": "1 vulnerability at or above critical in nginx:1.27.2: CVE-2024-45490; not counted, as the vendor's VEX marks them not_affected: CVE-2023-45853"}]	icat_live_xMF9
21ae74dc-35da-47ad-8e0a-d795f75ec607	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	2026-11-25 11:52:46.407675+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": null, "outcome": "failed", "reference": "registry.example.test/hardened/python:3.13.1", "versionId": null, "containers": ["container app"], "normalised": "registry.example.test/hardened/python:3.13.1"}]	f	enforce	f	[{"cves": [], "rule": "requireCatalogImages", "image": "registry.example.test/hardened/python:3.13.1", "message": "registry.example.test/hardened/python:3.13.1 is not a version of your licensed catalogue"}]	icat_live_xMF9
d1f438d0-a156-46ab-a8e4-6c662f1ffbfa	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	2026-11-25 11:52:46.427746+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": null, "outcome": "failed", "reference": "registry.example.test/hardened/postgres:15.10", "versionId": null, "containers": ["container app"], "normalised": "registry.example.test/hardened/postgres:15.10"}]	f	enforce	f	[{"cves": [], "rule": "requireCatalogImages", "image": "registry.example.test/hardened/postgres:15.10", "message": "registry.example.test/hardened/postgres:15.10 is not a version of your licensed catalogue"}]	icat_live_xMF9
9d30e082-fc28-40c7-8aff-c76933d31cd0	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	2026-11-25 11:52:46.447569+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": "3d69c113-a3a6-45c1-b806-16cd9417e740", "outcome": "passed", "reference": "registry.example.test/hardened/redis:7.4.1", "versionId": "8da5af17-3123-40d3-b9fb-04c143cacda8", "containers": ["container app"], "normalised": "registry.example.test/hardened/redis:7.4.1"}]	t	enforce	f	[]	icat_live_xMF9
a0b33e80-0a88-41be-817f-81ea26e542f0	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	2026-11-25 11:52:46.468411+00	00000000-0000-4000-8000-000000000001	CREATE	Pod	web	app	[{"imageId": null, "outcome": "failed", "reference": "docker.io/library/busybox:1.36", "versionId": null, "containers": ["container app"], "normalised": "docker.io/library/busybox:1.36"}]	f	enforce	f	[{"cves": [], "rule": "requireCatalogImages", "image": "docker.io/library/busybox:1.36", "message": "docker.io/library/busybox:1.36 is not a version of your licensed catalogue"}]	icat_live_xMF9
\.


--
-- Data for Name: admission_policies; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.admission_policies (tenant_id, policy, updated_by, updated_at) FROM stdin;
1fb2b739-eeef-499a-a9f4-fd605ebb7e21	{"mode": "enforce", "exceptions": [], "onlyFixable": true, "requireScan": true, "exemptImages": [], "requireDigest": false, "trustVendorVex": true, "denyWatchedCves": true, "gracePeriodDays": 0, "exemptNamespaces": ["kube-system"], "allowedRegistries": [], "severityThreshold": "high", "requireCatalogImages": true}	7daa63d9-52df-4bee-bf06-a90cb233068a	2026-11-25 11:52:45.209473+00
\.


--
-- Data for Name: api_keys; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.api_keys (id, tenant_id, name, prefix, key_hash, scopes, created_at, created_by, expires_at, last_used_at, revoked_at) FROM stdin;
ebbbf6ab-5540-4a38-a357-dd84c2a081e4	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	demo	icat_live_EPzC	\\x909de1a3ac5f8ec72ae7519122c218f41d984b43f33c6625a2df57433fc7746b	{read:catalog,read:sbom,read:vulns,admission}	2026-11-25 11:52:44.278011+00	\N	\N	2026-11-25 11:52:46.229163+00	\N
21bf3a7b-cea5-4197-8d90-5f5c4a1bd92c	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	migration	icat_live_xMF9	\\xd9e2a5c5bc240977652607cc3522c9d21d9fbc7b99f131d31b79181f8f24338f	{read:catalog,read:sbom,read:vulns,admission}	2026-11-25 11:52:44.57606+00	\N	\N	2026-11-25 11:52:46.36633+00	\N
\.


--
-- Data for Name: audit_log; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.audit_log (id, tenant_id, at, actor, action, target, client_ip, request_id, detail, trace_id) FROM stdin;
1	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:44.278011+00	operator	key.created	ebbbf6ab-5540-4a38-a357-dd84c2a081e4	\N	\N	{"name": "demo", "prefix": "icat_live_EPzC", "scopes": ["read:catalog", "read:sbom", "read:vulns", "admission"]}	\N
1	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	2026-11-25 11:52:44.57606+00	operator	key.created	21bf3a7b-cea5-4197-8d90-5f5c4a1bd92c	\N	\N	{"name": "migration", "prefix": "icat_live_xMF9", "scopes": ["read:catalog", "read:sbom", "read:vulns", "admission"]}	\N
2	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:44.865913+00	user:7daa63d9-52df-4bee-bf06-a90cb233068a	login.succeeded	7daa63d9-52df-4bee-bf06-a90cb233068a	127.0.0.1	72fd13e1c37c0cc2a6945e030223df6e	{"email": "admin@demo.test"}	14c1a068c1370aae3d49a962f82a16e4
2	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	2026-11-25 11:52:45.170242+00	user:a8b6e204-5147-46f0-a198-134099c03808	login.succeeded	a8b6e204-5147-46f0-a198-134099c03808	127.0.0.1	47bb742f3b70b082ddc2e389f17cfbc0	{"email": "admin@other.test"}	42e8f3f68ed68ec2c437ee4414691884
3	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:45.209473+00	user:7daa63d9-52df-4bee-bf06-a90cb233068a	admission_policy.updated	admission-policy	127.0.0.1	0e01b79c9f54539f31051c3bb915be0e	{"mode": "enforce", "exceptions": [], "onlyFixable": true, "requireScan": true, "exemptImages": [], "requireDigest": false, "trustVendorVex": true, "denyWatchedCves": true, "gracePeriodDays": 0, "exemptNamespaces": ["kube-system"], "allowedRegistries": [], "severityThreshold": "high", "requireCatalogImages": true}	fc420884dc9ff506cbcfc0bd42bfbd13
4	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:45.22534+00	user:7daa63d9-52df-4bee-bf06-a90cb233068a	cve_watch.created	6db31bde-6755-4163-a277-87e78cefbf0b	127.0.0.1	bc1bbc87af4399cba2fef3d3c4872bb4	{"cveId": "CVE-2024-2236"}	d3b362d92a1135784c3b55690537f9b4
5	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:45.234628+00	user:7daa63d9-52df-4bee-bf06-a90cb233068a	cve_watch.created	cffc7def-da71-4c26-a404-0c3aabacc80c	127.0.0.1	2952008b3e9e2e5229b193cdae3b6d5d	{"cveId": "CVE-2024-45490"}	54e1580faf1e069633cd751a95a3c080
3	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	2026-11-25 11:52:45.242023+00	user:a8b6e204-5147-46f0-a198-134099c03808	cve_watch.created	7f37694a-7f7c-4ccb-af16-531388cfe55c	127.0.0.1	8e6db56efbd27619791a8eb7c1df9317	{"cveId": "CVE-2023-45853"}	e8104d97c1bc399a2922f961899bc566
6	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:45.248714+00	user:7daa63d9-52df-4bee-bf06-a90cb233068a	webhook.created	48a4bb61-620f-40c2-a88a-45a07e18be1a	127.0.0.1	1ae0dc2315889e7cc68249a85ed53011	{"url": "http://127.0.0.1:22148/hook", "active": "true", "events": "scan.completed,vulnerability.detected,vulnerability.fixed,cve_watch.matched,vex.updated"}	40f2d0189cea5d27a881252b04564841
7	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:45.254975+00	user:7daa63d9-52df-4bee-bf06-a90cb233068a	feature_request.created	d3a9f9b6-35c4-4c72-b19c-ed0a8edb5e7e	127.0.0.1	70f5e780b8a5338a543fc4033bb48c7c	{"type": "bug", "title": "Rescans"}	fa108d76669d9ae99e86402c75c33652
8	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:45.261049+00	user:7daa63d9-52df-4bee-bf06-a90cb233068a	user.created	ec8fdf89-eb0c-4630-9168-0d6e97f8c2e1	127.0.0.1	c940aad2f80c338b5e901b5d87db9f75	{"role": "viewer", "email": "viewer@demo.test"}	7e6af1ebdef44668391c8d0d3a41474c
9	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2026-11-25 11:52:45.261049+00	user:7daa63d9-52df-4bee-bf06-a90cb233068a	user.setup_token_issued	ec8fdf89-eb0c-4630-9168-0d6e97f8c2e1	127.0.0.1	c940aad2f80c338b5e901b5d87db9f75	{"expiresAt": "2026-11-28T11:52:45Z"}	7e6af1ebdef44668391c8d0d3a41474c
\.


--
-- Data for Name: cve_watches; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.cve_watches (id, tenant_id, cve_id, note, created_by, created_at) FROM stdin;
6db31bde-6755-4163-a277-87e78cefbf0b	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	CVE-2024-2236	libgcrypt	7daa63d9-52df-4bee-bf06-a90cb233068a	2026-11-25 11:52:45.22534+00
cffc7def-da71-4c26-a404-0c3aabacc80c	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	CVE-2024-45490	\N	7daa63d9-52df-4bee-bf06-a90cb233068a	2026-11-25 11:52:45.234628+00
7f37694a-7f7c-4ccb-af16-531388cfe55c	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	CVE-2023-45853	\N	a8b6e204-5147-46f0-a198-134099c03808	2026-11-25 11:52:45.242023+00
\.


--
-- Data for Name: deliveries; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.deliveries (id, tenant_id, event_id, webhook_id, state, attempts, next_attempt_at, last_status, last_error, created_at, updated_at) FROM stdin;
c24a96ce-e5ec-43e8-bed9-a12a4dee059d	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	2be9da8b-e53e-4c33-8da8-2871d6751bc2	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:56.503894+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:45.400119+00	2026-11-25 11:52:47.505122+00
1db6d1c0-af6e-4cf5-acd3-28aee6a5010e	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	69ba98a0-c934-43c6-b489-b52a4256ac6c	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:56.60617+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:45.503448+00	2026-11-25 11:52:47.606795+00
949faf57-9835-433f-bb83-a9e2d6463072	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	b19638e5-da69-43d1-a933-342e59b112d0	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:56.707803+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:45.609146+00	2026-11-25 11:52:47.708489+00
563b50bb-6dd6-4ec3-bac9-a8148e5d118a	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	f704877b-481d-4681-a047-c3a32572076c	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:56.707803+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:45.609146+00	2026-11-25 11:52:47.708781+00
721fc997-1a31-436f-a9b4-9b58038bc8fb	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	e7b3387a-fe0b-4f34-b39e-ccb787730f38	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:56.809755+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:45.711048+00	2026-11-25 11:52:47.810503+00
8f374fa4-f13d-465d-a53e-1cc256c96640	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	e77ca407-2d26-4e8a-ad0c-02e01493c9cb	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:56.809755+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:45.711048+00	2026-11-25 11:52:47.810667+00
87fcb0d2-0f1b-4930-8326-f60ed9796e40	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	736209b0-3f15-470f-8dc9-a6fb092e39ec	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:56.911483+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:45.812991+00	2026-11-25 11:52:47.912135+00
51a1965a-a400-4a41-a281-52d55f853512	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	c0f6ee25-dbdf-4e28-8b66-30b75814581f	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:56.911483+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:45.812991+00	2026-11-25 11:52:47.912495+00
e4daab55-2571-4ad8-a450-1f9d4ee0ca45	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	8083ed0b-5cd6-4d3d-95ee-e91ac281f273	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:57.013494+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:45.914787+00	2026-11-25 11:52:48.014143+00
7b6f6814-45eb-41af-8991-d6ec13a247b7	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	9db644b9-3f6d-45ba-896c-8b70d87bd1f6	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:57.114886+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:46.016255+00	2026-11-25 11:52:48.115376+00
e7d50c48-d62c-453c-9754-3279dcc9d019	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	1f85cdd7-0078-4352-b887-d4fd331fbd51	48a4bb61-620f-40c2-a88a-45a07e18be1a	failed	3	2026-11-25 11:52:57.316381+00	\N	Failed to connect to 127.0.0.1 port 22148 after 0 ms: Couldn't connect to server	2026-11-25 11:52:46.220571+00	2026-11-25 11:52:48.316928+00
\.


--
-- Data for Name: dispatcher_heartbeats; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.dispatcher_heartbeats (dispatcher, every_seconds, started_at, beat_at) FROM stdin;
vm:13754	2	2026-11-25 11:52:43.403316+00	2026-11-25 11:52:57.40432+00
\.


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.events (id, tenant_id, type, payload, created_at, fanned_out_at, traceparent) FROM stdin;
8246548d-0e90-48fd-94e9-9adad2c71eaf	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	vulnerability.detected	{"scan": {"id": "d9607d17-3144-4de2-b44c-351abf30e00b", "scanner": "trivy", "scannedAt": "2026-09-10T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "9305de1c-4363-43db-910c-bce1d38db630", "tag": "1.27.2", "digest": "sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e"}, "vulnerabilities": [{"id": "CVE-2023-45853", "package": "zlib1g", "fixState": "wont-fix", "severity": "critical"}, {"id": "CVE-2024-45490", "package": "libexpat1", "fixState": "fixed", "severity": "critical"}, {"id": "CVE-2024-6119", "package": "libssl3", "fixState": "fixed", "severity": "high"}, {"id": "CVE-2024-6119", "package": "openssl", "fixState": "fixed", "severity": "high"}, {"id": "CVE-2024-2236", "package": "libgcrypt20", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2010-4756", "package": "libc6", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2011-3374", "package": "apt", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2023-50495", "package": "libncursesw6", "fixState": "not-fixed", "severity": "low"}]}	2026-11-25 11:52:44.007007+00	2026-11-25 11:52:44.11058+00	00-28a0a5bcfab1db4a9a4b1e1baf733935-8ec1a711eda97e80-01
a2f8ab1b-be96-4cb1-982f-6ce29b19cddc	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	scan.completed	{"scan": {"id": "a2117902-bc06-4734-9285-fb16701f0a68", "scanner": "trivy", "scannedAt": "2026-10-15T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}}	2026-11-25 11:52:44.035165+00	2026-11-25 11:52:44.11058+00	00-321bb35823ca0f693da911bf79b92a17-b1d8ff151a24a3a4-01
df488a78-dde5-4f83-a0bd-c97ddc765b3c	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	scan.completed	{"scan": {"id": "d9607d17-3144-4de2-b44c-351abf30e00b", "scanner": "trivy", "scannedAt": "2026-09-10T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "9305de1c-4363-43db-910c-bce1d38db630", "tag": "1.27.2", "digest": "sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e"}}	2026-11-25 11:52:44.007007+00	2026-11-25 11:52:44.11058+00	00-28a0a5bcfab1db4a9a4b1e1baf733935-8ec1a711eda97e80-01
66bedbc9-ab45-4966-9ba5-5384cf54e559	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	vulnerability.detected	{"scan": {"id": "a2117902-bc06-4734-9285-fb16701f0a68", "scanner": "trivy", "scannedAt": "2026-10-15T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}, "vulnerabilities": [{"id": "CVE-2023-45853", "package": "zlib1g", "fixState": "wont-fix", "severity": "critical"}, {"id": "CVE-2024-45490", "package": "libexpat1", "fixState": "fixed", "severity": "critical"}, {"id": "CVE-2024-2236", "package": "libgcrypt20", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2024-26462", "package": "libkrb5-3", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2010-4756", "package": "libc6", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2011-3374", "package": "apt", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2023-50495", "package": "libncursesw6", "fixState": "not-fixed", "severity": "low"}]}	2026-11-25 11:52:44.035165+00	2026-11-25 11:52:44.11058+00	00-321bb35823ca0f693da911bf79b92a17-b1d8ff151a24a3a4-01
3e8d4442-ae42-405a-8f64-89cd898b09ad	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "d9607d17-3144-4de2-b44c-351abf30e00b", "scanner": "trivy", "scannedAt": "2026-09-10T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "9305de1c-4363-43db-910c-bce1d38db630", "tag": "1.27.2", "digest": "sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e"}}	2026-11-25 11:52:44.007007+00	2026-11-25 11:52:44.108926+00	00-28a0a5bcfab1db4a9a4b1e1baf733935-8ec1a711eda97e80-01
59e5bf5f-7325-4597-bb5f-ce646729be5e	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "47ecd0cb-7229-4935-b2b9-86b6dfffa671", "scanner": "trivy", "scannedAt": "2026-09-12T08:30:00Z"}, "image": {"id": "30a931ea-a0f4-49b2-ad81-f29cf318163c", "name": "postgres"}, "version": {"id": "57c750d8-4e65-4ffd-9450-b4e9776e6205", "tag": "16.5", "digest": "sha256:3a98c2cd4138771f1d8a33f90bad969e5792b13b3e5b287a1454d0812f3d8c19"}}	2026-11-25 11:52:44.088857+00	2026-11-25 11:52:44.108926+00	00-f8b59c61aac7a16d43f616ca9404ebd5-128d55934e873260-01
8577c772-cd9f-4b6f-9802-95d1638a53db	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vulnerability.detected	{"scan": {"id": "10836467-06b9-4004-9faa-ba9b11decd42", "scanner": "trivy", "scannedAt": "2026-11-02T06:00:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}, "vulnerabilities": [{"id": "CVE-2025-0395", "package": "libc6", "fixState": "fixed", "severity": "medium"}]}	2026-11-25 11:52:44.061924+00	2026-11-25 11:52:44.108926+00	00-ebe4a52653296757d1ec8bc15b28fd6d-23f48234a88a290d-01
028c58e9-5090-4c8c-a4ee-5219ad92b1c2	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vulnerability.detected	{"scan": {"id": "d9607d17-3144-4de2-b44c-351abf30e00b", "scanner": "trivy", "scannedAt": "2026-09-10T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "9305de1c-4363-43db-910c-bce1d38db630", "tag": "1.27.2", "digest": "sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e"}, "vulnerabilities": [{"id": "CVE-2023-45853", "package": "zlib1g", "fixState": "wont-fix", "severity": "critical"}, {"id": "CVE-2024-45490", "package": "libexpat1", "fixState": "fixed", "severity": "critical"}, {"id": "CVE-2024-6119", "package": "libssl3", "fixState": "fixed", "severity": "high"}, {"id": "CVE-2024-6119", "package": "openssl", "fixState": "fixed", "severity": "high"}, {"id": "CVE-2024-2236", "package": "libgcrypt20", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2010-4756", "package": "libc6", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2011-3374", "package": "apt", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2023-50495", "package": "libncursesw6", "fixState": "not-fixed", "severity": "low"}]}	2026-11-25 11:52:44.007007+00	2026-11-25 11:52:44.108926+00	00-28a0a5bcfab1db4a9a4b1e1baf733935-8ec1a711eda97e80-01
f878b439-5b1a-4796-afb2-697f34714ad3	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vulnerability.detected	{"scan": {"id": "a2117902-bc06-4734-9285-fb16701f0a68", "scanner": "trivy", "scannedAt": "2026-10-15T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}, "vulnerabilities": [{"id": "CVE-2023-45853", "package": "zlib1g", "fixState": "wont-fix", "severity": "critical"}, {"id": "CVE-2024-45490", "package": "libexpat1", "fixState": "fixed", "severity": "critical"}, {"id": "CVE-2024-2236", "package": "libgcrypt20", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2024-26462", "package": "libkrb5-3", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2010-4756", "package": "libc6", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2011-3374", "package": "apt", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2023-50495", "package": "libncursesw6", "fixState": "not-fixed", "severity": "low"}]}	2026-11-25 11:52:44.035165+00	2026-11-25 11:52:44.108926+00	00-321bb35823ca0f693da911bf79b92a17-b1d8ff151a24a3a4-01
c13fbc37-0149-42ff-a7db-7b3216a0207a	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	vulnerability.detected	{"scan": {"id": "10836467-06b9-4004-9faa-ba9b11decd42", "scanner": "trivy", "scannedAt": "2026-11-02T06:00:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}, "vulnerabilities": [{"id": "CVE-2025-0395", "package": "libc6", "fixState": "fixed", "severity": "medium"}]}	2026-11-25 11:52:44.061924+00	2026-11-25 11:52:44.11058+00	00-ebe4a52653296757d1ec8bc15b28fd6d-23f48234a88a290d-01
7047c984-90fd-444e-9ac4-f6029ff3d0dc	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	scan.completed	{"scan": {"id": "10836467-06b9-4004-9faa-ba9b11decd42", "scanner": "trivy", "scannedAt": "2026-11-02T06:00:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}}	2026-11-25 11:52:44.061924+00	2026-11-25 11:52:44.11058+00	00-ebe4a52653296757d1ec8bc15b28fd6d-23f48234a88a290d-01
646330cd-0f20-4bef-ac6b-db8a53b977a6	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vulnerability.detected	{"scan": {"id": "47ecd0cb-7229-4935-b2b9-86b6dfffa671", "scanner": "trivy", "scannedAt": "2026-09-12T08:30:00Z"}, "image": {"id": "30a931ea-a0f4-49b2-ad81-f29cf318163c", "name": "postgres"}, "version": {"id": "57c750d8-4e65-4ffd-9450-b4e9776e6205", "tag": "16.5", "digest": "sha256:3a98c2cd4138771f1d8a33f90bad969e5792b13b3e5b287a1454d0812f3d8c19"}, "vulnerabilities": [{"id": "CVE-2023-45853", "package": "zlib1g", "fixState": "wont-fix", "severity": "critical"}, {"id": "CVE-2024-2236", "package": "libgcrypt20", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2024-26462", "package": "libkrb5-3", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2010-4756", "package": "libc6", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2011-3374", "package": "apt", "fixState": "not-fixed", "severity": "low"}]}	2026-11-25 11:52:44.088857+00	2026-11-25 11:52:44.108926+00	00-f8b59c61aac7a16d43f616ca9404ebd5-128d55934e873260-01
06165580-f64f-4668-a2d1-91950c289ac5	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "10836467-06b9-4004-9faa-ba9b11decd42", "scanner": "trivy", "scannedAt": "2026-11-02T06:00:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}}	2026-11-25 11:52:44.061924+00	2026-11-25 11:52:44.108926+00	00-ebe4a52653296757d1ec8bc15b28fd6d-23f48234a88a290d-01
65d1a622-3d0b-44a6-93c2-678b153b5e3e	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "a2117902-bc06-4734-9285-fb16701f0a68", "scanner": "trivy", "scannedAt": "2026-10-15T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}}	2026-11-25 11:52:44.035165+00	2026-11-25 11:52:44.108926+00	00-321bb35823ca0f693da911bf79b92a17-b1d8ff151a24a3a4-01
dc61c94a-ccdb-4a9a-89f0-475a87550bcb	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	scan.completed	{"scan": {"id": "2b085d06-b46f-4528-97dc-54e67bdc6cb0", "scanner": "trivy", "scannedAt": "2026-09-08T08:30:00Z"}, "image": {"id": "3d69c113-a3a6-45c1-b806-16cd9417e740", "name": "redis"}, "version": {"id": "f507fe4b-08fa-4ea0-b8c4-3f0792f8df06", "tag": "7.2.6", "digest": "sha256:08ee41fa5f65f124ada02b5c54974d7e0c3794570deac85c8e74baf7854e0443"}}	2026-11-25 11:52:44.192892+00	2026-11-25 11:52:44.21283+00	00-85be9f3825a6e5b241f7cdd3484ca177-4e9e022888c5609b-01
58e7307b-2670-45b7-987b-26a0344803fa	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	vulnerability.detected	{"scan": {"id": "2b085d06-b46f-4528-97dc-54e67bdc6cb0", "scanner": "trivy", "scannedAt": "2026-09-08T08:30:00Z"}, "image": {"id": "3d69c113-a3a6-45c1-b806-16cd9417e740", "name": "redis"}, "version": {"id": "f507fe4b-08fa-4ea0-b8c4-3f0792f8df06", "tag": "7.2.6", "digest": "sha256:08ee41fa5f65f124ada02b5c54974d7e0c3794570deac85c8e74baf7854e0443"}, "vulnerabilities": [{"id": "CVE-2023-42366", "package": "busybox", "fixState": "fixed", "severity": "medium"}]}	2026-11-25 11:52:44.192892+00	2026-11-25 11:52:44.21283+00	00-85be9f3825a6e5b241f7cdd3484ca177-4e9e022888c5609b-01
c219faa4-e06b-44ae-95c8-7d99b04e6572	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "301a45c2-38cf-4036-b5d0-66a9a5f38628", "scanner": "grype", "scannedAt": "2026-10-25T08:30:00Z"}, "image": {"id": "72b5ccd8-fe12-442d-a94d-562ed648b4be", "name": "python"}, "version": {"id": "74d16d2f-c7f9-453f-9df6-8c770a05b3d8", "tag": "3.13.1", "digest": "sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39"}}	2026-11-25 11:52:44.167396+00	2026-11-25 11:52:44.212066+00	00-6ec5826cc37085986643b27955077973-51af47e15ddaf955-01
b6af65a7-a51d-41df-b146-3b0ce2280de0	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vulnerability.detected	{"scan": {"id": "301a45c2-38cf-4036-b5d0-66a9a5f38628", "scanner": "grype", "scannedAt": "2026-10-25T08:30:00Z"}, "image": {"id": "72b5ccd8-fe12-442d-a94d-562ed648b4be", "name": "python"}, "version": {"id": "74d16d2f-c7f9-453f-9df6-8c770a05b3d8", "tag": "3.13.1", "digest": "sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39"}, "vulnerabilities": [{"id": "CVE-2023-45853", "package": "zlib1g", "fixState": "wont-fix", "severity": "critical"}, {"id": "CVE-2024-2236", "package": "libgcrypt20", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2011-3374", "package": "apt", "fixState": "not-fixed", "severity": "low"}]}	2026-11-25 11:52:44.167396+00	2026-11-25 11:52:44.212066+00	00-6ec5826cc37085986643b27955077973-51af47e15ddaf955-01
006993a2-5228-4ed1-aed9-7126494001a3	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vulnerability.detected	{"scan": {"id": "17ae011d-d36b-4714-a266-dac4a17a9ae5", "scanner": "grype", "scannedAt": "2026-10-20T08:30:00Z"}, "image": {"id": "30a931ea-a0f4-49b2-ad81-f29cf318163c", "name": "postgres"}, "version": {"id": "366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba", "tag": "17.2", "digest": "sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c"}, "vulnerabilities": [{"id": "CVE-2023-45853", "package": "zlib1g", "fixState": "wont-fix", "severity": "critical"}, {"id": "CVE-2024-2236", "package": "libgcrypt20", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2010-4756", "package": "libc6", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2011-3374", "package": "apt", "fixState": "not-fixed", "severity": "low"}]}	2026-11-25 11:52:44.114822+00	2026-11-25 11:52:44.212066+00	00-fcde870298af87d64a857213409aec91-aa0d656120dbfe7b-01
d8c9ab05-fbd8-4714-bfd2-9e7f6728c8cf	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vulnerability.detected	{"scan": {"id": "f0401aa8-e2d5-470d-ae40-bbf074a22292", "scanner": "trivy", "scannedAt": "2026-09-05T08:30:00Z"}, "image": {"id": "72b5ccd8-fe12-442d-a94d-562ed648b4be", "name": "python"}, "version": {"id": "9d2ebae6-1bc9-4d48-b313-0b43550d1348", "tag": "3.12.7", "digest": "sha256:b81161c70cb5ab76f5130e03a4413ee23b0444de48fcb03f8cb27731ffc9178e"}, "vulnerabilities": [{"id": "CVE-2023-45853", "package": "zlib1g", "fixState": "wont-fix", "severity": "critical"}, {"id": "CVE-2024-6345", "package": "setuptools", "fixState": "fixed", "severity": "high"}, {"id": "CVE-2024-2236", "package": "libgcrypt20", "fixState": "not-fixed", "severity": "medium"}, {"id": "CVE-2010-4756", "package": "libc6", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2011-3374", "package": "apt", "fixState": "not-fixed", "severity": "low"}, {"id": "CVE-2023-5752", "package": "pip", "fixState": "fixed", "severity": "low"}]}	2026-11-25 11:52:44.140872+00	2026-11-25 11:52:44.212066+00	00-1feca1ae6e9221d87f4cb4382cbc4e73-f0968e519b73e218-01
dffda3c4-59bd-442d-94e0-7be1a35d06be	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "17ae011d-d36b-4714-a266-dac4a17a9ae5", "scanner": "grype", "scannedAt": "2026-10-20T08:30:00Z"}, "image": {"id": "30a931ea-a0f4-49b2-ad81-f29cf318163c", "name": "postgres"}, "version": {"id": "366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba", "tag": "17.2", "digest": "sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c"}}	2026-11-25 11:52:44.114822+00	2026-11-25 11:52:44.212066+00	00-fcde870298af87d64a857213409aec91-aa0d656120dbfe7b-01
dc1179da-22b1-4d1d-885b-32fc46de4099	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "f0401aa8-e2d5-470d-ae40-bbf074a22292", "scanner": "trivy", "scannedAt": "2026-09-05T08:30:00Z"}, "image": {"id": "72b5ccd8-fe12-442d-a94d-562ed648b4be", "name": "python"}, "version": {"id": "9d2ebae6-1bc9-4d48-b313-0b43550d1348", "tag": "3.12.7", "digest": "sha256:b81161c70cb5ab76f5130e03a4413ee23b0444de48fcb03f8cb27731ffc9178e"}}	2026-11-25 11:52:44.140872+00	2026-11-25 11:52:44.212066+00	00-1feca1ae6e9221d87f4cb4382cbc4e73-f0968e519b73e218-01
64e98d69-3f8b-4ba6-8563-0c75562e9d13	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	vex.updated	{"image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "document": {"id": "71e576e2-8a78-48a1-bd21-04c474f9ccbf", "author": "Example Hardened Images security team <security@example.test>", "format": "openvex"}, "versions": [{"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}, {"id": "9305de1c-4363-43db-910c-bce1d38db630", "tag": "1.27.2", "digest": "sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e"}], "statements": [{"status": "not_affected", "aliases": [], "version": null, "justification": "vulnerable_code_not_present", "vulnerability": "CVE-2023-45853"}, {"status": "under_investigation", "aliases": [], "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3"}, "justification": null, "vulnerability": "CVE-2024-2236"}]}	2026-11-25 11:52:44.249063+00	2026-11-25 11:52:44.314806+00	00-975f2a1c8381191aaa2bf59730b5af92-184b9986d962df8f-01
0cf2a55e-6e51-4a8d-80df-744f07a36bb3	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	scan.completed	{"scan": {"id": "4f8f53c8-1373-4d96-9f28-59b4f2d2c494", "scanner": "trivy", "scannedAt": "2026-10-18T08:30:00Z"}, "image": {"id": "3d69c113-a3a6-45c1-b806-16cd9417e740", "name": "redis"}, "version": {"id": "8da5af17-3123-40d3-b9fb-04c143cacda8", "tag": "7.4.1", "digest": "sha256:5b0a682df53a8f9dca0dfc7c2f5c2b9532da85869e7494756d31f41a23800db6"}}	2026-11-25 11:52:44.218618+00	2026-11-25 11:52:44.314806+00	00-5c2ee12fe60ea21619743fc5646e2bb8-3575577d453b6933-01
c0f6ee25-dbdf-4e28-8b66-30b75814581f	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "88f10429-9756-4e14-97ff-712214b2d46f", "scanner": "grype", "scannedAt": "2026-10-26T08:30:00Z"}, "image": {"id": "72b5ccd8-fe12-442d-a94d-562ed648b4be", "name": "python"}, "version": {"id": "74d16d2f-c7f9-453f-9df6-8c770a05b3d8", "tag": "3.13.1", "digest": "sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39"}}	2026-11-25 11:52:45.794778+00	2026-11-25 11:52:45.812991+00	00-aeb2e35d89bc0b846a502c9e3ec03c70-b58472527363df1d-01
8083ed0b-5cd6-4d3d-95ee-e91ac281f273	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "0d73d9d1-94c7-4d3d-b2a6-6d8bf7687420", "scanner": "grype", "scannedAt": "2026-10-27T08:30:00Z"}, "image": {"id": "72b5ccd8-fe12-442d-a94d-562ed648b4be", "name": "python"}, "version": {"id": "74d16d2f-c7f9-453f-9df6-8c770a05b3d8", "tag": "3.13.1", "digest": "sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39"}}	2026-11-25 11:52:45.884096+00	2026-11-25 11:52:45.914787+00	00-828c8efc3b60c2e985040cc9f6cb8568-2cc48209cecc3da6-01
9db644b9-3f6d-45ba-896c-8b70d87bd1f6	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "9a978f45-92d9-458f-a5ca-a95671a410ac", "scanner": "trivy", "scannedAt": "2026-09-04T08:30:00Z"}, "image": {"id": "72b5ccd8-fe12-442d-a94d-562ed648b4be", "name": "python"}, "version": {"id": "9d2ebae6-1bc9-4d48-b313-0b43550d1348", "tag": "3.12.7", "digest": "sha256:b81161c70cb5ab76f5130e03a4413ee23b0444de48fcb03f8cb27731ffc9178e"}}	2026-11-25 11:52:45.975944+00	2026-11-25 11:52:46.016255+00	00-932b835d039f54e2e6258c39ceefd038-0fa52c41461bd760-01
0fa3aadc-afde-4934-8be1-1ed384512a1e	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vex.updated	{"image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "document": {"id": "71e576e2-8a78-48a1-bd21-04c474f9ccbf", "author": "Example Hardened Images security team <security@example.test>", "format": "openvex"}, "versions": [{"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}, {"id": "9305de1c-4363-43db-910c-bce1d38db630", "tag": "1.27.2", "digest": "sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e"}], "statements": [{"status": "not_affected", "aliases": [], "version": null, "justification": "vulnerable_code_not_present", "vulnerability": "CVE-2023-45853"}, {"status": "under_investigation", "aliases": [], "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3"}, "justification": null, "vulnerability": "CVE-2024-2236"}]}	2026-11-25 11:52:44.249063+00	2026-11-25 11:52:44.314086+00	00-975f2a1c8381191aaa2bf59730b5af92-184b9986d962df8f-01
2be9da8b-e53e-4c33-8da8-2871d6751bc2	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "23ec1460-e9a1-47ea-8bae-48aef969cfd9", "scanner": "trivy", "scannedAt": "2026-09-11T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "9305de1c-4363-43db-910c-bce1d38db630", "tag": "1.27.2", "digest": "sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e"}}	2026-11-25 11:52:45.344615+00	2026-11-25 11:52:45.400119+00	00-f2a546347124f7eae32148020fca9a23-5780ca4a8e449eb9-01
dd37373a-9b41-4196-95d0-57b06cd4ec44	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	scan.completed	{"scan": {"id": "23ec1460-e9a1-47ea-8bae-48aef969cfd9", "scanner": "trivy", "scannedAt": "2026-09-11T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "9305de1c-4363-43db-910c-bce1d38db630", "tag": "1.27.2", "digest": "sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e"}}	2026-11-25 11:52:45.344615+00	2026-11-25 11:52:45.401074+00	00-f2a546347124f7eae32148020fca9a23-5780ca4a8e449eb9-01
69ba98a0-c934-43c6-b489-b52a4256ac6c	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "cf090e67-c427-4f87-b220-56214c0833f3", "scanner": "trivy", "scannedAt": "2026-09-12T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "9305de1c-4363-43db-910c-bce1d38db630", "tag": "1.27.2", "digest": "sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e"}}	2026-11-25 11:52:45.435326+00	2026-11-25 11:52:45.503448+00	00-93c91757fd9430e47e71238d15b2ad1b-d50b1e79c0815142-01
aac759da-c935-45f1-bcd0-edb628512b7d	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	scan.completed	{"scan": {"id": "cf090e67-c427-4f87-b220-56214c0833f3", "scanner": "trivy", "scannedAt": "2026-09-12T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "9305de1c-4363-43db-910c-bce1d38db630", "tag": "1.27.2", "digest": "sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e"}}	2026-11-25 11:52:45.435326+00	2026-11-25 11:52:45.503949+00	00-93c91757fd9430e47e71238d15b2ad1b-d50b1e79c0815142-01
f704877b-481d-4681-a047-c3a32572076c	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vulnerability.fixed	{"scan": {"id": "2860f91e-38d4-48d1-bce5-a597bb781b3a", "scanner": "trivy", "scannedAt": "2026-11-04T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}, "vulnerabilities": [{"id": "CVE-2025-0395", "package": "libc6", "fixState": "fixed", "severity": "medium"}]}	2026-11-25 11:52:45.525311+00	2026-11-25 11:52:45.609146+00	00-19818054002b3787899cc0ba23223d0a-3826a8d11d717840-01
b19638e5-da69-43d1-a933-342e59b112d0	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "2860f91e-38d4-48d1-bce5-a597bb781b3a", "scanner": "trivy", "scannedAt": "2026-11-04T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}}	2026-11-25 11:52:45.525311+00	2026-11-25 11:52:45.609146+00	00-19818054002b3787899cc0ba23223d0a-3826a8d11d717840-01
2348f5d3-082b-4ade-82f9-a0f9009f7ee8	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	scan.completed	{"scan": {"id": "2860f91e-38d4-48d1-bce5-a597bb781b3a", "scanner": "trivy", "scannedAt": "2026-11-04T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}}	2026-11-25 11:52:45.525311+00	2026-11-25 11:52:45.610033+00	00-19818054002b3787899cc0ba23223d0a-3826a8d11d717840-01
6c580a1d-1685-4747-944a-447b9bb18f18	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	vulnerability.fixed	{"scan": {"id": "2860f91e-38d4-48d1-bce5-a597bb781b3a", "scanner": "trivy", "scannedAt": "2026-11-04T08:30:00Z"}, "image": {"id": "ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad", "name": "nginx"}, "version": {"id": "ecf31f80-ea88-4795-bc16-ac392ade6736", "tag": "1.27.3", "digest": "sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c"}, "vulnerabilities": [{"id": "CVE-2025-0395", "package": "libc6", "fixState": "fixed", "severity": "medium"}]}	2026-11-25 11:52:45.525311+00	2026-11-25 11:52:45.610033+00	00-19818054002b3787899cc0ba23223d0a-3826a8d11d717840-01
e77ca407-2d26-4e8a-ad0c-02e01493c9cb	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vulnerability.fixed	{"scan": {"id": "465bdf63-2a57-4829-85fc-1b28fbf634d7", "scanner": "grype", "scannedAt": "2026-10-21T08:30:00Z"}, "image": {"id": "30a931ea-a0f4-49b2-ad81-f29cf318163c", "name": "postgres"}, "version": {"id": "366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba", "tag": "17.2", "digest": "sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c"}, "vulnerabilities": [{"id": "CVE-2011-3374", "package": "apt", "fixState": "not-fixed", "severity": "low"}]}	2026-11-25 11:52:45.6175+00	2026-11-25 11:52:45.711048+00	00-abf8c03976a2e6a4f50843f610648c67-9e6b367b71fa2deb-01
e7b3387a-fe0b-4f34-b39e-ccb787730f38	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "465bdf63-2a57-4829-85fc-1b28fbf634d7", "scanner": "grype", "scannedAt": "2026-10-21T08:30:00Z"}, "image": {"id": "30a931ea-a0f4-49b2-ad81-f29cf318163c", "name": "postgres"}, "version": {"id": "366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba", "tag": "17.2", "digest": "sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c"}}	2026-11-25 11:52:45.6175+00	2026-11-25 11:52:45.711048+00	00-abf8c03976a2e6a4f50843f610648c67-9e6b367b71fa2deb-01
736209b0-3f15-470f-8dc9-a6fb092e39ec	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	scan.completed	{"scan": {"id": "7d62cbc4-5490-4746-bf7a-6e055503f2ed", "scanner": "grype", "scannedAt": "2026-10-22T08:30:00Z"}, "image": {"id": "30a931ea-a0f4-49b2-ad81-f29cf318163c", "name": "postgres"}, "version": {"id": "366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba", "tag": "17.2", "digest": "sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c"}}	2026-11-25 11:52:45.705825+00	2026-11-25 11:52:45.812991+00	00-44be42cb4e26676534a82b38efaab9d7-7e33d279a8fdb598-01
e691ba8d-de5d-4997-bb52-56fd8b4b1f45	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	scan.completed	{"scan": {"id": "cbf7fc23-2900-4b8b-bf83-1a5657ada01e", "scanner": "trivy", "scannedAt": "2026-10-19T08:30:00Z"}, "image": {"id": "3d69c113-a3a6-45c1-b806-16cd9417e740", "name": "redis"}, "version": {"id": "8da5af17-3123-40d3-b9fb-04c143cacda8", "tag": "7.4.1", "digest": "sha256:5b0a682df53a8f9dca0dfc7c2f5c2b9532da85869e7494756d31f41a23800db6"}}	2026-11-25 11:52:46.066149+00	2026-11-25 11:52:46.117767+00	00-02e8a65923365645f759325b65ed1c2f-82ff51c60b4feee5-01
1f85cdd7-0078-4352-b887-d4fd331fbd51	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	vex.updated	{"image": {"id": "72b5ccd8-fe12-442d-a94d-562ed648b4be", "name": "python"}, "document": {"id": "758738f0-b0ac-4ff7-a8c7-18c4fee7f1de", "author": "Example Hardened Images security team <security@example.test>", "format": "openvex"}, "versions": [{"id": "74d16d2f-c7f9-453f-9df6-8c770a05b3d8", "tag": "3.13.1", "digest": "sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39"}, {"id": "9d2ebae6-1bc9-4d48-b313-0b43550d1348", "tag": "3.12.7", "digest": "sha256:b81161c70cb5ab76f5130e03a4413ee23b0444de48fcb03f8cb27731ffc9178e"}], "statements": [{"status": "not_affected", "aliases": [], "version": null, "justification": "vulnerable_code_not_in_execute_path", "vulnerability": "CVE-2024-2236"}]}	2026-11-25 11:52:46.171222+00	2026-11-25 11:52:46.220571+00	00-7ef623d1e6924fb1b3454391fdd181db-dfcd11b5a7d46a51-01
18a64211-f9bc-43f8-a636-7c799584e049	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	scan.completed	{"scan": {"id": "fa6ae021-895a-4b46-9497-aa35c5964ef6", "scanner": "trivy", "scannedAt": "2026-09-09T08:30:00Z"}, "image": {"id": "3d69c113-a3a6-45c1-b806-16cd9417e740", "name": "redis"}, "version": {"id": "f507fe4b-08fa-4ea0-b8c4-3f0792f8df06", "tag": "7.2.6", "digest": "sha256:08ee41fa5f65f124ada02b5c54974d7e0c3794570deac85c8e74baf7854e0443"}}	2026-11-25 11:52:46.150962+00	2026-11-25 11:52:46.221046+00	00-63ebf92113e667884b3865641e67b40e-509e8af368e59811-01
\.


--
-- Data for Name: feature_requests; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.feature_requests (id, tenant_id, type, title, description, image_id, cve_id, package_name, status, created_by, created_at, updated_at) FROM stdin;
d3a9f9b6-35c4-4c72-b19c-ed0a8edb5e7e	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	bug	Rescans	Keep every scan.	\N	\N	\N	open	7daa63d9-52df-4bee-bf06-a90cb233068a	2026-11-25 11:52:45.254975+00	2026-11-25 11:52:45.254975+00
\.


--
-- Data for Name: image_versions; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.image_versions (id, image_id, tag, digest, size_bytes, base_os, hardening_tags, published_at, latest_scan_id, created_at) FROM stdin;
57c750d8-4e65-4ffd-9450-b4e9776e6205	30a931ea-a0f4-49b2-ad81-f29cf318163c	16.5	sha256:3a98c2cd4138771f1d8a33f90bad969e5792b13b3e5b287a1454d0812f3d8c19	151519232	Debian 12	{fips,non-root}	2026-09-12 09:00:00+00	47ecd0cb-7229-4935-b2b9-86b6dfffa671	2026-11-25 11:52:44.088857+00
9d2ebae6-1bc9-4d48-b313-0b43550d1348	72b5ccd8-fe12-442d-a94d-562ed648b4be	3.12.7	sha256:b81161c70cb5ab76f5130e03a4413ee23b0444de48fcb03f8cb27731ffc9178e	54525952	Debian 12	{fips,non-root}	2026-09-05 09:00:00+00	f0401aa8-e2d5-470d-ae40-bbf074a22292	2026-11-25 11:52:44.140872+00
9305de1c-4363-43db-910c-bce1d38db630	ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad	1.27.2	sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e	48213504	Debian 12	{fips,non-root}	2026-09-10 09:00:00+00	cf090e67-c427-4f87-b220-56214c0833f3	2026-11-25 11:52:44.007007+00
8da5af17-3123-40d3-b9fb-04c143cacda8	3d69c113-a3a6-45c1-b806-16cd9417e740	7.4.1	sha256:5b0a682df53a8f9dca0dfc7c2f5c2b9532da85869e7494756d31f41a23800db6	32505856	Alpine 3.20	{fips,non-root}	2026-10-18 09:00:00+00	cbf7fc23-2900-4b8b-bf83-1a5657ada01e	2026-11-25 11:52:44.218618+00
ecf31f80-ea88-4795-bc16-ac392ade6736	ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad	1.27.3	sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c	48771072	Debian 12	{fips,non-root}	2026-10-15 09:00:00+00	2860f91e-38d4-48d1-bce5-a597bb781b3a	2026-11-25 11:52:44.035165+00
f507fe4b-08fa-4ea0-b8c4-3f0792f8df06	3d69c113-a3a6-45c1-b806-16cd9417e740	7.2.6	sha256:08ee41fa5f65f124ada02b5c54974d7e0c3794570deac85c8e74baf7854e0443	31457280	Alpine 3.20	{fips,non-root}	2026-09-08 09:00:00+00	fa6ae021-895a-4b46-9497-aa35c5964ef6	2026-11-25 11:52:44.192892+00
366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba	30a931ea-a0f4-49b2-ad81-f29cf318163c	17.2	sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c	158334976	Debian 12	{fips,non-root}	2026-10-20 09:00:00+00	7d62cbc4-5490-4746-bf7a-6e055503f2ed	2026-11-25 11:52:44.114822+00
8e39030e-bdb1-46f3-81a1-ed5153c7e9bb	30a931ea-a0f4-49b2-ad81-f29cf318163c	15.10	sha256:dce85778cb270f26d73bf28e030066ee6b0f7e54d302dda6f8d4ca21bd7e5d1e	150994944	\N	{}	2026-08-01 09:00:00+00	\N	2026-11-25 11:52:46.20128+00
74d16d2f-c7f9-453f-9df6-8c770a05b3d8	72b5ccd8-fe12-442d-a94d-562ed648b4be	3.13.1	sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39	56623104	Debian 12	{fips,non-root}	2026-10-25 09:00:00+00	0d73d9d1-94c7-4d3d-b2a6-6d8bf7687420	2026-11-25 11:52:44.167396+00
\.


--
-- Data for Name: images; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.images (id, name, description, base_os, repository, latest_version_id, created_at) FROM stdin;
ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad	nginx	NGINX web server and reverse proxy, hardened	Debian 12	registry.example.test/hardened/nginx	ecf31f80-ea88-4795-bc16-ac392ade6736	2026-11-25 11:52:43.914889+00
72b5ccd8-fe12-442d-a94d-562ed648b4be	python	Python runtime, minimal and hardened	Debian 12	registry.example.test/hardened/python	74d16d2f-c7f9-453f-9df6-8c770a05b3d8	2026-11-25 11:52:43.933619+00
3d69c113-a3a6-45c1-b806-16cd9417e740	redis	Redis in-memory data store, hardened	Alpine 3.20	registry.example.test/hardened/redis	8da5af17-3123-40d3-b9fb-04c143cacda8	2026-11-25 11:52:43.943508+00
30a931ea-a0f4-49b2-ad81-f29cf318163c	postgres	PostgreSQL database server, hardened	Debian 12	registry.example.test/hardened/postgres	366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba	2026-11-25 11:52:43.92426+00
\.


--
-- Data for Name: licenses; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.licenses (tenant_id, image_id, granted_at) FROM stdin;
1fb2b739-eeef-499a-a9f4-fd605ebb7e21	ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad	2026-11-25 11:52:43.95393+00
1fb2b739-eeef-499a-a9f4-fd605ebb7e21	30a931ea-a0f4-49b2-ad81-f29cf318163c	2026-11-25 11:52:43.963707+00
1fb2b739-eeef-499a-a9f4-fd605ebb7e21	72b5ccd8-fe12-442d-a94d-562ed648b4be	2026-11-25 11:52:43.97337+00
f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad	2026-11-25 11:52:43.981549+00
f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	3d69c113-a3a6-45c1-b806-16cd9417e740	2026-11-25 11:52:43.989931+00
\.


--
-- Data for Name: refresh_tokens; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.refresh_tokens (id, tenant_id, user_id, family_id, token_hash, created_at, expires_at, used_at, revoked_at) FROM stdin;
1a968cf1-1004-4832-9b00-dc9bcfb78bff	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	7daa63d9-52df-4bee-bf06-a90cb233068a	d8ee131f-2cf0-4b22-9563-3680693508d3	\\x871a6fe642a3df8cb15843c4e26d2dd066e3ee4d7a9293f580652054b672a9aa	2026-11-25 11:52:44.865913+00	2026-12-25 11:52:44.865913+00	\N	\N
d02cbffe-18e5-4301-aae4-e7c0f9ca4c01	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	a8b6e204-5147-46f0-a198-134099c03808	27113a70-3975-4adb-9ffb-8d6b0b8732b8	\\x75d7d268f6884ca5b89aa31686a56288e04b5f971aadba8db1d69ade74f120a6	2026-11-25 11:52:45.170242+00	2026-12-25 11:52:45.170242+00	\N	\N
\.


--
-- Data for Name: sboms; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.sboms (id, scan_id, format, spec_version, sha256, size_bytes, tool_name, tool_version, signature, signing_key_id, created_at, completeness) FROM stdin;
75381069-8e2c-4974-83a6-da0b6e044bf4	d9607d17-3144-4de2-b44c-351abf30e00b	cyclonedx	1.5	4a8715e5c45ec93a708ce4b893e0198b2ec9886f382caec13db9cdf7f9a0387d	8718	trivy	0.55.2	ki7HYrHS8tOnf4V1eOI921JfPrWceVceKRRJgIXAdN0lQApfBuxTH4w9q4fg73fR1VXu2KtAPonC6FWyScBWDg==	a7a8198cd10c272c	2026-11-25 11:52:44.007007+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":2,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e","meetsRule3":false,"shortfalls":["the dependency graph leaves out 8 of 10 packages"]}
775ce3c6-2f1f-4a33-a761-7f04642e9921	d9607d17-3144-4de2-b44c-351abf30e00b	spdx	2.3	3446e526302872923ac57055e502f51cdfe5ea73198507c5663fa0fcf7188bef	13195	trivy	0.55.2	MaYe2ZVJ4DHy2i0p96KtnyZm5Wdo4Nu3c/KB+D7kwHkbuvHwQ0PRKwm+YNQuDhNrI7AZvuvj8lFUV1PsAaUiDA==	a7a8198cd10c272c	2026-11-25 11:52:44.007007+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":10,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e","meetsRule3":true,"shortfalls":[]}
503ce727-a1ba-4147-aab9-61677f4934c7	a2117902-bc06-4734-9285-fb16701f0a68	cyclonedx	1.5	ba77ddfcac0d9354a1c94381741909eced2fb94b618f316ed6ef2078b35f6707	8718	trivy	0.55.2	3524pOYRLPlcg835hjnqjD5xdWi1O3NHlB1sQEBHX7BVSG6qbhEpvam4+UtJte+0zDBIa2Kh/d0Vt0eocwzABg==	a7a8198cd10c272c	2026-11-25 11:52:44.035165+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":2,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c","meetsRule3":false,"shortfalls":["the dependency graph leaves out 8 of 10 packages"]}
24bb614f-e6e4-40b0-8bac-b9c2787cc49d	a2117902-bc06-4734-9285-fb16701f0a68	spdx	2.3	546a31d7e76df441d7393a394e3efa042d3f0e5105f7a5c4a237d77f3172db47	13195	trivy	0.55.2	5UlfGIji1ATWYSNHTIWTdaugbEw7KnUvbZGGiIp9XMSAZUxdFJ0alrNXhakGfKOuOwVjkurwNb76U68ExyztDw==	a7a8198cd10c272c	2026-11-25 11:52:44.035165+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":10,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c","meetsRule3":true,"shortfalls":[]}
99e40b55-4cc0-4acf-ae0c-cbbcb6a5870e	10836467-06b9-4004-9faa-ba9b11decd42	cyclonedx	1.5	8a0f1838fd31255983ca06bcbb696533e47863389d512f298cb89a27b3ab0e02	8718	trivy	0.55.2	Dao6bLVwEIm4N2iHctaNFJ+IQrWsK+PPPUt6KYvt2P3TsNjpCNzIdmX0MUFXCsFoC2wNHIE5O6VUbnVb0+c8DA==	a7a8198cd10c272c	2026-11-25 11:52:44.061924+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":2,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c","meetsRule3":false,"shortfalls":["the dependency graph leaves out 8 of 10 packages"]}
ec1d1d79-67cd-4e9e-b799-9fbba65e890e	10836467-06b9-4004-9faa-ba9b11decd42	spdx	2.3	9cfe44ae58ea92d01bff8775fb7b71ecf0bc0a8bc08ab7e441c3d34ecdd5c87b	13195	trivy	0.55.2	1C6a3qDWkReu4uz9k/ThLbLhn3qrLpJQdiSYINwXzdmQXk1zMb0ngPLHxNRbIAWFuMY3Rw6Cd5MtzDlF8nQoBg==	a7a8198cd10c272c	2026-11-25 11:52:44.061924+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":10,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c","meetsRule3":true,"shortfalls":[]}
77987f43-ddce-4df0-947c-eaa112a0180d	47ecd0cb-7229-4935-b2b9-86b6dfffa671	cyclonedx	1.5	7371b5ea1e6a9ccef5f76878647633138bd111e8da7c26186516f82775ef1454	8729	trivy	0.55.2	Br+W/HfkGJaddsF4INKhjbf9gZkEdXrLbissLYxoMHPysEvZWvf8IR0kjH+o9vWvnpO2ShlHFAXpLziKuW+UDA==	a7a8198cd10c272c	2026-11-25 11:52:44.088857+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":2,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:3a98c2cd4138771f1d8a33f90bad969e5792b13b3e5b287a1454d0812f3d8c19","meetsRule3":false,"shortfalls":["the dependency graph leaves out 8 of 10 packages"]}
0ece9fb1-c6e0-4fc1-9057-0fe87b441323	47ecd0cb-7229-4935-b2b9-86b6dfffa671	spdx	2.3	f85cf52eeb0d14abd91be10b89a365aab69506916c6c2290e2f9b70baeedae74	13208	trivy	0.55.2	7PY2u+pgy0q9SUA5cL5oM7uLZwfPPJ/DW6y2gsLfkW/JAuXo0p26YReaZ1KByz8/n5JdIPh+dPXgkjqCyY2dCQ==	a7a8198cd10c272c	2026-11-25 11:52:44.088857+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":10,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:3a98c2cd4138771f1d8a33f90bad969e5792b13b3e5b287a1454d0812f3d8c19","meetsRule3":true,"shortfalls":[]}
cf38f713-ee03-4264-abab-87e8aa73bc17	17ae011d-d36b-4714-a266-dac4a17a9ae5	cyclonedx	1.5	5ec2ffd67d01295b27a11bc7675492d8b0df1dbcd094f8a4af92fa4f476c117c	8723	syft	1.14.1	YKjP5mY26M+HDI6878yumJUN72Ex5hu4q0vSniIOFRkZrXInRNCZrvHMK7mZppqmTYtVPpccuFPEjunU7kflCg==	a7a8198cd10c272c	2026-11-25 11:52:44.114822+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":2,"relationships":13,"spdxLicenses":10,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c","meetsRule3":false,"shortfalls":["the dependency graph leaves out 8 of 10 packages"]}
4a6e1b35-28a1-4192-b516-170f21cab7d7	17ae011d-d36b-4714-a266-dac4a17a9ae5	spdx	2.3	c29b4b4bb477837eb5c576a3eec86861b93fb87e4c5f92cc9a70ea4a182f2451	13201	syft	1.14.1	RRa85dOZKOhquPgg06Ud2oGOYtodihq0gQYrz+1/S9E+v4fxmaEqUaXXTp0U5NAFbibYWdRQh38Q7L4HZm24Aw==	a7a8198cd10c272c	2026-11-25 11:52:44.114822+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":10,"relationships":13,"spdxLicenses":10,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c","meetsRule3":true,"shortfalls":[]}
85aed504-86fb-4019-95a8-129942f975f8	f0401aa8-e2d5-470d-ae40-bbf074a22292	cyclonedx	1.5	fc5c273b2f0215833a943ffa83cd7c38bca587c0e9dfc0fdec1eddc43a1fd389	9679	trivy	0.55.2	/mHe0kPhHHi0dFFf/IVRcSvXxsiZ3ZKuLArXkA8OzhHxAJgvAbcXbA5wn5bC47QqTQKtJQrpuLMtlDdirneZCA==	a7a8198cd10c272c	2026-11-25 11:52:44.140872+00	{"packages":12,"packageKinds":{"os":10,"python":2},"exactVersions":12,"checksums":12,"inDependencyGraph":2,"relationships":15,"spdxLicenses":12,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:b81161c70cb5ab76f5130e03a4413ee23b0444de48fcb03f8cb27731ffc9178e","meetsRule3":false,"shortfalls":["the dependency graph leaves out 10 of 12 packages"]}
ec5cf795-a9f7-4d7a-a3de-1e5b12033e52	f0401aa8-e2d5-470d-ae40-bbf074a22292	spdx	2.3	0f00b2dc40b4e7cacd09c67a301610d79848d3a80687b44eafeeae696057f0a4	14946	trivy	0.55.2	fjsw95bj+AdM6/DL+wJnWYdrsSyN9QwOAAhX+fBjWvm5WJHSOUuZBxLPGSGWXkkwpMZjZXlzKgoGNJizrqOpCg==	a7a8198cd10c272c	2026-11-25 11:52:44.140872+00	{"packages":12,"packageKinds":{"os":10,"python":2},"exactVersions":12,"checksums":12,"inDependencyGraph":12,"relationships":15,"spdxLicenses":12,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:b81161c70cb5ab76f5130e03a4413ee23b0444de48fcb03f8cb27731ffc9178e","meetsRule3":true,"shortfalls":[]}
bf649dfc-26d5-479e-b5da-a9377b381a04	301a45c2-38cf-4036-b5d0-66a9a5f38628	cyclonedx	1.5	052c7e992be64d31f51b502aa628c3c7681f69090ce2eb1573f7a8000bae20cf	9673	syft	1.14.1	v3CcQ7cQyb41oTbCAET/BShPgmjxSXhu9UVGroo0xsFQyFu+bM7n28wzWqEnVJCN6QG/KlCo/tWuAVAgjnh8BA==	a7a8198cd10c272c	2026-11-25 11:52:44.167396+00	{"packages":12,"packageKinds":{"os":10,"python":2},"exactVersions":12,"checksums":12,"inDependencyGraph":2,"relationships":15,"spdxLicenses":12,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39","meetsRule3":false,"shortfalls":["the dependency graph leaves out 10 of 12 packages"]}
21127034-5b47-41f8-8ca4-5da03bbb25bb	301a45c2-38cf-4036-b5d0-66a9a5f38628	spdx	2.3	e86c5da05ed94853936272520b4e85f7bc693d3b95d023fb0e5b92d4a4615e79	14939	syft	1.14.1	pfdJsbZ6rCQ+vrQF7Otazdp/PVzt9M1iowF6V/RmYL8ykQWtMuFEbvkf8gOvUDKLvb6EAwaL5s2oB1hXa2NcCw==	a7a8198cd10c272c	2026-11-25 11:52:44.167396+00	{"packages":12,"packageKinds":{"os":10,"python":2},"exactVersions":12,"checksums":12,"inDependencyGraph":12,"relationships":15,"spdxLicenses":12,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39","meetsRule3":true,"shortfalls":[]}
d9c99e59-17e2-4027-b4ce-22f03cd0ed12	2b085d06-b46f-4528-97dc-54e67bdc6cb0	cyclonedx	1.5	37de070e6f052cd44c0a32415afe36d7b374618e50b4a61d7950c2114eda1714	5230	trivy	0.55.2	zqO3ssmgCTFAZPipvpUTyDMBJqa3D1wh/R1aa6CFkJbZ1MfRDkapZTln1d+FisboRBacAOm5l4a4tJjfTqkIBg==	a7a8198cd10c272c	2026-11-25 11:52:44.192892+00	{"packages":5,"packageKinds":{"os":5},"exactVersions":5,"checksums":5,"inDependencyGraph":1,"relationships":7,"spdxLicenses":5,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:08ee41fa5f65f124ada02b5c54974d7e0c3794570deac85c8e74baf7854e0443","meetsRule3":false,"shortfalls":["the dependency graph leaves out 4 of 5 packages"]}
d4cda8f7-29ac-4c4e-94b4-e2507ed15b24	2b085d06-b46f-4528-97dc-54e67bdc6cb0	spdx	2.3	bbfb10fa02a856852511a34fe29ed8d0ea9b1f4308250b270085fefea5947b7b	8335	trivy	0.55.2	9UcZcuwXJmDV9/s4dEwoRaZvK4yThmAwv208BPWFA0XHQDpmfLyNphoIPfD/gNceaK52Dz8mh8QN9SPb5Zq8Bw==	a7a8198cd10c272c	2026-11-25 11:52:44.192892+00	{"packages":5,"packageKinds":{"os":5},"exactVersions":5,"checksums":5,"inDependencyGraph":5,"relationships":8,"spdxLicenses":5,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:08ee41fa5f65f124ada02b5c54974d7e0c3794570deac85c8e74baf7854e0443","meetsRule3":true,"shortfalls":[]}
63c635b9-713a-4679-8991-a802026d489e	4f8f53c8-1373-4d96-9f28-59b4f2d2c494	cyclonedx	1.5	3f96536aa6c91dba3493f41870aab10c0bcd39680ec9224587854bcfc6cede31	5230	trivy	0.55.2	I3GIJwzEysgboAoLQ4+E4jWbYNU3rn5cs50gIsbU908gnxxAmxnGb8ID67LnKI+V0A4ELp3cgMX6c8oEJNyfBg==	a7a8198cd10c272c	2026-11-25 11:52:44.218618+00	{"packages":5,"packageKinds":{"os":5},"exactVersions":5,"checksums":5,"inDependencyGraph":1,"relationships":7,"spdxLicenses":5,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:5b0a682df53a8f9dca0dfc7c2f5c2b9532da85869e7494756d31f41a23800db6","meetsRule3":false,"shortfalls":["the dependency graph leaves out 4 of 5 packages"]}
77016561-1af8-448c-9973-9ba857df108b	4f8f53c8-1373-4d96-9f28-59b4f2d2c494	spdx	2.3	d6c5672509bd450be98c13477dff656b0a399699e4060ce8b7e2e75fcc849744	8335	trivy	0.55.2	cqCSOEL3X4x4SfwvNJy8xV+7v2AKul2UqZmFuoamAz0++uJXYLsAMnQlVCX9Eo54IZCJL8rZZHol304d2IE3Cg==	a7a8198cd10c272c	2026-11-25 11:52:44.218618+00	{"packages":5,"packageKinds":{"os":5},"exactVersions":5,"checksums":5,"inDependencyGraph":5,"relationships":8,"spdxLicenses":5,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:5b0a682df53a8f9dca0dfc7c2f5c2b9532da85869e7494756d31f41a23800db6","meetsRule3":true,"shortfalls":[]}
639c8cb5-3fc1-49c3-9a5e-795ae6e3d8c8	23ec1460-e9a1-47ea-8bae-48aef969cfd9	cyclonedx	1.5	ee6524ebcc22dad4e8d6bfb66f139088864fa9c4524a6d2588669e4332198831	8713	trivy	0.55.2	AkFyf6JKUkn5YkhCa4ceu/Mfjdrr1vtUQQmZ+CyM6GeQuPwgVoEqiWvCPXqeyO9w5u1dbLxoEuYD1KCQzhaAAw==	a7a8198cd10c272c	2026-11-25 11:52:45.344615+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":2,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e","meetsRule3":false,"shortfalls":["the dependency graph leaves out 8 of 10 packages"]}
54681d26-2b27-4a5e-9c04-3bb6554dda3f	23ec1460-e9a1-47ea-8bae-48aef969cfd9	spdx	2.3	55cdc1743427c34547f9ced709c2126c0a3ab29f8101662098b77883eb2800ab	13195	trivy	0.55.2	yKtPOctXqedYbOYRxEvtXZlRNstJZ7ywxPIfbvRO2G8wvUKZfAIjHLME2ECuZtrSDp6XEDW/jcm8bXcuzV08DQ==	a7a8198cd10c272c	2026-11-25 11:52:45.344615+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":10,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e","meetsRule3":true,"shortfalls":[]}
53a98307-450d-4684-828a-ca3620c857ee	cf090e67-c427-4f87-b220-56214c0833f3	cyclonedx	1.5	ea37a0644f9e844147e175aa9d49800c441606be73f7b7c5a841d548361d2d55	8713	trivy	0.55.2	CsmVBOwhCx1PqW92sF9bSbZiQxouTTG36Pioa81EAmOlc4Zv7XtzTs8dfit+HOaSHTFGE+dMyerlGo7ho8qaBg==	a7a8198cd10c272c	2026-11-25 11:52:45.435326+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":2,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e","meetsRule3":false,"shortfalls":["the dependency graph leaves out 8 of 10 packages"]}
ccf4492c-fee5-4e3e-a342-c7aed940f549	cf090e67-c427-4f87-b220-56214c0833f3	spdx	2.3	21ed14412586f8cbcd29a5e2a06b89ff05f63b1d9f164814c325de264f33d9b2	13195	trivy	0.55.2	TWeCtoKIGBOMJy5VoC2QRFQunfBiJAEMm+ae4VmE4S9TOpHHzQHEEH0xEkaCx6qsPIngpoVmMBIeTYfSHpDhAw==	a7a8198cd10c272c	2026-11-25 11:52:45.435326+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":10,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:33c61f0eaa54be63a712d13cd372bb20216a8d74fdad83878581ec48fa3f8e9e","meetsRule3":true,"shortfalls":[]}
a15a7100-b579-497c-9c68-8251dd7b8483	2860f91e-38d4-48d1-bce5-a597bb781b3a	cyclonedx	1.5	410c16bdcd619fd7cd857544725f4a416fca2e98050f67278903b04f61b327d4	8713	trivy	0.55.2	BA/zJbN5e3R4V+/zgljSTTWmWgV3nPXUJpoAEiY7zE+2Kw+7VAxlcChQjxpSlNse5Zfmmryfjh5muVzXIEiuBw==	a7a8198cd10c272c	2026-11-25 11:52:45.525311+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":2,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c","meetsRule3":false,"shortfalls":["the dependency graph leaves out 8 of 10 packages"]}
490d2086-fd51-43cd-be1e-4fa485ab7456	2860f91e-38d4-48d1-bce5-a597bb781b3a	spdx	2.3	74c4889716964dc7d0826b1156155136d5771c7a937bbb171734afda3a9c2291	13195	trivy	0.55.2	NInIjBg0wMZqssfK3wCOIitZdbVXlpRzhwq9hWY7HgFRha7aeDvKloy/pZwP00aTcB159yp8dvObBqxqcN0yAg==	a7a8198cd10c272c	2026-11-25 11:52:45.525311+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":10,"relationships":13,"spdxLicenses":10,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c","meetsRule3":true,"shortfalls":[]}
b27ce7f6-ecd4-4ac8-8b00-dfd1082bd31f	465bdf63-2a57-4829-85fc-1b28fbf634d7	cyclonedx	1.5	5f1713d92e7f4e242b648700acb17db869fd403c1336e7c3b4ff07e251f60609	8718	syft	1.14.1	LqxPa4dsy4pRwQKx+sphsOlHt08szfa45u4YAuCY730YJKgowGdayPTzfCN8L6OYdSv0fZwfOQNdI2yHE9ZUDQ==	a7a8198cd10c272c	2026-11-25 11:52:45.6175+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":2,"relationships":13,"spdxLicenses":10,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c","meetsRule3":false,"shortfalls":["the dependency graph leaves out 8 of 10 packages"]}
39b7e570-5d44-44ec-b12d-bd2b1d75782e	465bdf63-2a57-4829-85fc-1b28fbf634d7	spdx	2.3	24ec17ebc02ff57187261ba9ba0d2957221a1c53e61d48927131222b504d2cb6	13201	syft	1.14.1	cktDFX3tlwPAZ310zqJbezjeA4V3YWjiXAf8Kd8oNQbHIVBJhblrWecgld85r50oMw7sAZhLTqLEVZSfMDgHDA==	a7a8198cd10c272c	2026-11-25 11:52:45.6175+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":10,"relationships":13,"spdxLicenses":10,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c","meetsRule3":true,"shortfalls":[]}
e1a97b86-6a78-4663-a9f4-b6606830b370	7d62cbc4-5490-4746-bf7a-6e055503f2ed	cyclonedx	1.5	060f6f730d91e10ee644e7475319ef6ad2f22fb86c6eae8640930c87ef7e9839	8718	syft	1.14.1	ehkTrp6nmQvd4uA1CU9flt0a0s/lbb8qqqYUcLCRwWt8iAIqpsAfa5nPT1tjj5zjubf3QEwcQSA+o3TjHZLnDg==	a7a8198cd10c272c	2026-11-25 11:52:45.705825+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":2,"relationships":13,"spdxLicenses":10,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c","meetsRule3":false,"shortfalls":["the dependency graph leaves out 8 of 10 packages"]}
df4914e3-b1a9-4138-9c19-e37ad4db84e1	7d62cbc4-5490-4746-bf7a-6e055503f2ed	spdx	2.3	22bb6afe40997e5e2647ca05f9b9c92db3bccb9ca52bffe79621a84ff7dbb811	13201	syft	1.14.1	9dwV/3LhDGO64roidQFP6AMmyf/jYzaJzajw5fB1RsGvx2HlfIpu7k/8QicacRSHfMB8LvGAKniEbVvwppoQCQ==	a7a8198cd10c272c	2026-11-25 11:52:45.705825+00	{"packages":10,"packageKinds":{"os":10},"exactVersions":10,"checksums":10,"inDependencyGraph":10,"relationships":13,"spdxLicenses":10,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:ec244f82317e115087687a3725e2cdb76f8a038d5a500a90e4680d47707b675c","meetsRule3":true,"shortfalls":[]}
d72f5385-555d-42bf-b841-61c0f6b0e03f	88f10429-9756-4e14-97ff-712214b2d46f	cyclonedx	1.5	ff897e93963f230ab0ffaa429e114ef535b530930299bd88e8b37c4b3b17131a	9668	syft	1.14.1	xwVIF4rCNCL6Mc5XMijRAN8dXIAcLQIHIW68w0sqkFcHoTCRqzmDPLbhesYjsoys9pCUlsPS0komPGvIvRK/Dw==	a7a8198cd10c272c	2026-11-25 11:52:45.794778+00	{"packages":12,"packageKinds":{"os":10,"python":2},"exactVersions":12,"checksums":12,"inDependencyGraph":2,"relationships":15,"spdxLicenses":12,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39","meetsRule3":false,"shortfalls":["the dependency graph leaves out 10 of 12 packages"]}
2990a270-9139-4686-92e2-4b618d5c9558	88f10429-9756-4e14-97ff-712214b2d46f	spdx	2.3	3f9a75d7bcbabdc9b8e0a0e8bb8b11e63a12c2623a50d5442ce6721eb02d9dac	14939	syft	1.14.1	PsG8+5knZWIwNPF+tq6+jix9pEJgDkSoMcAY5vK+ciM55Bf5dn3qb6L1hGxIEku0RtxjAqkqi1F1r77zdtyxCA==	a7a8198cd10c272c	2026-11-25 11:52:45.794778+00	{"packages":12,"packageKinds":{"os":10,"python":2},"exactVersions":12,"checksums":12,"inDependencyGraph":12,"relationships":15,"spdxLicenses":12,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39","meetsRule3":true,"shortfalls":[]}
d38cc2cc-80e9-4877-a57e-c67cf76b41fe	0d73d9d1-94c7-4d3d-b2a6-6d8bf7687420	cyclonedx	1.5	5362ad49d0bc58d1621a605c8d818e82299320e50f334f07c6e8dc6425d826dc	9668	syft	1.14.1	3S8SnJSTt0em/14THJlO87c32iG8SkrASvOhIkNUrgCjruuzZRxMh2WfWeBmzOEM1wI1+n2VOQAKbVxzFPybDw==	a7a8198cd10c272c	2026-11-25 11:52:45.884096+00	{"packages":12,"packageKinds":{"os":10,"python":2},"exactVersions":12,"checksums":12,"inDependencyGraph":2,"relationships":15,"spdxLicenses":12,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39","meetsRule3":false,"shortfalls":["the dependency graph leaves out 10 of 12 packages"]}
28186670-6c2c-4ab4-bf0d-2f9af92f160a	0d73d9d1-94c7-4d3d-b2a6-6d8bf7687420	spdx	2.3	e5d1b446c57e047b2eecce5260da22c849b833b9e53bec725de4b9c32e35e3c9	14939	syft	1.14.1	zMwCfNp7dfdQ3QaOoEOOg1rWEAHQJaH8G+atD0nWWbtKqW64nDul8J89bCq3l7uQWf6xCt5uPVQWgoq/uCGcCg==	a7a8198cd10c272c	2026-11-25 11:52:45.884096+00	{"packages":12,"packageKinds":{"os":10,"python":2},"exactVersions":12,"checksums":12,"inDependencyGraph":12,"relationships":15,"spdxLicenses":12,"toolName":"syft","toolVersion":"1.14.1","toolVersionIsRelease":true,"imageDigest":"sha256:34b7c06666b136d31485a7e2403351b896de347c136a16804092e3def1dece39","meetsRule3":true,"shortfalls":[]}
58b38210-f992-497f-8618-a1ae04b92c5e	9a978f45-92d9-458f-a5ca-a95671a410ac	cyclonedx	1.5	a7dc0353751c992af5f835a23d5b7085795ed07601796bc86aa3014ee47f74b0	9674	trivy	0.55.2	lOs3PBQuZ2Cs57kPn5w7Ic6LMgIrlSN9Vebuf96PqNluW7lvbhb4BZbDR+N1fvhu6mviNOCxHKFUZ104RdQBDQ==	a7a8198cd10c272c	2026-11-25 11:52:45.975944+00	{"packages":12,"packageKinds":{"os":10,"python":2},"exactVersions":12,"checksums":12,"inDependencyGraph":2,"relationships":15,"spdxLicenses":12,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:b81161c70cb5ab76f5130e03a4413ee23b0444de48fcb03f8cb27731ffc9178e","meetsRule3":false,"shortfalls":["the dependency graph leaves out 10 of 12 packages"]}
3e1e08bb-687c-4aea-a92c-c9aa7de500f1	9a978f45-92d9-458f-a5ca-a95671a410ac	spdx	2.3	8b508583596037ad4c5bc69f32442b79f803ff00cccd1f875e9772adf18f8e0d	14946	trivy	0.55.2	5C47NA96yHz625AWBhIk1Oxz+WZLjYRo7BONHTR+giRWxGSa6x1w88KNRAbgUz7Xy4UG3XeQ/OBwerckyI6zDQ==	a7a8198cd10c272c	2026-11-25 11:52:45.975944+00	{"packages":12,"packageKinds":{"os":10,"python":2},"exactVersions":12,"checksums":12,"inDependencyGraph":12,"relationships":15,"spdxLicenses":12,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:b81161c70cb5ab76f5130e03a4413ee23b0444de48fcb03f8cb27731ffc9178e","meetsRule3":true,"shortfalls":[]}
51dc83a8-3d7d-4ca9-92a1-473ee2c15e53	cbf7fc23-2900-4b8b-bf83-1a5657ada01e	cyclonedx	1.5	93fc9f10b81248100726691c796e202406ddf6e0d2a163c6f661ef753da17043	5225	trivy	0.55.2	evgMlDlAcBWVj9sHncE7XNqaC4dT/JlTO9GQICSSTyQaYbXwoRUneoH+ZGMAfuKRNyd3aihaEnX38J8VaRAcDQ==	a7a8198cd10c272c	2026-11-25 11:52:46.066149+00	{"packages":5,"packageKinds":{"os":5},"exactVersions":5,"checksums":5,"inDependencyGraph":1,"relationships":7,"spdxLicenses":5,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:5b0a682df53a8f9dca0dfc7c2f5c2b9532da85869e7494756d31f41a23800db6","meetsRule3":false,"shortfalls":["the dependency graph leaves out 4 of 5 packages"]}
a32e1ece-d09b-4673-b578-0c05224d2318	cbf7fc23-2900-4b8b-bf83-1a5657ada01e	spdx	2.3	696b51b96b4eeb91cda3b11dd353dc305add9757479c47fce7444c8aaccb9a5a	8335	trivy	0.55.2	mO2HbFHnEhyk4miZthr6aT6HNyGy6OaCjeajokVbaFgIve+sVWYIsttz7Aks14JLk6CzyhMMwt8oMf28giSLDA==	a7a8198cd10c272c	2026-11-25 11:52:46.066149+00	{"packages":5,"packageKinds":{"os":5},"exactVersions":5,"checksums":5,"inDependencyGraph":5,"relationships":8,"spdxLicenses":5,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:5b0a682df53a8f9dca0dfc7c2f5c2b9532da85869e7494756d31f41a23800db6","meetsRule3":true,"shortfalls":[]}
bf665bd0-443f-42ee-8476-ba7ef87bada0	fa6ae021-895a-4b46-9497-aa35c5964ef6	spdx	2.3	f6162a53902e83432873fb48b12a109a927fee7a9422d2267fa0023ff6a39417	8335	trivy	0.55.2	iC/gZh8kD7pXldxCPRXHglpeGITwbf8b3CsMKK01aUi6twyA53CyeBMfgHvZHeXr2XCKvX1012+R8eFIJS4LCg==	a7a8198cd10c272c	2026-11-25 11:52:46.150962+00	{"packages":5,"packageKinds":{"os":5},"exactVersions":5,"checksums":5,"inDependencyGraph":5,"relationships":8,"spdxLicenses":5,"toolName":"trivy","toolVersion":"0.55.2","toolVersionIsRelease":true,"imageDigest":"sha256:08ee41fa5f65f124ada02b5c54974d7e0c3794570deac85c8e74baf7854e0443","meetsRule3":true,"shortfalls":[]}
\.


--
-- Data for Name: scans; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.scans (id, version_id, scanner_name, scanner_version, scanned_at, vulndb_updated_at, input_sha256, critical_count, high_count, medium_count, low_count, unknown_count, findings_critical, findings_high, findings_medium, findings_low, findings_unknown, created_at, fixable_count, vex_excluded_count) FROM stdin;
47ecd0cb-7229-4935-b2b9-86b6dfffa671	57c750d8-4e65-4ffd-9450-b4e9776e6205	trivy	0.55.2	2026-09-12 08:30:00+00	\N	9aa106d66e41fa0b6364eab54d731aae22d90969827889ef4488c7def2c3ca61	1	0	2	2	0	1	0	2	2	0	2026-11-25 11:52:44.088857+00	0	0
17ae011d-d36b-4714-a266-dac4a17a9ae5	366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba	grype	0.82.1	2026-10-20 08:30:00+00	2026-10-19 01:31:04+00	3f95a8aff5ae7876e380ba05ac52610e3d6d702a3d04fc26b2142a25e56d55ce	1	0	1	2	0	1	0	1	2	0	2026-11-25 11:52:44.114822+00	0	0
2b085d06-b46f-4528-97dc-54e67bdc6cb0	f507fe4b-08fa-4ea0-b8c4-3f0792f8df06	trivy	0.55.2	2026-09-08 08:30:00+00	\N	590c1a42de11dd4a738784e4e453b60b20581bc6f094d25b65ecfe94e94eca13	0	0	1	0	0	0	0	1	0	0	2026-11-25 11:52:44.192892+00	1	0
4f8f53c8-1373-4d96-9f28-59b4f2d2c494	8da5af17-3123-40d3-b9fb-04c143cacda8	trivy	0.55.2	2026-10-18 08:30:00+00	\N	18bf70968f0a1bea8f71ac62fe7fa9f1bad7876a2b0f24487b3e2565d608ad0b	0	0	0	0	0	0	0	0	0	0	2026-11-25 11:52:44.218618+00	0	0
10836467-06b9-4004-9faa-ba9b11decd42	ecf31f80-ea88-4795-bc16-ac392ade6736	trivy	0.55.2	2026-11-02 06:00:00+00	\N	228beb58e748da476167c2c6de32393545f969032d0b571af52dd8a1c23d662d	1	0	3	3	0	1	0	3	3	0	2026-11-25 11:52:44.061924+00	2	1
a2117902-bc06-4734-9285-fb16701f0a68	ecf31f80-ea88-4795-bc16-ac392ade6736	trivy	0.55.2	2026-10-15 08:30:00+00	\N	8e8a7a73d637a8ff8cdaff9626da026e294a718df6f162eed0e2405f3497c887	1	0	2	3	0	1	0	2	3	0	2026-11-25 11:52:44.035165+00	1	1
d9607d17-3144-4de2-b44c-351abf30e00b	9305de1c-4363-43db-910c-bce1d38db630	trivy	0.55.2	2026-09-10 08:30:00+00	\N	f7cecd9982614aee1dce65cbf631bedf4c1672a6701644d8c9b1a3acbf78fad5	1	1	1	3	0	1	2	1	3	0	2026-11-25 11:52:44.007007+00	2	1
23ec1460-e9a1-47ea-8bae-48aef969cfd9	9305de1c-4363-43db-910c-bce1d38db630	trivy	0.55.2	2026-09-11 08:30:00+00	\N	98d101ebf6e76956cb52e1b0ce6dd83f5338c3e52a93d600ced9f150b7ab8c51	1	1	1	3	0	1	2	1	3	0	2026-11-25 11:52:45.344615+00	2	1
cf090e67-c427-4f87-b220-56214c0833f3	9305de1c-4363-43db-910c-bce1d38db630	trivy	0.55.2	2026-09-12 08:30:00+00	\N	2fd25a40571528875cc04921dfcffd19bd7a2a4fee3d1c092dd2224cf798003f	1	1	1	3	0	1	2	1	3	0	2026-11-25 11:52:45.435326+00	2	1
2860f91e-38d4-48d1-bce5-a597bb781b3a	ecf31f80-ea88-4795-bc16-ac392ade6736	trivy	0.55.2	2026-11-04 08:30:00+00	\N	98b76d00f4759283ef1d82e29ba08b5c2810cbd1986eaf0bdb7af176a796189d	1	0	2	3	0	1	0	2	3	0	2026-11-25 11:52:45.525311+00	1	1
465bdf63-2a57-4829-85fc-1b28fbf634d7	366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba	grype	0.82.1	2026-10-21 08:30:00+00	2026-10-19 01:31:04+00	da25f264688444b33a87171dbd2af0e9c1be6b6498459bab3bc0cac1a0350f55	1	0	1	1	0	1	0	1	1	0	2026-11-25 11:52:45.6175+00	0	0
7d62cbc4-5490-4746-bf7a-6e055503f2ed	366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba	grype	0.82.1	2026-10-22 08:30:00+00	2026-10-19 01:31:04+00	435e57d31cb0ac962085146806c130c30bad102534e330e394991788de4b3243	1	0	1	1	0	1	0	1	1	0	2026-11-25 11:52:45.705825+00	0	0
cbf7fc23-2900-4b8b-bf83-1a5657ada01e	8da5af17-3123-40d3-b9fb-04c143cacda8	trivy	0.55.2	2026-10-19 08:30:00+00	\N	62ecc88569cdeee502e060ca60480f4ca1e57be3b52e6c102c82be82f110b2bc	0	0	0	0	0	0	0	0	0	0	2026-11-25 11:52:46.066149+00	0	0
fa6ae021-895a-4b46-9497-aa35c5964ef6	f507fe4b-08fa-4ea0-b8c4-3f0792f8df06	trivy	0.55.2	2026-09-09 08:30:00+00	\N	26a002862f284f510c5ef6145b2cf854eef0f48658134c0b3dc3f724fe4fdd59	0	0	1	0	0	0	0	1	0	0	2026-11-25 11:52:46.150962+00	1	0
0d73d9d1-94c7-4d3d-b2a6-6d8bf7687420	74d16d2f-c7f9-453f-9df6-8c770a05b3d8	grype	0.82.1	2026-10-27 08:30:00+00	2026-10-19 01:31:04+00	055704a6db3007b05b6318a5b778d4187bc8c3d4d288c20aa9eb9bc14ea532ba	1	0	0	1	0	1	0	0	1	0	2026-11-25 11:52:45.884096+00	0	1
301a45c2-38cf-4036-b5d0-66a9a5f38628	74d16d2f-c7f9-453f-9df6-8c770a05b3d8	grype	0.82.1	2026-10-25 08:30:00+00	2026-10-19 01:31:04+00	687639ce97115b8ca33bb57fa4e3c9a2763c95f72128f111acb3a6143b64d7aa	1	0	0	1	0	1	0	0	1	0	2026-11-25 11:52:44.167396+00	0	1
88f10429-9756-4e14-97ff-712214b2d46f	74d16d2f-c7f9-453f-9df6-8c770a05b3d8	grype	0.82.1	2026-10-26 08:30:00+00	2026-10-19 01:31:04+00	370104584008224cb52a920aca55de7aaac69dec94132da887ec4ad85f05e49e	1	0	0	1	0	1	0	0	1	0	2026-11-25 11:52:45.794778+00	0	1
9a978f45-92d9-458f-a5ca-a95671a410ac	9d2ebae6-1bc9-4d48-b313-0b43550d1348	trivy	0.55.2	2026-09-04 08:30:00+00	\N	d65dc6a9462c51f52990cfe70c654e523fec54b36b07b5905ef629661674350b	1	1	0	3	0	1	1	0	3	0	2026-11-25 11:52:45.975944+00	2	1
f0401aa8-e2d5-470d-ae40-bbf074a22292	9d2ebae6-1bc9-4d48-b313-0b43550d1348	trivy	0.55.2	2026-09-05 08:30:00+00	\N	31921cd569a5a893c8e7efa4f9ce74fe55be1aefa85e67559d91566d46524a40	1	1	0	3	0	1	1	0	3	0	2026-11-25 11:52:44.140872+00	2	1
\.


--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.schema_migrations (version, file, checksum, applied_at) FROM stdin;
1	V0001__init.sql	a2645056e2b7f4afbc1a15fe46ff3a8cf0ba1b1bdbe5d42ffc18acafe02e2fe3	2026-11-25 11:52:43.253859+00
2	V0002__scans.sql	cd71f88974f2061fe0326e33132dba3e339f53ada921330ab9ea0bd5d10f4248	2026-11-25 11:52:43.275185+00
3	V0003__portal_login.sql	9a1a0c78e7203314a3d3d6563a79419983321969d9f9c5b4f258b7234466a1c8	2026-11-25 11:52:43.276844+00
5	V0005__dispatcher.sql	f754449156caabaa1a294a0adbf49e2be6654c7e84abaa6de509b8281265fd6e	2026-11-25 11:52:43.277838+00
6	V0006__read_indexes.sql	fce365e34b4434609cac3a26443c84c9222d9763a3204107ad1c54b756d59f41	2026-11-25 11:52:43.278345+00
7	V0007__read_paths.sql	8e0b07f993425660ae44f0474898800899f3a04e0fde75ee21ff862701697626	2026-11-25 11:52:43.278742+00
8	V0008__decision_compression.sql	4acb62c827ba8551ab1907a431272e27f15b98561b52c4a459c6163395bc82a3	2026-11-25 11:52:43.279426+00
9	V0009__second_wall.sql	d2b7a52392c7fde9394c524e02d3e6a8d1b8c8e1efed9bdfe11957bf4c1d8b73	2026-11-25 11:52:43.279746+00
10	V0010__sbom_completeness.sql	522c84ba15371bdbec93378ab2a9f487eff32d481af25240f0cbdecf7347ad72	2026-11-25 11:52:43.282728+00
11	V0011__dispatcher_heartbeat.sql	a821f1d2a1dcd1ef7c29a373ca874021841a38d8a2ea38b530a9def2b5a29d5f	2026-11-25 11:52:43.283077+00
12	V0012__trace_context.sql	b025272f2cd29e59c3429c3fcf14b43d150427cd3208b96d92196597b409a355	2026-11-25 11:52:43.283875+00
13	V0013__webhook_backlog.sql	24bb73a5ada207fae75468e0121b34f256dfe2390054ea8d4bd06fadee978d93	2026-11-25 11:52:43.284285+00
14	V0014__decision_key_prefix.sql	a7d44afdf07012ebb6742e8092073842684e7e89c87053a234bc9139272e1c2f	2026-11-25 11:52:43.284697+00
15	V0015__tenant_users.sql	f921b08191950a7b5eacc13642210b41ab598fdc7e0dcf2d94a3e0adbd8cfcec	2026-11-25 11:52:43.285011+00
16	V0016__severity_sources.sql	87620cf23fc16b2afe9150848170f68154a47b35c6efb5c63c28df6396421e87	2026-11-25 11:52:43.288199+00
17	V0017__vex.sql	e2cfa8815920dec88b1a7c65d95755648bdbc6dbbe380a183774f0743f1509bf	2026-11-25 11:52:43.288607+00
18	V0018__vex_documents_served.sql	1d19ef73739a1cda470f4d3c71fdab597da56ecaa32bf2da87f81be72c69d3f9	2026-11-25 11:52:43.293311+00
19	V0019__licensed_policy_tenant_once.sql	4029f750f40154b59fe173596034e5ec161a1b80f6dbdd145409faf5f66d3ab2	2026-11-25 11:52:43.294479+00
\.


--
-- Data for Name: setup_tokens; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.setup_tokens (user_id, tenant_id, token_hash, created_at, expires_at, used_at) FROM stdin;
ec8fdf89-eb0c-4630-9168-0d6e97f8c2e1	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	\\x907c4dab1dc536f562857b9a2db2b07d8e9abe0d49b82b5b241feeb294f0e0ad	2026-11-25 11:52:45.261049+00	2026-11-28 11:52:45.261049+00	\N
\.


--
-- Data for Name: signing_keys; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.signing_keys (id, algorithm, public_key_pem, created_at) FROM stdin;
a7a8198cd10c272c	Ed25519	-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAw20VvIiy77hAyz7go+XTHqkHYg7sIfakzGAQUWfNnjc=\n-----END PUBLIC KEY-----\n	2026-11-25 11:52:44.007007+00
\.


--
-- Data for Name: tenants; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.tenants (id, subdomain, name, created_at) FROM stdin;
1fb2b739-eeef-499a-a9f4-fd605ebb7e21	demo	Demo Corp	2026-11-25 11:52:43.619981+00
f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	other	Other Inc	2026-11-25 11:52:43.626968+00
\.


--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.users (id, tenant_id, email, password_hash, role, created_at, disabled_at, last_login_at) FROM stdin;
7daa63d9-52df-4bee-bf06-a90cb233068a	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	admin@demo.test	$scrypt$ln=17,r=8,p=1$lgJPwakguBUL0KL+k+sltw$hYYwQZ17UlzkhppDESo+ODr3OT7fTIpBP7J1QsoX4KQ	admin	2026-11-25 11:52:43.903576+00	\N	2026-11-25 11:52:44.865913+00
a8b6e204-5147-46f0-a198-134099c03808	f1293ce1-df2f-45ae-9c88-7bcf9fedbdf4	admin@other.test	$scrypt$ln=17,r=8,p=1$HVNPRPB329G1Bf2iFnAogw$hbuZF/qZiQXX/SweDXbUDV/ilF1Ug6Bib4/jBeXUQjw	admin	2026-11-25 11:52:44.563125+00	\N	2026-11-25 11:52:45.170242+00
ec8fdf89-eb0c-4630-9168-0d6e97f8c2e1	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	viewer@demo.test	\N	viewer	2026-11-25 11:52:45.261049+00	\N	\N
\.


--
-- Data for Name: vex_documents; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.vex_documents (id, format, document_ref, author, role, issued_at, updated_at, version, sha256, ingested_at) FROM stdin;
71e576e2-8a78-48a1-bd21-04c474f9ccbf	openvex	https://registry.example.test/vex/hardened-nginx-2026-11-01	Example Hardened Images security team <security@example.test>	Image vendor	2026-11-01 09:00:00+00	\N	1	83f15dcb438d4763841b93fece74b2453a2625cbcc043ec70fde7eca1258b8ea	2026-11-25 11:52:44.249063+00
758738f0-b0ac-4ff7-a8c7-18c4fee7f1de	openvex	https://registry.example.test/vex/hardened-python-2026-11-20	Example Hardened Images security team <security@example.test>	\N	2026-11-20 09:00:00+00	\N	1	3b7254c89e85f4a49dd4ad4bea040ad5d96bcccf3121a5fea240bca6525b1593	2026-11-25 11:52:46.171222+00
\.


--
-- Data for Name: vex_served_documents; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.vex_served_documents (version_id, format, document_version, sha256, size_bytes, signature, signing_key_id, generated_at) FROM stdin;
9305de1c-4363-43db-910c-bce1d38db630	openvex	1	aa1661a16c5dc24dedd49a471e7f6f7b3e8f2d51770af8fc37959349a290d1e0	1339	Qno4n9jGvA5sxHpgDRdHrGrnSsBSFRBMfThfKlCmTIjXWDVhhjki+r3uS1Lfuk9FUZi9mFXsxtyIH08ljxHLBg==	a7a8198cd10c272c	2026-11-25 11:52:44.249063+00
9305de1c-4363-43db-910c-bce1d38db630	cyclonedx	1	8a1eea06f8ac139bed39c455118882600021f3ddbec7cce7a99b85fcf09d9f83	1303	z30QrXUXdyUQCTk4mxsJfNwMRRlraVBZ7RsE2i8qkbxFrHm/42EWrTBqZN6sjFFZrox0M6iqmc7vd1fXNnbgDQ==	a7a8198cd10c272c	2026-11-25 11:52:44.249063+00
ecf31f80-ea88-4795-bc16-ac392ade6736	openvex	1	0813070796032c102ed920d5f5e94db8ead50eaf27761b697c4f9f9f4d3e1cd5	2042	GmYMAUH2qkpP+LS7CBeJZOHTCNrDAwNyetkKhcj3fWJZk2dNAlyiSsESNDmrjj8/H9Im4otz1BgiDuD/4b7oCA==	a7a8198cd10c272c	2026-11-25 11:52:44.249063+00
ecf31f80-ea88-4795-bc16-ac392ade6736	cyclonedx	2	79d213052ccfc05734907e3a39ffbf050a6262a2ca70bcc1bb191cb6a747ac48	1660	mqnef2Bha+ZeQQULs7MyeQMUM87yJX/hWS7CnplWVqxj9DU0VyMASbm63eUN7NT+81I3smJHnBVWAB55N+beCw==	a7a8198cd10c272c	2026-11-25 11:52:45.525311+00
74d16d2f-c7f9-453f-9df6-8c770a05b3d8	openvex	1	5cb4b9052d12ab825145e49915a8d3d7b393b5cc351d578bf39c1c1ee399afe0	1243	PMzc/vEfF9GEVVwKtGhvP2B00k7C1cK1QEn8laY49IYxEvjRvFKnPzI36yYvut6AyL53B7vdWnpfAPUqaVxfCw==	a7a8198cd10c272c	2026-11-25 11:52:46.171222+00
74d16d2f-c7f9-453f-9df6-8c770a05b3d8	cyclonedx	1	adb840f00c49d7bc042d1e636e18d1f2dc7baa773d0aa3aa8343ff97a61e05fe	1201	wB5OQJGrbqmaEoz4dQl4l0L1J1wRY6Ul1mRy7vK8LRSgkuLY43KtDwj9EbKpOvgY/QISmlcIj8US40LZi0xCBg==	a7a8198cd10c272c	2026-11-25 11:52:46.171222+00
9d2ebae6-1bc9-4d48-b313-0b43550d1348	openvex	1	46d10fea789463375347587a48a451c151a5a3dda3afb6a1200d8fc11d607aac	1243	wIclM22yzGzdEEaj28wTPN05yqlqY06ACC/OnXV/hhwDiAqyXd6r0wXzxqzEdlKspHXpCFKBc5jXNZdZMq/+AQ==	a7a8198cd10c272c	2026-11-25 11:52:46.171222+00
9d2ebae6-1bc9-4d48-b313-0b43550d1348	cyclonedx	1	4761614aaa3a9211aad6e601a79863442a96b62c47fdf8ca1dc5d050e458a875	1201	vU4bvxsnmMVWJA/k8vChzgprOME8ggsllmcTckRBl74O5qDQjL27tlksr5uPpmOGGOsirDgkS1B62YRal+/rDA==	a7a8198cd10c272c	2026-11-25 11:52:46.171222+00
\.


--
-- Data for Name: vex_statements; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.vex_statements (id, document_id, image_id, version_id, product, vuln_id, aliases, subcomponents, status, justification, impact_statement, action_statement, statement_time) FROM stdin;
1	71e576e2-8a78-48a1-bd21-04c474f9ccbf	ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad	\N	pkg:oci/nginx?repository_url=registry.example.test/hardened/nginx	CVE-2023-45853	{}	{pkg:deb/debian/zlib1g}	not_affected	vulnerable_code_not_present	The image's zlib1g is built without minizip: zipOpenNewFileInZip4_64 is not in it.	\N	2026-11-01 09:00:00+00
2	71e576e2-8a78-48a1-bd21-04c474f9ccbf	ac943dd0-af23-4f4b-9ff7-c19ec9d9ddad	ecf31f80-ea88-4795-bc16-ac392ade6736	pkg:oci/nginx@sha256%3A65e7d6c7da21a5e542bd49fe136f4b020b0770177b00592185bf717ce78e9b7c?repository_url=registry.example.test/hardened/nginx	CVE-2024-2236	{}	{}	under_investigation	\N	\N	\N	2026-11-02 09:00:00+00
3	758738f0-b0ac-4ff7-a8c7-18c4fee7f1de	72b5ccd8-fe12-442d-a94d-562ed648b4be	\N	pkg:oci/python?repository_url=registry.example.test/hardened/python	CVE-2024-2236	{}	{pkg:deb/debian/libgcrypt20}	not_affected	vulnerable_code_not_in_execute_path	\N	\N	2026-11-20 09:00:00+00
\.


--
-- Data for Name: vulnerabilities; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.vulnerabilities (id, scan_id, vuln_id, aliases, package_name, package_version, package_type, purl, severity, cvss_score, fix_state, fixed_version, title, primary_url, severity_sources, severity_source) FROM stdin;
1	d9607d17-3144-4de2-b44c-351abf30e00b	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	zlib: integer overflow and resultant heap-based buffer overflow in zipOpenNewFileInZip4_6	https://avd.aquasec.com/nvd/cve-2023-45853	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
2	d9607d17-3144-4de2-b44c-351abf30e00b	CVE-2024-45490	{}	libexpat1	2.5.0-1	os	pkg:deb/debian/libexpat1@2.5.0-1?arch=amd64&distro=debian-12.7	critical	9.8	fixed	2.5.0-1+deb12u1	libexpat: Negative Length Parsing Vulnerability in libexpat	https://avd.aquasec.com/nvd/cve-2024-45490	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
3	d9607d17-3144-4de2-b44c-351abf30e00b	CVE-2024-6119	{}	libssl3	3.0.14-1~deb12u1	os	pkg:deb/debian/libssl3@3.0.14-1~deb12u1?arch=amd64&distro=debian-12.7	high	7.5	fixed	3.0.14-1~deb12u2	openssl: Possible denial of service in X.509 name checks	https://avd.aquasec.com/nvd/cve-2024-6119	[{"source":"nvd","severity":"high","cvssVersion":null,"cvssVector":null,"cvssScore":7.5}]	nvd
4	d9607d17-3144-4de2-b44c-351abf30e00b	CVE-2024-6119	{}	openssl	3.0.14-1~deb12u1	os	pkg:deb/debian/openssl@3.0.14-1~deb12u1?arch=amd64&distro=debian-12.7	high	7.5	fixed	3.0.14-1~deb12u2	openssl: Possible denial of service in X.509 name checks	https://avd.aquasec.com/nvd/cve-2024-6119	[{"source":"nvd","severity":"high","cvssVersion":null,"cvssVector":null,"cvssScore":7.5}]	nvd
5	d9607d17-3144-4de2-b44c-351abf30e00b	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	libgcrypt: vulnerable to Marvin Attack	https://avd.aquasec.com/nvd/cve-2024-2236	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.9}]	nvd
6	d9607d17-3144-4de2-b44c-351abf30e00b	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	glibc: glob implementation can cause excessive CPU and memory consumption	https://avd.aquasec.com/nvd/cve-2010-4756	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":4.0}]	nvd
7	d9607d17-3144-4de2-b44c-351abf30e00b	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	It was found that apt-key in apt, all versions, do not correctly validate gpg keys	https://avd.aquasec.com/nvd/cve-2011-3374	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.7}]	nvd
8	d9607d17-3144-4de2-b44c-351abf30e00b	CVE-2023-50495	{}	libncursesw6	6.4-4	os	pkg:deb/debian/libncursesw6@6.4-4?arch=amd64&distro=debian-12.7	low	6.5	not-fixed	\N	ncurses: segmentation fault via _nc_wrap_entry()	https://avd.aquasec.com/nvd/cve-2023-50495	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":6.5}]	nvd
9	a2117902-bc06-4734-9285-fb16701f0a68	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	zlib: integer overflow and resultant heap-based buffer overflow in zipOpenNewFileInZip4_6	https://avd.aquasec.com/nvd/cve-2023-45853	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
10	a2117902-bc06-4734-9285-fb16701f0a68	CVE-2024-45490	{}	libexpat1	2.5.0-1	os	pkg:deb/debian/libexpat1@2.5.0-1?arch=amd64&distro=debian-12.7	critical	9.8	fixed	2.5.0-1+deb12u1	libexpat: Negative Length Parsing Vulnerability in libexpat	https://avd.aquasec.com/nvd/cve-2024-45490	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
11	a2117902-bc06-4734-9285-fb16701f0a68	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	libgcrypt: vulnerable to Marvin Attack	https://avd.aquasec.com/nvd/cve-2024-2236	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.9}]	nvd
12	a2117902-bc06-4734-9285-fb16701f0a68	CVE-2024-26462	{}	libkrb5-3	1.20.1-2+deb12u2	os	pkg:deb/debian/libkrb5-3@1.20.1-2+deb12u2?arch=amd64&distro=debian-12.7	medium	5.5	not-fixed	\N	krb5: Memory leak at /krb5/src/kdc/ndr.c	https://avd.aquasec.com/nvd/cve-2024-26462	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.5}]	nvd
13	a2117902-bc06-4734-9285-fb16701f0a68	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	glibc: glob implementation can cause excessive CPU and memory consumption	https://avd.aquasec.com/nvd/cve-2010-4756	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":4.0}]	nvd
14	a2117902-bc06-4734-9285-fb16701f0a68	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	It was found that apt-key in apt, all versions, do not correctly validate gpg keys	https://avd.aquasec.com/nvd/cve-2011-3374	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.7}]	nvd
15	a2117902-bc06-4734-9285-fb16701f0a68	CVE-2023-50495	{}	libncursesw6	6.4-4	os	pkg:deb/debian/libncursesw6@6.4-4?arch=amd64&distro=debian-12.7	low	6.5	not-fixed	\N	ncurses: segmentation fault via _nc_wrap_entry()	https://avd.aquasec.com/nvd/cve-2023-50495	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":6.5}]	nvd
16	10836467-06b9-4004-9faa-ba9b11decd42	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	zlib: integer overflow and resultant heap-based buffer overflow in zipOpenNewFileInZip4_6	https://avd.aquasec.com/nvd/cve-2023-45853	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
17	10836467-06b9-4004-9faa-ba9b11decd42	CVE-2024-45490	{}	libexpat1	2.5.0-1	os	pkg:deb/debian/libexpat1@2.5.0-1?arch=amd64&distro=debian-12.7	critical	9.8	fixed	2.5.0-1+deb12u1	libexpat: Negative Length Parsing Vulnerability in libexpat	https://avd.aquasec.com/nvd/cve-2024-45490	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
18	10836467-06b9-4004-9faa-ba9b11decd42	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	libgcrypt: vulnerable to Marvin Attack	https://avd.aquasec.com/nvd/cve-2024-2236	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.9}]	nvd
19	10836467-06b9-4004-9faa-ba9b11decd42	CVE-2024-26462	{}	libkrb5-3	1.20.1-2+deb12u2	os	pkg:deb/debian/libkrb5-3@1.20.1-2+deb12u2?arch=amd64&distro=debian-12.7	medium	5.5	not-fixed	\N	krb5: Memory leak at /krb5/src/kdc/ndr.c	https://avd.aquasec.com/nvd/cve-2024-26462	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.5}]	nvd
20	10836467-06b9-4004-9faa-ba9b11decd42	CVE-2025-0395	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	medium	6.2	fixed	2.36-9+deb12u10	glibc: buffer overflow in the assert() function	https://avd.aquasec.com/nvd/cve-2025-0395	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":6.2}]	nvd
21	10836467-06b9-4004-9faa-ba9b11decd42	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	glibc: glob implementation can cause excessive CPU and memory consumption	https://avd.aquasec.com/nvd/cve-2010-4756	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":4.0}]	nvd
22	10836467-06b9-4004-9faa-ba9b11decd42	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	It was found that apt-key in apt, all versions, do not correctly validate gpg keys	https://avd.aquasec.com/nvd/cve-2011-3374	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.7}]	nvd
23	10836467-06b9-4004-9faa-ba9b11decd42	CVE-2023-50495	{}	libncursesw6	6.4-4	os	pkg:deb/debian/libncursesw6@6.4-4?arch=amd64&distro=debian-12.7	low	6.5	not-fixed	\N	ncurses: segmentation fault via _nc_wrap_entry()	https://avd.aquasec.com/nvd/cve-2023-50495	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":6.5}]	nvd
24	47ecd0cb-7229-4935-b2b9-86b6dfffa671	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	zlib: integer overflow and resultant heap-based buffer overflow in zipOpenNewFileInZip4_6	https://avd.aquasec.com/nvd/cve-2023-45853	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
25	47ecd0cb-7229-4935-b2b9-86b6dfffa671	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	libgcrypt: vulnerable to Marvin Attack	https://avd.aquasec.com/nvd/cve-2024-2236	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.9}]	nvd
26	47ecd0cb-7229-4935-b2b9-86b6dfffa671	CVE-2024-26462	{}	libkrb5-3	1.20.1-2+deb12u2	os	pkg:deb/debian/libkrb5-3@1.20.1-2+deb12u2?arch=amd64&distro=debian-12.7	medium	5.5	not-fixed	\N	krb5: Memory leak at /krb5/src/kdc/ndr.c	https://avd.aquasec.com/nvd/cve-2024-26462	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.5}]	nvd
27	47ecd0cb-7229-4935-b2b9-86b6dfffa671	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	glibc: glob implementation can cause excessive CPU and memory consumption	https://avd.aquasec.com/nvd/cve-2010-4756	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":4.0}]	nvd
28	47ecd0cb-7229-4935-b2b9-86b6dfffa671	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	It was found that apt-key in apt, all versions, do not correctly validate gpg keys	https://avd.aquasec.com/nvd/cve-2011-3374	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.7}]	nvd
29	17ae011d-d36b-4714-a266-dac4a17a9ae5	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	\N	https://security-tracker.debian.org/tracker/CVE-2023-45853	[{"source":"debian","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"critical","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":9.8}]	debian
30	17ae011d-d36b-4714-a266-dac4a17a9ae5	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2024-2236	[{"source":"debian","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"medium","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":5.9}]	debian
31	17ae011d-d36b-4714-a266-dac4a17a9ae5	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2010-4756	[{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"low","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":4.0}]	debian
32	17ae011d-d36b-4714-a266-dac4a17a9ae5	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2011-3374	[{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"low","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":3.7}]	debian
33	f0401aa8-e2d5-470d-ae40-bbf074a22292	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	zlib: integer overflow and resultant heap-based buffer overflow in zipOpenNewFileInZip4_6	https://avd.aquasec.com/nvd/cve-2023-45853	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
34	f0401aa8-e2d5-470d-ae40-bbf074a22292	CVE-2024-6345	{}	setuptools	65.5.1	python	pkg:pypi/setuptools@65.5.1	high	8.8	fixed	70.0.0	pypa/setuptools: Remote code execution via download functions in the package_index module	https://avd.aquasec.com/nvd/cve-2024-6345	[{"source":"nvd","severity":"high","cvssVersion":null,"cvssVector":null,"cvssScore":8.8}]	nvd
35	f0401aa8-e2d5-470d-ae40-bbf074a22292	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	libgcrypt: vulnerable to Marvin Attack	https://avd.aquasec.com/nvd/cve-2024-2236	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.9}]	nvd
36	f0401aa8-e2d5-470d-ae40-bbf074a22292	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	glibc: glob implementation can cause excessive CPU and memory consumption	https://avd.aquasec.com/nvd/cve-2010-4756	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":4.0}]	nvd
37	f0401aa8-e2d5-470d-ae40-bbf074a22292	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	It was found that apt-key in apt, all versions, do not correctly validate gpg keys	https://avd.aquasec.com/nvd/cve-2011-3374	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.7}]	nvd
38	f0401aa8-e2d5-470d-ae40-bbf074a22292	CVE-2023-5752	{}	pip	23.0.1	python	pkg:pypi/pip@23.0.1	low	3.3	fixed	23.3	pip: Mercurial configuration injectable in repo revision when installing via pip	https://avd.aquasec.com/nvd/cve-2023-5752	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.3}]	nvd
39	301a45c2-38cf-4036-b5d0-66a9a5f38628	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	\N	https://security-tracker.debian.org/tracker/CVE-2023-45853	[{"source":"debian","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"critical","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":9.8}]	debian
40	301a45c2-38cf-4036-b5d0-66a9a5f38628	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2024-2236	[{"source":"debian","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"medium","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":5.9}]	debian
41	301a45c2-38cf-4036-b5d0-66a9a5f38628	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2011-3374	[{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"low","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":3.7}]	debian
42	2b085d06-b46f-4528-97dc-54e67bdc6cb0	CVE-2023-42366	{}	busybox	1.36.1-r29	os	pkg:apk/alpine/busybox@1.36.1-r29?arch=x86_64&distro=3.20.3	medium	5.5	fixed	1.36.1-r30	busybox: A heap-buffer-overflow in next_token()	https://avd.aquasec.com/nvd/cve-2023-42366	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.5}]	nvd
43	23ec1460-e9a1-47ea-8bae-48aef969cfd9	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	zlib: integer overflow and resultant heap-based buffer overflow in zipOpenNewFileInZip4_6	https://avd.aquasec.com/nvd/cve-2023-45853	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
44	23ec1460-e9a1-47ea-8bae-48aef969cfd9	CVE-2024-45490	{}	libexpat1	2.5.0-1	os	pkg:deb/debian/libexpat1@2.5.0-1?arch=amd64&distro=debian-12.7	critical	9.8	fixed	2.5.0-1+deb12u1	libexpat: Negative Length Parsing Vulnerability in libexpat	https://avd.aquasec.com/nvd/cve-2024-45490	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
45	23ec1460-e9a1-47ea-8bae-48aef969cfd9	CVE-2024-6119	{}	libssl3	3.0.14-1~deb12u1	os	pkg:deb/debian/libssl3@3.0.14-1~deb12u1?arch=amd64&distro=debian-12.7	high	7.5	fixed	3.0.14-1~deb12u2	openssl: Possible denial of service in X.509 name checks	https://avd.aquasec.com/nvd/cve-2024-6119	[{"source":"nvd","severity":"high","cvssVersion":null,"cvssVector":null,"cvssScore":7.5}]	nvd
46	23ec1460-e9a1-47ea-8bae-48aef969cfd9	CVE-2024-6119	{}	openssl	3.0.14-1~deb12u1	os	pkg:deb/debian/openssl@3.0.14-1~deb12u1?arch=amd64&distro=debian-12.7	high	7.5	fixed	3.0.14-1~deb12u2	openssl: Possible denial of service in X.509 name checks	https://avd.aquasec.com/nvd/cve-2024-6119	[{"source":"nvd","severity":"high","cvssVersion":null,"cvssVector":null,"cvssScore":7.5}]	nvd
47	23ec1460-e9a1-47ea-8bae-48aef969cfd9	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	libgcrypt: vulnerable to Marvin Attack	https://avd.aquasec.com/nvd/cve-2024-2236	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.9}]	nvd
48	23ec1460-e9a1-47ea-8bae-48aef969cfd9	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	glibc: glob implementation can cause excessive CPU and memory consumption	https://avd.aquasec.com/nvd/cve-2010-4756	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":4.0}]	nvd
49	23ec1460-e9a1-47ea-8bae-48aef969cfd9	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	It was found that apt-key in apt, all versions, do not correctly validate gpg keys	https://avd.aquasec.com/nvd/cve-2011-3374	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.7}]	nvd
50	23ec1460-e9a1-47ea-8bae-48aef969cfd9	CVE-2023-50495	{}	libncursesw6	6.4-4	os	pkg:deb/debian/libncursesw6@6.4-4?arch=amd64&distro=debian-12.7	low	6.5	not-fixed	\N	ncurses: segmentation fault via _nc_wrap_entry()	https://avd.aquasec.com/nvd/cve-2023-50495	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":6.5}]	nvd
51	cf090e67-c427-4f87-b220-56214c0833f3	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	zlib: integer overflow and resultant heap-based buffer overflow in zipOpenNewFileInZip4_6	https://avd.aquasec.com/nvd/cve-2023-45853	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
52	cf090e67-c427-4f87-b220-56214c0833f3	CVE-2024-45490	{}	libexpat1	2.5.0-1	os	pkg:deb/debian/libexpat1@2.5.0-1?arch=amd64&distro=debian-12.7	critical	9.8	fixed	2.5.0-1+deb12u1	libexpat: Negative Length Parsing Vulnerability in libexpat	https://avd.aquasec.com/nvd/cve-2024-45490	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
53	cf090e67-c427-4f87-b220-56214c0833f3	CVE-2024-6119	{}	libssl3	3.0.14-1~deb12u1	os	pkg:deb/debian/libssl3@3.0.14-1~deb12u1?arch=amd64&distro=debian-12.7	high	7.5	fixed	3.0.14-1~deb12u2	openssl: Possible denial of service in X.509 name checks	https://avd.aquasec.com/nvd/cve-2024-6119	[{"source":"nvd","severity":"high","cvssVersion":null,"cvssVector":null,"cvssScore":7.5}]	nvd
54	cf090e67-c427-4f87-b220-56214c0833f3	CVE-2024-6119	{}	openssl	3.0.14-1~deb12u1	os	pkg:deb/debian/openssl@3.0.14-1~deb12u1?arch=amd64&distro=debian-12.7	high	7.5	fixed	3.0.14-1~deb12u2	openssl: Possible denial of service in X.509 name checks	https://avd.aquasec.com/nvd/cve-2024-6119	[{"source":"nvd","severity":"high","cvssVersion":null,"cvssVector":null,"cvssScore":7.5}]	nvd
55	cf090e67-c427-4f87-b220-56214c0833f3	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	libgcrypt: vulnerable to Marvin Attack	https://avd.aquasec.com/nvd/cve-2024-2236	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.9}]	nvd
56	cf090e67-c427-4f87-b220-56214c0833f3	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	glibc: glob implementation can cause excessive CPU and memory consumption	https://avd.aquasec.com/nvd/cve-2010-4756	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":4.0}]	nvd
57	cf090e67-c427-4f87-b220-56214c0833f3	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	It was found that apt-key in apt, all versions, do not correctly validate gpg keys	https://avd.aquasec.com/nvd/cve-2011-3374	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.7}]	nvd
58	cf090e67-c427-4f87-b220-56214c0833f3	CVE-2023-50495	{}	libncursesw6	6.4-4	os	pkg:deb/debian/libncursesw6@6.4-4?arch=amd64&distro=debian-12.7	low	6.5	not-fixed	\N	ncurses: segmentation fault via _nc_wrap_entry()	https://avd.aquasec.com/nvd/cve-2023-50495	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":6.5}]	nvd
59	2860f91e-38d4-48d1-bce5-a597bb781b3a	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	zlib: integer overflow and resultant heap-based buffer overflow in zipOpenNewFileInZip4_6	https://avd.aquasec.com/nvd/cve-2023-45853	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
60	2860f91e-38d4-48d1-bce5-a597bb781b3a	CVE-2024-45490	{}	libexpat1	2.5.0-1	os	pkg:deb/debian/libexpat1@2.5.0-1?arch=amd64&distro=debian-12.7	critical	9.8	fixed	2.5.0-1+deb12u1	libexpat: Negative Length Parsing Vulnerability in libexpat	https://avd.aquasec.com/nvd/cve-2024-45490	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
61	2860f91e-38d4-48d1-bce5-a597bb781b3a	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	libgcrypt: vulnerable to Marvin Attack	https://avd.aquasec.com/nvd/cve-2024-2236	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.9}]	nvd
62	2860f91e-38d4-48d1-bce5-a597bb781b3a	CVE-2024-26462	{}	libkrb5-3	1.20.1-2+deb12u2	os	pkg:deb/debian/libkrb5-3@1.20.1-2+deb12u2?arch=amd64&distro=debian-12.7	medium	5.5	not-fixed	\N	krb5: Memory leak at /krb5/src/kdc/ndr.c	https://avd.aquasec.com/nvd/cve-2024-26462	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.5}]	nvd
63	2860f91e-38d4-48d1-bce5-a597bb781b3a	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	glibc: glob implementation can cause excessive CPU and memory consumption	https://avd.aquasec.com/nvd/cve-2010-4756	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":4.0}]	nvd
64	2860f91e-38d4-48d1-bce5-a597bb781b3a	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	It was found that apt-key in apt, all versions, do not correctly validate gpg keys	https://avd.aquasec.com/nvd/cve-2011-3374	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.7}]	nvd
65	2860f91e-38d4-48d1-bce5-a597bb781b3a	CVE-2023-50495	{}	libncursesw6	6.4-4	os	pkg:deb/debian/libncursesw6@6.4-4?arch=amd64&distro=debian-12.7	low	6.5	not-fixed	\N	ncurses: segmentation fault via _nc_wrap_entry()	https://avd.aquasec.com/nvd/cve-2023-50495	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":6.5}]	nvd
66	465bdf63-2a57-4829-85fc-1b28fbf634d7	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	\N	https://security-tracker.debian.org/tracker/CVE-2023-45853	[{"source":"debian","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"critical","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":9.8}]	debian
67	465bdf63-2a57-4829-85fc-1b28fbf634d7	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2024-2236	[{"source":"debian","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"medium","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":5.9}]	debian
68	465bdf63-2a57-4829-85fc-1b28fbf634d7	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2010-4756	[{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"low","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":4.0}]	debian
69	7d62cbc4-5490-4746-bf7a-6e055503f2ed	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	\N	https://security-tracker.debian.org/tracker/CVE-2023-45853	[{"source":"debian","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"critical","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":9.8}]	debian
70	7d62cbc4-5490-4746-bf7a-6e055503f2ed	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2024-2236	[{"source":"debian","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"medium","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":5.9}]	debian
71	7d62cbc4-5490-4746-bf7a-6e055503f2ed	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2010-4756	[{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"low","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":4.0}]	debian
72	88f10429-9756-4e14-97ff-712214b2d46f	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	\N	https://security-tracker.debian.org/tracker/CVE-2023-45853	[{"source":"debian","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"critical","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":9.8}]	debian
73	88f10429-9756-4e14-97ff-712214b2d46f	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2024-2236	[{"source":"debian","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"medium","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":5.9}]	debian
74	88f10429-9756-4e14-97ff-712214b2d46f	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2011-3374	[{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"low","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":3.7}]	debian
75	0d73d9d1-94c7-4d3d-b2a6-6d8bf7687420	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	\N	https://security-tracker.debian.org/tracker/CVE-2023-45853	[{"source":"debian","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"critical","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":9.8}]	debian
76	0d73d9d1-94c7-4d3d-b2a6-6d8bf7687420	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	fixed	1.10.1-3+deb12u1	\N	https://security-tracker.debian.org/tracker/CVE-2024-2236	[{"source":"debian","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"medium","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":5.9}]	debian
77	0d73d9d1-94c7-4d3d-b2a6-6d8bf7687420	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	\N	https://security-tracker.debian.org/tracker/CVE-2011-3374	[{"source":"debian","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":null},{"source":"nvd","severity":"low","cvssVersion":"3.1","cvssVector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H","cvssScore":3.7}]	debian
78	9a978f45-92d9-458f-a5ca-a95671a410ac	CVE-2023-45853	{}	zlib1g	1:1.2.13.dfsg-1	os	pkg:deb/debian/zlib1g@1:1.2.13.dfsg-1?arch=amd64&distro=debian-12.7	critical	9.8	wont-fix	\N	zlib: integer overflow and resultant heap-based buffer overflow in zipOpenNewFileInZip4_6	https://avd.aquasec.com/nvd/cve-2023-45853	[{"source":"nvd","severity":"critical","cvssVersion":null,"cvssVector":null,"cvssScore":9.8}]	nvd
79	9a978f45-92d9-458f-a5ca-a95671a410ac	CVE-2024-6345	{}	setuptools	65.5.1	python	pkg:pypi/setuptools@65.5.1	high	8.8	fixed	70.0.0	pypa/setuptools: Remote code execution via download functions in the package_index module	https://avd.aquasec.com/nvd/cve-2024-6345	[{"source":"nvd","severity":"high","cvssVersion":null,"cvssVector":null,"cvssScore":8.8}]	nvd
80	9a978f45-92d9-458f-a5ca-a95671a410ac	CVE-2024-2236	{}	libgcrypt20	1.10.1-3	os	pkg:deb/debian/libgcrypt20@1.10.1-3?arch=amd64&distro=debian-12.7	medium	5.9	not-fixed	\N	libgcrypt: vulnerable to Marvin Attack	https://avd.aquasec.com/nvd/cve-2024-2236	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.9}]	nvd
81	9a978f45-92d9-458f-a5ca-a95671a410ac	CVE-2010-4756	{}	libc6	2.36-9+deb12u8	os	pkg:deb/debian/libc6@2.36-9+deb12u8?arch=amd64&distro=debian-12.7	low	4.0	not-fixed	\N	glibc: glob implementation can cause excessive CPU and memory consumption	https://avd.aquasec.com/nvd/cve-2010-4756	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":4.0}]	nvd
82	9a978f45-92d9-458f-a5ca-a95671a410ac	CVE-2011-3374	{}	apt	2.6.1	os	pkg:deb/debian/apt@2.6.1?arch=amd64&distro=debian-12.7	low	3.7	not-fixed	\N	It was found that apt-key in apt, all versions, do not correctly validate gpg keys	https://avd.aquasec.com/nvd/cve-2011-3374	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.7}]	nvd
83	9a978f45-92d9-458f-a5ca-a95671a410ac	CVE-2023-5752	{}	pip	23.0.1	python	pkg:pypi/pip@23.0.1	low	3.3	fixed	23.3	pip: Mercurial configuration injectable in repo revision when installing via pip	https://avd.aquasec.com/nvd/cve-2023-5752	[{"source":"nvd","severity":"low","cvssVersion":null,"cvssVector":null,"cvssScore":3.3}]	nvd
84	fa6ae021-895a-4b46-9497-aa35c5964ef6	CVE-2023-42366	{}	busybox	1.36.1-r29	os	pkg:apk/alpine/busybox@1.36.1-r29?arch=x86_64&distro=3.20.3	medium	5.5	fixed	1.36.1-r30	busybox: A heap-buffer-overflow in next_token()	https://avd.aquasec.com/nvd/cve-2023-42366	[{"source":"nvd","severity":"medium","cvssVersion":null,"cvssVector":null,"cvssScore":5.5}]	nvd
\.


--
-- Data for Name: vulnerability_first_seen; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.vulnerability_first_seen (version_id, vuln_id, first_seen_at) FROM stdin;
9305de1c-4363-43db-910c-bce1d38db630	CVE-2010-4756	2026-11-25 11:52:44.007007+00
9305de1c-4363-43db-910c-bce1d38db630	CVE-2011-3374	2026-11-25 11:52:44.007007+00
9305de1c-4363-43db-910c-bce1d38db630	CVE-2023-45853	2026-11-25 11:52:44.007007+00
9305de1c-4363-43db-910c-bce1d38db630	CVE-2023-50495	2026-11-25 11:52:44.007007+00
9305de1c-4363-43db-910c-bce1d38db630	CVE-2024-2236	2026-11-25 11:52:44.007007+00
9305de1c-4363-43db-910c-bce1d38db630	CVE-2024-45490	2026-11-25 11:52:44.007007+00
9305de1c-4363-43db-910c-bce1d38db630	CVE-2024-6119	2026-11-25 11:52:44.007007+00
ecf31f80-ea88-4795-bc16-ac392ade6736	CVE-2010-4756	2026-11-25 11:52:44.035165+00
ecf31f80-ea88-4795-bc16-ac392ade6736	CVE-2011-3374	2026-11-25 11:52:44.035165+00
ecf31f80-ea88-4795-bc16-ac392ade6736	CVE-2023-45853	2026-11-25 11:52:44.035165+00
ecf31f80-ea88-4795-bc16-ac392ade6736	CVE-2023-50495	2026-11-25 11:52:44.035165+00
ecf31f80-ea88-4795-bc16-ac392ade6736	CVE-2024-2236	2026-11-25 11:52:44.035165+00
ecf31f80-ea88-4795-bc16-ac392ade6736	CVE-2024-26462	2026-11-25 11:52:44.035165+00
ecf31f80-ea88-4795-bc16-ac392ade6736	CVE-2024-45490	2026-11-25 11:52:44.035165+00
ecf31f80-ea88-4795-bc16-ac392ade6736	CVE-2025-0395	2026-11-25 11:52:44.061924+00
57c750d8-4e65-4ffd-9450-b4e9776e6205	CVE-2010-4756	2026-11-25 11:52:44.088857+00
57c750d8-4e65-4ffd-9450-b4e9776e6205	CVE-2011-3374	2026-11-25 11:52:44.088857+00
57c750d8-4e65-4ffd-9450-b4e9776e6205	CVE-2023-45853	2026-11-25 11:52:44.088857+00
57c750d8-4e65-4ffd-9450-b4e9776e6205	CVE-2024-2236	2026-11-25 11:52:44.088857+00
57c750d8-4e65-4ffd-9450-b4e9776e6205	CVE-2024-26462	2026-11-25 11:52:44.088857+00
366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba	CVE-2010-4756	2026-11-25 11:52:44.114822+00
366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba	CVE-2011-3374	2026-11-25 11:52:44.114822+00
366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba	CVE-2023-45853	2026-11-25 11:52:44.114822+00
366dcf80-5592-4fcb-bfe1-ed6c17ccb9ba	CVE-2024-2236	2026-11-25 11:52:44.114822+00
9d2ebae6-1bc9-4d48-b313-0b43550d1348	CVE-2010-4756	2026-11-25 11:52:44.140872+00
9d2ebae6-1bc9-4d48-b313-0b43550d1348	CVE-2011-3374	2026-11-25 11:52:44.140872+00
9d2ebae6-1bc9-4d48-b313-0b43550d1348	CVE-2023-45853	2026-11-25 11:52:44.140872+00
9d2ebae6-1bc9-4d48-b313-0b43550d1348	CVE-2023-5752	2026-11-25 11:52:44.140872+00
9d2ebae6-1bc9-4d48-b313-0b43550d1348	CVE-2024-2236	2026-11-25 11:52:44.140872+00
9d2ebae6-1bc9-4d48-b313-0b43550d1348	CVE-2024-6345	2026-11-25 11:52:44.140872+00
74d16d2f-c7f9-453f-9df6-8c770a05b3d8	CVE-2011-3374	2026-11-25 11:52:44.167396+00
74d16d2f-c7f9-453f-9df6-8c770a05b3d8	CVE-2023-45853	2026-11-25 11:52:44.167396+00
74d16d2f-c7f9-453f-9df6-8c770a05b3d8	CVE-2024-2236	2026-11-25 11:52:44.167396+00
f507fe4b-08fa-4ea0-b8c4-3f0792f8df06	CVE-2023-42366	2026-11-25 11:52:44.192892+00
\.


--
-- Data for Name: webhooks; Type: TABLE DATA; Schema: public; Owner: icat_owner
--

COPY public.webhooks (id, tenant_id, url, events, active, secret, disabled_reason, created_at, updated_at) FROM stdin;
48a4bb61-620f-40c2-a88a-45a07e18be1a	1fb2b739-eeef-499a-a9f4-fd605ebb7e21	http://127.0.0.1:22148/hook	{scan.completed,vulnerability.detected,vulnerability.fixed,cve_watch.matched,vex.updated}	t	whsec_ZmvNYlYL1K6EklflzqMQfDU/bF1iK69C8Mzw5AQWvVQ=	\N	2026-11-25 11:52:45.248714+00	2026-11-25 11:52:45.248714+00
\.


--
-- Name: vex_statements_id_seq; Type: SEQUENCE SET; Schema: public; Owner: icat_owner
--

SELECT pg_catalog.setval('public.vex_statements_id_seq', 3, true);


--
-- Name: vulnerabilities_id_seq; Type: SEQUENCE SET; Schema: public; Owner: icat_owner
--

SELECT pg_catalog.setval('public.vulnerabilities_id_seq', 84, true);


--
-- Name: admission_decisions admission_decisions_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.admission_decisions
    ADD CONSTRAINT admission_decisions_pkey PRIMARY KEY (id);


--
-- Name: admission_policies admission_policies_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.admission_policies
    ADD CONSTRAINT admission_policies_pkey PRIMARY KEY (tenant_id);


--
-- Name: api_keys api_keys_key_hash_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);


--
-- Name: api_keys api_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);


--
-- Name: audit_log audit_log_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.audit_log
    ADD CONSTRAINT audit_log_pkey PRIMARY KEY (tenant_id, id);


--
-- Name: cve_watches cve_watches_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.cve_watches
    ADD CONSTRAINT cve_watches_pkey PRIMARY KEY (id);


--
-- Name: cve_watches cve_watches_tenant_id_cve_id_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.cve_watches
    ADD CONSTRAINT cve_watches_tenant_id_cve_id_key UNIQUE (tenant_id, cve_id);


--
-- Name: deliveries deliveries_event_id_webhook_id_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.deliveries
    ADD CONSTRAINT deliveries_event_id_webhook_id_key UNIQUE (event_id, webhook_id);


--
-- Name: deliveries deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.deliveries
    ADD CONSTRAINT deliveries_pkey PRIMARY KEY (id);


--
-- Name: dispatcher_heartbeats dispatcher_heartbeats_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.dispatcher_heartbeats
    ADD CONSTRAINT dispatcher_heartbeats_pkey PRIMARY KEY (dispatcher);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);


--
-- Name: feature_requests feature_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.feature_requests
    ADD CONSTRAINT feature_requests_pkey PRIMARY KEY (id);


--
-- Name: image_versions image_versions_image_id_tag_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.image_versions
    ADD CONSTRAINT image_versions_image_id_tag_key UNIQUE (image_id, tag);


--
-- Name: image_versions image_versions_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.image_versions
    ADD CONSTRAINT image_versions_pkey PRIMARY KEY (id);


--
-- Name: images images_name_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.images
    ADD CONSTRAINT images_name_key UNIQUE (name);


--
-- Name: images images_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.images
    ADD CONSTRAINT images_pkey PRIMARY KEY (id);


--
-- Name: images images_repository_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.images
    ADD CONSTRAINT images_repository_key UNIQUE (repository);


--
-- Name: licenses licenses_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.licenses
    ADD CONSTRAINT licenses_pkey PRIMARY KEY (tenant_id, image_id);


--
-- Name: refresh_tokens refresh_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.refresh_tokens
    ADD CONSTRAINT refresh_tokens_pkey PRIMARY KEY (id);


--
-- Name: refresh_tokens refresh_tokens_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.refresh_tokens
    ADD CONSTRAINT refresh_tokens_token_hash_key UNIQUE (token_hash);


--
-- Name: sboms sboms_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.sboms
    ADD CONSTRAINT sboms_pkey PRIMARY KEY (id);


--
-- Name: sboms sboms_scan_id_format_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.sboms
    ADD CONSTRAINT sboms_scan_id_format_key UNIQUE (scan_id, format);


--
-- Name: scans scans_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.scans
    ADD CONSTRAINT scans_pkey PRIMARY KEY (id);


--
-- Name: scans scans_version_id_input_sha256_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.scans
    ADD CONSTRAINT scans_version_id_input_sha256_key UNIQUE (version_id, input_sha256);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: setup_tokens setup_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.setup_tokens
    ADD CONSTRAINT setup_tokens_pkey PRIMARY KEY (user_id);


--
-- Name: setup_tokens setup_tokens_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.setup_tokens
    ADD CONSTRAINT setup_tokens_token_hash_key UNIQUE (token_hash);


--
-- Name: signing_keys signing_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.signing_keys
    ADD CONSTRAINT signing_keys_pkey PRIMARY KEY (id);


--
-- Name: tenants tenants_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.tenants
    ADD CONSTRAINT tenants_pkey PRIMARY KEY (id);


--
-- Name: tenants tenants_subdomain_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.tenants
    ADD CONSTRAINT tenants_subdomain_key UNIQUE (subdomain);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: vex_documents vex_documents_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vex_documents
    ADD CONSTRAINT vex_documents_pkey PRIMARY KEY (id);


--
-- Name: vex_documents vex_documents_sha256_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vex_documents
    ADD CONSTRAINT vex_documents_sha256_key UNIQUE (sha256);


--
-- Name: vex_served_documents vex_served_documents_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vex_served_documents
    ADD CONSTRAINT vex_served_documents_pkey PRIMARY KEY (version_id, format);


--
-- Name: vex_statements vex_statements_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vex_statements
    ADD CONSTRAINT vex_statements_pkey PRIMARY KEY (id);


--
-- Name: vulnerabilities vulnerabilities_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vulnerabilities
    ADD CONSTRAINT vulnerabilities_pkey PRIMARY KEY (id);


--
-- Name: vulnerabilities vulnerabilities_severity_sources_array; Type: CHECK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE public.vulnerabilities
    ADD CONSTRAINT vulnerabilities_severity_sources_array CHECK ((json_typeof(severity_sources) = 'array'::text)) NOT VALID;


--
-- Name: vulnerability_first_seen vulnerability_first_seen_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vulnerability_first_seen
    ADD CONSTRAINT vulnerability_first_seen_pkey PRIMARY KEY (version_id, vuln_id);


--
-- Name: webhooks webhooks_pkey; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.webhooks
    ADD CONSTRAINT webhooks_pkey PRIMARY KEY (id);


--
-- Name: webhooks webhooks_tenant_id_url_key; Type: CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.webhooks
    ADD CONSTRAINT webhooks_tenant_id_url_key UNIQUE (tenant_id, url);


--
-- Name: admission_decisions_tenant; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX admission_decisions_tenant ON public.admission_decisions USING btree (tenant_id, created_at DESC);


--
-- Name: api_keys_prefix; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX api_keys_prefix ON public.api_keys USING btree (tenant_id, prefix);


--
-- Name: api_keys_tenant; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX api_keys_tenant ON public.api_keys USING btree (tenant_id, created_at);


--
-- Name: audit_log_tenant; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX audit_log_tenant ON public.audit_log USING btree (tenant_id, at DESC);


--
-- Name: cve_watches_tenant; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX cve_watches_tenant ON public.cve_watches USING btree (tenant_id, created_at DESC, id DESC);


--
-- Name: deliveries_due; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX deliveries_due ON public.deliveries USING btree (next_attempt_at) WHERE (state = 'pending'::text);


--
-- Name: deliveries_webhook; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX deliveries_webhook ON public.deliveries USING btree (webhook_id, created_at DESC);


--
-- Name: events_pending; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX events_pending ON public.events USING btree (created_at) WHERE (fanned_out_at IS NULL);


--
-- Name: feature_requests_tenant; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX feature_requests_tenant ON public.feature_requests USING btree (tenant_id, created_at);


--
-- Name: image_versions_digest; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX image_versions_digest ON public.image_versions USING btree (digest);


--
-- Name: image_versions_latest_scan; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX image_versions_latest_scan ON public.image_versions USING btree (latest_scan_id);


--
-- Name: licenses_image; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX licenses_image ON public.licenses USING btree (image_id);


--
-- Name: refresh_tokens_family; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX refresh_tokens_family ON public.refresh_tokens USING btree (family_id);


--
-- Name: scans_version; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX scans_version ON public.scans USING btree (version_id, scanned_at DESC);


--
-- Name: scans_version_history; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX scans_version_history ON public.scans USING btree (version_id, scanned_at, created_at, id);


--
-- Name: users_tenant; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX users_tenant ON public.users USING btree (tenant_id, created_at DESC, id DESC);


--
-- Name: users_tenant_email; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE UNIQUE INDEX users_tenant_email ON public.users USING btree (tenant_id, lower(email));


--
-- Name: vex_statements_document; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX vex_statements_document ON public.vex_statements USING btree (document_id);


--
-- Name: vex_statements_image; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX vex_statements_image ON public.vex_statements USING btree (image_id, version_id);


--
-- Name: vex_statements_vuln_ids; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX vex_statements_vuln_ids ON public.vex_statements USING gin (vuln_ids);


--
-- Name: vulnerabilities_aliases; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX vulnerabilities_aliases ON public.vulnerabilities USING gin (aliases);


--
-- Name: vulnerabilities_scan_id; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX vulnerabilities_scan_id ON public.vulnerabilities USING btree (scan_id, id);


--
-- Name: vulnerabilities_vuln_id; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX vulnerabilities_vuln_id ON public.vulnerabilities USING btree (vuln_id);


--
-- Name: webhooks_tenant; Type: INDEX; Schema: public; Owner: icat_owner
--

CREATE INDEX webhooks_tenant ON public.webhooks USING btree (tenant_id, created_at DESC, id DESC);


--
-- Name: audit_log audit_log_number; Type: TRIGGER; Schema: public; Owner: icat_owner
--

CREATE TRIGGER audit_log_number BEFORE INSERT ON public.audit_log FOR EACH ROW EXECUTE FUNCTION public.audit_log_number();


--
-- Name: users users_keep_an_admin; Type: TRIGGER; Schema: public; Owner: icat_owner
--

CREATE TRIGGER users_keep_an_admin BEFORE DELETE OR UPDATE ON public.users FOR EACH ROW EXECUTE FUNCTION public.users_keep_an_admin();


--
-- Name: admission_decisions admission_decisions_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.admission_decisions
    ADD CONSTRAINT admission_decisions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: admission_policies admission_policies_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.admission_policies
    ADD CONSTRAINT admission_policies_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: admission_policies admission_policies_updated_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.admission_policies
    ADD CONSTRAINT admission_policies_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: api_keys api_keys_created_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_created_by_fkey FOREIGN KEY (created_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: api_keys api_keys_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: audit_log audit_log_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.audit_log
    ADD CONSTRAINT audit_log_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: cve_watches cve_watches_created_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.cve_watches
    ADD CONSTRAINT cve_watches_created_by_fkey FOREIGN KEY (created_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: cve_watches cve_watches_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.cve_watches
    ADD CONSTRAINT cve_watches_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: deliveries deliveries_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.deliveries
    ADD CONSTRAINT deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.events(id) ON DELETE CASCADE;


--
-- Name: deliveries deliveries_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.deliveries
    ADD CONSTRAINT deliveries_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: deliveries deliveries_webhook_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.deliveries
    ADD CONSTRAINT deliveries_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES public.webhooks(id) ON DELETE CASCADE;


--
-- Name: events events_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: feature_requests feature_requests_created_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.feature_requests
    ADD CONSTRAINT feature_requests_created_by_fkey FOREIGN KEY (created_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: feature_requests feature_requests_image_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.feature_requests
    ADD CONSTRAINT feature_requests_image_id_fkey FOREIGN KEY (image_id) REFERENCES public.images(id) ON DELETE SET NULL;


--
-- Name: feature_requests feature_requests_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.feature_requests
    ADD CONSTRAINT feature_requests_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: image_versions image_versions_image_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.image_versions
    ADD CONSTRAINT image_versions_image_id_fkey FOREIGN KEY (image_id) REFERENCES public.images(id) ON DELETE CASCADE;


--
-- Name: image_versions image_versions_latest_scan_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.image_versions
    ADD CONSTRAINT image_versions_latest_scan_id_fkey FOREIGN KEY (latest_scan_id) REFERENCES public.scans(id) ON DELETE SET NULL;


--
-- Name: images images_latest_version_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.images
    ADD CONSTRAINT images_latest_version_id_fkey FOREIGN KEY (latest_version_id) REFERENCES public.image_versions(id) ON DELETE SET NULL;


--
-- Name: licenses licenses_image_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.licenses
    ADD CONSTRAINT licenses_image_id_fkey FOREIGN KEY (image_id) REFERENCES public.images(id) ON DELETE CASCADE;


--
-- Name: licenses licenses_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.licenses
    ADD CONSTRAINT licenses_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: refresh_tokens refresh_tokens_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.refresh_tokens
    ADD CONSTRAINT refresh_tokens_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: refresh_tokens refresh_tokens_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.refresh_tokens
    ADD CONSTRAINT refresh_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: sboms sboms_scan_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.sboms
    ADD CONSTRAINT sboms_scan_id_fkey FOREIGN KEY (scan_id) REFERENCES public.scans(id) ON DELETE CASCADE;


--
-- Name: sboms sboms_signing_key_fk; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.sboms
    ADD CONSTRAINT sboms_signing_key_fk FOREIGN KEY (signing_key_id) REFERENCES public.signing_keys(id) NOT VALID;


--
-- Name: scans scans_version_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.scans
    ADD CONSTRAINT scans_version_id_fkey FOREIGN KEY (version_id) REFERENCES public.image_versions(id) ON DELETE CASCADE;


--
-- Name: setup_tokens setup_tokens_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.setup_tokens
    ADD CONSTRAINT setup_tokens_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: setup_tokens setup_tokens_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.setup_tokens
    ADD CONSTRAINT setup_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: users users_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: vex_served_documents vex_served_documents_signing_key_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vex_served_documents
    ADD CONSTRAINT vex_served_documents_signing_key_id_fkey FOREIGN KEY (signing_key_id) REFERENCES public.signing_keys(id);


--
-- Name: vex_served_documents vex_served_documents_version_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vex_served_documents
    ADD CONSTRAINT vex_served_documents_version_id_fkey FOREIGN KEY (version_id) REFERENCES public.image_versions(id) ON DELETE CASCADE;


--
-- Name: vex_statements vex_statements_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vex_statements
    ADD CONSTRAINT vex_statements_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.vex_documents(id) ON DELETE CASCADE;


--
-- Name: vex_statements vex_statements_image_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vex_statements
    ADD CONSTRAINT vex_statements_image_id_fkey FOREIGN KEY (image_id) REFERENCES public.images(id) ON DELETE CASCADE;


--
-- Name: vex_statements vex_statements_version_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vex_statements
    ADD CONSTRAINT vex_statements_version_id_fkey FOREIGN KEY (version_id) REFERENCES public.image_versions(id) ON DELETE CASCADE;


--
-- Name: vulnerabilities vulnerabilities_scan_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vulnerabilities
    ADD CONSTRAINT vulnerabilities_scan_id_fkey FOREIGN KEY (scan_id) REFERENCES public.scans(id) ON DELETE CASCADE;


--
-- Name: vulnerability_first_seen vulnerability_first_seen_version_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.vulnerability_first_seen
    ADD CONSTRAINT vulnerability_first_seen_version_id_fkey FOREIGN KEY (version_id) REFERENCES public.image_versions(id) ON DELETE CASCADE;


--
-- Name: webhooks webhooks_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: icat_owner
--

ALTER TABLE ONLY public.webhooks
    ADD CONSTRAINT webhooks_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id) ON DELETE CASCADE;


--
-- Name: admission_decisions; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.admission_decisions ENABLE ROW LEVEL SECURITY;

--
-- Name: admission_policies; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.admission_policies ENABLE ROW LEVEL SECURITY;

--
-- Name: api_keys; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.api_keys ENABLE ROW LEVEL SECURITY;

--
-- Name: audit_log; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.audit_log ENABLE ROW LEVEL SECURITY;

--
-- Name: cve_watches; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.cve_watches ENABLE ROW LEVEL SECURITY;

--
-- Name: deliveries; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.deliveries ENABLE ROW LEVEL SECURITY;

--
-- Name: events; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.events ENABLE ROW LEVEL SECURITY;

--
-- Name: feature_requests; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.feature_requests ENABLE ROW LEVEL SECURITY;

--
-- Name: image_versions; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.image_versions ENABLE ROW LEVEL SECURITY;

--
-- Name: images; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.images ENABLE ROW LEVEL SECURITY;

--
-- Name: image_versions licensed; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY licensed ON public.image_versions FOR SELECT USING ((image_id IN ( SELECT l.image_id
   FROM public.licenses l
  WHERE (l.tenant_id = ( SELECT public.current_tenant() AS current_tenant)))));


--
-- Name: images licensed; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY licensed ON public.images FOR SELECT USING ((id IN ( SELECT l.image_id
   FROM public.licenses l
  WHERE (l.tenant_id = ( SELECT public.current_tenant() AS current_tenant)))));


--
-- Name: licenses; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.licenses ENABLE ROW LEVEL SECURITY;

--
-- Name: admission_decisions owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.admission_decisions TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: admission_policies owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.admission_policies TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: api_keys owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.api_keys TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: audit_log owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.audit_log TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: cve_watches owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.cve_watches TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: deliveries owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.deliveries TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: events owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.events TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: feature_requests owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.feature_requests TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: image_versions owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.image_versions TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: images owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.images TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: licenses owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.licenses TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: refresh_tokens owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.refresh_tokens TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: setup_tokens owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.setup_tokens TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: users owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.users TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: webhooks owner; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY owner ON public.webhooks TO icat_owner USING (public.owner_sees_all()) WITH CHECK (public.owner_sees_all());


--
-- Name: refresh_tokens; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.refresh_tokens ENABLE ROW LEVEL SECURITY;

--
-- Name: setup_tokens; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.setup_tokens ENABLE ROW LEVEL SECURITY;

--
-- Name: admission_decisions tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.admission_decisions USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: admission_policies tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.admission_policies USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: api_keys tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.api_keys USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: audit_log tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.audit_log USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: cve_watches tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.cve_watches USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: deliveries tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.deliveries USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: events tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.events USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: feature_requests tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.feature_requests USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: licenses tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.licenses USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: refresh_tokens tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.refresh_tokens USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: setup_tokens tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.setup_tokens USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: users tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.users USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: webhooks tenant_isolation; Type: POLICY; Schema: public; Owner: icat_owner
--

CREATE POLICY tenant_isolation ON public.webhooks USING ((tenant_id = public.current_tenant())) WITH CHECK ((tenant_id = public.current_tenant()));


--
-- Name: users; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.users ENABLE ROW LEVEL SECURITY;

--
-- Name: webhooks; Type: ROW SECURITY; Schema: public; Owner: icat_owner
--

ALTER TABLE public.webhooks ENABLE ROW LEVEL SECURITY;

--
-- Name: FUNCTION active_admins_besides(p_tenant_id uuid, p_user_id uuid); Type: ACL; Schema: public; Owner: icat_owner
--

REVOKE ALL ON FUNCTION public.active_admins_besides(p_tenant_id uuid, p_user_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.active_admins_besides(p_tenant_id uuid, p_user_id uuid) TO icat_app;


--
-- Name: FUNCTION auth_api_key(p_key_hash bytea); Type: ACL; Schema: public; Owner: icat_owner
--

REVOKE ALL ON FUNCTION public.auth_api_key(p_key_hash bytea) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_api_key(p_key_hash bytea) TO icat_app;


--
-- Name: FUNCTION auth_change_password(p_user_id uuid, p_old_hash text, p_new_hash text); Type: ACL; Schema: public; Owner: icat_owner
--

REVOKE ALL ON FUNCTION public.auth_change_password(p_user_id uuid, p_old_hash text, p_new_hash text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_change_password(p_user_id uuid, p_old_hash text, p_new_hash text) TO icat_app;


--
-- Name: FUNCTION auth_complete_setup(p_token_hash bytea, p_password_hash text); Type: ACL; Schema: public; Owner: icat_owner
--

REVOKE ALL ON FUNCTION public.auth_complete_setup(p_token_hash bytea, p_password_hash text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_complete_setup(p_token_hash bytea, p_password_hash text) TO icat_app;


--
-- Name: FUNCTION auth_login_user(p_email text); Type: ACL; Schema: public; Owner: icat_owner
--

REVOKE ALL ON FUNCTION public.auth_login_user(p_email text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_login_user(p_email text) TO icat_app;


--
-- Name: FUNCTION dispatch_backlog(OUT waiting bigint, OUT oldest_seconds bigint); Type: ACL; Schema: public; Owner: icat_owner
--

REVOKE ALL ON FUNCTION public.dispatch_backlog(OUT waiting bigint, OUT oldest_seconds bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.dispatch_backlog(OUT waiting bigint, OUT oldest_seconds bigint) TO icat_app;


--
-- Name: FUNCTION dispatch_prune(p_keep interval); Type: ACL; Schema: public; Owner: icat_owner
--

REVOKE ALL ON FUNCTION public.dispatch_prune(p_keep interval) FROM PUBLIC;
GRANT ALL ON FUNCTION public.dispatch_prune(p_keep interval) TO icat_app;


--
-- Name: FUNCTION dispatch_tenants_with_work(p_limit integer); Type: ACL; Schema: public; Owner: icat_owner
--

REVOKE ALL ON FUNCTION public.dispatch_tenants_with_work(p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.dispatch_tenants_with_work(p_limit integer) TO icat_app;


--
-- Name: TABLE scans; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.scans TO icat_app;


--
-- Name: FUNCTION scan_recount(p_scan_id uuid); Type: ACL; Schema: public; Owner: icat_owner
--

REVOKE ALL ON FUNCTION public.scan_recount(p_scan_id uuid) FROM PUBLIC;


--
-- Name: TABLE admission_decisions; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT ON TABLE public.admission_decisions TO icat_app;


--
-- Name: TABLE admission_policies; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT ON TABLE public.admission_policies TO icat_app;


--
-- Name: COLUMN admission_policies.policy; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(policy) ON TABLE public.admission_policies TO icat_app;


--
-- Name: COLUMN admission_policies.updated_by; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(updated_by) ON TABLE public.admission_policies TO icat_app;


--
-- Name: COLUMN admission_policies.updated_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(updated_at) ON TABLE public.admission_policies TO icat_app;


--
-- Name: TABLE api_keys; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT ON TABLE public.api_keys TO icat_app;


--
-- Name: COLUMN api_keys.last_used_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(last_used_at) ON TABLE public.api_keys TO icat_app;


--
-- Name: COLUMN api_keys.revoked_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(revoked_at) ON TABLE public.api_keys TO icat_app;


--
-- Name: TABLE audit_log; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT ON TABLE public.audit_log TO icat_app;


--
-- Name: TABLE cve_watches; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT,DELETE ON TABLE public.cve_watches TO icat_app;


--
-- Name: TABLE deliveries; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT ON TABLE public.deliveries TO icat_app;


--
-- Name: COLUMN deliveries.state; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(state) ON TABLE public.deliveries TO icat_app;


--
-- Name: COLUMN deliveries.attempts; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(attempts) ON TABLE public.deliveries TO icat_app;


--
-- Name: COLUMN deliveries.next_attempt_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(next_attempt_at) ON TABLE public.deliveries TO icat_app;


--
-- Name: COLUMN deliveries.last_status; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(last_status) ON TABLE public.deliveries TO icat_app;


--
-- Name: COLUMN deliveries.last_error; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(last_error) ON TABLE public.deliveries TO icat_app;


--
-- Name: COLUMN deliveries.updated_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(updated_at) ON TABLE public.deliveries TO icat_app;


--
-- Name: TABLE dispatcher_heartbeats; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT,DELETE ON TABLE public.dispatcher_heartbeats TO icat_app;


--
-- Name: COLUMN dispatcher_heartbeats.beat_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(beat_at) ON TABLE public.dispatcher_heartbeats TO icat_app;


--
-- Name: TABLE events; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT ON TABLE public.events TO icat_app;


--
-- Name: COLUMN events.fanned_out_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(fanned_out_at) ON TABLE public.events TO icat_app;


--
-- Name: TABLE feature_requests; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT ON TABLE public.feature_requests TO icat_app;


--
-- Name: TABLE image_versions; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.image_versions TO icat_app;


--
-- Name: TABLE images; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.images TO icat_app;


--
-- Name: TABLE licenses; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.licenses TO icat_app;


--
-- Name: TABLE refresh_tokens; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT ON TABLE public.refresh_tokens TO icat_app;


--
-- Name: COLUMN refresh_tokens.used_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(used_at) ON TABLE public.refresh_tokens TO icat_app;


--
-- Name: COLUMN refresh_tokens.revoked_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(revoked_at) ON TABLE public.refresh_tokens TO icat_app;


--
-- Name: TABLE sboms; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.sboms TO icat_app;


--
-- Name: TABLE setup_tokens; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT ON TABLE public.setup_tokens TO icat_app;


--
-- Name: COLUMN setup_tokens.token_hash; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(token_hash) ON TABLE public.setup_tokens TO icat_app;


--
-- Name: COLUMN setup_tokens.created_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(created_at) ON TABLE public.setup_tokens TO icat_app;


--
-- Name: COLUMN setup_tokens.expires_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(expires_at) ON TABLE public.setup_tokens TO icat_app;


--
-- Name: COLUMN setup_tokens.used_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(used_at) ON TABLE public.setup_tokens TO icat_app;


--
-- Name: TABLE signing_keys; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.signing_keys TO icat_app;


--
-- Name: TABLE tenants; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.tenants TO icat_app;


--
-- Name: TABLE users; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT DELETE ON TABLE public.users TO icat_app;


--
-- Name: COLUMN users.id; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT(id) ON TABLE public.users TO icat_app;


--
-- Name: COLUMN users.tenant_id; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT(tenant_id),INSERT(tenant_id) ON TABLE public.users TO icat_app;


--
-- Name: COLUMN users.email; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT(email),INSERT(email) ON TABLE public.users TO icat_app;


--
-- Name: COLUMN users.role; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT(role),INSERT(role),UPDATE(role) ON TABLE public.users TO icat_app;


--
-- Name: COLUMN users.created_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT(created_at) ON TABLE public.users TO icat_app;


--
-- Name: COLUMN users.disabled_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT(disabled_at),UPDATE(disabled_at) ON TABLE public.users TO icat_app;


--
-- Name: COLUMN users.has_password; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT(has_password) ON TABLE public.users TO icat_app;


--
-- Name: COLUMN users.last_login_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT(last_login_at),UPDATE(last_login_at) ON TABLE public.users TO icat_app;


--
-- Name: TABLE vex_documents; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.vex_documents TO icat_app;


--
-- Name: TABLE vex_served_documents; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.vex_served_documents TO icat_app;


--
-- Name: TABLE vex_statements; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.vex_statements TO icat_app;


--
-- Name: TABLE vulnerabilities; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.vulnerabilities TO icat_app;


--
-- Name: TABLE vulnerability_first_seen; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT ON TABLE public.vulnerability_first_seen TO icat_app;


--
-- Name: TABLE webhooks; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT SELECT,INSERT,DELETE ON TABLE public.webhooks TO icat_app;


--
-- Name: COLUMN webhooks.url; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(url) ON TABLE public.webhooks TO icat_app;


--
-- Name: COLUMN webhooks.events; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(events) ON TABLE public.webhooks TO icat_app;


--
-- Name: COLUMN webhooks.active; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(active) ON TABLE public.webhooks TO icat_app;


--
-- Name: COLUMN webhooks.disabled_reason; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(disabled_reason) ON TABLE public.webhooks TO icat_app;


--
-- Name: COLUMN webhooks.updated_at; Type: ACL; Schema: public; Owner: icat_owner
--

GRANT UPDATE(updated_at) ON TABLE public.webhooks TO icat_app;


--
-- PostgreSQL database dump complete
--

\unrestrict Z90MPji07iYY2jAqNne50HI2wEKll7Vv06dNnIN1d6IMZpuOFnOAx4La6NTfiYD

