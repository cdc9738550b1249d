# shellcheck shell=bash
# make headline (NODE_TEST=headline), sourced by scripts/test/test-node.sh: the seeds' headline figures with the
# generator apart. The system's pods and the host's stores on the system node's CPU (CPU 0), every load runner on the
# load node's (CPU 1, one runner, its JVM's CPU watched from the host); each row says whether the runner kept up.
#   seed 004  the shortener smoke (create-and-follow) at rising RATE until p95 reaches HEADLINE_P95_MS or an
#             iteration is dropped: the highest rate the system node holds
#   seed 001  guestbook signings (notifier-seed001) from 50 callers at rising RATE: the highest rate held with every
#             SMS delivered once, and the system's CPU per signing, from which the cores 400/s needs
#   seed 002  1,000 readers of one 20k-point route through the gateway, and of the same gzipped bytes from nginx on
#             the system's CPU, in one run: a wave (one read each, started together) and a sustained closed loop
# The gateway's per-caller and per-address limits are lifted (a limit reached is a 429, not a figure of the system).
HEADLINE_P95_MS="${HEADLINE_P95_MS:-50}"
HEADLINE_SECONDS="${HEADLINE_SECONDS:-30}"
HEADLINE_PARTS="${HEADLINE_PARTS:-004 001 002}"   # which seeds' figures to take
headline_part() { [[ " $HEADLINE_PARTS " == *" $1 "* ]]; }
HEADLINE_NGINX_PORT=18390   # not bench-route's 18300

headline_values() {  # NODE_VALUES added for the headline run: the gateway's limits lifted
  NODE_VALUES+=(--set services.gateway.env.PERFLAB_GATEWAY_RATELIMIT_REPLENISHRATE=100000
    --set services.gateway.env.PERFLAB_GATEWAY_RATELIMIT_BURSTCAPACITY=200000
    --set services.gateway.env.PERFLAB_GATEWAY_RATELIMIT_PERIP_REPLENISHRATE=100000
    --set services.gateway.env.PERFLAB_GATEWAY_RATELIMIT_PERIP_BURSTCAPACITY=200000)
}

# headline_run NAME SCENARIO SECONDS [helm args]: one runner of SCENARIO on the load node as the loadtest chart's test
# NAME (thresholds off: each row is a figure), its row (pair_row) and the run's id (the runner's log: $WORK/ID.log)
headline_run() {
  local name=$1 scenario=$2 secs=$3 id
  shift 3
  id="hl-$(date +%H%M%S)"
  runner_measured "$id" $((secs + 150)) --set tests.shortener-smoke.enabled=false \
    --set "tests.$name.enabled=true,tests.$name.scenario=$scenario,tests.$name.parallelism=1,tests.$name.env.THRESHOLDS=off" \
    "${LOAD_POOL[@]}" "$@" || return 1
  printf '%s\t%s\n' "$(pair_row load "$id")" "$id"
}

judged() {  # ROW [GOAL_MS]: the row with its verdict appended. A runner whose CPU peaked at 80% of its one CPU or more
  # (generator.py's rule) made no figure of the system; else with GOAL_MS: held (p95 under it, nothing dropped) or
  # missed; without: kept up
  local v
  v="$(awk -F'\t' -v goal="${2:-}" '{
    if ($8 + 0 >= 80) print "runner short of CPU: no figure"
    else if (goal == "") print "runner kept up"
    else if ($5 + 0 < goal && $9 + 0 == 0) print "held"
    else print "missed" }' <<<"$1")"
  printf '%s\t%s\n' "$1" "$v"
}
headline_table() {  # TSV rows with a verdict each
  "$K8S_TOOLS_PYTHON" - "$1" <<'PY'
import sys
head = ("rate", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "system pods' CPU", "runner CPU peak", "dropped", "verdict")
print("  | " + " | ".join(head) + " |")
print("  |---|" + "--:|" * (len(head) - 2) + "---|")
for l in open(sys.argv[1]):
    r = l.rstrip("\n").split("\t")
    if len(r) > 1:
        print("  | " + " | ".join(r) + " |")
PY
}
# RATES of TEST: each in turn until one is missed; the highest held is the figure
headline_steps() {  # OUT TEST SCENARIO RATES... (after --: helm args of every step)
  local out=$1 test=$2 scenario=$3 rate row id best=none args=() rates=()
  shift 3
  while [ $# -gt 0 ] && [ "$1" != -- ]; do rates+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  args=("$@")
  : >"$out"
  for rate in "${rates[@]}"; do
    row="$(headline_run "$test" "$scenario" "$HEADLINE_SECONDS" --set "tests.$test.env.RATE=$rate" \
      "${args[@]//@RATE@/$rate}")" || return 1
    id="$(cut -f10 <<<"$row")"
    row="$(judged "$(printf '%s\t' "$rate"; cut -f2-9 <<<"$row")" "$HEADLINE_P95_MS")"
    [ "$test" != seed001 ] || row="$(sms_once "$row" "$WORK/$id.log")" || return 1
    echo "$row" >>"$out"
    echo "  RATE=$rate: $(cut -f5 <<<"$row") ms p95, $(cut -f9 <<<"$row") dropped, runner $(cut -f8 <<<"$row"): $(cut -f10 <<<"$row")"
    [[ "$(cut -f10 <<<"$row")" == held* ]] && best=$rate || break
  done
  headline_table "$out"
  echo "  highest rate held: $best"
}

headline_seed004() {
  cpus_apart && load_values || return 1
  # unmeasured passes until the system is warm for the mix (make placement's rule: its pods' CPU per pass steady)
  placement_warm shortener-smoke 40 || return 1
  echo "  seed 004's mix, the runner on the load node, ${HEADLINE_SECONDS} s per rate (p95 goal < $HEADLINE_P95_MS ms):"
  # shellcheck disable=SC2086
  headline_steps "$WORK/headline-004.tsv" shortener-smoke shortener-smoke ${HEADLINE_004_RATES:-20 40 60 80 100 120} \
    -- --set "tests.shortener-smoke.env.DURATION=${HEADLINE_SECONDS}s,tests.shortener-smoke.env.WARMUP=3s"
}

headline_callers() {  # the Secret perflab-headline-callers: 50 callers' tokens (seed 001's 50 callers)
  local tokens
  tokens="$(scripts/lib/jwt.sh callers guest 50)" || return 1
  kube -n "$NS" create secret generic perflab-headline-callers --from-literal=TOKEN="$(scripts/lib/jwt.sh token guest 1 3600)" \
    --from-literal=CALLERS="$tokens" --dry-run=client -o yaml | kube apply -f - >/dev/null
}
sms_once() {  # ROW LOG: seed 001's row held only if every signing answered 201 left exactly one SMS at the sink
  # (the runner's drain: "sms-sink: N SMS delivered ..., D message ids delivered more than once"); the row's verdict
  # says what the sink counted
  local signed sms twice
  signed="$(report_json <"$2" | jq -r '.metrics.notifier_signed.values.count // 0')" || return 1
  read -r sms twice < <(sed -n 's/^sms-sink: \([0-9]*\) SMS delivered.*, \([0-9]*\) message ids delivered more than once.*/\1 \2/p' "$2")
  [ -n "$sms" ] || { echo "  no sms-sink line in the runner's log" >&2; return 1; }
  awk -F'\t' -v OFS='\t' -v signed="$signed" -v sms="$sms" -v twice="$twice" '{
    if ($10 == "held" && (sms != signed || twice != 0)) $10 = "missed"
    $10 = $10 sprintf(" (%d signed, %d SMS, %d twice)", signed, sms, twice); print }' <<<"$1"
}
headline_seed001() {
  local sink="http://$K8S_NODE_HOST_IP:$PERFLAB_SMS_SINK_PORT" stage=$((HEADLINE_SECONDS / 2))
  cpus_apart && load_values && headline_callers || return 1
  echo "  seed 001's guestbook signings from 50 callers, the runner on the load node, the sink's 500 ms SMS on the host"
  echo "  (${HEADLINE_SECONDS} s per rate, then the drain; p95 goal < $HEADLINE_P95_MS ms, every SMS once):"
  # one unmeasured pass at the lowest rate: the notifier's JIT warm for the signing
  headline_run seed001 notifier-seed001 20 --set token.existingSecret=perflab-headline-callers,token.callersKey=CALLERS \
    --set tests.seed001.env.RATE=10,tests.seed001.env.PEAK=10,tests.seed001.env.STAGE=10s >/dev/null || return 1
  # shellcheck disable=SC2086
  headline_steps "$WORK/headline-001.tsv" seed001 notifier-seed001 ${HEADLINE_001_RATES:-10 20 40 60 80 100} \
    -- --set token.existingSecret=perflab-headline-callers,token.callersKey=CALLERS \
    --set "tests.seed001.env.PEAK=@RATE@,tests.seed001.env.STAGE=${stage}s,tests.seed001.env.SMS_SINK_URL=$sink"
  local best cpu
  best="$(awk -F'\t' '$10 ~ /^held/ { r = $1; c = $7 } END { print r, c }' "$WORK/headline-001.tsv")"
  read -r best cpu <<<"$best"
  [ -z "$best" ] || echo "  the system's pods per signing at RATE=$best: $cpu cores / $best/s; 400/s needs $(awk -v c="$cpu" -v r="$best" 'BEGIN { printf "%.1f", c / r * 400 }') cores of them (the host's MariaDB not counted)"
}

headline_nginx() {  # nginx (1 worker) on the system's CPU serving FILE at /points on the node's host address; its
  # folder readable by nginx's worker (nobody), which the test's own (0700) is not
  local dir
  dir="$(mktemp -d "${TMPDIR:-/tmp}/perflab-nginx.XXXXXX")" && chmod 755 "$dir" && install -m 644 "$1" "$dir/points.json.gz" || return 1
  cat >"$dir/nginx.conf" <<CONF
worker_processes 1; daemon off; pid $dir/nginx.pid; error_log $dir/nginx.err warn;
events { worker_connections 4096; }
http { access_log off; sendfile on; server { listen $K8S_NODE_HOST_IP:$HEADLINE_NGINX_PORT;
  location = /points { default_type application/json; add_header Content-Encoding gzip; alias $dir/points.json.gz; } } }
CONF
  taskset -c 0 /usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir" &
  NGINX_PID=$! NGINX_DIR=$dir
  sleep 1
  curl -fsS -o /dev/null "http://$K8S_NODE_HOST_IP:$HEADLINE_NGINX_PORT/points"
}
headline_readers() {  # ROUTE OUT: the readers' rows, a wave then a sustained loop, each through the gateway then from nginx
  local id=$1 out=$2 target mode row where
  : >"$out"
  for mode in wave sustained; do
    for target in gateway nginx; do
      where=(--set "tests.readers.env.ROUTE=$id")
      [ "$target" = nginx ] && where=(--set "target.baseUrl=http://$K8S_NODE_HOST_IP:$HEADLINE_NGINX_PORT" --set tests.readers.env.POINTS_PATH=/points)
      # 1,000 readers hold 1,000 answers at once (191 KB gzipped, 1.3 MB read): 1 GiB ran out of heap (OOM), so 3 GiB
      row="$(headline_run readers route-readers 60 "${where[@]}" \
        --set runner.resources.requests.memory=3Gi,runner.resources.limits.memory=3Gi \
        --set "tests.readers.env.MODE=$mode,tests.readers.env.VUS=${HEADLINE_READERS:-1000},tests.readers.env.DURATION=20s")" || return 1
      judged "$(printf '%s %s\t' "$target" "$mode"; cut -f2-9 <<<"$row")" >>"$out"
    done
  done
}
headline_seed002() {
  local id gz out="$WORK/headline-002.tsv"
  cpus_apart && load_values || return 1
  id="$(curl_gw -XPOST "$GW/v1/routes" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    --data-binary @<(scripts/bench/route-20k.py) | jq -nr 'input.id // error("no id")')" || return 1
  curl_gw -H "Authorization: Bearer $TOKEN" -H 'Accept-Encoding: gzip' "$GW/v1/routes/$id/points" -o "$WORK/points.json.gz" || return 1
  gz="$(wc -c <"$WORK/points.json.gz")"
  headline_nginx "$WORK/points.json.gz" || return 1
  echo "  route $id: 20,000 points, $gz bytes gzipped; nginx serves the same bytes from the system's CPU"
  local rc=0
  headline_readers "$id" "$out" || rc=1
  kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; rm -rf "${NGINX_DIR:?}"
  [ "$rc" = 0 ] || return 1
  headline_table "$out" | sed 's/| rate |/| target |/'
  # a ratio only of rows whose runner kept up: one that was short of CPU measured itself
  awk -F'\t' '{ p[$1] = $5; if ($10 !~ /kept up/) short = short " " $1 } END {
    if (short != "") printf "  no ratio: the runner was short of CPU in%s\n", short
    else printf "  p95 through the gateway / nginx: wave %.2f, sustained %.2f (goal <= 1.5)\n",
      p["gateway wave"] / p["nginx wave"], p["gateway sustained"] / p["nginx sustained"] }' "$out"
}
