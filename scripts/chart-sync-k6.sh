#!/usr/bin/env bash
# Copies the k6 scripts (k6-tests/**/*.js) into charts/perflab-loadtest/files/k6/, where the chart's .Files can read
# them (Helm only sees files inside the chart).  --check: change nothing, fail if the copy differs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src="$root/k6-tests" dst="$root/charts/perflab-loadtest/files/k6"
if [ "${1:-}" = --check ]; then
  stale=0
  while IFS= read -r f; do
    cmp -s "$src/$f" "$dst/$f" || { echo "differs or missing in the chart: k6-tests/$f" >&2; stale=1; }
  done < <(cd "$src" && find . -name '*.js' | sort)
  while IFS= read -r f; do
    [ -f "$src/$f" ] || { echo "no longer in k6-tests/: $f" >&2; stale=1; }
  done < <(cd "$dst" && find . -name '*.js' | sort)
  [ $stale -eq 0 ] || echo "charts/perflab-loadtest/files/k6 is out of sync with k6-tests/: run scripts/chart-sync-k6.sh" >&2
  exit $stale
fi
rm -rf "$dst" && mkdir -p "$dst"
(cd "$src" && find . -name '*.js' -print0 | while IFS= read -r -d '' f; do mkdir -p "$dst/$(dirname "$f")"; cp "$f" "$dst/$f"; done)
echo "copied $(find "$dst" -name '*.js' | wc -l) k6 scripts into ${dst#"$root"/}"
