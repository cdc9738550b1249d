# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of test-node.sh: its globals are set in one part and read in another
# the release on the node: its values, helm install and the wait, port-forwards, the pods' start-up (sourced by scripts/test/test-node.sh, which defines kube, helmc, WORK and the release)
# The release's values on this node: the host's stores at the node's bridge address, the images in its registry.
node_values() {
  local ip="$K8S_NODE_HOST_IP"
  # shellcheck disable=SC2054 # helm --set takes comma-separated key=value pairs
  # the quotas a load lab runs with (the chart's defaults are a real office's), as the local stack's
  NODE_VALUES=(-f charts/perflab/examples/load-lab-values.yaml -f charts/tests/real-node-values.yaml
    --set image.registry="$PERFLAB_REGISTRY" --set-file gateway.jwt.publicKey="$PERFLAB_JWT_DIR/public.pem"
    --set stores.mysql.external.host="$ip",stores.redis.external.host="$ip",stores.smtp.external.host="$ip"
    --set stores.redis.external.aclUsers=true,stores.redis.auth.existingSecret=perflab-redis-auth
    --set stores.mysql.external.adminSecret=perflab-mysql-admin
    --set stores.mongodb.external.uri="mongodb://$ip:$PERFLAB_MONGO_PORT"
    --set tests.image.repository="${BASE%:*}",tests.image.tag="${BASE##*:}" --set seed.mails="${MAILS:-20000}"
    --set services.notifier.env.PERFLAB_NOTIFIER_SMS_URL="http://$ip:$PERFLAB_SMS_SINK_PORT/sms"
    --set-json "services.notifier.egress=[{\"ports\":[{\"port\":$PERFLAB_SMS_SINK_PORT,\"protocol\":\"TCP\"}],\"to\":[{\"ipBlock\":{\"cidr\":\"$ip/32\"}}]}]"
    --set-json "networkPolicy.dnsTo=[{\"ipBlock\":{\"cidr\":\"$ip/32\"}}]")
  [ "${NODE_TEST:-all}" != headline ] || headline_values
}

install_wait() {
  kube create namespace "$NS" >/dev/null 2>&1
  node_values
  mysql_users || return 1
  redis_users || return 1
  local t0=$SECONDS
  helmc install "$RELEASE" charts/perflab -n "$NS" "${NODE_VALUES[@]}" \
    --set stores.mysql.image.repository="${MYSQL_CLIENT_IMAGE%:*}",stores.mysql.image.tag="${MYSQL_CLIENT_IMAGE##*:}" \
    --wait --timeout 6m >"$WORK/install.out" 2>&1 || { cat "$WORK/install.out"; pods_report; return 1; }
  echo "  installed and every pod Ready in $((SECONDS - t0)) s"
  pods_report
  local s; for s in gateway "${PERFLAB_SERVICES[@]}"; do started_in "$s"; done
  local want ready
  want="$(kube -n "$NS" get deploy -o jsonpath='{range .items[*]}{.spec.replicas}{"\n"}{end}' | awk '{s += $1} END {print s + 0}')"
  ready="$(kube -n "$NS" get pods -l app.kubernetes.io/component=service -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' | grep -c True)"
  [ "$want" -ge 7 ] && [ "$ready" -eq "$want" ] || { echo "  expected $want Ready service pods, got $ready"; return 1; }
  TOKEN="$(scripts/lib/jwt.sh token alice 1 3600)"
}

forward() {  # LOG PROBE_URL TARGET PORTS...: kubectl port-forward TARGET PORTS in the background, its pid in FORWARD_PID,
  # waited for until PROBE_URL answers at all (up to 30 s); status 1 with its log if it never does or ends
  kube -n "$NS" port-forward "$3" "${@:4}" >"$WORK/$1" 2>&1 &
  FORWARD_PID=$!
  local end=$((SECONDS + 30))
  until curl -s -o /dev/null "$2"; do
    [ $SECONDS -lt $end ] && kill -0 "$FORWARD_PID" 2>/dev/null || { kill "$FORWARD_PID" 2>/dev/null; cat "$WORK/$1"; return 1; }
    sleep 0.25
  done
}

PF_PID=""
port_forward() {  # the README's way in: kubectl port-forward to the gateway's Service (the gateway reaches the
  # services through their Services, so every call below also crosses kube-proxy and the cluster DNS)
  GW="http://127.0.0.1:$NODE_TEST_GATEWAY_PORT"
  forward port-forward.log "$GW/s/port-forward-probe" "svc/$RELEASE-gateway" "$NODE_TEST_GATEWAY_PORT:8080" || return 1
  PF_PID=$FORWARD_PID
  echo "  $GW -> svc/$RELEASE-gateway:8080"
}

pods_report() {  # per pod: node, image, container start to Ready (the JVM's start-up on this node), restarts
  kube -n "$NS" get pods -o json | jq -r '.items[] | (.status // {}) as $st | ($st.containerStatuses // [{}])[0] as $cs
    | $cs.state.running.startedAt as $started
    | [$st.conditions[]? | select(.type == "Ready" and .status == "True") | .lastTransitionTime][0] as $ready
    | [.metadata.name, $st.phase,
       (if $started and $ready then ($ready | fromdateiso8601) - ($started | fromdateiso8601) else "-" end),
       ($cs.restartCount // "-"), ($cs.image // "")] | @tsv' \
    | awk -F'\t' '{ printf "  %-34s %-8s start-to-ready %5s  restarts %s  %s\n", $1, $2, ($3 == "-" ? "  -  " : $3 " s"), $4, $5 }'
}
