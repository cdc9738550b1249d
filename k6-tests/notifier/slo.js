// notifier's endpoint SLOs, stated once, in milliseconds (p95, p99: the percentile's limit). The smoke and
// k6-tests/office/day.js turn them into thresholds (lib/thresholds.js); the perflab chart's dashboards divide the
// server-side percentiles by them. JSON inside, as lib/slo.js says.
export default {
  "endpoints": {
    "sign": {
      "p95": 100,
      "why": "seed 001: a signing within 100 ms; the office day on two cores measured 39-65 ms, so it holds there too"
    },
    "member": {
      "p95": 300,
      "why": "BCrypt (strength 10) is most of a sign-up's time",
      "scenarios": {
        "notifier/signup": { "p95": 100, "why": "seed 003's own target: a sign-up within 100 ms while the relay takes 1 s per mail" }
      }
    }
  }
};
