#!/usr/bin/env python3
"""One row of bench-route.sh from its k6 summary: requests, answered 2xx per second, p50, p95, mean and max (ms), failed %."""
import json, sys
try:
    m = json.load(open(sys.argv[1]))['metrics']
except (OSError, ValueError):
    print('0 0 0 0 0 0 0'); sys.exit()
if 'http_req_duration' not in m:  # no request ended within the run (all still waiting when it stopped)
    print('0 0 - - - - 100'); sys.exit()
d, f, n = m['http_req_duration']['values'], m['http_req_failed']['values'], m['http_reqs']['values']
# ok/s: answered 2xx per second (a dead or refusing instance fails fast and must not count as throughput); a sustained
# run's over its window (k6's own rate counts the graceful stop too, which one request stuck to its timeout stretches)
ok = n['count'] * (1 - f['rate'])
print(n['count'], round(ok / float(sys.argv[2]) if sys.argv[2] != '-' else n['rate'] * (1 - f['rate']), 1),
      round(d['med']), round(d['p(95)']), round(d['avg']), round(d['max']), round(f['rate'] * 100, 1))
