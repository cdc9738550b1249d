#!/usr/bin/env bash
# Deterministic demo data (fixed seeds), idempotent:
#   mail:      MAILS mails (default 20000; the benchmarks use 1000000) with 4 KB / 712 KB / 22 MB EML files,
#              2 offices x 10 users (alice and bob in office 1), some mailboxes locked
#   shortener: LINKS short links (default 50) owned by "demo", created through the gateway
#   route:     ROUTES routes (default 20) of 15,000-20,000 points each (office 1), deterministic per route number
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"
# without MAILS, an existing mail seed of any size is kept (make up must not undo `make seed MAILS=1000000`)
keep_existing=false
[ -n "${MAILS:-}" ] || keep_existing=true
MAILS=${MAILS:-20000}
LINKS=${LINKS:-${SCALE:-50}}

log "mail data: $([ "$keep_existing" = true ] && echo "an existing seed is kept, else " )$MAILS mails into perflab_mail, EML files in $PERFLAB_MAIL_STORAGE"
[ -f services/mail/target/mail.jar ] || ./mvnw -q -B -pl services/mail -am package -DskipTests
mkdir -p "$PERFLAB_RUN/logs"
if ! SPRING_PROFILES_ACTIVE=local java -XX:+UseG1GC -jar services/mail/target/mail.jar --spring.main.web-application-type=none \
  --perflab.mail.seed.mails="$MAILS" --perflab.mail.seed.keep-existing="$keep_existing" --perflab.mail.relay.enabled=false \
  --perflab.mail.storage="$PERFLAB_MAIL_STORAGE" --logging.structured.format.console= >"$PERFLAB_RUN/logs/seed-mail.log" 2>&1; then
  log "mail seed failed; last lines of $PERFLAB_RUN/logs/seed-mail.log:"; tail -n 30 "$PERFLAB_RUN/logs/seed-mail.log" >&2; exit 1
fi
grep -E 'Seeder' "$PERFLAB_RUN/logs/seed-mail.log" | sed -E 's/^.*Seeder *: //' >&2 || log "mail seed present, kept (MAILS=n reseeds)"

# route: ROUTES routes of 15-20k points each into perflab_route (office 1); routes already seeded are kept
ROUTES=${ROUTES:-20}
log "route data: $ROUTES routes of 15,000-20,000 points into perflab_route"
[ -f services/route/target/route.jar ] || ./mvnw -q -B -pl services/route -am package -DskipTests
if ! SPRING_PROFILES_ACTIVE=local java -XX:+UseG1GC -jar services/route/target/route.jar --spring.main.web-application-type=none \
  --perflab.route.seed.routes="$ROUTES" --logging.structured.format.console= 2>&1 | tee "$PERFLAB_RUN/logs/seed-route.log" \
  | grep --line-buffered -E 'Seeder' | sed -u -E 's/^.*Seeder *: //' >&2; then
  log "route seed failed; last lines of $PERFLAB_RUN/logs/seed-route.log:"; tail -n 30 "$PERFLAB_RUN/logs/seed-route.log" >&2; exit 1
fi

out="$PERFLAB_RUN/seed/shortener.tsv"
mkdir -p "$(dirname "$out")"
touch "$out"
have=$(wc -l <"$out")
if [ "$have" -ge "$LINKS" ]; then
  log "shortener demo data present: $have short links (first: $(head -n 1 "$out" | cut -f2))"
  exit 0
fi
token=$("$PERFLAB_ROOT"/scripts/jwt.sh token demo 1 600)
base="http://127.0.0.1:$PERFLAB_GATEWAY_PORT"
for n in $(seq $((have + 1)) "$LINKS"); do
  code=$(curl -fsS -X POST "$base/v1/short-links" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"url\":\"https://example.com/demo/$n\"}" | sed -E 's/.*"code":"([A-Za-z0-9]+)".*/\1/')
  printf '%s\t%s\n' "$n" "$base/s/$code" >>"$out"
done
log "shortener demo data: $LINKS short links, e.g. $(head -n 1 "$out" | cut -f2)"
