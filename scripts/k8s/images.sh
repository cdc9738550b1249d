#!/usr/bin/env bash
# OCI images of the gateway, every service and the load runner (load-tests), built by Jib (no Docker daemon), tagged
# with the chart's appVersion so `helm install` finds them by default. Each Spring app's image carries a JDK 25 AOT cache (/app/aot/app.aot, used through
# JDK_JAVA_OPTIONS) trained at build time by the base image's own JVM on the image's own jars: a Spring context
# refresh that stops before anything starts (-Dspring.context.exit=onRefresh), no store needed.
#
#   scripts/k8s/images.sh                 one tarball per image in .run/images/ (this machine's architecture):
#                                         `kind load image-archive .run/images/gateway.tar` or `ctr images import`
#   REGISTRY=ghcr.io/you scripts/k8s/images.sh  push multi-arch (amd64 + arm64) images to <REGISTRY>/<name>:<tag>
#                                         (the chart then takes image.registry=ghcr.io and repositories you/<name>)
#
# Settings: TAG (default: charts/perflab appVersion), BASE_IMAGE (default: the parent POM's public Temurin 25 JRE;
# `local`: the test node's base, scripts/k8s/base-image.sh, served for this build only by a registry of its own on a free
# loopback port, in memory: images for the node built while no cluster is up),
# AOT_JRE (the base image's Java home unpacked here; default: exported from BASE_IMAGE with crane when it can be
# reached; AOT=0 builds without a cache), PERFLAB_IMAGE_SOURCE (the org.opencontainers.image.source label),
# PLATFORMS (default: amd64+arm64 when pushing, this machine's otherwise), INSECURE=1 for a plain-HTTP registry,
# MODULES (default: every module with an image), PACKAGED=1 (the modules' classes and jars are built and installed,
# as make test's module tests leave them: Jib only, no Maven package again, no jar rewritten under a running stack).
# Prints one `name reference digest` line per image.
#
# The cache is specific to one JVM build and architecture: trained on this machine's architecture, it is refused
# (with a warning, and the JVM starts as it would without it) by the other platform of a multi-arch push.
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
# shellcheck source=scripts/k8s/k8s-tools.sh
source "$(dirname "$0")/k8s-tools.sh"   # only its variables: the pinned crane
cd "$PERFLAB_ROOT"

TAG="${TAG:-$(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' charts/perflab/Chart.yaml)}"
[ -n "$TAG" ] || { log "no appVersion in charts/perflab/Chart.yaml"; exit 1; }
MODULES="${MODULES:-gateway ${PERFLAB_SERVICES[*]/#/services/} load-tests}"
OUT="$PERFLAB_RUN/images"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/perflab-images.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"

if [ "${BASE_IMAGE:-}" = local ]; then
  # shellcheck source=scripts/k8s/base-image.sh
  source scripts/k8s/base-image.sh
  "$CRANE" registry serve --address 127.0.0.1:0 >"$WORK/registry.log" 2>&1 &
  base_registry_pid=$!
  trap 'kill "$base_registry_pid" 2>/dev/null; rm -rf "$WORK"' EXIT
  base_registry="$(listen_address "$base_registry_pid")" || { cat "$WORK/registry.log"; exit 1; }
  for _ in $(seq 1 50); do curl -sf "http://$base_registry/v2/" >/dev/null && break; sleep 0.2; done
  BASE_IMAGE="$(PERFLAB_REGISTRY="$base_registry" base_image_push)" || { cat "$WORK/registry.log"; exit 1; }
  INSECURE=1
fi

case "$(uname -m)" in x86_64) ARCH=amd64 ;; aarch64|arm64) ARCH=arm64 ;; *) ARCH="$(uname -m)" ;; esac
props=(-Dperflab.image.tag="$TAG" -Dperflab.image.revision="$(git rev-parse HEAD 2>/dev/null || echo unknown)")
[ -n "${BASE_IMAGE:-}" ] && props+=(-Djib.from.image="$BASE_IMAGE")
[ -n "${PERFLAB_IMAGE_SOURCE:-}" ] && props+=(-Dperflab.image.source="$PERFLAB_IMAGE_SOURCE")
[ "${INSECURE:-0}" = 1 ] && props+=(-Djib.allowInsecureRegistries=true -DsendCredentialsOverHttp=false)
pl="$(tr ' ' ',' <<<"$MODULES")"

# ---- the AOT cache: a first image (tarball, this architecture) gives the exact jars and classpath to train on ----
aot_jre() {
  [ -n "${AOT_JRE:-}" ] && { echo "$AOT_JRE"; return 0; }
  local base="${BASE_IMAGE:-$(sed -n 's|.*<perflab.image.base>\(.*\)</perflab.image.base>.*|\1|p' pom.xml)}"
  local crane="$CRANE"
  [ -x "$crane" ] || { log "no $crane (scripts/k8s/k8s-tools.sh builds it) to unpack $base's JVM"; return 1; }
  mkdir -p "$WORK/jre"
  local insecure=(); [ "${INSECURE:-0}" = 1 ] && insecure=(--insecure)
  "$crane" export "${insecure[@]}" --platform "linux/$ARCH" "$base" - 2>"$WORK/export.log" | tar -x -C "$WORK/jre" \
    || { log "cannot export $base ($(tail -1 "$WORK/export.log"))"; return 1; }
  local java; java="$(find "$WORK/jre" -path '*/bin/java' -type f | head -1)"
  [ -n "$java" ] || { log "$base has no bin/java"; return 1; }
  dirname "$(dirname "$java")"
}

# A trained cache is kept by content in $PERFLAB_CACHE/aot: the digest of what the JVM loads from /app (scripts/k8s/jib-app.py),
# the training JVM's build, and this script and the gateway's routes (how it trains). An image whose jars hold the
# same classes as a run before (a second `make test` of one commit, a module nobody changed) takes that run's cache
# instead of training again; the JVM still checks each jar's size and time against it at start, and the real-node
# test starts a pod with -XX:AOTMode=on, which refuses a cache that does not map. The newest two per image are kept.
AOT_KEPT="$PERFLAB_CACHE/aot"
train() {  # module jre: writes $m/target/jib-aot/app.aot
  local m="$1" jre="$2" name; name="$(basename "$m")"
  local dir="$WORK/train-$name" out="$PERFLAB_ROOT/$m/target/jib-aot"
  rm -rf "$out" && mkdir -p "$dir" "$out" "$AOT_KEPT"
  local main cp app key
  { read -r main; read -r cp; read -r app; } < <("$PYTHON" scripts/k8s/jib-app.py "$m/target/jib-image.tar" "$dir")
  key="$({ echo "$app"; "$jre/bin/java" -version 2>&1; cat scripts/k8s/images.sh scripts/lib/aot-train.sh scripts/k8s/jib-app.py config/gateway/routes/*.yaml; } \
    | sha256sum | cut -c1-16)"
  if [ -s "$AOT_KEPT/$name-$key.aot" ]; then
    cp "$AOT_KEPT/$name-$key.aot" "$out/app.aot" && touch "$AOT_KEPT/$name-$key.aot"
    log "AOT cache for $name: $(du -h "$out/app.aot" | cut -f1), kept from a run on the same classes ($key)"
    return 0
  fi
  local t0=$SECONDS
  # scripts/lib/aot-train.sh: a service's store is never reached (Flyway is off and nothing has started when its context
  # exits); the gateway's services are stand-ins. The beans are made, so the keys they read at start must exist: the
  # dev pairs (scripts/lib/jwt.sh keys) and a throwaway code key; none of them goes into the image.
  (cd "$dir" && SPRING_FLYWAY_ENABLED=false SPRING_PROFILES_ACTIVE='' JAVA_TOOL_OPTIONS='' \
    PERFLAB_IDENTITY_DIR="$PERFLAB_IDENTITY_DIR" PERFLAB_GATEWAY_JWT_PUBLIC_KEY="file:$PERFLAB_JWT_DIR/public.pem" \
    PERFLAB_GATEWAY_ROUTES_DIR="$PERFLAB_ROOT/config/gateway/routes" PERFLAB_SHORTENER_CODEKEY="$(openssl rand -base64 32)" \
    aot_train_app "$name" "$out/app.aot" "$WORK/train-$name.log" "$jre/bin/java" -cp "$cp" "$main") \
    || { tail -20 "$WORK/train-$name.log" >&2; log "AOT training of $name failed"; return 1; }
  log "AOT cache for $name: $(du -h "$out/app.aot" | cut -f1) in $((SECONDS - t0)) s ($key)"
  cp "$out/app.aot" "$AOT_KEPT/.$name-$key.aot.$$" && mv "$AOT_KEPT/.$name-$key.aot.$$" "$AOT_KEPT/$name-$key.aot"
  # shellcheck disable=SC2012 # ls -t orders by age; the names are our own, no spaces
  ls -t "$AOT_KEPT/$name-"*.aot | tail -n +3 | xargs -r rm -f
}

PYTHON="$(command -v python3)"
"$PERFLAB_ROOT/scripts/lib/jwt.sh" keys
aot_props=()
if [ "${AOT:-1}" != 0 ]; then
  if jre="$(aot_jre)"; then
    log "AOT training images of $MODULES (linux/$ARCH, JVM $("$jre/bin/java" -version 2>&1 | head -1))"
    # install, not package: the second Jib run below builds from these very jars without packaging again
    build=(-DskipTests -pl "$pl" -am install); [ "${PACKAGED:-0}" != 1 ] || build=(-pl "$pl")
    ./mvnw -B -ntp -q "${build[@]}" jib:buildTar -Djib.from.platforms="linux/$ARCH" "${props[@]}"
    # one training per core at a time (each is one JVM start, mostly single-threaded): 97 s one after another for
    # the six images on 2 cores
    running=() failed=0
    for m in $MODULES; do
      # the load runner is no Spring app (no context to refresh): its image goes without a cache (load-tests/pom.xml)
      [ "$m" != load-tests ] || continue
      train "$m" "$jre" & running+=($!)
      if [ ${#running[@]} -ge "$(nproc)" ]; then wait "${running[0]}" || failed=1; running=("${running[@]:1}"); fi
    done
    for p in "${running[@]}"; do wait "$p" || failed=1; done
    [ "$failed" = 0 ] || { log "AOT training failed"; exit 1; }
    aot_props=(-Dperflab.image.aot=true)
  else
    log "building without an AOT cache (set AOT_JRE to the base image's Java home, or AOT=0 to silence this)"
  fi
fi

if [ -n "${REGISTRY:-}" ]; then
  goal=jib:build
  props+=(-Dperflab.image.repository="$REGISTRY")
  [ -n "${PLATFORMS:-}" ] && props+=(-Djib.from.platforms="$PLATFORMS")
else
  goal=jib:buildTar
  props+=(-Djib.from.platforms="${PLATFORMS:-linux/$ARCH}")
fi
log "images ($goal) of $MODULES, tag $TAG"
# without `package` again: the jars the cache was trained on are the jars the image gets
if [ ${#aot_props[@]} -gt 0 ] || [ "${PACKAGED:-0}" = 1 ]; then
  ./mvnw -B -ntp -q -pl "$pl" "$goal" "${props[@]}" "${aot_props[@]}"
else
  ./mvnw -B -ntp -q -DskipTests -pl "$pl" -am package "$goal" "${props[@]}"
fi

for m in $MODULES; do
  name="$(basename "$m")"
  digest="$(cat "$m/target/jib-image.digest" 2>/dev/null || echo -)"
  if [ "$goal" = jib:buildTar ]; then
    mv "$m/target/jib-image.tar" "$OUT/$name.tar"
    echo "$name $OUT/$name.tar $digest"
  else
    echo "$name $REGISTRY/$name:$TAG $digest"
  fi
done
