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
st() { "$SCHEMATHESIS_VENV/bin/st" --config-file scripts/test/schemathesis.toml run "$@" --url "$GATEWAY" \
  -H "Authorization: Bearer $TOKEN" --seed "$API_CONTRACT_SEED" --no-color; }

# It can fail: mail's document without the 404s it states, against the same service, must be refused (a mail number
# that names no mail of alice's is answered 404, which that document would not mention).
jq 'del(.paths[][].responses["404"])' <(curl -sf "$GATEWAY/v3/api-docs/mail") >"$REPORTS/mail-without-404.json"
if st "$REPORTS/mail-without-404.json" --include-path '/v2/mails/{no}' --include-method GET --max-examples 10 \
    >"$REPORTS/mail-without-404.log" 2>&1; then
  log "Schemathesis passed a document that leaves out a status the service answers: this check cannot fail"; exit 1
fi
grep -q 'ST103' "$REPORTS/mail-without-404.log" \
  || { log "Schemathesis refused the document without its 404s, but not for an undocumented status:"; tail -20 "$REPORTS/mail-without-404.log"; exit 1; }
failed=()
for service in "${services[@]}"; do
  start=$SECONDS
  log "api contract: $service"
  if st "$GATEWAY/v3/api-docs/$service" --max-examples "$API_CONTRACT_MAX_EXAMPLES" \
      --report junit --report-junit-path "$REPORTS/$service.xml"; then
    log "api contract: $service passed in $((SECONDS - start)) s"
  else
    log "api contract: $service FAILED in $((SECONDS - start)) s (report: $REPORTS/$service.xml)"
    failed+=("$service")
  fi
done
[ ${#failed[@]} -eq 0 ] || { log "api contract failed: ${failed[*]}"; exit 1; }
log "api contract: every document tells the truth (${services[*]})"
