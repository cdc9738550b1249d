#!/usr/bin/env python3
"""bench-send.sh's summary over its phases' results: the outbox against the seed's design and, with CHECK=1, exit 1 when a committed mail was not delivered once, the outbox refused or failed a send, or the baseline no longer starves its pool."""
import json, sys
rows = {r["phase"]: r for r in map(json.loads, open(sys.argv[1]))}
base, fixed = rows.get("nested-requires-new"), rows.get("outbox")
if base and fixed and base["accepted_per_s"]:
    print(f"outbox / nested-requires-new: {fixed['accepted_per_s'] / base['accepted_per_s']:.1f}x accepted/s, "
          f"p95 {base['p95_ms'] / max(fixed['p95_ms'], 1):.1f}x lower")
problems = []
for phase, r in rows.items():
    if phase == "nested-requires-new":
        continue  # the seed's design: its half-written rows are reported, not judged
    if r.get("missing", 1) or r.get("without_committed_mail", 1):
        problems.append(f"{phase}: {r.get('missing')} committed mails not delivered, {r.get('without_committed_mail')} messages without a committed mail")
    if phase != "faults" and r.get("duplicates", 1):
        problems.append(f"{phase}: {r['duplicates']} duplicate messages")
if fixed and (fixed["overloaded"] or fixed["server_errors"] or fixed["hikari_timeouts"]):
    problems.append(f"outbox: {fixed['overloaded']:.0f} 503s, {fixed['server_errors']:.0f} 5xx, {fixed['hikari_timeouts']} pool timeouts")
if base and not (base["hikari_timeouts"] or base["overloaded"]):
    problems.append("nested-requires-new did not starve the pool: the baseline no longer reproduces seed 000")
for p in problems:
    print("CHECK FAILED: " + p)
sys.exit(1 if problems and sys.argv[2] == "1" else 0)
