// One redirect URL at a constant arrival rate (an open model: the rate is offered whatever the latency, unlike wrk's
// closed loop of connections). scripts/bench/bench-gateway.sh's open-model rows: the same rate against the shortener
// direct, bare Spring Cloud Gateway and the gateway's proxy hop, the p50 and p99 each adds read side by side.
//
//   URL=http://127.0.0.1:8083/s/<code> RATE=5000 DURATION=15s WARMUP=0s MAX_VUS=1000 k6 run k6-tests/shortener/hop.js
import http from 'k6/http';
import { check } from 'k6';
import { summaries } from '../lib/summary.js';
import { profileOptions } from '../lib/profiles.js';
import { failures, latency } from '../lib/thresholds.js';
import slo from './slo.js';

const URL = __ENV.URL;

export const options = Object.assign(profileOptions({
  rate: 1000,
  vus: 50,
  maxVUs: 1000,
  thresholds: Object.assign(failures(slo), latency(slo, ['redirect'])),
}), { discardResponseBodies: true });

export function setup() {
  if (!URL) throw new Error('set URL to a redirect to time');
}

export default function () {
  const res = http.get(URL, { redirects: 0, tags: { name: 'redirect' } });
  check(res, { 'a redirect': (r) => r.status === 301 || r.status === 302 });
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || 'shortener-hop');
}
