#!/usr/bin/env bash
# Runs load through the gateway of the running local stack with fresh dev tokens.
#   load.sh smoke                        every service's smoke (the smoke lines of services/*/service.env; make load, make test)
#   load.sh SCENARIO [KEY=VALUE ...]     one scenario of the load runner (load-tests/: `load.sh list` names them)
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
"$PERFLAB_ROOT/scripts/stack/install.sh" >/dev/null
script=${1:-smoke}; shift || true
# Every metric of this run is labelled testid=$TESTID and, when the local stack's Prometheus answers, written into it
# (remote write), where the load dashboard and scripts/load/verdict.sh find the run.
export TESTID="${TESTID:-local-$(date +%Y%m%d-%H%M%S)}"
# Request durations go as native histograms: the verdict and the dashboards merge runners' percentiles exactly.
rw=""
if curl -fs "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/-/ready" >/dev/null 2>&1; then
  rw="http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/api/v1/write"
fi
load_runner_built
[ "$script" != list ] || { load_runner list; exit; }
# Summaries (JSON and text per run) go to a folder per run, named by time, git revision and run id.
results="${SUMMARY_OUT:-$PERFLAB_RUN/results/$(date +%Y%m%d-%H%M%S)-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)-$TESTID}"
mkdir -p "$results"
log "run id (testid): $TESTID${rw:+, metrics in Prometheus :$PERFLAB_PROMETHEUS_PORT}, summaries in $results"
# CALLERS=n: n dev users (<user>, <user>-2, ... in office 1), one token each, spread over the iterations
callers() { scripts/lib/jwt.sh callers "$1" "${CALLERS:-1}"; }  # user
# The generator's CPU is watched from outside (scripts/lib/generator.py) and read with its dropped iterations into the
# run's verdict: pass (0), fail (99) or inconclusive (75, the generator was short of CPU or of iterations in flight:
# no figure about the system). LOAD_CPU_LIMIT=<cores> runs the generator in a CPU-limited cgroup of its own (root), as
# a runner pod's limit does.
run() { # SCENARIO USER [KEY=VALUE ...]
  local samples summary='' rc=0 cpus where
  cpus=$(nproc); where="this host, on the same $(nproc) CPU(s) as the system under test"
  local a named="" token
  token="$(scripts/lib/jwt.sh token "$2" 1 3600)"
  for a in "${@:3}"; do case $a in SUMMARY_NAME=*) named=${a#SUMMARY_NAME=} ;; esac; done
  # its summary by name, not as the newest file: smokes run side by side (SMOKES_AT_ONCE)
  [ -n "$named" ] || { named=$1; set -- "$@" SUMMARY_NAME="$1"; }
  samples=$(mktemp "$results/.generator-XXXXXX")
  if [ -n "${LOAD_CPU_LIMIT:-}" ]; then cpus=$LOAD_CPU_LIMIT; where="this host, in a cgroup limited to $cpus CPU(s)"; fi
  SAMPLES=$samples limited_runner run "$1" BASE_URL="http://127.0.0.1:$PERFLAB_GATEWAY_PORT" TOKEN="$token" \
    CALLER_TOKENS="$(callers "$2")" SUMMARY_DIR="$results" TESTID="$TESTID" ${rw:+PROMETHEUS_RW_URL="$rw"} "${@:3}" &
  local pid=$!
  # a runner in a CPU-limited cgroup is sampled by limited_runner from the moment it is moved there and started
  local sampler=""
  [ -n "${LOAD_CPU_LIMIT:-}" ] || sampler=1
  [ -z "$sampler" ] || { python3 scripts/lib/generator.py sample "$pid" "$samples" & sampler=$!; }
  wait "$pid" || rc=$?
  [ -z "$sampler" ] || wait "$sampler" || true
  summary="$results/$named-summary.json"
  [ -f "$summary" ] || summary=
  # beside the summary: <name>-generator.json (the verdict and the generator's health) and its samples
  mv "$samples" "$results/$named-generator.samples"
  python3 scripts/lib/generator.py verdict --samples "$results/$named-generator.samples" --summary "$summary" --exit "$rc" \
    --cpus "$cpus" --where "$where" --json "$results/$named-generator.json"
}
cpu_cgroup() { # a new cgroup with LOAD_CPU_LIMIT cores of CPU time (cgroup v2 or v1): its path
  local quota period=100000 cg
  quota=$(awk -v cores="$LOAD_CPU_LIMIT" -v period="$period" 'BEGIN { q = int(cores * period); print (q > 1000 ? q : 1000) }')
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    cg=/sys/fs/cgroup/perflab-load-$$-$BASHPID
    echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
    mkdir -p "$cg" && echo "$quota $period" >"$cg/cpu.max"
  else
    cg=/sys/fs/cgroup/cpu/perflab-load-$$-$BASHPID
    mkdir -p "$cg" && echo "$period" >"$cg/cpu.cfs_period_us" && echo "$quota" >"$cg/cpu.cfs_quota_us"
  fi || { log "LOAD_CPU_LIMIT needs a writable cgroup (root): $cg"; return 2; }
  echo "$cg"
}
limited_runner() { # run SCENARIO KEY=VALUE... : the load runner in a cgroup of LOAD_CPU_LIMIT cores, else as is (its
  # CPU sampled into $SAMPLES from its start there). The JVM starts and sets the run up at full speed, paused (at 0.05
  # CPU its start alone would take most of a minute); it is moved into the cgroup and only then started, so the limit
  # holds for the whole run
  [ -n "${LOAD_CPU_LIMIT:-}" ] || { load_runner "$@"; return; }
  local cg rc=0 sampler
  cg=$(cpu_cgroup) || return 2
  runner_paused "$@" || { rmdir "$cg"; return 2; }
  echo "$RUNNER_JVM" >"$cg/cgroup.procs" && runner_start || { rmdir "$cg"; return 2; }
  # shellcheck disable=SC2153 # SAMPLES is the caller's: `SAMPLES=$samples limited_runner ...` in run()
  python3 scripts/lib/generator.py sample "$RUNNER_JVM" "$SAMPLES" &
  sampler=$!
  wait "$RUNNER_PID" || rc=$?
  wait "$sampler" || true
  rmdir "$cg" 2>/dev/null || true
  return "$rc"
}
if [ "$script" = smoke ]; then
  # each service's smoke lines (services/<name>/service.env: "<scenario> <user> [KEY=VALUE ...]"; alice is a seeded user);
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
      read -r scenario user args <<<"$line"
      read -ra extra <<<"$args"
      run "$scenario" "$user" "${extra[@]}" "$@" </dev/null & pids+=($!) names+=("$scenario")
    done
    for j in "${!pids[@]}"; do
      rc=0; wait "${pids[$j]}" || rc=$?
      case $rc in 0) ;; 75) inconclusive+=("${names[$j]}") ;; *) failed+=("${names[$j]} (exit $rc)") ;; esac
    done
  done
  [ ${#failed[@]} -eq 0 ] || { log "smokes failed: ${failed[*]}"; exit 1; }
  [ ${#inconclusive[@]} -eq 0 ] || { log "smokes inconclusive (the generator was short, see their verdicts): ${inconclusive[*]}"; exit 75; }
else
  run "$script" "${LOAD_USER:-alice}" "$@"
fi
