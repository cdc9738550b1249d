#!/usr/bin/env bash
# What `make test` checks of terraform/ and .github/: terraform fmt; init (providers from the local mirror, no
# backend) and validate of every root whose providers can be had here — the others are named, not skipped
# silently; actionlint (with shellcheck) on every workflow; every path a workflow names exists in the repository.
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
source "$(dirname "$0")/../k8s/infra-tools.sh"
cd "$PERFLAB_ROOT"
STEP_TAG=infra
source scripts/lib/steps.sh
t0=$SECONDS

infra_tools_install
export TF_CLI_CONFIG_FILE="$TERRAFORM_RC" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

# Roots validated here, and the ones that need providers or registry modules this machine cannot have.
VALIDATED=(terraform/modules/platform terraform/envs/local)
declare -A NOT_HERE=(
  [terraform/envs/eks]="needs the hashicorp/aws provider and the registry modules terraform-aws-modules/vpc and /eks"
)

validate() { # root: init against the mirror in a scratch copy (no lock file or .terraform left in the repo), validate
  local root=$1
  rm -rf "$work/tree" && cp -r terraform "$work/tree"
  local dir="$work/tree/${root#terraform/}"
  "$TERRAFORM" -chdir="$dir" init -backend=false -input=false -no-color >"$work/init.log" 2>&1 \
    || { cat "$work/init.log"; return 1; }
  "$TERRAFORM" -chdir="$dir" validate -no-color
}

step "terraform fmt -check -recursive" "$TERRAFORM" fmt -check -recursive -diff terraform
for root in "${VALIDATED[@]}"; do
  step "terraform validate $root" validate "$root"
done
every_root_known() { # a new root must be validated or named with its reason
  local missing=0 dir
  while IFS= read -r dir; do
    dir=${dir%/}
    [[ " ${VALIDATED[*]} " == *" $dir "* || -n "${NOT_HERE[$dir]:-}" ]] || { echo "unlisted Terraform root: $dir"; missing=1; }
  done < <(find terraform -name versions.tf -printf '%h\n' | sort)
  return $missing
}
eks_endpoint_cidrs_required() { # envs/eks's variables alone (no provider needed): plan refuses a missing, open or empty
  # endpoint CIDR list, takes a listed one (or none with the public endpoint off); main.tf hands both to the eks module
  local dir="$work/eks-vars" out case want args got rc=0 argv
  rm -rf "$dir" && mkdir -p "$dir" && cp terraform/envs/eks/variables.tf "$dir/"
  "$TERRAFORM" -chdir="$dir" init -backend=false -input=false -no-color >"$work/init.log" 2>&1 || { cat "$work/init.log"; return 1; }
  local jwt='jwt={issuer="https://idp.example.com/",jwks_uri="https://idp.example.com/jwks.json"}'
  while IFS='|' read -r case want args; do
    read -ra argv <<<"$args"
    out="$("$TERRAFORM" -chdir="$dir" plan -input=false -no-color -lock=false -var "$jwt" "${argv[@]}" 2>&1)" && got=ok || got=refused
    if [ "$got" != "${want%%:*}" ] || { [ "$got" = refused ] && ! grep -q "${want#refused:}" <<<"$out"; }; then
      echo "FAIL: $case: wanted $want, got $got"; printf '%s\n' "$out" | tail -8; rc=1
    else
      echo "ok: $case -> $got"
    fi
  done <<'CASES'
missing list|refused:No value for required variable|
open list|refused:an open range|-var endpoint_public_access_cidrs=["10.0.0.0/8","0.0.0.0/0"]
open IPv6 list|refused:an open range|-var endpoint_public_access_cidrs=["::/0"]
empty list, public endpoint on|refused:empty while endpoint_public_access is on|-var endpoint_public_access_cidrs=[]
not a CIDR|refused:must be a CIDR block|-var endpoint_public_access_cidrs=["office"]
listed CIDR|ok|-var endpoint_public_access_cidrs=["203.0.113.0/24"]
empty list, public endpoint off|ok|-var endpoint_public_access_cidrs=[] -var endpoint_public_access=false
CASES
  grep -Eq '^ *endpoint_public_access_cidrs *= *var\.endpoint_public_access_cidrs *$' terraform/envs/eks/main.tf \
    && grep -Eq '^ *endpoint_public_access *= *var\.endpoint_public_access *$' terraform/envs/eks/main.tf \
    || { echo "FAIL: envs/eks/main.tf does not hand endpoint_public_access(_cidrs) to the eks module"; rc=1; }
  return $rc
}
step "envs/eks: the API endpoint's CIDR list is required, never open" eks_endpoint_cidrs_required
modules_pinned() { # every registry module source at an exact version (a range lets init take a new major's defaults)
  # shellcheck disable=SC2016 # an awk program: its $2 and $0 are awk's
  find terraform -name '*.tf' -print0 | xargs -0 awk '
    /^ *module *"/ { reg = 0; ver = ""; name = FILENAME ": " $2 }
    /^ *source *= *"[a-z0-9-]+\/[a-z0-9-]+\/[a-z0-9-]+"/ { reg = 1; n++ }
    reg && /^ *version *=/ { ver = $0 }
    reg && /^}/ { if (ver !~ /= *"[0-9]+\.[0-9]+\.[0-9]+"/) { print "not at an exact version: " name (ver ? " (" ver ")" : ""); bad = 1 }; reg = 0 }
    END { if (!bad) print n " registry module(s), each at an exact version"; exit bad }'
}
step "every registry module at an exact version" modules_pinned
step "every Terraform root is validated or named" every_root_known
for root in "${!NOT_HERE[@]}"; do
  echo "  not validated here: $root (${NOT_HERE[$root]}); terraform fmt covers it"
done

step "actionlint (with shellcheck) on every workflow" "$ACTIONLINT" -no-color -shellcheck "$SHELLCHECK"
step "every path a workflow names exists in the repository" scripts/test/check-workflow-paths.py .github/workflows
path_check_refuses() { # the check itself must fail on a workflow naming a file the repository lacks, or one outside it
  mkdir -p "$work/bad"
  printf 'on:\n  push:\n    paths: ["nowhere/**"]\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: scripts/no-such-script.sh && cat ../outside-the-repo.txt\n' \
    >"$work/bad/bad.yml"
  local out; out="$(scripts/test/check-workflow-paths.py "$work/bad" || true)"
  grep -q 'nowhere/\*\* matches no file' <<<"$out" && grep -q 'no-such-script.sh does not exist' <<<"$out" \
    && grep -q 'reaches outside the repository' <<<"$out" && echo "refused: $(tail -1 <<<"$out")"
}
step "the workflow path check refuses missing and outside paths" path_check_refuses

steps_summary "infra" $((SECONDS - t0))
