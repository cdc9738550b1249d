#!/usr/bin/env bash
# make verify: shellcheck on every shell script of the repository — scripts/**/*.sh and every other file whose first
# line is a bash or sh shebang (.ci/run, mvnw) — with the settings of .shellcheckrc. Not looked into: target/, .run/,
# node_modules/, .git/ and .terraform/ (build output, run state, third-party modules). Every finding is printed as
# file:line:column: level: message [SCnnnn], then the count by rule; the exit status is 1 if there is one.
# It first proves it can fail: a script with an unquoted $1 must be refused, on that line, by that rule.
#
# A line meant to differ says so above it: `# shellcheck disable=SCnnnn # why` (https://www.shellcheck.net/wiki/SCnnnn).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/env.sh
source scripts/k8s/infra-tools.sh >/dev/null  # only its variables: SHELLCHECK, Debian's package

[ -x "$SHELLCHECK" ] || { echo "no shellcheck at $SHELLCHECK: scripts/k8s/infra-tools.sh packages installs it" >&2; exit 1; }
lint() { "$SHELLCHECK" -f gcc "$@"; }

shell_scripts() {  # every shell script, one a line, relative to the repository root
  find . \( -name target -o -name .run -o -name node_modules -o -name .git -o -name .terraform \) -prune -o -type f \
      \( -name '*.sh' -print -o -exec awk 'FNR == 1 { if (/^#!.*[\/ \t](ba|da|k)?sh([ \t]|$)/) print FILENAME; nextfile }' {} + \) |
    sed 's:^\./::' | sort -u
}

refuses_unquoted() {
  local out
  # shellcheck disable=SC2016 # the script under test, its $1 written as it is
  if out="$(printf '#!/usr/bin/env bash\nprintf "%%s\\n" "$1"\necho $1\n' | lint -)"; then
    echo "shellcheck passed a script with an unquoted \$1: this check cannot fail" >&2; return 1
  fi
  [ "$(grep -c '' <<<"$out")" = 1 ] && grep -q '^-:3:6: .* \[SC2086\]$' <<<"$out" \
    || { echo "shellcheck did not refuse the unquoted \$1 alone, on its line, by SC2086:" >&2; echo "$out" >&2; return 1; }
}
refuses_unquoted

mapfile -t scripts < <(shell_scripts)
version="$("$SHELLCHECK" --version | sed -n 's/^version: //p')"
if out="$(lint "${scripts[@]}")"; then
  echo "shellcheck $version: ${#scripts[@]} shell scripts, no finding"
else
  printf '%s\n' "$out"
  echo "shellcheck $version: ${#scripts[@]} shell scripts, $(grep -c '' <<<"$out") finding(s):" \
    "$(grep -o '\[SC[0-9]*\]$' <<<"$out" | tr -d '[]' | sort | uniq -c | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " }')"
  exit 1
fi
