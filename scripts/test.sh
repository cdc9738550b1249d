#!/usr/bin/env bash
# What `make test` (and CI) runs: stores up, every module's tests, then the system end to end through the gateway.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"

started_apps=0
scripts/stack.sh status | grep -q '^gateway running' || started_apps=1
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
  log "k6 smoke through the gateway (thresholds are the SLOs)"
  scripts/load.sh smoke
  log "seed 000 send proof: 150 senders, nested-requires-new vs outbox, kill -9 and SMTP faults, every committed mail delivered once"
  CHECK=1 VUS=150 DURATION=${SEND_PROOF_DURATION:-20s} scripts/bench-send.sh
fi
log "Terraform (fmt, validate with providers built here) and the workflows (actionlint, paths)"
scripts/test-infra.sh
log "Helm chart: lint, strict schemas, unit tests, a real API server (install, upgrade, uninstall)"
scripts/test-chart.sh
log "the chart's own pods on a real node: images (Jib, AOT cache), helm install --wait, calls through the gateway, helm test, a pod deleted under load"
scripts/test-node.sh
log "all tests passed"
