#!/usr/bin/env python3
"""Points every registry module of a scratch copy of terraform/ at a local copy, so checkov scans the modules' resources
too (it cannot download them: the Terraform registry is out of reach here).

    scan-tf-modules.py TREE CACHE OUT

TREE: the scratch copy (rewritten in place). CACHE: <namespace>/<name>/<provider>/<version>/ source trees (filled by
scripts/test/scan.sh). OUT: where the copies go (outside TREE, so they are not scanned as roots of their own). A
module's own registry modules (eks -> kms) are followed the same way; its examples and tests are left out. Exit 3 with `missing SOURCE VERSION` lines when
the cache lacks one; exit 2 when a registry module is not at an exact version.
"""
import pathlib
import re
import shutil
import sys

MODULE = re.compile(r'^module\s+"[^"]+"\s*\{')
SOURCE = re.compile(r'^(\s*)source\s*=\s*"([a-z0-9-]+/[a-z0-9-]+/[a-z0-9-]+)"\s*$')
VERSION = re.compile(r'^\s*version\s*=\s*"([^"]*)"')
EXACT = re.compile(r"^\d+\.\d+\.\d+$")
# a module repository's examples, tests and wrappers are not part of what a caller gets: leave them out
NOT_MODULE = shutil.ignore_patterns("examples", "tests", "wrappers", "docs", ".github")


def rewrite(tf: pathlib.Path, cache: pathlib.Path, out: pathlib.Path, todo: list, missing: set) -> None:
    lines, result, block = tf.read_text().splitlines(keepends=True), [], None
    for line in lines:
        if block is None and MODULE.match(line):
            block = {"start": len(result), "src": None, "src_at": None, "ver": None, "ver_at": None}
        elif block is not None and line.startswith("}"):
            if block["src"]:
                src, ver = block["src"], block["ver"]
                if not ver or not EXACT.match(ver):
                    print(f"{tf}: module {src} not at an exact version ({ver})", file=sys.stderr)
                    sys.exit(2)
                target = out / src / ver
                if not target.exists():
                    if not (cache / src / ver).is_dir():
                        missing.add((src, ver))
                    else:
                        shutil.copytree(cache / src / ver, target, ignore=NOT_MODULE)
                        todo.append(target)
                indent = SOURCE.match(result[block["src_at"]]).group(1)
                rel = pathlib.Path(*[".."] * len(tf.parent.relative_to(out.parent).parts)) / target.relative_to(out.parent)
                result[block["src_at"]] = f'{indent}source = "{rel}"\n'
                result[block["ver_at"]] = ""
            block = None
        elif block is not None:
            m = SOURCE.match(line)
            if m:
                block["src"], block["src_at"] = m.group(2), len(result)
            m = VERSION.match(line)
            if m and block["src"] is not None:
                block["ver"], block["ver_at"] = m.group(1), len(result)
        result.append(line)
    tf.write_text("".join(result))


def main() -> int:
    tree, cache, out = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
    if out.parent != tree.parent:
        print("OUT must sit beside TREE", file=sys.stderr)
        return 2
    todo, missing = [tree], set()
    while todo:
        root = todo.pop()
        for tf in sorted(root.rglob("*.tf")):
            rewrite(tf, cache, out, todo, missing)
    for src, ver in sorted(missing):
        print(f"missing {src} {ver}")
    return 3 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
