#!/usr/bin/env bash
# What `make test` (and CI) runs: stores up, every module's tests, then the system end to end through the gateway.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"

started_apps=0
scripts/stack.sh status | grep '^gateway running' >/dev/null || started_apps=1
cleanup() { [ "$started_apps" = 0 ] || scripts/stack.sh down >/dev/null 2>&1 || true; }
trap cleanup EXIT

scripts/stack.sh stores
log "unit and service tests (real MariaDB, Redis and MongoDB-wire on loopback)"
./mvnw -B -ntp install
if [ -d e2e ]; then
  scripts/stack.sh up
  MAILS=${MAILS:-20000} LINKS=${LINKS:-20} scripts/seed.sh
  log "end-to-end tests through the gateway with real JWTs"
  ./mvnw -B -ntp -Pe2e -pl e2e test
  log "the README's and docs' API examples, run against the stack as a reader pastes them"
  scripts/check-doc-commands.py
  refused="$PERFLAB_RUN/refused-example.md"
  cat >"$refused" <<'MD'
```
TOKEN=$(scripts/jwt.sh token alice 1)
curl -s -XPOST localhost:8080/v2/mails/send -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"sender_no":1}'
```
MD
  if scripts/check-doc-commands.py "$refused" >/dev/null; then
    log "the example check passed a send the API refuses (400): it cannot fail"; exit 1
  fi
  log "k6 smoke through the gateway (thresholds are the SLOs), its metrics remote-written to the local Prometheus"
  smoke_id="smoke-$(date +%Y%m%d-%H%M%S)"
  TESTID=$smoke_id scripts/load.sh smoke
  log "the run's verdict from Prometheus (every request of the run, tagged testid=$smoke_id), and a limit it must fail"
  scripts/verdict.sh "$smoke_id" 0.01 1.0
  if scripts/verdict.sh "$smoke_id" 0.01 0.000001 >/dev/null 2>&1; then
    log "the verdict passed a run against a 1 µs p95 limit: it cannot fail"; exit 1
  fi
  log "every query of the k6 dashboard answered by Prometheus for that run"
  scripts/check-dashboard-queries.py --prometheus "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT" --set testid="$smoke_id" \
    --empty-ok "Dropped iterations/s (arrival-rate executors short of VUs): k6 sends it only when an iteration was dropped" \
    charts/perflab-loadtest/files/dashboards/k6.json
  log "every query of every perflab dashboard and alert rule answered by Prometheus (and a metric nobody exports fails)"
  scripts/check-dashboards.sh
  log "a broken endpoint turns a smoke red: the shortener stopped 6 s into its smoke (k6 must exit 99, thresholds crossed)"
  red=0
  (sleep 6; scripts/stack.sh stop shortener) &
  TESTID="red-$(date +%Y%m%d-%H%M%S)" scripts/load.sh k6-tests/shortener/smoke.js -e DURATION=12s >"$PERFLAB_RUN/logs/smoke-red.log" 2>&1 || red=$?
  wait
  scripts/stack.sh start shortener
  [ "$red" = 99 ] || { log "the smoke against a stopped shortener exited $red, not 99 (see $PERFLAB_RUN/logs/smoke-red.log)"; exit 1; }
  log "a day in the office: every service at once through the gateway, five callers, thresholds as SLOs"
  CALLERS=5 TESTID="day-$(date +%Y%m%d-%H%M%S)" scripts/load.sh k6-tests/office/day.js -e DURATION=10s
  log "A/B report from a short run: route points-fetch jdbc-stream vs interface-projection (route read directly, its body cache off in both)"
  # a route of the seed (15-20k points), whatever else earlier runs wrote
  seeded=$(mariadb --no-defaults --socket="$PERFLAB_RUN/mariadb.sock" -uroot perflab_route -N \
    -e "SELECT MIN(id) FROM route WHERE created_by = 'seed' AND office = '1'")
  ab=$(AB_ENV=PERFLAB_ROUTE_BODYCACHE_MAXSIZE=0 AB_DIRECT=1 scripts/ab.sh route points-fetch jdbc-stream interface-projection \
    k6-tests/route/readers.js -e ROUTE="$seeded" -e MODE=sustained -e VUS=10 -e DURATION=10s | tail -n 1)
  python3 - "$ab" <<'PY'
import json, sys
from pathlib import Path
d = Path(sys.argv[1])
r = json.loads((d / "ratios.json").read_text())
assert (d / "report.html").read_text().count("<polyline") >= 12, "the report's plots are empty"
assert "in effect (perflab_lab_switch_info): A jdbc-stream, B interface-projection" in (d / "report.md").read_text(), \
    "the report does not show the service's own word that the switch flipped"
# B is seed 002's interface projection: slower, fewer reads per second, far more allocation per request
problems = [f"{k} B/A {r.get(k)} not {op} {x}" for k, op, x in [
    ("latency p95", ">", 2), ("iterations/s", "<", 0.5), ("allocated per request (service)", ">", 2)]
    if r.get(k) is None or not (r[k] > x if op == ">" else r[k] < x)]
if problems:
    sys.exit("A/B direction wrong: " + "; ".join(problems))
print((d / "report.md").read_text())
PY
  log "seed 000 send proof: 150 senders, nested-requires-new vs outbox, kill -9 and SMTP faults, every committed mail delivered once"
  CHECK=1 VUS=150 DURATION=${SEND_PROOF_DURATION:-20s} scripts/bench-send.sh
  log "seeds 001 and 003 notifier proof: in-transaction-sync vs after-commit-async, burst, SMS down, kill -9, every SMS counted at the sink"
  CHECK=1 scripts/bench-notifier.sh
  log "store outages and crashes under load: MariaDB, MongoDB-wire and Redis each down 8 s (503 problem+json or success, readiness, recovery without restart); the shortener and mail killed (kill -9) and the route stopped (SIGTERM) under load, every 2xx create found once and every mail delivered"
  OUTAGE_FOR=8 OUTAGE_AT=4 AFTER=6 scripts/reliability.sh mariadb mongo-wire redis kill:shortener term:route kill:mail
fi
log "Terraform (fmt, validate with providers built here) and the workflows (actionlint, paths)"
scripts/test-infra.sh
log "Helm chart: lint, strict schemas, unit tests, a real API server (install, upgrade, uninstall)"
scripts/test-chart.sh
log "the chart's own pods on a real node: images (Jib, AOT cache), helm install --wait, calls through the gateway, helm test, a pod deleted under load"
scripts/test-node.sh
log "all tests passed"
