#!/usr/bin/env bash
# Stops the mail stack that start.sh started in $MAILSTACK_DIR: TERM, then KILL after 10 s.
set -u
D=${MAILSTACK_DIR:?set MAILSTACK_DIR}
for name in smtp dovecot; do
  f="$D/$name.pid"
  [ -f "$f" ] || continue
  pid=$(cat "$f")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$f"
done
# OpenSMTPD's helpers and Dovecot's children go with their masters; make sure.
pkill -f "smtpd -d -f $D/smtpd.conf" 2>/dev/null || true
pkill -f "dovecot -F -c $D/dovecot.conf" 2>/dev/null || true
exit 0
