#!/usr/bin/env python3
"""Alert rules as Prometheus sees them: the groups of the rendered PrometheusRule, for promtool.

    rules.py RENDERED.yaml OUT_DIR TEST.yaml

Writes OUT_DIR/rules.yaml (the groups as rendered, for `promtool check rules`), OUT_DIR/rules-bare.yaml (the same
without annotations) and OUT_DIR/rules-test.yaml (TEST.yaml pointed at rules-bare.yaml, for `promtool test rules`).
promtool compares annotations verbatim, so the behaviour tests compare labels only; `check rules` still parses
every annotation template, and charts/tests/test_chart.py asserts on their text.

Fails when an alert of the rendering never fires in TEST.yaml: a rule that can never fire is a defect, and a rule
nobody proves to fire could be one.
"""
import copy
import sys
from pathlib import Path

import yaml


def main(rendered, out_dir, test_file):
    docs = [d for d in yaml.safe_load_all(Path(rendered).read_text()) if d and d.get("kind") == "PrometheusRule"]
    if not docs:
        print(f"no PrometheusRule in {rendered}")
        return 1
    groups = [g for d in docs for g in d["spec"]["groups"]]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "rules.yaml").write_text(yaml.safe_dump({"groups": groups}, sort_keys=False, width=1000))
    bare = copy.deepcopy(groups)
    for g in bare:
        for r in g["rules"]:
            r.pop("annotations", None)
    (out / "rules-bare.yaml").write_text(yaml.safe_dump({"groups": bare}, sort_keys=False, width=1000))

    test = yaml.safe_load(Path(test_file).read_text())
    test["rule_files"] = ["rules-bare.yaml"]
    (out / "rules-test.yaml").write_text(yaml.safe_dump(test, sort_keys=False, width=1000))

    alerts = {r["alert"] for g in groups for r in g["rules"] if "alert" in r}
    fired = {t["alertname"] for case in test["tests"] for t in case.get("alert_rule_test", []) if t.get("exp_alerts")}
    never = sorted(alerts - fired)
    print(f"  {len(groups)} groups, {sum(len(g['rules']) for g in groups)} rules, {len(alerts)} alert names; "
          f"{len(test['tests'])} test cases")
    if never:
        print(f"  never shown to fire in {test_file}: {', '.join(never)}")
        return 1
    unknown = sorted(fired - alerts)
    if unknown:
        print(f"  tested but not rendered: {', '.join(unknown)}")
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
