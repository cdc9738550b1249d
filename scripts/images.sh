#!/usr/bin/env bash
# OCI images of the gateway and every service, built by Jib (no Docker daemon), tagged with the chart's appVersion
# so `helm install` finds them by default.
#
#   scripts/images.sh                     one tarball per image in .run/images/ (this machine's architecture):
#                                         `kind load image-archive .run/images/gateway.tar` or `ctr images import`
#   REGISTRY=ghcr.io/you scripts/images.sh  push multi-arch (amd64 + arm64) images to <REGISTRY>/<name>:<tag>
#                                         (the chart then takes image.registry=ghcr.io and repositories you/<name>)
#
# Settings: TAG (default: charts/perflab appVersion), BASE_IMAGE (default: the parent POM's public Temurin 25 JRE),
# PERFLAB_IMAGE_SOURCE (the org.opencontainers.image.source label), PLATFORMS (default: amd64+arm64 when pushing, this machine's otherwise), INSECURE=1 for a plain-HTTP registry,
# MODULES (default: every module with an image). Prints one `name reference digest` line per image.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"

TAG="${TAG:-$(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' charts/perflab/Chart.yaml)}"
[ -n "$TAG" ] || { log "no appVersion in charts/perflab/Chart.yaml"; exit 1; }
MODULES="${MODULES:-gateway services/mail services/send services/shortener}"
OUT="$PERFLAB_RUN/images"
mkdir -p "$OUT"

case "$(uname -m)" in x86_64) ARCH=amd64 ;; aarch64|arm64) ARCH=arm64 ;; *) ARCH="$(uname -m)" ;; esac
props=(-Dperflab.image.tag="$TAG" -Dperflab.image.revision="$(git rev-parse HEAD 2>/dev/null || echo unknown)")
[ -n "${BASE_IMAGE:-}" ] && props+=(-Djib.from.image="$BASE_IMAGE")
[ -n "${PERFLAB_IMAGE_SOURCE:-}" ] && props+=(-Dperflab.image.source="$PERFLAB_IMAGE_SOURCE")
[ "${INSECURE:-0}" = 1 ] && props+=(-Djib.allowInsecureRegistries=true -DsendCredentialsOverHttp=false)
if [ -n "${REGISTRY:-}" ]; then
  goal=jib:build
  props+=(-Dperflab.image.repository="$REGISTRY")
  [ -n "${PLATFORMS:-}" ] && props+=(-Djib.from.platforms="$PLATFORMS")
else
  goal=jib:buildTar
  props+=(-Djib.from.platforms="${PLATFORMS:-linux/$ARCH}")
fi

pl="$(tr ' ' ',' <<<"$MODULES")"
log "images ($goal) of $MODULES, tag $TAG"
./mvnw -B -ntp -q -DskipTests -pl "$pl" -am package "$goal" "${props[@]}"

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
