#!/usr/bin/env bash
# The benches' load generators and reference server, pinned, each installed once per version outside the repository:
#   wrk    WRK_VERSION, Debian's package (Apache-2.0): the closed-loop rows, a fixed number of connections each
#          sending its next request once the last is answered; tens of thousands of requests/s from one core
#   fortio FORTIO_VERSION, fortio.org/fortio (Apache-2.0; the modules it links are Apache-2.0 or BSD-3-Clause, none on
#          the not-to-use list): the open-model rows, a constant rate that reports the requests it could not send on
#          time; built from source into $PERFLAB_CACHE/bin/fortio-VERSION, as install.sh once built k6
#   nginx  Debian's nginx-light (BSD-2-Clause), whatever Debian's security updates make it: the physical reference
#          rows (a file or a `return 302` on this box, with this generator)
# Sourced after scripts/lib/env.sh: `bench_tools [wrk] [fortio] [nginx]` (none named: all three) installs those missing
# and sets BENCH_TOOLS (one line naming their versions, for a bench's header). Run as a command: the same, the line
# printed. `bench_runner DIR`: the load runner, for the benches' rows that are a scenario.
export WRK_VERSION="${WRK_VERSION:-4.1.0-3+b2}"   # Debian 12's
# v1.68.2 is the newest that builds here: from v1.69.0 on its CLI imports grol.io/grol, which the module proxy refuses
export FORTIO_VERSION="${FORTIO_VERSION:-v1.68.2}"
export FORTIO_BIN="$PERFLAB_CACHE/bin/fortio-$FORTIO_VERSION"

bench_tools() {
  local tools=" ${*:-wrk fortio nginx} " need=()
  if [[ "$tools" == *" wrk "* ]] && [ "$(dpkg-query -W -f='${Version}' wrk 2>/dev/null)" != "$WRK_VERSION" ]; then
    need+=("wrk=$WRK_VERSION")
  fi
  [[ "$tools" != *" nginx "* ]] || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    [[ "${need[*]}" != *wrk=* ]] || apt-cache policy wrk | grep -qF " $WRK_VERSION " \
      || { log "wrk $WRK_VERSION is not among apt's versions here (apt-cache policy wrk): set WRK_VERSION to one it offers"; return 1; }
    log "installing from apt: ${need[*]}"
    (
      export DEBIAN_FRONTEND=noninteractive
      # policy-rc.d keeps apt from starting Debian's own nginx on port 80: the benches run their own on their ports
      own_policy=0
      if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
      fi
      trap '[ "$own_policy" = 0 ] || rm -f /usr/sbin/policy-rc.d' EXIT
      apt-get install -y -qq --no-install-recommends --allow-downgrades -o DPkg::Lock::Timeout=300 "${need[@]}" >/dev/null
    ) || return 1
  fi
  if [[ "$tools" == *" fortio "* ]] && [ ! -x "$FORTIO_BIN" ]; then
    command -v go >/dev/null || { log "no go: run scripts/stack/install.sh first"; return 1; }
    log "building fortio $FORTIO_VERSION (once; cached in $PERFLAB_CACHE/bin)"
    mkdir -p "$PERFLAB_CACHE/bin"
    (
      tmp=$(mktemp -d)
      trap 'rm -rf "$tmp"' EXIT
      # the machine's own Go (GOTOOLCHAIN=local): the version is pinned, no toolchain is fetched
      GOBIN="$tmp" GOTOOLCHAIN=local GOFLAGS=-mod=mod GOGC=400 CGO_ENABLED=0 \
        go install -gcflags=all=-dwarf=false "fortio.org/fortio@$FORTIO_VERSION"   # as k8s-tools.sh's _go
      mv "$tmp/fortio" "$FORTIO_BIN"
    ) || return 1
  fi
  BENCH_TOOLS=""
  [[ "$tools" != *" wrk "* ]] || BENCH_TOOLS+="wrk $(dpkg-query -W -f='${Version}' wrk), "
  [[ "$tools" != *" fortio "* ]] || BENCH_TOOLS+="fortio $("$FORTIO_BIN" version 2>/dev/null | head -n 1), "
  [[ "$tools" != *" nginx "* ]] || BENCH_TOOLS+="$(/usr/sbin/nginx -v 2>&1 | cut -d' ' -f3), "
  BENCH_TOOLS=${BENCH_TOOLS%, }
}

# The load runner (load-tests/) built when its sources are newer, then run from a copy in DIR (its jar and lib/, which
# the jar's class path names): a rebuild while a bench runs, as the route waves once met, must not pull classes from
# under the runs still to come
bench_runner() {  # DIR: sets PERFLAB_LOAD_JAR to the copy
  load_runner_built
  rm -rf "$1/load-tests"; mkdir -p "$1/load-tests"
  cp -r "$(dirname "$PERFLAB_LOAD_JAR")/lib" "$PERFLAB_LOAD_JAR" "$1/load-tests/"
  PERFLAB_LOAD_JAR="$1/load-tests/$(basename "$PERFLAB_LOAD_JAR")"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  source "$(dirname "$0")/../lib/env.sh"
  bench_tools "$@"
  echo "$BENCH_TOOLS"
fi
