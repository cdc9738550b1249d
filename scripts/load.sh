#!/usr/bin/env bash
# Runs a k6 script through the gateway of the running local stack with a fresh dev token.
#   load.sh smoke            k6-tests/shortener/smoke.js (what `make load` and `make test` run)
#   load.sh <path.js> [...]  any script, extra k6 arguments passed on
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"
"$PERFLAB_ROOT/scripts/install.sh" >/dev/null
script=${1:-smoke}; shift || true
[ "$script" = smoke ] && script=k6-tests/shortener/smoke.js
mkdir -p "$PERFLAB_RUN/k6"
TOKEN=$(scripts/jwt.sh token k6-load 1 3600)
"$K6_BIN" run --no-usage-report --quiet \
  -e BASE_URL="http://127.0.0.1:$PERFLAB_GATEWAY_PORT" -e TOKEN="$TOKEN" -e SUMMARY_DIR="$PERFLAB_RUN/k6" \
  "$@" "$script"
