#!/usr/bin/env bash
# JMH benchmark of the Snowflake generator (1 and 16 threads on one worker) with a duplicate check.
# Usage: scripts/bench/bench-ids.sh [measurement iterations, default 5]
set -euo pipefail
source "$(dirname "$0")/../lib/env.sh"
cd "$PERFLAB_ROOT"
./mvnw -q -B -pl services/shortener -am install -DskipTests
./mvnw -q -B -pl services/shortener dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
cd services/shortener
java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" dev.perflab.shortener.bench.SnowflakeBench "${1:-5}" \
  | tee target/bench-ids.txt | grep -vE '^(# |Iteration|$)' | tail -n 8
