# shellcheck shell=bash
# The real node's parts beside its runtime (sourced by scripts/k8s/k8s-node.sh, which sets their variables): kube-router
# for NetworkPolicy, metrics-server, the tainted load node and the nodes' cpusets.

# NetworkPolicy: kube-router's network policy controller, for this node's pods (the ones whose hostIP is its
# InternalIP). Every pod's traffic passes through its chain in FORWARD/INPUT/OUTPUT; a pod selected by a policy
# gets only what the policies allow. One per host, not per node: both nodes share this host's iptables, and each
# kube-router deletes every KUBE-POD-FW-* chain but its own node's pods' on each sync (cleanupStaleRules), so a
# second one for the load node would undo the first's every few seconds. The load node's pods (load runners) are
# selected by no policy; traffic from them into this node's pods is judged here, like any other.
# Flags as kube-router v2.1.0 defines them (pkg/options/options.go): firewall alone, no health or metrics port (the
# health server listens on every address); ready once its first full sync has written the ACCEPT rule that ends
# KUBE-ROUTER-FORWARD.
_k8s_node_policy() {
  [ "$K8S_NODE_POLICY" = none ] && { _k8s_node_step "NetworkPolicy NOT enforced (K8S_NODE_POLICY=none)"; return 0; }
  [ "$K8S_NODE_POLICY" = kube-router ] || { _k8s_log "K8S_NODE_POLICY=$K8S_NODE_POLICY: kube-router or none"; return 1; }
  _k8s_node_step "kube-router $KUBE_ROUTER_VERSION: NetworkPolicy for $K8S_NODE_NAME's pods (firewall only)"
  _k8s_node_start kube-router "$KUBE_ROUTER" --kubeconfig "$K8S_CLUSTER_DIR/kubeconfig" --hostname-override "$K8S_NODE_NAME" \
    --run-firewall=true --run-router=false --run-service-proxy=false --run-loadbalancer=false --enable-cni=false \
    --service-cluster-ip-range "$K8S_NODE_SERVICE_CIDR" --health-port 0 --metrics-port 0 --v 1
  _k8s_wait "kube-router's first policy sync" 60 bash -c \
    "iptables -w -S KUBE-ROUTER-FORWARD 2>/dev/null | grep -q 'rule to explicitly ACCEPT traffic that comply to network policies'"
}

# k8s_metrics_server_up: after k8s_node_up. metrics-server v0.9.0 (scripts/k8s/k8s-tools.sh builds it) as a host process,
# as CoreDNS is: its release manifest runs it as a pod, but a pod here cannot reach the API server (127.0.0.1 only),
# which metrics-server needs for nodes, its delegated authentication and the front proxy's CA. It scrapes every
# kubelet's /metrics/resource at its InternalIP (self-signed serving certificates: not verified) every 10 s, the least
# it allows, and the API server reaches it through the aggregation layer: the APIService's Service has one endpoint,
# this host's bridge address (--enable-aggregator-routing). Stopped with the node.
k8s_metrics_server_up() {
  local kc="$K8S_CLUSTER_DIR/kubeconfig" d="$K8S_CLUSTER_DIR/metrics-server"
  _k8s_port_free "$PERFLAB_K8S_METRICS_PORT" || { _k8s_log "port $PERFLAB_K8S_METRICS_PORT is taken: export PERFLAB_K8S_METRICS_PORT to move it"; return 1; }
  mkdir -p "$d"
  _k8s_node_step "metrics-server $METRICS_SERVER_VERSION on $K8S_NODE_HOST_IP:$PERFLAB_K8S_METRICS_PORT"
  _k8s_node_start metrics-server "$METRICS_SERVER" --kubeconfig "$kc" --authentication-kubeconfig "$kc" \
    --authorization-kubeconfig "$kc" --bind-address "$K8S_NODE_HOST_IP" --secure-port "$PERFLAB_K8S_METRICS_PORT" \
    --cert-dir "$d" --kubelet-insecure-tls --kubelet-preferred-address-types InternalIP --kubelet-use-node-status-port \
    --metric-resolution 10s --kubelet-request-timeout 5s
  _k8s_wait "metrics-server live" 30 curl -skf "https://$K8S_NODE_HOST_IP:$PERFLAB_K8S_METRICS_PORT/livez" || return 1
  "$KUBECTL" --kubeconfig "$kc" apply -f - >/dev/null <<EOF || return 1
apiVersion: v1
kind: Service
metadata: { name: metrics-server, namespace: kube-system, labels: { k8s-app: metrics-server } }
spec:
  ports: [{ name: https, port: 443, protocol: TCP, targetPort: $PERFLAB_K8S_METRICS_PORT }]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: metrics-server-host
  namespace: kube-system
  labels: { kubernetes.io/service-name: metrics-server, k8s-app: metrics-server }
addressType: IPv4
ports: [{ name: https, port: $PERFLAB_K8S_METRICS_PORT, protocol: TCP }]
endpoints: [{ addresses: ["$K8S_NODE_HOST_IP"], conditions: { ready: true } }]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: { name: v1beta1.metrics.k8s.io, labels: { k8s-app: metrics-server } }
spec:
  group: metrics.k8s.io
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  # metrics-server's own self-signed serving certificate, as its release manifest has it
  insecureSkipTLSVerify: true
  service: { name: metrics-server, namespace: kube-system, port: 443 }
EOF
  _k8s_wait "metrics.k8s.io available" 60 bash -c "'$KUBECTL' --kubeconfig '$kc' get apiservice v1beta1.metrics.k8s.io -o jsonpath='{.status.conditions[?(@.type==\"Available\")].status}' | grep -qx True"
}

# k8s_load_node_up: after k8s_node_up. A second kubelet on this host with a containerd, a bridge, a pod CIDR, a
# cgroup root and ports of its own; the host's kube-proxy, CoreDNS, registry and forwarders serve it too (its pods
# reach the first node's through the host, which routes between the two bridges). The kubelet's device-plugin
# socket is host-wide (/var/lib/kubelet/device-plugins/kubelet.sock): the second kubelet takes it over, harmless
# with no device plugin on either node.
k8s_load_node_up() {
  local kc="$K8S_CLUSTER_DIR/kubeconfig" t0=$SECONDS
  # shellcheck disable=SC2034 # read by _k8s_node_network, _k8s_node_containerd and _k8s_node_kubelet (k8s-node.sh)
  (
    K8S_NODE_DIR="$K8S_CLUSTER_DIR/node/load" K8S_NODE_PEER_BRIDGE="$K8S_NODE_BRIDGE" K8S_NODE_DNS_IP="$K8S_NODE_HOST_IP"
    K8S_NODE_NAME="$K8S_LOAD_NODE_NAME" K8S_NODE_BRIDGE="$K8S_LOAD_NODE_BRIDGE" K8S_NODE_POD_CIDR="$K8S_LOAD_NODE_POD_CIDR"
    K8S_NODE_HOST_IP="$K8S_LOAD_NODE_HOST_IP" K8S_NODE_CGROUP_ROOT="$K8S_LOAD_NODE_CGROUP_ROOT"
    PERFLAB_K8S_KUBELET_PORT="$PERFLAB_K8S_LOAD_KUBELET_PORT" PERFLAB_K8S_KUBELET_HEALTHZ_PORT="$PERFLAB_K8S_LOAD_KUBELET_HEALTHZ_PORT"
    K8S_NODE_BRIDGE_MAC=02:70:6c:00:00:02 K8S_NODE_CONTAINERD_NAME=containerd-load K8S_NODE_KUBELET_NAME=kubelet-load K8S_NODE_LABELS="perflab.dev/pool=load" K8S_NODE_TAINTS="perflab.dev/pool=load:NoSchedule"
    mkdir -p "$K8S_NODE_DIR"
    _k8s_node_network && _k8s_node_containerd && _k8s_node_kubelet
  ) || return 1
  _k8s_wait "node $K8S_LOAD_NODE_NAME Ready" 90 bash -c "'$KUBECTL' --kubeconfig '$kc' get node '$K8S_LOAD_NODE_NAME' -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True" || return 1
  _k8s_node_step "load node up in $((SECONDS - t0)) s: $K8S_LOAD_NODE_NAME, pods in $K8S_LOAD_NODE_POD_CIDR, tainted perflab.dev/pool=load:NoSchedule"
}

# k8s_node_cpus system|load CPUS: every pod cgroup of that node on CPUS (cgroup v1 cpuset). The kernel refuses a
# child wider than its parent: leaves first (what shrinks), then the root first (what grows). New pods inherit it.
k8s_node_cpus() {
  local root="$K8S_NODE_CGROUP_ROOT" cpus="$2" order d
  [ "$1" = load ] && root="$K8S_LOAD_NODE_CGROUP_ROOT"
  root="/sys/fs/cgroup/cpuset$root"
  [ -d "$root" ] || { _k8s_log "no cpuset cgroup $root"; return 1; }
  for order in -r ""; do
    find "$root" -type d | awk '{print gsub("/", "/"), $0}' | sort -n $order | cut -d' ' -f2- | while read -r d; do
      echo "$cpus" >"$d/cpuset.cpus" 2>/dev/null || true
    done
  done
  d="$(find "$root" -name cpuset.cpus -exec cat {} + | sort -u | tr '\n' ' ')"
  [ "$d" = "$cpus " ] || { _k8s_log "cpusets under $root: $d(not $cpus)"; return 1; }
}

