"""The HPA step's table (scripts/test/test-node.sh hpa_scales): per 10 s window, requests/s and p95 of both loads (the
surge's runner in the cluster and the steady reads from the host, from Prometheus: their remote-written counters and
native histograms summed over both runs), the slow downloads under way, and per autoscaled service its HPA's replicas
(current/desired), CPU and live/all pods (the HPA's status as the API server serves it, sampled by the step).

Usage: hpa-report.py T0 WORK PROMETHEUS_URL RUN SERVICE...  (the runs' testids RUN-surge and RUN-steady; reads
WORK/hpa.tsv, hpa-slow.tsv, hpa.SERVICE.*)
"""
import json
import math
import sys
import urllib.parse
import urllib.request


def moment(work, service, name):
    """A moment the sampling loop recorded by its own rules (seconds after T0), or None."""
    try:
        with open(f"{work}/hpa.{service}.{name}") as f:
            return int(f.read())
    except FileNotFoundError:
        return None


def per_window(prometheus, t0, end, expr):
    """EXPR (over each window's [10s]) at the end of every 10 s window after T0 -> {window: value}."""
    query = urllib.parse.urlencode({"query": expr, "start": t0 + 10, "end": end, "step": "10s"})
    with urllib.request.urlopen(f"{prometheus}/api/v1/query_range?{query}", timeout=30) as r:
        result = json.load(r)["data"]["result"]
    return {(int(float(t)) - t0) // 10 - 1: float(v) for s in result for t, v in s["values"]}


def main(t0, work, prometheus, run, services):
    runs = f'testid=~"{run}-(surge|steady)"'
    with open(f"{work}/hpa.tsv") as f:  # epoch, service, "current desired cpu%", "all live"
        samples = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    end = t0 + 10 * math.ceil((max(int(t) for t, *_ in samples) - t0) / 10)
    rates = per_window(prometheus, t0, end, f"sum(increase(perflab_load_http_reqs_total{{{runs}}}[10s])) / 10")
    p95s = per_window(prometheus, t0, end,
                      f"histogram_quantile(0.95, sum(increase(perflab_load_http_req_duration_seconds{{{runs}}}[10s]))) * 1000")
    status, peak = {}, {s: 0 for s in services}
    for t, service, hpa, pods in samples:
        every, live = map(int, pods.split())
        hpa = (hpa.split() + ["-"] * 3)[:3]
        status[(int(t) - t0) // 10, service] = f"{hpa[0]}/{hpa[1]} · {hpa[2]}% · {live}/{every}"  # window's last
        peak[service] = max(peak[service], live)
    slow = []
    with open(f"{work}/hpa-slow.tsv") as f:  # start, end, status, bytes, exit
        for line in f:
            start, end = line.split("\t")[:2]
            slow.append((float(start) - t0, float(end) - t0))
    windows = sorted(set(rates) | {w for w, _ in status})
    head = " | ".join(f"{s}: replicas · CPU · pods" for s in services)
    print(f"  | t (s) | requests/s | p95 (ms) | slow downloads | {head} |")
    print("  |--:|--:|--:|--:|" + "--:|" * len(services))
    for w in windows:
        rate, p95 = rates.get(w, float("nan")), p95s.get(w, float("nan"))
        under_way = sum(1 for a, b in slow if a < w * 10 + 10 and b > w * 10)
        cells = " | ".join(status.get((w, s), "-") for s in services)
        print(f"  | {w * 10:>3}-{w * 10 + 10:<3} | {rate:>6.1f} | {p95:>6.0f} | {under_way} | {cells} |")
    for s in services:
        capped, scaled_in = moment(work, s, "capped"), moment(work, s, "scaled-in")
        print(f"  {s}: most live pods {peak[s]}; "
              + (f"ceiling lowered to 2 at {capped} s, " if capped is not None else "ceiling never lowered; ")
              + (f"back to 2 of 2 at {scaled_in} s, the surge going on" if scaled_in is not None
                 else "never back to 2 pods under the surge"))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
