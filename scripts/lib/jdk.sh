#!/usr/bin/env bash
# Prints the JAVA_HOME of a JDK 25 (perflab's build and runtime JDK), or fails with a clear message.
set -euo pipefail
if [ -n "${JAVA_HOME:-}" ] && "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "25'; then
  echo "$JAVA_HOME"; exit 0
fi
for d in /usr/lib/jvm/*25* /usr/lib/jvm/*; do
  [ -x "$d/bin/javac" ] || continue
  if "$d/bin/java" -version 2>&1 | grep -qE 'version "25'; then echo "$d"; exit 0; fi
done
echo "perflab needs a JDK 25 (none found in JAVA_HOME or /usr/lib/jvm). Install Temurin 25 or OpenJDK 25." >&2
exit 1
