#!/usr/bin/env bash
# Runs a k6 script through the gateway of the running local stack with a fresh dev token.
#   load.sh smoke            the smoke of every service (the smoke lines of services/*/service.env; make load, make test)
#   load.sh <path.js> [...]  any script, extra k6 arguments passed on
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"
"$PERFLAB_ROOT/scripts/install.sh" >/dev/null
script=${1:-smoke}; shift || true
# Every metric of this run is tagged testid=$TESTID and, when the local stack's Prometheus answers, written into it
# (k6's remote-write output), where the k6 dashboard and scripts/verdict.sh find the run.
export TESTID="${TESTID:-local-$(date +%Y%m%d-%H%M%S)}"
out=()
if curl -fs "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/-/ready" >/dev/null 2>&1; then
  out=(--out experimental-prometheus-rw)
  export K6_PROMETHEUS_RW_SERVER_URL="http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/api/v1/write"
  export K6_PROMETHEUS_RW_TREND_STATS="${K6_PROMETHEUS_RW_TREND_STATS:-p(50),p(90),p(95),p(99),max}"
fi
# Summaries (JSON and text per script) go to a folder per run, named by time, git revision and run id.
results="${SUMMARY_OUT:-$PERFLAB_RUN/results/$(date +%Y%m%d-%H%M%S)-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)-$TESTID}"
mkdir -p "$results"
log "k6 run id (testid): $TESTID${out:+, metrics in Prometheus :$PERFLAB_PROMETHEUS_PORT}, summaries in $results"
# CALLERS=n: n dev users (<user>, <user>-2, ... in office 1), one token each, spread over the VUs (k6-tests/lib/config.js)
callers() { # user
  local i
  scripts/jwt.sh token "$1" 1 3600
  for i in $(seq 2 "${CALLERS:-1}"); do printf ' '; scripts/jwt.sh token "$1-$i" 1 3600; done
}
run() { # script user
  "$K6_BIN" run --no-usage-report --quiet --tag testid="$TESTID" "${out[@]}" \
    -e BASE_URL="http://127.0.0.1:$PERFLAB_GATEWAY_PORT" -e TOKEN="$(scripts/jwt.sh token "$2" 1 3600)" \
    -e CALLER_TOKENS="$(callers "$2")" -e SUMMARY_DIR="$results" "${@:3}" "$1"
}
if [ "$script" = smoke ]; then
  # each service's smoke lines (services/<name>/service.env: "<script> <user> [k6 args]"; alice is a seeded user);
  # every smoke runs, and the run fails at the end naming each smoke that failed
  failed=()
  for n in "${PERFLAB_SERVICES[@]}"; do
    while read -r js user args; do
      [ -n "$js" ] || continue
      read -ra extra <<<"$args"
      run "k6-tests/$js" "$user" "${extra[@]}" "$@" </dev/null || failed+=("$js (k6 exit $?)")
    done <<<"$(service_conf "$n" smoke)"
  done
  [ ${#failed[@]} -eq 0 ] || { log "smokes failed: ${failed[*]}"; exit 1; }
else
  run "$script" "${K6_USER:-alice}" "$@"
fi
