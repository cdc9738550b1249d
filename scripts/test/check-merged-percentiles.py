#!/usr/bin/env python3
"""Percentiles merged across runners are exact to the histogram's resolution, and one runner's agree with its own.

  check-merged-percentiles.py PROMETHEUS_URL TESTID RESULTS_DIR

RESULTS_DIR holds, per runner i, runner-<i>.jtl (the load runner's JTL: every request, with its duration in µs as the
runner timed it in the column perflab_us) and runner-<i>-summary.json (its end-of-test summary); the runners ran with
TESTID, RUNNERS and RUNNER_INDEX (their metrics labelled runner=<i>) and remote-wrote their request durations as native
histograms. Checked at the run's last sample:
  - the merged histograms count every request of every runner;
  - the p50/p95/p99 of the histograms summed over runners are within one bucket (2^(1/8): 9.05%) of the exact
    percentiles of all runners' raw samples together (what no runner's summary can give);
  - each runner's own histogram p95 is within one bucket of that runner's end-of-test p95.
"""
import csv
import json
import sys
import urllib.parse
import urllib.request
from pathlib import Path

BUCKET = 2 ** (1 / 8)  # native histogram schema 3


def query(url, expr, time=None):
    params = {"query": expr} | ({"time": time} if time else {})
    with urllib.request.urlopen(f"{url}/api/v1/query?{urllib.parse.urlencode(params)}", timeout=10) as r:
        return json.load(r)["data"]["result"]


def scalar(url, expr, time):
    result = query(url, expr, time)
    return float(result[0]["value"][1]) if result else None


def exact(values, q):
    """The runner's summary's percentile rule: linear interpolation between the closest ranks."""
    v = sorted(values)
    pos = (len(v) - 1) * q
    lo = int(pos)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (pos - lo)


def within(merged, reference):
    return merged is not None and reference > 0 and 1 / BUCKET <= merged / reference <= BUCKET


def main(url, testid, folder):
    folder = Path(folder)
    run = f'testid="{testid}"'
    last = max((float(t) for s in query(url, f"perflab_load_http_reqs_total{{{run}}}[1h]") for t, _ in s["values"]), default=None)
    if last is None:
        sys.exit(f"Prometheus holds no run {testid}")
    runners = sorted(folder.glob("runner-*.jtl"))
    durations = {}
    for f in runners:
        with f.open() as fh:
            durations[f.stem] = [float(r["perflab_us"]) / 1e6 for r in csv.DictReader(fh)]
    everything = [d for ds in durations.values() for d in ds]
    problems = []
    merged = f"sum(perflab_load_http_req_duration_seconds{{{run}}})"
    counted = scalar(url, f"histogram_count({merged})", last)
    print(f"{len(runners)} runners, {len(everything)} requests in their raw samples, {counted:.0f} in the merged histograms")
    if counted != len(everything):
        problems.append(f"the merged histograms count {counted} requests, the runners sent {len(everything)}")
    for q in (0.5, 0.95, 0.99):
        m, e = scalar(url, f"histogram_quantile({q}, {merged})", last), exact(everything, q)
        print(f"  p{q * 100:g}: merged {m * 1000:.2f} ms, exact over all samples {e * 1000:.2f} ms (ratio {m / e:.3f})")
        if not within(m, e):
            problems.append(f"p{q * 100:g} merged {m} s is more than one bucket from the exact {e} s")
    for f in runners:
        i = f.stem.removeprefix("runner-")
        own = json.loads((folder / f"{f.stem}-summary.json").read_text())["metrics"]["http_req_duration"]["values"]["p(95)"] / 1000
        m = scalar(url, f'histogram_quantile(0.95, sum(perflab_load_http_req_duration_seconds{{{run},runner="{i}"}}))', last)
        print(f"  runner {i}: its histogram's p95 {m * 1000:.2f} ms, its own end-of-test p95 {own * 1000:.2f} ms")
        if not within(m, own):
            problems.append(f"runner {i}: histogram p95 {m} s is more than one bucket from its own {own} s")
    if problems:
        sys.exit("merged percentiles wrong: " + "; ".join(problems))
    print("merged percentiles: within one histogram bucket of the exact ones")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
