#!/usr/bin/env python3
"""A crash case's records looked up after the crash (scripts/test/reliability.sh): each one the service answered as created must be there, once. Prints found, missing and doubled (n/a for short links, looked up through the gateway)."""
import collections, json, sys, urllib.request
svc, created_file, rows_file, token, base = sys.argv[1:6]
created = [line.split()[2:4] for line in open(created_file) if line.strip()]
found = missing = 0
if svc == "shortener":
    for code, url in created:
        req = urllib.request.Request(f"{base}/v1/short-links/{code}", headers={"Authorization": f"Bearer {token}"})
        try:
            got = json.load(urllib.request.urlopen(req, timeout=10)).get("url")
        except Exception as e:
            got = repr(e)
        if got == url:
            found += 1
        else:
            missing += 1
            print(f"    not found: {code} ({url}): {got}", file=sys.stderr)
    print(found, missing, "n/a")
else:
    rows = [line.rstrip("\n").split("\t", 1) for line in open(rows_file) if line.strip()]
    by_id = {int(i): m for i, m in rows}
    twice = sum(1 for n in collections.Counter(m for _, m in rows).values() if n > 1)
    for i, marker in created:
        if by_id.get(int(i)) == marker:
            found += 1
        else:
            missing += 1
            print(f"    not found: {i} ({marker}): {by_id.get(int(i))}", file=sys.stderr)
    print(found, missing, twice)
