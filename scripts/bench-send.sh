#!/usr/bin/env bash
# Seed 000's POST /v2/mails/send, side by side in one run, through the gateway of the local stack:
#   1. nested-requires-new (the seed's hand-off) and 2. outbox (the fix), each with VUS concurrent senders for
#      DURATION, a Hikari pool of POOL in mail and send, read receipts on;
#   3. faults (outbox): kill -9 send, kill -9 mail, then the SMTP relay frozen for 30 s, all while senders run.
# After each phase it waits for the outbox and the delivery queue to drain, then counts what the SMTP server
# received against what mail committed (scripts/delivery-count.py): every committed mail exactly once per recipient.
#
#   scripts/bench-send.sh                         VUS=150 DURATION=60s POOL=10 (the issue's proof, ~6 min)
#   VUS=30 DURATION=15s scripts/bench-send.sh     a short run
#   PHASES="outbox faults" scripts/bench-send.sh  some phases only
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"

VUS=${VUS:-150}
DURATION=${DURATION:-60s}
POOL=${POOL:-10}
PHASES=${PHASES:-nested-requires-new outbox faults}
FAULT_SECONDS=${FAULT_SECONDS:-90}
OUT="$PERFLAB_RUN/bench"
mkdir -p "$OUT"
REPORT="$OUT/send-$(date +%Y%m%d-%H%M%S).txt"

scripts/stack.sh up >/dev/null
api="http://127.0.0.1:$PERFLAB_SMTP_API_PORT"
mysql_root() { mariadb --no-defaults --socket="$PERFLAB_RUN/mariadb.sock" -uroot -N -B "$@"; }

# ten callers of office 1 (alice = 1, bob = 2, user3..user10), so the gateway's per-caller rate limit is not the bottleneck
tokens="["
for n in 1 2 3 4 5 6 7 8 9 10; do
  login=$([ $n = 1 ] && echo alice || { [ $n = 2 ] && echo bob || echo "user$n"; })
  tokens+="{\"token\":\"$(scripts/jwt.sh token "$login" 1 3600)\",\"sender_no\":$n},"
done
tokens="${tokens%,}]"

restart() { # handoff
  scripts/stack.sh stop mail >/dev/null; scripts/stack.sh stop send >/dev/null
  SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=$POOL PERFLAB_MAIL_SENDHANDOFF=$1 scripts/stack.sh start mail
  SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=$POOL scripts/stack.sh start send
}

drain() { # waits until mail's outbox and send's queue are empty
  local end=$((SECONDS + 300)) outbox jobs
  while :; do
    outbox=$(mysql_root perflab_mail -e "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL AND dead_at IS NULL")
    jobs=$(mysql_root perflab_send -e "SELECT COUNT(*) FROM delivery_job WHERE status <> 'DONE'")
    [ "$outbox" = 0 ] && [ "$jobs" = 0 ] && return 0
    [ $SECONDS -lt $end ] || { log "not drained after 300 s: outbox $outbox, delivery jobs $jobs"; return 1; }
    sleep 1
  done
}

hikari_timeouts() { # service port
  curl -fsS "http://127.0.0.1:$1/actuator/prometheus" | awk '/^hikaricp_connections_timeout_total/ {s += $2} END {print s + 0}'
}

k6_run() { # run-name duration
  "$K6_BIN" run --no-usage-report --quiet -e BASE_URL="http://127.0.0.1:$PERFLAB_GATEWAY_PORT" -e TOKENS="$tokens" \
    -e VUS="$VUS" -e DURATION="$2" -e RUN="$1" -e SUMMARY_DIR="$OUT" -e SUMMARY_NAME="$1" k6-tests/mail/send.js \
    >"$OUT/$1.k6.txt" 2>&1 || true   # the baseline fails its thresholds: that is the finding
}

row() { # phase run-name
  local m t s
  m=$(hikari_timeouts "$PERFLAB_MAIL_PORT"); s=$(hikari_timeouts "$PERFLAB_SEND_PORT")
  drain || true
  t=$(scripts/delivery-count.py "$2" --json || true)
  python3 - "$1" "$OUT/$2-summary.json" "$m" "$s" "$t" <<'PY' | tee -a "$REPORT"
import json, sys
phase, summary, mail_to, send_to, count = sys.argv[1:6]
m = json.load(open(summary))["metrics"]
v = lambda name, key: m.get(name, {}).get("values", {}).get(key, 0)
c = json.loads(count) if count else {}
secs = m["http_reqs"]["values"]["count"] / m["http_reqs"]["values"]["rate"]
print(f"{phase:<20} {v('mail_send_accepted','count') / secs:>10.1f} {v('mail_send_duration','p(95)'):>8.0f} "
      f"{v('mail_send_duration','avg'):>8.0f} {int(v('mail_send_overloaded','count')):>6} {int(v('mail_send_server_errors','count')):>5} "
      f"{mail_to:>7}/{send_to:<4} {c.get('committed_mails','?'):>9} {c.get('delivered_once','?'):>9} "
      f"{c.get('missing','?'):>7} {c.get('duplicates','?'):>5} {c.get('without_committed_mail','?'):>7}")
PY
}

{
  echo "POST /v2/mails/send through the gateway: $VUS senders, pool $POOL in mail and send, read receipts on ($(date -u +%FT%TZ))"
  printf '%-20s %10s %8s %8s %6s %5s %12s %9s %9s %7s %5s %7s\n' phase accepted/s p95_ms avg_ms 503s 5xx \
    hikari_to committed once missing dups orphan
} | tee "$REPORT"

for phase in $PHASES; do
  curl -fsS -X POST "$api/api/mail/purge" >/dev/null
  run="$(echo "$phase" | tr -cd 'a-z')$(date +%s)"
  case "$phase" in
    nested-requires-new|outbox)
      log "$phase: restarting mail and send (pool $POOL), $VUS senders for $DURATION"
      restart "$phase"
      k6_run "$run" "$DURATION"
      row "$phase" "$run" ;;
    faults)
      log "faults: outbox, $VUS senders for ${FAULT_SECONDS}s; kill -9 send at 10 s, kill -9 mail ~25 s, SMTP frozen for 30 s after that"
      restart outbox
      k6_run "$run" "${FAULT_SECONDS}s" &
      k6=$!
      sleep 10; kill -9 "$(cat "$PERFLAB_RUN/pids/send.pid")"; log "killed send"; sleep 3
      SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=$POOL scripts/stack.sh start send >/dev/null; log "send back"
      sleep 9; kill -9 "$(cat "$PERFLAB_RUN/pids/mail.pid")"; log "killed mail"; sleep 3
      SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=$POOL scripts/stack.sh start mail >/dev/null; log "mail back"
      sleep 5; kill -STOP "$(cat "$PERFLAB_RUN/pids/smtp.pid")"; log "SMTP relay frozen (SIGSTOP)"
      sleep 30; kill -CONT "$(cat "$PERFLAB_RUN/pids/smtp.pid")"; log "SMTP relay back (SIGCONT)"
      wait "$k6"
      row faults "$run" ;;
    *) log "unknown phase $phase"; exit 2 ;;
  esac
done
scripts/stack.sh stop mail >/dev/null; scripts/stack.sh stop send >/dev/null
scripts/stack.sh up >/dev/null   # back to the defaults
log "report: $REPORT"
