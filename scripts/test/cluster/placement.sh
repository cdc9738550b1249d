# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of the cluster checks: its globals are set in one part and read in another
# The two pools kept by the real scheduler (sourced by scripts/test/cluster-check.sh and scripts/test/test-node.sh,
# scripts/test/cluster/lib.sh first): nodes labelled perflab.dev/pool=system hold the system, the tainted
# perflab.dev/pool=load nodes only what tolerates them. PROBE_IMAGE: the image of the pod with no placement.

pool_nodes() { kube get nodes -l perflab.dev/pool="$1" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'; }

pools_kept() {  # every pod of the release (pinned to the system pool, as charts/tests/real-node-values.yaml and the
  # e2e workflow's values do) on a system node, and a pod with no placement at all (what the charts' unpinned pods
  # are) kept off the tainted load pool; the runners' own placement is checked where they run
  local system load off node=""
  system="$(pool_nodes system)" load="$(pool_nodes load)"
  [ -n "$system" ] && [ -n "$load" ] || { echo "  no node of the system pool or none of the load pool"; return 1; }
  off="$(kube -n "$NS" get pods -l app.kubernetes.io/instance="$RELEASE" \
    -o jsonpath='{range .items[*]}{.metadata.name}={.spec.nodeName}{"\n"}{end}' \
    | awk -F= -v nodes="$system" 'BEGIN { n = split(nodes, a, "\n"); for (i = 1; i <= n; i++) ok[a[i]] = 1 } !($2 in ok)')"
  [ -z "$off" ] || { echo "  system pods off the system pool: $off"; return 1; }
  kube create namespace perflab-placement >/dev/null 2>&1
  kube -n perflab-placement apply -f - >/dev/null <<YAML || return 1
apiVersion: v1
kind: Pod
metadata: { name: unpinned }
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 0
  containers:
    - { name: c, image: "${PROBE_IMAGE:-$BASE}", command: [sh, -c, 'sleep 60'] }
YAML
  for _ in $(seq 1 60); do
    node="$(kube -n perflab-placement get pod unpinned -o jsonpath='{.spec.nodeName}')"; [ -z "$node" ] || break; sleep 0.5
  done
  kube -n perflab-placement delete pod unpinned --wait=false >/dev/null
  echo "  $(kube -n "$NS" get pods -l app.kubernetes.io/instance="$RELEASE" --no-headers | wc -l) system pods on $(xargs <<<"$system"); a pod with no placement scheduled to ${node:-nothing}"
  [ -n "$node" ] && ! grep -qxF "$node" <<<"$load"
}
