#!/usr/bin/env bash
# Stops the PostgreSQL that start.sh started in $PG_DIR (fast shutdown, then immediate).
set -u
D=${PG_DIR:?set PG_DIR}
[ -f "$D/data/postmaster.pid" ] || exit 0
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ "$(id -u)" = 0 ]; then
  as() { runuser -u postgres -- "$@"; }
else
  as() { "$@"; }
fi
as "$bin/pg_ctl" -D "$D/data" -m fast -w -t 30 stop >/dev/null 2>&1 \
  || as "$bin/pg_ctl" -D "$D/data" -m immediate -w -t 30 stop >/dev/null 2>&1
exit 0
