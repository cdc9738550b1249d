// Seed 003's profile: one user signing up again and again for DURATION (the seed's 1 minute), each sign-up a new member
// whose welcome mail the relay takes 1 s to accept (the seed's mail; locally scripts/bench/bench-notifier.sh puts a relay
// that holds each mail's end of DATA for 1 s in front of GreenMail). The seed's SLO, a sign-up within 100 ms, is stated
// in ./slo.js (the member endpoint's statement for this script). The
// seed's start (in-transaction-sync) waited for the mail inside the request: 1,200 ms on average; @Async made it 176 ms.
//
//   k6 run -e TOKEN=... k6-tests/notifier/signup.js
import http from 'k6/http';
import { check } from 'k6';
import { Counter } from 'k6/metrics';
import { BASE_URL, requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { latency } from '../lib/thresholds.js';
import { notifierHeaders } from './common.js';
import slo from './slo.js';

const signedUp = new Counter('notifier_signed_up');

export const options = {
  scenarios: {
    seed003: { executor: 'constant-vus', vus: Number(__ENV.VUS || 1), duration: __ENV.DURATION || '1m' },
  },
  thresholds: Object.assign(latency(slo, ['member'], { scenario: 'notifier/signup' }), {
    'checks{check:a sign-up is 201}': ['rate==1'],
  }),
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

export function setup() {
  requireService(http, '/v1/notifications/1', { headers: notifierHeaders() });
  return { run: Date.now() };
}

export default function (data) {
  const body = JSON.stringify({ email: `seed003-${data.run}-${__VU}-${__ITER}@example.com`, name: 'k6',
    password: 'correct horse battery' });
  const res = http.post(`${BASE_URL}/v1/members`, body,
    { headers: notifierHeaders({ 'Content-Type': 'application/json' }), tags: { name: 'member' } });
  if (check(res, { 'a sign-up is 201': (r) => r.status === 201 })) {
    signedUp.add(1);
  }
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || 'notifier-signup');
}
