#!/usr/bin/env bash
# A real single node for the loopback control plane of scripts/k8s/k8s-cluster.sh (sourced by it): pods really run.
#
#   containerd (Debian's 1.6, its own root/state/socket under DIR/node, never the system service) + runc
#   CNI: Debian's bridge + host-local plugins, bridge $K8S_NODE_BRIDGE with $K8S_NODE_HOST_IP/24, pods in
#        $K8S_NODE_POD_CIDR; pods reach each other and this host, nothing else (FORWARD to any other interface dropped)
#   kubelet + kube-proxy (iptables mode, Services in 10.96.0.0/16) of the control plane's version, node $K8S_NODE_NAME
#   CoreDNS as a host process on $K8S_NODE_HOST_IP:53 (kubernetes plugin, cluster.local), the pods' clusterDNS;
#        other names are refused unless K8S_NODE_DNS_FORWARD names an upstream (e.g. /etc/resolv.conf)
#   a local OCI registry (crane registry serve) on 127.0.0.1:$PERFLAB_REGISTRY_PORT, trusted by containerd over HTTP,
#        with the pause image pushed into it; scripts/k8s/base-image.sh pushes the JVM base image
#   socat forwarders $K8S_NODE_HOST_IP:PORT -> 127.0.0.1:PORT for K8S_NODE_HOST_PORTS (the local stores), so a pod
#        reaches e.g. Redis at $K8S_NODE_HOST_IP:$PERFLAB_REDIS_PORT (the ports scripts/lib/env.sh sets)
#   NetworkPolicy enforced by kube-router's firewall alone (K8S_NODE_POLICY=kube-router, the default; none: not
#        enforced): its router, service proxy and CNI off, kube-proxy and the bridge as they are. Blocked traffic is
#        REJECTed (a client sees "connection refused" at once). Traffic from this host to a pod is always allowed
#        (kubelet probes, the host's Prometheus, port-forward), as NetworkPolicy specifies for a pod's own node.
#
#   K8S_NODE=real k8s_cluster_up DIR     control plane + this node (instead of kwok's fake node)
#   k8s_cluster_down                     stops both; k8s_node_down DIR alone undoes this file's part
#                                        (scripts/k8s/k8s-node-down.sh; the load node, kube-router, metrics-server
#                                        and the cpusets: scripts/k8s/k8s-node-extras.sh)
#   k8s_load_node_up                     a second real node beside it for load generators: its own containerd,
#                                        kubelet, bridge $K8S_LOAD_NODE_BRIDGE and pods in $K8S_LOAD_NODE_POD_CIDR,
#                                        labelled and tainted perflab.dev/pool=load (the loadtest chart's load pool);
#                                        the first node is labelled perflab.dev/pool=system. kube-proxy, CoreDNS, the
#                                        registry and the store forwarders are the host's and serve both.
#   k8s_node_cpus NODE CPUS              confines every pod of NODE (system|load) to CPUS (a cpuset: "0", "1", "0-1")
#   k8s_metrics_server_up                metrics-server as a host process on $K8S_NODE_HOST_IP:$PERFLAB_K8S_METRICS_PORT,
#                                        registered as the metrics.k8s.io APIService (what HPAs and `kubectl top` read)
#
# Not exercised here: hostPort, pods reaching the API server (the apiserver listens on 127.0.0.1 only), LoadBalancer
# Services, more than two nodes; NetworkPolicy for pods of the load node (see _k8s_node_policy: one controller per
# host, for the system node, where every pod of the release runs; the load node's pods are selected by no policy).
K8S_NODE_NAME="${K8S_NODE_NAME:-perflab-node-0}"
K8S_NODE_BRIDGE="${K8S_NODE_BRIDGE:-perflab0}"
K8S_NODE_POD_CIDR="${K8S_NODE_POD_CIDR:-10.244.0.0/24}"
K8S_NODE_HOST_IP="${K8S_NODE_HOST_IP:-10.244.0.1}"
K8S_NODE_SERVICE_CIDR="${K8S_NODE_SERVICE_CIDR:-10.96.0.0/16}"
# the local stores (scripts/lib/env.sh): MariaDB, Redis, mongo-wire, SMTP, the SMTP server's API, the SMS sink, and
# Prometheus (load runner pods remote-write into it, the verdict pod reads it)
K8S_NODE_HOST_PORTS="${K8S_NODE_HOST_PORTS:-${PERFLAB_MYSQL_PORT:-13306} ${PERFLAB_REDIS_PORT:-16379} ${PERFLAB_MONGO_PORT:-17017} ${PERFLAB_SMTP_PORT:-13025} ${PERFLAB_SMTP_API_PORT:-18025} ${PERFLAB_SMS_SINK_PORT:-18086} ${PERFLAB_PROMETHEUS_PORT:-19090}}"
K8S_NODE_DNS_FORWARD="${K8S_NODE_DNS_FORWARD:-}"
# kube-router (NetworkPolicy enforced) or none
K8S_NODE_POLICY="${K8S_NODE_POLICY:-kube-router}"
# memory kept out of the pods' allocatable for what runs beside them (control plane, stores, JVMs on the host)
K8S_NODE_SYSTEM_RESERVED_MEMORY="${K8S_NODE_SYSTEM_RESERVED_MEMORY:-2Gi}"
PERFLAB_K8S_KUBELET_PORT="${PERFLAB_K8S_KUBELET_PORT:-12250}"
PERFLAB_K8S_KUBELET_HEALTHZ_PORT="${PERFLAB_K8S_KUBELET_HEALTHZ_PORT:-12248}"
PERFLAB_K8S_PROXY_HEALTHZ_PORT="${PERFLAB_K8S_PROXY_HEALTHZ_PORT:-12256}"
PERFLAB_K8S_PROXY_METRICS_PORT="${PERFLAB_K8S_PROXY_METRICS_PORT:-12249}"
PERFLAB_K8S_DNS_HEALTH_PORT="${PERFLAB_K8S_DNS_HEALTH_PORT:-12280}"
PERFLAB_K8S_DNS_READY_PORT="${PERFLAB_K8S_DNS_READY_PORT:-12281}"
PERFLAB_K8S_METRICS_PORT="${PERFLAB_K8S_METRICS_PORT:-12443}"
# cgroupfs parent of every pod cgroup (in each v1 hierarchy): k8s_node_down removes it whole
K8S_NODE_CGROUP_ROOT="${K8S_NODE_CGROUP_ROOT:-/perflab-node}"
K8S_NODE_PAUSE_IMAGE="$PERFLAB_REGISTRY/perflab/pause:$PERFLAB_PAUSE_VERSION"
# One real node per machine at a time (the kubelet's device-plugin socket, kube-proxy's and the kubelet's iptables
# chains are host-wide): this file names the DIR of the node that is up, so a run that died is cleaned up by the next.
K8S_NODE_LOCK="${K8S_NODE_LOCK:-/run/perflab-k8s-node}"
# the load node (k8s_load_node_up): everything of its own under DIR/node/load
K8S_LOAD_NODE_NAME="${K8S_LOAD_NODE_NAME:-perflab-node-load}"
K8S_LOAD_NODE_BRIDGE="${K8S_LOAD_NODE_BRIDGE:-perflab1}"
K8S_LOAD_NODE_POD_CIDR="${K8S_LOAD_NODE_POD_CIDR:-10.244.1.0/24}"
K8S_LOAD_NODE_HOST_IP="${K8S_LOAD_NODE_HOST_IP:-10.244.1.1}"
K8S_LOAD_NODE_CGROUP_ROOT="${K8S_LOAD_NODE_CGROUP_ROOT:-/perflab-node-load}"
PERFLAB_K8S_LOAD_KUBELET_PORT="${PERFLAB_K8S_LOAD_KUBELET_PORT:-12251}"
PERFLAB_K8S_LOAD_KUBELET_HEALTHZ_PORT="${PERFLAB_K8S_LOAD_KUBELET_HEALTHZ_PORT:-12247}"
# every node's pods, and what kube-proxy counts as inside the cluster
K8S_NODE_CLUSTER_CIDR="${K8S_NODE_CLUSTER_CIDR:-10.244.0.0/16}"
# the directory of the node being set up (the first node: DIR/node; the load node: DIR/node/load)
K8S_NODE_DIR=""
K8S_NODE_CNI_NETWORK=perflab
_K8S_NODE_FWD_CHAIN=PERFLAB-NODE-FWD

_k8s_node_start() {  # NAME CMD...: like _k8s_start, pid in DIR/node/pids (stopped by k8s_node_down)
  local name="$1"; shift
  "$@" >"$K8S_CLUSTER_DIR/$name.log" 2>&1 &
  local pid=$!
  _k8s_pids+=("$pid")
  echo "$pid $name" >>"$K8S_CLUSTER_DIR/node/pids"
}

_k8s_node_step() { _k8s_log "node: $*"; }

# The registry alone (k8s_cluster_up starts it with the real node; call it yourself to push images next to kwok).
k8s_registry_up() {
  local dir="${1:-$K8S_CLUSTER_DIR}"
  K8S_CLUSTER_DIR="$dir"
  mkdir -p "$dir/node" "${PERFLAB_REGISTRY_DIR:-$dir/registry}"
  curl -sf "http://$PERFLAB_REGISTRY/v2/" >/dev/null 2>&1 && { _k8s_log "registry already answers at $PERFLAB_REGISTRY"; return 1; }
  _k8s_node_step "OCI registry on $PERFLAB_REGISTRY (blobs in ${PERFLAB_REGISTRY_DIR:-$dir/registry})"
  _k8s_node_start registry "$CRANE" registry serve --address "$PERFLAB_REGISTRY" --disk "${PERFLAB_REGISTRY_DIR:-$dir/registry}"
  _k8s_wait registry 20 curl -sf "http://$PERFLAB_REGISTRY/v2/"
}

# pause: one layer with the perflab-pause binary (scripts/k8s/k8s-tools.sh) as /pause
_k8s_node_push_pause() {
  local d="$K8S_CLUSTER_DIR/node/pause"
  mkdir -p "$d/root"
  cp "$PERFLAB_PAUSE" "$d/root/pause"
  (cd "$d/root" && tar --numeric-owner --owner=0 --group=0 --mtime=@0 -cf "$d/pause.tar" pause) || return 1
  "$CRANE" append --insecure --oci-empty-base -f "$d/pause.tar" -t "$K8S_NODE_PAUSE_IMAGE" >/dev/null 2>"$d/push.log" \
    && "$CRANE" mutate --insecure "$K8S_NODE_PAUSE_IMAGE" -t "$K8S_NODE_PAUSE_IMAGE" --set-platform linux/amd64 \
      --entrypoint /pause --user 65535:65535 >/dev/null 2>>"$d/push.log" \
    || { cat "$d/push.log" >&2; return 1; }
}

_k8s_node_sysctl() {  # KEY VALUE: set, remembering the old value for k8s_node_down
  local f="/proc/sys/${1//.//}" old
  old="$(cat "$f")" || return 1
  [ "$old" = "$2" ] && return 0
  echo "$1 $old" >>"$K8S_CLUSTER_DIR/node/sysctl.saved"
  echo "$2" >"$f"
}

_k8s_node_sysctl_keep() {  # KEY...: remember values the kubelet changes (it sets them host-wide on start)
  local k
  for k in "$@"; do
    [ -f "/proc/sys/${k//.//}" ] && echo "$k $(cat "/proc/sys/${k//.//}")" >>"$K8S_CLUSTER_DIR/node/sysctl.saved"
  done
  return 0
}

_k8s_node_network() {
  local n="${K8S_NODE_DIR:-$K8S_CLUSTER_DIR/node}" prefix="${K8S_NODE_POD_CIDR#*/}"
  ip link show "$K8S_NODE_BRIDGE" >/dev/null 2>&1 \
    && { _k8s_log "bridge $K8S_NODE_BRIDGE exists: another node is up (or a crashed one: k8s_node_down DIR)"; return 1; }
  _k8s_node_step "bridge $K8S_NODE_BRIDGE $K8S_NODE_HOST_IP/$prefix, pods in $K8S_NODE_POD_CIDR, forwarding only within the bridge"
  # A MAC set by hand: otherwise the bridge takes the lowest MAC of its ports, which changes when a pod's veth goes,
  # and every pod's ARP entry for the host address (its DNS server) points nowhere for seconds (measured: a shortener
  # pod deleted under load made the gateway's DNS lookups time out, 36 of 1,585 requests failed).
  ip link add "$K8S_NODE_BRIDGE" address "${K8S_NODE_BRIDGE_MAC:-02:70:6c:00:00:01}" type bridge && ip addr add "$K8S_NODE_HOST_IP/$prefix" dev "$K8S_NODE_BRIDGE" \
    && ip link set "$K8S_NODE_BRIDGE" up || return 1
  echo "$K8S_NODE_BRIDGE" >"$n/bridge"
  # Pod -> ClusterIP -> pod on the same bridge needs bridged packets to pass iptables (kube-proxy's DNAT/conntrack).
  _k8s_node_sysctl net.ipv4.ip_forward 1 && _k8s_node_sysctl net.bridge.bridge-nf-call-iptables 1 || return 1
  # Forwarding stays inside the nodes' bridges: a pod never reaches another network through this host, nor it the
  # pods. The first node makes the chain; a load node adds its bridge (to and from the first's) in front of the drops.
  # The same chain in the mangle table too: it runs before every filter chain, and the policy controller's chain
  # (first in filter's FORWARD, kept there by the controller) ACCEPTs what the policies allow, which would skip
  # filter's drops.
  local t
  for t in filter mangle; do
    if [ -z "${K8S_NODE_PEER_BRIDGE:-}" ]; then
      iptables -w -t $t -N "$_K8S_NODE_FWD_CHAIN" 2>/dev/null; iptables -w -t $t -F "$_K8S_NODE_FWD_CHAIN"
      iptables -w -t $t -A "$_K8S_NODE_FWD_CHAIN" -i "$K8S_NODE_BRIDGE" -o "$K8S_NODE_BRIDGE" -j ACCEPT
      iptables -w -t $t -A "$_K8S_NODE_FWD_CHAIN" -i "$K8S_NODE_BRIDGE" -j DROP
      iptables -w -t $t -A "$_K8S_NODE_FWD_CHAIN" -o "$K8S_NODE_BRIDGE" -j DROP
      iptables -w -t $t -I FORWARD 1 -j "$_K8S_NODE_FWD_CHAIN" || return 1
    else
      local b
      for b in "$K8S_NODE_BRIDGE" "$K8S_NODE_PEER_BRIDGE"; do
        iptables -w -t $t -I "$_K8S_NODE_FWD_CHAIN" 1 -i "$K8S_NODE_BRIDGE" -o "$b" -j ACCEPT || return 1
      done
      iptables -w -t $t -I "$_K8S_NODE_FWD_CHAIN" 1 -i "$K8S_NODE_PEER_BRIDGE" -o "$K8S_NODE_BRIDGE" -j ACCEPT
      iptables -w -t $t -A "$_K8S_NODE_FWD_CHAIN" -i "$K8S_NODE_BRIDGE" -j DROP
      iptables -w -t $t -A "$_K8S_NODE_FWD_CHAIN" -o "$K8S_NODE_BRIDGE" -j DROP || return 1
    fi
  done
  mkdir -p "$n/cni/net.d" "$n/cni/ipam"
  cat >"$n/cni/net.d/10-perflab.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "$K8S_NODE_CNI_NETWORK",
  "plugins": [
    {
      "type": "bridge", "bridge": "$K8S_NODE_BRIDGE", "isGateway": true, "ipMasq": false, "hairpinMode": true,
      "ipam": {
        "type": "host-local", "dataDir": "$n/cni/ipam",
        "ranges": [[{ "subnet": "$K8S_NODE_POD_CIDR", "gateway": "$K8S_NODE_HOST_IP" }]],
        "routes": [{ "dst": "0.0.0.0/0" }]
      }
    }
  ]
}
EOF
}

_k8s_node_containerd() {
  local c="${K8S_NODE_DIR:-$K8S_CLUSTER_DIR/node}/containerd"
  mkdir -p "$c/root" "$c/state" "$c/certs.d/$PERFLAB_REGISTRY"
  cat >"$c/certs.d/$PERFLAB_REGISTRY/hosts.toml" <<EOF
server = "http://$PERFLAB_REGISTRY"

[host."http://$PERFLAB_REGISTRY"]
  capabilities = ["pull", "resolve", "push"]
  skip_verify = true
EOF
  cat >"$c/config.toml" <<EOF
version = 2
root = "$c/root"
state = "$c/state"
disabled_plugins = ["io.containerd.internal.v1.opt", "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp"]

[grpc]
  address = "$c/containerd.sock"
[ttrpc]
  address = "$c/containerd.sock.ttrpc"
[debug]
  address = ""
[metrics]
  address = ""

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$K8S_NODE_PAUSE_IMAGE"
  # containerd must not try to raise a pod's oom_score_adj above its own (kubelet asks -998 for the pause container)
  restrict_oom_score_adj = true
  disable_apparmor = true
  stream_server_address = "127.0.0.1"
  # the pods' network namespaces are mounted under the state dir, not /var/run/netns
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$(command -v runc)"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${K8S_NODE_DIR:-$K8S_CLUSTER_DIR/node}/cni/net.d"
    max_conf_num = 1
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "$c/certs.d"
EOF
  _k8s_node_step "containerd $(containerd --version | awk '{print $3}') (socket $c/containerd.sock), runc $(runc --version | awk 'NR==1{print $3}')"
  _k8s_node_start "${K8S_NODE_CONTAINERD_NAME:-containerd}" containerd --config "$c/config.toml"
  _k8s_wait containerd 30 ctr --address "$c/containerd.sock" version
}

_k8s_node_coredns() {
  local n="$K8S_CLUSTER_DIR/node" fwd=""
  [ -n "$K8S_NODE_DNS_FORWARD" ] && fwd="    forward . $K8S_NODE_DNS_FORWARD"
  cat >"$n/Corefile" <<EOF
.:53 {
    bind $K8S_NODE_HOST_IP
    errors
    health 127.0.0.1:$PERFLAB_K8S_DNS_HEALTH_PORT
    ready 127.0.0.1:$PERFLAB_K8S_DNS_READY_PORT
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        kubeconfig $K8S_CLUSTER_DIR/kubeconfig perflab-test
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 5
    }
$fwd
    cache 5
    loadbalance
}
EOF
  _k8s_node_step "CoreDNS $COREDNS_VERSION on $K8S_NODE_HOST_IP:53 (cluster.local${K8S_NODE_DNS_FORWARD:+; others -> $K8S_NODE_DNS_FORWARD})"
  _k8s_node_start coredns "$COREDNS" -conf "$n/Corefile"
  _k8s_wait "CoreDNS ready" 30 curl -sf "http://127.0.0.1:$PERFLAB_K8S_DNS_READY_PORT/ready"
}

_k8s_node_forwarders() {
  local p
  [ -n "$K8S_NODE_HOST_PORTS" ] || return 0
  _k8s_node_step "host ports for pods: $K8S_NODE_HOST_IP:{${K8S_NODE_HOST_PORTS// /,}} -> 127.0.0.1 (socat)"
  for p in $K8S_NODE_HOST_PORTS; do
    _k8s_node_start "socat-$p" socat "TCP-LISTEN:$p,bind=$K8S_NODE_HOST_IP,reuseaddr,fork" "TCP:127.0.0.1:$p"
  done
}

_k8s_node_kubelet() {
  local n="${K8S_NODE_DIR:-$K8S_CLUSTER_DIR/node}" pki="$K8S_CLUSTER_DIR/pki"
  mkdir -p "$n/kubelet" "$n/pod-logs"
  # the kubelet wants its cgroup root to exist in every v1 hierarchy; a new cpuset cgroup starts with no CPU/memory node
  local h
  for h in /sys/fs/cgroup/*/; do
    [ "$h" = /sys/fs/cgroup/unified/ ] && continue
    mkdir -p "${h%/}$K8S_NODE_CGROUP_ROOT" || return 1
  done
  if [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ]; then
    cat /sys/fs/cgroup/cpuset/cpuset.cpus >"/sys/fs/cgroup/cpuset$K8S_NODE_CGROUP_ROOT/cpuset.cpus"
    cat /sys/fs/cgroup/cpuset/cpuset.mems >"/sys/fs/cgroup/cpuset$K8S_NODE_CGROUP_ROOT/cpuset.mems"
  fi
  # dnsPolicy Default pods get this file: the cluster DNS too, nothing of the host's resolver
  local dns="${K8S_NODE_DNS_IP:-$K8S_NODE_HOST_IP}"
  echo "nameserver $dns" >"$n/resolv.conf"
  cat >"$n/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $K8S_NODE_HOST_IP
port: $PERFLAB_K8S_KUBELET_PORT
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $PERFLAB_K8S_KUBELET_HEALTHZ_PORT
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: true }
  x509: { clientCAFile: $pki/ca.crt }
authorization: { mode: Webhook }
containerRuntimeEndpoint: unix://$n/containerd/containerd.sock
cgroupDriver: cgroupfs
cgroupRoot: $K8S_NODE_CGROUP_ROOT
# this VM mounts cgroup v1 (with v2 only as /sys/fs/cgroup/unified); Kubernetes 1.35+ refuses v1 unless told
failCgroupV1: false
failSwapOn: false
clusterDomain: cluster.local
clusterDNS: [$dns]
resolvConf: $n/resolv.conf
podLogsDir: $n/pod-logs
maxPods: 110
serializeImagePulls: false
systemReserved: { memory: $K8S_NODE_SYSTEM_RESERVED_MEMORY }
evictionHard: { memory.available: 200Mi, nodefs.available: 2%, imagefs.available: 2% }
imageGCHighThresholdPercent: 99
imageGCLowThresholdPercent: 98
syncFrequency: 10s
fileCheckFrequency: 10s
nodeStatusUpdateFrequency: 5s
EOF
  _k8s_node_sysctl_keep vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops \
    kernel.keys.root_maxkeys kernel.keys.root_maxbytes
  _k8s_node_step "kubelet $K8S_VERSION as node $K8S_NODE_NAME ($K8S_NODE_HOST_IP:$PERFLAB_K8S_KUBELET_PORT, cgroupfs under $K8S_NODE_CGROUP_ROOT)"
  # cAdvisor's stats of each pod every 2 s: the kubelet's default (10 s) gives a 15 s load runner one CPU sample, and a
  # rate needs two; the load's verdict reads each runner pod's CPU from them
  _k8s_node_start "${K8S_NODE_KUBELET_NAME:-kubelet}" "$KUBELET" --config "$n/kubelet.yaml" --kubeconfig "$K8S_CLUSTER_DIR/kubeconfig" \
    --hostname-override "$K8S_NODE_NAME" --node-ip "$K8S_NODE_HOST_IP" --root-dir "$n/kubelet" \
    --cert-dir "$n/kubelet/pki" --node-labels "perflab.dev/node=real${K8S_NODE_LABELS:+,$K8S_NODE_LABELS}" \
    ${K8S_NODE_TAINTS:+--register-with-taints "$K8S_NODE_TAINTS"} --v 1 \
    --housekeeping-interval "${K8S_NODE_HOUSEKEEPING_INTERVAL:-2s}"
}

_k8s_node_proxy() {
  local n="$K8S_CLUSTER_DIR/node"
  cat >"$n/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: { kubeconfig: $K8S_CLUSTER_DIR/kubeconfig }
hostnameOverride: $K8S_NODE_NAME
mode: iptables
clusterCIDR: $K8S_NODE_CLUSTER_CIDR
healthzBindAddress: 127.0.0.1:$PERFLAB_K8S_PROXY_HEALTHZ_PORT
metricsBindAddress: 127.0.0.1:$PERFLAB_K8S_PROXY_METRICS_PORT
nodePortAddresses: [$K8S_NODE_HOST_IP/32]
iptables: { localhostNodePorts: false, minSyncPeriod: 1s, syncPeriod: 30s }
# leave the host's conntrack sysctls alone
conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s }
EOF
  _k8s_node_step "kube-proxy $K8S_VERSION (iptables, Services $K8S_NODE_SERVICE_CIDR)"
  _k8s_node_start kube-proxy "$KUBE_PROXY" --config "$n/kube-proxy.yaml" --v 1
  _k8s_wait kube-proxy 30 curl -sf "http://127.0.0.1:$PERFLAB_K8S_PROXY_HEALTHZ_PORT/healthz"
}

# k8s_node_up: after the control plane of k8s_cluster_up (K8S_CLUSTER_DIR, KUBECONFIG set).
k8s_node_up() {
  local n="$K8S_CLUSTER_DIR/node" kc="$K8S_CLUSTER_DIR/kubeconfig" t0=$SECONDS b
  [ "$(id -u)" -eq 0 ] || { _k8s_log "the real node needs root (bridge, iptables, mounts, cgroups)"; return 1; }
  for b in "$KUBELET" "$KUBE_PROXY" "$CRANE" "$COREDNS" "$PERFLAB_PAUSE"; do
    [ -x "$b" ] || { _k8s_log "missing $b: run scripts/k8s/k8s-tools.sh"; return 1; }
  done
  [ "$K8S_NODE_POLICY" = none ] || { [ -x "$KUBE_ROUTER" ] && command -v ipset >/dev/null; } \
    || { _k8s_log "missing $KUBE_ROUTER or ipset: run scripts/k8s/k8s-tools.sh"; return 1; }
  for b in containerd runc ctr socat iptables conntrack; do
    command -v "$b" >/dev/null || { _k8s_log "missing $b: run scripts/k8s/k8s-tools.sh"; return 1; }
  done
  if [ -f "$K8S_NODE_LOCK" ]; then
    local other; other="$(cat "$K8S_NODE_LOCK")"
    if [ -n "$(_k8s_node_orphans "$other" kubelet)" ]; then
      _k8s_log "a real node is up already (DIR $other; one per machine): k8s_node_down $other"; return 1
    fi
    _k8s_node_step "cleaning up after a node that was not stopped (DIR $other)"
    k8s_node_down "$other" || true
  fi
  mkdir -p "$n"
  : >"$n/pids"; : >"$n/sysctl.saved"
  echo "$K8S_CLUSTER_DIR" >"$K8S_NODE_LOCK"
  _k8s_node_network || return 1
  k8s_registry_up "$K8S_CLUSTER_DIR" || return 1
  _k8s_node_push_pause || return 1
  _k8s_node_containerd || return 1
  _k8s_node_coredns || return 1
  _k8s_node_forwarders || return 1
  K8S_NODE_LABELS="perflab.dev/pool=system" _k8s_node_kubelet || return 1
  _k8s_node_proxy || return 1
  _k8s_wait "node $K8S_NODE_NAME Ready" 90 bash -c "'$KUBECTL' --kubeconfig '$kc' get node '$K8S_NODE_NAME' -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True" || return 1
  _k8s_wait "node $K8S_NODE_NAME schedulable" 60 bash -c "[ -z \"\$('$KUBECTL' --kubeconfig '$kc' get node '$K8S_NODE_NAME' -o jsonpath='{.spec.taints}')\" ]" || return 1
  _k8s_node_policy || return 1
  export K8S_NODE_HOST_IP PERFLAB_REGISTRY
  _k8s_node_step "up in $((SECONDS - t0)) s: allocatable $("$KUBECTL" --kubeconfig "$kc" get node "$K8S_NODE_NAME" -o jsonpath='{.status.allocatable.cpu} CPU, {.status.allocatable.memory}'); registry $PERFLAB_REGISTRY; stores at $K8S_NODE_HOST_IP"
}

# shellcheck source=scripts/k8s/k8s-node-extras.sh
source "$(dirname "${BASH_SOURCE[0]}")/k8s-node-extras.sh"
# shellcheck source=scripts/k8s/k8s-node-down.sh
source "$(dirname "${BASH_SOURCE[0]}")/k8s-node-down.sh"
