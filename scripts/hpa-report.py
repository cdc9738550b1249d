"""The HPA step's table (scripts/test-node.sh hpa_scales): per 10 s window, requests/s and p95 of both k6 loads, the
slow downloads under way, and per autoscaled service its HPA's replicas (current/desired), CPU and live/all pods.

Usage: hpa-report.py T0 WORK SERVICE...  (reads WORK/hpa-{surge,steady}.csv, hpa.tsv, hpa-slow.tsv, hpa.SERVICE.*)
"""
import csv
import math
import sys


def moment(work, service, name):
    """A moment the sampling loop recorded by its own rules (seconds after T0), or None."""
    try:
        with open(f"{work}/hpa.{service}.{name}") as f:
            return int(f.read())
    except FileNotFoundError:
        return None


def main(t0, work, services):
    durations = {}
    for name in ("hpa-surge", "hpa-steady"):
        with open(f"{work}/{name}.csv") as f:
            for r in csv.DictReader(f):
                if r["metric_name"] == "http_req_duration" and r.get("scenario", "reads") == "reads":
                    durations.setdefault((int(float(r["timestamp"])) - t0) // 10, []).append(float(r["metric_value"]))
    status, peak = {}, {s: 0 for s in services}
    with open(f"{work}/hpa.tsv") as f:  # epoch, service, "current desired cpu%", "all live"
        for line in f:
            t, service, hpa, pods = line.rstrip("\n").split("\t")
            every, live = map(int, pods.split())
            hpa = (hpa.split() + ["-"] * 3)[:3]
            status[(int(t) - t0) // 10, service] = f"{hpa[0]}/{hpa[1]} · {hpa[2]}% · {live}/{every}"  # window's last
            peak[service] = max(peak[service], live)
    slow = []
    with open(f"{work}/hpa-slow.tsv") as f:  # start, end, status, bytes, exit
        for line in f:
            start, end = line.split("\t")[:2]
            slow.append((float(start) - t0, float(end) - t0))
    windows = sorted(set(durations) | {w for w, _ in status})
    head = " | ".join(f"{s}: replicas · CPU · pods" for s in services)
    print(f"  | t (s) | requests/s | p95 (ms) | slow downloads | {head} |")
    print("  |--:|--:|--:|--:|" + "--:|" * len(services))
    for w in windows:
        d = sorted(durations.get(w, []))
        p95 = d[min(len(d) - 1, math.ceil(0.95 * len(d)) - 1)] if d else float("nan")
        under_way = sum(1 for a, b in slow if a < w * 10 + 10 and b > w * 10)
        cells = " | ".join(status.get((w, s), "-") for s in services)
        print(f"  | {w * 10:>3}-{w * 10 + 10:<3} | {len(d) / 10:>6.1f} | {p95:>6.0f} | {under_way} | {cells} |")
    for s in services:
        capped, scaled_in = moment(work, s, "capped"), moment(work, s, "scaled-in")
        print(f"  {s}: most live pods {peak[s]}; "
              + (f"ceiling lowered to 2 at {capped} s, " if capped is not None else "ceiling never lowered; ")
              + (f"back to 2 of 2 at {scaled_in} s, the surge going on" if scaled_in is not None
                 else "never back to 2 pods under the surge"))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3:])
