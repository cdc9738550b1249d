#!/usr/bin/env bash
# The base image the app images (Jib) build FROM on the real test node: Debian 12 minbase (debootstrap from the apt
# mirror) + a jlinked Java 25 runtime made from this machine's Temurin 25 (scripts/lib/jdk.sh), user 1000, /tmp writable,
# JAVA_HOME=/opt/java/openjdk and its bin on PATH (Jib's entrypoint runs `java -cp @/app/jib-classpath-file ...`).
# Both layers are built once per version and cached as tarballs under $PERFLAB_CACHE/base-image/<tag>; a push to the
# local registry (crane, scripts/k8s/k8s-node.sh) then takes a few seconds.
#
#   scripts/k8s/base-image.sh      build if missing, push into $PERFLAB_REGISTRY, print the image reference
#   scripts/k8s/base-image.sh ref  print the reference only (no build, no push)
#   scripts/k8s/base-image.sh build  build the cached layers only
#   scripts/k8s/base-image.sh mysql-client  the MySQL client image (Debian minbase + mariadb-client), pushed likewise
#   source scripts/k8s/base-image.sh  defines base_image_build, base_image_push, base_image_ref
#
# Jib: -Djib.from.image="$(scripts/k8s/base-image.sh)" -Djib.allowInsecureRegistries=true
#
# Settings (export to override): PERFLAB_REGISTRY_PORT (15000), PERFLAB_REGISTRY (127.0.0.1:$PERFLAB_REGISTRY_PORT),
# BASE_IMAGE_SUITE (bookworm), BASE_IMAGE_MIRROR (http://deb.debian.org/debian), BASE_IMAGE_JAVA_MODULES.
BASE_IMAGE_SUITE="${BASE_IMAGE_SUITE:-bookworm}"
BASE_IMAGE_MIRROR="${BASE_IMAGE_MIRROR:-http://deb.debian.org/debian}"
BASE_IMAGE_REPO="${BASE_IMAGE_REPO:-perflab/base-jre}"
# What Spring Boot 4 apps (web, JDBC, Redis, Mongo, mail, actuator/JMX, JFR) need, plus jwebserver (jdk.httpserver)
# and jcmd for thread dumps; jdk.localedata and the compiler/debugger modules are left out.
BASE_IMAGE_JAVA_MODULES="${BASE_IMAGE_JAVA_MODULES:-java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.management.rmi,java.naming,java.net.http,java.prefs,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.transaction.xa,java.xml,java.xml.crypto,jdk.crypto.ec,jdk.crypto.cryptoki,jdk.httpserver,jdk.jcmd,jdk.jfr,jdk.management,jdk.management.agent,jdk.management.jfr,jdk.naming.dns,jdk.net,jdk.unsupported,jdk.zipfs,jdk.charsets,jdk.security.auth}"
BASE_IMAGE_JAVA_HOME=/opt/java/openjdk
# Bump when the recipe below (rootfs steps, jlink options, image config) changes: it is part of the tag.
BASE_IMAGE_RECIPE=2

# shellcheck source=scripts/k8s/k8s-tools.sh
source "$(dirname "${BASH_SOURCE[0]}")/k8s-tools.sh"

_bi_log() { printf '\033[1m[base-image]\033[0m %s\n' "$*" >&2; }

# The tag names what went in: Java major, and a hash of the JDK build, the module list, the Debian suite and the recipe.
base_image_tag() {
  local jdk; jdk="$("$PERFLAB_ROOT/scripts/lib/jdk.sh")" || return 1
  local h
  h="$( { "$jdk/bin/java" -XshowSettings:properties -version 2>&1 | grep -E 'java\.(runtime\.)?version ='
          echo "$BASE_IMAGE_JAVA_MODULES $BASE_IMAGE_SUITE $BASE_IMAGE_RECIPE $BASE_IMAGE_JAVA_HOME"; } | sha256sum | cut -c1-12)"
  echo "25-$h"
}

base_image_ref() { echo "$PERFLAB_REGISTRY/$BASE_IMAGE_REPO:$(base_image_tag)"; }

# _bi_rootfs WORK PACKAGES: WORK/rootfs.tar.gz, Debian minbase with PACKAGES (comma-separated), user and group 1000
# (numeric, so runAsNonRoot can check it) with home /tmp, nothing of apt's cache and no leftovers of the build host.
_bi_rootfs() {
  local work="$1" root="$1/rootfs"
  debootstrap --variant=minbase --include="$2" "$BASE_IMAGE_SUITE" "$root" "$BASE_IMAGE_MIRROR" \
    >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; return 1; }
  echo 'app:x:1000:1000:app:/tmp:/usr/sbin/nologin' >>"$root/etc/passwd"
  echo 'app:x:1000:' >>"$root/etc/group"
  echo 'app:!:19000::::::' >>"$root/etc/shadow"
  chmod 1777 "$root/tmp"
  rm -rf "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
    "$root"/var/log/* "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/* "$root/debootstrap"
  # the runtime's resolv.conf and hosts are the kubelet's
  : >"$root/etc/resolv.conf"; echo perflab >"$root/etc/hostname"
  (cd "$root" && tar --numeric-owner --sort=name --mtime=@0 -czf "$work/rootfs.tar.gz" -- *)
}

# base_image_build: DIR/rootfs.tar.gz (Debian minbase, user 1000) and DIR/jre.tar.gz (the jlinked runtime), once.
base_image_build() {
  local tag dir jdk
  tag="$(base_image_tag)" || return 1
  dir="$PERFLAB_CACHE/base-image/$tag"
  [ -f "$dir/rootfs.tar.gz" ] && [ -f "$dir/jre.tar.gz" ] && { echo "$dir"; return 0; }
  jdk="$("$PERFLAB_ROOT/scripts/lib/jdk.sh")" || return 1
  [ "$(id -u)" -eq 0 ] || { _bi_log "debootstrap needs root"; return 1; }
  command -v debootstrap >/dev/null || _install_node_packages || return 1
  mkdir -p "$dir"
  local work; work="$(mktemp -d "$PERFLAB_CACHE/base-image/build.XXXXXX")"
  local t0=$SECONDS
  (
    set -euo pipefail
    _bi_log "debootstrap --variant=minbase $BASE_IMAGE_SUITE from $BASE_IMAGE_MIRROR (+ca-certificates, tzdata, curl: the helm test pod runs it)"
    _bi_rootfs "$work" ca-certificates,tzdata,curl

    _bi_log "jlink Java runtime from $jdk (modules: $BASE_IMAGE_JAVA_MODULES)"
    local jre="$work/jre$BASE_IMAGE_JAVA_HOME"
    mkdir -p "$(dirname "$jre")"
    "$jdk/bin/jlink" --add-modules "$BASE_IMAGE_JAVA_MODULES" --strip-debug --no-man-pages --no-header-files \
      --compress=zip-6 --output "$jre"
    # CDS archive for the default class list: faster JVM start in every pod
    "$jre/bin/java" -Xshare:dump >/dev/null 2>&1 || true
    (cd "$work/jre" && tar --numeric-owner --owner=0 --group=0 --sort=name --mtime=@0 -czf "$work/jre.tar.gz" -- *)
    mv "$work/rootfs.tar.gz" "$work/jre.tar.gz" "$dir/"
  ) || { rm -rf "$work"; _bi_log "FAILED to build the base image layers"; return 1; }
  rm -rf "$work"
  _bi_log "built $dir in $((SECONDS - t0)) s ($(du -sh "$dir" | cut -f1) compressed)"
  echo "$dir"
}

# base_image_push: pushes the cached layers into $PERFLAB_REGISTRY (started by k8s_node_up or k8s_registry_up) and
# prints the reference. Same layers, same config: pushing again yields the same digest.
base_image_push() {
  local dir ref
  dir="$(base_image_build)" || return 1
  ref="$(base_image_ref)" || return 1
  [ -x "$CRANE" ] || _go_build_pinned crane github.com/google/go-containerregistry "$CRANE_VERSION" \
    github.com/google/go-containerregistry/cmd/crane "-s -w" || return 1
  curl -sf "http://$PERFLAB_REGISTRY/v2/" >/dev/null \
    || { _bi_log "no registry answers at http://$PERFLAB_REGISTRY/v2/ (k8s_node_up or k8s_registry_up starts one)"; return 1; }
  "$CRANE" append --insecure --oci-empty-base -f "$dir/rootfs.tar.gz" -f "$dir/jre.tar.gz" -t "$ref" >/dev/null 2>"$dir/push.log" \
    && "$CRANE" mutate --insecure "$ref" -t "$ref" --set-platform linux/amd64 --user 1000:1000 --workdir /tmp \
      -e "JAVA_HOME=$BASE_IMAGE_JAVA_HOME" \
      -e "PATH=$BASE_IMAGE_JAVA_HOME/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
      -e LANG=C.UTF-8 -l org.opencontainers.image.description="perflab test base: Debian $BASE_IMAGE_SUITE minbase + jlinked Java 25" \
      >/dev/null 2>>"$dir/push.log" \
    || { cat "$dir/push.log" >&2; _bi_log "push to $PERFLAB_REGISTRY failed"; return 1; }
  _bi_log "pushed $ref"
  echo "$ref"
}

# The MySQL client image: what the chart's database Job runs (`mysqladmin`, `mysql`: the StatefulSet's image,
# stores.mysql.image) where the node's MySQL is the host's MariaDB and no MySQL image can be pulled. Debian minbase +
# mariadb-client, no Java; built once per recipe and cached like the base, pushed into $PERFLAB_REGISTRY. Prints the
# reference.
MYSQL_CLIENT_IMAGE_REPO="${MYSQL_CLIENT_IMAGE_REPO:-perflab/mysql-client}"
mysql_client_image_push() {
  local tag dir ref work
  tag="$(echo "mariadb-client $BASE_IMAGE_SUITE $BASE_IMAGE_RECIPE" | sha256sum | cut -c1-12)"
  dir="$PERFLAB_CACHE/base-image/mysql-client-$tag" ref="$PERFLAB_REGISTRY/$MYSQL_CLIENT_IMAGE_REPO:$tag"
  if [ ! -f "$dir/rootfs.tar.gz" ]; then
    [ "$(id -u)" -eq 0 ] || { _bi_log "debootstrap needs root"; return 1; }
    command -v debootstrap >/dev/null || _install_node_packages || return 1
    mkdir -p "$PERFLAB_CACHE/base-image"
    work="$(mktemp -d "$PERFLAB_CACHE/base-image/build.XXXXXX")"
    _bi_log "debootstrap --variant=minbase $BASE_IMAGE_SUITE (+mariadb-client) for the MySQL client image"
    { _bi_rootfs "$work" mariadb-client && mkdir -p "$dir" && mv "$work/rootfs.tar.gz" "$dir/"; } \
      || { rm -rf "$work"; _bi_log "FAILED to build the MySQL client image"; return 1; }
    rm -rf "$work"
  fi
  [ -x "$CRANE" ] || _go_build_pinned crane github.com/google/go-containerregistry "$CRANE_VERSION" \
    github.com/google/go-containerregistry/cmd/crane "-s -w" || return 1
  "$CRANE" append --insecure --oci-empty-base -f "$dir/rootfs.tar.gz" -t "$ref" >/dev/null 2>"$dir/push.log" \
    && "$CRANE" mutate --insecure "$ref" -t "$ref" --set-platform linux/amd64 --user 1000:1000 --workdir /tmp \
      -e LANG=C.UTF-8 -l org.opencontainers.image.description="perflab test MySQL client: Debian $BASE_IMAGE_SUITE minbase + mariadb-client" \
      >/dev/null 2>>"$dir/push.log" \
    || { cat "$dir/push.log" >&2; _bi_log "push to $PERFLAB_REGISTRY failed"; return 1; }
  echo "$ref"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-push}" in
    push) base_image_push ;;
    mysql-client) mysql_client_image_push ;;
    build) base_image_build ;;
    ref) base_image_ref ;;
    *) echo "usage: $0 [push|build|ref|mysql-client]" >&2; exit 2 ;;
  esac
fi
