#!/usr/bin/env bash
# A new service, made and run for real: `make new-service` in a copy of this checkout, its module built with its own
# tests (against the local MariaDB), the service started beside the stack from the copy, and a gateway started from
# the copy's routes and keys answering the new API through it: a note created (201), read back (200), another
# office's a 404, bad input a 400 problem+json, its OpenAPI document public. Needs the stack's stores and a built
# gateway (make up). Leaves nothing: the copy, the new service's databases and both JVMs go when it ends.
set -uo pipefail
source "$(dirname "$0")/../lib/env.sh"
MAIN="$PERFLAB_ROOT"
NAME="${NEW_SERVICE_NAME:-zzprobe}"
GATEWAY_PORT="${NEW_SERVICE_GATEWAY_PORT:-8097}"   # actuator 1000 above, as every app's
WORK="$(mktemp -d "${TMPDIR:-/tmp}/perflab-new-service.XXXXXX")"
REPO="$WORK/repo"
PIDS=()
mysql_root() { mariadb --no-defaults --socket="$PERFLAB_RUN/mariadb.sock" -uroot "$@"; }
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
  mysql_root -e "DROP DATABASE IF EXISTS perflab_$NAME; DROP DATABASE IF EXISTS perflab_${NAME}_test" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() { log "new service: $*"; exit 1; }

mysql_root -e 'SELECT 1' >/dev/null 2>&1 || fail "no MariaDB at $PERFLAB_RUN/mariadb.sock: make up first"
gateway_jar="$(ls "$MAIN"/gateway/target/gateway.jar 2>/dev/null)" || fail "no gateway/target/gateway.jar: make up (or ./mvnw package) first"

# the copy: what git would commit here, the working tree's version of each file
mkdir -p "$REPO"
(cd "$MAIN" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp -a --parents -t "$REPO" 2>/dev/null) || true
[ -f "$REPO/pom.xml" ] || fail "the checkout could not be copied to $REPO"
python3 "$REPO/scripts/stack/new-service.py" "$NAME" --root "$REPO" >"$WORK/made.txt" || fail "make new-service failed: $(cat "$WORK/made.txt")"
port="$(sed -n 's/^port=\([0-9]*\).*/\1/p' "$REPO/services/$NAME/service.env")"
log "new service: services/$NAME made in a copy (port $port; $(grep -c '^  ' "$WORK/made.txt") files and entries)"

# the copy's settings: its own run folder (fresh dev keys, an identity key for the new service too), the stack's stores
COPY_ENV=(env -u PERFLAB_ROOT -u PERFLAB_JWT_DIR -u PERFLAB_IDENTITY_DIR -u PERFLAB_GATEWAY_ROUTES_DIR PERFLAB_RUN="$WORK/run" AOT=0)
# shellcheck disable=SC2016 # expanded by the inner bash
copy() { (cd "$REPO" && "${COPY_ENV[@]}" bash -c 'source scripts/lib/env.sh && "$@"' copy "$@"); }
# copy_jvm NAME JAR PORT LOG: the app's JVM as the stack starts one (app_jvm), in the background; $! is the JVM
copy_jvm() {
  # shellcheck disable=SC2016 # expanded by the inner bash
  (cd "$REPO" && exec "${COPY_ENV[@]}" bash -c 'source scripts/lib/env.sh && app_jvm "$1" "$2" "$3" && exec "${APP_JVM[@]}"' \
    jvm "$1" "$2" "$3" >"$4" 2>&1) &
}
# its databases, as `make up` on a running stack creates them (stack.sh: every service.env's `databases`)
for db in $(copy service_conf "$NAME" databases); do mysql_root -e "CREATE DATABASE IF NOT EXISTS $db" || fail "CREATE DATABASE $db"; done
t0=$SECONDS
copy ./mvnw -o -B -ntp -q -pl "services/$NAME" package >"$WORK/build.log" 2>&1 \
  || { tail -40 "$WORK/build.log" >&2; fail "./mvnw -pl services/$NAME package (with its tests) failed"; }
tests="$(cat "$REPO/services/$NAME"/target/surefire-reports/TEST-*.xml | grep -o '<testcase ' | wc -l)"
log "new service: its module built with its own tests ($tests passed) in $((SECONDS - t0)) s"
copy scripts/lib/jwt.sh keys >/dev/null 2>&1 || fail "jwt.sh keys failed in the copy"
[ -f "$WORK/run/jwt/identity/$NAME.key" ] || fail "jwt.sh keys made no identity key for $NAME"

# the service, then a gateway reading the copy's routes (the stack's gateway keeps its own), each as the stack starts one
copy_jvm "$NAME" "$REPO/services/$NAME/target/$NAME.jar" "$port" "$WORK/$NAME.log"
PIDS+=($!)
copy_jvm gateway "$gateway_jar" "$GATEWAY_PORT" "$WORK/gateway.log"
PIDS+=($!)
await_ready "$port" "${PIDS[0]}" "$WORK/$NAME.log" 120 || { tail -30 "$WORK/$NAME.log" >&2; fail "$NAME did not start"; }
await_ready "$GATEWAY_PORT" "${PIDS[1]}" "$WORK/gateway.log" 180 || { tail -30 "$WORK/gateway.log" >&2; fail "the copy's gateway did not start"; }

gw="http://127.0.0.1:$GATEWAY_PORT"
token() { copy scripts/lib/jwt.sh token "$1" "$2" 600; }
alice="$(token alice 1)" bob="$(token bob 2)"
call() {  # EXPECTED-STATUS TOKEN METHOD PATH [BODY]: the answer's body; fails unless the status is EXPECTED
  local code
  code="$(curl -s -o "$WORK/body" -w '%{http_code} %{content_type}' -X "$3" -H "Authorization: Bearer $2" \
    -H 'Content-Type: application/json' ${5:+--data "$5"} "$gw$4")"
  [ "${code%% *}" = "$1" ] || fail "$3 $4 answered $code, not $1: $(head -c 300 "$WORK/body")"
  echo "${code#* }" >"$WORK/type"
  cat "$WORK/body"
}
id="$(call 201 "$alice" POST "/v1/$NAME/notes" '{"text":"made by make new-service"}' | jq -r .id)"
[[ "$id" =~ ^[0-9]+$ ]] || fail "the create answered no id"
[ "$(call 200 "$alice" GET "/v1/$NAME/notes/$id" | jq -r '.text + " " + .created_by')" = "made by make new-service alice" ] \
  || fail "the note read back is not the one created"
call 404 "$bob" GET "/v1/$NAME/notes/$id" >/dev/null
grep -q '^application/problem+json' "$WORK/type" || fail "another office's note: not a problem+json 404"
call 400 "$alice" POST "/v1/$NAME/notes" '{"text":"a","colour":"red"}' >/dev/null
grep -q '^application/problem+json' "$WORK/type" || fail "an unknown field: not a problem+json 400"
call 401 "" GET "/v1/$NAME/notes/$id" >/dev/null
curl -fsS "$gw/v3/api-docs/$NAME" | jq -e --arg p "/v1/$NAME/notes" '.paths[$p].post.responses["201"]' >/dev/null \
  || fail "the gateway serves no OpenAPI document of $NAME with its create"
log "new service: $NAME answered through the copy's gateway on :$GATEWAY_PORT: created note $id (201), read back, 404 for another office, 400 problem+json, 401 without a token, its OpenAPI document"
