#!/usr/bin/env bash
# Installs what the tests need (Chromium, PostgreSQL, poppler-utils, HAProxy, PgBouncer, OpenSSL, npm packages) and runs every test:
# type check, lint (layer boundaries and format), unit and integration tests on PGlite and PostgreSQL, then end-to-end tests in
# Chromium against the production build.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
# pdftoppm renders PDFs (posters, receipts) to images for the tests that read their QR codes back.
command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
# The balancer test (tests/e2e/balancer.spec.ts) puts two app servers behind HAProxy on loopback.
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
# The named statements' test (tests/integration/named-statements.test.ts) runs the app's queries behind Debian's PgBouncer.
command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
# The balancer test ends TLS at HAProxy, as docs/deployment.md does, with a certificate it makes for the run.
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]} from Debian's packages..."
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

pg_version="$(ls /etc/postgresql | sort -n | tail -1)"
if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  as_root pg_ctlcluster "$pg_version" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
as_root su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" >/dev/null
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/postgres}"

npm install --no-audit --no-fund
npm run typecheck
npm run lint
npm test
npm run build
npm run test:e2e
