#!/usr/bin/env python3
"""One phase of bench-notifier.sh: its load run's summary, its notification rows and the SMS sink's deliveries, as a row of the report and a line of the results file."""
import json, sys
phase, lo, hi, req_to, work_to, rejected, drained, channel, summary, rows, sink, results = sys.argv[1:13]
lo, hi = int(lo), int(hi)
try:
    m = json.load(open(summary))["metrics"]
except (OSError, ValueError):
    m = {}
v = lambda name, key: m.get(name, {}).get("values", {}).get(key, 0) or 0
mail = channel == "MAIL"
d = lambda key: v("http_req_duration{name:member}" if mail else "http_req_duration{name:sign}", key)
ok, s503, s504, other = (int(v(n, "count")) for n in ("notifier_signed", "notifier_sign_503", "notifier_sign_504", "notifier_sign_other"))
if mail:  # sign-ups: what was not a 201 is counted as other
    ok = int(v("notifier_signed_up", "count")); s503 = s504 = 0; other = int(v("http_reqs", "count")) - ok - 1
answered = ok + s503 + s504 + other
status = dict(line.rstrip("\n").split("\t") for line in open(rows) if line.strip())
count = {e["message_id"]: e["count"] for e in json.load(open(sink))}
# a mail is counted by its SENT row (GreenMail is not asked per Message-ID)
at_sink = (lambda i: 1 if status[i] == "SENT" else 0) if mail else (lambda i: count.get(f"notification-{i}", 0))
lost = sum(1 for i, s in status.items() if s != "SENT" or at_sink(i) == 0)
dups = sum(1 for i in status if at_sink(i) > 1)
delivered = sum(at_sink(i) for i in status)
orphans = 0 if mail else sum(1 for k in count if k.startswith("notification-") and lo < int(k.split("-")[1]) <= hi
                             and k.split("-")[1] not in status)
r = dict(phase=phase, channel=channel, signings=answered, ok=ok, s503=s503, s504=s504, other=other,
         dropped=int(v("dropped_iterations", "count")), p50=d("med"), p95=d("p(95)"), p99=d("p(99)"),
         req_pool_timeouts=int(float(req_to)), work_pool_timeouts=int(float(work_to)), rejected=int(float(rejected)),
         notifications=len(status), sms=delivered, lost=lost, duplicates=dups, orphans=orphans, drain_s=drained)
print(f"{phase:<20} {answered:>6} {100 * ok / max(answered, 1):>6.2f}% {s503:>5} {s504:>5} {r['dropped']:>5} "
      f"{r['p50']:>7.0f} {r['p95']:>7.0f} {r['p99']:>7.0f} {r['req_pool_timeouts']:>5}/{r['work_pool_timeouts']:<4} "
      f"{r['rejected']:>6} {len(status):>6} {delivered:>6} {lost:>5} {dups:>5} {drained:>6}")
open(results, "a").write(json.dumps(r) + "\n")
