#!/usr/bin/env bash
# Makes sure a PostgreSQL server the tests can use is up on 127.0.0.1:5432, with the role and database
# named by WEIR_TEST_JDBC_URL's defaults (user weir, password weir, database weir_test).
# Installs Debian's postgresql package if it is missing (root only), starts the cluster, and creates the
# role and database if they are missing. Idempotent. Exit status 0 when the server answers, 1 otherwise.
set -uo pipefail

log() { echo "test-postgres: $*" >&2; }

if command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432 \
   && PGPASSWORD=weir psql -q -h 127.0.0.1 -U weir -d weir_test -c 'select 1' >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  log "no PostgreSQL server with role 'weir' on 127.0.0.1:5432, and not root: cannot install or start one"
  exit 1
fi
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  log "installing Debian's postgresql package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q postgresql >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q postgresql >/dev/null; } \
    || { log "apt-get install postgresql failed"; exit 1; }
fi
if [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  log "creating cluster $version/main"
  pg_createcluster "$version" main >/dev/null || { log "pg_createcluster failed"; exit 1; }
fi
read -r version cluster port status _ < <(pg_lsclusters -h | head -n 1)
if [ "$status" != online ]; then
  log "starting cluster $version/$cluster on port $port"
  pg_ctlcluster "$version" "$cluster" start || { log "pg_ctlcluster start failed"; exit 1; }
fi
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 1
done
as_postgres() { (cd / && runuser -u postgres -- psql -q -p "$port" -v ON_ERROR_STOP=1 "$@"); }
if [ "$(as_postgres -tAc "select 1 from pg_roles where rolname = 'weir'")" != 1 ]; then
  as_postgres -c "create role weir login password 'weir'" || exit 1
fi
if [ "$(as_postgres -tAc "select 1 from pg_database where datname = 'weir_test'")" != 1 ]; then
  as_postgres -c "create database weir_test owner weir" || exit 1
fi
PGPASSWORD=weir psql -q -h 127.0.0.1 -p "$port" -U weir -d weir_test -c 'select 1' >/dev/null \
  || { log "the server is up but role weir cannot connect to weir_test"; exit 1; }
log "PostgreSQL $version is up on 127.0.0.1:$port (database weir_test, role weir)"
