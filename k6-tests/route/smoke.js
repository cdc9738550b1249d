// Smoke of every route endpoint through the gateway: a route created, its metadata, its points in each encoding,
// gzip and the 304 of a repeated read. Thresholds are the SLOs of ./slo.js.
import http from 'k6/http';
import { check, fail } from 'k6';
import { BASE_URL, requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { profileOptions } from '../lib/profiles.js';
import { failures, latency } from '../lib/thresholds.js';
import { routeBody, routeHeaders } from './common.js';
import slo from './slo.js';

export const options = profileOptions({
  rate: 10,
  vus: 10,
  maxVUs: 40,
  thresholds: Object.assign(failures(slo), latency(slo, ['points'])),
});

export function setup() {
  requireService(http, '/v1/routes/1', { headers: routeHeaders() });
  const created = http.post(`${BASE_URL}/v1/routes`, routeBody(2000, 'k6 smoke'),
    { headers: routeHeaders({ 'Content-Type': 'application/json' }), tags: { name: 'create' } });
  if (created.status !== 201) {
    fail(`creating a route answered ${created.status}: ${created.body}`);
  }
  return { id: created.json('id') };
}

export default function (route) {
  const base = `${BASE_URL}/v1/routes/${route.id}`;
  const meta = http.get(base, { headers: routeHeaders(), tags: { name: 'route' } });
  check(meta, { 'route has its 2,000 points counted': (r) => r.status === 200 && r.json('point_count') === 2000 });

  const accept = ['application/json', 'application/x-ndjson', 'application/vnd.perflab.polyline'][__ITER % 3];
  const points = http.get(`${base}/points`, {
    headers: routeHeaders({ Accept: accept, 'Accept-Encoding': 'gzip' }), tags: { name: 'points' },
  });
  check(points, {
    'points are 200 in the asked encoding': (r) => r.status === 200 && String(r.headers['Content-Type']).startsWith(accept),
    'points carry a strong ETag': (r) => /^"/.test(r.headers['Etag'] || ''),
  });

  const again = http.get(`${base}/points`, {
    headers: routeHeaders({ Accept: accept, 'Accept-Encoding': 'gzip', 'If-None-Match': points.headers['Etag'] || '' }),
    tags: { name: 'points-revalidate' },
  });
  check(again, { 'a repeated read is 304': (r) => r.status === 304 });
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || 'route-smoke');
}
