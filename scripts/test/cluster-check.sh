#!/usr/bin/env bash
# The chart's checks against any cluster it is installed in: kubectl, helm, jq and curl with a kubeconfig, nothing of
# the machine the cluster runs on. scripts/test/test-node.sh runs them on its hand-built nodes, the e2e workflow on kind.
#   scripts/test/cluster-check.sh [--kubeconfig FILE] [--release NAME] [--namespace NS] [CHECK...]
# The kubeconfig: --kubeconfig, else KUBECONFIG, else ~/.kube/config. The release: perflab in namespace perflab,
# installed with the JWT keys of scripts/lib/jwt.sh (TOKEN: a token of your own instead). The checks, in this order
# (all by default; hpa only where metrics-server serves metrics.k8s.io):
#   pods          every Deployment of the gateway and the services Ready
#   api           actuator kept off the gateway, a short link and its redirect, a mail list, a route's points
#   pod-deleted   a shortener pod deleted under reads from the load runner (load-tests) through the port-forward
#   helm-test     the release's helm test
#   placement     the system's pods on the perflab.dev/pool=system nodes, a pod with no placement off the load pool
#   netpol        NetworkPolicy enforced, probed from a throwaway pod (PROBE_IMAGE: the chart's tests image)
#   runners       the loadtest chart's paused runners on the load pool, started together, the verdict across them
#   hpa           metrics-server serves every pod's CPU, and the shortener's HPA measures it
#   seed-claim    (not by default) the seed Job's EML files on mail's claim, for a release with seed.enabled
# Prints each step (scripts/lib/steps.sh) and `cluster: N passed, N failed`; exits non-zero if one failed.
set -uo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT" || exit 1
# shellcheck source=scripts/lib/steps.sh
source scripts/lib/steps.sh

STEP_TAG=cluster
KC="${KUBECONFIG:-$HOME/.kube/config}" RELEASE=perflab NS=perflab
CHECKS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --kubeconfig) KC="$2"; shift 2 ;;
    --release) RELEASE="$2"; shift 2 ;;
    --namespace|-n) NS="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) CHECKS+=("$1"); shift ;;
  esac
done
ALL=(pods api pod-deleted helm-test placement netpol runners hpa)
[ ${#CHECKS[@]} -gt 0 ] || CHECKS=("${ALL[@]}")
for c in "${CHECKS[@]}"; do
  [[ " ${ALL[*]} seed-claim " == *" $c "* ]] || { echo "unknown check $c (one of: ${ALL[*]} seed-claim)" >&2; exit 2; }
done
wanted() { [[ " ${CHECKS[*]} " == *" $1 "* ]]; }
KUBECTL="${KUBECTL:-kubectl}" HELM="${HELM:-helm}"
[ -r "$KC" ] || { echo "no kubeconfig at $KC" >&2; exit 2; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/perflab-cluster.XXXXXX")"
cleanup() {
  [ -z "$PF_PID" ] || kill "$PF_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck source=scripts/test/cluster/lib.sh
source scripts/test/cluster/lib.sh
# shellcheck source=scripts/test/cluster/api.sh
source scripts/test/cluster/api.sh
# shellcheck source=scripts/test/cluster/placement.sh
source scripts/test/cluster/placement.sh
# shellcheck source=scripts/test/cluster/netpol.sh
source scripts/test/cluster/netpol.sh
# shellcheck source=scripts/test/cluster/runners.sh
source scripts/test/cluster/runners.sh
# shellcheck source=scripts/test/cluster/scaling.sh
source scripts/test/cluster/scaling.sh

# a controller that drops what no policy allows (kindnet's) leaves the probe to time out; kube-router refuses it
NP_BLOCKED="${NP_BLOCKED:-refused|timeout}"
TOKEN="${TOKEN:-$(scripts/lib/jwt.sh token alice 1 3600)}"
BASE=""
release_found() {
  helmc status "$RELEASE" -n "$NS" >/dev/null || return 1
  PROBE_IMAGE="${PROBE_IMAGE:-$(helmc get values "$RELEASE" -n "$NS" --all -o json \
    | jq -r '.tests.image | "\(.repository):\(.tag)" + (if (.digest // "") != "" then "@\(.digest)" else "" end)')}"
  echo "  release $RELEASE in $NS ($(kube config current-context 2>/dev/null || echo "$KC")); probe image $PROBE_IMAGE"
}
gateway_forwarded() { port_forward && CLUSTER_LOAD_URL="${CLUSTER_LOAD_URL:-$GW}"; }

T0=$SECONDS
step "the release installed (helm status)" release_found || { steps_summary cluster $((SECONDS - T0)); exit 1; }
! wanted pods || step "every service pod Ready" service_pods_ready
if wanted api || wanted pod-deleted; then
  if step "kubectl port-forward to the gateway's Service" gateway_forwarded; then
    if wanted api; then
      step "actuator is not served through the gateway" actuator_not_public
      step "short link created and redirected through the gateway's Service" short_link_and_redirect
      step "mail list through the gateway" mail_list
      step "a route's points streamed through the gateway (route pod -> MySQL)" route_points
    fi
    if wanted pod-deleted; then
      { [ -s "$WORK/code" ] || step "short link created and redirected through the gateway's Service" short_link_and_redirect; } \
        && step "the load runner's jar (load-tests)" load_runner_built \
        && step "a shortener pod deleted under load: no failed request" pod_deleted_under_load
    fi
  fi
fi
! wanted seed-claim || step "the seed Job filled mail's EML claim" seed_job_filled_the_claim
! wanted helm-test || step "helm test" helm_test
! wanted placement || step "two pools: the system's pods on the system pool, a pod with no placement never on the tainted load pool" pools_kept
if wanted netpol; then
  step "NetworkPolicy: a pod without the release's labels reaches the gateway's http, no other http nor any management port" np_unlabelled
  step "NetworkPolicy: the same pod labelled as the values' Prometheus reaches every management port, still no other http" np_prometheus
  step "NetworkPolicy: the gateway reaches every service; send's job endpoint answers mail, refuses route" np_release_pods
fi
if wanted runners; then
  step "runners as pods: the loadtest chart's Indexed Job of paused runners on the load pool, started together by its starter Job" runners_together \
    && step "helm test of the load: the verdict across the runners" runners_judged
  step "every load pod (runners, starter, verdict) on the load pool" runners_on_load_pool
fi
if wanted hpa; then
  if metrics_server_present; then
    step "metrics-server: the resource metrics API serves every pod's CPU and memory (kubectl top)" metrics_api \
      && step "HPA: the shortener's HPA reads its pods' CPU from metrics-server" hpa_measures
  else
    echo "[cluster] no metrics-server (APIService v1beta1.metrics.k8s.io): hpa not checked"
  fi
fi
steps_summary cluster $((SECONDS - T0))
