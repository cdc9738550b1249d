#!/usr/bin/env bash
# Every service's OpenAPI document against the service itself, through the gateway of a running local stack
# (`make up`): Schemathesis sends requests the document calls valid and invalid, runs every check (an undocumented
# status or content type, a valid request refused, an invalid one accepted, an answer off its schema, a 5xx), and
# fails on any failure. Reproducible: a fixed seed and a bounded number of examples per operation. One JUnit report
# per service in $PERFLAB_RUN/results/api-contract/.
#   scripts/test/api-contract.sh [service...]     (default: every services/<name>/service.env)
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"

SCHEMATHESIS_VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
SCHEMATHESIS_VENV="$PERFLAB_CACHE/venv-schemathesis-$SCHEMATHESIS_VERSION"
API_CONTRACT_SEED="${API_CONTRACT_SEED:-1}"
API_CONTRACT_MAX_EXAMPLES="${API_CONTRACT_MAX_EXAMPLES:-25}"
GATEWAY="http://127.0.0.1:$PERFLAB_GATEWAY_PORT"
REPORTS="$PERFLAB_RUN/results/api-contract"

if ! { [ -x "$SCHEMATHESIS_VENV/bin/st" ] && "$SCHEMATHESIS_VENV/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; }; then
  log "python venv with schemathesis==$SCHEMATHESIS_VERSION"
  python3 -m venv "$SCHEMATHESIS_VENV"
  "$SCHEMATHESIS_VENV/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION"
fi

services=("$@")
[ ${#services[@]} -gt 0 ] || services=("${PERFLAB_SERVICES[@]}")
curl -sf -o /dev/null "$GATEWAY/v3/api-docs/${services[0]}" \
  || { log "no gateway answering on $GATEWAY (start the stack: make up)"; exit 1; }

TOKEN=$(scripts/lib/jwt.sh token alice 1)
mkdir -p "$REPORTS"
failed=()
for service in "${services[@]}"; do
  start=$SECONDS
  log "api contract: $service"
  if "$SCHEMATHESIS_VENV/bin/st" run "$GATEWAY/v3/api-docs/$service" --url "$GATEWAY" \
      -H "Authorization: Bearer $TOKEN" --checks all --seed "$API_CONTRACT_SEED" \
      --max-examples "$API_CONTRACT_MAX_EXAMPLES" --no-color \
      --report junit --report-junit-path "$REPORTS/$service.xml"; then
    log "api contract: $service passed in $((SECONDS - start)) s"
  else
    log "api contract: $service FAILED in $((SECONDS - start)) s (report: $REPORTS/$service.xml)"
    failed+=("$service")
  fi
done
[ ${#failed[@]} -eq 0 ] || { log "api contract failed: ${failed[*]}"; exit 1; }
log "api contract: every document tells the truth (${services[*]})"
