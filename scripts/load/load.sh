#!/usr/bin/env bash
# Runs a k6 script through the gateway of the running local stack with a fresh dev token.
#   load.sh smoke            the smoke of every service (the smoke lines of services/*/service.env; make load, make test)
#   load.sh <path.js> [...]  any script, extra k6 arguments passed on
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
"$PERFLAB_ROOT/scripts/stack/install.sh" >/dev/null
script=${1:-smoke}; shift || true
# Every metric of this run is tagged testid=$TESTID and, when the local stack's Prometheus answers, written into it
# (k6's remote-write output), where the k6 dashboard and scripts/load/verdict.sh find the run.
export TESTID="${TESTID:-local-$(date +%Y%m%d-%H%M%S)}"
out=()
if curl -fs "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/-/ready" >/dev/null 2>&1; then
  out=(--out experimental-prometheus-rw)
  export K6_PROMETHEUS_RW_SERVER_URL="http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/api/v1/write"
  # every trend as a native histogram: the verdict and the dashboards merge runners' percentiles exactly
  export K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM=true
fi
# Summaries (JSON and text per script) go to a folder per run, named by time, git revision and run id.
results="${SUMMARY_OUT:-$PERFLAB_RUN/results/$(date +%Y%m%d-%H%M%S)-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)-$TESTID}"
mkdir -p "$results"
log "k6 run id (testid): $TESTID${out:+, metrics in Prometheus :$PERFLAB_PROMETHEUS_PORT}, summaries in $results"
# CALLERS=n: n dev users (<user>, <user>-2, ... in office 1), one token each, spread over the VUs (k6-tests/lib/config.js)
callers() { scripts/lib/jwt.sh callers "$1" "${CALLERS:-1}"; }  # user
# The generator's CPU is watched from outside (scripts/lib/generator.py) and read with k6's dropped iterations into the
# run's verdict: pass (0), fail (99) or inconclusive (75, the generator was short of CPU or VUs: no figure about the
# system). K6_CPU_LIMIT=<cores> runs k6 in a CPU-limited cgroup of its own (root), as a runner pod's limit does.
run() { # script user
  local name samples summary= rc=0 cpus=$(nproc) where="this host, on the same $(nproc) CPU(s) as the system under test"
  name=$(basename "$(dirname "$1")")-$(basename "$1" .js)
  local a named=""
  for a in "${@:3}"; do case $a in SUMMARY_NAME=*) named=${a#SUMMARY_NAME=} ;; esac; done
  # its summary by name, not as the newest file: smokes run side by side (SMOKES_AT_ONCE)
  [ -n "$named" ] || set -- "$@" -e SUMMARY_NAME="$name"
  samples=$(mktemp "$results/.generator-XXXXXX")
  if [ -n "${K6_CPU_LIMIT:-}" ]; then cpus=$K6_CPU_LIMIT; where="this host, in a cgroup limited to $cpus CPU(s)"; fi
  limited "$K6_BIN" run --no-usage-report --quiet --tag testid="$TESTID" "${out[@]}" \
    -e BASE_URL="http://127.0.0.1:$PERFLAB_GATEWAY_PORT" -e TOKEN="$(scripts/lib/jwt.sh token "$2" 1 3600)" \
    -e CALLER_TOKENS="$(callers "$2")" -e SUMMARY_DIR="$results" "${@:3}" "$1" &
  local pid=$!
  python3 scripts/lib/generator.py sample "$pid" "$samples" &
  local sampler=$!
  wait "$pid" || rc=$?
  wait "$sampler" || true
  for a in "${@:3}"; do case $a in SUMMARY_NAME=*) summary="$results/${a#SUMMARY_NAME=}-summary.json" ;; esac; done
  [ -f "$summary" ] || summary=
  # beside the summary: <name>-generator.json (the verdict and the generator's health) and its samples
  [ -z "$summary" ] || name=$(basename "$summary" -summary.json)
  mv "$samples" "$results/$name-generator.samples"
  python3 scripts/lib/generator.py verdict --samples "$results/$name-generator.samples" --summary "$summary" --k6-exit "$rc" \
    --cpus "$cpus" --where "$where" --json "$results/$name-generator.json"
}
limited() { # command... : in a cgroup with K6_CPU_LIMIT cores of CPU time (cgroup v2 or v1), else as is
  [ -n "${K6_CPU_LIMIT:-}" ] || { "$@"; return; }
  local quota period=100000 cg
  quota=$(awk -v cores="$K6_CPU_LIMIT" -v period="$period" 'BEGIN { q = int(cores * period); print (q > 1000 ? q : 1000) }')
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    cg=/sys/fs/cgroup/perflab-k6-$$
    echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
    mkdir -p "$cg" && echo "$quota $period" >"$cg/cpu.max"
  else
    cg=/sys/fs/cgroup/cpu/perflab-k6-$$
    mkdir -p "$cg" && echo "$period" >"$cg/cpu.cfs_period_us" && echo "$quota" >"$cg/cpu.cfs_quota_us"
  fi || { log "K6_CPU_LIMIT needs a writable cgroup (root): $cg"; return 2; }
  local rc=0
  bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$cg" "$@" || rc=$?
  rmdir "$cg" 2>/dev/null || true
  return "$rc"
}
if [ "$script" = smoke ]; then
  # each service's smoke lines (services/<name>/service.env: "<script> <user> [k6 args]"; alice is a seeded user);
  # every smoke runs, and the run fails at the end naming each smoke that failed
  # SMOKES_AT_ONCE (default 1): that many smokes side by side, in the order of the lines
  failed=() inconclusive=() lines=()
  for n in "${PERFLAB_SERVICES[@]}"; do
    while read -r line; do [ -z "$line" ] || lines+=("$line"); done <<<"$(service_conf "$n" smoke)"
  done
  at_once=${SMOKES_AT_ONCE:-1}
  for ((i = 0; i < ${#lines[@]}; i += at_once)); do
    pids=() names=()
    for line in "${lines[@]:i:at_once}"; do
      read -r js user args <<<"$line"
      read -ra extra <<<"$args"
      run "k6-tests/$js" "$user" "${extra[@]}" "$@" </dev/null & pids+=($!) names+=("$js")
    done
    for j in "${!pids[@]}"; do
      rc=0; wait "${pids[$j]}" || rc=$?
      case $rc in 0) ;; 75) inconclusive+=("${names[$j]}") ;; *) failed+=("${names[$j]} (exit $rc)") ;; esac
    done
  done
  [ ${#failed[@]} -eq 0 ] || { log "smokes failed: ${failed[*]}"; exit 1; }
  [ ${#inconclusive[@]} -eq 0 ] || { log "smokes inconclusive (the generator was short, see their verdicts): ${inconclusive[*]}"; exit 75; }
else
  run "$script" "${K6_USER:-alice}" "$@"
fi
