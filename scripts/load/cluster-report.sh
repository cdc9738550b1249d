#!/usr/bin/env bash
# One report of an in-cluster run from every runner's samples: JMeter's HTML dashboard (load-tests report), its
# statistics over all the samples of all the runners. The runners keep their samples once their run is over for as
# long as the loadtest chart's results.samples.keepFor says; this takes them (a kubectl port-forward to each runner
# pod's control port), which lets each runner exit.
#
#   scripts/load/cluster-report.sh RUN_ID [NAMESPACE]     (KUBECONFIG as kubectl takes it)
#
# Waits (up to REPORT_WAIT_SECONDS, 600) until every runner of the run is done, then writes
# $PERFLAB_RUN/results/<time>-<run id>-report/ (samples.jtl, html/index.html) and prints the report's path.
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
[ $# -ge 1 ] || { sed -n 2,10p "$0" >&2; exit 2; }
run=$1 ns=${2:-default}
kubectl=${KUBECTL:-kubectl}
load_runner_built
pods="$("$kubectl" -n "$ns" get pods -l perflab.dev/load=runner,perflab.dev/run="$run" -o name)"
[ -n "$pods" ] || { log "no runner pod of run $run in namespace $ns (perflab.dev/run=$run)"; exit 1; }
work="$(mktemp -d)" forwards=()
trap 'kill "${forwards[@]}" 2>/dev/null; rm -rf "$work"' EXIT
addresses=()
for p in $pods; do
  # a local port of kubectl's choosing, read back from its first line
  "$kubectl" -n "$ns" port-forward "$p" :6565 >"$work/${p#pod/}.pf" 2>&1 &
  forwards+=($!)
  address=""
  for _ in $(seq 1 100); do
    address="$(sed -n 's/^Forwarding from 127\.0\.0\.1:\([0-9]*\) .*/127.0.0.1:\1/p' "$work/${p#pod/}.pf" | head -n 1)"
    [ -z "$address" ] || break
    sleep 0.1
  done
  [ -n "$address" ] || { cat "$work/${p#pod/}.pf" >&2; log "no port-forward to $p"; exit 1; }
  addresses+=("$address")
done
# every runner done (its summary written, its samples kept) before any is read
end=$((SECONDS + ${REPORT_WAIT_SECONDS:-600}))
for a in "${addresses[@]}"; do
  until [ "$(curl -s --max-time 2 "http://$a/v1/status" | jq -r .state 2>/dev/null)" = "done" ]; do
    [ $SECONDS -lt $end ] || { log "runner $a not done within ${REPORT_WAIT_SECONDS:-600} s"; exit 1; }
    sleep 1
  done
done
out="$PERFLAB_RUN/results/$(date +%Y%m%d-%H%M%S)-$run-report"
load_runner report "$out" "${addresses[@]}"
echo "$out"
