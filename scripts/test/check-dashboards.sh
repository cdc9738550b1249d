#!/usr/bin/env bash
# Every query of the chart's dashboards and every alert rule, answered by the local stack's Prometheus (run it after
# a smoke: `make test` does). For each service Prometheus scrapes:
#   its dashboard's parts as the chart stacks them (files/dashboards/service.json, its own <service>.json if it has
#   one, parts/mysql.json for a MySQL service) with the chart's placeholders filled as stack.sh labels the scrape
#   (job perflab-<service>, namespace perflab), the JVM dashboard, and the HikariCP dashboard for a MySQL service
#   (databases in its service.env); then the overview across services, and the
#   chart's PrometheusRule (rendered with helm for the scraped services): every alert accepted by Prometheus and its
#   left side answered.
# Allowed empty (each with its reason): only what a local stack cannot have — kube-state-metrics and cAdvisor exist
# in the cluster only. Queries for counters that are zero at rest are written to answer 0, not nothing.
# First a self-check: a copy of a dashboard with one panel on a metric nobody exports, and a rule on one, must fail.
#   scripts/test/check-dashboards.sh       (WINDOW=15m: a panel answers when its series has a sample in that stretch)
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
source "$(dirname "$0")/../k8s/k8s-tools.sh"
cd "$PERFLAB_ROOT"

PROM="http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT"
WINDOW=${WINDOW:-15m}
BOARDS=charts/perflab/files/dashboards
CHECK=(scripts/test/check-dashboard-queries.py --prometheus "$PROM" --window "$WINDOW")
PY=python3
"$K8S_TOOLS_PYTHON" -c 'import yaml' 2>/dev/null && PY=$K8S_TOOLS_PYTHON   # a venv still being made is not taken
[ -x "$HELM" ] || scripts/k8s/k8s-tools.sh helm >/dev/null  # the rules are rendered by the chart
curl -fs "$PROM/-/ready" >/dev/null || { log "no Prometheus on $PROM: scripts/stack/stack.sh up first"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

IN_CLUSTER_ONLY="kube-state-metrics and cAdvisor run in the cluster only"
JVM_EMPTY_OK=(
  --empty-ok "CPU: cores used vs container limit [B]: the limit comes from kube-state-metrics; $IN_CLUSTER_ONLY"
  --empty-ok "CFS throttling (share of periods throttled): cAdvisor's CFS counters; $IN_CLUSTER_ONLY"
  --empty-ok "Restarts and OOM kills [B]: kube_pod_container_status_restarts_total; $IN_CLUSTER_ONLY"
  --empty-ok "Restarts and OOM kills [C]: kube_pod_container_status_last_terminated_reason; $IN_CLUSTER_ONLY"
)

log "self-check: a dashboard panel and an alert rule on a metric nobody exports must fail"
"$PY" - "$BOARDS/service.json" "$work/broken.json" "$work/broken-rules.yaml" <<'EOF'
import json, sys
board = json.load(open(sys.argv[1]))
board["panels"].append({"type": "timeseries", "id": 999, "title": "Deliberately broken",
                        "gridPos": {"h": 8, "w": 12, "x": 0, "y": 999},
                        "targets": [{"refId": "A", "expr": 'sum(rate(perflab_nobody_exports_this_total{job="__JOB__"}[$__rate_interval]))'}]})
json.dump(board, open(sys.argv[2], "w"))
open(sys.argv[3], "w").write("""kind: PrometheusRule
spec:
  groups:
    - name: broken
      rules:
        - alert: DeliberatelyBroken
          expr: sum(perflab_nobody_exports_this_total) > 0
""")
EOF
if "${CHECK[@]}" --set JOB=perflab-gateway --set namespace=perflab --set pod=.+ "$work/broken.json" >"$work/self.out" 2>&1 \
   || ! grep -q "FAIL  Deliberately broken \[A\]: no data" "$work/self.out"; then
  cat "$work/self.out"; log "the check passed a dashboard with a panel on a metric nobody exports: it cannot fail"; exit 1
fi
grep "FAIL" "$work/self.out" | head -n 1 | sed 's/^ */  (as it must) /'
if "${CHECK[@]}" --rules "$work/broken-rules.yaml" >"$work/self.out" 2>&1 \
   || ! grep -q "FAIL  broken/DeliberatelyBroken: no data" "$work/self.out"; then
  cat "$work/self.out"; log "the check passed an alert rule on a metric nobody exports: it cannot fail"; exit 1
fi
grep "FAIL" "$work/self.out" | head -n 1 | sed 's/^ */  (as it must) /'

scraped() { # name: Prometheus has a target for it (its config is written when stack.sh starts it)
  curl -fs "$PROM/api/v1/query" --data-urlencode "query=up{job=\"perflab-$1\"}" | grep -q '"result":\[{'
}

rc=0
services=()
for n in "${PERFLAB_SERVICES[@]}" gateway; do
  if scraped "$n"; then services+=("$n"); else log "$n: Prometheus has no perflab-$n target (it was started before $n existed: restart it with the stack): skipped"; fi
done
for n in "${services[@]}"; do
  board=("$BOARDS/service.json")
  [ ! -f "$BOARDS/$n.json" ] || board+=("$BOARDS/$n.json")
  sets=(--set JOB="perflab-$n" --set NAMESPACE=perflab --set SERVICE="$n" --set namespace=perflab --set pod=.+ --set service="$n")
  mysql=""
  [ "$n" = gateway ] || mysql=$(service_conf "$n" databases)
  [ -z "$mysql" ] || board+=("$BOARDS/parts/mysql.json")
  log "$n: its dashboard ($(basename -a "${board[@]}" | paste -sd+)), the JVM dashboard${mysql:+, the HikariCP dashboard}"
  "${CHECK[@]}" "${sets[@]}" "${board[@]}" || rc=1
  "${CHECK[@]}" "${sets[@]}" "${JVM_EMPTY_OK[@]}" "$BOARDS/system/jvm.json" || rc=1
  if [ -n "$mysql" ]; then
    "${CHECK[@]}" "${sets[@]}" --set pool=.+ "$BOARDS/system/hikaricp.json" || rc=1
  fi
done

log "every service: the overview"
"${CHECK[@]}" --set NAMESPACE=perflab --set namespace=perflab --set service=.+ "$BOARDS/system/overview.json" || rc=1

log "the chart's alert rules (rendered for ${services[*]}): accepted by Prometheus, their left side answered"
enable=(--set monitoring.prometheusRule.enabled=true)
for n in "${PERFLAB_SERVICES[@]}"; do
  if printf '%s\n' "${services[@]}" | grep -qx "$n"; then enable+=(--set "services.$n.enabled=true"); else enable+=(--set "services.$n.enabled=false"); fi
done
"$HELM" template perflab charts/perflab -n perflab -f charts/perflab/ci/default-values.yaml "${enable[@]}" \
  --show-only templates/prometheusrule.yaml >"$work/rules.yaml"
"$PY" scripts/test/check-dashboard-queries.py --prometheus "$PROM" --rules "$work/rules.yaml" \
  --empty-ok "PerflabPodRestarts: kube_pod_container_status_restarts_total; $IN_CLUSTER_ONLY" || rc=1

[ "$rc" = 0 ] && log "every dashboard query and alert rule answered (or is empty for its stated reason)" \
  || log "some dashboard queries or alert rules failed (above)"
exit "$rc"
