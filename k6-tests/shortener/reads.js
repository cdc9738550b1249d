// Reads of one link's details through the gateway at a constant rate, every one reaching a shortener pod (the edge
// cache only answers redirects). Used while a pod is deleted (scripts/test/test-node.sh): with the PDB, the preStop pause,
// readiness and graceful shutdown, no request may fail (LATENCY=printed there).
import http from 'k6/http';
import { check, fail } from 'k6';
import { BASE_URL, authHeaders, requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { latency } from '../lib/thresholds.js';
import slo from './slo.js';

const CODE = __ENV.CODE || '';

export const options = {
  scenarios: {
    reads: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE || 40),
      timeUnit: '1s',
      duration: __ENV.DURATION || '30s',
      preAllocatedVUs: 20,
      // MAX_VUS: a rate that saturates the pods (scripts/test/test-node.sh's HPA surge) needs rate x latency of them
      maxVUs: Number(__ENV.MAX_VUS || 50),
    },
  },
  thresholds: {
    http_req_failed: ['rate==0'],
    checks: ['rate==1'],
    // LATENCY=printed: a run that measures a disruption (scripts/test/test-node.sh deletes a pod under it) judges failures
    // only; its latency is reported, as a replacement JVM starting on the same CPUs says nothing of the SLO
    ...(__ENV.LATENCY === 'printed' ? {} : latency(slo, ['redirect'], { metrics: { redirect: 'http_req_duration' }, scenario: 'shortener/reads' })),
  },
};

export function setup() {
  if (!CODE) {
    fail('set CODE to a short code the caller owns');
  }
  requireService(http, `/v1/short-links/${CODE}`, { headers: authHeaders() });
}

export default function () {
  const res = http.get(`${BASE_URL}/v1/short-links/${CODE}`, { headers: authHeaders(), tags: { name: 'describe' } });
  if (!check(res, { 'describe is 200': (r) => r.status === 200 })) {
    console.warn(`describe: ${res.status} in ${Math.round(res.timings.duration)} ms ${res.error || ''} ${String(res.body).slice(0, 200)}`);
  }
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || 'shortener-reads');
}
