#!/usr/bin/env bash
# The chart's own pods, run for real: the loopback control plane with one real node (containerd, runc, bridge CNI,
# kubelet, kube-proxy, CoreDNS: scripts/k8s/k8s-node.sh), the images Jib builds pushed into a local registry on top of a
# JVM base made here (scripts/k8s/base-image.sh), and `helm install --wait` of charts/perflab against the local stack's
# stores (MariaDB, Redis, MongoDB-wire, SMTP on the host, reached through the node's bridge). Then, through the
# gateway's Service: a short link and its redirect, a mail list, a send that reaches the SMTP server, `helm test`,
# and a shortener pod deleted under load with no failed request; the chart's NetworkPolicies enforced (kube-router's
# firewall, scripts/k8s/k8s-node.sh) and probed from pods; metrics-server, and the gateway's and the shortener's HPAs scaling
# out under a surge and back in under it with no failed request and no slow download cut short. The host's own gateway and services are stopped first, so every
# answer comes from a pod. Prints timings per step and `node: N passed, N failed`. K8S_NODE_POLICY=none runs the node
# without the policy controller (the NetworkPolicy steps then fail: that is what they prove).
# The checks that need only kubectl, helm, jq and curl live in scripts/test/cluster/ (scripts/test/cluster-check.sh runs
# them against any kubeconfig, as the e2e workflow does on kind); this file builds the nodes, the images and the host's
# stores around them and adds the checks that read this machine.
set -uo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
# shellcheck source=scripts/k8s/k8s-cluster.sh
source scripts/k8s/k8s-cluster.sh
# shellcheck source=scripts/k8s/base-image.sh
source scripts/k8s/base-image.sh
# shellcheck source=scripts/lib/steps.sh
source scripts/lib/steps.sh
# shellcheck source=scripts/test/node/headline.sh
source scripts/test/node/headline.sh

STEP_TAG=node
WORK="$(mktemp -d "${TMPDIR:-/tmp}/perflab-node.XXXXXX")"
RELEASE=perflab NS=perflab
NODE_TEST_GATEWAY_PORT="${NODE_TEST_GATEWAY_PORT:-18080}"
cleanup() {
  [ -z "$PF_PID" ] || kill "$PF_PID" 2>/dev/null
  kubelets_unscraped
  local s; for s in "${STORES[@]}"; do store_cpus "$s" 0-1; done   # a run cut short between cpus_apart and after
  K8S_NODE=real k8s_cluster_down
  if [ "$FAILED" -gt 0 ] && [ -d "$WORK/cluster" ]; then
    rm -rf "$PERFLAB_RUN/node-test-logs" && mkdir -p "$PERFLAB_RUN" && cp -r "$WORK/cluster" "$PERFLAB_RUN/node-test-logs" 2>/dev/null
    find "$PERFLAB_RUN/node-test-logs" -type d \( -name etcd -o -name registry -o -name containerd -o -name root \) -prune -exec rm -rf {} + 2>/dev/null
    echo "node and control-plane logs kept in .run/node-test-logs" >&2
  fi
  rm -rf "$WORK" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

KC="$WORK/cluster/kubeconfig"
CLUSTER_PORT="$NODE_TEST_GATEWAY_PORT"
# the cluster checks any cluster runs (scripts/test/cluster-check.sh): kube and helmc against KC, the API, the pools,
# NetworkPolicy (kube-router REJECTs: a blocked probe is refused at once), metrics-server
# shellcheck source=scripts/test/cluster/lib.sh
source scripts/test/cluster/lib.sh
# shellcheck source=scripts/test/cluster/api.sh
source scripts/test/cluster/api.sh
# shellcheck source=scripts/test/cluster/placement.sh
source scripts/test/cluster/placement.sh
# shellcheck source=scripts/test/cluster/netpol.sh
source scripts/test/cluster/netpol.sh
# shellcheck source=scripts/test/cluster/scaling.sh
source scripts/test/cluster/scaling.sh
NP_BLOCKED=refused
TOKEN="" BASE=""

host_apps_stopped() {
  local a
  for a in gateway "${PERFLAB_SERVICES[@]}"; do scripts/stack/stack.sh stop "$a" >/dev/null 2>&1 || return 1; done
  # what a run on its own needs too (each idempotent): the stores, the dev JWT keys, the tools, the load runner's jar
  scripts/stack/stack.sh stores >/dev/null 2>&1 && scripts/stack/stack.sh prometheus >/dev/null 2>&1 && scripts/lib/jwt.sh keys >/dev/null \
    && scripts/stack/install.sh >/dev/null && load_runner_built >/dev/null
}

cluster_up() { K8S_NODE=real k8s_cluster_up "$WORK/cluster"; }

load_node_up() {
  k8s_load_node_up || return 1
  kube get nodes -L perflab.dev/pool --no-headers | awk '{print "  " $1, $2, "pool=" $6}'
}

# The host's Prometheus scrapes both kubelets' cAdvisor (container_cpu_usage_seconds_total per pod), as
# kube-prometheus-stack does in a cluster: the load's verdict reads each runner pod's CPU from there. A ServiceAccount
# allowed nodes/metrics only, its token in a file, the kubelets' own serving certificates (self-signed) not verified.
KUBELET_SCRAPE="$PERFLAB_RUN/prometheus/scrape-kubelets.yml"
kubelets_scraped() {
  kube -n kube-system create serviceaccount perflab-metrics >/dev/null || return 1
  kube create clusterrole perflab-kubelet-metrics --verb=get --resource=nodes/metrics,nodes/stats >/dev/null || return 1
  kube create clusterrolebinding perflab-kubelet-metrics --clusterrole=perflab-kubelet-metrics \
    --serviceaccount=kube-system:perflab-metrics >/dev/null || return 1
  mkdir -p "$PERFLAB_RUN/prometheus"
  kube -n kube-system create token perflab-metrics --duration=2h >"$PERFLAB_RUN/prometheus/kubelet.token" || return 1
  cat >"$KUBELET_SCRAPE" <<YAML
  - job_name: kubelet
    scheme: https
    metrics_path: /metrics/cadvisor
    tls_config: { insecure_skip_verify: true }
    authorization: { credentials_file: $PERFLAB_RUN/prometheus/kubelet.token }
    static_configs:
      - targets: ["$K8S_NODE_HOST_IP:$PERFLAB_K8S_KUBELET_PORT", "$K8S_LOAD_NODE_HOST_IP:$PERFLAB_K8S_LOAD_KUBELET_PORT"]
YAML
  scripts/stack/stack.sh prometheus >/dev/null || return 1
  local up=""
  for _ in $(seq 1 30); do
    up="$(curl -fsS "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/api/v1/query" --data-urlencode 'query=sum(up{job="kubelet"})' \
      | jq -nr 'input.data.result // error("no data.result") | if length > 0 then .[0].value[1] else 0 end')"
    [ "$up" = 2 ] && break
    sleep 1
  done
  [ "$up" = 2 ] || {
    echo "  the host's Prometheus scrapes $up of the 2 kubelets:"
    curl -fsS "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/api/v1/targets?state=active" \
      | jq -nr 'input.data.activeTargets[] | select(.labels.job == "kubelet") | "    \(.scrapeUrl) \(.health) \(.lastError)"'
    return 1
  }
  echo "  both kubelets' cAdvisor scraped by the host's Prometheus (job kubelet)"
}
kubelets_unscraped() {
  [ -f "$KUBELET_SCRAPE" ] || return 0
  rm -f "$KUBELET_SCRAPE" "$PERFLAB_RUN/prometheus/kubelet.token"
  scripts/stack/stack.sh prometheus >/dev/null 2>&1
}

base_image() { BASE="$(base_image_push)" && echo "  $BASE"; }
# shellcheck source=scripts/test/node/images.sh
source scripts/test/node/images.sh

# shellcheck source=scripts/test/node/store-users.sh
source scripts/test/node/store-users.sh

# shellcheck source=scripts/test/node/install.sh
source scripts/test/node/install.sh

# shellcheck source=scripts/test/node/api.sh
source scripts/test/node/api.sh

# shellcheck source=scripts/test/node/scaling.sh
source scripts/test/node/scaling.sh

# shellcheck source=scripts/test/node/runners.sh
source scripts/test/node/runners.sh

# shellcheck source=scripts/test/node/placement.sh
source scripts/test/node/placement.sh

uninstall() { helmc uninstall "$RELEASE" -n "$NS" --wait --timeout 2m >/dev/null; }


T0=$SECONDS
step "tools (scripts/k8s/k8s-tools.sh)" scripts/k8s/k8s-tools.sh || exit 1
step "host gateway and services stopped; stores, JWT keys and the load runner ready" host_apps_stopped || exit 1
if step "control plane + real node (containerd, kubelet, kube-proxy, CNI, CoreDNS, registry)" cluster_up \
  && step "a load node beside it (its own containerd, kubelet and bridge; tainted perflab.dev/pool=load)" load_node_up \
  && step "the kubelets' cAdvisor scraped by the host's Prometheus (each pod's CPU, as in a cluster)" kubelets_scraped \
  && step "metrics-server beside the nodes, behind the API server's aggregation layer" metrics_server_up; then
  if step "base image (Debian minbase + jlinked Java 25) in the local registry" base_image \
    && step "$IMAGES_STEP" images \
    && step "images: non-root, labelled, no JVM flags baked in" image_config_checked \
    && step "helm install --wait: every service pod Ready" install_wait \
    && step "kubectl port-forward to the gateway's Service" port_forward; then
    if [ "${NODE_TEST:-all}" = hpa ]; then   # the HPA proof alone (HPA_PRESTOP, HPA_READ_RETRY: without its mechanisms)
      step "short link created and redirected through the gateway's Service" short_link_and_redirect \
        && step "metrics-server: the resource metrics API serves every pod's CPU and memory (kubectl top)" metrics_api \
        && step "the load runner's image (load-tests, Jib) in the local registry" runner_image \
        && step "HPA: the gateway and the shortener scale out under a surge from a runner on the load node and back in under it; no failed request, no download cut short" hpa_scales
      step "helm uninstall" uninstall
      steps_summary node $((SECONDS - T0))
      exit $?
    fi
    if [ "${NODE_TEST:-all}" = ab ]; then   # make ab in the cluster (scripts/load/ab.sh with AB_RELEASE), its runners on the load node
      step "the load runner's image (load-tests, Jib) in the local registry" runner_image \
        && step "A/B in the cluster: route's points-fetch by helm upgrade, each arm's runners on the load node, one report" ab_in_cluster
      step "the office day from the loadtest chart's runners on the load node, one token per caller (token.callersKey)" office_day_in_cluster
      step "helm uninstall" uninstall
      steps_summary node $((SECONDS - T0))
      exit $?
    fi
    if [ "${NODE_TEST:-all}" = headline ]; then   # the seeds' headline figures, the runners on the load node
      step "the load runner's image (load-tests, Jib) in the local registry" runner_image \
        && { ! headline_part 004 || step "seed 004: the highest rate of its mix the system node holds with p95 < ${HEADLINE_P95_MS} ms" headline_seed004
          ! headline_part 001 || step "seed 001: guestbook signings from 50 callers, the highest rate held, every SMS once" headline_seed001
          ! headline_part 002 || step "seed 002: 1,000 readers of a 20k-point route through the gateway and from nginx, one run" headline_seed002; }
      step "every CPU shared again" cpus_shared
      step "helm uninstall" uninstall
      steps_summary node $((SECONDS - T0))
      exit $?
    fi
    if [ "${NODE_TEST:-all}" = placement ]; then
      step "the load runner's image (load-tests, Jib) in the local registry" runner_image \
        && step "placement: seed 004's mix with its runner apart, co-located, and on this host" placement_table
      step "helm uninstall" uninstall
      steps_summary node $((SECONDS - T0))
      exit $?
    fi
    step "the images' AOT cache is used (-XX:AOTMode=on)" aot_cache_used
    step "actuator is not served through the gateway" actuator_not_public
    step "short link created and redirected through the gateway's Service" short_link_and_redirect \
      && step "a shortener pod deleted under load: no failed request" pod_deleted_under_load
    step "the seed Job filled mail's EML claim" seed_job_filled_the_claim
    step "mail list through the gateway" mail_list
    step "the callers' rate limits decided in Redis as the gateway's ACL user (the chart's rules), not per replica" limits_decided_in_redis
    step "a send reaches the SMTP server (mail pod -> send pod -> SMTP)" send_reaches_smtp
    step "a route's points streamed through the gateway (route pod -> MySQL)" route_points
    step "a guestbook signing's SMS reaches the host's sink once (notifier pod, after commit)" notifier_sms
    step "helm test" helm_test
    step "the load runner's image (load-tests, Jib) in the local registry" runner_image \
      && step "runners as pods: the loadtest chart's Indexed Job (2 paused runners) started within a second by its starter Job, one report of both" runners_as_pods \
      && step "helm test of the load: the verdict across both runners and their CPU, from Prometheus" runners_verdict \
      && step "a runner held to 100 millicores: the verdict is inconclusive (exit 75), not the system's" runners_starved
    step "NetworkPolicy: a pod without the release's labels reaches the gateway's http, no other http nor any management port" np_unlabelled
    step "NetworkPolicy: the same pod labelled as the values' Prometheus reaches every management port, still no other http" np_prometheus
    step "NetworkPolicy: the gateway reaches every service; send's job endpoint answers mail, refuses route" np_release_pods
    step "two pools: the system's pods on the system node, a pod with no placement never on the tainted load node" pools_kept
    step "the nodes apart: a busy pod on the load node leaves a probe on the system node alone, one beside it slows it" placement_measured \
      && step "the same load with its runners apart and co-located: throughput, merged p95, runner CPU" load_pair
    step "every CPU shared again" cpus_shared
    step "metrics-server: the resource metrics API serves every pod's CPU and memory (kubectl top)" metrics_api \
      && step "HPA: the gateway and the shortener scale out under a surge from a runner on the load node and back in under it; no failed request, no download cut short" hpa_scales
    step "helm uninstall" uninstall
  fi
fi
steps_summary node $((SECONDS - T0))
