#!/usr/bin/env bash
# The verdict of a k6 run across everything that ran it, read from the local stack's Prometheus
# (k6-tests/lib/verdict.js: the failed share of all requests, the p95 of all of them from native histograms summed
# over runners, dropped iterations). In the cluster the same script runs as the loadtest chart's `helm test` pod,
# which also reads each runner pod's CPU. Exit: 0 pass, 99 fail, 75 inconclusive (the generator, not the system),
# 110 no such run.
#   verdict.sh TESTID [MAX_FAILED_SHARE (0.01)] [MAX_P95_SECONDS (0.5)]
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
"$PERFLAB_ROOT/scripts/stack/install.sh" >/dev/null
rc=0
"$K6_BIN" run --no-usage-report --quiet --summary-mode=disabled \
  -e PROMETHEUS_URL="http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT" -e TESTID="${1:?TESTID}" \
  -e MAX_FAILED_SHARE="${2:-0.01}" -e MAX_P95_SECONDS="${3:-0.5}" k6-tests/lib/verdict.js || rc=$?
[ "$rc" != 108 ] || rc=75   # the script aborts only for an inconclusive run
exit "$rc"
