#!/usr/bin/env bash
# Deterministic demo data (fixed seeds), idempotent: every service whose services/<name>/service.env has a `seed`
# line runs its jar once with those arguments and no web server (mail: MAILS mails, route: ROUTES routes, ...; the
# sizes and defaults are in those files), then the shortener's LINKS short links (default 50, owner "demo") are
# created through the gateway.
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
LINKS=${LINKS:-${SCALE:-50}}
mkdir -p "$PERFLAB_RUN/logs"

seed_service() {  # NAME ARGS...: its jar once, no web server; the seeders log progress through a logger named Seeder:
  # shown here (prefixed by the service), the rest kept in the log file
  local n=$1 jar="$PERFLAB_RUN/jars/$1.jar" log; shift
  # the jar the stack runs, launched as it launches it (its flags, its AOT cache when trained): three seeders starting
  # beside the stack took 18-25 s each without one
  [ -f "$jar" ] && cmp -s "$jar" "services/$n/target/$n.jar" || jar="services/$n/target/$n.jar"
  # start_jvm empties the log before the JVM starts, so tail finds it (seen, when the seeder's own redirection came
  # later: tail found no file, and the seed of a service that had succeeded was reported failed)
  log="$PERFLAB_RUN/logs/seed-$n.log"
  start_jvm "$n" "$jar" - "$log" -- --spring.main.web-application-type=none "$@" --logging.structured.format.console= \
    || return 1
  local pid=$!
  # progress only: its end is the seeder's (--pid), and its status is not the seed's
  { tail -n +1 --pid="$pid" -f "$log" 2>/dev/null || true; } \
    | { grep --line-buffered -E 'Seeder' || true; } | sed -u -E "s/^.*Seeder *: /$n: /" >&2
  wait "$pid" || { log "$n seed failed; last lines of $PERFLAB_RUN/logs/seed-$n.log:"; tail -n 30 "$PERFLAB_RUN/logs/seed-$n.log" >&2; return 1; }
}

# each service seeds its own database: side by side (a seeder is mostly one JVM start)
seeders=() names=()
for n in "${PERFLAB_SERVICES[@]}"; do
  args=$(service_conf "$n" seed)
  [ -n "$args" ] || continue
  read -ra args <<<"$(tr '\n' ' ' <<<"$args")"
  log "$n data: ${args[*]}"
  [ -f "services/$n/target/$n.jar" ] || ./mvnw -q -B -pl "services/$n" -am package -DskipTests
  seed_service "$n" "${args[@]}" & seeders+=($!) names+=("$n")
done
failed=()
for i in "${!seeders[@]}"; do wait "${seeders[$i]}" || failed+=("${names[$i]}"); done
[ ${#failed[@]} -eq 0 ] || { log "seed failed: ${failed[*]}"; exit 1; }

out="$PERFLAB_RUN/seed/shortener.tsv"
mkdir -p "$(dirname "$out")"
touch "$out"
have=$(wc -l <"$out")
if [ "$have" -ge "$LINKS" ]; then
  log "shortener demo data present: $have short links (first: $(head -n 1 "$out" | cut -f2))"
  exit 0
fi
token=$("$PERFLAB_ROOT"/scripts/lib/jwt.sh token demo 1 600)
base="http://127.0.0.1:$PERFLAB_GATEWAY_PORT"
for n in $(seq $((have + 1)) "$LINKS"); do
  code=$(curl -fsS -X POST "$base/v1/short-links" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"url\":\"https://example.com/demo/$n\"}" | jq -er .code)
  printf '%s\t%s\n' "$n" "$base/s/$code" >>"$out"
done
log "shortener demo data: $LINKS short links, e.g. $(head -n 1 "$out" | cut -f2)"
