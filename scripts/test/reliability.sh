#!/usr/bin/env bash
# Store outages under load, through the gateway: for each store, a bounded run of the load runner's requests that need
# it (scenario reliability-outage) with the store stopped for OUTAGE_FOR seconds in the middle, then started again.
# It fails unless
#   - every answer meanwhile is a success or a 503 problem+json with Retry-After within BOUND_MS (no 500, no hang),
#   - the services that need the store report readiness false during the outage (and the others stay ready),
#   - they are ready again within READY_WITHIN seconds of the store's return, and every request succeeds after a grace
#     (GRACE: 15 s for MariaDB, whose pools HikariCP refills with a backoff of up to 5 s between attempts; 10 s for
#     the others),
#   - by the same processes: nothing was restarted.
# stall:<store> freezes the store's process instead (SIGSTOP, then SIGCONT): its connections stay open and nothing
# answers, as with a hung server or a lost host, where only the clients' own timeouts end a wait (stall:mariadb: the
# JDBC URL's socketTimeout and the pools' timeouts, platform's service-defaults.yaml). The same checks hold.
# Redis down is degraded service, not an outage: the gateway limits rates per instance (FallbackRateLimiter), the
# shortener reads MongoDB instead of its cache; every service stays ready.
#
# kill:<service> and term:<service>: the service itself goes away under a bounded load of its creates and reads
# through the gateway (scenario reliability-crash), by kill -9 (a crash) or SIGTERM (a rollout), and is started
# again. It fails unless every answer is a whole success or a 503 problem+json with Retry-After within BOUND_MS (with
# SIGTERM, what was in flight completes: a points stream or an EML is read to its last byte), every request succeeds before
# and once it is back, and every create answered 2xx is found afterwards with what was sent, once (route and
# notifier: read back from MariaDB by a unique marker; shortener: through the API). Mail and send: a mail sent is found
# in mail's store by its subject and must reach its recipient at the SMTP server (scripts/test/delivery-count.py) within
# DELIVERED_WITHIN seconds, once (after kill -9 a message may go again, with the same Message-ID).
# What SIGTERM must let finish is what the service itself had begun when the signal came: a term case starts the
# service again first with its Tomcat access log on (the begin and end of every request, by X-Request-Id), records
# the signal's own time, and looks up each request begun before it and ended after it among the runner's answers
# (every one printed, by its id): each must be a whole success. A request the runner sent before the signal can reach
# the service after it (a busy machine holds it in the runner or the gateway): the service had stopped taking requests, the gateway answered
# 503 with Retry-After, and that is right; counting it as "in flight" made the case fail on busy machines. For route
# and mail, one create is sent slowly (curl --limit-rate, 3 s) from 1.5 s before the signal, so a request is in the
# service at the signal every time, not by chance: it must be answered 2xx and stored once. TERM_SHUTDOWN=immediate
# starts the service without graceful shutdown, which must make the case fail (the case's own proof).
# Such a run ends AFTER seconds after the service is back (stack.sh start returned: ready), not at its bound
# (DURATION): through the runner's control endpoint on a port it picks (runner_paused: scripts/lib/env.sh); it exits 103
# having written its summary, whose thresholds are then the verdict. The after phase, per caller and kind of request, begins
# with its first success once it saw the service away (reliability-crash), at BACK_BY at the latest. (A store's outage keeps
# its run's length: while MariaDB is down most requests wait rather than get a 503, so a caller's own view of the
# outage's end marked the after phase of only 4 requests in a run here.)
#
#   scripts/test/reliability.sh [mariadb|mongo-wire|redis|stall:<store>|kill:<svc>|term:<svc> ...]
#     (make reliability: every store, then kill and term of every service of scripts/lib/env.sh's list)
#   scripts/test/reliability.sh --list  the cases a run without arguments takes, one a line
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"

CASES=("$@")
if [ ${#CASES[@]} -eq 0 ] || [ "$1" = --list ]; then
  CASES=(mariadb mongo-wire redis stall:mariadb)
  for how in kill term; do for n in "${PERFLAB_SERVICES[@]}"; do CASES+=("$how:$n"); done; done
  [ "${1:-}" != --list ] || { printf '%s\n' "${CASES[@]}"; exit 0; }
fi
"$PERFLAB_ROOT/scripts/stack/install.sh" >/dev/null

OUTAGE_AT=${OUTAGE_AT:-5}
OUTAGE_FOR=${OUTAGE_FOR:-20}
STALL_FOR=${STALL_FOR:-15}
AFTER=${AFTER:-10}
READY_WITHIN=${READY_WITHIN:-60}
# a JVM's start on a loaded 2-core machine (make test builds images beside this phase) took up to 31 s; the bound
# only caps a run whose service never comes back, since a case ends AFTER seconds after the service is back
BACK_WITHIN=${BACK_WITHIN:-60}
DELIVERED_WITHIN=${DELIVERED_WITHIN:-60}

scripts/stack/stack.sh status | grep '^gateway running' >/dev/null || { log "the stack is not up: make up first"; exit 1; }

# the services that need a store (their readiness includes it)
dependents() {
  case "$1" in
    mariadb) for n in "${PERFLAB_SERVICES[@]}"; do [ -z "$(service_conf "$n" databases)" ] || echo "$n"; done ;;
    mongo-wire) echo shortener ;;
    redis) ;;
  esac
}
# as a kubelet probes (timeoutSeconds: 1): a readiness endpoint that does not answer within a second is not ready. Without
# the bound, a probe waiting on a pool whose store is down held the loop below past the outage's end, so the store came
# back seconds late and the grace after it had to cover that too
ready() { curl -fs --max-time 1 -o /dev/null "http://127.0.0.1:$(( $(service_port "$1") + 1000 ))/actuator/health/readiness"; }
service_port() { local v; v=$(service_var "$1" PORT); echo "${!v}"; }
# the counts of a run summary's counters, in the order asked (0 for a counter never added to)
counts() {  # SUMMARY.json METRIC...
  jq -nr '(input.metrics // error("no metrics")) as $m | [$ARGS.positional[] as $k | if $m | has($k) then $m[$k].values.count | floor else 0 end] | join(" ")' \
    --args "${@:2}" <"$1"
}
# fields of a JSON object, in the order asked ("?" for one it lacks)
field() {  # JSON FIELD...
  jq -nr 'input as $o | [$ARGS.positional[] as $k | if $o | has($k) then $o[$k] else "?" end] | join(" ")' \
    --args "${@:2}" <<<"${1:-"{}"}"
}
pids() { for n in "${PERFLAB_SERVICES[@]}" gateway; do printf '%s=%s ' "$n" "$(cat "$PERFLAB_RUN/pids/$n.pid" 2>/dev/null)"; done; }

results="$PERFLAB_RUN/results/$(date +%Y%m%d-%H%M%S)-reliability"
mkdir -p "$results"
report="$results/report.md"
printf '| store | down for | requests | 503 while down | bad answers | not ready while down | ready again after | restarted |\n|---|---|---|---|---|---|---|---|\n' >"$report"
# a store's own process: its pid file (MariaDB's server writes its own)
store_pid() { if [ "$1" = mariadb ]; then cat "$PERFLAB_RUN/mariadb.server.pid"; else cat "$PERFLAB_RUN/pids/$1.pid"; fi; }
FROZEN=""
thaw() { [ -z "$FROZEN" ] || kill -CONT "$FROZEN" 2>/dev/null || true; FROZEN=""; }
trap thaw EXIT
store_case() {  # STORE: stopped (its connections refused); stall:STORE: its process frozen (SIGSTOP), keeping every
  # connection open and answering nothing, as a hung server or a lost host does; then SIGCONT
  local how=stop store=$1 name=$1
  local outage_for=$OUTAGE_FOR
  # a stall outlasts BOUND_MS (10 s), so a request left waiting on a frozen store's connection is a bad answer
  [[ "$store" != stall:* ]] || { how=stall; store=${store#stall:}; name="stall-$store"; outage_for=$STALL_FOR; }
  mapfile -t needs < <(dependents "$store")
  grace=${GRACE:-$([ "$store" = mariadb ] && echo 15 || echo 10)}
  log "$store $([ "$how" = stall ] && echo "frozen (SIGSTOP)" || echo down) for ${outage_for} s under load (needed by: ${needs[*]:-nobody, a degraded service})"
  before_pids=$(pids)
  start_ms=$(( $(date +%s%3N) + 2000 ))
  duration=$(( OUTAGE_AT + outage_for + grace + AFTER + 2 ))
  load_runner run reliability-outage BASE_URL="http://127.0.0.1:$PERFLAB_GATEWAY_PORT" \
    TOKEN="$(scripts/lib/jwt.sh token alice 1 3600)" STORE="$store" START_MS="$start_ms" \
    OUTAGE_AT="$OUTAGE_AT" OUTAGE_FOR="$outage_for" GRACE="$grace" DURATION="${duration}s" \
    SUMMARY_DIR="$results" SUMMARY_NAME="outage-$name" >"$results/$name.log" 2>&1 &
  run_pid=$!
  # a frozen MariaDB: creates whose inserts are on the wire when it stops, 20,000-point routes sent every 150 ms from
  # 0.6 s before the freeze
  [ "$how" != stall ] || [ "$store" != mariadb ] || stall_creates "$((start_ms + OUTAGE_AT * 1000 - 600))" "$results/stall-creates"
  sleep "$(awk "BEGIN{print ($start_ms + $OUTAGE_AT*1000 - $(date +%s%3N))/1000}")"
  if [ "$how" = stall ]; then
    FROZEN="$(store_pid "$store")" && kill -STOP "$FROZEN"
  else
    scripts/stack/stack.sh stop "$store" >/dev/null
  fi
  declare -A unready=()
  until_ms=$(( start_ms + (OUTAGE_AT + outage_for) * 1000 ))
  while [ "$(date +%s%3N)" -lt "$until_ms" ]; do
    for n in "${PERFLAB_SERVICES[@]}"; do
      [ "$(date +%s%3N)" -lt "$until_ms" ] || break
      ready "$n" || unready[$n]=1
    done
    sleep 0.5
  done
  back=$(date +%s)
  if [ "$how" = stall ]; then thaw; else scripts/stack/stack.sh stores >/dev/null; fi
  ready_after=""
  for _ in $(seq 1 $(( READY_WITHIN * 2 ))); do
    all=1; for n in "${PERFLAB_SERVICES[@]}"; do ready "$n" || { all=0; break; }; done
    [ "$all" = 0 ] || { ready_after=$(( $(date +%s) - back )); break; }
    sleep 0.5
  done
  run_rc=0; wait "$run_pid" || run_rc=$?
  after_pids=$(pids)
  summary="$results/outage-$name-summary.json"
  read -r total refused badn < <(counts "$summary" http_reqs outage_refused_503 outage_bad_answers)
  problems=()
  [ "$run_rc" = 0 ] || problems+=("load runner exit $run_rc (thresholds: no bad answer, every request served before and after; see $results/$name.log)")
  for n in "${needs[@]}"; do [ -n "${unready[$n]:-}" ] || problems+=("$n stayed ready while $store was down"); done
  for n in "${PERFLAB_SERVICES[@]}"; do
    printf '%s\n' "${needs[@]}" | grep -qx "$n" || [ -z "${unready[$n]:-}" ] || problems+=("$n went unready without needing $store")
  done
  [ -n "$ready_after" ] || problems+=("not every service ready within ${READY_WITHIN} s of $store's return")
  [ "$before_pids" = "$after_pids" ] || problems+=("a process was restarted: $before_pids -> $after_pids")
  if [ -d "$results/stall-creates" ] && [ "$how" = stall ]; then
    wait "${STALL_PIDS[@]}" 2>/dev/null || true
    local bad
    bad="$(stall_creates_judged "$results/stall-creates")" || problems+=("creates across the freeze: $bad")
    log "creates across the freeze: $(cat "$results/stall-creates/summary")"
  fi
  printf '| %s | %s s | %s | %s | %s | %s | %s | %s |\n' "$1" "$outage_for" "$total" "$refused" "$badn" \
    "$(printf '%s ' "${!unready[@]}")" "${ready_after:-never} s" "$([ "$before_pids" = "$after_pids" ] && echo no || echo yes)" >>"$report"
  unset unready
  if [ ${#problems[@]} -gt 0 ]; then
    rc=1; log "$1: FAILED"; printf '  %s\n' "${problems[@]}"
    grep -m 10 -E '^(before|outage|grace|after) ' "$results/$name.log" | sed 's/^/    /' || true
  else
    log "$1: $total requests, $refused refused with 503 while it was down, 0 bad answers; ready again ${ready_after} s after its return; nothing restarted"
  fi
}

# stall_creates AT_MS DIR: STALL_CREATES (6) route creates of 20,000 points through the gateway, one every 150 ms
# from AT_MS, in the background (pids in STALL_PIDS), each answer's status, time and body in DIR/<n>.*
stall_creates() {
  local at=$1 dir=$2 i token
  mkdir -p "$dir"
  token="$(scripts/lib/jwt.sh token alice 1 3600)"
  STALL_RUN="stall-$(date +%s%N)" STALL_PIDS=()
  for i in $(seq 1 "${STALL_CREATES:-6}"); do
    jq -nc --arg n "$STALL_RUN-$i" \
      '{name: $n, bus: "b", stops: [], points: [range(20000) as $j | {lat: (37.5 + $j * 0.00001), lng: (127 + $j * 0.00001)}]}' >"$dir/$i.json"
    (sleep "$(awk "BEGIN{d = ($at + ($i - 1) * 150 - $(date +%s%3N)) / 1000; print (d > 0 ? d : 0)}")"
      curl -s --max-time 40 -o "$dir/$i.body" -w '%{http_code} %{time_total}\n' -XPOST "http://127.0.0.1:$PERFLAB_GATEWAY_PORT/v1/routes" \
        -H "Authorization: Bearer $token" -H 'Content-Type: application/json' --data-binary @"$dir/$i.json" >"$dir/$i.status" 2>&1) &
    STALL_PIDS+=($!)
  done
}
# stall_creates_judged DIR: each create answered 201 or 503 problem+json; each 201's route stored once, each refused one
# not at all: nothing accepted is lost, nothing refused is kept. Their times are reported, not bounded: a batch insert
# being written when the server froze waits in a socket write until it thaws (measured: 17-18 s for a 15 s stall;
# no socket timeout ends a write, and Connector/J's query timeout closes the connection only by taking the lock that
# write holds). Prints what was wrong (status 1), and a summary in DIR/summary either way
stall_creates_judged() {
  local dir=$1 i code stored created=0 refused=0 problems=()
  for i in $(seq 1 "${STALL_CREATES:-6}"); do
    read -r code _ <"$dir/$i.status" || code=none
    stored="$(mariadb --no-defaults --socket="$PERFLAB_RUN/mariadb.sock" -uroot perflab_route -N -B -e \
      "SELECT COUNT(*) FROM route WHERE name = '$STALL_RUN-$i'")"
    case "$code" in
      201) created=$((created + 1)); [ "$stored" = 1 ] || problems+=("create $i answered 201, stored $stored times") ;;
      503) refused=$((refused + 1)); [ "$stored" = 0 ] || problems+=("create $i answered 503, stored $stored times")
        grep -q '"status":503' "$dir/$i.body" || problems+=("create $i: a 503 that is no problem+json") ;;
      *) problems+=("create $i answered $code") ;;
    esac
  done
  echo "$created created (each stored once), $refused refused with 503 (none stored), slowest $(cut -d' ' -f2 "$dir"/*.status | sort -n | tail -1) s" >"$dir/summary"
  [ ${#problems[@]} -eq 0 ] || { printf '%s; ' "${problems[@]}"; return 1; }
}

# the records a create answered 2xx for: a MySQL service's rows are read back by their unique marker (found, and
# stored once), where its service.env's `stored` says; a link (MongoDB, no unique field to count by) is looked up
# through the API
verify_created() {  # SERVICE LOG -> "found missing duplicated"
  local svc=$1 token db tbl id col
  read -r db tbl id col <<<"$(service_conf "$svc" stored)"
  if [ -n "$db" ]; then
    mariadb --no-defaults --socket="$PERFLAB_RUN/mariadb.sock" -uroot "$db" -N -B -e \
      "SELECT $id, $col FROM $tbl WHERE $col LIKE 'crash-$RUN_ID-%'" >"$results/$svc-rows.tsv"
  fi
  token="$(scripts/lib/jwt.sh token alice 1 3600)"
  grep -o "CREATED $svc [^ ]* [^ \"]*" "$2" >"$results/$svc-created.txt" || true
  scripts/test/check-created.py "$svc" "$results/$svc-created.txt" "$results/$svc-rows.tsv" "$token" "http://127.0.0.1:$PERFLAB_GATEWAY_PORT"
}

# a term case's service runs with its Tomcat access log: begin and end (epoch ms), status and X-Request-Id of each request
access_env() {  # DIR
  ACCESS_ENV=(SERVER_TOMCAT_ACCESSLOG_ENABLED=true SERVER_TOMCAT_ACCESSLOG_DIRECTORY="$1" SERVER_TOMCAT_ACCESSLOG_PREFIX=access
    SERVER_TOMCAT_ACCESSLOG_SUFFIX=.log SERVER_TOMCAT_ACCESSLOG_ROTATE=false SERVER_TOMCAT_ACCESSLOG_BUFFERED=false
    "SERVER_TOMCAT_ACCESSLOG_PATTERN=%{begin:msec}t %{end:msec}t %s %{X-Request-Id}i")
  [ "${TERM_SHUTDOWN:-graceful}" = graceful ] || ACCESS_ENV+=(SERVER_SHUTDOWN="$TERM_SHUTDOWN")
}
# the create a term case sends slowly across the signal (route: a 20,000-point route, 0.9 MB; mail: a 480 KB mail),
# as "<path> <status> <JSON field of its id> <its marker>"; the body into FILE. Nothing for the other services.
slow_create() {  # SERVICE FILE
  case "$1" in
    route) jq -nc --arg n "crash-$RUN_ID-slow" \
        '{name: $n, bus: "b", stops: [], points: [range(20000) as $i | {lat: (37.5 + $i * 0.00001), lng: (127 + $i * 0.00001)}]}' >"$2"
      echo "/v1/routes 201 id crash-$RUN_ID-slow" ;;
    mail) jq -nc --arg s "crash-$RUN_ID slow" --arg to "crash-$RUN_ID-slow@load.perflab.test" \
        '{sender_no: 1, to: [$to], subject: $s, content: ("sent slowly across a SIGTERM " * 16000)}' >"$2"
      echo "/v2/mails/send 202 mail_no crash-$RUN_ID-slow" ;;
  esac
}
# the requests the service began before the signal and ended after it (its access log), each looked up among the
# runner's answers (ANSWER <id> <status> whole|cut) or, the slow create, curl's: "<in flight> <served> <ids not served>"
in_flight() {  # ACCESS-LOG SIGNAL-MS RUN-LOG SLOW-ID SLOW-STATUS
  awk -v t="$2" -v slow="$4" -v slow_status="$5" -v run="$RUN_ID" '
    FNR == NR { if (match($0, /ANSWER [^ ]+ [0-9]+ [a-z]+/)) { split(substr($0, RSTART, RLENGTH), a, " ");
                  answer[a[2]] = a[3] " " a[4] } next }
    # the requests of this run only (their ids end with the run id): those of other callers are not looked up
    $1 + 0 < t && $2 + 0 >= t && $4 ~ ("-" run "$") {
      n++; got = ($4 == slow) ? slow_status " whole" : answer[$4]; split(got, g, " ")
      if (g[1] >= 200 && g[1] < 300 && g[2] == "whole") ok++; else bad = bad " " $4 "(" (got == "" ? "no answer" : got) ")"
    }
    END { printf "%d %d%s\n", n, ok, bad }' "$3" "$1"
}

process_case() {  # kill:<service> | term:<service>
  local how=${1%%:*} svc=${1#*:} start_ms down_ms back="" run_rc=0 total refused badn created found missing dup
  local pid inflight="" inflight_ok="" unserved="" cut stopped="" verdict access="" slow="" slow_pid slow_status=""
  local log_file="$results/$how-$svc.log" problems=()
  RUN_ID="$(date +%s%N)"
  if [ "$how" = term ]; then
    # the instance that gets the signal keeps its access log; the one started after it runs as the stack's do
    access="$results/$how-$svc-access"; mkdir -p "$access"; access_env "$access"
    scripts/stack/stack.sh stop "$svc" >/dev/null
    env "${ACCESS_ENV[@]}" scripts/stack/stack.sh start "$svc" >/dev/null
    slow="$(slow_create "$svc" "$results/$how-$svc-slow.json")"
  fi
  log "$svc $([ "$how" = kill ] && echo "killed (kill -9)" || echo "stopped (SIGTERM)") under load at ${OUTAGE_AT} s, started again at once"
  # the route's streaming callers ask back to back: spread over eight users of office 1 (routes are the office's), so
  # the gateway's per-caller rate limit is not what answers them; links and signings stay alice's (owner-checked)
  local tokens n
  tokens="$(scripts/lib/jwt.sh token alice 1 3600)"
  if [ "$svc" = route ]; then for n in 1 2 3 4 5 6 7; do tokens+=" $(scripts/lib/jwt.sh token "crash-reader-$n" 1 3600)"; done; fi
  # mail's EML streams read the seeded mails of three other users of office 1, each its own
  local readers=""
  if [ "$svc" = mail ]; then for n in bob user3 user4; do readers+=" $(scripts/lib/jwt.sh token "$n" 1 3600)"; done; fi
  # the runner starts, sets up (a route's 20,000 points, mail's readers' EMLs) and waits paused on its control port; it
  # is started at START_MS (or at once, if its setup took longer), so the run's clock and its load begin together
  start_ms=$(( $(date +%s%3N) + 5000 ))
  runner_paused run reliability-crash BASE_URL="http://127.0.0.1:$PERFLAB_GATEWAY_PORT" \
    CALLER_TOKENS="$tokens" READER_TOKENS="$readers" SERVICE="$svc" HOW="$how" START_MS="$start_ms" RUN="$RUN_ID" \
    DOWN_AT="$OUTAGE_AT" BACK_BY=$(( OUTAGE_AT + BACK_WITHIN )) DURATION="$(( OUTAGE_AT + BACK_WITHIN + AFTER ))s" \
    SUMMARY_DIR="$results" SUMMARY_NAME="$how-$svc" >"$log_file" 2>&1 || { rc=1; log "$how:$svc: FAILED: the load runner never got ready ($log_file)"; tail -5 "$log_file"; return; }
  sleep "$(awk "BEGIN{s = ($start_ms - $(date +%s%3N))/1000; print (s > 0 ? s : 0)}")"
  runner_start || { rc=1; log "$how:$svc: FAILED: the load runner could not be started"; return; }
  pid="$(cat "$PERFLAB_RUN/pids/$svc.pid")"
  if [ -n "$slow" ]; then
    local slow_path slow_want slow_field slow_marker slow_bytes
    read -r slow_path slow_want slow_field slow_marker <<<"$slow"
    slow_bytes=$(stat -c %s "$results/$how-$svc-slow.json")
    sleep "$(awk "BEGIN{s = ($start_ms + $OUTAGE_AT*1000 - 1500 - $(date +%s%3N))/1000; print (s > 0 ? s : 0)}")"
    # 3 s of upload (Expect: off, so the body starts at once), begun 1.5 s before the signal
    curl -s -o "$results/$how-$svc-slow.out" -w '%{http_code}' --max-time 30 --limit-rate "$((slow_bytes / 3))" -H 'Expect:' \
      -H "Authorization: Bearer ${tokens%% *}" -H 'Content-Type: application/json' -H "X-Request-Id: slow-$RUN_ID" \
      --data-binary "@$results/$how-$svc-slow.json" "http://127.0.0.1:$PERFLAB_GATEWAY_PORT$slow_path" >"$results/$how-$svc-slow.status" &
    slow_pid=$!
  fi
  sleep "$(awk "BEGIN{s = ($start_ms + $OUTAGE_AT*1000 - $(date +%s%3N))/1000; print (s > 0 ? s : 0)}")"
  down_ms=$(date +%s%3N)
  # the signal itself at the agreed time, its own time kept (down_ms: what the service had begun before it is in flight)
  if [ "$how" = kill ]; then
    kill -KILL "$pid"; scripts/stack/stack.sh kill "$svc" >/dev/null
  else
    kill -TERM "$pid"; scripts/stack/stack.sh stop "$svc" >/dev/null
  fi
  local gone_ms; gone_ms=$(date +%s%3N)
  scripts/stack/stack.sh start "$svc" >/dev/null && back=$(( ($(date +%s%3N) - down_ms) / 1000 ))
  # where the time to serve again went: the old process's exit, then the new one's start to ready
  log "$svc gone $((gone_ms - down_ms)) ms after the signal, serving again $(( $(date +%s%3N) - gone_ms )) ms after that"
  # serving again (ready): AFTER seconds of after phase, then the run ends
  if [ -n "$back" ]; then
    sleep "$AFTER"
    ! kill -0 "$RUNNER_PID" 2>/dev/null || ! curl -fs -o /dev/null --max-time 5 -X POST "http://$RUNNER_CONTROL/v1/stop" || stopped=1
  fi
  wait "$RUNNER_PID" || run_rc=$?
  if [ -n "$slow" ]; then
    wait "$slow_pid" || true
    slow_status=$(cat "$results/$how-$svc-slow.status")
    # a slow create answered 2xx is one more record to find once
    if [ "$slow_status" = "$slow_want" ]; then
      echo "CREATED $svc $(jq -r ".$slow_field" "$results/$how-$svc-slow.out") $slow_marker" >>"$log_file"
    else
      problems+=("SIGTERM: the create sent slowly across the signal was answered $slow_status, not $slow_want: $(head -c 300 "$results/$how-$svc-slow.out")")
    fi
  fi
  if [ "$how" = term ]; then
    if [ -s "$access/access.log" ]; then
      read -r inflight inflight_ok unserved < <(in_flight "$access/access.log" "$down_ms" "$log_file" "slow-$RUN_ID" "$slow_status")
    else
      problems+=("SIGTERM: $svc wrote no access log ($access): what it had begun at the signal is unknown")
    fi
  fi
  read -r total refused badn cut < <(counts "$results/$how-$svc-summary.json" http_reqs \
    crash_refused_503 crash_bad_answers crash_cut_at_kill)
  read -r found missing dup < <(verify_created "$svc" "$log_file")
  # the creates answered 2xx are the CREATED lines (the runner's and the slow one's)
  created=$(wc -l <"$results/$svc-created.txt")
  # a sent mail must also reach its recipient: every committed one at the SMTP server (GreenMail), once; after kill -9
  # a message may go out again, with the same Message-ID (at-least-once), never under SIGTERM
  local delivered="n/a" count committed once dmissing ddup dsame orphan
  if [ "$svc" = mail ] || [ "$svc" = send ]; then
    for _ in $(seq 1 $(( DELIVERED_WITHIN * 2 ))); do
      count=$(scripts/test/delivery-count.py "crash-$RUN_ID" --json || true)
      [ "$(field "$count" missing)" != 0 ] || break
      sleep 0.5
    done
    echo "$count" >"$results/$how-$svc-delivery.json"
    read -r committed once dmissing ddup dsame orphan < <(field "$count" committed_mails delivered_once missing \
      duplicates duplicates_with_same_message_id without_committed_mail)
    delivered="$once of $committed once, $ddup again"
    [ "$dmissing" = 0 ] && [ "$orphan" = 0 ] || problems+=("SMTP: $dmissing committed mails not delivered within ${DELIVERED_WITHIN} s, $orphan messages without a committed mail")
    [ "$ddup" = "$dsame" ] || problems+=("SMTP: $ddup messages sent again, only $dsame with the same Message-ID")
    [ "$how" = kill ] || [ "$ddup" = 0 ] || problems+=("SIGTERM: $ddup messages sent twice")
  fi
  verdict=$(run_verdict "$run_rc" "$stopped" "$results/$how-$svc-summary.json")
  [ -z "$verdict" ] || problems+=("$verdict (thresholds: no bad answer, every request served before and after, an after phase; see $log_file)")
  [ -n "$back" ] && [ "$back" -le "$BACK_WITHIN" ] || problems+=("$svc was not serving within ${BACK_WITHIN} s (${back:-never})")
  [ "$found" = "$created" ] && [ "$missing" = 0 ] || problems+=("$created creates answered 2xx, $found found, $missing missing")
  [ "$dup" = 0 ] || [ "$dup" = n/a ] || problems+=("$dup records stored twice")
  [ "$how" = kill ] || [ "$inflight" = "$inflight_ok" ] || problems+=("SIGTERM: $inflight_ok of $inflight requests $svc had begun before the signal were answered whole; not: $unserved")
  # the slow create is in the service at the signal: with none there, graceful completion was not exercised
  [ -z "$slow" ] || [ "${inflight:-0}" -gt 0 ] || problems+=("SIGTERM: $svc had no request in flight at the signal (its access log: $access)")
  printf '| %s | %s | %s | %s | %s | %s | %s of %s | %s | %s | %s s |\n' "$how:$svc" "$total" \
    "$([ "$how" = kill ] && echo "$cut cut by the crash" || echo "$inflight_ok of $inflight served")" "$refused" \
    "$badn" "$created" "$found" "$created" "$dup" "$delivered" "${back:-never}" >>"$process_report"
  if [ ${#problems[@]} -gt 0 ]; then
    rc=1; log "$how:$svc: FAILED"; printf '  %s\n' "${problems[@]}"
    grep -m 10 -E '^(before|down|after) ' "$log_file" | sed 's/^/    /' || true
  else
    log "$how:$svc: $total requests, $([ "$how" = kill ] && echo "$cut answers cut by the crash" || echo "$inflight_ok of $inflight in flight at the signal served"), $refused refused with 503 while it was away, 0 bad answers; $created creates answered 2xx, all $found found$([ "$svc" = shortener ] || echo " once")$([ "$delivered" = n/a ] || echo ", delivered $delivered"); serving again ${back} s after"
  fi
}

process_report="$results/processes.md"
printf '| case | requests | in flight at the signal | 503 while away | bad answers | creates answered 2xx | found after | stored twice | delivered (SMTP) | back after |\n|---|---|---|---|---|---|---|---|---|---|\n' >"$process_report"
rc=0
for c in "${CASES[@]}"; do
  case "$c" in
    kill:*|term:*) process_case "$c" ;;
    *) store_case "$c" ;;
  esac
done
# each table only if a case of its kind ran
[ "$(wc -l <"$report")" -gt 2 ] || : >"$report"
[ "$(wc -l <"$process_report")" -le 2 ] || cat "$process_report" >>"$report"
cat "$report"
log "report: $report"
exit "$rc"
