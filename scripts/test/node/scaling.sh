# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of test-node.sh: its globals are set in one part and read in another
# scaling on the node: metrics-server beside it, the HPAs out and in under a surge from the load node, the AOT cache
# (sourced by scripts/test/test-node.sh, which defines kube, helmc, WORK and the release)
metrics_server_up() {  # beside the node from its start (scripts/k8s/k8s-node.sh), so that it has scraped every pod by
  # the time the HPA step asks
  k8s_metrics_server_up || { tail -20 "$WORK/cluster/metrics-server.log"; return 1; }
  METRICS_T0=$SECONDS
}

# The chart's HPAs proven under load: the gateway in front (its pods hold the callers' connections) and the shortener
# behind it (its reads come through the gateway, which asks a read again when its connection fails)
HPA_SERVICES=(gateway shortener)
# at most 4 gateway pods and 3 shortener pods on the node's 2 cores: with 4 of each, the four JVMs starting at once
# took the CPU the serving pods needed (13 of 5,329 surge reads answered 504 after the 5 s timeout)
declare -A HPA_MAX=([gateway]=4 [shortener]=3)

hpa_scales() {  # the chart's HPAs for the gateway and the shortener (their values: 70% of the CPU request, at least 2
  # pods; at most HPA_MAX here, as the node holds 2 cores; no 300 s scale-down window) while reads go to the gateway's
  # Service: a steady 8/s from the host (a quarter of the shortener's CPU target on 2 pods: 20/s measured 35-73%, and
  # the HPA scaled back up), a surge of 40/s (past both targets) from a runner of the loadtest chart on the load node,
  # and, for as long as the surge lasts, slow
  # downloads (hpa_slow_reads): callers on a slow link reading a 22 MB EML, each in flight at the gateway for seconds, so
  # a gateway pod removed under load holds some. Each HPA scales out under the surge; once it has the pods it asked for,
  # its ceiling is lowered to 2 (maxReplicas) while the surge goes on, so the scale-in removes pods under load, not
  # after it (a scale-in the metrics drive comes only once the load is gone). The surge ends 6 s after both are back
  # to 2 of 2 (stopped from its runner's REST API: a scale-out that came late on a busy machine once outlasted a
  # surge of a fixed 90 s), or at its bound of 240 s, which fails the step. Not one request of either load failed and
  # not one download was cut short. The steady reads end 6 s after the surge. Prints replicas over time beside
  # throughput and p95.
  # (A surge of 120/s with 200 VUs overran the two shortener pods until the gateway timed out: 504s after 5 s, and
  # 429s once the limiter fell back to its local buckets; with 50 VUs it dropped 6% of the surge for want of VUs.)
  # Without its mechanisms: HPA_PRESTOP=<seconds> another preStop pause (0: none; every pod of the release rolls),
  # HPA_READ_RETRY=none the gateway's read retry off (its lab switch), HPA_SHUTDOWN=immediate both services' graceful
  # shutdown off (server.shutdown), HPA_SEND_DRAIN=0s the gateway's wait for its send buffers at shutdown off
  # (perflab.gateway.send-drain: without it one download in 74 that spanned a terminating gateway pod stalled 2.7 MB
  # short, the tail its pod's kernel still held when the pod's network went)
  local gw code t0 s knobs=()
  [ -z "${HPA_PRESTOP:-}" ] || knobs=(--set preStopSleepSeconds="$HPA_PRESTOP")
  [ -z "${HPA_READ_RETRY:-}" ] || knobs+=(--set services.gateway.lab.readRetry="$HPA_READ_RETRY")
  [ -z "${HPA_SEND_DRAIN:-}" ] || knobs+=(--set services.gateway.env.PERFLAB_GATEWAY_SENDDRAIN="$HPA_SEND_DRAIN")
  for s in "${HPA_SERVICES[@]}"; do
    [ -z "${HPA_SHUTDOWN:-}" ] || knobs+=(--set services."$s".env.SERVER_SHUTDOWN="$HPA_SHUTDOWN")
    knobs+=(--set services."$s".autoscaling.enabled=true --set services."$s".autoscaling.maxReplicas="${HPA_MAX[$s]}"
      --set-json "services.$s.autoscaling.behavior={\"scaleDown\":{\"stabilizationWindowSeconds\":0}}")
  done
  gw="http://$(kube -n "$NS" get svc "$RELEASE-gateway" -o jsonpath='{.spec.clusterIP}'):8080" code="$(cat "$WORK/code")"
  helmc upgrade "$RELEASE" charts/perflab -n "$NS" --reuse-values "${knobs[@]}" --wait --timeout 4m >"$WORK/upgrade.out" 2>&1 \
    || { cat "$WORK/upgrade.out"; return 1; }
  # the HPAs own the replica counts now (the Deployments' field is gone from the chart's manifest): 2 pods each, measured
  local end=$((SECONDS + 120))
  until hpas_at 2; do
    [ $SECONDS -lt $end ] || { for s in "${HPA_SERVICES[@]}"; do kube -n "$NS" describe hpa "$RELEASE-$s" | tail -12; done; return 1; }
    sleep 2
  done
  local big
  big="$(hpa_big_mail "$gw")" || return 1
  # The surge: a stress run in the cluster, one runner of the loadtest chart on the load node (VUs for its rate at a
  # saturated pod's ~1 s), as alice (the link's owner); the steady reads: the load runner on this host through the
  # same Service, a caller outside the cluster, ended from its control endpoint. Both remote-write into the host's
  # Prometheus, which the report reads them from.
  local id surge_job; id="hpa-$(date +%H%M%S)"
  kube -n "$NS" create secret generic perflab-hpa-token --from-literal=TOKEN="$TOKEN" --dry-run=client -o yaml \
    | kube apply -f - >/dev/null || return 1
  t0=$(date +%s)
  runner_paused run shortener-reads PROMETHEUS_RW_URL="http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/api/v1/write" \
    TESTID="$id-steady" LATENCY=printed BASE_URL="$gw" TOKEN="$TOKEN" CODE="$code" SUMMARY_DIR="$WORK" MAX_VUS=100 \
    RATE=8 DURATION=300s SUMMARY_NAME=hpa-steady >"$WORK/hpa-steady.out" 2>&1 && runner_start \
    || { echo "   the steady reads' runner never started"; tail -5 "$WORK/hpa-steady.out"; return 1; }
  local steady=$RUNNER_PID api=$RUNNER_CONTROL
  load_install perflab-surge "$id-surge" --set token.existingSecret=perflab-hpa-token \
    --set runner.resources.requests.cpu=100m,runner.resources.limits.cpu=1 \
    --set tests.shortener-smoke.enabled=false,tests.surge.enabled=true,tests.surge.scenario=shortener-reads \
    --set tests.surge.env.RATE=40,tests.surge.env.DURATION=240s,tests.surge.env.MAX_VUS=100,tests.surge.env.LATENCY=printed \
    --set tests.surge.env.CODE="$code" "${LOAD_POOL[@]}" || { load_runner stop "$api" >/dev/null; wait "$steady"; return 1; }
  surge_job="$(runner_job "$id-surge")" || { load_runner stop "$api" >/dev/null; wait "$steady"; return 1; }
  # a process that lives as long as the surge's runner: what the loop and the slow readers watch
  ( job_done "$surge_job" 360 >/dev/null ) &
  local surge=$! rc=0 stop_at="" surge_stop_at="" pods hpa desired runner
  hpa_slow_reads "$gw/v2/mails/${big% *}/eml" "$surge"
  declare -A peak capped scaled_in
  : >"$WORK/hpa.tsv"; rm -f "$WORK"/hpa.*.capped "$WORK"/hpa.*.scaled-in
  while kill -0 "$steady" 2>/dev/null; do  # every 3 s: each HPA's status and the service's live pods
    for s in "${HPA_SERVICES[@]}"; do
      pods="$(live_pods "$s" count)"
      hpa="$(kube -n "$NS" get hpa "$RELEASE-$s" -o jsonpath='{.status.currentReplicas} {.status.desiredReplicas} {.status.currentMetrics[0].resource.current.averageUtilization}')"
      printf '%s\t%s\t%s\t%s\n' "$(date +%s)" "$s" "$hpa" "$pods" >>"$WORK/hpa.tsv"
      read -r _ desired _ <<<"$hpa"
      [ "${pods#* }" -le "${peak[$s]:-0}" ] || peak[$s]="${pods#* }"
      # scaled out: every pod the HPA asked for (more than 2) live; its ceiling lowered to 2 while the surge goes on
      if [ -z "${capped[$s]:-}" ] && [ "${peak[$s]}" -gt 2 ] && kill -0 "$surge" 2>/dev/null && [ "$pods" = "$desired $desired" ]; then
        kube -n "$NS" patch hpa "$RELEASE-$s" --type merge -p '{"spec":{"maxReplicas":2}}' >/dev/null || rc=1
        capped[$s]=$(( $(date +%s) - t0 )); echo "${capped[$s]}" >"$WORK/hpa.$s.capped"
      fi
      # scaled in: back to 2 of 2 pods, the surge still going on (the table reads the moment)
      if [ -n "${capped[$s]:-}" ] && [ -z "${scaled_in[$s]:-}" ] && [ "$pods" = "2 2" ] && kill -0 "$surge" 2>/dev/null; then
        scaled_in[$s]=$(( $(date +%s) - t0 )); echo "${scaled_in[$s]}" >"$WORK/hpa.$s.scaled-in"
      fi
    done
    # the surge goes on 6 s after both services are back to 2 of 2, then is stopped from its runner's control endpoint
    if [ -z "$surge_stop_at" ] && [ -n "${scaled_in[gateway]:-}" ] && [ -n "${scaled_in[shortener]:-}" ]; then
      surge_stop_at=$(( $(date +%s) + 6 ))
    fi
    if [ -n "$surge_stop_at" ] && [ "$(date +%s)" -ge "$surge_stop_at" ] && kill -0 "$surge" 2>/dev/null; then
      runner="$(kube -n "$NS" get pods -l job-name="$surge_job" -o jsonpath='{.items[0].status.podIP}')"
      [ -z "$runner" ] || stop_runner "$runner:6565"
    fi
    # the steady reads go on 6 s after the surge
    if [ -z "$stop_at" ] && ! kill -0 "$surge" 2>/dev/null; then stop_at=$(( $(date +%s) + 6 )); fi
    [ -z "$stop_at" ] || [ "$(date +%s)" -lt "$stop_at" ] || stop_runner "$api"
    sleep 3
  done
  wait "$surge" || { echo "   the surge's runner did not end in 360 s"; rc=1; }
  [ -n "$surge_stop_at" ] || { echo "   the surge ran to its bound of 240 s: the services were not back to 2 of 2 in it"; rc=1; }
  # the runner's own end-of-test figures, from its log (its text summary), in its summary file's shape
  kube -n "$NS" logs "job/$surge_job" --tail=-1 >"$WORK/hpa-surge.log" 2>&1
  report_json <"$WORK/hpa-surge.log" >"$WORK/hpa-surge-summary.json" || { tail -20 "$WORK/hpa-surge.log"; rc=1; }
  helmc uninstall perflab-surge -n "$NS" --wait --timeout 1m >/dev/null
  local steady_rc=0 verdict r; wait "$steady" || steady_rc=$?
  for r in "${HPA_READERS[@]}"; do wait "$r"; done   # each download under way when the surge ended, read to its end
  # 103: stopped from its control endpoint, as asked; its summary's thresholds are then its verdict
  verdict=$(run_verdict "$steady_rc" "$stop_at" "$WORK/hpa-steady-summary.json")
  [ -z "$verdict" ] || { echo "   the steady reads: $verdict"; rc=1; }
  for s in "${HPA_SERVICES[@]}"; do
    [ -n "${capped[$s]:-}" ] || { echo "   $s: never scaled out to every pod it asked for (more than 2) under the surge"; rc=1; }
    [ -n "${scaled_in[$s]:-}" ] || { echo "   $s: never back to 2 of 2 pods under the surge once its ceiling was 2"; rc=1; }
  done
  reads_whole hpa-surge 40 scheduled || rc=1
  reads_whole hpa-steady 8 run || rc=1
  hpa_slow_whole "${big#* }" || rc=1
  "$K8S_TOOLS_PYTHON" scripts/test/hpa-report.py "$t0" "$WORK" "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT" "$id" \
    "${HPA_SERVICES[@]}" || rc=1
  [ "$rc" -eq 0 ] || {
    for s in "${HPA_SERVICES[@]}"; do kube -n "$NS" describe hpa "$RELEASE-$s" | tail -8; done
  }
  return $rc
}

hpas_at() {  # N: every HPA of HPA_SERVICES has measured its CPU and wants N pods, and the service has only N live pods
  local s
  for s in "${HPA_SERVICES[@]}"; do
    [ -n "$(kube -n "$NS" get hpa "$RELEASE-$s" -o jsonpath='{.status.currentMetrics[0].resource.current.averageUtilization}')" ] \
      && [ "$(kube -n "$NS" get hpa "$RELEASE-$s" -o jsonpath='{.status.desiredReplicas}')" = "$1" ] \
      && [ "$(live_pods "$s" count)" = "$1 $1" ] || return 1
  done
}

hpa_big_mail() {  # GATEWAY_URL: "NO BYTES" of one of alice's seeded 22 MB mails, read whole once through the gateway
  local page no out
  # oldest first: her seeded 22 MB mails are every ~3,300th of the seed's, and every mail a run adds later (the office
  # day's sends, saved as alice's) is newer than all of them: newest first, make placement's ~2,000 hid them all
  for page in $(seq 1 40); do
    no="$(curl_gw -H "Authorization: Bearer $TOKEN" "$1/v2/mails?size=100&page=$page&sort%5Breceived_date%5D=asc" \
      | jq -r 'first(.mails[] | select(.size > 10000000) | .no) // empty')" || return 1
    [ -z "$no" ] || break
  done
  [ -n "$no" ] || { echo "   alice has no seeded mail of 22 MB in her oldest 4,000 (make seed)" >&2; return 1; }
  out="$(curl -sS -o /dev/null --max-time 60 -w '%{http_code} %{size_download}' -H "Authorization: Bearer $TOKEN" "$1/v2/mails/$no/eml")"
  [ "${out% *}" = 200 ] || { echo "   the EML of mail $no: $out" >&2; return 1; }
  echo "$no ${out#* }"
}

HPA_SLOW_READERS=12 HPA_SLOW_RATE=1536K   # 12 callers at 1.5 MB/s: 15 s a 22 MB EML, most of it in flight at the gateway
hpa_slow_reads() {  # URL PID: HPA_SLOW_READERS callers, each reading URL back to back at HPA_SLOW_RATE (curl
  # --limit-rate: a caller on a slow link) while PID runs, a new connection each (kube-proxy picks its gateway pod);
  # one line per download in $WORK/hpa-slow.tsv: start, end (epoch s), status, bytes, curl's exit. Their pids: HPA_READERS
  local i
  HPA_READERS=()
  : >"$WORK/hpa-slow.tsv"
  for ((i = 0; i < HPA_SLOW_READERS; i++)); do
    ( while kill -0 "$2" 2>/dev/null; do
        a=$(date +%s.%N) out=$(curl -sS -o /dev/null --max-time 60 --limit-rate "$HPA_SLOW_RATE" \
          -H "Authorization: Bearer $TOKEN" -w '%{http_code}\t%{size_download}' "$1" 2>/dev/null) rc=$?
        printf '%s\t%s\t%s\t%s\n' "$a" "$(date +%s.%N)" "${out:-000	0}" "$rc" >>"$WORK/hpa-slow.tsv"
      done ) &
    HPA_READERS+=($!)
    sleep 0.8   # the readers' starts spread over one download's length
  done
}

hpa_slow_whole() {  # BYTES: every slow download read whole (200, every byte, curl exit 0); those that spanned a moment
  # a gateway pod was terminating (hpa.tsv: fewer live than all) counted, the proof's denominator
  jq -Rrs --argjson bytes "$1" --rawfile samples "$WORK/hpa.tsv" '
    [$samples | split("\n")[] | split("\t") | select(length == 4 and .[1] == "gateway")
      | (.[3] | split(" ") | map(tonumber)) as $p | select($p[0] > $p[1]) | .[0] | tonumber] as $terminating
    | [split("\n")[] | select(length > 0) | split("\t")
      | {start: (.[0] | tonumber), end: (.[1] | tonumber), status: .[2], got: (.[3] | tonumber), exit: .[4]}] as $reads
    | [$reads[] | select(.status != "200" or .got != $bytes or .exit != "0")] as $cut
    | [$reads[] | . as $r | select(any($terminating[]; . >= $r.start and . <= $r.end))] as $spanning
    | "  slow downloads: \($reads | length) of \($bytes) bytes each, \($spanning | length) of them under way while a gateway"
      + " pod was terminating, \($cut | length) cut short"
      + (if ($cut | length) > 0 then ": " + ([$cut[:5][] | "status \(.status), \(.got) bytes, curl exit \(.exit)"] | join("; ")) else "" end),
      (($cut | length) == 0 and ($reads | length) > 0)' "$WORK/hpa-slow.tsv" >"$WORK/hpa-slow.verdict" || return 1
  head -n 1 "$WORK/hpa-slow.verdict"
  [ "$(tail -n 1 "$WORK/hpa-slow.verdict")" = true ]
}

aot_cache_used() {  # the shortener rolls out with -XX:AOTMode=on (the JVM refuses to start unless the cache maps)
  # and its start-up is reported. AOT_SERVICES="gateway mail send shortener" measures each of those without the cache
  # and with it, one pod at a time (the table in docs/kubernetes.md)
  local mode svc modes=(off on)
  [ -n "${AOT_SERVICES:-}" ] || modes=(on)
  for svc in ${AOT_SERVICES:-shortener}; do
    for mode in "${modes[@]}"; do
      helmc upgrade "$RELEASE" charts/perflab -n "$NS" --reuse-values --set "services.$svc.jvm.extraOpts=-XX:AOTMode=$mode" \
        --wait --timeout 4m >"$WORK/upgrade.out" 2>&1 || { cat "$WORK/upgrade.out"; return 1; }
      kube -n "$NS" rollout status deploy/"$RELEASE-$svc" --timeout 120s >/dev/null && settled "$svc" || return 1
      echo "  $svc with -XX:AOTMode=$mode:"
      started_in "$svc"
    done
    # a port-forward ends with the pod it picked
    if [ "$svc" = gateway ]; then kill "$PF_PID" 2>/dev/null; wait "$PF_PID" 2>/dev/null; port_forward >/dev/null || return 1; fi
  done
}
