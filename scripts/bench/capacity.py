#!/usr/bin/env python3
"""Capacity on paper, from measurements: docs/capacity.md's table, generated from the rows of make capacity
(scripts/bench/bench-capacity.sh, kept as docs/capacity/capacity.tsv), the chart's defaults (charts/perflab/values.yaml: each
pod's CPU and memory request, the HPA's CPU target) and the EKS env's node groups (terraform/envs/eks/variables.tf).

  capacity.py --write   rewrite the part of docs/capacity.md between its markers
  capacity.py --check   status 1 (and the difference) when that part is not what the rows give (make test)

Per row (one service's seed-shaped mix through the gateway): CPU per request of the gateway's and the service's JVMs
(their CPU time over the run / the requests the generator made), the cores and the pods (at the chart's CPU request, filled to
the HPA's target) per 1,000 requests/s, the JVMs' resident memory after the run; then the seed's target rate in cores,
pods and nodes of the system group (the pods' CPU and memory requests over the instance's vCPUs and memory, before
the stores, monitoring and the node's own reservations), and the load runners' cores on the load group.
"""
import argparse
import csv
import difflib
import math
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "capacity.md")
ROWS = os.path.join(ROOT, "docs", "capacity", "capacity.tsv")
BEGIN, END = "<!-- capacity:begin (scripts/bench/capacity.py --write) -->", "<!-- capacity:end -->"
# EC2's general (m), compute (c) and memory (r) families: vCPUs by size, GiB of memory per vCPU by family
SIZES = {"large": 2, "xlarge": 4, "2xlarge": 8, "4xlarge": 16, "8xlarge": 32}
GIB_PER_VCPU = {"m": 4, "c": 2, "r": 8}


def cpu(q):
    q = str(q)
    return float(q[:-1]) / 1000 if q.endswith("m") else float(q)


def gib(q):
    q = str(q)
    units = {"Ki": 1 / 1024 ** 2, "Mi": 1 / 1024, "Gi": 1}
    for suffix, factor in units.items():
        if q.endswith(suffix):
            return float(q[: -len(suffix)]) * factor
    raise ValueError(f"memory quantity {q!r}: Ki, Mi or Gi expected")


def node_groups():
    """{group: (instance type, vCPUs, GiB)} from the defaults of terraform/envs/eks/variables.tf."""
    text = open(os.path.join(ROOT, "terraform", "envs", "eks", "variables.tf")).read()
    groups = {}
    for group in ("system_nodes", "load_nodes"):
        m = re.search(r'variable "%s".*?default\s*=\s*\{.*?instance_types\s*=\s*\["([^"]+)"' % group, text, re.S)
        if not m:
            raise SystemExit(f"variables.tf: no default instance type for {group}")
        kind = m.group(1)
        family, size = kind.split(".")
        if size not in SIZES or family[0] not in GIB_PER_VCPU:
            raise SystemExit(f"variables.tf: {group} is {kind}; capacity.py knows the m, c and r families' "
                             f"{', '.join(SIZES)} sizes")
        groups[group] = (kind, SIZES[size], SIZES[size] * GIB_PER_VCPU[family[0]])
    return groups


def table(rows_path):
    values = yaml.safe_load(open(os.path.join(ROOT, "charts", "perflab", "values.yaml")))
    services = values["services"]
    groups = node_groups()
    sys_kind, sys_cpus, sys_gib = groups["system_nodes"]
    load_kind, load_cpus, _ = groups["load_nodes"]
    rows = list(csv.DictReader(open(rows_path), delimiter="\t"))

    def merged(defaults, own):
        """a service's values as the chart sees them: its block over `serviceDefaults` (the chart's normalizeServices)"""
        out = dict(defaults)
        for k, v in own.items():
            out[k] = merged(defaults[k], v) if isinstance(v, dict) and isinstance(defaults.get(k), dict) else v
        return out

    def pod(name):
        s = merged(values.get("serviceDefaults", {}), services[name])
        return (cpu(s["resources"]["requests"]["cpu"]), gib(s["resources"]["requests"]["memory"]),
                s["autoscaling"]["targetCPUUtilizationPercentage"] / 100)

    out = ["| service (its seed's mix) | requests measured | gateway CPU/request | service CPU/request | generator CPU/request"
           " | cores per 1,000 req/s (gateway + service) | pods per 1,000 req/s (gateway + service) | resident memory"
           " (gateway, service) | generator |",
           "|---|--:|--:|--:|--:|--:|--:|--:|---|"]
    targets = ["| seed target | requests/s | gateway pods | service pods | system cores requested | system nodes"
               f" ({sys_kind}: {sys_cpus} vCPU, {sys_gib} GiB) | load runner cores | load nodes ({load_kind}) |",
               "|---|--:|--:|--:|--:|--:|--:|--:|"]
    gw_cpu, gw_mem, gw_target = pod("gateway")
    for r in rows:
        n = int(r["requests"])
        gw_us = float(r["gateway_cpu_s"]) / n * 1e6
        svc_us = float(r["service_cpu_s"]) / n * 1e6
        gen_us = float(r["generator_cpu_s"]) / n * 1e6
        svc_cpu, svc_mem, svc_target = pod(r["service"])
        gw_pods_k, svc_pods_k = gw_us / 1000 / (gw_cpu * gw_target), svc_us / 1000 / (svc_cpu * svc_target)
        out.append(f"| {r['service']} (`{r['scenario']}`) | {n:,} | {gw_us:,.0f} µs | {svc_us:,.0f} µs | {gen_us:,.0f} µs"
                   f" | {gw_us / 1000:.2f} + {svc_us / 1000:.2f} | {gw_pods_k:.1f} + {svc_pods_k:.1f}"
                   f" | {r['gateway_rss_mb']} + {r['service_rss_mb']} MB | {r['verdict']} |")
        rate, _, what = r["target"].partition(" ")
        if not rate:
            continue
        rate = float(rate)
        gw_pods = max(2, math.ceil(rate * gw_us / 1e6 / (gw_cpu * gw_target)))
        svc_pods = max(2, math.ceil(rate * svc_us / 1e6 / (svc_cpu * svc_target)))
        cores = gw_pods * gw_cpu + svc_pods * svc_cpu
        memory = gw_pods * gw_mem + svc_pods * svc_mem
        nodes = max(math.ceil(cores / sys_cpus), math.ceil(memory / sys_gib))
        gen_cores = rate * gen_us / 1e6
        targets.append(f"| {what} | {rate:,.0f} | {gw_pods} | {svc_pods} | {cores:g} CPU, {memory:g} GiB | {nodes}"
                       f" | {gen_cores:.1f} | {math.ceil(gen_cores / load_cpus)} |")
    return "\n".join(out + [""] + targets)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the tables in docs/capacity.md")
    mode.add_argument("--check", action="store_true", help="status 1 when they are not what the rows give")
    p.add_argument("--rows", default=ROWS, help="the rows to read (default: docs/capacity/capacity.tsv)")
    args = p.parse_args()
    doc = open(DOC).read()
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    want = f"{head}{BEGIN}\n{table(args.rows)}\n{END}{tail}"
    if args.write:
        open(DOC, "w").write(want)
        return 0
    if want != doc:
        sys.stdout.writelines(difflib.unified_diff(doc.splitlines(True), want.splitlines(True), DOC, "from the rows"))
        print(f"docs/capacity.md's tables are not what {args.rows} gives: scripts/bench/capacity.py --write")
        return 1
    print(f"docs/capacity.md: its tables are what the {len(open(args.rows).readlines()) - 1} rows of {args.rows} give")
    return 0


if __name__ == "__main__":
    sys.exit(main())
