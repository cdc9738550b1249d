#!/usr/bin/env bash
# The benches' Go tools, built from source once per pinned version into $PERFLAB_CACHE/bin (as install.sh builds k6):
# fortio ($FORTIO_VERSION), the constant-rate generator of bench-gateway.sh's open-model rows. wrk and nginx come from
# apt (PERFLAB_WITH_BENCH_TOOLS=1 scripts/stack/install.sh). Does nothing when the binary is there.
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"

if [ ! -x "$FORTIO_BIN" ]; then
  command -v go >/dev/null || { echo "no go: run scripts/stack/install.sh first" >&2; exit 1; }
  log "building fortio $FORTIO_VERSION (once; cached in $PERFLAB_CACHE/bin)"
  mkdir -p "$PERFLAB_CACHE/bin"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # the machine's own Go (GOTOOLCHAIN=local): the version is pinned, nothing else is fetched
  GOBIN="$tmp" GOTOOLCHAIN=local GOFLAGS=-mod=mod GOGC=400 CGO_ENABLED=0 \
    go install -gcflags=all=-dwarf=false "fortio.org/fortio@$FORTIO_VERSION"   # as k8s-tools.sh's _go
  mv "$tmp/fortio" "$FORTIO_BIN"
fi
