#!/usr/bin/env bash
# Capacity on paper, from measurements (make capacity). Each service's `capacity` load (services/<name>/service.env:
# "<scenario> <user> [KEY=VALUE ...]", its seed's mix of endpoints; `capacity_target`: "<requests/s> <the seed's load>") runs
# through the local stack's gateway at a fixed arrival rate, one service at a time, once to warm up and once measured;
# around the measured run the CPU time of the gateway's and the service's JVMs (/proc/<pid>/stat) and, after it, their resident
# memory are read. The run's own verdict says whether its generator kept up (scripts/lib/generator.py: pass, fail,
# inconclusive). One row per service into .run/bench/capacity/<time>/capacity.tsv, then scripts/bench/capacity.py turns the
# rows into cores and pods per 1,000 requests/s and the seeds' target loads into nodes of the EKS env's node groups:
# docs/capacity.md (the table between its markers; `scripts/bench/capacity.py --check` in make test keeps it the rows').
#   CAPACITY_SECONDS  length of each measured run (default 30; after a pass of 25 s not measured)
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"

secs=${CAPACITY_SECONDS:-30}
out="$PERFLAB_RUN/bench/capacity/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
# no AOT trainer beside the measured JVMs (it would take CPU from them): none started, one left by an earlier `up` stopped
AOT_TRAIN=later scripts/stack/stack.sh up >/dev/null
scripts/stack/stack.sh aot-train stop >/dev/null
scripts/stack/seed.sh >/dev/null

hz=$(getconf CLK_TCK)
pid_of() { cat "$PERFLAB_RUN/pids/$1.pid"; }
rss_mb() { awk '/^VmRSS:/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }

printf 'service\tscenario\tseconds\trequests\tgateway_cpu_s\tservice_cpu_s\tgenerator_cpu_s\tgateway_rss_mb\tservice_rss_mb\tverdict\ttarget\n' \
  >"$out/capacity.tsv"
for name in "${PERFLAB_SERVICES[@]}"; do
  line="$(service_conf "$name" capacity)"
  [ -n "$line" ] || continue
  read -r scenario user args <<<"$line"
  # the service's JVM and those its mix also runs on (capacity_also: send delivers mail's sends), their CPU summed
  procs=("$name"); read -ra also <<<"$(service_conf "$name" capacity_also)"; procs+=("${also[@]}")
  gw=$(pid_of gateway)
  rc=0
  # a pass of the same load first, not measured (the JIT's compiles, the pools' and caches' first fill), then the
  # measured one, its CPU read around it
  # shellcheck disable=SC2086
  SUMMARY_OUT="$out/$name-warm" TESTID="capacity-warm-$name-$(date +%H%M%S)" LOAD_USER="$user" scripts/load/load.sh "$scenario" \
    PROFILE=smoke DURATION=20s WARMUP=5s SUMMARY_NAME=warm $args >"$out/$name-warm.log" 2>&1 || true
  g0=$(cpu_ticks "$gw") s0=0
  for p in "${procs[@]}"; do s0=$((s0 + $(cpu_ticks "$(pid_of "$p")"))); done
  # shellcheck disable=SC2086
  SUMMARY_OUT="$out/$name" TESTID="capacity-$name-$(date +%H%M%S)" LOAD_USER="$user" scripts/load/load.sh "$scenario" \
    PROFILE=smoke DURATION="${secs}s" WARMUP=0s SUMMARY_NAME=capacity $args >"$out/$name.log" 2>&1 || rc=$?
  g1=$(cpu_ticks "$gw") s1=0 rss=0
  for p in "${procs[@]}"; do s1=$((s1 + $(cpu_ticks "$(pid_of "$p")"))) rss=$((rss + $(rss_mb "$(pid_of "$p")"))); done
  summary="$out/$name/capacity-summary.json" generator="$out/$name/capacity-generator.json"
  requests=$(jq -r '.metrics.http_reqs.values.count' "$summary")
  # the generator's CPU: its mean share of its CPUs over the run's length (scripts/lib/generator.py's samples)
  generator_cpu=$(jq -r --slurpfile s "$summary" '.cpuMean * .cpus * $s[0].state.testRunDurationMs / 1000 | . * 100 | round / 100' "$generator")
  verdict=$(jq -r .verdict "$generator")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$scenario" "$secs" "$requests" \
    "$(awk -v t=$((g1 - g0)) -v hz="$hz" 'BEGIN { printf "%.2f", t / hz }')" \
    "$(awk -v t=$((s1 - s0)) -v hz="$hz" 'BEGIN { printf "%.2f", t / hz }')" "$generator_cpu" \
    "$(rss_mb "$gw")" "$rss" "$verdict" "$(service_conf "$name" capacity_target)" >>"$out/capacity.tsv"
  log "$name (${procs[*]}): $requests requests, load runner exit $rc, verdict $verdict"
done
column -t -s $'\t' "$out/capacity.tsv"
cp "$out/capacity.tsv" docs/capacity/capacity.tsv
source scripts/k8s/k8s-tools.sh >/dev/null  # its Python has PyYAML (the chart's values), as make test's check uses
"$K8S_TOOLS_PYTHON" scripts/bench/capacity.py --write
log "docs/capacity.md written from $out/capacity.tsv (kept as docs/capacity/capacity.tsv)"
