// mail's endpoint SLOs, stated once, in milliseconds (p95, p99: the percentile's limit). The smoke and
// k6-tests/office/day.js turn them into thresholds (lib/thresholds.js); the perflab chart's dashboards divide the
// server-side percentiles by them. JSON inside, as lib/slo.js says.
export default {
  "endpoints": {
    "list": {
      "p95": 500,
      "scenarios": { "mail/load": { "p95": 2000, "why": "seed 000's list shape: 200 callers at once" } }
    },
    "read": {
      "p95": 1500,
      "why": "every EML shape of the seed is read: 4 KB, 712 KB and 22 MB, its attachments streamed",
      "scenarios": {
        "office/day": { "p95": 500, "why": "the day reads mails under 100 KB only" },
        "mail/load": { "p95": 10000, "why": "seed 000's read-large shape: 80 callers reading the 22 MB mail at once" }
      }
    },
    "send": {
      "p95": 500,
      "scenarios": { "mail/send": { "p95": 1000, "why": "seed 000's send shape: 150 senders on two cores" } }
    }
  }
};
