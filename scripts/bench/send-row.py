#!/usr/bin/env python3
"""One phase of bench-send.sh: its load run's summary, the pools' timeouts and the delivery count, as a row of the report and a line of the results file."""
import json, sys
phase, summary, mail_to, send_to, count, results = sys.argv[1:7]
m = json.load(open(summary))["metrics"]
v = lambda name, key: m.get(name, {}).get("values", {}).get(key, 0)
c = json.loads(count) if count else {}
secs = m["http_reqs"]["values"]["count"] / m["http_reqs"]["values"]["rate"]
print(f"{phase:<20} {v('mail_send_accepted','count') / secs:>10.1f} {v('mail_send_duration','p(95)'):>8.0f} "
      f"{v('mail_send_duration','avg'):>8.0f} {int(v('mail_send_overloaded','count')):>6} {int(v('mail_send_server_errors','count')):>5} "
      f"{mail_to:>7}/{send_to:<4} {c.get('committed_mails','?'):>9} {c.get('delivered_once','?'):>9} "
      f"{c.get('missing','?'):>7} {c.get('duplicates','?'):>5} {c.get('without_committed_mail','?'):>7}")
with open(results, "a") as f:
    f.write(json.dumps(dict(c, phase=phase, accepted_per_s=v('mail_send_accepted', 'count') / secs,
                            p95_ms=v('mail_send_duration', 'p(95)'), avg_ms=v('mail_send_duration', 'avg'),
                            overloaded=v('mail_send_overloaded', 'count'), server_errors=v('mail_send_server_errors', 'count'),
                            hikari_timeouts=int(mail_to) + int(send_to))) + "\n")
