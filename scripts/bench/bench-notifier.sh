#!/usr/bin/env bash
# Seed 001 side by side in one run: guestbook signings, each with an SMS sent by tools/sms-sink (0.5 s), Hikari pool 10.
#   in-transaction-sync   the seed's start: the SMS is sent inside the registration's transaction
#   after-commit-async    the fix: commit, then send on the bounded executor (15/100/50) with a pool of its own
#   burst                 the fix, the provider slowed to BURST_LATENCY_MS while PEAK/s arrive: the executor refuses
#                         dispatches, the sweeper must send every one
#   sink-down             the fix, the provider refusing every SMS for DOWN_SECONDS while signings go on, then back
#   kill                  the fix, kill -9 of notifier mid-load, then started again
#   signup-sync           seed 003: one user signing up for SIGNUP_DURATION, the welcome mail sent inside the
#   signup-async          transaction (the seed's start) or after commit, the relay taking MAIL_DELAY_MS (1 s, the
#                         seed's) to accept each mail (tools/sms-sink's SlowRelay in front of GreenMail)
# Each profile is seed 001's shape (RATE/s for STAGE, PEAK/s for STAGE). After each phase it waits until no SMS
# notification of the phase is PENDING, then counts per notification what the sink received: lost (not SENT, or never
# at the sink) and duplicates (at the sink more than once).
#
#   scripts/bench/bench-notifier.sh    TARGET=gateway: the local stack's notifier through the gateway (restarted with
#                                      each setting, back to the defaults at the end), the seed's 50/s, 100/s, 1m each
#   CHECK=1 scripts/bench/bench-notifier.sh  bounded (90-110 s): TARGET=direct (two instances of its own on 18185/18195,
#                                      database perflab_notifier_bench, a sink of its own on 18186), 20/s and 50/s for
#                                      6 s each, the sweeper's times shortened, kill -9's leftovers sent by the other
#                                      instance; exit 1 unless the fix loses nothing,
#                                      sends nothing twice (kill -9 excepted: the same message id, at-least-once), has
#                                      no pool timeout and answers every signing 201 (faults excepted), the burst is
#                                      refused by the executor, and the baseline shows the seed's collapse
#   PHASES="in-transaction-sync after-commit-async" ...   some phases only
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"

CHECK=${CHECK:-0}
if [ "$CHECK" = 1 ]; then
  TARGET=${TARGET:-direct}; RATE=${RATE:-20}; PEAK=${PEAK:-50}; STAGE=${STAGE:-6s}
  BURST_RATE=${BURST_RATE:-80}; BURST_SECONDS=${BURST_SECONDS:-2}; DOWN_SECONDS=${DOWN_SECONDS:-6}
  KILL_SECONDS=${KILL_SECONDS:-6}; KILL_AT=${KILL_AT:-2}
  # a JVM start on a loaded 2-core box takes 25-50 s: the killed instance's leftovers are sent by the other
  # instance (the baseline's, on the same database; its sweeper is the same code in both settings), as a replica's
  # would be, instead of waiting for a restart
  REVIVE=${REVIVE:-0}
  # the mechanism unchanged, its clocks shorter: a crash's leftovers due after 2 s (unclaimed) or 8 s (claimed),
  # retries after 200 ms doubling to 2 s
  FAST="PERFLAB_NOTIFIER_SWEEPER_GRACE=2s PERFLAB_NOTIFIER_SWEEPER_LEASE=8s PERFLAB_NOTIFIER_SWEEPER_BACKOFF=200ms
        PERFLAB_NOTIFIER_SWEEPER_MAXBACKOFF=2s PERFLAB_NOTIFIER_SWEEPER_POLLINTERVAL=200ms PERFLAB_NOTIFIER_SWEEPER_CONCURRENCY=20"
else
  TARGET=${TARGET:-gateway}; RATE=${RATE:-50}; PEAK=${PEAK:-100}; STAGE=${STAGE:-1m}
  BURST_RATE=${BURST_RATE:-$PEAK}; BURST_SECONDS=${BURST_SECONDS:-10}; DOWN_SECONDS=${DOWN_SECONDS:-30}
  KILL_SECONDS=${KILL_SECONDS:-40}; KILL_AT=${KILL_AT:-15}; REVIVE=${REVIVE:-1}
  FAST=""
fi
BURST_LATENCY_MS=${BURST_LATENCY_MS:-4000}
LATENCY_MS=${PERFLAB_SMS_SINK_LATENCY_MS:-500}
if [ "$CHECK" = 1 ]; then
  PHASES=${PHASES:-in-transaction-sync after-commit-async burst sink-down kill}
else
  PHASES=${PHASES:-in-transaction-sync signup-sync after-commit-async signup-async burst sink-down kill}
fi
SIGNUP_DURATION=${SIGNUP_DURATION:-1m}
MAIL_DELAY_MS=${MAIL_DELAY_MS:-1000}
SLOW_SMTP_PORT=${SLOW_SMTP_PORT:-13125}
DRAIN_LIMIT=${DRAIN_LIMIT:-300}
OUT="$PERFLAB_RUN/bench/notifier"; mkdir -p "$OUT"
REPORT="$OUT/bench-$(date +%Y%m%d-%H%M%S).txt"; RESULTS="$REPORT.jsonl"
# the identity the gateway would forward, or a bearer token for the gateway; a user of its own, so the gateway's
# per-caller limit is not shared with another test
USER_NAME=notifier-bench
started=$SECONDS
say() { log "t=$((SECONDS - started))s $*"; }
mysql_root() { mariadb --no-defaults --socket="$PERFLAB_RUN/mariadb.sock" -uroot -N -B "$@"; }

# what this script starts, by pid file (a restart after kill -9 happens in a subshell)
cleanup() { # one that is already gone (the kill phase's) must not stop the others' cleanup
  local f; for f in "$OUT"/run-*.pid; do [ -e "$f" ] || continue; kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; done
}
trap cleanup EXIT

relay() { # the slow SMTP relay in front of GreenMail for the sign-up phases
  java -Xmx128m -cp "$1" dev.perflab.smssink.SlowRelay "$SLOW_SMTP_PORT" "$PERFLAB_SMTP_PORT" \
    --delay-ms="$MAIL_DELAY_MS" >"$OUT/relay.log" 2>&1 &
  echo $! >"$OUT/run-relay.pid"
}

if [ "$TARGET" = direct ]; then
  DB=perflab_notifier_bench; SINK_PORT=${SINK_PORT:-18186}; FIXED_PORT=18185; BASE_PORT=18195
  scripts/stack/stack.sh stores >/dev/null  # MariaDB and GreenMail (kept running when already up)
  mysql_root -e "CREATE DATABASE IF NOT EXISTS $DB"
  if (exec 3<>"/dev/tcp/127.0.0.1/$SINK_PORT") 2>/dev/null; then
    echo "port $SINK_PORT is taken: stop what listens there or set SINK_PORT" >&2; exit 2
  fi
  [ -f tools/sms-sink/target/sms-sink-exec.jar ] && [ -f services/notifier/target/notifier.jar ] ||
    ./mvnw -q -B -pl services/notifier,tools/sms-sink -am package -DskipTests
  # run copies: a rebuild must not pull a jar from under a running instance; kept with their times while unchanged,
  # so the class-data archive of the previous run stays valid (a JVM start under load is most of CHECK's time)
  for jar in tools/sms-sink/target/sms-sink-exec.jar tools/sms-sink/target/sms-sink.jar services/notifier/target/notifier.jar; do
    cmp -s "$jar" "$OUT/$(basename "$jar")" || cp -p "$jar" "$OUT/"
  done
  java -Xmx256m -jar "$OUT/sms-sink-exec.jar" "$SINK_PORT" --latency-ms="$LATENCY_MS" >"$OUT/sink.log" 2>&1 &
  echo $! >"$OUT/run-sink.pid"
  relay "$OUT/sms-sink.jar"
  start_instance() { # port dispatch extra-env...
    local port=$1 dispatch=$2; shift 2
    start_jvm --append notifier "$OUT/notifier.jar" "$port" "$OUT/notifier-$port.log" "$@" PERFLAB_NOTIFIER_DB=$DB \
      PERFLAB_NOTIFIER_DISPATCH="$dispatch" PERFLAB_NOTIFIER_SMS_URL="http://127.0.0.1:$SINK_PORT/sms" \
      PERFLAB_NOTIFIER_SMTP_PORT="$SLOW_SMTP_PORT" \
      JAVA_TOOL_OPTIONS="$PERFLAB_JVM_OPTS -XX:SharedArchiveFile=$OUT/notifier.jsa -XX:+AutoCreateSharedArchive" \
      -- --logging.structured.format.console=
    echo $! >"$OUT/run-notifier-$port.pid"
    disown   # its kill -9 is the test, not news
  }
  instance() { cat "$OUT/run-notifier-$1.pid"; }
  wait_instance() { # port
    await_ready "$1" "$(instance "$1")" "$OUT/notifier-$1.log" || exit 1
  }
  # both settings start side by side: one wait for two JVMs
  # shellcheck disable=SC2086
  start_instance $BASE_PORT in-transaction-sync $FAST
  # shellcheck disable=SC2086
  start_instance $FIXED_PORT after-commit-async $FAST
  use() { # dispatch: the port serving it, started if not running
    local port; port=$([ "$1" = in-transaction-sync ] && echo "$BASE_PORT" || echo "$FIXED_PORT")
    wait_instance "$port"; PORT=$port; BASE_URL="http://127.0.0.1:$port"
  }
  stop_baseline() {
    [ "$REVIVE" = 1 ] || return 0   # kept as the surviving instance of the kill phase
    kill "$(instance "$BASE_PORT")" 2>/dev/null || true; rm -f "$OUT/run-notifier-$BASE_PORT.pid"
  }
  crash() { kill -9 "$(instance "$FIXED_PORT")"; }
  # shellcheck disable=SC2086
  revive() { start_instance $FIXED_PORT after-commit-async $FAST; wait_instance $FIXED_PORT; }
  WHO=(IDENTITY="$(scripts/lib/jwt.sh identity perflab-gateway "$USER_NAME" 1 notifier 3600)")
  DESC="direct: baseline 127.0.0.1:$BASE_PORT, fix 127.0.0.1:$FIXED_PORT, identity signed as the gateway"
else
  DB=perflab_notifier; SINK_PORT=$PERFLAB_SMS_SINK_PORT; PORT=$PERFLAB_NOTIFIER_PORT
  BASE_URL="http://127.0.0.1:$PERFLAB_GATEWAY_PORT"
  scripts/stack/stack.sh up >/dev/null
  relay tools/sms-sink/target/sms-sink.jar
  current=""
  use() { # dispatch: the stack's notifier restarted with it
    [ "$current" = "$1" ] && return 0
    scripts/stack/stack.sh stop notifier >/dev/null
    # shellcheck disable=SC2086
    env $FAST PERFLAB_NOTIFIER_DISPATCH="$1" PERFLAB_NOTIFIER_SMTP_PORT="$SLOW_SMTP_PORT" \
      scripts/stack/stack.sh start notifier >/dev/null
    current=$1
  }
  stop_baseline() { :; }
  crash() { scripts/stack/stack.sh kill notifier; }
  # shellcheck disable=SC2086
  revive() { env $FAST PERFLAB_NOTIFIER_SMTP_PORT="$SLOW_SMTP_PORT" scripts/stack/stack.sh start notifier >/dev/null; }
  WHO=(TOKEN="$(scripts/lib/jwt.sh token "$USER_NAME" 1 3600)")
  DESC="through the gateway $BASE_URL to the stack's notifier"
  trap 'cleanup; scripts/stack/stack.sh stop notifier >/dev/null; scripts/stack/stack.sh start notifier >/dev/null' EXIT
fi
SINK="http://127.0.0.1:$SINK_PORT"
load_runner_built

metric() { # name{labels} prefix -> summed value (0 when the instance does not answer)
  local text
  text=$(curl -fsS "http://127.0.0.1:$(mgmt_port "$PORT")/actuator/prometheus" 2>/dev/null) || text=""
  awk -v m="$1" 'index($0, m) == 1 {s += $NF} END {print s + 0}' <<<"$text"
}
pool_timeouts() { metric "hikaricp_connections_timeout_total{pool=\"$1\""; }
max_id() { mysql_root "$DB" -e "SELECT COALESCE(MAX(id), 0) FROM notification"; }
sink_settings() { curl -fsS -X POST "$SINK/settings?$1" >/dev/null; }

load_run() { # name rate peak stage
  load_runner run notifier-seed001 BASE_URL="$BASE_URL" "${WHO[@]}" RATE="$2" PEAK="$3" STAGE="$4" \
    SUMMARY_DIR="$OUT" SUMMARY_NAME="$1" >"$OUT/$1.load.txt" 2>&1 || true
}

drain() { # from to channel: until no notification of the channel in (from, to] is PENDING
  local end=$((SECONDS + DRAIN_LIMIT)) n
  while :; do
    n=$(mysql_root "$DB" -e "SELECT COUNT(*) FROM notification WHERE id > $1 AND id <= $2 AND channel = '$3' AND status = 'PENDING'")
    [ "$n" = 0 ] && return 0
    [ $SECONDS -lt $end ] || { say "$n notifications still PENDING after ${DRAIN_LIMIT} s"; return 1; }
    sleep 0.5
  done
}

row() { # phase from to request-pool-timeouts work-pool-timeouts rejections seconds-to-drain channel
  mysql_root "$DB" -e "SELECT id, status FROM notification WHERE id > $2 AND id <= $3 AND channel = '$8'" >"$OUT/$1.rows"
  curl -fsS "$SINK/deliveries" >"$OUT/$1.sink.json"
  scripts/bench/notifier-row.py "$@" "$OUT/$1-summary.json" "$OUT/$1.rows" "$OUT/$1.sink.json" "$RESULTS" | tee -a "$REPORT"
}

phase() { # name: load, faults beside it, drain, count
  local name=$1 from to before_req before_work before_rej t0
  local channel=SMS
  case "$name" in signup-*) channel=MAIL ;; esac
  use "$(case "$name" in in-transaction-sync|signup-sync) echo in-transaction-sync ;; *) echo after-commit-async ;; esac)"
  sink_settings "latency-ms=$LATENCY_MS&failure-rate=0"
  from=$(max_id)
  before_req=$(pool_timeouts HikariPool-1); before_work=$(pool_timeouts notifier-work)
  before_rej=$(metric perflab_notifier_dispatch_rejections_total)
  case "$name" in
    in-transaction-sync|after-commit-async)
      say "$name: $RATE/s for $STAGE, then $PEAK/s for $STAGE"
      load_run "$name" "$RATE" "$PEAK" "$STAGE" ;;
    signup-sync|signup-async)
      say "$name: one user signing up for $SIGNUP_DURATION, each welcome mail accepted after $MAIL_DELAY_MS ms"
      load_runner run notifier-signup BASE_URL="$BASE_URL" "${WHO[@]}" DURATION="$SIGNUP_DURATION" \
        SUMMARY_DIR="$OUT" SUMMARY_NAME="$name" >"$OUT/$name.load.txt" 2>&1 || true ;;
    burst)
      say "burst: $BURST_RATE/s for $((2 * BURST_SECONDS)) s while the provider takes $BURST_LATENCY_MS ms (the executor fills)"
      sink_settings "latency-ms=$BURST_LATENCY_MS"
      load_run burst "$BURST_RATE" "$BURST_RATE" "${BURST_SECONDS}s"
      sink_settings "latency-ms=$LATENCY_MS" ;;
    sink-down)
      say "sink-down: $RATE/s; the provider refuses every SMS for $DOWN_SECONDS s, then is back"
      sink_settings "failure-rate=1"
      ( sleep "$DOWN_SECONDS"; sink_settings "failure-rate=0"; say "provider back" ) &
      local fault=$!
      load_run sink-down "$RATE" "$RATE" "$(( (DOWN_SECONDS + 2) / 2 ))s"
      wait $fault ;;
    kill)
      say "kill: $RATE/s for $KILL_SECONDS s; kill -9 of notifier at $KILL_AT s$([ "$REVIVE" = 1 ] && echo ", started again at once")"
      # the runner set up and paused first: the kill comes KILL_AT into its load, not into its JVM's start
      runner_paused run notifier-seed001 BASE_URL="$BASE_URL" "${WHO[@]}" RATE="$RATE" PEAK="$RATE" \
        STAGE="$((KILL_SECONDS / 2))s" SUMMARY_DIR="$OUT" SUMMARY_NAME=kill >"$OUT/kill.load.txt" 2>&1 || exit 1
      ( sleep "$KILL_AT"; crash; say "notifier killed (kill -9)"
        if [ "$REVIVE" = 1 ]; then revive; say "notifier back"; fi ) &
      local fault=$!
      runner_start || exit 1
      wait "$RUNNER_PID" || true
      wait $fault ;;
  esac
  to=$(max_id)
  local req work rej
  req=$(( $(pool_timeouts HikariPool-1 | cut -d. -f1) - ${before_req%.*} ))
  work=$(( $(pool_timeouts notifier-work | cut -d. -f1) - ${before_work%.*} ))
  rej=$(( $(metric perflab_notifier_dispatch_rejections_total | cut -d. -f1) - ${before_rej%.*} ))
  # a restarted instance counts from 0
  [ "$name" != kill ] || { req=$(pool_timeouts HikariPool-1 | cut -d. -f1); work=$(pool_timeouts notifier-work | cut -d. -f1); rej=0; }
  t0=$SECONDS; drain "$from" "$to" "$channel" || true
  row "$name" "$from" "$to" "$req" "$work" "$rej" "$((SECONDS - t0))" "$channel"
  case " $PHASES " in *" signup-sync "*) [ "$name" != signup-sync ] || stop_baseline ;;
    *) [ "$name" != in-transaction-sync ] || stop_baseline ;; esac
}

{
  echo "seed 001 signings ($DESC), pool 10, SMS at $LATENCY_MS ms; $RATE/s then $PEAK/s, $STAGE each" \
    "($(date -u +%FT%TZ); $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
  printf '%-20s %6s %7s %5s %5s %5s %7s %7s %7s %10s %6s %6s %6s %5s %5s %6s\n' phase signed 201 503 504 drop \
    p50_ms p95_ms p99_ms pool_to:r/w refused notif sms lost dups drain_s
} | tee "$REPORT"
for p in $PHASES; do
  case "$p" in in-transaction-sync|after-commit-async|signup-sync|signup-async|burst|sink-down|kill) phase "$p" ;; *) log "unknown phase $p"; exit 2 ;; esac
done
echo "took $((SECONDS - started)) s" | tee -a "$REPORT"

scripts/bench/notifier-check.py "$RESULTS" "$CHECK" | tee -a "$REPORT"
log "report: $REPORT"
