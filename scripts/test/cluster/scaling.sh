# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of the cluster checks: its globals are set in one part and read in another
# Resource metrics and an HPA, where the cluster has metrics-server (sourced by scripts/test/cluster-check.sh and
# scripts/test/test-node.sh, scripts/test/cluster/lib.sh first).

metrics_server_present() { kube get apiservice v1beta1.metrics.k8s.io >/dev/null 2>&1; }

metrics_api() {  # metrics-server serving the pods' CPU and memory through the API server once it has scraped the
  # kubelets twice
  local t0=${METRICS_T0:-$SECONDS} end=$((SECONDS + 90))
  until kube top pods -n "$NS" >"$WORK/top.out" 2>&1 && grep -q shortener "$WORK/top.out"; do
    [ $SECONDS -lt $end ] || { cat "$WORK/top.out"; [ ! -f "$WORK/cluster/metrics-server.log" ] || tail -20 "$WORK/cluster/metrics-server.log"; return 1; }
    sleep 2
  done
  local since="this check began"; [ -z "${METRICS_T0:-}" ] || since="metrics-server started"
  echo "  metrics.k8s.io served $((SECONDS - t0)) s after $since; kubectl top pods -n $NS:"
  sed 's/^/    /' "$WORK/top.out"
}


hpa_measures() {  # the chart's HPA for the shortener (autoscaling.enabled) reads its pods' CPU from metrics-server and
  # holds its replicas at the minimum when idle; the release is then rolled back to the revision before
  local before end=$((SECONDS + 180)) cpu="" want=""
  before="$(helmc history "$RELEASE" -n "$NS" -o json | jq '.[-1].revision')" || return 1
  helmc upgrade "$RELEASE" charts/perflab -n "$NS" --reuse-values --set services.shortener.autoscaling.enabled=true \
    --wait --timeout 4m >"$WORK/hpa-upgrade.out" 2>&1 || { cat "$WORK/hpa-upgrade.out"; return 1; }
  until [ -n "$cpu" ]; do
    [ $SECONDS -lt $end ] || break
    sleep 3
    IFS=/ read -r cpu want < <(kube -n "$NS" get hpa "$RELEASE-shortener" \
      -o jsonpath='{.status.currentMetrics[0].resource.current.averageUtilization}/{.status.desiredReplicas}{"\n"}')
  done
  echo "  hpa/$RELEASE-shortener: ${cpu:-no}% CPU measured, ${want:-?} replicas wanted"
  [ -n "$cpu" ] || kube -n "$NS" describe hpa "$RELEASE-shortener" | tail -8
  helmc rollback "$RELEASE" "$before" -n "$NS" --wait --timeout 4m >/dev/null || { echo "  rollback to revision $before failed"; return 1; }
  [ -n "$cpu" ] && settled shortener
}
