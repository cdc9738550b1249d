#!/usr/bin/env bash
# The local stack without Docker: real stores and the services as processes on 127.0.0.1.
#   stack.sh stores   start MariaDB, Redis, the MongoDB-wire server, the SMTP relay and the SMS sink (if not already up)
#   stack.sh up       stores + gateway + every service, then wait for readiness
#   stack.sh down     stop exactly what was started here, by recorded PID
#   stack.sh status   what runs
#   stack.sh stop NAME / start NAME...   one process / several, started together (the fault and load scripts
#                                      restart services with other settings)
#   stack.sh kill NAME                kill -9 one process (a crash) and wait until it is gone
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"

PIDS="$PERFLAB_RUN/pids"
LOGS="$PERFLAB_RUN/logs"
mkdir -p "$PIDS" "$LOGS"

# alive and not a zombie (a process killed outside its parent stays a zombie until someone reaps it)
alive() { kill -0 "$1" 2>/dev/null && [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" != Z ]; }
running() { [ -f "$PIDS/$1.pid" ] && alive "$(cat "$PIDS/$1.pid")"; }

wait_port() { # name port seconds
  local end=$((SECONDS + $3))
  until (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null; do
    running "$1" || { log "$1 died; last lines of $LOGS/$1.log:"; tail -n 30 "$LOGS/$1.log" >&2; exit 1; }
    [ $SECONDS -lt $end ] || { log "$1 not listening on $2 after $3 s"; exit 1; }
    sleep 0.3
  done
}

start() { # name command...
  local name=$1; shift
  if running "$name"; then return 0; fi
  nohup "$@" >"$LOGS/$name.log" 2>&1 &
  echo $! >"$PIDS/$name.pid"
}

mysql_root() { mariadb --no-defaults --socket="$PERFLAB_RUN/mariadb.sock" -uroot "$@"; }

start_mariadb() {
  local data="$PERFLAB_RUN/mariadb"
  if [ ! -d "$data/mysql" ]; then
    log "initialising MariaDB in $data"
    mariadb-install-db --no-defaults --datadir="$data" --user="$(id -un)" \
      --auth-root-authentication-method=socket >"$LOGS/mariadb-init.log" 2>&1
  fi
  # --version: MySQL Connector/J reads MariaDB's "5.5.5-" prefix as MySQL 5.5 and then drops fractional
  # seconds on write; a 5.7-looking version keeps microseconds (proved by MariaDbStandInTest).
  start mariadb mariadbd --no-defaults --datadir="$data" --user="$(id -un)" \
    --bind-address=127.0.0.1 --port="$PERFLAB_MYSQL_PORT" --socket="$PERFLAB_RUN/mariadb.sock" \
    --pid-file="$PERFLAB_RUN/mariadb.server.pid" --version=5.7.19-10.11.19-MariaDB \
    --skip-name-resolve --max-connections=600 --innodb-buffer-pool-size=512M \
    --innodb-flush-log-at-trx-commit=1 --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci
  wait_port mariadb "$PERFLAB_MYSQL_PORT" 60
  local db n dbs=(perflab_test)
  for n in "${PERFLAB_SERVICES[@]}"; do read -ra db <<<"$(service_conf "$n" databases)"; dbs+=("${db[@]}"); done
  for db in "${dbs[@]}"; do
    mysql_root -e "CREATE DATABASE IF NOT EXISTS $db; CREATE USER IF NOT EXISTS 'perflab'@'127.0.0.1' IDENTIFIED BY 'perflab';
      GRANT ALL ON \`perflab\\_%\`.* TO 'perflab'@'127.0.0.1';"
  done
}

start_redis() {
  mkdir -p "$PERFLAB_RUN/redis"
  # appendonly: a rate-limit window or a worker-id lease must survive a restart of the store.
  start redis redis-server --bind 127.0.0.1 --port "$PERFLAB_REDIS_PORT" --dir "$PERFLAB_RUN/redis" \
    --appendonly yes --appendfsync everysec --save "" --daemonize no --protected-mode yes
  wait_port redis "$PERFLAB_REDIS_PORT" 30
}

# a module's own jar: not Spring Boot's plain one, not a test or benchmark jar (a module may be named *-tests itself)
jar_of() {
  local j
  for j in "$PERFLAB_ROOT/$1"/target/*.jar; do
    case ${j##*/} in "${1##*/}.jar") ;; *-plain.jar | *original* | *-tests.jar | *-benchmarks.jar) continue ;; esac
    [ -f "$j" ] && echo "$j" && return
  done
}

# the module's folder and those of the project's modules it depends on (by artifactId, through theirs in turn)
module_dirs() {  # MODULE
  local want=("$1") seen=" " m d a
  while [ ${#want[@]} -gt 0 ]; do
    m=${want[0]}; want=("${want[@]:1}")
    case "$seen" in *" $m "*) continue ;; esac
    seen+="$m "; echo "$m"
    # shellcheck disable=SC2013 # module names are single words: one per word is one per line
    for d in $(sed -n 's:.*<module>\(.*\)</module>.*:\1:p' "$PERFLAB_ROOT/pom.xml"); do
      a=$(sed -n 's:^  <artifactId>\(.*\)</artifactId>.*:\1:p' "$PERFLAB_ROOT/$d/pom.xml" | head -n 1)
      [ "$d" = "$m" ] || ! grep -q "<artifactId>$a</artifactId>" "$PERFLAB_ROOT/$m/pom.xml" || want+=("$d")
    done
  done
}
# a module's jar is built when it is missing or older than the root POM or any main source or POM of the module and
# of the project's modules it depends on, so `make up` after an edit serves the edit (and an edit elsewhere, a load
# scenario or another service, rebuilds nothing it does not feed)
stale() {  # JAR MODULE
  [ -n "$1" ] || return 0
  [ "$PERFLAB_ROOT/pom.xml" -nt "$1" ] && return 0
  local dirs; mapfile -t dirs < <(module_dirs "$2")
  [ -n "$(cd "$PERFLAB_ROOT" && find "${dirs[@]}" \( -name node_modules -o -name target \) -prune -o \
    \( -path '*/src/main/*' -o -name pom.xml \) -newer "$1" -print -quit)" ]
}

build_jars() {
  local missing=0 m
  for m in "$@"; do stale "$(jar_of "$m")" "$m" && missing=1; done
  if [ "$missing" = 1 ]; then
    log "building $*"
    (cd "$PERFLAB_ROOT" && ./mvnw -q -B -DskipTests -pl "$(IFS=,; echo "$*")" -am package)
    # a jar Maven found up to date keeps its old time: mark each as built from today's sources
    for m in "$@"; do m="$(jar_of "$m")" && [ -z "$m" ] || touch "$m"; done
  fi
}

start_mongo() {
  build_jars tools/mongo-wire
  mkdir -p "$PERFLAB_RUN/mongo"
  mkdir -p "$PERFLAB_RUN/jars"
  cp "$(jar_of tools/mongo-wire)" "$PERFLAB_RUN/jars/mongo-wire.jar"
  start mongo-wire java -Xmx512m -jar "$PERFLAB_RUN/jars/mongo-wire.jar" --host 127.0.0.1 --port "$PERFLAB_MONGO_PORT" \
    --data "$PERFLAB_RUN/mongo/perflab.mv"
  wait_port mongo-wire "$PERFLAB_MONGO_PORT" 60
}

# GreenMail: a real SMTP server (any recipient accepted, kept in memory) whose REST API tells what arrived.
start_smtp() {
  start smtp java -Xmx512m -Dgreenmail.smtp.hostname=127.0.0.1 -Dgreenmail.smtp.port="$PERFLAB_SMTP_PORT" \
    -Dgreenmail.auth.disabled -Dgreenmail.api.hostname=127.0.0.1 -Dgreenmail.api.port="$PERFLAB_SMTP_API_PORT" \
    -jar "$GREENMAIL_JAR"
  wait_port smtp "$PERFLAB_SMTP_API_PORT" 60
  wait_port smtp "$PERFLAB_SMTP_PORT" 30
}

# The SMS provider of the project's own (tools/sms-sink): a real HTTP endpoint as slow as seed 001's provider,
# counting every delivery per message id (GET /count, /deliveries), so a lost or doubled SMS shows.
start_sms() {
  local jar="$PERFLAB_ROOT/tools/sms-sink/target/sms-sink-exec.jar"  # the runnable one, Jackson inside
  [ -f "$jar" ] || (cd "$PERFLAB_ROOT" && log "building tools/sms-sink" && ./mvnw -q -B -DskipTests -pl tools/sms-sink -am package)
  mkdir -p "$PERFLAB_RUN/jars"
  cp "$jar" "$PERFLAB_RUN/jars/sms-sink.jar"
  start sms-sink java -Xmx256m -jar "$PERFLAB_RUN/jars/sms-sink.jar" "$PERFLAB_SMS_SINK_PORT" \
    --latency-ms="$PERFLAB_SMS_SINK_LATENCY_MS" --failure-rate=0
  wait_port sms-sink "$PERFLAB_SMS_SINK_PORT" 30
}

stores() {
  "$PERFLAB_ROOT/scripts/stack/install.sh"
  start_mariadb
  start_redis
  start_mongo
  start_smtp
  start_sms
  log "stores up: MariaDB 127.0.0.1:$PERFLAB_MYSQL_PORT, Redis 127.0.0.1:$PERFLAB_REDIS_PORT, MongoDB-wire 127.0.0.1:$PERFLAB_MONGO_PORT, SMTP 127.0.0.1:$PERFLAB_SMTP_PORT (API :$PERFLAB_SMTP_API_PORT), SMS 127.0.0.1:$PERFLAB_SMS_SINK_PORT (${PERFLAB_SMS_SINK_LATENCY_MS} ms)"
}

# name:module:port, the gateway last (its warm-up calls the services); the services are scripts/lib/env.sh's list
APPS=()
for n in "${PERFLAB_SERVICES[@]}"; do v=$(service_var "$n" PORT); APPS+=("$n:services/$n:${!v}"); done
APPS+=("gateway:gateway:$PERFLAB_GATEWAY_PORT")

routes_digest() { cat "$PERFLAB_GATEWAY_ROUTES_DIR"/*.yaml | sha256sum | cut -c1-16; }

# the apps' AOT caches, trained beside the stack: aot_train_beside, aot_train_stop, aot_train_left, aot_train_report
# shellcheck source=scripts/stack/aot-beside.sh
source "$PERFLAB_ROOT/scripts/stack/aot-beside.sh"

# start_apps name:module:port...: every app that is not running its current build is stopped and all of them started
# before any is waited for (a JVM start is mostly one core's work), each from its build's AOT cache when there is one
start_apps() {
  local app n m p
  mkdir -p "$AOT_LOCAL"
  for app in "$@"; do
    IFS=: read -r n m p <<<"$app"
    prepare_app "$n" "$m" || continue
    app_jvm "$n" "$PERFLAB_RUN/jars/$n.jar" "$p" || { log "$n: its launch jar could not be extracted"; exit 1; }
    start "$n" "${APP_JVM[@]}"
  done
}

prepare_app() { # name module: false when it already runs its current build; else stopped, its jar copied
  local name=$1 module=$2
  if running "$name"; then
    # a running app stays, unless its module was built again since it started (make test after a change, make up
    # after a build) or, for the gateway, a routes file changed (it reads them once, at start): then the stack would
    # answer with the old code or the old routes
    if ! cmp -s "$(jar_of "$module")" "$PERFLAB_RUN/jars/$name.jar"; then
      log "$name runs an older build than $module/target: restarting it"
    elif [ "$name" = gateway ] && [ "$(routes_digest)" != "$(cat "$PIDS/gateway.routes" 2>/dev/null)" ]; then
      log "the gateway runs older routes than $PERFLAB_GATEWAY_ROUTES_DIR: restarting it"
    else
      return 1
    fi
    stop "$name"
  fi
  [ "$name" != gateway ] || routes_digest >"$PIDS/gateway.routes"
  # every service reads its identity keys at start ($PERFLAB_IDENTITY_DIR; made once, kept)
  "$PERFLAB_ROOT/scripts/lib/jwt.sh" keys
  # run a copy: a rebuild (mvnw package) must not pull the jar from under a running process
  mkdir -p "$PERFLAB_RUN/jars"
  cp "$(jar_of "$module")" "$PERFLAB_RUN/jars/$name.jar"
}

# Prometheus (Debian's package; its own service stays off): scrapes every app's management port with the labels the
# chart's ServiceMonitors give in the cluster (job = the Service's name, perflab_service = the service's key), and
# receives the load runs' metrics by remote write, so dashboards, alert rules and load reports read the same series
# locally as in-cluster. The config is written at every start: a service added to APPS is scraped.
# the load runner remote-writes request durations as native histograms (scripts/load/load.sh): the receiver and the feature are on
PROMETHEUS_FLAGS=(--storage.tsdb.retention.time=3d --web.listen-address="127.0.0.1:$PERFLAB_PROMETHEUS_PORT"
  --web.enable-remote-write-receiver --enable-feature=native-histograms)
start_prometheus() {
  local dir="$PERFLAB_RUN/prometheus" app n m p
  # one started by an earlier version with other flags is restarted with these (its data stays)
  if running prometheus && [ "$(cat "$dir/flags" 2>/dev/null)" != "${PROMETHEUS_FLAGS[*]}" ]; then
    log "prometheus: restarted with ${PROMETHEUS_FLAGS[*]}"
    stop prometheus
  fi
  mkdir -p "$dir/data"
  {
    echo "# written by scripts/stack/stack.sh"
    echo "global: { scrape_interval: 5s, evaluation_interval: 5s }"
    echo "scrape_configs:"
    for app in "${APPS[@]}"; do
      IFS=: read -r n m p <<<"$app"
      printf '  - job_name: perflab-%s\n    metrics_path: /actuator/prometheus\n    static_configs:\n' "$n"
      printf '      - targets: ["127.0.0.1:%s"]\n' "$(mgmt_port "$p")"
      printf '        labels: { namespace: perflab, service: perflab-%s, pod: perflab-%s-local, container: %s, endpoint: management, perflab_service: %s }\n' "$n" "$n" "$n" "$n"
    done
    # scrape jobs of others, one file each (scripts/test/test-node.sh: its kubelets' cAdvisor while its nodes run)
    for f in "$dir"/scrape-*.yml; do [ -f "$f" ] && cat "$f"; done
  } >"$dir/prometheus.yml.new"
  if running prometheus; then
    # a running Prometheus keeps its data; a changed service list is a reload, not a restart
    if ! cmp -s "$dir/prometheus.yml.new" "$dir/prometheus.yml"; then
      mv "$dir/prometheus.yml.new" "$dir/prometheus.yml"
      kill -HUP "$(cat "$PIDS/prometheus.pid")"
      log "prometheus: scrape config reloaded (the services changed)"
    fi
    rm -f "$dir/prometheus.yml.new"
    return 0
  fi
  mv "$dir/prometheus.yml.new" "$dir/prometheus.yml"
  start prometheus prometheus "${PROMETHEUS_FLAGS[@]}" --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data"
  echo "${PROMETHEUS_FLAGS[*]}" >"$dir/flags"
  wait_port prometheus "$PERFLAB_PROMETHEUS_PORT" 30
}

wait_ready() { # name port seconds: env.sh's await_ready on the app's pid, its log's last lines if it never is
  await_ready "$2" "$(cat "$PIDS/$1.pid")" "$LOGS/$1.log" "$3" || { tail -n 40 "$LOGS/$1.log" >&2; exit 1; }
  local refused
  refused="$(grep -m1 -o -- '-XX:AOTCache=[^ ]*' "$LOGS/$1.log" | cut -d= -f2 || true)"
  if [ -n "$refused" ] && grep -q 'Unable to map shared spaces' "$LOGS/$1.log"; then
    log "$1 started without its AOT cache: the JVM refused $refused (see $LOGS/$1.log); dropped, the next start trains one"
    rm -f "$refused"
  fi
}

up() {
  stores
  "$PERFLAB_ROOT/scripts/lib/jwt.sh" keys
  local app modules=()
  for app in "${APPS[@]}"; do modules+=("$(cut -d: -f2 <<<"$app")"); done
  build_jars "${modules[@]}"
  start_apps "${APPS[@]}"
  for app in "${APPS[@]}"; do IFS=: read -r n m p <<<"$app"; wait_ready "$n" "$p" 120; done
  [ "${AOT_TRAIN:-}" = later ] || aot_train_beside
  start_prometheus
  log "gateway    http://127.0.0.1:$PERFLAB_GATEWAY_PORT   (the only public entry point)"
  for app in "${APPS[@]}"; do
    IFS=: read -r n m p <<<"$app"
    [ "$n" = gateway ] || log "$(printf '%-10s' "$n") http://127.0.0.1:$(mgmt_port "$p")/actuator/health"
  done
  log "prometheus http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT   (every service scraped; load runs remote-write here)"
  log "smtp       127.0.0.1:$PERFLAB_SMTP_PORT, what arrived: http://127.0.0.1:$PERFLAB_SMTP_API_PORT/api/user"
  log "sms        127.0.0.1:$PERFLAB_SMS_SINK_PORT, what arrived: http://127.0.0.1:$PERFLAB_SMS_SINK_PORT/count"
  log "token      make token WHO=alice OFFICE=1"
}

stop() { # name
  local f="$PIDS/$1.pid" pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  if alive "$pid"; then
    kill "$pid"
    for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.1; done
    alive "$pid" && kill -9 "$pid"
    log "stopped $1 ($pid)"
  fi
  rm -f "$f"
}

down() {
  local app
  aot_train_stop
  stop prometheus
  for app in "${APPS[@]}"; do stop "$(cut -d: -f1 <<<"$app")"; done
  for s in sms-sink smtp mongo-wire redis mariadb; do stop "$s"; done
}

aot_status() {  # name: what the trainer has left, after its line in `status`
  local left
  [ "$1" = aot-train ] && left=$(aot_train_left) || return 0
  printf ': training AOT caches beside the stack, %s left, about %s s (figures measured now include it)' "${left% *}" "${left##* }"
}
status() {
  local f
  for f in "$PIDS"/*.pid; do
    [ -e "$f" ] || continue
    local n; n=$(basename "$f" .pid)
    if running "$n"; then echo "$n running (pid $(cat "$f"))$(aot_status "$n")"; else echo "$n not running"; fi
  done
}

case "${1:-}" in
  stores) stores ;;
  prometheus) start_prometheus ;;
  start) # NAME...: all of them started before any is waited for (a JVM start is mostly one core's work)
    shift
    picked=()
    for app in "${APPS[@]}"; do
      IFS=: read -r n m p <<<"$app"
      for want in "$@"; do [ "$n" != "$want" ] || picked+=("$app"); done
    done
    mods=(); for app in "${picked[@]}"; do mods+=("$(cut -d: -f2 <<<"$app")"); done
    [ ${#mods[@]} -eq 0 ] || build_jars "${mods[@]}"
    [ ${#picked[@]} -eq 0 ] || start_apps "${picked[@]}"
    for app in "${picked[@]}"; do IFS=: read -r n m p <<<"$app"; wait_ready "$n" "$p" 120; done
    [ "${AOT_TRAIN:-}" = later ] || aot_train_beside ;;
  aot-train) # [stop]: the trainer started beside (it returns at once), or stopped
    if [ "${2:-}" = stop ]; then aot_train_stop; else aot_train_beside; fi ;;
  aot-train-now) # name:launch-jar:cache...: the trainer itself (aot_train_beside)
    shift
    printf 'apps %s\n' "$(for app in "$@"; do printf '%s ' "${app%%:*}"; done)" >"$AOT_STATE"
    for app in "$@"; do
      IFS=: read -r n launch cache <<<"$app"
      [ -s "$cache" ] && continue
      sed -i '/^now /d' "$AOT_STATE"; echo "now $n $(date +%s)" >>"$AOT_STATE"
      aot_train "$n" "$launch" "$cache"
    done
    rm -f "$AOT_STATE" ;;
  aot-train-report) aot_train_report ;;
  stop) stop "$2" ;;
  kill) # kill -9, as a crash would, and wait until the process is gone
    if running "$2"; then
      kill -9 "$(cat "$PIDS/$2.pid")"
      for _ in $(seq 1 100); do running "$2" || break; sleep 0.1; done
      log "killed $2 (kill -9)"
    fi
    rm -f "$PIDS/$2.pid" ;;
  jars) shift; build_jars "$@" ;;  # MODULE...: each module's jar built when missing or older than its sources
  up) up ;;
  down) down ;;
  status) status ;;
  *) echo "usage: $0 stores|prometheus|up|down|status|start NAME|stop NAME|kill NAME|aot-train [stop]|aot-train-report" >&2; exit 2 ;;
esac
