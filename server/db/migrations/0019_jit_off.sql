-- No JIT compilation for this database's sessions: for a query whose plan looks costly (a count over 80,000
-- campaigns) PostgreSQL spent 1.3 s compiling to save milliseconds; the app's queries are short (decision 044).
-- A database setting, not a connection option: PgBouncer refuses connections that carry options. A role that may
-- not change its database's settings keeps the server's default (an administrator can run this line instead).
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET jit = off', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'jit stays as the server sets it: %', SQLERRM;
END
$$;
