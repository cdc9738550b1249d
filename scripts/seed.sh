#!/usr/bin/env bash
# Deterministic demo data through the gateway: SCALE short links (default 50) owned by user "demo", pointing at
# https://example.com/demo/<n>. Idempotent: links already seeded (listed in .run/seed/shortener.tsv) are kept.
set -euo pipefail
source "$(dirname "$0")/env.sh"
SCALE=${SCALE:-50}
out="$PERFLAB_RUN/seed/shortener.tsv"
mkdir -p "$(dirname "$out")"
touch "$out"
have=$(wc -l <"$out")
if [ "$have" -ge "$SCALE" ]; then
  log "demo data present: $have short links (first: $(head -n 1 "$out" | cut -f2))"
  exit 0
fi
token=$("$PERFLAB_ROOT"/scripts/jwt.sh token demo 1 600)
base="http://127.0.0.1:$PERFLAB_GATEWAY_PORT"
for n in $(seq $((have + 1)) "$SCALE"); do
  code=$(curl -fsS -X POST "$base/v1/short-links" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"url\":\"https://example.com/demo/$n\"}" | sed -E 's/.*"code":"([A-Za-z0-9]+)".*/\1/')
  printf '%s\t%s\n' "$n" "$base/s/$code" >>"$out"
  (( n % 10 == 0 )) && log "seeded $n/$SCALE short links"
done
log "demo data: $SCALE short links, e.g. $(head -n 1 "$out" | cut -f2)"
