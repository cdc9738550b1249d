#!/usr/bin/env bash
# The pinned scanners scripts/test/scan.sh runs, installed once per version into $PERFLAB_CACHE (skipped when there):
# checkov (PyPI, in a venv of its own named after its version) and kube-score (built from the Go module proxy); also
# the helm (k8s-tools.sh) and terraform (infra-tools.sh) the scan renders and reads modules with.
#
#   scripts/k8s/scan-tools.sh          install whatever is missing (cold: ~3 min, warm: <1 s)
#   source scripts/k8s/scan-tools.sh   only define the variables below (used by scripts/test/scan.sh)
#
# Each version is a setting: export it to override.
source "$(dirname "${BASH_SOURCE[0]}")/infra-tools.sh"

CHECKOV_VERSION="${CHECKOV_VERSION:-3.3.30}"
KUBE_SCORE_VERSION="${KUBE_SCORE_VERSION:-v1.20.0}"

CHECKOV_VENV="$PERFLAB_CACHE/venv-checkov-$CHECKOV_VERSION"
CHECKOV="$CHECKOV_VENV/bin/checkov"
# shellcheck disable=SC2034 # used by scripts/test/scan.sh
KUBE_SCORE="$K8S_TOOLS_BIN/kube-score-$KUBE_SCORE_VERSION"

_install_checkov() {
  [ -x "$CHECKOV" ] && return 0
  _k8s_log "installing checkov $CHECKOV_VERSION (PyPI) into $CHECKOV_VENV"
  rm -rf "$CHECKOV_VENV.tmp"
  python3 -m venv "$CHECKOV_VENV.tmp" \
    && "$CHECKOV_VENV.tmp/bin/pip" install -q --disable-pip-version-check "checkov==$CHECKOV_VERSION" \
    || { rm -rf "$CHECKOV_VENV.tmp"; _k8s_log "FAILED to install checkov $CHECKOV_VERSION"; return 1; }
  # a venv's scripts name its path: build it under .tmp, then move it and rewrite their first lines
  mv "$CHECKOV_VENV.tmp" "$CHECKOV_VENV"
  grep -rlI --null "$CHECKOV_VENV.tmp" "$CHECKOV_VENV/bin" | xargs -0 -r sed -i "s|$CHECKOV_VENV.tmp|$CHECKOV_VENV|g"
}

scan_tools_install() {
  mkdir -p "$K8S_TOOLS_BIN"
  _build_shared helm
  _install_terraform
  _install_checkov
  _go_build_pinned kube-score github.com/zegl/kube-score "$KUBE_SCORE_VERSION" github.com/zegl/kube-score/cmd/kube-score \
    "-s -w -X main.version=${KUBE_SCORE_VERSION#v}"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  scan_tools_install
fi
