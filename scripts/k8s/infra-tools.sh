#!/usr/bin/env bash
# The pinned tools the Terraform and workflow checks use, built once per version into $PERFLAB_CACHE (skipped when
# there): terraform (the binary on PATH when it is exactly the pinned version, otherwise built from the Go module
# proxy), the hashicorp/helm provider (built by k8s-tools.sh at a pinned commit and served to terraform from a
# filesystem mirror: no registry is reached), actionlint (Go proxy) and shellcheck (Debian's package).
#
#   scripts/k8s/infra-tools.sh       build/install whatever is missing
#   scripts/k8s/infra-tools.sh packages  only the Debian package (shellcheck)
#   source scripts/k8s/infra-tools.sh  only define the variables below (used by scripts/test/test-infra.sh)
#
# Each version is a setting: export it to override.
source "$(dirname "${BASH_SOURCE[0]}")/k8s-tools.sh"

TERRAFORM_VERSION="${TERRAFORM_VERSION:-v1.11.4}"
ACTIONLINT_VERSION="${ACTIONLINT_VERSION:-v1.7.12}"
# The hashicorp/helm provider is pinned by commit (HELM_PROVIDER_COMMIT) and built by k8s-tools.sh in its shared
# module (it links helm and client-go); the mirror serves it as 3.2.0, the version it reports.
HELM_PROVIDER_VERSION="${HELM_PROVIDER_VERSION:-3.2.0}"

TERRAFORM="$K8S_TOOLS_BIN/terraform-$TERRAFORM_VERSION"
# shellcheck disable=SC2034 # used by scripts/test/test-infra.sh and scripts/test/test.sh
ACTIONLINT="$K8S_TOOLS_BIN/actionlint-$ACTIONLINT_VERSION"
HELM_PROVIDER_BUILD="$K8S_TOOLS_BIN/terraform-provider-helm-$HELM_PROVIDER_COMMIT"
TERRAFORM_MIRROR="$PERFLAB_CACHE/terraform-mirror"
TERRAFORM_RC="$PERFLAB_CACHE/terraform-mirror.tfrc"
SHELLCHECK="${SHELLCHECK:-/usr/bin/shellcheck}"

_install_terraform() {
  [ -x "$TERRAFORM" ] && return 0
  local found; found="$(command -v terraform 2>/dev/null || true)"
  if [ -n "$found" ] && [ "$("$found" version -json 2>/dev/null | sed -n 's/.*"terraform_version": *"\([^"]*\)".*/v\1/p')" = "$TERRAFORM_VERSION" ]; then
    ln -sf "$found" "$TERRAFORM"
    return 0
  fi
  _go_build_pinned terraform github.com/hashicorp/terraform "$TERRAFORM_VERSION" github.com/hashicorp/terraform
}

_install_helm_provider() {
  _build_shared terraform-provider-helm || return 1
  local dir="$TERRAFORM_MIRROR/registry.terraform.io/hashicorp/helm/$HELM_PROVIDER_VERSION/linux_amd64"
  mkdir -p "$dir"
  [ -x "$dir/terraform-provider-helm_v$HELM_PROVIDER_VERSION" ] \
    || cp "$HELM_PROVIDER_BUILD" "$dir/terraform-provider-helm_v$HELM_PROVIDER_VERSION"
  cat >"$TERRAFORM_RC" <<RC
# written by scripts/k8s/infra-tools.sh: providers built here, no registry
provider_installation {
  filesystem_mirror {
    path    = "$TERRAFORM_MIRROR"
    include = ["registry.terraform.io/hashicorp/helm"]
  }
}
RC
}

_install_shellcheck() {
  [ -x "$SHELLCHECK" ] && return 0
  _k8s_log "installing shellcheck (apt)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck >/dev/null
}

infra_tools_install() {
  mkdir -p "$K8S_TOOLS_BIN"
  _install_terraform
  _install_helm_provider
  _go_build_pinned actionlint github.com/rhysd/actionlint "$ACTIONLINT_VERSION" github.com/rhysd/actionlint/cmd/actionlint
  _install_shellcheck
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  if [ "${1:-}" = packages ]; then _install_shellcheck; else infra_tools_install; fi
fi
