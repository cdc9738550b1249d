#!/usr/bin/env bash
# make verify: the checks that need no stores, no node and no root once the tools are cached (a first `make test` or
# `scripts/k8s/k8s-tools.sh && scripts/k8s/infra-tools.sh` builds them), in a few minutes: every Java module compiled with its
# tests (the tests themselves run against real stores: make test), the scripts' syntax and their own tests, the
# charts' static checks (README tables, lint, kubeconform of every ci values set, helm-unittest, the chart unit
# checks, promtool), the infra's (terraform fmt and validate, actionlint), and the docs generated from data. Whatever
# fails is named at the end; the exit status is 1 if anything did.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/env.sh
source scripts/k8s/k8s-tools.sh >/dev/null

failed=()
check() {  # name command...
  local t0=$SECONDS
  log "$1"
  if "${@:2}"; then log "$1: ok ($((SECONDS - t0)) s)"; else failed+=("$1"); log "$1: FAILED"; fi
}
scripts_syntax() {
  local f rc=0
  for f in scripts/*/*.sh; do bash -n "$f" || rc=1; done
  python3 -m py_compile scripts/*/*.py scripts/test/unit/*.py || rc=1
  return $rc
}

check "Java: every module and its tests compiled (./mvnw -DskipTests install)" ./mvnw -B -ntp -q -DskipTests install
# what every module ships resolves to licences perflab may ship, none refused (the load engine's JMeter among them)
licences() {
  ./mvnw -B -ntp -q license:aggregate-add-third-party &&
    python3 scripts/test/licences.py target/generated-sources/license/THIRD-PARTY.txt
}
check "licences: every dependency the build ships (license-maven-plugin, scripts/test/licences.py)" licences
check "k6 stays gone: no build, image, operator resource or command of it (scripts/test/check-no-k6.py)" \
  python3 scripts/test/check-no-k6.py
check "scripts: syntax of every script (bash -n, py_compile)" scripts_syntax
check "scripts: shellcheck on every shell script, settings in .shellcheckrc (scripts/test/check-shell.sh)" scripts/test/check-shell.sh
check "scripts: their own tests (python3 -m unittest, scripts/test/unit)" python3 -m unittest discover -s scripts/test/unit
check "charts: static checks (scripts/test/test-chart.sh --no-cluster)" scripts/test/test-chart.sh --no-cluster
check "infra: terraform and workflows (scripts/test/test-infra.sh)" scripts/test/test-infra.sh
check "docs: the capacity tables are what their rows give" "$K8S_TOOLS_PYTHON" scripts/bench/capacity.py --check
check "docs: make targets and service ports as the Makefile and service.env state them (scripts/test/check-doc-tables.py)" \
  python3 scripts/test/check-doc-tables.py
check "docs: no sentence over 60 words in README.md and the guides (scripts/test/prose.py)" \
  python3 scripts/test/prose.py --max-words 60 README.md docs/kubernetes.md docs/load-testing.md docs/operations.md \
  docs/reliability.md docs/observability.md docs/architecture.md docs/glossary.md docs/figures.md docs/howto.md docs/troubleshooting.md
check "docs: the goals in docs/figures.md as the SLO files, bench-gateway.sh and service.env hold them (scripts/test/check-figures.py)" python3 scripts/test/check-figures.py
[ ${#failed[@]} -eq 0 ] || { log "verify failed: ${failed[*]}"; exit 1; }
log "verify: every check passed"
