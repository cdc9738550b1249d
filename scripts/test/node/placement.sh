# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of test-node.sh: its globals are set in one part and read in another
# the two nodes apart: cpusets, the placement probe and the pair of runs (sourced by scripts/test/test-node.sh, which defines kube, helmc, WORK and the release)
# Each node's pods on a CPU of their own (cpusets), the host's stores on the system's: the two nodes stay apart.
STORES=(mariadb redis mongo-wire smtp sms-sink prometheus)
cpus_apart() {
  k8s_node_cpus system 0 && k8s_node_cpus load 1 || return 1
  local s; for s in "${STORES[@]}"; do store_cpus "$s" 0; done
  echo "  system node and the stores on CPU 0, load node on CPU 1"
}
cpus_shared() {
  k8s_node_cpus system 0-1 && k8s_node_cpus load 0-1 || return 1
  local s; for s in "${STORES[@]}"; do store_cpus "$s" 0-1; done
}
store_cpus() {  # NAME CPUS: every thread of a host store (pid in .run/pids; MariaDB's server pid of its own)
  local f="$PERFLAB_RUN/pids/$1.pid"
  [ "$1" = mariadb ] && f="$PERFLAB_RUN/mariadb.server.pid"
  [ -f "$f" ] && taskset -a -p -c "$2" "$(cat "$f")" >/dev/null 2>&1 || true
}

cpu_pod() {  # NAME NODE COMMAND: a pod of the base image on NODE (system|load; none: no placement at all)
  local sel="perflab.dev/pool: system" tol=""
  [ "$2" = none ] && sel=""
  [ "$2" = load ] && sel="perflab.dev/pool: load" \
    && tol='tolerations: [{ key: perflab.dev/pool, operator: Equal, value: load, effect: NoSchedule }]'
  kube -n perflab-placement apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Pod
metadata: { name: $1 }
spec:
  restartPolicy: Never
  nodeSelector: { $sel }
  $tol
  terminationGracePeriodSeconds: 0
  containers:
    - { name: c, image: "$BASE", command: [sh, -c, '$3'] }
YAML
}

# the probe: three times 400 MB through sha256sum, the time of each in ms (the fastest is kept)
# shellcheck disable=SC2016 # run by the node's shell, which expands it
PROBE='for i in 1 2 3; do s=$(date +%s%N); head -c 400000000 /dev/zero | sha256sum >/dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); done'
probe_ms() {  # NAME: runs the probe on the system node, prints its fastest round
  cpu_pod "$1" system "$PROBE" || return 1
  kube -n perflab-placement wait --for=jsonpath='{.status.phase}'=Succeeded "pod/$1" --timeout=120s >/dev/null || return 1
  kube -n perflab-placement logs "$1" | sort -n | head -n 1
}
burner() {  # NAME NODE: a pod spinning on one CPU, Running
  cpu_pod "$1" "$2" 'while :; do :; done' && kube -n perflab-placement wait --for=condition=Ready "pod/$1" --timeout=60s >/dev/null
}

placement_measured() {  # the proof the two nodes are apart: a CPU-bound pod on the system node slows a CPU-bound
  # probe there (> 1.6x alone: the probe measures CPU contention), and the same pod on the load node costs the probe
  # clearly less than beside it (< 0.75x the co-located time; sharing its CPU would cost the same). Judged against the
  # co-located arm, not against "alone": the machine's two vCPUs are not fully independent of each other or of the
  # host (seen: a busy pod on the other CPU cost the probe 1.09x in one run and 1.42x in another, co-located 2.15x)
  # A round is taken again, three at most, when the rule fails: the host's own work (its control plane, Prometheus,
  # kube-router, unconfined) now and then slows the probe for a whole round (seen: alone 1,963 ms, a busy pod on the
  # load node 2,496 ms, beside it 2,746 ms, against ~1,350 / ~1,450 / ~2,700 in other runs); nodes that are not apart
  # fail every round (the co-located arm is then no slower than the apart one)
  local round
  for round in 1 2 3; do
    placement_round "$round" && return 0
  done
  echo "  expected: co-located > 1.6x alone, apart < 0.75x co-located (three rounds)"
  return 1
}
placement_round() {  # ROUND: one round of the probe alone, with a busy pod on the load node, with it on the system node
  local alone beside colocated r=$1 rc=0
  kube create namespace perflab-placement >/dev/null 2>&1
  cpus_apart || return 1
  alone="$(probe_ms "probe-alone-$r")" || return 1
  burner "burn-load-$r" load || return 1
  beside="$(probe_ms "probe-beside-$r")" || return 1
  kube -n perflab-placement delete pod "burn-load-$r" --grace-period=1 >/dev/null
  burner "burn-system-$r" system || return 1
  colocated="$(probe_ms "probe-colocated-$r")" || return 1
  echo "  round $r, probe on the system node: alone $alone ms; a busy pod on the load node $beside ms ($(ratio "$beside" "$alone")x); the same pod on the system node $colocated ms ($(ratio "$colocated" "$alone")x); apart / co-located: $(ratio "$beside" "$colocated")"
  awk -v a="$alone" -v b="$beside" -v c="$colocated" 'BEGIN { exit !(c > 1.6 * a && b < 0.75 * c) }' || rc=1
  if [ "$rc" = 0 ] || [ "$r" = 3 ]; then
    kube delete namespace perflab-placement --wait=false >/dev/null
  else   # the next round begins with no busy pod left
    kube -n perflab-placement delete pod "burn-system-$r" --grace-period=1 >/dev/null
  fi
  return $rc
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a / b }'; }

# One short run of the same arrival-rate load with its runners on the load node and on the system node (co-located,
# as every figure taken on one machine): the system's throughput and p95 (runners' histograms merged), each runner's
# CPU (its JVM, watched from the host) and dropped iterations, and the ratio. A measurement, not a smoke: the runner's
# thresholds are off (THRESHOLDS=off: a slow arm is a figure, not a failure).
load_pair() {
  local placement out="$WORK/pair.tsv"
  : >"$out"
  for placement in load system; do pair_run "$placement" shortener-smoke "${PAIR_RATE:-20}" "${PAIR_SECONDS:-12}" >>"$out" || return 1; done
  pair_table "$out"
}
pair_table() {  # TSV of pair_run rows: the table, and the p95 of each arm against the first's
  "$K8S_TOOLS_PYTHON" - "$1" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
head = ("runners on", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "system pods' CPU", "runner CPU peak", "dropped")
print("  | " + " | ".join(head) + " |")
print("  |---|" + "--:|" * (len(head) - 1))
for r in rows:
    print("  | " + " | ".join(r) + " |")
# an arm run more than once (make placement: each arm twice, in mirrored order) is compared by its runs' mean p95
arms = {}
for r in rows:
    arms.setdefault(r[0], []).append(float(r[4]))
mean = {a: sum(v) / len(v) for a, v in arms.items()}
first = rows[0][0]
for a in list(arms)[1:]:
    runs = "" if len(arms[a]) == 1 else " (mean of %d runs each)" % len(arms[a])
    print("  p95 on %s / on %s: %.2f%s" % (a, first, mean[a] / mean[first], runs))
PY
}

# make placement (NODE_TEST=placement): the comparison in full, longer and at a higher rate than make test's pair, with
# the nodes apart: the same arrival-rate load with its runner on the load node, on the system node, and on this host
# on the system's CPU, for each of PLACEMENT_LOADS (TEST:RATE; by default seed 004's create-and-follow mix, the
# shortener smoke, at 120 iterations/s, and the office day at 4 times its mix), PAIR_SECONDS (45) each; thresholds off
# (each arm is a figure)
placement_table() {
  local arm load out
  cpus_apart && load_values && day_callers || return 1
  for load in ${PLACEMENT_LOADS:-shortener-smoke:120 office-day:4}; do
    out="$WORK/placement-${load%%:*}-${load##*:}.tsv"
    : >"$out"
    placement_warm "${load%%:*}" "${load##*:}" || return 1
    echo "  ${load%%:*} at RATE=${load##*:}, ${PAIR_SECONDS:-45} s per arm, each arm twice in mirrored order:"
    # each arm twice, in mirrored order: what drift is left weighs on every arm alike
    for arm in load system host host system load; do
      pair_run "$arm" "${load%%:*}" "${load##*:}" "${PAIR_SECONDS:-45}" >>"$out" || return 1
    done
    pair_table "$out"
  done
  cpus_shared
}
placement_warm() {  # TEST RATE: passes of that load from this host, not measured, until the system is warm for it.
  # The arm that ran first met a colder system in every run here (at 60/s: runner apart first, p95 1,051 ms; co-located
  # second 587 ms; the host third 395 ms); after one unmeasured pass, six arms in mirrored order at 40/s: the system
  # pods' CPU for the same requests fell run after run, 0.79 -> 0.35, and p95 47 -> 6 ms, whatever the placement; and
  # passes of seed 004's mix did not warm the office day's other paths (its first arm p95 77 ms, its last 29). Warm
  # is: the system pods' CPU of a pass within 10% of the pass before, twice in a row, and no iteration dropped (a
  # system past what it serves holds its CPU steady at its limit while it still gets faster: at 120/s three passes
  # at 0.60-0.67 "settled" while the arms after them went from 788 to 1,274 requests/s); PLACEMENT_WARMUPS at most
  local row cpu dropped prev="" steady=0 n=0
  while [ "$steady" -lt 2 ]; do
    n=$((n + 1))
    [ "$n" -le "${PLACEMENT_WARMUPS:-8}" ] || {
      echo "  not warm after $((n - 1)) passes: the table below still measures the system's warm-up"; break; }
    row="$(pair_run host "$1" "$2" 30)" || return 1
    cpu="$(cut -f7 <<<"$row")" dropped="$(cut -f9 <<<"$row")"
    echo "  warm-up pass $n ($1 at RATE=$2 from the runner on this host, 30 s, not measured): the system pods' CPU $cpu, $dropped dropped"
    if [ -n "$prev" ] && [ "$dropped" = 0 ] && awk -v a="$prev" -v b="$cpu" 'BEGIN { d = (a - b) / a; exit !(d < 0.1 && d > -0.1) }'; then
      steady=$((steady + 1))
    else
      steady=0
    fi
    prev="$cpu"
  done
}
pair_run() {  # PLACEMENT TEST RATE SECONDS: one run of a loadtest chart test (shortener-smoke: seed 004's mix;
  # office-day: every service's, the callers of day_callers) at RATE for SECONDS, its row (pair_row); host: the runner on this
  # host, on the system node's CPU (pinned to CPU 0 when the nodes are apart), as every figure taken on one machine;
  # load, system: one runner of the loadtest chart on that node
  local id; id="pair-$1-$(date +%H%M%S)"   # a run id is at most 20 characters
  if [ "$1" = host ]; then
    pair_on_host "$id" "$2" "$3" "$4" || return 1
  else
    pair_in_cluster "$1" "$id" "$2" "$3" "$4" || return 1
  fi
  pair_row "$1" "$id"
}
pair_on_host() {  # ID TEST RATE SECONDS: the load runner on this host, its CPU sampled into $WORK/ID.samples
  local gw pid sampler token callers=() warmup=3s
  gw="http://$(kube -n "$NS" get svc "$RELEASE-gateway" -o jsonpath='{.spec.clusterIP}'):8080"
  token="$(scripts/lib/jwt.sh token load 1 3600)"
  if [ "$2" = office-day ]; then
    token="$(scripts/lib/jwt.sh token alice 1 3600)" warmup=5s
    callers=(CALLER_TOKENS="$(day_tokens)")
  fi
  # shellcheck disable=SC2086
  taskset -c "${PAIR_HOST_CPUS:-0}" "$JAVA_HOME/bin/java" $PERFLAB_LOAD_JVM_OPTS -jar "$PERFLAB_LOAD_JAR" run "$2" \
    THRESHOLDS=off TESTID="$1" PROMETHEUS_RW_URL="http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/api/v1/write" \
    BASE_URL="$gw" TOKEN="$token" "${callers[@]}" RATE="$3" DURATION="${4}s" WARMUP="$warmup" SUMMARY_DIR="$WORK" \
    SUMMARY_NAME="$1" >"$WORK/$1.out" 2>&1 &
  pid=$!
  python3 scripts/lib/generator.py sample "$pid" "$WORK/$1.samples" &
  sampler=$!
  wait "$pid" || { tail "$WORK/$1.out" >&2; return 1; }
  wait "$sampler"
}
runner_pid() {  # TESTID: the host's pid of a runner pod's JVM of that run (its environment names the run)
  local p
  for p in $(pgrep -f 'dev[.]perflab[.]load[.]LoadRunner run'); do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "TESTID=$1" && { echo "$p"; return 0; }
  done
  return 1
}
pair_in_cluster() {  # PLACEMENT ID TEST RATE SECONDS: one runner of the loadtest chart's TEST on that node
  local where=() values=() t=$3 warmup=3s
  [ "$1" = load ] && where=("${LOAD_POOL[@]}") || where=(--set-json 'placement.nodeSelector={"perflab.dev/pool":"system"}')
  [ "$t" = office-day ] && values=("${DAY_VALUES[@]}") warmup=5s
  runner_measured "$2" $(($5 + 120)) "${values[@]}" \
    --set "tests.$t.parallelism=1,tests.$t.env.RATE=$4,tests.$t.env.DURATION=${5}s,tests.$t.env.WARMUP=$warmup" \
    --set "tests.$t.env.THRESHOLDS=off" "${where[@]}"
}
runner_measured() {  # ID TIMEOUT [helm args]: a loadtest release of one runner (held to 1 CPU) and run ID, its JVM's CPU
  # sampled into $WORK/ID.samples until its Job is done (at most TIMEOUT s), its log kept in $WORK/ID.log; the release
  # uninstalled after it
  local id=$1 timeout=$2 run pid="" sampler end state
  shift 2
  load_install "perflab-$id" "$id" --set runner.resources.requests.cpu=100m,runner.resources.limits.cpu=1 "$@" || return 1
  run="$(runner_job "$id")" || return 1
  end=$((SECONDS + 60))
  until pid="$(runner_pid "$id")"; do
    [ $SECONDS -lt $end ] || { echo "  no runner JVM of $run" >&2; return 1; }
    sleep 0.2
  done
  python3 scripts/lib/generator.py sample "$pid" "$WORK/$id.samples" &
  sampler=$!
  state="$(job_done "$run" "$timeout")"   # a failed runner ends the arm at once, not at the timeout
  [[ "$state" == *Complete* ]] || { echo "  the runner's Job $run: ${state:-not done in $timeout s}" >&2; kube -n "$NS" logs "job/$run" | tail >&2; return 1; }
  wait "$sampler"
  kube -n "$NS" logs "job/$run" --tail=-1 >"$WORK/$id.log" 2>&1
  helmc uninstall "perflab-$id" -n "$NS" --wait --timeout 1m >/dev/null
}
pair_row() {  # PLACEMENT ID: the run's row, from Prometheus (the runners' remote write, the kubelets' cAdvisor) and its samples
  # the system: the release's gateway and service pods, by name (cAdvisor's series carry no pod labels)
  local system_pods
  system_pods="$(kube -n "$NS" get pods -l app.kubernetes.io/instance="$RELEASE",app.kubernetes.io/component=service \
    -o jsonpath='{range .items[*]}{.metadata.name}{"|"}{end}')"
  "$K8S_TOOLS_PYTHON" - "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT" "$2" "$WORK/$2.samples" "$1" "$NS" "${system_pods%|}" <<'PY'
import json, sys, urllib.parse, urllib.request
sys.path.insert(0, "scripts/lib")
from generator import cpu_use
url, run, samples, placement, ns, system_pods = sys.argv[1:]
def q(expr, t=None):
    p = {"query": expr} | ({"time": t} if t else {})
    with urllib.request.urlopen(f"{url}/api/v1/query?{urllib.parse.urlencode(p)}") as r:
        return json.load(r)["data"]["result"]
series = q(f'perflab_load_http_reqs_total{{testid="{run}"}}[10m]')
last = max(float(t) for s in series for t, _ in s["values"])
first = min(float(t) for s in series for t, _ in s["values"])
reqs = float(q(f'sum(perflab_load_http_reqs_total{{testid="{run}"}})', last)[0]["value"][1])
pct = {p: float(q(f'histogram_quantile({p}, sum(perflab_load_http_req_duration_seconds{{testid="{run}"}}))', last)[0]["value"][1])
       for p in (0.5, 0.95, 0.99)}
dropped = q(f'sum(perflab_load_dropped_iterations_total{{testid="{run}"}})', last)
# the system's pods (gateway and services), from the kubelets' cAdvisor over the run; the host's stores are not in it
window = "%ds" % max(10, round(last - first))
# each pod's own cgroup (container=""), as the verdict reads a runner's: these kubelets give no per-container series
system = q(f'sum(rate(container_cpu_usage_seconds_total{{namespace="{ns}",container="",pod=~"{system_pods}"}}[{window}]))',
           last)
peak, mean, _ = cpu_use(samples, 1.0)
where = {"load": "the load node (CPU 1)", "system": "the system node (CPU 0)", "host": "this host (runner on CPU 0)"}[placement]
print("\t".join([where, "%.0f" % reqs, "%.0f" % (reqs / max(1.0, last - first)), "%.1f" % (pct[0.5] * 1000),
                 "%.1f" % (pct[0.95] * 1000), "%.1f" % (pct[0.99] * 1000),
                 "%.2f" % float(system[0]["value"][1]) if system else "-",
                 "%.0f%% of 1 CPU" % (peak * 100), dropped[0]["value"][1] if dropped else "0"]))
PY
}
