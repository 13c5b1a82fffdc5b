#!/usr/bin/env bash
# Run before `npm test` (the `pretest` script): the suite needs PostgreSQL and Redis on their standard local
# ports, Debian's Chromium for the browser tests and Debian's HAProxy for the deployment tests. Whatever is missing is started or installed here, so that
# `npm install && npm test` passes on a fresh machine of this project's kind; a missing service then fails the tests,
# it never skips them.
set -euo pipefail

if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  echo "PostgreSQL is down: starting it"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "Redis is down: starting it"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p 5432 && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break
  sleep 1
done

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v haproxy >/dev/null || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Missing ${missing[*]}: installing Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
