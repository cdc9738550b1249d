#!/usr/bin/env python3
"""A chart default is stated once: in values.yaml, and for the services in `serviceDefaults` alone.

    defaults_once.py [CHART_DIR]      (default charts/perflab; exit 1 and one line per finding)

Two ways a default gets stated twice, both refused:
- a `services.<key>` block sets a value equal to the one `serviceDefaults` gives it (normalizeServices fills every
  key a block leaves out): a scalar, or a list that is not empty. An empty map or list states nothing and may stand
  as the place of a service's own documentation (`hikari: {}` with its pool size in the comment).
- a template falls back on a literal (`x.key | default "1g"`, `default "G1" x.key`) equal to what values.yaml gives
  a key of that name: the fallback never applies, and the two drift. Empty fallbacks ("", dict, list, 0) guard
  against nil and are no default.
"""
import re
import sys
from pathlib import Path

import yaml

CHART = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "perflab"
values = yaml.safe_load((CHART / "values.yaml").read_text())
defaults = values.get("serviceDefaults", {})
findings = []


def leaves(node, path=()):
    """(path, value) of every scalar and list below node."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    else:
        yield path, node


def stated(value):
    return value not in ([], {}, None)


for name, block in values["services"].items():
    for path, value in leaves(defaults):
        node = block
        for p in path:
            node = node.get(p) if isinstance(node, dict) else None
        if node is not None and node == value and stated(value):
            findings.append(f"services.{name}.{'.'.join(path)} restates serviceDefaults.{'.'.join(path)} ({value!r})")

# every value values.yaml gives a key, by the key's name
by_key = {}
for path, value in leaves(values):
    if path and stated(value) and value != "" and value is not False and value != 0:
        by_key.setdefault(path[-1], []).append(value)

LITERAL = r'("[^"]*"|-?\d+(?:\.\d+)?|\(list(?: "[^"]*")+\))'
FALLBACKS = [re.compile(r'\.(\w+)\s*\|\s*default\s+' + LITERAL), re.compile(r'default\s+' + LITERAL + r'\s+[$.][\w$.]*\.(\w+)')]


def literal(text):
    if text.startswith("(list"):
        return re.findall(r'"([^"]*)"', text)
    return yaml.safe_load(text)


for tpl in sorted(p for p in (CHART / "templates").rglob("*") if p.is_file()):
    for n, line in enumerate(tpl.read_text().splitlines(), 1):
        for i, rx in enumerate(FALLBACKS):
            for m in rx.finditer(line):
                key, lit = (m.group(1), m.group(2)) if i == 0 else (m.group(2), m.group(1))
                value = literal(lit)
                if stated(value) and value != "" and value != 0 and value in by_key.get(key, []):
                    findings.append(f"{tpl.relative_to(CHART)}:{n}: falls back on {lit} for `{key}`, which values.yaml sets")

for f in findings:
    print(f)
print(f"defaults once: {len(findings)} stated twice" if findings else "defaults once: every default stated once")
sys.exit(1 if findings else 0)
