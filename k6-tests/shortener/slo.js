// shortener's endpoint SLOs, stated once, in milliseconds (p95, p99: the percentile's limit). The smoke and
// k6-tests/office/day.js turn them into thresholds (lib/thresholds.js); the perflab chart's dashboards divide the
// server-side percentiles by them. JSON inside, as lib/slo.js says.
export default {
  "endpoints": {
    "create": { "p95": 300 },
    "redirect": {
      "p95": 100,
      "p99": 250,
      "scenarios": {
        "shortener/reads": { "p95": 1000, "p99": 1000, "why": "the read stress profile (seed 004's redirect storm): every request of it is a redirect" }
      }
    }
  }
};
