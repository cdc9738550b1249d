#!/usr/bin/env bash
# The gateway hop and the redirect path, measured side by side in one run with one load generator (wrk, loopback):
#   nginx `return 302` (the physical reference) | shortener direct | gateway (edge cache hit)
#   | gateway with the edge cache off (a plain proxy hop) | an authenticated API read, gateway vs direct.
# Needs the running stack (make up). Run it on a quiet machine: every process shares the same cores. Usage: scripts/bench-gateway.sh [seconds per run, default 10] [connections, 64]
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"
PERFLAB_WITH_BENCH_TOOLS=1 scripts/install.sh >/dev/null
secs=${1:-10}; conns=${2:-64}
NGINX_PORT=${PERFLAB_BENCH_NGINX_PORT:-18081}
PROXY_PORT=${PERFLAB_BENCH_PROXY_GATEWAY_PORT:-18080}
gw="http://127.0.0.1:$PERFLAB_GATEWAY_PORT"; direct="http://127.0.0.1:$PERFLAB_SHORTENER_PORT"
out="$PERFLAB_RUN/bench"; mkdir -p "$out"

# nginx, one worker, answering every request with a 302: what a redirect costs with nothing behind it
cat >"$out/nginx.conf" <<CONF
worker_processes 1; daemon off; pid $out/nginx.pid; error_log $out/nginx.err warn;
events { worker_connections 4096; }
http { access_log off; server { listen 127.0.0.1:$NGINX_PORT; location / { return 302 https://example.com/; } } }
CONF
/usr/sbin/nginx -c "$out/nginx.conf" -p "$out" & nginx_pid=$!
# a second gateway with the edge cache off and the per-caller and per-IP rate limits out of the way: the cost of the hop itself
SERVER_PORT=$PROXY_PORT MANAGEMENT_SERVER_PORT=$(mgmt_port $PROXY_PORT) PERFLAB_GATEWAY_EDGE_CACHE_ENABLED=false PERFLAB_GATEWAY_RATE_LIMIT_REPLENISH_RATE=1000000 \
  PERFLAB_GATEWAY_RATE_LIMIT_BURST_CAPACITY=1000000 PERFLAB_GATEWAY_RATE_LIMIT_PER_IP_REPLENISH_RATE=1000000 \
  PERFLAB_GATEWAY_RATE_LIMIT_PER_IP_BURST_CAPACITY=1000000 SPRING_PROFILES_ACTIVE=local \
  JAVA_TOOL_OPTIONS="$PERFLAB_JVM_OPTS" java -jar gateway/target/gateway.jar >"$out/proxy-gateway.log" 2>&1 & proxy_pid=$!
trap 'kill $nginx_pid $proxy_pid 2>/dev/null || true' EXIT
until curl -fs "http://127.0.0.1:$(mgmt_port $PROXY_PORT)/actuator/health/readiness" >/dev/null; do sleep 0.5; done

token=$(scripts/jwt.sh token bench 1 3600)
code=$(curl -fsS -X POST "$gw/v1/short-links" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"url":"https://example.com/bench"}' | sed -E 's/.*"code":"([A-Za-z0-9]+)".*/\1/')

results=()
run() { # label url [header...]
  local label=$1 url=$2; shift 2
  local args=() h
  for h in "$@"; do args+=(-H "$h"); done
  wrk -t1 -c"$conns" -d"${WARMUP:-8}s" "${args[@]}" "$url" >/dev/null   # warm-up: JIT, pools, caches
  local text rps p50 p99 non2xx
  text=$(wrk -t1 -c"$conns" -d"${secs}s" --latency "${args[@]}" "$url")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$text")
  p50=$(awk '$1=="50%" {print $2}' <<<"$text"); p99=$(awk '$1=="99%" {print $2}' <<<"$text")
  non2xx=$(awk '/Non-2xx or 3xx/ {print $5}' <<<"$text"); non2xx=${non2xx:-0}
  results+=("$label|$rps|$p50|$p99|$non2xx")
  printf '%-44s %10s req/s  p50 %-9s p99 %-9s errors %s\n' "$label" "$rps" "$p50" "$p99" "$non2xx"
}

echo "wrk -t1 -c$conns, ${secs}s per run, code $code, $(nproc) cores shared by load generator and system"
run "nginx return 302 (reference)" "http://127.0.0.1:$NGINX_PORT/s/$code"
run "redirect: shortener direct" "$direct/s/$code"
run "redirect: gateway, edge cache hit" "$gw/s/$code"
run "redirect: gateway, edge cache off (proxy)" "http://127.0.0.1:$PROXY_PORT/s/$code"
run "API read: shortener direct" "$direct/v1/short-links/$code" "X-Perflab-Identity: $(scripts/jwt.sh identity perflab-gateway bench 1 shortener 3600)"
run "API read: gateway (JWT, rate limit, proxy)" "http://127.0.0.1:$PROXY_PORT/v1/short-links/$code" "Authorization: Bearer $token"

rps() { cut -d'|' -f2 <<<"${results[$1]}"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "gateway edge hit / nginx:              $(ratio "$(rps 2)" "$(rps 0)")  (target >= 0.25)"
echo "gateway edge hit / shortener direct:   $(ratio "$(rps 2)" "$(rps 1)")"
echo "gateway proxy hop / shortener direct:  $(ratio "$(rps 3)" "$(rps 1)")"
echo "API read through gateway / direct:     $(ratio "$(rps 5)" "$(rps 4)")"
printf '%s\n' "${results[@]}" >"$out/gateway-hop.psv"
