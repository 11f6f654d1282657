#!/usr/bin/env bash
# Debian packages the test suite needs: Chromium and the Noto CJK fonts (browser tests and
# screenshots; without the fonts Chinese renders as empty boxes), PostgreSQL (persistence
# tests), Redis (cluster tests, tests/server/test_cluster.py) and Node.js (the web client's unit
# tests, tests/web/js, run by `node --test`). Installed only when missing; needs root (CI runs
# as root).
set -euo pipefail

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || need+=(fonts-noto-cjk)
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  need+=(postgresql)
fi
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || need+=(redis-server)
command -v node >/dev/null 2>&1 || need+=(nodejs)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-system-deps: missing ${need[*]}; run as root (or install them) to run every test" >&2
  exit 0
fi
echo "install-system-deps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
