// mail's endpoint SLOs, stated once, in milliseconds (p95, p99: the percentile's limit). The smoke and
// k6-tests/office/day.js turn them into thresholds (lib/thresholds.js); the perflab chart's dashboards divide the
// server-side percentiles by them. JSON inside, as lib/slo.js says.
export default {
  "endpoints": {
    "list": { "p95": 500 },
    "read": {
      "p95": 1500,
      "why": "every EML shape of the seed is read: 4 KB, 712 KB and 22 MB, its attachments streamed",
      "scenarios": {
        "office/day": { "p95": 500, "why": "the day reads mails under 100 KB only" }
      }
    },
    "send": { "p95": 500 }
  }
};
