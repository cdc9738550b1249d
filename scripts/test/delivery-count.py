#!/usr/bin/env python3
"""Counts what the SMTP server received for one load run against what mail committed.

Every mail whose subject starts with RUN (committed in perflab_mail) must reach each of its recipients exactly
once: the messages are read back from GreenMail's REST API and matched by their X-Perflab-Mail header.

  delivery-count.py RUN [--json]      exit 1 when a committed mail is missing or a message has no committed mail
"""
import json
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from collections import Counter

run = sys.argv[1]
as_json = "--json" in sys.argv
root = os.environ["PERFLAB_ROOT"]
sock = os.path.join(os.environ.get("PERFLAB_RUN", os.path.join(root, ".run")), "mariadb.sock")
api = f"http://127.0.0.1:{os.environ.get('PERFLAB_SMTP_API_PORT', '18025')}"


def sql(db, query):
    out = subprocess.run(["mariadb", "--no-defaults", f"--socket={sock}", "-uroot", "-N", "-B", db, "-e", query],
                         check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


committed = {int(no): to for no, to in sql("perflab_mail", f"SELECT no, to_addrs FROM mail_content WHERE subject LIKE '{run} %'")}
expected = Counter((no, addr.strip()) for no, to in committed.items() for addr in to.split(","))
# recipients of the run, committed or not (a rolled-back mail of the baseline may still have been delivered)
recipients = {addr for _, addr in expected}
recipients |= {u["email"] for u in json.load(urllib.request.urlopen(f"{api}/api/user")) if u["email"].startswith(run + "-")}

received = Counter()
message_ids = Counter()
for addr in sorted(recipients):
    url = f"{api}/api/user/{urllib.parse.quote(addr)}/messages/INBOX/"
    try:
        messages = json.load(urllib.request.urlopen(url))
    except urllib.error.HTTPError:
        messages = []
    for m in messages:
        found = re.search(r"^X-Perflab-Mail: (\d+)\r?$", m["mimeMessage"], re.M)
        if found:
            received[(int(found.group(1)), addr)] += 1
            message_ids[(m.get("Message-ID"), addr)] += 1

missing = [k for k in expected if received[k] == 0]
duplicates = sum(n - 1 for k, n in received.items() if n > 1)
unexpected = [k for k in received if k not in expected]
result = {
    "run": run, "committed_mails": len(committed), "expected_messages": sum(expected.values()),
    "received_messages": sum(received.values()), "delivered_once": sum(1 for k in expected if received[k] == 1),
    "missing": len(missing), "duplicates": duplicates,
    "duplicates_with_same_message_id": sum(n - 1 for n in message_ids.values() if n > 1),
    "without_committed_mail": len(unexpected),
}
if as_json:
    print(json.dumps(result))
else:
    print("  " + ", ".join(f"{k}={v}" for k, v in result.items()))
sys.exit(1 if missing or unexpected else 0)
