#!/usr/bin/env bash
# Seed 000 side by side, one load generator (wrk, loopback, bounded), each pair in one run:
#   list   GET /v2/mails at 200 connections: list-count=not-exists (fixed) vs left-join (seed baseline)
#   read   GET /v2/mails/{22 MB mail} at 80 connections, -Xmx1g G1: eml-read=streaming vs in-memory
#   eml    GET /v2/mails/{no}/eml of the 22 MB file vs nginx serving the same file
# Needs the stores and seeded mail data (MAILS=1000000 make seed for the list figures).
# Usage: scripts/bench/bench-mail.sh [list|read|eml|all] [seconds per run, default 15]
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
PERFLAB_WITH_BENCH_TOOLS=1 scripts/stack/install.sh >/dev/null
what=${1:-all}; secs=${2:-15}
out="$PERFLAB_RUN/bench"; mkdir -p "$out"
[ -f services/mail/target/mail.jar ] || ./mvnw -q -B -pl services/mail -am package -DskipTests
# straight at mail, without the gateway: alice's identity as the gateway signs it (docs/architecture.md#service-identity)
scripts/lib/jwt.sh keys
H=(-H "X-Perflab-Identity: $(scripts/lib/jwt.sh identity perflab-gateway alice 1 mail 3600)")
sql() { mariadb --no-defaults --socket="$PERFLAB_RUN/mariadb.sock" -uroot perflab_mail -N -e "$1"; }
mails=$(sql "SELECT COUNT(*) FROM mail_content")
large=$(sql "SELECT MIN(m.no) FROM mail_content m WHERE m.user_no = 1 AND m.eml_path LIKE '%large%' AND m.mbox_no < 1000 AND m.del_flag = 'N'")

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
start_mail() { # port name extra-args...
  local port=$1 name=$2; shift 2
  start_jvm mail services/mail/target/mail.jar "$port" "$out/mail-$name.log" \
    JAVA_TOOL_OPTIONS="-XX:+UseG1GC -Xms1g -Xmx1g -XX:+ExitOnOutOfMemoryError" -- "$@"
  pids+=($!)
  await_ready "$port" "${pids[-1]}" "$out/mail-$name.log" || exit 1
}
stop_all() { kill "${pids[@]}" 2>/dev/null || true; wait "${pids[@]}" 2>/dev/null || true; pids=(); }
# mean heap allocated by the EML parse of one read, from the service's own counter (perflab.mail.read.allocated)
read_allocation() { curl -fs "http://127.0.0.1:$(mgmt_port "$1")/actuator/prometheus" | awk '
  /^perflab_mail_read_allocated_bytes_sum/ {s=$2} /^perflab_mail_read_allocated_bytes_count/ {c=$2}
  END { if (c > 0) printf "%.0f KB over %d reads", s / c / 1024, c; else print "no reads counted" }'; }

declare -A rps
wrk_run() { # label conns url [extra wrk args]
  local label=$1 conns=$2 url=$3; shift 3
  local text; text=$(wrk -t1 -c"$conns" -d"${secs}s" --timeout 30s --latency "${H[@]}" "$@" "$url" 2>&1 || true)
  rps[$label]=$(awk '/Requests\/sec/ {print $2}' <<<"$text"); rps[$label]=${rps[$label]:-0}
  local errors; errors=$(awk '/Non-2xx or 3xx/ {print $5}' <<<"$text"); errors=${errors:-0}
  local sockerr; sockerr=$(grep -oE 'Socket errors:.*' <<<"$text" || true)
  printf '%-40s %9s req/s  p50 %-9s p99 %-9s non-2xx %s %s\n' "$label" "${rps[$label]}" \
    "$(awk '$1=="50%" {print $2}' <<<"$text")" "$(awk '$1=="99%" {print $2}' <<<"$text")" "$errors" "$sockerr"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "n/a (baseline served nothing)" }'; }

if [[ $what == list || $what == all ]]; then
  echo "== list: $mails mails in store, alice's mailbox, 200 connections, ${secs}s each"
  start_mail 18181 not-exists --perflab.mail.list-count=not-exists
  start_mail 18182 left-join --perflab.mail.list-count=left-join
  for p in 18181 18182; do wrk -t1 -c50 -d3s "${H[@]}" "http://127.0.0.1:$p/v2/mails" >/dev/null; done
  wrk_run "list-count=not-exists (fixed)" 200 "http://127.0.0.1:18181/v2/mails"
  wrk_run "list-count=left-join (seed)" 200 "http://127.0.0.1:18182/v2/mails"
  wrk_run "with params, not-exists" 200 "http://127.0.0.1:18181/v2/mails?sort[received_date]=desc&with=approval_mail&with=receipt_confirm&with=encrypted"
  wrk_run "with params, left-join" 200 "http://127.0.0.1:18182/v2/mails?sort[received_date]=desc&with=approval_mail&with=receipt_confirm&with=encrypted"
  echo "fixed / baseline: $(ratio "${rps[list-count=not-exists (fixed)]}" "${rps[list-count=left-join (seed)]}")"
  stop_all
fi

if [[ $what == read || $what == all ]]; then
  echo "== read of the 22 MB mail #$large: 80 connections, -Xmx1g G1, ${secs}s each"
  for mode in streaming in-memory; do
    port=$([ $mode = streaming ] && echo 18183 || echo 18184)
    start_mail "$port" $mode --perflab.mail.eml-read=$mode
    pid=${pids[-1]}
    curl -fs "${H[@]}" "http://127.0.0.1:$port/v2/mails/$large" >/dev/null
    wrk_run "eml-read=$mode" 80 "http://127.0.0.1:$port/v2/mails/$large"
    if kill -0 "$pid" 2>/dev/null; then
      echo "  heap allocated per read (EML parse, mean): $(read_allocation "$port")"
      echo "  process after the run: alive"
    else
      echo "  process after the run: DIED — $(grep -o 'OutOfMemoryError[^"]*' "$out/mail-$mode.log" | head -n 1 || echo 'see its log')"
    fi
  done
  echo "streaming / in-memory: $(ratio "${rps[eml-read=streaming]}" "${rps[eml-read=in-memory]}")"
  stop_all
fi

if [[ $what == eml || $what == all ]]; then
  echo "== raw EML of the 22 MB mail #$large vs nginx serving the same file, 16 connections, ${secs}s each"
  file=$(sql "SELECT eml_path FROM mail_content WHERE no = $large")
  cat >"$out/nginx-eml.conf" <<CONF
worker_processes 1; daemon off; pid $out/nginx-eml.pid; error_log $out/nginx-eml.err warn;
events { worker_connections 1024; }
http { access_log off; sendfile on; server { listen 127.0.0.1:18185;
  location = /eml { default_type message/rfc822; alias $PERFLAB_MAIL_STORAGE/$file; } } }
CONF
  /usr/sbin/nginx -c "$out/nginx-eml.conf" -p "$out" & pids+=($!)
  start_mail 18186 eml
  sleep 1
  wrk_run "nginx sendfile (reference)" 16 "http://127.0.0.1:18185/eml"
  wrk_run "mail /v2/mails/{no}/eml" 16 "http://127.0.0.1:18186/v2/mails/$large/eml"
  echo "mail / nginx: $(ratio "${rps[mail /v2/mails/{no}/eml]}" "${rps[nginx sendfile (reference)]}") (22,958,888 bytes per request)"
  stop_all
fi
