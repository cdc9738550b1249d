# shellcheck shell=bash
# Sourced by the test scripts: `step NAME CMD...` runs one check, times it and counts it; `steps_summary WHAT SECS`
# prints the failures and `WHAT: N passed, N failed`, and returns non-zero when one failed.
PASSED=0 FAILED=0 FAILURES=()
STEP_TAG="${STEP_TAG:-test}"

step() {
  local name="$1"; shift
  local t0=$SECONDS
  printf '\033[1m[%s]\033[0m %s ...\n' "$STEP_TAG" "$name"
  if "$@"; then
    PASSED=$((PASSED + 1)); printf '  ok    %-62s %4ds\n' "$name" $((SECONDS - t0))
    return 0
  fi
  FAILED=$((FAILED + 1)); FAILURES+=("$name"); printf '  FAIL  %-62s %4ds\n' "$name" $((SECONDS - t0))
  return 1
}

steps_summary() {
  echo
  echo "total $2 s"
  [ ${#FAILURES[@]} -eq 0 ] || printf '  failed: %s\n' "${FAILURES[@]}"
  echo "$1: $PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
}
