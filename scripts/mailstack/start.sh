#!/usr/bin/env bash
# Starts a private mail stack on loopback for herald's end-to-end tests: Dovecot (IMAP, LMTP,
# and SMTP submission with STARTTLS and implicit TLS, relaying to OpenSMTPD) and OpenSMTPD
# (SMTP, delivering to Dovecot by LMTP), from Debian's packages,
# configured entirely inside $MAILSTACK_DIR (nothing in /etc is touched). Installs the
# packages when missing. Writes $MAILSTACK_DIR/env with the ports, for the tests.
#
#   MAILSTACK_DIR=$(mktemp -d /tmp/ms.XXXXXX) scripts/mailstack/start.sh
#   MAILSTACK_DIR=... scripts/mailstack/stop.sh
#
# Users (MAIL_USERS, "name:password ..."): mail to name@herald.test, IMAP login "name".
#
# Several stacks run side by side on one machine, each in its own MAILSTACK_DIR: ports not
# given (SMTP_PORT, IMAP_PORT, ...) are the first free set among 10025/10143/... plus a
# multiple of 1000, and OpenSMTPD, whose queue (/var/spool/smtpd) and control socket
# (/var/run/smtpd.sock) are fixed when it is built, runs in a mount namespace of its own
# (unshare) where both are directories of $MAILSTACK_DIR ($D/smtpd.sh starts it so).
set -euo pipefail

D=${MAILSTACK_DIR:?set MAILSTACK_DIR to an empty directory, e.g. \$(mktemp -d /tmp/ms.XXXXXX)}
MAIL_USERS=${MAIL_USERS:-"judge:judgepw gm:gmpw p1:pw1 p2:pw2 p3:pw3 p4:pw4 p5:pw5 p6:pw6 p7:pw7"}
here=$(cd "$(dirname "$0")" && pwd)

if [ "$(id -u)" != 0 ]; then
  echo "mailstack: run as root (OpenSMTPD needs it; CI runs as root)" >&2
  exit 1
fi
if ! command -v dovecot >/dev/null || ! command -v smtpd >/dev/null \
  || [ ! -x /usr/lib/dovecot/submission ]; then
  echo "mailstack: installing dovecot-imapd dovecot-lmtpd dovecot-submissiond opensmtpd" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    dovecot-imapd dovecot-lmtpd dovecot-submissiond opensmtpd >/dev/null
fi

trap '"$here/stop.sh"' ERR
mkdir -p "$D"
chmod 755 "$D"

# One start at a time chooses ports (until its servers listen on them); the servers must not
# inherit the lock (9>&- below), or it would be held for as long as they run.
exec 9> /tmp/herald-mailstack.lock
flock 9
free() { # port: nothing listens there
  ! { exec 3<> "/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || { exec 3<&- 3>&-; return 1; }
}
given=${SMTP_PORT:-}${IMAP_PORT:-}${LMTP_PORT:-}${IMAPS_PORT:-}${SUBMISSION_PORT:-}${SUBMISSIONS_PORT:-}
for k in $(seq 0 40); do
  o=$((k * 1000))
  SMTP_PORT=${SMTP_PORT:-$((10025 + o))} IMAP_PORT=${IMAP_PORT:-$((10143 + o))}
  LMTP_PORT=${LMTP_PORT:-$((10024 + o))} IMAPS_PORT=${IMAPS_PORT:-$((10993 + o))}
  SUBMISSION_PORT=${SUBMISSION_PORT:-$((10587 + o))}
  SUBMISSIONS_PORT=${SUBMISSIONS_PORT:-$((10465 + o))}
  if [ -n "$given" ]; then break; fi
  if free $SMTP_PORT && free $IMAP_PORT && free $LMTP_PORT && free $IMAPS_PORT \
    && free $SUBMISSION_PORT && free $SUBMISSIONS_PORT; then
    break
  fi
  unset SMTP_PORT IMAP_PORT LMTP_PORT IMAPS_PORT SUBMISSION_PORT SUBMISSIONS_PORT
done
if [ -z "${SMTP_PORT:-}" ]; then
  echo "mailstack: no free set of ports" >&2
  exit 1
fi
uid=$(id -u dovecot)
gid=$(id -g dovecot)

: > "$D/passwd"
: > "$D/smtpd-users"
for pair in $MAIL_USERS; do
  user=${pair%%:*}
  pass=${pair#*:}
  mkdir -p "$D/mail/$user"
  chown -R "$uid:$gid" "$D/mail/$user"
  echo "$user:{PLAIN}$pass:$uid:$gid::$D/mail/$user::" >> "$D/passwd"
  echo "$user $uid:$gid:/var/empty" >> "$D/smtpd-users"
done

# A test CA and a certificate for localhost signed by it: Dovecot's IMAPS, its STARTTLS and
# its SMTP submission (STARTTLS and implicit TLS) use the certificate, and the tests trust
# the CA (ca.pem) as their CA file. (OpenSMTPD 6.8 is left without TLS: on OpenSSL 3 its
# handshakes fail on the server side, "EVP lib"; TLS mail goes in through Dovecot's
# submission service, which relays to it.)
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=herald test CA" \
  -keyout "$D/ca.key" -out "$D/ca.pem" >/dev/null 2>&1
openssl req -newkey rsa:2048 -nodes -subj /CN=localhost \
  -keyout "$D/key.pem" -out "$D/server.csr" >/dev/null 2>&1
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' > "$D/server.ext"
openssl x509 -req -in "$D/server.csr" -CA "$D/ca.pem" -CAkey "$D/ca.key" -CAcreateserial \
  -days 2 -extfile "$D/server.ext" -out "$D/cert.pem" >/dev/null 2>&1
chmod 600 "$D/key.pem" "$D/ca.key"
chmod 644 "$D/cert.pem" "$D/ca.pem"

cat > "$D/dovecot.conf" <<CONF
protocols = imap lmtp submission
listen = 127.0.0.1
hostname = localhost
submission_relay_host = 127.0.0.1
submission_relay_port = $SMTP_PORT
submission_relay_trusted = yes
base_dir = $D/base
state_dir = $D/state
instance_name = herald-ms-$IMAP_PORT
log_path = $D/dovecot.log
ssl = yes
ssl_cert = <$D/cert.pem
ssl_key = <$D/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = $uid
mail_location = maildir:~/Maildir
mail_fsync = never
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n $D/passwd
}
userdb {
  driver = passwd-file
  args = username_format=%n $D/passwd
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
  }
}
service submission-login {
  chroot =
  inet_listener submission {
    address = 127.0.0.1
    port = $SUBMISSION_PORT
  }
  inet_listener submissions {
    address = 127.0.0.1
    port = $SUBMISSIONS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
protocol lmtp {
  postmaster_address = postmaster@herald.test
}
protocol imap {
  mail_max_userip_connections = 100
}
CONF

cat > "$D/smtpd.conf" <<CONF
table users file:$D/smtpd-users
listen on 127.0.0.1 port $SMTP_PORT
action "dovecot" lmtp "127.0.0.1:$LMTP_PORT" rcpt-to userbase <users>
match from any for any action "dovecot"
CONF

wait_for() { # port, greeting prefix
  for _ in $(seq 1 100); do
    if { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null; then
      if read -r -t 2 line <&3 && [[ "$line" == "$2"* ]]; then
        exec 3<&- 3>&-
        return 0
      fi
      exec 3<&- 3>&-
    fi
    sleep 0.1
  done
  echo "mailstack: nothing answered '$2' on port $1" >&2
  return 1
}

dovecot -F -c "$D/dovecot.conf" >> "$D/dovecot.out" 2>&1 9>&- &
echo $! > "$D/dovecot.pid"
wait_for "$IMAP_PORT" "* OK"
wait_for "$LMTP_PORT" "220"
wait_for "$SUBMISSION_PORT" "220"
doveadm -c "$D/dovecot.conf" auth test judge "$(echo "$MAIL_USERS" | tr ' ' '\n' | grep '^judge:' | cut -d: -f2)" >/dev/null

# OpenSMTPD's queue and control socket, private to this stack: in its own mount namespace,
# $D/smtpd-spool is /var/spool/smtpd and $D/run is /run (so /var/run/smtpd.sock is
# $D/run/smtpd.sock). Every step execs the next, so the pid is smtpd's own.
mkdir -p "$D/run" /var/spool/smtpd
mkdir -m 711 -p "$D/smtpd-spool"
cat > "$D/smtpd.sh" <<SH
#!/bin/sh
exec unshare --mount --propagation private sh -c '
  mount --bind "$D/smtpd-spool" /var/spool/smtpd &&
  mount --bind "$D/run" /run &&
  exec smtpd -d -f "$D/smtpd.conf"'
SH
chmod 755 "$D/smtpd.sh"
"$D/smtpd.sh" > "$D/smtp.log" 2>&1 9>&- &
echo $! > "$D/smtp.pid"
wait_for "$SMTP_PORT" "220"

cat > "$D/env" <<ENV
HERALD_TEST_SMTP_PORT=$SMTP_PORT
HERALD_TEST_IMAP_PORT=$IMAP_PORT
HERALD_TEST_MAILSTACK=$D
HERALD_TEST_IMAPS_PORT=$IMAPS_PORT
HERALD_TEST_CA=$D/ca.pem
HERALD_TEST_SUBMISSION_PORT=$SUBMISSION_PORT
HERALD_TEST_SUBMISSIONS_PORT=$SUBMISSIONS_PORT
ENV
echo "mailstack up: SMTP 127.0.0.1:$SMTP_PORT  IMAP 127.0.0.1:$IMAP_PORT  dir=$D"
