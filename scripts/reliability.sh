#!/usr/bin/env bash
# Store outages under load, through the gateway: for each store, a bounded k6 run of the requests that need it
# (k6-tests/reliability/outage.js) with the store stopped for OUTAGE_FOR seconds in the middle, then started again.
# It fails unless
#   - every answer meanwhile is a success or a 503 problem+json with Retry-After within BOUND_MS (no 500, no hang),
#   - the services that need the store report readiness false during the outage (and the others stay ready),
#   - they are ready again within READY_WITHIN seconds of the store's return, and every request succeeds after a grace
#     (GRACE: 35 s for MariaDB, whose pools HikariCP refills at its housekeeping run, every 30 s, once it gave up
#     creating connections during the outage; 10 s for the others),
#   - by the same processes: nothing was restarted.
# Redis down is degraded service, not an outage: the gateway limits rates per instance (FallbackRateLimiter), the
# shortener reads MongoDB instead of its cache; every service stays ready.
#
#   scripts/reliability.sh [mariadb|mongo-wire|redis ...]     (make reliability; make test: OUTAGE_FOR=8)
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"
"$PERFLAB_ROOT/scripts/install.sh" >/dev/null

OUTAGE_AT=${OUTAGE_AT:-5}
OUTAGE_FOR=${OUTAGE_FOR:-20}
AFTER=${AFTER:-10}
READY_WITHIN=${READY_WITHIN:-60}
STORES=("$@")
[ ${#STORES[@]} -gt 0 ] || STORES=(mariadb mongo-wire redis)

scripts/stack.sh status | grep '^gateway running' >/dev/null || { log "the stack is not up: make up first"; exit 1; }

# the services that need a store (their readiness includes it)
dependents() {
  case "$1" in
    mariadb) for n in "${PERFLAB_SERVICES[@]}"; do [ -z "$(service_conf "$n" databases)" ] || echo "$n"; done ;;
    mongo-wire) echo shortener ;;
    redis) ;;
  esac
}
ready() { curl -fs -o /dev/null "http://127.0.0.1:$(( $(service_port "$1") + 1000 ))/actuator/health/readiness"; }
service_port() { local v; v=$(service_var "$1" PORT); echo "${!v}"; }
pids() { for n in "${PERFLAB_SERVICES[@]}" gateway; do printf '%s=%s ' "$n" "$(cat "$PERFLAB_RUN/pids/$n.pid" 2>/dev/null)"; done; }

results="$PERFLAB_RUN/results/$(date +%Y%m%d-%H%M%S)-reliability"
mkdir -p "$results"
report="$results/report.md"
printf '| store | down for | requests | 503 while down | bad answers | not ready while down | ready again after | restarted |\n|---|---|---|---|---|---|---|---|\n' >"$report"
rc=0
for store in "${STORES[@]}"; do
  mapfile -t needs < <(dependents "$store")
  grace=${GRACE:-$([ "$store" = mariadb ] && echo 35 || echo 10)}
  log "$store down for ${OUTAGE_FOR} s under load (needed by: ${needs[*]:-nobody, a degraded service})"
  before_pids=$(pids)
  start_ms=$(( $(date +%s%3N) + 2000 ))
  duration=$(( OUTAGE_AT + OUTAGE_FOR + grace + AFTER + 2 ))
  "$K6_BIN" run --no-usage-report --quiet -e BASE_URL="http://127.0.0.1:$PERFLAB_GATEWAY_PORT" \
    -e TOKEN="$(scripts/jwt.sh token alice 1 3600)" -e STORE="$store" -e START_MS="$start_ms" \
    -e OUTAGE_AT="$OUTAGE_AT" -e OUTAGE_FOR="$OUTAGE_FOR" -e GRACE="$grace" -e DURATION="${duration}s" \
    -e SUMMARY_DIR="$results" k6-tests/reliability/outage.js >"$results/$store.log" 2>&1 &
  k6_pid=$!
  sleep "$(awk "BEGIN{print ($start_ms + $OUTAGE_AT*1000 - $(date +%s%3N))/1000}")"
  scripts/stack.sh stop "$store" >/dev/null
  declare -A unready=()
  until_ms=$(( start_ms + (OUTAGE_AT + OUTAGE_FOR) * 1000 ))
  while [ "$(date +%s%3N)" -lt "$until_ms" ]; do
    for n in "${PERFLAB_SERVICES[@]}"; do ready "$n" || unready[$n]=1; done
    sleep 0.5
  done
  back=$(date +%s)
  scripts/stack.sh stores >/dev/null
  ready_after=""
  for _ in $(seq 1 $(( READY_WITHIN * 2 ))); do
    all=1; for n in "${PERFLAB_SERVICES[@]}"; do ready "$n" || { all=0; break; }; done
    [ "$all" = 0 ] || { ready_after=$(( $(date +%s) - back )); break; }
    sleep 0.5
  done
  k6_rc=0; wait "$k6_pid" || k6_rc=$?
  after_pids=$(pids)
  summary="$results/outage-$store-summary.json"
  read -r total refused badn < <(python3 - "$summary" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
val = lambda k, f: int(m[k]["values"][f]) if k in m else 0
print(val("http_reqs", "count"), val("outage_refused_503", "count"), val("outage_bad_answers", "count"))
PY
)
  problems=()
  [ "$k6_rc" = 0 ] || problems+=("k6 exit $k6_rc (thresholds: no bad answer, every request served before and after; see $results/$store.log)")
  for n in "${needs[@]}"; do [ -n "${unready[$n]:-}" ] || problems+=("$n stayed ready while $store was down"); done
  for n in "${PERFLAB_SERVICES[@]}"; do
    printf '%s\n' "${needs[@]}" | grep -qx "$n" || [ -z "${unready[$n]:-}" ] || problems+=("$n went unready without needing $store")
  done
  [ -n "$ready_after" ] || problems+=("not every service ready within ${READY_WITHIN} s of $store's return")
  [ "$before_pids" = "$after_pids" ] || problems+=("a process was restarted: $before_pids -> $after_pids")
  printf '| %s | %s s | %s | %s | %s | %s | %s | %s |\n' "$store" "$OUTAGE_FOR" "$total" "$refused" "$badn" \
    "$(printf '%s ' "${!unready[@]}")" "${ready_after:-never} s" "$([ "$before_pids" = "$after_pids" ] && echo no || echo yes)" >>"$report"
  unset unready
  if [ ${#problems[@]} -gt 0 ]; then
    rc=1; log "$store: FAILED"; printf '  %s\n' "${problems[@]}"
    grep -m 10 'level=warning' "$results/$store.log" | sed 's/^/    /' || true
  else
    log "$store: $total requests, $refused refused with 503 while it was down, 0 bad answers; ready again ${ready_after} s after its return; nothing restarted"
  fi
done
cat "$report"
log "report: $report"
exit "$rc"
