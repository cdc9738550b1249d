// What every endpoint's SLO shares unless its service's slo.js states its own: at most 1% of requests failed, at
// least 99% of checks passed. Read by lib/thresholds.js (k6) and by the perflab chart (files/k6 -> k6-tests), which
// reads the object as JSON: keep it JSON (quoted keys, no trailing commas) and comments on lines of their own.
export default {
  "failed": 0.01,
  "checks": 0.99
};
