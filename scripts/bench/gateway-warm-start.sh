# shellcheck shell=bash
# Sourced by scripts/bench/bench-gateway.sh (its settings, $out and $PROXY_PORT, and bench-tools.sh's load runner).
# shellcheck disable=SC2154 # out, PROXY_PORT: bench-gateway.sh's
# scripts/bench/bench-gateway.sh warm-start [seconds, default 60] [iterations/s, default 60]: a fresh gateway's first minute
# with each JDK AOT cache, one after the other in one run: none; classes only (a context refresh, how every image was
# trained before); classes and method profiles (trained with traffic, scripts/lib/aot-train.sh). Both caches are trained
# here from this jar first. Per arm: JVM start to readiness UP (its warm-up included), then seed 004's mix at a
# constant arrival rate (the load runner's shortener-smoke, set up paused once the gateway is ready, its setup probing
# the gateway, then started: "load at" is that gap after readiness); the gateway's own answers per second (its
# access lines), the seconds from the load's start until its answers over 5 s reach 90% of the offered rate, the first
# minute's p95 and the load runner's CPU over its schedule (its JVM's start and setup left out).
warm_start() {  # [seconds, default 60] [iterations/s, default 60]
  local secs=${1:-60} rate=${2:-60}
  ws="$out/warm-start"; rm -rf "$ws"; mkdir -p "$ws/runner"
  cp "${PERFLAB_BENCH_A_JAR:-gateway/target/gateway.jar}" "$ws/gateway.jar"
  launch="$(launch_jar "$ws/gateway.jar")"
  log "training the two caches of $(basename "$(dirname "$launch")") (classes by a context refresh; profiles with $AOT_TRAIN_REQUESTS requests)"
  (cd "$ws" && SPRING_PROFILES_ACTIVE=local JAVA_TOOL_OPTIONS="$PERFLAB_JVM_OPTS" java -XX:AOTCacheOutput="$ws/classes.aot" \
    -Dspring.context.exit=onRefresh -jar "$launch") >"$ws/train-classes.log" 2>&1 && [ -s "$ws/classes.aot" ] \
    || { echo "training (classes) failed: $ws/train-classes.log" >&2; exit 1; }
  (cd "$ws" && SPRING_PROFILES_ACTIVE=local JAVA_TOOL_OPTIONS="$PERFLAB_JVM_OPTS" \
    aot_train_app gateway "$ws/profiles.aot" "$ws/train-profiles.log" java -jar "$launch") \
    || { echo "training (profiles) failed: $ws/train-profiles.log" >&2; exit 1; }
  # CPU seconds of this shell's children that have ended (bash's `times`, second line: user and system; run in this
  # shell, not in a command substitution's, whose children are its own)
  children_cpu() {  # into $ws/cpu
    times >"$ws/times"
    awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } print n }' "$ws/times" >"$ws/cpu"
  }
  # the gateway's own count of answered requests, once a second: what it routed and what its edge cache answered
  answered_each_second() {  # MGMT-PORT OUT: until killed
    while :; do
      curl -fs "http://127.0.0.1:$1/actuator/prometheus" | awk '/^spring_cloud_gateway_requests_seconds_count/ \
        || /^perflab_gateway_edge_cache_total\{result="hit"\}/ { n += $NF } END { printf "%d\n", n }' >>"$2"
      sleep 1
    done
  }
  arm_pid=""; RUNNER_PID=""
  trap 'kill $arm_pid $RUNNER_PID 2>/dev/null || true' EXIT
  trap 'exit 1' INT TERM
  hz=$(getconf CLK_TCK)
  printf '%-9s %9s %7s %8s %11s %9s %9s %-22s %s\n' cache "cache MB" ready "load at" "to 90% (s)" "offered/s" "p95 (ms)" "iterations" "runner CPU (one core)" >"$ws/table.txt"
  warm_arm() {  # ARM (none, classes, profiles): one fresh gateway with that cache, its row appended to the table
    local arm=$1 aot t0 t1 ready at token cpu0 setup_cpu runner_cpu counter_pid summary offered to90
    # AOTMode=on: a cache that does not map stops the JVM instead of running the arm without it
    aot=""; [ "$arm" = none ] || aot=" -XX:AOTMode=on -XX:AOTCache=$ws/$arm.aot"
    # shellcheck disable=SC2086  # PERFLAB_BENCH_A_ENV: "K=V ..." for every arm (e.g. PERFLAB_GATEWAY_WARMUP_REQUESTS=0)
    app_jvm gateway "$ws/gateway.jar" "$PROXY_PORT" JAVA_TOOL_OPTIONS="$PERFLAB_JVM_OPTS$aot" ${PERFLAB_BENCH_A_ENV:-}
    token=$(scripts/lib/jwt.sh token "warm-$arm-$RANDOM" 1 3600)
    t0=$(date +%s.%N)
    "${APP_JVM[@]}" >"$ws/$arm.log" 2>&1 &
    arm_pid=$!
    await_ready "$PROXY_PORT" "$arm_pid" "$ws/$arm.log" || exit 1
    t1=$(date +%s.%N); ready=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    mkdir -p "$ws/runner/$arm"; children_cpu; cpu0=$(cat "$ws/cpu")
    runner_paused run shortener-smoke BASE_URL="http://127.0.0.1:$PROXY_PORT" TOKEN="$token" RATE="$rate" DURATION="${secs}s" \
      WARMUP=0s SUMMARY_DIR="$ws/runner/$arm" >"$ws/runner/$arm.txt" 2>&1 || { echo "the load runner never started: $ws/runner/$arm.txt" >&2; exit 1; }
    setup_cpu=$(cpu_ticks "$RUNNER_JVM")
    answered_each_second "$(mgmt_port "$PROXY_PORT")" "$ws/$arm.answered" & counter_pid=$!
    runner_start || exit 1
    at=$(awk -v a="$t1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    wait "$RUNNER_PID" || true; RUNNER_PID=""
    # the runner's CPU over its schedule: its process's CPU in all, less what its JVM had spent when it was started
    children_cpu; runner_cpu=$(awk -v a="$cpu0" -v s="$setup_cpu" -v hz="$hz" '{ print $1 - a - s / hz }' "$ws/cpu")   # before the counter's CPU joins it
    kill $counter_pid; wait $counter_pid 2>/dev/null || true
    kill -TERM $arm_pid; wait $arm_pid 2>/dev/null || true; arm_pid=""
    # answers per second: the differences of the gateway's count, from the load's start on
    awk 'NR > 1 { print $1 - last } { last = $1 }' "$ws/$arm.answered" >"$ws/$arm.per-second"
    summary="$ws/runner/$arm/shortener-smoke-summary.json"
    offered=$(jq -r --argjson it "$rate" '($it * ((.metrics.http_reqs.values.count // 0) / ((.metrics.iterations.values.count // 1) | if . == 0 then 1 else . end)))' "$summary")
    to90=$(awk -v want="$offered" '{ a[NR] = $1 } END { for (i = 1; i + 4 <= NR; i++) { s = 0; for (j = i; j < i + 5; j++) s += a[j]; if (s / 5 >= 0.9 * want) { print i - 1; exit } } print "never" }' "$ws/$arm.per-second")
    printf '%-9s %9s %7s %8s %11s %9.0f %9.1f %-22s %s\n' "$arm" "$( [ "$arm" = none ] && echo - || echo $(( $(stat -c %s "$ws/$arm.aot") / 1048576 )))" "${ready}s" "+${at}s" "$to90" "$offered" \
      "$(jq -r '.metrics.http_req_duration.values["p(95)"]' "$summary")" \
      "$(jq -r '"\(.metrics.iterations.values.count) (\(.metrics.dropped_iterations.values.count // 0) dropped)"' "$summary")" \
      "$(awk -v t="$runner_cpu" -v s="$secs" 'BEGIN { printf "%.0f%%", 100 * t / s }')" >>"$ws/table.txt"
  }
  for arm in none classes profiles; do warm_arm "$arm"; done
  echo "warm start: seed 004's mix at $rate it/s for $secs s once ready (and the load runner set up: load at), one gateway at a time on :$PROXY_PORT${PERFLAB_BENCH_A_ENV:+ ($PERFLAB_BENCH_A_ENV)}; the load runner on this host (load $(cut -d' ' -f1-3 /proc/loadavg))"
  cat "$ws/table.txt"
}
