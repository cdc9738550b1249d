#!/usr/bin/env bash
# A/B of one lab switch on the local stack: the same load runner scenario on the same data, once per value, the service
# restarted with the switch in between, then one report (scripts/load/ab-report.py): an HTML page with plots (requests/s,
# latency percentiles over time, failures; the service's heap, GC and Hikari pool from Prometheus for the same
# windows) and a Markdown table of B/A ratios.
#
#   ab.sh SERVICE SWITCH A B SCENARIO [KEY=VALUE...]
#   e.g. AB_ENV=PERFLAB_ROUTE_BODYCACHE_MAXSIZE=0 AB_DIRECT=1 \
#        ab.sh route points-fetch jdbc-stream interface-projection route-readers ROUTE=1 MODE=sustained
#
# A is the design under test (usually the fixed default), B the other value; the service is left on its default.
# SCENARIO is a load runner scenario (`load_runner list`), run by scripts/load/load.sh with the settings after it.
# Results: $PERFLAB_RUN/results/<time>-<git rev>-ab-<service>-<switch>/ (report.html, report.md, <arm>-summary.json,
# <arm>.load.txt, meta.json: each arm's `exit`, its verdict: 0 pass, 99 fail, 75 inconclusive, else the runner's).
#
# In a cluster: AB_RELEASE=<the perflab release> (KUBECONFIG, AB_NAMESPACE: default the release's name). Each arm is a
# `helm upgrade --reuse-values` of that release with the switch at its value (AB_SET: "--set k=v ..." for both arms),
# then a run of the loadtest chart's test SCENARIO (a key of its `tests`, e.g. route-smoke; every other test off) with
# the arm's run id: its runners an Indexed Job <run> started together by <run>-starter, every metric remote-written to
# Prometheus (AB_PROMETHEUS, default the local one; the arguments after SCENARIO are the loadtest chart's values for
# both arms, e.g. placement, runner image, results.prometheus.url), then its `helm test`: the verdict across runners
# with each runner's CPU (pod <run>-verdict: 0 pass, 99 fail, 75 inconclusive). The report reads both arms from
# Prometheus: the runners' totals and percentiles from their native histograms, the service's and the runners' CPU
# from cAdvisor. The release is left on the switch's default (the chart's value).
#
# An arm whose generator was short (exit 75) makes the whole comparison inconclusive: ab.sh exits 75 at the end.
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
[ $# -ge 5 ] || { sed -n 2,14p "$0" >&2; exit 2; }
service=$1 switch=$2 a=$3 b=$4 scenario=$5; shift 5
[ -f "services/$service/service.env" ] || { log "no service $service (services/*/service.env)"; exit 2; }
prometheus="${AB_PROMETHEUS:-http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT}"
curl -fs "$prometheus/-/ready" >/dev/null || { log "Prometheus at $prometheus is not up (make up, or AB_PROMETHEUS)"; exit 1; }
if [ -z "${AB_RELEASE:-}" ]; then
  # refused before the first restart, not by the runner once the first arm's service is up again
  load_runner_built
  load_runner list | grep -qx -- "$scenario" || { log "no load runner scenario $scenario (load_runner list)"; exit 2; }
  for arg in "$@"; do
    case $arg in
      TESTID=* | SUMMARY_DIR=* | SUMMARY_NAME=*) log "$arg: ab.sh sets ${arg%%=*} for each arm"; exit 2 ;;
      [A-Z]*=*) ;;
      *) log "$arg: not KEY=VALUE (the scenario's settings, e.g. ROUTE=1 MODE=sustained)"; exit 2 ;;
    esac
  done
elif [ -n "${AB_DIRECT:-}" ]; then
  log "AB_DIRECT is the local stack's: in a cluster the runners call the release's gateway"; exit 2
fi
# the env name Spring binds to perflab.<service>.<switch> (the chart's name for it too)
var="PERFLAB_${service^^}_$(tr -d '-' <<<"${switch^^}")"
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
out="$PERFLAB_RUN/results/$(date +%Y%m%d-%H%M%S)-$rev-ab-$service-$switch"
mkdir -p "$out"
port_var=$(service_var "$service" PORT)

# AB_ENV="NAME=value ...": settings both arms run with (e.g. a cache off, so the switch's own path is measured)
read -ra both <<<"${AB_ENV:-}"
# AB_DIRECT=1: the scenario calls the service itself, not the gateway, whose own answers (route's points from its edge
# body cache) would hide the switch: BASE_URL is the service's port and IDENTITY a user identity signed with the local
# gateway key for it (the scenario must send it, as route's do)
if [ -n "${AB_DIRECT:-}" ]; then
  set -- "$@" BASE_URL="http://127.0.0.1:${!port_var}" \
    IDENTITY="$(scripts/lib/jwt.sh identity perflab-gateway "${LOAD_USER:-alice}" 1 "$service" 3600)"
fi
restart() { # value ("" = the service's default, without AB_ENV)
  scripts/stack/stack.sh stop "$service" >/dev/null
  if [ -n "$1" ]; then env "${both[@]}" "$var=$1" scripts/stack/stack.sh start "$service" >/dev/null
  else scripts/stack/stack.sh start "$service" >/dev/null; fi
}
# the time of the service's first successful scrape after SINCE (waits up to 30 s): every arm's window in Prometheus
# starts and ends with one, so its counters have a sample on each side of the load even when scrapes fail under it
scraped_after() { # SINCE
  # timestamp() of a bare selector is the sample's own time (of an expression it would be the query's)
  local q="timestamp(up{job=\"perflab-$service\"}) and up{job=\"perflab-$service\"} == 1" t
  for _ in $(seq 60); do
    t=$(curl -fsG "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/api/v1/query" --data-urlencode "query=$q" |
      jq -r '.data.result[0].value[1] // 0')
    if awk -v t="$t" -v since="$1" 'BEGIN { exit !(t + 0 > since + 0) }'; then echo "$t"; return; fi
    sleep 0.5
  done
  log "Prometheus has not scraped $service since $1"; return 1
}

arms=()
if [ -n "${AB_RELEASE:-}" ]; then
  source scripts/k8s/k8s-tools.sh >/dev/null
  ns=${AB_NAMESPACE:-$AB_RELEASE} test=$scenario
  key="services.$service.lab.$(sed -E 's/-([a-z])/\U\1/g' <<<"$switch")"   # points-fetch -> pointsFetch
  read -ra set_both <<<"${AB_SET:-}"
  chart_value() {  # CHART KEY: a value of the chart's defaults
    "$HELM" show values "$1" | "$K8S_TOOLS_PYTHON" -c 'import sys, yaml
v = yaml.safe_load(sys.stdin)
for k in sys.argv[1].split("."):
    v = v[k]
print(" ".join(v) if isinstance(v, dict) else v)' "$2"
  }
  default="$(chart_value charts/perflab "$key")" || { log "charts/perflab has no value $key"; exit 2; }
  tests="$(chart_value charts/perflab-loadtest tests)"
  tr ' ' '\n' <<<"$tests" | grep -qx -- "$test" || { log "the loadtest chart has no test $test (its tests: $tests)"; exit 2; }
  others=()   # every other test of the loadtest chart off: one run per arm
  for t in $tests; do [ "$t" = "$test" ] || others+=(--set "tests.$t.enabled=false"); done
  upgrade() {  # VALUE
    "$HELM" upgrade "$AB_RELEASE" charts/perflab -n "$ns" --reuse-values --set "$key=$1" "${set_both[@]}" --wait --timeout 5m \
      >"$out/upgrade.log" 2>&1 || { tail -20 "$out/upgrade.log" >&2; return 1; }
  }
  job_state() {  # JOB SECONDS: Complete or Failed, once the Job is either; nothing when neither within SECONDS
    local state="" end=$((SECONDS + $2))
    until [[ $state == *Complete* || $state == *Failed* ]] || [ $SECONDS -ge "$end" ]; do
      sleep 1
      state="$("$KUBECTL" -n "$ns" get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}' 2>/dev/null)" || true
    done
    case $state in *Complete*) echo Complete ;; *Failed*) echo Failed ;; esac
  }
  logs() {  # ARM TESTID: the output of the run's runners and starter, whatever became of them, in <arm>.load.txt
    "$KUBECTL" -n "$ns" logs -l "perflab.dev/load in (runner,starter),perflab.dev/run=$2" --prefix --tail=-1 \
      --max-log-requests 50 >"$out/$1.load.txt" 2>&1 || true
  }
  trap 'upgrade "$default" || true' EXIT
  for arm in A B; do
    value=$a; [ "$arm" = B ] && value=$b
    log "$arm: release $AB_RELEASE with $key=$value"
    upgrade "$value"
    testid="ab-$(date +%H%M%S)-${arm,,}" load="perflab-ab-${arm,,}"
    "$HELM" uninstall "$load" -n "$ns" --wait >/dev/null 2>&1 || true   # one an interrupted run left
    # the runners an Indexed Job, paused until its starter Job starts them together
    "$HELM" install "$load" charts/perflab-loadtest -n "$ns" --set runId="$testid" \
      --set target.release="$AB_RELEASE" --set "tests.$test.enabled=true" "${others[@]}" "$@" >"$out/$arm.install.log" 2>&1 \
      || { cat "$out/$arm.install.log" >&2; exit 1; }
    run="$("$KUBECTL" -n "$ns" get jobs -l perflab.dev/run="$testid" -o name | sed 's|.*/||' | grep -v -- '-starter$' | head -1)" || true
    [ -n "$run" ] || { log "$arm: the loadtest chart made no runner Job of run $testid"; exit 1; }
    [ "$(job_state "$run-starter" 300)" = Complete ] \
      || { logs "$arm" "$testid"; log "$arm: the runners were never started ($run-starter; see $out/$arm.load.txt)"; exit 1; }
    start=$(date +%s.%N)
    # a runner whose own thresholds were crossed (exit 99) fails the Job: the verdict across runners still judges the run
    state=$(job_state "$run" 1800)
    end=$(date +%s.%N)
    logs "$arm" "$testid"
    [ "$state" = Complete ] || log "$arm: the runners' Job $run is ${state:-not done in 30 min} (see $out/$arm.load.txt)"
    status=0
    "$HELM" test "$load" -n "$ns" --logs --timeout 5m >"$out/$arm.verdict.txt" 2>&1 || status=$?
    # the verdict pod's own exit code (pass 0, fail 99, inconclusive 75), not helm's
    code="$("$KUBECTL" -n "$ns" get pod "$run-verdict" -o jsonpath='{.status.containerStatuses[0].state.terminated.exitCode}' \
      2>/dev/null)" || true
    [ -z "$code" ] || status=$code
    log "$arm: verdict exit $status: $(grep -m1 -o '^verdict: .*' "$out/$arm.verdict.txt" | cut -c1-160)"
    "$HELM" uninstall "$load" -n "$ns" --wait >/dev/null 2>&1 || true
    sleep 20   # the runners' last remote write and cAdvisor's next scrape are in the arm's window
    arms+=("$arm,$value,$testid,$start,$end,$status,$(awk -v e="$end" 'BEGIN { printf "%.3f", e + 20 }'),$run")
  done
  cluster="{\"release\": \"$AB_RELEASE\", \"namespace\": \"$ns\", \"test\": \"$test\", \"key\": \"$key\"}"
else
  trap 'restart "" || true' EXIT
  for arm in A B; do
    value=$a; [ "$arm" = B ] && value=$b
    log "$arm: $service with $switch=$value"
    restart "$value"
    testid="ab-$(basename "$out")-$arm"
    start=$(scraped_after "$(date +%s.%N)")   # a first sample of the new instance, before the load
    status=0
    # SUMMARY_NAME last: <arm>-summary.json and <arm>-generator.json whatever the arguments say
    TESTID=$testid SUMMARY_OUT="$out" scripts/load/load.sh "$scenario" "$@" SUMMARY_NAME="$arm" >"$out/$arm.load.txt" 2>&1 \
      || status=$?
    end=$(date +%s.%N)
    log "$arm: exit $status ($(grep -m1 '^verdict:' "$out/$arm.load.txt" || tail -n 1 "$out/$arm.load.txt" | cut -c1-100))"
    scraped=$(scraped_after "$end")   # one more scrape of the service before it restarts (the plots' last points)
    arms+=("$arm,$value,$testid,$start,$end,$status,$scraped")
  done
fi
AB_ENV=${AB_ENV:-${AB_SET:-}} AB_CLUSTER=${cluster:-} \
  scripts/load/ab-meta.py "$out/meta.json" "$service" "$switch" "$var" "$scenario" "$rev" "$prometheus" "${arms[@]}" -- "$@"
scripts/load/ab-report.py "$out"
log "report: $out/report.html (table: $out/report.md)"
echo "$out"
# an arm whose generator was short (exit 75: scripts/lib/generator.py, or the cluster's verdict) makes the comparison
# inconclusive, not a result
for arm in "${arms[@]}"; do
  [ "$(cut -d, -f6 <<<"$arm")" != 75 ] || { log "inconclusive: arm ${arm%%,*}'s generator was short (see the report's Generator line)"; exit 75; }
done
