# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of test-node.sh: its globals are set in one part and read in another
# the loadtest chart's runners on the load node: the runner image, an A/B and an office day, the verdict (sourced by scripts/test/test-node.sh, which defines kube, helmc, WORK and the release)
LOAD_IMAGE=""
runner_image() {  # the load runner's image (load-tests, built by Jib with the services'): pushed with them, its
  # entrypoint the runner's main class
  LOAD_IMAGE="$(awk '$1 == "load-tests" { print $2 }' "$WORK/images.txt")"
  [ -n "$LOAD_IMAGE" ] || { echo "  no load-tests image among $(cut -d' ' -f1 "$WORK/images.txt" | xargs)"; return 1; }
  "$CRANE" config --insecure "$LOAD_IMAGE" | jq -e '.config.Entrypoint[-1] == "dev.perflab.load.LoadRunner"' >/dev/null \
    || { echo "  $LOAD_IMAGE does not start the load runner"; return 1; }
  echo "  $LOAD_IMAGE"
}

# load_install RELEASE RUN_ID [helm args...]: the loadtest chart's shortener smoke against the system's release, the
# runner image built here, the run remote-written into the host's Prometheus and judged from there; what differs per
# run (resources, rate, placement) is the caller's
load_values() {  # LOAD_VALUES: the loadtest chart's values every run here shares: its token, the runner image made
  # here, results remote-written to (and the verdict read from) the host's Prometheus
  kube -n "$NS" create secret generic perflab-load-token --from-literal=TOKEN="$(scripts/lib/jwt.sh token load 1 3600)" \
    --dry-run=client -o yaml | kube apply -f - >/dev/null || return 1
  # shellcheck disable=SC2054 # helm --set takes comma-separated key=value pairs
  LOAD_VALUES=(--set token.existingSecret=perflab-load-token
    --set runner.image.repository="${LOAD_IMAGE%:*}",runner.image.tag="${LOAD_IMAGE##*:}" --set runner.resources.requests.memory=256Mi
    --set results.prometheus.enabled=true,results.prometheus.url="http://$K8S_NODE_HOST_IP:$PERFLAB_PROMETHEUS_PORT/api/v1/write"
    --set results.verdict.prometheusUrl="http://$K8S_NODE_HOST_IP:$PERFLAB_PROMETHEUS_PORT"
    --set results.verdict.maxP95Seconds=2,results.verdict.cpuWindow=10s)
}
report_json() {  # a runner's log on stdin -> its end-of-test report (its text summary's lines,
  # "  <metric> <stat>=<value> ...") as the summary file's shape: {"metrics": {<metric>: {"values": {<stat>: n}}}}
  jq -Rn '{metrics: ([inputs | select(test("^  [a-z_]+(\\{[^}]*\\})? +[a-z0-9()]+="))
    | capture("^  (?<name>[a-z_]+(\\{[^}]*\\})?) +(?<stats>.*?)( ✓| ✗ THRESHOLD FAILED)?$")
    | {key: .name, value: {values: ([.stats | split(" ")[] | select(contains("=")) | split("=")
        | {key: .[0], value: (.[1] | tonumber? // .[1])}]
      | from_entries)}}] | from_entries)} | if .metrics.http_reqs then . else error("no end-of-test report in the log") end'
}
load_install() {
  local release=$1 id=$2; shift 2
  load_values || return 1
  helmc install "$release" charts/perflab-loadtest -n "$NS" --set runId="$id" --set target.release="$RELEASE" \
    --set tests.route-smoke.enabled=false "${LOAD_VALUES[@]}" "$@" >"$WORK/$release-install.out" 2>&1 \
    || { cat "$WORK/$release-install.out" >&2; return 1; }
}

ab_in_cluster() {  # make ab in the cluster (scripts/load/ab.sh with AB_RELEASE): route's points-fetch switch, A jdbc-stream and
  # B interface-projection, each arm a helm upgrade of the release and a route-smoke run of the loadtest chart's runners
  # on the load node (the gateway's and route's body caches off in both, so the reads reach the switch's path); the
  # report from Prometheus: both arms' figures from the runners' histograms, the pods' CPU from cAdvisor
  local out
  load_values || return 1
  out="$(KUBECONFIG="$KC" AB_RELEASE="$RELEASE" AB_NAMESPACE="$NS" \
    AB_SET="--set services.gateway.env.PERFLAB_GATEWAY_BODYCACHE_ENABLED=false --set services.route.env.PERFLAB_ROUTE_BODYCACHE_MAXSIZE=0" \
    scripts/load/ab.sh route points-fetch jdbc-stream interface-projection route-smoke "${LOAD_VALUES[@]}" "${LOAD_POOL[@]}" \
    --set-json 'target.nodeSelector={"perflab.dev/pool":"system"}' \
    --set tests.route-smoke.env.RATE=10,tests.route-smoke.env.DURATION=30s,tests.route-smoke.env.WARMUP=5s \
    --set runner.resources.requests.cpu=100m,runner.resources.limits.cpu=1 2>"$WORK/ab.err" | tail -n 1)" \
    || { tail -30 "$WORK/ab.err"; return 1; }
  sed 's/^/  /' "$out/report.md"
  "$K8S_TOOLS_PYTHON" - "$out" <<'PY'
import json, sys
from pathlib import Path
d = Path(sys.argv[1])
r, meta = json.loads((d / "ratios.json").read_text()), json.loads((d / "meta.json").read_text())
problems = [f"arm {a['arm']}: exit {a['exit']}" for a in meta["arms"] if a["exit"] != 0]
problems += [f"no {k}" for k in ("requests/s", "latency p95", "service CPU per request", "runners' CPU per request") if r.get(k) is None]
if (d / "report.html").read_text().count("<polyline") < 10:
    problems.append("the report's plots are empty")
if problems:
    sys.exit("the A/B in the cluster: " + "; ".join(problems))
PY
}

office_day_in_cluster() {  # the office day (scenario office-day: every service's mix at once) from the loadtest
  # chart's runners on the load node, as 5 callers (alice and alice-2..5, as make test's local office day): their
  # tokens from the Secret's CALLERS key (token.callersKey), each VU one of them; the verdict across runners
  local run rc=0; run="day-$(date +%H%M%S)"
  load_values && day_callers || return 1
  helmc install perflab-day charts/perflab-loadtest -n "$NS" --set runId="$run" \
    --set target.release="$RELEASE" "${LOAD_VALUES[@]}" "${DAY_VALUES[@]}" \
    --set tests.office-day.env.RATE=1,tests.office-day.env.DURATION=30s,tests.office-day.env.WARMUP=10s \
    --set runner.resources.requests.cpu=100m,runner.resources.limits.cpu=1 "${LOAD_POOL[@]}" \
    --set-json 'target.nodeSelector={"perflab.dev/pool":"system"}' >"$WORK/day-install.out" 2>&1 \
    || { cat "$WORK/day-install.out"; return 1; }
  local state
  state="$(job_done "perflab-day-office-day-$run" 180)"
  kube -n "$NS" logs -l perflab.dev/load=runner,perflab.dev/run="$run" --tail=-1 2>/dev/null \
    | grep -E '✗|^ *(http_reqs|http_req_failed|iterations|dropped_iterations) ' | sed 's/^/  runner: /'
  [[ "$state" == *Complete* ]] || { echo "  the runner's Job: ${state:-not done in 180 s}"; rc=1; }
  if [ $rc -eq 0 ]; then
    helmc test perflab-day -n "$NS" --logs --timeout 2m >"$WORK/day-test.out" 2>&1 || rc=1
    grep -E '^(run |generator:|verdict:)' "$WORK/day-test.out" | sed 's/^/  /'
    grep -qx 'verdict: pass' "$WORK/day-test.out" || { tail -25 "$WORK/day-test.out"; rc=1; }
  fi
  helmc uninstall perflab-day -n "$NS" --wait --timeout 1m >/dev/null
  return $rc
}

day_tokens() { scripts/lib/jwt.sh callers alice 5; }
day_callers() {  # the office day's callers as the loadtest chart takes them: the Secret perflab-load-callers (TOKEN alice's,
  # whose mailbox the seed filled; CALLERS the 5 callers'), DAY_VALUES the values that run the office day alone from it
  kube -n "$NS" create secret generic perflab-load-callers --from-literal=TOKEN="$(scripts/lib/jwt.sh token alice 1 3600)" \
    --from-literal=CALLERS="$(day_tokens)" --dry-run=client -o yaml | kube apply -f - >/dev/null || return 1
  # shellcheck disable=SC2054 # helm --set takes comma-separated key=value pairs
  DAY_VALUES=(--set token.existingSecret=perflab-load-callers,token.callersKey=CALLERS
    --set tests.shortener-smoke.enabled=false,tests.route-smoke.enabled=false,tests.office-day.enabled=true)
}

LOAD_RUN=""
LOAD_POOL=(--set-json 'placement.nodeSelector={"perflab.dev/pool":"load"}'
  --set-json 'placement.tolerations=[{"key":"perflab.dev/pool","operator":"Equal","value":"load","effect":"NoSchedule"}]')
runners_as_pods() {  # the loadtest chart's Jobs: two paused runner pods of the shortener smoke on the load node,
  # started together by the starter Job (its start spread measured), their metrics remote-written into the host's
  # Prometheus; `helm test` then gives the verdict across both from there
  local t0=$SECONDS run
  LOAD_RUN="node-$(date +%Y%m%d-%H%M%S)"
  load_install perflab-load "$LOAD_RUN" --set runner.resources.requests.cpu=100m,runner.resources.limits.cpu=1 \
    --set tests.shortener-smoke.parallelism=2,results.samples.keepFor=5m \
    --set tests.shortener-smoke.env.RATE=10,tests.shortener-smoke.env.DURATION=10s,tests.shortener-smoke.env.WARMUP=2s \
    "${LOAD_POOL[@]}" || return 1
  run="perflab-load-shortener-smoke-$LOAD_RUN"
  # one report from both runners' samples (each keeps them once done, until the report takes them): then they exit
  local report=""
  # ended, not passed: a runner whose own share crossed a threshold exits 99 (its Job then Failed); the verdict across
  # both judges the run (runners_verdict). Any other exit is a runner that broke.
  kube -n "$NS" wait --for=condition=complete "job/$run-starter" --timeout=120s >/dev/null \
    && report="$(KUBECONFIG="$KC" KUBECTL="$KUBECTL" REPORT_WAIT_SECONDS=120 scripts/load/cluster-report.sh "$LOAD_RUN" "$NS" \
      2>"$WORK/report.err" | tail -n 1)" \
    && job_done "$run" 120 >/dev/null; local rc=$?
  local exits
  exits="$(kube -n "$NS" get pods -l perflab.dev/load=runner,perflab.dev/run="$LOAD_RUN" \
    -o jsonpath='{range .items[*]}{.status.containerStatuses[0].state.terminated.exitCode}{" "}{end}')"
  echo "  the runners exited: $exits(0: their thresholds held, 99: crossed on their share)"
  [[ "$exits" =~ ^((0|99)\ ){2}$ ]] || rc=1
  kube -n "$NS" get pods -l perflab.dev/run="$LOAD_RUN" -o wide --no-headers | awk '{print "  " $1, $3, $7}'
  kube -n "$NS" logs "job/$run-starter" 2>/dev/null | sed 's/^/  starter: /'
  local p
  for p in $(kube -n "$NS" get pods -l perflab.dev/load=runner,perflab.dev/run="$LOAD_RUN" -o name); do
    kube -n "$NS" logs "$p" | grep -E '^ *(http_reqs|http_req_failed|shortener_redirect_duration)' | sed "s|^|  ${p#pod/}: |"
  done
  [ $rc -eq 0 ] || { tail -5 "$WORK/report.err"; kube -n "$NS" describe job "$run" | tail -20; return 1; }
  echo "  both runners ran to their end in $((SECONDS - t0)) s"
  # the report holds every sample of both: its count is the sum of the runners' own request counts
  local counted reported
  counted="$(kube -n "$NS" logs -l perflab.dev/load=runner,perflab.dev/run="$LOAD_RUN" --tail=-1 \
    | awk '$1 == "http_reqs" { sub(/count=/, "", $2); n += $2 } END { print n + 0 }')"
  reported="$(jq '.Total.sampleCount' "$report/html/statistics.json" 2>/dev/null)"
  echo "  one report of both runners' samples: $report/html/index.html ($reported samples; the runners counted $counted)"
  [ -n "$reported" ] && [ "$reported" -gt 0 ] && [ "$reported" = "$counted" ] || { echo "  the report does not hold every sample"; return 1; }
  local elsewhere
  elsewhere="$(kube -n "$NS" get pods -l perflab.dev/run="$LOAD_RUN" -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -vcx "$K8S_LOAD_NODE_NAME")"
  [ "$elsewhere" -eq 0 ] || { echo "  $elsewhere load pod(s) ran off the load node"; return 1; }
  # started together: the starter's own measure, the spread between the first and the last runner's start
  local spread
  spread="$(kube -n "$NS" logs "job/$run-starter" 2>/dev/null | sed -n 's/^start spread: \([0-9.]*\) ms.*/\1/p')"
  echo "  the starter's spread between the first and the last runner's start: ${spread:-none printed} ms"
  [ -n "$spread" ] && awk -v s="$spread" 'BEGIN { exit !(s < 1000) }' \
    || { echo "  the runners did not start within a second of each other"; return 1; }
}

runners_verdict() {  # helm test: the verdict pod reads the run from Prometheus, across both runners, and each
  # runner pod's CPU from the kubelets' cAdvisor
  helmc test perflab-load -n "$NS" --logs --timeout 2m >"$WORK/load-test.out" 2>&1; local rc=$?
  grep -E 'requests from|generator:|verdict:|TEST SUITE|Phase|✓|✗' "$WORK/load-test.out" | sed 's/^/  /'
  grep -q "requests from 2 runner(s)" "$WORK/load-test.out" || { echo "  the verdict did not see both runners"; rc=1; }
  grep -q "(2 runner pod(s) reporting)" "$WORK/load-test.out" || { echo "  the verdict did not read both runners' CPU"; rc=1; }
  grep -q "verdict: pass" "$WORK/load-test.out" || { echo "  no pass verdict"; rc=1; }
  if [ $rc -ne 0 ]; then
    tail -30 "$WORK/load-test.out"
    kube -n "$NS" describe pod "perflab-load-shortener-smoke-$LOAD_RUN-verdict" 2>&1 | tail -15 | sed 's/^/  /'
  fi
  helmc uninstall perflab-load -n "$NS" --wait --timeout 1m >/dev/null
  return $rc
}

runners_starved() {  # the same smoke from one runner held to 50 millicores (its CFS quota): the verdict reads the
  # runner's CPU at its limit and gives no verdict about the system, the test pod exits 75, whatever the runner's
  # thresholds said (a JVM at 100 millicores takes its minute to start: the starter waits for it, paused)
  local run rc=0 pod code; run="starved-$(date +%H%M%S)"
  load_install perflab-starved "$run" --set runner.resources.requests.cpu=20m,runner.resources.limits.cpu=100m \
    --set tests.shortener-smoke.env.RATE=40,tests.shortener-smoke.env.DURATION=10s,tests.shortener-smoke.env.WARMUP=2s \
    "${LOAD_POOL[@]}" || return 1
  # done either way: a starved runner may fail its own thresholds (exit 99), which is not what is judged here
  local job="perflab-starved-shortener-smoke-$run"
  job_done "$job" 300 >/dev/null || { echo "  $job not done in 300 s"; kube -n "$NS" describe job "$job" | tail -15; rc=1; }
  if [ $rc -eq 0 ]; then
    helmc test perflab-starved -n "$NS" --logs --timeout 2m >"$WORK/starved-test.out" 2>&1
    pod="perflab-starved-shortener-smoke-$run-verdict"
    code="$(kube -n "$NS" get pod "$pod" -o jsonpath='{.status.containerStatuses[0].state.terminated.exitCode}')"
    grep -E 'generator:|verdict:' "$WORK/starved-test.out" | sed 's/^/  /'
    # the runner's CPU is the reason, by whichever of its two measures crossed: its usage over maxGeneratorCpu in a
    # cpuWindow, or the kernel's throttling in over maxThrottledShare of its periods (a run here: 72% usage in the
    # windows cAdvisor's 10 s refresh gave, throttled in 90% of its periods)
    [ "$code" = 75 ] && grep -Eq "verdict: inconclusive \(a runner (used [0-9]+% of its CPU|was throttled in [0-9]+% of its CPU periods)" \
      "$WORK/starved-test.out" \
      || { echo "  the verdict pod exited ${code:-?}, not 75 with the runner's CPU as the reason"; tail -20 "$WORK/starved-test.out"; rc=1; }
  fi
  helmc uninstall perflab-starved -n "$NS" --wait --timeout 1m >/dev/null
  return $rc
}
