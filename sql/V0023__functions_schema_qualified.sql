-- Functions that Postgres may run with an empty search_path call their helpers by schema, so a
-- plain pg_dump of the database restores as it is (docs/migrations.md, "Backups"). pg_dump and
-- pg_restore set search_path to '' while they copy rows: the generated column vex_statements.
-- subcomponent_keys calls purl_keys(), which called purl_key() unqualified and failed the restore;
-- a dump that reads under row-level security evaluates owner_sees_all(), which called
-- current_tenant() unqualified. Same bodies otherwise; written by schema rather than with a SET
-- search_path clause, which would stop Postgres inlining them (owner_sees_all() is in every policy).
-- Runs as the owner role.
CREATE OR REPLACE FUNCTION purl_keys(p_purls text[]) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT ARRAY(SELECT public.purl_key(p) FROM unnest(p_purls) p) $$;
CREATE OR REPLACE FUNCTION owner_sees_all() RETURNS boolean LANGUAGE sql STABLE AS
$$ SELECT session_user = current_user OR public.current_tenant() IS NULL $$;
