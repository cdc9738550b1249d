#!/usr/bin/env python3
"""Reads one scanner's JSON, drops the findings its skip file names, prints what is left and one counts line.

    scan-report.py checkov    TARGET RESULT.json SKIPS
    scan-report.py kube-score TARGET RESULT.json SKIPS

SKIPS (scripts/test/scan-skips/<scanner>.txt): one skip a line, `CHECK RESOURCE  # noise: why`, RESOURCE a glob on the
scanner's name of the object (checkov: `Kind.namespace.name` or a Terraform address; kube-score: `Kind/name`). A skip
without its reason after `#` is refused. Counts line: `<scanner> TARGET: N passed, N failed, N skipped[, N n/a]`
(skipped: by SKIPS or by an inline suppression; n/a: kube-score checks that do not apply to the object). Exit 1 when
a finding is left, 2 on a bad skip file. Skips that matched nothing are named, so stale ones can be removed.
"""
import fnmatch
import json
import sys


def read_skips(path):
    skips, bad = [], []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            rule, _, reason = text.partition("#")
            words = rule.split()
            if len(words) != 2 or not reason.strip():
                bad.append(f"{path}:{n}: want `CHECK RESOURCE  # reason`: {text}")
                continue
            skips.append({"check": words[0], "resource": words[1], "reason": reason.strip(), "line": n, "used": 0})
    return skips, bad


def skipped_by(skips, check, resource):
    for s in skips:
        if fnmatch.fnmatchcase(check, s["check"]) and fnmatch.fnmatchcase(resource, s["resource"]):
            s["used"] += 1
            return s
    return None


def checkov(data):
    """(passed, [(check, resource, title, where)], inline-skipped) of checkov's JSON (one report or a list of them)."""
    reports = data if isinstance(data, list) else [data]
    passed, failed, skipped = 0, [], 0
    for r in reports:
        passed += r["summary"]["passed"]
        skipped += r["summary"]["skipped"]
        for x in r.get("results", {}).get("failed_checks", []):
            where = f'{x["file_path"].split("/")[-1]}:{x["file_line_range"][0]}'
            failed.append((x["check_id"], x["resource"], x["check_name"], where))
    return passed, failed, skipped


def kube_score(data):
    """(passed, [(check, object, title, where)], n/a) of kube-score's JSON v2; a grade below 10 is a finding."""
    passed, failed, na = 0, [], 0
    grades = {1: "CRITICAL", 5: "WARNING", 7: "ALMOST OK"}
    for o in data:
        name = f'{o["type_meta"]["kind"]}/{o["object_meta"]["name"]}'
        for c in o["checks"]:
            if c["skipped"]:
                na += 1
            elif c["grade"] >= 10:
                passed += 1
            else:
                why = "; ".join(f'{m["path"] + ": " if m.get("path") else ""}{m["summary"]}' for m in c["comments"] or [])
                failed.append((c["check"]["id"], name, f'{grades.get(c["grade"], c["grade"])} {why}', o.get("file_name", "")))
    return passed, failed, na


def main():
    scanner, target, result, skip_path = sys.argv[1:5]
    skips, bad = read_skips(skip_path)
    if bad:
        print("\n".join(bad))
        return 2
    with open(result) as f:
        data = json.load(f)
    passed, found, other = (checkov if scanner == "checkov" else kube_score)(data)
    left, by_config = [], 0
    for check, resource, title, where in found:
        if skipped_by(skips, check, resource):
            by_config += 1
        else:
            left.append((check, resource, title, where))
    for check, resource, title, where in sorted(set(left)):
        print(f"  FINDING {check} {resource}: {title} ({where})")
    counts = f"{passed} passed, {len(left)} failed, {by_config + (other if scanner == 'checkov' else 0)} skipped"
    if scanner == "kube-score":
        counts += f", {other} n/a"
    print(f"{scanner} {target}: {counts}")
    with open(result + ".unused-skips", "w") as f:
        f.writelines(f'{s["line"]}\n' for s in skips if not s["used"])
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
