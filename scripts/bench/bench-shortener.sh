#!/usr/bin/env bash
# Seed 004's comparison in one run: link creation with Snowflake ids (fixed) vs the findAndModify counter
# (baseline, perflab.shortener.id-strategy=mongo-sequence), two shortener processes on the same stores, the
# same wrk load (loopback, bounded). Needs the stores (scripts/stack/stack.sh stores) and a built shortener.
# Usage: scripts/bench/bench-shortener.sh [seconds per run, default 10] [connections, default 32]
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
PERFLAB_WITH_BENCH_TOOLS=1 scripts/stack/install.sh >/dev/null
secs=${1:-10}; conns=${2:-32}
out="$PERFLAB_RUN/bench"; mkdir -p "$out"
[ -f services/shortener/target/shortener.jar ] || ./mvnw -q -B -pl services/shortener -am package -DskipTests
# straight at the shortener, without the gateway: an identity as the gateway signs it (docs/architecture.md#service-identity)
scripts/lib/jwt.sh keys
PERFLAB_BENCH_IDENTITY=$(scripts/lib/jwt.sh identity perflab-gateway bench 1 shortener 3600)
export PERFLAB_BENCH_IDENTITY

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
for spec in snowflake:18084 mongo-sequence:18085; do
  strategy=${spec%%:*}; port=${spec##*:}
  start_jvm shortener services/shortener/target/shortener.jar "$port" "$out/shortener-$strategy.log" \
    PERFLAB_SHORTENER_IDSTRATEGY="$strategy"
  pids+=($!)
done
await_ready 18084 "${pids[0]}" "$out/shortener-snowflake.log" && await_ready 18085 "${pids[1]}" "$out/shortener-mongo-sequence.log" || exit 1

cat >"$out/create.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Perflab-Identity"] = os.getenv("PERFLAB_BENCH_IDENTITY")
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, '{"url":"https://example.com/bench/' .. n .. '"}')
end
LUA

declare -A rps
run() { # label port
  wrk -t1 -c"$conns" -d2s -s "$out/create.lua" "http://127.0.0.1:$2/v1/short-links" >/dev/null
  local text; text=$(wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$out/create.lua" "http://127.0.0.1:$2/v1/short-links")
  rps[$1]=$(awk '/Requests\/sec/ {print $2}' <<<"$text")
  printf '%-34s %10s creates/s  p50 %-9s p99 %-9s non-2xx %s\n' "$1" "${rps[$1]}" \
    "$(awk '$1=="50%" {print $2}' <<<"$text")" "$(awk '$1=="99%" {print $2}' <<<"$text")" \
    "$(awk '/Non-2xx or 3xx/ {print $5}' <<<"$text" | grep . || echo 0)"
}
echo "POST /v1/short-links, wrk -t1 -c$conns, ${secs}s per run, same MongoDB-wire and Redis"
run "snowflake (fixed)" 18084
run "mongo-sequence (seed baseline)" 18085
awk -v a="${rps[snowflake (fixed)]}" -v b="${rps[mongo-sequence (seed baseline)]}" \
  'BEGIN { printf "snowflake / mongo-sequence: %.2fx creates/s\n", a / b }'
