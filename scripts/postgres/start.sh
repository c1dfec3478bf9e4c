#!/usr/bin/env bash
# Starts a private PostgreSQL for herald's tests and benches, from Debian's packages, with
# all its state in $PG_DIR (nothing in /etc, no system cluster touched). Installs the package
# when missing. Writes $PG_DIR/env with DATABASE_URL=postgres://... for the tests.
#
#   PG_DIR=$(mktemp -d /tmp/pg.XXXXXX) scripts/postgres/start.sh
#   PG_DIR=... scripts/postgres/stop.sh
#
# Several instances run side by side on one machine, each in its own PG_DIR: the port (PG_PORT
# if given) is the first free one from 15432 up, and the unix socket lives in $PG_DIR/run.
# PostgreSQL refuses to run as root: as root, the server runs as the user `postgres` (which
# the package creates), owning $PG_DIR.
set -euo pipefail

D=${PG_DIR:?set PG_DIR to an empty directory, e.g. \$(mktemp -d /tmp/pg.XXXXXX)}
here=$(cd "$(dirname "$0")" && pwd)

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "postgres: package postgresql missing; run as root to install it" >&2
    exit 1
  fi
  echo "postgres: installing postgresql" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi

trap '"$here/stop.sh"' ERR
mkdir -p "$D"
D=$(cd "$D" && pwd)
if [ "$(id -u)" = 0 ]; then
  owner=postgres
  as() { runuser -u postgres -- "$@"; }
else
  owner=$(id -un)
  as() { "$@"; }
fi
chown "$owner" "$D"
chmod 755 "$D"
as mkdir -p "$D/run"

# One start at a time picks its port (until the server listens on it).
exec 9> /tmp/herald-postgres.lock
flock 9
free() { # port: nothing listens there
  ! { exec 3<> "/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || { exec 3<&- 3>&-; return 1; }
}
port=${PG_PORT:-}
if [ -z "$port" ]; then
  for k in $(seq 0 200); do
    if free $((15432 + k)); then
      port=$((15432 + k))
      break
    fi
  done
fi
if [ -z "$port" ]; then
  echo "postgres: no free port" >&2
  exit 1
fi

pass=herald
if [ ! -f "$D/data/PG_VERSION" ]; then
  echo "$pass" > "$D/pwfile"
  chown "$owner" "$D/pwfile"
  as "$bin/initdb" -D "$D/data" -U herald --pwfile="$D/pwfile" -A scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 >"$D/initdb.log" 2>&1
  rm -f "$D/pwfile"
fi
# A test server: no fsync (its data is thrown away with $PG_DIR), enough connections for
# parallel tests each with a pool.
as "$bin/pg_ctl" -D "$D/data" -l "$D/postgres.log" -w -t 60 \
  -o "-p $port -k $D/run -c listen_addresses=127.0.0.1 -c fsync=off \
      -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
  start 9>&- >/dev/null

url="postgres://herald:$pass@127.0.0.1:$port/postgres"
{
  echo "PG_PORT=$port"
  echo "PG_BIN=$bin"
  echo "DATABASE_URL=$url"
} > "$D/env"
echo "postgres: listening on 127.0.0.1:$port ($D/env)" >&2
