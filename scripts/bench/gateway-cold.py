#!/usr/bin/env python3
"""bench-gateway.sh cold: the first minute of a fresh gateway from the load runner's summary (k6's shape): readiness, the load's start, dropped iterations, failed creates and redirects, the p95 and max of each."""
import json, sys
summary, ready, rate, secs, cache, at = sys.argv[1:7]
m = json.load(open(summary))["metrics"]
def v(name, key, default=0):
    return m.get(name, {}).get("values", {}).get(key, default)
def failed(check):  # the runner counts each named check as checks{check:NAME}: passes and fails
    fails, total = v(f"checks{{check:{check}}}", "fails"), v(f"checks{{check:{check}}}", "passes") + v(f"checks{{check:{check}}}", "fails")
    return f"{fails:.0f} of {total:.0f} ({100 * fails / total if total else 0:.1f}%)"
print(f"cold start: ready after {ready} s (JVM start to readiness UP, {cache}), the load from {at} s later (the load runner's"
      f" setup), then seed 004's mix at {rate} it/s for {secs} s")
print(f"  iterations {v('iterations', 'count'):.0f} (dropped {v('dropped_iterations', 'count'):.0f})"
      f"  requests failed {100 * v('http_req_failed', 'rate'):.2f}%  checks failed {100 * (1 - v('checks', 'rate', 1)):.2f}%")
print(f"  creates failed {failed('create is 201')}, redirects failed {failed('redirect is 301 or 302')}")
print(f"  create   p95 {v('shortener_create_duration', 'p(95)'):.0f} ms  max {v('shortener_create_duration', 'max'):.0f} ms")
print(f"  redirect p95 {v('shortener_redirect_duration', 'p(95)'):.0f} ms  max {v('shortener_redirect_duration', 'max'):.0f} ms")
