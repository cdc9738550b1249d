# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of the cluster checks: its globals are set in one part and read in another
# The loadtest chart's runners in the cluster (sourced by scripts/test/cluster-check.sh, scripts/test/cluster/lib.sh
# first): an Indexed Job of paused runners on the load pool, started together by its starter Job, the verdict across
# them (helm test), every load pod on the load pool. LOAD_VALUES_FILE: the loadtest chart's values (the documented
# two-pool recipe by default); LOAD_SET: more helm arguments; LOAD_RUN_ID: the run's id.
LOAD_RELEASE=perflab-load
LOAD_VALUES_FILE="${LOAD_VALUES_FILE:-charts/perflab-loadtest/ci/load-pool-values.yaml}"
LOAD_RUN_ID="${LOAD_RUN_ID:-check-$(date +%Y%m%d-%H%M%S)}"

load_pods() {  # one line per pod of the run: its role (runner, starter, verdict), name, phase, node, exit code
  kube -n "$NS" get pods -l perflab.dev/load,perflab.dev/run="$LOAD_RUN_ID" -o json | jq -r '.items[]
    | "\(.metadata.labels["perflab.dev/load"]) \(.metadata.name) \(.status.phase) \(.spec.nodeName)"
      + " exit \(.status.containerStatuses[0].state.terminated.exitCode // "-")"'
}

runners_together() {  # the run installed, then ended: the starter and every runner done; a runner that crossed a
  # threshold on its own share exits 99 (the verdict across runners judges the run as a whole)
  local -a more; read -ra more <<<"${LOAD_SET:-}"
  kube -n "$NS" create secret generic perflab-load-token --from-literal=TOKEN="$(scripts/lib/jwt.sh token load 1 3600)" \
    --dry-run=client -o yaml | kube apply -f - >/dev/null || return 1
  helmc install "$LOAD_RELEASE" charts/perflab-loadtest -n "$NS" -f "$LOAD_VALUES_FILE" --set target.release="$RELEASE" \
    --set token.existingSecret=perflab-load-token --set runId="$LOAD_RUN_ID" "${more[@]}" >"$WORK/load-install.out" 2>&1 \
    || { cat "$WORK/load-install.out"; return 1; }
  local end=$((SECONDS + ${LOAD_TIMEOUT:-600})) pods
  until pods="$(load_pods)" && grep -q '^runner ' <<<"$pods" && grep -q '^starter ' <<<"$pods" \
      && ! grep -qv ' \(Succeeded\|Failed\) ' <<<"$pods"; do
    [ $SECONDS -lt $end ] || { echo "  the run did not end in ${LOAD_TIMEOUT:-600} s:"; sed 's/^/    /' <<<"$pods"; return 1; }
    sleep 5
  done
  sed 's/^/  /' <<<"$pods"
  kube -n "$NS" logs -l perflab.dev/load=starter,perflab.dev/run="$LOAD_RUN_ID" --tail=-1 | sed 's/^/  starter: /' | tee "$WORK/starter.txt"
  ! grep -q '^starter .* Failed ' <<<"$pods" || { echo "  the starter did not start every runner"; return 1; }
  grep -Eq '^runner .* exit (0|99)$' <<<"$pods" && ! grep -E '^runner ' <<<"$pods" | grep -Eqv ' exit (0|99)$' \
    || { echo "  a runner broke (exit other than 0 or 99)"; return 1; }
  grep -q 'start spread' "$WORK/starter.txt" || { echo "  the starter printed no start spread"; return 1; }
}

runners_judged() {  # helm test of the load: the verdict across the runners, from Prometheus
  helmc test "$LOAD_RELEASE" -n "$NS" --logs --timeout 5m >"$WORK/load-test.out" 2>&1; local rc=$?
  grep -E 'requests from|generator:|verdict:|TEST SUITE|Phase' "$WORK/load-test.out" | sed 's/^/  /'
  [ $rc -eq 0 ] || tail -30 "$WORK/load-test.out"
  return $rc
}

runners_on_load_pool() {  # every load pod of the run (runners, starter, verdict) on a node of the load pool; the
  # loadtest release uninstalled after
  local load pods rc=0 role
  load="$(pool_nodes load)" pods="$(load_pods)"
  for role in runner starter verdict; do
    grep -q "^$role " <<<"$pods" || { echo "  no $role pod"; rc=1; }
  done
  awk -v nodes="$load" 'BEGIN { n = split(nodes, a, "\n"); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
    { print "  " $1, $2, "on", $4 (($4 in ok) ? "" : "  OFF THE LOAD POOL") } !($4 in ok) { off = 1 } END { exit off }' <<<"$pods" || rc=1
  helmc uninstall "$LOAD_RELEASE" -n "$NS" --wait --timeout 2m >/dev/null
  return $rc
}
