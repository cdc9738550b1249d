#!/usr/bin/env bash
# Security scanners over what the project deploys: checkov on the chart's rendering (the defaults, and every service
# with the seed Job), on terraform/ with its registry modules, and on .github/; kube-score on the same renderings.
# A finding fails the run unless scripts/test/scan-skips/<scanner>.txt names it with its reason (noise only; real
# findings stay failing until fixed). Prints each finding and `<scanner> <target>: N passed, N failed, N skipped`.
#
#   scripts/test/scan.sh     (tools: scripts/k8s/scan-tools.sh, pinned and cached; warm run ~1.5 min on 2 cores)
#
# The registry modules of envs/eks are read from $PERFLAB_CACHE/terraform-modules/<namespace>/<name>/<provider>/<version>
# (the Terraform registry is out of reach on this project's machines). A missing one is fetched with `terraform get`
# where the registry answers; otherwise the run fails, naming it: put the module's source at that tag there (e.g.
# `git archive vX.Y.Z` of github.com/terraform-aws-modules/terraform-aws-<name>).
set -uo pipefail
source "$(dirname "$0")/../lib/env.sh"
source "$(dirname "$0")/../k8s/scan-tools.sh"
cd "$PERFLAB_ROOT" || exit 1
t0=$SECONDS
scan_tools_install >&2 || { echo "scan: the scanners could not be installed"; exit 1; }
SKIPS=scripts/test/scan-skips
MODULE_CACHE="$PERFLAB_CACHE/terraform-modules"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export CHECKOV_RUN_SCA_PACKAGE_SCAN_V2=false BC_SKIP_MAPPING=TRUE
failed=0 results=()

# run_checkov TARGET checkov-args...: checkov offline (--skip-download: no Prisma Cloud guidelines or policies)
run_checkov() {
  local target=$1; shift
  "$CHECKOV" --skip-download --quiet --compact -o json "$@" >"$work/checkov-$target.json" 2>"$work/checkov-$target.err"
  [ -s "$work/checkov-$target.json" ] || { cat "$work/checkov-$target.err"; echo "checkov $target: no result"; failed=1; return; }
  report checkov "$target" "$work/checkov-$target.json"
}
report() { # scanner target json: findings and the counts line
  local out rc
  out="$(scripts/test/scan-report.py "$1" "$2" "$3" "$SKIPS/$1.txt")"; rc=$?
  printf '%s\n' "$out"
  results+=("$(tail -1 <<<"$out")")
  [ $rc -eq 0 ] || failed=1
}

# --- the chart: the defaults, then every service (each services.<key>) and the seed Job ---
chart=charts/perflab
every_service=()
while read -r s; do every_service+=(--set "services.$s.enabled=true"); done < <(
  "$HELM" show values "$chart" | "$CHECKOV_VENV/bin/python" -c 'import sys, yaml; print("\n".join(yaml.safe_load(sys.stdin)["services"]))')
declare -A RENDER=(
  [chart-defaults]="-f $chart/ci/default-values.yaml"
  [chart-all]="-f $chart/ci/seed-values.yaml ${every_service[*]}"
)
for target in chart-defaults chart-all; do
  # shellcheck disable=SC2086 # RENDER holds the helm words
  "$HELM" template perflab "$chart" -n perflab ${RENDER[$target]} 2>/dev/null >"$work/$target.yaml" \
    || { echo "helm template $target failed"; failed=1; continue; }
  echo "== $target: $(grep -c '^kind:' "$work/$target.yaml") objects (helm template ${RENDER[$target]})"
  run_checkov "$target" -f "$work/$target.yaml" --framework kubernetes
  "$KUBE_SCORE" score -o json --kubernetes-version "v1.${K8S_MINOR}" "$work/$target.yaml" >"$work/kube-score-$target.json"
  report kube-score "$target" "$work/kube-score-$target.json"
done

# --- terraform/: a scratch copy whose registry modules point at local copies of their exact versions ---
echo "== terraform (modules from $MODULE_CACHE)"
modules_ok=1
while :; do
  rm -rf "$work/tf" && mkdir -p "$work/tf" && cp -r terraform "$work/tf/terraform"
  missing="$(scripts/test/scan-tf-modules.py "$work/tf/terraform" "$MODULE_CACHE" "$work/tf/modules")" && break
  [ -n "$missing" ] || { modules_ok=0; break; }  # not at an exact version: the script said which
  fetched=0
  while read -r _ src ver; do
    mkdir -p "$work/get" && printf 'module "m" {\n  source  = "%s"\n  version = "%s"\n}\n' "$src" "$ver" >"$work/get/main.tf"
    if "$TERRAFORM" -chdir="$work/get" get -no-color >/dev/null 2>&1; then
      mkdir -p "$MODULE_CACHE/$src" && cp -r "$work/get/.terraform/modules/m" "$MODULE_CACHE/$src/$ver" && fetched=1
    else
      echo "module $src $ver: not in $MODULE_CACHE/$src/$ver and the registry does not answer"
    fi
    rm -rf "$work/get"
  done <<<"$missing"
  [ $fetched = 1 ] || { modules_ok=0; break; }
done
if [ $modules_ok = 1 ]; then
  run_checkov terraform -d "$work/tf/terraform" --framework terraform --var-file "$SKIPS/eks.tfvars"
else
  echo "checkov terraform: not run (modules missing)"; failed=1
fi

# --- .github/: the workflows ---
echo "== .github"
run_checkov github -d .github --framework github_actions

# skips no target used: stale, to be removed
for f in checkov kube-score; do
  runs=("$work/$f"-*.json.unused-skips)
  unused="$(cat "${runs[@]}" 2>/dev/null | sort -n | uniq -c | awk -v n=${#runs[@]} '$1 == n {print $2}' | paste -sd,)"
  [ -z "$unused" ] || echo "  note: $SKIPS/$f.txt lines $unused matched nothing (stale?)"
done

echo
printf '%s\n' "${results[@]}"
echo "scan: $((SECONDS - t0)) s, $([ $failed = 0 ] && echo 'no finding left' || echo 'findings left (above)')"
exit $failed
