#!/usr/bin/env python3
"""Runs the API examples of the README and the docs against the running local stack, as a reader would paste them.

Every fenced block of README.md, docs/**/*.md and services/*/README.md is read; its `VAR=$(...)` lines and its
`curl` commands (continuation lines joined, trailing comments dropped) run in order in one bash environment from the
repository root. A `<name>` placeholder is filled from the latest JSON answer that had a top-level `name` field
(`<code>` from the short link just created, `<delivery_id>` from the mail just sent); an example whose placeholder
no earlier answer filled fails, as does any answer of 400 or more (a GET's 404 is asked again for 10 s: the
relay hands a delivery over moments after the send), so an example the API refuses fails the build.

  scripts/test/check-doc-commands.py [FILE.md ...]
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```")
PLACEHOLDER = re.compile(r"<([a-z_]+)>")


def blocks(path):
    inside, block = False, []
    for line in path.read_text().splitlines():
        if FENCE.match(line.strip()):
            if inside:
                yield block
            inside, block = not inside, []
        elif inside:
            block.append(line)


def commands(block):
    """Logical lines (backslash continuations joined) that assign a variable or call curl, comments dropped."""
    logical, pending = [], ""
    for line in block:
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    for line in logical:
        line = strip_comment(line).strip()
        if line.startswith("curl ") or re.match(r"^[A-Z_]+=\$\(", line):
            yield line


def strip_comment(line):
    """The line up to a `#` that starts a comment (outside quotes, after a blank)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def main(argv):
    files = [Path(a) for a in argv] or sorted(
        [ROOT / "README.md", *ROOT.glob("docs/**/*.md"), *ROOT.glob("services/*/README.md")])
    env = dict(os.environ)
    filled = {}
    ran = failed = 0
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "body"
        for path in files:
            for block in blocks(path):
                for command in commands(block):
                    where = f"{os.path.relpath(path, ROOT)}: {command[:110]}"
                    missing = [p for p in PLACEHOLDER.findall(command) if p not in filled]
                    if missing:
                        print(f"  FAIL  {where}\n        no earlier answer had {', '.join(missing)}")
                        failed += 1
                        continue
                    command = PLACEHOLDER.sub(lambda m: str(filled[m.group(1)]), command)
                    ran += 1
                    if not command.startswith("curl "):
                        name = command.partition("=")[0]
                        result = subprocess.run(["bash", "-c", f'{command}; printf %s "${name}"'], cwd=ROOT,
                                                env=env, capture_output=True, text=True)
                        if result.returncode != 0 or not result.stdout:
                            print(f"  FAIL  {where}\n        {result.stderr.strip()}")
                            failed += 1
                            continue
                        env[name] = result.stdout
                        print(f"  ok    {where}")
                        continue
                    # the reader's command, its body to a file and its status printed last
                    run = f"{command} -o {shlex.quote(str(out))} -w '\\n%{{http_code}}' --max-time 30"
                    # a read of what an earlier example just started (a delivery the relay hands over within
                    # moments) may answer 404 for a moment, as it would for the reader: asked again for up to 10 s
                    for attempt in range(21):
                        result = subprocess.run(["bash", "-c", run], cwd=ROOT, env=env, capture_output=True, text=True)
                        status = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else "none"
                        if status != "404" or re.search(r"-X ?POST|-d ", command):
                            break
                        time.sleep(0.5)
                    body = out.read_text(errors="replace") if out.exists() else ""
                    if "\r\n\r\n" in body:  # curl -i: headers before the body
                        body = body.split("\r\n\r\n", 1)[1]
                    try:
                        answer = json.loads(body)
                        if isinstance(answer, dict):
                            filled.update({k: v for k, v in answer.items() if isinstance(v, (str, int))})
                    except ValueError:
                        pass
                    if result.returncode != 0 or not status.isdigit() or int(status) >= 400:
                        print(f"  FAIL  {where}\n        status {status} (curl exit {result.returncode}): {body[:300]}")
                        failed += 1
                    else:
                        print(f"  ok    {where} -> {status}")
    print(f"doc commands: {ran} ran, {failed} failed")
    if ran == 0:
        print("no command found: the check would pass anything")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
