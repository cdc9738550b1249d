#!/usr/bin/env bash
# Installs what the local stack and the tests need, only what is missing, at pinned versions.
# Stores come from the OS packages; GreenMail's jar is fetched once per version into $PERFLAB_CACHE. The load runner
# is the repository's own (load-tests/, built by Maven).
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"

need_apt=()
command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || need_apt+=(mariadb-server mariadb-client)
command -v redis-server >/dev/null || need_apt+=(redis-server)
[ -x /usr/bin/prometheus ] || need_apt+=(prometheus)   # the local stack's Prometheus (its own service stays off)
command -v openssl >/dev/null || need_apt+=(openssl)
command -v curl >/dev/null || need_apt+=(curl)
command -v jq >/dev/null || need_apt+=(jq)   # JSON read by the test scripts (Debian 12: jq 1.6)
command -v ss >/dev/null || need_apt+=(iproute2)   # ss: the port a server bound (listen_address)
command -v go >/dev/null || need_apt+=(golang-go)
if [ "${PERFLAB_WITH_BENCH_TOOLS:-0}" = 1 ]; then
  command -v wrk >/dev/null || need_apt+=(wrk)
  [ -x /usr/sbin/nginx ] || need_apt+=(nginx-light)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  log "installing from apt: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # policy-rc.d keeps apt from starting the distribution's own instances: perflab runs its own on its own ports.
  own_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
  fi
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  [ "$own_policy" = 0 ] || rm -f /usr/sbin/policy-rc.d
fi

if [ ! -f "$GREENMAIL_JAR" ]; then
  log "fetching GreenMail standalone $GREENMAIL_VERSION from Maven Central (once; cached in $PERFLAB_CACHE/jars)"
  mkdir -p "$(dirname "$GREENMAIL_JAR")"
  (cd "$PERFLAB_ROOT" && ./mvnw -q -B -ntp dependency:copy -Dartifact="com.icegreen:greenmail-standalone:$GREENMAIL_VERSION" \
    -DoutputDirectory="$(dirname "$GREENMAIL_JAR")")
fi
log "tools ready: $(mariadbd --version | cut -d' ' -f1-4), $(redis-server --version | cut -d' ' -f1-3), GreenMail $GREENMAIL_VERSION"
