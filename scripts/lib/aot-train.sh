# shellcheck shell=bash
# How an app's JDK AOT cache is trained (sourced by scripts/k8s/images.sh, scripts/stack/stack.sh and scripts/bench/bench-gateway.sh;
# they give the JVM, the class path and the app's settings).
#
# A training run's cache holds what the JVM saw in it. A context refresh that exits before anything starts
# (-Dspring.context.exit=onRefresh) gives the classes loaded and linked, and no method profiles; with traffic, JDK 25
# also records the profiles of the methods that ran (JEP 515), so the JIT of a later start compiles the hot paths
# without profiling them first. The gateway is trained with traffic: it starts in full on two free ports, with every
# service it routes to answered by a stand-in (the JDK's jwebserver on an empty folder: a 404 for every path, as the
# shortener answers the warm-up's unknown code), its own warm-up (WarmUp: the proxied path and the edge's refusal)
# sends AOT_TRAIN_REQUESTS requests before readiness, and once ready it is stopped (SIGTERM): the JVM writes the
# cache as it exits. The services are trained by the refresh alone (their hot paths need their stores).
AOT_TRAIN_REQUESTS="${AOT_TRAIN_REQUESTS:-30000}"
# shellcheck disable=SC2034 # used by scripts/lib/env.sh, which sources this file
AOT_TRAIN_RECIPE="training 3: the gateway with traffic ($AOT_TRAIN_REQUESTS warm-up requests), the services by refresh"

_aot_free_port() {  # FROM-TO: a port of that range nothing listens on (loopback), nor on its management port (+1000)
  local p
  for p in $(shuf -i "$1" -n 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || (exec 3<>"/dev/tcp/127.0.0.1/$((p + 1000))") 2>/dev/null \
      || { echo "$p"; return 0; }
  done
  return 1
}

# aot_train_app NAME CACHE LOG JAVA ARGS...: trains CACHE (written only when the training succeeded) by running
# `JAVA -XX:AOTCacheOutput=CACHE ARGS...` in the current directory, with the traffic above for the gateway.
aot_train_app() {
  local name=$1 cache=$2 log=$3 java; java="$(command -v "$4")" || return 1; shift 4
  if [ "$name" != gateway ]; then
    "$java" -XX:AOTCacheOutput="$cache" -Dspring.context.exit=onRefresh "$@" >"$log" 2>&1 && [ -s "$cache" ]
    return
  fi
  local http stand_in stand_in_pid pid rc=0 s
  # ranges apart: the gateway's two ports and the stand-in's can never be one port
  http="$(_aot_free_port 20000-27999)" && stand_in="$(_aot_free_port 29000-29999)" || return 1
  mkdir -p "$PWD/aot-stand-in"
  "$(dirname "$java")/jwebserver" -b 127.0.0.1 -p "$stand_in" -d "$PWD/aot-stand-in" >"$log.stand-in" 2>&1 &
  stand_in_pid=$!
  local -a services=()
  for s in "${PERFLAB_SERVICES[@]}"; do services+=("PERFLAB_GATEWAY_SERVICES_${s^^}=http://127.0.0.1:$stand_in"); done
  env "${services[@]}" SERVER_PORT="$http" MANAGEMENT_SERVER_PORT="$(mgmt_port "$http")" \
    PERFLAB_GATEWAY_WARMUP_REQUESTS="$AOT_TRAIN_REQUESTS" PERFLAB_GATEWAY_WARMUP_TIMELIMIT=120s \
    "$java" -XX:AOTCacheOutput="$cache" "$@" >"$log" 2>&1 &
  pid=$!
  await_ready "$http" "$pid" "$log" 240 || rc=1
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" || true
  kill "$stand_in_pid" 2>/dev/null; wait "$stand_in_pid" 2>/dev/null
  rm -rf "$PWD/aot-stand-in"
  [ $rc = 0 ] || { rm -f "$cache"; return 1; }
  [ -s "$cache" ]
}
