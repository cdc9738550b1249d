#!/usr/bin/env python3
"""make new-service NAME=<name> [PORT=<port>]: a new service from scaffold/service, ready to build, run and deploy.

    python3 scripts/stack/new-service.py NAME [--port PORT] [--root DIR]

Writes its folder (services/NAME: service.env, pom.xml, README, a notes API in MySQL with its test), its gateway
routes (config/gateway/routes/NAME.yaml), its dashboard panels (charts/perflab/files/dashboards/NAME.json), its values
block (services.NAME in charts/perflab/values.yaml, after the last service's), its module line in the root pom and
its row in the README's service table. Every other list (the stack, the scripts, the chart, its schema, CI) derives
from those. PORT: the next after the highest service port; actuator listens 1000 above.
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

NAME = re.compile(r"^[a-z][a-z0-9]{1,19}$")  # a Java package, a DNS label and an environment variable's part


def rendered(text, name, port):
    return (text.replace("__name__", name).replace("__Name__", name[0].upper() + name[1:])
            .replace("__NAME__", name.upper()).replace("__port__", str(port)).replace("__mgmt__", str(port + 1000)))


def next_port(root):
    ports = [int(m.group(1)) for p in (root / "services").glob("*/service.env")
             if (m := re.search(r"(?m)^port=(\d+)", p.read_text()))]
    return max(ports) + 1


def values_with_block(values, block):
    """values.yaml with BLOCK after the last service's block under `services:` (its next top-level key ends it)."""
    lines = values.splitlines(keepends=True)
    start = lines.index("services:\n")
    end = next(i for i in range(start + 1, len(lines)) if re.match(r"\S", lines[i]))
    while not lines[end - 1].strip():  # the blank lines before the next top-level key stay after the new block
        end -= 1
    return "".join(lines[:end]) + "\n" + block + "".join(lines[end:])


def pom_with_module(pom, name):
    modules = list(re.finditer(r"(?m)^( *)<module>services/[^<]+</module>\n", pom))
    if not modules:
        raise SystemExit("the root pom has no <module>services/...</module> line to add one after")
    last = modules[-1]
    return pom[:last.end()] + f"{last.group(1)}<module>services/{name}</module>\n" + pom[last.end():]


def readme_with_row(readme, name, port):
    rows = list(re.finditer(r"(?m)^\| [a-z0-9]+ \|.*\| \d+ \| \[`services/[^/]+/`\]\(services/[^)]+\) \|\n", readme))
    if not rows:
        raise SystemExit("README.md has no service table row to add one after")
    row = (f"| {name} | notes of an office in MySQL, from `make new-service` (say what it does) | {port} "
           f"| [`services/{name}/`](services/{name}/) |\n")
    return readme[:rows[-1].end()] + row + readme[rows[-1].end():]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("name")
    p.add_argument("--port", type=int)
    p.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    a = p.parse_args()
    root, name = a.root, a.name
    if not NAME.match(name) or name == "gateway":
        sys.exit(f"NAME={name}: 2-20 lowercase letters and digits, a letter first (a Java package and a DNS label)")
    if (root / "services" / name).exists():
        sys.exit(f"services/{name} exists already")
    port = a.port or next_port(root)
    scaffold = root / "scaffold" / "service"
    written = []
    for src in sorted(scaffold.rglob("*")):
        rel = src.relative_to(scaffold)
        if src.is_dir() or rel.as_posix() == "values-block.yaml":
            continue
        dst = root / rendered(rel.as_posix(), name, port)
        if dst.exists():
            sys.exit(f"{dst.relative_to(root)} exists already")
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(rendered(src.read_text(), name, port))
        written.append(dst.relative_to(root).as_posix())
    values = root / "charts" / "perflab" / "values.yaml"
    values.write_text(values_with_block(values.read_text(), rendered((scaffold / "values-block.yaml").read_text(), name, port)))
    pom = root / "pom.xml"
    pom.write_text(pom_with_module(pom.read_text(), name))
    readme = root / "README.md"
    readme.write_text(readme_with_row(readme.read_text(), name, port))
    # the chart's values.schema.json and README.md are generated from values.yaml: regenerated with the pinned tools
    # when they are built (scripts/k8s/k8s-tools.sh), otherwise said
    schema = subprocess.run(["bash", "-c", 'source scripts/lib/env.sh >/dev/null && source scripts/k8s/k8s-tools.sh >/dev/null '
                             '&& [ -x "$HELM_SCHEMA" ] && [ -x "$HELM_DOCS" ] && "$HELM_DOCS" -l error -c charts/perflab -s file '
                             '&& cd charts/perflab && "$HELM_SCHEMA"'], cwd=root, capture_output=True, text=True)
    regenerated = schema.returncode == 0
    print(f"services/{name}: port {port}, actuator {port + 1000}")
    for f in written + ["charts/perflab/values.yaml (services." + name + ")", "pom.xml (its module)", "README.md (its row)"]:
        print(f"  {f}")
    if regenerated:
        print("  charts/perflab/values.schema.json and README.md (regenerated)")
    else:
        print("then regenerate the chart's schema and README: scripts/k8s/k8s-tools.sh, then "
              "$HELM_DOCS -c charts/perflab -s file and (cd charts/perflab && $HELM_SCHEMA)")
    print(f"next: ./mvnw -pl services/{name} -am package, make up (it starts, the gateway routes /v1/{name}/**), "
          f"then its own design: docs/howto.md#add-a-service")


if __name__ == "__main__":
    main()
