#!/usr/bin/env bash
# The gateway hop and the redirect path, measured side by side in one run on loopback:
#   nginx `return 302` (the physical reference) | shortener direct | nginx `proxy_pass` in front of the shortener
#   | gateway (edge cache hit) | gateway with the edge cache off (a plain proxy hop) | an authenticated API read,
#   gateway vs direct, then the redirect under an open model. Every ratio is printed against its goal.
# Which tool measures which row, and why:
#   closed-loop rows (every row above, `ab` too)  wrk (-t1 -cCONNS): a fixed number of connections, each sending its
#       next request once the last is answered; one C thread drives tens of thousands of redirects/s, so the
#       capacity measured is the hop's, not the generator's (req/s, p50, p99, CPU per request)
#   open-model rows (after them)  fortio (`fortio load -qps R`): a constant arrival rate, whatever the hop answers;
#       it reports the requests it could not send on schedule, so a row whose generator fell behind is marked
#       inconclusive instead of measuring the generator's wait
#   `cold` and `warm-start`  the load runner's shortener-smoke (load-tests/): seed 004's mix, a link created then
#       followed ten times, each step checked (a 201, a 301/302 to that link), at a constant arrival rate: a
#       multi-step scenario neither wrk nor fortio can send
# Needs the running stack (make up). Run it on a quiet machine: every process shares the same cores.
# Usage: scripts/bench/bench-gateway.sh [seconds per run, default 10] [connections, 64]
# Settings (environment):
#   PERFLAB_BENCH_JFR=1         record a JFR profile of the proxy gateway during the proxy-hop and API-read rows
#                               ($PERFLAB_RUN/bench/proxy-gateway.jfr) and print its hot methods
#   PERFLAB_BENCH_A_JAR=path    the proxy gateway's jar (default gateway/target/gateway.jar)
#   PERFLAB_BENCH_B_JAR=path    a second proxy gateway ("B", another build) measured in the same run, rows after A's
#   PROXY_WARMUP=240            at most this many seconds of load on each path of each JVM before any row: each is read
#                               until its JIT compiler settled (warm_jit in env.sh)
#   PERFLAB_BENCH_DIRECT_HEADERS="Name: value|..."  how the direct API read names its caller (default: a signed identity)
#   PERFLAB_BENCH_QUICK=1       only the shortener and gateway rows (an A/B of two builds or settings)
#   WARMUP=8                    seconds of load before each row
#   PERFLAB_BENCH_A_ENV / _B_ENV  extra "K=V ..." environment for the A / B proxy gateway (A/B a setting in one run)
#   PERFLAB_BENCH_BARE=0        leave out the bare Spring Cloud Gateway rows (the framework's floor, bench/bare-gateway)
#   PERFLAB_BENCH_OPEN=0        leave out the open-model rows (fortio at a constant rate, after the closed-loop rows; they
#                               need the bare rows): PERFLAB_BENCH_OPEN_RATES (1000) beside half the direct row's capacity,
#                               OPEN_SECS (15) per row, OPEN_CONNS (fortio's connections, default the rate / 10)
#   PERFLAB_BENCH_PIN=1         the gateways and nginx on core 1, the shortener and wrk on core 0 (taskset), as pods
#                               with CPU of their own: what the hop costs when it does not take the service's CPU
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
# shellcheck source=scripts/bench/bench-tools.sh
source "$(dirname "$0")/bench-tools.sh"
cd "$PERFLAB_ROOT"
mode=run; case "${1:-}" in cold|ab|warm-start) mode=$1; shift ;; esac
secs=${1:-10}; conns=${2:-64}
NGINX_PORT=${PERFLAB_BENCH_NGINX_PORT:-18081}
NGINX_PROXY_PORT=${PERFLAB_BENCH_NGINX_PROXY_PORT:-18082}
PROXY_PORT=${PERFLAB_BENCH_PROXY_GATEWAY_PORT:-18080}   # management port +1000, like every instance
B_PORT=${PERFLAB_BENCH_B_GATEWAY_PORT:-18070}
BARE_PORT=18060   # bench/bare-gateway on Server WebFlux
MVC_PORT=18050    # and on Server MVC
gw="http://127.0.0.1:$PERFLAB_GATEWAY_PORT"; direct="http://127.0.0.1:$PERFLAB_SHORTENER_PORT"
out="$PERFLAB_RUN/bench"; mkdir -p "$out"
case $mode in cold | warm-start) bench_runner "$out" ;; *) bench_tools ;; esac   # the generators of the mode's rows

# warm-start: a fresh gateway's first minute with each JDK AOT cache (scripts/bench/gateway-warm-start.sh)
if [ "$mode" = warm-start ]; then
  # shellcheck source=scripts/bench/gateway-warm-start.sh
  source "$(dirname "$0")/gateway-warm-start.sh"
  warm_start "$@"
  exit 0
fi

# scripts/bench/bench-gateway.sh cold [seconds, default 60] [iterations/s, default 200]: the first minute of a gateway.
# A fresh gateway (the stack's settings: edge cache on, default rate limits) on the proxy port; once its readiness
# turns UP, seed 004's mix (the load runner's shortener-smoke: create one link, follow it ten times) runs at a constant
# arrival rate, the runner set up paused (its setup probes the gateway) and started at once. Prints the time to
# readiness and to the load's start, failed creates and redirects, and the p95 of each.
if [ "$mode" = cold ]; then
  secs=${1:-60}; rate=${2:-200}
  # named gateway.jar, as the stack's: an AOT cache is bound to its class path's jar names, so the stack's cache of
  # this build maps (a copy named otherwise always started without one)
  mkdir -p "$out/cold"; cp "${PERFLAB_BENCH_A_JAR:-gateway/target/gateway.jar}" "$out/cold/gateway.jar"
  # shellcheck disable=SC2086  # the command made (its jar extracted, its cache found) before the clock starts
  app_jvm gateway "$out/cold/gateway.jar" "$PROXY_PORT" ${PERFLAB_BENCH_A_ENV:-}
  with="no AOT cache"; [[ "${APP_JVM[*]}" != *-XX:AOTCache=* ]] || with="the stack's AOT cache"
  token=$(scripts/lib/jwt.sh token "cold-$RANDOM" 1 3600); rm -f "$out/cold/shortener-smoke-summary.json"
  t0=$(date +%s.%N)
  "${APP_JVM[@]}" >"$out/cold-gateway.log" 2>&1 &
  cold_pid=$!; RUNNER_PID=""
  trap 'kill $cold_pid $RUNNER_PID 2>/dev/null || true' EXIT
  trap 'exit 1' INT TERM
  await_ready "$PROXY_PORT" "$cold_pid" "$out/cold-gateway.log" || exit 1
  t1=$(date +%s.%N); ready=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  runner_paused run shortener-smoke BASE_URL="http://127.0.0.1:$PROXY_PORT" TOKEN="$token" RATE="$rate" DURATION="${secs}s" \
    WARMUP=0s SUMMARY_DIR="$out/cold" >"$out/cold/runner.txt" 2>&1 || { echo "the load runner never started: $out/cold/runner.txt" >&2; exit 1; }
  runner_start || exit 1
  at=$(awk -v a="$t1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  wait "$RUNNER_PID" || true; RUNNER_PID=""
  scripts/bench/gateway-cold.py "$out/cold/shortener-smoke-summary.json" "$ready" "$rate" "$secs" "$with" "$at"
  grep -o '"message":"warm-up[^"]*"' "$out/cold-gateway.log" || true
  exit 0
fi

# nginx, one worker: a 302 with nothing behind it, and a reverse proxy with a keep-alive upstream pool in front of
# the shortener (what a hop costs when the proxy does nothing else)
cat >"$out/nginx.conf" <<CONF
worker_processes 1; daemon off; pid $out/nginx.pid; error_log $out/nginx.err warn;
events { worker_connections 4096; }
http {
  access_log off;
  server { listen 127.0.0.1:$NGINX_PORT; location / { return 302 https://example.com/; } }
  upstream shortener { server 127.0.0.1:$PERFLAB_SHORTENER_PORT; keepalive 128; }
  server {
    listen 127.0.0.1:$NGINX_PROXY_PORT;
    location / { proxy_pass http://shortener; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
CONF
/usr/sbin/nginx -c "$out/nginx.conf" -p "$out" & nginx_pid=$!

# a proxy gateway with the edge cache off and the per-caller and per-IP rate limits out of the way: the cost of the hop itself
start_proxy() { # port jar extra-env log
  # shellcheck disable=SC2086
  start_jvm gateway "$2" "$1" "$4" PERFLAB_GATEWAY_EDGE_CACHE_ENABLED=false \
    PERFLAB_GATEWAY_RATE_LIMIT_REPLENISH_RATE=1000000 PERFLAB_GATEWAY_RATE_LIMIT_BURST_CAPACITY=1000000 \
    PERFLAB_GATEWAY_RATE_LIMIT_PER_IP_REPLENISH_RATE=1000000 PERFLAB_GATEWAY_RATE_LIMIT_PER_IP_BURST_CAPACITY=1000000 $3
}
cp "${PERFLAB_BENCH_A_JAR:-gateway/target/gateway.jar}" "$out/gateway-a.jar"   # a copy: a rebuild must not pull the jar from under it
start_proxy "$PROXY_PORT" "$out/gateway-a.jar" "${PERFLAB_BENCH_A_ENV:-}" "$out/proxy-gateway.log"; proxy_pid=$!
b_pid=
if [ -n "${PERFLAB_BENCH_B_JAR:-}${PERFLAB_BENCH_B_ENV:-}" ]; then   # B: another build, or A's jar with other settings
  cp "${PERFLAB_BENCH_B_JAR:-$out/gateway-a.jar}" "$out/gateway-b.jar"
  start_proxy "$B_PORT" "$out/gateway-b.jar" "${PERFLAB_BENCH_B_ENV:-}" "$out/proxy-gateway-b.log"; b_pid=$!
fi
# the framework's floor: Spring Cloud Gateway, the same version, one route to the shortener, nothing of ours and
# every per-request extra the gateway turned off left off (bench/bare-gateway): what no change of ours can go below.
# Server WebFlux (what the gateway is built on) and Server MVC on virtual threads, side by side.
bare_pid=; mvc_pid=
if [ "$mode" = run ] && [ -z "${PERFLAB_BENCH_QUICK:-}" ] && [ "${PERFLAB_BENCH_BARE:-1}" != 0 ]; then
  start_bare() { # name maven-profile port: builds the jar when its sources are newer, starts it on the port
    local jar=bench/bare-gateway/target/$1.jar
    if [ ! -f "$jar" ] || [ -n "$(find bench/bare-gateway/pom.xml bench/bare-gateway/src pom.xml -newer "$jar" -type f)" ]; then
      ./mvnw -q -B -ntp -f bench/bare-gateway/pom.xml -P "$2" package -DskipTests
    fi
    cp "$jar" "$out/$1.jar"
    start_jvm "$1" "$out/$1.jar" "$3" "$out/$1.log" JAVA_TOOL_OPTIONS="$PERFLAB_JVM_OPTS"   # no AOT cache of its own
  }
  start_bare bare-gateway webflux "$BARE_PORT"; bare_pid=$!
  start_bare bare-gateway-mvc webmvc "$MVC_PORT"; mvc_pid=$!
fi
pinned=()   # pids whose CPU affinity this run changed, given all cores back at exit
cleanup() {
  kill $nginx_pid $proxy_pid $b_pid $bare_pid $mvc_pid 2>/dev/null || true
  for p in "${pinned[@]}"; do taskset -a -p -c "0-$(( $(nproc) - 1 ))" "$p" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT
trap 'exit 1' INT TERM
for port in "$PROXY_PORT" ${b_pid:+$B_PORT} ${bare_pid:+$BARE_PORT} ${mvc_pid:+$MVC_PORT}; do
  await_ready "$port" "" "$out/*.log" || exit 1
done

shortener_pid=$(cat "$PERFLAB_RUN/pids/shortener.pid")
nginx_worker=$(pgrep -P "$nginx_pid" | head -n 1)
pin_wrk=()
if [ -n "${PERFLAB_BENCH_PIN:-}" ]; then
  [ "$(nproc)" -ge 2 ] || { echo "PERFLAB_BENCH_PIN needs 2 cores" >&2; exit 1; }
  stack_gateway_pid=$(cat "$PERFLAB_RUN/pids/gateway.pid")
  for p in $proxy_pid $b_pid $bare_pid $mvc_pid "$stack_gateway_pid" $nginx_pid $nginx_worker; do taskset -a -p -c 1 "$p" >/dev/null; done
  taskset -a -p -c 0 "$shortener_pid" >/dev/null
  pinned=("$shortener_pid" "$stack_gateway_pid")
  pin_wrk=(taskset -c 0)
  echo "pinned: gateways and nginx on core 1, the shortener and wrk on core 0 (the stores on either)"
fi
token=$(scripts/lib/jwt.sh token bench 1 3600)
code=$(curl -fsS -X POST "$gw/v1/short-links" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"url":"https://example.com/bench"}' | jq -er .code)

# wrk prints latencies as 812.00us / 1.23ms / 1.01s
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /[0-9]s$/) n *= 1000;
  printf "%.3f", n }'; }

# CPU per request (env.sh's cpu_ticks) is the figure the noise of a shared machine disturbs least (req/s depends on
# what else got the cores)
hz=$(getconf CLK_TCK)
declare -A RPS P50 ERR
results=()
run() { # key label url cpu-pid [header...]: cpu-pid is the proxy whose CPU per request is shown (or "")
  local key=$1 label=$2 url=$3 pid=$4; shift 4
  local args=() h
  for h in "$@"; do args+=(-H "$h"); done
  "${pin_wrk[@]}" wrk -t1 -c"$conns" -d"${WARMUP:-8}s" "${args[@]}" "$url" >/dev/null   # warm-up: JIT, pools, caches
  local text rps p50 p99 errors t0 t1 st0 st1 n cpu
  t0=$(cpu_ticks "$pid"); st0=$(cpu_ticks "$shortener_pid")
  text=$("${pin_wrk[@]}" wrk -t1 -c"$conns" -d"${secs}s" --latency "${args[@]}" "$url")
  t1=$(cpu_ticks "$pid"); st1=$(cpu_ticks "$shortener_pid")
  n=$(awk '/requests in/ {print $1}' <<<"$text")
  cpu=$(awk -v a=$((t1 - t0)) -v s=$((st1 - st0)) -v n="$n" -v hz="$hz" -v p="$pid" \
    'BEGIN { printf "cpu/req: %s shortener %.0f us", p == "" ? "" : sprintf("proxy %.0f us,", a / hz * 1e6 / n), s / hz * 1e6 / n }')
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$text")
  p50=$(awk '$1=="50%" {print $2}' <<<"$text"); p99=$(awk '$1=="99%" {print $2}' <<<"$text")
  # errors: answers that are not 2xx/3xx plus socket errors (connect, read, write, timeout)
  errors=$(awk '/Non-2xx or 3xx/ {n += $5} /Socket errors/ {gsub(",", ""); n += $4 + $6 + $8 + $10} END {print n + 0}' <<<"$text")
  RPS[$key]=$rps; P50[$key]=$(to_ms "$p50"); ERR[$key]=$errors
  results+=("$key|$label|$rps|$p50|$p99|$errors|$cpu")
  printf '%-46s %10s req/s  p50 %-9s p99 %-9s errors %-3s %s\n' "$label" "$rps" "$p50" "$p99" "$errors" "$cpu"
}
jfr_start() { [ -n "${PERFLAB_BENCH_JFR:-}" ] && jcmd "$proxy_pid" JFR.start name=hop settings=profile \
  filename="$out/proxy-gateway.jfr" >/dev/null || true; }

# A fresh JVM runs a path interpreted and C1-compiled for its first tens of thousands of requests, and C2 keeps
# compiling for minutes under load (a fresh gateway serving one 191 KB body: 1,160 -> 4,380 reads/s over 140 s, while
# its compiler spent 117 s of CPU). Each JVM a row measures is read on each of its paths until its compiler settled
# (warm_jit in env.sh, at most PROXY_WARMUP seconds per path, 240): the shortener (the direct rows), the stack's gateway
# (the edge hit) and each proxy gateway. A row then compares steady states, not compilers.
direct_identity="X-Perflab-Identity: $(scripts/lib/jwt.sh identity perflab-gateway bench 1 shortener 3600)"
warm_path() { # management-port url [header]
  local h=(); [ -z "${3:-}" ] || h=(-H "$3")
  echo "  warm-up $2: $(warm_jit "$1" "${PROXY_WARMUP:-240}" "${pin_wrk[@]}" wrk -t1 -c"$conns" -d5s "${h[@]}" "$2")"
}
warm_path "$(mgmt_port "$PERFLAB_SHORTENER_PORT")" "$direct/s/$code"
[ "$mode" = ab ] || warm_path "$(mgmt_port "$PERFLAB_SHORTENER_PORT")" "$direct/v1/short-links/$code" "$direct_identity"
[ "$mode" = ab ] || [ -n "${PERFLAB_BENCH_QUICK:-}" ] || warm_path "$(mgmt_port "$PERFLAB_GATEWAY_PORT")" "$gw/s/$code"
for port in "$PROXY_PORT" ${b_pid:+$B_PORT}; do
  warm_path "$(mgmt_port "$port")" "http://127.0.0.1:$port/s/$code"
  warm_path "$(mgmt_port "$port")" "http://127.0.0.1:$port/v1/short-links/$code" "Authorization: Bearer $token"
done
[ -z "$bare_pid" ] || warm_path "$(mgmt_port "$BARE_PORT")" "http://127.0.0.1:$BARE_PORT/s/$code"
[ -z "$mvc_pid" ] || warm_path "$(mgmt_port "$MVC_PORT")" "http://127.0.0.1:$MVC_PORT/s/$code"

# scripts/bench/bench-gateway.sh ab [seconds] [connections]: two builds or settings (A, B) in alternating rounds
# (PERFLAB_BENCH_ROUNDS, default 4): direct, A, B for redirects, then A, B for the API read, each round; the median of
# B/A over the rounds is the figure (a shared machine's noise moves whole seconds, alternating spreads it over both)
if [ "$mode" = ab ]; then
  [ -n "$b_pid" ] || { echo "ab needs PERFLAB_BENCH_B_JAR (and/or PERFLAB_BENCH_B_ENV)" >&2; exit 1; }
  WARMUP=${WARMUP:-2}
  for r in $(seq 1 "${PERFLAB_BENCH_ROUNDS:-4}"); do
    echo "round $r"
    run direct "  redirect: shortener direct" "$direct/s/$code" ""
    ab_rows() { # which-first: A then B on odd rounds, B then A on even ones (a trend over time favours neither)
      local x
      for x in "$@"; do
        if [ "$x" = A ]; then
          run proxy "  redirect: A proxy hop" "http://127.0.0.1:$PROXY_PORT/s/$code" "$proxy_pid"
        else
          run proxyB "  redirect: B proxy hop" "http://127.0.0.1:$B_PORT/s/$code" "$b_pid"
        fi
      done
      for x in "$@"; do
        if [ "$x" = A ]; then
          run api "  API read: A" "http://127.0.0.1:$PROXY_PORT/v1/short-links/$code" "$proxy_pid" "Authorization: Bearer $token"
        else
          run apiB "  API read: B" "http://127.0.0.1:$B_PORT/v1/short-links/$code" "$b_pid" "Authorization: Bearer $token"
        fi
      done
    }
    if [ $((r % 2)) = 1 ]; then ab_rows A B; else ab_rows B A; fi
  done
  printf '%s\n' "${results[@]}" >"$out/gateway-ab.psv"
  scripts/bench/gateway-ab.py "$out/gateway-ab.psv"
  exit 0
fi

echo "$BENCH_TOOLS; wrk -t1 -c$conns, ${WARMUP:-8} s warm-up + ${secs} s per row, code $code, $(nproc) cores shared by load generator and system"
quick=${PERFLAB_BENCH_QUICK:-}
[ -n "$quick" ] || run nginx302 "nginx return 302 (reference)" "http://127.0.0.1:$NGINX_PORT/s/$code" "$nginx_worker"
run direct "redirect: shortener direct" "$direct/s/$code" ""
[ -n "$quick" ] || run nginxproxy "redirect: nginx proxy_pass (1 worker, keepalive)" "http://127.0.0.1:$NGINX_PROXY_PORT/s/$code" "$nginx_worker"
[ -n "$quick" ] || run edge "redirect: gateway, edge cache hit" "$gw/s/$code" "$(cat "$PERFLAB_RUN/pids/gateway.pid" 2>/dev/null)"
[ -z "$bare_pid" ] || run bare "redirect: bare Spring Cloud Gateway WebFlux" "http://127.0.0.1:$BARE_PORT/s/$code" "$bare_pid"
[ -z "$mvc_pid" ] || run mvc "redirect: bare Spring Cloud Gateway MVC (virtual threads)" "http://127.0.0.1:$MVC_PORT/s/$code" "$mvc_pid"
jfr_start
run proxy "redirect: gateway, edge cache off (proxy)" "http://127.0.0.1:$PROXY_PORT/s/$code" "$proxy_pid"
# the direct caller's identity: a token signed like the gateway's; PERFLAB_BENCH_DIRECT_HEADERS ("Name: value|...")
# replaces it, e.g. "X-Perflab-User: bench|X-Perflab-Office: 1" for a stack still running jars from before it
IFS='|' read -r -a direct_headers <<<"${PERFLAB_BENCH_DIRECT_HEADERS:-$direct_identity}"
run apidirect "API read: shortener direct" "$direct/v1/short-links/$code" "" "${direct_headers[@]}"
run api "API read: gateway (JWT, rate limit, proxy)" "http://127.0.0.1:$PROXY_PORT/v1/short-links/$code" "$proxy_pid" "Authorization: Bearer $token"
if [ -n "${PERFLAB_BENCH_JFR:-}" ]; then
  jcmd "$proxy_pid" JFR.stop name=hop >/dev/null
  jfr view --width 160 hot-methods "$out/proxy-gateway.jfr" >"$out/proxy-gateway-hot-methods.txt" || true
fi
if [ -n "$b_pid" ]; then
  run proxyB "B redirect: gateway, edge cache off (proxy)" "http://127.0.0.1:$B_PORT/s/$code" "$b_pid"
  run apiB "B API read: gateway (JWT, rate limit, proxy)" "http://127.0.0.1:$B_PORT/v1/short-links/$code" "$b_pid" "Authorization: Bearer $token"
fi

# The open model: the same redirect at a constant arrival rate (fortio), the shortener direct, bare
# Spring Cloud Gateway WebFlux and the gateway's proxy hop one after the other, at half the direct row's closed-loop
# capacity and at PERFLAB_BENCH_OPEN_RATES (default 1000) requests/s, OPEN_SECS (15) each: the p50 and p99 each hop
# adds. The generator's own health is judged as every run's (scripts/lib/generator.py): a row whose generator went above
# 80% of the CPUs it may use, or fell behind (sent fewer than 98% of the requests its schedule held), is marked
# inconclusive, and its added latency is the generator's, not the hop's.
declare -A OPEN_P50 OPEN_P99 OPEN_VERDICT
open_row() { # key label url rate
  local d="$out/open/$1-$4" rc=0 pid sampler cpus conns_open=${OPEN_CONNS:-$(( ($4 + 9) / 10 ))}
  rm -rf "$d"; mkdir -p "$d"
  # A fortio connection sends its next request only once the last one is answered: rate/10 connections give each
  # request 100 ms (the redirect's p95 limit) before its connection misses a slot. -nocatchup skips a missed slot
  # instead of sending it late (a late send would hide the wait from the latency), and the verdict counts the skips;
  # -uniform staggers the connections over the period (else all send at once). -stdclient: fortio's own client closes
  # the connection after any answer outside 2xx, every 302 included (and -allow-initial-errors: its one warm-up
  # request per connection would count the 302 as an error and stop). -r 0.00001: histogram buckets from 10 us.
  "${pin_wrk[@]}" "$FORTIO_BIN" load -stdclient -allow-initial-errors -nocatchup -uniform -qps "$4" -c "$conns_open" \
    -t "${OPEN_SECS:-15}s" -r 0.00001 -p 50,99 -loglevel Warning -json "$d/fortio.json" "$3" >"$d/fortio.txt" 2>&1 &
  pid=$!
  python3 scripts/lib/generator.py sample "$pid" "$d/samples" & sampler=$!
  wait "$pid" || rc=$?
  wait "$sampler"
  if [ "$rc" != 0 ] || [ ! -s "$d/fortio.json" ]; then
    OPEN_P50[$1-$4]=nan; OPEN_P99[$1-$4]=nan; OPEN_VERDICT[$1-$4]="none, fortio exited $rc ($d/fortio.txt)"
    printf '%-46s %6s/s  %s\n' "$2" "$4" "${OPEN_VERDICT[$1-$4]}"
    return 0
  fi
  cpus=$(nproc); [ ${#pin_wrk[@]} = 0 ] || cpus=1
  python3 scripts/lib/generator.py verdict --samples "$d/samples" --fortio "$d/fortio.json" \
    --cpus "$cpus" --where "fortio on this host" --json "$d/verdict.json" >"$d/verdict.txt" || true
  OPEN_P50[$1-$4]=$(jq -r '.DurationHistogram.Percentiles[] | select(.Percentile == 50) | .Value * 1000' "$d/fortio.json")
  OPEN_P99[$1-$4]=$(jq -r '.DurationHistogram.Percentiles[] | select(.Percentile == 99) | .Value * 1000' "$d/fortio.json")
  OPEN_VERDICT[$1-$4]=$(jq -r '"\(.verdict), fortio CPU peak \(.cpuPeak * 100 | round)%, \(.sent) of \(.scheduled) sent (\(.droppedIterations) not on schedule), \(.connections) connections"' "$d/verdict.json")
  printf '%-46s %6s/s  p50 %7.2fms p99 %7.2fms  %s\n' "$2" "$4" "${OPEN_P50[$1-$4]}" "${OPEN_P99[$1-$4]}" "${OPEN_VERDICT[$1-$4]}"
}
open_rates=()
if [ "$mode" = run ] && [ -n "$bare_pid" ] && [ "${PERFLAB_BENCH_OPEN:-1}" != 0 ]; then
  # half the direct capacity, down to a multiple of 10: with rate/10 connections each then has a whole number of
  # requests per second (fortio gives every connection the same whole count, int(rate x seconds / connections))
  # shellcheck disable=SC2206 # PERFLAB_BENCH_OPEN_RATES is a list of rates, one row each
  open_rates=("$(awk -v r="${RPS[direct]}" 'BEGIN { printf "%d", int(r / 20) * 10 }')" ${PERFLAB_BENCH_OPEN_RATES:-1000})
  echo; echo "open model: fortio $FORTIO_VERSION at a constant rate, ${OPEN_SECS:-15} s per row (the JVMs warm from the rows above)"
  for rate in "${open_rates[@]}"; do
    open_row direct "redirect: shortener direct" "$direct/s/$code" "$rate"
    open_row bare "redirect: bare Spring Cloud Gateway WebFlux" "http://127.0.0.1:$BARE_PORT/s/$code" "$rate"
    open_row proxy "redirect: gateway, edge cache off (proxy)" "http://127.0.0.1:$PROXY_PORT/s/$code" "$rate"
  done
fi

ratio() { awk -v a="${RPS[$1]}" -v b="${RPS[$2]}" 'BEGIN { printf "%.2f", a / b }'; }
added() { awk -v a="${P50[$1]}" -v b="${P50[$2]}" 'BEGIN { printf "%+.2f ms", a - b }'; }
verdict() { awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN { v += 0; ok = op == ">=" ? v >= t : v <= t; print ok ? "ok" : "MISSED" }'; }
line() { printf '%-48s %-10s %s\n' "$1" "$2" "$3"; }
echo
[ -n "$quick" ] && RPS[nginx302]=1 RPS[edge]=0 RPS[nginxproxy]=1 P50[nginxproxy]=0   # rows skipped (QUICK)
line "gateway edge hit / nginx return 302:" "$(ratio edge nginx302)" "(goal >= 0.8: $(verdict "$(ratio edge nginx302)" 0.8 '>='))"
line "gateway edge hit / shortener direct:" "$(ratio edge direct)" ""
line "nginx proxy_pass / shortener direct:" "$(ratio nginxproxy direct)" "(the reference hop)"
line "gateway proxy hop / shortener direct:" "$(ratio proxy direct)" "(goal >= 0.7: $(verdict "$(ratio proxy direct)" 0.7 '>='))"
line "gateway proxy hop / nginx proxy_pass:" "$(ratio proxy nginxproxy)" ""
if [ -n "$bare_pid" ]; then
  line "bare SCG WebFlux / shortener direct:" "$(ratio bare direct)" "(the framework's floor for the hop)"
  line "bare SCG MVC (virtual threads) / shortener direct:" "$(ratio mvc direct)" ""
  line "gateway proxy hop / bare SCG WebFlux:" "$(ratio proxy bare)" "(what ours costs on top)"
  line "p50 added by bare SCG WebFlux / MVC:" "$(added bare direct) / $(added mvc direct)" ""
fi
line "API read through gateway / direct:" "$(ratio api apidirect)" "(goal >= 0.6: $(verdict "$(ratio api apidirect)" 0.6 '>='))"
line "p50 added by the proxy hop:" "$(added proxy direct)" "(goal <= 1 ms: $(verdict "$(added proxy direct)" 1 '<='))"
line "p50 added by nginx proxy_pass:" "$(added nginxproxy direct)" ""
line "p50 added on the API read:" "$(added api apidirect)" "(goal <= 1 ms: $(verdict "$(added api apidirect)" 1 '<='))"
if [ -n "$b_pid" ]; then
  line "B gateway proxy hop / shortener direct:" "$(ratio proxyB direct)" "(A: $(ratio proxy direct); B/A $(ratio proxyB proxy))"
  line "B API read through gateway / direct:" "$(ratio apiB apidirect)" "(A: $(ratio api apidirect); B/A $(ratio apiB api))"
  line "B p50 added by the proxy hop:" "$(added proxyB direct)" "(A: $(added proxy direct))"
fi
open_added() { # key rate: the p50 and p99 (ms) that row adds over the direct row at that rate, "+x +y"
  awk -v a="${OPEN_P50[$1-$2]}" -v b="${OPEN_P50[direct-$2]}" -v c="${OPEN_P99[$1-$2]}" -v d="${OPEN_P99[direct-$2]}" \
    'BEGIN { printf "%+.2f %+.2f", a - b, c - d }'
}
open_goal() { # key rate value limit: ok or MISSED, or inconclusive when the generator of that row or of the direct row
  # at that rate fell behind or ran short of CPU (or did not finish): then the difference is the generator's, not the hop's
  case "${OPEN_VERDICT[$1-$2]%%,*} ${OPEN_VERDICT[direct-$2]%%,*}" in
    "pass pass" | "pass fail" | "fail pass" | "fail fail") verdict "$3" "$4" '<=' ;;
    *) echo inconclusive ;;
  esac
}
for rate in "${open_rates[@]}"; do
  read -r p50 p99 <<<"$(open_added proxy "$rate")"
  line "open model at $rate/s, added by the proxy hop:" "p50 $p50 ms, p99 $p99 ms" \
    "(goal p50 <= 1 ms: $(open_goal proxy "$rate" "$p50" 1), p99 <= 5 ms: $(open_goal proxy "$rate" "$p99" 5); generators: direct ${OPEN_VERDICT[direct-$rate]%%,*}, proxy ${OPEN_VERDICT[proxy-$rate]%%,*})"
  read -r p50 p99 <<<"$(open_added bare "$rate")"
  line "open model at $rate/s, added by bare SCG WebFlux:" "p50 $p50 ms, p99 $p99 ms" "(generator: ${OPEN_VERDICT[bare-$rate]%%,*})"
done
total=0; for k in "${!ERR[@]}"; do total=$((total + ERR[$k])); done
line "errors (non-2xx/3xx + socket), all rows:" "$total" "(goal 0: $(verdict "$total" 0 '<='))"
[ -z "${PERFLAB_BENCH_JFR:-}" ] || echo "profile: $out/proxy-gateway.jfr, hot methods: $out/proxy-gateway-hot-methods.txt"
printf '%s\n' "${results[@]}" >"$out/gateway-hop.psv"
