-- Which API key made an admission decision: its listed prefix (the 14 characters the portal shows),
-- so an operator can tell which cluster's webhook asked. Never the key itself (docs/admission.md).
-- Old rows have none.
ALTER TABLE admission_decisions ADD COLUMN key_prefix text CHECK (char_length(key_prefix) <= 14);
