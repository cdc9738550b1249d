# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of test-node.sh: its globals are set in one part and read in another
# the host stores as external ones with a user per client: Redis ACL users, MySQL users and grants (sourced by scripts/test/test-node.sh, which defines kube, helmc, WORK and the release)
# The host's Redis stands in for an external Redis with a user per client (stores.redis.external.aclUsers): each made
# with the rules the chart gives its own Redis (rendered from the chart, so what runs here is what the chart's Redis
# would hold), and each Redis client on the node logs in as its own user. `reset` first: a second run remakes them.
redis_users() {
  local rendered c line rules
  rendered="$(helmc template "$RELEASE" charts/perflab -n "$NS" "${NODE_VALUES[@]}" --set stores.redis.deploy=true \
    --show-only templates/statefulset.yaml)" || return 1
  local -a secret=(kube -n "$NS" create secret generic perflab-redis-auth) clients
  # the chart's Redis clients: its ACL users perflab_<client>
  read -ra clients <<<"$(grep -o 'user perflab_[a-z_]* on resetpass' <<<"$rendered" | awk '{ sub(/^perflab_/, "", $2); print $2 }' | xargs)"
  [ ${#clients[@]} -gt 0 ] || { echo "  no ACL user in the chart's Redis"; return 1; }
  for c in "${clients[@]}"; do
    line="$(grep -o "user perflab_$c on resetpass .*" <<<"$rendered")" || { echo "  no ACL user perflab_$c in the chart's Redis"; return 1; }
    rules="${line#* resetchannels }"
    local -a rule; read -ra rule <<<"$rules"   # read -a: no pathname expansion of ~keys:*
    redis-cli -p "$PERFLAB_REDIS_PORT" ACL SETUSER "perflab_$c" reset on ">node-$c" "${rule[@]}" >/dev/null || return 1
    secret+=(--from-literal="$c-password=node-$c")
  done
  "${secret[@]}" >/dev/null
}

# The host's MariaDB stands in for an external MySQL the chart administers (stores.mysql.external.adminSecret): the
# chart's database Job, on a MySQL client image made here (no MySQL image can be pulled), creates each service's
# database and user perflab_<service> with its password from the Secret, and each service logs in as its own user.
# The admin may create users and grant on the services' databases only; ALTER USER on every install: a second run
# sets the same passwords again.
mysql_users() {
  MYSQL_CLIENT_IMAGE="$(mysql_client_image_push)" || return 1
  mariadb --no-defaults --socket="$PERFLAB_RUN/mariadb.sock" -uroot -e "
    CREATE USER IF NOT EXISTS 'perflab_node_admin'@'127.0.0.1' IDENTIFIED BY 'node-admin';
    ALTER USER 'perflab_node_admin'@'127.0.0.1' IDENTIFIED BY 'node-admin';
    GRANT CREATE USER ON *.* TO 'perflab_node_admin'@'127.0.0.1';
    GRANT ALL PRIVILEGES ON \`perflab\\_%\`.* TO 'perflab_node_admin'@'127.0.0.1' WITH GRANT OPTION;" || return 1
  kube -n "$NS" create secret generic perflab-mysql-admin --from-literal=username=perflab_node_admin \
    --from-literal=password=node-admin >/dev/null || return 1
  local -a secret=(kube -n "$NS" create secret generic perflab-mysql-auth) c
  for c in "${PERFLAB_SERVICES[@]}"; do  # every service with a database (services/*/service.env)
    [ -z "$(service_conf "$c" databases)" ] || secret+=(--from-literal="$c-password=node-$c")
  done
  "${secret[@]}" >/dev/null
}
