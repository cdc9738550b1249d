#!/usr/bin/env python3
"""Every path a GitHub Actions workflow names must exist in the repository, and none may leave it.

Checked per workflow: each `paths`/`paths-ignore` filter of its triggers matches at least one tracked file; every
repository path in a `run` script, a `working-directory` or an action input (`path`, `file`, `files`,
`chart`...) exists; nothing reaches outside the checkout (`../`). Usage: check-workflow-paths.py WORKFLOW_DIR
"""
import pathlib
import re
import subprocess
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
# the repository's own top-level entries (ignored ones such as the runtime folder .run/ are not repository paths)
TOP = sorted({f.split("/")[0] for f in subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                                                      capture_output=True, text=True, check=True).stdout.splitlines()})
# a repository path: one of the top-level entries, then path characters
REPO_PATH = re.compile(r"(?<![\w./${}-])((?:%s)(?:/[\w.*{}$-]+)+)" % "|".join(re.escape(t) for t in TOP))
INPUT_KEYS = {"path", "file", "files", "chart", "charts", "working-directory", "context", "dockerfile"}


def tracked():
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return out.splitlines()


def glob_regex(pattern):
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out + "(/.*)?$")


def exists(path, files):
    path = path.rstrip("/.")
    if "$" in path or "{" in path:  # an expression or a matrix value: check what precedes it
        path = re.split(r"[$}{]", path)[0].rstrip("/")
        path = path.rsplit("/", 1)[0] if not (ROOT / path).exists() else path
    if any(c in path for c in "*?"):
        rx = glob_regex(path)
        return any(rx.match(f) for f in files)
    return (ROOT / path).exists()


def check(workflow, files):
    problems = []
    doc = yaml.safe_load(workflow.read_text())
    triggers = doc.get(True, doc.get("on")) or {}  # YAML 1.1 reads a bare `on` as true
    if isinstance(triggers, dict):
        for event, spec in triggers.items():
            for key in ("paths", "paths-ignore"):
                for pattern in (spec or {}).get(key, []) if isinstance(spec, dict) else []:
                    rx = glob_regex(pattern.lstrip("!"))
                    if not any(rx.match(f) for f in files):
                        problems.append(f"{event}.{key}: {pattern} matches no file")

    def walk(node, where):
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, str) and (k == "run" or k in INPUT_KEYS):
                    if "../" in v:
                        problems.append(f"{where}.{k}: reaches outside the repository: {v.strip()[:80]}")
                    candidates = REPO_PATH.findall(v) if k == "run" else [p.strip() for p in re.split(r"[\s,]+", v) if p.strip()]
                    for p in candidates:
                        if k != "run" and (p.startswith(("$", "/", "~")) or "${{" in p):
                            continue
                        if not exists(p, files):
                            problems.append(f"{where}.{k}: {p} does not exist")
                else:
                    walk(v, f"{where}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}[{i}]")

    walk(doc.get("jobs", {}), "jobs")
    return problems


def main():
    files = tracked()
    failed = 0
    workflows = sorted(pathlib.Path(sys.argv[1]).glob("*.y*ml"))
    for workflow in workflows:
        for problem in check(workflow, files):
            print(f"{workflow}: {problem}")
            failed += 1
    print(f"{len(workflows)} workflows, {failed} problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
