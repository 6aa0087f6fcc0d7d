-- Append to the regenerated migration 0010 (receipt series and verified_at; decision 027).
-- receipt_series needs no backfill: adding an identity column numbers the existing rows.
-- When the platform accepted each verified NGO or rider: the latest acceptance in the audit log, else its sign-up.
UPDATE "users" AS u
SET "verified_at" = coalesce(
  (SELECT max(a."created_at") FROM "audit_log" AS a WHERE a."target_user_id" = u."id" AND a."action" = 'account.accepted'),
  u."created_at"
)
WHERE u."verification" = 'verified' AND u."role" IN ('ngo', 'rider') AND u."verified_at" IS NULL;
