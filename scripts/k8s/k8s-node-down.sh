# shellcheck shell=bash
# The real node's teardown (sourced by scripts/k8s/k8s-node.sh, which sets its variables): k8s_node_down and what it
# undoes on the host.

_k8s_node_stop_pid() {  # PID: TERM, up to 10 s, then KILL (reaping our own children)
  local pid="$1" end=$((SECONDS + 10))
  kill "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null && [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" != Z ] && [ $SECONDS -lt $end ]; do
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

_k8s_node_cgroup_pids() {  # every process in a pod cgroup of this node (and of the load node)
  local h
  for h in /sys/fs/cgroup/*"$K8S_NODE_CGROUP_ROOT" /sys/fs/cgroup/unified"$K8S_NODE_CGROUP_ROOT" \
      /sys/fs/cgroup/*"$K8S_LOAD_NODE_CGROUP_ROOT" /sys/fs/cgroup/unified"$K8S_LOAD_NODE_CGROUP_ROOT"; do
    if [ -d "$h" ]; then find "$h" -name cgroup.procs -exec cat {} + 2>/dev/null; fi
  done | sort -un
}

# Processes of the node in DIR found by their command line (a run that died before k8s_node_down left them running
# and maybe lost DIR/node/pids): pattern per kind, printed as pids.
_k8s_node_orphans() {  # DIR kubelet|rest [host]: with host, also the socat forwarders of $K8S_NODE_HOST_IP
  local dir="$1" kind="$2" p cmd
  [ "${3:-}" = host ] && kind="$kind+host"
  for p in /proc/[0-9]*; do
    cmd="$({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null)" || continue
    case "$kind:$cmd" in
      kubelet:*" --config $dir/node/kubelet.yaml "*|kubelet:*" --config $dir/node/kube-proxy.yaml "*) echo "${p#/proc/}" ;;
      kubelet:*" --config $dir/node/load/kubelet.yaml "*) echo "${p#/proc/}" ;;
      rest*:*" --config $dir/node/containerd/config.toml "*|rest*:*" -conf $dir/node/Corefile "*) echo "${p#/proc/}" ;;
      rest*:*" --config $dir/node/load/containerd/config.toml "*) echo "${p#/proc/}" ;;
      rest*:*/kube-router-*" --kubeconfig $dir/kubeconfig "*) echo "${p#/proc/}" ;;
      rest*:*" registry serve "*" --disk ${PERFLAB_REGISTRY_DIR:-$dir/registry} "*) echo "${p#/proc/}" ;;
      rest+host:socat\ "TCP-LISTEN:"*",bind=$K8S_NODE_HOST_IP,"*) echo "${p#/proc/}" ;;
    esac
  done
}

# k8s_node_down DIR: stops the node's processes (kubelet first, so nothing restarts), kills every pod process and
# containerd shim of this node, unmounts what kubelet/containerd mounted under DIR/node, removes the pod cgroups,
# the bridge, kube-proxy's, the kubelet's and this file's iptables rules, and restores the sysctls it and the kubelet
# changed (ip_forward; vm.overcommit_memory, kernel.panic, kernel.panic_on_oops, kernel.keys.*).
# Safe to call twice, and on the DIR of a run that died (even if DIR itself is gone). What is host-wide (pod cgroups,
# bridge, iptables, sysctls, /var/lib leftovers) is only touched while $K8S_NODE_LOCK names DIR: a DIR whose node
# was never up (only k8s_registry_up) or was already cleaned up never disturbs the node that is up now.
k8s_node_down() {
  local dir="${1:-$K8S_CLUSTER_DIR}" n pid name sock p mine=""
  [ -n "$dir" ] || return 0
  n="$dir/node"
  [ "$(cat "$K8S_NODE_LOCK" 2>/dev/null)" = "$dir" ] && mine=host
  [ -d "$n" ] || [ -n "$mine" ] || return 0
  sock="$n/containerd/containerd.sock"
  # kubelet and kube-proxy first, then the pods, then the rest (containerd last: its shims are handled below)
  if [ -s "$n/pids" ]; then
    for name in kubelet kubelet-load kube-proxy kube-router; do
      awk -v n="$name" '$2==n{print $1}' "$n/pids" | while read -r pid; do _k8s_node_stop_pid "$pid"; done
    done
  fi
  for pid in $(_k8s_node_orphans "$dir" kubelet); do _k8s_node_stop_pid "$pid"; done
  # every process of every pod (cgroupfs under $K8S_NODE_CGROUP_ROOT), until none is left
  [ -n "$mine" ] && for _ in $(seq 1 50); do
    p="$(_k8s_node_cgroup_pids)"
    [ -z "$p" ] && break
    # shellcheck disable=SC2086
    kill -9 $p 2>/dev/null || true
    sleep 0.2
  done
  if [ -s "$n/pids" ]; then
    tac "$n/pids" | while read -r pid name; do
      case "$name" in kubelet|kubelet-load|kube-proxy|kube-router) ;; *) _k8s_node_stop_pid "$pid" ;; esac
    done
  fi
  for pid in $(_k8s_node_orphans "$dir" rest $mine); do _k8s_node_stop_pid "$pid"; done
  # containerd-shim-runc-v2 processes of this containerd (found by their -address argument) and, for the node
  # that is up, socat's forked children (open connections), ended by pid
  local sweep="-address ($sock|$n/load/containerd/containerd.sock) "
  [ -n "$mine" ] && sweep="$sweep|^socat TCP-LISTEN:[0-9]+,bind=$K8S_NODE_HOST_IP,"
  for p in /proc/[0-9]*; do
    { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -qE -- "$sweep" || continue
    kill -9 "${p#/proc/}" 2>/dev/null || true
  done
  # mounts under DIR/node (pod volumes, rootfs overlays, sandbox shm, netns), deepest first
  local m
  for _ in 1 2 3; do
    m="$(awk -v d="$n/" 'index($2, d) == 1 {print $2}' /proc/self/mounts | awk '{print length, $0}' | sort -rn | cut -d' ' -f2-)"
    [ -z "$m" ] && break
    while read -r p; do umount "$p" 2>/dev/null || umount -l "$p" 2>/dev/null || true; done <<<"$m"
  done
  [ -n "$mine" ] && _k8s_node_down_host "$dir"
  # reap our own children (the stops above ran in subshells)
  [ -s "$n/pids" ] && while read -r pid name; do wait "$pid" 2>/dev/null || true; done <"$n/pids"
  if [ -d "$n" ]; then : >"$n/pids"; : >"$n/sysctl.saved"; fi
  [ -n "$mine" ] && rm -f "$K8S_NODE_LOCK"
  return 0
}

# kube-router's rules and sets (after it stopped): the jumps into its chains, its chains (KUBE-ROUTER-*, policy and
# pod chains) and its policies' ipsets. Its own --cleanup-config would also undo the router and proxy that never ran.
_k8s_node_policy_down() {
  local c n
  for c in INPUT FORWARD OUTPUT; do
    for n in $(iptables -w -L "$c" -n --line-numbers 2>/dev/null | awk '$2 ~ /^KUBE-ROUTER-/ {print $1}' | sort -rn); do
      iptables -w -D "$c" "$n" 2>/dev/null
    done
  done
  local chains; chains="$(iptables -w -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^KUBE-(ROUTER-|NWPLCY-|POD-FW-)/ {print $2}')"
  for c in $chains; do iptables -w -F "$c" 2>/dev/null; done
  for c in $chains; do iptables -w -X "$c" 2>/dev/null; done
  command -v ipset >/dev/null || return 0
  for c in $(ipset list -n 2>/dev/null | grep -E '^KUBE-(SRC|DST)-'); do ipset destroy "$c" 2>/dev/null; done
  return 0
}

# The host-wide part of k8s_node_down DIR (only for the node $K8S_NODE_LOCK names).
_k8s_node_down_host() {
  local dir="$1" n="$1/node" p c name
  # pod cgroups, deepest first, in every hierarchy
  for p in /sys/fs/cgroup/*"$K8S_NODE_CGROUP_ROOT" /sys/fs/cgroup/unified"$K8S_NODE_CGROUP_ROOT" \
      /sys/fs/cgroup/*"$K8S_LOAD_NODE_CGROUP_ROOT" /sys/fs/cgroup/unified"$K8S_LOAD_NODE_CGROUP_ROOT"; do
    [ -d "$p" ] && find "$p" -depth -type d -exec rmdir {} \; 2>/dev/null
  done
  # the bridge (veths of dead netns go with them; any left over are deleted first)
  local br="$K8S_NODE_BRIDGE"
  [ -f "$n/bridge" ] && br="$(cat "$n/bridge")"
  if ip link show "$br" >/dev/null 2>&1; then
    for p in $(ip -o link show master "$br" 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1); do ip link del "$p" 2>/dev/null; done
    ip link del "$br" 2>/dev/null || true
  fi
  rm -f "$n/bridge"
  br="$K8S_LOAD_NODE_BRIDGE"
  [ -f "$n/load/bridge" ] && br="$(cat "$n/load/bridge")"
  if ip link show "$br" >/dev/null 2>&1; then
    for p in $(ip -o link show master "$br" 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1); do ip link del "$p" 2>/dev/null; done
    ip link del "$br" 2>/dev/null || true
  fi
  rm -f "$n/load/bridge"
  # kube-proxy's chains (its own --cleanup: every KUBE-SERVICES/NODEPORTS/... chain of the host) and ours
  if [ -x "$KUBE_PROXY" ]; then
    "$KUBE_PROXY" --cleanup >"$dir/kube-proxy-cleanup.log" 2>&1 || "$KUBE_PROXY" --cleanup >/dev/null 2>&1 || true
  fi
  local chain="$_K8S_NODE_FWD_CHAIN" t
  for t in filter mangle; do
    while iptables -w -t $t -D FORWARD -j "$chain" 2>/dev/null; do :; done
    iptables -w -t $t -F "$chain" 2>/dev/null && iptables -w -t $t -X "$chain" 2>/dev/null
  done
  _k8s_node_policy_down
  # the kubelet's own chains (KUBE-FIREWALL's localnet rule, its canaries), in both families
  local ipt t c
  for ipt in iptables ip6tables; do
    command -v "$ipt" >/dev/null || continue
    for c in INPUT OUTPUT; do while "$ipt" -w -D "$c" -j KUBE-FIREWALL 2>/dev/null; do :; done; done
    for t in filter nat mangle; do
      for c in KUBE-FIREWALL KUBE-KUBELET-CANARY KUBE-IPTABLES-HINT; do
        "$ipt" -w -t "$t" -F "$c" 2>/dev/null && "$ipt" -w -t "$t" -X "$c" 2>/dev/null
      done
    done
  done
  # what the kubelet and libcni keep outside DIR whatever their settings: the device-plugin socket, the CNI result
  # cache of this node's network and the loopback results of the same sandboxes
  rm -f /var/lib/kubelet/device-plugins/kubelet.sock
  rmdir /var/lib/kubelet/device-plugins /var/lib/kubelet 2>/dev/null
  for p in /var/lib/cni/results/"$K8S_NODE_CNI_NETWORK"-*-eth0; do
    [ -e "$p" ] || continue
    c="${p#/var/lib/cni/results/"$K8S_NODE_CNI_NETWORK"-}"; c="${c%-eth0}"
    rm -f "$p" "/var/lib/cni/results/cni-loopback-$c-lo"
  done
  rmdir /var/lib/cni/results /var/lib/cni 2>/dev/null
  # sysctls back as they were (reverse order)
  if [ -s "$n/sysctl.saved" ]; then
    tac "$n/sysctl.saved" | while read -r name p; do echo "$p" >"/proc/sys/${name//.//}" 2>/dev/null || true; done
  fi
  return 0
}
