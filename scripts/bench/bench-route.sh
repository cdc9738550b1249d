#!/usr/bin/env bash
# Seed 002 side by side in one run: 1,000 concurrent readers of one 20k-point route (on loopback, bounded), each
# target on its own JVM (-Xmx1g G1) or nginx, measured one after the other:
#   nginx      the same gzipped bytes from a file: the physical reference (this box, these load generators)
#   fixed      points-fetch=jdbc-stream with the body cache (the defaults)
#   gateway    the same fixed instance through the gateway (bearer token checked, identity signed; rate limit lifted)
#   gatewaynocache  the same, the gateway's revalidated body cache off (every read carries the body over both hops)
#   fixed100   the readers spread over 100 seeded routes of 15-20k points (10 each), straight at the fixed instance:
#              no target reads them before, so the wave finds route's cache cold
#   gateway100 the same over 100 other seeded routes, through the gateway (body cache on): route's and the gateway's
#              caches cold
#   stream     points-fetch=jdbc-stream, body cache off: every read streams from MySQL
#   seed       points-fetch=interface-projection, body cache off: seed 002's start
# Per target two rows, each offered by the tool that has that load:
#   wave       VUS users, one request each, started at once (the seed's JMeter plan): the load runner's
#              route-readers, MODE=wave (load-tests/), JMeter as the seed's own plan was. Neither wrk (every
#              connection reads again and again for a duration) nor fortio (a rate, and a request on each connection
#              before its clock starts) sends one request per user. JMeter starts a group's threads one after
#              another, so against a fast target the first readers are answered before the last start: in_flight
#              (the most readers in flight at once) says how much of a wave the target met.
#   sustained  VUS readers reading back to back for SECONDS, a closed loop of VUS connections: wrk (-t2, a 60 s
#              timeout, as the readers had), the lightest generator on the two cores it shares with the targets; a Lua
#              script reads the 100 routes of fixed100 and gateway100 in turn and reports the p95. wrk stops at
#              SECONDS and counts no read still in flight then: a target slower than that shows it as a max near
#              SECONDS, its tail cut.
# Per JVM, its GC and its old generation sampled every 2 s over both rows, and the target's accept queue peak. Needs
# the stores (scripts/stack/stack.sh stores); the first run seeds the 100 routes (about a minute), later runs reuse them.
# Usage: scripts/bench/bench-route.sh [seconds of each sustained run, default 20]  (VUS=1000 by default)
#   TARGETS="fixed gateway"   only these targets (default: all eight)
#   MODES=wave                only these runs of each target (default: "wave sustained")
#   WARMUP=240                at most this many seconds of JIT warm-up (wrk, 16 connections) of the fixed instance
#                             and each gateway: each is read until its compiler settled (warm_jit in env.sh)
#   PERFLAB_BENCH_GATEWAY_JAR=path  the gateway jar to run (default gateway/target/gateway.jar), e.g. an earlier build
#   PERFLAB_BENCH_JFR=1       a JFR recording of each JVM target during its rows, and its hot methods
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
# shellcheck source=scripts/bench/bench-tools.sh
source "$(dirname "$0")/bench-tools.sh"
cd "$PERFLAB_ROOT"
bench_tools wrk nginx
secs=${1:-20}; vus=${VUS:-1000}
out="$PERFLAB_RUN/bench/route"; mkdir -p "$out"
bench_runner "$out"   # the waves' generator
[ -f services/route/target/route.jar ] || ./mvnw -q -B -pl services/route -am package -DskipTests
# run a copy: a rebuild must not pull the jar from under the running instances
cp services/route/target/route.jar "$out/route.jar"
ulimit -n 65536 2>/dev/null || true

# Readers call the instances directly, as the gateway would: a user identity signed with the dev gateway key
identity=$(scripts/lib/jwt.sh identity perflab-gateway bench 1 route 3600)

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
start_route() { # port name extra-args...
  local port=$1 name=$2; shift 2
  start_jvm route "$out/route.jar" "$port" "$out/route-$name.log" \
    JAVA_TOOL_OPTIONS="-XX:+UseG1GC -Xms1g -Xmx1g -XX:+ExitOnOutOfMemoryError" -- --logging.structured.format.console= "$@"
  pids+=($!)
  await_ready "$port" "${pids[-1]}" "$out/route-$name.log" || exit 1
}
start_route 18301 fixed
start_route 18302 stream --perflab.route.body-cache.max-size=0
start_route 18303 seed --perflab.route.points-fetch=interface-projection --perflab.route.body-cache.max-size=0
# the gateway in front of the fixed instance (the chart's heap and direct-memory cap), its per-caller limit lifted: one
# bench user is 1,000 readers; twice, with and without its edge body cache (RevalidatedBodyCache)
[ -n "${PERFLAB_BENCH_GATEWAY_JAR:-}" ] || [ -f gateway/target/gateway.jar ] || ./mvnw -q -B -pl gateway -am package -DskipTests
cp "${PERFLAB_BENCH_GATEWAY_JAR:-gateway/target/gateway.jar}" "$out/gateway.jar"
start_gateway() { # port name extra-args...
  local port=$1 name=$2; shift 2
  start_jvm gateway "$out/gateway.jar" "$port" "$out/$name.log" PERFLAB_GATEWAY_SERVICES_ROUTE=http://127.0.0.1:18301 \
    JAVA_TOOL_OPTIONS="-XX:+UseG1GC -Xms1g -Xmx1g -XX:MaxDirectMemorySize=128m -XX:+ExitOnOutOfMemoryError" \
    -- --perflab.identity.signing-key="file:$PERFLAB_IDENTITY_DIR/gateway.key" \
    --perflab.gateway.rate-limit.replenish-rate=1000000 --perflab.gateway.rate-limit.burst-capacity=1000000 \
    --logging.structured.format.console= "$@"
  pids+=($!)
  await_ready "$port" "${pids[-1]}" "$out/$name.log" || exit 1
}
start_gateway 18304 gateway
start_gateway 18305 gateway-nocache --perflab.gateway.body-cache.enabled=false
token=$(scripts/lib/jwt.sh token bench 1 3600)

# one route of exactly 20,000 points, created once and reused by later runs
sql() { mariadb --no-defaults --socket="$PERFLAB_RUN/mariadb.sock" -uroot perflab_route -N -e "$1"; }
route=$(sql "SELECT MIN(id) FROM route WHERE office = '1' AND created_by = 'bench' AND point_count = 20000")
if [ "$route" = NULL ] || [ -z "$route" ]; then
  scripts/bench/route-20k.py >"$out/route.json"
  route=$(curl -fsS -XPOST "http://127.0.0.1:18301/v1/routes" -H "X-Perflab-Identity: $identity" \
    -H 'Content-Type: application/json' --data-binary @"$out/route.json" | jq -r .id)
fi
# 200 routes of the seeder (office 1, 15-20k points each), added by the seeder itself when fewer are there: the first
# 100 for fixed100, the next 100 for gateway100 (route's cache must be cold for each)
if [[ " ${TARGETS:-fixed100} " == *" fixed100 "* || " ${TARGETS:-gateway100} " == *" gateway100 "* ]]; then
  if [ "$(sql "SELECT COUNT(*) FROM route WHERE office = '1' AND created_by = 'seed'")" -lt 200 ]; then
    echo "seeding 200 routes for fixed100 and gateway100 (once)"
    start_jvm route "$out/route.jar" - "$out/seed.log" -- --spring.main.web-application-type=none \
      --perflab.route.seed.routes=200 --logging.structured.format.console=
    wait $! || { echo "the seeder failed, see $out/seed.log"; exit 1; }
  fi
  seeded() { sql "SET SESSION group_concat_max_len = 65536; SELECT GROUP_CONCAT(id ORDER BY id) FROM (SELECT id FROM route WHERE office = '1' AND created_by = 'seed' ORDER BY id LIMIT 100 OFFSET $1) r"; }
  routes100a=$(seeded 0); routes100=$(seeded 100)
fi
curl -fsS "http://127.0.0.1:18301/v1/routes/$route/points" -H "X-Perflab-Identity: $identity" -H 'Accept-Encoding: gzip' \
  -o "$out/points.json.gz"
plain=$(gzip -dc "$out/points.json.gz" | wc -c); gz=$(wc -c <"$out/points.json.gz")
cat >"$out/nginx.conf" <<CONF
worker_processes 1; daemon off; pid $out/nginx.pid; error_log $out/nginx.err warn;
events { worker_connections 4096; }
http { access_log off; sendfile on; server { listen 127.0.0.1:18300;
  location = /points { default_type application/json; add_header Content-Encoding gzip; alias $out/points.json.gz; } } }
CONF
/usr/sbin/nginx -c "$out/nginx.conf" -p "$out" & pids+=($!)
sleep 1

# JIT warm-up of each instance (a fresh JVM would otherwise measure its compiler); the seed's 27 s were warm too.
# The fixed instance and the gateways: read (wrk, 16 connections, the one route only: gateway100's stay cold) until
# their compiler settled (warm_jit, at most WARMUP seconds, 240). A fixed 12 s measured the gateway's compiler: its
# hits went 1,160 -> 4,380 reads/s over the next 140 s of load. The baselines keep 4 s: their figures are their
# design's, and 16 whole-list reads at once for longer risk the interface-projection instance's heap before its rows.
warm() { # port seconds header
  wrk -t1 -c16 -d"$2"s -H "$3" -H 'Accept-Encoding: gzip' "http://127.0.0.1:$1/v1/routes/$route/points" >/dev/null 2>&1 || true
}
warm_until_settled() { # port header
  echo "  :$1 $(warm_jit "$(mgmt_port "$1")" "${WARMUP:-240}" wrk -t1 -c16 -d5s -H "$2" -H 'Accept-Encoding: gzip' \
    "http://127.0.0.1:$1/v1/routes/$route/points")"
}
echo "warm-up (JIT): route :18301, gateways :18304 (body cache) and :18305 (cache off); baselines 4 s each"
wants() { [[ " ${TARGETS:-nginx fixed fixed100 gateway gateway100 gatewaynocache stream seed} " == *" $1 "* ]]; }
if wants fixed || wants fixed100 || wants gateway || wants gateway100 || wants gatewaynocache; then
  warm_until_settled 18301 "X-Perflab-Identity: $identity"
fi
! wants stream || warm 18302 4 "X-Perflab-Identity: $identity"
! wants seed || warm 18303 4 "X-Perflab-Identity: $identity"
! { wants gateway || wants gateway100; } || warm_until_settled 18304 "Authorization: Bearer $token"
! wants gatewaynocache || warm_until_settled 18305 "Authorization: Bearer $token"

# wrk's sustained readers: each request reads the next of the paths given after `--`, round robin (one path: always
# that one); done() prints wrk's figures as one JSON line (wrk prints no p95 of its own)
cat >"$out/readers.lua" <<'LUA'
local requests, i = {}, 0
function init(args)
  for _, path in ipairs(args) do requests[#requests + 1] = wrk.format(nil, path) end
end
function request()
  i = i % #requests + 1
  return requests[i]
end
function done(summary, latency)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,' ..
    '"timeout":%d,"p50_us":%d,"p95_us":%d,"mean_us":%.0f,"max_us":%d}\n', summary.requests, summary.duration,
    e.connect, e.read, e.write, e.status, e.timeout, latency:percentile(50), latency:percentile(95), latency.mean,
    latency.max))
end
LUA
readers() { # name port mode path: the row's load, its figures in $out/name-mode.*
  local routes=$route who=(IDENTITY="$identity") header="X-Perflab-Identity: $identity" paths=() id
  [ "$1" != fixed100 ] || routes=$routes100a
  [ "$1" != gateway100 ] || routes=$routes100
  [[ "$1" != gateway* ]] || { who=(TOKEN="$token"); header="Authorization: Bearer $token"; }
  rm -f "$out/$1-$3-summary.json" "$out/$1-$3.wrk"
  if [ "$3" = wave ]; then
    # 1,000 readers started together hold 1,000 answers at once (191 KB gzipped, 1.3 MB inflated each): the runner's
    # usual 1 GiB heap ran out (OOM), so the wave's runner gets 3 GiB
    PERFLAB_LOAD_JVM_OPTS="${PERFLAB_LOAD_JVM_OPTS/-Xmx1g/-Xmx3g}" \
      load_runner run route-readers BASE_URL="http://127.0.0.1:$2" "${who[@]}" ROUTES="$routes" ${4:+POINTS_PATH="$4"} \
      MODE=wave VUS="$vus" SUMMARY_DIR="$out" SUMMARY_NAME="$1-wave" >"$out/$1-wave.txt" 2>&1 || true
  else
    if [ -n "$4" ]; then paths=("$4"); else for id in ${routes//,/ }; do paths+=("/v1/routes/$id/points"); done; fi
    wrk -t"$(( vus < 2 ? 1 : 2 ))" -c"$vus" -d"${secs}s" --timeout 60s -H "$header" -H 'Accept-Encoding: gzip' \
      -s "$out/readers.lua" "http://127.0.0.1:$2/" -- "${paths[@]}" >"$out/$1-$3.wrk" 2>&1 || true
  fi
}
figures() { # name-mode: requests, ok/s, p50, p95, mean, max (ms), failed %
  if [ -f "$out/$1.wrk" ]; then scripts/bench/route-figures.py "$out/$1.wrk"; else scripts/bench/route-figures.py "$out/$1-summary.json"; fi
}
gcstat() { { curl -fs "http://127.0.0.1:$(mgmt_port "$1")/actuator/prometheus" || true; } | awk '
  /^jvm_gc_pause_seconds_sum/ {s+=$NF} /^jvm_gc_pause_seconds_count/ {c+=$NF}
  /^jvm_gc_memory_allocated_bytes_total/ {a=$NF} /^jvm_gc_memory_promoted_bytes_total/ {p=$NF}
  END { print c + 0, s + 0, a + 0, p + 0 }'; }
edgestat() { { curl -fs "http://127.0.0.1:$(mgmt_port "$1")/actuator/prometheus" || true; } | awk '
  /^perflab_gateway_body_cache_total/ { match($0, /result="[a-z]+"/); n[substr($0, RSTART + 8, RLENGTH - 9)] = $NF }
  /^perflab_gateway_body_cache_waits_total/ { w = $NF }
  END { print n["hit"] + 0, n["revalidated"] + 0, n["stored"] + 0, n["passed"] + 0, w + 0 }'; }
edge() { # "before" now: what the gateway's body cache did with the target's reads
  read -r h0 r0 s0 p0 w0 <<<"$1"; read -r h1 r1 s1 p1 w1 <<<"$2"
  echo "edge body cache: $((${h1%.*} - ${h0%.*})) hit, $((${r1%.*} - ${r0%.*})) revalidated, $((${s1%.*} - ${s0%.*})) stored, $((${p1%.*} - ${p0%.*})) passed, $((${w1%.*} - ${w0%.*})) waited for another read"; }
gc() { # "before" (gcstat when the target started) now: what the target's rows cost the JVM
  awk -v b="$1" -v n="$2" 'BEGIN { split(b, x, " "); split(n, y, " ");
    printf "GC: %d pauses, %.2f s paused; %.1f GB allocated, %.0f MB promoted to old gen", y[1] - x[1], y[2] - x[2], (y[3] - x[3]) / 1e9, (y[4] - x[4]) / 1e6 }'; }
# the old generation's occupancy, every 2 s while a JVM target runs (G1 Old Gen, MB): flat over the run, or growing
oldgen_sample() { # port file
  while sleep 2; do
    curl -fs "http://127.0.0.1:$(mgmt_port "$1")/actuator/prometheus" |
      awk '/^jvm_memory_used_bytes\{/ && /id="G1 Old Gen"/ { printf "%.0f\n", $NF / 1048576 }'
  done >"$2"
}
# the listening socket's accept queue (connections the kernel completed that the server has not taken yet), every
# 0.2 s: readers wait there, unseen by the server's own timings
acceptq_sample() { # port file
  while sleep 0.2; do ss -Hltn "( sport = :$1 )" 2>/dev/null | awk '{ print $2 }'; done >"$2"
}
acceptq() { awk '{ if ($1 > m) m = $1 } END { printf "accept queue peak %d", m }' "$1"; }
oldgen() { awk 'NR == 1 { f = $1 } { if ($1 > m) m = $1; l = $1; n++ }
  END { if (n) printf "old gen every 2 s: first %d MB, max %d MB, last %d MB (%d samples)", f, m, l, n; else printf "old gen: no samples" }' "$1"; }

echo "== seed 002: $vus readers of route $route (20,000 points; $plain bytes of JSON, $gz gzipped), -Xmx1g G1; waves: the load runner, sustained: wrk, on loopback ($BENCH_TOOLS)"
printf '%-44s %8s %9s %8s %8s %8s %8s %7s %9s\n' target requests ok/s p50_ms p95_ms mean_ms max_ms errors in_flight
declare -A rps p95 mean
for target in nginx:18300:/points fixed:18301: fixed100:18301: gateway:18304: gateway100:18304: gatewaynocache:18305: stream:18302: seed:18303:; do
  IFS=: read -r name port path <<<"$target"
  wants "$name" || continue
  pid=${pids[$(( port - 18301 ))]:-}
  # the JVMs the target's reads cross: the target itself, and route behind a gateway
  jvms=(); [ "$name" = nginx ] || jvms=("$port"); [[ "$name" != gateway* ]] || jvms+=(18301)
  samplers=(); declare -A gcbefore=(); edgebefore=; [[ "$name" != gateway* ]] || edgebefore=$(edgestat "$port")
  for j in "${jvms[@]}"; do
    gcbefore[$j]=$(gcstat "$j"); oldgen_sample "$j" "$out/$name-$j-oldgen.txt" & samplers+=($!)
  done
  acceptq_sample "$port" "$out/$name-acceptq.txt" & samplers+=($!)
  jfr=; if [ -n "${PERFLAB_BENCH_JFR:-}" ] && [ "$name" != nginx ]; then
    jfr="$out/$name.jfr"; jcmd "$pid" JFR.start name=points settings=profile filename="$jfr" >/dev/null || jfr=
  fi
  # fixed100 and gateway100 leave the path to their readers (ROUTES): a path would send all their readers to one route
  [ -n "$path" ] || [[ "$name" == *100 ]] || path="/v1/routes/$route/points"
  label=$(case $name in nginx) echo "nginx, the same gzipped bytes (reference)";; fixed) echo "jdbc-stream + body cache (fixed)";;
    gateway) echo "the same, through the gateway";; gatewaynocache) echo "through the gateway, its body cache off";;
    gateway100) echo "100 routes, through the gateway, cold";; fixed100) echo "100 routes, straight at route, cold";;
    stream) echo "jdbc-stream, no cache";; seed) echo "interface-projection, no cache (seed)";; esac)
  for mode in ${MODES:-wave sustained}; do
    readers "$name" "$port" "$mode" "$path"
    read -r n r p50 p95v avg max err peak <<<"$(figures "$name-$mode")"
    printf '%-44s %8s %9s %8s %8s %8s %8s %6s%% %9s\n' "$label, $mode" "$n" "$r" "$p50" "$p95v" "$avg" "$max" "$err" "$peak"
    rps[$name-$mode]=$r; p95[$name-$mode]=$p95v; mean[$name-$mode]=$avg
  done
  for sp in "${samplers[@]}"; do kill "$sp" 2>/dev/null || true; wait "$sp" 2>/dev/null || true; done
  # shellcheck disable=SC2178,SC2128 # who is a string here: the array of that name is local to another function
  for j in "${jvms[@]}"; do
    jp=${pids[$(( j - 18301 ))]}; who=$([ "$j" = 18301 ] && [ "$name" != fixed ] && echo "route: " || true)
    echo "  $who$(gc "${gcbefore[$j]}" "$(gcstat "$j")"); $(oldgen "$out/$name-$j-oldgen.txt")$([ "$j" != "$port" ] || echo "; $(acceptq "$out/$name-acceptq.txt")"); process $(kill -0 "$jp" 2>/dev/null && echo alive || echo DIED)"
  done
  [ "$name" != nginx ] || echo "  $(acceptq "$out/$name-acceptq.txt")"
  [ -z "$edgebefore" ] || echo "  $(edge "$edgebefore" "$(edgestat "$port")")"
  if [ -n "$jfr" ]; then
    jcmd "$pid" JFR.stop name=points >/dev/null && jfr view --width 160 hot-methods "$jfr" >"${jfr%.jfr}-hot-methods.txt" \
      && echo "  profile: $jfr, hot methods: ${jfr%.jfr}-hot-methods.txt"
  fi
done
ratio() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "n/a" }'; }
echo "fixed vs seed:   ok/s $(ratio "${rps[fixed-sustained]:-}" "${rps[seed-sustained]:-}"), wave mean $(ratio "${mean[seed-wave]:-}" "${mean[fixed-wave]:-}") faster, p95 $(ratio "${p95[seed-sustained]:-}" "${p95[fixed-sustained]:-}") lower"
echo "stream vs seed:  ok/s $(ratio "${rps[stream-sustained]:-}" "${rps[seed-sustained]:-}"), wave mean $(ratio "${mean[seed-wave]:-}" "${mean[stream-wave]:-}") faster"
echo "fixed vs nginx:  ok/s $(ratio "${rps[fixed-sustained]:-}" "${rps[nginx-sustained]:-}") of the reference"
echo "gateway body cache on vs off: ok/s $(ratio "${rps[gateway-sustained]:-}" "${rps[gatewaynocache-sustained]:-}"), p95 $(ratio "${p95[gatewaynocache-sustained]:-}" "${p95[gateway-sustained]:-}") lower sustained, $(ratio "${p95[gatewaynocache-wave]:-}" "${p95[gateway-wave]:-}") in the wave"
echo "100 cold routes, through the gateway vs straight at route: wave p95 ${p95[gateway100-wave]:-n/a} vs ${p95[fixed100-wave]:-n/a} ms, sustained ok/s $(ratio "${rps[gateway100-sustained]:-}" "${rps[fixed100-sustained]:-}")"
echo "100 routes cold vs one route, through the gateway: wave p95 ${p95[gateway100-wave]:-n/a} vs ${p95[gateway-wave]:-n/a} ms, sustained ok/s $(ratio "${rps[gateway100-sustained]:-}" "${rps[gateway-sustained]:-}")"
echo "gateway vs seed: ok/s $(ratio "${rps[gateway-sustained]:-}" "${rps[seed-sustained]:-}"), wave mean $(ratio "${mean[seed-wave]:-}" "${mean[gateway-wave]:-}") faster; through the gateway $(ratio "${rps[gateway-sustained]:-}" "${rps[fixed-sustained]:-}") of direct"
