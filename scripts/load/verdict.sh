#!/usr/bin/env bash
# The verdict of a load run across everything that ran it, read from the local stack's Prometheus (the load runner's
# `verdict`: the failed share of all requests, the p95 of all of them from native histograms summed over runners,
# dropped iterations). In the cluster the same program runs as the loadtest chart's `helm test` pod, which also reads
# each runner pod's CPU. Exit: 0 pass, 99 fail, 75 inconclusive (the generator, not the system), 110 no such run.
#   verdict.sh TESTID [MAX_FAILED_SHARE (0.01)] [MAX_P95_SECONDS (0.5)]
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
load_runner_built
load_runner verdict PROMETHEUS_URL="http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT" TESTID="${1:?TESTID}" \
  MAX_FAILED_SHARE="${2:-0.01}" MAX_P95_SECONDS="${3:-0.5}"
