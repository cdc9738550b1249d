#!/usr/bin/env bash
# Runs a k6 script through the gateway of the running local stack with a fresh dev token.
#   load.sh smoke            the smoke of every service: k6-tests/<service>/smoke.js (what `make load` and `make test` run)
#   load.sh <path.js> [...]  any script, extra k6 arguments passed on
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"
"$PERFLAB_ROOT/scripts/install.sh" >/dev/null
script=${1:-smoke}; shift || true
mkdir -p "$PERFLAB_RUN/k6"
run() { # script user
  "$K6_BIN" run --no-usage-report --quiet \
    -e BASE_URL="http://127.0.0.1:$PERFLAB_GATEWAY_PORT" -e TOKEN="$(scripts/jwt.sh token "$2" 1 3600)" \
    -e SUMMARY_DIR="$PERFLAB_RUN/k6" "${@:3}" "$1"
}
if [ "$script" = smoke ]; then
  run k6-tests/shortener/smoke.js k6-load "$@"
  run k6-tests/mail/smoke.js alice "$@"   # alice: a seeded mail account (make seed)
  run k6-tests/mail/send.js alice -e VUS=5 -e DURATION=10s -e SUMMARY_NAME=mail-send-smoke "$@"
else
  run "$script" "${K6_USER:-alice}" "$@"
fi
