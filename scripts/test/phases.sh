# shellcheck shell=bash
# Sourced by scripts/test/test.sh: `make test` as a sequence of named phases, each timed (wall clock, and the machine's
# busy CPU time over the phase: every process, the stores' and the JVMs' included) against a budget of its own.
#
#   phases_begin           the run starts: its output is kept in $PERFLAB_RUN/logs/test.log as well
#   phase NAME BUDGET      the previous phase ends, NAME starts (BUDGET: its wall seconds on a warm run)
#   phase_failed           the phase running ends as failed (the EXIT trap of a run that failed in it)
#   phases_end [STATUS]    the last phase ends (STATUS 0: ok), the table is made; the EXIT trap calls it, so a failed
#                          run gets its table too
#
# The table (scripts/test/phase-table.py) is printed at the end, appended to $GITHUB_STEP_SUMMARY when CI sets it, and
# kept as $PERFLAB_RUN/phases/<start>.md (the newest PHASES_KEEP, default 8), so a change can be compared with the
# run before it. Phases run with the caller's `set -e`: a phase is closed, never wrapped in `cmd || ...`.
PHASES_DIR="$PERFLAB_RUN/phases"
PHASES_KEEP="${PHASES_KEEP:-8}"
PHASE_NAME="" PHASE_BUDGET="" PHASE_W0="" PHASE_C0="" PHASE_L0=""

_phase_now() { date +%s.%N; }
# busy CPU seconds of the whole machine so far: user + nice + system + irq + softirq + steal, from /proc/stat
_phase_busy() { awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f", ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat; }
_phase_lines() { wc -l <"$PHASES_LOG" 2>/dev/null || echo 0; }

phases_begin() {
  mkdir -p "$PHASES_DIR" "$PERFLAB_RUN/logs"
  PHASES_STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
  PHASES_TSV="$PHASES_DIR/$PHASES_STAMP.tsv"
  PHASES_LOG="$PERFLAB_RUN/logs/test.log"
  # cold: the Go-built tools (the slowest to make) are not in the cache yet
  PHASES_CACHE=cold; ! compgen -G "$PERFLAB_CACHE/bin/kube-apiserver-*" >/dev/null || PHASES_CACHE=warm
  : >"$PHASES_LOG"
  printf 'phase\tbudget_s\twall_s\tcpu_s\tstatus\tlog_from\tlog_to\n' >"$PHASES_TSV"
  # every line the run prints is kept too: the table counts each phase's checks in its part of the log
  # (no copy of the original stdout is kept in another fd: every process the run starts would inherit it, and a stack
  # left running for the user would hold a caller's pipe open after make test ended)
  exec > >(tee -a "$PHASES_LOG") 2>&1
}

phase_failed() { _phase_close FAILED; }  # the phase running ends as failed (the run's EXIT trap, on a failure)

_phase_close() {  # status
  [ -n "$PHASE_NAME" ] || return 0
  local w1 c1
  w1="$(_phase_now)" c1="$(_phase_busy)"
  awk -v OFS='\t' -v n="$PHASE_NAME" -v b="$PHASE_BUDGET" -v w="$w1 $PHASE_W0" -v c="$c1 $PHASE_C0" -v s="$1" \
    -v l0="$PHASE_L0" -v l1="$(_phase_lines)" 'BEGIN { split(w, W, " "); split(c, C, " ");
      print n, b, sprintf("%.1f", W[1] - W[2]), sprintf("%.1f", C[1] - C[2]), s, l0, l1 }' >>"$PHASES_TSV"
  PHASE_NAME=""
}

phase() {  # name budget-seconds
  sleep 0.2   # tee's copy of the last lines reaches the log: each phase counts its own
  _phase_close ok
  PHASE_NAME="$1" PHASE_BUDGET="$2" PHASE_W0="$(_phase_now)" PHASE_C0="$(_phase_busy)" PHASE_L0="$(_phase_lines)"
  printf '\033[1m[phase]\033[0m %s (budget %s s)\n' "$1" "$2"
}

phases_end() {  # exit status of the run
  local rc="${1:-0}"
  [ -n "${PHASES_TSV:-}" ] || return 0
  sleep 0.5   # tee's copy of the last lines reaches the log
  _phase_close "$([ "$rc" = 0 ] && echo ok || echo FAILED)"
  local md="$PHASES_DIR/$PHASES_STAMP.md"
  python3 "$PERFLAB_ROOT/scripts/test/phase-table.py" "$PHASES_TSV" "$PHASES_LOG" "$PHASES_CACHE" >"$md" || true
  echo; cat "$md"
  [ -z "${GITHUB_STEP_SUMMARY:-}" ] || { echo "### make test: phases"; cat "$md"; } >>"$GITHUB_STEP_SUMMARY"
  # the newest tables stay (each with its log's counts already in it)
  # shellcheck disable=SC2012 # ls -t orders by age; the names are our own, no spaces
  ls -1t "$PHASES_DIR"/*.md 2>/dev/null | tail -n +$((PHASES_KEEP + 1)) | while read -r old; do rm -f "$old" "${old%.md}.tsv"; done
  PHASES_TSV=""
}
