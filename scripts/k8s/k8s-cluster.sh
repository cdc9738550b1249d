#!/usr/bin/env bash
# A real Kubernetes control plane on loopback, with kwok as a fake node, for the chart tests: etcd, kube-apiserver
# (RBAC, cert auth, self-made CA), kube-controller-manager, kube-scheduler and kwok, which marks the pods bound to
# its fake Node as running and Ready. No container ever runs, no packet leaves 127.0.0.1.
#
#   source scripts/k8s/k8s-cluster.sh
#   k8s_cluster_up DIR      start everything, state and logs in DIR; writes DIR/kubeconfig
#   k8s_cluster_down        stop exactly the processes k8s_cluster_up started (also safe to call twice)
#
#   scripts/k8s/k8s-cluster.sh up|down DIR  the same from a shell (up leaves it running; down reads DIR/pids)
#
# K8S_NODE=real (default kwok): instead of kwok, one real node whose pods run (containerd, runc, bridge CNI, kubelet,
# kube-proxy, CoreDNS, a local OCI registry; root only): see scripts/k8s/k8s-node.sh. k8s_cluster_down then also kills
# the pods, unmounts, and removes the bridge, the iptables rules and the pod cgroups.
#
# Ports are settings (export to override) so a busy box can move them.
PERFLAB_K8S_ETCD_PORT="${PERFLAB_K8S_ETCD_PORT:-12379}"
PERFLAB_K8S_ETCD_PEER_PORT="${PERFLAB_K8S_ETCD_PEER_PORT:-12380}"
PERFLAB_K8S_APISERVER_PORT="${PERFLAB_K8S_APISERVER_PORT:-16443}"
PERFLAB_K8S_KCM_PORT="${PERFLAB_K8S_KCM_PORT:-12257}"
PERFLAB_K8S_SCHEDULER_PORT="${PERFLAB_K8S_SCHEDULER_PORT:-12259}"
PERFLAB_K8S_KWOK_PORT="${PERFLAB_K8S_KWOK_PORT:-12247}"

# shellcheck source=scripts/k8s/k8s-tools.sh
source "$(dirname "${BASH_SOURCE[0]}")/k8s-tools.sh"
# shellcheck source=scripts/k8s/k8s-node.sh
source "$(dirname "${BASH_SOURCE[0]}")/k8s-node.sh"
K8S_NODE="${K8S_NODE:-kwok}"

K8S_CLUSTER_DIR=""
_k8s_pids=()

_k8s_port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

_k8s_start() {  # NAME CMD...: background process, logs in DIR/NAME.log, pid remembered
  local name="$1"; shift
  "$@" >"$K8S_CLUSTER_DIR/$name.log" 2>&1 &
  local pid=$!
  _k8s_pids+=("$pid")
  echo "$pid $name" >>"$K8S_CLUSTER_DIR/pids"
}

_k8s_wait() {  # WHAT SECONDS CMD...: poll until CMD succeeds
  local what="$1" secs="$2"; shift 2
  local end=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    if [ $SECONDS -ge $end ]; then
      _k8s_log "timed out waiting for $what; last log lines:"
      tail -n 20 "$K8S_CLUSTER_DIR"/*.log >&2 || true
      return 1
    fi
    sleep 0.5
  done
}

_k8s_certs() {
  local d="$K8S_CLUSTER_DIR/pki"
  mkdir -p "$d"
  (
    set -e
    cd "$d"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj "/CN=perflab-test-ca" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n' >server.ext
    openssl req -newkey rsa:2048 -nodes -keyout apiserver.key -out apiserver.csr -subj "/CN=kube-apiserver" 2>/dev/null
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile server.ext -out apiserver.crt 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    # system:masters: the admin identity of this throwaway cluster (the controllers and kwok use it too).
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=perflab-admin" 2>/dev/null
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile client.ext -out admin.crt 2>/dev/null
    # the aggregation layer's front proxy: the API server calls an extension API server (metrics-server, the
    # resource metrics the HorizontalPodAutoscalers read) as front-proxy-client, signed by a CA of its own
    openssl req -x509 -newkey rsa:2048 -nodes -keyout front-proxy-ca.key -out front-proxy-ca.crt -days 2 -subj "/CN=perflab-front-proxy-ca" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout front-proxy-client.key -out front-proxy-client.csr -subj "/CN=front-proxy-client" 2>/dev/null
    openssl x509 -req -in front-proxy-client.csr -CA front-proxy-ca.crt -CAkey front-proxy-ca.key -CAcreateserial -days 2 -extfile client.ext -out front-proxy-client.crt 2>/dev/null
    openssl genrsa -out sa.key 2048 2>/dev/null
    openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
  )
  cat >"$K8S_CLUSTER_DIR/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: perflab-test
    cluster:
      server: https://127.0.0.1:$PERFLAB_K8S_APISERVER_PORT
      certificate-authority: $d/ca.crt
users:
  - name: admin
    user:
      client-certificate: $d/admin.crt
      client-key: $d/admin.key
contexts:
  - name: perflab-test
    context: { cluster: perflab-test, user: admin }
current-context: perflab-test
EOF
}

k8s_cluster_up() {
  K8S_CLUSTER_DIR="$1"
  mkdir -p "$K8S_CLUSTER_DIR"
  : >"$K8S_CLUSTER_DIR/pids"
  local p ports=("$PERFLAB_K8S_ETCD_PORT" "$PERFLAB_K8S_ETCD_PEER_PORT" "$PERFLAB_K8S_APISERVER_PORT" \
    "$PERFLAB_K8S_KCM_PORT" "$PERFLAB_K8S_SCHEDULER_PORT")
  case "$K8S_NODE" in
    kwok) ports+=("$PERFLAB_K8S_KWOK_PORT") ;;
    real) ports+=("$PERFLAB_REGISTRY_PORT" "$PERFLAB_K8S_KUBELET_HEALTHZ_PORT" "$PERFLAB_K8S_PROXY_HEALTHZ_PORT"
                  "$PERFLAB_K8S_PROXY_METRICS_PORT" "$PERFLAB_K8S_DNS_HEALTH_PORT" "$PERFLAB_K8S_DNS_READY_PORT") ;;
    *) _k8s_log "K8S_NODE=$K8S_NODE: kwok or real"; return 1 ;;
  esac
  for p in "${ports[@]}"; do
    _k8s_port_free "$p" || { _k8s_log "port $p on 127.0.0.1 is taken: export PERFLAB_K8S_*_PORT to move it"; return 1; }
  done
  _k8s_certs || return 1
  local pki="$K8S_CLUSTER_DIR/pki" kc="$K8S_CLUSTER_DIR/kubeconfig"
  export KUBECONFIG="$kc"

  _k8s_start etcd etcd --name perflab-test --data-dir "$K8S_CLUSTER_DIR/etcd" \
    --listen-client-urls "http://127.0.0.1:$PERFLAB_K8S_ETCD_PORT" \
    --advertise-client-urls "http://127.0.0.1:$PERFLAB_K8S_ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$PERFLAB_K8S_ETCD_PEER_PORT" \
    --initial-advertise-peer-urls "http://127.0.0.1:$PERFLAB_K8S_ETCD_PEER_PORT" \
    --initial-cluster "perflab-test=http://127.0.0.1:$PERFLAB_K8S_ETCD_PEER_PORT" \
    --listen-metrics-urls "" --log-level warn
  _k8s_wait etcd 30 curl -sf "http://127.0.0.1:$PERFLAB_K8S_ETCD_PORT/health" || return 1

  # The real node's kubelet (logs, exec, port-forward) is reached at its InternalIP on the bridge, with the admin
  # client cert. Not with kwok: its fake node's InternalIP (10.0.0.1) is no address of this machine.
  local kubelet_flags=()
  # shellcheck disable=SC2054 # InternalIP,Hostname is one argument, a comma-separated list
  [ "$K8S_NODE" = real ] && kubelet_flags=(--kubelet-client-certificate "$pki/admin.crt" --kubelet-client-key "$pki/admin.key"
    --kubelet-preferred-address-types InternalIP,Hostname)
  _k8s_start kube-apiserver "$KUBE_APISERVER" \
    --etcd-servers "http://127.0.0.1:$PERFLAB_K8S_ETCD_PORT" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$PERFLAB_K8S_APISERVER_PORT" \
    --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
    --client-ca-file "$pki/ca.crt" \
    --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --authorization-mode RBAC --anonymous-auth=false \
    --service-cluster-ip-range 10.96.0.0/16 \
    --requestheader-client-ca-file "$pki/front-proxy-ca.crt" --requestheader-allowed-names front-proxy-client \
    --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group \
    --requestheader-extra-headers-prefix X-Remote-Extra- \
    --proxy-client-cert-file "$pki/front-proxy-client.crt" --proxy-client-key-file "$pki/front-proxy-client.key" \
    --enable-aggregator-routing=true \
    "${kubelet_flags[@]}" \
    --profiling=false --endpoint-reconciler-type none
  _k8s_wait kube-apiserver 90 "$KUBECTL" --kubeconfig "$kc" get --raw /readyz || return 1

  # the HorizontalPodAutoscalers reconciled every 5 s, not 15: the scale-out/in proof (scripts/test/test-node.sh) waits on
  # metrics-server's 10 s resolution and this loop, and a pod's start, not on a default tuned for API-server load
  _k8s_start kube-controller-manager "$KUBE_CONTROLLER_MANAGER" \
    --kubeconfig "$kc" --authentication-kubeconfig "$kc" --authorization-kubeconfig "$kc" \
    --bind-address 127.0.0.1 --secure-port "$PERFLAB_K8S_KCM_PORT" --leader-elect=false \
    --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt" \
    --use-service-account-credentials=false --controllers '*,-nodeipam,-cloud-node-lifecycle,-service-lb-controller,-node-route-controller' \
    --horizontal-pod-autoscaler-sync-period 5s
  _k8s_start kube-scheduler "$KUBE_SCHEDULER" \
    --kubeconfig "$kc" --authentication-kubeconfig "$kc" --authorization-kubeconfig "$kc" \
    --bind-address 127.0.0.1 --secure-port "$PERFLAB_K8S_SCHEDULER_PORT" --leader-elect=false

  if [ "$K8S_NODE" = real ]; then
    k8s_node_up || return 1
    _k8s_storage || return 1
    _k8s_wait "default ServiceAccount" 60 "$KUBECTL" --kubeconfig "$kc" -n default get serviceaccount default || return 1
    return 0
  fi

  # kwok's own stage definitions (node: initialize + heartbeat; pod: ready, complete, delete) ship in its Go module,
  # which building kwok already downloaded. The pod stages are kwok's `fast` set: a pod is Ready, a Job's pod done and
  # a deleted pod gone at once. The `general` set waits 1-6 s per step and a deleted pod's whole grace period, which
  # made each hook Job and each rollout on the fake node wait for nothing a fake node can show.
  local kwok_dir stages=() f
  kwok_dir="$(go_mod_field "sigs.k8s.io/kwok@$KWOK_VERSION" Dir)"
  for f in "$kwok_dir"/kustomize/stage/node/fast/node-initialize.yaml "$kwok_dir"/kustomize/stage/node/heartbeat/node-heartbeat.yaml \
    "$kwok_dir"/kustomize/stage/pod/fast/pod-*.yaml; do
    [ -f "$f" ] && stages+=(--config "$f")
  done
  [ ${#stages[@]} -ge 3 ] || { _k8s_log "kwok stages not found under $kwok_dir"; return 1; }
  # Only these files: an explicit --config also keeps a stray ~/.kwok/kwok.yaml out.
  _k8s_start kwok "$KWOK" --kubeconfig "$kc" "${stages[@]}" \
    --manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
    --server-address "127.0.0.1:$PERFLAB_K8S_KWOK_PORT" --cidr 10.244.0.0/24 --node-ip 10.0.0.1

  # The fake node (kwok's annotation), then storage (below).
  "$KUBECTL" --kubeconfig "$kc" apply -f - >/dev/null <<'EOF' || return 1
apiVersion: v1
kind: Node
metadata:
  name: kwok-node-0
  annotations: { kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0" }
  labels: { kubernetes.io/hostname: kwok-node-0, kubernetes.io/os: linux, kubernetes.io/arch: amd64, type: kwok }
spec: {}
status:
  allocatable: { cpu: "32", memory: 256Gi, pods: "110" }
  capacity: { cpu: "32", memory: 256Gi, pods: "110" }
EOF
  _k8s_storage || return 1
  _k8s_wait "kwok node Ready" 60 bash -c "'$KUBECTL' --kubeconfig '$kc' get node kwok-node-0 -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True" || return 1
  # The API server taints a new Node not-ready; the node-lifecycle controller lifts it once kwok reports Ready.
  _k8s_wait "kwok node schedulable" 60 bash -c "[ -z \"\$('$KUBECTL' --kubeconfig '$kc' get node kwok-node-0 -o jsonpath='{.spec.taints}')\" ]" || return 1
  _k8s_wait "default ServiceAccount" 60 "$KUBECTL" --kubeconfig "$kc" -n default get serviceaccount default || return 1
}

# A default StorageClass and PersistentVolumes for the stores' PVCs: there is no provisioner, so the
# controller-manager's binder binds these hostPath volumes. With kwok they are never written (nothing runs); on the
# real node they are directories under DIR/node/pv (mode 1777: the images' users differ).
_k8s_storage() {
  local kc="$K8S_CLUSTER_DIR/kubeconfig" i pv_dir="/nonexistent/perflab-" pv_type=""
  if [ "$K8S_NODE" = real ]; then
    pv_dir="$K8S_CLUSTER_DIR/node/pv/pv-"; pv_type=", type: DirectoryOrCreate"
    for i in 0 1 2 3 4 5; do mkdir -p "$pv_dir$i" && chmod 1777 "$pv_dir$i"; done
  fi
  "$KUBECTL" --kubeconfig "$kc" apply -f - >/dev/null <<'EOF' || return 1
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations: { storageclass.kubernetes.io/is-default-class: "true" }
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: Immediate
EOF
  for i in 0 1 2 3 4 5; do
    printf 'apiVersion: v1\nkind: PersistentVolume\nmetadata: { name: pv-%s }\nspec:\n  capacity: { storage: 20Gi }\n  accessModes: [ReadWriteOnce]\n  storageClassName: standard\n  persistentVolumeReclaimPolicy: Retain\n  hostPath: { path: %s%s%s }\n---\n' "$i" "$pv_dir" "$i" "$pv_type"
  done | "$KUBECTL" --kubeconfig "$kc" apply -f - >/dev/null
}

k8s_cluster_down() {
  local dir="${1:-$K8S_CLUSTER_DIR}" pid name end
  [ -n "$dir" ] && [ -f "$dir/pids" ] || return 0
  # the real node first (kubelet, pods, shims, mounts, bridge, iptables), while the API server still answers
  # (in an || list: a failed cleanup step never stops the rest, even under set -e)
  k8s_node_down "$dir" || true
  # one at a time, in reverse start order (kwok and the controllers first, etcd last): the API server drains
  # faster while etcd is still there. `wait` reaps our own children so none lingers as a zombie.
  tac "$dir/pids" | while read -r pid name; do
    kill "$pid" 2>/dev/null || continue
    end=$((SECONDS + 10))
    while kill -0 "$pid" 2>/dev/null && [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" != Z ] && [ $SECONDS -lt $end ]; do
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  done
  while read -r pid name; do wait "$pid" 2>/dev/null || true; done <"$dir/pids"
  : >"$dir/pids"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-}" in
    up) k8s_cluster_up "${2:?DIR}"; echo "export KUBECONFIG=$2/kubeconfig   # scripts/k8s/k8s-cluster.sh down $2 to stop"
        if [ "$K8S_NODE" = real ]; then echo "export PERFLAB_REGISTRY=$PERFLAB_REGISTRY K8S_NODE_HOST_IP=$K8S_NODE_HOST_IP"; fi ;;
    down) k8s_cluster_down "${2:?DIR}" ;;
    *) echo "usage: $0 up|down DIR" >&2; exit 2 ;;
  esac
fi
