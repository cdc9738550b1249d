# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of the cluster checks: its globals are set in one part and read in another
# What every cluster check shares (sourced by scripts/test/cluster-check.sh and scripts/test/test-node.sh): kubectl and
# helm against the cluster KC names, a port-forward to the gateway's Service, the pods' state, a Job's end.
# Set by the caller: KC (a kubeconfig), RELEASE and NS (the chart's release and its namespace), WORK (a scratch folder),
# KUBECTL and HELM (the tools), TOKEN (a caller's JWT the release's gateway accepts).
kube() { "$KUBECTL" --kubeconfig "$KC" "$@"; }
helmc() { "$HELM" --kubeconfig "$KC" "$@"; }
curl_gw() { curl -sS --max-time 10 "$@"; }

forward() {  # LOG PROBE_URL TARGET PORTS...: kubectl port-forward TARGET PORTS in the background, its pid in FORWARD_PID,
  # waited for until PROBE_URL answers at all (up to 30 s); status 1 with its log if it never does or ends
  kube -n "$NS" port-forward "$3" "${@:4}" >"$WORK/$1" 2>&1 &
  FORWARD_PID=$!
  local end=$((SECONDS + 30))
  until curl -s -o /dev/null "$2"; do
    [ $SECONDS -lt $end ] && kill -0 "$FORWARD_PID" 2>/dev/null || { kill "$FORWARD_PID" 2>/dev/null; cat "$WORK/$1"; return 1; }
    sleep 0.25
  done
}

PF_PID="" GW=""
CLUSTER_PORT="${CLUSTER_PORT:-18080}"
port_forward() {  # the README's way in: kubectl port-forward to the gateway's Service (the gateway reaches the
  # services through their Services, so every call below also crosses kube-proxy and the cluster DNS)
  GW="http://127.0.0.1:$CLUSTER_PORT"
  forward port-forward.log "$GW/s/port-forward-probe" "svc/$RELEASE-gateway" "$CLUSTER_PORT:8080" || return 1
  PF_PID=$FORWARD_PID
  echo "  $GW -> svc/$RELEASE-gateway:8080"
}

pods_report() {  # per pod: node, image, container start to Ready (the JVM's start-up on this node), restarts
  kube -n "$NS" get pods -o json | jq -r '.items[] | (.status // {}) as $st | ($st.containerStatuses // [{}])[0] as $cs
    | $cs.state.running.startedAt as $started
    | [$st.conditions[]? | select(.type == "Ready" and .status == "True") | .lastTransitionTime][0] as $ready
    | [.metadata.name, $st.phase,
       (if $started and $ready then ($ready | fromdateiso8601) - ($started | fromdateiso8601) else "-" end),
       ($cs.restartCount // "-"), ($cs.image // "")] | @tsv' \
    | awk -F'\t' '{ printf "  %-34s %-8s start-to-ready %5s  restarts %s  %s\n", $1, $2, ($3 == "-" ? "  -  " : $3 " s"), $4, $5 }'
}

live_pods() {  # NAME [count]: the service's pods that are Ready and not terminating, one name per line; with
  # `count`, one line "<all pods> <live pods>" from the same listing
  kube -n "$NS" get pods -l app.kubernetes.io/name="$1" -o json | jq -r --arg mode "${2:-}" '
    .items as $all
    | [$all[] | select(.metadata.deletionTimestamp == null
        and any(.status.conditions[]?; .type == "Ready" and .status == "True")) | .metadata.name] as $live
    | if $mode == "count" then "\($all | length) \($live | length)" else $live[] end'
}

settled() {  # NAME: waits (up to 2 min) until the Deployment's pods are only its live replicas: none terminating, none
  # starting; a rollout's status is complete while the old ReplicaSet's pods still shut down
  local want all live end=$((SECONDS + 120))
  while :; do
    want="$(kube -n "$NS" get deploy "$RELEASE-$1" -o jsonpath='{.spec.replicas}')"
    read -r all live < <(live_pods "$1" count)
    [ -n "$want" ] && [ "$all" -eq "$want" ] && [ "$live" -eq "$want" ] && return 0
    [ $SECONDS -lt $end ] || { echo "  $1: $live live of $all pods, $want wanted, after 120 s"; return 1; }
    sleep 1
  done
}

started_in() {  # NAME: per live pod (not terminating), the JVM's own start-up line ("Started ... in 4.1 seconds")
  local p
  for p in $(kube -n "$NS" get pods -l app.kubernetes.io/name="$1" --field-selector=status.phase=Running \
      -o go-template='{{range .items}}{{if not .metadata.deletionTimestamp}}{{.metadata.name}}{{"\n"}}{{end}}{{end}}'); do
    kube -n "$NS" logs "$p" | grep -o '"Started [A-Za-z]* in [0-9.]* seconds[^"]*' | head -1 | sed "s|^\"|  $p: |"
  done
}

job_done() {  # JOB SECONDS: waits until the Job is Complete or Failed and prints which; status 1 if neither in time
  local state="" end=$((SECONDS + $2))
  until [[ "$state" == *Complete* || "$state" == *Failed* ]]; do
    [ $SECONDS -lt "$end" ] || return 1
    sleep 1; state="$(kube -n "$NS" get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}' 2>/dev/null)"
  done
  echo "$state"
}
runner_job() {  # RUN_ID: the name of the loadtest chart's runner Job of that run (not its starter); status 1 if none
  local job
  job="$(kube -n "$NS" get jobs -l perflab.dev/run="$1" -o name | grep -v -- '-starter$' | sed 's|.*/||')"
  [ -n "$job" ] || { echo "  no runner Job of run $1" >&2; return 1; }
  echo "$job"
}

reads_whole() {  # NAME RATE SECONDS: a reads.js run under a disruption, from $WORK/NAME-summary.json: no failed request,
  # no failed check, and at least 95% of the RATE x SECONDS offered requests made (a stall is not "no errors"); its
  # latency printed, not judged. SECONDS `run`: the run's own length (one stopped early); `scheduled`: what
  # its arrival-rate executor started or dropped (a runner's summary read from its log, which has no run length)
  local out
  out="$(jq -r --arg name "$1" --argjson rate "$2" --arg secs "$3" '
    .metrics as $m | $m.http_reqs.values.count as $reqs | $m.http_req_failed.values.passes as $failed
    | $m.checks.values.fails as $bad | $m.http_req_duration.values as $d
    | (if $secs == "scheduled" then $m.iterations.values.count + ($m.dropped_iterations.values.count // 0)
       else $rate * (if $secs == "run" then .state.testRunDurationMs / 1000 else ($secs | tonumber) end) | floor end) as $offered
    | "  \($name): \($reqs) of \($offered) offered requests made, \($failed) failed, \($bad) checks failed; latency (not"
      + " judged) p50 \($d.med | round) ms, p95 \($d["p(95)"] | round) ms, max \($d.max | round) ms",
      ($failed == 0 and $bad == 0 and $reqs >= 0.95 * $offered)' "$WORK/$1-summary.json")" || return 1
  head -n 1 <<<"$out"
  [ "$(tail -n 1 <<<"$out")" = true ]
}
