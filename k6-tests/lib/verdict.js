// The verdict of one run across all its runners, read from Prometheus after the run. k6 evaluates thresholds in
// each runner on its own share of the load; with parallelism > 1 no runner sees the whole. The runners' metrics
// (remote-written with --tag testid=<run id>, one series per runner: k6-operator tags each with instance_id) are
// summed here: the failed share is exact; the p95 is bounded from above by the worst runner's p95 (if no runner has
// more than 5% of its requests above X, the whole run has no more than 5% above X), so a pass is a real pass.
//
//   k6 run -e PROMETHEUS_URL=http://prometheus:9090 -e TESTID=r7 -e MAX_FAILED_SHARE=0.01 -e MAX_P95_SECONDS=0.5 \
//     k6-tests/lib/verdict.js
import http from 'k6/http';
import { check } from 'k6';

export const options = { vus: 1, iterations: 1, thresholds: { checks: ['rate==1'] } };

const PROMETHEUS_URL = (__ENV.PROMETHEUS_URL || 'http://127.0.0.1:9090').replace(/\/+$/, '');
const TESTID = __ENV.TESTID || '';
const WINDOW = __ENV.WINDOW || '6h';
const MAX_FAILED_SHARE = parseFloat(__ENV.MAX_FAILED_SHARE || '0.01');
const MAX_P95_SECONDS = parseFloat(__ENV.MAX_P95_SECONDS || '0.5');

function scalar(expr) {
  const res = http.get(`${PROMETHEUS_URL}/api/v1/query?query=${encodeURIComponent(expr)}`);
  if (res.status !== 200) {
    throw new Error(`Prometheus answered ${res.status || res.error} to ${expr}`);
  }
  const result = res.json().data.result;
  return result.length === 0 ? null : parseFloat(result[0].value[1]);
}

export default function () {
  if (!/^[a-z0-9-]+$/.test(TESTID)) {
    throw new Error(`TESTID must be the run id (letters, digits, dashes), got "${TESTID}"`);
  }
  const run = `testid="${TESTID}"`;
  const requests = scalar(`sum(last_over_time(k6_http_reqs_total{${run}}[${WINDOW}]))`);
  const failed = scalar(`sum(last_over_time(k6_http_reqs_total{${run},expected_response="false"}[${WINDOW}]))`) || 0;
  const worstP95 = scalar(`max(last_over_time(k6_http_req_duration_p95{${run}}[${WINDOW}]))`);
  const runners = scalar(`count(count by (instance_id) (last_over_time(k6_http_reqs_total{${run}}[${WINDOW}])))`);
  console.log(`run ${TESTID}: ${requests} requests from ${runners} runner(s), ${failed} failed, worst runner p95 ${worstP95} s`);
  check(requests, { 'the run sent requests that Prometheus received': (n) => n !== null && n > 0 });
  check(requests === null ? 1 : failed / requests, {
    [`at most ${MAX_FAILED_SHARE * 100}% of all runners' requests failed`]: (share) => share <= MAX_FAILED_SHARE,
  });
  check(worstP95, { [`every runner's p95 is under ${MAX_P95_SECONDS} s`]: (p95) => p95 !== null && p95 < MAX_P95_SECONDS });
}
