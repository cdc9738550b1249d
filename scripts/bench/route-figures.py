#!/usr/bin/env python3
"""One row of bench-route.sh: requests, answered 2xx per second, p50, p95, mean and max (ms), failed %, peak in flight.

From a wave's load-runner summary (FILE-summary.json, k6's shape; its `vus` gauge is the most readers in flight at
once: the runner starts the wave's threads one after another, and the first may be answered before the last starts)
or a sustained run's wrk output (FILE.wrk, whose last JSON line readers.lua's done() wrote; every connection always
has its one request in flight, so no peak is counted: "-").
"""
import json, sys

path = sys.argv[1]


def runner(m):
    d, f, n = m['http_req_duration']['values'], m['http_req_failed']['values'], m['http_reqs']['values']
    peak = round(m.get('vus', {}).get('values', {}).get('max', 0))
    if not n['count']:  # no request ended within the run (all still waiting when it stopped)
        return 0, 0, '-', '-', '-', '-', 100, peak
    # ok/s: answered 2xx per second of the run (a dead or refusing instance fails fast and must not count as throughput)
    return (round(n['count']), round(n['rate'] * (1 - f['rate']), 1), round(d['med']), round(d['p(95)']),
            round(d['avg']), round(d['max']), round(f['rate'] * 100, 1), peak)


def wrk(w):
    # wrk counts each answer in requests, one of 400 or more also in status; socket errors (connect, read, write) and
    # requests past --timeout are counted apart: each a failed request, as the runner and k6 count them
    socket = w['connect'] + w['read'] + w['write'] + w['timeout']
    total, failed = w['requests'] + socket, w['status'] + socket
    if not w['requests']:
        return total, 0, '-', '-', '-', '-', 100 if total else 0, '-'
    ms = lambda us: round(us / 1000)
    # ok/s over wrk's own window (its duration, not the nominal seconds)
    return (total, round((w['requests'] - w['status']) / (w['duration_us'] / 1e6), 1), ms(w['p50_us']),
            ms(w['p95_us']), ms(w['mean_us']), ms(w['max_us']), round(100 * failed / total, 1), '-')


try:
    if path.endswith('.wrk'):
        row = wrk(json.loads([l for l in open(path) if l.startswith('{')][-1]))
    else:
        row = runner(json.load(open(path))['metrics'])
except (OSError, ValueError, IndexError, KeyError):  # the run left nothing to read (see the file's .txt / .wrk)
    row = (0, 0, '-', '-', '-', '-', '-', '-')
print(*row)
