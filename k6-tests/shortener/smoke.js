// Smoke of the shortener through the gateway: each iteration creates one link and follows it ten times
// (seed 004's mix). Small and bounded: it checks the SLOs of ./slo.js, it does not look for the limit.
import http from 'k6/http';
import { check, fail } from 'k6';
import { Trend, Counter } from 'k6/metrics';
import { BASE_URL, authHeaders, requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { profileOptions } from '../lib/profiles.js';
import { failures, latency } from '../lib/thresholds.js';
import slo from './slo.js';

const createDuration = new Trend('shortener_create_duration', true);
const redirectDuration = new Trend('shortener_redirect_duration', true);
const edgeHits = new Counter('shortener_edge_cache_hits');

export const options = profileOptions({
  rate: 20,
  vus: 20,
  maxVUs: 100,
  thresholds: Object.assign(failures(slo), latency(slo, ['create', 'redirect'],
    { metrics: { create: 'shortener_create_duration', redirect: 'shortener_redirect_duration' } })),
});

export function setup() {
  const probe = requireService(http, '/s/setup-probe-unknown');
  if (probe.status !== 404) {
    fail(`gateway at ${BASE_URL}: an unknown code answered ${probe.status}, not 404`);
  }
}

export default function () {
  const created = http.post(
    `${BASE_URL}/v1/short-links`,
    JSON.stringify({ url: `https://example.com/k6/${__VU}/${__ITER}` }),
    { headers: authHeaders({ 'Content-Type': 'application/json' }), tags: { name: 'create' } },
  );
  createDuration.add(created.timings.duration);
  if (!check(created, { 'create is 201': (r) => r.status === 201 })) {
    return;
  }
  const code = created.json('code');
  for (let i = 0; i < 10; i++) {
    const res = http.get(`${BASE_URL}/s/${code}`, { redirects: 0, tags: { name: 'redirect' } });
    redirectDuration.add(res.timings.duration);
    check(res, {
      'redirect is 301 or 302': (r) => r.status === 301 || r.status === 302,
      'redirect points at the link': (r) => r.headers.Location === `https://example.com/k6/${__VU}/${__ITER}`,
    });
    if (res.headers['X-Perflab-Edge-Cache'] === 'hit') {
      edgeHits.add(1);
    }
  }
}

export function handleSummary(data) {
  return summaries(data, 'shortener-smoke');
}
