// route's endpoint SLOs, stated once, in milliseconds (p95, p99: the percentile's limit). The smoke and
// k6-tests/office/day.js turn them into thresholds (lib/thresholds.js); the perflab chart's dashboards divide the
// server-side percentiles by them. JSON inside, as lib/slo.js says.
export default {
  "endpoints": {
    "points": {
      "p95": 1000,
      "why": "a whole route, thousands of points, in any encoding",
      "scenarios": {
        "route/readers": { "p95": 800, "why": "the readers profile (seed 002's load): every request of it is a route's points" }
      }
    }
  }
};
