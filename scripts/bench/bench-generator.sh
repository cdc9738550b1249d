#!/usr/bin/env bash
# The load generator's own cost: requests per CPU-second of the load runner against wrk, the physical reference, on
# the same request in the same run. nginx answers `return 302` on one CPU; each generator runs on the other (taskset),
# closed loop, CONNECTIONS callers (64), SECONDS each (20). A generator's CPU is its process's (all its threads),
# counted from its schedule's start to its end: the runner is started paused, so its JVM's start and JMeter's set-up
# are not counted (scripts/lib/env.sh runner_paused). Rows: wrk; the runner with the JVM flags make test's local runs
# use (PERFLAB_LOAD_JVM_OPTS: C1 only, serial GC) and with C2 (the chart's runner.javaOptions), at CONNECTIONS and at 8.
#
#   scripts/bench/bench-generator.sh          (root: taskset; nginx and wrk from scripts/bench/bench-tools.sh)
#
# Prints one Markdown table; the rows' ratios are to wrk's. A measurement, not a test: nothing here fails on a figure.
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
source "$(dirname "$0")/bench-tools.sh"
cd "$PERFLAB_ROOT"
bench_tools wrk nginx
load_runner_built
[ "$(nproc)" -ge 2 ] || { log "two CPUs needed: one for nginx, one for the generator"; exit 1; }
SECONDS_EACH=${SECONDS_EACH:-20} CONNECTIONS=${CONNECTIONS:-64}
SERVER_CPU=${SERVER_CPU:-1} GENERATOR_CPU=${GENERATOR_CPU:-0}
work="$(mktemp -d)"
nginx_pid=""
trap '[ -z "$nginx_pid" ] || kill "$nginx_pid" 2>/dev/null; rm -rf "$work"' EXIT
port=18390
cat >"$work/nginx.conf" <<NGINX
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$port;
    location / { return 302 /x; }
  }
}
NGINX
taskset -c "$SERVER_CPU" /usr/sbin/nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$port/s/x" && break; sleep 0.1; done
url="http://127.0.0.1:$port/s/x"
tck=$(getconf CLK_TCK)
rows="$work/rows.tsv"

wrk_row() {  # CONNECTIONS
  local before after out pid
  taskset -c "$GENERATOR_CPU" wrk -t1 -c"$1" -d"${SECONDS_EACH}s" --latency "$url" >"$work/wrk.out" &
  pid=$!
  sleep 0.2; before=$(cpu_ticks "$pid")
  while kill -0 "$pid" 2>/dev/null; do after=$(cpu_ticks "$pid"); sleep 0.5; done
  wait "$pid"
  out="$(awk '/requests in/ { n = $1 } /^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 } END { print n, p50, p99 }' "$work/wrk.out")"
  read -r n p50 p99 <<<"$out"
  printf 'wrk 4.1 (1 thread)\t%s\t%s\t%s\t%s\t%s\n' "$1" "$n" "$(awk -v t="$((after - before))" -v c="$tck" 'BEGIN { printf "%.2f", t / c }')" "$p50" "$p99" >>"$rows"
}
runner_row() {  # LABEL JVM_FLAGS CONNECTIONS
  local before after t summary="$work/hop-summary.json"
  rm -f "$summary"
  PERFLAB_LOAD_JVM_OPTS="$2" runner_paused run shortener-hop URL="$url" VUS="$3" DURATION="${SECONDS_EACH}s" WARMUP=0s \
    THRESHOLDS=off TOKEN=none SUMMARY_DIR="$work" SUMMARY_NAME=hop >"$work/runner.out" 2>&1 || { tail "$work/runner.out"; return 1; }
  taskset -a -p -c "$GENERATOR_CPU" "$RUNNER_JVM" >/dev/null
  before=$(cpu_ticks "$RUNNER_JVM") after=$before
  runner_start || return 1
  # its CPU until it says it is done (its summary is not the load's cost); the JVM exits soon after
  while kill -0 "$RUNNER_JVM" 2>/dev/null \
      && [ "$(curl -s --max-time 2 "http://$RUNNER_CONTROL/v1/status" | jq -r .state 2>/dev/null)" != "done" ]; do
    t=$(cpu_ticks "$RUNNER_JVM"); [ "$t" = 0 ] || after=$t
    sleep 0.2
  done
  wait "$RUNNER_PID" || true
  jq -r --arg name "$1" --arg c "$3" --arg cpu "$(awk -v t="$((after - before))" -v c="$tck" 'BEGIN { printf "%.2f", t / c }')" '
    .metrics.http_reqs.values.count as $n | .metrics.http_req_duration.values as $d
    | [$name, $c, ($n | floor | tostring), $cpu, "\($d.med * 1000 | round / 1000)ms", "\($d["p(99)"] * 1000 | round / 1000)ms"] | @tsv' "$summary" >>"$rows"
}

: >"$rows"
log "generators on CPU $GENERATOR_CPU, nginx (return 302) on CPU $SERVER_CPU, ${SECONDS_EACH} s each"
wrk_row "$CONNECTIONS"
runner_row "load runner, $PERFLAB_LOAD_JVM_OPTS" "$PERFLAB_LOAD_JVM_OPTS" "$CONNECTIONS"
runner_row "load runner, -XX:+UseSerialGC (C2)" "-XX:+UseSerialGC -Xms256m -Xmx1g" "$CONNECTIONS"
runner_row "load runner, -XX:+UseSerialGC (C2)" "-XX:+UseSerialGC -Xms256m -Xmx1g" 8
python3 - "$rows" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
ref = float(rows[0][2]) / float(rows[0][3])
print("| generator | callers | requests | CPU-s | requests per CPU-second | vs wrk | p50 | p99 |")
print("|---|--:|--:|--:|--:|--:|--:|--:|")
for label, c, n, cpu, p50, p99 in rows:
    per = float(n) / float(cpu) if float(cpu) else 0
    print(f"| {label} | {c} | {int(float(n)):,} | {float(cpu):.1f} | {per:,.0f} | {per / ref:.3f} | {p50} | {p99} |")
PY
