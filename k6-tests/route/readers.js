// Seed 002's load: many readers of one 20k-point route at once. MODE=wave is the seed's JMeter plan (VUS users,
// one request each, all started together); MODE=sustained keeps VUS readers reading for DURATION. Every reader
// accepts gzip, as a browser or app does. Bounded: MAX_DURATION caps a wave, DURATION a sustained run.
// ROUTES=id,id,... spreads the readers over several routes (reader n reads the n-th, round robin) instead of ROUTE.
import http from 'k6/http';
import { check, fail } from 'k6';
import { BASE_URL } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { latency } from '../lib/thresholds.js';
import { routeHeaders } from './common.js';
import slo from './slo.js';

const ROUTES = (__ENV.ROUTES || __ENV.ROUTE || '').split(',').filter((id) => id !== '');
const VUS = Number(__ENV.VUS || 1000);
const path = () => __ENV.POINTS_PATH || `/v1/routes/${ROUTES[(__VU - 1) % ROUTES.length]}/points`;

const scenario = (__ENV.MODE || 'wave') === 'wave'
  ? { executor: 'per-vu-iterations', vus: VUS, iterations: 1, maxDuration: __ENV.MAX_DURATION || '120s' }
  : { executor: 'constant-vus', vus: VUS, duration: __ENV.DURATION || '20s', gracefulStop: '30s' };

export const options = {
  discardResponseBodies: true,
  scenarios: { readers: scenario },
  thresholds: {
    http_req_failed: ['rate==0'],
    checks: ['rate==1'],
    ...latency(slo, ['points'], { metrics: { points: 'http_req_duration' }, scenario: 'route/readers' }),
  },
};

export function setup() {
  if (ROUTES.length === 0 && !__ENV.POINTS_PATH) {
    fail('set ROUTE (or ROUTES) to the id of a route the caller may read');
  }
}

export default function () {
  const res = http.get(`${BASE_URL}${path()}`, {
    headers: routeHeaders({ 'Accept-Encoding': 'gzip' }), tags: { name: 'points' }, timeout: '60s',
  });
  check(res, { 'points are 200': (r) => r.status === 200 });
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || 'route-readers');
}
