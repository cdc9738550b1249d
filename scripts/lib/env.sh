# shellcheck shell=bash
# Sourced by every script: one place for ports, folders and pinned tool versions. Each is a setting (export it
# to override), because standard ports may be taken on a shared box.
PERFLAB_ROOT="${PERFLAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
export PERFLAB_ROOT
export PERFLAB_RUN="${PERFLAB_RUN:-$PERFLAB_ROOT/.run}"
export PERFLAB_CACHE="${PERFLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perflab}"

export PERFLAB_MYSQL_PORT="${PERFLAB_MYSQL_PORT:-13306}"
export PERFLAB_REDIS_PORT="${PERFLAB_REDIS_PORT:-16379}"
export PERFLAB_MONGO_PORT="${PERFLAB_MONGO_PORT:-17017}"
export PERFLAB_GATEWAY_PORT="${PERFLAB_GATEWAY_PORT:-8080}"
export PERFLAB_SMTP_PORT="${PERFLAB_SMTP_PORT:-13025}"
export PERFLAB_SMTP_API_PORT="${PERFLAB_SMTP_API_PORT:-18025}"
# the local SMS provider (tools/sms-sink): answers after PERFLAB_SMS_SINK_LATENCY_MS (seed 001's provider took 0.5 s)
export PERFLAB_SMS_SINK_PORT="${PERFLAB_SMS_SINK_PORT:-18086}"
export PERFLAB_SMS_SINK_LATENCY_MS="${PERFLAB_SMS_SINK_LATENCY_MS:-500}"
export PERFLAB_PROMETHEUS_PORT="${PERFLAB_PROMETHEUS_PORT:-19090}"

export PERFLAB_MONGO_URI="${PERFLAB_MONGO_URI:-mongodb://127.0.0.1:$PERFLAB_MONGO_PORT}"
export PERFLAB_JWT_ISSUER="${PERFLAB_JWT_ISSUER:-https://perflab.local/dev}"
export PERFLAB_JWT_DIR="${PERFLAB_JWT_DIR:-$PERFLAB_RUN/jwt}"
# service identity keys (scripts/lib/jwt.sh keys): <signer>.key signs X-Perflab-Identity tokens, <signer>.pem is trusted
export PERFLAB_IDENTITY_DIR="${PERFLAB_IDENTITY_DIR:-$PERFLAB_JWT_DIR/identity}"

# the routes the gateway reads at start, one file per service (the chart renders them from services.<key>.routes)
export PERFLAB_GATEWAY_ROUTES_DIR="${PERFLAB_GATEWAY_ROUTES_DIR:-$PERFLAB_ROOT/config/gateway/routes}"

# The services: every services/<name>/service.env (its fields are explained in services/shortener/service.env).
# From them: PERFLAB_SERVICES (the names), PERFLAB_<NAME>_PORT, the gateway's PERFLAB_GATEWAY_SERVICES_<NAME>, and
# each service's env lines; a setting exported before wins.
service_conf() { # name field: the field's value, the file sourced in a subshell so ${...} in it see these settings
  (
    # shellcheck disable=SC2034
    port="" databases="" smoke="" seed="" env="" stored="" capacity="" capacity_also="" capacity_target=""
    # shellcheck disable=SC1090
    source "$PERFLAB_ROOT/services/$1/service.env"
    printf '%s' "${!2}"
  )
}
service_var() { local n=${1^^}; echo "PERFLAB_${n//-/_}_$2"; }
PERFLAB_SERVICES=()
for _f in "$PERFLAB_ROOT"/services/*/service.env; do
  _n=$(basename "$(dirname "$_f")")
  PERFLAB_SERVICES+=("$_n")
  # the port is read, not sourced: the other fields may name any service's port
  _v=$(service_var "$_n" PORT); export "$_v=${!_v:-$(sed -n 's/^port=\([0-9]*\).*/\1/p' "$_f")}"
  _u=$(service_var gateway "SERVICES_${_n^^}"); export "$_u=${!_u:-http://127.0.0.1:${!_v}}"
done
for _n in "${PERFLAB_SERVICES[@]}"; do
  while IFS= read -r _line; do
    [ -n "$_line" ] || continue
    _v=${_line%%=*}; export "$_v=${!_v:-${_line#*=}}"
  done <<<"$(service_conf "$_n" env)"
done
unset _f _n _v _u _line

# the local SMTP relay: GreenMail standalone from Maven Central (SMTP + a REST API to count what arrived)
export GREENMAIL_VERSION="${GREENMAIL_VERSION:-2.1.8}"
export GREENMAIL_JAR="$PERFLAB_CACHE/jars/greenmail-standalone-$GREENMAIL_VERSION.jar"

# The load runner: Apache JMeter driven from Java (load-tests/), its jar from the project's Maven build. On a machine
# it shares with the system, no C2 compiler and no concurrent GC threads: about half the CPU of the JVM's defaults.
export PERFLAB_LOAD_JAR="${PERFLAB_LOAD_JAR:-$PERFLAB_ROOT/load-tests/target/load-tests.jar}"
export PERFLAB_LOAD_JVM_OPTS="${PERFLAB_LOAD_JVM_OPTS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms256m -Xmx1g}"
# shellcheck disable=SC2086
load_runner() { "$JAVA_HOME/bin/java" $PERFLAB_LOAD_JVM_OPTS -jar "$PERFLAB_LOAD_JAR" "$@"; }
export -f load_runner
# The load runner started paused on a control port of its own, so what goes with its load (a fault on a timer, a
# cgroup) begins with its schedule, not with the JVM's start (a second or two). runner_paused ARGS... (load_runner's
# arguments; its output goes where the call's does) returns once the run is set up and waiting, with RUNNER_PID (the
# background job, to wait for), RUNNER_JVM and RUNNER_CONTROL (host:port); status 1, the runner ended, if never ready.
# runner_start starts it.
runner_paused() {
  local end=$((SECONDS + 60))
  RUNNER_JVM="" RUNNER_CONTROL=""
  load_runner "$@" CONTROL=127.0.0.1:0 PAUSED=true &
  RUNNER_PID=$!
  while [ -z "$RUNNER_JVM" ] && kill -0 "$RUNNER_PID" 2>/dev/null && [ $SECONDS -lt $end ]; do
    RUNNER_JVM=$(pgrep -P "$RUNNER_PID" -x java | head -n 1) || sleep 0.2
  done
  [ -n "$RUNNER_JVM" ] && RUNNER_CONTROL=$(listen_address "$RUNNER_JVM") || { runner_gone; return 1; }
  until [ "$(curl -s --max-time 2 "http://$RUNNER_CONTROL/v1/status" | jq -r .state 2>/dev/null)" = paused ]; do
    kill -0 "$RUNNER_PID" 2>/dev/null && [ $SECONDS -lt $end ] || { runner_gone; return 1; }
    sleep 0.2
  done
}
runner_gone() { kill "$RUNNER_PID" 2>/dev/null; wait "$RUNNER_PID" 2>/dev/null; echo "the load runner was never ready to start" >&2; }
runner_start() { curl -fs -o /dev/null --max-time 5 -X POST "http://$RUNNER_CONTROL/v1/start" || { runner_gone; return 1; }; }
# the module's jar built when missing or older than its sources; a jar PERFLAB_LOAD_JAR names elsewhere is used as it is
load_runner_built() {
  [ "$PERFLAB_LOAD_JAR" != "$PERFLAB_ROOT/load-tests/target/load-tests.jar" ] || "$PERFLAB_ROOT/scripts/stack/stack.sh" jars load-tests >&2
}

# CPU time a process has spent (user + system, in clock ticks of `getconf CLK_TCK`); 0 for no pid or a process gone:
# the benches' CPU per request, the figure the noise of a shared machine disturbs least
cpu_ticks() { [ -n "$1" ] && awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# A server told to listen on 127.0.0.1:0 binds a free port itself (a port picked for it beforehand could be taken by
# another process first); this reads the address back from the kernel's socket table (iproute2's ss)
listen_address() {  # PID: prints 127.0.0.1:PORT once PID listens (up to 15 s); status 1 if it ends or never listens
  local a end=$((SECONDS + 15))
  while [ $SECONDS -lt $end ]; do
    a=$(ss -Hltnp | awk -v p="pid=$1," 'index($0, p) { print $4; exit }')
    [ -z "$a" ] || { echo "$a"; return 0; }
    kill -0 "$1" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}
# A run that ends once what it waits for has happened, not at its bound: a runner with a control endpoint (CONTROL;
# runner_paused gives one, a pod of the loadtest chart has one on port 6565), ended by `stop_runner ADDRESS`. The runner
# then ends the run as at its schedule's end, writes its summary and exits 103 (stopped), which the caller expects.
stop_runner() {  # ADDRESS: status 1 when the runner had already ended (or never listened)
  curl -fs -o /dev/null --max-time 5 -X POST "http://$1/v1/stop"
}
# the thresholds a run's summary says were crossed, one line; status 1 when any failed or none is there
thresholds_failed() {  # SUMMARY.json
  jq -r '[.metrics | to_entries[] | .key as $k | (.value.thresholds // {}) | to_entries[] | {name: "\($k) \(.key)", ok: .value.ok}]
    | if length == 0 then "no thresholds in the summary", halt_error(1)
      else ([.[] | select(.ok | not) | .name] | join(", ")) as $failed | $failed, (if $failed != "" then halt_error(1) else empty end)
      end' "$1" 2>/dev/null
}
# the verdict of a load run: 0 (ended at its bound, thresholds held) or 103
# after a stop it was asked for, with its summary's thresholds held; prints nothing when it passed, else why not
run_verdict() {  # RC STOPPED SUMMARY.json
  local failed
  if [ "$1" = 103 ] && [ -n "$2" ]; then
    failed=$(thresholds_failed "$3" 2>&1) || echo "thresholds failed: $failed"
  elif [ "$1" != 0 ]; then
    echo "exit $1"
  fi
}

# The JVM flags of the Helm chart, so local runs behave like pods (G1, fixed heap, container-aware CPU count).
export PERFLAB_JVM_OPTS="${PERFLAB_JVM_OPTS:--XX:+UseG1GC -Xms256m -Xmx1g -XX:+ExitOnOutOfMemoryError}"

JAVA_HOME="$("$PERFLAB_ROOT/scripts/lib/jdk.sh")" || exit 1
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"

# Actuator (probes, /actuator/prometheus) listens on a port of its own, never on the API port: 1000 above it
# (gateway 8080 -> 9080), for every instance a script starts; application.yaml states the same defaults.
mgmt_port() { echo $(($1 + 1000)); }

log() { printf '\033[1m[perflab]\033[0m %s\n' "$*" >&2; }

# await_ready PORT PID LOG [SECONDS, 120]: until the app on PORT answers ready on its management port (PORT + 1000);
# fails, naming LOG, as soon as PID (when not empty) has ended, or when the time ran out. The scripts' one readiness
# wait (the stack's wait_ready adds what the stack keeps: its pid files, a refused AOT cache dropped).
await_ready() {
  local end=$((SECONDS + ${4:-120}))
  until curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$(mgmt_port "$1")/actuator/health/readiness"; do
    if [ -n "$2" ] && ! kill -0 "$2" 2>/dev/null; then log "the app on :$1 ended before it was ready (see $3)"; return 1; fi
    [ $SECONDS -lt $end ] || { log "the app on :$1 not ready after ${4:-120} s (see $3)"; return 1; }
    sleep 0.2
  done
}

# Load a JVM until its JIT compiler has settled, before a bench measures it: the given load command (5 s of wrk) runs
# again and again until the compiler's time (jvm_compilation_time_ms_total, from the instance's actuator) grew less
# than 250 ms in each of two rounds in a row, or cap seconds passed. A fixed short warm-up would measure the compiler
# (docs/gateway-performance.md). Prints how long it took and whether it settled.
warm_jit() {  # management-port cap-seconds load-command...
  local port=$1 cap=$2 t0=$SECONDS quiet=0 before after
  shift 2
  before=$(jit_compile_ms "$port")
  while [ $((SECONDS - t0)) -lt "$cap" ]; do
    "$@" >/dev/null 2>&1 || true
    after=$(jit_compile_ms "$port")
    [ "$after" -gt 0 ] || { echo "compiler time not readable on :$port (warmed $((SECONDS - t0)) s only)"; return 0; }
    if [ $((after - before)) -lt 250 ]; then quiet=$((quiet + 1)); else quiet=0; fi
    before=$after
    [ "$quiet" -lt 2 ] || { echo "JIT settled after $((SECONDS - t0)) s of load (compiler ${after} ms in all)"; return 0; }
  done
  echo "JIT NOT settled within ${cap} s of load (compiler ${after:-?} ms in all)"
}
jit_compile_ms() {  # management-port: the JIT compiler's time so far, 0 when not readable
  { curl -fs "http://127.0.0.1:$1/actuator/prometheus" || true; } |
    awk '/^jvm_compilation_time_ms_total/ { n += $NF } END { printf "%d", n }'
}

# A Spring Boot jar to launch the way the images run it: extracted (`-Djarmode=tools extract`, once per build of the
# jar), its classes and libraries on a plain classpath, not inside the nested jar. Under load on virtual threads, the
# nested jar's class loading could deadlock: every carrier thread blocked in class loading on a lock whose holder,
# unmounted, waited for a carrier (seen: a shortener hung for good on its first requests after a start).
# Each build (the jar's mtime and size) gets a folder of its own, made whole under another name and renamed into
# place, so two instances started from one jar share it and a folder in use is never rewritten; the two newest are
# kept (a process runs from an older one only until its replacement, which starts after it stopped). Every file of
# it gets one fixed time, as Jib gives an image's: the JVM checks an AOT cache's jars by size and time, so a cache
# trained on one extraction maps on any other of the same classes (scripts/stack/stack.sh).
# Prints the jar to give `java -jar`.
launch_jar() {  # JAR
  local jar=$1 base="${1%.jar}.extracted" dir tmp
  dir="$base/$(stat -c '%Y-%s' "$jar")" || return 1
  if [ ! -f "$dir/$(basename "$jar")" ]; then
    mkdir -p "$base"
    tmp=$(mktemp -d "$base/.extracting.XXXXXX")
    java -Djarmode=tools -jar "$jar" extract --destination "$tmp/x" >/dev/null || { rm -rf "$tmp"; return 1; }
    find "$tmp/x" -type f -exec touch -d @1 {} +
    mv -T "$tmp/x" "$dir" 2>/dev/null || true   # another start won the race: the same build either way
    rm -rf "$tmp"
    # shellcheck disable=SC2012 # ls -t orders by age; the names are our own, no spaces
    ls -1dt "$base"/*/ | tail -n +3 | sed 's:/$::; p; s:$:.digest:' | xargs -r rm -rf
  fi
  echo "$dir/$(basename "$jar")"
}

# The scripts' one way to start an app (a Spring Boot jar of services/, gateway/ or bench/), the stack's, the
# seeders' and the benches' alike: launched as the images launch it (launch_jar), the local profile, on PORT with its
# actuator on PORT + 1000 (PORT -: no web server, a seeder), JAVA_TOOL_OPTIONS $PERFLAB_JVM_OPTS and the build's AOT
# cache (aot_opts NAME), then the caller's VAR=VALUE settings: a JAVA_TOOL_OPTIONS among them replaces the default,
# cache and all (a bench's own heap). Its readiness: await_ready PORT PID LOG. (The stores' own jars, mongo-wire,
# GreenMail and sms-sink, are plain Java programs, started as commands.)
# app_jvm NAME JAR PORT [VAR=VALUE...]: the command, into the array APP_JVM (the stack's `start` runs it under nohup)
app_jvm() {
  local name=$1 jar=$2 port=$3 launch v own_opts=""; shift 3
  launch="$(launch_jar "$jar")" || return 1
  for v in "$@"; do [[ $v != JAVA_TOOL_OPTIONS=* ]] || own_opts=1; done
  APP_JVM=(env SPRING_PROFILES_ACTIVE=local)
  [ "$port" = - ] || APP_JVM+=(SERVER_PORT="$port" MANAGEMENT_SERVER_PORT="$(mgmt_port "$port")")
  [ -n "$own_opts" ] || APP_JVM+=(JAVA_TOOL_OPTIONS="$PERFLAB_JVM_OPTS$(aot_opts "$name" "$launch")")
  APP_JVM+=("$@" java -jar "$launch")
}
# start_jvm [--append] NAME JAR PORT LOG [VAR=VALUE...] [-- ARGS...]: that command with the app's ARGS, in the
# background ($! is its JVM), its output to LOG (emptied first, unless --append: a revived instance's log follows its
# predecessor's)
start_jvm() {
  local append="" vars=() name jar port log
  [ "$1" != --append ] || { append=1; shift; }
  name=$1 jar=$2 port=$3 log=$4; shift 4
  while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
  [ $# -eq 0 ] || shift
  app_jvm "$name" "$jar" "$port" "${vars[@]}" || return 1
  [ -n "$append" ] || : >"$log"
  "${APP_JVM[@]}" "$@" >>"$log" 2>&1 &
}

# The JDK AOT cache of an app's launch jar (scripts/stack/stack.sh trains it, once per build): its path for this build, JVM
# and flags, there or not. Every JVM of the app started with $PERFLAB_JVM_OPTS from that launch jar maps it (the
# stack's, and the seeders' of scripts/stack/seed.sh).
AOT_LOCAL="$PERFLAB_CACHE/aot-local"
# shellcheck source=scripts/lib/aot-train.sh
source "$PERFLAB_ROOT/scripts/lib/aot-train.sh"
# aot_opts NAME LAUNCH-JAR: " -XX:AOTCache=<its build's cache>" to follow $PERFLAB_JVM_OPTS in JAVA_TOOL_OPTIONS when
# the stack's trainer made one for this build; otherwise nothing, and says so. The benches and seeders start their
# JVMs as the stack does, from the same launch jars and caches (a JVM with other flags may refuse a cache: it says so
# in its log and starts without it).
aot_opts() {
  [ "${AOT:-1}" != 0 ] || return 0
  local cache; cache="$(aot_cache "$1" "$2")" || return 0
  if [ -s "$cache" ]; then printf ' -XX:AOTCache=%s' "$cache"
  else log "$1: no AOT cache trained for this build yet (make up trains one beside the stack): starting without"; fi
}
aot_cache() { # name launch-jar
  local key dir digest
  # a build's extracted folder never changes (launch_jar): the digest of its classes is read once and kept beside
  # it (reading every jar's entries took seconds on a loaded machine, at every start and every trainer's look)
  dir="$(dirname "$2")" digest="$(dirname "$2").digest"
  if [ ! -s "$digest" ]; then
    python3 "$PERFLAB_ROOT/scripts/k8s/jib-app.py" --digest "$dir" >"$digest.$$" && mv "$digest.$$" "$digest" || return 1
  fi
  key="$({ echo "$AOT_TRAIN_RECIPE, jar times fixed"; cat "$digest"; java -version 2>&1; echo "$PERFLAB_JVM_OPTS"; } |
    sha256sum | cut -c1-16)"
  echo "$AOT_LOCAL/$1-$key.aot"
}
