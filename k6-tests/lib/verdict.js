// The verdict of one run across all its runners, read from Prometheus after the run. k6 evaluates thresholds in
// each runner on its own share of the load; with parallelism > 1 no runner sees the whole. The runners send every
// trend as a Prometheus native histogram (K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM, remote-written with
// --tag testid=<run id>, one series per runner), cumulative from each runner's start: summed at the run's last sample
// they are the whole run's distribution, so its p95/p99 are exact to the histogram's resolution (buckets 2^(1/8)
// apart: within 9%), not the worst runner's bound, and the failed share is exact (the runners' request counters).
//
//   k6 run -e PROMETHEUS_URL=http://prometheus:9090 -e TESTID=r7 -e MAX_FAILED_SHARE=0.01 -e MAX_P95_SECONDS=0.5 \
//     k6-tests/lib/verdict.js
import http from 'k6/http';
import { check } from 'k6';
import exec from 'k6/execution';

export const options = { vus: 1, iterations: 1, thresholds: { checks: ['rate==1'] } };

const PROMETHEUS_URL = (__ENV.PROMETHEUS_URL || 'http://127.0.0.1:9090').replace(/\/+$/, '');
const TESTID = __ENV.TESTID || '';
const WINDOW = __ENV.WINDOW || '6h';
const MAX_FAILED_SHARE = parseFloat(__ENV.MAX_FAILED_SHARE || '0.01');
const MAX_P95_SECONDS = parseFloat(__ENV.MAX_P95_SECONDS || '0.5');

function query(expr, time) {
  const at = time === undefined ? '' : `&time=${time}`;
  const res = http.get(`${PROMETHEUS_URL}/api/v1/query?query=${encodeURIComponent(expr)}${at}`);
  if (res.status !== 200) {
    throw new Error(`Prometheus answered ${res.status || res.error} to ${expr}`);
  }
  return res.json().data.result;
}

function scalar(expr, time) {
  const result = query(expr, time);
  return result.length === 0 ? null : parseFloat(result[0].value[1]);
}

// the time of the run's last sample: every runner's cumulative series is read there
function lastSample(run) {
  let last = null;
  for (const series of query(`k6_http_reqs_total{${run}}[${WINDOW}]`)) {
    for (const [t] of series.values) last = last === null ? t : Math.max(last, t);
  }
  return last;
}

export default function () {
  if (!/^[a-z0-9-]+$/.test(TESTID)) {
    exec.test.abort(`TESTID must be the run id (letters, digits, dashes), got "${TESTID}"`);
  }
  const run = `testid="${TESTID}"`;
  const at = lastSample(run);
  if (at === null) {
    // an error of its own (k6 exits 108), never a pass: a run Prometheus has not seen says nothing
    exec.test.abort(`Prometheus at ${PROMETHEUS_URL} holds no run ${TESTID} in the last ${WINDOW}: no verdict`);
  }
  const requests = scalar(`sum(k6_http_reqs_total{${run}})`, at);
  const failed = scalar(`sum(k6_http_reqs_total{${run},expected_response="false"})`, at) || 0;
  const duration = `sum(k6_http_req_duration_seconds{${run}})`;
  const p95 = scalar(`histogram_quantile(0.95, ${duration})`, at);
  const p99 = scalar(`histogram_quantile(0.99, ${duration})`, at);
  const counted = scalar(`histogram_count(${duration})`, at);
  const runners = scalar(`count(count by (instance_id) (k6_http_reqs_total{${run}}))`, at);
  console.log(`run ${TESTID}: ${requests} requests from ${runners} runner(s), ${failed} failed, ` +
    `p95 ${p95} s and p99 ${p99} s of all ${counted} request durations (native histograms summed over runners)`);
  check(requests, { 'the run sent requests that Prometheus received': (n) => n !== null && n > 0 });
  check(counted, { 'every request has its duration in the histograms': (n) => n === requests });
  check(requests === null ? 1 : failed / requests, {
    [`at most ${MAX_FAILED_SHARE * 100}% of all runners' requests failed`]: (share) => share <= MAX_FAILED_SHARE,
  });
  check(p95, { [`the run's p95 is under ${MAX_P95_SECONDS} s`]: (v) => v !== null && v < MAX_P95_SECONDS });
}
