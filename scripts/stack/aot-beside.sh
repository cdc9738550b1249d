# shellcheck shell=bash
# Sourced by scripts/stack/stack.sh: the AOT caches of the stack's apps, trained beside the running stack (its
# functions use stack.sh's APPS, PIDS, LOGS, start, stop and running).
# shellcheck disable=SC2153 # APPS: stack.sh's
# Each app's JVM starts from a JDK AOT cache (JEP 483: its classes loaded and linked ahead of time) trained here on
# this machine's JVM with the flags it runs with, once per build: kept by content in $PERFLAB_CACHE/aot-local (the
# digest of the classes it loads, as scripts/k8s/images.sh keeps the images'), so a restart of the same build, a later
# `make up` or another checkout of the same commit takes it. The training: scripts/lib/aot-train.sh (a service's is a
# context refresh that stops before anything starts; the gateway's runs with traffic). An app whose build has none yet starts without one at
# once, and once the apps are ready its cache is trained beside them at the idle class (CPU and disk), for its next
# start: trained before the start, the six caches of a new build held a start for ~2:50 on two cores, longer than
# what they save in one start. A cache the JVM cannot map is refused in the app's log and the app starts without it:
# wait_ready says so and drops it, so a later training makes one that maps. AOT=0 starts without any.
AOT_SCRATCH="$PERFLAB_RUN/aot-scratch"   # the trainings under way (emptied when the trainer is stopped)
aot_train() { # name launch-jar cache
  local dir t0=$SECONDS; mkdir -p "$AOT_SCRATCH"; dir="$(mktemp -d "$AOT_SCRATCH/XXXXXX")"
  if (cd "$dir" && SPRING_FLYWAY_ENABLED=false SPRING_PROFILES_ACTIVE=local JAVA_TOOL_OPTIONS="$PERFLAB_JVM_OPTS" \
      aot_train_app "$1" "$dir/app.aot" "$LOGS/$1.aot.log" java -jar "$2"); then
    mv "$dir/app.aot" "$3.$$" && mv "$3.$$" "$3"
    # shellcheck disable=SC2012 # ls -t orders by age; the names are our own, no spaces
    ls -t "$AOT_LOCAL/$1-"*.aot | tail -n +3 | xargs -r rm -f
    # how long this app's training took here: the next trainer's estimate of what is left (aot_train_left)
    echo $((SECONDS - t0)) >"$AOT_LOCAL/$1.seconds"
    log "$1: AOT cache trained in $((SECONDS - t0)) s (once per build; $(du -h "$3" | cut -f1))"
  else
    log "$1: AOT training failed, starting without a cache (see $LOGS/$1.aot.log)"
  fi
  rm -rf "$dir"
}

# The trainer: every app whose launch jar (.run/jars) has no cache for its build gets one, one after the other, in a
# session of its own at the idle class (CPU and disk), stopped by `down` or `aot-train stop`; one at a time, what a
# start misses while one runs a later start trains. `up` and `start` start it once the apps are ready, unless
# AOT_TRAIN=later (make test: it starts it itself, when no load phase is left to share the machine with it).
aot_missing() {  # name:launch-jar:cache of each app whose build has no cache yet
  local app n launch cache
  [ "${AOT:-1}" != 0 ] || return 0
  for app in "${APPS[@]}"; do
    n=${app%%:*}
    [ -f "$PERFLAB_RUN/jars/$n.jar" ] || continue
    launch="$(launch_jar "$PERFLAB_RUN/jars/$n.jar")" && cache="$(aot_cache "$n" "$launch")" || continue
    [ -s "$cache" ] || echo "$n:$launch:$cache"
  done
}
aot_train_beside() {
  local missing
  if running aot-train; then return 0; fi
  missing="$(aot_missing | xargs)"
  [ -n "$missing" ] || return 0
  log "AOT caches trained beside, for the next start (idle class; $LOGS/aot-train.log): $(tr ' ' '\n' <<<"$missing" | cut -d: -f1 | xargs)"
  # setsid execs in place (no job control here): the pid file names the session's leader, its JVM is in the session
  # shellcheck disable=SC2086
  start aot-train setsid chrt --idle 0 ionice -c 3 "$PERFLAB_ROOT/scripts/stack/stack.sh" aot-train-now $missing
}
aot_train_stop() {  # the whole session at once: a training JVM asked to stop would assemble its cache first
  ! running aot-train || kill -KILL -- -"$(cat "$PIDS/aot-train.pid")" 2>/dev/null || true
  stop aot-train
  rm -rf "$AOT_SCRATCH"
}
# What the trainer has left, for `status` and the end of `make up`: it trains beside the stack for minutes after
# `make up` returned, and a figure measured meanwhile measures the trainer too (seed 002's readers right after `make up`:
# p95 1.61 s against 456 ms once it had ended). AOT_STATE holds the apps it was given and the one it trains now.
AOT_STATE="$PERFLAB_RUN/aot-train.state"
aot_train_left() {  # prints "<apps left> <estimated seconds left>" while the trainer runs; status 1 when it does not
  running aot-train && [ -f "$AOT_STATE" ] || return 1
  local now apps n secs=0 known
  now=$(sed -n 's/^now //p' "$AOT_STATE")
  apps=$(sed -n 's/^apps //p' "$AOT_STATE")
  # the app under training and those after it; each by how long its last training here took (90 s when never)
  local left=() on=""
  for n in $apps; do [ "$n" != "${now%% *}" ] || on=1; [ -z "$on" ] || left+=("$n"); done
  for n in "${left[@]}"; do
    known=$(cat "$AOT_LOCAL/$n.seconds" 2>/dev/null || echo 90)
    secs=$((secs + known))
  done
  [ -z "$now" ] || secs=$((secs - ($(date +%s) - ${now##* })))
  echo "${left[*]:-none} $((secs > 10 ? secs : 10))"
}
aot_train_report() {  # the end of `make up`: whether the trainer still runs and for how long; AOT_TRAIN=wait waits for it
  local left
  left=$(aot_train_left) || return 0
  if [ "${AOT_TRAIN:-}" = wait ]; then
    log "waiting for the AOT trainer (${left% *}; about ${left##* } s left): AOT_TRAIN=wait"
    while running aot-train; do sleep 2; done
    log "AOT trainer done: nothing trains beside the stack now"
    return 0
  fi
  log "NOTE: AOT caches are still being trained beside the stack (${left% *}; about $(( (${left##* } + 59) / 60 )) min"
  log "      left, one core at the idle class). A figure measured before it ends measures the trainer too:"
  log "      wait until \`make status\` shows aot-train not running, or run \`AOT_TRAIN=wait make up\`."
}
