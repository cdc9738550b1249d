#!/usr/bin/env python3
"""bench-gateway.sh ab: the medians over its rounds of two proxy gateways (A, B) measured in turn against the shortener direct: hop and API-read ratios, B/A per round, CPU per request."""
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    key, label, rps, p50, p99, err, cpu = line.rstrip("\n").split("|")
    m = re.search(r"proxy (\d+) us", cpu)
    rows.setdefault(key, []).append((float(rps), int(m.group(1)) if m else 0))
def ratios(a, b): return [x[0] / y[0] for x, y in zip(rows[a], rows[b])]
def med(xs): return statistics.median(xs)
def cpu(key): return med([r[1] for r in rows[key]])
def each(xs): return " ".join(f"{x:.2f}" for x in xs)
print(f"\nmedian over {len(rows['proxy'])} rounds:")
print(f"  proxy hop / direct:  A {med(ratios('proxy', 'direct')):.2f}  B {med(ratios('proxyB', 'direct')):.2f}"
      f"  B/A {med(ratios('proxyB', 'proxy')):.2f} (rounds: {each(ratios('proxyB', 'proxy'))})")
print(f"  proxy CPU per request:  A {cpu('proxy'):.0f} us  B {cpu('proxyB'):.0f} us")
print(f"  API read B/A {med(ratios('apiB', 'api')):.2f} (rounds: {each(ratios('apiB', 'api'))})"
      f"  CPU per request: A {cpu('api'):.0f} us  B {cpu('apiB'):.0f} us")
