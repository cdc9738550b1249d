# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of test-node.sh: its globals are set in one part and read in another
# the release on the node: its values, helm install and the wait (sourced by scripts/test/test-node.sh, which defines kube, helmc, WORK and the release)
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
    --set stores.mysql.port="$PERFLAB_MYSQL_PORT",stores.redis.port="$PERFLAB_REDIS_PORT",stores.smtp.port="$PERFLAB_SMTP_PORT"
    --set stores.mongodb.port="$PERFLAB_MONGO_PORT"
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
  service_pods_ready || return 1
  TOKEN="$(scripts/lib/jwt.sh token alice 1 3600)"
}

