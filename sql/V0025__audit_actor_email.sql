-- The audit log names the person behind each entry by email as well as by id (issue 25): a
-- person's id tells nothing once they are deleted, and what they did (the API keys they created,
-- above all) must stay attributable to someone. Every portal entry writes the email of the person
-- as the request found them (LoadCurrentPerson, common/src/auth.cpp); NULL for keys, the operator
-- and anonymous callers.
-- Runs as the owner role (icat_owner), which sees every tenant's rows (V0009).
ALTER TABLE audit_log ADD COLUMN actor_email text;

-- Entries written before this migration: the email of their person where that person still exists
-- (emails of users never change; a person deleted before it stays without one).
UPDATE audit_log a SET actor_email = u.email
FROM users u
WHERE a.actor = 'user:' || u.id::text AND u.tenant_id = a.tenant_id;
