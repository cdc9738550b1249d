#!/usr/bin/env python3
"""The load generator's health, and the run's verdict read with it: pass, fail, or inconclusive.

A run says something about the system only if the generator kept its schedule. A run's summary states neither the
generator's own CPU nor its lateness beyond dropped iterations, so this watches the generator's process (the load
runner's JVM) from outside and reads the drops with it:

  generator.py sample PID OUT            CPU ticks and run-queue wait of PID (threads included) once a second into
                                         OUT, until PID exits
  generator.py verdict --samples OUT --summary S.json --exit N --cpus C --where TEXT [--json G.json]
                                         prints the verdict and exits 0 (pass), 99 (fail, the runner's own code for crossed
                                         thresholds) or 75 (inconclusive: the generator, not the system, was short)
  generator.py verdict --samples OUT --fortio R.json --cpus C --where TEXT [--json G.json]
                                         the same for a constant-rate run of fortio (`fortio load -qps Q -nocatchup
                                         -json R.json`, the benches' open-model rows)

Rules (docs/load-testing.md):
  - the generator's CPU over any 5 s window above 80% of the CPUs it may use (C: its cgroup limit, else the CPUs it
    may run on) -> inconclusive, whatever the run's thresholds said;
  - dropped iterations with a VU budget below what the script's SLO needs (peak rate x requests per iteration x the
    largest p95 limit, per scenario) -> inconclusive: the generator ran out of VUs;
  - dropped iterations otherwise -> fail: the system's lateness (requests never sent are not "no errors");
  - else the generator's own exit status: 0 pass, 99 fail.
A fortio run, whose connections each send their next request only after the last answer and, with -nocatchup, skip
a slot they missed rather than send it late:
  - the generator's CPU as above -> inconclusive;
  - fewer than KEPT_SHARE of the requests its schedule held sent on time -> inconclusive: it fell behind, and with a
    fixed number of connections that is the generator's shortfall as much as the system's;
  - an answer outside 2xx/3xx or a socket error -> fail;
  - else pass.
"""
import argparse
import json
import math
import os
import re
import sys
import time

PASS, FAIL, INCONCLUSIVE = 0, 99, 75
CPU_LIMIT_SHARE = 0.8
WINDOW_S = 5.0
VU_MARGIN = 1.0  # the largest p95 limit stands for every request of the iteration: the margin is in it
KEPT_SHARE = 0.98  # a fortio run below this share of its scheduled requests fell behind
TICK = os.sysconf("SC_CLK_TCK")


def tree(pid):
    """pid and every process below it (a CPU-limited run starts the runner through a shell that execs it)."""
    parent = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    out, pending = [], [pid]
    while pending:
        p = pending.pop()
        out.append(p)
        pending.extend(c for c, pp in parent.items() if pp == p)
    return out


def proc_cpu(pid):
    """(cpu seconds, run-queue wait seconds) of a process tree, all threads."""
    cpu = wait = 0.0
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14 and 15)
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/schedstat") as f:
                    wait += int(f.read().split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            if p == pid:
                raise
    return cpu, wait


def sample(pid, out):
    with open(out, "w") as f:
        while True:
            try:
                cpu, wait = proc_cpu(pid)
            except (OSError, IndexError, ValueError):
                return
            f.write(f"{time.monotonic():.3f} {cpu:.2f} {wait:.3f}\n")
            f.flush()
            time.sleep(1)


def cpu_use(samples, cpus):
    """(peak share over any WINDOW_S window, mean share, run-queue wait per CPU second) of the CPUs allowed."""
    rows = [tuple(map(float, line.split())) for line in open(samples) if line.strip()]
    if len(rows) < 2:
        return 0.0, 0.0, 0.0
    span = min(WINDOW_S, rows[-1][0] - rows[0][0])
    peak, j = 0.0, 0
    for i in range(1, len(rows)):
        while j + 1 < i and rows[i][0] - rows[j + 1][0] >= span:
            j += 1
        dt = rows[i][0] - rows[j][0]
        if dt >= span and dt > 0:
            peak = max(peak, (rows[i][1] - rows[j][1]) / dt / cpus)
    total = rows[-1][0] - rows[0][0]
    used = rows[-1][1] - rows[0][1]
    waited = rows[-1][2] - rows[0][2]
    return peak, used / total / cpus, waited / used if used > 0 else 0.0


def metric(summary, name, stat):
    return summary.get("metrics", {}).get(name, {}).get("values", {}).get(stat, 0) or 0


def vu_shortfall(summary):
    """Scenarios whose VU budget is below what their SLO needs, as text; None when the script states no budget."""
    budget = summary.get("perflab", {}).get("vuBudget")
    if not budget:
        return None
    iterations = metric(summary, "iterations", "count")
    per_iteration = metric(summary, "http_reqs", "count") / iterations if iterations else 1
    short = []
    for s in budget:
        if not s.get("sloMs"):
            continue
        needed = math.ceil(s["peakRate"] * max(per_iteration, 1) * s["sloMs"] / 1000 * VU_MARGIN)
        if s["maxVUs"] < needed:
            short.append(f"{s['scenario']}: maxVUs {s['maxVUs']} < {needed} needed "
                         f"({s['peakRate']}/s x {per_iteration:.1f} requests x p95 limit {s['sloMs']} ms x {VU_MARGIN})")
    return short


def verdict(args):
    summary = json.load(open(args.summary)) if args.summary and os.path.exists(args.summary) else {}
    peak, mean, wait = cpu_use(args.samples, args.cpus)
    dropped = int(metric(summary, "dropped_iterations", "count"))
    short = vu_shortfall(summary)
    health = (f"generator: {args.where}; CPU peak {peak:.0%} and mean {mean:.0%} of {args.cpus:g} CPU(s) "
              f"(inconclusive above {CPU_LIMIT_SHARE:.0%}), waited {wait:.1f} s in the run queue per CPU second used; "
              f"{dropped} dropped iteration(s); VUs up to {int(metric(summary, 'vus_max', 'max'))}")
    if peak > CPU_LIMIT_SHARE:
        code, why = INCONCLUSIVE, f"the generator used {peak:.0%} of its CPU: the run measured the generator"
    elif dropped and short:
        code, why = INCONCLUSIVE, f"{dropped} iterations dropped with a VU budget too small for the SLO ({'; '.join(short)})"
    elif dropped and short is None:
        code, why = INCONCLUSIVE, f"{dropped} iterations dropped and the script states no VU budget to read them by"
    elif dropped:
        code, why = FAIL, f"{dropped} iterations dropped with a healthy generator: the system's lateness, requests never sent"
    elif args.exit == 0:
        code, why = PASS, "thresholds held, no iteration dropped"
    elif args.exit == 99:
        code, why = FAIL, "thresholds crossed"
    else:
        print(f"verdict: none, the generator exited {args.exit} (not a finished run); {health}")
        return args.exit
    word = {PASS: "pass", FAIL: "fail", INCONCLUSIVE: "inconclusive"}[code]
    print(f"verdict: {word} ({why}); {health}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"verdict": word, "why": why, "where": args.where, "cpus": args.cpus, "cpuPeak": round(peak, 3),
                       "cpuMean": round(mean, 3), "cpuWait": round(wait, 3), "droppedIterations": dropped,
                       "vuShortfall": short, "exit": args.exit}, f, indent=2)
    return code


GO_UNITS = {"h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6, "\u00b5s": 1e-6, "ns": 1e-9}


def go_seconds(duration):
    """Seconds of a Go duration string as fortio writes it ("5s", "1m0s", "1.5s", "500ms")."""
    parts = re.findall(r"([0-9.]+)(h|ms|us|\u00b5s|ns|m|s)", duration)
    if not parts or "".join(n + u for n, u in parts) != duration:
        raise ValueError(f"not a duration: {duration!r}")
    return sum(float(n) * GO_UNITS[u] for n, u in parts)


def fortio_schedule(result):
    """(requests scheduled, requests sent, asked rate, rate sent over the scheduled time, answers outside 2xx/3xx or
    socket errors) of one fortio load result. Scheduled as fortio splits it: int(qps x duration) over the
    connections, the same whole number each; the sent rate divides by the duration asked, not by fortio's ActualQPS's
    elapsed time, which also holds the last answer and -uniform's start offset (one connection's period)."""
    asked = float(result["RequestedQPS"])  # "max" (no rate) raises: not a constant-rate run
    seconds = go_seconds(result["RequestedDuration"])
    threads = int(result["NumThreads"])
    scheduled = max(int(result["Exactly"]) or int(asked * seconds) // threads * threads, 1)
    sent = int(result["DurationHistogram"]["Count"])
    codes = {int(c): int(n) for c, n in (result.get("RetCodes") or {}).items()}
    errors = sum(n for c, n in codes.items() if not 200 <= c <= 399)
    return scheduled, sent, asked, sent / seconds, errors


def fortio_verdict(args):
    result = json.load(open(args.fortio))
    peak, mean, wait = cpu_use(args.samples, args.cpus)
    scheduled, sent, asked, rate, errors = fortio_schedule(result)
    not_sent = max(scheduled - sent, 0)
    health = (f"generator: {args.where}; CPU peak {peak:.0%} and mean {mean:.0%} of {args.cpus:g} CPU(s) "
              f"(inconclusive above {CPU_LIMIT_SHARE:.0%}), waited {wait:.1f} s in the run queue per CPU second used; "
              f"fortio {result.get('Version', '?')}: {sent} of {scheduled} requests sent on schedule "
              f"({rate:.0f}/s of {asked:g}/s asked, {not_sent} not sent), {result['NumThreads']} connections")
    if peak > CPU_LIMIT_SHARE:
        code, why = INCONCLUSIVE, f"the generator used {peak:.0%} of its CPU: the run measured the generator"
    elif sent < KEPT_SHARE * scheduled:
        code, why = INCONCLUSIVE, (f"the generator fell behind: {sent / scheduled:.1%} of its scheduled requests sent "
                                   f"(below {KEPT_SHARE:.0%}), {not_sent} not sent on schedule")
    elif errors:
        code, why = FAIL, f"{errors} answer(s) outside 2xx/3xx or socket errors"
    else:
        code, why = PASS, f"the rate kept: {sent / scheduled:.1%} of the scheduled requests sent, every answer 2xx/3xx"
    word = {PASS: "pass", FAIL: "fail", INCONCLUSIVE: "inconclusive"}[code]
    print(f"verdict: {word} ({why}); {health}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"verdict": word, "why": why, "where": args.where, "cpus": args.cpus, "cpuPeak": round(peak, 3),
                       "cpuMean": round(mean, 3), "cpuWait": round(wait, 3), "droppedIterations": not_sent,
                       "scheduled": scheduled, "sent": sent, "askedRate": asked, "sentRate": round(rate, 1),
                       "errors": errors, "connections": result["NumThreads"]}, f, indent=2)
    return code


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("pid", type=int)
    s.add_argument("out")
    v = sub.add_parser("verdict")
    v.add_argument("--samples", required=True)
    v.add_argument("--summary")
    v.add_argument("--exit", type=int)
    v.add_argument("--fortio", help="a fortio load result (-json) instead of --summary and --exit")
    v.add_argument("--cpus", type=float, required=True)
    v.add_argument("--where", required=True)
    v.add_argument("--json")
    a = p.parse_args()
    if a.cmd == "sample":
        sample(a.pid, a.out)
        return 0
    if a.fortio:
        return fortio_verdict(a)
    if a.exit is None:
        p.error("verdict needs --exit (a load runner's run) or --fortio (a fortio run)")
    return verdict(a)


if __name__ == "__main__":
    sys.exit(main())
