#!/usr/bin/env bash
# Builds the pinned Kubernetes tool chain the chart tests use, once per version, into
# $PERFLAB_CACHE/bin/<name>-<version>; a tool already there is skipped. No prebuilt binary is fetched:
# everything comes from the Go module proxy (built here), PyPI or Debian packages.
#
#   scripts/k8s/k8s-tools.sh        build/install whatever is missing (cold: ~7 min on 2 cores, warm: <1 s)
#   scripts/k8s/k8s-tools.sh packages  only the Debian packages (etcd, promtool, the node's)
#   scripts/k8s/k8s-tools.sh helm   those and helm
#   scripts/k8s/k8s-tools.sh paths  print NAME=path lines
#   source scripts/k8s/k8s-tools.sh  only defines the variables below (used by scripts/test/test-chart.sh)
#
# promtool (rule checks and rule unit tests) comes from Debian's `prometheus` package, whatever version the
# distribution ships (2.42 on Debian 12); its service is never started.
#
# Each version is a setting: export it to override.
# shellcheck disable=SC2034 # the tool paths below are read by the scripts that source this file
PERFLAB_ROOT="${PERFLAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
PERFLAB_CACHE="${PERFLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perflab}"
K8S_TOOLS_BIN="$PERFLAB_CACHE/bin"

HELM_VERSION="${HELM_VERSION:-v3.22.0}"
KUBECONFORM_VERSION="${KUBECONFORM_VERSION:-v0.7.0}"
KWOK_VERSION="${KWOK_VERSION:-v0.8.0}"
K8S_VERSION="${K8S_VERSION:-v1.36.3}"
PROMETHEUS_OPERATOR_VERSION="${PROMETHEUS_OPERATOR_VERSION:-v0.93.0}"
# kubernetes-validate ships the upstream OpenAPI-derived JSON schemas per Kubernetes minor.
KUBERNETES_VALIDATE_VERSION="${KUBERNETES_VALIDATE_VERSION:-1.37.0}"
PYYAML_VERSION="${PYYAML_VERSION:-6.0.2}"
# The chart checks that need Python (charts/tests/test_*.py) run under pytest.
PYTEST_VERSION="${PYTEST_VERSION:-9.2.0}"
# The real node (scripts/k8s/k8s-node.sh): crane (local OCI registry, image pushes) and CoreDNS (cluster DNS as a host
# process, only the plugins it needs) from the Go module proxy; containerd 1.6, runc, the CNI plugins, iptables,
# conntrack, socat, debootstrap and ipset from Debian's packages (whatever Debian 12 ships).
CRANE_VERSION="${CRANE_VERSION:-v0.22.1}"
# The local OCI registry of the real test node (scripts/k8s/k8s-node.sh starts it, scripts/k8s/base-image.sh pushes into it).
PERFLAB_REGISTRY_PORT="${PERFLAB_REGISTRY_PORT:-15000}"
PERFLAB_REGISTRY="${PERFLAB_REGISTRY:-127.0.0.1:$PERFLAB_REGISTRY_PORT}"
COREDNS_VERSION="${COREDNS_VERSION:-v1.14.7}"
# The real node's NetworkPolicy controller: kube-router with its firewall alone (scripts/k8s/k8s-node.sh), from the proxy.
KUBE_ROUTER_VERSION="${KUBE_ROUTER_VERSION:-v2.1.0}"
# The resource metrics API (metrics.k8s.io) the HorizontalPodAutoscalers read, as a pod on the real node.
METRICS_SERVER_VERSION="${METRICS_SERVER_VERSION:-v0.9.0}"
# Chart unit tests (helm-unittest, a Helm plugin) and the README values tables (helm-docs), both from the module proxy.
HELM_UNITTEST_VERSION="${HELM_UNITTEST_VERSION:-v1.1.2}"
HELM_DOCS_VERSION="${HELM_DOCS_VERSION:-v1.14.2}"
# values.schema.json, generated from the `# @schema` annotations of values.yaml (helm-values-schema-json, MIT).
HELM_SCHEMA_VERSION="${HELM_SCHEMA_VERSION:-v2.3.0}"

HELM="$K8S_TOOLS_BIN/helm-$HELM_VERSION"
KUBECONFORM="$K8S_TOOLS_BIN/kubeconform-$KUBECONFORM_VERSION"
KWOK="$K8S_TOOLS_BIN/kwok-$KWOK_VERSION"
KUBE_APISERVER="$K8S_TOOLS_BIN/kube-apiserver-$K8S_VERSION"
KUBE_CONTROLLER_MANAGER="$K8S_TOOLS_BIN/kube-controller-manager-$K8S_VERSION"
KUBE_SCHEDULER="$K8S_TOOLS_BIN/kube-scheduler-$K8S_VERSION"
KUBECTL="$K8S_TOOLS_BIN/kubectl-$K8S_VERSION"
KUBELET="$K8S_TOOLS_BIN/kubelet-$K8S_VERSION"
KUBE_PROXY="$K8S_TOOLS_BIN/kube-proxy-$K8S_VERSION"
CRANE="$K8S_TOOLS_BIN/crane-$CRANE_VERSION"
# CoreDNS with only the plugins the cluster DNS uses (the full build pulls every cloud SDK); the binary is named after
# its plugin list too, so a changed list builds anew
COREDNS_PLUGINS="bind kubernetes forward cache errors log health ready loop reload loadbalance"
COREDNS_BUILD="coredns-$(printf '%s' "$COREDNS_PLUGINS" | sha256sum | cut -c1-8)"
COREDNS="$K8S_TOOLS_BIN/$COREDNS_BUILD-$COREDNS_VERSION"
KUBE_ROUTER="$K8S_TOOLS_BIN/kube-router-$KUBE_ROUTER_VERSION"
METRICS_SERVER="$K8S_TOOLS_BIN/metrics-server-$METRICS_SERVER_VERSION"
HELM_UNITTEST="$K8S_TOOLS_BIN/helm-unittest-$HELM_UNITTEST_VERSION"
# A plugins directory holding only the pinned unittest plugin: `HELM_PLUGINS=$HELM_UNITTEST_PLUGINS $HELM unittest ...`
HELM_UNITTEST_PLUGINS="$PERFLAB_CACHE/helm-plugins/unittest-$HELM_UNITTEST_VERSION"
HELM_DOCS="$K8S_TOOLS_BIN/helm-docs-$HELM_DOCS_VERSION"
HELM_SCHEMA="$K8S_TOOLS_BIN/helm-values-schema-json-$HELM_SCHEMA_VERSION"
# The pod sandbox ("pause") image's one binary: a few lines of Go (below) built here, since no image can be pulled.
PERFLAB_PAUSE_VERSION="${PERFLAB_PAUSE_VERSION:-1}"
PERFLAB_PAUSE="$K8S_TOOLS_BIN/perflab-pause-$PERFLAB_PAUSE_VERSION"
K8S_NODE_PACKAGES=(containerd runc containernetworking-plugins iptables conntrack socat debootstrap ipset)
PROMTOOL="${PROMTOOL:-$(command -v promtool 2>/dev/null || echo /usr/bin/promtool)}"
K8S_TOOLS_VENV="$PERFLAB_CACHE/venv-chart-kv$KUBERNETES_VALIDATE_VERSION-pytest$PYTEST_VERSION"
K8S_TOOLS_PYTHON="$K8S_TOOLS_VENV/bin/python"

_k8s_log() { printf '\033[1m[k8s-tools]\033[0m %s\n' "$*" >&2; }

# go_mod_field MODULE@VERSION FIELD: downloads the module (once, into Go's module cache) and prints one field of what
# `go mod download -json` says of it: Dir (its source) or GoMod (its go.mod)
go_mod_field() {
  (cd /tmp && GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "$1") | sed -n "s/.*\"$2\": \"\(.*\)\".*/\1/p"
}

# _remote_replaces GOMOD: a go.mod's replace lines that point at other modules, one `replace ...` line each (go ignores
# a dependency's replaces, so a wrapper module states them again; the local ones, `=> ./...`, are not needed)
_remote_replaces() {
  awk '/^replace[ \t]*\(/{inb=1;next} inb&&/^\)/{inb=0;next} inb{print "replace " $0} /^replace [^(]/{print}' "$1" \
    | grep -v '=> \.' || true
}

# go_build_pinned NAME MODULE VERSION PACKAGE [ldflags]: builds PACKAGE of MODULE@VERSION into $K8S_TOOLS_BIN/NAME-VERSION,
# with its own go.mod's pins (kube-router, and infra-tools.sh's small ones; the others: the shared module below).
# `go install mod@v` is refused for modules with replace directives, so build inside
# a throwaway module that requires the pinned version; -mod=mod lets go fill go.sum from the proxy and checksum db.
# `go build`/`go install` of these tools: the compiler's GC at 400 and no DWARF (every binary is stripped anyway),
# for these builds only (the tools they build run with Go's defaults). Measured here, metrics-server from an empty
# build cache: 266 -> 243 s of CPU, 158 -> 130 s of wall.
_go() { GOGC=400 go "$1" -gcflags=all=-dwarf=false "${@:2}"; }

_go_build_pinned() {
  local name="$1" module="$2" version="$3" pkg="$4" ldflags="${5:-}" out="$K8S_TOOLS_BIN/$1-$3"
  [ -x "$out" ] && return 0
  _k8s_log "building $name $version ($pkg)"
  local tmp; tmp="$(mktemp -d)"
  # go names the binary after the package path without its major-version suffix (.../v2)
  local bin; bin="$(basename "$(printf '%s' "$pkg" | sed -E 's#/v[0-9]+$##')")"
  if (cd "$tmp" && GOBIN="$tmp/bin" GOTOOLCHAIN=local CGO_ENABLED=0 _go install -ldflags "$ldflags" "$pkg@$version") \
      && [ -x "$tmp/bin/$bin" ]; then
    mv "$tmp/bin/$bin" "$out"
  else
    _k8s_log "go install $pkg@$version refused; building from a wrapper module"
    (
      set -e
      cd "$tmp"
      printf 'module perflab.local/tools/%s\n\ngo 1.25\n\nrequire %s %s\n' "$name" "$module" "$version" > go.mod
      GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download "$module@$version"
      # A dependency's replace lines are ignored by go, so re-state its local ones are not needed; copy remote ones.
      _remote_replaces "$(go_mod_field "$module@$version" GoMod)" >> go.mod
      GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 _go build -ldflags "$ldflags" -o "$out.tmp" "$pkg"
      mv "$out.tmp" "$out"
    ) || { rm -rf "$tmp"; _k8s_log "FAILED to build $name $version"; return 1; }
  fi
  rm -rf "$tmp"
}

# The Go tools that link the Kubernetes libraries, and the small ones beside them, are built from ONE wrapper module
# ($PERFLAB_CACHE/build/go-tools-<key>): k8s.io/kubernetes at K8S_VERSION (its staging modules, which its go.mod points
# at ./staging with version v0.0.0, re-pointed at their published v0.X.Y tags) with every other tool required beside
# it, and each library Kubernetes requires held at Kubernetes' own version (replace). So the Kubernetes binaries are
# built from exactly their go.mod's library set, and each package the tools share (client-go, apiserver, grpc, ...)
# is compiled once instead of once per tool's own pins (six sets of the Kubernetes libraries before: helm's v0.37.0,
# kwok's, metrics-server's, helm-unittest's, CoreDNS's, the Helm provider's). The other tools link that set instead
# of their own go.mod's (helm v3.22.0 links client-go v0.36.3, not v0.37.0); each compiles, and each is run by the
# tests that use it. Measured from empty build caches, everything this script and infra-tools.sh build, one run each:
# 1,380 -> 728 s of CPU (7:17 of wall alone; kube-apiserver 197 -> 66 s, helm first at 108 s). kube-router v2.1.0
# does not compile against that set (its docker client wants an older go-connections) and keeps a module of its own
# (_go_build_pinned), as do the small ones of infra-tools.sh.
K8S_MINOR="${K8S_VERSION#v1.}"; K8S_MINOR="${K8S_MINOR%%.*}"
# hashicorp/terraform-provider-helm (scripts/k8s/infra-tools.sh serves it to terraform) has no Go-importable v3 tags (its
# module path has no /v3), so it is pinned by commit: 3.2.0 and the fixes merged up to 2026-06-29. Built here, in the
# shared module: it links helm and client-go too.
HELM_PROVIDER_COMMIT="${HELM_PROVIDER_COMMIT:-v1.3.3-0.20260629194918-a4f1c1d8b008}"

# name|module|version|package|ldflags of each tool built in the shared module. helm's Makefile stamps the Kubernetes
# minor of the client-go it links as the default .Capabilities.KubeVersion (used by `helm template` and lint); without
# it helm claims v1.20 and every kubeVersion constraint fails.
_shared_tools() {
  local k8s_ld="-s -w -X k8s.io/component-base/version.gitVersion=$K8S_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$K8S_MINOR"
  local helm_ld="-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION" p b
  for p in chartutil lint/rules; do
    helm_ld="$helm_ld -X helm.sh/helm/v3/pkg/$p.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/$p.k8sVersionMinor=$K8S_MINOR"
  done
  printf '%s\n' \
    "helm|helm.sh/helm/v3|$HELM_VERSION|helm.sh/helm/v3/cmd/helm|$helm_ld" \
    "kubeconform|github.com/yannh/kubeconform|$KUBECONFORM_VERSION|github.com/yannh/kubeconform/cmd/kubeconform|-s -w" \
    "kwok|sigs.k8s.io/kwok|$KWOK_VERSION|sigs.k8s.io/kwok/cmd/kwok|-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=$KWOK_VERSION" \
    "crane|github.com/google/go-containerregistry|$CRANE_VERSION|github.com/google/go-containerregistry/cmd/crane|-s -w" \
    "helm-unittest|github.com/helm-unittest/helm-unittest|$HELM_UNITTEST_VERSION|github.com/helm-unittest/helm-unittest/cmd/helm-unittest|-s -w -X github.com/helm-unittest/helm-unittest/internal/build.version=${HELM_UNITTEST_VERSION#v}" \
    "helm-docs|github.com/norwoodj/helm-docs|$HELM_DOCS_VERSION|github.com/norwoodj/helm-docs/cmd/helm-docs|-s -w -X main.version=${HELM_DOCS_VERSION#v}" \
    "$COREDNS_BUILD|github.com/coredns/coredns|$COREDNS_VERSION|./coredns|-s -w" \
    "metrics-server|sigs.k8s.io/metrics-server|$METRICS_SERVER_VERSION|sigs.k8s.io/metrics-server/cmd/metrics-server|-s -w -X k8s.io/client-go/pkg/version.gitVersion=$METRICS_SERVER_VERSION" \
    "terraform-provider-helm|github.com/hashicorp/terraform-provider-helm|$HELM_PROVIDER_COMMIT|github.com/hashicorp/terraform-provider-helm|-s -w"
  for b in kube-apiserver kube-controller-manager kube-scheduler kubectl kubelet kube-proxy; do
    printf '%s\n' "$b|k8s.io/kubernetes|$K8S_VERSION|k8s.io/kubernetes/cmd/$b|$k8s_ld"
  done
}

# _shared_module: prints the shared module's directory, written once per set of pinned versions and way of writing it
# (this function's text and the CoreDNS plugins are part of its name).
_shared_module() {
  local requires key dir
  requires="$(_shared_tools | awk -F'|' '{print $2, $3}' | sort -u)"
  key="$({ printf '%s\n' "$requires" "$COREDNS_PLUGINS"; declare -f _shared_module; } | sha256sum | cut -c1-12)"
  dir="$PERFLAB_CACHE/build/go-tools-$key"
  if [ ! -f "$dir/go.mod" ]; then
    (
      set -e
      rm -rf "$dir.tmp"; mkdir -p "$dir.tmp/coredns"; cd "$dir.tmp"
      export GOTOOLCHAIN=local GOFLAGS=-mod=mod
      local m v k8s_gomod
      k8s_gomod="$(go_mod_field "k8s.io/kubernetes@$K8S_VERSION" GoMod)"
      {
        printf 'module perflab.local/tools\n\ngo 1.25\n\nrequire (\n'
        printf '%s\n' "$requires" | while read -r m v; do printf '\t%s %s\n' "$m" "$v"; done
        printf ')\n\n'
        # each tool's remote replaces, then Kubernetes' staging modules at their tags and its own pins; one
        # replacement per module
        printf '%s\n' "$requires" | while read -r m v; do _remote_replaces "$(go_mod_field "$m@$v" GoMod)"; done
        grep -oE 'k8s\.io/[a-z0-9-]+ => \./staging/src/k8s\.io/[a-z0-9-]+' "$k8s_gomod" | awk '{print $1}' \
          | grep -vE 'k8s\.io/sample-(cli-plugin|controller)$' \
          | while read -r m; do printf 'replace %s => %s v0.%s\n' "$m" "$m" "${K8S_VERSION#v1.}"; done
        awk '/^require[ \t]*\(/{inb=1;next} inb&&/^\)/{inb=0;next} inb&&NF>=2&&$2!="v0.0.0"{print "replace " $1 " => " $1 " " $2}' "$k8s_gomod"
      } | awk '!/^replace /{print; next} !seen[$2]++' > go.mod.new
      mv go.mod.new go.mod
      {
        printf 'package main\n\n// CoreDNS with only the plugins the cluster DNS uses (the full build pulls every cloud SDK).\nimport (\n'
        for m in $COREDNS_PLUGINS; do
          printf '\t_ "github.com/coredns/coredns/plugin/%s"\n' "$m"
        done
        printf '\t"github.com/coredns/coredns/coremain"\n)\n\nfunc main() { coremain.Run() }\n'
      } > coredns/main.go
      go mod download
    ) >&2 || { rm -rf "$dir.tmp"; _k8s_log "FAILED to write the shared tools module"; return 1; }
    rm -rf "$dir"; mv "$dir.tmp" "$dir"
  fi
  printf '%s\n' "$dir"
}

# _build_shared [NAME...]: builds the named tools of the shared module (all of them without names) that are missing,
# one `go build` each into $K8S_TOOLS_BIN/NAME-VERSION (the packages they share compile once, in go's build cache).
_build_shared() {
  local want=" ${*:-} " missing=() name module version pkg ld
  while IFS='|' read -r name module version pkg ld; do
    [ "$want" = "  " ] || [[ "$want" == *" $name "* ]] || continue
    [ -x "$K8S_TOOLS_BIN/$name-$version" ] || missing+=("$name|$version|$pkg|$ld")
  done < <(_shared_tools)
  [ ${#missing[@]} -eq 0 ] && return 0
  local dir; dir="$(_shared_module)" || return 1
  _k8s_log "building ${#missing[@]} tools in one module ($dir; cold: ~7 min on 2 cores)"
  local t row out
  for row in "${missing[@]}"; do
    IFS='|' read -r name version pkg ld <<<"$row"
    out="$K8S_TOOLS_BIN/$name-$version"; t=$SECONDS
    (cd "$dir" && GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 _go build -ldflags "$ld" -o "$out.tmp" "$pkg") \
      && mv "$out.tmp" "$out" || { _k8s_log "FAILED to build $name $version"; return 1; }
    _k8s_log "built $name $version in $((SECONDS - t)) s"
  done
}

# helm-unittest is a Helm plugin: its own plugin.yaml (the module's, as `helm plugin install` would unpack it) beside
# the binary under the name that file gives for this OS/arch. Its install hook, which downloads a release, is never
# run: helm runs hooks only on `helm plugin install`, and the directory is laid here instead.
_helm_unittest_plugin() {
  local dir="$HELM_UNITTEST_PLUGINS/unittest" os arch
  os="$(GOTOOLCHAIN=local go env GOOS)"; arch="$(GOTOOLCHAIN=local go env GOARCH)"
  [ "$os" = darwin ] && os=macos
  [ -x "$dir/untt-$os-$arch" ] && [ -f "$dir/plugin.yaml" ] && return 0
  local src; src="$(go_mod_field "github.com/helm-unittest/helm-unittest@$HELM_UNITTEST_VERSION" Dir)"
  [ -f "$src/plugin.yaml" ] || { _k8s_log "no plugin.yaml in helm-unittest $HELM_UNITTEST_VERSION"; return 1; }
  mkdir -p "$dir"
  cp "$src/plugin.yaml" "$dir/plugin.yaml" && chmod u+w "$dir/plugin.yaml"
  ln -sf "$HELM_UNITTEST" "$dir/untt-$os-$arch"
}

_install_etcd() {
  command -v etcd >/dev/null 2>&1 && return 0
  _k8s_log "installing etcd-server from the Debian packages"
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # policy-rc.d 101 keeps apt from starting the etcd service: the tests start their own on loopback.
  local policy=/usr/sbin/policy-rc.d created=""
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null; $sudo chmod +x "$policy"; created=1; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q etcd-server >/dev/null \
    || { $sudo apt-get update -q >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q etcd-server >/dev/null; }
  [ -n "$created" ] && $sudo rm -f "$policy"
  command -v etcd >/dev/null
}

_install_promtool() {
  [ -x "$PROMTOOL" ] && return 0
  _k8s_log "installing promtool (Debian package prometheus, no recommends)"
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # policy-rc.d 101 keeps apt from starting the prometheus service: only its promtool is wanted here.
  local policy=/usr/sbin/policy-rc.d created=""
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null; $sudo chmod +x "$policy"; created=1; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus >/dev/null \
    || { $sudo apt-get update -q >/dev/null \
         && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus >/dev/null; }
  [ -n "$created" ] && $sudo rm -f "$policy"
  PROMTOOL="$(command -v promtool || echo /usr/bin/promtool)"
  [ -x "$PROMTOOL" ]
}

_install_python() {
  [ -x "$K8S_TOOLS_PYTHON" ] && "$K8S_TOOLS_PYTHON" -c 'import kubernetes_validate, yaml, pytest' 2>/dev/null && return 0
  _k8s_log "python venv with kubernetes-validate==$KUBERNETES_VALIDATE_VERSION, PyYAML==$PYYAML_VERSION, pytest==$PYTEST_VERSION"
  python3 -m venv "$K8S_TOOLS_VENV"
  "$K8S_TOOLS_VENV/bin/pip" install -q "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" "PyYAML==$PYYAML_VERSION" "pytest==$PYTEST_VERSION"
}

# perflab-pause: PID 1 of every pod sandbox. Sleeps until SIGINT/SIGTERM and reaps orphaned children (a pod with
# shareProcessNamespace has them), like Kubernetes' own pause.c.
_build_pause() {
  [ -x "$PERFLAB_PAUSE" ] && return 0
  _k8s_log "building perflab-pause $PERFLAB_PAUSE_VERSION"
  local tmp; tmp="$(mktemp -d)"
  printf 'module perflab.local/tools/pause\n\ngo 1.25\n' >"$tmp/go.mod"
  cat >"$tmp/main.go" <<'EOF'
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sig := make(chan os.Signal, 8)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for s := range sig {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			var ws syscall.WaitStatus
			if pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil); pid <= 0 || err != nil {
				break
			}
		}
	}
}
EOF
  (cd "$tmp" && GOTOOLCHAIN=local CGO_ENABLED=0 _go build -ldflags "-s -w" -o "$PERFLAB_PAUSE.tmp" . && mv "$PERFLAB_PAUSE.tmp" "$PERFLAB_PAUSE") \
    || { rm -rf "$tmp"; _k8s_log "FAILED to build perflab-pause"; return 1; }
  rm -rf "$tmp"
}

_install_node_packages() {
  local missing=() p
  for p in "${K8S_NODE_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  _k8s_log "installing ${missing[*]} from the Debian packages (no recommends)"
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # policy-rc.d 101 keeps apt from starting containerd's service: the node starts its own, state under its DIR.
  local policy=/usr/sbin/policy-rc.d created=""
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null; $sudo chmod +x "$policy"; created=1; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null \
    || { $sudo apt-get update -q >/dev/null \
         && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; }
  [ -n "$created" ] && $sudo rm -f "$policy"
  command -v containerd >/dev/null && command -v runc >/dev/null && [ -x /usr/lib/cni/bridge ] && command -v ipset >/dev/null
}

# helm-values-schema-json: the checksum database this machine's proxy serves has no entry for it, so its module hash
# is pinned here (v2.3.0's h1:, the same files as the upstream tag) and compared before the build, in place of
# the database's check.
HELM_SCHEMA_SUM="${HELM_SCHEMA_SUM:-h1:HN/qi6J7GaEm7iDW3Uu/seW1oXvJLA1bGUlptArY3PQ=}"
_helm_schema() {
  [ -x "$HELM_SCHEMA" ] && return 0
  local m=github.com/losisin/helm-values-schema-json/v2 nosum=github.com/losisin/helm-values-schema-json sum
  sum="$(GONOSUMDB=$nosum go_mod_field "$m@$HELM_SCHEMA_VERSION" Sum)"
  [ "$sum" = "$HELM_SCHEMA_SUM" ] || { _k8s_log "$m@$HELM_SCHEMA_VERSION hashes to '$sum', pinned $HELM_SCHEMA_SUM"; return 1; }
  GONOSUMDB=$nosum _go_build_pinned helm-values-schema-json "$m" "$HELM_SCHEMA_VERSION" "$m" "-s -w -X main.Version=${HELM_SCHEMA_VERSION#v}"
}

prometheus_operator_dir() {
  go_mod_field "github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR_VERSION" Dir 2>/dev/null
}

_k8s_tools_main() {
  set -euo pipefail
  mkdir -p "$K8S_TOOLS_BIN"
  if [ "${1:-}" = paths ]; then
    for v in HELM KUBECONFORM KWOK KUBE_APISERVER KUBE_CONTROLLER_MANAGER KUBE_SCHEDULER KUBECTL KUBELET KUBE_PROXY CRANE COREDNS KUBE_ROUTER METRICS_SERVER HELM_UNITTEST HELM_UNITTEST_PLUGINS HELM_DOCS HELM_SCHEMA PERFLAB_PAUSE PROMTOOL K8S_TOOLS_PYTHON; do
      printf '%s=%s\n' "$v" "${!v}"
    done
    return 0
  fi
  local t0=$SECONDS
  _install_etcd
  _install_promtool
  _install_node_packages
  # `packages`: only what comes from Debian (apt takes one lock: make test installs these before it builds the rest
  # in the background, beside other work)
  [ "${1:-}" != packages ] || return 0
  if [ "${1:-}" = helm ]; then _build_shared helm; return; fi
  _install_python
  (cd /tmp && prometheus_operator_dir >/dev/null)
  _build_shared
  _helm_unittest_plugin
  _helm_schema
  _go_build_pinned kube-router github.com/cloudnativelabs/kube-router/v2 "$KUBE_ROUTER_VERSION" \
    github.com/cloudnativelabs/kube-router/v2/cmd/kube-router \
    "-s -w -X github.com/cloudnativelabs/kube-router/v2/pkg/version.Version=$KUBE_ROUTER_VERSION"
  _build_pause
  _k8s_log "tools ready in $((SECONDS - t0)) s under $K8S_TOOLS_BIN"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  _k8s_tools_main "$@"
fi
