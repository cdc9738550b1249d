#!/usr/bin/env bash
# Chart checks, offline: README values tables (helm-docs), values.schema.json (helm-values-schema-json), defaults
# stated once and the SLO link in sync, helm lint --strict, strict schema validation of every
# ci/*-values.yaml rendering (kubeconform: Kubernetes 1.36 schemas, prometheus-operator and Gateway API CRDs),
# chart unit tests (helm-unittest suites, then pytest charts/tests), the alert rules under promtool (check + unit tests), then a real kube-apiserver on loopback (kwok fake node) for server-side dry-runs and a
# helm install --wait / upgrade / uninstall. Prints timings per step and closes with `chart: N passed, N failed`.
#
#   scripts/test/test-chart.sh         everything (cold: builds the tools first, see scripts/k8s/k8s-tools.sh)
#   scripts/test/test-chart.sh --no-cluster the static checks only
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
# shellcheck source=scripts/k8s/k8s-cluster.sh
source scripts/k8s/k8s-cluster.sh

WITH_CLUSTER=1
[ "${1:-}" = --no-cluster ] && WITH_CLUSTER=0
CHARTS=(charts/perflab charts/perflab-loadtest)
STEP_TAG=chart
# shellcheck source=scripts/lib/steps.sh
source scripts/lib/steps.sh
WORK="$(mktemp -d "${TMPDIR:-/tmp}/perflab-chart.XXXXXX")"

cleanup() {
  k8s_cluster_down
  if [ "$FAILED" -gt 0 ] && [ -d "$WORK/cluster" ]; then
    mkdir -p "$ROOT/.run" && rm -rf "$ROOT/.run/chart-test-logs" && cp -r "$WORK/cluster" "$ROOT/.run/chart-test-logs" 2>/dev/null \
      && echo "control-plane logs kept in .run/chart-test-logs" >&2
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM


# values sets: every ci/*-values.yaml of a chart
values_sets() { find "$1/ci" -name '*-values.yaml' | sort; }

# ---- static ------------------------------------------------------------------------------------------------------

tools() { scripts/k8s/k8s-tools.sh; }

# README values tables: helm-docs renders each chart's README.md.gotmpl (the prose, then its values table from the
# `# --` comments of values.yaml) into a scratch copy, which must equal the committed README.md. And every leaf of
# values.yaml is documented, by a comment of its own or of a parent map shown whole: a row with no description is
# an undocumented value (helm-docs' own strict mode would also want a comment on every parent map).
docs_in_sync() {
  local c name dir undocumented rc=0
  for c in "${CHARTS[@]}"; do
    name="$(basename "$c")"; dir="$WORK/docs/$name"
    mkdir -p "$dir" && cp "$c/Chart.yaml" "$c/values.yaml" "$c/README.md.gotmpl" "$dir/" || return 1
    printf '{{ range .Values }}{{ if not (or .Description .AutoDescription) }}{{ .Key }}\n{{ end }}{{ end }}' >"$dir/undocumented.gotmpl"
    "$HELM_DOCS" -l error -c "$dir" -s file || return 1
    "$HELM_DOCS" -l error -c "$dir" -s file -t undocumented.gotmpl -o undocumented.txt || return 1
    if ! diff -u "$c/README.md" "$dir/README.md" >"$dir/readme.diff"; then
      head -40 "$dir/readme.diff"
      echo "$c/README.md is out of date: $HELM_DOCS -c $c -s file"; rc=1
    fi
    # a `# @schema` line inside a `# --` comment would be read as part of the description
    if grep -n '^|.*@schema' "$dir/README.md"; then echo "$c/values.yaml: a \`# @schema\` line inside a \`# --\` comment"; rc=1; fi
    undocumented="$(grep -v '^[[:space:]]*$' "$dir/undocumented.txt" | tr '\n' ' ')"
    [ -z "$undocumented" ] || { echo "$c/values.yaml: no \`# --\` comment for: $undocumented"; rc=1; }
  done
  return $rc
}

# values.schema.json is generated from the `# @schema` annotations of values.yaml (helm-values-schema-json, settings in
# the chart's .schema.yaml): a fresh one, made from a scratch copy, must equal the committed file.
schema_in_sync() {
  local c dir rc=0
  for c in "${CHARTS[@]}"; do
    [ -f "$c/.schema.yaml" ] || continue
    dir="$WORK/schema/$(basename "$c")"
    mkdir -p "$dir" && cp "$c/.schema.yaml" "$c/values.yaml" "$dir/" || return 1
    (cd "$dir" && "$HELM_SCHEMA" >"$dir/out" 2>&1) || { cat "$dir/out"; return 1; }
    if ! diff -u "$c/values.schema.json" "$dir/values.schema.json" >"$dir/schema.diff"; then
      head -40 "$dir/schema.diff"
      echo "$c/values.schema.json is out of date: (cd $c && \$HELM_SCHEMA)"; rc=1
    fi
  done
  return $rc
}

# A default is stated once: serviceDefaults in values.yaml (charts/tests/defaults_once.py says what it compares).
defaults_once() { "$K8S_TOOLS_PYTHON" charts/tests/defaults_once.py; }
defaults_check_bites() {  # a check that cannot fail is a defect: a service restating a default must be caught
  local dir="$WORK/defaults-bite"
  mkdir -p "$dir/templates" && cp charts/perflab/templates/*.tpl charts/perflab/templates/*.yaml "$dir/templates/" || return 1
  sed 's/^      repository: perflab\/route$/      repository: perflab\/route\n      pullPolicy: IfNotPresent/' \
    charts/perflab/values.yaml >"$dir/values.yaml"
  ! "$K8S_TOOLS_PYTHON" charts/tests/defaults_once.py "$dir" >"$dir/out" 2>&1 && grep -q 'services.route.image.pullPolicy' "$dir/out" \
    && sed 's/^/  /' "$dir/out"
}

repo_files_only() {  # a GitHub runner has only the repository: no path outside it
  ! grep -rnE '(\.\./|/work/)shared/' scripts charts
}

lint() {
  local c f rc=0
  for c in "${CHARTS[@]}"; do
    for f in $(values_sets "$c"); do
      "$HELM" lint --strict --quiet "$c" -f "$f" >"$WORK/lint.out" 2>&1 || { cat "$WORK/lint.out"; echo "lint failed: $c -f $f"; rc=1; }
    done
  done
  return $rc
}

# CRDs kept in the repository (provenance in charts/tests/crds/README.md): Gateway API's HTTPRoute
REPO_CRDS=("$ROOT"/charts/tests/crds/*.yaml)
SCHEMAS=""
schemas() {
  local kv_dir po_dir crd_sum
  kv_dir="$("$K8S_TOOLS_PYTHON" -c 'import kubernetes_validate, os; print(os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema"))')/v${K8S_VERSION#v}"
  kv_dir="${kv_dir%.*}.0-local-strict"
  [ -d "$kv_dir" ] || { echo "no strict schemas for Kubernetes ${K8S_VERSION} in kubernetes-validate $KUBERNETES_VALIDATE_VERSION ($kv_dir)"; return 1; }
  po_dir="$(cd /tmp && prometheus_operator_dir)/example/prometheus-operator-crd"
  local crds=("$po_dir/monitoring.coreos.com_servicemonitors.yaml" "$po_dir/monitoring.coreos.com_podmonitors.yaml"
              "$po_dir/monitoring.coreos.com_prometheusrules.yaml" "${REPO_CRDS[@]}")
  crd_sum="$(cat "${crds[@]}" "$ROOT/charts/tests/schemas.py" | sha256sum | cut -c1-12)"
  SCHEMAS="$PERFLAB_CACHE/schemas/k8s-$K8S_VERSION-kv$KUBERNETES_VALIDATE_VERSION-$crd_sum"
  [ -d "$SCHEMAS" ] && return 0
  mkdir -p "$PERFLAB_CACHE/schemas"
  "$K8S_TOOLS_PYTHON" charts/tests/schemas.py "$SCHEMAS" "$kv_dir" "${crds[@]}"
}

render_and_validate() {
  local c f out rc=0 n=0
  for c in "${CHARTS[@]}"; do
    for f in $(values_sets "$c"); do
      out="$WORK/render-$(basename "$c")-$(basename "$f" .yaml).yaml"
      "$HELM" template perflab "$c" -n perflab -f "$f" >"$out" || { echo "render failed: $c -f $f"; rc=1; continue; }
      # one validation per rendering: its summary printed, its exit status kept
      "$KUBECONFORM" -strict -summary -output text \
        -schema-location "$SCHEMAS/k8s/{{.ResourceKind}}{{.KindSuffix}}.json" \
        -schema-location "$SCHEMAS/crds/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json" \
        "$out" >"$WORK/kubeconform.out" 2>&1 || rc=1
      sed "s|^|  $(basename "$c")/$(basename "$f"): |" "$WORK/kubeconform.out" | grep -v ' is valid$' || true
      n=$((n + 1))
    done
  done
  [ $n -ge 5 ] || { echo "expected at least 5 values sets, found $n"; rc=1; }
  return $rc
}

validator_rejects_unknown_fields() {  # a check that cannot fail is a defect: prove the validator bites
  local out="$WORK/bad.yaml"
  "$HELM" template perflab charts/perflab -f charts/perflab/ci/monitoring-values.yaml \
    | sed -e 's/^  revisionHistoryLimit: 3$/  revisionHistoryLimit: 3\n  replica: 2/' \
          -e 's/^      interval: 10s$/      interval: 10s\n      scrapeTimout: 5s/' >"$out"
  local bad planted
  # one unknown field planted per Deployment and per ServiceMonitor: every one of them must be caught
  planted="$(grep -cE '^(  replica: 2|      scrapeTimout: 5s)$' "$out")"
  bad="$("$KUBECONFORM" -strict -summary -schema-location "$SCHEMAS/k8s/{{.ResourceKind}}{{.KindSuffix}}.json" \
    -schema-location "$SCHEMAS/crds/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json" "$out" | tail -1)"
  echo "  $bad (planted: $planted)"
  [ "$planted" -ge 4 ] && [[ "$bad" == *"Invalid: $planted,"* ]]
}

# one `ok`/`FAIL` line per test case of a JUnit report, so the run's step count holds every chart check
junit_lines() {  # FILE LABEL
  "$K8S_TOOLS_PYTHON" - "$1" "$2" <<'PY'
import sys
import xml.etree.ElementTree as ET
n = 0
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    n += 1
    bad = case.find("failure") is not None or case.find("error") is not None
    print(f"  {'FAIL' if bad else 'ok  '}  {sys.argv[2]}: {case.get('name')}")
sys.exit(0 if n else 1)
PY
}

# helm-unittest suites (charts/<chart>/tests/*_test.yaml), the pinned plugin in a plugins directory of its own
unittest() {
  local c rc=0
  for c in "${CHARTS[@]}"; do
    HELM_PLUGINS="$HELM_UNITTEST_PLUGINS" "$HELM" unittest --strict --color=false -t JUnit -o "$WORK/unittest.xml" "$c" \
      >"$WORK/unittest.out" 2>&1 || rc=1
    grep -v 'found symbolic link in path' "$WORK/unittest.out" | grep -vE '^(Charts|Snapshot|Time): ' | sed '/^$/d; s/^/  /'
    junit_lines "$WORK/unittest.xml" "$(basename "$c")" || rc=1
  done
  return $rc
}
# what the suites cannot hold (charts/tests/test_chart.py says what and why) and the dashboards' checks, under pytest;
# a failure's detail, then one line per test
chart_pytest() {  # FILE
  local rc=0 name; name="$(basename "$1" .py)"
  HELM="$HELM" "$K8S_TOOLS_PYTHON" -m pytest -q --tb=short --junitxml "$WORK/$name.xml" "$1" >"$WORK/$name.out" 2>&1 || rc=1
  [ $rc -eq 0 ] || sed 's/^/  /' "$WORK/$name.out"
  junit_lines "$WORK/$name.xml" "$name" || rc=1
  return $rc
}
unit() { chart_pytest charts/tests/test_chart.py; }
dashboards() { chart_pytest charts/tests/test_dashboards.py; }

# The PrometheusRule's groups as a plain rules file (fixed release and namespace: the tests' job labels are
# perflab-<service>), checked and unit-tested by promtool with charts/tests/rules-test.yaml.
RULES="$WORK/rules"
alert_rules() {
  "$HELM" template perflab charts/perflab -n perflab -f charts/perflab/ci/monitoring-values.yaml \
    --show-only templates/prometheusrule.yaml >"$WORK/prometheusrule.yaml" || return 1
  "$K8S_TOOLS_PYTHON" charts/tests/rules.py "$WORK/prometheusrule.yaml" "$RULES" charts/tests/rules-test.yaml || return 1
  "$PROMTOOL" check rules "$RULES/rules.yaml" | sed 's/^/  /' || return 1
  "$PROMTOOL" test rules "$RULES/rules-test.yaml" | sed 's/^/  /'
}

rules_test_catches_broken_expressions() {  # a misspelt metric matches nothing, and its alert could never fire
  local m rc=0
  for m in hikaricp_connections_timeout_total perflab_mail_outbox_backlog perflab_send_backlog; do
    sed "s/$m/${m}_typo/" "$RULES/rules-bare.yaml" >"$RULES/broken.yaml"
    sed 's/rules-bare.yaml/broken.yaml/' "$RULES/rules-test.yaml" >"$RULES/broken-test.yaml"
    if "$PROMTOOL" test rules "$RULES/broken-test.yaml" >"$RULES/broken.out" 2>&1; then
      echo "  promtool test passed with $m misspelt"; rc=1
    else
      echo "  $m misspelt: promtool test fails ($(grep -c 'alertname:' "$RULES/broken.out") expectation(s) unmet)"
    fi
  done
  return $rc
}

# ---- cluster -----------------------------------------------------------------------------------------------------

KC=""
kube() { "$KUBECTL" --kubeconfig "$KC" "$@"; }
helmc() { "$HELM" --kubeconfig "$KC" "$@"; }

cluster_up() {
  k8s_cluster_up "$WORK/cluster" || return 1
  KC="$WORK/cluster/kubeconfig"
  local po_dir; po_dir="$(cd /tmp && prometheus_operator_dir)/example/prometheus-operator-crd"
  kube apply --server-side -f "$po_dir/monitoring.coreos.com_servicemonitors.yaml" \
    -f "$po_dir/monitoring.coreos.com_podmonitors.yaml" -f "$po_dir/monitoring.coreos.com_prometheusrules.yaml" \
    "${REPO_CRDS[@]/#/-f}" >/dev/null || return 1
  kube wait --for condition=established crd --all --timeout 60s >/dev/null || return 1
  kube create namespace perflab >/dev/null && kube create namespace perflab-dryrun >/dev/null || return 1
  # the PriorityClass ci/scheduling-values.yaml names: a cluster's own object, which the chart never creates (a bare
  # Pod naming a missing class is refused; a Deployment's pods would only fail later)
  kube create priorityclass perflab-sut --value 1000 --description "perflab system under test (chart tests)" >/dev/null
}

server_dry_run() {
  local c f rc=0
  for c in "${CHARTS[@]}"; do
    for f in $(values_sets "$c"); do
      if "$HELM" template perflab "$c" -n perflab-dryrun -f "$f" \
          | kube apply -n perflab-dryrun --dry-run=server --validate=strict -f - >"$WORK/dry.out" 2>&1; then
        echo "  $(basename "$c")/$(basename "$f"): $(grep -c 'server dry run' "$WORK/dry.out") objects accepted"
      else
        cat "$WORK/dry.out"; echo "  server dry-run failed: $c -f $f"; rc=1
      fi
    done
  done
  return $rc
}

server_rejects_unknown_fields() {
  "$HELM" template perflab charts/perflab -n perflab-dryrun -f charts/perflab/ci/default-values.yaml \
    --show-only templates/deployment.yaml | sed 's/^  revisionHistoryLimit: 3$/  revisionHistoryLimit: 3\n  replica: 2/' \
    | kube apply -n perflab-dryrun --dry-run=server --validate=strict -f - >"$WORK/dry.out" 2>&1 && return 1
  grep -m1 'unknown field' "$WORK/dry.out"
}

install_wait() {
  helmc install perflab charts/perflab -n perflab -f charts/perflab/ci/monitoring-values.yaml --wait --timeout 5m >/dev/null || return 1
  kube -n perflab get pods,statefulsets,pvc --no-headers | sed 's/^/  /'
  local ready; ready="$(kube -n perflab get pods -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' | grep -c True)"
  local want; want="$(kube -n perflab get deployments,statefulsets -o jsonpath='{range .items[*]}{.spec.replicas}{"\n"}{end}' | awk '{s += $1} END {print s + 0}')"
  # 7 service pods (mail runs one: its EML claim is ReadWriteOnce) + 4 stores
  [ "$want" -ge 11 ] && [ "$ready" -eq "$want" ] || { echo "expected $want ready pods (every replica of every Deployment and StatefulSet), got $ready"; return 1; }
  kube -n perflab get servicemonitor/perflab-shortener prometheusrule/perflab configmap/perflab-shortener-dashboard >/dev/null
}

upgrade_flips_lab_switch() {
  local before after env
  before="$(kube -n perflab get secret perflab-mongodb -o jsonpath='{.data.password}')"
  local ids_before ids_after
  ids_before="$(kube -n perflab get secret perflab-identity -o jsonpath='{.data}')"
  helmc upgrade perflab charts/perflab -n perflab -f charts/perflab/ci/monitoring-values.yaml \
    --set services.shortener.lab.idStrategy=mongo-sequence --wait --timeout 5m >/dev/null || return 1
  env="$(kube -n perflab get deploy perflab-shortener -o jsonpath='{.spec.template.spec.containers[0].env[?(@.name=="PERFLAB_SHORTENER_IDSTRATEGY")].value}')"
  echo "  PERFLAB_SHORTENER_IDSTRATEGY=$env; revision $(helmc -n perflab history perflab -o json | jq '.[-1].revision')"
  [ "$env" = mongo-sequence ] || return 1
  # the rollout really replaced the pods, and the generated store password survived the upgrade
  kube -n perflab rollout status deploy/perflab-shortener --timeout 60s >/dev/null || return 1
  # pods of the old ReplicaSet may still be terminating (kwok has no kubelet grace period to end): count live ones
  local new_pods; new_pods="$(kube -n perflab get pods -l app.kubernetes.io/name=shortener -o json | jq -r '.items[] | select(.metadata.deletionTimestamp == null)
    | [.spec.containers[0].env[]? | select(.name == "PERFLAB_SHORTENER_IDSTRATEGY") | .value][0]' | sort -u)"
  [ "$new_pods" = mongo-sequence ] || { echo "  shortener pods still run: $new_pods"; return 1; }
  after="$(kube -n perflab get secret perflab-mongodb -o jsonpath='{.data.password}')"
  [ -n "$before" ] && [ "$before" = "$after" ] || { echo "  the MongoDB password changed on upgrade"; return 1; }
  # and so did the identity key pairs (a new pair would refuse every token signed with the old one until all roll)
  ids_after="$(kube -n perflab get secret perflab-identity -o jsonpath='{.data}')"
  [[ "$ids_before" == *gateway.key* ]] && [ "$ids_before" = "$ids_after" ] || { echo "  the identity key pairs changed on upgrade"; return 1; }
}

loadtest_install() {
  helmc install perflab-load charts/perflab-loadtest -n perflab -f charts/perflab-loadtest/ci/default-values.yaml >/dev/null || return 1
  kube -n perflab get job perflab-load-shortener-smoke-r1 -o jsonpath='  Job {.metadata.name}: {.spec.template.spec.containers[0].args}{"\n"}' || return 1
  # a new run is an upgrade, not an uninstall: the next revision's Jobs have names (and a testid) of their own
  helmc upgrade perflab-load charts/perflab-loadtest -n perflab -f charts/perflab-loadtest/ci/default-values.yaml >/dev/null || return 1
  kube -n perflab get job perflab-load-shortener-smoke-r2 -o jsonpath='  Job {.metadata.name}: TESTID {.spec.template.spec.containers[0].env[?(@.name=="TESTID")].value}{"\n"}' || return 1
  helmc uninstall perflab-load -n perflab --wait >/dev/null
}

uninstall_cleans_up() {
  helmc uninstall perflab -n perflab --wait --timeout 2m >/dev/null || return 1
  local left
  left="$(kube -n perflab get deploy,sts,svc,networkpolicy,pdb,servicemonitor,prometheusrule,configmap,serviceaccount -o name 2>/dev/null | grep -v 'configmap/kube-root-ca.crt\|serviceaccount/default' || true)"
  [ -z "$left" ] || { echo "  left behind: $left"; return 1; }
  echo "  kept on purpose: $(kube -n perflab get secret,pvc -o name | tr '\n' ' ')"
}

cluster_down_clean() {
  local pids; pids="$(awk '{print $1}' "$WORK/cluster/pids" 2>/dev/null)"
  k8s_cluster_down
  local p left=""
  for p in $pids; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
  [ -z "$left" ] || { echo "  still running:$left"; return 1; }
  echo "  stopped $(echo "$pids" | wc -w) processes"
}

# ---- run ---------------------------------------------------------------------------------------------------------

T0=$SECONDS
step "tools (scripts/k8s/k8s-tools.sh)" tools || { echo "tools missing, cannot go on"; exit 1; }
step "the perflab chart's dashboards read the runner's SLOs (files/slo links to them)" test "$(readlink charts/perflab/files/slo)" = ../../../load-tests/src/main/resources/slo
step "README values tables in sync (helm-docs), every value documented" docs_in_sync
step "values.schema.json in sync (generated from values.yaml's @schema annotations)" schema_in_sync
step "defaults stated once (serviceDefaults; templates restate no value)" defaults_once
step "a block restating a default is caught (self-check)" defaults_check_bites
step "charts and scripts read only repository files (CRDs in charts/tests/crds)" repo_files_only
step "helm lint --strict (every ci values set, both charts)" lint
if step "schemas (Kubernetes ${K8S_VERSION%.*}, prometheus-operator $PROMETHEUS_OPERATOR_VERSION, Gateway API HTTPRoute)" schemas; then
  step "render + kubeconform -strict (every ci values set)" render_and_validate
  step "kubeconform rejects unknown fields (self-check)" validator_rejects_unknown_fields
fi
step "chart unit tests: helm-unittest --strict (charts/*/tests/*_test.yaml)" unittest
step "chart unit tests: pytest charts/tests/test_chart.py (a service against its values, rendered shell)" unit
step "dashboards: every one parses, has its variables, and asks only its own service's metrics" dashboards
if step "alert rules: promtool check rules + test rules (charts/tests/rules-test.yaml)" alert_rules; then
  step "promtool test fails on a broken rule expression (self-check)" rules_test_catches_broken_expressions
fi
if [ $WITH_CLUSTER -eq 1 ]; then
  if step "control plane up (etcd, apiserver, controllers, scheduler, kwok)" cluster_up; then
    step "server-side dry-run --validate=strict (every ci values set)" server_dry_run
    step "server rejects an unknown field (self-check)" server_rejects_unknown_fields
    if step "helm install --wait (chart-managed stores, monitoring on)" install_wait; then
      step "helm upgrade flips a lab switch and rolls the pods" upgrade_flips_lab_switch
      step "perflab-loadtest install creates the runners' Jobs; an upgrade is a new run" loadtest_install
      step "helm uninstall removes everything but Secrets/PVCs" uninstall_cleans_up
    fi
  fi
  step "control plane down, no process left" cluster_down_clean
fi
steps_summary chart $((SECONDS - T0))
