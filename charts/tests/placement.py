#!/usr/bin/env python3
"""Pods as the charts would place them, for the real scheduler of the chart test cluster to place.

  placement.py runners    the runner, initializer and starter pods of a TestRun rendered with the documented
                          two-pool values (charts/perflab-loadtest/ci/load-pool-values.yaml)
  placement.py system     the gateway pod of the perflab chart pinned to the system pool (scheduling.nodeSelector)
  placement.py unpinned   the gateway pod of the perflab chart with no scheduling values at all

Prints a YAML list of bare Pods (the operator and the ReplicaSet are not what is tested: the scheduling fields are),
each named after its role. HELM names the helm binary.
"""
import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
HELM = os.environ.get("HELM", "helm")
POD_FIELDS = ("nodeSelector", "tolerations", "affinity", "securityContext", "priorityClassName")


def render(chart, *args):
    out = subprocess.run([HELM, "template", "t", str(ROOT / "charts" / chart), *args], check=True,
                         capture_output=True, text=True).stdout
    return [d for d in yaml.safe_load_all(out) if d]


def pod(name, spec, container_security=None):
    fields = {k: spec[k] for k in POD_FIELDS if spec.get(k)}
    container = {"name": "main", "image": "registry.invalid/placement:1"}
    if container_security:
        container["securityContext"] = container_security
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": {"perflab.dev/placement": name}},
            "spec": {**fields, "containers": [container]}}


def runners():
    docs = render("perflab-loadtest", "-f", str(ROOT / "charts/perflab-loadtest/ci/load-pool-values.yaml"))
    spec = next(d for d in docs if d["kind"] == "TestRun")["spec"]
    return [pod(f"k6-{part}", spec[part], spec[part].get("containerSecurityContext"))
            for part in ("runner", "initializer", "starter")]


def gateway(name, *sets):
    docs = render("perflab", "-f", str(ROOT / "charts/perflab/ci/default-values.yaml"), *sets)
    dep = next(d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"].endswith("-gateway"))
    return [pod(name, dep["spec"]["template"]["spec"])]


if __name__ == "__main__":
    what = sys.argv[1]
    pods = {"runners": runners,
            "system": lambda: gateway("system-gateway", "--set", "scheduling.nodeSelector.perflab\\.dev/pool=system"),
            "unpinned": lambda: [p for i in range(3) for p in gateway(f"unpinned-gateway-{i}")]}[what]()
    print(yaml.safe_dump_all(pods))
